// A private PostgreSQL cluster for the store tests (127.0.0.1:54331), or the server named by
// RPAV_TEST_PG_URL. Stopped after the run.
import type { TestProject } from "vitest/node";
import { clusterDown, clusterUp } from "../../src/store/postgres-cluster.js";

declare module "vitest" {
  export interface ProvidedContext {
    pgUrl: string;
  }
}

const opts = { dir: "/tmp/rpav-test-pg", port: 54331 };

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (process.env.RPAV_TEST_PG_URL) {
    project.provide("pgUrl", process.env.RPAV_TEST_PG_URL);
    return async () => undefined;
  }
  project.provide("pgUrl", await clusterUp(opts));
  return () => clusterDown(opts);
}
