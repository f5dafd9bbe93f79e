// Names of the few icons every desktop and web app draws the same way, read from the icon's ink
// (no model): a cross is "Close", a flat bar "Minimize", a square outline "Maximize", three bars
// "Menu". What a person says to the robot ("click Close") then finds an icon-only button.
import type { BBox } from "../core/geometry.js";

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
