// Diagnostic (not a bench): what the product's detector (the gated hybrid, as detect-families runs it) gets wrong on the
// bench's sample, per family — the misses (true elements nothing matches at IoU ≥ 0.5, with the detection nearest them),
// the type errors and the false positives (with the true element nearest them), and how each was found
// (`detection_method`). For deciding changes on the train families; held families only with SETS=held, once, at the end.
// Run: SETS=train,toggles npx tsx bench/detect-families/misses.ts
//   N=<screens per family> (default 12), FAM=<substring of a family>, ID=<substring of a screen id>,
//   V=1 lists every miss / type error / false positive, RPAV_BENCH_OCR_CACHE=<dir> as the bench.
import { bboxIoU, type BBox } from "../../src/core/geometry.js";
import { readImageFile } from "../../src/capture/png.js";
import { defaultDetectorModelDir } from "../../src/perception/learned-detector.js";
import { FAMILY_SAMPLE } from "../../training/fold-split.js";
import { benchDetectors, benchScreens, matchOneToOne, readModelFiles } from "./common.js";

const modelDir = defaultDetectorModelDir();
const sets = (process.env.SETS ?? "train,toggles").split(",");
const screens = benchScreens(readModelFiles(modelDir), Number(process.env.N ?? FAMILY_SAMPLE), sets).filter(
  (s) => s.family.includes(process.env.FAM ?? "") && s.id.includes(process.env.ID ?? ""),
);
const { pp, tess, model, fineModel, gated } = await benchDetectors(modelDir);
if (!gated) throw new Error("the model folder has no rules-gate.json");
const box = (b: BBox) => `[${b.map(Math.round).join(",")}]`;
const q = (s: string | undefined) => JSON.stringify((s ?? "").slice(0, 40));
const nearest = <T extends { bbox: BBox }>(b: BBox, xs: readonly T[]) => xs.reduce<{ x?: T; iou: number }>((best, x) => {
  const iou = bboxIoU(b, x.bbox);
  return iou > best.iou ? { x, iou } : best;
}, { iou: 0 });
const fam = new Map<string, { tp: number; fp: number; fn: number; typeOk: number }>();
const byMethod = new Map<string, { right: number; wrongType: number; fp: number }>();
const methodTally = (method: string) => {
  const m = byMethod.get(method) ?? { right: 0, wrongType: 0, fp: 0 };
  byMethod.set(method, m);
  return m;
};
const missByType = new Map<string, number>();
// Recall by what the generator drew (GTK's Switch and TextView, HTML's switch and textarea…), where the truth says.
const bySource = new Map<string, { found: number; all: number }>();
for (const s of screens) {
  const frame = await readImageFile(s.image, { scaleFactor: s.scale });
  const els = (await gated.detect(frame, { scale: s.scale })).elements;
  const pairs = matchOneToOne(s.elements, els);
  const t = fam.get(s.family) ?? { tp: 0, fp: 0, fn: 0, typeOk: 0 };
  fam.set(s.family, t);
  const gotG = new Map(pairs.map((p) => [p.g, p.p]));
  const gotP = new Set(pairs.map((p) => p.p));
  const lines: string[] = [];
  s.elements.forEach((g, gi) => {
    const pi = gotG.get(gi);
    const src = `${g.type}/${(g as { source?: string }).source ?? "?"}`;
    const sc = bySource.get(src) ?? { found: 0, all: 0 };
    bySource.set(src, { found: sc.found + (pi === undefined ? 0 : 1), all: sc.all + 1 });
    if (pi === undefined) {
      t.fn++;
      missByType.set(g.type, (missByType.get(g.type) ?? 0) + 1);
      const n = nearest(g.bbox, els);
      lines.push(`MISS ${g.type} ${box(g.bbox)} ${q(g.label)}  nearest: ${n.x ? `${n.x.type} ${box(n.x.bbox)} ${q(n.x.label)} iou ${n.iou.toFixed(2)} by ${n.x.detection_method}` : "none"}`);
      return;
    }
    t.tp++;
    const p = els[pi]!;
    const m = methodTally(p.detection_method);
    if (p.type === g.type) {
      t.typeOk++;
      m.right++;
    } else {
      m.wrongType++;
      lines.push(`TYPE ${g.type} → ${p.type} ${box(g.bbox)} ${q(g.label)} as ${q(p.label)} by ${p.detection_method}`);
    }
  });
  els.forEach((p, pi) => {
    if (gotP.has(pi)) return;
    t.fp++;
    const m = methodTally(p.detection_method);
    m.fp++;
    const n = nearest(p.bbox, s.elements);
    lines.push(`FP   ${p.type} ${box(p.bbox)} ${q(p.label)} by ${p.detection_method} conf ${p.confidence.toFixed(2)}  nearest: ${n.x ? `${n.x.type} ${box(n.x.bbox)} ${q(n.x.label)} iou ${n.iou.toFixed(2)}` : "none"}`);
  });
  if (process.env.V) for (const l of [`== ${s.id} (${s.family}, ×${s.scale})`, ...lines]) console.log(l);
}
const f1 = (t: { tp: number; fp: number; fn: number }) => (2 * t.tp) / Math.max(1, 2 * t.tp + t.fp + t.fn);
console.log("\nfamily                  P     R     F1    type");
const f1s: number[] = [];
for (const [k, t] of [...fam].sort(([a], [b]) => a.localeCompare(b))) {
  f1s.push(f1(t));
  console.log(`${k.padEnd(22)} ${(t.tp / Math.max(1, t.tp + t.fp)).toFixed(3)} ${(t.tp / Math.max(1, t.tp + t.fn)).toFixed(3)} ${f1(t).toFixed(3)} ${(t.typeOk / Math.max(1, t.tp)).toFixed(3)}`);
}
console.log(`MEAN F1 ${(f1s.reduce((a, b) => a + b, 0) / Math.max(1, f1s.length)).toFixed(4)} over ${f1s.length} families`);
console.log("misses by type:", Object.fromEntries([...missByType].sort(([, a], [, b]) => b - a)));
console.log("recall by type/source:", [...bySource].sort(([, a], [, b]) => b.all - b.found - (a.all - a.found)).map(([k, v]) => `${k} ${v.found}/${v.all}`).join(", "));
for (const [k, m] of [...byMethod].sort(([, a], [, b]) => b.fp - a.fp)) console.log(`by method ${k.padEnd(24)} right ${m.right}, wrong type ${m.wrongType}, false positives ${m.fp}`);
await Promise.all([tess.close(), pp.close(), model.close(), fineModel.close()]);
