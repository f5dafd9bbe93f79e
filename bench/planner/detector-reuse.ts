// What one detector per plan saves per item: the time to build the product's detector (PP-OCR
// sessions, word lists) and its first detection (session warm-up) against a later detection with
// the same detector, on a committed real screen (a yad list). `npx tsx bench/planner/detector-reuse.ts [runs]`;
// prints a line per run and writes bench/results/planner-detector-reuse.json.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readImageFile } from "../../src/capture/png.js";
import { createDetector } from "../../src/cli/commands/perception.js";

const runs = Number(process.argv[2] ?? 3);
const root = new URL("../../", import.meta.url).pathname;
const frame = await readImageFile(join(root, "test/fixtures/screens/yad-list.png"));
const rows: Array<{ create_ms: number; first_detect_ms: number; later_detect_ms: number }> = [];
for (let i = 0; i < runs; i++) {
  const t0 = performance.now();
  const { detector, close } = await createDetector({ ocr: "ppocr" }, undefined, false);
  const t1 = performance.now();
  await detector.detect(frame, { autoScale: true });
  const t2 = performance.now();
  await detector.detect(frame, { autoScale: true });
  const t3 = performance.now();
  await close();
  const r = { create_ms: Math.round(t1 - t0), first_detect_ms: Math.round(t2 - t1), later_detect_ms: Math.round(t3 - t2) };
  rows.push(r);
  console.log(`run ${i + 1}: build ${r.create_ms} ms, first detection ${r.first_detect_ms} ms, later detection ${r.later_detect_ms} ms → saved per item by reuse ≈ ${r.create_ms + r.first_detect_ms - r.later_detect_ms} ms`);
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const saved = median(rows.map((r) => r.create_ms + r.first_detect_ms - r.later_detect_ms));
console.log(`median saved per item: ${saved} ms (${runs} runs)`);
mkdirSync(join(root, "bench/results"), { recursive: true });
writeFileSync(join(root, "bench/results/planner-detector-reuse.json"), `${JSON.stringify({ runs: rows, median_saved_ms: saved }, null, 2)}\n`);
