// Weight-free screen descriptor ("layout_v1"): where the edges are, which way they run, and how
// much ink each region holds, pooled at several scales. No model weights ship in any npm or
// Debian package here, so this is the default image embedder.
//
// Robustness by construction: the uniform desktop border around a window is trimmed (window
// moved), the content is resampled to a fixed grid (±10 % size, ×2 scale), edge magnitudes are
// normalised by their mean and are the same for dark-on-light and light-on-dark (theme change),
// and pooling cells are much larger than a 20 px shift. Features are log-compressed, centred and
// mapped to the configured dimension by a fixed random projection (cosine is preserved).
import { InvalidInputError } from "../core/errors.js";
import type { Frame } from "../core/frame.js";
import type { ImageEmbedder } from "../core/providers/embedders.js";
import type { Vector } from "../core/vectors.js";

const GW = 128;
const GH = 72;

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

/** Luminance of a region, resampled to GW×GH by area averaging. */
function luminanceGrid(frame: Frame, box: [number, number, number, number]): Float32Array {
  const { data, width, channels: c } = frame;
  const [bx1, by1, bx2, by2] = box;
  const out = new Float32Array(GW * GH);
  const cnt = new Float32Array(GW * GH);
  const sx = GW / (bx2 - bx1);
  const sy = GH / (by2 - by1);
  for (let y = by1; y < by2; y++) {
    const gy = Math.min(GH - 1, Math.floor((y - by1) * sy));
    const row = y * width * c;
    for (let x = bx1; x < bx2; x++) {
      const o = row + x * c;
      const l = 0.299 * (data[o] as number) + 0.587 * (data[o + 1] as number) + 0.114 * (data[o + 2] as number);
      const gi = gy * GW + Math.min(GW - 1, Math.floor((x - bx1) * sx));
      out[gi] = (out[gi] as number) + l;
      cnt[gi] = (cnt[gi] as number) + 1;
    }
  }
  for (let i = 0; i < out.length; i++) out[i] = (cnt[i] as number) > 0 ? (out[i] as number) / (cnt[i] as number) : 0;
  return out;
}

function pool(map: Float32Array, cols: number, rows: number, out: number[]): void {
  for (let r = 0; r < rows; r++)
    for (let q = 0; q < cols; q++) {
      let s = 0;
      let n = 0;
      const ya = Math.floor((r * GH) / rows);
      const yb = Math.floor(((r + 1) * GH) / rows);
      const xa = Math.floor((q * GW) / cols);
      const xb = Math.floor(((q + 1) * GW) / cols);
      for (let y = ya; y < yb; y++)
        for (let x = xa; x < xb; x++) {
          s += map[y * GW + x] as number;
          n++;
        }
      out.push(n > 0 ? s / n : 0);
    }
}

/** Raw features of a frame (before projection). Exposed for tests and benches. */
export function layoutFeatures(frame: Frame): number[] {
  if (frame.channels < 3) throw new InvalidInputError("The layout embedder needs an RGB or RGBA frame.");
  const lum = luminanceGrid(frame, contentBox(frame));
  const mag = new Float32Array(GW * GH);
  const horiz = new Float32Array(GW * GH);
  const vert = new Float32Array(GW * GH);
  const at = (x: number, y: number) => lum[Math.min(GH - 1, Math.max(0, y)) * GW + Math.min(GW - 1, Math.max(0, x))] as number;
  let total = 0;
  for (let y = 0; y < GH; y++)
    for (let x = 0; x < GW; x++) {
      const gx = at(x + 1, y - 1) + 2 * at(x + 1, y) + at(x + 1, y + 1) - at(x - 1, y - 1) - 2 * at(x - 1, y) - at(x - 1, y + 1);
      const gy = at(x - 1, y + 1) + 2 * at(x, y + 1) + at(x + 1, y + 1) - at(x - 1, y - 1) - 2 * at(x, y - 1) - at(x + 1, y - 1);
      const m = Math.hypot(gx, gy);
      const i = y * GW + x;
      mag[i] = m;
      if (Math.abs(gx) >= Math.abs(gy)) vert[i] = m;
      else horiz[i] = m;
      total += m;
    }
  const norm = total > 0 ? (GW * GH) / total : 0;
  for (const m of [mag, horiz, vert]) for (let i = 0; i < m.length; i++) m[i] = (m[i] as number) * norm;
  // "Ink": distance from the median luminance, the same for a theme and its inverse.
  const sorted = Float32Array.from(lum).sort();
  const median = sorted[sorted.length >> 1] as number;
  const ink = Float32Array.from(lum, (l) => Math.abs(l - median) / 128);
  const f: number[] = [];
  pool(mag, 16, 9, f);
  pool(mag, 8, 4, f);
  pool(horiz, 12, 6, f);
  pool(vert, 12, 6, f);
  pool(ink, 8, 4, f);
  pool(mag, 1, 36, f); // row profile
  pool(mag, 64, 1, f); // column profile
  return f.map((x) => Math.log1p(x));
}

/** Deterministic Gaussian projection matrix (rows × cols), from a seed. */
function projection(rows: number, cols: number, seed: number): Float32Array {
  let a = seed >>> 0;
  const rand = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) + 0.5) / 4294967296;
  };
  const m = new Float32Array(rows * cols);
  for (let i = 0; i < m.length; i += 2) {
    const r = Math.sqrt(-2 * Math.log(rand()));
    const th = 2 * Math.PI * rand();
    m[i] = r * Math.cos(th);
    if (i + 1 < m.length) m[i + 1] = r * Math.sin(th);
  }
  return m;
}

export class LayoutImageEmbedder implements ImageEmbedder {
  readonly name: string;
  private matrix: Float32Array | undefined;

  constructor(readonly dimensions = 512) {
    this.name = `layout_v1_${dimensions}`;
  }

  embedSync(frame: Frame): Vector {
    const raw = layoutFeatures(frame);
    const mean = raw.reduce((a, b) => a + b, 0) / raw.length;
    const centred = raw.map((x) => x - mean);
    this.matrix ??= projection(this.dimensions, raw.length, 0x5eed);
    const out = new Float32Array(this.dimensions);
    const f = centred.length;
    for (let i = 0; i < this.dimensions; i++) {
      let s = 0;
      const o = i * f;
      for (let j = 0; j < f; j++) s += (this.matrix[o + j] as number) * (centred[j] as number);
      out[i] = s;
    }
    return out;
  }

  async embed(frame: Frame): Promise<Vector> {
    return this.embedSync(frame);
  }
}
