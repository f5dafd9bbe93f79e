// Embedding bench on the dev corpus (npm run corpus first).
// Run: npm run bench -- embed
//  - property 13: "same screen, light variation" pairs (colour shift, ±10 % size, ±20 px shift,
//    window moved) should have cosine >= 0.85;
//  - property 14: pairs of different screens should have cosine <= 0.70;
//  - ROC AUC of same vs different;
//  - step retrieval top-1 when the live screen is dark theme or ×2 scale and the recording light ×1;
//  - time per state embedding, per comparison, and top-1 retrieval over 100,000 stored steps.
// Two settings are reported: "image" (light mode, the layout descriptor alone) and "complete"
// (all five components); in "complete" the detected text is read by the product's OCR.
import { join } from "node:path";
import sharp from "sharp";
import { readImageFile, decodeImage } from "../../src/capture/png.js";
import type { Frame } from "../../src/core/frame.js";
import { cosine } from "../../src/core/vectors.js";
import { LayoutImageEmbedder } from "../../src/embedding/layout-image-embedder.js";
import { MultiModalEmbeddingManager } from "../../src/embedding/multimodal-embedding-manager.js";
import { NgramTextEmbedder } from "../../src/embedding/ngram-text-embedder.js";
import { embedPyramid } from "../../src/embedding/zoom-pyramid.js";
import { ExactVectorIndex } from "../../src/store/exact-vector-index.js";
import { CORPUS_DIR, readCorpus, type CorpusItem } from "../corpus/build.js";
import { BENCH_RESULTS, percentile, round, writeResult } from "../lib.js";
import { CachedOcr } from "../../src/perception/ocr-cache.js";
import { AccentLexicon, HybridOcr } from "../../src/perception/hybrid-ocr.js";
import { PpOcr } from "../../src/perception/ppocr-ocr.js";
import { TesseractOcr } from "../../src/perception/tesseract-ocr.js";

const DIM = 512;
const items = readCorpus();
if (items.length === 0) {
  console.error("The corpus is empty: run `npm run corpus` first.");
  process.exit(1);
}
const manager = new MultiModalEmbeddingManager(new LayoutImageEmbedder(DIM), new NgramTextEmbedder(DIM));
const png = (it: CorpusItem) => join(CORPUS_DIR, it.image);
// Detected text: the product's OCR (PP-OCR + tesseract for accents) read from each corpus image,
// cached under bench/results/ocr-cache; RPAV_BENCH_TEXT=gt uses the ground-truth words instead
// (the upper bound measured before perception existed). Variations of a screen (colour, size,
// shift) reuse the text read on the original screen.
const TEXT_SOURCE = process.env.RPAV_BENCH_TEXT === "gt" ? "gt" : "ocr";
const ocrTexts = new Map<string, string[]>();
if (TEXT_SOURCE === "ocr") {
  const tess = await TesseractOcr.create();
  const ocr = new CachedOcr(new HybridOcr(await PpOcr.create(), tess, AccentLexicon.load()), { dir: join(BENCH_RESULTS, "ocr-cache") });
  let n = 0;
  for (const it of items) {
    const r = await ocr.recognize(await readImageFile(join(CORPUS_DIR, it.image)));
    ocrTexts.set(it.id, r.lines.map((l) => l.text));
    process.stdout.write(`\r  OCR ${++n}/${items.length}`);
  }
  process.stdout.write("\n");
  await tess.close();
}
const words = (it: CorpusItem) => (TEXT_SOURCE === "gt" ? [it.words.map((w) => w.text).join(" ")] : (ocrTexts.get(it.id) ?? []));
const title = (it: CorpusItem) => `${it.source} ${it.page}`.replace(/[-_/]/g, " ");

type Setting = "image" | "complete";
const embedTimes: number[] = [];
async function embed(frame: Frame, it: CorpusItem, setting: Setting): Promise<Float32Array> {
  const t0 = performance.now();
  const e = await manager.embed({ frame, detectedText: words(it), windowTitle: title(it) }, setting === "image" ? "light" : "complete");
  embedTimes.push(performance.now() - t0);
  return e.vector;
}

