// Diagnostic for the detect bench (not a bench itself): for every ground-truth element, why it was
// missed — hit (IoU >= 0.5), near (0.2–0.5: the box convention differs), shape_unused (a region
// was proposed but not typed), text_only (only OCR text overlaps it), nothing — per source and
// type, and the false positives by type and detection method. Writes every row to
// bench/results/detect-misses.json. Run: npx tsx bench/detect/analyze.ts
//   RPAV_BENCH_OCR_CACHE=<dir> reuses OCR results between runs (default /tmp/rpav-ocr-cache).
import { join } from "node:path";
import { mkdirSync, writeFileSync } from "node:fs";
import { readImageFile } from "../../src/capture/png.js";
import { bboxIoU } from "../../src/core/geometry.js";
import { AccentLexicon, HybridOcr } from "../../src/perception/hybrid-ocr.js";
import { CachedOcr } from "../../src/perception/ocr-cache.js";
import { PpOcr } from "../../src/perception/ppocr-ocr.js";
import { TesseractOcr } from "../../src/perception/tesseract-ocr.js";
import { UIElementDetector } from "../../src/perception/ui-element-detector.js";
import { proposeShapes } from "../../src/perception/region-proposer.js";
import { toRgb } from "../../src/perception/raster.js";
import { CORPUS_DIR, readCorpus } from "../corpus/build.js";

const filter = process.env.RPAV_BENCH_FILTER ?? "";
const items = readCorpus().filter((it) => it.id.includes(filter));
const ocr = new CachedOcr(new HybridOcr(await PpOcr.create(), await TesseractOcr.create(), AccentLexicon.load()), { dir: process.env.RPAV_BENCH_OCR_CACHE ?? "/tmp/rpav-ocr-cache" });
const detector = new UIElementDetector({ ocr });
const counts: Record<string, Record<string, number>> = {};
const rows: unknown[] = [];
const fpCounts: Record<string, number> = {};
for (const it of items) {
  const frame = await readImageFile(join(CORPUS_DIR, it.image), { scaleFactor: it.variant.scale });
  const det = await detector.detect(frame, { appName: it.source, windowTitle: it.page });
  const shapes = proposeShapes(toRgb(frame), { scale: it.variant.scale });
  const lines = det.ocr?.lines ?? [];
  const usedP = new Set<number>();
  for (const g of it.elements) {
    let best = 0, bi = -1;
    det.elements.forEach((p, i) => { const v = bboxIoU(g.bbox, p.bbox); if (v > best) { best = v; bi = i; } });
    const shapeBest = Math.max(0, ...shapes.map((s) => bboxIoU(g.bbox, s.bbox)));
    const lineBest = Math.max(0, ...lines.map((l) => bboxIoU(g.bbox, l.bbox)), ...lines.flatMap((l) => l.words.map((w) => bboxIoU(g.bbox, w.bbox))));
    const status = best >= 0.5 ? "hit" : best >= 0.2 ? "near" : shapeBest >= 0.5 ? "shape_unused" : lineBest >= 0.3 ? "text_only" : "nothing";
    if (best >= 0.5) usedP.add(bi);
    const c = (counts[`${it.source}:${g.type}`] ??= {});
    c[status] = (c[status] ?? 0) + 1;
    const t = (counts[`ALL:${g.type}`] ??= {});
    t[status] = (t[status] ?? 0) + 1;
    rows.push({ id: it.id, type: g.type, label: g.label.slice(0, 40), bbox: g.bbox, role: g.source_role, status, best: Math.round(best * 100) / 100, pred: bi >= 0 ? { type: det.elements[bi]!.type, bbox: det.elements[bi]!.bbox, label: det.elements[bi]!.label.slice(0, 30) } : null, shapeBest: Math.round(shapeBest * 100) / 100, lineBest: Math.round(lineBest * 100) / 100 });
  }
  det.elements.forEach((p, i) => {
    if (usedP.has(i)) return;
    const best = Math.max(0, ...it.elements.map((g) => bboxIoU(g.bbox, p.bbox)));
    const k = `${it.source}:${p.type}:${p.detection_method}:${best >= 0.2 ? "near" : "none"}`;
    fpCounts[k] = (fpCounts[k] ?? 0) + 1;
    rows.push({ id: it.id, fp: true, type: p.type, method: p.detection_method, label: p.label.slice(0, 30), bbox: p.bbox, best: Math.round(best * 100) / 100 });
  });
  process.stdout.write(".");
}
console.log();
for (const [k, v] of Object.entries(counts).sort()) console.log(k.padEnd(36), JSON.stringify(v));
console.log("FP:");
for (const [k, v] of Object.entries(fpCounts).sort()) console.log(k.padEnd(36), v);
const outDir = join(import.meta.dirname, "..", "results");
mkdirSync(outDir, { recursive: true });
writeFileSync(join(outDir, "detect-misses.json"), JSON.stringify(rows));
console.log(`rows: ${join(outDir, "detect-misses.json")}`);
process.exit(0);
