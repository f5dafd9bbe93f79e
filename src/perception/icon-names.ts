// Names of the few icons every desktop and web app draws the same way, read from the icon's ink
// (no model): a cross is "Close", a flat bar "Minimize", a square outline "Maximize", three bars
// "Menu". What a person says to the robot ("click Close") then finds an icon-only button.
import type { BBox } from "../core/geometry.js";
import { componentsWithPixels } from "./raster.js";

export type IconName = "Close" | "Minimize" | "Maximize" | "Menu";

/**
 * The ink of a box: pixels that differ from the box's surround (the median grey of the 1 px ring
 * just outside it) by more than 60 grey levels, light-on-dark and dark-on-light alike.
 */
export function inkMask(grey: Uint8Array, width: number, box: BBox): { mask: Uint8Array; w: number; h: number } {
  const height = grey.length / width;
  const x1 = Math.max(0, Math.round(box[0]));
  const y1 = Math.max(0, Math.round(box[1]));
  const x2 = Math.min(width, Math.round(box[2]));
  const y2 = Math.min(height, Math.round(box[3]));
  const w = Math.max(0, x2 - x1);
  const h = Math.max(0, y2 - y1);
  const ring: number[] = [];
  const at = (x: number, y: number) => {
    if (x >= 0 && y >= 0 && x < width && y < height) ring.push(grey[y * width + x]!);
  };
  for (let x = x1 - 1; x <= x2; x++) {
    at(x, y1 - 1);
    at(x, y2);
  }
  for (let y = y1; y < y2; y++) {
    at(x1 - 1, y);
    at(x2, y);
  }
  ring.sort((a, b) => a - b);
  const bg = ring[ring.length >> 1] ?? 255;
  const mask = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) mask[y * w + x] = Math.abs(grey[(y1 + y) * width + x1 + x]! - bg) > 60 ? 1 : 0;
  return { mask, w, h };
}

/** The icon's conventional name, or undefined when its ink is none of the known figures. */
export function nameIcon(grey: Uint8Array, width: number, box: BBox): IconName | undefined {
  const raw = inkMask(grey, width, box);
  // Trimmed to the ink itself (a glyph's box may hold a row of its drop shadow).
  let [l, t, r, b] = [raw.w, raw.h, -1, -1];
  for (let y = 0; y < raw.h; y++)
    for (let x = 0; x < raw.w; x++)
      if (raw.mask[y * raw.w + x]) [l, t, r, b] = [Math.min(l, x), Math.min(t, y), Math.max(r, x), Math.max(b, y)];
  const w = r - l + 1;
  const h = b - t + 1;
  if (w < 5 || h < 2) return undefined;
  const ink = (x: number, y: number) => raw.mask[(t + Math.min(h - 1, Math.max(0, y))) * raw.w + l + Math.min(w - 1, Math.max(0, x))] === 1;
  const near = (x: number, y: number) => ink(x, y) || ink(x - 1, y) || ink(x + 1, y) || ink(x, y - 1) || ink(x, y + 1);
  const rowShare = (y: number) => Array.from({ length: w }, (_, x) => (ink(x, y) ? 1 : 0) as number).reduce((a, b) => a + b, 0) / w;
  const colShare = (x: number) => Array.from({ length: h }, (_, y) => (ink(x, y) ? 1 : 0) as number).reduce((a, b) => a + b, 0) / h;
  let total = 0;
  for (let y = 0; y < h; y++) total += rowShare(y) / h;
  if (h <= 0.45 * w) return total >= 0.7 ? "Minimize" : undefined;
  if (Math.abs(w - h) > 0.3 * Math.max(w, h) || h < 6) return undefined;
  // A square outline: ink all along its four sides, none inside.
  let inner = 0;
  let innerN = 0;
  for (let y = Math.ceil(h * 0.3); y < Math.floor(h * 0.7); y++)
    for (let x = Math.ceil(w * 0.3); x < Math.floor(w * 0.7); x++, innerN++) inner += ink(x, y) ? 1 : 0;
  const hollow = innerN > 0 && inner / innerN <= 0.15;
  if (hollow && rowShare(0) >= 0.8 && rowShare(h - 1) >= 0.8 && colShare(0) >= 0.8 && colShare(w - 1) >= 0.8) return "Maximize";
  // Three bars: three runs of full rows with empty rows between them.
  const full = Array.from({ length: h }, (_, y) => rowShare(y));
  let runs = 0;
  let gapsClean = true;
  for (let y = 0; y < h; y++) {
    if (full[y]! >= 0.7 && (y === 0 || full[y - 1]! < 0.7)) runs++;
    if (full[y]! < 0.7 && full[y]! > 0.2) gapsClean = false;
  }
  if (runs === 3 && gapsClean && full[0]! >= 0.7 && full[h - 1]! >= 0.7) return "Menu";
  // A cross: ink along both diagonals, none at the middle of the sides.
  const steps = 12;
  let diag = 0;
  for (let k = 0; k <= steps; k++) {
    const t = k / steps;
    const x = Math.round(t * (w - 1));
    const y = Math.round(t * (h - 1));
    if (near(x, y)) diag++;
    if (near(w - 1 - x, y)) diag++;
  }
  const sides = [ink(w >> 1, 0), ink(w >> 1, h - 1), ink(0, h >> 1), ink(w - 1, h >> 1)].filter(Boolean).length;
  if (diag >= 0.85 * 2 * (steps + 1) && sides === 0 && ink(w >> 1, h >> 1)) return "Close";
  return undefined;
}

