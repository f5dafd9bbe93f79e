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
  return panelFinder(frame, minSide)(p);
}

/** {@link enclosingPanel} for many points of one frame: the frame made grey once. */
export function panelFinder(frame: Frame, minSide = 16): (p: Point) => BBox | undefined {
  const img = toRgb(frame);
  const g = toGrey(img);
  const W = img.width;
  const H = img.height;
  return (p: Point): BBox | undefined => {
    const px = Math.round(p[0]);
    const py = Math.round(p[1]);
    if (px < 1 || py < 1 || px >= W - 1 || py >= H - 1) return undefined;
    const at = (x: number, y: number) => g[y * W + x]!;
    const flat = (x: number, y: number, dx: number, dy: number) => Math.abs(at(x + dx, y + dy) - at(x, y)) < EDGE;
    // From the point, the nearest edge each way…
    let left = px;
    while (left > 0 && flat(left, py, -1, 0)) left--;
    let right = px;
    while (right < W - 1 && flat(right, py, 1, 0)) right++;
    let top = py;
    while (top > 0 && flat(px, top, 0, -1)) top--;
    let bottom = py;
    while (bottom < H - 1 && flat(px, bottom, 0, 1)) bottom++;
    // A point on a drawn thing (between the strokes of a text) has no empty area of its own around it.
    if (right - left + 1 < minSide || bottom - top + 1 < minSide) return undefined;
    // …then the farthest each way from points across the flat row and column through it: what is drawn inside a panel
    // (a document's lines above the empty part clicked, a mark beside it) stops one walk, not all of them.
    const samples = (a: number, b: number) => Array.from({ length: 17 }, (_, k) => Math.round(a + ((b - a) * k) / 16));
    for (const x of samples(left, right)) {
      let y = py;
      while (y > 0 && flat(x, y, 0, -1)) y--;
      top = Math.min(top, y);
      y = py;
      while (y < H - 1 && flat(x, y, 0, 1)) y++;
      bottom = Math.max(bottom, y);
    }
    for (const y of samples(top, bottom)) {
      if (Math.abs(at(px, y) - at(px, py)) >= EDGE) continue; // the walk starts on the panel's ground
      let x = px;
      while (x > 0 && flat(x, y, -1, 0)) x--;
      left = Math.min(left, x);
      x = px;
      while (x < W - 1 && flat(x, y, 1, 0)) x++;
      right = Math.max(right, x);
    }
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
  };
}
