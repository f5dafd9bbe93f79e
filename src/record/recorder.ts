// The recorder: listens to global input, groups it into actions (click, drag, a burst of typing,
// a key combination), and for each action keeps a screenshot just before and just after and the
// active window. The session is a folder with `session.jsonl` written append-only, one complete
// action a line (a crash loses at most the action in flight), and `shots/*.png`.
//
// Secrets: a burst typed into a field that `secretAt` says is a password is written as
// {secret: true, length} — the characters never reach the disk — and the field's box is painted
// over in both screenshots.
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { bboxScreenToFrame, type Frame } from "../core/frame.js";
import type { BBox, Point } from "../core/geometry.js";
import type { ScreenSource } from "../core/providers/screen-source.js";
import type { WindowDescriptor, WindowInfo } from "../core/providers/window-info.js";
import type { InputEventSource, RawInputEvent } from "../core/providers/input-event-source.js";

export const RAW_SESSION_V1 = "rawsession_v1";

export interface SessionWindow {
  id: string;
  title: string;
  app: string;
  bbox: readonly number[];
}

export interface SessionAction {
  seq: number;
  kind: "click" | "drag" | "type" | "key";
  /** X server time of the action's first event, ms. */
  t: number;
  button?: number;
  /** Screen point of the press (click, drag start). */
  x?: number;
  y?: number;
  /** Drag end. */
  x2?: number;
  y2?: number;
  text?: string;
  secret?: boolean;
  length?: number;
  combo?: string;
  window: SessionWindow | null;
  before: string | null;
  after: string | null;
}

export interface RecorderDeps {
  events: InputEventSource;
  screen: ScreenSource;
  windows: WindowInfo;
  /** Encodes a frame as PNG (the capture module's encoder). */
  encodePng: (frame: Frame) => Promise<Buffer>;
  /** Box of a password field at this point of this screen, if there is one there. */
  secretAt?: (frame: Frame, point: Point) => Promise<BBox | undefined>;
}

export interface RecorderOptions {
  dir: string;
  name: string;
  app?: string;
  /** Key (X keysym name) that stops the recording; default "Pause". */
  stopKey?: string;
  /** Delay before the "after" screenshot (default 600 ms). */
  settleMs?: number;
  /** Rolling capture period for "before" screenshots (default 200 ms). */
  captureEveryMs?: number;
  signal?: AbortSignal;
  onAction?: (a: SessionAction) => void;
}

const MODIFIERS: Record<string, string> = {
  Control_L: "ctrl", Control_R: "ctrl", Shift_L: "shift", Shift_R: "shift", Alt_L: "alt", Alt_R: "alt", Meta_L: "alt", Super_L: "super", Super_R: "super", ISO_Level3_Shift: "altgr",
};
const CONTROL_MASK = 4;
const ALT_MASK = 8;

interface Burst {
  chars: string[];
  t: number;
  before: Frame | undefined;
  window: SessionWindow | null;
  focus: { frame: Frame | undefined; point: Point } | undefined;
}

export class Recorder {
  private seq = 0;
  private latest: { frame: Frame; at: number }[] = [];
  private queue: Promise<void> = Promise.resolve();
  private burst: Burst | undefined;
  private press: { e: RawInputEvent; before: Frame | undefined; window: SessionWindow | null } | undefined;
  private lastClick: { frame: Frame | undefined; point: Point } | undefined;
  private stopped = false;
  private stopResolve: (() => void) | undefined;
  private errors: unknown[] = [];

  constructor(private readonly deps: RecorderDeps) {}

