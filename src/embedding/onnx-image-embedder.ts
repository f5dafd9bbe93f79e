// ImageEmbedder for CLIP-family vision encoders exported to ONNX, loaded from a local folder the
// user chooses (nothing is downloaded). The folder holds `vision_model.onnx` (or `model.onnx`) and,
// optionally, Hugging Face's `preprocessor_config.json` (crop size, mean, std); CLIP's values are
// the defaults. Runs on CPU with onnxruntime-node.
import { existsSync, readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import sharp from "sharp";
import { ProviderUnavailableError, VectorError } from "../core/errors.js";
import type { Frame } from "../core/frame.js";
import type { ImageEmbedder } from "../core/providers/embedders.js";
import type { Vector } from "../core/vectors.js";
import type * as OrtModule from "onnxruntime-node";
import type { InferenceSession } from "onnxruntime-node";
import { cpuSessionOptions, loadOnnxRuntime } from "../core/onnx-runtime.js";

const CLIP_MEAN = [0.48145466, 0.4578275, 0.40821073];
const CLIP_STD = [0.26862954, 0.26130258, 0.27577711];

interface Preprocess {
  size: number;
  mean: number[];
  std: number[];
}

type Ort = typeof OrtModule;

function readPreprocess(dir: string): Preprocess {
  const file = join(dir, "preprocessor_config.json");
  if (!existsSync(file)) return { size: 224, mean: CLIP_MEAN, std: CLIP_STD };
  let cfg: { crop_size?: number | { height: number }; size?: number | { shortest_edge?: number; height?: number }; image_mean?: number[]; image_std?: number[] };
  try {
    cfg = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw new ProviderUnavailableError(`${file} is not valid JSON: ${(e as Error).message}.`, { cause: e, details: { path: file } });
  }
  const crop = typeof cfg.crop_size === "number" ? cfg.crop_size : cfg.crop_size?.height;
  const size = typeof cfg.size === "number" ? cfg.size : (cfg.size?.shortest_edge ?? cfg.size?.height);
  return { size: crop ?? size ?? 224, mean: cfg.image_mean ?? CLIP_MEAN, std: cfg.image_std ?? CLIP_STD };
}

export class OnnxImageEmbedder implements ImageEmbedder {
  readonly name: string;

  private constructor(
    private readonly ort: Ort,
    private readonly session: InferenceSession,
    private readonly pre: Preprocess,
    readonly dimensions: number,
    folder: string,
  ) {
    this.name = `clip-onnx:${basename(folder)}`;
  }

  /** Loads the model of `dir`; ProviderUnavailableError naming the path when it is not usable. */
  static async load(dir: string): Promise<OnnxImageEmbedder> {
    if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new ProviderUnavailableError(`Model folder ${dir} does not exist: point --model-dir at a folder with vision_model.onnx.`, { details: { path: dir } });
    const model = ["vision_model.onnx", "model.onnx"].map((f) => join(dir, f)).find((f) => existsSync(f));
    if (!model) throw new ProviderUnavailableError(`Model folder ${dir} has no vision_model.onnx or model.onnx.`, { details: { path: dir } });
    const ort: Ort = await loadOnnxRuntime();
    const pre = readPreprocess(dir);
    let session: InferenceSession;
    try {
      session = await ort.InferenceSession.create(model, cpuSessionOptions(2));
    } catch (e) {
      throw new ProviderUnavailableError(`Cannot load ${model}: ${(e as Error).message}`, { cause: e, details: { path: model } });
    }
    // Run once on a blank image to learn the embedding dimension.
    const probe = new OnnxImageEmbedder(ort, session, pre, 0, dir);
    const out = await probe.run(new Float32Array(3 * pre.size * pre.size));
    return new OnnxImageEmbedder(ort, session, pre, out.length, dir);
  }

  private async run(chw: Float32Array): Promise<Vector> {
    const input = this.session.inputNames[0] as string;
    const feeds = { [input]: new this.ort.Tensor("float32", chw, [1, 3, this.pre.size, this.pre.size]) };
    const outputs = await this.session.run(feeds);
    const name = this.session.outputNames.includes("image_embeds") ? "image_embeds" : (this.session.outputNames[0] as string);
    const t = outputs[name];
    if (!t || t.type !== "float32") throw new VectorError(`Model output "${name}" is not a float32 tensor.`);
    const data = t.data as Float32Array;
    // [1, D], or [1, T, D] (take the first token, CLIP's pooled position).
    const d = t.dims[t.dims.length - 1] as number;
    return Float32Array.from(data.subarray(0, d));
  }

  async embed(frame: Frame): Promise<Vector> {
    const s = this.pre.size;
    // Resize the shortest side to `size`, centre-crop a square (CLIP's preprocessing).
    const rgb = await sharp(frame.data, { raw: { width: frame.width, height: frame.height, channels: frame.channels } })
      .removeAlpha()
      .resize(s, s, { fit: "cover", position: "centre", kernel: "cubic" })
      .raw()
      .toBuffer();
    const chw = new Float32Array(3 * s * s);
    for (let i = 0; i < s * s; i++)
      for (let c = 0; c < 3; c++) chw[c * s * s + i] = ((rgb[i * 3 + c] as number) / 255 - (this.pre.mean[c] as number)) / (this.pre.std[c] as number);
    return this.run(chw);
  }
}
