// What the icon classifier sees of an icon (src/perception/icon-classifier.ts; training/icons/
// builds its training data with this same function): a square crop centred on the icon's ink box,
// turned into "ink" — each pixel's grey distance from the crop's background (the median grey of
// the crop's border), scaled by the crop's strong ink — so dark-on-light and light-on-dark icons,
// any colour and contrast, look alike. 32×32 values in [0, 1].
import type { Frame } from "../core/frame.js";
import type { BBox } from "../core/geometry.js";
import { cropResize, toRgb } from "./raster.js";

export const ICON_INPUT_SIDE = 32;
/** The square crop's side, as a multiple of the ink box's longer side. */
const MARGIN = 1.25;

/** The classifier's input for the icon whose ink box is `box` (frame pixels), written at `out[offset…]`. */
export function iconInput(frame: Frame, box: BBox, out = new Float32Array(ICON_INPUT_SIDE * ICON_INPUT_SIDE), offset = 0): Float32Array {
  const n = ICON_INPUT_SIDE;
  const side = Math.max(box[2] - box[0], box[3] - box[1], 2) * MARGIN + 2;
  const cx = (box[0] + box[2]) / 2;
  const cy = (box[1] + box[3]) / 2;
  // Sampled at twice the size and averaged 2×2, so large icons do not alias.
  const rgb = cropResize(toRgb(frame), [cx - side / 2, cy - side / 2, cx + side / 2, cy + side / 2], 2 * n, 2 * n);
  const grey = new Float32Array(n * n);
  const at = (x: number, y: number) => {
    const o = (y * 2 * n + x) * 3;
    return 0.299 * rgb[o]! + 0.587 * rgb[o + 1]! + 0.114 * rgb[o + 2]!;
  };
  for (let y = 0; y < n; y++)
    for (let x = 0; x < n; x++) grey[y * n + x] = (at(2 * x, 2 * y) + at(2 * x + 1, 2 * y) + at(2 * x, 2 * y + 1) + at(2 * x + 1, 2 * y + 1)) / 4;
  const border: number[] = [];
  for (let i = 0; i < n; i++) border.push(grey[i]!, grey[(n - 1) * n + i]!, grey[i * n]!, grey[i * n + n - 1]!);
  border.sort((a, b) => a - b);
  const bg = border[border.length >> 1]!;
  const ink = grey.map((g) => Math.abs(g - bg));
  const sorted = Float32Array.from(ink).sort();
  const strong = Math.max(30, sorted[Math.floor(0.98 * (sorted.length - 1))]!);
  for (let i = 0; i < n * n; i++) out[offset + i] = Math.min(1, ink[i]! / strong);
  return out;
}
