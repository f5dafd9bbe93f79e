import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { screenStateArb } from "../../test/support/arbitraries.js";
import { InvalidInputError, StoreError } from "../core/errors.js";
import { readDocumentAs, writeDocument } from "../core/schemas/documents.js";
import { EMBEDDING_COMPONENT_KEYS } from "../core/schemas/screenstate.js";
import { l2Norm } from "../core/vectors.js";
import { NpyVectorFiles } from "./npy-vector-files.js";

/** Deterministic pseudo-random vector in [-1, 1) (xorshift32), cheaper to generate than 512 arbitrary floats. */
function seededVector(seed: number, dim: number): Float32Array {
  let x = seed | 0 || 1;
  return Float32Array.from({ length: dim }, () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 31 - 1;
  });
}

const root = mkdtempSync(join(tmpdir(), "rpav-vec-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("vectors as .npy files", () => {
  it("property 36: after a ScreenState JSON round trip, every embedding rebuilt from its vector_id is identical (L2 < 0.001)", async () => {
    const files = new NpyVectorFiles(root);
    await fc.assert(
      fc.asyncProperty(screenStateArb(fc.constant("complete")), fc.integer(), async (state, seed) => {
        const base = seededVector(seed, 512);
        const ids = [state.state_embedding.vector_id, ...EMBEDDING_COMPONENT_KEYS.map((k) => state.state_embedding.components?.[k].vector_id as string)];
        // Several ids may name one file ("a//b.npy" and "a/b.npy"): key by path, the last write wins.
        const originals = new Map<string, Float32Array>();
        for (const [k, id] of ids.entries()) {
          const v = base.map((x) => x * (k + 1));
          originals.set(files.pathOf(id), v);
          await files.save(id, v);
        }
        const back = readDocumentAs("screenstate_v1", writeDocument(state));
        const rebuiltIds = [back.state_embedding.vector_id, ...EMBEDDING_COMPONENT_KEYS.map((k) => back.state_embedding.components?.[k].vector_id as string)];
        for (const id of rebuiltIds) {
          const got = await files.load(id);
          const want = originals.get(files.pathOf(id)) as Float32Array;
          expect(l2Norm(got.map((x, i) => x - (want[i] as number)))).toBeLessThan(0.001);
        }
      }),
      { numRuns: 100 },
    );
  });

  it("refuses vector ids that escape the data folder", () => {
    const files = new NpyVectorFiles(root);
    expect(() => files.pathOf("../../etc/passwd.npy")).toThrow(InvalidInputError);
    expect(() => files.pathOf("/abs/x.npy")).toThrow(InvalidInputError);
    expect(() => files.pathOf("data/x.txt")).toThrow(/ending in .npy/);
  });

  it("a missing vector file is a StoreError naming the path", async () => {
    await expect(new NpyVectorFiles(root).load("data/none.npy")).rejects.toThrow(StoreError);
    await expect(new NpyVectorFiles(root).load("data/none.npy")).rejects.toThrow(/no such file/);
  });

  it("refuses to save NaN", async () => {
    await expect(new NpyVectorFiles(root).save("data/nan.npy", Float32Array.from([1, NaN]))).rejects.toThrow(/non-finite/);
  });
});
