// The replay executor (plan, MICRO): for each row of data, for each step: pre-check the window
// (by app and title, with this row's data in the title), wait until it is still, perceive and
// ground the target, act through the input driver (Bézier moves, char-by-char typing, every event
// guarded by the target window), post-check (poll the expected window up to 10 s; for toggles,
// tabs and lists, a visible change), and re-ground and retry a bounded number of times.
// Everything goes to a trace_v1 (before / action / after with screenshots). Expected outcomes
// (target not found, window not there) are step results; only broken parts throw.
import { nearlySameFrame, sameFrame } from "../capture/stable-capture.js";
import { AbortedError, RpaError, type ErrorCode, TimeoutError, WindowNotFoundError, throwIfAborted } from "../core/errors.js";
import { bboxFrameToScreen, cropFrame, frameToScreen, type Frame } from "../core/frame.js";
import type { BBox, Point } from "../core/geometry.js";
import { contentHash } from "../core/ids.js";
import { bboxCenter, clampBBox } from "../core/geometry.js";
import { sleep } from "../core/process.js";
import type { InputDriver } from "../core/providers/input-driver.js";
import type { ScreenSource } from "../core/providers/screen-source.js";
import type { VlmGrounder } from "../core/providers/vlm.js";
import type { WindowDescriptor, WindowInfo } from "../core/providers/window-info.js";
import type { TraceCandidate } from "../core/schemas/trace.js";
import type { Step, Workflow } from "../core/schemas/workflow.js";
import { foldText } from "../core/text.js";
import { textSimilarity } from "../perception/locate.js";
import { groundTarget, type Grounding, type PerceivedScreen } from "./grounding.js";
import type { TraceWriter } from "./trace.js";
import { fillTemplate, titleWithData, type Bindings } from "./variables.js";

export interface ReplayDeps {
  screen: ScreenSource;
  windows: WindowInfo;
  input: InputDriver;
  /** Elements and text of a frame (frame pixels). */
  perceive: (frame: Frame, signal?: AbortSignal) => Promise<PerceivedScreen>;
  /** Loads a target's icon crop (path relative to the workflow file); throws when missing. */
  loadIcon?: (path: string) => Promise<Frame>;
  encodePng: (frame: Frame) => Promise<Uint8Array>;
  vlm?: VlmGrounder;
  trace: TraceWriter;
  onProgress?: (p: ReplayProgress) => void;
  /** Brings the app to where each row starts (opens a fresh form…); a failure fails the row. */
  beforeRow?: (row: number, b: Bindings) => Promise<void>;
  /** After each row, passed or not (collects what the app produced, closes it…). */
  afterRow?: (row: number, outcome: RowOutcome) => Promise<void>;
}

export interface ReplayProgress {
  row: number;
  rows: number;
  step: number;
  steps: number;
  stepId: string;
  intention: string;
  phase: "start" | "done";
  status?: "passed" | "failed";
  message?: string;
  ms?: number;
}

export interface ReplayOptions {
  /** Attempts per step (grounding + action + check), default 3. */
  maxAttempts?: number;
  /** How long the pre-check waits for the step's window (default 10 s). */
  windowTimeoutMs?: number;
  /** How long the post-check polls for an expected window (plan: 10 s). */
  postCheckTimeoutMs?: number;
  onError?: "stop" | "skip";
  signal?: AbortSignal;
}

export interface StepOutcome {
  step: number;
  step_id: string;
  status: "passed" | "failed";
  attempts: number;
  error?: { code: string; message: string };
  overhead_ms: number;
  duration_ms: number;
  method?: string;
}

export interface RowOutcome {
  row: number;
  status: "passed" | "failed";
  failedStep: number | null;
  error: { code: string; message: string } | null;
  steps: StepOutcome[];
}

/** A step that failed for a reason the run reports (not a bug), with the overhead spent until then. */
class StepFailure extends RpaError {
  constructor(code: ErrorCode, message: string, readonly overhead: number) {
    super(code, message);
  }
}