/** Light variations of a screenshot (property 13). Window moves only for desktop (GTK) shots. */
async function variations(it: CorpusItem): Promise<Array<[string, Frame]>> {
  const file = png(it);
  const meta = await sharp(file).metadata();
  const w = meta.width as number;
  const h = meta.height as number;
  const out: Array<[string, Buffer]> = [
    ["colour", await sharp(file).modulate({ hue: 25, brightness: 0.92, saturation: 1.25 }).png().toBuffer()],
    ["size-10", await sharp(file).resize(Math.round(w * 0.9), Math.round(h * 0.9)).png().toBuffer()],
    ["size+10", await sharp(file).resize(Math.round(w * 1.1), Math.round(h * 1.1)).png().toBuffer()],
    // Content shifted by 20 px: what comes into view continues the edge pixels (as a scrolled page does).
    ["shift+20", await sharp(file).extend({ left: 20, top: 20, extendWith: "copy" }).extract({ left: 0, top: 0, width: w, height: h }).png().toBuffer()],
    ["shift-20", await sharp(file).extract({ left: 20, top: 20, width: w - 20, height: h - 20 }).extend({ right: 20, bottom: 20, extendWith: "copy" }).png().toBuffer()],
  ];
  if (it.source === "gtk") {
    // The window moved by (+240, +120) on the desktop: the content shifts over the desktop colour.
    const corner = await sharp(file).extract({ left: 0, top: 0, width: 1, height: 1 }).raw().toBuffer();
    const bg = { r: corner[0] as number, g: corner[1] as number, b: corner[2] as number };
    out.push(["window-moved", await sharp(file).extend({ left: 240, top: 120, background: bg }).extract({ left: 0, top: 0, width: w, height: h }).png().toBuffer()]);
  }
  return Promise.all(out.map(async ([k, b]) => [k, await decodeImage(b, `${it.id}:${k}`)] as [string, Frame]));
}

function auc(pos: number[], neg: number[]): number {
  let wins = 0;
  const n = neg.slice().sort((a, b) => a - b);
  for (const p of pos) {
    let lo = 0;
    let hi = n.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((n[mid] as number) < p) lo = mid + 1;
      else hi = mid;
    }
    let eq = lo;
    while (eq < n.length && n[eq] === p) eq++;
    wins += lo + (eq - lo) / 2;
  }
  return wins / (pos.length * n.length);
}

/** Fills each row's top-1 rate; returns the overall hits and total. */
function tally(rows: Record<string, { hits: number; total: number; top1: number }>): [number, number] {
  let hits = 0;
  let total = 0;
  for (const r of Object.values(rows)) {
    r.top1 = round(r.hits / r.total, 3);
    hits += r.hits;
    total += r.total;
  }
  return [hits, total];
}

