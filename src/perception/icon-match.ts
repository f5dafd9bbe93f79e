// Icon template matching (plan, MICRO: "template matching 80×80 pour icônes, seuil 0.90"): where a
// recorded crop appears on a live frame. Zero-mean normalized cross-correlation on grey pixels,
// coarse to fine (a downsampled pass over the whole frame, then full resolution around the best
// peaks), at several scales (a ×2 or ×1.5 desktop draws icons larger). A dark theme inverts an
// icon's contrast: a strongly negative correlation counts too, reported as `inverted`.
import type { Frame } from "../core/frame.js";
import { padBBox, type BBox } from "../core/geometry.js";
import { cropResize, toGrey, toRgb } from "./raster.js";

export interface IconMatch {
  /** Frame pixels. */
  readonly bbox: BBox;
  /** |NCC| in [0, 1]. */
  readonly score: number;
  readonly scale: number;
  readonly inverted: boolean;
}

export interface IconMatchOptions {
  /** Template scales to try (default 1, 1.5, 2, 0.75). */
  scales?: readonly number[];
  /** Accept negative correlation (contrast inverted by a dark theme); default true. */
  allowInverted?: boolean;
}

interface Grey {
  data: Float32Array;
  width: number;
  height: number;
}

function grey(frame: Frame): Grey {
  const g = toGrey(toRgb(frame));
  return { data: Float32Array.from(g), width: frame.width, height: frame.height };
}

function downsample(img: Grey, f: number): Grey {
  if (f === 1) return img;
  const w = Math.floor(img.width / f);
  const h = Math.floor(img.height / f);
  const out = new Float32Array(w * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      let s = 0;
      for (let dy = 0; dy < f; dy++) {
        const row = (y * f + dy) * img.width + x * f;
        for (let dx = 0; dx < f; dx++) s += img.data[row + dx]!;
      }
      out[y * w + x] = s / (f * f);
    }
  return { data: out, width: w, height: h };
}

function resizeGrey(img: Grey, w: number, h: number): Grey {
  const bytes = new Uint8Array(img.width * img.height * 3);
  for (let i = 0; i < img.data.length; i++) bytes[i * 3] = bytes[i * 3 + 1] = bytes[i * 3 + 2] = img.data[i]!;
  const out = cropResize({ data: bytes, width: img.width, height: img.height }, [0, 0, img.width, img.height], w, h);
  const g = new Float32Array(w * h);
  for (let i = 0; i < w * h; i++) g[i] = out[i * 3]!;
  return { data: g, width: w, height: h };
}

/** Integral images of values and squares, (w+1)×(h+1). */
function integrals(img: Grey): { s: Float64Array; q: Float64Array } {
  const W = img.width + 1;
  const s = new Float64Array(W * (img.height + 1));
  const q = new Float64Array(W * (img.height + 1));
  for (let y = 0; y < img.height; y++) {
    let rs = 0;
    let rq = 0;
    for (let x = 0; x < img.width; x++) {
      const v = img.data[y * img.width + x]!;
      rs += v;
      rq += v * v;
      s[(y + 1) * W + x + 1] = s[y * W + x + 1]! + rs;
      q[(y + 1) * W + x + 1] = q[y * W + x + 1]! + rq;
    }
  }
  return { s, q };
}

/** NCC of template `t` (zero-mean, with its norm) at (x, y) of `img`. */
function nccAt(img: Grey, ii: { s: Float64Array; q: Float64Array }, t: { zm: Float32Array; norm: number; width: number; height: number }, x: number, y: number): number {
  const W = img.width + 1;
  const x2 = x + t.width;
  const y2 = y + t.height;
  const n = t.width * t.height;
  const sum = ii.s[y2 * W + x2]! - ii.s[y * W + x2]! - ii.s[y2 * W + x]! + ii.s[y * W + x]!;
  const sq = ii.q[y2 * W + x2]! - ii.q[y * W + x2]! - ii.q[y2 * W + x]! + ii.q[y * W + x]!;
  const varI = sq - (sum * sum) / n;
  if (varI <= 1e-6 || t.norm <= 1e-6) return 0;
  let dot = 0;
  for (let ty = 0; ty < t.height; ty++) {
    const row = (y + ty) * img.width + x;
    const trow = ty * t.width;
    for (let tx = 0; tx < t.width; tx++) dot += img.data[row + tx]! * t.zm[trow + tx]!;
  }
  return dot / Math.sqrt(varI * t.norm);
}

function prepare(t: Grey): { zm: Float32Array; norm: number; width: number; height: number } {
  let mean = 0;
  for (const v of t.data) mean += v;
  mean /= t.data.length;
  const zm = new Float32Array(t.data.length);
  let norm = 0;
  for (let i = 0; i < t.data.length; i++) {
    zm[i] = t.data[i]! - mean;
    norm += zm[i]! * zm[i]!;
  }
  return { zm, norm, width: t.width, height: t.height };
}

