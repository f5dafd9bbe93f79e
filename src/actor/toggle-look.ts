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
/** Alignment: every offset of the looks inside the live region is tried up to this many positions. */
const MAX_POSITIONS = 40_000;

function greyOf(f: Frame, w = f.width, h = f.height): Uint8Array {
  if (w === f.width && h === f.height) return toGrey(toRgb(f));
  const rgb = cropResize(toRgb(f), [0, 0, f.width, f.height], w, h);
  const out = new Uint8Array(w * h);
  for (let i = 0, j = 0; i < w * h; i++, j += 3) out[i] = (rgb[j]! * 77 + rgb[j + 1]! * 150 + rgb[j + 2]! * 29) >> 8;
  return out;
}

/**
 * Reads a toggle's state in `live` (a region around the box, larger than the looks) from its
 * recorded looks `on` and `off` (crops of the same box after and before the recorded click).
 * The looks are brought to the live scale; the alignment minimises the difference over the
 * pixels they share; the state is the side the distinguishing pixels lean to.
 */
export function readToggle(live: Frame, on: Frame, off: Frame): ToggleRead {
  const s = live.scaleFactor / on.scaleFactor;
  const w = Math.max(1, Math.round(on.width * s));
  const h = Math.max(1, Math.round(on.height * s));
  const none = (evidence: string, extra: Partial<ToggleRead> = {}): ToggleRead => ({ score: 0, distinguishing: 0, nearerOn: 0, residual: 255, evidence, ...extra });
  if (w > live.width || h > live.height) return none("the live region is smaller than the recorded looks");
  const L = greyOf(live);
  const A = greyOf(on, w, h);
  const B = greyOf(off, w, h);
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
  const px = live.width - w + 1;
  const py = live.height - h + 1;
  const stride = Math.max(1, Math.ceil(Math.sqrt((px * py) / MAX_POSITIONS)));
  let best = { x: 0, y: 0, sad: Infinity };
  const sadAt = (ox: number, oy: number, limit: number) => {
    let sad = 0;
    for (let y = 0; y < h; y++) {
      const row = (oy + y) * live.width + ox;
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
    const row = (best.y + y) * live.width + best.x;
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
