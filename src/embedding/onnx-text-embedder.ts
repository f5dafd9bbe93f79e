// TextEmbedder for CLIP-family text encoders exported to ONNX, from the same local model folder as
// the image encoder: `text_model.onnx` and `tokenizer.json`. Runs on CPU with onnxruntime-node.
import { existsSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import type * as OrtModule from "onnxruntime-node";
import type { InferenceSession } from "onnxruntime-node";
import { ProviderUnavailableError, VectorError } from "../core/errors.js";
import type { TextEmbedder } from "../core/providers/embedders.js";
import type { Vector } from "../core/vectors.js";
import { BpeTokenizer } from "./bpe-tokenizer.js";
import { cpuSessionOptions, loadOnnxRuntime } from "../core/onnx-runtime.js";

export class OnnxTextEmbedder implements TextEmbedder {
  readonly name: string;

  private constructor(
    private readonly ort: typeof OrtModule,
    private readonly session: InferenceSession,
    private readonly tokenizer: BpeTokenizer,
    readonly dimensions: number,
    folder: string,
  ) {
    this.name = `clip-text-onnx:${basename(folder)}`;
  }

  static async load(dir: string): Promise<OnnxTextEmbedder> {
    if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new ProviderUnavailableError(`Model folder ${dir} does not exist: point --model-dir at a folder with text_model.onnx and tokenizer.json.`, { details: { path: dir } });
    const model = join(dir, "text_model.onnx");
    const tok = join(dir, "tokenizer.json");
    for (const f of [model, tok]) if (!existsSync(f)) throw new ProviderUnavailableError(`Model folder ${dir} has no ${basename(f)}.`, { details: { path: dir } });
    const ort: typeof OrtModule = await loadOnnxRuntime();
    let session: InferenceSession;
    try {
      session = await ort.InferenceSession.create(model, cpuSessionOptions(2));
    } catch (e) {
      throw new ProviderUnavailableError(`Cannot load ${model}: ${(e as Error).message}`, { cause: e, details: { path: model } });
    }
    const tokenizer = BpeTokenizer.load(tok);
    const probe = new OnnxTextEmbedder(ort, session, tokenizer, 0, dir);
    const dim = (await probe.embed("a")).length;
    return new OnnxTextEmbedder(ort, session, tokenizer, dim, dir);
  }

  async embed(text: string): Promise<Vector> {
    const ids = this.tokenizer.encode(text);
    const feeds: Record<string, OrtModule.Tensor> = {};
    for (const name of this.session.inputNames) {
      if (name === "attention_mask") feeds[name] = new this.ort.Tensor("int64", BigInt64Array.from(ids, () => 1n), [1, ids.length]);
      else feeds[name] = new this.ort.Tensor("int64", BigInt64Array.from(ids, (v) => BigInt(v)), [1, ids.length]);
    }
    const outputs = await this.session.run(feeds);
    const name = this.session.outputNames.includes("text_embeds") ? "text_embeds" : (this.session.outputNames[0] as string);
    const t = outputs[name];
    if (!t || t.type !== "float32") throw new VectorError(`Model output "${name}" is not a float32 tensor.`);
    const d = t.dims[t.dims.length - 1] as number;
    const data = t.data as Float32Array;
    // [1, D]; or [1, T, D]: CLIP pools at the end token (the last one here).
    const offset = t.dims.length === 3 ? ((t.dims[1] as number) - 1) * d : 0;
    return Float32Array.from(data.subarray(offset, offset + d));
  }
}
