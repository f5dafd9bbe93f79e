// The hybrid's gate on the rules' extra elements. The hybrid keeps the model's elements and adds the
// rules' elements that overlap none of them; measured on the calibration split of the training
// families (never trained on by the model, no held family), those extras are right for fields and
// drop-downs wider than the model's crops (≈ 0.9) and mostly wrong for buttons, links, tabs and icon
// glyphs (≈ 0.1–0.25). A logistic model on what the rules say about each extra (type, how it was
// found, its label, confidence, size, overlap with the model's elements) decides which to keep. Its
// weights are fitted by `npm run train -- gate` (training/gate/fit.ts) and live beside the model
// (models/ui-detector/rules-gate.json), since they describe that model's misses.
// The same fit makes a second logistic model that decides which of the model's own elements the hybrid
// keeps (`model_gate`): on those screens the model's low-confidence links, tabs and toggles were right
// less often than the hybrid's F1 needs, and an element the rules saw too (at about the same place),
// one with text, one not on top of another of the model's were right more often than its confidence says.
// `npm run train -- calibrate` (training/gate/calibrate.ts) then recalibrates the confidences of the elements the hybrid
// keeps, by detection method, against matches of their own type (`element_calibration`, `calibrate`).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { ProviderUnavailableError } from "../core/errors.js";
import { bboxCoverage, bboxIoU } from "../core/geometry.js";
import { UI_ELEMENT_TYPES } from "../core/schemas/uielement.js";
import { logit, sigmoid } from "../core/vectors.js";
import type { ElementCandidate } from "./element-classifier.js";
import { recordedModelSha256 } from "./learned-detector.js";

export const RULES_GATE_FILE = "rules-gate.json";
const METHODS = ["heuristic_rectangle", "heuristic_disc", "heuristic_glyph", "ocr_text"] as const;

/** What the gate knows besides the candidate: the image's scale and the model's elements on the screen. */
export interface RulesGateContext {
  readonly scale: number;
  readonly learned: readonly ElementCandidate[];
}

/** What the gate knows besides one of the model's elements: the image's scale, the rules' elements, the model's others. */
export interface LearnedGateContext {
  readonly scale: number;
  readonly rules: readonly ElementCandidate[];
  readonly learned: readonly ElementCandidate[];
}

/** Decides which of the rules' extra elements the hybrid keeps, and (when it knows) which of the model's own. */
export interface RulesGate {
  keep(candidate: ElementCandidate, context: RulesGateContext): boolean;
  /** Whether the hybrid keeps this element of the model's (one of `context.learned`); absent: every one. */
  keepLearned?(candidate: ElementCandidate, context: LearnedGateContext): boolean;
  /**
   * The probability that an extra is right, when the gate knows it: the confidence the hybrid gives the extra it keeps
   * (the rules' own confidences are set by hand).
   */
  probability?(candidate: ElementCandidate, context: RulesGateContext): number;
  /** The same for one of the model's elements (undefined: the gate has no model part; the model's confidence stands). */
  learnedProbability?(candidate: ElementCandidate, context: LearnedGateContext): number | undefined;
  /**
   * The confidence of an element the hybrid keeps, recalibrated by how it was found (its detection method) against
   * matches of its own type; undefined where the gate has no calibration for that method (its confidence stands).
   */
  calibrate?(candidate: ElementCandidate): number | undefined;
}

/** The names of the features, in order (the weights file lists them, and they must match). */
export const RULES_GATE_FEATURES: readonly string[] = [
  ...UI_ELEMENT_TYPES.map((t) => `type:${t}`),
  ...METHODS.map((m) => `method:${m}`),
  "has_label",
  "label_words",
  "confidence",
  "filled",
  "log_width",
  "log_height",
  "log_aspect",
  "max_iou_model",
  "max_coverage_by_model",
];