/** Figures an icon's ink may show, named for what people call them ("the plus icon", "the green arrow"). */
export type IconShape =
  | "cross"
  | "plus"
  | "minus"
  | "bars"
  | "ring"
  | "magnifier"
  | "gear"
  | "square"
  | "triangle_right"
  | "triangle_left"
  | "arrow_right"
  | "arrow_left"
  | "arrow_up"
  | "arrow_down"
  | "dots";

/** Rows (columns) left out of a pointing profile at its start and end. */
interface BarCut {
  readonly head: number;
  readonly tail: number;
}

/**
 * A figure's two pieces side by side, each as its own mask cut to its box: 4-connected (anti-aliased strokes touch at
 * their corners), 6 pixels or more each, of about one height, their middles a quarter of the figure's width apart or
 * more. Undefined for any other figure.
 */
function sideBySide(mask: Uint8Array, w: number, h: number): [Uint8Array, number, number][] | undefined {
  const pieces = componentsWithPixels(mask, w, h, true);
  if (pieces.length !== 2 || pieces.some((p) => p.pixels < 6)) return undefined;
  const [a, c] = [pieces[0]!, pieces[1]!];
  const [ha, hc] = [a.y2 - a.y1, c.y2 - c.y1];
  const width = Math.max(a.x2, c.x2) - Math.min(a.x1, c.x1);
  if (Math.abs(ha - hc) > 0.3 * Math.max(ha, hc) || Math.abs((a.x1 + a.x2) / 2 - (c.x1 + c.x2) / 2) < 0.25 * width) return undefined;
  // Each piece cut to its box.
  return pieces.map((p) => {
    const [pw, ph] = [p.x2 - p.x1, p.y2 - p.y1];
    const m = new Uint8Array(pw * ph);
    for (const i of p.members) m[(((i / w) | 0) - p.y1) * pw + (i % w) - p.x1] = 1;
    return [m, pw, ph];
  });
}

/** Which way a chevron (‹ or ›) points: the third of it at its tip spans half the height or less that the other end does. */
function chevronWay(m: Uint8Array, w: number, h: number): "arrow_left" | "arrow_right" | undefined {
  if (w < 3 || h < 2 * w / 3) return undefined;
  const extent = (x: number) => {
    let [a, z] = [-1, -1];
    for (let y = 0; y < h; y++) if (m[y * w + x]) [a, z] = [a < 0 ? y : a, y];
    return a < 0 ? 0 : z - a + 1;
  };
  const third = Math.max(1, Math.floor(w / 3));
  const side = (x0: number) => Math.max(...Array.from({ length: third }, (_, i) => extent(x0 + i)));
  const [left, right] = [side(0), side(w - third)];
  return right >= 0.7 * h && left <= 0.5 * right ? "arrow_left" : left >= 0.7 * h && right <= 0.5 * left ? "arrow_right" : undefined;
}

/**
 * The figures a binary ink mask (1 = ink, row-major `w`×`h`, e.g. one glyph cut from an element)
 * shows, from its geometry alone: bars, a cross, a plus (also inside a square frame), a ring
 * (a magnifier's lens, a circular arrow), a solid triangle and an arrow or chevron with the side
 * it points to. Empty when none; never throws.
 */
