// A field named by its caption that the detector did not find ("the Company box" where only the
// word "Company" was read): its box is looked for in the pixels beside the caption, where forms
// put it — right of the caption on its row (a vertical edge taller than the text, the field's left
// side), else just below it (a long horizontal edge starting under the caption, the field's top).
// General geometry on the grey image; bounded to a window around the caption.
// Likewise a toggle a caption names: its box drawn just before the caption, or at the far end of the caption's row.
import type { Frame } from "../core/frame.js";
import { bboxCoverage, type BBox } from "../core/geometry.js";
import { regionAppearance, type Glyph } from "./element-appearance.js";
import { toGrey, toRgb } from "./raster.js";

/** Grey levels between neighbouring pixels that make an edge (flat UI backgrounds vary by less). */
export const EDGE = 6;

/** The frame's grey levels, row by row, with its width and height. */
function greyPlane(frame: Frame): { g: Uint8Array; W: number; H: number } {
  const img = toRgb(frame);
  return { g: toGrey(img), W: img.width, H: img.height };
}

/**
 * The box of the field a caption names, right of it or below it; undefined when the pixels show
 * none. For a caption known only by a detector's box (larger than its text, maybe overlapping the
 * field), `loose`: the text is taken as 0.6 of the box's height and the search right starts at its centre.
 */
export function probeFieldBesideCaption(frame: Frame, caption: BBox, loose = false): BBox | undefined {
  const { g, W, H } = greyPlane(frame);
  const h = Math.max(6, (caption[3] - caption[1]) * (loose ? 0.6 : 1));
  const fromX = loose ? Math.round((caption[0] + caption[2]) / 2) : Math.round(caption[2]) + 2;
  const at = (x: number, y: number) => g[y * W + x]!;
  const vEdge = (x: number, y: number) => x > 0 && x < W && y >= 0 && y < H && Math.abs(at(x, y) - at(x - 1, y)) >= EDGE;
  const hEdge = (x: number, y: number) => y > 0 && y < H && x >= 0 && x < W && Math.abs(at(x, y) - at(x, y - 1)) >= EDGE;
  /** Length of the horizontal edge run on row y from x (gaps of 2 px allowed), to at most xMax. */
  const runRight = (x: number, y: number, xMax: number) => {
    let end = x;
    let gap = 0;
    for (let i = x; i < Math.min(W, xMax); i++) {
      if (hEdge(i, y) || hEdge(i, y + 1)) {
        end = i + 1;
        gap = 0;
      } else if (++gap > 2) break;
    }
    return end - x;
  };
  /** The longest horizontal edge run on row y starting in [xFrom, xTo) (a shadow or a rounded corner starts short ones), up to `reach` long. */
  const longestRun = (y: number, xFrom: number, xTo: number, reach: number) => {
    let [start, width] = [-1, 0];
    for (let x = Math.max(0, xFrom); x < xTo; x++)
      if (hEdge(x, y) && !hEdge(x - 1, y)) {
        const run = runRight(x, y, x + reach);
        if (run > width) [start, width] = [x, run];
      }
    return { start, width };
  };

  // Right: the first column after the caption with a vertical edge through the caption's middle
  // row, taller than the text, that starts a box (its top edge runs to the right).
  const cy = Math.round((caption[1] + caption[3]) / 2);
  if (cy > 0 && cy < H) {
    const xEnd = Math.min(W, Math.round(caption[2] + 12 * h));
    for (let x = Math.max(1, fromX); x < xEnd; x++) {
      if (!vEdge(x, cy) && !vEdge(x, cy - 1) && !vEdge(x, cy + 1)) continue;
      let top = cy;
      let bottom = cy;
      let gap = 0;
      for (let y = cy - 1; y >= Math.max(0, cy - 3 * h); y--) {
        if (vEdge(x, y) || vEdge(x + 1, y)) {
          top = y;
          gap = 0;
        } else if (++gap > 1) break;
      }
      gap = 0;
      for (let y = cy + 1; y < Math.min(H, cy + 3 * h); y++) {
        if (vEdge(x, y) || vEdge(x + 1, y)) {
          bottom = y;
          gap = 0;
        } else if (++gap > 1) break;
      }
      const tall = bottom - top + 1;
      if (tall < 1.2 * h || tall > 5 * h) continue;
      // The top or bottom side runs right from the left side's end; with rounded corners (CSS
      // kits) it lies up to a corner's radius beyond it and starts that far in.
      const r = Math.round(0.4 * h);
      // The nearest such row (another box's edge may run further away: the next field's, a panel's).
      const side = (edgeRow: number, dir: -1 | 1) => {
        for (let d = 0; d <= r; d++)
          for (let e = 0; e <= r; e++) {
            const run = runRight(x + e, edgeRow + dir * d, x + 60 * h);
            if (run + e >= 3 * h) return { width: run + e, row: edgeRow + dir * d };
          }
        return undefined;
      };
      const [upper, lower] = [side(top, -1), side(bottom, 1)];
      const width = Math.min(upper?.width ?? Infinity, lower?.width ?? Infinity);
      if (width < Infinity) return [x, upper?.row ?? top, x + width, (lower?.row ?? bottom) + 1];
    }
  }

  // Right, a field drawn as an underline alone (no sides: material-like kits): a long horizontal edge under the caption's
  // middle, within two and a half text heights, starting right of the caption within twelve and running eight or more;
  // the field reaches as far above the caption's middle as its line lies below it.
  if (cy > 0 && cy < H) {
    const xEnd = Math.min(W, Math.round(caption[2] + 12 * h));
    for (let y = Math.round(cy + 0.5 * h); y < Math.min(H - 1, cy + 2.5 * h); y++) {
      const { start, width } = longestRun(y, fromX, xEnd, 80 * h);
      if (start < 0 || width < 8 * h) continue;
      // Not the top of a box below (the next row's field): no side runs down from the line's start.
      let down = 0;
      // (A rounded corner starts the line a few pixels right of the side.)
      for (let yy = y + 1; yy < Math.min(H, y + h); yy++) {
        let side = false;
        for (let x = Math.max(1, start - 4); x <= start + 2 && !side; x++) side = vEdge(x, yy);
        if (side) down++;
      }
      if (down >= 0.6 * h) break;
      return [start, Math.max(0, 2 * cy - y), start + width, y + 1];
    }
  }

  // Below: the first row under the caption with a long horizontal edge starting near the
  // caption's left end (the field's top), and the next such row (its bottom).
  const x0 = Math.max(0, Math.round(caption[0] - 2 * h));
  const x1 = Math.min(W, Math.round(caption[0] + 2 * h));
  for (let y = Math.round(caption[3]) + 1; y < Math.min(H, caption[3] + 4 * h); y++) {
    const { start, width } = longestRun(y, x0, x1, 80 * h);
    if (start < 0 || width < 5 * h) continue;
    for (let y2 = Math.round(y + 1.2 * h); y2 < Math.min(H, y + 6 * h); y2++) {
      if (runRight(start, y2, start + width) >= 0.7 * width) return [start, y, start + width, y2];
    }
    return [start, y, start + width, Math.min(H, Math.round(y + 2 * h))];
  }
  return undefined;
}

