// Brings the lab desktops up once for the lab tests (see labs.ts: one per worker) and takes them down afterwards with
// every process they started. Each test file drives the desktop of its worker (support.ts).
import type { TestProject } from "vitest/node";
import { labDown, labUp, type LabSession } from "../../src/platform/x11/desktop-lab.js";
import { rmSync } from "node:fs";
import { claimFile, labDisplays } from "./labs.js";

declare module "vitest" {
  export interface ProvidedContext {
    labs: LabSession[];
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const sessions: LabSession[] = [];
  for (const display of labDisplays()) {
    rmSync(claimFile(`:${display}`), { force: true }); // a claim an earlier run left
    sessions.push(await labUp({ display, log: (m) => process.stderr.write(`[lab :${display}] ${m}\n`) }));
  }
  project.provide("labs", sessions);
  return async () => {
    for (const display of labDisplays()) await labDown({ display });
  };
}
