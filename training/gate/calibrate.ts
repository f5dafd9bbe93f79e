// `npm run train -- calibrate`: recalibrates the confidences of the hybrid detector's final elements by how each was
// found (its detection method) and writes the fit into models/ui-detector/rules-gate.json (`element_calibration`),
// leaving the gates as `npm run train -- gate` fitted them. Run it after the gate's fit (which drops it).
//
// Why: the model gate's probability, the confidence the hybrid gives the model's elements, is fitted against a match of
// any type, and the rules' and the completions' confidences are set by hand; `confidence` in uielement_v1 is the
// probability that the element matches one of its own type.
// Data: the calibration split of the training families (the gate's: never trained on by the model, no held family).
// Each screen is detected by the product's hybrid (hybrid OCR, the model and its fill pass, the committed gates, no
// recalibration); every final element is labelled right when it matches (IoU ≥ 0.5, one-to-one, best first) a true
// element of its own type. Fit, per method with 100 examples or more (with fewer, its ten-bin error moves more by
// chance than by the fit: ocr_text's 59, fitted, got worse on the very screens): Platt on logit(confidence), full-batch
// gradient descent from the identity (a = 1, b = 0), deterministic.
// Options: --ocr-cache <dir> (default the gate's), --limit <n> screens, --dry-run (print, write nothing).
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { readImageFile } from "../../src/capture/png.js";
import type { BBox } from "../../src/core/geometry.js";
import { logit, sigmoid } from "../../src/core/vectors.js";
import { AccentLexicon, HybridOcr } from "../../src/perception/hybrid-ocr.js";
import { defaultDetectorModelDir, LearnedDetector } from "../../src/perception/learned-detector.js";
import { CachedOcr } from "../../src/perception/ocr-cache.js";
import { PpOcr } from "../../src/perception/ppocr-ocr.js";
import { LogisticRulesGate, plattRecalibrate, RULES_GATE_FILE, RulesGateFileSchema } from "../../src/perception/rules-gate.js";
import { TesseractOcr } from "../../src/perception/tesseract-ocr.js";
import { UIElementDetector } from "../../src/perception/ui-element-detector.js";
import { calibrationScreens, matched } from "./screens.js";

const ROOT = join(import.meta.dirname, "..", "..");
const DATA = join(ROOT, "training", "data");
const MIN_EXAMPLES = 100;
const { values: opts } = parseArgs({ options: { "ocr-cache": { type: "string", default: join(DATA, "cache", "ocr-gate") }, limit: { type: "string" }, "dry-run": { type: "boolean", default: false } } });
const modelDir = defaultDetectorModelDir();
const gatePath = join(modelDir, RULES_GATE_FILE);
const { element_calibration: _old, ...gateFile } = RulesGateFileSchema.parse(JSON.parse(readFileSync(gatePath, "utf8")));
const screens = calibrationScreens(modelDir, DATA, opts.limit);

const pp = await PpOcr.create();
const tess = await TesseractOcr.create();
const ocr = new CachedOcr(new HybridOcr(pp, tess, AccentLexicon.load()), { dir: opts["ocr-cache"]! });
const model = await LearnedDetector.create({ coarse: false });
const hybrid = new UIElementDetector({ ocr, proposer: model, keepRules: true, fills: model, rulesGate: new LogisticRulesGate(gateFile) });

