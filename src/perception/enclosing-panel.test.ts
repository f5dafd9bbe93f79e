import { describe, expect, it } from "vitest";
import { makeFrame } from "../core/frame.js";
import type { BBox } from "../core/geometry.js";
import { enclosingPanel } from "./enclosing-panel.js";

/** A light window with bordered boxes (`inner` fill) and marks. */
function frame(boxes: { bbox: BBox; border?: number; inner?: number }[], w = 400, h = 300) {
  const data = new Uint8Array(w * h * 3).fill(240);
  for (const { bbox, border = 120, inner = 255 } of boxes)
    for (let y = bbox[1]; y < bbox[3]; y++)
      for (let x = bbox[0]; x < bbox[2]; x++) {
        const edge = y === bbox[1] || y === bbox[3] - 1 || x === bbox[0] || x === bbox[2] - 1;
        data.fill(edge ? border : inner, (y * w + x) * 3, (y * w + x) * 3 + 3);
      }
  return makeFrame({ data, width: w, height: h, channels: 3 });
}

describe("enclosing panel", () => {
  it("the bordered empty area around a point: inside its edges, wherever the point is in it", () => {
    const f = frame([{ bbox: [40, 100, 360, 280] }]);
    expect(enclosingPanel(f, [200, 190])).toEqual([41, 101, 359, 279]);
    expect(enclosingPanel(f, [60, 270])).toEqual([41, 101, 359, 279]);
  });

  it("none on a drawn thing, in an area open to the frame's edge, or bounded by stray marks rather than sides", () => {
    const f = frame([{ bbox: [40, 100, 360, 280] }, ...[0, 4, 8, 12].map((d) => ({ bbox: [100 + d, 150, 102 + d, 170] as BBox, border: 30, inner: 30 }))]);
    expect(enclosingPanel(f, [107, 160])).toBeUndefined(); // on text-like strokes
    expect(enclosingPanel(f, [20, 20])).toBeUndefined(); // the window's open background
    // Short marks left and right of the point, no box round them: not a panel's sides.
    const marks = frame([{ bbox: [100, 140, 102, 150], border: 30, inner: 30 }, { bbox: [300, 140, 302, 150], border: 30, inner: 30 }]);
    expect(enclosingPanel(marks, [200, 145])).toBeUndefined();
  });

  it("what is drawn inside the panel does not cut it: marks beside the point, a document's lines above it", () => {
    const marks = frame([{ bbox: [20, 20, 380, 280] }, { bbox: [100, 140, 102, 150], border: 30, inner: 30 }, { bbox: [300, 140, 302, 150], border: 30, inner: 30 }]);
    expect(enclosingPanel(marks, [200, 145])).toEqual([21, 21, 379, 279]);
    // A text area: three lines of text of different lengths from its left, the point in the empty part below them.
    const lines = ([[30, 200], [30, 320], [30, 150]] as const).flatMap(([a, b], i) =>
      Array.from({ length: Math.floor((b - a) / 6) }, (_, k) => ({ bbox: [a + 6 * k, 30 + 18 * i, a + 6 * k + 3, 42 + 18 * i] as BBox, border: 30, inner: 30 })),
    );
    const area = frame([{ bbox: [20, 20, 380, 280] }, ...lines]);
    expect(enclosingPanel(area, [180, 200])).toEqual([21, 21, 379, 279]);
  });
});
