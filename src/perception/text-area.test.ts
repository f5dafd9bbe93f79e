import { describe, expect, it } from "vitest";
import { makeFrame, type Frame } from "../core/frame.js";
import type { BBox } from "../core/geometry.js";
import { textAreasFromLines } from "./text-area.js";
import { locate, type LocatableElement } from "./locate.js";

/** A 600 × 400 page of grey `bg`, with `fill` to paint boxes. */
function page(bg: number): Frame & { fill: (b: BBox, v: number) => void } {
  const [width, height] = [600, 400];
  const data = new Uint8Array(width * height * 3).fill(bg);
  const fill = (b: BBox, v: number) => {
    for (let y = b[1]; y < b[3]; y++) for (let x = b[0]; x < b[2]; x++) data.fill(v, (y * width + x) * 3, (y * width + x) * 3 + 3);
  };
  return Object.assign(makeFrame({ data, width, height, channels: 3 }), { fill });
}

/** A box with a faint one-pixel border (`border`) around a surface (`surface`), and a line of text (dark strokes, a quarter of its pixels) at its top-left. */
function textBox(f: ReturnType<typeof page>, b: BBox, border: number, surface: number, text: BBox): void {
  f.fill(b, border);
  f.fill([b[0] + 1, b[1] + 1, b[2] - 1, b[3] - 1], surface);
  for (let x = text[0]; x < text[2]; x += 4) f.fill([x, text[1] + 2, x + 1, text[3] - 2], 30);
}

describe("text areas from their first line", () => {
  it("finds a multi-line box around a line at its top-left, its border faint (a dark theme's)", () => {
    const f = page(20);
    textBox(f, [40, 60, 400, 200], 42, 30 + 4, [42, 63, 180, 77]);
    // The text's strokes are the surface's darker neighbours here: paint them light, as on a dark theme.
    for (let x = 42; x < 180; x += 4) f.fill([x, 65, x + 2, 75], 200);
    expect(textAreasFromLines(f, [[42, 63, 180, 77]], [])).toEqual([[40, 60, 400, 200]]);
    // A light theme: the page a shade off the box's white, OCR's box for the line overhanging the box's left edge.
    const light = page(249);
    textBox(light, [40, 60, 400, 200], 220, 255, [43, 63, 180, 77]);
    expect(textAreasFromLines(light, [[36, 63, 180, 77]], [])).toEqual([[40, 60, 400, 200]]);
    // Text touching the box's top (a GTK TextView has no margin), OCR's box over the border and the page above it.
    const tight = page(222);
    textBox(tight, [12, 228, 400, 300], 189, 255, [14, 227, 200, 245]);
    expect(textAreasFromLines(tight, [[11.9, 227.9, 200, 243.1]], [])).toEqual([[12, 228, 400, 300]]);
    // Text touching the box's top and left sides, its first word dense ink a line height long (no clear column in it),
    // OCR's box starting on the left border and its top above the box.
    const flush = page(206);
    textBox(flush, [12, 126, 400, 201], 130, 252, [13, 127, 13, 127]);
    flush.fill([13, 130, 42, 141], 33);
    for (let x = 48; x < 300; x += 4) flush.fill([x, 130, x + 1, 141], 33);
    expect(textAreasFromLines(flush, [[12, 128, 300, 148]], [])).toEqual([[12, 126, 400, 201]]);
  });

  it("nothing for a line on the open page, a one-line field, or a panel holding a control", () => {
    const open = page(240);
    for (let x = 60; x < 200; x += 4) open.fill([x, 82, x + 2, 92], 30);
    expect(textAreasFromLines(open, [[60, 80, 200, 94]], [])).toEqual([]);
    const field = page(240);
    textBox(field, [40, 60, 400, 84], 160, 255, [46, 64, 180, 80]);
    expect(textAreasFromLines(field, [[46, 64, 180, 80]], [])).toEqual([]);
    const panel = page(240);
    textBox(panel, [40, 60, 400, 200], 160, 255, [46, 64, 180, 80]);
    expect(textAreasFromLines(panel, [[46, 64, 180, 80]], [[300, 160, 380, 190]])).toEqual([]);
    expect(textAreasFromLines(panel, [[46, 64, 180, 80]], [])).toEqual([[40, 60, 400, 200]]);
  });

  it("locate offers it for a text box asked by no name, and prefers it for « the text area »", () => {
    const f = page(240);
    textBox(f, [40, 40, 400, 64], 160, 255, [46, 44, 120, 60]);
    textBox(f, [40, 100, 400, 240], 160, 255, [46, 104, 180, 120]);
    const els: LocatableElement[] = [
      { element_id: "name", type: "text_input", bbox: [40, 40, 400, 64], label: "Name" },
      { element_id: "text:0", type: "generic_interactive", bbox: [46, 104, 180, 120], label: "Some notes" },
    ];
    expect(locate("the text area", els, f)).toMatchObject({ found: true, element_id: "area:0" });
    expect(locate("the Name field", els, f)).toMatchObject({ found: true, element_id: "name" });
  });
});
