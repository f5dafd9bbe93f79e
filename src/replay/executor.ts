// The replay executor: rows of data × steps, each step run by the decision actor (src/actor:
// observe → decide → act → verify; `mode: "plain"` is the replay from before the actor, for
// comparison). A row passes only when its steps' checks passed (a step skipped because its effect
// already held counts; a step whose effect a later step checks counts when that one passed); a
// check that could not be made leaves the row `unverified`, never `passed`. Everything goes to the
// trace_v1; expected outcomes are step results, only broken parts throw.
import { Actor, type ActorDeps, type ActorOptions, type StepOutcome, type StepStatus } from "../actor/actor.js";
import { AbortedError, RpaError } from "../core/errors.js";
import type { Workflow } from "../core/schemas/workflow.js";
import { deriveExpectations } from "../record/expectations.js";
import { fillTemplate, titleWithData, type Bindings } from "./variables.js";

export type { StepOutcome } from "../actor/actor.js";

export interface ReplayDeps extends ActorDeps {
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
  status?: StepStatus;
  message?: string;
  ms?: number;
}

export interface ReplayOptions extends ActorOptions {
  onError?: "stop" | "skip";
}

export type RowStatus = "passed" | "failed" | "unverified";

export interface RowOutcome {
  row: number;
  status: RowStatus;
  failedStep: number | null;
  error: { code: string; message: string } | null;
  steps: StepOutcome[];
}

/** A row's status from its steps: a deferred check counts when the step that makes it passed. */
export function rowStatus(steps: readonly StepOutcome[]): RowStatus {
  if (steps.some((s) => s.status === "failed")) return "failed";
  const by = new Map(steps.map((s) => [s.step_id, s.status]));
  const ok = (s: StepOutcome): boolean => s.status === "passed" || s.status === "skipped" || (s.status === "unverified" && !!s.checked_by && (by.get(s.checked_by) === "passed" || by.get(s.checked_by) === "skipped"));
  return steps.every(ok) ? "passed" : "unverified";
}

export class ReplayExecutor {
  readonly workflow: Workflow;
  /** What could not be derived for a workflow built before expectations existed (reported as unverified). */
  readonly notes: readonly string[];
  private readonly actor: Actor;

  constructor(
    workflow: Workflow,
    private readonly deps: ReplayDeps,
    private readonly opts: ReplayOptions = {},
  ) {
    const d = deriveExpectations(workflow);
    this.workflow = d.workflow;
    this.notes = d.notes;
    this.actor = new Actor(this.workflow, deps, opts);
  }

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
    this.actor.beginRow();
    const steps: StepOutcome[] = [];
    const n = this.workflow.steps.length;
    for (let i = start; i < n; i++) {
      const step = this.workflow.steps[i]!;
      this.deps.onProgress?.({ row, rows, step: i, steps: n, stepId: step.step_id, intention: titleWithData(fillTemplate(step.intention, maskSecrets(this.workflow, b)), this.workflow, b), phase: "start" });
      const o = await this.actor.runStep(row, i, step, b);
      steps.push(o);
      this.deps.onProgress?.({ row, rows, step: i, steps: n, stepId: step.step_id, intention: step.intention, phase: "done", status: o.status, ms: o.duration_ms, ...(o.error ? { message: o.error.message } : {}) });
      if (o.status === "failed") {
        trace.append({ type: "row_end", row, status: "failed", failed_step: i, error: o.error ?? null });
        return { row, status: "failed", failedStep: i, error: o.error ?? null, steps };
      }
    }
    // A resumed row's earlier steps passed in the earlier run: only the steps run now are judged.
    const status = rowStatus(steps.filter((s) => !s.checked_by || steps.some((x) => x.step_id === s.checked_by)));
    trace.append({ type: "row_end", row, status, failed_step: null, error: null });
    return { row, status, failedStep: null, error: null, steps };
  }
}

/** Bindings with secret values hidden, for messages. */
export function maskSecrets(wf: Workflow, b: Bindings): Bindings {
  return Object.fromEntries(Object.entries(b).map(([k, v]) => [k, wf.variables.find((x) => x.name === k)?.secret ? "•".repeat([...v].length) : v]));
}