const recorded = items.filter((i) => i.id.endsWith("-light-1x"));
const results: Record<string, unknown> = { corpus_screenshots: items.length, recorded_screens: recorded.length, detected_text: TEXT_SOURCE === "gt" ? "ground-truth words" : "OCR (ppocr + tesseract)" };
for (const setting of ["image", "complete"] as const) {
  console.log(`\n== ${setting}`);
  const base = new Map<string, Float32Array>();
  for (const it of recorded) base.set(it.id, await embed(await readImageFile(png(it)), it, setting));
  // Property 13.
  const same: Record<string, number[]> = {};
  for (const it of recorded) {
    for (const [kind, frame] of await variations(it)) {
      (same[kind] ??= []).push(cosine(base.get(it.id) as Float32Array, await embed(frame, it, setting)));
    }
  }
  const allSame = Object.values(same).flat();
  // Property 14: different pages (same source or not).
  const diff: number[] = [];
  for (let i = 0; i < recorded.length; i++)
    for (let j = i + 1; j < recorded.length; j++) diff.push(cosine(base.get((recorded[i] as CorpusItem).id) as Float32Array, base.get((recorded[j] as CorpusItem).id) as Float32Array));
  const fracSame = allSame.filter((c) => c >= 0.85).length / allSame.length;
  const fracDiff = diff.filter((c) => c <= 0.7).length / diff.length;
  // Retrieval under theme and scale change: against the whole recorded screens, and against the
  // zoom pyramid (whole + top-left ×1.5 and ×2 crops) that `rpav match` records.
  const pyramid = new Map<string, Float32Array[]>();
  for (const it of recorded) {
    const vs = await embedPyramid(manager, { frame: await readImageFile(png(it)), textBoxes: it.words, windowTitle: title(it) }, setting === "image" ? "light" : "complete");
    pyramid.set(it.id, vs.map((v) => v.vector));
  }
  const pyr: Record<string, { hits: number; total: number; top1: number }> = {};
  const retrieval: Record<string, { hits: number; total: number; top1: number }> = {};
  for (const q of items.filter((i) => !i.id.endsWith("-light-1x"))) {
    const key = q.id.replace(/-(dark-1x|light-2x|dark-2x)$/, "-light-1x");
    if (!base.has(key)) continue;
    const v = await embed(await readImageFile(png(q)), q, setting);
    let best = "";
    let bestSim = -2;
    for (const [id, b] of base) {
      const s = cosine(v, b);
      if (s > bestSim) {
        bestSim = s;
        best = id;
      }
    }
    const kind = q.id.match(/-(dark-1x|light-2x|dark-2x)$/)?.[1] as string;
    const r = (retrieval[kind] ??= { hits: 0, total: 0, top1: 0 });
    r.total++;
    if (best === key) r.hits++;
    let pBest = "";
    let pSim = -2;
    for (const [id, vs] of pyramid)
      for (const b of vs) {
        const s = cosine(v, b);
        if (s > pSim) {
          pSim = s;
          pBest = id;
        }
      }
    const p = (pyr[kind] ??= { hits: 0, total: 0, top1: 0 });
    p.total++;
    if (pBest === key) p.hits++;
  }
  const [pHits, pTotal] = tally(pyr);
  const [hits, total] = tally(retrieval);
  const perKind = Object.fromEntries(Object.entries(same).map(([k, v]) => [k, { pairs: v.length, frac_ge_085: round(v.filter((c) => c >= 0.85).length / v.length, 3), median: round(percentile(v.slice().sort((a, b) => a - b), 50), 3) }]));
  results[setting] = {
    same_pairs: allSame.length,
    same_frac_ge_085: round(fracSame, 3),
    same_per_variation: perKind,
    different_pairs: diff.length,
    different_frac_le_070: round(fracDiff, 3),
    roc_auc: round(auc(allSame, diff), 4),
    retrieval_top1: round(hits / total, 3),
    retrieval_per_change: retrieval,
    retrieval_top1_zoom_pyramid: round(pHits / pTotal, 3),
    retrieval_zoom_pyramid_per_change: pyr,
  };
  console.log(`property 13: ${round(fracSame, 3)} of ${allSame.length} same-screen pairs have cosine >= 0.85`, perKind);
  console.log(`property 14: ${round(fracDiff, 3)} of ${diff.length} different-screen pairs have cosine <= 0.70`);
  console.log(`ROC AUC ${round(auc(allSame, diff), 4)}; retrieval top-1 under theme/scale change ${round(hits / total, 3)} (${hits}/${total})`, retrieval);
  console.log(`retrieval top-1 with the zoom pyramid ${round(pHits / pTotal, 3)} (${pHits}/${pTotal})`, pyr);
}

// Speed.
const sortedEmbed = embedTimes.slice().sort((a, b) => a - b);
const a = Float32Array.from({ length: DIM }, () => Math.random() - 0.5);
const b = Float32Array.from({ length: DIM }, () => Math.random() - 0.5);
let t0 = performance.now();
let sink = 0;
for (let i = 0; i < 100_000; i++) sink += cosine(a, b);
const perComparisonUs = ((performance.now() - t0) / 100_000) * 1000;
const index = new ExactVectorIndex(DIM, 100_000);
for (let i = 0; i < 100_000; i++) index.add(`step${i}`, Float32Array.from({ length: DIM }, () => Math.random() - 0.5));
const retrievalMs: number[] = [];
for (let i = 0; i < 50; i++) {
  t0 = performance.now();
  index.search(a, 1);
  retrievalMs.push(performance.now() - t0);
}
retrievalMs.sort((x, y) => x - y);
results.speed = {
  state_embedding_ms: { median: round(percentile(sortedEmbed, 50), 2), p95: round(percentile(sortedEmbed, 95), 2), n: sortedEmbed.length },
  comparison_us: round(perComparisonUs, 3),
  top1_over_100k_steps_ms: { median: round(percentile(retrievalMs, 50), 2), p95: round(percentile(retrievalMs, 95), 2) },
};
console.log(`\nstate embedding: median ${round(percentile(sortedEmbed, 50), 1)} ms (p95 ${round(percentile(sortedEmbed, 95), 1)}); comparison ${round(perComparisonUs, 2)} µs; top-1 over 100k steps ${round(percentile(retrievalMs, 50), 2)} ms ${sink > 1e9 ? "" : ""}`);
writeResult("embed", results);
