// The recorder: listens to global input, groups it into actions (click, drag, a burst of typing,
// a key combination), and for each action keeps a screenshot just before and just after and the
// active window. The session is a folder with `session.jsonl` written append-only, one complete
// action a line (a crash loses at most the action in flight), and `shots/*.png`.
//
// Secrets: whether a burst of typing is secret is decided from what the screen shows, not from the
// last click: the keyboard focus may have moved since (Tab, Shift+Tab, Return, a dialog opening).
// When the burst ends, `secretField` compares the screen when typing started with the screen after
// it: the field that changed is the focused one; its caption, its role and whether the typed text
// is readable there (a password field shows bullets) decide. When nothing locates the field, the
// burst is secret (a false positive costs a variable; a false negative leaks a password). A secret
// burst is written as {secret: true, length} — the characters never reach the disk — and the
// field's box (or, in doubt, the whole window) is painted over in both screenshots.
//
// Scroll: wheel notches (buttons 4–7) are `scroll` actions (position, dy/dx in notches), notches
// in one direction at one place within 600 ms coalesced into one. Button 2 is a click with
// `button: 2` (middle click).
import { appendFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { bboxScreenToFrame, type Frame } from "../core/frame.js";
import type { BBox, Point } from "../core/geometry.js";
import type { ScreenSource } from "../core/providers/screen-source.js";
import type { WindowDescriptor, WindowInfo } from "../core/providers/window-info.js";
import type { EventWindow, InputEventSource, RawInputEvent } from "../core/providers/input-event-source.js";
import { makeDirs } from "../core/make-dirs.js";

export const RAW_SESSION_V1 = "rawsession_v1";

export interface SessionWindow {
  id: string;
  title: string;
  app: string;
  bbox: readonly number[];
}

export interface SessionAction {
  seq: number;
  kind: "click" | "drag" | "type" | "key" | "scroll";
  /** X server time of the action's first event, ms. */
  t: number;
  button?: number;
  /** Screen point of the press (click, drag start). */
  x?: number;
  y?: number;
  /** Scroll: notches, dy > 0 down, dx > 0 right. */
  dx?: number;
  dy?: number;
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
  /**
   * Whether a burst of typing went into a secret field, from the screens before and after it;
   * without it every burst is secret.
   */
  secretField?: (q: SecretQuery) => Promise<SecretVerdict>;
}

export interface SecretQuery {
  /** The screen when typing started and after it ended. */
  before: Frame | undefined;
  after: Frame | undefined;
  /** What was typed (never written anywhere; to tell whether the field shows it). */
  text: string;
  /** Window that had the keyboard when typing started. */
  window: SessionWindow | null;
  /** Where the person last clicked, when no keyboard focus change happened since. */
  click: Point | undefined;
}

export interface SecretVerdict {
  secret: boolean;
  /** The field's box on screen (what to paint over when secret); undefined when not located. */
  box: BBox | undefined;
  /** Why, in words, for the log. */
  why: string;
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
  /** Why a burst was found secret or not (for the log; never holds the text). */
  onSecretVerdict?: (seq: number, v: SecretVerdict) => void;
}

const MODIFIERS: Record<string, string> = {
  Control_L: "ctrl", Control_R: "ctrl", Shift_L: "shift", Shift_R: "shift", Alt_L: "alt", Alt_R: "alt", Meta_L: "alt", Super_L: "super", Super_R: "super", ISO_Level3_Shift: "altgr",
  Caps_Lock: "capslock", Num_Lock: "numlock", Mode_switch: "altgr",
};
const WHEEL: Record<number, { dx: number; dy: number }> = { 4: { dx: 0, dy: -1 }, 5: { dx: 0, dy: 1 }, 6: { dx: -1, dy: 0 }, 7: { dx: 1, dy: 0 } };

interface Burst {
  chars: string[];
  t: number;
  before: Frame | undefined;
  window: SessionWindow | null;
  /** The last click, when the keyboard focus has not moved since. */
  click: Point | undefined;
  /** Host time of the first and the last key. */
  startHost: number;
  lastHost: number;
}

interface Scroll {
  t: number;
  x: number;
  y: number;
  dx: number;
  dy: number;
  last: number;
  before: Frame | undefined;
  window: SessionWindow | null;
}

const sessionWindow = (w: EventWindow): SessionWindow => ({ id: w.id, title: w.title, app: w.app, bbox: [...w.bbox] });
const describedWindow = (w: WindowDescriptor): SessionWindow => ({ id: w.id, title: w.title, app: w.appName, bbox: [...w.bbox] });

/**
 * The window a list of windows (seen before a press) shows under `p`, decorations included: the active one when it
 * holds the point (a dialog over its main window), else the last one mapped that does.
 */
export function windowUnder(windows: readonly WindowDescriptor[], p: readonly [number, number]): WindowDescriptor | undefined {
  const holds = (w: WindowDescriptor) => w.visible && p[0] >= w.bbox[0] - w.frame.left && p[0] < w.bbox[2] + w.frame.right && p[1] >= w.bbox[1] - w.frame.top && p[1] < w.bbox[3] + w.frame.bottom;
  const under = windows.filter(holds);
  return under.find((w) => w.active) ?? under.at(-1);
}

export class Recorder {
  private seq = 0;
  private latest: { frame: Frame; at: number }[] = [];
  private queue: Promise<void> = Promise.resolve();
  private burst: Burst | undefined;
  private press: { e: RawInputEvent; before: Frame | undefined; window: SessionWindow | null } | undefined;
  private lastClick: { point: Point } | undefined;
  private scroll: Scroll | undefined;
  private stopped = false;
  private stopResolve: (() => void) | undefined;
  private errors: unknown[] = [];

  constructor(private readonly deps: RecorderDeps) {}

  /**
   * Records until the stop key, `signal` or `stop()`; returns the session folder and the problems
   * met on the way (a failed capture, a screenshot that could not be written), each once.
   */
  async record(o: RecorderOptions): Promise<{ dir: string; actions: number; problems: string[] }> {
    makeDirs(join(o.dir, "shots"), "The session folder");
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
      if (w) lastWindow = describedWindow(w);
      return lastWindow;
    };
    // Every window, refreshed with every rolling capture (≤ 200 ms old at a press): a click held
    // briefly on a dialog's « OK » closes it before the press is handled, and the window under the
    // pointer asked then is the one underneath. The one these showed there, gone since, was clicked.
    let seenWindows: WindowDescriptor[] = [];
    const windowsNow = async (): Promise<void> => {
      const all = await this.deps.windows.list().catch(() => undefined);
      if (!all) return;
      seenWindows = all;
      const active = all.find((w) => w.active);
      if (active) lastWindow = describedWindow(active);
    };
    // Rolling capture: the latest screens, so "before" precedes the event.
    let capturing = true;
    const loop = (async () => {
      while (capturing) {
        try {
          const frame = await this.deps.screen.capture({ kind: "screen" });
          this.latest.push({ frame, at: performance.now() });
          await windowsNow();
          if (this.latest.length > 3) this.latest.shift();
        } catch (e) {
          this.errors.push(e);
        }
        await new Promise((r) => setTimeout(r, o.captureEveryMs ?? 200));
      }
    })();
    // The screen after an action is taken `settle` ms after it, or when the next action starts if
    // that comes sooner (then the latest rolling frame since the action, else the screen right
    // then): never once the next action has taken effect, however long the jobs before it wait.
    const pendingAfters = new Set<{ since: number; timer: NodeJS.Timeout; done: (f: Promise<Frame | undefined>) => void }>();
    const captureNow = () => this.deps.screen.capture({ kind: "screen" }).catch(() => undefined);
    const takeAfter = (): Promise<Frame | undefined> =>
      new Promise((resolve) => {
        const p = {
          since: performance.now(),
          timer: setTimeout(() => p.done(captureNow()), settle),
          done: (f: Promise<Frame | undefined>) => {
            clearTimeout(p.timer);
            pendingAfters.delete(p);
            resolve(f);
          },
        };
        pendingAfters.add(p);
      });
    const cutAfters = (host: number) => {
      for (const p of [...pendingAfters]) {
        const seen = this.latest.filter((f) => f.at > p.since && f.at <= host).at(-1)?.frame;
        p.done(seen ? Promise.resolve(seen) : captureNow());
      }
    };
    type Content = { a: Omit<SessionAction, "seq" | "before" | "after">; mask?: BBox };
    // The sequence number is taken when the action happens; jobs run in that order. A burst's
    // content is known only once the screen after it is seen (is it secret?).
    const write = (content: Content | ((after: Frame | undefined) => Promise<Content>), before: Frame | undefined) => {
      const seq = ++this.seq;
      const afterShot = takeAfter();
      const job = async () => {
        const after = await afterShot;
        const { a, mask } = typeof content === "function" ? await content(after) : content;
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
    // The screen once a burst ended and before the key that ended it took effect: the latest
    // rolling frame taken after the burst's last key, before `until`.
    const endOf = (b: Burst, until: number): Frame | undefined => {
      const frames = this.latest.filter((f) => f.at <= until);
      return frames.filter((f) => f.at >= b.lastHost).at(-1)?.frame;
    };
    const flushBurst = (until = Infinity) => {
      const b = this.burst;
      this.burst = undefined;
      if (!b || b.chars.length === 0) return;
      const text = b.chars.join("");
      b.chars.length = 0;
      const seq = this.seq + 1;
      const end = until === Infinity ? undefined : endOf(b, until);
      // No rolling frame since the last key (the next key came at once): the screen right now.
      const endNow = end ? undefined : this.deps.screen.capture({ kind: "screen" }).catch(() => undefined);
      write(async (after): Promise<Content> => {
        const verdict: SecretVerdict = this.deps.secretField
          ? await this.deps.secretField({ before: b.before, after: end ?? (await endNow) ?? after, text, window: b.window, click: b.click }).catch((e: unknown) => ({ secret: true, box: undefined, why: `the field could not be checked (${e instanceof Error ? e.message : String(e)})` }))
          : { secret: true, box: undefined, why: "no way to see the field" };
        o.onSecretVerdict?.(seq, verdict);
        if (!verdict.secret) return { a: { kind: "type", t: b.t, text, window: b.window } };
        // In doubt about where the field is, the whole window (or screen) is painted over.
        const mask = verdict.box ?? (b.window ? (b.window.bbox as unknown as BBox) : ([0, 0, 1e6, 1e6] as const));
        return { a: { kind: "type", t: b.t, secret: true, length: [...text].length, window: b.window }, mask };
      }, b.before);
    };
    const flushScroll = () => {
      const sc = this.scroll;
      this.scroll = undefined;
      if (!sc) return;
      write({ a: { kind: "scroll", t: sc.t, x: sc.x, y: sc.y, ...(sc.dy ? { dy: sc.dy } : {}), ...(sc.dx ? { dx: sc.dx } : {}), window: sc.window } }, sc.before);
    };
    const flushAll = (until = Infinity) => {
      flushBurst(until);
      flushScroll();
    };
    const mods = new Set<string>();
    const handle = async (e: RawInputEvent) => {
      if (this.stopped) return;
      if (e.ev === "key_down" || e.ev === "key_up") {
        const mod = MODIFIERS[e.key ?? ""];
        if (mod) {
          if (e.ev === "key_down") mods.add(mod);
          else mods.delete(mod);
          return;
        }
        if (e.ev === "key_up") return;
        // A key that had no name and types nothing (unbound when pressed) is no step, and does not
        // cut the text typed around it.
        if (!e.key && !e.char) return;
        if (e.key === stopKey) {
          this.stop();
          return;
        }
        cutAfters(e.host);
        flushScroll();
        const ctrlOrAlt = e.modifiers.includes("ctrl") || e.modifiers.includes("alt") || mods.has("ctrl") || mods.has("alt");
        if (e.char && e.char !== "\n" && e.char !== "\t" && !ctrlOrAlt) {
          if (!this.burst) this.burst = { chars: [], t: e.t, before: beforeOf(e), window: lastWindow ?? (await windowNow()), click: this.lastClick?.point, startHost: e.host, lastHost: e.host };
          this.burst.chars.push(e.char);
          this.burst.lastHost = e.host;
          return;
        }
        flushBurst(e.host);
        // Any other key may move the keyboard focus (Tab, Shift+Tab, Return, a shortcut opening a
        // dialog): the last click no longer tells where typing goes.
        this.lastClick = undefined;
        const held = ["ctrl", "alt", "shift", "super"].filter((m) => mods.has(m) || e.modifiers.includes(m as never));
        const name = e.key ?? `U+${(e.char?.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;
        const key = /^[A-Z]$/.test(name) && held.includes("shift") ? name.toLowerCase() : name;
        const combo = [...held, key].join("+");
        // The window of a key is the one seen just before it (rolling, ≤ 200 ms old): asked now, it
        // would already be the dialog that ctrl+o opened.
        write({ a: { kind: "key", t: e.t, combo, window: lastWindow ?? (await windowNow()) } }, beforeOf(e));
        return;
      }
      const wheel = WHEEL[e.button ?? 0];
      // The window of a press is the one under the pointer at the press, from the event itself: a
      // click on "OK" closes the dialog before anyone could ask.
      let pressWindow = e.window ? sessionWindow(e.window) : undefined;
      if (e.ev === "button_down") {
        const seen = windowUnder(seenWindows, [e.x, e.y]);
        if (seen && seen.id !== pressWindow?.id) {
          // Nothing asked at the press, or the one seen before it gone or unmapped since (a dialog closing): that one.
          const now = pressWindow ? await this.deps.windows.get(seen.id).catch(() => seen) : undefined;
          if (!pressWindow || !now?.visible) pressWindow = describedWindow(seen);
        } else if (seen && pressWindow && pressWindow.title === "" && seen.title !== "") {
          // The same window, its title read as it was going away (the click closed it): the title seen before the press.
          pressWindow = { ...pressWindow, title: seen.title };
        }
      }
      if (e.ev === "button_down" && pressWindow) lastWindow = pressWindow;
      if (e.ev === "button_down") cutAfters(e.host);
      if (wheel) {
        if (e.ev !== "button_down") return;
        flushBurst(e.host);
        const sc = this.scroll;
        const same = sc && Math.sign(sc.dx) === Math.sign(wheel.dx) && Math.sign(sc.dy) === Math.sign(wheel.dy) && e.t - sc.last <= 600 && Math.hypot(e.x - sc.x, e.y - sc.y) <= 24;
        if (!same) {
          flushScroll();
          this.scroll = { t: e.t, x: e.x, y: e.y, dx: 0, dy: 0, last: e.t, before: beforeOf(e), window: pressWindow ?? lastWindow ?? (await windowNow()) };
        }
        const cur = this.scroll!;
        cur.dx += wheel.dx;
        cur.dy += wheel.dy;
        cur.last = e.t;
        return;
      }
      if (e.ev === "button_down") {
        flushAll(e.host);
        this.press = { e, before: beforeOf(e), window: pressWindow ?? (await windowNow()) };
        return;
      }
      const press = this.press;
      if (!press || press.e.button !== e.button) return;
      this.press = undefined;
      const moved = Math.hypot(e.x - press.e.x, e.y - press.e.y) > 6;
      const window = press.window;
      this.lastClick = undefined;
      if (moved) write({ a: { kind: "drag", t: press.e.t, button: press.e.button, x: press.e.x, y: press.e.y, x2: e.x, y2: e.y, window } }, press.before);
      else {
        if (press.e.button === 1) this.lastClick = { point: [press.e.x, press.e.y] };
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
    flushAll();
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
