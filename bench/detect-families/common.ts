// The detect-families bench's screens (run.ts) and its diagnostics (misses.ts): a deterministic sample of each family of
// the model's data manifest, split as training/detector/common.py splits them (train families' validation screens, held
// families), the dev corpus when built, and the large-toggle pages (training kits, a variant never trained on).
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BBox } from "../../src/core/geometry.js";
import { AccentLexicon, HybridOcr } from "../../src/perception/hybrid-ocr.js";
import { DETECTOR_RESTORE_COMMAND, LearnedDetector } from "../../src/perception/learned-detector.js";
import { CachedOcr } from "../../src/perception/ocr-cache.js";
import { PpOcr } from "../../src/perception/ppocr-ocr.js";
import { TesseractOcr } from "../../src/perception/tesseract-ocr.js";
import { UIElementDetector } from "../../src/perception/ui-element-detector.js";
import { LogisticRulesGate } from "../../src/perception/rules-gate.js";
import { benchHybridModel } from "../lib.js";
import { CORPUS_DIR, readCorpus } from "../corpus/build.js";
import { BENCH_TOGGLE_PAGES, familySample, pageIndices, splitter } from "../../training/fold-split.js";
import { htmlPageId } from "../../training/gen/gen-html.js";
import { matched } from "../../training/gate/screens.js";

export const DATA = join(import.meta.dirname, "..", "..", "training", "data");

export interface Screen {
  id: string;
  family: string;
  split: "train" | "held" | "dev" | "toggles";
  image: string;
  scale: number;
  elements: Array<{ type: string; bbox: BBox; label?: string }>;
}

export interface ModelFiles {
  meta: { fold: string; figures: { held_families: string[] }; data_manifest_sha256: string };
  manifest: { files: Array<{ id: string; family: string; subfamily: string }> };
}

export function readModelFiles(modelDir: string): ModelFiles {
  return {
    meta: JSON.parse(readFileSync(join(modelDir, "ui-detector.json"), "utf8")) as ModelFiles["meta"],
    manifest: JSON.parse(readFileSync(join(modelDir, "data-manifest.json"), "utf8")) as ModelFiles["manifest"],
  };
}

/** The sample: `perFamily` screens a family, only the splits in `sets` when given (held left out while changing code). */
export function benchScreens({ meta, manifest }: ModelFiles, perFamily: number, sets?: readonly string[]): Screen[] {
  const screens: Screen[] = [];
  const readGenerated = (family: string, id: string) => JSON.parse(readFileSync(join(DATA, family, `${id}.json`), "utf8")) as { image: string; variant: { scale?: number }; elements: Screen["elements"] };
  for (const { split, family: fam, files } of familySample(manifest.files, splitter(meta.figures.held_families), perFamily)) {
    for (const f of files) {
      if (!existsSync(join(DATA, f.family, `${f.id}.json`))) continue;
      const m = readGenerated(f.family, f.id);
      screens.push({ id: f.id, family: fam, split: split === "held" ? "held" : "train", image: join(DATA, f.family, m.image), scale: m.variant.scale ?? 1, elements: m.elements });
    }
  }
  // The dev corpus as a whole (its figures before the learned detector were tuned on it by the rules). When the model's data
  // manifest holds it (family dev/<source>), the learned detector was trained on most of it too: its "dev" rows are then
  // trained-on figures for both detectors, and only the dev families the fold holds out count as held (above).
  for (const it of readCorpus().filter((_, i) => i % Math.max(1, Math.round(96 / perFamily)) === 0))
    screens.push({ id: it.id, family: `dev/${it.source}`, split: "dev", image: join(CORPUS_DIR, it.image), scale: it.variant.scale, elements: it.elements });
  // Pages of large toggles (1.5–2.6 times their caption's letters; training kits, a variant the model never saw and the
  // gate was not fitted on: fold-split.ts BENCH_TOGGLE_PAGES), on a row of their own, out of the means.
  for (const i of pageIndices(BENCH_TOGGLE_PAGES)) {
    const id = htmlPageId(i);
    if (!existsSync(join(DATA, "html", `${id}.json`))) continue;
    const m = readGenerated("html", id);
    screens.push({ id, family: "html/large-toggles", split: "toggles", image: join(DATA, "html", m.image), scale: m.variant.scale ?? 1, elements: m.elements });
  }
  return sets ? screens.filter((s) => sets.includes(s.split)) : screens;
}

/** One-to-one matches at IoU ≥ 0.5, best IoU first (the gate's fit's rule): the pairs (truth index, prediction index). */
export function matchOneToOne(gts: ReadonlyArray<{ bbox: BBox }>, preds: ReadonlyArray<{ bbox: BBox }>): Array<{ g: number; p: number }> {
  return [...matched(gts.map((g) => g.bbox), preds.map((p) => p.bbox)).pairs].map(([g, p]) => ({ g, p }));
}

/** The detectors the bench compares, composed as the product composes them, on one hybrid OCR (cached under
 * RPAV_BENCH_OCR_CACHE when set): the rules alone, the model alone (with its coarse pass), the hybrid ungated and the
 * product's gated hybrid (`gated`, absent when the model folder has no gate). Close `pp`, `tess`, `model`, `fineModel`. */
export async function benchDetectors(modelDir: string) {
  const pp = await PpOcr.create();
  const tess = await TesseractOcr.create();
  const ocr = new CachedOcr(new HybridOcr(pp, tess, AccentLexicon.load()), { dir: process.env.RPAV_BENCH_OCR_CACHE ?? mkdtempSync(join(tmpdir(), "rpav-bench-ocr-")) });
  const model = await LearnedDetector.create({ modelDir });
  // The model alone with its coarse pass merged in, the hybrid with the pass's boxes where nothing else stands (variants:
  // lib.ts benchHybridModel).
  const hybridModel = benchHybridModel();
  const fineModel = await LearnedDetector.create({ modelDir, coarse: hybridModel.coarse });
  const fills = hybridModel.fills ? { fills: fineModel } : {};
  const rules = new UIElementDetector({ ocr });
  const learned = new UIElementDetector({ ocr, proposer: model });
  // The product's `--detector hybrid` without its gate: the union, with the model's boxes on the rules' drawn edges where they overlap.
  const hybrid = new UIElementDetector({ ocr, proposer: fineModel, keepRules: true, ...fills });
  // The product's hybrid: the rules' extras through models/ui-detector/rules-gate.json (fitted on the calibration split of
  // the training families).
  const rulesGate = LogisticRulesGate.load(modelDir, DETECTOR_RESTORE_COMMAND);
  const gated = rulesGate ? new UIElementDetector({ ocr, proposer: fineModel, keepRules: true, rulesGate, ...fills }) : undefined;
  return { pp, tess, ocr, model, fineModel, rules, learned, hybrid, gated };
}
