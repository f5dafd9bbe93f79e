import { VectorError } from "./errors.js";

export type Vector = Float32Array;

/** Throws VectorError when any value is NaN or ±Infinity; `what` names the vector in the message. */
export function assertFinite(v: ArrayLike<number>, what = "vector"): void {
  for (let i = 0; i < v.length; i++) {
    const x = v[i] as number;
    if (!Number.isFinite(x)) throw new VectorError(`${what} has a non-finite value (${x}) at index ${i}.`, { details: { index: i } });
  }
}

export function assertDimension(v: ArrayLike<number>, dim: number, what = "vector"): void {
  if (v.length !== dim) throw new VectorError(`${what} has dimension ${v.length}; expected ${dim}.`, { details: { got: v.length, expected: dim } });
}

/** Float32 copy of any numeric array, checked finite. */
export function toVector(values: ArrayLike<number>, what = "vector"): Vector {
  assertFinite(values, what);
  return Float32Array.from(values as ArrayLike<number>);
}

export function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) throw new VectorError(`Cannot combine vectors of dimension ${a.length} and ${b.length}.`, { details: { a: a.length, b: b.length } });
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i] as number) * (b[i] as number);
  return s;
}

export function l2Norm(v: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += (v[i] as number) * (v[i] as number);
  return Math.sqrt(s);
}

/**
 * Unit-length copy. A zero vector cannot be normalized: it comes back as zeros with
 * `zero: true` so the caller can flag it (design fallback 3) instead of dividing by 0.
 */
export function l2Normalize(v: ArrayLike<number>, what = "vector"): { vector: Vector; zero: boolean } {
  assertFinite(v, what);
  const n = l2Norm(v);
  const out = new Float32Array(v.length);
  if (n === 0) return { vector: out, zero: true };
  for (let i = 0; i < v.length; i++) out[i] = (v[i] as number) / n;
  return { vector: out, zero: false };
}

/**
 * Cosine similarity in [-1, 1]. Mismatched dimensions and non-finite values throw; a zero
 * vector on either side throws too (its similarity is undefined; returning 0 would hide a bug).
 */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  assertFinite(a, "first vector");
  assertFinite(b, "second vector");
  const d = dot(a, b);
  const na = l2Norm(a);
  const nb = l2Norm(b);
  if (na === 0 || nb === 0) throw new VectorError("Cosine similarity of a zero vector is undefined.");
  return Math.max(-1, Math.min(1, d / (na * nb)));
}

export interface WeightedComponent {
  name: string;
  vector: ArrayLike<number>;
  weight: number;
}

export interface FusionResult {
  vector: Vector;
  /** Components that were all zeros (failed or empty) and contributed nothing. */
  zeroComponents: string[];
}

/**
 * Weighted fusion: each component is L2-normalised, scaled by its weight, summed, and the sum
 * is L2-normalised again. All components must have dimension `dim`. Throws VectorError when
 * nothing non-zero remains (no unit vector can be made from it).
 */
export function fuseWeighted(components: readonly WeightedComponent[], dim: number): FusionResult {
  const out = new Float64Array(dim);
  const zeroComponents: string[] = [];
  for (const c of components) {
    assertDimension(c.vector, dim, `component "${c.name}"`);
    if (!(c.weight >= 0) || !Number.isFinite(c.weight)) throw new VectorError(`Weight of component "${c.name}" must be a finite number >= 0, got ${c.weight}.`);
    const { vector, zero } = l2Normalize(c.vector, `component "${c.name}"`);
    if (zero || c.weight === 0) {
      if (zero) zeroComponents.push(c.name);
      continue;
    }
    for (let i = 0; i < dim; i++) out[i] = (out[i] as number) + c.weight * (vector[i] as number);
  }
  const { vector, zero } = l2Normalize(out, "fused vector");
  if (zero) throw new VectorError(`Fusion produced a zero vector: every weighted component is zero (${components.map((c) => c.name).join(", ")}).`);
  return { vector, zeroComponents };
}

/** The logistic function, 1 / (1 + e^−x). */
export function sigmoid(x: number): number {
  return 1 / (1 + Math.exp(-x));
}

/** The log-odds of a probability, clamped to [1e-6, 1 − 1e-6] first so that 0 and 1 stay finite (the inverse of sigmoid). */
export function logit(p: number): number {
  const q = Math.min(1 - 1e-6, Math.max(1e-6, p));
  return Math.log(q / (1 - q));
}

/** The median of some numbers (the upper one of an even count), 0 for none. The inputs are not reordered. */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) return 0;
  return [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
}