/** What both gates read of an element's label and size: has_label, label_words, log_width, log_height, log_aspect (screen pixels). */
function labelAndSize(c: ElementCandidate, scale: number): { label: [number, number]; size: [number, number, number] } {
  const w = Math.max(1, (c.bbox[2] - c.bbox[0]) / scale);
  const h = Math.max(1, (c.bbox[3] - c.bbox[1]) / scale);
  const words = c.label.trim() ? c.label.trim().split(/\s+/u).length : 0;
  return { label: [words > 0 ? 1 : 0, Math.min(words, 8) / 8], size: [Math.log(w) / 6, Math.log(h) / 6, Math.log(w / h) / 3] };
}

/** The feature vector of one extra (RULES_GATE_FEATURES order). Sizes are in screen pixels (divided by the scale). */
export function rulesGateFeatures(c: ElementCandidate, ctx: RulesGateContext): number[] {
  const { label, size } = labelAndSize(c, ctx.scale);
  let iou = 0;
  let cover = 0;
  for (const l of ctx.learned) {
    iou = Math.max(iou, bboxIoU(l.bbox, c.bbox));
    cover = Math.max(cover, bboxCoverage(c.bbox, l.bbox));
  }
  return [
    ...UI_ELEMENT_TYPES.map((t) => (c.type === t ? 1 : 0)),
    ...METHODS.map((m) => (c.method === m ? 1 : 0)),
    ...label,
    c.confidence,
    c.filled ? 1 : 0,
    ...size,
    iou,
    cover,
  ];
}

/** The features of the model's elements, in order. */
export const MODEL_GATE_FEATURES: readonly string[] = [
  ...UI_ELEMENT_TYPES.map((t) => `type:${t}`),
  ...UI_ELEMENT_TYPES.map((t) => `confidence:${t}`),
  "confidence",
  "logit",
  "has_label",
  "label_words",
  "log_width",
  "log_height",
  "log_aspect",
  "max_iou_rules_same_type",
  "max_iou_rules",
  "max_rules_coverage",
  "max_iou_other_model",
];

/** The feature vector of one of the model's elements (MODEL_GATE_FEATURES order). Sizes in screen pixels. */
export function modelGateFeatures(c: ElementCandidate, ctx: LearnedGateContext): number[] {
  const { label, size } = labelAndSize(c, ctx.scale);
  let same = 0;
  let any = 0;
  let cover = 0;
  for (const r of ctx.rules) {
    const iou = bboxIoU(r.bbox, c.bbox);
    any = Math.max(any, iou);
    if (r.type === c.type) same = Math.max(same, iou);
    cover = Math.max(cover, bboxCoverage(r.bbox, c.bbox));
  }
  let other = 0;
  for (const l of ctx.learned) if (l !== c) other = Math.max(other, bboxIoU(l.bbox, c.bbox));
  return [
    ...UI_ELEMENT_TYPES.map((t) => (c.type === t ? 1 : 0)),
    ...UI_ELEMENT_TYPES.map((t) => (c.type === t ? c.confidence : 0)),
    c.confidence,
    logit(c.confidence) / 4,
    ...label,
    ...size,
    same,
    any,
    cover,
    other,
  ];
}

/** A logistic model: weights over named features, a bias, the least probability kept. */
const LogisticSchema = z.object({
  features: z.array(z.string()),
  weights: z.array(z.number().finite()),
  bias: z.number().finite(),
  threshold: z.number().min(0).max(1),
});

export const RulesGateFileSchema = z.object({
  version: z.literal(1),
  features: z.array(z.string()),
  weights: z.array(z.number().finite()),
  bias: z.number().finite(),
  threshold: z.number().min(0).max(1),
  /** Which of the model's own elements the hybrid keeps (absent: all). */
  model_gate: LogisticSchema.optional(),
  /** How it was fitted: screens, extras, figures on the fitting split. */
  fitted: z.looseObject({}),
  /**
   * The final elements' confidences by detection method, Platt-recalibrated (`sigmoid(a · logit(c) + b)`) against
   * matches of their own type (`npm run train -- calibrate`); `n`: the examples of that method it was fitted on.
   */
  element_calibration: z.record(z.string(), z.object({ a: z.number().finite(), b: z.number().finite(), n: z.number().int().nonnegative() })).optional(),
});
export type RulesGateFile = z.infer<typeof RulesGateFileSchema>;

