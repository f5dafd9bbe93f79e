// Running external programs (xdotool, xprop, apt-get…) with timeouts, abort signals and typed errors.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { AbortedError, ProviderUnavailableError, RpaError, TimeoutError } from "./errors.js";

export interface RunOptions {
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
  input?: string;
  signal?: AbortSignal;
  /** Debian package that provides the program, named in the error when it is missing. */
  packageHint?: string;
  cwd?: string;
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Non-zero exit of an external program, with its stderr. */
export class CommandFailedError extends RpaError {
  constructor(message: string, readonly result: RunResult) {
    super("command_failed", message, { details: { code: result.code, stderr: result.stderr.slice(0, 2000) } });
  }
}

/**
 * Runs a program to completion and returns its output. A missing program is
 * ProviderUnavailableError (naming `packageHint`); a timeout kills it and throws TimeoutError;
 * `check: true` (default) turns a non-zero exit into CommandFailedError.
 */
export function runCommand(cmd: string, args: readonly string[], opts: RunOptions & { check?: boolean } = {}): Promise<RunResult> {
  const { timeoutMs = 30_000, check = true } = opts;
  return new Promise((resolve, reject) => {
    if (opts.signal?.aborted) return reject(new AbortedError(`${cmd} was not started: aborted.`));
    const child = spawn(cmd, args, { env: opts.env ?? process.env, cwd: opts.cwd, stdio: ["pipe", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener("abort", onAbort);
      fn();
    };
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      finish(() => reject(new TimeoutError(`${cmd} ${args.join(" ")} did not finish within ${timeoutMs} ms.`)));
    }, timeoutMs);
    const onAbort = () => {
      child.kill("SIGKILL");
      finish(() => reject(new AbortedError(`${cmd} was aborted.`)));
    };
    opts.signal?.addEventListener("abort", onAbort, { once: true });
    child.stdout.on("data", (d: Buffer) => out.push(d));
    child.stderr.on("data", (d: Buffer) => err.push(d));
    child.on("error", (e: NodeJS.ErrnoException) =>
      finish(() =>
        reject(
          e.code === "ENOENT"
            ? new ProviderUnavailableError(`Program "${cmd}" is not installed${opts.packageHint ? ` (Debian package ${opts.packageHint}; run \`rpav lab up\` or \`apt-get install ${opts.packageHint}\`)` : ""}.`, { cause: e, details: { program: cmd } })
            : e,
        ),
      ),
    );
    child.on("close", (code, sig) =>
      finish(() => {
        const result = { code: code ?? (sig ? 128 : 1), stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8") };
        if (check && result.code !== 0) reject(new CommandFailedError(`${cmd} ${args.join(" ")} exited with ${result.code}: ${result.stderr.trim().slice(0, 500)}`, result));
        else resolve(result);
      }),
    );
    child.stdin.on("error", () => undefined);
    child.stdin.end(opts.input ?? "");
  });
}

/** Resolves after `ms`, or rejects with AbortedError when the signal fires first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new AbortedError());
    const t = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(new AbortedError());
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** Polls `probe` until it returns a defined value or `timeoutMs` passes (then TimeoutError with `what`). */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, opts: { timeoutMs: number; intervalMs?: number; signal?: AbortSignal }): Promise<T> {
  const deadline = Date.now() + opts.timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() >= deadline) throw new TimeoutError(`Timed out after ${opts.timeoutMs} ms waiting for ${what}.`);
    await sleep(opts.intervalMs ?? 50, opts.signal);
  }
}

/** Ends a long-lived helper: closes its stdin (its request loop ends) and kills it if still alive after `graceMs`. */
export function endHelper(child: ChildProcessWithoutNullStreams, graceMs = 2000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise<void>((resolve) => {
    child.once("exit", () => resolve());
    child.stdin.end();
    setTimeout(() => child.kill("SIGKILL"), graceMs).unref();
  });
}

/** Whether a process of this host exists: signal 0 answers, or EPERM (another user's). Never our own process group (pid ≤ 0). */
export function pidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false; // kill(0) would signal our own process group
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}
