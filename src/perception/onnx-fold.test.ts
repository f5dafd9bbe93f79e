import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as ort from "onnxruntime-node";
import { describe, expect, it } from "vitest";
import { foldPpOcrModel } from "./onnx-fold.js";
import { defaultPpOcrModelDir, PpOcr } from "./ppocr-ocr.js";

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

const model = (f: string) => new Uint8Array(readFileSync(join(defaultPpOcrModelDir(), f)));

describe("folding PP-OCR's exported graphs", () => {
  // The detector's Clip takes its bounds as inputs (opset 11), the recognizer's as attributes (9).
  for (const [name, file, dims] of [
    ["recognizer", "ch_PP-OCRv4_rec_infer.onnx", [1, 3, 48, 320]],
    ["detector", "ch_PP-OCRv4_det_infer.onnx", [1, 3, 96, 160]],
  ] as const) {
    it(`folds the ${name}'s affine and hard-swish chains, with the same outputs up to rounding`, async () => {
      const shipped = model(file);
      const { model: folded, report } = foldPpOcrModel(shipped);
      expect(report.convAffine).toBeGreaterThanOrEqual(20);
      expect(report.hardSwish).toBeGreaterThanOrEqual(20);
      expect(report.affineIntoConv).toBeGreaterThanOrEqual(20);
      expect(report.nodesAfter).toBeLessThan(report.nodesBefore * 0.7);
      const { diff, scale } = await maxDiff(shipped, folded, [...dims]);
      expect(scale).toBeGreaterThan(0.1);
      expect(diff).toBeLessThan(1e-4);
    });
  }

  it("leaves a graph of another shape computing what it computed, and refuses what is not a model", async () => {
    const cls = model("ch_ppocr_mobile_v2.0_cls_infer.onnx");
    const { model: folded } = foldPpOcrModel(cls);
    const { diff } = await maxDiff(cls, folded, [1, 3, 48, 192]);
    expect(diff).toBeLessThan(1e-5);
    // A Node Buffer (as readFileSync gives) folds as its bytes do.
    expect(Buffer.from(foldPpOcrModel(readFileSync(join(defaultPpOcrModelDir(), "ch_ppocr_mobile_v2.0_cls_infer.onnx"))).model).equals(Buffer.from(folded))).toBe(true);
    expect(() => foldPpOcrModel(new Uint8Array([0x0a, 0xff, 0xff, 0x01]))).toThrow();
    expect(() => foldPpOcrModel(new TextEncoder().encode("not a model"))).toThrow();
  });

  it("PP-OCR loads its graphs folded unless asked not to", async () => {
    const [folded, shipped] = await Promise.all([PpOcr.create({ workers: 0 }), PpOcr.create({ workers: 0, fold: false })]);
    expect([folded.folded, shipped.folded]).toEqual([true, false]);
    await Promise.all([folded.close(), shipped.close()]);
  });
});