const RETRY_ON_NO_CHANGE = new Set(["checkbox", "radio_button", "tab", "dropdown"]);

function normTitle(t: string): string {
  return foldText(t).replace(/^\s*\*\s*/, "").replace(/\s+/g, " ").trim();
}

/** The window a step's expected_result names ("Fenêtre « X » (App)"), when it is another one. */
export function expectedWindow(step: Step): { title: string; app: string } | undefined {
  const m = /^Fenêtre « (.*) » \((.*)\)(?: active)?$/.exec(step.expected_result);
  if (!m || step.expected_result.endsWith("inchangée")) return undefined;
  return { title: m[1]!, app: m[2]! };
}

export class ReplayExecutor {
  constructor(
    private readonly workflow: Workflow,
    private readonly deps: ReplayDeps,
    private readonly opts: ReplayOptions = {},
  ) {}

  /** Runs rows in order; `from` gives, per row index, the step to start at (resume). */
  async run(rows: readonly Bindings[], from: ReadonlyMap<number, number> = new Map(), onlyRows?: ReadonlySet<number>, resumed = false): Promise<RowOutcome[]> {
    const out: RowOutcome[] = [];
    for (const [row, b] of rows.entries()) {
      if (onlyRows && !onlyRows.has(row)) continue;
      const start = from.get(row) ?? 0;
      let r: RowOutcome;
      try {
        await this.deps.beforeRow?.(row, b);
        r = await this.runRow(row, rows.length, b, start, resumed);
      } catch (e) {
        if (!(e instanceof RpaError) || e instanceof AbortedError) throw e;
        const error = { code: e.code, message: `before row ${row + 1}: ${e.message}` };
        this.deps.trace.append({ type: "row_end", row, status: "failed", failed_step: start, error });
        r = { row, status: "failed", failedStep: start, error, steps: [] };
      }
      await this.deps.afterRow?.(row, r);
      out.push(r);
      if (r.status === "failed" && (this.opts.onError ?? "stop") === "stop") break;
    }
    return out;
  }

  private async runRow(row: number, rows: number, b: Bindings, start: number, resumed: boolean): Promise<RowOutcome> {
    const { trace } = this.deps;
    trace.append(resumed ? { type: "resume", row, from_step: start } : { type: "row_start", row, from_step: start });
    const steps: StepOutcome[] = [];
    for (let i = start; i < this.workflow.steps.length; i++) {
      const step = this.workflow.steps[i]!;
      this.deps.onProgress?.({ row, rows, step: i, steps: this.workflow.steps.length, stepId: step.step_id, intention: titleWithData(fillTemplate(step.intention, maskSecrets(this.workflow, b)), this.workflow, b), phase: "start" });
      const o = await this.runStep(row, i, step, b);
      steps.push(o);
      this.deps.onProgress?.({ row, rows, step: i, steps: this.workflow.steps.length, stepId: step.step_id, intention: step.intention, phase: "done", status: o.status, ms: o.duration_ms, ...(o.error ? { message: o.error.message } : {}) });
      if (o.status === "failed") {
        trace.append({ type: "row_end", row, status: "failed", failed_step: i, error: o.error ?? null });
        return { row, status: "failed", failedStep: i, error: o.error ?? null, steps };
      }
    }
    trace.append({ type: "row_end", row, status: "passed", failed_step: null, error: null });
    return { row, status: "passed", failedStep: null, error: null, steps };
  }