/** How far above and below its text, in text heights, a box's sides are looked for (a tall field padded around small text, as large-print forms draw them, reaches 2.5). */
const REACH = 2.5;

/**
 * A pill around text (a search field's rounded ends, no straight side): its top and bottom sides run on together past
 * the text both ways to where its round ends begin, each end's curve reaching half its height further at mid-height.
 */
function pillAround(x0: number, x1: number, top: number, bottom: number, hEdge: (x: number, y: number) => boolean, vEdge: (x: number, y: number) => boolean, W: number, leftReach: number): BBox | undefined {
  const near = (x: number, y: number) => hEdge(x, y - 1) || hEdge(x, y) || hEdge(x, y + 1);
  const both = (x: number) => near(x, top) && near(x, bottom);
  for (let x = x0; x < x1; x++) if (!both(x)) return undefined;
  let lx = x0;
  while (lx > 1 && x0 - lx < leftReach && both(lx - 1)) lx--;
  let rx = x1;
  while (rx < W - 2 && both(rx + 1)) rx++;
  const r = (bottom - top) / 2;
  const mid = Math.round((top + bottom) / 2);
  // The columns of a round end's curve at mid-height, outermost first.
  const curve = (from: number, to: number, step: 1 | -1) => {
    const [a, b] = [Math.max(1, Math.round(from)), Math.min(W - 1, Math.round(to))];
    for (let x = step > 0 ? a : b; step > 0 ? x <= b : x >= a; x += step) if (vEdge(x, mid) || vEdge(x, mid - 1) || vEdge(x, mid + 1)) return x;
    return undefined;
  };
  if (r < 4) return undefined;
  const [left, right] = [curve(lx - r - 2, lx - 0.4 * r, 1), curve(rx + 0.4 * r, rx + r + 2, -1)];
  return left !== undefined && right !== undefined ? [left, top, right, bottom] : undefined;
}

