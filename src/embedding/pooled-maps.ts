// Shared by the weight-free image and layout descriptors: maps pooled into coarse cells, each
// centred and scaled to unit norm (the cosine of two such maps is their correlation), and a fixed
// projection to the configured dimension.
import type { Vector } from "../core/vectors.js";

export interface MapSpec {
  map: Float32Array;
  cols: number;
  rows: number;
}

/**
 * Mean of each cell of a cols×rows partition of a gw×gh map, every cell widened by half a cell on
 * each side (neighbouring cells overlap, so a small shift moves each value a little, never a
 * whole cell's worth).
 */
export function poolOverlapping(map: Float32Array, gw: number, gh: number, cols: number, rows: number): Float32Array {
  // Integral image: any rectangle's sum in O(1).
  const ii = new Float64Array((gw + 1) * (gh + 1));
  for (let y = 0; y < gh; y++) {
    let run = 0;
    for (let x = 0; x < gw; x++) {
      run += map[y * gw + x] as number;
      ii[(y + 1) * (gw + 1) + x + 1] = (ii[y * (gw + 1) + x + 1] as number) + run;
    }
  }
  const sum = (x1: number, y1: number, x2: number, y2: number) => (ii[y2 * (gw + 1) + x2] as number) - (ii[y1 * (gw + 1) + x2] as number) - (ii[y2 * (gw + 1) + x1] as number) + (ii[y1 * (gw + 1) + x1] as number);
  const out = new Float32Array(cols * rows);
  const cw = gw / cols;
  const ch = gh / rows;
  for (let r = 0; r < rows; r++)
    for (let q = 0; q < cols; q++) {
      const x1 = Math.max(0, Math.floor((q - 0.5) * cw));
      const x2 = Math.min(gw, Math.ceil((q + 1.5) * cw));
      const y1 = Math.max(0, Math.floor((r - 0.5) * ch));
      const y2 = Math.min(gh, Math.ceil((r + 1.5) * ch));
      out[r * cols + q] = sum(x1, y1, x2, y2) / Math.max(1, (x2 - x1) * (y2 - y1));
    }
  return out;
}

/** Pools each map, centres it and scales it to unit norm (all zeros when it is flat), and concatenates them. */
export function unitMaps(gw: number, gh: number, specs: readonly MapSpec[]): Float32Array {
  const total = specs.reduce((a, s) => a + s.cols * s.rows, 0);
  const out = new Float32Array(total);
  let o = 0;
  for (const s of specs) {
    const p = poolOverlapping(s.map, gw, gh, s.cols, s.rows);
    let mean = 0;
    for (const v of p) mean += v;
    mean /= p.length;
    let ss = 0;
    for (const v of p) ss += (v - mean) ** 2;
    const norm = Math.sqrt(ss);
    // Flat (nothing there, or the same everywhere): no information, no direction.
    if (norm > 1e-6 * p.length) for (let i = 0; i < p.length; i++) out[o + i] = ((p[i] as number) - mean) / norm;
    o += p.length;
  }
  return out;
}

/** Deterministic uniform numbers in (0, 1) from a seed (mulberry32). */
function uniforms(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) + 0.5) / 4294967296;
  };
}

/**
 * A fixed linear map from `features`-dimensional descriptors to `dim` dimensions, drawn from a seed.
 * With features ≤ dim its rows are orthonormal (Gram–Schmidt on Gaussian vectors): inner products,
 * hence cosines, are kept exactly. With more features than dimensions it is a scaled Gaussian
 * projection (cosines kept up to about 1/√dim). Different seeds give unrelated maps, so two
 * components fused into one vector do not line up coordinate by coordinate.
 */
export function projectionMatrix(dim: number, features: number, seed: number): Float32Array {
  const rand = uniforms(seed);
  const gauss = () => Math.sqrt(-2 * Math.log(rand())) * Math.cos(2 * Math.PI * rand());
  const m = new Float64Array(features * dim); // one dim-long column per feature
  for (let i = 0; i < m.length; i++) m[i] = gauss();
  if (features <= dim) {
    for (let f = 0; f < features; f++) {
      const col = f * dim;
      for (let g = 0; g < f; g++) {
        const prev = g * dim;
        let dot = 0;
        for (let i = 0; i < dim; i++) dot += (m[col + i] as number) * (m[prev + i] as number);
        for (let i = 0; i < dim; i++) m[col + i] = (m[col + i] as number) - dot * (m[prev + i] as number);
      }
      let n = 0;
      for (let i = 0; i < dim; i++) n += (m[col + i] as number) ** 2;
      n = Math.sqrt(n);
      for (let i = 0; i < dim; i++) m[col + i] = (m[col + i] as number) / n;
    }
  } else {
    const s = 1 / Math.sqrt(dim);
    for (let i = 0; i < m.length; i++) m[i] = (m[i] as number) * s;
  }
  return Float32Array.from(m);
}

/** Matrices already drawn, by dimension, descriptor length and seed (drawing one takes tens of ms). */
const MATRICES = new Map<string, Float32Array>();

/** Projects descriptors to `dim` dimensions with `projectionMatrix` (drawn once per dimension, descriptor length and seed). */
export function fixedProjection(dim: number, seed: number): (f: Float32Array) => Vector {
  return (f) => {
    const key = `${dim}:${f.length}:${seed}`;
    let m = MATRICES.get(key);
    if (!m) MATRICES.set(key, (m = projectionMatrix(dim, f.length, seed)));
    const out = new Float32Array(dim);
    for (let j = 0; j < f.length; j++) {
      const v = f[j] as number;
      if (v === 0) continue;
      const col = j * dim;
      for (let i = 0; i < dim; i++) out[i] = (out[i] as number) + v * (m[col + i] as number);
    }
    return out;
  };
}