  private async runStep(row: number, index: number, step: Step, b: Bindings): Promise<StepOutcome> {
    const t0 = performance.now();
    const maxAttempts = this.opts.maxAttempts ?? 3;
    let overhead = 0;
    let lastError: { code: string; message: string } | undefined;
    let method: string | undefined;
    let attempt = 0;
    let shotAfter: { path: string | null; origin: Point | null } = { path: null, origin: null };
    let check = "";
    while (attempt < maxAttempts) {
      attempt++;
      throwIfAborted(this.opts.signal, "replay");
      try {
        const r = await this.attempt(row, index, step, b, attempt);
        overhead += r.overhead;
        method = r.method;
        shotAfter = r.after;
        check = r.check;
        lastError = undefined;
        break;
      } catch (e) {
        if (e instanceof AbortedError) throw e;
        if (!(e instanceof RpaError)) throw e;
        if (e instanceof StepFailure) overhead += e.overhead;
        lastError = { code: e.code, message: e.message };
        shotAfter = await this.shoot(`${step.step_id}-failed`, undefined).catch(() => ({ path: null, origin: null }));
        check = "failed";
        // A window that is not there, or an app that crashed, does not come back by retrying.
        // Nor does a missing file (an icon crop the workflow names).
        if (["window_not_found", "timeout", "display_unavailable", "provider_unavailable", "invalid_input"].includes(e.code)) break;
        if (attempt < maxAttempts) await sleep(500, this.opts.signal);
      }
    }
    const duration = performance.now() - t0;
    const status = lastError ? "failed" : "passed";
    this.deps.trace.append({ type: "after", row, step: index, step_id: step.step_id, status, attempts: attempt, screenshot: shotAfter.path, origin: shotAfter.origin, check, error: lastError ?? null, overhead_ms: Math.round(overhead), duration_ms: Math.round(duration) });
    return { step: index, step_id: step.step_id, status, attempts: attempt, ...(lastError ? { error: lastError } : {}), overhead_ms: Math.round(overhead), duration_ms: Math.round(duration), ...(method ? { method } : {}) };
  }

  /** Screenshot of a window (or the screen) for the trace. */
  private async shoot(name: string, window: WindowDescriptor | undefined, frame?: Frame): Promise<{ path: string | null; origin: Point | null; frame?: Frame }> {
    let f = frame;
    if (!f) {
      const live = window ? await this.deps.windows.get(window.id, this.opts.signal) : undefined;
      f = await this.deps.screen.capture(live ? regionOf(live) : { kind: "screen" }, this.opts.signal);
    }
    const path = this.deps.trace.putShot(name, await this.deps.encodePng(f));
    return { path, origin: [f.origin[0], f.origin[1]], frame: f };
  }

  /** The window a step acts in: app and title (with this row's data), else the app's active window. */
  private async findWindow(want: { title: string; app: string }, b: Bindings, timeoutMs: number, adapt = false): Promise<{ window: WindowDescriptor; exact: boolean }> {
    const title = normTitle(titleWithData(want.title, this.workflow, b));
    const app = want.app.toLowerCase();
    const deadline = Date.now() + timeoutMs;
    const ofApp = (w: WindowDescriptor) => !app || w.appName.toLowerCase() === app || w.instance.toLowerCase() === app;
    let adaptAfter = Date.now() + Math.min(1500, timeoutMs);
    for (;;) {
      const list = await this.deps.windows.list(this.opts.signal);
      const exact = list.filter((w) => ofApp(w) && normTitle(w.title) === title).sort((x, y) => Number(y.active) - Number(x.active))[0];
      if (exact) return { window: exact, exact: true };
      const active = list.find((w) => w.active);
      // Another title of the same app's window ("Untitled 1" where "janvier.txt" was recorded) is
      // accepted before an action only when the titles are alike: a dialog that did not open is
      // never replaced by the main window, so keys never go where the dialog should have been.
      if (adapt && active && ofApp(active) && app && Date.now() >= adaptAfter && textSimilarity(title, normTitle(active.title)) >= 0.5) return { window: active, exact: false };
      if (Date.now() >= deadline) {
        const seen = list.map((w) => `« ${w.title} » (${w.appName})`).join(", ") || "none";
        throw new WindowNotFoundError(`No window « ${titleWithData(want.title, this.workflow, b)} » of ${want.app || "any app"} within ${Math.round(timeoutMs / 1000)} s; open windows: ${seen}. Nothing was sent.`, { details: { title: want.title, app: want.app } });
      }
      if (!active) adaptAfter = Date.now() + 500;
      await sleep(150, this.opts.signal);
    }
  }

