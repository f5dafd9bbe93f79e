import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { UI_ELEMENT_TYPES } from "../core/schemas/uielement.js";
import type { ElementCandidate } from "./element-classifier.js";
import { defaultDetectorModelDir } from "./learned-detector.js";
import { LogisticRulesGate, MODEL_GATE_FEATURES, modelGateFeatures, plattRecalibrate, RULES_GATE_FEATURES, RULES_GATE_FILE, rulesGateFeatures, type RulesGateFile } from "./rules-gate.js";

const dir = mkdtempSync(join(tmpdir(), "rpav-gate-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const cand = (over: Partial<ElementCandidate>): ElementCandidate => ({ type: "button", bbox: [100, 100, 180, 130], label: "Valider", confidence: 0.7, method: "heuristic_rectangle", filled: false, text: "Valider", ...over });
const fileWith = (weights: Record<string, number>, bias: number, threshold = 0.5): RulesGateFile => ({ version: 1, features: [...RULES_GATE_FEATURES], weights: RULES_GATE_FEATURES.map((f) => weights[f] ?? 0), bias, threshold, fitted: {} });
const folder = (content: string | undefined) => {
  const d = mkdtempSync(join(dir, "m-"));
  if (content !== undefined) writeFileSync(join(d, RULES_GATE_FILE), content);
  return d;
};

describe("the hybrid's gate on the rules' extras", () => {
  it("computes one value per named feature: type and method one-hot, sizes in screen pixels, overlap with the model's elements", () => {
    const ctx = { scale: 1, learned: [cand({ bbox: [100, 100, 140, 130], method: "learned_detector" })] };
    const x = rulesGateFeatures(cand({ type: "dropdown", method: "ocr_text", label: "Choisir un pays" }), ctx);
    expect(x.length).toBe(RULES_GATE_FEATURES.length);
    const at = (name: string) => x[RULES_GATE_FEATURES.indexOf(name)];
    expect(UI_ELEMENT_TYPES.map((t) => at(`type:${t}`))).toEqual(UI_ELEMENT_TYPES.map((t) => (t === "dropdown" ? 1 : 0)));
    expect(at("method:ocr_text")).toBe(1);
    expect(at("method:heuristic_rectangle")).toBe(0);
    expect(at("has_label")).toBe(1);
    expect(at("label_words")).toBeCloseTo(3 / 8);
    expect(at("max_iou_model")).toBeCloseTo(0.5);
    expect(at("max_coverage_by_model")).toBeCloseTo(0.5);
    // The same element drawn twice as large (scale 2) has the same size features.
    const big = rulesGateFeatures(cand({ bbox: [200, 200, 360, 260] }), { scale: 2, learned: [] });
    const small = rulesGateFeatures(cand({}), { scale: 1, learned: [] });
    for (const f of ["log_width", "log_height", "log_aspect"]) expect(big[RULES_GATE_FEATURES.indexOf(f)]).toBeCloseTo(small[RULES_GATE_FEATURES.indexOf(f)]!);
  });

  it("keeps what its logistic model scores at or over its threshold", () => {
    const gate = new LogisticRulesGate(fileWith({ "type:text_input": 4, "type:link": -4 }, -1));
    const ctx = { scale: 1, learned: [] };
    expect(gate.keep(cand({ type: "text_input" }), ctx)).toBe(true);
    expect(gate.keep(cand({ type: "link" }), ctx)).toBe(false);
    expect(gate.keep(cand({ type: "button" }), ctx)).toBe(false); // sigmoid(-1) < 0.5
    expect(new LogisticRulesGate(fileWith({}, -1, 0.2)).keep(cand({}), ctx)).toBe(true); // sigmoid(-1) ≈ 0.27 ≥ 0.2
  });

  it("computes the model gate's features: type and confidence by type, agreement with the rules' elements, overlap with the model's others", () => {
    const l = cand({ type: "link", method: "learned_detector", bbox: [100, 100, 200, 120], label: "Voir la facture", confidence: 0.6 });
    const other = cand({ type: "button", method: "learned_detector", bbox: [150, 100, 250, 120] });
    const rules = [cand({ type: "link", bbox: [100, 100, 200, 120] }), cand({ type: "button", bbox: [90, 95, 210, 125] })];
    const x = modelGateFeatures(l, { scale: 1, rules, learned: [l, other] });
    expect(x.length).toBe(MODEL_GATE_FEATURES.length);
    const at = (name: string) => x[MODEL_GATE_FEATURES.indexOf(name)];
    expect(UI_ELEMENT_TYPES.map((t) => at(`type:${t}`))).toEqual(UI_ELEMENT_TYPES.map((t) => (t === "link" ? 1 : 0)));
    expect(UI_ELEMENT_TYPES.map((t) => at(`confidence:${t}`))).toEqual(UI_ELEMENT_TYPES.map((t) => (t === "link" ? 0.6 : 0)));
    expect(at("logit")).toBeCloseTo(Math.log(0.6 / 0.4) / 4);
    expect(at("label_words")).toBeCloseTo(3 / 8);
    expect(at("max_iou_rules_same_type")).toBeCloseTo(1);
    expect(at("max_iou_rules")).toBeCloseTo(1);
    expect(at("max_iou_other_model")).toBeCloseTo(50 / 150); // not itself
    // Alone on the screen: no agreement, no overlap.
    const alone = modelGateFeatures(l, { scale: 1, rules: [], learned: [l] });
    for (const f of ["max_iou_rules_same_type", "max_iou_rules", "max_rules_coverage", "max_iou_other_model"]) expect(alone[MODEL_GATE_FEATURES.indexOf(f)]).toBe(0);
  });

  it("keeps the model's own elements its model gate scores at or over its threshold; without one, all", () => {
    const weights = MODEL_GATE_FEATURES.map((f) => (f === "max_iou_rules" ? 6 : f === "type:tab" ? -6 : 0));
    const gate = new LogisticRulesGate({ ...fileWith({}, 0), model_gate: { features: [...MODEL_GATE_FEATURES], weights, bias: -2, threshold: 0.5 } });
    const l = cand({ type: "link", method: "learned_detector" });
    expect(gate.keepLearned(l, { scale: 1, rules: [cand({ type: "link" })], learned: [l] })).toBe(true); // sigmoid(4)
    expect(gate.keepLearned(l, { scale: 1, rules: [], learned: [l] })).toBe(false); // sigmoid(-2)
    const tab = cand({ type: "tab", method: "learned_detector" });
    expect(gate.keepLearned(tab, { scale: 1, rules: [cand({ type: "tab" })], learned: [tab] })).toBe(false); // sigmoid(-2)
    expect(new LogisticRulesGate(fileWith({}, 0)).keepLearned(l, { scale: 1, rules: [], learned: [l] })).toBe(true);
    // Its probability (the confidence the hybrid gives the element), and none without a model gate.
    expect(gate.learnedProbability(l, { scale: 1, rules: [cand({ type: "link" })], learned: [l] })).toBeCloseTo(1 / (1 + Math.exp(-4)));
    expect(new LogisticRulesGate(fileWith({}, 0)).learnedProbability(l, { scale: 1, rules: [], learned: [l] })).toBeUndefined();
  });

  it("recalibrates a kept element's confidence by its detection method where the file has a fit for it", () => {
    const gate = new LogisticRulesGate({ ...fileWith({}, 0), element_calibration: { learned_detector: { a: 0.5, b: -0.5, n: 120 } } });
    const logit = Math.log(0.8 / 0.2);
    expect(gate.calibrate(cand({ method: "learned_detector", confidence: 0.8 }))).toBeCloseTo(1 / (1 + Math.exp(-(0.5 * logit - 0.5))));
    // No fit for that method, or none at all: undefined (the confidence stands).
    expect(gate.calibrate(cand({ method: "heuristic_strip", confidence: 0.8 }))).toBeUndefined();
    expect(new LogisticRulesGate(fileWith({}, 0)).calibrate(cand({ method: "learned_detector" }))).toBeUndefined();
    // The identity leaves a probability as it is; 0 and 1 are clamped, not infinite.
    expect(plattRecalibrate(0.37, { a: 1, b: 0 })).toBeCloseTo(0.37);
    expect(plattRecalibrate(1, { a: 2, b: 0 })).toBeLessThan(1);
    expect(plattRecalibrate(0, { a: 2, b: 0 })).toBeGreaterThan(0);
    // A malformed fit is an unreadable gate.
    expect(() => LogisticRulesGate.load(folder(JSON.stringify({ ...fileWith({}, 0), element_calibration: { learned_detector: { a: "x", b: 0, n: 1 } } })), "R")).toThrow(/unreadable/);
  });

  it("the committed gate loads, names its features and keeps a wide field the model missed over a stray link", () => {
    const gate = LogisticRulesGate.load(defaultDetectorModelDir(), "git checkout -- models/ui-detector")!;
    expect(gate).toBeDefined();
    const ctx = { scale: 1, learned: [] };
    expect(gate.probability(cand({ type: "text_input", bbox: [100, 100, 700, 136], label: "", text: "" }), ctx)).toBeGreaterThan(gate.probability(cand({ type: "link", method: "ocr_text", bbox: [100, 100, 150, 116], label: "Aide" }), ctx));
    const file = JSON.parse(readFileSync(join(defaultDetectorModelDir(), RULES_GATE_FILE), "utf8")) as RulesGateFile;
    expect(file.fitted).toMatchObject({ command: "npm run train -- gate" });
    // Its model gate was fitted with it: an element the rules saw too is likelier right than the same one alone.
    expect(file.model_gate?.features).toEqual(MODEL_GATE_FEATURES);
    const l = cand({ type: "link", method: "learned_detector", confidence: 0.4 });
    expect(gate.learnedProbability(l, { scale: 1, rules: [cand({ type: "link" })], learned: [l] })).toBeGreaterThan(gate.learnedProbability(l, { scale: 1, rules: [], learned: [l] })!);
  });

  it("absent: none (a model folder from before the gate); unreadable or fitted on other features: provider_unavailable naming the file", () => {
    expect(LogisticRulesGate.load(folder(undefined), "R")).toBeUndefined();
    for (const bad of ["{", JSON.stringify({ version: 2 }), JSON.stringify({ ...fileWith({}, 0), weights: [1] }), JSON.stringify({ ...fileWith({}, 0), features: ["x", ...RULES_GATE_FEATURES.slice(1)] }), JSON.stringify({ ...fileWith({}, 0), model_gate: { features: [...MODEL_GATE_FEATURES], weights: [1], bias: 0, threshold: 0.5 } }), JSON.stringify({ ...fileWith({}, 0), model_gate: { features: [...MODEL_GATE_FEATURES], weights: MODEL_GATE_FEATURES.map(() => 0), bias: 0, threshold: 1.5 } })]) {
      const d = folder(bad);
      expect(() => LogisticRulesGate.load(d, "git checkout -- models/ui-detector")).toThrow(expect.objectContaining({ code: "provider_unavailable", message: expect.stringContaining(join(d, RULES_GATE_FILE)) }));
    }
  });

  it("fitted for another model than the one beside it (the detector retrained since): provider_unavailable saying to refit it", () => {
    const fittedFor = (sha: string) => JSON.stringify({ ...fileWith({}, 0), fitted: { model_sha256: sha } });
    const stale = folder(fittedFor("a".repeat(64)));
    writeFileSync(join(stale, "ui-detector.json"), JSON.stringify({ onnx_sha256: "b".repeat(64) }));
    expect(() => LogisticRulesGate.load(stale, "R")).toThrow(expect.objectContaining({ code: "provider_unavailable", message: expect.stringMatching(/another model.*npm run train -- gate/u) }));
    const same = folder(fittedFor("b".repeat(64)));
    writeFileSync(join(same, "ui-detector.json"), JSON.stringify({ onnx_sha256: "b".repeat(64) }));
    expect(LogisticRulesGate.load(same, "R")).toBeDefined();
    // No model description to compare with (the detector reports that itself): the gate loads.
    expect(LogisticRulesGate.load(folder(fittedFor("a".repeat(64))), "R")).toBeDefined();
  });
});
