import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RUNS } from "../../test/support/arbitraries.js";
import { bezierPath, easeInOut, movementDuration, seededRandom } from "./bezier-path.js";

const pointArb = fc.tuple(fc.integer({ min: 0, max: 1919 }), fc.integer({ min: 0, max: 1079 }));

describe("human-like mouse paths", () => {
  it("end exactly on the target with integer points", () => {
    fc.assert(
      fc.property(pointArb, pointArb, fc.integer(), (from, to, seed) => {
        const path = bezierPath(from, to, { random: seededRandom(seed) });
        expect(path[path.length - 1]).toEqual(to);
        for (const p of path) expect(Number.isInteger(p[0]) && Number.isInteger(p[1])).toBe(true);
      }),
      RUNS,
    );
  });

  it("stay near the straight line (within the bow) and never jump far between points", () => {
    fc.assert(
      fc.property(pointArb, pointArb, fc.integer(), (from, to, seed) => {
        const dist = Math.hypot(to[0] - from[0], to[1] - from[1]);
        const path = bezierPath(from, to, { random: seededRandom(seed), bow: 0.25 });
        let prev: readonly [number, number] = from;
        for (const p of path) {
          // Distance from the segment's line stays within the bow (plus rounding).
          const cross = Math.abs((to[0] - from[0]) * (from[1] - p[1]) - (from[0] - p[0]) * (to[1] - from[1]));
          if (dist > 0) expect(cross / dist).toBeLessThanOrEqual(0.25 * dist + 2);
          // Quintic easing peaks at 1.875× the mean speed; the curve is at most ~1.5× the chord;
          // at least 6 and at most 60 samples: no step is longer than max(36 px, dist / 15).
          expect(Math.hypot(p[0] - prev[0], p[1] - prev[1])).toBeLessThanOrEqual(Math.max(36, dist / 15));
          prev = p;
        }
      }),
      RUNS,
    );
  });

  it("are not straight lines: different seeds give different paths", () => {
    const a = bezierPath([0, 0], [800, 400], { random: seededRandom(1) });
    const b = bezierPath([0, 0], [800, 400], { random: seededRandom(2) });
    expect(a).not.toEqual(b);
    const straight = a.every(([x, y]) => Math.abs(y - x / 2) <= 1);
    expect(straight).toBe(false);
  });

  it("ease in and out: slow at both ends, fast in the middle", () => {
    expect(easeInOut(0)).toBe(0);
    expect(easeInOut(1)).toBe(1);
    expect(easeInOut(0.1) - easeInOut(0)).toBeLessThan(easeInOut(0.55) - easeInOut(0.45));
  });

  it("take longer for longer moves (Fitts' law), and less at higher speed", () => {
    const r = () => 0.5;
    expect(movementDuration(1000, { random: r })).toBeGreaterThan(movementDuration(100, { random: r }));
    expect(movementDuration(500, { random: r, speed: 2 })).toBeCloseTo(movementDuration(500, { random: r }) / 2, 6);
  });
});