  /** Waits until two frames of the window are the same but for a spinner or a caret (≤ 0.3 % of the pixels), or 3 s. */
  private async stableFrame(window: WindowDescriptor): Promise<Frame> {
    const target = regionOf(window);
    let prev = await this.deps.screen.capture(target, this.opts.signal);
    const deadline = Date.now() + 3000;
    for (;;) {
      await sleep(60, this.opts.signal);
      const next = await this.deps.screen.capture(target, this.opts.signal);
      if (nearlySameFrame(prev, next, 0.003) || Date.now() >= deadline) return next;
      prev = next;
    }
  }

  /**
   * Grounding cache, after Stagehand's action cache: where a step's target was found in this run,
   * with the pixels around it. When the next row shows the same pixels there (same window size,
   * the label and its surroundings unchanged), the target is there again and perception is
   * skipped. Entries are written only after the step passed.
   */
  private readonly groundCache = new Map<string, { key: string; g: Extract<Grounding, { found: true }>; row: number }>();

  private cacheKey(step: Step, frame: Frame, bbox: BBox, b: Bindings): string {
    const m = 6 * frame.scaleFactor;
    const around = clampBBox([bbox[0] - m, bbox[1] - m, bbox[2] + m, bbox[3] + m], frame);
    const crop = cropFrame(frame, around);
    const label = titleWithData(step.target?.by_text ?? step.target?.label ?? "", this.workflow, b);
    return `${frame.width}x${frame.height}|${label}|${around.join(",")}|${contentHash(crop.data)}`;
  }

  private async ground(step: Step, frame: Frame, b: Bindings): Promise<{ g: Grounding; perceiveMs: number; groundMs: number; cached?: boolean }> {
    const target = step.target!;
    const cached = this.groundCache.get(step.step_id);
    if (cached && this.cacheKey(step, frame, cached.g.bbox, b) === cached.key)
      return { g: { ...cached.g, note: `${cached.g.note} — cached: the screen around it is as in row ${cached.row + 1}` }, perceiveMs: 0, groundMs: 0, cached: true };
    const t0 = performance.now();
    const screen = await this.deps.perceive(frame, this.opts.signal);
    const t1 = performance.now();
    let icon: Frame | undefined;
    if (target.icon && this.deps.loadIcon) icon = await this.deps.loadIcon(target.icon);
    const label = titleWithData(target.by_text ?? target.label, this.workflow, b);
    const verb = step.action === "double_click" ? "double_click" : step.action === "right_click" ? "right_click" : "click";
    const g = await groundTarget(target, frame, screen, { label, verb, ...(icon ? { icon } : {}), ...(this.deps.vlm ? { vlm: this.deps.vlm } : {}), ...(this.opts.signal ? { signal: this.opts.signal } : {}) });
    return { g, perceiveMs: t1 - t0, groundMs: performance.now() - t1 };
  }