/**
 * The box drawn around a run of text, when there is one close around it (a field showing its value
 * or placeholder, a drop-down showing its choice): edges just above and below the text across its
 * width, and one at its left (looked for up to `leftReach` px left of the text; default four times its
 * height). Undefined for text on the open page (a caption, a heading).
 */
export function enclosingBox(frame: Frame, text: BBox, leftReach?: number): BBox | undefined {
  const { g, W, H } = greyPlane(frame);
  const [x0, y0, x1, y1] = [Math.max(1, Math.round(text[0])), Math.max(1, Math.round(text[1])), Math.min(W - 1, Math.round(text[2])), Math.min(H - 1, Math.round(text[3]))];
  const h = Math.max(6, y1 - y0);
  if (x1 - x0 < 2) return undefined;
  const hEdge = (x: number, y: number) => y > 0 && y < H && Math.abs(g[y * W + x]! - g[(y - 1) * W + x]!) >= EDGE;
  const vEdge = (x: number, y: number) => x > 0 && x < W && Math.abs(g[y * W + x]! - g[y * W + x - 1]!) >= EDGE;
  const across = (y: number) => {
    let n = 0;
    for (let x = x0; x < x1; x++) n += hEdge(x, y) ? 1 : 0;
    return n / (x1 - x0);
  };
  // (An OCR box may reach the box's own sides: the search starts a little inside it.)
  const inset = Math.round(0.2 * h);
  let top = -1;
  for (let y = y0 + inset; y >= Math.max(1, y0 - REACH * h); y--)
    if (across(y) >= 0.9) {
      top = y;
      break;
    }
  let bottom = -1;
  for (let y = y1 - inset; y < Math.min(H, y1 + REACH * h); y++)
    if (across(y) >= 0.9) {
      bottom = y;
      break;
    }
  if (top < 0 || bottom < 0) return undefined;
  const down = (x: number) => {
    let n = 0;
    for (let y = top + 1; y < bottom; y++) n += vEdge(x, y) ? 1 : 0;
    return n / Math.max(1, bottom - top - 1);
  };
  let left = -1;
  for (let x = x0 + inset; x >= Math.max(1, x0 - (leftReach ?? 4 * h)); x--)
    if (down(x) >= 0.8) {
      left = x;
      break;
    }
  if (left < 0) return pillAround(x0, x1, top, bottom, hEdge, vEdge, W, leftReach ?? 4 * h);
  // One box: its top and bottom sides run from its left side (rounded corners aside) past the text.
  const side = (y: number) => {
    let gap = 0;
    for (let x = left + Math.ceil(0.6 * h); x >= left; x--) if (hEdge(x, y) || hEdge(x, y + 1)) gap = -1;
    if (gap === 0) return false;
    let miss = 0;
    for (let x = left + Math.ceil(0.6 * h); x < x1; x++) if (!hEdge(x, y) && !hEdge(x, y + 1) && ++miss > 2) return false;
    return true;
  };
  if (!side(top) || !side(bottom) || bottom - top > (2 * REACH) * h) return undefined;
  let right = x1;
  for (let x = x1 + 1; x < Math.min(W, x1 + 80 * h); x++)
    if (down(x) >= 0.8) {
      right = x;
      break;
    }
  return [left, top, right, bottom];
}

/**
 * The drawn box of a field whose box was only estimated (the detector's coarse pass, placed on the frame halved: tens of
 * pixels off across, a few down): the edges found around the estimate's middle — its central half across, its central
 * two fifths down, inside the field wherever the estimate overlaps it well — by `enclosingBox`, when that box holds the
 * estimate's centre. Undefined when no such box is drawn (a borderless field keeps its estimate).
 */
export function drawnFieldAround(frame: Frame, box: BBox): BBox | undefined {
  const [x0, y0, x1, y1] = box;
  const w = x1 - x0;
  const h = y1 - y0;
  if (w < 8 || h < 8) return undefined;
  const found = enclosingBox(frame, [x0 + 0.25 * w, y0 + 0.3 * h, x1 - 0.25 * w, y1 - 0.3 * h], 0.75 * w);
  const [cx, cy] = [(x0 + x1) / 2, (y0 + y1) / 2];
  return found && found[0] <= cx && cx <= found[2] && found[1] <= cy && cy <= found[3] ? found : undefined;
}

