// Waiting until the screen is still before looking at it (animations, fades, late repaints):
// capture until two consecutive frames are identical, or the time runs out.
import { throwIfAborted } from "../core/errors.js";
import type { Frame } from "../core/frame.js";
import { sleep } from "../core/process.js";
import type { CaptureTarget, ScreenSource } from "../core/providers/screen-source.js";

export function sameFrame(a: Frame, b: Frame): boolean {
  return a.width === b.width && a.height === b.height && Buffer.compare(Buffer.from(a.data.buffer, a.data.byteOffset, a.data.length), Buffer.from(b.data.buffer, b.data.byteOffset, b.data.length)) === 0;
}

/**
 * True when at most `maxFraction` of the pixels differ: a spinner or a blinking caret keeps a
 * window from ever being pixel-identical, yet the window is still for whoever looks at it.
 */
export function nearlySameFrame(a: Frame, b: Frame, maxFraction: number): boolean {
  if (a.width !== b.width || a.height !== b.height || a.channels !== b.channels) return false;
  const c = a.channels;
  const n = a.width * a.height;
  const budget = Math.floor(n * maxFraction);
  let diff = 0;
  for (let i = 0; i < n; i++) {
    const o = i * c;
    if (a.data[o] !== b.data[o] || a.data[o + 1] !== b.data[o + 1] || a.data[o + 2] !== b.data[o + 2]) {
      if (++diff > budget) return false;
    }
  }
  return true;
}

/** The frame once the target stopped changing (`stable: true`), or the last one when `timeoutMs` ran out. */
export async function captureStable(source: ScreenSource, target: CaptureTarget, opts: { intervalMs?: number; timeoutMs?: number; signal?: AbortSignal } = {}): Promise<{ frame: Frame; stable: boolean }> {
  const deadline = Date.now() + (opts.timeoutMs ?? 3000);
  let previous = await source.capture(target, opts.signal);
  for (;;) {
    throwIfAborted(opts.signal, "stable capture");
    await sleep(opts.intervalMs ?? 120, opts.signal);
    const next = await source.capture(target, opts.signal);
    if (sameFrame(previous, next)) return { frame: next, stable: true };
    if (Date.now() >= deadline) return { frame: next, stable: false };
    previous = next;
  }
}
