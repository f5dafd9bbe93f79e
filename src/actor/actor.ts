// The decision actor (plan, MESO): for each step, observe (the window, a still frame, perception),
// compare (title, required elements through the workflow matcher, the step's expectations), decide
// (execute, adapt with a recovery strategy, skip when the effect already holds, ask a person, fail),
// act (grounding and human-like input, guarded by the target window) and verify (the step's typed
// post-conditions). Every decision is a typed record in the trace. `mode: "plain"` is the replay of
// before the actor (execute only, window and toggle checks), kept for comparison (--no-actor).
import type { IconRecognizer } from "../core/providers/icon-recognizer.js";
import { AbortedError, AssistNeededError, DangerousActionBlockedError, RpaError, TimeoutError, WindowNotFoundError, type ErrorCode, throwIfAborted } from "../core/errors.js";
import { bboxFrameToScreen, bboxScreenToFrame, cropFrame, frameToScreen, type Frame } from "../core/frame.js";
import type { BBox, Point } from "../core/geometry.js";
import { bboxCenter, bboxIoU, clampBBox, padBBox } from "../core/geometry.js";
import { contentHash, timestampedId } from "../core/ids.js";
import { sleep } from "../core/process.js";
import type { AssistAsker } from "../core/providers/assist-channel.js";
import type { DecisionModel } from "../core/providers/decision-model.js";
import type { InputDriver } from "../core/providers/input-driver.js";
import type { ScreenSource } from "../core/providers/screen-source.js";
import type { VlmGrounder } from "../core/providers/vlm.js";
import type { WindowDescriptor, WindowInfo } from "../core/providers/window-info.js";
import type { AssistAnswer, AssistCandidate } from "../core/schemas/assist.js";
import type { CheckResult, Decision, TraceCandidate } from "../core/schemas/trace.js";
import type { CheckRegion, Postcondition, Step, StepExpectations, Workflow } from "../core/schemas/workflow.js";
import type { StateInput } from "../embedding/multimodal-embedding-manager.js";
import type { WorkflowPatchOp } from "../core/schemas/workflow-patch.js";
import type { ElementMatcher } from "../matching/workflow-matcher.js";
import { targetIsDangerous } from "../record/expectations.js";
import { groundTarget, type Grounding, type PerceivedScreen } from "../replay/grounding.js";
import type { TraceWriter } from "../replay/trace.js";
import { fillTemplate, titleWithData, type Bindings } from "../replay/variables.js";
import { checkAll, cropScreenBox, readFieldCheaply, STATE_KINDS, type CheckProbe } from "./checks.js";
import { observeWindow, regionOf, stableFrame, stillFrame, type LastLook, type WindowObservation } from "./observe.js";
import { dangerousAllowed } from "./policy.js";
import { clearField, RECOVERY_STRATEGIES, SCROLL_DOWN_TRIES, SCROLL_TRIES, scrollToTarget, waitStable, type RecoveryEnv, type RecoveryStrategy, type Situation } from "./recovery.js";

export interface ActorDeps {
  screen: ScreenSource;
  windows: WindowInfo;
  input: InputDriver;
  /** Elements and text of a frame (frame pixels). */
  perceive: (frame: Frame, signal?: AbortSignal) => Promise<PerceivedScreen>;
  /** Text lines of a small frame (a field); default: perception's lines. */
  readText?: (frame: Frame, signal?: AbortSignal) => Promise<string[]>;
  /**
   * One line of text in `box` (frame pixels) of a small frame: the recognizer alone, no text
   * detection. Given, a field is read back the cheap way (no ink: no OCR; mask dots counted;
   * else this one line on the ink's box); absent, by `readText`.
   */
  readLine?: (frame: Frame, box: BBox, signal?: AbortSignal) => Promise<string>;
  /** Loads a target's icon crop (path relative to the workflow file); throws when missing. */
  loadIcon?: (path: string) => Promise<Frame>;
  /** Loads a crop an expectation names (toggle looks); default loadIcon. */
  loadCrop?: (path: string) => Promise<Frame>;
  encodePng: (frame: Frame) => Promise<Uint8Array>;
  vlm?: VlmGrounder;
  /** Names what icons show (icon-only targets recorded with their icon's class are checked and found by it). */
  icons?: IconRecognizer;
  trace: TraceWriter;
  /** Starts the workflow's app again (command line recorded at record time). */
  launch?: () => Promise<void>;
  /** The "mode assisté": where questions go (terminal prompt, studio). Absent: AssistNeededError. */
  assist?: AssistAsker;
  /** Optional decision model: chooses among the rules' options; rules decide when absent, slow or invalid. */
  decisionModel?: DecisionModel;
  /** Compares the live screen with the step's recorded state and required elements (the design's EnhancedWorkflowMatcher). */
  matcher?: ElementMatcher;
  /** The recording's state embedder (same providers): the live screen's state embedding. */
  embedState?: (input: StateInput, signal?: AbortSignal) => Promise<{ provider: string; vector: Float32Array }>;
  /** A recorded state vector by id (the store); undefined when it is not there. */
  stateVector?: (vectorId: string) => Promise<{ provider: string; vector: Float32Array } | undefined>;
  /** A person's answer turned into a proposed change of the workflow; returns the patch id. */
  proposePatch?: (p: { step_id: string; op: WorkflowPatchOp; reason: string; question_id: string }) => Promise<string>;
  run?: { runId: string; runDir: string };
}

export interface ActorOptions {
  mode?: "actor" | "plain";
  maxAttempts?: number;
  windowTimeoutMs?: number;
  postCheckTimeoutMs?: number;
  allowDangerous?: boolean;
  /** How long the decision model may take (default 3 s). */
  decisionTimeoutMs?: number;
  signal?: AbortSignal;
}

export type StepStatus = "passed" | "failed" | "skipped" | "unverified";

export interface StepOutcome {
  step: number;
  step_id: string;
  status: StepStatus;
  attempts: number;
  error?: { code: string; message: string };
  overhead_ms: number;
  duration_ms: number;
  method?: string;
  checks?: CheckResult[];
  decisions?: Decision["kind"][];
  /** The step has no check of its own; this later step's checks stand for it. */
  checked_by?: string;
}

/** A step that failed for a reason the run reports (not a bug), with the overhead spent until then. */
class StepFailure extends RpaError {
  constructor(code: ErrorCode, message: string, readonly overhead: number) {
    super(code, message);
  }
}

const TARGETED = new Set(["click", "double_click", "right_click", "middle_click", "drag", "select"]);
/** How long a window whose target is missing is watched for change before the target is sought elsewhere (scrolled to). */
const LOOK_AGAIN_MS = 400;
/** Plain replay checked windows and, for these, that a click changed them. */
const PLAIN_CHANGE = new Set(["checkbox", "radio_button", "tab", "dropdown"]);
const NOT_RETRIED = ["window_not_found", "timeout", "display_unavailable", "provider_unavailable", "invalid_input", "assist_needed", "dangerous_action_blocked", "aborted"];

