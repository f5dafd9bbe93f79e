// From regions to typed elements, without a model. Shapes (flat rectangles, discs) and text lines
// are read together the way a person reads a form: a small square followed by words is a checkbox,
// a small disc a radio button, a framed light box with left-aligned or no text a field (a chevron
// at its right end makes it a dropdown), a framed box with centred text a button, coloured text
// or a regular column of short labels a link. Every element gets a confidence in [0, 1].
import type { BBox } from "../core/geometry.js";
import { bboxCenter, bboxContainsPoint } from "../core/geometry.js";
import type { OcrLine, OcrWord } from "../core/providers/ocr.js";
import type { UIElementType } from "../core/schemas/uielement.js";
import type { RgbImage } from "./raster.js";
import type { ShapeRegion } from "./region-proposer.js";

export interface ElementCandidate {
  type: UIElementType;
  bbox: BBox;
  label: string;
  confidence: number;
  /** heuristic_rectangle, heuristic_disc, ocr_text, vlm_query */
  method: string;
  /** The face is filled with a saturated colour (primary buttons). */
  filled: boolean;
  /** Words read inside the element (text.raw). */
  text: string;
}

export interface ClassifyInput {
  readonly img: RgbImage;
  readonly grey: Uint8Array;
  readonly shapes: readonly ShapeRegion[];
  readonly lines: readonly OcrLine[];
  /** Image pixels per screen pixel. */
  readonly scale: number;
}

const luma = (c: readonly [number, number, number]): number => 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2];
const saturation = (c: readonly [number, number, number]): number => {
  const mx = Math.max(...c);
  const mn = Math.min(...c);
  return mx === 0 ? 0 : (mx - mn) / mx;
};
const colourDistance = (a: readonly number[], b: readonly number[]): number => Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!);

function wordsIn(box: BBox, words: readonly OcrWord[]): OcrWord[] {
  return words.filter((w) => bboxContainsPoint(box, bboxCenter(w.bbox)));
}

/** Words to the right of `box` on the same row, up to the next large gap: the label of a checkbox or radio. */
function labelRightOf(box: BBox, words: readonly OcrWord[], scale: number): OcrWord[] {
  const cy = (box[1] + box[3]) / 2;
  const h = box[3] - box[1];
  const row = words.filter((w) => w.bbox[0] >= box[2] - 2 && Math.abs((w.bbox[1] + w.bbox[3]) / 2 - cy) < Math.max(h, 12 * scale) * 0.6).sort((a, b) => a.bbox[0] - b.bbox[0]);
  const out: OcrWord[] = [];
  let x = box[2];
  for (const w of row) {
    if (w.bbox[0] - x > 24 * scale) break;
    out.push(w);
    x = w.bbox[2];
  }
  return out;
}

/** Mean colour of the ink (pixels far from the box's median) of a text box. */
export function inkColour(img: RgbImage, grey: Uint8Array, box: BBox): [number, number, number] {
  const x1 = Math.max(0, Math.floor(box[0]));
  const x2 = Math.min(img.width, Math.ceil(box[2]));
  const y1 = Math.max(0, Math.floor(box[1]));
  const y2 = Math.min(img.height, Math.ceil(box[3]));
  const vals: number[] = [];
  for (let y = y1; y < y2; y++) for (let x = x1; x < x2; x++) vals.push(grey[y * img.width + x]!);
  if (!vals.length) return [0, 0, 0];
  const sorted = [...vals].sort((a, b) => a - b);
  const median = sorted[sorted.length >> 1]!;
  const lo = sorted[0]!;
  const hi = sorted[sorted.length - 1]!;
  const dark = median - lo > hi - median; // ink darker than background
  const thr = dark ? lo + (median - lo) * 0.35 : hi - (hi - median) * 0.35;
  let r = 0;
  let g = 0;
  let b = 0;
  let n = 0;
  for (let y = y1; y < y2; y++)
    for (let x = x1; x < x2; x++) {
      const v = grey[y * img.width + x]!;
      if (dark ? v <= thr : v >= thr) {
        const i = (y * img.width + x) * 3;
        r += img.data[i]!;
        g += img.data[i + 1]!;
        b += img.data[i + 2]!;
        n++;
      }
    }
  return n ? [r / n, g / n, b / n] : [0, 0, 0];
}

