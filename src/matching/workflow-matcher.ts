// Which recorded step is this screen? (design: EnhancedWorkflowMatcher)
// - LegacyMatcher: whole-screen state-embedding similarity, for workflows without element
//   descriptors (property 25).
// - ElementMatcher: state similarity plus the step's required elements (type, role, label
//   similarity, position hint); optional elements add a strict bonus (17); fewer than N required
//   elements found caps the score below 0.5 (16); a failed match lists its differences (18).
// - WorkflowMatcher routes each workflow to the right one (26) and retrieves the best step
//   across workflows.
import { VectorError } from "../core/errors.js";
import { matchesPositionHint, positionHintScore, type Size } from "../core/geometry.js";
import type { TextEmbedder } from "../core/providers/embedders.js";
import type { Logger } from "../core/providers/logger.js";
import type { Difference, ElementDescriptor, MatchableStep, MatchableWorkflow, MatchResult } from "../core/providers/matching.js";
import type { UIElementEntry } from "../core/schemas/uielement.js";
import { cosine, l2Norm, type Vector } from "../core/vectors.js";

export interface CurrentState {
  embedding?: { provider: string; vector: Vector };
  elements: readonly UIElementEntry[];
  windowTitle: string;
  /** Size of the screenshot the element boxes refer to (for position hints). */
  frame: Size;
}

function stateSimilarity(state: CurrentState, step: MatchableStep): { sim: number | null; diff?: Difference } {
  const recorded = [...(step.expectedEmbedding ? [step.expectedEmbedding] : []), ...(step.extraEmbeddings ?? [])];
  if (recorded.length === 0) return { sim: null };
  if (!state.embedding) return { sim: null, diff: { kind: "no_embedding", reason: "the current state has no state embedding" } };
  let best = 0;
  for (const r of recorded) {
    if (state.embedding.provider !== r.provider)
      throw new VectorError(`Cannot compare a "${state.embedding.provider}" state embedding with a "${r.provider}" one recorded for step ${step.stepId}; re-embed one side with the other's provider.`, {
        details: { current: state.embedding.provider, recorded: r.provider, step: step.stepId },
      });
    best = Math.max(best, cosine(state.embedding.vector, r.vector));
  }
  return { sim: best };
}

function result(method: MatchResult["method"], workflowId: string): MatchResult {
  return { ok: false, method, workflowId, stepId: null, score: 0, stateSimilarity: null, requiredMatched: 0, requiredTotal: 0, optionalMatched: 0, optionalTotal: 0, differences: [] };
}

export class LegacyMatcher {
  constructor(private readonly opts: { threshold?: number; logger?: Logger } = {}) {}

  match(state: CurrentState, workflow: MatchableWorkflow): MatchResult {
    const threshold = this.opts.threshold ?? 0.85;
    let best = result("legacy", workflow.workflowId);
    for (const step of workflow.steps) {
      const { sim, diff } = stateSimilarity(state, step);
      if (sim === null) {
        if (best.stepId === null) best = { ...best, differences: [diff ?? { kind: "no_embedding", reason: `step ${step.stepId} has no recorded embedding` }] };
        continue;
      }
      if (best.stepId === null || sim > best.score) best = { ...result("legacy", workflow.workflowId), stepId: step.stepId, score: sim, stateSimilarity: sim };
    }
    best.ok = best.stepId !== null && best.score >= threshold;
    if (!best.ok && best.stepId !== null) best.differences = [{ kind: "low_state_similarity", similarity: best.score, threshold }];
    if (!best.ok && best.differences.length === 0) best.differences = [{ kind: "no_embedding", reason: "the workflow has no step" }];
    return traceScore(this.opts.logger, best);
  }
}

export interface ElementMatcherOptions {
  weightState?: number;
  weightElements?: number;
  /** Label similarity (text-embedding cosine) needed to call two labels the same. */
  minLabelSimilarity?: number;
  /** Largest share of the score that optional elements can add. */
  optionalBonus?: number;
  threshold?: number;
  /** Each step's score is traced at debug level (silent by default). */
  logger?: Logger;
}

function traceScore(log: Logger | undefined, r: MatchResult): MatchResult {
  log?.debug({ stage: "match", method: r.method, workflow_id: r.workflowId, step: r.stepId, score: Math.round(r.score * 1e4) / 1e4, state_similarity: r.stateSimilarity === null ? null : Math.round(r.stateSimilarity * 1e4) / 1e4, required: `${r.requiredMatched}/${r.requiredTotal}`, optional: `${r.optionalMatched}/${r.optionalTotal}`, ok: r.ok, differences: r.differences.map((d) => d.kind) }, "step score");
  return r;
}

export class ElementMatcher {
  private readonly cache = new Map<string, Vector>();

  constructor(
    private readonly text: TextEmbedder,
    private readonly opts: ElementMatcherOptions = {},
  ) {}

  private async labelVector(label: string): Promise<Vector> {
    let v = this.cache.get(label);
    if (!v) {
      v = await this.text.embed(label);
      this.cache.set(label, v);
    }
    return v;
  }

  private async labelSimilarity(a: string, b: string): Promise<number> {
    if (a.trim() === "" || b.trim() === "") return a.trim() === b.trim() ? 1 : 0;
    const va = await this.labelVector(a);
    const vb = await this.labelVector(b);
    return l2Norm(va) === 0 || l2Norm(vb) === 0 ? 0 : cosine(va, vb);
  }

