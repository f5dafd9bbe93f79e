// A password field shows what was typed as a row of equal dots (•, ●, ∗): that row, found in the pixels, tells a masked
// entry from any other field whatever its caption says ("the password field" where the caption reads « Société »).
// Read from the frame's pixels only (no text: OCR reads the dots as anything or nothing); bounded work per box.
import type { Frame } from "../core/frame.js";
import type { BBox } from "../core/geometry.js";
import { connectedComponents, toGrey, toRgb } from "./raster.js";

/** Boxes larger than this (pixels) are not fields: not read. */
const MAX_AREA = 1_500_000;

/**
 * Whether `box` (frame pixels; a field) shows a row of at least four equal marks, one after the other on one line: each
 * about as wide as tall, smaller than the box, the same mirrored left-right and top-bottom (a dot, a disc, an asterisk),
 * the row's pitch regular — masked text. The marks are what differs from the box's most common grey (dark dots on a
 * light field or light ones on a dark field). Measured on 1,146 fields of generated screens: the 23 it sees are all
 * masked (GTK, Qt, Tk and HTML password fields); an empty password field shows its placeholder, not dots. Since dots
 * joined by anti-aliasing and small uneven dots count (2026-12-08), on the 1,083 fields of the train families' screens
 * on disk: 20 seen instead of 13, all masked (scratch count; the truth's password fields and Tk entries showing a mask
 * character).
 */
export function showsMaskedText(frame: Frame, box: BBox): boolean {
  const x0 = Math.max(0, Math.floor(box[0]) + 2);
  const y0 = Math.max(0, Math.floor(box[1]) + 2);
  const x1 = Math.min(frame.width, Math.ceil(box[2]) - 2);
  const y1 = Math.min(frame.height, Math.ceil(box[3]) - 2);
  const w = x1 - x0;
  const h = y1 - y0;
  if (w < 24 || h < 6 || w * h > MAX_AREA) return false;
  const img = toRgb(frame);
  const grey = toGrey(img);
  const hist = new Uint32Array(256);
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) hist[grey[y * img.width + x]!]!++;
  let bg = 0;
  for (let v = 1; v < 256; v++) if (hist[v]! > hist[bg]!) bg = v;
  const mask = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) mask[y * w + x] = Math.abs(grey[(y0 + y) * img.width + x0 + x]! - bg) > 60 ? 1 : 0;
  if (maskedRun(mask, w, h)) return true;
  // Dots set close touch at their widest row (light dots on a dark field, anti-aliased): a row of ink one pixel tall,
  // nothing above or below it, joins them; without it they stand apart.
  const parted = mask.map((v, i) => (v && (i < w || !mask[i - w]) && (i + w >= mask.length || !mask[i + w]) ? 0 : v));
  return maskedRun(parted, w, h);
}

/** Whether the ink of `mask` (w × h) holds a row of four or more equal marks at a regular pitch (see showsMaskedText). */
function maskedRun(mask: Uint8Array, w: number, h: number): boolean {
  // Every piece of ink left to right (specks under 3 px aside): a run of marks alike must not skip any, so the
  // x-height letters of a word (o, n, e between l and d) never make one.
  const ink = connectedComponents(mask, w, h)
    .filter((c) => c.y2 - c.y1 >= 3 || c.x2 - c.x1 >= 3)
    .sort((a, b) => a.x1 - b.x1);
  // A dot or an asterisk is the same mirrored left-right and top-bottom; a letter of x-height (e, s, u, n) is not.
  const mirrored = (c: (typeof ink)[number]) => {
    let lr = 0;
    let tb = 0;
    for (let y = c.y1; y < c.y2; y++)
      for (let x = c.x1; x < c.x2; x++) {
        const v = mask[y * w + x]!;
        if (v !== mask[y * w + (c.x2 - 1 - (x - c.x1))]) lr++;
        if (v !== mask[(c.y2 - 1 - (y - c.y1)) * w + x]) tb++;
      }
    // (A dot of a few pixels is anti-aliased unevenly: a column of its edge may differ from its mirror.)
    return Math.max(lr, tb) <= Math.max(0.25 * c.pixels, 4);
  };
  const dotLike = (c: (typeof ink)[number]) => {
    const cw = c.x2 - c.x1;
    const ch = c.y2 - c.y1;
    return ch >= 3 && ch <= 0.7 * h && cw >= 0.6 * ch && cw <= 1.6 * ch && c.pixels >= 0.35 * cw * ch && mirrored(c);
  };
  // Each piece judged once (a run's test starts from every piece).
  const dots = ink.map(dotLike);
  // Runs of consecutive marks alike: the same size and ink (within a sixth), centres on one line, a regular pitch.
  for (let i = 0; i + 3 < ink.length; i++) {
    const first = ink[i]!;
    if (!dots[i]) continue;
    const size = first.y2 - first.y1;
    const cy = (first.y1 + first.y2) / 2;
    const run = [first];
    for (let j = i + 1; j < ink.length; j++) {
      const m = ink[j]!;
      const prev = run.at(-1)!;
      const alike = dots[j] && Math.abs(m.y2 - m.y1 - size) <= size / 6 + 1 && Math.abs(m.x2 - m.x1 - (first.x2 - first.x1)) <= size / 6 + 1 && Math.abs(m.pixels - first.pixels) <= first.pixels / 6 + 2;
      if (!alike || Math.abs((m.y1 + m.y2) / 2 - cy) > size / 4 + 1 || m.x1 - prev.x2 < -1 || m.x1 - prev.x2 > 2 * size + 2) break;
      run.push(m);
    }
    if (run.length < 4) continue;
    const pitches = run.slice(1).map((m, k) => m.x1 - run[k]!.x1);
    const mean = pitches.reduce((a, b) => a + b, 0) / pitches.length;
    if (pitches.every((p) => Math.abs(p - mean) <= 0.2 * mean + 1)) return true;
  }
  return false;
}