function winInfo(w: WindowDescriptor): { id: string; title: string; app: string; bbox: [number, number, number, number] } {
  return { id: w.id, title: w.title, app: w.appName, bbox: [w.bbox[0], w.bbox[1], w.bbox[2], w.bbox[3]] };
}

function roundAll(t: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(t).map(([k, v]) => [k, Math.round(v)]));
}

function regionOfCondition(c: Postcondition): CheckRegion | undefined {
  return c.kind === "field_value" || c.kind === "toggle_state" || c.kind === "text_present" || c.kind === "region_changed" ? c.region : undefined;
}

function statusOf(checks: readonly CheckResult[]): StepStatus {
  if (checks.some((c) => c.status === "failed")) return "failed";
  if (checks.length === 0 || checks.some((c) => c.status === "unverified")) return "unverified";
  return "passed";
}

interface AttemptResult {
  status: StepStatus;
  overhead: number;
  method: string;
  after: { path: string | null; origin: Point | null };
  check: string;
  checks: CheckResult[];
  /** A failed check after an action that may safely run again. */
  retry: boolean;
  /** Time spent on the post-conditions (counted in `overhead`). */
  postMs?: number;
}

export class Actor {
  /**
   * Per row: where each step's target was grounded (screen box), for checks of later steps, and the layout epoch it was
   * found in (a scroll, a step's or an adaptation's, starts a new one).
   */
  private boxes = new Map<string, { box: BBox; epoch: number }>();
  private layoutEpoch = 0;
  /** Recorded state vectors read from the store (they do not change during a run: read once, not at every step and row). */
  private readonly recordedVectors = new Map<string, { provider: string; vector: Float32Array } | undefined>();
  private readonly groundCache = new Map<string, { key: string; g: Extract<Grounding, { found: true }>; row: number }>();
  private decisions: Decision["kind"][] = [];
  /** The last perception of each window (what a step that looks at nothing compares with). */
  private readonly lastSeen = new Map<string, PerceivedScreen>();
  /** The last capture of each window and when it was made (the next step's still frame starts from it). */
  private readonly lastLook = new Map<string, LastLook>();

  constructor(
    private readonly workflow: Workflow,
    private readonly deps: ActorDeps,
    private readonly opts: ActorOptions = {},
  ) {}

  private get plain(): boolean {
    return this.opts.mode === "plain";
  }

  beginRow(): void {
    this.boxes = new Map();
    this.layoutEpoch = 0;
  }

  private title(t: string, b: Bindings): string {
    return titleWithData(t, this.workflow, b);
  }

  private decide(row: number, index: number, step: Step, attempt: number, d: Decision): void {
    this.decisions.push(d.kind);
    this.deps.trace.append({ type: "decision", row, step: index, step_id: step.step_id, attempt, decision: d });
  }

  /** Lets the decision model choose among the rules' options (validated, bounded in time); the rules' choice otherwise. */
  private async choose(step: Step, observed: Record<string, unknown>, options: Decision["options"], rulesChoice: string): Promise<{ chosen: string; by: Decision["by"]; reason?: string; model_error?: string; model?: string }> {
    const model = this.deps.decisionModel;
    if (!model || options.length < 2 || this.plain) return { chosen: rulesChoice, by: "rules" };
    const ctl = new AbortController();
    const timer = setTimeout(() => ctl.abort(), this.opts.decisionTimeoutMs ?? 3000);
    try {
      const a = await Promise.race([
        model.decide({ intention: step.intention, expected_state: step.expected_state, expected_result: step.expected_result, observed, options }, ctl.signal),
        new Promise<never>((_, reject) => ctl.signal.addEventListener("abort", () => reject(new TimeoutError(`the decision model ${model.name} took over ${this.opts.decisionTimeoutMs ?? 3000} ms`)), { once: true })),
      ]);
      if (typeof a?.chosen === "string" && options.some((o) => o.id === a.chosen)) return { chosen: a.chosen, by: "model", model: model.name, reason: String(a.reason ?? "").slice(0, 500) };
      return { chosen: rulesChoice, by: "rules", model: model.name, model_error: `the model chose « ${String(a?.chosen).slice(0, 80)} », not one of the options` };
    } catch (e) {
      return { chosen: rulesChoice, by: "rules", model: model.name, model_error: (e as Error).message.slice(0, 300) };
    } finally {
      clearTimeout(timer);
    }
  }

  async runStep(row: number, index: number, step: Step, b: Bindings): Promise<StepOutcome> {
    const t0 = performance.now();
    const maxAttempts = this.opts.maxAttempts ?? 3;
    this.decisions = [];
    let overhead = 0;
    let lastError: { code: string; message: string } | undefined;
    let method: string | undefined;
    let attempt = 0;
    let shotAfter: { path: string | null; origin: Point | null } = { path: null, origin: null };
    let check = "";
    let checks: CheckResult[] = [];
    let status: StepStatus = "failed";
    let postMs: number | undefined;
    while (attempt < maxAttempts) {
      attempt++;
      throwIfAborted(this.opts.signal, "replay");
      try {
        const r = await this.attempt(row, index, step, b, attempt);
        overhead += r.overhead;
        method = r.method;
        shotAfter = r.after;
        check = r.check;
        checks = r.checks;
        status = r.status;
        postMs = r.postMs;
        lastError = undefined;
        if (r.status === "failed") {
          const failed = r.checks.filter((c) => c.status === "failed").map((c) => `${c.kind}: ${c.evidence}`).join("; ");
          lastError = { code: "postcheck_failed", message: `${step.step_id}: after ${step.action}, ${failed}.` };
          if (r.retry && attempt < maxAttempts) {
            await sleep(500, this.opts.signal);
            continue;
          }
        }
        break;
      } catch (e) {
        if (e instanceof AbortedError || !(e instanceof RpaError)) throw e;
        if (e instanceof StepFailure) overhead += e.overhead;
        lastError = { code: e.code, message: e.message };
        status = "failed";
        shotAfter = await this.shoot(`${step.step_id}-failed`, undefined).catch(() => ({ path: null, origin: null }));
        check = "failed";
        if (NOT_RETRIED.includes(e.code)) break;
        if (attempt < maxAttempts) await sleep(500, this.opts.signal);
      }
    }
    const duration = performance.now() - t0;
    const checkedBy = status === "unverified" && checks.length === 0 ? step.expect?.checked_by : undefined;
    this.deps.trace.append({ type: "after", row, step: index, step_id: step.step_id, status, attempts: attempt, screenshot: shotAfter.path, origin: shotAfter.origin, check, checks, error: lastError ?? null, overhead_ms: Math.round(overhead), ...(postMs !== undefined ? { post_ms: Math.round(postMs) } : {}), duration_ms: Math.round(duration), ...(checkedBy ? { checked_by: checkedBy } : {}) });
    return { step: index, step_id: step.step_id, status, attempts: attempt, ...(lastError ? { error: lastError } : {}), overhead_ms: Math.round(overhead), duration_ms: Math.round(duration), ...(method ? { method } : {}), checks, decisions: this.decisions, ...(checkedBy ? { checked_by: checkedBy } : {}) };
  }

