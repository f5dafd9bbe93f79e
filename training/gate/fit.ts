// `npm run train -- gate`: fits the hybrid detector's gate on the rules' extra elements
// (src/perception/rules-gate.ts) and writes models/ui-detector/rules-gate.json.
//
// Data: the calibration split of the training families (the split of training/detector/common.py:
// never trained on by the model, and no held family — the same screens its Platt calibration and
// threshold come from). Each screen is detected by the product's hybrid (hybrid OCR, the model
// without its coarse pass, the rules); every extra the overlap test lets through is recorded with its
// features and labelled right when it matches (IoU ≥ 0.5) a true element no model element matches.
// Fit: logistic regression, full-batch gradient descent from zeros (deterministic: no seed needed),
// L2 1e-3. Threshold: the one that maximises the hybrid's element F1 over those screens.
// Before it (a first pass over the same screens, every model element kept): per type, the least
// calibrated confidence at which the hybrid keeps the model's elements (`model_thresholds`), among
// 0.30–0.60 or none, the one that maximises the pooled F1 of the model's elements; the gate's pass runs with them.
// Options: --ocr-cache <dir> (default training/data/cache/ocr-gate), --limit <n> screens, --dry-run (print, write nothing).
import { execSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { readImageFile } from "../../src/capture/png.js";
import { bboxIoU, type BBox } from "../../src/core/geometry.js";
import type { ElementCandidate } from "../../src/perception/element-classifier.js";
import { AccentLexicon, HybridOcr } from "../../src/perception/hybrid-ocr.js";
import { defaultDetectorModelDir, DETECTOR_MODEL_FILE, LearnedDetector } from "../../src/perception/learned-detector.js";
import { CachedOcr } from "../../src/perception/ocr-cache.js";
import { PpOcr } from "../../src/perception/ppocr-ocr.js";
import { RULES_GATE_FEATURES, RULES_GATE_FILE, rulesGateFeatures, type RulesGate, type RulesGateContext } from "../../src/perception/rules-gate.js";
import { TesseractOcr } from "../../src/perception/tesseract-ocr.js";
import { UIElementDetector } from "../../src/perception/ui-element-detector.js";
import { UI_ELEMENT_TYPES, type UIElementType } from "../../src/core/schemas/uielement.js";
import { splitter } from "../fold-split.js";

const ROOT = join(import.meta.dirname, "..", "..");
const DATA = join(ROOT, "training", "data");
const { values: opts } = parseArgs({ options: { "ocr-cache": { type: "string", default: join(DATA, "cache", "ocr-gate") }, limit: { type: "string" }, "dry-run": { type: "boolean", default: false } } });
const modelDir = defaultDetectorModelDir();
const meta = JSON.parse(readFileSync(join(modelDir, "ui-detector.json"), "utf8")) as { figures: { held_families: string[] } };
const manifest = JSON.parse(readFileSync(join(modelDir, "data-manifest.json"), "utf8")) as { files: Array<{ id: string; family: string; subfamily: string }> };
const splitOf = splitter(meta.figures.held_families);
const calib = manifest.files.filter((f) => splitOf(f) === "calib" && existsSync(join(DATA, f.family, `${f.id}.json`)));
const screens = opts.limit ? calib.slice(0, Number(opts.limit)) : calib;
if (!screens.length) {
  console.error("No calibration screens under training/data: generate them first (npm run train -- data).");
  process.exit(1);
}

/** One-to-one matches at IoU ≥ 0.5, best first: indices of the truths and of the predictions matched. */
function matched(truth: readonly BBox[], preds: readonly BBox[]): { truths: Set<number>; preds: Set<number> } {
  const pairs: Array<[number, number, number]> = [];
  truth.forEach((g, gi) => preds.forEach((p, pi) => {
    const iou = bboxIoU(g, p);
    if (iou >= 0.5) pairs.push([gi, pi, iou]);
  }));
  pairs.sort((a, b) => b[2] - a[2]);
  const gs = new Set<number>();
  const ps = new Set<number>();
  for (const [g, p] of pairs) {
    if (gs.has(g) || ps.has(p)) continue;
    gs.add(g);
    ps.add(p);
  }
  return { truths: gs, preds: ps };
}

// The recording gate: keeps everything (of the model's, those over `minConf` for their type), remembers what it was asked.
let asked: Array<{ c: ElementCandidate; ctx: RulesGateContext }> = [];
let minConf: Partial<Record<UIElementType, number>> = {};
const recorder: RulesGate = { keep: (c, ctx) => (asked.push({ c, ctx }), true), keepLearned: (p) => p.confidence >= (minConf[p.type] ?? 0) };
const pp = await PpOcr.create();
const tess = await TesseractOcr.create();
const ocr = new CachedOcr(new HybridOcr(pp, tess, AccentLexicon.load()), { dir: opts["ocr-cache"]! });
const model = await LearnedDetector.create({ coarse: false });
const hybrid = new UIElementDetector({ ocr, proposer: model, keepRules: true, rulesGate: recorder });

interface Example {
  x: number[];
  y: number;
}
/** One pass of the hybrid over the screens: the extras' examples, the model's elements (type, confidence, right), the totals. */
async function pass(label: string) {
  const examples: Example[] = [];
  const learnedSeen: Array<{ type: UIElementType; confidence: number; right: boolean }> = [];
  // Per screen: true elements, model elements right, model elements wrong (for the F1 of each threshold).
  const totals = { truth: 0, modelTp: 0, modelFp: 0 };
  const t0 = Date.now();
  for (const [i, f] of screens.entries()) {
    const m = JSON.parse(readFileSync(join(DATA, f.family, `${f.id}.json`), "utf8")) as { image: string; variant: { scale?: number }; elements: Array<{ bbox: BBox }> };
    const scale = m.variant.scale ?? 1;
    const frame = await readImageFile(join(DATA, f.family, m.image), { scaleFactor: scale });
    asked = [];
    const det = await hybrid.detect(frame, { scale });
    const truth = m.elements.map((e) => e.bbox);
    // The model's elements as the hybrid keeps them (a screen without extras asked the gate nothing).
    const learned = asked[0]?.ctx.learned ?? det.elements.filter((e) => e.detection_method === "learned_detector").map((e) => ({ bbox: e.bbox as BBox, type: e.type, confidence: e.confidence }));
    const byModel = matched(truth, learned.map((l) => l.bbox));
    totals.truth += truth.length;
    totals.modelTp += byModel.truths.size;
    totals.modelFp += learned.length - byModel.truths.size;
    learned.forEach((l, k) => learnedSeen.push({ type: l.type, confidence: l.confidence, right: byModel.preds.has(k) }));
    const free = truth.filter((_, k) => !byModel.truths.has(k));
    for (const { c, ctx } of asked) examples.push({ x: rulesGateFeatures(c, ctx), y: free.some((g) => bboxIoU(g, c.bbox) >= 0.5) ? 1 : 0 });
    const eta = ((Date.now() - t0) / (i + 1)) * (screens.length - i - 1);
    process.stdout.write(`\r  ${label} [${i + 1}/${screens.length}] ${f.id}: ${asked.length} extras; eta ${Math.round(eta / 1000)} s   `);
  }
  process.stdout.write("\n");
  return { examples, learnedSeen, totals };
}

// Pass 1: every model element kept. Per type (in a fixed order), the least confidence of those
// candidates that maximises the pooled F1 of the model's elements over the screens.
const first = await pass("model thresholds");
const CANDIDATES = [0, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6];
const pooledF1 = (thr: Partial<Record<UIElementType, number>>) => {
  const kept = first.learnedSeen.filter((l) => l.confidence >= (thr[l.type] ?? 0));
  const tp = kept.filter((l) => l.right).length;
  return (2 * tp) / (kept.length + first.totals.truth);
};
for (const t of UI_ELEMENT_TYPES) {
  let best = 0;
  for (const c of CANDIDATES) if (pooledF1({ ...minConf, [t]: c }) > pooledF1({ ...minConf, [t]: best }) + 1e-9) best = c;
  if (best > 0) minConf[t] = best;
}
const modelF1 = { all: pooledF1({}), thresholded: pooledF1(minConf) };
console.log(`model element thresholds ${JSON.stringify(minConf)}: pooled F1 of the model's elements ${modelF1.all.toFixed(3)} -> ${modelF1.thresholded.toFixed(3)}`);
// Pass 2: the hybrid with those thresholds; its extras train the gate.
const { examples, totals } = await pass("gate");
await Promise.all([pp.close(), tess.close(), model.close()]);

// Logistic regression.
const d = RULES_GATE_FEATURES.length;
const w = new Float64Array(d);
let b = 0;
const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));
const lr = 0.5;
const l2 = 1e-3;
for (let it = 0; it < 4000; it++) {
  const gw = new Float64Array(d);
  let gb = 0;
  for (const e of examples) {
    let z = b;
    for (let k = 0; k < d; k++) z += w[k]! * e.x[k]!;
    const err = sigmoid(z) - e.y;
    for (let k = 0; k < d; k++) gw[k]! += err * e.x[k]!;
    gb += err;
  }
  for (let k = 0; k < d; k++) w[k] = w[k]! - lr * (gw[k]! / examples.length + l2 * w[k]!);
  b -= (lr * gb) / examples.length;
}
const probs = examples.map((e) => sigmoid(e.x.reduce((z, v, k) => z + w[k]! * v, b)));
// The hybrid's F1 over the screens when extras with p ≥ t are kept (one-to-one is approximated by the labels above).
const f1At = (t: number) => {
  let tp = totals.modelTp;
  let fp = totals.modelFp;
  examples.forEach((e, k) => {
    if (probs[k]! < t) return;
    if (e.y) tp++;
    else fp++;
  });
  return { f1: (2 * tp) / (2 * tp + fp + (totals.truth - tp)), kept: examples.filter((_, k) => probs[k]! >= t).length, tp, fp };
};
let best = { t: 0, ...f1At(0) };
for (let t = 0.05; t < 0.96; t += 0.05) {
  const r = f1At(Number(t.toFixed(2)));
  if (r.f1 > best.f1 + 1e-9) best = { t: Number(t.toFixed(2)), ...r };
}
const all = f1At(0);
const none = f1At(1.01);
const positives = examples.filter((e) => e.y).length;
const keptRight = examples.filter((e, k) => e.y && probs[k]! >= best.t).length;
const round = (v: number) => Math.round(v * 1000) / 1000;
let commit = "unknown";
try {
  commit = execSync("git rev-parse HEAD", { cwd: ROOT, encoding: "utf8" }).trim();
} catch {
  // not a git checkout
}
const file = {
  version: 1,
  features: RULES_GATE_FEATURES,
  weights: Array.from(w, (v) => Number(v.toFixed(6))),
  bias: Number(b.toFixed(6)),
  threshold: best.t,
  model_thresholds: minConf,
  fitted: {
    split: "calib (training families only: bucket < 5 of training/detector/common.py split_of; no held family)",
    screens: screens.length,
    extras: examples.length,
    right_extras: positives,
    kept: best.kept,
    kept_right: keptRight,
    model_thresholds_from: CANDIDATES,
    model_elements_pooled_f1: { all: round(modelF1.all), thresholded: round(modelF1.thresholded) },
    hybrid_f1_on_these_screens: { all_extras: round(all.f1), no_extras: round(none.f1), gated: round(best.f1) },
    model_sha256: createHash("sha256").update(readFileSync(join(modelDir, DETECTOR_MODEL_FILE))).digest("hex"),
    code_commit: commit,
    command: "npm run train -- gate",
  },
};
console.log(`${examples.length} extras on ${screens.length} screens, ${positives} right. Hybrid F1 on these screens: all extras ${round(all.f1)}, none ${round(none.f1)}, gated at p ≥ ${best.t}: ${round(best.f1)} (keeps ${best.kept}, ${keptRight} right)`);
for (const [k, name] of RULES_GATE_FEATURES.entries()) console.log(`  ${name.padEnd(28)} ${w[k]!.toFixed(3)}`);
if (!opts["dry-run"]) {
  writeFileSync(join(modelDir, RULES_GATE_FILE), `${JSON.stringify(file, null, 2)}\n`);
  console.log(`written: ${join(modelDir, RULES_GATE_FILE)}`);
}
