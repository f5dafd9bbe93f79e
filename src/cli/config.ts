// The one place environment variables are read. Every command resolves its options here.
import { homedir } from "node:os";
import { resolve } from "node:path";

export interface GlobalOptions {
  dataDir?: string;
}

/**
 * Data directory, one rule for every command: `--data-dir`, else `$RPAV_HOME`, else `~/.rpav`.
 */
export function resolveDataDir(opts: GlobalOptions, env: NodeJS.ProcessEnv = process.env): string {
  if (opts.dataDir) return resolve(opts.dataDir);
  if (env.RPAV_HOME) return resolve(env.RPAV_HOME);
  return resolve(homedir(), ".rpav");
}

export function isDebug(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.RPAV_DEBUG === "1" || env.RPAV_DEBUG === "true";
}

/** Where `rpav lab` keeps its state; the same default as src/platform/x11/desktop-lab.ts. */
export const LAB_STATE_DIR = "/tmp/rpav-lab";
