// Fused cosines for any fusion weights from the components alone, and the choice of weights on
// tuned-on families. The fused vector is normalise(Σ wᵢ uᵢ) with unit (or zero) components uᵢ,
// so cos(A, B) = wᵀ G_AB w / √(wᵀ G_AA w · wᵀ G_BB w), where G_AB[i][j] = ⟨aᵢ, bⱼ⟩: exact, and
// cheap enough to try thousands of weightings without embedding anything again.
import { COMPONENTS, screenWeights, type FusionWeights } from "../../src/embedding/multimodal-embedding-manager.js";

export type Components = readonly Float32Array[];
const K = COMPONENTS.length;

export function gram(a: Components, b: Components): Float64Array {
  const g = new Float64Array(K * K);
  for (let i = 0; i < K; i++)
    for (let j = 0; j < K; j++) {
      const x = a[i] as Float32Array;
      const y = b[j] as Float32Array;
      let s = 0;
      for (let d = 0; d < x.length; d++) s += (x[d] as number) * (y[d] as number);
      g[i * K + j] = s;
    }
  return g;
}

function quad(g: Float64Array, u: readonly number[], v: readonly number[]): number {
  let s = 0;
  for (let i = 0; i < K; i++) for (let j = 0; j < K; j++) s += (u[i] as number) * (v[j] as number) * (g[i * K + j] as number);
  return s;
}

/** A pair of embedded screens, as Gram matrices (cross and each side's own), and each side's text share (screenWeights). */
export interface GramPair {
  ab: Float64Array;
  aa: Float64Array;
  bb: Float64Array;
  sa: number;
  sb: number;
}

/** The fused cosine the manager gives for weights `w` (each side fused with its own screenWeights). */
export function fusedCosine(p: GramPair, w: readonly number[]): number {
  const rec = weightRecord(w, false);
  const wa = weightArray(screenWeights(rec, p.sa));
  const wb = weightArray(screenWeights(rec, p.sb));
  const d = Math.sqrt(quad(p.aa, wa, wa) * quad(p.bb, wb, wb));
  return d > 0 ? quad(p.ab, wa, wb) / d : 0;
}

export const weightArray = (w: FusionWeights): number[] => COMPONENTS.map((c) => w[c]);
export const weightRecord = (w: readonly number[], rounded = true): FusionWeights => Object.fromEntries(COMPONENTS.map((c, i) => [c, rounded ? Math.round((w[i] as number) * 1000) / 1000 : (w[i] as number)])) as FusionWeights;

/** The three rates the design asks for, from pair cosines. */
export interface Rates {
  same: number; // property 13: same screen, light variation, ≥ 0.85 (target 0.95)
  different: number; // property 14: different screens ≤ 0.70 (target 0.95)
  change: number; // theme or scale change of the same screen ≥ 0.85 (target 0.90)
}

export const TARGETS: Rates = { same: 0.95, different: 0.95, change: 0.9 };

/**
 * How far each target is met, in cosine: the pair at the target's rank against its threshold —
 * for "≥ 95 % of same-screen pairs ≥ 0.85", the (⌊0.05·n⌋+1)-th lowest cosine minus 0.85, and so on.
 * A positive margin means the target is met. Continuous, unlike the rates, so weightings that all
 * meet the targets are still ranked (by how far they are from failing them).
 */
export function margins(s: Pick<WeightSearch, "same" | "different" | "change">, w: readonly number[]): Rates {
  const at = (xs: number[], miss: number, asc: boolean) => {
    if (!xs.length) return Infinity;
    xs.sort((a, b) => (asc ? a - b : b - a));
    return xs[Math.floor(miss * xs.length)] as number;
  };
  return {
    same: at(s.same.map((p) => fusedCosine(p, w)), 1 - TARGETS.same, true) - 0.85,
    different: 0.7 - at(s.different.map((p) => fusedCosine(p, w)), 1 - TARGETS.different, false),
    change: at(s.change.map((ps) => Math.max(...ps.map((p) => fusedCosine(p, w)))), 1 - TARGETS.change, true) - 0.85,
  };
}

