import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { LAB_COUNT } from "./test/lab/labs.js";

// Two projects: unit/integration tests run in parallel; lab tests drive virtual desktops (focus, pointer,
// keyboard), one file at a time on each desktop, after the others.
export default defineConfig({
  test: {
    // CI also writes a JSON report, from which .ci/run prints "N passed, N failed".
    reporters: process.env.RPAV_VITEST_JSON ? ["default", "json"] : ["default"],
    outputFile: process.env.RPAV_VITEST_JSON ? { json: process.env.RPAV_VITEST_JSON } : undefined,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    projects: [
      {
        test: {
          name: "unit",
          // Every core, and two on a 2-core machine: vitest's default (the cores less one) ran the unit files one at a
          // time there, while many of them wait on the processes they start (the CLI, the daemon, PostgreSQL). Measured
          // on 2 cores: 7 min 11 s one at a time (CI's log) → 4 min 27 s two at a time, the same 107 files passing.
          maxWorkers: Math.max(2, availableParallelism()),
          testTimeout: 60_000,
          hookTimeout: 120_000,
          include: ["src/**/*.test.ts", "test/**/*.test.ts"],
          exclude: ["test/lab/**", "**/node_modules/**"],
          globalSetup: ["test/store/pg-global-setup.ts"],
        },
      },
      {
        test: {
          name: "lab",
          include: ["test/lab/**/*.test.ts"],
          globalSetup: ["test/lab/global-setup.ts"],
          // One file at a time per desktop, one desktop per worker (test/lab/labs.ts).
          maxWorkers: LAB_COUNT,
          fileParallelism: LAB_COUNT > 1,
          testTimeout: 90_000,
          hookTimeout: 120_000,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
