// Generalisation bench: the rules detector and the learned one side by side, on families the model
// was trained on and on whole families it never saw (the split of training/detector/common.py:
// held families from the model's fold; train-family figures on its "trainval" screens, never trained
// on), plus the dev corpus when built (npm run corpus). Run: npm run bench -- detect-families
//   RPAV_BENCH_PER_FAMILY=<n>   screens per family (default 12; deterministic sample by id hash)
//   RPAV_BENCH_OCR_CACHE=<dir>  keep OCR results between runs
//   RPAV_BENCH_SETS=<splits>    only these of train, held, dev, toggles (e.g. train,toggles while changing code)
// Element figures: precision / recall / F1 at IoU ≥ 0.5 (one-to-one, best IoU first), type accuracy
// among matched; both detectors get the same OCR (hybrid PP-OCR + tesseract), the learned one's boxes
// come from the model alone (OCR only names them). Reliability: the learned detector's confidence
// bins vs the share of its detections matching an element of that type. Nothing here is tuned on a
// held family: the model's threshold and temperature come from its calibration split.
import { readImageFile } from "../../src/capture/png.js";
import { bboxIoU, type BBox } from "../../src/core/geometry.js";
import { defaultDetectorModelDir, reliabilityTable } from "../../src/perception/learned-detector.js";
import { round, writeResult } from "../lib.js";
import { FAMILY_SAMPLE } from "../../training/fold-split.js";
import { benchDetectors, benchScreens, matchOneToOne, readModelFiles, type Screen } from "./common.js";

const perFamily = Number(process.env.RPAV_BENCH_PER_FAMILY ?? FAMILY_SAMPLE);
//   RPAV_BENCH_MODEL_DIR=<dir>  another model folder (ui-detector.onnx, .json, data-manifest.json) than the committed one
const modelDir = process.env.RPAV_BENCH_MODEL_DIR ?? defaultDetectorModelDir();
const files = readModelFiles(modelDir);
const { meta, manifest } = files;
const held = meta.figures.held_families;
const devTrained = manifest.files.some((f) => f.family === "dev");
// RPAV_BENCH_SETS=train,toggles,dev: only those splits (held left out, as while changing code; the held figures are run
// once, at the end).
const screens: Screen[] = benchScreens(files, perFamily, process.env.RPAV_BENCH_SETS?.split(",").filter(Boolean));
if (screens.length === 0) {
  console.error("No screens: generate them first (npm run train -- bench-screens: the benches' screens, minutes; npm run train -- data: the whole data set, hours).");
  process.exit(1);
}

const { pp, tess, model, fineModel, rules, learned, hybrid, gated } = await benchDetectors(modelDir);

interface Tally {
  screens: number;
  tp: number;
  fp: number;
  fn: number;
  typeOk: number;
  gtByType: Record<string, number>;
  tpByType: Record<string, number>;
}
const tally = (): Tally => ({ screens: 0, tp: 0, fp: 0, fn: 0, typeOk: 0, gtByType: {}, tpByType: {} });
function score(t: Tally, gts: Screen["elements"], preds: Array<{ type: string; bbox: BBox }>): Set<number> {
  const gU = new Set<number>();
  const pU = new Set<number>();
  const right = new Set<number>();
  for (const pr of matchOneToOne(gts, preds)) {
    gU.add(pr.g);
    pU.add(pr.p);
    t.tp++;
    if (gts[pr.g]!.type === preds[pr.p]!.type) {
      t.typeOk++;
      right.add(pr.p);
      t.tpByType[gts[pr.g]!.type] = (t.tpByType[gts[pr.g]!.type] ?? 0) + 1;
    }
  }
  for (const g of gts) t.gtByType[g.type] = (t.gtByType[g.type] ?? 0) + 1;
  t.fp += preds.length - pU.size;
  t.fn += gts.length - gU.size;
  t.screens++;
  return right;
}
const figures = (t: Tally) => {
  const P = t.tp / Math.max(1, t.tp + t.fp);
  const R = t.tp / Math.max(1, t.tp + t.fn);
  return { screens: t.screens, precision: round(P, 3), recall: round(R, 3), f1: round((2 * P * R) / Math.max(1e-9, P + R), 3), type_accuracy: round(t.typeOk / Math.max(1, t.tp), 3), recall_by_type: Object.fromEntries(Object.entries(t.gtByType).map(([k, n]) => [k, round((t.tpByType[k] ?? 0) / n, 3)])) };
};

