// Icons the detector and OCR both missed (a toolbar of icon-only buttons, a window's close cross):
// compact blobs of contrasting pixels, of an icon's size, outside every detected element and every
// line of text. Proposed only when an instruction describes an icon; scored like the elements.
import type { Frame } from "../core/frame.js";
import { bboxCenter, bboxContains, bboxContainsPoint, bboxIntersection, bboxUnion, type BBox } from "../core/geometry.js";
import { toGrey, toRgb } from "./raster.js";

/** Grey-level step between neighbouring pixels that marks an icon's outline. */
const EDGE = 40;
/** Edges are joined on cells of this many pixels; cells up to one empty cell apart join (the three bars of a menu icon). */
const CELL = 2;
const REACH = 2;
const MAX_PROPOSALS = 300;

/**
 * Boxes of icon-sized blobs (about 8 to 56 screen pixels a side at the frame's scale, a thin row of three dots, or a
 * flat bar, as the square around it) whose centre lies in none of `occupied` (detected elements, text lines) — a bar's
 * in none of `barsOutside` either (a dash inside a labelled element is its words' or its value's, or a spin box's
 * button). Frame pixels. Blobs whose boxes cross (they overlap and neither holds the other) are one thing cut in pieces
 * — a button's faint outline broken where its shade is one grey level fainter — and are proposed as one box while it
 * stays icon-sized; a blob inside another (an icon in its frame) stays apart.
 */
export function iconProposals(frame: Frame, occupied: readonly BBox[], barsOutside: readonly BBox[] = occupied): BBox[] {
  const img = toRgb(frame);
  const g = toGrey(img);
  const W = img.width;
  const H = img.height;
  const cw = Math.ceil(W / CELL);
  const ch = Math.ceil(H / CELL);
  const cells = new Uint8Array(cw * ch);
  for (let y = 1; y < H; y++)
    for (let x = 1; x < W; x++) {
      const v = g[y * W + x]!;
      if (Math.abs(v - g[y * W + x - 1]!) > EDGE || Math.abs(v - g[(y - 1) * W + x]!) > EDGE) cells[((y / CELL) | 0) * cw + ((x / CELL) | 0)] = 1;
    }
  const s = frame.scaleFactor > 0 ? frame.scaleFactor : 1;
  const [minSide, maxSide] = [8 * s, 56 * s];
  const seen = new Uint8Array(cw * ch);
  const sized: BBox[] = [];
  const bars = new Set<BBox>();
  const stack: number[] = [];
  const iconSized = (b: BBox): boolean => {
    const [bw, bh] = [b[2] - b[0], b[3] - b[1]];
    return bw >= minSide && bh >= minSide && bw <= maxSide && bh <= maxSide && bw <= 2.5 * bh && bh <= 2.5 * bw;
  };
  /** A thin blob, up to 24 px long: three dots or more in a row (a "more" button, « … »), or one bar lying flat (a minimize button's dash). */
  const thinIcon = (b: BBox): BBox | undefined => {
    const [bw, bh] = [b[2] - b[0], b[3] - b[1]];
    const [long, short] = [Math.max(bw, bh), Math.min(bw, bh)];
    if (long < minSide || long > 24 * s || short >= minSide) return undefined;
    const n = pieces(b);
    if (n >= 3 && short >= 2 * s && long <= 6 * short) return b;
    // A bar: one piece lying flat, proposed as the square around it (its glyph, the dash, the classifier's input).
    if (n !== 1 || bw < 2 * bh) return undefined;
    const cy = (b[1] + b[3]) / 2;
    return [b[0], Math.max(0, cy - bw / 2), b[2], Math.min(H, cy + bw / 2)];
  };
  /** The pieces of ink along a thin blob's length. */
  const pieces = (b: BBox): number => {
    const [bw, bh] = [b[2] - b[0], b[3] - b[1]];
    // The ink: pixels far from the grey at the blob's corner, outside it, counted in runs along its length.
    const x0 = Math.max(0, b[0] - 1);
    const y0 = Math.max(0, b[1] - 1);
    const bg = g[y0 * W + x0]!;
    const across = bw >= bh;
    // Ink is at least half the strongest contrast: the blur between two dots is not.
    let strongest = 0;
    for (let y = b[1]; y < b[3]; y++) for (let x = b[0]; x < b[2]; x++) strongest = Math.max(strongest, Math.abs(g[y * W + x]! - bg));
    const ink = Math.max(EDGE, strongest / 2);
    let count = 0;
    let inked = false;
    for (let k = across ? b[0] : b[1]; k < (across ? b[2] : b[3]); k++) {
      let any = false;
      for (let m = across ? b[1] : b[0]; m < (across ? b[3] : b[2]) && !any; m++) any = Math.abs(g[across ? m * W + k : k * W + m]! - bg) > ink;
      if (any && !inked) count++;
      inked = any;
    }
    return count;
  };
  for (let start = 0; start < cells.length; start++) {
    if (!cells[start] || seen[start]) continue;
    let [x1, y1, x2, y2] = [cw, ch, 0, 0];
    let n = 0;
    seen[start] = 1;
    stack.push(start);
    while (stack.length) {
      const i = stack.pop()!;
      const x = i % cw;
      const y = (i / cw) | 0;
      n++;
      [x1, y1, x2, y2] = [Math.min(x1, x), Math.min(y1, y), Math.max(x2, x + 1), Math.max(y2, y + 1)];
      for (let dy = -REACH; dy <= REACH; dy++)
        for (let dx = -REACH; dx <= REACH; dx++) {
          const nx = x + dx;
          const ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= cw || ny >= ch) continue;
          const j = ny * cw + nx;
          if (cells[j] && !seen[j]) {
            seen[j] = 1;
            stack.push(j);
          }
        }
    }
    const box: BBox = [x1 * CELL, y1 * CELL, Math.min(W, x2 * CELL), Math.min(H, y2 * CELL)];
    if (n < 6) continue;
    if (iconSized(box)) sized.push(box);
    else {
      const thin = thinIcon(box);
      if (thin) sized.push(thin);
      if (thin && thin !== box) bars.add(thin);
    }
  }
  const out: BBox[] = [];
  for (const box of joinCrossing(sized, iconSized)) {
    if (out.length >= MAX_PROPOSALS) break;
    const c = bboxCenter(box);
    if (occupied.some((o) => bboxContainsPoint(o, c))) continue;
    if (bars.has(box) && barsOutside.some((o) => bboxContainsPoint(o, c))) continue;
    out.push(box);
  }
  return out;
}

const crossing = (a: BBox, b: BBox): boolean => bboxIntersection(a, b) !== undefined && !bboxContains(a, b) && !bboxContains(b, a);

/** Boxes that cross one another joined into one (their union), as long as the union stays `ok`; the order is kept. */
function joinCrossing(boxes: readonly BBox[], ok: (b: BBox) => boolean): BBox[] {
  const out = [...boxes];
  for (let joined = true; joined; ) {
    joined = false;
    for (let i = 0; i < out.length; i++)
      for (let j = i + 1; j < out.length; j++) {
        const [a, b] = [out[i]!, out[j]!];
        if (!crossing(a, b)) continue;
        const u = bboxUnion(a, b);
        if (!ok(u)) continue;
        out[i] = u;
        out.splice(j--, 1);
        joined = true;
      }
  }
  return out;
}
