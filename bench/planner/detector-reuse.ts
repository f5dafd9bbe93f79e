// What one detector per plan saves per item: building the product's detector (PP-OCR sessions,
// word lists) and its first, cold detection, against a detection by a detector already used on
// another screen; real screens (a committed yad list and a crop of it). `npx tsx bench/planner/detector-reuse.ts [runs]`;
// prints a line per run and writes bench/results/planner-detector-reuse.json.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readImageFile } from "../../src/capture/png.js";
import { cropFrame } from "../../src/core/frame.js";
import { createDetector } from "../../src/cli/commands/perception.js";

const runs = Number(process.argv[2] ?? 3);
const root = new URL("../../", import.meta.url).pathname;
const frame = await readImageFile(join(root, "test/fixtures/screens/yad-list.png"));
// Another screen for the measured detection (the detector's in-memory OCR cache must not answer it).
const other = cropFrame(frame, [0, 0, 520, 300]);
const rows: Array<{ create_ms: number; cold_detect_ms: number; warm_detect_ms: number }> = [];
for (let i = 0; i < runs; i++) {
  // Per item before: a new detector, its first detection cold.
  const t0 = performance.now();
  const fresh = await createDetector({ ocr: "ppocr" }, undefined, false);
  const t1 = performance.now();
  await fresh.detector.detect(other, { autoScale: true });
  const t2 = performance.now();
  await fresh.close();
  // Per item now: the plan's detector, already used on an earlier screen.
  const kept = await createDetector({ ocr: "ppocr" }, undefined, false);
  await kept.detector.detect(frame, { autoScale: true });
  const t3 = performance.now();
  await kept.detector.detect(other, { autoScale: true });
  const t4 = performance.now();
  await kept.close();
  const r = { create_ms: Math.round(t1 - t0), cold_detect_ms: Math.round(t2 - t1), warm_detect_ms: Math.round(t4 - t3) };
  rows.push(r);
  console.log(`run ${i + 1}: build ${r.create_ms} ms + cold detection ${r.cold_detect_ms} ms (a new detector per item) vs warm detection ${r.warm_detect_ms} ms (one per plan) → ${r.create_ms + r.cold_detect_ms - r.warm_detect_ms} ms saved per item`);
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const saved = median(rows.map((r) => r.create_ms + r.cold_detect_ms - r.warm_detect_ms));
console.log(`median saved per item: ${saved} ms (${runs} runs)`);
mkdirSync(join(root, "bench/results"), { recursive: true });
writeFileSync(join(root, "bench/results/planner-detector-reuse.json"), `${JSON.stringify({ runs: rows, median_saved_ms: saved }, null, 2)}\n`);
