// Recovery strategies (the actor's "adapt"): each a small unit — applies(situation) → boolean,
// act() → evidence, verify() → boolean — tried in order by the actor; the first that applies acts,
// and the step is observed again. A strategy that cannot act safely (a dialog without a safe
// answer) says so, and the actor asks a person or fails.
import { nearlySameFrame } from "../capture/stable-capture.js";
import type { Frame } from "../core/frame.js";
import { frameToScreen } from "../core/frame.js";
import type { BBox, Point } from "../core/geometry.js";
import { bboxArea, bboxCenter } from "../core/geometry.js";
import type { InputDriver } from "../core/providers/input-driver.js";
import type { ScreenSource } from "../core/providers/screen-source.js";
import type { WindowDescriptor, WindowInfo } from "../core/providers/window-info.js";
import type { Step } from "../core/schemas/workflow.js";
import type { PerceivedScreen } from "../replay/grounding.js";
import { overlaps, regionOf, stableFrame, stillFrame } from "./observe.js";
import { safeAnswerRank } from "./policy.js";
import { ofApp, windowsNamed } from "./windows.js";

/** What the actor saw before a step, as the strategies read it. */
export interface Situation {
  step: Step;
  /** The step's window title with this row's data. */
  title: string;
  windows: readonly WindowDescriptor[];
  /** The step's window, when there is one. */
  stepWindow?: WindowDescriptor;
  /** The step is where the task starts (its window is the first step's): restarting the app loses nothing. */
  atStart: boolean;
  /** The workflow knows how to start its app. */
  canLaunch: boolean;
  /** The screen was still moving when the actor looked. */
  unstable?: boolean;
  /** A typing step's field already holds other text (box in screen pixels). */
  fieldNotEmpty?: { box: BBox; read: string };
  /** The target was not found on the visible part of the window. */
  targetMissing?: boolean;
  /** How many times the actor already scrolled for this target (0: first try, down; then up). */
  scrolls?: number;
  /**
   * Where this row's earlier steps found their targets in the step's window (screen boxes, the
   * latest first) and their types: the fields before this one sit in the container that scrolls.
   */
  neighbours?: ReadonlyArray<{ box: BBox; type: string | null }>;
  /** Where a wheel turn moved the window's content on an earlier try for this target. */
  scrollAt?: Point;
}

/**
 * Where to turn the wheel to scroll the target's container: the target's recorded place in its
 * window (window-relative, so a moved window does not matter) when that place is still inside the
 * window with a margin; else the window's centre (a window made smaller than when recorded).
 */
export function scrollPointFor(step: Step, win: BBox): [number, number] {
  const wb = step.target?.window_box;
  const centre: [number, number] = [Math.round((win[0] + win[2]) / 2), Math.round((win[1] + win[3]) / 2)];
  if (!wb) return centre;
  const [cx, cy] = bboxCenter(wb);
  const p: [number, number] = [Math.round(win[0] + cx), Math.round(win[1] + cy)];
  const m = 40;
  return p[0] > win[0] + m && p[0] < win[2] - m && p[1] > win[1] + m && p[1] < win[3] - m ? p : centre;
}

/** Element types a wheel turn changes instead of scrolling their container (a list's choice, a notebook's page). */
const WHEEL_TAKERS = new Set(["dropdown", "tab"]);

/**
 * Where to try the wheel for a target out of view, in order: where it moved the content before;
 * the target's recorded place (see `scrollPointFor`); the middles of the targets this row found
 * earlier in the window (the fields above it are in the same scrolled container), latest first,
 * never over an element a wheel changes; the window's centre. Points closer than 24 px to an
 * earlier one are dropped.
 */
export function scrollCandidates(s: Situation, win: BBox): Point[] {
  const inside = (p: Point) => p[0] > win[0] + 2 && p[0] < win[2] - 2 && p[1] > win[1] + 2 && p[1] < win[3] - 2;
  const centre: Point = [Math.round((win[0] + win[2]) / 2), Math.round((win[1] + win[3]) / 2)];
  const own = s.step.target?.window_box ? scrollPointFor(s.step, win) : undefined;
  const near = (s.neighbours ?? []).filter((n) => !WHEEL_TAKERS.has(n.type ?? "")).map((n) => bboxCenter(n.box).map(Math.round) as unknown as Point);
  const out: Point[] = [];
  for (const p of [s.scrollAt, own, ...near, centre])
    if (p && inside(p) && !out.some((q) => Math.hypot(q[0] - p[0], q[1] - p[1]) < 24)) out.push(p);
  return out;
}

export interface RecoveryEnv {
  windows: WindowInfo;
  input: InputDriver;
  screen: ScreenSource;
  perceive: (frame: Frame, signal?: AbortSignal) => Promise<PerceivedScreen>;
  /** Starts the workflow's app again (the command line recorded at record time). */
  launch?: () => Promise<void>;
  sleep: (ms: number) => Promise<void>;
  signal?: AbortSignal;
}

