// Sliders as a person sees one: a knob on a long thin track that runs through its middle. The detector may miss them (a
// track of one or two pixels, a knob like a radio's disc); asked for only when an instruction wants a slider (« le
// curseur », "the slider"). General geometry: no kit's colours or sizes.
import type { Frame } from "../core/frame.js";
import { bboxIoU, type BBox } from "../core/geometry.js";
import { toRgb } from "./raster.js";
import { colourComponents, type Stats } from "./region-proposer.js";

/** Knob sides, frame pixels at scale 1. */
const KNOB_MIN = 8;
const KNOB_MAX = 40;
/** A track is at most this share of the knob's height thick, and the slider (knob and track) this many knobs long. */
const TRACK_THICKNESS = 0.6;
const MIN_LENGTH = 5;

/**
 * The sliders of a frame, horizontal and vertical: a knob — one colour region 8–40 px a side (× `scale`), about as wide
 * as tall, filling half its box or more — and the thin straight bars of other colours centred on its middle that touch
 * it (a filled part on one side, the rest on the other), all together at least five knobs long, the bars running past
 * the knob by a knob or more; or a knob and a track of one colour (one region, thin but for a knob-long run of thick
 * columns). Each slider's box is its knob's and bars' together; overlapping finds keep the longest.
 */
export function slidersOf(frame: Frame, scale = 1): BBox[] {
  const img = toRgb(frame);
  const { root, stats } = colourComponents(img, 6);
  const W = img.width;
  const found: BBox[] = [];
  for (const vertical of [false, true]) {
    // Along the slider (u) and across it (v).
    const u1 = (s: Stats) => (vertical ? s.y1 : s.x1);
    const u2 = (s: Stats) => (vertical ? s.y2 : s.x2);
    const v1 = (s: Stats) => (vertical ? s.x1 : s.y1);
    const v2 = (s: Stats) => (vertical ? s.x2 : s.y2);
    const bars = stats.filter((s) => {
      const [len, th] = [u2(s) - u1(s), v2(s) - v1(s)];
      return th >= 1 && len >= 4 * th && len >= 12 * scale && s.n >= 0.6 * len * th;
    });
    for (const K of stats) {
      const [kl, kh] = [u2(K) - u1(K), v2(K) - v1(K)];
      if (kh < KNOB_MIN * scale || kh > KNOB_MAX * scale || kl < 0.6 * kh || kl > 1.7 * kh || K.n < 0.5 * kl * kh) continue;
      const mid = (v1(K) + v2(K)) / 2;
      const near = 0.5 * kh;
      const track = bars.filter((T) => {
        const th = v2(T) - v1(T);
        return T !== K && th <= TRACK_THICKNESS * kh && Math.abs((v1(T) + v2(T)) / 2 - mid) <= Math.max(1.5, 0.15 * kh) && u1(T) <= u2(K) + near && u2(T) >= u1(K) - near;
      });
      if (!track.length) continue;
      const lo = Math.min(u1(K), ...track.map(u1));
      const hi = Math.max(u2(K), ...track.map(u2));
      if (hi - lo < MIN_LENGTH * kh || Math.max(u1(K) - lo, hi - u2(K)) < kh) continue;
      const across: [number, number] = [Math.min(v1(K), ...track.map(v1)), Math.max(v2(K), ...track.map(v2))];
      found.push(vertical ? [across[0], lo, across[1], hi] : [lo, across[0], hi, across[1]]);
    }
    // Knob and track of one colour (one region): a long box the region fills thinly but for one run of thick columns.
    stats.forEach((R, r) => {
      const [len, kh] = [u2(R) - u1(R), v2(R) - v1(R)];
      if (kh < KNOB_MIN * scale || kh > KNOB_MAX * scale || len < MIN_LENGTH * kh || R.n > 0.5 * len * kh) return;
      const thick: boolean[] = [];
      let bare = 0;
      for (let u = u1(R); u < u2(R); u++) {
        let n = 0;
        for (let v = v1(R); v < v2(R); v++) if (root[vertical ? u * W + v : v * W + u] === r) n++;
        thick.push(n >= TRACK_THICKNESS * kh);
        if (n === 0) bare++;
      }
      const first = thick.indexOf(true);
      const last = thick.lastIndexOf(true);
      const run = last - first + 1;
      if (first < 0 || bare > 0.1 * len || thick.slice(first, last + 1).some((t) => !t) || run < 0.5 * kh || run > 1.7 * kh || Math.max(first, len - 1 - last) < kh) return;
      found.push([R.x1, R.y1, R.x2, R.y2]);
    });
  }
  const kept: BBox[] = [];
  for (const b of found.sort((a, b) => Math.max(b[2] - b[0], b[3] - b[1]) - Math.max(a[2] - a[0], a[3] - a[1]))) if (!kept.some((k) => bboxIoU(k, b) > 0.3)) kept.push(b);
  return kept;
}
