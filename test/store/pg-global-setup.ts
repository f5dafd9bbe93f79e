// A private PostgreSQL cluster for the store tests (127.0.0.1:54331), or the server named by
// RPAV_TEST_PG_URL. Stopped after the run.
import type { TestProject } from "vitest/node";
import { clusterAppUrlWithPassword, clusterDown, clusterUp } from "../../src/store/postgres-cluster.js";

declare module "vitest" {
  export interface ProvidedContext {
    pgUrl: string;
  }
}

// $RPAV_TEST_PG_PORT moves it, for several checkouts testing at once.
const port = Number(process.env.RPAV_TEST_PG_PORT ?? 54331);
const opts = { dir: port === 54331 ? "/tmp/rpav-test-pg" : `/tmp/rpav-test-pg-${port}`, port };

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (process.env.RPAV_TEST_PG_URL) {
    project.provide("pgUrl", process.env.RPAV_TEST_PG_URL);
    return async () => undefined;
  }
  // A new cluster is scram-sha-256: the tests get the app role's URL with its password (in memory only).
  await clusterUp(opts);
  project.provide("pgUrl", clusterAppUrlWithPassword(opts));
  return () => clusterDown(opts);
}