/**
 * The field drawn as a line under its text (a Material-style field: no box, only a bottom line; a pill whose shadow is its
 * only edge), where the text is its placeholder or value: a straight line 1–3 px thick a little below the text, from at
 * most two and a half text heights before the text's start (room for a lens) to well past its end (a link's own underline spans its words only),
 * the same colour above and below it, and no side going down from its ends (the top of a box under a caption is no field's
 * underline). The box: from the line's start to its end, from a little above the text to the line. Undefined otherwise.
 */
export function underlinedField(frame: Frame, text: BBox): BBox | undefined {
  const { g, W, H } = greyPlane(frame);
  const h = text[3] - text[1];
  if (h < 4) return undefined;
  const at = (x: number, y: number) => g[y * W + x]!;
  const x0 = Math.max(1, Math.round(text[0]));
  const x1 = Math.min(W - 1, Math.round(text[2]));
  const yFrom = Math.ceil(text[3]) + 1;
  const yTo = Math.min(H - 4, Math.round(text[3] + 1.2 * h));
  for (let y = yFrom; y <= yTo; y++) {
    const above = y - 1;
    // A line row differs from the row above it (the background between text and line).
    const line = (x: number, yy: number) => x >= 0 && x < W && Math.abs(at(x, yy) - at(x, above)) >= EDGE;
    // Most of the text's span must be line on this row.
    let onSpan = 0;
    for (let x = x0; x < x1; x++) onSpan += line(x, y) ? 1 : 0;
    if (onSpan < 0.9 * (x1 - x0)) continue;
    // Its thickness, and the colour below it back to the colour above.
    let t = 1;
    while (t < 4 && y + t < H && line(Math.round((x0 + x1) / 2), y + t)) t++;
    if (t > 3 || y + t + 2 >= H) return undefined;
    const below = y + t + 1;
    let same = 0;
    for (let x = x0; x < x1; x++) same += Math.abs(at(x, below) - at(x, above)) < EDGE ? 1 : 0;
    if (same < 0.8 * (x1 - x0)) return undefined;
    // Its ends, gaps of 2 px allowed.
    const end = (from: number, step: 1 | -1) => {
      let last = from;
      for (let x = from, gap = 0; x > 0 && x < W - 1; x += step) {
        if (line(x, y) || (t > 1 && line(x, y + 1))) [last, gap] = [x, 0];
        else if (++gap > 2) break;
      }
      return last;
    };
    const left = end(x0, -1);
    const right = end(x1, 1);
    if (left < text[0] - 2.5 * h || right - text[2] < 1.5 * h) return undefined;
    // No side going down from either end (a box's top edge) — with rounded corners, a few pixels outside the line's end.
    const side = (x: number) => {
      if (x < 1 || x >= W) return false;
      let n = 0;
      for (let yy = below; yy < Math.min(H, below + Math.round(0.6 * h)); yy++) n += Math.abs(at(x, yy) - at(x - 1, yy)) >= EDGE || Math.abs(at(x, yy) - at(Math.min(W - 1, x + 1), yy)) >= EDGE ? 1 : 0;
      return n >= 0.5 * Math.round(0.6 * h);
    };
    const corner = Math.max(2, Math.round(0.3 * h));
    for (let d = -1; d <= corner; d++) if (side(left - d) || side(right + d)) return undefined;
    // Nor a line of its extent below it within three text heights (a box's bottom: the top of a box under a caption whose
    // sides are too soft to see); a page's rule running past both ends is no bottom.
    for (let yy = below + 1; yy < Math.min(H, below + 3 * h); yy++) {
      const edge = (x: number) => Math.abs(at(x, yy) - at(x, yy - 1)) >= EDGE;
      let n = 0;
      for (let x = left; x <= right; x++) n += edge(x) ? 1 : 0;
      if (n < 0.8 * (right - left + 1)) continue;
      const outside = (x: number) => x > 0 && x < W && edge(x);
      if (!outside(left - Math.round(h)) || !outside(right + Math.round(h))) return undefined;
    }
    return [left, Math.max(0, text[1] - 0.6 * h), right + 1, y + t];
  }
  return undefined;
}

/** Grey levels from the background that make ink (a check box's light border on white, anti-aliased, keeps about 30). */
const INK = 28;

