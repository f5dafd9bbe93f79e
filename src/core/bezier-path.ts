// Human-like mouse paths: a cubic Bézier curve from start to end with randomised control points
// (bowing to one side), sampled with ease-in-out timing so the pointer accelerates then slows.
import type { Point } from "./geometry.js";

export type Random = () => number;

export interface PathOptions {
  random?: Random;
  /** How far control points may bow away from the straight line, as a fraction of the distance. */
  bow?: number;
  /** Pixels per sample on average (smaller: more points). */
  spacing?: number;
  minSteps?: number;
  maxSteps?: number;
}

export interface TimedPoint {
  x: number;
  y: number;
  /** Milliseconds from the start of the move. */
  t: number;
}

/** Ease-in-out (smoothstep-like quintic): zero speed at both ends. */
export function easeInOut(t: number): number {
  return t * t * t * (t * (t * 6 - 15) + 10);
}

function cubic(p0: number, p1: number, p2: number, p3: number, t: number): number {
  const u = 1 - t;
  return u * u * u * p0 + 3 * u * u * t * p1 + 3 * u * t * t * p2 + t * t * t * p3;
}

/**
 * Integer points from `from` (excluded) to `to` (included, exactly) along a random Bézier curve.
 * Consecutive duplicates are dropped.
 */
export function bezierPath(from: Point, to: Point, opts: PathOptions = {}): Point[] {
  const random = opts.random ?? Math.random;
  const dx = to[0] - from[0];
  const dy = to[1] - from[1];
  const dist = Math.hypot(dx, dy);
  if (dist < 1) return [[Math.round(to[0]) + 0, Math.round(to[1]) + 0]];
  // Slight (8 % of the distance at most): a wider bow crosses neighbouring widgets on the way, and
  // hovering another menu-bar title while a menu is open switches menus.
  const bow = (opts.bow ?? 0.08) * dist;
  // Unit normal to the line; both control points bow to the same side, by random amounts.
  const nx = -dy / dist;
  const ny = dx / dist;
  const side = random() < 0.5 ? -1 : 1;
  const o1 = side * bow * (0.2 + 0.8 * random());
  const o2 = side * bow * (0.2 + 0.8 * random());
  const a1 = 0.2 + 0.2 * random();
  const a2 = 0.6 + 0.2 * random();
  const c1: Point = [from[0] + dx * a1 + nx * o1, from[1] + dy * a1 + ny * o1];
  const c2: Point = [from[0] + dx * a2 + nx * o2, from[1] + dy * a2 + ny * o2];
  const steps = Math.max(opts.minSteps ?? 6, Math.min(opts.maxSteps ?? 60, Math.round(dist / (opts.spacing ?? 12))));
  const out: Point[] = [];
  for (let i = 1; i <= steps; i++) {
    const t = easeInOut(i / steps);
    // `+ 0` turns -0 into 0.
    const p: Point = i === steps ? [Math.round(to[0]) + 0, Math.round(to[1]) + 0] : [Math.round(cubic(from[0], c1[0], c2[0], to[0], t)) + 0, Math.round(cubic(from[1], c1[1], c2[1], to[1], t)) + 0];
    const last = out[out.length - 1];
    if (!last || last[0] !== p[0] || last[1] !== p[1]) out.push(p);
  }
  return out;
}

/**
 * Movement time after Fitts' law: `base + perBit * log2(1 + distance / targetSize)`, scaled by
 * `speed` (2 = twice as fast), with ±15 % randomness.
 */
export function movementDuration(distance: number, opts: { speed?: number; targetSize?: number; random?: Random } = {}): number {
  const random = opts.random ?? Math.random;
  const bits = Math.log2(1 + distance / (opts.targetSize ?? 24));
  const ms = (120 + 110 * bits) / (opts.speed ?? 1);
  return Math.max(0, ms * (0.85 + 0.3 * random()));
}

/** Seeded PRNG (mulberry32) for reproducible paths in tests and benches. */
export function seededRandom(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
