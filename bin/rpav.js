#!/usr/bin/env node
// Thin launcher: the CLI lives in dist/ (compiled from src/cli). Run `npm run setup` once after a clone.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const main = new URL("../dist/cli/main.js", import.meta.url);
if (!existsSync(fileURLToPath(main))) {
  process.stderr.write("rpav: the CLI is not built yet. Run `npm run setup` (installs dependencies and compiles) in the project folder.\n");
  process.exit(1);
}
const { runCli } = await import(main.href);
process.exitCode = await runCli(process.argv);