  private async attempt(row: number, index: number, step: Step, b: Bindings, attempt: number): Promise<{ overhead: number; method: string; after: { path: string | null; origin: Point | null }; check: string }> {
    const { input, trace, windows } = this.deps;
    const signal = this.opts.signal;
    const timings: Record<string, number> = {};
    const tPre = performance.now();
    let overhead = 0;
    const fail = (code: ErrorCode, message: string) => new StepFailure(code, message, overhead);

    if (step.action === "wait_for") {
      const { window } = await this.findWindow(step.window, b, step.timeout_ms ?? 10_000).catch((e: unknown) => {
        throw e instanceof WindowNotFoundError ? new TimeoutError(e.message, { details: e.details }) : e;
      });
      timings.wait_ms = performance.now() - tPre;
      const shot = await this.shoot(`${step.step_id}-before`, window);
      trace.append({ type: "before", row, step: index, step_id: step.step_id, attempt, window: winInfo(window), screenshot: shot.path, origin: shot.origin, method: "none", bbox: null, score: null, ambiguous: false, candidates: [], decision: `window « ${window.title} » is there`, timings: roundAll(timings) });
      trace.append({ type: "action", row, step: index, step_id: step.step_id, action: "wait_for", point: null, input: null, duration_ms: 0 });
      return { overhead: 0, method: "none", after: { path: shot.path, origin: shot.origin }, check: `window « ${window.title} »` };
    }

    // Pre-check: the step's window, raised and focused; nothing is sent anywhere else.
    const { window, exact } = await this.findWindow(step.window, b, this.opts.windowTimeoutMs ?? 10_000, true);
    if (!window.active) await windows.activate(window.id, signal);
    timings.precheck_ms = performance.now() - tPre;
    let decision = exact ? "execute" : `adapt: window title « ${window.title} » differs from the recorded « ${step.window.title} » (same app)`;
    const tFrame = performance.now();
    const needsTarget = step.target !== null && ["click", "double_click", "right_click", "middle_click", "drag", "select"].includes(step.action);
    // Grounding needs a still screen; keys and typing go to the focused window, one capture (for the trace) is enough.
    const frame = needsTarget ? await this.stableFrame(window) : await this.deps.screen.capture(regionOf(window), signal);
    timings.stable_ms = performance.now() - tFrame;
    overhead += timings.precheck_ms + timings.stable_ms;

    let g: Grounding | undefined;
    let fromCache = false;
    let screenPoint: Point | null = null;
    let screenBox: BBox | null = null;
    if (needsTarget) {
      const r = await this.ground(step, frame, b);
      g = r.g;
      fromCache = !!r.cached;
      timings.perceive_ms = r.perceiveMs;
      timings.ground_ms = r.groundMs;
      overhead += r.perceiveMs + r.groundMs;
      if (g.found) {
        screenBox = bboxFrameToScreen(frame, g.bbox);
        screenPoint = frameToScreen(frame, g.point);
        decision += `; ${g.note}`;
      }
    } else if (step.target === null && ["click", "double_click", "right_click", "middle_click", "drag"].includes(step.action)) {
      throw fail("target_not_found", `${step.step_id} has no target to look for (nothing was recognised there at recording time); re-record this step.`);
    }
    const shot = await this.shoot(`${step.step_id}-before`, window, frame);
    const candidates: TraceCandidate[] = (g?.candidates ?? []).map((c) => ({ element_id: c.element_id, type: c.type, label: c.label, bbox: bboxFrameToScreen(frame, c.bbox) as [number, number, number, number], score: c.score }));
    trace.append({
      type: "before", row, step: index, step_id: step.step_id, attempt, window: winInfo(window), screenshot: shot.path, origin: shot.origin,
      method: g ? (g.found ? g.method : null) : "none", bbox: screenBox ? [...screenBox] as [number, number, number, number] : null, score: g?.found ? g.score : null,
      ambiguous: !!(g?.found && g.ambiguous), candidates, decision: g && !g.found ? `not found: ${g.reason}` : decision, timings: roundAll(timings),
      ...(g?.found && g.vlm ? { vlm: g.vlm } : {}),
    });
    if (g && !g.found) throw fail("target_not_found", `${step.step_id}: « ${titleWithData(step.target?.label ?? "", this.workflow, b)} » not found on « ${window.title} »: ${g.reason}.`);
    if (g?.found && g.ambiguous) throw fail("target_ambiguous", `${step.step_id}: ${g.note}; candidates: ${g.candidates.slice(0, 3).map((c) => `« ${c.label} » ${c.type} ${c.score}`).join(", ")}.`);

    // Act.
    const tAct = performance.now();
    const guard = { targetWindow: window.id, ...(signal ? { signal } : {}) };
    let typed: string | null = null;
    let actedOn: Point | null = screenPoint;
    switch (step.action) {
      case "click":
        await input.click(screenPoint!, guard);
        break;
      case "double_click":
        await input.click(screenPoint!, { ...guard, count: 2 });
        break;
      case "right_click":
        await input.click(screenPoint!, { ...guard, button: "right" });
        break;
      case "middle_click":
        await input.click(screenPoint!, { ...guard, button: "middle" });
        break;
      case "scroll": {
        actedOn = scrollPoint(step, window.bbox);
        await input.scroll(actedOn, step.scroll?.dy ?? 0, step.scroll?.dx ?? 0, guard);
        break;
      }
      case "drag": {
        const to = (step as Step & { to?: [number, number] }).to;
        const rec = step.target?.recorded_bbox;
        const delta: Point = to && rec ? [to[0] - bboxCenter(rec)[0], to[1] - bboxCenter(rec)[1]] : [0, 0];
        await input.drag(screenPoint!, [screenPoint![0] + delta[0], screenPoint![1] + delta[1]], guard);
        break;
      }
      case "select": {
        await input.click(screenPoint!, guard);
        typed = titleWithData(step.option ?? "", this.workflow, b);
        const tOpt = performance.now();
        const opt = await this.findOption(typed, window);
        overhead += performance.now() - tOpt;
        if (!opt) {
          await input.key("Escape", guard).catch(() => undefined);
          throw fail("target_not_found", `${step.step_id}: the list « ${step.target?.label ?? ""} » opened but its item « ${typed} » is not visible.`);
        }
        actedOn = opt;
        // The list is a popup window of its own: the guard is that the app's window still exists.
        const stillThere = async () => {
          if (!(await windows.get(window.id, signal))) throw new WindowNotFoundError(`The window « ${window.title} » is gone; nothing was sent.`);
        };
        await input.click(opt, { ...(signal ? { signal } : {}), guard: stillThere });
        break;
      }
      case "type": {
        const text = fillTemplate(step.text ?? "", b);
        typed = secretStep(this.workflow, step) ? "•".repeat([...text].length) : text;
        await input.type(text, guard);
        break;
      }
      case "key":
        typed = step.combo ?? "";
        await input.key(step.combo ?? "", guard);
        break;
    }
    const actMs = performance.now() - tAct;
    trace.append({ type: "action", row, step: index, step_id: step.step_id, action: step.action, point: actedOn ? [Math.round(actedOn[0]), Math.round(actedOn[1])] : null, input: typed, duration_ms: Math.round(actMs) });

    // Post-check.
    const tPost = performance.now();
    let check = "";
    const next = expectedWindow(step);
    if (next && next.title !== step.window.title) {
      const w = await this.findWindow(next, b, this.opts.postCheckTimeoutMs ?? 10_000).catch(() => undefined);
      if (!w) throw fail("postcheck_failed", `${step.step_id}: after ${step.action}, the window « ${titleWithData(next.title, this.workflow, b)} » (${next.app}) did not appear within ${Math.round((this.opts.postCheckTimeoutMs ?? 10_000) / 1000)} s.`);
      check = `window « ${w.window.title} »${w.exact ? "" : " (same app, other title)"}`;
    }
    let afterFrame: Frame | undefined;
    const live = await windows.get(window.id, signal);
    if (live) {
      await sleep(150, signal);
      afterFrame = await this.deps.screen.capture(regionOf(live), signal);
      const type = step.target?.type;
      if (g?.found && type && RETRY_ON_NO_CHANGE.has(type) && step.action === "click" && afterFrame.width === frame.width && afterFrame.height === frame.height) {
        const around = clampBBox([g.bbox[0] - 12, g.bbox[1] - 12, g.bbox[2] + 12, g.bbox[3] + 12], frame);
        let changed = !sameFrame(cropFrame(frame, around), cropFrame(afterFrame, around));
        for (let k = 0; !changed && k < 5; k++) {
          await sleep(150, signal);
          afterFrame = await this.deps.screen.capture(regionOf(live), signal);
          changed = afterFrame.width !== frame.width || !sameFrame(cropFrame(frame, around), cropFrame(afterFrame, around));
        }
        if (!changed) throw fail("postcheck_failed", `${step.step_id}: the ${type} « ${step.target?.label ?? ""} » looks the same after the click; trying again.`);
        check ||= `the ${type} changed`;
      }
      check ||= `window « ${live.title} »`;
    } else check ||= "the window closed";
    overhead += performance.now() - tPost - (live ? 150 : 0);
    const after = await this.shoot(`${step.step_id}-after`, live, afterFrame);
    if (g?.found && !g.ambiguous && !fromCache && step.action !== "select") this.groundCache.set(step.step_id, { key: this.cacheKey(step, frame, g.bbox, b), g, row });
    return { overhead, method: g?.found ? g.method : "none", after: { path: after.path, origin: after.origin }, check };
  }

