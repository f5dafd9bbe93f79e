import { describe, expect, it } from "vitest";
import type { BBox } from "../core/geometry.js";
import { cosine, l2Norm } from "../core/vectors.js";
import { UiLayoutEmbedder, type LayoutInput } from "./ui-layout-embedder.js";

const ui = new UiLayoutEmbedder(256);

/** A form: a caption and a field per row, a button row at the bottom (window 600×400 at its origin). */
function form(rows: number, origin: [number, number] = [0, 0], scale = 1): LayoutInput {
  const at = (b: BBox): BBox => [origin[0] + b[0] * scale, origin[1] + b[1] * scale, origin[0] + b[2] * scale, origin[1] + b[3] * scale];
  return {
    box: at([0, 0, 600, 400]),
    textBoxes: [...Array.from({ length: rows }, (_, i) => ({ bbox: at([20, 30 + i * 40, 120, 50 + i * 40]) })), { bbox: at([420, 355, 470, 375]) }, { bbox: at([500, 355, 570, 375]) }],
    elements: [...Array.from({ length: rows }, (_, i) => ({ type: "text_input", bbox: at([140, 25 + i * 40, 560, 55 + i * 40]) })), { type: "button", bbox: at([410, 350, 480, 380]) }, { type: "button", bbox: at([490, 350, 580, 380]) }],
  };
}

/** A list: a toolbar of buttons on top, text rows below, a check box per row. */
function list(): LayoutInput {
  return {
    box: [0, 0, 600, 400],
    textBoxes: Array.from({ length: 8 }, (_, i) => ({ bbox: [60, 70 + i * 38, 400, 90 + i * 38] as BBox })),
    elements: [...[0, 1, 2].map((i) => ({ type: "button", bbox: [10 + i * 90, 10, 90 + i * 90, 40] as BBox })), ...Array.from({ length: 8 }, (_, i) => ({ type: "checkbox", bbox: [20, 72 + i * 38, 36, 88 + i * 38] as BBox }))],
  };
}

describe("UI layout component", () => {
  it("is window-relative: the same window moved or drawn ×2 gives the same layout", () => {
    expect(cosine(ui.embed(form(5)), ui.embed(form(5, [240, 120])))).toBeGreaterThan(0.999);
    expect(cosine(ui.embed(form(5)), ui.embed(form(5, [0, 0], 2)))).toBeGreaterThan(0.999);
  });

  it("tells different layouts apart, and one more row moves it a little", () => {
    expect(cosine(ui.embed(form(5)), ui.embed(list()))).toBeLessThan(0.3);
    const more = cosine(ui.embed(form(5)), ui.embed(form(6)));
    expect(more).toBeGreaterThan(0.6);
    expect(more).toBeLessThan(0.99);
  });

  it("is the zero vector when perception placed nothing", () => {
    expect(l2Norm(ui.embed({ box: [0, 0, 600, 400] }))).toBe(0);
  });
});