export class LogisticRulesGate implements RulesGate {
  constructor(private readonly file: RulesGateFile) {}

  /** The gate in `modelDir`, or undefined when the folder has none (a model folder from before the gate). */
  static load(modelDir: string, restore: string): LogisticRulesGate | undefined {
    const path = join(modelDir, RULES_GATE_FILE);
    if (!existsSync(path)) return undefined;
    let parsed: RulesGateFile;
    try {
      parsed = RulesGateFileSchema.parse(JSON.parse(readFileSync(path, "utf8")));
    } catch (e) {
      throw new ProviderUnavailableError(`The hybrid detector's gate ${path} is unreadable (${(e as Error).message.split("\n")[0]}); restore it: ${restore}, or refit it: npm run train -- gate.`, { cause: e, details: { file: path } });
    }
    const m = parsed.model_gate;
    if (parsed.features.join("\n") !== RULES_GATE_FEATURES.join("\n") || parsed.weights.length !== RULES_GATE_FEATURES.length || (m && (m.features.join("\n") !== MODEL_GATE_FEATURES.join("\n") || m.weights.length !== MODEL_GATE_FEATURES.length)))
      throw new ProviderUnavailableError(`The hybrid detector's gate ${path} was fitted on other features than this version computes; refit it: npm run train -- gate.`, { details: { file: path } });
    // It describes one model's misses: a gate fitted for another model (the detector retrained since) would keep and
    // score that model's elements, not these.
    const fittedFor = parsed.fitted.model_sha256;
    const model = recordedModelSha256(modelDir); // none: the detector itself reports its description when it loads
    if (typeof fittedFor === "string" && model !== undefined && fittedFor !== model)
      throw new ProviderUnavailableError(`The hybrid detector's gate ${path} was fitted for another model (${fittedFor.slice(0, 12)}…) than the one beside it (${model.slice(0, 12)}…): refit it for this model: npm run train -- gate (or restore both: ${restore}).`, { details: { file: path } });
    return new LogisticRulesGate(parsed);
  }

  probability(c: ElementCandidate, ctx: RulesGateContext): number {
    return logistic(this.file, rulesGateFeatures(c, ctx));
  }

  keep(c: ElementCandidate, ctx: RulesGateContext): boolean {
    return this.probability(c, ctx) >= this.file.threshold;
  }

  /** The probability that one of the model's elements is right, by the model gate (undefined without one). */
  learnedProbability(c: ElementCandidate, ctx: LearnedGateContext): number | undefined {
    const m = this.file.model_gate;
    return m ? logistic(m, modelGateFeatures(c, ctx)) : undefined;
  }

  keepLearned(c: ElementCandidate, ctx: LearnedGateContext): boolean {
    return (this.learnedProbability(c, ctx) ?? 1) >= (this.file.model_gate?.threshold ?? 0);
  }

  calibrate(c: ElementCandidate): number | undefined {
    const k = this.file.element_calibration?.[c.method];
    return k ? plattRecalibrate(c.confidence, k) : undefined;
  }
}

/** `sigmoid(a · logit(p) + b)`, the probability clamped away from 0 and 1 first. */
export function plattRecalibrate(p: number, k: { a: number; b: number }): number {
  return sigmoid(k.a * logit(p) + k.b);
}

/** A logistic model's probability for the feature vector `x` (the gates here, and their fit). */
export function logistic(m: { weights: ArrayLike<number>; bias: number }, x: readonly number[]): number {
  let z = m.bias;
  for (let i = 0; i < x.length; i++) z += (m.weights[i] as number) * (x[i] as number);
  return sigmoid(z);
}
