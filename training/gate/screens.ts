// What the gate's fit and the confidence recalibration share: the screens they read (the calibration split of the
// training families, training/detector/common.py split_of: never trained on by the model, no held family, whose files
// are on disk) and how their elements are matched to the true ones.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { bboxIoU, type BBox } from "../../src/core/geometry.js";
import { splitter, type ManifestScreen } from "../fold-split.js";

/** The calibration screens of the model in `modelDir` found under `dataDir` (the first `limit` when given); exits with what to run when none is. */
export function calibrationScreens(modelDir: string, dataDir: string, limit?: string): ManifestScreen[] {
  const meta = JSON.parse(readFileSync(join(modelDir, "ui-detector.json"), "utf8")) as { figures: { held_families: string[] } };
  const manifest = JSON.parse(readFileSync(join(modelDir, "data-manifest.json"), "utf8")) as { files: ManifestScreen[] };
  const splitOf = splitter(meta.figures.held_families);
  const calib = manifest.files.filter((f) => splitOf(f) === "calib" && existsSync(join(dataDir, f.family, `${f.id}.json`)));
  const screens = limit ? calib.slice(0, Number(limit)) : calib;
  if (!screens.length) {
    console.error("No calibration screens under training/data: generate them first (npm run train -- bench-screens: the benches' screens, minutes; npm run train -- data: the whole data set, hours).");
    process.exit(1);
  }
  return screens;
}

/**
 * One-to-one matches at IoU ≥ 0.5, best first: indices of the truths and of the predictions matched, and which
 * prediction each matched truth took.
 */
export function matched(truth: readonly BBox[], preds: readonly BBox[]): { truths: Set<number>; preds: Set<number>; pairs: Map<number, number> } {
  const candidates: Array<[number, number, number]> = [];
  truth.forEach((g, gi) => preds.forEach((p, pi) => {
    const iou = bboxIoU(g, p);
    if (iou >= 0.5) candidates.push([gi, pi, iou]);
  }));
  candidates.sort((a, b) => b[2] - a[2]);
  const pairs = new Map<number, number>();
  const ps = new Set<number>();
  for (const [g, p] of candidates) {
    if (pairs.has(g) || ps.has(p)) continue;
    pairs.set(g, p);
    ps.add(p);
  }
  return { truths: new Set(pairs.keys()), preds: ps, pairs };
}
