import { describe, expect, it } from "vitest";
import { makeFrame } from "../core/frame.js";
import type { BBox } from "../core/geometry.js";
import { showsMaskedText } from "./masked-entry.js";

/** A 400 × 60 field of one grey, with marks drawn by `draw` (ink of the given grey). */
function field(bg: number, ink: number, draw: (dot: (x: number, y: number, w: number, h: number) => void, px: (x: number, y: number) => void) => void) {
  const width = 400;
  const height = 60;
  const data = new Uint8Array(width * height * 3).fill(bg);
  const px = (x: number, y: number) => data.fill(ink, (y * width + x) * 3, (y * width + x) * 3 + 3);
  const dot = (x: number, y: number, w: number, h: number) => {
    for (let j = 0; j < h; j++) for (let i = 0; i < w; i++) if ((i - (w - 1) / 2) ** 2 / (w / 2) ** 2 + (j - (h - 1) / 2) ** 2 / (h / 2) ** 2 <= 1) px(x + i, y + j);
  };
  draw(dot, px);
  return makeFrame({ data, width, height, channels: 3 });
}
const box: BBox = [0, 0, 400, 60];

describe("masked text (a password field's dots)", () => {
  it("sees a row of equal dots, dark on light or light on dark, and an asterisk row", () => {
    expect(showsMaskedText(field(255, 30, (dot) => { for (let k = 0; k < 8; k++) dot(20 + 14 * k, 24, 9, 9); }), box)).toBe(true);
    expect(showsMaskedText(field(40, 230, (dot) => { for (let k = 0; k < 6; k++) dot(20 + 10 * k, 26, 6, 6); }), box)).toBe(true);
    const star = (px: (x: number, y: number) => void, x: number, y: number) => {
      for (let i = 0; i < 9; i++) for (const [a, b] of [[i, 4], [4, i], [i, i], [8 - i, i]] as const) px(x + a, y + b);
    };
    expect(showsMaskedText(field(255, 30, (_d, px) => { for (let k = 0; k < 5; k++) star(px, 20 + 13 * k, 24); }), box)).toBe(true);
    // Dots of four pixels, anti-aliased unevenly (a column of their left edge lighter): still alike and mirrored enough.
    const small = (px: (x: number, y: number) => void, x: number, y: number) => {
      for (const [j, row] of [".###", "####", "####", ".###"].entries()) for (let i = 0; i < 4; i++) if (row[i] === "#") px(x + i, y + j);
    };
    expect(showsMaskedText(field(252, 40, (_d, px) => { for (let k = 0; k < 9; k++) small(px, 20 + 5 * k, 28); }), box)).toBe(true);
    // Light dots set close on a dark field, joined at their widest row by a one-pixel line of anti-aliasing.
    expect(showsMaskedText(field(45, 240, (dot, px) => { for (let k = 0; k < 9; k++) dot(20 + 8 * k, 26, 7, 7); for (let x = 20; x < 92; x++) px(x, 29); }), box)).toBe(true);
  });

  it("sees no mask in three dots, dots of several sizes, or letters alike of a word (u u u u: not mirrored top to bottom)", () => {
    expect(showsMaskedText(field(255, 30, (dot) => { for (let k = 0; k < 3; k++) dot(20 + 14 * k, 24, 9, 9); }), box)).toBe(false);
    expect(showsMaskedText(field(255, 30, (dot) => { for (let k = 0; k < 6; k++) dot(20 + 16 * k, 22, 6 + 2 * (k % 3), 6 + 2 * (k % 3)); }), box)).toBe(false);
    const u = (px: (x: number, y: number) => void, x: number, y: number) => {
      for (let j = 0; j < 9; j++) for (const a of [0, 1, 6, 7]) px(x + a, y + j);
      for (let i = 0; i < 8; i++) for (const b of [7, 8]) px(x + i, y + b);
    };
    expect(showsMaskedText(field(255, 30, (_d, px) => { for (let k = 0; k < 6; k++) u(px, 20 + 11 * k, 24); }), box)).toBe(false);
    // Too small a box to be a field, a box outside the frame: no.
    expect(showsMaskedText(field(255, 30, () => undefined), [0, 0, 20, 10])).toBe(false);
    expect(showsMaskedText(field(255, 30, () => undefined), [500, 500, 900, 560])).toBe(false);
  });
});
