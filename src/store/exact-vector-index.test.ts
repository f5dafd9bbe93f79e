import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { VectorError } from "../core/errors.js";
import { ExactVectorIndex } from "./exact-vector-index.js";

describe("exact vector index", () => {
  it("the SIMD search returns the same neighbours as the plain reference loop", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 400 }), fc.integer({ min: 1, max: 64 }), fc.integer(), (n, dim, seed) => {
        let x = seed | 1;
        const r = () => ((x = (Math.imul(x, 1103515245) + 12345) | 0), (x >>> 0) / 4294967296 - 0.5);
        const idx = new ExactVectorIndex(dim, 4);
        for (let i = 0; i < n; i++) idx.add(`v${i}`, Float32Array.from({ length: dim }, () => r() + 1e-3));
        const q = Float32Array.from({ length: dim }, () => r() + 1e-3);
        const fast = idx.search(q, 10);
        const ref = idx.searchReference(q, 10);
        expect(fast.length).toBe(ref.length);
        fast.forEach((h, i) => expect(h.score).toBeCloseTo((ref[i] as { score: number }).score, 4));
      }),
      { numRuns: 100 },
    );
  });

  it("refuses zero vectors and wrong dimensions", () => {
    const idx = new ExactVectorIndex(3);
    expect(() => idx.add("z", Float32Array.from([0, 0, 0]))).toThrow(VectorError);
    expect(() => idx.add("d", Float32Array.from([1, 0]))).toThrow(/dimension 2; expected 3/);
    expect(idx.search(Float32Array.from([1, 0, 0]), 5)).toEqual([]);
  });
});

describe("approximate search breadth", () => {
  it("widens the usearch search for large indexes, as measured in bench/store", async () => {
    const { defaultExpansionSearch } = await import("./vector-search.js");
    expect(defaultExpansionSearch(100_000)).toBe(96);
    expect(defaultExpansionSearch(1_000_000)).toBe(256);
  });
});
