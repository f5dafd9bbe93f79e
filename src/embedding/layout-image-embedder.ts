// Weight-free screen descriptor ("layout_v2"): where a screen's edges are and which way they run,
// pooled at several scales. No model weights ship in any npm or Debian package here, so this is
// the default image embedder.
//
// Robust by construction:
//  - window moved: the uniform desktop border around a window is trimmed;
//  - size (±10 %, ×2 of the same layout): the content is resampled to a fixed grid;
//  - theme (light ↔ dark, colour): only edges count, as *presence* — a saturating function of the
//    gradient magnitude, the same for dark-on-light and light-on-dark and nearly the same for a
//    faint border and a strong one — never the colours or luminances of areas, which a theme
//    changes region by region (a dark mode darkens the page but not its already dark side bar);
//  - 20 px shifts: pooling cells are much larger, and the maps are blurred before pooling.
// Each pooled map is centred and scaled to unit norm, so the cosine of two descriptors is the
// mean correlation of their maps: what is denser or sparser than the screen's own average, where.
// A layout two screens share (same app or site) still correlates, but far less than the raw
// densities (all positive) did in layout_v1.
import { InvalidInputError } from "../core/errors.js";
import type { Frame } from "../core/frame.js";
import type { ImageEmbedder } from "../core/providers/embedders.js";
import type { Vector } from "../core/vectors.js";
import { fixedProjection, unitMaps } from "./pooled-maps.js";

const GW = 256;
const GH = 144;
/** Sobel magnitude (4 × a step's height in grey levels) at which an edge counts as half present. */
const KNEE = 24;

/** Bounding box of the pixels that differ from the top-left corner colour (the desktop). */
export function contentBox(frame: Frame, tolerance = 24): [number, number, number, number] {
  const { data, width, height, channels: c } = frame;
  const r0 = data[0] as number;
  const g0 = data[1] as number;
  const b0 = data[2] as number;
  let x1 = width;
  let y1 = height;
  let x2 = -1;
  let y2 = -1;
  for (let y = 0; y < height; y += 2) {
    const row = y * width * c;
    for (let x = 0; x < width; x += 2) {
      const o = row + x * c;
      if (Math.abs((data[o] as number) - r0) + Math.abs((data[o + 1] as number) - g0) + Math.abs((data[o + 2] as number) - b0) > tolerance) {
        if (x < x1) x1 = x;
        if (x > x2) x2 = x;
        if (y < y1) y1 = y;
        if (y > y2) y2 = y;
      }
    }
  }
  // Nothing, or almost nothing, to trim: keep the whole frame.
  if (x2 < 0 || (x2 - x1) * (y2 - y1) < width * height * 0.05) return [0, 0, width, height];
  return [x1, y1, Math.min(width, x2 + 2), Math.min(height, y2 + 2)];
}

/**
 * Luminance of a region resampled to GW×GH: the mean of the pixels each cell covers (every
 * second pixel each way when a cell covers 4×4 or more), the nearest pixel when the region is
 * smaller than the grid (element crops).
 */
export function luminanceGrid(frame: Frame, box: readonly [number, number, number, number]): Float32Array {
  const { data, width, channels: c } = frame;
  const [bx1, by1, bx2, by2] = box;
  const bw = bx2 - bx1;
  const bh = by2 - by1;
  const step = bw >= 4 * GW && bh >= 4 * GH ? 2 : 1;
  // The grid column of each sampled x, and how many samples each cell gets.
  const xs: number[] = [];
  const colOf: number[] = [];
  for (let gx = 0; gx < GW; gx++) {
    const xa = bx1 + Math.floor((gx * bw) / GW);
    const xb = Math.max(xa + 1, bx1 + Math.floor(((gx + 1) * bw) / GW));
    for (let x = xa; x < xb; x += step) {
      xs.push(x * c);
      colOf.push(gx);
    }
  }
  const perCol = new Float32Array(GW);
  for (const g of colOf) perCol[g] = (perCol[g] as number) + 1;
  const out = new Float32Array(GW * GH);
  const row = new Float32Array(GW);
  for (let gy = 0; gy < GH; gy++) {
    const ya = by1 + Math.floor((gy * bh) / GH);
    const yb = Math.max(ya + 1, by1 + Math.floor(((gy + 1) * bh) / GH));
    row.fill(0);
    let rows = 0;
    for (let y = ya; y < yb; y += step) {
      const base = y * width * c;
      for (let k = 0; k < xs.length; k++) {
        const o = base + (xs[k] as number);
        const g = colOf[k] as number;
        row[g] = (row[g] as number) + 0.299 * (data[o] as number) + 0.587 * (data[o + 1] as number) + 0.114 * (data[o + 2] as number);
      }
      rows++;
    }
    for (let gx = 0; gx < GW; gx++) out[gy * GW + gx] = (row[gx] as number) / (rows * (perCol[gx] as number));
  }
  return out;
}

/** Edge presence, and its horizontal and vertical parts, on the GW×GH grid. */
export function edgeMaps(lum: Float32Array): { edge: Float32Array; horiz: Float32Array; vert: Float32Array } {
  const edge = new Float32Array(GW * GH);
  const horiz = new Float32Array(GW * GH);
  const vert = new Float32Array(GW * GH);
  const at = (x: number, y: number) => lum[Math.min(GH - 1, Math.max(0, y)) * GW + Math.min(GW - 1, Math.max(0, x))] as number;
  for (let y = 0; y < GH; y++)
    for (let x = 0; x < GW; x++) {
      const gx = at(x + 1, y - 1) + 2 * at(x + 1, y) + at(x + 1, y + 1) - at(x - 1, y - 1) - 2 * at(x - 1, y) - at(x - 1, y + 1);
      const gy = at(x - 1, y + 1) + 2 * at(x, y + 1) + at(x + 1, y + 1) - at(x - 1, y - 1) - 2 * at(x, y - 1) - at(x + 1, y - 1);
      const m = Math.hypot(gx, gy);
      const e = m / (m + KNEE);
      const i = y * GW + x;
      edge[i] = e;
      // An edge between a region above and one below runs horizontally (|gy| large).
      if (Math.abs(gy) >= Math.abs(gx)) horiz[i] = e;
      else vert[i] = e;
    }
  return { edge, horiz, vert };
}

/** The descriptor before projection: unit-norm, centred pooled maps, concatenated. Exposed for tests and benches. */
export function layoutFeatures(frame: Frame): Float32Array {
  if (frame.channels < 3) throw new InvalidInputError("The layout embedder needs an RGB or RGBA frame.");
  const { edge, horiz, vert } = edgeMaps(luminanceGrid(frame, contentBox(frame)));
  return unitMaps(GW, GH, [
    { map: edge, cols: 16, rows: 9 },
    { map: edge, cols: 8, rows: 5 },
    { map: horiz, cols: 12, rows: 7 },
    { map: vert, cols: 12, rows: 7 },
    { map: edge, cols: 1, rows: 36 }, // row profile
    { map: edge, cols: 64, rows: 1 }, // column profile
  ]);
}

export class LayoutImageEmbedder implements ImageEmbedder {
  readonly name: string;
  private readonly project: (f: Float32Array) => Vector;

  constructor(readonly dimensions = 512) {
    this.name = `layout_v2_${dimensions}`;
    this.project = fixedProjection(dimensions, 0x5eed);
  }

  embedSync(frame: Frame): Vector {
    return this.project(layoutFeatures(frame));
  }

  async embed(frame: Frame): Promise<Vector> {
    return this.embedSync(frame);
  }
}
