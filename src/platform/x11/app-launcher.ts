// Launching a desktop application on an X11 display and waiting until its window is mapped.
// Product code (`rpav start`, the demo replay); the lab adds its AT-SPI readiness check on top
// (src/lab/apps.ts) through `ready`.
import { spawn, type ChildProcess } from "node:child_process";
import { ProviderUnavailableError } from "../../core/errors.js";
import { waitFor } from "../../core/process.js";
import type { WindowDescriptor, WindowInfo, WindowQuery } from "../../core/providers/window-info.js";
import { variantEnv, type AppVariant } from "./desktop-lab.js";

export interface LaunchSpec {
  command: string;
  args?: string[];
  variant?: AppVariant;
  /** Extra environment. */
  env?: Record<string, string>;
  /** How to recognise the window; default: the process id. */
  window?: WindowQuery;
  /** Extra readiness check once the window is mapped (polled every 100 ms until true). */
  ready?: { what: string; check: (env: NodeJS.ProcessEnv, pid: number) => Promise<boolean> };
  timeoutMs?: number;
  cwd?: string;
}

export interface AppHandle {
  pid: number;
  window: WindowDescriptor;
  env: NodeJS.ProcessEnv;
  process: ChildProcess;
  /** Everything the app printed on stdout so far (yad prints form values there). */
  stdout(): string;
  /** Resolves with the exit code once the process exits. */
  exited: Promise<number | null>;
  /** Ends the app (SIGTERM, then SIGKILL after 2 s). */
  stop(): Promise<void>;
}

/** Launches on the desktop of `desktop.env` (a LabSession, or any environment with DISPLAY). */
export async function launchApp(desktop: { env: NodeJS.ProcessEnv }, windows: WindowInfo, spec: LaunchSpec): Promise<AppHandle> {
  const env: NodeJS.ProcessEnv = { ...process.env, ...desktop.env, ...variantEnv(spec.variant), ...spec.env };
  delete env.NO_AT_BRIDGE;
  const child = spawn(spec.command, spec.args ?? [], { env, cwd: spec.cwd, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout?.on("data", (d: Buffer) => (out += d.toString("utf8")));
  child.stderr?.on("data", (d: Buffer) => (err += d.toString("utf8")));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const spawnError = new Promise<never>((_, reject) =>
    child.on("error", (e: NodeJS.ErrnoException) => reject(new ProviderUnavailableError(`Cannot start ${spec.command}: ${e.code === "ENOENT" ? "not installed (see lab/debian-packages.txt)" : e.message}.`, { cause: e }))),
  );
  const timeoutMs = spec.timeoutMs ?? 20_000;
  const pid = child.pid as number;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    const t = setTimeout(() => child.kill("SIGKILL"), 2000);
    await exited;
    clearTimeout(t);
  };
  try {
    const window = await Promise.race([spawnError, windows.waitFor(spec.window ?? { pid }, { timeoutMs })]);
    const ready = spec.ready;
    if (ready) await Promise.race([spawnError, waitFor(ready.what, async () => ((await ready.check(env, pid)) ? true : undefined), { timeoutMs, intervalMs: 100 })]);
    return { pid, window, env, process: child, stdout: () => out, exited, stop };
  } catch (e) {
    await stop();
    if (e instanceof Error && err.trim()) e.message += ` (stderr of ${spec.command}: ${err.trim().slice(0, 300)})`;
    throw e;
  }
}
