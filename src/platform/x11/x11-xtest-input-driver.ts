// InputDriver for X11 through XTEST, via the long-lived helper native/x11-input.c.
// Why not xdotool: its `type` drops "\n" in GTK text views and loses non-ASCII characters below
// --delay 5, every call costs a process start (~13 ms), and it cannot check the target window
// atomically with the keystroke. The helper checks "target exists and has the focus" and sends
// the event inside one server grab, so input goes to the target window or nowhere.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync } from "node:fs";
import { createInterface, type Interface } from "node:readline";
import { fileURLToPath } from "node:url";
import { DisplayUnavailableError, InvalidInputError, ProviderUnavailableError, RpaError, WindowNotFoundError, throwIfAborted } from "../../core/errors.js";
import type { Point } from "../../core/geometry.js";
import { endHelper, sleep } from "../../core/process.js";
import type { ActionOptions, InputDriver, MouseButton, MoveOptions, TypeOptions } from "../../core/providers/input-driver.js";
import { bezierPath, movementDuration, type Random } from "../../core/bezier-path.js";
import { KEY_NAMES, parseKeyCombo } from "./key-names.js";

export const DEFAULT_INPUT_HELPER = fileURLToPath(new URL("../../../native/build/rpav-x11-input", import.meta.url));

export interface X11InputOptions {
  env: NodeJS.ProcessEnv;
  /** Mouse speed factor (2 = twice as fast). */
  speed?: number;
  /** Default mean delay between typed characters (ms). */
  typingDelayMs?: number;
  /** Default jitter around that mean (ms). */
  typingJitterMs?: number;
  random?: Random;
  helperPath?: string;
  /** How long a guarded action waits for its target window to get the focus (default 2000 ms). */
  focusWaitMs?: number;
}

const BUTTONS: Record<MouseButton, number> = { left: 1, middle: 2, right: 3 };

export class X11XTestInputDriver implements InputDriver {
  readonly name = "x11-xtest";
  readonly keyNames = KEY_NAMES;
  private readonly random: Random;
  private child: ChildProcessWithoutNullStreams | undefined;
  private lines: Interface | undefined;
  private waiting: Array<(line: string) => void> = [];
  private queue: Promise<unknown> = Promise.resolve();
  private stderr = "";

  constructor(private readonly opts: X11InputOptions) {
    this.random = opts.random ?? Math.random;
  }

  private start(): ChildProcessWithoutNullStreams {
    if (this.child) return this.child;
    if (!this.opts.env.DISPLAY) throw new DisplayUnavailableError("DISPLAY is not set: run `rpav lab up` for a virtual desktop, or set DISPLAY.");
    const helper = this.opts.helperPath ?? DEFAULT_INPUT_HELPER;
    if (!existsSync(helper)) throw new ProviderUnavailableError(`The input helper ${helper} is not built: run \`npm run setup\` (needs gcc, libx11-dev, libxtst-dev).`, { details: { path: helper } });
    const child = spawn(helper, [], { env: this.opts.env, stdio: ["pipe", "pipe", "pipe"] });
    this.lines = createInterface({ input: child.stdout });
    this.lines.on("line", (l) => this.waiting.shift()?.(l));
    child.stderr.on("data", (d: Buffer) => (this.stderr += d.toString()));
    child.on("exit", (code) => {
      const msg = code === 3 ? `Cannot open X display ${this.opts.env.DISPLAY}: run \`rpav lab up\` or set DISPLAY.` : `The input helper exited (code ${code}): ${this.stderr.trim() || "no message"}.`;
      for (const w of this.waiting.splice(0)) w(`exit ${msg}`);
      this.child = undefined;
    });
    child.stdin.on("error", () => undefined);
    this.child = child;
    return child;
  }

  /**
   * A guarded request. Focus may arrive a little after a window is activated, so "unfocused" and
   * "covered" are retried for `focusWaitMs` (nothing is sent meanwhile); "gone" fails at once.
   */
  private async sendGuarded(line: string, signal?: AbortSignal): Promise<string> {
    const deadline = Date.now() + (this.opts.focusWaitMs ?? 2000);
    for (;;) {
      try {
        return await this.send(line);
      } catch (e) {
        const reason = e instanceof WindowNotFoundError ? e.details.reason : undefined;
        if ((reason !== "unfocused" && reason !== "covered") || Date.now() >= deadline) throw e;
        await sleep(20, signal);
      }
    }
  }

  /** One request, one reply line; requests are serialised. */
  private send(line: string): Promise<string> {
    const run = this.queue.then(
      () =>
        new Promise<string>((resolve, reject) => {
          const child = this.start();
          this.waiting.push((reply) => {
            if (reply.startsWith("ok")) return resolve(reply.slice(2).trim());
            if (reply.startsWith("exit ")) return reject(/display/i.test(reply) ? new DisplayUnavailableError(reply.slice(5)) : new RpaError("provider_unavailable", reply.slice(5)));
            const m = /^err (\w+) (.*)$/.exec(reply);
            const kind = m?.[1];
            const msg = m?.[2] ?? reply;
            if (kind === "gone" || kind === "unfocused" || kind === "covered")
              return reject(new WindowNotFoundError(`Input stopped, nothing sent: ${msg}.`, { details: { reason: kind } }));
            reject(new InvalidInputError(`Input refused: ${msg}.`));
          });
          child.stdin.write(`${line}\n`);
        }),
    );
    this.queue = run.catch(() => undefined);
    return run;
  }

