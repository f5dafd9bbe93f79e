import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bboxArb, RUNS } from "../../test/support/arbitraries.js";
import {
  bboxArea,
  bboxCenter,
  bboxContains,
  bboxCoverage,
  bboxIoU,
  bboxUnion,
  bboxContainsPoint,
  isValidBBox,
  scaleBBox,
  clampBBox,
  matchesPositionHint,
  parsePositionHint,
  positionHintScore,
  positionOf,
  padBBox,
  roundBBoxOut,
} from "./geometry.js";

const screen = { width: 1920, height: 1080 };

describe("bbox geometry", () => {
  it("computes IoU of known boxes", () => {
    expect(bboxIoU([0, 0, 10, 10], [0, 0, 10, 10])).toBe(1);
    expect(bboxIoU([0, 0, 10, 10], [5, 0, 15, 10])).toBeCloseTo(50 / 150);
    expect(bboxIoU([0, 0, 10, 10], [10, 0, 20, 10])).toBe(0);
    expect(bboxIoU([0, 0, 0, 0], [0, 0, 0, 0])).toBe(0);
  });

  it("pads a box on each side, shrinks it with a negative margin, and pads x and y apart", () => {
    expect(padBBox([10, 20, 30, 40], 4)).toEqual([6, 16, 34, 44]);
    expect(padBBox([10, 20, 30, 40], -3)).toEqual([13, 23, 27, 37]);
    expect(padBBox([10, 20, 30, 40], 2, 5)).toEqual([8, 15, 32, 45]);
    expect(bboxContains(padBBox([10, 20, 30, 40], 1), [10, 20, 30, 40])).toBe(true);
  });

  it("coverage is the share of the first box inside the second, not symmetric", () => {
    expect(bboxCoverage([2, 2, 8, 8], [0, 0, 10, 10])).toBe(1);
    expect(bboxCoverage([0, 0, 10, 10], [2, 2, 8, 8])).toBeCloseTo(36 / 100);
    expect(bboxCoverage([0, 0, 10, 10], [5, 0, 15, 10])).toBeCloseTo(0.5);
    expect(bboxCoverage([0, 0, 10, 10], [20, 20, 30, 30])).toBe(0);
    expect(bboxCoverage([0, 0, 0, 0], [0, 0, 10, 10])).toBe(0);
  });

  it("IoU is symmetric and within [0, 1]", () => {
    fc.assert(
      fc.property(bboxArb, bboxArb, (a, b) => {
        const i = bboxIoU(a, b);
        expect(i).toBeGreaterThanOrEqual(0);
        expect(i).toBeLessThanOrEqual(1);
        expect(bboxIoU(b, a)).toBeCloseTo(i, 12);
      }),
      RUNS,
    );
  });

  it("the union contains both boxes", () => {
    fc.assert(
      fc.property(bboxArb, bboxArb, (a, b) => {
        const u = bboxUnion(a, b);
        expect(bboxContains(u, a) && bboxContains(u, b)).toBe(true);
      }),
      RUNS,
    );
  });

  it("clamping keeps boxes inside the frame", () => {
    fc.assert(
      fc.property(fc.tuple(fc.integer({ min: -500, max: 2500 }), fc.integer({ min: -500, max: 1500 }), fc.integer({ min: 0, max: 900 }), fc.integer({ min: 0, max: 900 })), ([x, y, w, h]) => {
        const c = clampBBox([x, y, x + w, y + h], screen);
        expect(bboxContains([0, 0, screen.width, screen.height], c)).toBe(true);
        expect(c[2]).toBeGreaterThanOrEqual(c[0]);
        expect(c[3]).toBeGreaterThanOrEqual(c[1]);
      }),
      RUNS,
    );
  });

  it("point containment, validity and scaling", () => {
    expect(bboxContainsPoint([10, 10, 20, 20], [10, 19.5])).toBe(true);
    expect(bboxContainsPoint([10, 10, 20, 20], [20, 15])).toBe(false);
    expect(isValidBBox([0, 0, 1, 1])).toBe(true);
    expect(isValidBBox([5, 0, 1, 1])).toBe(false);
    expect(isValidBBox([0, 0, NaN, 1])).toBe(false);
    expect(scaleBBox([1, 2, 3, 4], 2)).toEqual([2, 4, 6, 8]);
  });

  it("centre and outward rounding", () => {
    expect(bboxCenter([1600, 900, 1800, 940])).toEqual([1700, 920]);
    expect(roundBBoxOut([1.2, 2.8, 3.1, 4.9])).toEqual([1, 2, 4, 5]);
    expect(bboxArea([0, 0, 3, 4])).toBe(12);
  });
});

describe("position hints", () => {
  it.each([
    ["click the Save button at the bottom", { vertical: "bottom" }],
    ["the top-left icon", { vertical: "top", horizontal: "left" }],
    ["bouton en haut", { vertical: "top" }],
    ["le champ en bas à gauche", { vertical: "bottom", horizontal: "left" }],
    ["Cliquez sur le lien à droite", { horizontal: "right" }],
    ["icône au milieu", { vertical: "middle", horizontal: "center" }],
    ["lower right corner", { vertical: "bottom", horizontal: "right" }],
  ])("parses %j", (text, hint) => {
    expect(parsePositionHint(text)).toEqual(hint);
  });

  it("returns undefined when no position is named", () => {
    expect(parsePositionHint("Cliquez sur « Valider la facture »")).toBeUndefined();
    expect(parsePositionHint("Save")).toBeUndefined();
  });

  it("scores boxes by how well they fit a hint", () => {
    const top: [number, number, number, number] = [900, 10, 1000, 40];
    const bottom: [number, number, number, number] = [900, 1030, 1000, 1070];
    expect(positionHintScore(bottom, { vertical: "bottom" }, screen)).toBeGreaterThan(positionHintScore(top, { vertical: "bottom" }, screen));
    expect(matchesPositionHint(bottom, { vertical: "bottom" }, screen)).toBe(true);
    expect(matchesPositionHint(top, { vertical: "bottom" }, screen)).toBe(false);
    expect(positionOf(top, screen)).toEqual({ vertical: "top", horizontal: "center" });
    expect(positionHintScore(top, {}, screen)).toBe(1);
  });
});
