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
// Before it (a first pass over the same screens, every model element kept), the model gate
// (`model_gate`): the same logistic fit on the model's own elements (features: type, confidence by type,
// label, size, overlap with the rules' elements and with the model's others; right when it matches a true
// element one-to-one), its threshold the one that maximises the pooled F1 of the model's elements; the
// rules' gate is fitted on a second pass with it.
// The file it writes has no `element_calibration`: run `npm run train -- calibrate` after it (training/gate/calibrate.ts).
// Options: --ocr-cache <dir> (default training/data/cache/ocr-gate), --limit <n> screens, --dry-run (print, write nothing).
import { execSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { readImageFile } from "../../src/capture/png.js";
import { bboxIoU, type BBox } from "../../src/core/geometry.js";
import { sigmoid } from "../../src/core/vectors.js";
import type { ElementCandidate } from "../../src/perception/element-classifier.js";
import { AccentLexicon, HybridOcr } from "../../src/perception/hybrid-ocr.js";
import { defaultDetectorModelDir, DETECTOR_MODEL_FILE, LearnedDetector } from "../../src/perception/learned-detector.js";
import { CachedOcr } from "../../src/perception/ocr-cache.js";
import { PpOcr } from "../../src/perception/ppocr-ocr.js";
import { logistic, MODEL_GATE_FEATURES, modelGateFeatures, RULES_GATE_FEATURES, RULES_GATE_FILE, rulesGateFeatures, type RulesGate, type RulesGateContext } from "../../src/perception/rules-gate.js";
import { TesseractOcr } from "../../src/perception/tesseract-ocr.js";
import { UIElementDetector } from "../../src/perception/ui-element-detector.js";
import { calibrationScreens, matched } from "./screens.js";

const ROOT = join(import.meta.dirname, "..", "..");
const DATA = join(ROOT, "training", "data");
const { values: opts } = parseArgs({ options: { "ocr-cache": { type: "string", default: join(DATA, "cache", "ocr-gate") }, limit: { type: "string" }, "dry-run": { type: "boolean", default: false } } });
const modelDir = defaultDetectorModelDir();
const screens = calibrationScreens(modelDir, DATA, opts.limit);

// The recording gate: keeps every extra and remembers it; of the model's elements it remembers each with its
// features and keeps those the model gate (once fitted) keeps.
let asked: Array<{ c: ElementCandidate; ctx: RulesGateContext }> = [];
let modelAsked: Array<{ c: ElementCandidate; x: number[]; kept: boolean }> = [];
/** The model gate once fitted (after the first pass). */
const fitted: { modelGate?: { weights: Float64Array; bias: number; threshold: number } } = {};
const recorder: RulesGate = {
  keep: (c, ctx) => (asked.push({ c, ctx }), true),
  keepLearned: (c, ctx) => {
    const x = modelGateFeatures(c, ctx);
    const kept = !fitted.modelGate || logistic(fitted.modelGate, x) >= fitted.modelGate.threshold;
    modelAsked.push({ c, x, kept });
    return kept;
  },
};
const pp = await PpOcr.create();
const tess = await TesseractOcr.create();
const ocr = new CachedOcr(new HybridOcr(pp, tess, AccentLexicon.load()), { dir: opts["ocr-cache"]! });
const model = await LearnedDetector.create({ coarse: false });
const hybrid = new UIElementDetector({ ocr, proposer: model, keepRules: true, rulesGate: recorder });

interface Example {
  x: number[];
  y: number;
}
/** One pass of the hybrid over the screens: the extras' examples, the model's elements' examples (all of them, kept or not), the totals. */
async function pass(label: string) {
  const examples: Example[] = [];
  const modelExamples: Example[] = [];
  // Per screen: true elements, model elements kept right, kept wrong (for the F1 of each threshold).
  const totals = { truth: 0, modelTp: 0, modelFp: 0 };
  const t0 = Date.now();
  for (const [i, f] of screens.entries()) {
    const m = JSON.parse(readFileSync(join(DATA, f.family, `${f.id}.json`), "utf8")) as { image: string; variant: { scale?: number }; elements: Array<{ bbox: BBox }> };
    const scale = m.variant.scale ?? 1;
    const frame = await readImageFile(join(DATA, f.family, m.image), { scaleFactor: scale });
    asked = [];
    modelAsked = [];
    await hybrid.detect(frame, { scale });
    const truth = m.elements.map((e) => e.bbox);
    // Every element of the model's is labelled by a one-to-one match of all of them; the totals count those kept.
    const all = matched(truth, modelAsked.map((a) => a.c.bbox));
    modelAsked.forEach((a, k) => modelExamples.push({ x: a.x, y: all.preds.has(k) ? 1 : 0 }));
    const learned = modelAsked.filter((a) => a.kept).map((a) => a.c);
    const byModel = matched(truth, learned.map((l) => l.bbox));
    totals.truth += truth.length;
    totals.modelTp += byModel.truths.size;
    totals.modelFp += learned.length - byModel.truths.size;
    const free = truth.filter((_, k) => !byModel.truths.has(k));
    for (const { c, ctx } of asked) examples.push({ x: rulesGateFeatures(c, ctx), y: free.some((g) => bboxIoU(g, c.bbox) >= 0.5) ? 1 : 0 });
    const eta = ((Date.now() - t0) / (i + 1)) * (screens.length - i - 1);
    process.stdout.write(`\r  ${label} [${i + 1}/${screens.length}] ${f.id}: ${asked.length} extras; eta ${Math.round(eta / 1000)} s   `);
  }
  process.stdout.write("\n");
  return { examples, modelExamples, totals };
}

/** Logistic regression: full-batch gradient descent from zeros, L2 1e-3 (deterministic). */
function fitLogistic(examples: readonly Example[], d: number): { weights: Float64Array; bias: number } {
  const w = new Float64Array(d);
  let b = 0;
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
  return { weights: w, bias: b };
}
const round = (v: number) => Math.round(v * 1000) / 1000;

// Pass 1: every model element kept; the model gate is fitted on them, with the threshold that maximises the
// pooled F1 of the model's elements over the screens.
const first = await pass("model gate");
const mg = fitLogistic(first.modelExamples, MODEL_GATE_FEATURES.length);
const mProbs = first.modelExamples.map((e) => logistic(mg, e.x));
const modelF1At = (t: number) => {
  let tp = 0;
  let kept = 0;
  first.modelExamples.forEach((e, k) => {
    if (mProbs[k]! < t) return;
    kept++;
    tp += e.y;
  });
  return (2 * tp) / (kept + first.totals.truth);
};
let mThreshold = 0;
for (let t = 0.05; t < 0.96; t += 0.05) if (modelF1At(Number(t.toFixed(2))) > modelF1At(mThreshold) + 1e-9) mThreshold = Number(t.toFixed(2));
fitted.modelGate = { ...mg, threshold: mThreshold };
const modelF1 = { all: modelF1At(0), gated: modelF1At(mThreshold) };
const modelKept = mProbs.filter((p) => p >= mThreshold).length;
console.log(`model gate: ${first.modelExamples.length} model elements, ${first.modelExamples.filter((e) => e.y).length} right; pooled F1 of the model's elements ${round(modelF1.all)} all, ${round(modelF1.gated)} gated at p ≥ ${mThreshold} (keeps ${modelKept})`);
// Pass 2: the hybrid with the model gate; its extras train the rules' gate.
const { examples, totals } = await pass("gate");
await Promise.all([pp.close(), tess.close(), model.close()]);
const { weights: w, bias: b } = fitLogistic(examples, RULES_GATE_FEATURES.length);
const probs = examples.map((e) => logistic({ weights: w, bias: b }, e.x));
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
  model_gate: { features: MODEL_GATE_FEATURES, weights: Array.from(mg.weights, (v) => Number(v.toFixed(6))), bias: Number(mg.bias.toFixed(6)), threshold: mThreshold },
  fitted: {
    split: "calib (training families only: bucket < 5 of training/detector/common.py split_of; no held family)",
    screens: screens.length,
    extras: examples.length,
    right_extras: positives,
    kept: best.kept,
    kept_right: keptRight,
    model_elements: first.modelExamples.length,
    model_elements_right: first.modelExamples.filter((e) => e.y).length,
    model_elements_kept: modelKept,
    model_elements_pooled_f1: { all: round(modelF1.all), gated: round(modelF1.gated) },
    hybrid_f1_on_these_screens: { all_extras: round(all.f1), no_extras: round(none.f1), gated: round(best.f1) },
    model_sha256: createHash("sha256").update(readFileSync(join(modelDir, DETECTOR_MODEL_FILE))).digest("hex"),
    code_commit: commit,
    command: "npm run train -- gate",
  },
};
console.log(`${examples.length} extras on ${screens.length} screens, ${positives} right. Hybrid F1 on these screens: all extras ${round(all.f1)}, none ${round(none.f1)}, gated at p ≥ ${best.t}: ${round(best.f1)} (keeps ${best.kept}, ${keptRight} right)`);
for (const [k, name] of RULES_GATE_FEATURES.entries()) console.log(`  ${name.padEnd(28)} ${w[k]!.toFixed(3)}`);
// What the gate sees, by the extras' type and method: how many, how many right, how many it keeps (and right).
const groups = new Map<string, [number, number, number, number]>();
examples.forEach((e, k) => {
  const name = (prefix: string) => RULES_GATE_FEATURES.find((f, j) => f.startsWith(prefix) && e.x[j] === 1)?.slice(prefix.length) ?? "?";
  const key = `${name("type:")} ${name("method:")}`;
  const kept = probs[k]! >= best.t ? 1 : 0;
  const g = groups.get(key) ?? [0, 0, 0, 0];
  groups.set(key, [g[0] + 1, g[1] + e.y, g[2] + kept, g[3] + kept * e.y]);
});
console.log("extras by type and method: count, right, kept, kept right");
for (const [k, g] of [...groups].sort(([, a], [, b]) => b[0] - a[0])) console.log(`  ${k.padEnd(44)} ${g.join(", ")}`);
if (!opts["dry-run"]) {
  writeFileSync(join(modelDir, RULES_GATE_FILE), `${JSON.stringify(file, null, 2)}\n`);
  console.log(`written: ${join(modelDir, RULES_GATE_FILE)}`);
}
