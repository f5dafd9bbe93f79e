import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tinyTextModel } from "../../test/support/onnx-writer.js";
import { ProviderUnavailableError } from "../core/errors.js";
import { BpeTokenizer } from "./bpe-tokenizer.js";
import { OnnxTextEmbedder } from "./onnx-text-embedder.js";

const tmp = mkdtempSync(join(tmpdir(), "rpav-onnx-text-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A tiny CLIP-style BPE tokenizer: characters, a few merges, end-of-word suffix, special tokens. */
const TOKENIZER = {
  added_tokens: [
    { id: 0, content: "<|startoftext|>" },
    { id: 1, content: "<|endoftext|>" },
  ],
  model: {
    type: "BPE",
    end_of_word_suffix: "</w>",
    unk_token: "<unk>",
    vocab: { "<unk>": 2, v: 3, a: 4, l: 5, i: 6, d: 7, e: 8, "r</w>": 9, va: 10, li: 11, de: 12, "valider</w>": 13, "é</w>": 14, "Ã": 15, "©</w>": 16 },
    merges: ["v a", "l i", "d e", "de r</w>", "va li", "vali der</w>"],
  },
};

describe("ONNX text embedder (CLIP-family, local folder)", () => {
  it("tokenizes with BPE merges, special tokens and the byte-level alphabet", () => {
    const t = new BpeTokenizer(TOKENIZER);
    expect(t.encode("Valider")).toEqual([0, 13, 1]);
    // The end-of-word suffix sticks to the last character: "i</w>" is not "i", so "l i" does not merge.
    expect(t.encode("vali")).toEqual([0, 10, 5, 2, 1]);
    // "é" is two UTF-8 bytes (C3 A9), written "Ã©" in the byte-level alphabet.
    expect(t.encode("é")).toEqual([0, 15, 16, 1]);
    expect(t.encode("x")).toEqual([0, 2, 1]);
  });

  it("loads a model the test builds and returns the mean of the token rows", async () => {
    const dir = join(tmp, "tiny-clip");
    mkdirSync(dir);
    const V = 17;
    const D = 3;
    const E = Float32Array.from({ length: V * D }, (_, i) => (i % 7) - 3);
    writeFileSync(join(dir, "text_model.onnx"), tinyTextModel(E, V, D));
    writeFileSync(join(dir, "tokenizer.json"), JSON.stringify(TOKENIZER));
    const e = await OnnxTextEmbedder.load(dir);
    expect(e.dimensions).toBe(3);
    expect(e.name).toBe("clip-text-onnx:tiny-clip");
    const v = await e.embed("Valider");
    const ids = [0, 13, 1];
    const want = [0, 1, 2].map((j) => ids.reduce((s, id) => s + (E[id * D + j] as number), 0) / ids.length);
    Array.from(v).forEach((x, j) => expect(x).toBeCloseTo(want[j] as number, 5));
  });

  it("a missing folder or file is ProviderUnavailableError naming the path", async () => {
    await expect(OnnxTextEmbedder.load(join(tmp, "none"))).rejects.toThrow(ProviderUnavailableError);
    const half = join(tmp, "half");
    mkdirSync(half);
    writeFileSync(join(half, "text_model.onnx"), "x");
    await expect(OnnxTextEmbedder.load(half)).rejects.toThrow(/has no tokenizer\.json/);
  });
});
