import { defineConfig } from "vitest/config";

// Two projects: unit/integration tests run in parallel; lab tests drive one shared virtual
// desktop (focus, pointer, keyboard), so they run one file at a time, after the others.
export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    projects: [
      {
        test: {
          name: "unit",
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
          fileParallelism: false,
          testTimeout: 90_000,
          hookTimeout: 120_000,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