/**
 * A toggle's box drawn at the far end of its caption's row, which the detector missed (a settings row: the caption at the
 * left, often a line of help under it, its check box at the row's right end, nothing between them): the first ink right of
 * the caption on its row, up to `reach` text heights away, when it is about square and toggle-sized (half to twice the
 * text's height) and no word was read there (`words`: the boxes of words read or detected; a letter's line is about as
 * tall as the letter, a panel around the row far taller). Its box, or undefined (a divider, a word, a button first).
 */
export function toggleAtRowEnd(frame: Frame, caption: BBox, words: readonly BBox[], reach = 80): BBox | undefined {
  const { g, W, H } = greyPlane(frame);
  const h = caption[3] - caption[1];
  if (h < 4) return undefined;
  const cy = (caption[1] + caption[3]) / 2;
  const [y0, y1] = [Math.max(0, Math.round(cy - 0.6 * h)), Math.min(H - 1, Math.round(cy + 0.6 * h))];
  const x0 = Math.round(caption[2] + 0.3 * h);
  const xEnd = Math.min(W, Math.round(caption[2] + reach * h));
  if (x0 < 0 || x0 >= xEnd) return undefined;
  // The row's background: the most common grey of the band's first column (the gap after the caption).
  const column = Array.from({ length: y1 - y0 + 1 }, (_, i) => g[(y0 + i) * W + x0]!).sort((a, b) => a - b);
  const bg = column[column.length >> 1]!;
  const ink = (x: number, y: number) => Math.abs(g[y * W + x]! - bg) >= INK;
  const inkedColumn = (x: number) => {
    for (let y = y0; y <= y1; y++) if (ink(x, y)) return true;
    return false;
  };
  let first = -1;
  for (let x = x0; x < xEnd && first < 0; x++) if (inkedColumn(x)) first = x;
  if (first < 0) return undefined;
  let last = first;
  for (let x = first + 1, gap = 0; x < xEnd; x++) {
    if (inkedColumn(x)) [last, gap] = [x, 0];
    else if (++gap > 1) break;
  }
  const inkedRow = (y: number) => {
    for (let x = first; x <= last; x++) if (ink(x, y)) return true;
    return false;
  };
  let [top, bottom] = [-1, -1];
  for (let y = y0; y <= y1; y++) if (inkedRow(y)) [top, bottom] = [top < 0 ? y : top, y];
  while (top > 0 && cy - top < 2 * h && inkedRow(top - 1)) top--;
  while (bottom < H - 1 && bottom - cy < 2 * h && inkedRow(bottom + 1)) bottom++;
  const [w, gh] = [last - first + 1, bottom - top + 1];
  if (gh < 0.45 * h || gh > 2 * h || w < 0.75 * gh || w > 1.33 * gh) return undefined;
  const box: BBox = [first, top, last + 1, bottom + 1];
  return words.some((b) => bboxCoverage(box, b) >= 0.5 && b[3] - b[1] < 2.5 * gh) ? undefined : box;
}

/**
 * A toggle's box or circle drawn just before a caption: one glyph about square, as tall as the text or up to about
 * three times taller (an accessible form's large toggle), centred on the caption's row. Its box, or undefined.
 */
export function toggleBefore(frame: Frame, caption: BBox): BBox | undefined {
  const h = caption[3] - caption[1];
  const region: BBox = [Math.max(0, caption[0] - 4 * h), caption[1] - 1.2 * h, caption[0] - 1, caption[3] + 1.2 * h];
  if (region[2] - region[0] < h * 0.6) return undefined;
  const a = regionAppearance(frame, region);
  // The ink nearest the caption (the region may also hold the end of the row's previous words).
  const centred = (g: Glyph) => Math.abs((g.bbox[1] + g.bbox[3]) / 2 - (caption[1] + caption[3]) / 2) <= 0.35 * Math.max(g.bbox[3] - g.bbox[1], h);
  const g = (a.glyphs ?? (a.glyph ? [a.glyph] : [])).filter(centred).sort((p, q) => q.bbox[2] - p.bbox[2])[0];
  if (!g) return undefined;
  const [w, gh] = [g.bbox[2] - g.bbox[0], g.bbox[3] - g.bbox[1]];
  const near = caption[0] - g.bbox[2] <= Math.max(1.2 * h, 0.6 * gh);
  return gh >= 0.6 * h && gh <= 3 * h && w >= 0.75 * gh && w <= 1.33 * gh && near ? g.bbox : undefined;
}