export interface RecoveryOutcome {
  /** False when the strategy found it could not act safely (nothing was sent). */
  acted: boolean;
  evidence: Record<string, unknown>;
}

export interface RecoveryStrategy {
  readonly id: string;
  readonly description: string;
  applies(s: Situation): boolean;
  act(s: Situation, env: RecoveryEnv): Promise<RecoveryOutcome>;
  /** After `act`: did it fix what it was for? */
  verify(s: Situation, env: RecoveryEnv): Promise<boolean>;
}

const activeOf = (s: Situation) => s.windows.find((w) => w.active);

/** Another window is active, over the step's window: a pop-up, a question, an update notice. */
function dialogOver(s: Situation): WindowDescriptor | undefined {
  const a = activeOf(s);
  const w = s.stepWindow;
  if (!a || !w || a.id === w.id || !w.visible) return undefined;
  return overlaps(a.bbox, w.bbox) && bboxArea(a.bbox) < 0.8 * bboxArea(w.bbox) ? a : undefined;
}

async function waitGone(env: RecoveryEnv, id: string, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    const w = await env.windows.get(id, env.signal);
    if (!w || !w.visible) return true;
    if (Date.now() >= deadline) return false;
    await env.sleep(150);
  }
}

/** An unexpected dialog: read its text and buttons, dismiss it with a safe answer from the policy table only. */
export const dismissDialog: RecoveryStrategy = {
  id: "dismiss_dialog",
  description: "dismiss an unexpected dialog with a safe answer from the policy table (Annuler, Fermer, Plus tard, Cancel, Close, Not now…)",
  applies: (s) => dialogOver(s) !== undefined,
  async act(s, env) {
    const d = dialogOver(s)!;
    const { frame } = await stableFrame(env.screen, d, 2000, env.signal);
    const seen = await env.perceive(frame, env.signal);
    const texts = seen.lines.map((l) => l.text.trim()).filter(Boolean);
    // Buttons by element, and words on their own (a button the classifier missed is still its text).
    const labelled = [...seen.elements.filter((e) => e.type === "button").map((e) => ({ label: e.label, bbox: e.bbox })), ...seen.lines.map((l) => ({ label: l.text, bbox: l.bbox }))];
    const safe = labelled.map((c) => ({ ...c, rank: safeAnswerRank(c.label) })).filter((c) => c.rank !== undefined).sort((a, b) => a.rank! - b.rank!)[0];
    const evidence = { dialog: { title: d.title, app: d.appName }, text: texts.slice(0, 12), buttons: seen.elements.filter((e) => e.type === "button").map((e) => e.label) };
    if (!safe) return { acted: false, evidence: { ...evidence, why: "no safe answer among its buttons" } };
    const at: Point = frameToScreen(frame, bboxCenter(safe.bbox));
    await env.input.click(at, { targetWindow: d.id, ...(env.signal ? { signal: env.signal } : {}) });
    return { acted: true, evidence: { ...evidence, answer: safe.label, point: [Math.round(at[0]), Math.round(at[1])] } };
  },
  async verify(s, env) {
    return waitGone(env, dialogOver(s)!.id, 3000);
  },
};

/** The step's window is minimised or hidden: restore it. */
export const restoreWindow: RecoveryStrategy = {
  id: "restore_window",
  description: "restore the minimised or hidden window",
  applies: (s) => !!s.stepWindow && !s.stepWindow.visible,
  async act(s, env) {
    await env.windows.activate(s.stepWindow!.id, env.signal);
    return { acted: true, evidence: { window: s.stepWindow!.title } };
  },
  async verify(s, env) {
    // Visible, and where it stays: a window manager maps a restored window and may move it back a
    // moment later (openbox shows it elsewhere for one reading), so two readings must agree.
    const deadline = Date.now() + 3000;
    let last: string | undefined;
    for (;;) {
      const w = await env.windows.get(s.stepWindow!.id, env.signal);
      const now = w && w.visible ? w.bbox.join(",") : undefined;
      if (now !== undefined && now === last) return true;
      if (Date.now() >= deadline) return false;
      last = now;
      await env.sleep(150);
    }
  },
};

/** Another window took the focus (not a dialog over the step's window): activate the step's window again. */
export const refocus: RecoveryStrategy = {
  id: "refocus",
  description: "activate the step's window again (focus stolen)",
  applies: (s) => !!s.stepWindow && s.stepWindow.visible && !s.stepWindow.active,
  async act(s, env) {
    const thief = activeOf(s);
    await env.windows.activate(s.stepWindow!.id, env.signal);
    return { acted: true, evidence: { window: s.stepWindow!.title, focus_was_on: thief ? { title: thief.title, app: thief.appName } : null } };
  },
  async verify(s, env) {
    return (await env.windows.activeId(env.signal)) === s.stepWindow!.id;
  },
};