  /** After opening a list: the item named `option` (the popup is its own window, so the whole screen is read). */
  private async findOption(option: string, window: WindowDescriptor): Promise<Point | undefined> {
    for (let k = 0; k < 3; k++) {
      await sleep(300, this.opts.signal);
      const frame = await this.deps.screen.capture({ kind: "screen" }, this.opts.signal);
      const screen = await this.deps.perceive(frame, this.opts.signal);
      const g = await groundTarget({ type: null, label: option, by_text: option, role: null, position_hint: null, anchors: [], recorded_bbox: null, icon: null }, frame, screen);
      if (g.found && !g.ambiguous) return frameToScreen(frame, g.point);
      if (g.found && g.ambiguous) {
        // The item in the popup, not the list's own face showing the current value: farthest from the list's box.
        const inWindow = (p: Point) => p[0] >= window.bbox[0] && p[0] <= window.bbox[2] && p[1] >= window.bbox[1] && p[1] <= window.bbox[3];
        const c = g.candidates.find((c) => c.text_score >= 0.8 && !inWindow(frameToScreen(frame, bboxCenter(c.bbox))));
        if (c) return frameToScreen(frame, bboxCenter(c.bbox));
        return frameToScreen(frame, g.point);
      }
    }
    return undefined;
  }
}