  private async shoot(name: string, window: WindowDescriptor | undefined, frame?: Frame): Promise<{ path: string | null; origin: Point | null; frame?: Frame }> {
    let f = frame;
    if (!f) {
      const live = window ? await this.deps.windows.get(window.id, this.opts.signal) : undefined;
      f = await this.deps.screen.capture(live ? regionOf(live) : { kind: "screen" }, this.opts.signal);
      if (live) this.lastLook.set(live.id, { frame: f, at: Date.now() });
    }
    const path = this.deps.trace.putShot(name, await this.deps.encodePng(f));
    return { path, origin: [f.origin[0], f.origin[1]], frame: f };
  }

  private recoveryEnv(): RecoveryEnv {
    return {
      windows: this.deps.windows,
      input: this.deps.input,
      screen: this.deps.screen,
      perceive: this.deps.perceive,
      ...(this.deps.launch ? { launch: this.deps.launch } : {}),
      sleep: (ms) => sleep(ms, this.opts.signal),
      ...(this.opts.signal ? { signal: this.opts.signal } : {}),
    };
  }

  private situation(step: Step, b: Bindings, obs: WindowObservation, extra: Partial<Situation> = {}): Situation {
    const first = this.workflow.steps[0]!.window;
    return {
      step,
      title: this.title(step.window.title, b),
      windows: obs.list,
      ...(obs.window ? { stepWindow: obs.window } : {}),
      atStart: first.app === step.window.app && first.title === step.window.title,
      canLaunch: !!this.deps.launch,
      ...extra,
    };
  }

  /** Runs one strategy as an "adapt" decision: act, verify, trace. Returns what it did (nothing when it could not act). */
  private async adapt(row: number, index: number, step: Step, attempt: number, s: RecoveryStrategy, sit: Situation, offered: readonly RecoveryStrategy[], why: string): Promise<{ acted: boolean; verified: boolean; evidence: Record<string, unknown> }> {
    const options: Decision["options"] = [...offered.map((o) => ({ id: o.id, kind: "adapt" as const, description: o.description })), { id: "fail", kind: "fail", description: "fail the step" }];
    const observed = { window: sit.stepWindow ? { title: sit.stepWindow.title, visible: sit.stepWindow.visible, active: sit.stepWindow.active } : null, active: sit.windows.find((w) => w.active)?.title ?? null, why };
    const pick = await this.choose(step, observed, options, s.id);
    const chosen = offered.find((o) => o.id === pick.chosen);
    if (!chosen) {
      this.decide(row, index, step, attempt, { kind: "fail", reason: `${why}; the decision model chose to fail`, evidence: { ...observed, ...(pick.reason ? { model_reason: pick.reason } : {}) }, options, chosen: "fail", by: pick.by });
      throw new StepFailure("postcheck_failed", `${step.step_id}: ${why}; no recovery was chosen.`, 0);
    }
    const out = await chosen.act(sit, this.recoveryEnv());
    const ok = out.acted ? await chosen.verify(sit, this.recoveryEnv()) : false;
    this.decide(row, index, step, attempt, {
      kind: "adapt",
      reason: `${why}: ${chosen.description}${out.acted ? (ok ? " — done" : " — it did not help") : " — could not act safely"}`,
      evidence: { ...observed, ...out.evidence, verified: ok, ...(pick.model ? { model: pick.model } : {}), ...(pick.model_error ? { model_error: pick.model_error } : {}), ...(pick.reason ? { model_reason: pick.reason } : {}) },
      options,
      chosen: chosen.id,
      by: pick.by,
    });
    return { acted: out.acted, verified: ok, evidence: out.evidence };
  }

  /** The "mode assisté": a question to a person; without a channel, AssistNeededError (the row stays resumable). */
  private async ask(row: number, index: number, step: Step, attempt: number, why: string, shot: { path: string | null; origin: Point | null }, window: WindowDescriptor | undefined, candidates: AssistCandidate[], choices: AssistAnswer["choice"]["kind"][]): Promise<AssistAnswer> {
    const options: Decision["options"] = choices.map((c) => ({ id: c, kind: c === "skip" ? "skip" : c === "abort" ? "fail" : "execute", description: c }));
    if (!this.deps.assist) {
      this.decide(row, index, step, attempt, { kind: "ask", reason: `${why}; no one can be asked (run with --assist)`, evidence: { candidates: candidates.length }, options, chosen: null, by: "rules" });
      throw new AssistNeededError(`${step.step_id}: ${why}. Run again with --assist to answer (pick a candidate, click a point, skip the step, abort), then resume: the row stays resumable.`, { details: { step: step.step_id } });
    }
    const q = {
      schema_version: "assist_question_v1" as const,
      question_id: timestampedId("q"),
      asked_at: new Date().toISOString(),
      run_id: this.deps.run?.runId ?? "run",
      run_dir: this.deps.run?.runDir ?? this.deps.trace.dir,
      row,
      step_id: step.step_id,
      message: `${step.intention}: ${why}`,
      screenshot: shot.path,
      origin: shot.origin ? { x: shot.origin[0], y: shot.origin[1], scale_factor: 1 } : null,
      window: window ? { app: window.appName, title: window.title } : null,
      candidates,
      choices,
    };
    const a = await this.deps.assist.ask(q, this.opts.signal);
    this.decide(row, index, step, attempt, { kind: "ask", reason: why, evidence: { question_id: q.question_id, answer: a.choice, answered_by: a.by }, options, chosen: a.choice.kind, by: "person" });
    return a;
  }

  private async ground(step: Step, frame: Frame, b: Bindings): Promise<{ g: Grounding; screen?: PerceivedScreen; perceiveMs: number; groundMs: number; cached?: boolean }> {
    const target = step.target!;
    const cached = this.groundCache.get(step.step_id);
    if (cached && this.cacheKey(step, frame, cached.g.bbox, b) === cached.key)
      return { g: { ...cached.g, note: `${cached.g.note} — cached: the screen around it is as in row ${cached.row + 1}` }, perceiveMs: 0, groundMs: 0, cached: true };
    const t0 = performance.now();
    const screen = await this.deps.perceive(frame, this.opts.signal);
    const t1 = performance.now();
    let icon: Frame | undefined;
    if (target.icon && this.deps.loadIcon) icon = await this.deps.loadIcon(target.icon);
    const label = this.title(target.by_text ?? target.label, b);
    const verb = step.action === "double_click" ? "double_click" : step.action === "right_click" ? "right_click" : "click";
    const taken = this.takenFields(step, frame);
    const g = await groundTarget(target, frame, screen, { label, verb, ...(icon ? { icon } : {}), ...(taken.length ? { taken } : {}), ...(this.deps.vlm ? { vlm: this.deps.vlm } : {}), ...(this.deps.icons ? { icons: this.deps.icons } : {}), ...(this.opts.signal ? { signal: this.opts.signal } : {}) });
    return { g, screen, perceiveMs: t1 - t0, groundMs: performance.now() - t1 };
  }