  /**
   * Records until the stop key, `signal` or `stop()`; returns the session folder and the problems
   * met on the way (a failed capture, a screenshot that could not be written), each once.
   */
  async record(o: RecorderOptions): Promise<{ dir: string; actions: number; problems: string[] }> {
    mkdirSync(join(o.dir, "shots"), { recursive: true });
    const file = join(o.dir, "session.jsonl");
    writeFileSync(file, `${JSON.stringify({ schema_version: RAW_SESSION_V1, name: o.name, app: o.app ?? "", started_at: new Date().toISOString() })}\n`);
    const settle = o.settleMs ?? 600;
    const stopKey = o.stopKey ?? "Pause";
    const done = new Promise<void>((r) => (this.stopResolve = r));
    const onAbort = () => this.stop();
    o.signal?.addEventListener("abort", onAbort);
    // The active window, refreshed with every rolling capture: a click on "OK" may close the
    // window before it can be asked, and the last one seen is then the right answer.
    let lastWindow: SessionWindow | null = null;
    const windowNow = async (): Promise<SessionWindow | null> => {
      const w: WindowDescriptor | undefined = await this.deps.windows.active().catch(() => undefined);
      if (w) lastWindow = { id: w.id, title: w.title, app: w.appName, bbox: [...w.bbox] };
      return lastWindow;
    };
    // Rolling capture: the latest screens, so "before" precedes the event.
    let capturing = true;
    const loop = (async () => {
      while (capturing) {
        try {
          const frame = await this.deps.screen.capture({ kind: "screen" });
          this.latest.push({ frame, at: performance.now() });
          await windowNow();
          if (this.latest.length > 3) this.latest.shift();
        } catch (e) {
          this.errors.push(e);
        }
        await new Promise((r) => setTimeout(r, o.captureEveryMs ?? 200));
      }
    })();
    type Content = { a: Omit<SessionAction, "seq" | "before" | "after">; mask?: BBox };
    // The sequence number is taken when the action happens; its content may still be settling
    // (a burst being checked for a password field), so jobs run in that order.
    const write = (content: Content | Promise<Content>, before: Frame | undefined) => {
      const seq = ++this.seq;
      const job = async () => {
        const { a, mask } = await content;
        await new Promise((r) => setTimeout(r, settle));
        const after = await this.deps.screen.capture({ kind: "screen" }).catch(() => undefined);
        const shot = async (f: Frame | undefined, which: string) => {
          if (!f) return null;
          const name = `shots/${String(seq).padStart(4, "0")}-${which}.png`;
          writeFileSync(join(o.dir, name), await this.deps.encodePng(mask ? paintOver(f, mask) : f));
          return name;
        };
        const action: SessionAction = { seq, ...a, before: await shot(before, "before"), after: await shot(after, "after") };
        appendFileSync(file, `${JSON.stringify(action)}\n`);
        o.onAction?.(action);
      };
      this.queue = this.queue.then(job, job).catch((e) => void this.errors.push(e));
    };
    const beforeOf = (e: RawInputEvent) => [...this.latest].reverse().find((f) => f.at <= e.host)?.frame ?? this.latest[0]?.frame;
    const flushBurst = () => {
      const b = this.burst;
      this.burst = undefined;
      if (!b || b.chars.length === 0) return;
      const text = b.chars.join("");
      const content = (async (): Promise<Content> => {
        const box = b.focus?.frame && this.deps.secretAt ? await this.deps.secretAt(b.focus.frame, b.focus.point).catch(() => undefined) : undefined;
        return box ? { a: { kind: "type", t: b.t, secret: true, length: [...text].length, window: b.window }, mask: box } : { a: { kind: "type", t: b.t, text, window: b.window } };
      })();
      write(content, b.before);
    };
    const mods = new Set<string>();
    const handle = async (e: RawInputEvent) => {
      if (this.stopped) return;
      if (e.ev === "key_down" || e.ev === "key_up") {
        const mod = MODIFIERS[e.keysym ?? ""];
        if (mod) {
          if (e.ev === "key_down") mods.add(mod);
          else mods.delete(mod);
          return;
        }
        if (e.ev === "key_up") return;
        if (e.keysym === stopKey) {
          this.stop();
          return;
        }
        const ctrlOrAlt = (e.state & (CONTROL_MASK | ALT_MASK)) !== 0 || mods.has("ctrl") || mods.has("alt");
        if (e.char && e.char !== "\n" && e.char !== "\t" && !ctrlOrAlt) {
          if (!this.burst) this.burst = { chars: [], t: e.t, before: beforeOf(e), window: await windowNow(), focus: this.lastClick };
          this.burst.chars.push(e.char);
          return;
        }
        flushBurst();
        const held = ["ctrl", "alt", "shift", "super"].filter((m) => mods.has(m));
        const key = e.keysym && /^[A-Z]$/.test(e.keysym) && held.includes("shift") ? e.keysym.toLowerCase() : e.keysym ?? `keycode${e.keycode}`;
        // The window of a key is the one seen just before it (rolling, ≤ 200 ms old): asked now, it
        // would already be the dialog that ctrl+o opened.
        write({ a: { kind: "key", t: e.t, combo: [...held, key].join("+"), window: lastWindow ?? (await windowNow()) } }, beforeOf(e));
        return;
      }
      if (e.ev === "button_down") {
        flushBurst();
        // The window is read at the press: a click on "OK" may close it before the release.
        this.press = { e, before: beforeOf(e), window: await windowNow() };
        return;
      }
      const press = this.press;
      this.press = undefined;
      if (!press) return;
      const moved = Math.hypot(e.x - press.e.x, e.y - press.e.y) > 6;
      const window = press.window;
      if (moved) write({ a: { kind: "drag", t: press.e.t, button: press.e.button, x: press.e.x, y: press.e.y, x2: e.x, y2: e.y, window } }, press.before);
      else {
        this.lastClick = { frame: press.before, point: [press.e.x, press.e.y] };
        write({ a: { kind: "click", t: press.e.t, button: press.e.button, x: press.e.x, y: press.e.y, window } }, press.before);
      }
    };
    let chain = Promise.resolve();
    await this.deps.events.start((e) => {
      chain = chain.then(() => handle(e)).catch((err) => void this.errors.push(err));
    });
    if (this.stopped) this.stopResolve?.();
    await done;
    await this.deps.events.stop();
    await chain;
    flushBurst();
    capturing = false;
    await loop;
    await this.queue;
    appendFileSync(file, `${JSON.stringify({ kind: "end", at: new Date().toISOString(), actions: this.seq })}\n`);
    o.signal?.removeEventListener("abort", onAbort);
    const problems = [...new Set(this.errors.map((e) => (e instanceof Error ? e.message : String(e))))];
    return { dir: o.dir, actions: this.seq, problems };
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.stopResolve?.();
  }
}

/** A copy of `frame` with `box` (screen coordinates) filled with grey. */
export function paintOver(frame: Frame, box: BBox): Frame {
  const data = new Uint8Array(frame.data);
  const c = frame.channels;
  const [fx1, fy1, fx2, fy2] = bboxScreenToFrame(frame, box);
  const x1 = Math.max(0, Math.floor(fx1));
  const y1 = Math.max(0, Math.floor(fy1));
  const x2 = Math.min(frame.width, Math.ceil(fx2));
  const y2 = Math.min(frame.height, Math.ceil(fy2));
  for (let y = y1; y < y2; y++) for (let x = x1; x < x2; x++) for (let k = 0; k < Math.min(c, 3); k++) data[(y * frame.width + x) * c + k] = 128;
  return { ...frame, data };
}
