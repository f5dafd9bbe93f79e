import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { UI_ELEMENT_TYPES } from "../core/schemas/uielement.js";
import type { ElementCandidate } from "./element-classifier.js";
import { defaultDetectorModelDir } from "./learned-detector.js";
import { LogisticRulesGate, RULES_GATE_FEATURES, RULES_GATE_FILE, rulesGateFeatures, type RulesGateFile } from "./rules-gate.js";

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

  it("keeps the model's own elements at or over their type's least confidence (a type it names no threshold for: all)", () => {
    const gate = new LogisticRulesGate({ ...fileWith({}, 0), model_thresholds: { link: 0.4, tab: 0.5 } });
    const p = (type: "link" | "tab" | "button", confidence: number) => ({ type, confidence, bbox: [0, 0, 10, 10] as [number, number, number, number] });
    expect(gate.keepLearned(p("link", 0.39))).toBe(false);
    expect(gate.keepLearned(p("link", 0.4))).toBe(true);
    expect(gate.keepLearned(p("tab", 0.45))).toBe(false);
    expect(gate.keepLearned(p("button", 0.26))).toBe(true);
    expect(new LogisticRulesGate(fileWith({}, 0)).keepLearned(p("link", 0.26))).toBe(true);
  });

  it("the committed gate loads, names its features and keeps a wide field the model missed over a stray link", () => {
    const gate = LogisticRulesGate.load(defaultDetectorModelDir(), "git checkout -- models/ui-detector")!;
    expect(gate).toBeDefined();
    const ctx = { scale: 1, learned: [] };
    expect(gate.probability(cand({ type: "text_input", bbox: [100, 100, 700, 136], label: "", text: "" }), ctx)).toBeGreaterThan(gate.probability(cand({ type: "link", method: "ocr_text", bbox: [100, 100, 150, 116], label: "Aide" }), ctx));
    const file = JSON.parse(readFileSync(join(defaultDetectorModelDir(), RULES_GATE_FILE), "utf8")) as RulesGateFile;
    expect(file.fitted).toMatchObject({ command: "npm run train -- gate" });
    // Its per-type thresholds on the model's elements were fitted with it, each within the candidates it tried.
    for (const v of Object.values(file.model_thresholds ?? {})) expect(v).toBeGreaterThanOrEqual(0.3);
  });

  it("absent: none (a model folder from before the gate); unreadable or fitted on other features: provider_unavailable naming the file", () => {
    expect(LogisticRulesGate.load(folder(undefined), "R")).toBeUndefined();
    for (const bad of ["{", JSON.stringify({ version: 2 }), JSON.stringify({ ...fileWith({}, 0), weights: [1] }), JSON.stringify({ ...fileWith({}, 0), features: ["x", ...RULES_GATE_FEATURES.slice(1)] }), JSON.stringify({ ...fileWith({}, 0), model_thresholds: { link: 1.5 } }), JSON.stringify({ ...fileWith({}, 0), model_thresholds: { widget: 0.4 } })]) {
      const d = folder(bad);
      expect(() => LogisticRulesGate.load(d, "git checkout -- models/ui-detector")).toThrow(expect.objectContaining({ code: "provider_unavailable", message: expect.stringContaining(join(d, RULES_GATE_FILE)) }));
    }
  });
});