  /** The detected element that best satisfies a descriptor, or why none does. */
  async find(descriptor: ElementDescriptor, state: CurrentState): Promise<{ element?: UIElementEntry; score: number; difference?: Difference }> {
    const minSim = this.opts.minLabelSimilarity ?? 0.75;
    let best: { element: UIElementEntry; score: number } | undefined;
    let closest: { element: UIElementEntry; sim: number } | undefined;
    let wrongType: { element: UIElementEntry } | undefined;
    for (const el of state.elements) {
      const sim = descriptor.label === undefined ? 1 : await this.labelSimilarity(descriptor.label, el.label);
      if (!closest || sim > closest.sim) closest = { element: el, sim };
      if (sim < minSim) continue;
      if (descriptor.type && el.type !== descriptor.type) {
        wrongType ??= { element: el };
        continue;
      }
      if (descriptor.role && el.role !== descriptor.role) continue;
      if (descriptor.positionHint && !matchesPositionHint(el.bbox, descriptor.positionHint, state.frame)) continue;
      const score = sim * (descriptor.positionHint ? 0.8 + 0.2 * positionHintScore(el.bbox, descriptor.positionHint, state.frame) : 1);
      if (!best || score > best.score) best = { element: el, score };
    }
    if (best) return best;
    if (wrongType) return { score: 0, difference: { kind: "wrong_type", descriptor, found: wrongType.element.type, label: wrongType.element.label } };
    return {
      score: 0,
      difference: { kind: "missing_element", descriptor, ...(closest ? { closest: { label: closest.element.label, type: closest.element.type, bbox: [...closest.element.bbox] as [number, number, number, number], similarity: closest.sim } } : {}) },
    };
  }

  async matchStep(state: CurrentState, step: MatchableStep, workflowId: string): Promise<MatchResult> {
    const wS = this.opts.weightState ?? 0.4;
    const wE = this.opts.weightElements ?? 0.6;
    const bonus = this.opts.optionalBonus ?? 0.1;
    const threshold = this.opts.threshold ?? 0.5;
    const r: MatchResult = { ...result("element_based", workflowId), stepId: step.stepId };
    const { sim, diff } = stateSimilarity(state, step);
    if (diff) r.differences.push(diff);
    r.stateSimilarity = sim;
    const required = step.requiredElements ?? [];
    const optional = step.optionalElements ?? [];
    r.requiredTotal = required.length;
    r.optionalTotal = optional.length;
    for (const d of required) {
      const found = await this.find(d, state);
      if (found.element) r.requiredMatched++;
      else if (found.difference) r.differences.push(found.difference);
    }
    for (const d of optional) if ((await this.find(d, state)).element) r.optionalMatched++;
    const reqFrac = required.length === 0 ? 1 : r.requiredMatched / required.length;
    const base = sim === null ? reqFrac : (wS * sim + wE * reqFrac) / (wS + wE);
    const optFrac = optional.length === 0 ? 1 : r.optionalMatched / optional.length;
    let score = (1 - bonus) * base + bonus * optFrac;
    // Property 16: a step whose required elements are not all there cannot pass.
    if (r.requiredMatched < required.length) score = Math.min(score, 0.49 * base);
    r.score = Math.max(0, Math.min(1, score));
    if (step.expectedWindowTitle !== undefined && step.expectedWindowTitle !== state.windowTitle) r.differences.push({ kind: "title_mismatch", expected: step.expectedWindowTitle, actual: state.windowTitle });
    r.ok = r.score >= threshold && r.requiredMatched === required.length;
    if (!r.ok && r.differences.length === 0) r.differences.push({ kind: "low_state_similarity", similarity: sim ?? 0, threshold });
    return traceScore(this.opts.logger, r);
  }

  async match(state: CurrentState, workflow: MatchableWorkflow): Promise<MatchResult> {
    let best: MatchResult | undefined;
    for (const step of workflow.steps) {
      const r = await this.matchStep(state, step, workflow.workflowId);
      if (!best || r.score > best.score) best = r;
    }
    return best ?? { ...result("element_based", workflow.workflowId), differences: [{ kind: "no_embedding", reason: "the workflow has no step" }] };
  }
}

export function hasElementDescriptors(workflow: MatchableWorkflow): boolean {
  return workflow.steps.some((s) => (s.requiredElements?.length ?? 0) + (s.optionalElements?.length ?? 0) > 0);
}

/** Routes each workflow to the element matcher or the legacy one, and finds the best step overall. */
export class WorkflowMatcher {
  constructor(
    private readonly legacy: LegacyMatcher,
    private readonly elements: ElementMatcher,
  ) {}

  async match(state: CurrentState, workflow: MatchableWorkflow): Promise<MatchResult> {
    return hasElementDescriptors(workflow) ? this.elements.match(state, workflow) : this.legacy.match(state, workflow);
  }

  /** Best step among all steps of all workflows. */
  async bestStep(state: CurrentState, workflows: readonly MatchableWorkflow[]): Promise<MatchResult | undefined> {
    let best: MatchResult | undefined;
    for (const wf of workflows) {
      const r = await this.match(state, wf);
      if (!best || r.score > best.score) best = r;
    }
    return best;
  }
}
