// What the icon classifier sees of an icon (src/perception/icon-classifier.ts; training/icons/
// builds its training data with this same function): a square crop centred on the icon's ink box,
// turned into "ink" — each pixel's grey distance from the crop's background (the median grey of
// the crop's border), scaled by the crop's strong ink — so dark-on-light and light-on-dark icons,
// any colour and contrast, look alike. 32×32 values in [0, 1].
import type { Frame } from "../core/frame.js";
import type { BBox } from "../core/geometry.js";
import { cropResize, toRgb } from "./raster.js";

export const ICON_INPUT_SIDE = 32;
/** Planes of the input: the ink, and the edges inside it (colour edges too: a colour icon's parts of one grey). */
export const ICON_INPUT_PLANES = 2;
/** Values per icon. */
export const ICON_INPUT_SIZE = ICON_INPUT_PLANES * ICON_INPUT_SIDE * ICON_INPUT_SIDE;
/** The square crop's side, as a multiple of the ink box's longer side. */
const MARGIN = 1.25;

/** Scaled by the crop's strong values (its 98th percentile, at least `floor`), clipped to 1, written at `out[offset…]`. */
function scaled(v: Float32Array, floor: number, out: Float32Array, offset: number): void {
  const sorted = Float32Array.from(v).sort();
  const strong = Math.max(floor, sorted[Math.floor(0.98 * (sorted.length - 1))]!);
  for (let i = 0; i < v.length; i++) out[offset + i] = Math.min(1, v[i]! / strong);
}

/** The classifier's input for the icon whose ink box is `box` (frame pixels): ICON_INPUT_SIZE values written at `out[offset…]`. */
export function iconInput(frame: Frame, box: BBox, out = new Float32Array(ICON_INPUT_SIZE), offset = 0): Float32Array {
  const n = ICON_INPUT_SIDE;
  const side = Math.max(box[2] - box[0], box[3] - box[1], 2) * MARGIN + 2;
  const cx = (box[0] + box[2]) / 2;
  const cy = (box[1] + box[3]) / 2;
  // Sampled at twice the size and averaged 2×2, so large icons do not alias.
  const big = cropResize(toRgb(frame), [cx - side / 2, cy - side / 2, cx + side / 2, cy + side / 2], 2 * n, 2 * n);
  const rgb = new Float32Array(n * n * 3);
  for (let y = 0; y < n; y++)
    for (let x = 0; x < n; x++)
      for (let c = 0; c < 3; c++) {
        const at = (xx: number, yy: number) => big[(yy * 2 * n + xx) * 3 + c]!;
        rgb[(y * n + x) * 3 + c] = (at(2 * x, 2 * y) + at(2 * x + 1, 2 * y) + at(2 * x, 2 * y + 1) + at(2 * x + 1, 2 * y + 1)) / 4;
      }
  const grey = new Float32Array(n * n);
  for (let i = 0; i < n * n; i++) grey[i] = 0.299 * rgb[i * 3]! + 0.587 * rgb[i * 3 + 1]! + 0.114 * rgb[i * 3 + 2]!;
  const border: number[] = [];
  for (let i = 0; i < n; i++) border.push(grey[i]!, grey[(n - 1) * n + i]!, grey[i * n]!, grey[i * n + n - 1]!);
  border.sort((a, b) => a - b);
  const bg = border[border.length >> 1]!;
  scaled(grey.map((g) => Math.abs(g - bg)), 30, out, offset);
  // Edges: the largest colour step to the right or below (any channel), so the parts of a colour icon show apart.
  const edges = new Float32Array(n * n);
  for (let y = 0; y < n; y++)
    for (let x = 0; x < n; x++) {
      const i = y * n + x;
      let e = 0;
      for (let c = 0; c < 3; c++) {
        const v = rgb[i * 3 + c]!;
        if (x + 1 < n) e = Math.max(e, Math.abs(rgb[(i + 1) * 3 + c]! - v));
        if (y + 1 < n) e = Math.max(e, Math.abs(rgb[(i + n) * 3 + c]! - v));
      }
      edges[i] = e;
    }
  scaled(edges, 30, out, offset + n * n);
  return out;
}