  private win(opts: ActionOptions): string {
    return opts.targetWindow ?? "0";
  }

  async cursor(): Promise<Point> {
    const [x, y] = (await this.send("pointer")).split(" ").map(Number);
    return [x as number, y as number];
  }

  private async followPath(from: Point, to: Point, opts: MoveOptions & ActionOptions): Promise<void> {
    const points = bezierPath(from, to, { random: this.random });
    const duration = opts.durationMs ?? movementDuration(Math.hypot(to[0] - from[0], to[1] - from[1]), { speed: this.opts.speed, random: this.random });
    const pause = points.length > 0 ? duration / points.length : 0;
    for (const [x, y] of points) {
      throwIfAborted(opts.signal, "mouse move");
      await this.send(`move ${Math.round(x)} ${Math.round(y)}`);
      if (pause >= 1) await sleep(pause, opts.signal);
    }
  }

  /**
   * A hand comes to rest on the target before pressing: a short dwell, then a one-pixel tremor.
   * Toolkits update hover on motion events only, and GTK keeps a submenu's item selected while the
   * pointer travels through the triangle towards that submenu: without a motion after the dwell,
   * a click on "Open…" right below "New From Template" would land on the old selection (measured
   * here: 1 menu item in 5 opened at the item's centre without it, 5 in 5 with it).
   */
  private async settle(at: Point, signal?: AbortSignal): Promise<void> {
    await sleep(180 + 120 * this.random(), signal);
    await this.send(`move ${Math.round(at[0]) + 1} ${Math.round(at[1])}`);
    await sleep(30, signal);
    await this.send(`move ${Math.round(at[0])} ${Math.round(at[1])}`);
    await sleep(30, signal);
  }

  async move(to: Point, opts: MoveOptions & ActionOptions = {}): Promise<void> {
    await this.followPath(await this.cursor(), to, opts);
  }

  async click(at: Point | undefined, opts: { button?: MouseButton; count?: number } & MoveOptions & ActionOptions = {}): Promise<void> {
    if (at) {
      await this.move(at, opts);
      await this.settle(at, opts.signal);
    }
    const b = BUTTONS[opts.button ?? "left"];
    for (let i = 0; i < (opts.count ?? 1); i++) {
      await opts.guard?.(opts.signal);
      throwIfAborted(opts.signal, "click");
      await this.sendGuarded(`button ${this.win(opts)} ${b} click`, opts.signal);
      if (i + 1 < (opts.count ?? 1)) await sleep(50 + 40 * this.random(), opts.signal);
    }
  }

  async drag(from: Point, to: Point, opts: { button?: MouseButton } & MoveOptions & ActionOptions = {}): Promise<void> {
    await this.move(from, opts);
    const b = BUTTONS[opts.button ?? "left"];
    await opts.guard?.(opts.signal);
    await this.sendGuarded(`button ${this.win(opts)} ${b} down`, opts.signal);
    try {
      await sleep(80, opts.signal);
      await this.followPath(from, to, opts);
      await sleep(80, opts.signal);
    } finally {
      await this.send(`button 0 ${b} up`);
    }
  }

  async scroll(at: Point | undefined, dy: number, dx = 0, opts: ActionOptions = {}): Promise<void> {
    if (at) await this.move(at, opts);
    const steps: number[] = [];
    for (let i = 0; i < Math.abs(Math.round(dy)); i++) steps.push(dy > 0 ? 5 : 4);
    for (let i = 0; i < Math.abs(Math.round(dx)); i++) steps.push(dx > 0 ? 7 : 6);
    for (const b of steps) {
      await opts.guard?.(opts.signal);
      await this.sendGuarded(`button ${this.win(opts)} ${b} click`, opts.signal);
      await sleep(30, opts.signal);
    }
  }

  async type(text: string, opts: TypeOptions & ActionOptions = {}): Promise<void> {
    const mean = opts.meanDelayMs ?? this.opts.typingDelayMs ?? 60;
    const jitter = opts.jitterMs ?? this.opts.typingJitterMs ?? 30;
    for (const ch of text.replace(/\r\n?/g, "\n")) {
      throwIfAborted(opts.signal, "typing");
      await opts.guard?.(opts.signal);
      await this.sendGuarded(`char ${this.win(opts)} ${ch.codePointAt(0)}`, opts.signal);
      const pause = Math.max(0, mean + (this.random() * 2 - 1) * jitter);
      if (pause >= 1) await sleep(pause, opts.signal);
    }
  }

  async key(combo: string, opts: ActionOptions = {}): Promise<void> {
    const keys = parseKeyCombo(combo);
    await opts.guard?.(opts.signal);
    throwIfAborted(opts.signal, "key");
    await this.sendGuarded(`key ${this.win(opts)} ${keys.join("+")}`, opts.signal);
  }

  async close(): Promise<void> {
    if (this.child) await endHelper(this.child);
  }
}

export function assertKnownButton(b: string): MouseButton {
  if (b === "left" || b === "right" || b === "middle") return b;
  throw new InvalidInputError(`Unknown mouse button "${b}"; use left, middle or right.`);
}
