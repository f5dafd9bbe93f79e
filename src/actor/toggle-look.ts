// The state of a toggle (check box, radio button) read from what tells its two recorded looks
// apart. The crops recorded before and after the click hold the box and, often, its caption; the
// caption is the same in both and is most of their pixels, so "which crop does the live box look
// more like" is decided by the caption's rendering, a hover tint or a focus ring as much as by
// the tick. Here the live region is aligned on the part the two looks share, and only the pixels
// where the two looks differ (the tick, the box's fill) are compared with each look.
import type { Frame } from "../core/frame.js";
import { cropResize, toGrey, toRgb } from "../perception/raster.js";

export interface ToggleRead {
  /** Undefined when the live region cannot tell (looks not found there, looks alike, pixels in between). */
  state?: "on" | "off";
  /** −1 (exactly the « off » look) … +1 (exactly the « on » look), over the distinguishing pixels. */
  score: number;
  /** Pixels where the recorded looks differ, and how many of them are nearer the « on » look now. */
  distinguishing: number;
  nearerOn: number;
  /** Mean grey difference (0–255) between the live region and the looks' shared part, once aligned. */
  residual: number;
  evidence: string;
}

/** Grey difference above which a pixel tells « on » from « off ». */
const DIFFERS = 48;
/** How far from ±1 the score may be and still decide. */
const DECIDES = 0.35;
/** Shared part too unlike the live region (another theme, another widget): no reading. */
const MAX_RESIDUAL = 28;
/** Grey-level spread the looks' shared part needs for the indicator alone to be aligned. */
const MIN_CONTRAST = 20;
/** Alignment: every offset of the looks inside the live region is tried up to this many positions. */
const MAX_POSITIONS = 40_000;

function greyOf(f: Frame, w = f.width, h = f.height): Uint8Array {
  if (w === f.width && h === f.height) return toGrey(toRgb(f));
  const rgb = cropResize(toRgb(f), [0, 0, f.width, f.height], w, h);
  const out = new Uint8Array(w * h);
  for (let i = 0, j = 0; i < w * h; i++, j += 3) out[i] = (rgb[j]! * 77 + rgb[j + 1]! * 150 + rgb[j + 2]! * 29) >> 8;
  return out;
}

/** A w × h grey patch cut out of a larger one. */
function cut(g: Uint8Array, gw: number, x0: number, y0: number, w: number, h: number): Uint8Array {
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) out.set(g.subarray((y0 + y) * gw + x0, (y0 + y) * gw + x0 + w), y * w);
  return out;
}

/**
 * Reads a toggle's state in `live` (a region around the box, larger than the looks) from its
 * recorded looks `on` and `off` (crops of the same box after and before the recorded click).
 * The looks are brought to the live scale; the alignment minimises the difference over the
 * pixels they share; the state is the side the distinguishing pixels lean to. When the whole looks
 * are not found (the caption drawn in another font or size than at recording: another machine's
 * fonts, a larger text setting), the part around the distinguishing pixels alone — the indicator,
 * with a margin of its own border and background — is aligned and read.
 */
export function readToggle(live: Frame, on: Frame, off: Frame): ToggleRead {
  const s = live.scaleFactor / on.scaleFactor;
  const w = Math.max(1, Math.round(on.width * s));
  const h = Math.max(1, Math.round(on.height * s));
  if (w > live.width || h > live.height) return none("the live region is smaller than the recorded looks");
  const L = greyOf(live);
  const A = greyOf(on, w, h);
  const B = greyOf(off, w, h);
  const whole = readAligned(L, live.width, live.height, A, B, w, h);
  if (whole.state || whole.residual <= MAX_RESIDUAL || whole.distinguishing < 3) return whole;
  // The indicator alone: the distinguishing pixels' box, widened by a third of its size (at least 2 px) each way.
  let [x0, y0, x1, y1] = [w, h, -1, -1];
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++)
      if (Math.abs(A[y * w + x]! - B[y * w + x]!) >= DIFFERS) [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
  const m = Math.max(2, Math.round(Math.max(x1 - x0 + 1, y1 - y0 + 1) / 3));
  [x0, y0, x1, y1] = [Math.max(0, x0 - m), Math.max(0, y0 - m), Math.min(w - 1, x1 + m), Math.min(h - 1, y1 + m)];
  const pw = x1 - x0 + 1;
  const ph = y1 - y0 + 1;
  if (pw * ph >= w * h) return whole;
  const [pa, pb] = [cut(A, w, x0, y0, pw, ph), cut(B, w, x0, y0, pw, ph)];
  // Aligning needs something drawn alike in both looks (the box's border): on a flat margin every place fits.
  const contrast = sharedContrast(pa, pb);
  if (contrast < MIN_CONTRAST) return { ...whole, evidence: `${whole.evidence}; its indicator alone cannot be aligned (nothing drawn alike in both looks around it: contrast ${contrast.toFixed(0)})` };
  const part = readAligned(L, live.width, live.height, pa, pb, pw, ph);
  if (!part.state) return { ...whole, evidence: `${whole.evidence}; its indicator alone: ${part.evidence}` };
  return { ...part, evidence: `${part.evidence} (the indicator alone: the whole recorded looks are not found, mean grey difference ${whole.residual.toFixed(0)})` };
}

