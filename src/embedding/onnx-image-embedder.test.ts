import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tinyVisionModel } from "../../test/support/onnx-writer.js";
import { ProviderUnavailableError } from "../core/errors.js";
import { makeFrame } from "../core/frame.js";
import { OnnxImageEmbedder } from "./onnx-image-embedder.js";

const tmp = mkdtempSync(join(tmpdir(), "rpav-onnx-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("ONNX image embedder (CLIP-family, local folder)", () => {
  it("loads a model the test builds, preprocesses like CLIP and returns its embedding", async () => {
    const dir = join(tmp, "tiny-clip");
    mkdirSync(dir);
    const W = Float32Array.from([1, 0, 0, 2, 0, 1, 0, 0, 0, 0, 1, -1]); // 3 × 4
    writeFileSync(join(dir, "vision_model.onnx"), tinyVisionModel(8, W, 4));
    writeFileSync(join(dir, "preprocessor_config.json"), JSON.stringify({ crop_size: 8, image_mean: [0.5, 0.5, 0.5], image_std: [0.5, 0.5, 0.5] }));
    const e = await OnnxImageEmbedder.load(dir);
    expect(e.name).toBe("clip-onnx:tiny-clip");
    expect(e.dimensions).toBe(4);
    // A solid colour (r, g, b) = (255, 0, 127.5): normalised channel means (1, -1, ~0).
    const px = [255, 0, 128, 255];
    const frame = makeFrame({ data: Uint8Array.from({ length: 20 * 10 * 4 }, (_, i) => px[i % 4] as number), width: 20, height: 10, channels: 4 });
    const v = await e.embed(frame);
    const m = [1, -1, 128 / 127.5 - 1];
    const want = [0, 1, 2, 3].map((j) => (m[0] as number) * (W[j] as number) + (m[1] as number) * (W[4 + j] as number) + (m[2] as number) * (W[8 + j] as number));
    Array.from(v).forEach((x, j) => expect(x).toBeCloseTo(want[j] as number, 4));
  });

  it("a missing folder, or one without a model, is ProviderUnavailableError naming the path", async () => {
    await expect(OnnxImageEmbedder.load(join(tmp, "nope"))).rejects.toThrow(ProviderUnavailableError);
    await expect(OnnxImageEmbedder.load(join(tmp, "nope"))).rejects.toThrow(join(tmp, "nope"));
    const empty = join(tmp, "empty");
    mkdirSync(empty);
    await expect(OnnxImageEmbedder.load(empty)).rejects.toThrow(/has no vision_model.onnx/);
    const broken = join(tmp, "broken");
    mkdirSync(broken);
    writeFileSync(join(broken, "model.onnx"), "not a model");
    await expect(OnnxImageEmbedder.load(broken)).rejects.toThrow(/Cannot load .*model\.onnx/);
  });
});
