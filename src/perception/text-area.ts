// Multi-line text boxes (a GTK TextView, an HTML textarea, a Tk Text) the detector may miss: found from a line of text
// at their top-left, as a person sees one — a plain surface around the line that runs on, several lines down, to edges
// all round, with nothing but text inside. Asked for only when an instruction wants a text box it does not name
// ("the text area at the top", « la zone de texte à gauche »).
import type { Frame } from "../core/frame.js";
import { bboxCenter, bboxContainsPoint, type BBox } from "../core/geometry.js";
import { median } from "../core/vectors.js";
import { toGrey, toRgb } from "./raster.js";

/** Grey levels within which a pixel is the surface's own colour (a faint border differs by more; a page a shade off white too). */
const SAME = 3;
/** Share of a side's pixels that must step off the surface for the side to be drawn. */
const SIDE = 0.8;

/**
 * The text boxes that hold a line of `lines` at their top-left: the surface just above the line (its top padding) reached
 * left of the line within three line heights and above it within two, right past the line and down at least three line
 * heights, each side a straight edge (four fifths of its pixels off the surface colour), the inside the surface but for
 * the lines of text. None holds the centre of an `occupied` box (a card or panel holding controls is no text box).
 * Frame pixels; one box per text box, from its first line.
 */
export function textAreasFromLines(frame: Frame, lines: readonly BBox[], occupied: readonly BBox[]): BBox[] {
  const img = toRgb(frame);
  const g = toGrey(img);
  const W = img.width;
  const H = img.height;
  const at = (x: number, y: number) => g[y * W + x]!;
  // The surface, or a line of text on it (a text box's lines may start at its very edge).
  const onText = (x: number, y: number) => lines.some((l) => x >= l[0] - 1 && x <= l[2] + 1 && y >= l[1] - 1 && y <= l[3] + 1);
  const out: BBox[] = [];
  for (const line of [...lines].sort((a, b) => a[1] - b[1] || a[0] - b[0])) {
    const [x0, y0, x1, y1] = [Math.round(line[0]), Math.round(line[1]), Math.round(line[2]), Math.round(line[3])];
    const h = y1 - y0;
    if (h < 6 || x0 < 3 || y0 < 3 || x1 >= W - 3 || out.some((b) => bboxContainsPoint(b, bboxCenter(line)))) continue;
    const ym = (y0 + y1) >> 1;
    // The surface: the row just above the line, across it; where the text touches the box's top (a GTK TextView has
    // no margin), what most of the line's own box shows, walked from a column of it clear of ink.
    const row = Array.from({ length: x1 - x0 }, (_, k) => at(x0 + k, y0 - 2));
    const behind = median(Array.from({ length: (x1 - x0) * (y1 - y0) }, (_, k) => at(x0 + (k % (x1 - x0)), y0 + Math.floor(k / (x1 - x0)))));
    const above = median(row);
    const padded = Math.abs(above - behind) <= SAME && row.filter((v) => Math.abs(v - above) <= SAME).length >= 0.9 * row.length;
    const c = padded ? above : behind;
    const same = (x: number, y: number) => Math.abs(at(x, y) - c) <= SAME;
    let xs = x0;
    let [col, top] = [0, 0];
    if (padded) {
      // (OCR's box may overhang the text box's edge by a few pixels: the walks start where the surface does.)
      while (xs < x1 && xs - x0 < h && !same(xs, y0 - 2)) xs++;
      [col, top] = [xs + 1, y0 - 2];
    } else {
      const clear = (x: number) => Array.from({ length: y1 - y0 - 2 }, (_, k) => y0 + 1 + k).every((y) => same(x, y));
      // (A column clear of ink: between two letters, or at worst the first space between words.)
      while (xs < x0 + 4 * h && xs < x1 && !clear(xs)) xs++;
      if (xs >= x0 + 4 * h || xs >= x1) continue;
      [col, top] = [xs, ym];
    }
    // The left edge: where the surface ends walking left, across the line's middle or just under it (text that touches
    // the box's left side, as a TextView's does, stops the first walk on a letter).
    const walkLeft = (y: number) => {
      let x = xs - 1;
      while (x > 0 && x0 - x <= 3 * h && same(x, y)) x--;
      return x;
    };
    const left = Math.min(walkLeft(ym), y1 + 2 < H ? walkLeft(y1 + 2) : Infinity);
    while (top > 0 && y0 - top <= 2 * h && same(col, top)) top--;
    if (x0 - left > 3 * h || y0 - top > 2 * h || left <= 0 || top <= 0) continue;
    const plain = (x: number, y: number) => same(x, y) || onText(x, y);
    let right = xs;
    while (right < W - 1 && plain(right, top + 2)) right++;
    let bottom = top + 2;
    while (bottom < H - 1 && plain(left + 2, bottom)) bottom++;
    if (right < x1 || bottom - top < 3 * h || right - left < 6 * h) continue;
    // Four straight sides: each of its pixels off the surface, the pixel inside it on the surface.
    const side = (n: number, off: (k: number) => [number, number], inside: (k: number) => [number, number]) => {
      let drawn = 0;
      for (let k = 0; k < n; k++) if (!same(...off(k)) && plain(...inside(k))) drawn++;
      return drawn >= SIDE * n;
    };
    const [bw, bh] = [right - left - 5, bottom - top - 5];
    if (!side(bh, (k) => [left, top + 3 + k], (k) => [left + 2, top + 3 + k])) continue;
    if (!side(bh, (k) => [right, top + 3 + k], (k) => [right - 2, top + 3 + k])) continue;
    if (!side(bw, (k) => [left + 3 + k, top], (k) => [left + 3 + k, top + 2])) continue;
    if (!side(bw, (k) => [left + 3 + k, bottom], (k) => [left + 3 + k, bottom - 2])) continue;
    const box: BBox = [left, top, right + 1, bottom + 1];
    if (occupied.some((o) => bboxContainsPoint(box, bboxCenter(o)))) continue;
    // Inside, away from the lines of text: the surface.
    let n = 0;
    let surface = 0;
    for (let y = top + 3; y < bottom - 2; y += 3)
      for (let x = left + 3; x < right - 2; x += 3) {
        if (onText(x, y)) continue;
        n++;
        if (same(x, y)) surface++;
      }
    if (n > 0 && surface >= 0.9 * n) out.push(box);
  }
  return out;
}
