// The folded PP-OCR graphs committed in models/ppocr (training/ocr/fold_ppocr.py): they compute
// what the shipped graphs compute, up to float rounding, with far fewer nodes; they are used only
// when folded from the very files shipped.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as ort from "onnxruntime-node";
import { afterAll, describe, expect, it } from "vitest";
import { defaultPpOcrModelDir, foldedPpOcrModelDir, loadPpOcrModel, PpOcr } from "./ppocr-ocr.js";

const so = { intraOpNumThreads: 1, interOpNumThreads: 1, graphOptimizationLevel: "all" as const };

/**
 * A fixed input: rows of dark strokes of pseudo-random widths on a light ground (text enough
 * for the detector to answer), plus a little noise.
 */
function input(dims: number[]): ort.Tensor {
  const [, c, h, w] = dims as [number, number, number, number];
  const x = new Float32Array(c * h * w);
  let s = 12345;
  const rnd = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
  const ink = new Uint8Array(h * w);
  for (let y0 = 8; y0 + 16 < h; y0 += 32) for (let x0 = 4; x0 + 4 < w; x0 += 3 + Math.floor(rnd() * 5)) for (let y = y0; y < y0 + 14; y++) ink[y * w + x0] = rnd() < 0.9 ? 1 : 0;
  for (let k = 0; k < c; k++) for (let i = 0; i < h * w; i++) x[k * h * w + i] = (ink[i] ? -0.8 : 0.9) + (rnd() - 0.5) * 0.1;
  return new ort.Tensor("float32", x, dims);
}

async function maxDiff(a: Uint8Array, b: Uint8Array, dims: number[]): Promise<{ diff: number; scale: number }> {
  const [sa, sb] = await Promise.all([ort.InferenceSession.create(a, so), ort.InferenceSession.create(b, so)]);
  const x = input(dims);
  const ya = (await sa.run({ [sa.inputNames[0]!]: x }))[sa.outputNames[0]!]!.data as Float32Array;
  const yb = (await sb.run({ [sb.inputNames[0]!]: x }))[sb.outputNames[0]!]!.data as Float32Array;
  expect(yb.length).toBe(ya.length);
  let diff = 0;
  let scale = 0;
  for (let i = 0; i < ya.length; i++) {
    diff = Math.max(diff, Math.abs(ya[i]! - yb[i]!));
    scale = Math.max(scale, Math.abs(ya[i]!));
  }
  return { diff, scale };
}

const shippedFile = (f: string) => join(defaultPpOcrModelDir(), f);
const tmp: string[] = [];
afterAll(() => {
  for (const d of tmp) rmSync(d, { recursive: true, force: true });
});

describe("the folded PP-OCR graphs (models/ppocr)", () => {
  for (const [name, file, dims] of [
    ["recognizer", "ch_PP-OCRv4_rec_infer.onnx", [1, 3, 48, 320]],
    ["detector", "ch_PP-OCRv4_det_infer.onnx", [1, 3, 96, 160]],
  ] as const) {
    it(`the ${name}: folded from the shipped file, fewer nodes, the same outputs up to rounding`, async () => {
      const manifest = JSON.parse(readFileSync(join(foldedPpOcrModelDir(), "manifest.json"), "utf8")) as { models: Record<string, { conv_affine: number; hard_swish: number; affine_into_conv: number; nodes_before: number; nodes_after: number }> };
      const m = manifest.models[file]!;
      expect(Math.min(m.conv_affine, m.hard_swish, m.affine_into_conv)).toBeGreaterThanOrEqual(20);
      expect(m.nodes_after).toBeLessThan(m.nodes_before * 0.7);
      const loaded = loadPpOcrModel(shippedFile(file), true);
      expect(loaded.folded, loaded.reason).toBe(true);
      const shipped = new Uint8Array(readFileSync(shippedFile(file)));
      expect(Buffer.from(loaded.bytes).equals(Buffer.from(shipped))).toBe(false);
      const { diff, scale } = await maxDiff(shipped, loaded.bytes, [...dims]);
      expect(scale).toBeGreaterThan(0.1);
      expect(diff).toBeLessThan(1e-4);
    });
  }

  it("runs the shipped graph when the folded one was made from other bytes, is damaged, or is missing", () => {
    const file = "ch_PP-OCRv4_det_infer.onnx";
    const dir = mkdtempSync(join(tmpdir(), "rpav-fold-"));
    tmp.push(dir);
    const src = join(dir, file);
    writeFileSync(src, Buffer.concat([readFileSync(shippedFile(file)), Buffer.from([0])]));
    const other = loadPpOcrModel(src, true);
    expect(other.folded).toBe(false);
    expect(other.reason).toContain("npm run train -- ppocr-fold");
    // A copy of models/ppocr whose folded file is damaged.
    const folded = join(dir, "folded");
    rmSync(folded, { recursive: true, force: true });
    mkdirSync(folded);
    copyFileSync(join(foldedPpOcrModelDir(), "manifest.json"), join(folded, "manifest.json"));
    writeFileSync(join(folded, "ch_PP-OCRv4_det_folded.onnx"), "not a model");
    const damaged = loadPpOcrModel(shippedFile(file), true, folded);
    expect([damaged.folded, damaged.reason.includes("changed or damaged")]).toEqual([false, true]);
    rmSync(join(folded, "ch_PP-OCRv4_det_folded.onnx"));
    expect(loadPpOcrModel(shippedFile(file), true, folded).reason).toContain("missing");
    expect(loadPpOcrModel(shippedFile(file), true, join(dir, "nowhere")).reason).toContain("no ");
    expect(loadPpOcrModel(shippedFile(file), false).folded).toBe(false);
  });

  it("PP-OCR loads its graphs folded unless asked not to", async () => {
    const [folded, shipped] = await Promise.all([PpOcr.create({ workers: 0 }), PpOcr.create({ workers: 0, fold: false })]);
    expect([folded.folded, shipped.folded]).toEqual([true, false]);
    await Promise.all([folded.close(), shipped.close()]);
  });
});
