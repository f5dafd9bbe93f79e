import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RUNS } from "../../test/support/arbitraries.js";
import { VectorError } from "./errors.js";
import { cosine, fuseWeighted, l2Norm, l2Normalize, logit, median, sigmoid, toVector } from "./vectors.js";

const DIM = 64;
const vecArb = (dim: number) => fc.array(fc.double({ min: -10, max: 10, noNaN: true }), { minLength: dim, maxLength: dim });
const componentNames = ["image", "text", "title", "ui", "context"];
const weightsArb = fc.tuple(...componentNames.map(() => fc.double({ min: 0.01, max: 1, noNaN: true })));

describe("vectors", () => {
  it("property 11: a fused state embedding has L2 norm 1 ± 0.001", () => {
    fc.assert(
      fc.property(fc.tuple(...componentNames.map(() => vecArb(DIM))), weightsArb, (vectors, weights) => {
        fc.pre(vectors.some((v) => l2Norm(v) > 1e-6));
        const { vector } = fuseWeighted(componentNames.map((name, i) => ({ name, vector: vectors[i] as number[], weight: weights[i] as number })), DIM);
        expect(Math.abs(l2Norm(vector) - 1)).toBeLessThanOrEqual(0.001);
      }),
      RUNS,
    );
  });

  it("property 12: a fused state embedding always has the configured dimension", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1024 }).chain((dim) => fc.tuple(fc.constant(dim), fc.tuple(vecArb(dim), vecArb(dim)))), ([dim, [a, b]]) => {
        fc.pre(l2Norm(a) > 1e-6 || l2Norm(b) > 1e-6);
        const { vector } = fuseWeighted([{ name: "image", vector: a, weight: 0.5 }, { name: "text", vector: b, weight: 0.3 }], dim);
        expect(vector.length).toBe(dim);
      }),
      RUNS,
    );
  });

  it("flags zero components instead of dividing by zero (design fallback 3)", () => {
    const r = fuseWeighted([{ name: "image", vector: [1, 0], weight: 0.5 }, { name: "ui", vector: [0, 0], weight: 0.1 }], 2);
    expect(r.zeroComponents).toEqual(["ui"]);
    expect(Array.from(r.vector)).toEqual([1, 0]);
    expect(l2Normalize([0, 0, 0]).zero).toBe(true);
  });

  it("refuses a fusion where every component is zero", () => {
    expect(() => fuseWeighted([{ name: "image", vector: [0, 0], weight: 1 }], 2)).toThrow(VectorError);
  });

  it("rejects NaN, Infinity, mismatched dimensions and zero vectors in cosine", () => {
    expect(() => cosine([1, NaN], [1, 0])).toThrow(/non-finite value \(NaN\) at index 1/);
    expect(() => cosine([1, Infinity], [1, 0])).toThrow(VectorError);
    expect(() => cosine([1, 0, 0], [1, 0])).toThrow(/dimension 3 and 2/);
    expect(() => cosine([0, 0], [1, 0])).toThrow(/zero vector/);
    expect(() => fuseWeighted([{ name: "image", vector: [1, 2, 3], weight: 1 }], 2)).toThrow(/component "image" has dimension 3; expected 2/);
  });

  it("toVector copies to float32 and refuses non-finite values", () => {
    expect(toVector([1, 2.5])).toEqual(Float32Array.from([1, 2.5]));
    expect(() => toVector([1, Infinity], "embedding")).toThrow(/embedding has a non-finite value/);
  });

  it("cosine of known vectors", () => {
    expect(cosine([1, 0], [0, 1])).toBe(0);
    expect(cosine([1, 1], [2, 2])).toBeCloseTo(1, 12);
    expect(cosine([1, 0], [-1, 0])).toBe(-1);
  });
});

describe("median", () => {
  it("is the middle value (the upper of two for an even count), 0 for none, and leaves its input in order", () => {
    const xs = [5, 1, 3];
    expect(median(xs)).toBe(3);
    expect(xs).toEqual([5, 1, 3]);
    expect(median([4, 1, 2, 3])).toBe(3);
    expect(median([])).toBe(0);
  });
});

describe("sigmoid and logit", () => {
  it("are inverses, and logit keeps 0 and 1 finite (clamped to 1e-6 of them)", () => {
    for (const p of [0.01, 0.3, 0.5, 0.9]) expect(sigmoid(logit(p))).toBeCloseTo(p, 12);
    expect(sigmoid(0)).toBe(0.5);
    expect(logit(0)).toBeCloseTo(Math.log(1e-6 / (1 - 1e-6)), 12);
    expect(logit(1)).toBeCloseTo(-logit(0), 9);
    expect(Number.isFinite(logit(1.5))).toBe(true);
  });
});
