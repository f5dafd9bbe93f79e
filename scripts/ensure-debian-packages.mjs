// Installs the Debian packages of lab/debian-packages.txt that are missing (needs root).
// Used by scripts/ensure-setup.mjs (npm test / npm start) and by `rpav lab up`.
import { readFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

// System packages for the virtual desktop lab (Debian). Installed only when missing; needs root.
export function ensureDebianPackages({ log, run, root }) {
  if (process.platform !== "linux" || process.env.RPAV_SKIP_APT === "1") return;
  if (spawnSync("dpkg-query", ["--version"]).status !== 0) {
    log("not a Debian system: install the packages of lab/debian-packages.txt yourself for the lab tests.");
    return;
  }
  const wanted = readFileSync(join(root, "lab", "debian-packages.txt"), "utf8")
    .split("\n")
    .map((l) => l.replace(/#.*/, "").trim())
    .filter(Boolean);
  const q = spawnSync("dpkg-query", ["-W", "-f=${Package} ${db:Status-Status}\\n", ...wanted], { encoding: "utf8" });
  const installed = new Set(q.stdout.split("\n").filter((l) => l.endsWith(" installed")).map((l) => l.split(" ")[0]));
  const missing = wanted.filter((p) => !installed.has(p));
  if (missing.length === 0) return;
  if (process.getuid?.() !== 0) {
    log(`missing Debian packages (lab): ${missing.join(" ")}. Install them as root: sudo apt-get install -y ${missing.join(" ")}`);
    process.exit(1);
  }
  log(`installing Debian packages: ${missing.join(" ")}…`);
  run("apt-get", ["update", "-qq"]);
  run("apt-get", ["install", "-y", "-qq", "--no-install-recommends", ...missing], { DEBIAN_FRONTEND: "noninteractive" });
}


if (import.meta.url === `file://${process.argv[1]}`) {
  const root = join(dirname(fileURLToPath(import.meta.url)), "..");
  const log = (msg) => process.stderr.write(`[setup] ${msg}\n`);
  const run = (cmd, args, env = {}) => {
    const r = spawnSync(cmd, args, { cwd: root, stdio: ["ignore", "inherit", "inherit"], env: { ...process.env, ...env } });
    if (r.status !== 0) {
      log(`'${cmd} ${args.join(" ")}' failed (exit ${r.status ?? r.signal}).`);
      process.exit(r.status ?? 1);
    }
  };
  ensureDebianPackages({ log, run, root });
}