  private cacheKey(step: Step, frame: Frame, bbox: BBox, b: Bindings): string {
    const m = 6 * frame.scaleFactor;
    const around = clampBBox(padBBox(bbox, m), frame);
    const crop = cropFrame(frame, around);
    const label = this.title(step.target?.by_text ?? step.target?.label ?? "", b);
    return `${frame.width}x${frame.height}|${label}|${around.join(",")}|${contentHash(crop.data)}`;
  }

  private probe(step: Step, b: Bindings, window: WindowDescriptor, targetBox: BBox | null, before: { frame: Frame; title: string } | undefined): CheckProbe {
    const { screen, windows } = this.deps;
    const signal = this.opts.signal;
    let live: WindowDescriptor | undefined | null = null;
    const readText = async (f: Frame) => (this.deps.readText ? this.deps.readText(f, signal) : (await this.deps.perceive(f, signal)).lines.map((l) => l.text));
    const box = (r: CheckRegion): BBox | undefined => (r.of === "target" ? (targetBox ?? this.boxes.get(step.step_id)?.box) : r.of === "step" ? this.boxes.get(r.step_id)?.box : (live ?? window).bbox);
    return {
      windows: () => windows.list(signal),
      liveWindow: async () => (live = await windows.get(window.id, signal)),
      box,
      capture: (bb) => screen.capture({ kind: "region", bbox: bb }, signal),
      before: (r) => {
        const bb = box(r);
        if (!before || !bb) return undefined;
        return { frame: r.of === "window" ? before.frame : cropScreenBox(before.frame, bb), title: before.title };
      },
      readText,
      ...(this.deps.readLine ? { readField: (f: Frame, masked: boolean) => readFieldCheaply(f, masked, (fr, bb) => this.deps.readLine!(fr, bb, signal), readText) } : {}),
      loadCrop: (p) => (this.deps.loadCrop ?? this.deps.loadIcon ?? (() => Promise.reject(new Error("no crop loader"))))(p),
      fill: (t) => fillTemplate(t, b),
      title: (t) => this.title(t, b),
      sleep: (ms) => sleep(ms, signal),
    };
  }

