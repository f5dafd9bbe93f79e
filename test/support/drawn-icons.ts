// Icons drawn for the tests on a 24-unit grid (no icon set copied), painted into a frame's pixels: what the icon
// classifier, the builder's icon classes and replay's icon grounding are tested on.
import sharp from "sharp";
import type { BBox } from "../../src/core/geometry.js";

/** A plus, a cross, a right chevron, a magnifier. */
export const DRAWN_ICONS: Record<string, string> = {
  add: `<path d="M12 4v16M4 12h16"/>`,
  close: `<path d="M6 6l12 12M18 6L6 18"/>`,
  arrow_right: `<path d="M9 4l8 8-8 8"/>`,
  search: `<circle cx="10" cy="10" r="6"/><path d="M14.5 14.5L20 20"/>`,
};

/** Figures of the extra model (icon-extra.onnx): a funnel, three dots one above the other, a check mark, an eye. */
export const DRAWN_EXTRA_ICONS: Record<string, string> = {
  filter: `<path d="M3 5h18l-7 8v6l-4 2v-8z"/>`,
  more: `<circle cx="12" cy="5" r="1"/><circle cx="12" cy="12" r="1"/><circle cx="12" cy="19" r="1"/>`,
  check: `<path d="M4 12.5l5 5L20 6.5"/>`,
  eye: `<path d="M2 12s4-7 10-7 10 7 10 7-4 7-10 7S2 12 2 12z"/><circle cx="12" cy="12" r="3"/>`,
};

/**
 * Paints the drawn icon `name` at `size` px, `ink` strokes `stroke` units wide, into packed pixels (`channels` 3 or 4,
 * rows `width` pixels) with its top-left corner at (ox, oy), blended over what is there. Returns its ink box (alpha > 0.25).
 */
export async function paintIcon(data: Uint8Array, width: number, channels: 3 | 4, name: string, ox: number, oy: number, size: number, ink: string, stroke = 2): Promise<BBox> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" width="${size}" height="${size}" fill="none" stroke="${ink}" stroke-width="${stroke}" stroke-linecap="round" stroke-linejoin="round">${DRAWN_ICONS[name] ?? DRAWN_EXTRA_ICONS[name]}</svg>`;
  const { data: px, info } = await sharp(Buffer.from(svg)).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  let [l, t, r, b] = [Infinity, Infinity, -1, -1];
  for (let y = 0; y < info.height; y++)
    for (let x = 0; x < info.width; x++) {
      const o = (y * info.width + x) * 4;
      const a = px[o + 3]! / 255;
      if (a === 0) continue;
      const q = ((oy + y) * width + ox + x) * channels;
      for (let c = 0; c < 3; c++) data[q + c] = Math.round(px[o + c]! * a + data[q + c]! * (1 - a));
      if (a > 0.25) [l, t, r, b] = [Math.min(l, ox + x), Math.min(t, oy + y), Math.max(r, ox + x + 1), Math.max(b, oy + y + 1)];
    }
  return [l, t, r, b];
}