/** Per method: each element's logit(confidence) and whether it matched a true element of its type. */
const byMethod = new Map<string, Array<{ x: number; y: number; p: number }>>();
const t0 = Date.now();
for (const [i, f] of screens.entries()) {
  const m = JSON.parse(readFileSync(join(DATA, f.family, `${f.id}.json`), "utf8")) as { image: string; variant: { scale?: number }; elements: Array<{ type: string; bbox: BBox }> };
  const scale = m.variant.scale ?? 1;
  const { elements } = await hybrid.detect(await readImageFile(join(DATA, f.family, m.image), { scaleFactor: scale }), { scale });
  const right = new Set([...matched(m.elements.map((g) => g.bbox), elements.map((e) => e.bbox)).pairs].filter(([g, e]) => m.elements[g]!.type === elements[e]!.type).map(([, e]) => e));
  elements.forEach((e, k) => {
    const p = e.confidence;
    const list = byMethod.get(e.detection_method) ?? [];
    list.push({ x: logit(p), y: right.has(k) ? 1 : 0, p });
    byMethod.set(e.detection_method, list);
  });
  const eta = ((Date.now() - t0) / (i + 1)) * (screens.length - i - 1);
  process.stdout.write(`\r  [${i + 1}/${screens.length}] ${f.id}: ${elements.length} elements; eta ${Math.round(eta / 1000)} s   `);
}
process.stdout.write("\n");
await Promise.all([pp.close(), tess.close(), model.close()]);

/** Platt's two numbers by full-batch gradient descent on the log loss, from the identity (deterministic). */
function fitPlatt(ex: ReadonlyArray<{ x: number; y: number }>): { a: number; b: number } {
  let [a, b] = [1, 0];
  for (let it = 0; it < 5000; it++) {
    let [ga, gb] = [0, 0];
    for (const e of ex) {
      const err = sigmoid(a * e.x + b) - e.y;
      ga += err * e.x;
      gb += err;
    }
    a -= (0.5 * ga) / ex.length;
    b -= (0.5 * gb) / ex.length;
  }
  return { a, b };
}
/** Expected calibration error over ten equal-width bins. */
const ece = (ps: readonly number[], ys: readonly number[]) => {
  let sum = 0;
  for (let k = 0; k < 10; k++) {
    const idx = ps.flatMap((p, i) => (Math.min(9, Math.floor(p * 10)) === k ? [i] : []));
    if (idx.length) sum += Math.abs(idx.reduce((s, i) => s + ps[i]!, 0) - idx.reduce((s, i) => s + ys[i]!, 0));
  }
  return sum / Math.max(1, ps.length);
};
const round = (v: number) => Math.round(v * 1e4) / 1e4;
const calibration: Record<string, { a: number; b: number; n: number }> = {};
const report: Record<string, { n: number; right: number; ece_before: number; ece_after: number }> = {};
const [allBefore, allAfter, allY]: number[][] = [[], [], []];
for (const [method, ex] of [...byMethod].sort((a, b) => b[1].length - a[1].length)) {
  const ys = ex.map((e) => e.y);
  const before = ex.map((e) => e.p);
  const fit = ex.length >= MIN_EXAMPLES ? fitPlatt(ex) : undefined;
  if (fit) calibration[method] = { a: Number(fit.a.toFixed(6)), b: Number(fit.b.toFixed(6)), n: ex.length };
  const after = fit ? before.map((p) => plattRecalibrate(p, fit)) : before;
  report[method] = { n: ex.length, right: ys.reduce((s, y) => s + y, 0), ece_before: round(ece(before, ys)), ece_after: round(ece(after, ys)) };
  allBefore.push(...before);
  allAfter.push(...after);
  allY.push(...ys);
  console.log(`  ${method.padEnd(20)} ${String(ex.length).padStart(5)} elements, ${report[method].right} right of their type; ECE ${report[method].ece_before} → ${report[method].ece_after}${fit ? ` (a ${fit.a.toFixed(3)}, b ${fit.b.toFixed(3)})` : " (too few: left as it is)"}`);
}
console.log(`all ${allY.length} elements on ${screens.length} screens: ECE ${round(ece(allBefore, allY))} → ${round(ece(allAfter, allY))} (on the fitting screens)`);
const out = { ...gateFile, element_calibration: calibration, fitted: { ...gateFile.fitted, element_calibration: { screens: screens.length, min_examples: MIN_EXAMPLES, by_method: report, command: "npm run train -- calibrate" } } };
if (!opts["dry-run"]) {
  writeFileSync(gatePath, `${JSON.stringify(out, null, 2)}\n`);
  console.log(`written: ${gatePath}`);
}