const rows = new Map<string, { split: string; rules: Tally; learned: Tally; union: Tally; hybrid: Tally; gated: Tally }>();
// A third reading, fixed before any figure was seen: the learned boxes, plus each rules box that overlaps none of them
// (IoU < 0.5) — what the rules find that the model does not.
const union = (learnedEls: Screen["elements"], rulesEls: Screen["elements"]) => [...learnedEls, ...rulesEls.filter((r) => learnedEls.every((l) => bboxIoU(l.bbox, r.bbox) < 0.5))];
const scored: Record<string, Array<{ confidence: number; correct: boolean }>> = { train: [], held: [], dev: [], toggles: [] };
// The product's output (the gated hybrid's elements): the `confidence` a uielement_v1 carries against whether the element
// is right (a true element of its type, IoU ≥ 0.5, matched one to one).
const scoredProduct: Record<string, Array<{ confidence: number; correct: boolean }>> = { train: [], held: [], dev: [], toggles: [] };
const inferMs: Record<"full" | "with_coarse", Array<{ ms: number; mpix: number }>> = { full: [], with_coarse: [] };
const started = performance.now();
for (const [i, s] of screens.entries()) {
  const frame = await readImageFile(s.image, { scaleFactor: s.scale });
  const row = rows.get(s.family) ?? { split: s.split, rules: tally(), learned: tally(), union: tally(), hybrid: tally(), gated: tally() };
  rows.set(s.family, row);
  const r = await rules.detect(frame, { scale: s.scale });
  score(row.rules, s.elements, r.elements);
  const l = await learned.detect(frame, { scale: s.scale });
  score(row.learned, s.elements, l.elements);
  score(row.union, s.elements, union(l.elements, r.elements));
  score(row.hybrid, s.elements, (await hybrid.detect(frame, { scale: s.scale })).elements);
  if (gated) {
    const els = (await gated.detect(frame, { scale: s.scale })).elements;
    const right = score(row.gated, s.elements, els);
    els.forEach((e, k) => scoredProduct[s.split]!.push({ confidence: e.confidence, correct: right.has(k) }));
  }
  // Reliability over every proposal down to the model's floor (not only those kept).
  const t0 = performance.now();
  const all = await model.detections(frame, undefined, model.meta.floor); // both passes when the model has a coarse one
  const mpix = (frame.width * frame.height) / 1e6;
  inferMs.with_coarse.push({ ms: performance.now() - t0, mpix });
  const t1 = performance.now();
  await fineModel.detections(frame, undefined, model.meta.floor);
  inferMs.full.push({ ms: performance.now() - t1, mpix });
  const right = score(tally(), s.elements, all);
  all.forEach((d, k) => scored[s.split]!.push({ confidence: d.confidence, correct: right.has(k) }));
  const el = (performance.now() - started) / 1000;
  process.stdout.write(`  [${i + 1}/${screens.length}] ${s.id} (${s.split} ${s.family}): rules ${r.elements.length}, learned ${l.elements.length}, true ${s.elements.length}; eta ${Math.round((el / (i + 1)) * (screens.length - i - 1))} s\n`);
}