/** The worst margin first, then the mean margin. */
export function score(m: Rates): [number, number] {
  const xs = [m.same, m.different, m.change].filter((x) => Number.isFinite(x));
  return [Math.min(...xs), xs.reduce((a, b) => a + b, 0) / xs.length];
}

export interface WeightSearch {
  same: readonly GramPair[];
  different: readonly GramPair[];
  /** Change pairs: each query's best cosine over the recorded screen's pyramid (one GramPair per zoom). */
  change: ReadonlyArray<readonly GramPair[]>;
}

export function ratesFor(s: Pick<WeightSearch, "same" | "different" | "change">, w: readonly number[]): Rates {
  const frac = (xs: number[], ok: (c: number) => boolean) => (xs.length ? xs.filter(ok).length / xs.length : NaN);
  return {
    same: frac(s.same.map((p) => fusedCosine(p, w)), (c) => c >= 0.85),
    different: frac(s.different.map((p) => fusedCosine(p, w)), (c) => c <= 0.7),
    change: frac(s.change.map((ps) => Math.max(...ps.map((p) => fusedCosine(p, w)))), (c) => c >= 0.85),
  };
}

/** Shares of the fused vector's energy (Σ wᵢ²) kept by the title and the context in every weighting tried. */
export const TITLE_SHARE = 0.025;
export const CONTEXT_SHARE = 0.1;

/**
 * The weightings tried: the content components image, text and ui split 0.9 in steps of 0.05,
 * each at least 0.05; title and context are then set to hold TITLE_SHARE and CONTEXT_SHARE of the
 * fused energy — the shares the design-derived weights 0.5 / 0.3 / 0.1 / 0.1 / 0.2 gave them. They
 * name the window and the application, which two screens of one app often share
 * (gtk3-widget-factory's pages share both), so they must not carry the decision, and property 22
 * (two contexts differ: cosine < 0.95) needs the context's share well above 5 %.
 */
export function candidateWeightings(): number[][] {
  const out: number[][] = [];
  for (let a = 1; a <= 16; a++)
    for (let b = 1; a + b <= 17; b++) {
      const c = 18 - a - b;
      const w = new Array<number>(K).fill(0);
      w[COMPONENTS.indexOf("image")] = a * 0.05;
      w[COMPONENTS.indexOf("text")] = b * 0.05;
      w[COMPONENTS.indexOf("ui")] = c * 0.05;
      const content = w.reduce((x, y) => x + y * y, 0);
      const energy = content / (1 - TITLE_SHARE - CONTEXT_SHARE);
      w[COMPONENTS.indexOf("title")] = Math.round(Math.sqrt(TITLE_SHARE * energy) * 100) / 100;
      w[COMPONENTS.indexOf("context")] = Math.round(Math.sqrt(CONTEXT_SHARE * energy) * 100) / 100;
      out.push(w);
    }
  return out;
}

/** The weighting of `candidateWeightings` with the best `score` of `margins` on the given pairs. */
export function chooseWeights(s: WeightSearch): { weights: number[]; rates: Rates; margins: Rates; tried: number } {
  let best: { weights: number[]; margins: Rates; key: [number, number] } | undefined;
  const all = candidateWeightings();
  for (const w of all) {
    const m = margins(s, w);
    const k = score(m);
    if (!best || k[0] > best.key[0] + 1e-12 || (Math.abs(k[0] - best.key[0]) <= 1e-12 && k[1] > best.key[1] + 1e-12)) best = { weights: w, margins: m, key: k };
  }
  if (!best) throw new Error("no weighting to try");
  return { weights: best.weights, rates: ratesFor(s, best.weights), margins: best.margins, tried: all.length };
}
