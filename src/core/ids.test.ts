import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bboxArb, labelArb, RUNS } from "../../test/support/arbitraries.js";
import { bboxCenter } from "./geometry.js";
import { elementId } from "./ids.js";
import { normalizeLabel } from "./text.js";

describe("element identity", () => {
  it("property 5: elements with different positions or labels get different ids", () => {
    fc.assert(
      fc.property(fc.string(), bboxArb, labelArb, bboxArb, labelArb, (app, b1, l1, b2, l2) => {
        const [c1x, c1y] = bboxCenter(b1);
        const [c2x, c2y] = bboxCenter(b2);
        const samePlace = c1x === c2x && c1y === c2y;
        const sameLabel = normalizeLabel(l1) === normalizeLabel(l2);
        fc.pre(!(samePlace && sameLabel));
        expect(elementId(app, b1, l1)).not.toBe(elementId(app, b2, l2));
      }),
      RUNS,
    );
  });

  it("property 6: the same (app_name, bbox centre, normalized label) always gives the same id", () => {
    fc.assert(
      fc.property(fc.string(), bboxArb, labelArb, fc.integer({ min: 0, max: 50 }), (app, b, label, grow) => {
        // Same centre (box grown evenly on each side) and a label that normalizes the same.
        const grown = [b[0] - grow, b[1] - grow, b[2] + grow, b[3] + grow] as const;
        const variant = `  ${label.toUpperCase()}  `;
        fc.pre(normalizeLabel(variant) === normalizeLabel(label));
        expect(elementId(app, grown, variant)).toBe(elementId(app, b, label));
      }),
      RUNS,
    );
  });

  it("gives different ids to the same label in different apps", () => {
    expect(elementId("mousepad", [0, 0, 10, 10], "Save")).not.toBe(elementId("gedit", [0, 0, 10, 10], "Save"));
  });

  it("has the el_ prefix and a fixed length", () => {
    expect(elementId("app", [1600, 900, 1800, 940], "Valider la facture")).toMatch(/^el_[0-9a-f]{20}$/);
  });
});
