#!/usr/bin/env node
// The layer check is dependency-cruiser's (rules in .dependency-cruiser.cjs); this entry point is
// kept for the habit `node scripts/check-layers.mjs` and runs the same thing as `npm run layers`.
import { spawnSync } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const bin = join(root, "node_modules/dependency-cruiser/bin/dependency-cruise.mjs");
const r = spawnSync(process.execPath, [bin, "src", "--config", ".dependency-cruiser.cjs", ...process.argv.slice(2)], { cwd: root, stdio: "inherit" });
process.exit(r.status ?? 1);
