// ScreenSource for X11: a long-lived native helper (native/x11-grab.c, MIT-SHM) sends RGBA
// pixels over a pipe, so a 1920×1080 grab costs a few milliseconds instead of a process start.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { DisplayUnavailableError, InvalidInputError, ProviderUnavailableError, RpaError, WindowNotFoundError, throwIfAborted } from "../../core/errors.js";
import { makeFrame, type Frame } from "../../core/frame.js";
import { bboxIntersection, roundBBoxOut, type BBox } from "../../core/geometry.js";
import { endHelper } from "../../core/process.js";
import type { CaptureTarget, ScreenSource } from "../../core/providers/screen-source.js";
import type { WindowInfo } from "../../core/providers/window-info.js";

export const DEFAULT_GRAB_HELPER = fileURLToPath(new URL("../../../native/build/rpav-x11-grab", import.meta.url));

export interface X11ScreenSourceOptions {
  env: NodeJS.ProcessEnv;
  /** Needed for window captures. */
  windows?: WindowInfo;
  helperPath?: string;
}

class ByteReader {
  private chunks: Buffer[] = [];
  private size = 0;
  private waiter: { n: number; resolve: (b: Buffer) => void; reject: (e: Error) => void } | undefined;
  private failure: Error | undefined;

  push(b: Buffer): void {
    this.chunks.push(b);
    this.size += b.length;
    this.drain();
  }
  fail(e: Error): void {
    this.failure = e;
    if (this.waiter) {
      this.waiter.reject(e);
      this.waiter = undefined;
    }
  }
  read(n: number): Promise<Buffer> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.waiter = { n, resolve, reject };
      this.drain();
    });
  }
  private drain(): void {
    if (!this.waiter || this.size < this.waiter.n) return;
    const all = this.chunks.length === 1 ? (this.chunks[0] as Buffer) : Buffer.concat(this.chunks, this.size);
    const { n, resolve } = this.waiter;
    this.waiter = undefined;
    const out = all.subarray(0, n);
    const rest = all.subarray(n);
    this.chunks = rest.length > 0 ? [rest] : [];
    this.size = rest.length;
    resolve(out);
  }
}

export class X11ScreenSource implements ScreenSource {
  readonly name = "x11-shm";
  private child: ChildProcessWithoutNullStreams | undefined;
  private reader = new ByteReader();
  private queue: Promise<unknown> = Promise.resolve();
  private screenSize: { width: number; height: number } | undefined;
  private stderr = "";

  constructor(private readonly opts: X11ScreenSourceOptions) {}

  private start(): ChildProcessWithoutNullStreams {
    if (this.child) return this.child;
    const display = this.opts.env.DISPLAY;
    if (!display) throw new DisplayUnavailableError("DISPLAY is not set: run `rpav lab up` for a virtual desktop, or set DISPLAY.");
    const helper = this.opts.helperPath ?? DEFAULT_GRAB_HELPER;
    if (!existsSync(helper)) throw new ProviderUnavailableError(`The capture helper ${helper} is not built: run \`npm run setup\` (needs gcc, libx11-dev, libxext-dev).`, { details: { path: helper } });
    const child = spawn(helper, [], { env: this.opts.env, stdio: ["pipe", "pipe", "pipe"] });
    this.reader = new ByteReader();
    child.stdout.on("data", (b: Buffer) => this.reader.push(b));
    child.stderr.on("data", (b: Buffer) => (this.stderr += b.toString()));
    child.on("exit", (code) => {
      const err =
        code === 3
          ? new DisplayUnavailableError(`Cannot open X display ${display}: run \`rpav lab up\` or set DISPLAY to a running X server.`)
          : new RpaError("display_unavailable", `The capture helper exited (code ${code}): ${this.stderr.trim() || "no message"}.`);
      this.reader.fail(err);
      this.child = undefined;
    });
    child.stdin.on("error", () => undefined);
    this.child = child;
    return child;
  }

  /** Serialises requests to the helper: one in flight at a time. */
  private request<T>(line: string, handle: () => Promise<T>): Promise<T> {
    const run = this.queue.then(async () => {
      const child = this.start();
      child.stdin.write(`${line}\n`);
      return handle();
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async header(): Promise<[number, number, number]> {
    const h = await this.reader.read(12);
    const status = h.readUInt32LE(0);
    if (status !== 0) {
      const len = h.readUInt32LE(4);
      // Error replies are 8 bytes of header; the 4 extra bytes we read are the message start.
      const rest = len > 4 ? await this.reader.read(len - 4) : Buffer.alloc(0);
      const msg = Buffer.concat([h.subarray(8), rest]).subarray(0, len).toString("utf8");
      throw new InvalidInputError(`Screen capture failed: ${msg}.`);
    }
    return [status, h.readUInt32LE(4), h.readUInt32LE(8)];
  }

  async size(): Promise<{ width: number; height: number }> {
    if (this.screenSize) return this.screenSize;
    const [, width, height] = await this.request("size", () => this.header());
    this.screenSize = { width, height };
    return this.screenSize;
  }

  private async grab(b: BBox, signal?: AbortSignal): Promise<Frame> {
    throwIfAborted(signal, "capture");
    const [x1, y1, x2, y2] = roundBBoxOut(b);
    return this.request(`grab ${x1} ${y1} ${x2 - x1} ${y2 - y1}`, async () => {
      const [, width, height] = await this.header();
      const data = await this.reader.read(width * height * 4);
      return makeFrame({ data: new Uint8Array(data.buffer, data.byteOffset, data.length), width, height, channels: 4, scaleFactor: 1, origin: [x1, y1] });
    });
  }

  async capture(target: CaptureTarget, signal?: AbortSignal): Promise<Frame> {
    const screen = await this.size();
    const full: BBox = [0, 0, screen.width, screen.height];
    if (target.kind === "screen") return this.grab(full, signal);
    if (target.kind === "region") {
      const clipped = bboxIntersection(target.bbox, full);
      if (!clipped) throw new InvalidInputError(`Region [${target.bbox.join(", ")}] lies outside the ${screen.width}×${screen.height} screen.`);
      return this.grab(clipped, signal);
    }
    if (!this.opts.windows) throw new InvalidInputError("Window capture needs a WindowInfo provider.");
    const w = await this.opts.windows.get(target.windowId, signal);
    if (!w) throw new WindowNotFoundError(`Window ${target.windowId} does not exist (closed?).`, { details: { windowId: target.windowId } });
    const clipped = bboxIntersection(w.bbox, full);
    if (!clipped) throw new WindowNotFoundError(`Window ${target.windowId} ("${w.title}") is entirely off screen.`, { details: { windowId: target.windowId } });
    return this.grab(clipped, signal);
  }

  async close(): Promise<void> {
    if (this.child) await endHelper(this.child);
  }
}
