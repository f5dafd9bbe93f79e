#!/usr/bin/env node
// One set-up step shared by `npm test`, `npm start` and `.ci/run`.
// It runs before any dependency is installed, so it uses Node built-ins only.
// Each step is idempotent and cheap when there is nothing to do.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ensureDebianPackages } from "./ensure-debian-packages.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const log = (msg) => process.stderr.write(`[setup] ${msg}\n`);

function run(cmd, args, env = {}) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
  if (r.status !== 0) {
    log(`'${cmd} ${args.join(" ")}' failed (exit ${r.status ?? r.signal}). Fix the error above and run again.`);
    process.exit(r.status ?? 1);
  }
}

function checkNode() {
  const [major, minor] = process.versions.node.split(".").map(Number);
  if (major < 20 || (major === 20 && minor < 19)) {
    log(`Node ${process.versions.node} is too old: RPA Vision needs Node >= 20.19.`);
    process.exit(1);
  }
}

// npm dependencies: install when node_modules is missing or the lock file changed.
function ensureNodeModules() {
  const lock = join(root, "package-lock.json");
  const stamp = join(root, "node_modules", ".rpav-lock-hash");
  const want = createHash("sha256").update(readFileSync(lock)).digest("hex");
  if (existsSync(stamp) && readFileSync(stamp, "utf8") === want) return;
  log("installing npm dependencies (npm ci)…");
  // onnxruntime-node's postinstall tries to download CUDA parts; the CPU binaries ship in the package.
  run("npm", ["ci", "--no-audit", "--no-fund", "--ignore-scripts=false"], { ONNXRUNTIME_NODE_INSTALL: "skip" });
  writeFileSync(stamp, want);
}

// The native X11 helpers (capture with MIT-SHM, input with XTEST, events with RECORD, window queries), rebuilt when a source changes.
function buildNative() {
  if (process.platform !== "linux") return;
  for (const [name, libs] of [["x11-grab", ["-lX11", "-lXext"]], ["x11-input", ["-lX11", "-lXtst"]], ["x11-record", ["-lX11", "-lXtst"]], ["x11-windows", ["-lX11"]]]) {
    const src = join(root, "native", `${name}.c`);
    const out = join(root, "native", "build", `rpav-${name}`);
    const stamp = `${out}.hash`;
    const want = createHash("sha256").update(readFileSync(src)).digest("hex");
    if (existsSync(out) && existsSync(stamp) && readFileSync(stamp, "utf8") === want) continue;
    log(`compiling native/${name}.c…`);
    mkdirSync(dirname(out), { recursive: true });
    run("cc", ["-O2", "-Wall", "-o", out, src, ...libs]);
    writeFileSync(stamp, want);
  }
}

function build() {
  log("compiling TypeScript (dist/)…");
  run(process.execPath, [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.build.json"]);
}

checkNode();
ensureDebianPackages({ log, run, root });
ensureNodeModules();
buildNative();
build();
