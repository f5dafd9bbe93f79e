// Brings the lab desktop up once for the lab tests (display :97, or $RPAV_TEST_DISPLAY when several
// checkouts test at once; a developer's lab on :99 is
// left alone) and takes it down afterwards with every process it started.
import type { TestProject } from "vitest/node";
import { labDown, labUp, type LabSession } from "../../src/platform/x11/desktop-lab.js";

export const LAB_DISPLAY = Number(process.env.RPAV_TEST_DISPLAY ?? 97);

declare module "vitest" {
  export interface ProvidedContext {
    lab: LabSession;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const session = await labUp({ display: LAB_DISPLAY, log: (m) => process.stderr.write(`[lab] ${m}\n`) });
  project.provide("lab", session);
  return async () => {
    await labDown({ display: LAB_DISPLAY });
  };
}
