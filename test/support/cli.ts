import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built `rpav` executable (bin/rpav.js → dist/) as a user would. `npm test` builds dist first. */
export function rpav(args: string[], env: NodeJS.ProcessEnv = {}, cwd = ROOT, timeoutMs = 60_000): CliRun {
  const r = spawnSync(process.execPath, [`${ROOT}bin/rpav.js`, ...args], { cwd, env: { ...process.env, ...env }, encoding: "utf8", timeout: timeoutMs, maxBuffer: 64 << 20 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
