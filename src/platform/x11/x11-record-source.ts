// Global input events of an X display through the RECORD extension (native/x11-record.c).
// Works under Xvfb started with `+extension RECORD` (the lab does). Measured here: every XTEST
// keystroke and click of the lab's input driver arrives, non-ASCII characters included.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { DisplayUnavailableError, ProviderUnavailableError } from "../../core/errors.js";
import type { EventWindow, InputEventSource, ModifierName, RawInputEvent } from "../../core/providers/input-event-source.js";

export const DEFAULT_RECORD_HELPER = fileURLToPath(new URL("../../../native/build/rpav-x11-record", import.meta.url));

export class X11RecordSource implements InputEventSource {
  private child: ChildProcess | undefined;

  constructor(private readonly opts: { env?: NodeJS.ProcessEnv; helper?: string } = {}) {}

  async start(onEvent: (e: RawInputEvent) => void): Promise<void> {
    const env = this.opts.env ?? process.env;
    if (!env.DISPLAY) throw new DisplayUnavailableError("Cannot record: DISPLAY is not set. Run `rpav lab up` (or set DISPLAY) first.");
    const helper = this.opts.helper ?? DEFAULT_RECORD_HELPER;
    if (!existsSync(helper)) throw new ProviderUnavailableError(`The recording helper ${helper} is not built: run \`npm run setup\` (needs libxtst-dev).`);
    const child = spawn(helper, [], { env, stdio: ["pipe", "pipe", "pipe"] });
    this.child = child;
    let stderr = "";
    child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
    const lines = createInterface({ input: child.stdout! });
    await new Promise<void>((resolve, reject) => {
      let ready = false;
      lines.on("line", (line) => {
        let msg: Record<string, unknown>;
        try {
          msg = JSON.parse(line) as Record<string, unknown>;
        } catch {
          return;
        }
        if (msg.ready) {
          ready = true;
          resolve();
          return;
        }
        const e = fromX11(msg);
        if (e) onEvent(e);
      });
      child.on("exit", (code) => {
        if (ready) return;
        const why = stderr.trim() || `exit code ${code}`;
        if (code === 2) reject(new DisplayUnavailableError(`Cannot record: ${why}.`));
        else reject(new ProviderUnavailableError(`Cannot record input: ${why}.`));
      });
      child.on("error", (e) => reject(new ProviderUnavailableError(`Cannot start ${helper}: ${e.message}.`, { cause: e })));
    });
  }

  async stop(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise<void>((r) => child.once("exit", () => r()));
    child.stdin!.end();
    const timer = setTimeout(() => child.kill("SIGKILL"), 2000);
    await exited;
    clearTimeout(timer);
  }
}

// X11 modifier masks: Shift 1, Lock 2, Control 4, Mod1 (Alt) 8, Mod4 (Super) 64, Mod5 (ISO Level3, AltGr) 128.
const MASKS: readonly [number, ModifierName][] = [[1, "shift"], [2, "capslock"], [4, "ctrl"], [8, "alt"], [64, "super"], [128, "altgr"]];
const EVENTS = new Set(["key_down", "key_up", "button_down", "button_up"]);

/** One line of the helper as a platform-neutral event; undefined for a line that is not one. */
export function fromX11(msg: Record<string, unknown>): RawInputEvent | undefined {
  const ev = msg.ev;
  if (typeof ev !== "string" || !EVENTS.has(ev) || typeof msg.t !== "number" || typeof msg.x !== "number" || typeof msg.y !== "number") return undefined;
  const state = typeof msg.state === "number" ? msg.state : 0;
  const modifiers = MASKS.filter(([m]) => (state & m) !== 0).map(([, n]) => n);
  const w = msg.window as Record<string, unknown> | undefined;
  const window: EventWindow | undefined =
    w && typeof w.id === "string" && Array.isArray(w.bbox) && w.bbox.length === 4
      ? { id: w.id, title: String(w.title ?? ""), app: String(w.app ?? ""), bbox: w.bbox.map(Number) as unknown as EventWindow["bbox"] }
      : undefined;
  return {
    t: msg.t,
    ev: ev as RawInputEvent["ev"],
    x: msg.x,
    y: msg.y,
    modifiers,
    ...(typeof msg.button === "number" ? { button: msg.button } : {}),
    ...(typeof msg.keysym === "string" && msg.keysym !== "" ? { key: msg.keysym } : {}),
    ...(typeof msg.char === "string" && msg.char !== "" ? { char: msg.char } : {}),
    ...(window ? { window } : {}),
    host: performance.now(),
  };
}
