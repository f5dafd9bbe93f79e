// Small pixel helpers shared by the perception providers: RGB / grey views of a frame,
// bilinear crop-and-resize, and connected components of a binary mask.
import type { Frame } from "../core/frame.js";
import type { BBox } from "../core/geometry.js";

export interface RgbImage {
  readonly data: Uint8Array;
  readonly width: number;
  readonly height: number;
}

// Frames are immutable values, read by several stages of one detection (text detection, line
// reading, refinement, proposals, classification): their RGB and grey views are made once per
// frame object and dropped with it. Callers never write into them.
const rgbViews = new WeakMap<Frame, RgbImage>();
const greyViews = new WeakMap<RgbImage, Uint8Array>();

/** Packed RGB bytes of a frame (grey and RGBA frames converted; shared, read-only). */
export function toRgb(frame: Frame): RgbImage {
  let img = rgbViews.get(frame);
  if (!img) rgbViews.set(frame, (img = rgbOf(frame)));
  return img;
}

function rgbOf(frame: Frame): RgbImage {
  const n = frame.width * frame.height;
  if (frame.channels === 3) return { data: frame.data, width: frame.width, height: frame.height };
  const out = new Uint8Array(n * 3);
  const src = frame.data;
  const c = frame.channels;
  for (let i = 0, j = 0; i < n; i++, j += c) {
    const o = i * 3;
    if (c === 1) {
      out[o] = out[o + 1] = out[o + 2] = src[j]!;
    } else {
      out[o] = src[j]!;
      out[o + 1] = src[j + 1]!;
      out[o + 2] = src[j + 2]!;
    }
  }
  return { data: out, width: frame.width, height: frame.height };
}

/** Luma (0..255) of packed RGB (shared, read-only). */
export function toGrey(img: RgbImage): Uint8Array {
  let g = greyViews.get(img);
  if (!g) greyViews.set(img, (g = greyOf(img)));
  return g;
}

function greyOf(img: RgbImage): Uint8Array {
  const n = img.width * img.height;
  const rgb = img.data;
  const out = new Uint8Array(n);
  for (let i = 0, j = 0; i < n; i++, j += 3) out[i] = (rgb[j]! * 77 + rgb[j + 1]! * 150 + rgb[j + 2]! * 29) >> 8;
  return out;
}

/** Bilinear sampling along one axis: for each output index, the two source indices (clamped to [0, max]) and the weight of the second. */
export interface SampleAxis {
  readonly i0: Int32Array;
  readonly i1: Int32Array;
  readonly w: Float64Array;
}

/** Output pixel k samples source position start + (k + 0.5) × step − 0.5. */
export function sampleAxis(start: number, step: number, n: number, max: number): SampleAxis {
  const i0 = new Int32Array(n);
  const i1 = new Int32Array(n);
  const w = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const c = Math.min(Math.max(start + (k + 0.5) * step - 0.5, 0), max);
    const f = Math.floor(c);
    i0[k] = f;
    i1[k] = Math.min(f + 1, max);
    w[k] = c - f;
  }
  return { i0, i1, w };
}

/** Bilinear resample of `box` (source pixels, may be fractional) of an RGB image to outW×outH RGB. */
export function cropResize(src: RgbImage, box: BBox, outW: number, outH: number): Uint8Array {
  const out = new Uint8Array(outW * outH * 3);
  const [x1, y1, x2, y2] = box;
  const ys = sampleAxis(y1, (y2 - y1) / outH, outH, src.height - 1);
  const xs = sampleAxis(x1, (x2 - x1) / outW, outW, src.width - 1);
  const d = src.data;
  const W = src.width;
  for (let y = 0; y < outH; y++) {
    const r0 = ys.i0[y]! * W;
    const r1 = ys.i1[y]! * W;
    const wy = ys.w[y]!;
    for (let x = 0; x < outW; x++) {
      const wx = xs.w[x]!;
      const a = (r0 + xs.i0[x]!) * 3;
      const b = (r0 + xs.i1[x]!) * 3;
      const c = (r1 + xs.i0[x]!) * 3;
      const e = (r1 + xs.i1[x]!) * 3;
      const o = (y * outW + x) * 3;
      for (let k = 0; k < 3; k++) {
        const top = d[a + k]! + (d[b + k]! - d[a + k]!) * wx;
        const bot = d[c + k]! + (d[e + k]! - d[c + k]!) * wx;
        out[o + k] = Math.round(top + (bot - top) * wy);
      }
    }
  }
  return out;
}

export interface Component {
  /** Box in mask pixels, x2/y2 exclusive. */
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  pixels: number;
  /** Sum of `weights` over the component's pixels (when given). */
  weight: number;
}

function findRoot(parent: number[], a: number): number {
  while (parent[a] !== a) {
    parent[a] = parent[parent[a]!]!;
    a = parent[a]!;
  }
  return a;
}

/** A pixel's label so far (0: none yet) met with a neighbour's (0: unset): the first one found, the sets joined. */
function joinLabel(parent: number[], l: number, neighbour: number): number {
  if (!neighbour) return l;
  if (!l) return neighbour;
  const ra = findRoot(parent, l);
  const rb = findRoot(parent, neighbour);
  if (ra !== rb) {
    if (ra < rb) parent[rb] = ra;
    else parent[ra] = rb;
  }
  return l;
}

/**
 * Connected components of `mask` (non-zero = set), two-pass union-find; 8-connected unless
 * `four` is set. `weights`, when given, is summed per component (e.g. detector probabilities).
 */
export function connectedComponents(mask: Uint8Array, width: number, height: number, weights?: Float32Array, four = false): Component[] {
  return labelled(mask, width, height, four, weights, false);
}

/** The components `connectedComponents` finds, each with its pixels' indices in the mask (row by row). */
export function componentsWithPixels(mask: Uint8Array, width: number, height: number, four = false): (Component & { members: number[] })[] {
  return labelled(mask, width, height, four, undefined, true) as (Component & { members: number[] })[];
}

function labelled(mask: Uint8Array, width: number, height: number, four: boolean, weights: Float32Array | undefined, members: boolean): Component[] {
  const labels = new Int32Array(width * height);
  const parent: number[] = [0];
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      const i = row + x;
      if (!mask[i]) continue;
      let l = 0;
      if (x > 0) l = joinLabel(parent, l, labels[i - 1]!);
      if (y > 0) {
        l = joinLabel(parent, l, labels[i - width]!);
        if (!four) {
          if (x > 0) l = joinLabel(parent, l, labels[i - width - 1]!);
          if (x < width - 1) l = joinLabel(parent, l, labels[i - width + 1]!);
        }
      }
      if (!l) {
        l = parent.length;
        parent.push(l);
      }
      labels[i] = l;
    }
  }
  const byRoot = new Map<number, Component & { members?: number[] }>();
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      const l = labels[row + x]!;
      if (!l) continue;
      const r = findRoot(parent, l);
      let c = byRoot.get(r);
      if (!c) {
        c = { x1: x, y1: y, x2: x + 1, y2: y + 1, pixels: 0, weight: 0, ...(members ? { members: [] } : {}) };
        byRoot.set(r, c);
      }
      c.members?.push(row + x);
      if (x < c.x1) c.x1 = x;
      if (x + 1 > c.x2) c.x2 = x + 1;
      if (y + 1 > c.y2) c.y2 = y + 1;
      c.pixels++;
      if (weights) c.weight += weights[row + x]!;
    }
  }
  return [...byRoot.values()];
}