/** Standard deviation of the grey levels both looks share (pixels where they differ left out). */
function sharedContrast(A: Uint8Array, B: Uint8Array): number {
  let n = 0;
  let sum = 0;
  let sq = 0;
  for (let i = 0; i < A.length; i++) {
    if (Math.abs(A[i]! - B[i]!) >= DIFFERS) continue;
    const v = (A[i]! + B[i]!) / 2;
    n++;
    sum += v;
    sq += v * v;
  }
  return n ? Math.sqrt(Math.max(0, sq / n - (sum / n) ** 2)) : 0;
}

function none(evidence: string, extra: Partial<ToggleRead> = {}): ToggleRead {
  return { score: 0, distinguishing: 0, nearerOn: 0, residual: 255, evidence, ...extra };
}

/** The looks A (« on ») and B (« off »), w × h, aligned in the live grey region L and read. */
function readAligned(L: Uint8Array, lw: number, lh: number, A: Uint8Array, B: Uint8Array, w: number, h: number): ToggleRead {
  const mask = new Uint8Array(w * h);
  let nd = 0;
  let spread = 0;
  for (let i = 0; i < w * h; i++)
    if (Math.abs(A[i]! - B[i]!) >= DIFFERS) {
      mask[i] = 1;
      nd++;
      spread += Math.abs(A[i]! - B[i]!);
    }
  if (nd < 3) return none(`the recorded looks do not differ (${nd} pixels tell them apart)`);
  if (nd === w * h) return none("the recorded looks share nothing to align them on");
  // Alignment on the shared part (its mean grey in both looks), every offset (or a stride when the region is large).
  const px = lw - w + 1;
  const py = lh - h + 1;
  const stride = Math.max(1, Math.ceil(Math.sqrt((px * py) / MAX_POSITIONS)));
  let best = { x: 0, y: 0, sad: Infinity };
  const sadAt = (ox: number, oy: number, limit: number) => {
    let sad = 0;
    for (let y = 0; y < h; y++) {
      const row = (oy + y) * lw + ox;
      for (let x = 0; x < w; x++) {
        const i = y * w + x;
        if (mask[i]) continue;
        sad += Math.abs(L[row + x]! - ((A[i]! + B[i]!) >> 1));
      }
      if (sad >= limit) return sad;
    }
    return sad;
  };
  for (let oy = 0; oy < py; oy += stride)
    for (let ox = 0; ox < px; ox += stride) {
      const sad = sadAt(ox, oy, best.sad);
      if (sad < best.sad) best = { x: ox, y: oy, sad };
    }
  if (stride > 1) {
    const c = best;
    for (let oy = Math.max(0, c.y - stride); oy <= Math.min(py - 1, c.y + stride); oy++)
      for (let ox = Math.max(0, c.x - stride); ox <= Math.min(px - 1, c.x + stride); ox++) {
        const sad = sadAt(ox, oy, best.sad);
        if (sad < best.sad) best = { x: ox, y: oy, sad };
      }
  }
  const residual = best.sad / (w * h - nd);
  if (residual > MAX_RESIDUAL) return none(`the recorded looks are not found around the box (mean grey difference ${residual.toFixed(0)} on the part they share)`, { distinguishing: nd, residual });
  let lean = 0;
  let nearerOn = 0;
  for (let y = 0; y < h; y++) {
    const row = (best.y + y) * lw + best.x;
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      if (!mask[i]) continue;
      const v = L[row + x]!;
      const d = Math.abs(v - B[i]!) - Math.abs(v - A[i]!);
      lean += d;
      if (d > 0) nearerOn++;
    }
  }
  const score = Math.round((lean / spread) * 1000) / 1000;
  const state = score >= DECIDES ? "on" : score <= -DECIDES ? "off" : undefined;
  const said = `${nearerOn} of the ${nd} pixels that tell the recorded looks apart are nearer the « on » look (score ${score.toFixed(2)}, −1 off … +1 on)`;
  return { ...(state ? { state } : {}), score, distinguishing: nd, nearerOn, residual: Math.round(residual * 10) / 10, evidence: state ? `looks ${state}: ${said}` : `neither look clearly: ${said}` };
}