export function iconShapes(mask: Uint8Array, w: number, h: number): IconShape[] {
  let [l, t, r, b] = [w, h, -1, -1];
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) if (mask[y * w + x]) [l, t, r, b] = [Math.min(l, x), Math.min(t, y), Math.max(r, x), Math.max(b, y)];
  if (r < 0) return [];
  const W = r - l + 1;
  const H = b - t + 1;
  if (W < 5 && H < 5) return [];
  const ink = (x: number, y: number) => x >= 0 && y >= 0 && x < W && y < H && mask[(t + y) * w + l + x] === 1;
  const out = new Set<IconShape>();
  const rowShare = (y: number, x0 = 0, x1 = W) => {
    let n = 0;
    for (let x = x0; x < x1; x++) n += ink(x, y) ? 1 : 0;
    return n / Math.max(1, x1 - x0);
  };
  const colShare = (x: number, y0 = 0, y1 = H) => {
    let n = 0;
    for (let y = y0; y < y1; y++) n += ink(x, y) ? 1 : 0;
    return n / Math.max(1, y1 - y0);
  };
  const boxShare = (x0: number, y0: number, x1: number, y1: number) => {
    let n = 0;
    let all = 0;
    for (let y = Math.max(0, Math.floor(y0)); y < Math.min(H, Math.ceil(y1)); y++)
      for (let x = Math.max(0, Math.floor(x0)); x < Math.min(W, Math.ceil(x1)); x++, all++) n += ink(x, y) ? 1 : 0;
    return all ? n / all : 0;
  };
  let total = 0;
  for (let y = 0; y < H; y++) total += rowShare(y) / H;
  // Three dots in a row or a column (⋯ ⋮, « more »): three filled blobs alike in size, as long as the figure is thick,
  // evenly spaced.
  const threeDots = (len: number, thick: number, occupied: (i: number) => boolean, fill: (a: number, b: number) => number) => {
    const runs: Array<[number, number]> = [];
    for (let i = 0; i < len; i++) {
      if (!occupied(i)) continue;
      const last = runs[runs.length - 1];
      if (last && last[1] === i) last[1] = i + 1;
      else runs.push([i, i + 1]);
    }
    if (runs.length !== 3 || thick < 2) return false;
    const sizes = runs.map(([a, b]) => b - a);
    const gaps = [runs[1]![0] - runs[0]![1], runs[2]![0] - runs[1]![1]];
    return Math.max(...sizes) <= 1.6 * Math.min(...sizes) && sizes.every((z) => z >= 0.5 * thick && z <= 2 * thick) && Math.abs(gaps[0]! - gaps[1]!) <= Math.max(1, 0.4 * Math.max(...gaps)) && runs.every(([a, b]) => fill(a, b) >= 0.5);
  };
  const dots = threeDots(W, H, (x) => colShare(x) > 0, (a, b) => boxShare(a, 0, b, H)) || threeDots(H, W, (y) => rowShare(y) > 0, (a, b) => boxShare(0, a, W, b));
  if (dots) out.add("dots");
  // A flat bar.
  else if (H <= 0.45 * W && total >= 0.6) out.add("minus");
  // Three bars.
  if (H >= 5 && Math.abs(W - H) <= 0.5 * Math.max(W, H)) {
    const full = Array.from({ length: H }, (_, y) => rowShare(y));
    let runs = 0;
    let clean = true;
    for (let y = 0; y < H; y++) {
      if (full[y]! >= 0.7 && (y === 0 || full[y - 1]! < 0.7)) runs++;
      if (full[y]! < 0.7 && full[y]! > 0.25) clean = false;
    }
    if (runs === 3 && clean) out.add("bars");
  }
  const squarish = Math.abs(W - H) <= 0.35 * Math.max(W, H) && Math.min(W, H) >= 6;
  if (squarish) {
    // A square frame (a boxed plus, a page): the inside is looked at without it.
    const framed = rowShare(0) >= 0.6 && rowShare(H - 1) >= 0.6 && colShare(0) >= 0.6 && colShare(W - 1) >= 0.6;
    const [ix0, iy0, ix1, iy1] = framed ? [W * 0.2, H * 0.2, W * 0.8, H * 0.8] : [0, 0, W, H];
    const iw = ix1 - ix0;
    const ih = iy1 - iy0;
    // Plus: a full middle row and column, empty corners.
    const midRow = Math.max(...[-1, 0, 1].map((d) => rowShareIn(Math.round(iy0 + ih / 2) + d, ix0 + iw * 0.1, ix1 - iw * 0.1)));
    const midCol = Math.max(...[-1, 0, 1].map((d) => colShareIn(Math.round(ix0 + iw / 2) + d, iy0 + ih * 0.1, iy1 - ih * 0.1)));
    const corners = [boxShare(ix0, iy0, ix0 + iw * 0.3, iy0 + ih * 0.3), boxShare(ix1 - iw * 0.3, iy0, ix1, iy0 + ih * 0.3), boxShare(ix0, iy1 - ih * 0.3, ix0 + iw * 0.3, iy1), boxShare(ix1 - iw * 0.3, iy1 - ih * 0.3, ix1, iy1)];
    // A plus's arms keep their width to the ends; a star's taper to points.
    const thickness = (f: number) => {
      let n = 0;
      const x = Math.round(ix0 + iw * f);
      for (let y = Math.floor(iy0); y < Math.ceil(iy1); y++) n += ink(x, y) ? 1 : 0;
      return n;
    };
    const even = Math.min(thickness(0.1), thickness(0.9)) >= 0.6 * Math.max(thickness(0.2), thickness(0.8));
    if (midRow >= 0.75 && midCol >= 0.75 && Math.max(...corners) <= 0.2 && even) out.add("plus");
    if (framed && boxShare(ix0, iy0, ix1, iy1) <= 0.08) out.add("square");
    // Cross: ink along both diagonals, none at the middle of the sides.
    const steps = 12;
    let diag = 0;
    for (let k = 0; k <= steps; k++) {
      const x = Math.round(ix0 + (k / steps) * (iw - 1));
      const y = Math.round(iy0 + (k / steps) * (ih - 1));
      const x2 = Math.round(ix1 - 1 - (k / steps) * (iw - 1));
      const near = (px: number, py: number) => ink(px, py) || ink(px - 1, py) || ink(px + 1, py) || ink(px, py - 1) || ink(px, py + 1);
      if (near(x, y)) diag++;
      if (near(x2, y)) diag++;
    }
    const sideMids = [ink(Math.round(ix0 + iw / 2), Math.round(iy0)), ink(Math.round(ix0 + iw / 2), Math.round(iy1 - 1)), ink(Math.round(ix0), Math.round(iy0 + ih / 2)), ink(Math.round(ix1 - 1), Math.round(iy0 + ih / 2))].filter(Boolean).length;
    if (diag >= 0.85 * 2 * (steps + 1) && sideMids === 0) out.add("cross");
    // Ring: a hollow round part (a lens, a circular arrow), maybe with a handle at a corner.
    for (const [rx0, ry0, rx1, ry1] of [[0, 0, W, H], [0, 0, W * 0.78, H * 0.78]] as const) {
      const rw = rx1 - rx0;
      const rh = ry1 - ry0;
      if (rw < 6 || rh < 6) continue;
      const hole = boxShare(rx0 + rw * 0.38, ry0 + rh * 0.38, rx0 + rw * 0.62, ry0 + rh * 0.62);
      const cx = Math.round(rx0 + rw / 2);
      const cy = Math.round(ry0 + rh / 2);
      const hitsRow = (from: number, to: number) => {
        for (let x = Math.floor(from); x < Math.ceil(to); x++) if (ink(x, cy) || ink(x, cy - 1) || ink(x, cy + 1)) return true;
        return false;
      };
      const hitsCol = (from: number, to: number) => {
        for (let y = Math.floor(from); y < Math.ceil(to); y++) if (ink(cx, y) || ink(cx - 1, y) || ink(cx + 1, y)) return true;
        return false;
      };
      const around = [hitsRow(rx0, rx0 + rw * 0.35), hitsRow(rx1 - rw * 0.35, rx1), hitsCol(ry0, ry0 + rh * 0.35), hitsCol(ry1 - rh * 0.35, ry1)].filter(Boolean).length;
      const c = 0.1;
      const emptyCorners = [boxShare(rx0, ry0, rx0 + rw * c, ry0 + rh * c), boxShare(rx1 - rw * c, ry0, rx1, ry0 + rh * c), boxShare(rx0, ry1 - rh * c, rx0 + rw * c, ry1), boxShare(rx1 - rw * c, ry1 - rh * c, rx1, ry1)].filter((v) => v <= 0.15).length;
      if (hole <= 0.1 && around >= 3 && emptyCorners >= 3 && !framed && !out.has("plus") && !out.has("square")) {
        // A lens in the upper left with a handle to the lower right corner: a magnifier.
        // A lens with a handle that reaches the lower right corner, and no other corner: a magnifier.
        const k = 0.08;
        const [tl, tr, bl, br] = [boxShare(0, 0, W * k, H * k), boxShare(W * (1 - k), 0, W, H * k), boxShare(0, H * (1 - k), W * k, H), boxShare(W * (1 - k), H * (1 - k), W, H)];
        out.add(br >= 0.15 && Math.max(tl, tr, bl) <= 0.1 ? "magnifier" : teeth() >= 6 ? "gear" : "ring");
        break;
      }
    }
  }
  // Pointing shapes: the ink's vertical extent per column (or horizontal per row) narrows to a tip.
  // Spans over three neighbouring columns (rows): an outline's thin slanted sides stay whole.
  // (Read both ways: column by column, and over three columns, where a small figure's tip stays sharp.)
  const extentCol = (s: number) => (x: number) => {
    let a = -1;
    let z = -1;
    for (let y = 0; y < H; y++) if (ink(x - s, y) || ink(x, y) || ink(x + s, y)) [a, z] = [a < 0 ? y : a, y];
    return a < 0 ? 0 : (z - a + 1) / H;
  };
  const extentRow = (s: number) => (y: number) => {
    let a = -1;
    let z = -1;
    for (let x = 0; x < W; x++) if (ink(x, y - s) || ink(x, y) || ink(x, y + s)) [a, z] = [a < 0 ? x : a, x];
    return a < 0 ? 0 : (z - a + 1) / W;
  };
  /** Where a profile of spans narrows to a tip: at the end or the start, as a wedge (triangle, chevron) or an arrow (shaft and head). */
  const pointing = (profile: readonly number[], cut: BarCut): { to: "end" | "start"; wedge: boolean } | undefined => {
    if (profile.length < 6) return undefined;
    let ex = profile;
    const { head, tail } = cut;
    if (head || tail) {
      ex = ex.slice(head, ex.length - tail);
      const widest = Math.max(...ex);
      ex = ex.map((v) => v / widest); // spans of the figure's own width, as if the bar were not there
    }
    const n = ex.length;
    if (n < 6) return undefined;
    const mean = (a: number, z: number) => ex.slice(Math.floor(a * n), Math.max(Math.floor(a * n) + 1, Math.ceil(z * n))).reduce((s, v) => s + v, 0) / Math.max(1, Math.ceil(z * n) - Math.floor(a * n));
    const first = mean(0, 0.15);
    const last = mean(0.85, 1);
    const top = Math.max(...ex);
    const peakAt = (ex.indexOf(top) + ex.lastIndexOf(top)) / 2 / (n - 1); // a flat peak's middle
    // A triangle or chevron: wide at one end, a tip at the other.
    if (first >= 0.6 && last <= 0.5 && first - last >= 0.4 && peakAt <= 0.4) return { to: "end", wedge: true };
    if (last >= 0.6 && first <= 0.5 && last - first >= 0.4 && peakAt >= 0.6) return { to: "start", wedge: true };
    // An arrow: a narrow shaft, then the widest part (the head) well past the middle, then the tip.
    if (top >= 0.6 && peakAt >= 0.55 && mean(0.05, 0.45) <= 0.35 && last <= 0.45) return { to: "end", wedge: false };
    if (top >= 0.6 && peakAt <= 0.45 && mean(0.55, 0.95) <= 0.35 && first <= 0.45) return { to: "start", wedge: false };
    return undefined;
  };
  if (!out.has("plus") && !out.has("cross") && !out.has("bars") && !out.has("square") && !out.has("ring") && !out.has("magnifier") && !out.has("gear")) {
    const profile = (size: number, extent: (i: number) => number) => Array.from({ length: size }, (_, i) => extent(i));
    const [cols0, cols1, rows0, rows1] = [profile(W, extentCol(0)), profile(W, extentCol(1)), profile(H, extentRow(0)), profile(H, extentRow(1))];
    const hCut = barCut(cols0);
    const vCut = barCut(rows0);
    const h1 = pointing(cols1, hCut);
    const h0 = pointing(cols0, hCut);
    const v1 = pointing(rows1, vCut);
    const v0 = pointing(rows0, vCut);
    const horizontal = h1?.wedge ? h1 : h0?.wedge ? h0 : (h1 ?? h0);
    const vertical = v1?.wedge ? v1 : v0?.wedge ? v0 : (v1 ?? v0);
    // Both axes: a wedge beats an arrow; otherwise it is neither.
    const pick = horizontal && vertical ? (horizontal.wedge && !vertical.wedge ? "h" : vertical.wedge && !horizontal.wedge ? "v" : undefined) : horizontal ? "h" : vertical ? "v" : undefined;
    if (pick === "h" && W >= 0.5 * H) {
      const solidBase = horizontal!.to === "end" ? colShare(0) >= 0.7 : colShare(W - 1) >= 0.7;
      out.add(horizontal!.to === "end" ? (solidBase ? "triangle_right" : "arrow_right") : solidBase ? "triangle_left" : "arrow_left");
    } else if (pick === "v" && H >= 0.5 * W) out.add(vertical!.to === "end" ? "arrow_down" : "arrow_up");
    // Two alike chevrons side by side (« »): each points; where both point one way, so does the pair.
    if (!pick) {
      const ways = sideBySide(mask, w, h)?.map(([m, mw, mh]) => chevronWay(m, mw, mh));
      if (ways && ways[0] && ways[0] === ways[1]) out.add(ways[0]);
    }
  }
  /**
   * A wide bar apart from the figure at one end (the tray's edge under a download's arrow, over an upload's) is not a
   * wedge's base: what points is the figure. The rows (columns) to leave out at each end, read on spans of single rows.
   */
  function barCut(ex: readonly number[]): BarCut {
    const tail = detachedBar([...ex].reverse());
    return { head: tail ? 0 : detachedBar(ex), tail };
  }
  /** The rows (columns) of a wide bar and the gap after it, when a profile starts with them and the figure beyond keeps most of it; else 0. */
  function detachedBar(ex: readonly number[]): number {
    let b = 0;
    while (b < ex.length && ex[b]! > 0) b++;
    let g = b;
    while (g < ex.length && ex[g] === 0) g++;
    const wide = Math.max(0, ...ex.slice(0, b)) >= 0.6;
    return b > 0 && b <= 0.25 * ex.length && g > b && ex.length - g >= 0.5 * ex.length && wide ? g : 0;
  }
  /** Bumps on a round figure's outline (a gear's teeth): the outer radius, angle by angle, crossing its mean with a margin. */
  function teeth(): number {
    const cx = (W - 1) / 2;
    const cy = (H - 1) / 2;
    const R = Math.min(W, H) / 2;
    const radii: number[] = [];
    for (let k = 0; k < 48; k++) {
      const a = (k / 48) * 2 * Math.PI;
      let r = 0;
      for (let d = R; d >= 0; d -= 0.5) {
        if (ink(Math.round(cx + d * Math.cos(a)), Math.round(cy + d * Math.sin(a)))) {
          r = d;
          break;
        }
      }
      radii.push(r);
    }
    const mean = radii.reduce((x, y) => x + y, 0) / radii.length;
    // A gear is closed all round; an open arc (a circular arrow) is not.
    if (Math.min(...radii) < 0.5 * mean) return 0;
    const hi = mean * 1.08;
    const lo = mean * 0.92;
    let state = 0;
    let bumps = 0;
    for (const r of [...radii, ...radii.slice(0, 8)]) {
      if (r >= hi && state <= 0) {
        if (state === -1) bumps++;
        state = 1;
      } else if (r <= lo && state >= 0) state = -1;
    }
    return Math.min(bumps, 48);
  }

  // A figure drawn inside a frame (a boxed plus, an arrow on a focused button): the inside counts.
  if (squarishFramed() && W >= 12 && H >= 12) {
    const [ix0, iy0] = [Math.ceil(W * 0.15), Math.ceil(H * 0.15)];
    const [iw, ih] = [Math.floor(W * 0.85) - ix0, Math.floor(H * 0.85) - iy0];
    const inner = new Uint8Array(iw * ih);
    for (let y = 0; y < ih; y++) for (let x = 0; x < iw; x++) inner[y * iw + x] = ink(ix0 + x, iy0 + y) ? 1 : 0;
    for (const s of iconShapes(inner, iw, ih)) if (s !== "square") out.add(s);
  }
  return [...out];

  function squarishFramed(): boolean {
    return rowShare(0) >= 0.6 && rowShare(H - 1) >= 0.6 && colShare(0) >= 0.6 && colShare(W - 1) >= 0.6;
  }
  function rowShareIn(y: number, x0: number, x1: number): number {
    return y < 0 || y >= H ? 0 : rowShare(y, Math.max(0, Math.floor(x0)), Math.min(W, Math.ceil(x1)));
  }
  function colShareIn(x: number, y0: number, y1: number): number {
    return x < 0 || x >= W ? 0 : colShare(x, Math.max(0, Math.floor(y0)), Math.min(H, Math.ceil(y1)));
  }
}