  private async attempt(row: number, index: number, step: Step, b: Bindings, attempt: number): Promise<AttemptResult> {
    const { input, trace, windows } = this.deps;
    const signal = this.opts.signal;
    const timings: Record<string, number> = {};
    const tPre = performance.now();
    let overhead = 0;
    const fail = (code: ErrorCode, message: string) => new StepFailure(code, message, overhead);
    const exp = step.expect ?? { before: { window: step.window, required_elements: [], state_vector_id: null }, after: [], source: "derived" as const };
    const want = { title: this.title(step.window.title, b), app: step.window.app };

    if (step.action === "wait_for") {
      const obs = await observeWindow(windows, want, step.timeout_ms ?? 10_000, false, signal);
      if (!obs.window) throw new TimeoutError(`No window « ${want.title} » of ${want.app || "any app"} within ${Math.round((step.timeout_ms ?? 10_000) / 1000)} s; open windows: ${obs.list.map((w) => `« ${w.title} » (${w.appName})`).join(", ") || "none"}. Nothing was sent.`, { details: { title: step.window.title, app: step.window.app } });
      timings.wait_ms = performance.now() - tPre;
      const shot = await this.shoot(`${step.step_id}-before`, obs.window);
      this.decide(row, index, step, attempt, { kind: "execute", reason: `window « ${obs.window.title} » is there`, evidence: { window: obs.window.title, waited_ms: Math.round(obs.waitedMs) }, options: [{ id: "execute", kind: "execute", description: "wait for the window" }], chosen: "execute", by: "rules" });
      trace.append({ type: "before", row, step: index, step_id: step.step_id, attempt, window: winInfo(obs.window), screenshot: shot.path, origin: shot.origin, method: "none", bbox: null, score: null, ambiguous: false, candidates: [], decision: `execute: window « ${obs.window.title} » is there`, timings: roundAll(timings) });
      trace.append({ type: "action", row, step: index, step_id: step.step_id, action: "wait_for", point: null, input: null, duration_ms: 0 });
      const checks: CheckResult[] = [{ kind: "window_open", status: "passed", evidence: `window « ${obs.window.title} » (${obs.window.appName}) is open` }];
      return { status: "passed", overhead: 0, method: "none", after: { path: shot.path, origin: shot.origin }, check: `window « ${obs.window.title} »`, checks, retry: false };
    }

    // OBSERVE the step's window; ADAPT until it is there, visible and focused.
    const windowTimeout = this.opts.windowTimeoutMs ?? 10_000;
    const firstLook = this.plain ? windowTimeout : Math.min(1500, windowTimeout);
    let obs = await observeWindow(windows, want, firstLook, true, signal);
    if (!this.plain && obs.window && obs.late)
      this.decide(row, index, step, attempt, { kind: "adapt", reason: `the window « ${want.title} » was not there yet: waited ${Math.round(obs.waitedMs)} ms for it`, evidence: { waited_ms: Math.round(obs.waitedMs) }, options: [{ id: "wait_window", kind: "adapt", description: "wait for the window up to the window timeout" }], chosen: "wait_window", by: "rules" });
    let waitedLonger = false;
    const used = new Set<string>();
    for (let k = 0; k < 5; k++) {
      const w = obs.window;
      if (this.plain) {
        if (!w) break;
        if (!w.active) await windows.activate(w.id, signal);
        break;
      }
      if (w && w.visible && w.active) break;
      const sit = this.situation(step, b, obs);
      const offered = RECOVERY_STRATEGIES.filter((s) => s !== clearField && s !== scrollToTarget && s !== waitStable && !used.has(s.id) && s.applies(sit));
      const s = offered[0];
      if (!s) {
        if (!w && !waitedLonger) {
          // Not there yet: a slow window gets the rest of the wait.
          waitedLonger = true;
          obs = await observeWindow(windows, want, Math.max(0, windowTimeout - firstLook), true, signal);
          if (obs.window) this.decide(row, index, step, attempt, { kind: "adapt", reason: `the window « ${want.title} » took ${Math.round(obs.waitedMs + firstLook)} ms to appear (slow to load): waited`, evidence: { waited_ms: Math.round(obs.waitedMs + firstLook) }, options: [{ id: "wait_window", kind: "adapt", description: "wait for the window up to the window timeout" }], chosen: "wait_window", by: "rules" });
          continue;
        }
        if (w && !w.active) {
          // No strategy left (a dialog without a safe answer stays on top): ask or fail.
          const shot = await this.shoot(`${step.step_id}-blocked`, undefined);
          const active = obs.list.find((x) => x.active);
          const a = await this.ask(row, index, step, attempt, `another window « ${active?.title ?? "?"} » (${active?.appName ?? "?"}) is in front of « ${w.title} » and has no safe answer`, shot, active, [], ["skip", "abort"]);
          if (a.choice.kind === "skip") return this.skipped(row, index, step, attempt, w, shot, "skipped by a person");
          throw new StepFailure("assist_needed", `${step.step_id}: aborted by ${a.by}.`, overhead);
        }
        break;
      }
      used.add(s.id);
      const why = !w ? `no window « ${want.title} » of ${want.app}` : !w.visible ? `the window « ${w.title} » is minimised or hidden` : `another window has the focus instead of « ${w.title} »`;
      await this.adapt(row, index, step, attempt, s, sit, offered, why);
      obs = await observeWindow(windows, want, s.id === "start_app" ? windowTimeout : 1500, true, signal);
    }
    const window = obs.window;
    if (!window) {
      const seen = obs.list.map((x) => `« ${x.title} » (${x.appName})`).join(", ") || "none";
      this.decide(row, index, step, attempt, { kind: "fail", reason: `no window « ${want.title} » of ${want.app || "any app"}`, evidence: { open_windows: obs.list.map((x) => ({ title: x.title, app: x.appName })) }, options: [{ id: "fail", kind: "fail", description: "fail the step" }], chosen: "fail", by: "rules" });
      throw new WindowNotFoundError(`No window « ${want.title} » of ${want.app || "any app"} within ${Math.round(windowTimeout / 1000)} s; open windows: ${seen}. Nothing was sent.`, { details: { title: step.window.title, app: step.window.app } });
    }
    timings.precheck_ms = performance.now() - tPre;

    // Dangerous targets run only under an explicit policy.
    if (targetIsDangerous(step.target) && !dangerousAllowed({ allowDangerous: !!this.opts.allowDangerous, workflowAllows: !!this.workflow.policy?.allow_dangerous })) {
      const shot = await this.shoot(`${step.step_id}-dangerous`, window);
      if (!this.deps.assist) {
        this.decide(row, index, step, attempt, { kind: "fail", reason: `« ${step.target!.label} » is a dangerous action and no policy allows it`, evidence: { target: step.target!.label, role: step.target!.role }, options: [{ id: "fail", kind: "fail", description: "block it" }], chosen: "fail", by: "rules" });
        throw new DangerousActionBlockedError(`${step.step_id}: « ${step.target!.label} » is a dangerous action (delete, pay, send…); nothing was clicked. Run with --allow-dangerous, set "policy": {"allow_dangerous": true} in the workflow, or --assist to be asked.`, { details: { step: step.step_id } });
      }
      const a = await this.ask(row, index, step, attempt, `« ${step.target!.label} » is a dangerous action: run it this once?`, shot, window, [{ candidate_id: "run", label: step.target!.label, type: step.target!.type ?? "button", bbox: step.target!.recorded_bbox ?? [window.bbox[0], window.bbox[1], window.bbox[2], window.bbox[3]], score: 1 }], ["pick", "skip", "abort"]);
      if (a.choice.kind === "skip") return this.skipped(row, index, step, attempt, window, shot, "a person chose to skip the dangerous action");
      if (a.choice.kind !== "pick") throw new DangerousActionBlockedError(`${step.step_id}: « ${step.target!.label} » was not allowed by ${a.by}; nothing was clicked.`);
    }

    const tFrame = performance.now();
    const needsTarget = step.target !== null && TARGETED.has(step.action);
    const stableLimit = 3000;
    const first = needsTarget || !this.plain ? await stableFrame(this.deps.screen, window, this.plain ? stableLimit : needsTarget ? stableLimit : 600, signal, this.lastLook.get(window.id)) : { frame: await this.deps.screen.capture(regionOf(window), signal), stable: true };
    let frame = first.frame;
    if (!first.stable && !this.plain && needsTarget) {
      await this.adapt(row, index, step, attempt, waitStable, this.situation(step, b, obs, { unstable: true }), [waitStable], `the window « ${window.title} » was still changing after ${stableLimit / 1000} s`);
      frame = await this.deps.screen.capture(regionOf(window), signal);
    }
    timings.stable_ms = performance.now() - tFrame;
    overhead += timings.precheck_ms + timings.stable_ms;
    const beforeState = { frame, title: window.title };

    // COMPARE: the effect may already hold (skip); a typing step's field may hold other text (adapt).
    let fieldNotEmpty: Situation["fieldNotEmpty"];
    // A region that changed is how a click shows its effect, not the effect: a step whose other
    // post-conditions are all states that already hold (a box already ticked) is done.
    const stateConds = exp.after.filter((c) => STATE_KINDS.has(c.kind));
    const decisive = exp.after.filter((c) => c.kind !== "region_changed");
    const tCmp = performance.now();
    // The target grounded for the comparison is the one the action uses (same frame): perceived once.
    let preGround: Awaited<ReturnType<Actor["ground"]>> | undefined;
    if (!this.plain && stateConds.length > 0 && stateConds.length === decisive.length) {
      let ownBox: BBox | null = null;
      const unknownBox = (r: CheckRegion | undefined) => !!r && (r.of === "target" || (r.of === "step" && !this.boxes.has(r.step_id)));
      const needsOwn = exp.after.some((c) => unknownBox(regionOfCondition(c)));
      let groundMs = 0;
      if (needsOwn && step.target) {
        const r = await this.ground(step, frame, b);
        preGround = r;
        groundMs = r.perceiveMs + r.groundMs;
        if (r.g.found && !r.g.ambiguous) ownBox = bboxFrameToScreen(frame, r.g.bbox);
      }
      const probe = this.probe(step, b, window, ownBox, undefined);
      // On resume the field's click ran in an earlier process: the step's own target stands for it.
      const patched: Postcondition[] = exp.after.map((c) => (ownBox && regionOfCondition(c)?.of === "step" && unknownBox(regionOfCondition(c)) ? ({ ...c, region: { of: "target" } } as Postcondition) : c));
      const pre = await checkAll(patched.filter((c) => c.kind !== "region_changed"), probe, { phase: "before" });
      // Grounding is counted as grounding (the action needs it anyway), not as comparison.
      timings.compare_ms = performance.now() - tCmp - groundMs;
      overhead += timings.compare_ms;
      if (pre.every((c) => c.status === "passed")) {
        const shot = await this.shoot(`${step.step_id}-already`, window, frame);
        this.decide(row, index, step, attempt, { kind: "skip", reason: "the step's effect already holds", evidence: { checks: pre }, options: [{ id: "skip", kind: "skip", description: "skip: already done" }, { id: "execute", kind: "execute", description: "do it anyway" }], chosen: "skip", by: "rules" });
        return { ...(await this.skipped(row, index, step, attempt, window, shot, `already done: ${pre.map((c) => c.evidence).join("; ")}`, pre)), overhead };
      }
      const field = patched.find((c): c is Extract<Postcondition, { kind: "field_value" }> => c.kind === "field_value");
      const fieldCheck = pre.find((c) => c.kind === "field_value");
      if (step.action === "type" && field && fieldCheck?.status === "failed" && !/reads empty/.test(fieldCheck.evidence)) {
        const bb = probe.box(field.region);
        if (bb) fieldNotEmpty = { box: bb, read: fieldCheck.evidence };
      }
      // Typing again after a failed check: whatever the field reads now, it is cleared first (never typed twice).
      if (step.action === "type" && field && attempt > 1 && !fieldNotEmpty && fieldCheck?.status !== "passed") {
        const bb = probe.box(field.region);
        if (bb) fieldNotEmpty = { box: bb, read: `attempt ${attempt} after a failed check (${fieldCheck?.evidence ?? "not read"})` };
      }
      if (ownBox) this.keepBox(step.step_id, ownBox);
    }
    if (fieldNotEmpty) await this.adapt(row, index, step, attempt, clearField, this.situation(step, b, obs, { fieldNotEmpty }), [clearField], "the field already holds other text");

    // GROUND the target.
    let g: Grounding | undefined;
    let perceived: PerceivedScreen | undefined;
    let fromCache = false;
    let screenPoint: Point | null = null;
    let screenBox: BBox | null = null;
    if (needsTarget) {
      let scrollAt: Point | undefined;
      let lookedAgain = false;
      for (let scrolls = 0; ; scrolls++) {
        const r = scrolls === 0 && preGround ? preGround : await this.ground(step, frame, b);
        g = r.g;
        perceived = r.screen;
        fromCache = !!r.cached;
        timings.perceive_ms = (timings.perceive_ms ?? 0) + r.perceiveMs;
        for (const [k, v] of Object.entries(r.screen?.timings ?? {})) timings[`perceive.${k}`] = (timings[`perceive.${k}`] ?? 0) + v;
        timings.ground_ms = (timings.ground_ms ?? 0) + r.groundMs;
        overhead += r.perceiveMs + r.groundMs;
        if (g.found || this.plain || scrolls >= SCROLL_TRIES) break;
        // Missing from a window one pair of frames called still: look a moment longer before scrolling. A window that
        // changes meanwhile is still loading (on a busy machine an animation stalls for a frame): wait, then look again.
        if (!lookedAgain) {
          lookedAgain = true;
          if (!(await stillFrame(this.deps.screen, window, LOOK_AGAIN_MS, LOOK_AGAIN_MS, signal)).stable) {
            await this.adapt(row, index, step, attempt, waitStable, this.situation(step, b, obs, { unstable: true }), [waitStable], `« ${step.target?.label ?? ""} » was not found and the window « ${window.title} » was still changing`);
            frame = await this.deps.screen.capture(regionOf(window), signal);
            scrolls--;
            continue;
          }
        }
        const sit = this.situation(step, b, obs, { targetMissing: true, scrolls, neighbours: this.neighbours(step, window), ...(scrollAt ? { scrollAt } : {}) });
        if (!scrollToTarget.applies(sit)) break;
        const done = await this.adapt(row, index, step, attempt, scrollToTarget, sit, [scrollToTarget], `« ${step.target?.label ?? ""} » is not on the visible part of the window`);
        this.layoutEpoch++;
        const at = done.evidence.at;
        if (done.verified && Array.isArray(at)) scrollAt = [Number(at[0]), Number(at[1])];
        if (!done.verified) {
          // The wheel moved nothing anywhere: at the end that way. Down: try up at once; up too: nothing scrolls here.
          if (scrolls >= SCROLL_DOWN_TRIES) break;
          scrolls = SCROLL_DOWN_TRIES - 1;
        }
        frame = (await stableFrame(this.deps.screen, window, 1500, signal)).frame;
      }
      if (g!.found) {
        screenBox = bboxFrameToScreen(frame, g!.bbox);
        screenPoint = frameToScreen(frame, g!.point);
      }
    } else if (step.target === null && ["click", "double_click", "right_click", "middle_click", "drag"].includes(step.action)) {
      throw fail("target_not_found", `${step.step_id} has no target to look for (nothing was recognised there at recording time); re-record this step.`);
    }

    // COMPARE the live state with the recorded one through the workflow matcher: the state embedding
    // (cosine against the step's recorded state vector, context made from the step's recorded
    // context) and the required elements. Evidence for the decision.
    if (perceived) this.lastSeen.set(window.id, perceived);
    const match = this.plain ? undefined : await this.compareState(step, b, exp, window, frame, perceived, want.title, timings);
    if (timings.match_ms) overhead += timings.match_ms;

    const shot = await this.shoot(`${step.step_id}-before`, window, frame);
    const candidates: TraceCandidate[] = (g?.candidates ?? []).map((c) => ({ element_id: c.element_id, type: c.type, label: c.label, bbox: bboxFrameToScreen(frame, c.bbox) as [number, number, number, number], score: c.score }));
    const adapted = !obs.exact ? `adapt: window title « ${window.title} » differs from the recorded « ${step.window.title} » (same app)` : "execute";
    const summary = g && !g.found ? `not found: ${g.reason}` : g?.found ? `${adapted}; ${g.note}` : adapted;
    trace.append({
      type: "before", row, step: index, step_id: step.step_id, attempt, window: winInfo(window), screenshot: shot.path, origin: shot.origin,
      method: g ? (g.found ? g.method : null) : "none", bbox: screenBox ? [...screenBox] as [number, number, number, number] : null, score: g?.found ? g.score : null,
      ambiguous: !!(g?.found && g.ambiguous), candidates, decision: summary, timings: roundAll(timings),
      ...(g?.found && g.vlm ? { vlm: g.vlm } : {}),
    });

    // Not found or ambiguous: a person may pick a candidate or a point (a patch is proposed), else fail.
    if (g && (!g.found || g.ambiguous)) {
      const why = !g.found ? `« ${this.title(step.target?.label ?? "", b)} » not found on « ${window.title} »: ${g.reason}` : `« ${step.target?.label ?? ""} » is ambiguous: ${g.note}`;
      if (this.plain || !this.deps.assist) {
        if (!this.plain && !this.deps.assist && attempt >= (this.opts.maxAttempts ?? 3)) await this.ask(row, index, step, attempt, why, shot, window, [], ["pick", "point", "skip", "abort"]);
        this.decide(row, index, step, attempt, { kind: "fail", reason: why, evidence: { candidates: candidates.slice(0, 5).map((c) => ({ label: c.label, type: c.type, score: c.score })), ...(match ? { match } : {}) }, options: [{ id: "retry", kind: "execute", description: "look again" }, { id: "fail", kind: "fail", description: "fail the step" }], chosen: "retry", by: "rules" });
        throw fail(!g.found ? "target_not_found" : "target_ambiguous", `${step.step_id}: ${why}${g.found ? `; candidates: ${g.candidates.slice(0, 3).map((c) => `« ${c.label} » ${c.type} ${c.score}`).join(", ")}` : ""}.`);
      }
      const offered: AssistCandidate[] = candidates.slice(0, 8).map((c, i) => ({ candidate_id: `c${i + 1}`, label: c.label, type: c.type, bbox: c.bbox, score: c.score }));
      const a = await this.ask(row, index, step, attempt, why, shot, window, offered, [...(offered.length ? (["pick"] as const) : []), "point", "skip", "abort"]);
      if (a.choice.kind === "abort") throw fail("assist_needed", `${step.step_id}: aborted by ${a.by}.`);
      if (a.choice.kind === "skip") {
        await this.propose(row, step, { op: "remove_step" }, `${a.by} chose to skip « ${step.intention} »`, a.question_id);
        return this.skipped(row, index, step, attempt, window, shot, `skipped by ${a.by}`);
      }
      if (a.choice.kind === "pick") {
        const c = offered.find((x) => x.candidate_id === (a.choice as { candidate_id: string }).candidate_id)!;
        screenBox = c.bbox;
        await this.propose(row, step, { op: "set_target", target: { ...step.target!, label: c.label, by_text: c.label, type: (c.type as never) ?? step.target!.type, recorded_bbox: c.bbox, ordinal: undefined } }, `${a.by} picked « ${c.label} » (${c.type})`, a.question_id);
      } else {
        const p = a.choice as { x: number; y: number };
        const pb: [number, number, number, number] = [p.x - 20, p.y - 20, p.x + 20, p.y + 20];
        screenBox = pb;
        await this.propose(row, step, { op: "set_target", target: { ...step.target!, label: "", by_text: null, recorded_bbox: pb, icon: null, ordinal: undefined } }, `${a.by} clicked (${p.x}, ${p.y})`, a.question_id);
      }
      screenPoint = bboxCenter(screenBox);
      g = { found: true, method: "element", bbox: bboxScreenToFrame(frame, screenBox), point: [0, 0], score: 1, ambiguous: false, candidates: [], note: `chosen by ${a.by}` };
      fromCache = true;
    }

    this.decide(row, index, step, attempt, {
      kind: "execute",
      reason: obs.exact ? "the state is as expected" : `the window is titled « ${window.title} » (recorded « ${step.window.title} »), same app`,
      evidence: { window: window.title, ...(g?.found ? { target: { method: g.method, score: g.score, note: g.note } } : {}), ...(match ? { match } : {}) },
      options: [{ id: "execute", kind: "execute", description: step.intention }],
      chosen: "execute",
      by: "rules",
    });
    if (screenBox) this.keepBox(step.step_id, screenBox);

    // ACT.
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
      case "scroll":
        actedOn = scrollPoint(step, window.bbox);
        await input.scroll(actedOn, step.scroll?.dy ?? 0, step.scroll?.dx ?? 0, guard);
        this.layoutEpoch++;
        break;
      case "drag": {
        const to = (step as Step & { to?: [number, number] }).to;
        const rec = step.target?.recorded_bbox;
        const delta: Point = to && rec ? [to[0] - bboxCenter(rec)[0], to[1] - bboxCenter(rec)[1]] : [0, 0];
        await input.drag(screenPoint!, [screenPoint![0] + delta[0], screenPoint![1] + delta[1]], guard);
        break;
      }
      case "select": {
        await input.click(screenPoint!, guard);
        typed = this.title(step.option ?? "", b);
        const tOpt = performance.now();
        const opt = await this.findOption(typed, window);
        overhead += performance.now() - tOpt;
        if (!opt) {
          await input.key("Escape", guard).catch(() => undefined);
          throw fail("target_not_found", `${step.step_id}: the list « ${step.target?.label ?? ""} » opened but its item « ${typed} » is not visible.`);
        }
        actedOn = opt;
        const stillThere = async () => {
          if (!(await windows.get(window.id, signal))) throw new WindowNotFoundError(`The window « ${window.title} » is gone; nothing was sent.`);
        };
        await input.click(opt, { ...(signal ? { signal } : {}), guard: stillThere });
        break;
      }
      case "type": {
        const text = fillTemplate(step.text ?? "", b);
        typed = this.secretStep(step) ? "•".repeat([...text].length) : text;
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

    // VERIFY the post-conditions.
    const tPost = performance.now();
    await sleep(150, signal);
    const probe = this.probe(step, b, window, screenBox, beforeState);
    const conds = this.plain ? exp.after.filter((c) => c.kind === "window_open" || (c.kind === "region_changed" && c.region.of === "target" && PLAIN_CHANGE.has(step.target?.type ?? ""))) : exp.after;
    const checks = await checkAll(conds, probe, { phase: "after", windowTimeoutMs: this.opts.postCheckTimeoutMs ?? 10_000 });
    const postMs = performance.now() - tPost - 150;
    overhead += postMs;
    const live = await windows.get(window.id, signal);
    let status = statusOf(checks);
    if (this.plain && status === "unverified") status = "passed"; // the plain replay claimed what it did not check: kept for comparison
    const after = await this.shoot(`${step.step_id}-after`, live ?? undefined);
    const check = checks.length ? checks.map((c) => `${c.kind} ${c.status}: ${c.evidence}`).join("; ") : exp.checked_by ? `checked by ${exp.checked_by}` : exp.not_derived?.length ? `unverified: ${exp.not_derived.join("; ")}` : live ? `window « ${live.title} » (nothing to check)` : "the window closed";
    if (status !== "failed" && g?.found && !g.ambiguous && !fromCache && step.action !== "select") this.groundCache.set(step.step_id, { key: this.cacheKey(step, frame, g.bbox, b), g, row });
    // Running again is safe for a click (a toggle that did not change) and for typing into a field (the field is then selected first).
    const retry = step.action === "click" || (step.action === "type" && exp.after.some((c) => c.kind === "field_value"));
    return { status, overhead, method: g?.found ? g.method : "none", after: { path: after.path, origin: after.origin }, check, checks, retry, postMs };
  }

  /** A recorded state vector, read from the store once per run (found or not; a failed read is tried again). */
  private async recordedVector(id: string): Promise<{ provider: string; vector: Float32Array } | undefined> {
    if (this.recordedVectors.has(id)) return this.recordedVectors.get(id);
    const v = await this.deps.stateVector?.(id);
    this.recordedVectors.set(id, v); // a vector the store does not have is not asked for again at every step and row
    return v;
  }

  /** The step's recorded state and required elements against the live screen (the design's EnhancedWorkflowMatcher at run time). */
  private async compareState(step: Step, b: Bindings, exp: StepExpectations, window: WindowDescriptor, frame: Frame, perceived: PerceivedScreen | undefined, wantTitle: string, timings: Record<string, number>): Promise<Record<string, unknown> | undefined> {
    const { matcher, embedState, stateVector } = this.deps;
    const vectorId = exp.before.state_vector_id;
    const required = exp.before.required_elements;
    if (!matcher || (!required.length && !vectorId)) return undefined;
    // A step that looks at nothing (typing) compares with what this window showed last.
    const seen = perceived ?? this.lastSeen.get(window.id);
    if (!seen && !vectorId) return undefined;
    const tM = performance.now();
    const notes: string[] = [];
    let recorded: { provider: string; vector: Float32Array } | undefined;
    let live: { provider: string; vector: Float32Array } | undefined;
    if (vectorId) {
      recorded = stateVector ? await this.recordedVector(vectorId).catch((e: Error) => (notes.push(`the recorded state vector could not be read: ${e.message.slice(0, 120)}`), undefined)) : undefined;
      if (!recorded) notes.push(stateVector ? `the recorded state vector ${vectorId} is not in the store` : "no store to read the recorded state vector from");
      else if (embedState) {
        const ctx = step.context ?? { current_workflow_candidate: this.workflow.workflow_id, tags: [], app_name: step.window.app };
        live = await embedState(
          { frame, detectedText: (seen?.lines ?? []).map((l) => l.text), textBoxes: seen?.lines ?? [], windowTitle: window.title, elements: seen?.elements ?? [], context: { workflowCandidate: ctx.current_workflow_candidate, tags: ctx.tags, ...(ctx.app_name ? { appName: ctx.app_name } : {}) } },
          this.opts.signal,
        );
        if (!perceived) notes.push(seen ? "text and elements from this window's previous perception" : "no perception of this window yet: image, title and context only");
      } else notes.push("no state embedder");
    }
    // A state recorded by another embedder (an earlier version's provider) cannot be compared with this one's vectors.
    const comparable = !!(recorded && live && recorded.provider === live.provider);
    // The recorded screen's crops (a live screen at a larger scale shows one of them): the best cosine counts.
    const views: Array<{ provider: string; vector: Float32Array }> = [];
    if (comparable && stateVector)
      for (const id of exp.before.state_view_vector_ids ?? []) {
        const v = await this.recordedVector(id).catch(() => undefined);
        if (v && v.provider === live?.provider) views.push(v);
      }
    if (recorded && live && !comparable) notes.push(`the recorded state was embedded by "${recorded.provider}", this version embeds with "${live.provider}": states not compared (rebuild the workflow from its session, \`rpav build\`, to record them again)`);
    let r;
    try {
      r = await matcher.matchStep(
        { ...(live ? { embedding: live } : {}), elements: seen?.elements ?? [], windowTitle: window.title, frame: { width: frame.width, height: frame.height } },
        { stepId: step.step_id, ...(recorded && live && comparable ? { expectedEmbedding: recorded, extraEmbeddings: views } : {}), expectedWindowTitle: wantTitle, requiredElements: seen ? required.map((e) => ({ ...(e.type ? { type: e.type } : {}), label: this.title(e.label, b) })) : [] },
        this.workflow.workflow_id,
      );
    } catch (e) {
      if (!(e instanceof RpaError)) throw e;
      timings.match_ms = performance.now() - tM;
      return { ok: null, error: e.message.slice(0, 200), ...(notes.length ? { notes } : {}) };
    }
    timings.match_ms = performance.now() - tM;
    const round3 = (x: number) => Math.round(x * 1000) / 1000;
    return {
      ok: r.ok,
      score: round3(r.score),
      state_similarity: r.stateSimilarity === null ? null : round3(r.stateSimilarity),
      ...(views.length ? { state_crops_compared: views.length } : {}),
      ...(vectorId ? { state_vector_id: vectorId, screen_state_id: step.screen_state_id ?? null } : {}),
      required: seen ? `${r.requiredMatched}/${r.requiredTotal}` : "not looked at (no perception)",
      differences: r.differences.map((d) => d.kind),
      ...(notes.length ? { notes } : {}),
    };
  }

  private async propose(row: number, step: Step, op: WorkflowPatchOp, reason: string, questionId: string): Promise<void> {
    if (!this.deps.proposePatch) return;
    const id = await this.deps.proposePatch({ step_id: step.step_id, op, reason, question_id: questionId });
    this.deps.trace.append({ type: "decision", row, step: this.workflow.steps.indexOf(step), step_id: step.step_id, attempt: 1, decision: { kind: "ask", reason: `answer kept as proposed patch ${id} (rpav workflow patches --accept ${id})`, evidence: { patch_id: id, op: op.op }, options: [], chosen: null, by: "person" } });
  }

  private async skipped(row: number, index: number, step: Step, attempt: number, window: WindowDescriptor, shot: { path: string | null; origin: Point | null }, why: string, checks: CheckResult[] = []): Promise<AttemptResult> {
    this.deps.trace.append({ type: "before", row, step: index, step_id: step.step_id, attempt, window: winInfo(window), screenshot: shot.path, origin: shot.origin, method: "none", bbox: null, score: null, ambiguous: false, candidates: [], decision: `skip: ${why}`, timings: {} });
    return { status: "skipped", overhead: 0, method: "none", after: shot, check: why, checks, retry: false };
  }

  private keepBox(stepId: string, box: BBox): void {
    this.boxes.set(stepId, { box, epoch: this.layoutEpoch });
  }

  /**
   * Frame boxes of the fields this row's earlier steps found for other recorded fields (a field target recorded
   * elsewhere in the same window), since the layout last scrolled: a field target must not take one of them.
   */
  private takenFields(step: Step, frame: Frame): BBox[] {
    const wb = step.target?.type === "text_input" ? step.target.window_box : undefined;
    if (!wb) return [];
    const f: BBox = [frame.origin[0], frame.origin[1], frame.origin[0] + frame.width / frame.scaleFactor, frame.origin[1] + frame.height / frame.scaleFactor];
    const out: BBox[] = [];
    for (const [id, { box: bb, epoch }] of this.boxes) {
      const other = this.workflow.steps.find((x) => x.step_id === id);
      const t = other?.target;
      // Fields of the same window only: a dialog's field may lie over one of its main window's.
      if (id === step.step_id || other?.window.title !== step.window.title || other.window.app !== step.window.app) continue;
      if (t?.type !== "text_input" || !t.window_box || bboxIoU(t.window_box, wb) >= 0.3 || epoch !== this.layoutEpoch) continue;
      if (bb[0] >= f[0] && bb[1] >= f[1] && bb[2] <= f[2] && bb[3] <= f[3]) out.push(bboxScreenToFrame(frame, bb));
    }
    return out;
  }

  /** Where this row's earlier steps found their targets inside `window` (screen boxes), the latest first, with their types. */
  private neighbours(step: Step, window: WindowDescriptor): Array<{ box: BBox; type: string | null }> {
    const w = window.bbox;
    const inside = (bb: BBox) => bb[0] >= w[0] && bb[1] >= w[1] && bb[2] <= w[2] && bb[3] <= w[3];
    return [...this.boxes]
      .filter(([id, { box }]) => id !== step.step_id && inside(box))
      .reverse()
      .map(([id, { box }]) => ({ box, type: this.workflow.steps.find((x) => x.step_id === id)?.target?.type ?? null }));
  }

  private secretStep(step: Step): boolean {
    return this.workflow.variables.some((v) => v.secret && (step.text ?? "").includes(`{{${v.name}}}`));
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
        const inWindow = (p: Point) => p[0] >= window.bbox[0] && p[0] <= window.bbox[2] && p[1] >= window.bbox[1] && p[1] <= window.bbox[3];
        const c = g.candidates.find((c) => c.text_score >= 0.8 && !inWindow(frameToScreen(frame, bboxCenter(c.bbox))));
        if (c) return frameToScreen(frame, bboxCenter(c.bbox));
        return frameToScreen(frame, g.point);
      }
    }
    return undefined;
  }
}

/** Where a scroll step turns the wheel: its window-relative point, kept inside the window's client area. */
export function scrollPoint(step: Step, win: BBox): Point {
  const [ax, ay] = step.scroll?.at ?? [(win[2] - win[0]) / 2, (win[3] - win[1]) / 2];
  return [Math.min(Math.max(win[0] + ax, win[0] + 1), win[2] - 1), Math.min(Math.max(win[1] + ay, win[1] + 1), win[3] - 1)];
}