/** Ink in the right end of a box, away from any word: a chevron / arrow (dropdown). */
function hasRightGlyph(input: ClassifyInput, box: BBox, words: readonly OcrWord[]): boolean {
  const h = box[3] - box[1];
  const band: BBox = [box[2] - Math.min(h * 1.2, 40 * input.scale), box[1] + h * 0.25, box[2] - 3 * input.scale, box[3] - h * 0.25];
  if (band[2] <= band[0]) return false;
  if (words.some((w) => w.bbox[2] > band[0] + 2 && w.text.replace(/[^\p{L}\p{N}]/gu, "").length > 1)) return false;
  const { grey, img } = input;
  let lo = 255;
  let hi = 0;
  let ink = 0;
  let n = 0;
  const samples: number[] = [];
  for (let y = Math.floor(band[1]); y < Math.ceil(band[3]); y++)
    for (let x = Math.floor(band[0]); x < Math.ceil(band[2]); x++) {
      const v = grey[y * img.width + x]!;
      samples.push(v);
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
  if (hi - lo < 60) return false;
  const mid = (hi + lo) / 2;
  const bg = samples.filter((v) => v > mid).length > samples.length / 2 ? "light" : "dark";
  for (const v of samples) {
    n++;
    if (bg === "light" ? v < mid : v > mid) ink++;
  }
  const share = ink / n;
  return share > 0.02 && share < 0.35;
}

/** Types every region; overlapping explanations are resolved (a shape owns the words inside it). */
export function classifyRegions(input: ClassifyInput): ElementCandidate[] {
  const { shapes, lines, scale } = input;
  const words = lines.flatMap((l) => l.words);
  const out: ElementCandidate[] = [];
  const usedWords = new Set<OcrWord>();
  const widgets = shapes.filter((s) => !s.container).sort((a, b) => (a.bbox[2] - a.bbox[0]) * (a.bbox[3] - a.bbox[1]) - (b.bbox[2] - b.bbox[0]) * (b.bbox[3] - b.bbox[1]));
  const claimed: BBox[] = [];
  for (const s of widgets) {
    const [x1, y1, x2, y2] = s.bbox;
    const w = x2 - x1;
    const h = y2 - y1;
    if (claimed.some((c) => bboxContainsPoint(c, bboxCenter(s.bbox)) && c[2] - c[0] < w * 1.3 && c[3] - c[1] < h * 1.3)) continue;
    const inside = wordsIn(s.bbox, words).filter((x) => !usedWords.has(x));
    const text = inside.map((x) => x.text).join(" ");
    const small = Math.max(w, h) <= 28 * scale;
    const square = Math.abs(w - h) <= Math.max(3, 0.2 * Math.max(w, h));
    const contrast = colourDistance(s.fill, s.surround);
    if (s.kind === "disc" && small) {
      const label = labelRightOf(s.bbox, words, scale);
      label.forEach((x) => usedWords.add(x));
      out.push({ type: "radio_button", bbox: s.bbox, label: label.map((x) => x.text).join(" "), text: label.map((x) => x.text).join(" "), confidence: 0.75, method: "heuristic_disc", filled: false });
      claimed.push(s.bbox);
      continue;
    }
    if (s.kind !== "rectangle") continue;
    if (small && square && inside.length === 0) {
      const label = labelRightOf(s.bbox, words, scale);
      if (label.length === 0 && w < 12 * scale) continue;
      label.forEach((x) => usedWords.add(x));
      out.push({ type: "checkbox", bbox: s.bbox, label: label.map((x) => x.text).join(" "), text: label.map((x) => x.text).join(" "), confidence: label.length ? 0.75 : 0.5, method: "heuristic_rectangle", filled: false });
      claimed.push(s.bbox);
      continue;
    }
    if (h < 16 * scale || h > 80 * scale) continue;
    const filled = saturation(s.fill) > 0.35 && luma(s.fill) < 215;
    const light = luma(s.fill) > 200;
    const textBox = inside.length ? inside.reduce<BBox>((a, x) => [Math.min(a[0], x.bbox[0]), Math.min(a[1], x.bbox[1]), Math.max(a[2], x.bbox[2]), Math.max(a[3], x.bbox[3])], inside[0]!.bbox) : undefined;
    const centred = textBox ? Math.abs((textBox[0] + textBox[2]) / 2 - (x1 + x2) / 2) < Math.max(6 * scale, w * 0.12) && textBox[0] - x1 > 4 * scale : false;
    const leftAligned = textBox ? textBox[0] - x1 < Math.max(24 * scale, w * 0.2) && !centred : false;
    let type: UIElementType | undefined;
    let confidence = 0.6;
    if (centred && w <= 420 * scale) {
      type = "button";
      confidence = contrast > 25 ? 0.85 : 0.65;
    } else if (!textBox && w <= 64 * scale && contrast > 25) {
      type = "button"; // icon button
      confidence = 0.55;
    } else if ((light || !filled) && (leftAligned || !textBox) && w >= 2.2 * h && h <= 60 * scale) {
      type = hasRightGlyph(input, s.bbox, inside) ? "dropdown" : "text_input";
      confidence = light ? 0.75 : 0.6;
    }
    if (!type) continue;
    inside.forEach((x) => usedWords.add(x));
    out.push({ type, bbox: s.bbox, label: text, text, confidence, method: "heuristic_rectangle", filled });
    claimed.push(s.bbox);
  }
  // Fields without text: the label is the nearest words just above or to the left.
  for (const e of out) {
    if (e.label || (e.type !== "text_input" && e.type !== "dropdown")) continue;
    const above = words.filter((x) => x.bbox[3] <= e.bbox[1] + 2 && e.bbox[1] - x.bbox[3] < 30 * scale && x.bbox[0] >= e.bbox[0] - 8 * scale && x.bbox[0] < e.bbox[2]);
    const rowY = Math.max(...above.map((x) => x.bbox[1]), -Infinity);
    const labelWords = above.filter((x) => Math.abs(x.bbox[1] - rowY) < 6 * scale).sort((a, b) => a.bbox[0] - b.bbox[0]);
    const left = words.filter((x) => x.bbox[2] <= e.bbox[0] + 2 && e.bbox[0] - x.bbox[2] < 60 * scale && Math.abs((x.bbox[1] + x.bbox[3]) / 2 - (e.bbox[1] + e.bbox[3]) / 2) < (e.bbox[3] - e.bbox[1]) / 2);
    const chosen = left.length ? left.sort((a, b) => a.bbox[0] - b.bbox[0]) : labelWords;
    e.label = chosen.map((x) => x.text).join(" ");
  }
  out.push(...linkCandidates(input, lines, claimed));
  return out;
}

/**
 * Text outside every widget is a link when its ink is a saturated colour (blue/teal hues of
 * hyperlinks), or when it sits in a column of short labels with a regular pitch (a menu).
 */
function linkCandidates(input: ClassifyInput, lines: readonly OcrLine[], claimed: readonly BBox[]): ElementCandidate[] {
  const { img, grey, scale } = input;
  const free = lines.filter((l) => !claimed.some((c) => bboxContainsPoint(c, bboxCenter(l.bbox))) && /[\p{L}\p{N}]{2}/u.test(l.text));
  const out: ElementCandidate[] = [];
  const menu = menuColumns(free, scale);
  for (const l of free) {
    const words = l.words.length;
    const ink = inkColour(img, grey, l.bbox);
    const [r, g, b] = ink;
    const hue = rgbHue(r, g, b);
    const coloured = saturation(ink) > 0.4 && hue >= 180 && hue <= 260 && luma(ink) < 200;
    const inMenu = menu.has(l);
    if (!coloured && !inMenu) continue;
    if (words > 8) continue;
    out.push({ type: "link", bbox: l.bbox, label: l.text, text: l.text, confidence: coloured && inMenu ? 0.8 : coloured ? 0.7 : 0.55, method: "ocr_text", filled: false });
  }
  return out;
}

function rgbHue(r: number, g: number, b: number): number {
  const mx = Math.max(r, g, b);
  const mn = Math.min(r, g, b);
  if (mx === mn) return 0;
  const d = mx - mn;
  let h: number;
  if (mx === r) h = ((g - b) / d) % 6;
  else if (mx === g) h = (b - r) / d + 2;
  else h = (r - g) / d + 4;
  return (h * 60 + 360) % 360;
}

/** Lines that belong to a vertical list of ≥ 4 short labels sharing a left edge with a regular pitch. */
function menuColumns(lines: readonly OcrLine[], scale: number): Set<OcrLine> {
  const short = lines.filter((l) => l.words.length <= 4 && l.bbox[3] - l.bbox[1] < 40 * scale);
  const byX = new Map<number, OcrLine[]>();
  for (const l of short) {
    const key = Math.round(l.bbox[0] / (6 * scale));
    for (const k of [key - 1, key, key + 1]) {
      const group = byX.get(k);
      if (group) {
        group.push(l);
        break;
      }
      if (k === key + 1) byX.set(key, [l]);
    }
  }
  const out = new Set<OcrLine>();
  for (const group of byX.values()) {
    if (group.length < 4) continue;
    group.sort((a, b) => a.bbox[1] - b.bbox[1]);
    // Split into runs whose vertical gaps stay within 1.6× the median gap.
    const gaps = group.slice(1).map((l, i) => l.bbox[1] - group[i]!.bbox[1]);
    const med = [...gaps].sort((a, b) => a - b)[gaps.length >> 1]!;
    let run: OcrLine[] = [group[0]!];
    const flush = (): void => {
      if (run.length >= 4) run.forEach((l) => out.add(l));
      run = [];
    };
    group.slice(1).forEach((l, i) => {
      const gap = gaps[i]!;
      if (gap > med * 1.6 || gap > 70 * scale) flush();
      run.push(l);
    });
    flush();
  }
  return out;
}
