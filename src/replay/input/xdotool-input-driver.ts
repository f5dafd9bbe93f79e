// InputDriver for X11 through xdotool (Debian package xdotool).
// Measured here: `xdotool type` drops "\n" in GTK text views (we send Return), and loses
// non-ASCII below --delay 5 (we use >= 12 ms within a chunk); chained commands in one process
// avoid the ~13 ms process start per action. `type --args 1` ends the text argument so more
// commands can follow, and `--` protects text that starts with "-".
import { AbortedError, InvalidInputError, throwIfAborted } from "../../core/errors.js";
import type { Point } from "../../core/geometry.js";
import { runCommand, sleep } from "../../core/process.js";
import type { ActionOptions, InputDriver, MouseButton, MoveOptions, TypeOptions } from "../../core/providers/input-driver.js";
import { bezierPath, movementDuration, type Random } from "./bezier-path.js";
import { KEY_NAMES, parseKeyCombo } from "./key-names.js";

export interface XdotoolInputOptions {
  env: NodeJS.ProcessEnv;
  /** Mouse speed factor (2 = twice as fast). */
  speed?: number;
  /** Default mean delay between typed characters (ms). */
  typingDelayMs?: number;
  /** Default jitter around that mean (ms). */
  typingJitterMs?: number;
  random?: Random;
}

const BUTTONS: Record<MouseButton, string> = { left: "1", middle: "2", right: "3" };
/** Delay between key events inside one `type` call: >= 5 ms keeps non-ASCII characters. */
const INNER_TYPE_DELAY_MS = 12;

/** Text split into units typed one at a time: runs of ordinary characters, and newline / tab as keys. */
export function typingUnits(text: string): Array<{ kind: "text"; text: string } | { kind: "key"; key: string }> {
  const out: Array<{ kind: "text"; text: string } | { kind: "key"; key: string }> = [];
  for (const ch of text.replace(/\r\n?/g, "\n")) {
    if (ch === "\n") out.push({ kind: "key", key: "Return" });
    else if (ch === "\t") out.push({ kind: "key", key: "Tab" });
    else out.push({ kind: "text", text: ch });
  }
  return out;
}

export class XdotoolInputDriver implements InputDriver {
  readonly name = "xdotool";
  readonly keyNames = KEY_NAMES;
  private readonly random: Random;

  constructor(private readonly opts: XdotoolInputOptions) {
    this.random = opts.random ?? Math.random;
  }

  private async xdotool(args: string[], signal?: AbortSignal): Promise<string> {
    const r = await runCommand("xdotool", args, { env: this.opts.env, timeoutMs: 60_000, signal, packageHint: "xdotool" });
    return r.stdout;
  }

  async cursor(signal?: AbortSignal): Promise<Point> {
    const out = await this.xdotool(["getmouselocation", "--shell"], signal);
    const x = Number(/X=(-?\d+)/.exec(out)?.[1]);
    const y = Number(/Y=(-?\d+)/.exec(out)?.[1]);
    return [x, y];
  }

  /** xdotool arguments that move along a Bézier path from `from` to `to`. */
  private pathArgs(from: Point, to: Point, opts: MoveOptions): string[] {
    const points = bezierPath(from, to, { random: this.random });
    const duration = opts.durationMs ?? movementDuration(Math.hypot(to[0] - from[0], to[1] - from[1]), { speed: this.opts.speed, random: this.random });
    const pause = points.length > 1 ? duration / points.length / 1000 : 0;
    const args: string[] = [];
    for (const [x, y] of points) {
      args.push("mousemove", String(x), String(y));
      if (pause > 0.0005) args.push("sleep", pause.toFixed(4));
    }
    return args;
  }

  async move(to: Point, opts: MoveOptions & ActionOptions = {}): Promise<void> {
    throwIfAborted(opts.signal, "mouse move");
    const from = await this.cursor(opts.signal);
    await this.xdotool(this.pathArgs(from, to, opts), opts.signal);
  }

  async click(at: Point | undefined, opts: { button?: MouseButton; count?: number } & MoveOptions & ActionOptions = {}): Promise<void> {
    if (at) await this.move(at, opts);
    await opts.guard?.(opts.signal);
    throwIfAborted(opts.signal, "click");
    const count = opts.count ?? 1;
    await this.xdotool(["click", "--repeat", String(count), "--delay", String(Math.round(60 + 40 * this.random())), BUTTONS[opts.button ?? "left"]], opts.signal);
  }

  async drag(from: Point, to: Point, opts: { button?: MouseButton } & MoveOptions & ActionOptions = {}): Promise<void> {
    await this.move(from, opts);
    await opts.guard?.(opts.signal);
    const b = BUTTONS[opts.button ?? "left"];
    await this.xdotool(["mousedown", b, "sleep", "0.08", ...this.pathArgs(from, to, opts), "sleep", "0.08", "mouseup", b], opts.signal);
  }

  async scroll(at: Point | undefined, dy: number, dx = 0, opts: ActionOptions = {}): Promise<void> {
    if (at) await this.move(at, opts);
    await opts.guard?.(opts.signal);
    const args: string[] = [];
    const add = (n: number, pos: string, neg: string) => {
      if (n !== 0) args.push("click", "--repeat", String(Math.abs(Math.round(n))), "--delay", "40", n > 0 ? pos : neg);
    };
    add(dy, "5", "4");
    add(dx, "7", "6");
    if (args.length) await this.xdotool(args, opts.signal);
  }

  async type(text: string, opts: TypeOptions & ActionOptions = {}): Promise<void> {
    const mean = opts.meanDelayMs ?? this.opts.typingDelayMs ?? 60;
    const jitter = opts.jitterMs ?? this.opts.typingJitterMs ?? 30;
    const units = typingUnits(text);
    const unitArgs = (u: (typeof units)[number]) => (u.kind === "key" ? ["key", "--delay", "0", u.key] : ["type", "--args", "1", "--delay", String(INNER_TYPE_DELAY_MS), "--", u.text]);
    const pauseMs = () => Math.max(0, mean + (this.random() * 2 - 1) * jitter);
    if (opts.guard) {
      // One process per character so the guard runs before every keystroke.
      for (const u of units) {
        throwIfAborted(opts.signal, "typing");
        await opts.guard(opts.signal);
        await this.xdotool(unitArgs(u), opts.signal);
        const p = pauseMs();
        if (p > 0) await sleep(p, opts.signal);
      }
      return;
    }
    // Without a guard: chained commands, 40 characters per process, jittered pauses between them.
    for (let i = 0; i < units.length; i += 40) {
      throwIfAborted(opts.signal, "typing");
      const args: string[] = [];
      for (const u of units.slice(i, i + 40)) {
        args.push(...unitArgs(u));
        const p = pauseMs();
        if (p > 0.5) args.push("sleep", (p / 1000).toFixed(4));
      }
      await this.xdotool(args, opts.signal);
    }
  }

  async key(combo: string, opts: ActionOptions = {}): Promise<void> {
    const keys = parseKeyCombo(combo);
    await opts.guard?.(opts.signal);
    if (opts.signal?.aborted) throw new AbortedError();
    await this.xdotool(["key", "--clearmodifiers", keys.join("+")], opts.signal);
  }
}

export function assertKnownButton(b: string): MouseButton {
  if (b === "left" || b === "right" || b === "middle") return b;
  throw new InvalidInputError(`Unknown mouse button "${b}"; use left, middle or right.`);
}