/** The window's client area as a screen region: captured without asking the window system again (the caller just did). */
function regionOf(w: WindowDescriptor): { kind: "region"; bbox: BBox } {
  return { kind: "region", bbox: w.bbox };
}

function winInfo(w: WindowDescriptor): { id: string; title: string; app: string; bbox: [number, number, number, number] } {
  return { id: w.id, title: w.title, app: w.appName, bbox: [w.bbox[0], w.bbox[1], w.bbox[2], w.bbox[3]] };
}

function roundAll(t: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(t).map(([k, v]) => [k, Math.round(v)]));
}

function secretStep(wf: Workflow, step: Step): boolean {
  return wf.variables.some((v) => v.secret && (step.text ?? "").includes(`{{${v.name}}}`));
}

/** Bindings with secret values hidden, for messages. */
export function maskSecrets(wf: Workflow, b: Bindings): Bindings {
  return Object.fromEntries(Object.entries(b).map(([k, v]) => [k, wf.variables.find((x) => x.name === k)?.secret ? "•".repeat([...v].length) : v]));
}

/** Where a scroll step turns the wheel: its window-relative point, kept inside the window's client area. */
export function scrollPoint(step: Step, win: BBox): Point {
  const [ax, ay] = step.scroll?.at ?? [(win[2] - win[0]) / 2, (win[3] - win[1]) / 2];
  return [Math.min(Math.max(win[0] + ax, win[0] + 1), win[2] - 1), Math.min(Math.max(win[1] + ay, win[1] + 1), win[3] - 1)];
}