const out: Record<string, unknown> = { model: { fold: meta.fold, held_families: held, data_manifest_sha256: meta.data_manifest_sha256, trained_on_dev_corpus: devTrained }, per_screen_sample: perFamily, families: {}, reliability: {} };
if (devTrained) console.log("\nnote: the learned detector was trained on the dev corpus (all but its held families and ~10 % kept for validation): the dev rows are trained-on figures for both detectors.");
const mean = (xs: number[]) => (xs.length ? round(xs.reduce((a, b) => a + b, 0) / xs.length, 3) : null);
console.log("\nfamily                  split   screens | rules P / R / F1 / type        | learned P / R / F1 / type      | learned ∪ rules P / R / F1 / type | hybrid (ungated) P / R / F1 / type | hybrid (product: gated) P / R / F1 / type");
for (const split of ["train", "held", "dev", "toggles"]) {
  const fams = [...rows].filter(([, v]) => v.split === split).sort(([a], [b]) => a.localeCompare(b));
  for (const [fam, v] of fams) {
    const a = figures(v.rules);
    const b = figures(v.learned);
    const c = figures(v.union);
    const d = figures(v.hybrid);
    const e = figures(v.gated);
    (out.families as Record<string, unknown>)[fam] = { split, rules: a, learned: b, union: c, hybrid: d, ...(gated ? { hybrid_gated: e } : {}) };
    console.log(`${fam.padEnd(23)} ${split.padEnd(7)} ${String(a.screens).padStart(7)} | ${a.precision.toFixed(3)} ${a.recall.toFixed(3)} ${a.f1.toFixed(3)} ${a.type_accuracy.toFixed(3)}  | ${b.precision.toFixed(3)} ${b.recall.toFixed(3)} ${b.f1.toFixed(3)} ${b.type_accuracy.toFixed(3)}  | ${c.precision.toFixed(3)} ${c.recall.toFixed(3)} ${c.f1.toFixed(3)} ${c.type_accuracy.toFixed(3)}  | ${d.precision.toFixed(3)} ${d.recall.toFixed(3)} ${d.f1.toFixed(3)} ${d.type_accuracy.toFixed(3)}${gated ? `  | ${e.precision.toFixed(3)} ${e.recall.toFixed(3)} ${e.f1.toFixed(3)} ${e.type_accuracy.toFixed(3)}` : ""}`);
  }
  if (fams.length) {
    const m = { rules_f1: mean(fams.map(([, v]) => figures(v.rules).f1)), learned_f1: mean(fams.map(([, v]) => figures(v.learned).f1)), union_f1: mean(fams.map(([, v]) => figures(v.union).f1)), rules_type: mean(fams.map(([, v]) => figures(v.rules).type_accuracy)), learned_type: mean(fams.map(([, v]) => figures(v.learned).type_accuracy)), union_type: mean(fams.map(([, v]) => figures(v.union).type_accuracy)), hybrid_f1: mean(fams.map(([, v]) => figures(v.hybrid).f1)), hybrid_type: mean(fams.map(([, v]) => figures(v.hybrid).type_accuracy)), ...(gated ? { hybrid_gated_f1: mean(fams.map(([, v]) => figures(v.gated).f1)), hybrid_gated_type: mean(fams.map(([, v]) => figures(v.gated).type_accuracy)) } : {}) };
    out[`${split}_mean`] = m;
    // The product's recall by type over the split's families pooled (a true element found with its own type; the issue's
    // targets per type are on the held families).
    if (gated) {
      const pooled = tally();
      for (const [, v] of fams)
        for (const [k, n] of Object.entries(v.gated.gtByType)) {
          pooled.gtByType[k] = (pooled.gtByType[k] ?? 0) + n;
          pooled.tpByType[k] = (pooled.tpByType[k] ?? 0) + (v.gated.tpByType[k] ?? 0);
        }
      const byType = figures(pooled).recall_by_type;
      out[`${split}_recall_by_type`] = Object.fromEntries(Object.entries(byType).map(([k, r]) => [k, { recall: r, true_elements: pooled.gtByType[k] }]));
      console.log(`${`${split} families pooled, product's recall by type`.padEnd(39)} | ${Object.entries(byType).sort(([a], [b]) => a.localeCompare(b)).map(([k, r]) => `${k} ${r.toFixed(3)} (${pooled.gtByType[k]})`).join(", ")}`);
    }
    console.log(`${`mean of ${split} families`.padEnd(39)} | F1 ${m.rules_f1}, type ${m.rules_type}            | F1 ${m.learned_f1}, type ${m.learned_type}          | F1 ${m.union_f1}, type ${m.union_type}     | F1 ${m.hybrid_f1}, type ${m.hybrid_type}${gated ? `  | F1 ${m.hybrid_gated_f1}, type ${m.hybrid_gated_type}` : ""}`);
  }
}
out.reliability_product = {};
for (const [what, key, sets] of [["the learned detector's confidence", "reliability", scored], ["the product's elements' confidence (gated hybrid)", "reliability_product", scoredProduct]] as const) {
  for (const [split, xs] of Object.entries(sets)) {
    if (!xs.length) continue;
    const t = reliabilityTable(xs);
    (out[key] as Record<string, unknown>)[split] = t;
    console.log(`\nreliability of ${what} (${split} families, ${t.count} ${key === "reliability" ? "proposals ≥ floor" : "elements"}, ECE ${t.ece.toFixed(3)}):`);
    for (const b of t.bins) if (b.count) console.log(`  ${b.lo.toFixed(1)}–${b.hi.toFixed(1)}: ${String(b.count).padStart(5)} ${key === "reliability" ? "proposals" : "elements"}, mean confidence ${b.meanConfidence!.toFixed(3)}, precision ${b.precision!.toFixed(3)}`);
  }
}
// The model's own inference (onnxruntime-node, 2 threads, decoding included), per screen of the sample (they range from
// ~0.2 to ~8 Mpixel): the full-resolution pass alone (the hybrid's) and with the coarse pass (the model alone's).
for (const [pass, xs] of Object.entries(inferMs)) {
  const ms = xs.map((x) => x.ms).sort((a, b) => a - b);
  const per = xs.map((x) => x.ms / x.mpix).sort((a, b) => a - b);
  const q = (v: number[], p: number) => v[Math.min(v.length - 1, Math.floor(p * v.length))]!;
  ((out.model_inference ??= {}) as Record<string, unknown>)[pass] = { screens: ms.length, median_ms: round(q(ms, 0.5), 1), p95_ms: round(q(ms, 0.95), 1), median_ms_per_mpixel: round(q(per, 0.5), 1), ms_at_1920x1080_estimate: round(q(per, 0.5) * 2.0736, 1) };
  console.log(`${pass === "full" ? "\n" : ""}model inference, ${pass === "full" ? "full resolution" : "with the coarse pass"}: median ${q(ms, 0.5).toFixed(1)} ms, p95 ${q(ms, 0.95).toFixed(1)} ms over ${ms.length} screens; ${q(per, 0.5).toFixed(1)} ms per Mpixel (≈ ${(q(per, 0.5) * 2.0736).toFixed(0)} ms at 1920×1080)`);
}
console.log(`result: ${writeResult("detect-families", out)}`);
await Promise.all([tess.close(), pp.close(), model.close(), fineModel.close()]);
