// The panel around a point in an empty area (a canvas, a drawing area, an empty list): from the
// point, the nearest edge in each of the four directions, kept only when each is a side — an edge
// running along most of the panel's side, not a stray mark. General geometry on the grey image.
import type { Frame } from "../core/frame.js";
import type { BBox, Point } from "../core/geometry.js";
import { EDGE } from "./caption-field-probe.js";
import { toGrey, toRgb } from "./raster.js";

/** Share of a side's length where its edge must be seen (±1 px). */
const SIDE = 0.6;

/**
 * The box inside the edges that bound the flat area around `p` (frame pixels), or undefined when
 * `p` is on a drawn thing, an edge is missing on a side, or the edges found are not the panel's sides.
 */
export function enclosingPanel(frame: Frame, p: Point, minSide = 16): BBox | undefined {
  const img = toRgb(frame);
  const g = toGrey(img);
  const W = img.width;
  const H = img.height;
  const px = Math.round(p[0]);
  const py = Math.round(p[1]);
  if (px < 1 || py < 1 || px >= W - 1 || py >= H - 1) return undefined;
  const at = (x: number, y: number) => g[y * W + x]!;
  let left = px;
  while (left > 0 && Math.abs(at(left, py) - at(left - 1, py)) < EDGE) left--;
  let right = px;
  while (right < W - 1 && Math.abs(at(right + 1, py) - at(right, py)) < EDGE) right++;
  let top = py;
  while (top > 0 && Math.abs(at(px, top) - at(px, top - 1)) < EDGE) top--;
  let bottom = py;
  while (bottom < H - 1 && Math.abs(at(px, bottom + 1) - at(px, bottom)) < EDGE) bottom++;
  // The frame's own border is no side: the panel must be drawn.
  if (left === 0 || top === 0 || right === W - 1 || bottom === H - 1) return undefined;
  if (right - left + 1 < minSide || bottom - top + 1 < minSide) return undefined;
  const vSide = (x: number, dx: 1 | -1) => {
    let n = 0;
    for (let y = top; y <= bottom; y++) if ([-1, 0, 1].some((k) => x + k > 0 && x + k < W - 1 && Math.abs(at(x + k, y) - at(x + k + dx, y)) >= EDGE)) n++;
    return n / (bottom - top + 1);
  };
  const hSide = (y: number, dy: 1 | -1) => {
    let n = 0;
    for (let x = left; x <= right; x++) if ([-1, 0, 1].some((k) => y + k > 0 && y + k < H - 1 && Math.abs(at(x, y + k) - at(x, y + k + dy)) >= EDGE)) n++;
    return n / (right - left + 1);
  };
  if (vSide(left, -1) < SIDE || vSide(right, 1) < SIDE || hSide(top, -1) < SIDE || hSide(bottom, 1) < SIDE) return undefined;
  return [left, top, right + 1, bottom + 1];
}
