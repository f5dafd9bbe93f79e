// Observe: the step's window (by app and title with the row's data; another title of the same app
// when alike), and a still frame of it. Expected outcomes are values; only a broken part throws.
import { nearlySameFrame } from "../capture/stable-capture.js";
import type { Frame } from "../core/frame.js";
import type { BBox } from "../core/geometry.js";
import { sleep } from "../core/process.js";
import type { ScreenSource } from "../core/providers/screen-source.js";
import type { WindowDescriptor, WindowInfo } from "../core/providers/window-info.js";
import { textSimilarity } from "../perception/locate.js";
import { normTitle, ofApp, windowsNamed } from "./windows.js";

export interface WindowObservation {
  list: WindowDescriptor[];
  /** The step's window: the exact one, else (when `adapt`) the active window of the same app with a like title. */
  window?: WindowDescriptor;
  exact: boolean;
  /** How long it took the window to be there (ms). */
  waitedMs: number;
  /** The window was not there at the first look (it came while waiting). */
  late?: boolean;
}

/**
 * Waits up to `timeoutMs` for the step's window. Another title of the same app's window
 * ("Untitled 1" where "janvier.txt" was recorded) is accepted only when `adapt` and the titles are
 * alike: a dialog that did not open is never replaced by the main window.
 */
export async function observeWindow(windows: WindowInfo, want: { title: string; app: string }, timeoutMs: number, adapt: boolean, signal?: AbortSignal): Promise<WindowObservation> {
  const t0 = Date.now();
  const title = normTitle(want.title);
  const inApp = ofApp(want.app);
  const deadline = t0 + timeoutMs;
  let adaptAfter = t0 + Math.min(1500, timeoutMs);
  let late = false;
  for (;; late = true) {
    const list = await windows.list(signal);
    const exact = windowsNamed(list, want.app, want.title)[0];
    if (exact) return { list, window: exact, exact: true, waitedMs: Date.now() - t0, ...(late ? { late } : {}) };
    const active = list.find((w) => w.active);
    if (adapt && active && inApp(active) && want.app && Date.now() >= adaptAfter && textSimilarity(title, normTitle(active.title)) >= 0.5) return { list, window: active, exact: false, waitedMs: Date.now() - t0 };
    if (Date.now() >= deadline) return { list, exact: false, waitedMs: Date.now() - t0 };
    if (!active) adaptAfter = Date.now() + 500;
    await sleep(150, signal);
  }
}

export function regionOf(w: WindowDescriptor): { kind: "region"; bbox: BBox } {
  return { kind: "region", bbox: w.bbox };
}

/** What was last seen of a window: its pixels and when (ms since the epoch) they were captured. */
export interface LastLook {
  frame: Frame;
  at: number;
}

/** Two looks at a window at least this far apart that agree make it still. */
const STILL_GAP_MS = 60;

/**
 * Waits until two frames of the window at least 60 ms apart are the same but for a spinner or a
 * caret (≤ 0.3 % of the pixels), or `limitMs`. `seen`, the last look at this window (the end of
 * the previous step), counts as the first of the two when it is at the same place (the capture
 * waits until it is 60 ms old): a window that has not changed since then needs one capture, not
 * two and a pause.
 */
export async function stableFrame(screen: ScreenSource, window: WindowDescriptor, limitMs: number, signal?: AbortSignal, seen?: LastLook): Promise<{ frame: Frame; stable: boolean; ms: number }> {
  const t0 = Date.now();
  const target = regionOf(window);
  const [x, y] = [Math.round(target.bbox[0]), Math.round(target.bbox[1])];
  if (seen && seen.frame.origin[0] === x && seen.frame.origin[1] === y) {
    const early = seen.at + STILL_GAP_MS - Date.now();
    if (early > 0) await sleep(early, signal);
  }
  let prev = await screen.capture(target, signal);
  if (seen && seen.frame.origin[0] === prev.origin[0] && seen.frame.origin[1] === prev.origin[1] && nearlySameFrame(seen.frame, prev, 0.003)) return { frame: prev, stable: true, ms: Date.now() - t0 };
  for (;;) {
    await sleep(STILL_GAP_MS, signal);
    const next = await screen.capture(target, signal);
    if (nearlySameFrame(prev, next, 0.003)) return { frame: next, stable: true, ms: Date.now() - t0 };
    if (Date.now() - t0 >= limitMs) return { frame: next, stable: false, ms: Date.now() - t0 };
    prev = next;
  }
}

/**
 * Waits until the window has stayed the same (but for a spinner or a caret, ≤ 0.3 % of the pixels)
 * for `holdMs` without a break, or `limitMs`. Stricter than `stableFrame`: an animation that
 * stalls for one frame (a loaded machine) is not taken for a still window.
 */
export async function stillFrame(screen: ScreenSource, window: WindowDescriptor, holdMs: number, limitMs: number, signal?: AbortSignal): Promise<{ frame: Frame; stable: boolean; ms: number }> {
  const t0 = Date.now();
  const target = regionOf(window);
  let prev = await screen.capture(target, signal);
  let since = Date.now();
  for (;;) {
    await sleep(80, signal);
    const next = await screen.capture(target, signal);
    if (!nearlySameFrame(prev, next, 0.003)) since = Date.now();
    prev = next;
    if (Date.now() - since >= holdMs) return { frame: next, stable: true, ms: Date.now() - t0 };
    if (Date.now() - t0 >= limitMs) return { frame: next, stable: false, ms: Date.now() - t0 };
  }
}

/** Does `a` cover part of `b` (screen boxes)? */
export function overlaps(a: BBox, b: BBox): boolean {
  return a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];
}