/** The best place of `icon` on `frame`, or undefined when the icon is larger than the frame at every scale. */
export function matchIcon(frame: Frame, icon: Frame, opts: IconMatchOptions = {}): IconMatch | undefined {
  const scales = opts.scales ?? [1, 1.5, 2, 0.75];
  const allowInverted = opts.allowInverted ?? true;
  const img = grey(frame);
  const tpl0 = grey(icon);
  const value = (r: number) => (allowInverted ? Math.abs(r) : r);
  let best: IconMatch | undefined;
  for (const scale of scales) {
    const tw = Math.round(tpl0.width * scale);
    const th = Math.round(tpl0.height * scale);
    if (tw < 8 || th < 8 || tw > img.width || th > img.height) continue;
    const tpl = scale === 1 ? tpl0 : resizeGrey(tpl0, tw, th);
    // Coarse pass: about 16 template pixels a side.
    const f = Math.max(1, Math.floor(Math.min(tw, th) / 16));
    const ci = downsample(img, f);
    const ct = prepare(downsample(tpl, f));
    const cii = integrals(ci);
    const peaks: { x: number; y: number; r: number }[] = [];
    for (let y = 0; y + ct.height <= ci.height; y++)
      for (let x = 0; x + ct.width <= ci.width; x++) {
        const r = value(nccAt(ci, cii, ct, x, y));
        if (r < 0.5) continue;
        if (peaks.length < 6 || r > peaks[peaks.length - 1]!.r) {
          // Keep the best few, at least a template apart.
          const near = peaks.findIndex((p) => Math.abs(p.x - x) < ct.width && Math.abs(p.y - y) < ct.height);
          if (near >= 0) {
            if (peaks[near]!.r >= r) continue;
            peaks.splice(near, 1);
          }
          peaks.push({ x, y, r });
          peaks.sort((a, b) => b.r - a.r);
          if (peaks.length > 6) peaks.pop();
        }
      }
    if (peaks.length === 0) continue;
    // Fine pass at full resolution around each coarse peak.
    const full = prepare(tpl);
    const fii = integrals(img);
    for (const p of peaks) {
      for (let y = Math.max(0, (p.y - 1) * f); y <= Math.min(img.height - th, (p.y + 1) * f); y++)
        for (let x = Math.max(0, (p.x - 1) * f); x <= Math.min(img.width - tw, (p.x + 1) * f); x++) {
          const raw = nccAt(img, fii, full, x, y);
          const r = value(raw);
          if (!best || r > best.score) best = { bbox: [x, y, x + tw, y + th], score: Math.round(r * 10000) / 10000, scale, inverted: raw < 0 };
        }
    }
  }
  return best;
}

/**
 * The grey gradient magnitude of a frame (central differences, 0–255), as a grey frame. Edges
 * survive what recolours a button around its icon (a dark theme) where grey levels do not: an
 * icon's template can be matched on edges as well.
 */
export function edgeMap(frame: Frame): Frame {
  const g = toGrey(toRgb(frame));
  const { width: w, height: h } = frame;
  const out = new Uint8Array(w * h * 3);
  for (let y = 1; y < h - 1; y++)
    for (let x = 1; x < w - 1; x++) {
      const gx = g[y * w + x + 1]! - g[y * w + x - 1]!;
      const gy = g[(y + 1) * w + x]! - g[(y - 1) * w + x]!;
      out.fill(Math.min(255, Math.round(Math.hypot(gx, gy))), (y * w + x) * 3, (y * w + x) * 3 + 3);
    }
  return { ...frame, data: out, channels: 3 };
}

/**
 * How much a box of a frame varies in grey: its standard deviation, and the spread between its
 * 5th and 95th percentiles (0–255). A crop of an empty area or a canvas has neither: it can
 * never be told apart from any other flat place, so it is no icon to match.
 */
export function greyContrast(frame: Frame, box?: BBox): { std: number; spread: number } {
  const g = toGrey(toRgb(frame));
  const x1 = Math.max(0, Math.floor(box?.[0] ?? 0));
  const y1 = Math.max(0, Math.floor(box?.[1] ?? 0));
  const x2 = Math.min(frame.width, Math.ceil(box?.[2] ?? frame.width));
  const y2 = Math.min(frame.height, Math.ceil(box?.[3] ?? frame.height));
  const hist = new Uint32Array(256);
  let n = 0;
  let sum = 0;
  let sq = 0;
  for (let y = y1; y < y2; y++)
    for (let x = x1; x < x2; x++) {
      const v = g[y * frame.width + x]!;
      hist[v]!++;
      n++;
      sum += v;
      sq += v * v;
    }
  if (n === 0) return { std: 0, spread: 0 };
  const mean = sum / n;
  const pct = (p: number) => {
    let acc = 0;
    for (let v = 0; v < 256; v++) if ((acc += hist[v]!) >= p * n) return v;
    return 255;
  };
  return { std: Math.round(Math.sqrt(Math.max(0, sq / n - mean * mean)) * 10) / 10, spread: pct(0.95) - pct(0.05) };
}

/**
 * How far a box's fill stands from what surrounds it: the most common grey inside (its middle
 * half, away from border and text edges) against the most common grey of a 4 px ring outside
 * (0–255). A greyed-out field or button blends into the window: this falls.
 */
export function fillContrast(frame: Frame, box: BBox): number {
  const g = toGrey(toRgb(frame));
  const mode = (pick: (x: number, y: number) => boolean, b: BBox) => {
    const hist = new Uint32Array(256);
    for (let y = Math.max(0, Math.floor(b[1])); y < Math.min(frame.height, Math.ceil(b[3])); y++)
      for (let x = Math.max(0, Math.floor(b[0])); x < Math.min(frame.width, Math.ceil(b[2])); x++) if (pick(x, y)) hist[g[y * frame.width + x]!]!++;
    let best = 0;
    for (let v = 1; v < 256; v++) if (hist[v]! > hist[best]!) best = v;
    return hist[best]! > 0 ? best : undefined;
  };
  const w = box[2] - box[0];
  const h = box[3] - box[1];
  const inner: BBox = [box[0] + w / 4, box[1] + h / 4, box[2] - w / 4, box[3] - h / 4];
  const outer = padBBox(box, 4);
  const fill = mode(() => true, inner);
  const ring = mode((x, y) => x < box[0] || x >= box[2] || y < box[1] || y >= box[3], outer);
  return fill === undefined || ring === undefined ? 0 : Math.abs(fill - ring);
}
