// Exact nearest neighbours by brute force over a contiguous float32 matrix of unit vectors.
// The scan runs in usearch's SIMD exact search; the plain loop below is the reference it is
// tested against.
import { VectorError } from "../core/errors.js";
import type { VectorHit, VectorIndex } from "../core/providers/vector-index.js";
import { assertDimension, l2Normalize, type Vector } from "../core/vectors.js";
import { exactSearch, MetricKind, type Matches } from "usearch";

export class ExactVectorIndex implements VectorIndex {
  readonly kind = "exact" as const;
  private data: Float32Array;
  private ids: string[] = [];

  constructor(
    readonly dimensions: number,
    capacity = 1024,
  ) {
    this.data = new Float32Array(Math.max(1, capacity) * dimensions);
  }

  get size(): number {
    return this.ids.length;
  }

  add(id: string, vector: Vector): void {
    assertDimension(vector, this.dimensions, `vector ${id}`);
    const { vector: unit, zero } = l2Normalize(vector, `vector ${id}`);
    if (zero) throw new VectorError(`vector ${id} is all zeros and cannot be indexed for cosine search.`);
    if ((this.ids.length + 1) * this.dimensions > this.data.length) {
      const grown = new Float32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data.set(unit, this.ids.length * this.dimensions);
    this.ids.push(id);
  }

  search(query: Vector, k: number): VectorHit[] {
    assertDimension(query, this.dimensions, "query");
    const { vector: q, zero } = l2Normalize(query, "query");
    if (zero) throw new VectorError("The query vector is all zeros.");
    const n = this.ids.length;
    if (n === 0 || k <= 0) return [];
    const m = exactSearch(this.data.subarray(0, n * this.dimensions), q, this.dimensions, Math.min(k, n), MetricKind.Cos) as Matches;
    const out: VectorHit[] = [];
    for (let i = 0; i < m.keys.length; i++) out.push({ id: this.ids[Number(m.keys[i])] as string, score: Math.max(-1, Math.min(1, 1 - (m.distances[i] as number))) });
    return out;
  }

  /** The same search in plain JavaScript: the reference for tests. */
  searchReference(query: Vector, k: number): VectorHit[] {
    assertDimension(query, this.dimensions, "query");
    const { vector: q, zero } = l2Normalize(query, "query");
    if (zero) throw new VectorError("The query vector is all zeros.");
    const d = this.dimensions;
    const n = this.ids.length;
    const kk = Math.min(k, n);
    // Keep the best k in a small sorted array (k is small).
    const topScore = new Float64Array(kk).fill(-Infinity);
    const topIdx = new Int32Array(kk).fill(-1);
    const data = this.data;
    for (let i = 0; i < n; i++) {
      let s = 0;
      const o = i * d;
      for (let j = 0; j < d; j++) s += (data[o + j] as number) * (q[j] as number);
      if (kk > 0 && s > (topScore[kk - 1] as number)) {
        let p = kk - 1;
        while (p > 0 && s > (topScore[p - 1] as number)) {
          topScore[p] = topScore[p - 1] as number;
          topIdx[p] = topIdx[p - 1] as number;
          p--;
        }
        topScore[p] = s;
        topIdx[p] = i;
      }
    }
    const out: VectorHit[] = [];
    for (let p = 0; p < kk; p++) if ((topIdx[p] as number) >= 0) out.push({ id: this.ids[topIdx[p] as number] as string, score: Math.min(1, topScore[p] as number) });
    return out;
  }
}