/** The app is not running (no window of it at all) and the step is where the task starts: start it again. */
export const startApp: RecoveryStrategy = {
  id: "start_app",
  description: "start the app again with the command line recorded at record time",
  applies: (s) => !s.stepWindow && s.atStart && s.canLaunch && !s.windows.some(ofApp(s.step.window.app)),
  async act(_s, env) {
    await env.launch!();
    return { acted: true, evidence: {} };
  },
  async verify(s, env) {
    const deadline = Date.now() + 15_000;
    for (;;) {
      if (windowsNamed(await env.windows.list(env.signal), s.step.window.app, s.title).length) return true;
      if (Date.now() >= deadline) return false;
      await env.sleep(200);
    }
  },
};

/** How long a window seen changing must then stay still before it counts as loaded. */
export const STILL_HOLD_MS = 600;

/** The screen is still moving (loading): wait until it has stayed still for a while, up to 10 s more. */
export const waitStable: RecoveryStrategy = {
  id: "wait_stable",
  description: "wait for the window to stop changing (still loading), up to 10 s",
  applies: (s) => !!s.stepWindow && !!s.unstable,
  async act(s, env) {
    // Still for STILL_HOLD_MS without a break: an animation that stalls a frame on a loaded
    // machine is not a window done loading.
    const r = await stillFrame(env.screen, s.stepWindow!, STILL_HOLD_MS, 10_000, env.signal);
    return { acted: true, evidence: { waited_ms: r.ms, stable: r.stable } };
  },
  async verify(s, env) {
    return (await stillFrame(env.screen, s.stepWindow!, 300, 1500, env.signal)).stable;
  },
};

/** A typing step's field already holds other text (a resumed run, a pre-filled form): select it all, so typing replaces it. */
export const clearField: RecoveryStrategy = {
  id: "select_all_before_typing",
  description: "clear the field (select all, delete) so that typing replaces its text",
  applies: (s) => s.step.action === "type" && !!s.fieldNotEmpty && !!s.stepWindow,
  async act(s, env) {
    const guard = { targetWindow: s.stepWindow!.id, ...(env.signal ? { signal: env.signal } : {}) };
    const at = bboxCenter(s.fieldNotEmpty!.box);
    await env.input.click(at, guard);
    await env.sleep(200);
    // Select all and delete; then, should the toolkit not know ctrl+a, the line from its end.
    for (const k of ["ctrl+a", "BackSpace", "End", "shift+Home", "BackSpace"]) {
      await env.input.key(k, guard);
      await env.sleep(60);
    }
    return { acted: true, evidence: { field_held: s.fieldNotEmpty!.read, keys: "ctrl+a BackSpace End shift+Home BackSpace" } };
  },
  // Verified by the step's own read-back once it typed.
  verify: async () => true,
};

/**
 * The target is not on the visible part of the window: scroll its container (two notches down,
 * three times, then three notches up) and ground again after each. The container is found by
 * trying the wheel where it may be (`scrollCandidates`) until the window's pixels move; a turn
 * that moved nothing anywhere did not help.
 */
export const scrollToTarget: RecoveryStrategy = {
  id: "scroll_to_target",
  description: "scroll the target's container and look for the target again",
  applies: (s) => !!s.targetMissing && !!s.stepWindow,
  async act(s, env) {
    const w = s.stepWindow!;
    // A few notches at a time (a target in the middle of a long form is passed by a big scroll):
    // down three times, then up.
    const k = s.scrolls ?? 0;
    const dy = k < SCROLL_DOWN_TRIES ? 2 : -3;
    const guard = { targetWindow: w.id, ...(env.signal ? { signal: env.signal } : {}) };
    const tried: Point[] = [];
    let moved = false;
    let at: Point | undefined;
    for (const p of scrollCandidates(s, w.bbox)) {
      const before = await env.screen.capture(regionOf(w), env.signal);
      await env.input.scroll(p, dy, 0, guard);
      tried.push(p);
      await env.sleep(250);
      const after = await env.screen.capture(regionOf(w), env.signal);
      if (!nearlySameFrame(before, after, 0.003)) {
        moved = true;
        at = p;
        break;
      }
    }
    // Overlay scroll bars (GTK 3, macOS-like) are drawn over the content for about a second after
    // a scroll: over the right edge of the fields, they hide their outline from the detector.
    if (moved) await env.sleep(1050);
    scrolled.set(s, moved);
    return { acted: tried.length > 0, evidence: { scrolled: dy > 0 ? `down ${dy}` : `up ${-dy}`, at: at ?? null, tried, moved, window: w.title } };
  },
  verify: async (s) => scrolled.get(s) ?? false,
};
const scrolled = new WeakMap<Situation, boolean>();
export const SCROLL_DOWN_TRIES = 3;
/** Scrolls tried for one target before the actor gives up (down, then back up past the start). */
export const SCROLL_TRIES = 6;

/** In the order the actor tries them. */
export const RECOVERY_STRATEGIES: readonly RecoveryStrategy[] = [startApp, restoreWindow, dismissDialog, refocus, waitStable, clearField, scrollToTarget];
