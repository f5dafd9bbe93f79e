import { describe, expect, it } from "vitest";
import { cosine } from "../core/vectors.js";
import { fixedProjection, poolOverlapping, unitMaps } from "./pooled-maps.js";

const rand = (seed: number) => () => ((seed = (Math.imul(seed, 1103515245) + 12345) | 0), (seed >>> 0) / 4294967296);
const dot = (a: ArrayLike<number>, b: ArrayLike<number>) => Array.from(a).reduce((s, x, i) => s + x * (b[i] as number), 0);

describe("pooled maps and fixed projections", () => {
  it("pools into overlapping cells: a one-cell shift of a spot moves the pooled map only partly", () => {
    const spot = (x: number) => Float32Array.from({ length: 32 * 8 }, (_, i) => (i % 32 === x ? 1 : 0));
    const a = poolOverlapping(spot(9), 32, 8, 8, 2);
    const b = poolOverlapping(spot(11), 32, 8, 8, 2);
    expect(cosine(a, b)).toBeGreaterThan(0.4);
  });

  it("each map is centred and unit: the cosine of two descriptors is the mean correlation of their maps; a flat map is zeros", () => {
    const r = rand(3);
    const m = Float32Array.from({ length: 64 * 36 }, r);
    const f = unitMaps(64, 36, [{ map: m, cols: 8, rows: 4 }, { map: new Float32Array(64 * 36).fill(0.5), cols: 4, rows: 2 }]);
    expect(Math.abs(dot(f.subarray(0, 32), f.subarray(0, 32)) - 1)).toBeLessThan(1e-5);
    expect(Math.abs(f.subarray(0, 32).reduce((s, x) => s + x, 0))).toBeLessThan(1e-5);
    expect(Array.from(f.subarray(32))).toEqual(new Array(8).fill(0));
  });

  it("keeps inner products exactly when the descriptor is shorter than the dimension; two seeds do not line up", () => {
    const r = rand(7);
    const a = Float32Array.from({ length: 100 }, () => r() - 0.5);
    const b = Float32Array.from({ length: 100 }, () => r() - 0.5);
    const p = fixedProjection(128, 1);
    expect(dot(p(a), p(b))).toBeCloseTo(dot(a, b), 4);
    expect(dot(p(a), p(a))).toBeCloseTo(dot(a, a), 4);
    expect(Math.abs(cosine(p(a), fixedProjection(128, 2)(a)))).toBeLessThan(0.35);
  });
});
