// From regions to typed elements, without a model. Shapes (flat rectangles, discs) and text lines
// are read together the way a person reads a form: a small square followed by words is a checkbox,
// a small disc a radio button, a framed light box with left-aligned or no text a field (a chevron
// at its right end makes it a dropdown), a framed box with centred text a button, coloured text
// or a regular column of short labels a link. Every element gets a confidence in [0, 1].
import type { BBox } from "../core/geometry.js";
import { bboxArea, bboxCenter, bboxContainsPoint, bboxIntersection, bboxUnion, padBBox } from "../core/geometry.js";
import type { OcrLine, OcrWord } from "../core/providers/ocr.js";
import type { UIElementType } from "../core/schemas/uielement.js";
import { nameIcon } from "./icon-names.js";
import { connectedComponents, type RgbImage } from "./raster.js";
import type { GlyphRegion, ShapeRegion } from "./region-proposer.js";

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
  /** States a learned detector read (checked, selected, disabled), when it can. */
  state?: { checked?: boolean; selected?: boolean; disabled?: boolean };
}

export interface ClassifyInput {
  readonly img: RgbImage;
  readonly grey: Uint8Array;
  readonly shapes: readonly ShapeRegion[];
  readonly lines: readonly OcrLine[];
  /** Icon-sized ink blobs (icons of borderless buttons among them). */
  readonly glyphs?: readonly GlyphRegion[];
  /** Image pixels per screen pixel. */
  readonly scale: number;
}

const luma = (c: readonly [number, number, number]): number => 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2];
/** A colour's saturation (HSV); a tone whose channels lie within 24 levels of each other (a dark theme's blue-grey) is grey. */
const saturation = (c: readonly [number, number, number]): number => {
  const mx = Math.max(...c);
  const mn = Math.min(...c);
  return mx - mn < 24 ? 0 : (mx - mn) / mx;
};
const colourDistance = (a: readonly number[], b: readonly number[]): number => Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!);

function wordsIn(box: BBox, words: readonly OcrWord[]): OcrWord[] {
  return words.filter((w) => bboxContainsPoint(box, bboxCenter(w.bbox)));
}

/**
 * The OCR read a toggle's indicator as the start of its caption's first word (the two stand
 * closer than a word space): the word starts where the toggle-sized box does and runs past it.
 */
function leadsWord(input: ClassifyInput, box: BBox, w: OcrWord): boolean {
  const { scale, grey, img } = input;
  if (box[2] - box[0] < 12 * scale || Math.abs(w.bbox[0] - box[0]) > 2 * scale || w.bbox[2] <= box[2] + 8 * scale || w.bbox[1] >= box[3] || w.bbox[3] <= box[1]) return false;
  // A gap wider than a letter's spacing follows the indicator (a bold capital has none).
  const y1 = Math.round(box[1] + (box[3] - box[1]) * 0.2);
  const y2 = Math.round(box[3] - (box[3] - box[1]) * 0.2);
  const x0 = Math.max(0, Math.round(box[0]) - 2);
  for (let y = y1; y < y2; y++) {
    const bg = grey[y * img.width + x0]!;
    for (let x = Math.round(box[2]) + 1; x <= Math.round(box[2]) + 3 * scale && x < img.width; x++) if (Math.abs(grey[y * img.width + x]! - bg) > 30) return false;
  }
  return true;
}

/** Words to the right of `box` on the same row, up to the next large gap: the label of a checkbox or radio. */
function labelRightOf(input: ClassifyInput, box: BBox, words: readonly OcrWord[]): OcrWord[] {
  const { scale } = input;
  const cy = (box[1] + box[3]) / 2;
  const h = box[3] - box[1];
  const row = words.filter((w) => (w.bbox[0] >= box[2] - 2 || leadsWord(input, box, w)) && Math.abs((w.bbox[1] + w.bbox[3]) / 2 - cy) < Math.max(h, 12 * scale) * 0.6).sort((a, b) => a.bbox[0] - b.bbox[0]);
  // A caption stands on the surface, not inside the next small box (a pager's "1" after "«").
  const boxed = (w: OcrWord) => input.shapes.some((s) => !s.container && s.bbox[0] >= box[2] - 2 && s.bbox[2] - s.bbox[0] <= 64 * scale && s.bbox[3] - s.bbox[1] <= 48 * scale && bboxContainsPoint(s.bbox, bboxCenter(w.bbox)));
  const out: OcrWord[] = [];
  let x = box[2];
  for (const w of row) {
    if (w.bbox[0] - x > 24 * scale || boxed(w)) break;
    out.push(w);
    x = w.bbox[2];
  }
  return out;
}

function fieldCaption(box: BBox, lines: readonly OcrLine[], used: ReadonlySet<OcrWord>, scale: number): string | undefined {
  const cy = (box[1] + box[3]) / 2;
  const h = box[3] - box[1];
  const free = (l: OcrLine) => l.words.filter((w) => !used.has(w));
  const left = lines
    .map((l) => ({ l, words: free(l).filter((w) => w.bbox[2] <= box[0] + 2 && Math.abs((w.bbox[1] + w.bbox[3]) / 2 - cy) < h / 2) }))
    .filter((x) => x.words.length && box[0] - x.words[x.words.length - 1]!.bbox[2] < 160 * scale)
    .sort((a, b) => b.words[b.words.length - 1]!.bbox[2] - a.words[a.words.length - 1]!.bbox[2])[0];
  if (left) return left.words.map((w) => w.text).join(" ");
  const above = lines
    .map((l) => ({ l, words: free(l).filter((w) => w.bbox[3] <= box[1] + 2 && box[1] - w.bbox[3] < 30 * scale && w.bbox[0] >= box[0] - 8 * scale && w.bbox[0] < box[2]) }))
    .filter((x) => x.words.length)
    .sort((a, b) => b.words[0]!.bbox[3] - a.words[0]!.bbox[3])[0];
  return above ? above.words.map((w) => w.text).join(" ") : undefined;
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

/**
 * A strip (rectangle) holding two or more short labels on one row, spread along it with gaps
 * much larger than a word space: each label is a tab, its box the label plus the usual padding.
 */
function tabStrip(inside: readonly OcrWord[], strip: BBox, scale: number): { bbox: BBox; text: string; words: OcrWord[] }[] {
  if (inside.length < 2) return [];
  const sorted = [...inside].sort((a, b) => a.bbox[0] - b.bbox[0]);
  const cy = (sorted[0]!.bbox[1] + sorted[0]!.bbox[3]) / 2;
  if (sorted.some((w) => Math.abs((w.bbox[1] + w.bbox[3]) / 2 - cy) > 4 * scale)) return [];
  // Group words into labels (word spaces) and labels into tabs (wide gaps).
  const labels: OcrWord[][] = [[sorted[0]!]];
  for (const w of sorted.slice(1)) {
    const last = labels[labels.length - 1]!;
    if (w.bbox[0] - last[last.length - 1]!.bbox[2] < 12 * scale) last.push(w);
    else labels.push([w]);
  }
  if (labels.length < 2 || labels.some((l) => l.length > 3 || !/[\p{L}\p{N}]{2}/u.test(l.map((w) => w.text).join("")))) return [];
  const sw = strip[2] - strip[0];
  const textWidth = labels.reduce((a, l) => a + l[l.length - 1]!.bbox[2] - l[0]!.bbox[0], 0);
  if (textWidth > sw * 0.7) return [];
  return labels.map((l) => {
    const b: BBox = [l[0]!.bbox[0], Math.min(...l.map((w) => w.bbox[1])), l[l.length - 1]!.bbox[2], Math.max(...l.map((w) => w.bbox[3]))];
    const h = b[3] - b[1];
    const padX = Math.max(8 * scale, h * 0.8);
    return { bbox: [Math.max(strip[0], b[0] - padX), Math.max(strip[1], b[1] - h * 0.5), Math.min(strip[2], b[2] + padX), Math.min(strip[3], b[3] + h * 0.5)] as BBox, text: l.map((w) => w.text).join(" "), words: l };
  });
}

/**
 * A check box or radio button is its indicator and its caption together, as desktop toolkits
 * report them (GTK, Qt, Windows UI Automation) and as a click on either toggles it. The
 * indicator stays at the box's left end: `clickPoint` in locate clicks there.
 */
function toggleBox(indicator: BBox, label: readonly OcrWord[]): BBox {
  return label.reduce((b, w) => bboxUnion(b, w.bbox), indicator);
}

/** A check box or radio button from its indicator and caption words (which it takes from `used`'s pool). */
function toggle(type: "checkbox" | "radio_button", indicator: BBox, label: readonly OcrWord[], used: Set<OcrWord>, o: { confidence: number; method: string; filled?: boolean }): ElementCandidate {
  label.forEach((x) => used.add(x));
  const text = label.map((x) => x.text).join(" ");
  return { type, bbox: toggleBox(indicator, label), label: text, text, confidence: o.confidence, method: o.method, filled: o.filled ?? false };
}

/** Types every region; overlapping explanations are resolved (a shape owns the words inside it). */
export function classifyRegions(raw: ClassifyInput): ElementCandidate[] {
  const input: ClassifyInput = { ...raw, lines: withoutIconRuns(raw) };
  const { shapes, lines, scale } = input;
  const words = lines.flatMap((l) => l.words);
  const out: ElementCandidate[] = [];
  const usedWords = new Set<OcrWord>();
  const widgets = shapes.filter((s) => !s.container).sort((a, b) => (a.bbox[2] - a.bbox[0]) * (a.bbox[3] - a.bbox[1]) - (b.bbox[2] - b.bbox[0]) * (b.bbox[3] - b.bbox[1]));
  const claimed: BBox[] = [];
  // A box with a control inside it (a button in a card's footer) is a panel, not a field.
  const holdsControl = (b: BBox) => claimed.some((c) => c[0] >= b[0] - 1 && c[1] >= b[1] - 1 && c[2] <= b[2] + 1 && c[3] <= b[3] + 1 && c[2] - c[0] >= 24 * input.scale && (c[2] - c[0]) * (c[3] - c[1]) < 0.5 * (b[2] - b[0]) * (b[3] - b[1]));
  // A table's cell: another box of the same width right above or below it, touching it or sharing
  // its border (form fields stand a caption or a gap apart: GTK's form rows 6 px, which the
  // widths' tolerance took for touching once text at ×1.5 was read as ×2). Side by side is no
  // sign: a field and its button touch too.
  const near = (a: number, b: number) => Math.abs(a - b) <= 3 * scale;
  const touch = (a: number, b: number) => Math.abs(a - b) <= 2 * scale;
  const gridCell = (b: BBox) => shapes.some((o) => o.bbox !== b && near(o.bbox[0], b[0]) && near(o.bbox[2], b[2]) && (touch(o.bbox[1], b[3]) || touch(o.bbox[3], b[1])));
  // A cell of a bordered table has neighbours both ways (a button stacked on a box, "More info"
  // under a tile, or a stack of toolbar buttons has not).
  const tableCell = (b: BBox) => gridCell(b) && Boolean(beside(b, false) ?? beside(b, true));
  // Column headers: three or more boxes of one height edge to edge, each wider than an input
  // group's addon ("@", "$").
  const wideCell = (b: BBox) => b[2] - b[0] > 60 * scale;
  const adjacent = (o: BBox, b: BBox, right: boolean) => o !== b && near(o[1], b[1]) && near(o[3], b[3]) && (right ? near(o[0], b[2]) : near(o[2], b[0]));
  const beside = (b: BBox, right: boolean) => shapes.find((o) => wideCell(o.bbox) && adjacent(o.bbox, b, right));
  // Four or more boxes of one height edge to edge, whatever their widths, are a header row (an
  // input group has three at most: addon, field, button).
  const nextTo = (b: BBox, right: boolean) => shapes.find((o) => adjacent(o.bbox, b, right));
  const chain = (b: BBox) => {
    let n = 1;
    for (const right of [false, true]) for (let o = nextTo(b, right); o && n < 8; o = nextTo(o.bbox, right)) n++;
    return n;
  };
  const headerCell = (b: BBox) => {
    if (chain(b) >= 4) return true;
    if (!wideCell(b)) return false;
    const l = beside(b, false);
    const r = beside(b, true);
    return Boolean((l && r) || (l && beside(l.bbox, false)) || (r && beside(r.bbox, true)));
  };
  const hasGlyph = (b: BBox) => (input.glyphs ?? []).some((g) => bboxContainsPoint(b, bboxCenter(g.bbox)));
  // A bar of a chart: an empty solid box beside another of the same width standing on the same
  // baseline, but of another height (a toolbar's buttons share theirs).
  const empty = (b: BBox) => wordsIn(b, words).length === 0 && !(input.glyphs ?? []).some((g) => bboxContainsPoint(b, bboxCenter(g.bbox)) && bboxArea(g.bbox) < 0.8 * bboxArea(b));
  const chartBar = (s: ShapeRegion) => {
    const [x1, , x2, y2] = s.bbox;
    const w = x2 - x1;
    return (
      empty(s.bbox) &&
      widgets.some((o) => {
        const [ox1, oy1, ox2, oy2] = o.bbox;
        const gap = Math.max(ox1 - x2, x1 - ox2);
        return o !== s && Math.abs(ox2 - ox1 - w) <= 2 * scale && Math.abs(oy2 - y2) <= 2 * scale && gap >= -1 && gap <= w && Math.abs(oy2 - oy1 - (y2 - s.bbox[1])) > 3 * scale && empty(o.bbox);
      })
    );
  };
  // A toolbar's button: a small framed box holding an icon, in a row of two or more others of
  // its height and top, each at most its width apart (a lone framed box is an input's addon).
  const toolbarButton = (s: ShapeRegion) => {
    const [x1, y1, x2, y2] = s.bbox;
    if (!hasGlyph(s.bbox) || !framed(input.img, s)) return false;
    const mates = widgets.filter((o) => o !== s && near(o.bbox[1], y1) && near(o.bbox[3], y2) && o.bbox[2] - o.bbox[0] <= 64 * scale && Math.max(o.bbox[0] - x2, x1 - o.bbox[2]) <= 3 * (x2 - x1));
    return mates.length >= 2;
  };
  // A pager: four or more small boxes edge to edge, some holding a page number.
  const pagerBox = (s: ShapeRegion) => {
    const [x1, y1, x2, y2] = s.bbox;
    if (x2 - x1 > 64 * scale || chain(s.bbox) < 4) return false;
    const row = widgets.filter((o) => near(o.bbox[1], y1) && near(o.bbox[3], y2) && Math.abs(o.bbox[0] - x1) < 8 * (x2 - x1));
    return row.some((o) => wordsIn(o.bbox, words).some((x) => /^\d{1,3}$/u.test(x.text)));
  };
  // A panel's header: a close cross at its right end (a field's end holds a caret or nothing).
  const panelHeader = (b: BBox) => (input.glyphs ?? []).some((g) => g.bbox[2] > b[2] - (b[3] - b[1]) * 1.5 && bboxContainsPoint(b, bboxCenter(g.bbox)) && nameIcon(input.grey, input.img.width, g.bbox) === "Close");
  // A card's header: the card's side borders run on below it (a field's end with it).
  const px = (x: number, y: number) => pixelAt(input.img, x, y);
  const cardTop = (s: ShapeRegion) => {
    const [x1, y1, x2, y2] = s.bbox;
    if (y2 + 24 * scale >= input.img.height) return false;
    return [x1, x2 - 1].every((x) => {
      const border = px(x, (y1 + y2) / 2);
      return colourDistance(border, s.fill) > 12 && [4, 12, 24].every((dy) => colourDistance(px(x, y2 + dy * scale), border) <= 12);
    });
  };
  // A list group's item: a wide row in a stack of three or more of its size, edge to edge,
  // with nothing beside it (a table's cells have neighbours), holding one short label at its
  // start and at most a badge at its end (a table's row holds words across its width).
  const stacked = (o: BBox, b: BBox, down: boolean) => stackedEdge(o, b, down, near);
  const stack = (b: BBox) => {
    const rows = [b];
    for (const down of [false, true]) for (let o = shapes.find((x) => stacked(x.bbox, b, down)); o && rows.length < 24; o = shapes.find((x) => stacked(x.bbox, o!.bbox, down))) rows.push(o.bbox);
    return rows;
  };
  // Its words: one short label at its start, and at most a badge (a count) at its end. Asked
  // once per box (each row of a stack asks it of all the others).
  const labelOnlyMemo = new Map<BBox, boolean>();
  const labelOnly = (b: BBox): boolean => {
    let v = labelOnlyMemo.get(b);
    if (v === undefined) labelOnlyMemo.set(b, (v = labelOnlyOf(b)));
    return v;
  };
  const labelOnlyOf = (b: BBox) => {
    const [x1, y1, x2, y2] = b;
    const h = y2 - y1;
    // Nothing wider than a badge inside it (a table's row holds a progress bar, a field).
    if (widgets.some((o) => o.bbox !== b && bboxContainsPoint(b, bboxCenter(o.bbox)) && o.bbox[2] - o.bbox[0] >= 2 * h)) return false;
    const inside = wordsIn(b, words).sort((p, q) => p.bbox[0] - q.bbox[0]);
    const badge = (x: OcrWord) => x.bbox[0] > x2 - 3 * h && (/^\d{1,4}$/u.test(x.text) || widgets.some((o) => o.bbox !== b && bboxContainsPoint(o.bbox, bboxCenter(x.bbox)) && o.bbox[2] - o.bbox[0] < 2 * h));
    const label = inside.filter((x) => !badge(x));
    if (!label.length || label[0]!.bbox[0] - x1 > 2 * h) return false;
    return label.every((x, i) => i === 0 || x.bbox[0] - label[i - 1]!.bbox[2] <= 1.2 * (x.bbox[3] - x.bbox[1]));
  };
  const listItem = (s: ShapeRegion) => {
    const [x1, y1, x2, y2] = s.bbox;
    const h = y2 - y1;
    if (x2 - x1 < 5 * h || h < 16 * scale || h > 60 * scale || nextTo(s.bbox, false) || nextTo(s.bbox, true)) return false;
    // Every row of the stack is one (a table's header row, with words across it, is not).
    const rows = stack(s.bbox);
    return rows.length >= 3 && rows.every(labelOnly);
  };
  const menu = menuRows(input, lines);
  for (const row of menu) claimed.push(row.bbox);
  const inMenuRow = (b: BBox) => menu.some((r) => bboxContainsPoint(r.bbox, bboxCenter(b)));
  // List items claim their rows first: the icon before the label and the count after it are theirs.
  const items = widgets.filter((s) => !inMenuRow(s.bbox) && listItem(s));
  for (const s of items) {
    const inside = wordsIn(s.bbox, words);
    inside.forEach((x) => usedWords.add(x));
    const label = inside.map((x) => x.text).join(" ");
    out.push({ type: "link", bbox: s.bbox, label, text: label, confidence: 0.6, method: "heuristic_rectangle", filled: false });
    claimed.push(s.bbox);
  }
  // A social sign-in button: a coloured box with its caption, an icon's square of the same hue
  // edge to edge on its left — one button.
  const social = widgets.flatMap((icon) => {
    const [x1, y1, x2, y2] = icon.bbox;
    if (Math.abs(x2 - x1 - (y2 - y1)) > 0.2 * (y2 - y1) || saturation(icon.fill) <= 0.35 || wordsIn(icon.bbox, words).some((x) => letters(x.text) > 2)) return [];
    const text = widgets.find((o) => o !== icon && near(o.bbox[0], x2) && near(o.bbox[1], y1) && near(o.bbox[3], y2) && o.bbox[2] - o.bbox[0] > 3 * (y2 - y1) && colourDistance(o.fill, icon.fill) < 60);
    const caption = text ? wordsIn(text.bbox, words) : [];
    return text && caption.length ? [{ icon, text, caption }] : [];
  });
  for (const { icon, text, caption } of social) {
    caption.forEach((x) => usedWords.add(x));
    const label = caption.map((x) => x.text).join(" ");
    const bbox: BBox = [icon.bbox[0], Math.min(icon.bbox[1], text.bbox[1]), text.bbox[2], Math.max(icon.bbox[3], text.bbox[3])];
    out.push({ type: "button", bbox, label, text: label, confidence: 0.7, method: "heuristic_rectangle", filled: true });
    claimed.push(bbox);
  }
  // Spin buttons: an entry and its steppers are one field, claimed before their boxes are typed.
  const spins = spinFields(input, widgets, words, near);
  for (const spin of spins) {
    wordsIn(spin.bbox, words).forEach((x) => usedWords.add(x));
    out.push(spin);
    claimed.push(spin.bbox);
  }
  const parts = new Set([...social.flatMap((x) => [x.icon, x.text]), ...widgets.filter((w) => spins.some((sp) => bboxContainsPoint(sp.bbox, bboxCenter(w.bbox))))]);
  for (const s of widgets) {
    if (parts.has(s) || inMenuRow(s.bbox) || items.some((it) => bboxContainsPoint(it.bbox, bboxCenter(s.bbox)))) continue;
    const [x1, y1, x2, y2] = s.bbox;
    const w = x2 - x1;
    const h = y2 - y1;
    if (claimed.some((c) => bboxContainsPoint(c, bboxCenter(s.bbox)) && c[2] - c[0] < w * 1.3 && c[3] - c[1] < h * 1.3)) continue;
    let inside = wordsIn(s.bbox, words).filter((x) => !usedWords.has(x));
    // A ring the OCR read as a round letter ("O", "o", "0") is a radio's indicator, not a badge.
    // Its caption follows closely (an icon before a menu label stands a word space or more off).
    const ringRead = s.kind === "disc" && inside.length === 1 && /^[oO0Q°○◯●]$/u.test(inside[0]!.text) && overlap(inside[0]!.bbox, s.bbox) > 0.6;
    // The words right of the shape (a toggle's caption), found once and only when a rule asks.
    let rightWords: OcrWord[] | undefined;
    const labelRight = (): OcrWord[] => (rightWords ??= labelRightOf(input, s.bbox, words));
    const caption = ringRead ? labelRight()[0] : undefined;
    if (ringRead && caption && caption.bbox[0] - x2 <= 0.5 * w) {
      usedWords.add(inside[0]!);
      inside = [];
    }
    const text = inside.map((x) => x.text).join(" ");
    const small = Math.max(w, h) <= 28 * scale;
    // Large square toggles (accessible web forms draw 40 px boxes) still lead their label.
    const toggleSized = Math.max(w, h) <= 48 * scale;
    const square = Math.abs(w - h) <= Math.max(3, 0.2 * Math.max(w, h));
    const contrast = colourDistance(s.fill, s.surround);
    if ((s.kind === "disc" || small) && inside.length > 0) continue; // a badge ("3", "New"), not a control
    // The counter of a letter ("e", "O") is a small closed shape too.
    if (small && words.some((x) => x.text.length >= 2 && bboxContainsPoint(x.bbox, bboxCenter(s.bbox)) && !leadsWord(input, s.bbox, x))) continue;
    // A heading's first capital ("H" of "Housing") is a dark solid blob at its word's start; an
    // indicator there is a face (light, coloured, or one dark tone filling it) or a ring.
    const letterLike = luma(s.fill) < 100 && saturation(s.fill) < 0.35 && s.fillRatio >= 0.5 && s.fillRatio < 0.8;
    if (letterLike && words.some((x) => leadsWord(input, s.bbox, x))) continue;
    if (s.kind === "disc" && toggleSized) {
      const slider = sliderOf(input, s.bbox);
      if (slider) {
        out.push({ type: "generic_interactive", bbox: slider, label: "", text: "", confidence: 0.6, method: "heuristic_disc", filled: false });
        claimed.push(slider);
        continue;
      }
      const label = labelRight();
      if (!label.length) continue; // a lone ring is an icon more often than a radio button
      // A radio's indicator, checked or not, is the same mirrored left-right and top-bottom; a
      // round icon, logo or avatar is not (measured: 4 of 48 discs with a caption were radios).
      if (mirrorDifference(input.grey, input.img.width, s.bbox) > 6) continue;
      out.push(toggle("radio_button", s.bbox, label, usedWords, { confidence: 0.75, method: "heuristic_disc" }));
      claimed.push(s.bbox);
      continue;
    }
    if (s.kind !== "rectangle") continue;
    // A chart legend's swatch is one solid colour apart from its surround; a check box's face is
    // light or its surround's tone, or holds a tick.
    const swatch = Math.max(w, h) <= 20 * scale && s.fillRatio >= 0.95 && luma(s.fill) < 200 && contrast > 60;
    if (swatch && inside.length === 0 && labelRight().length > 0) continue; // a legend's key
    // A check box's face is blank or holds one tick or dash; an icon's (a table, a board, a page)
    // holds several separate marks: before a caption it only decorates it, and a small one alone
    // is a picture, as a blank small square is.
    const marked = toggleSized && square && inside.length === 0 && faceMarks(input.grey, input.img.width, s.bbox) >= 2;
    if (marked && (small || labelRight().length > 0)) continue;
    if (toggleSized && square && inside.length === 0 && !marked && (small || ((s.fillRatio < 0.5 || luma(s.fill) > 200) && labelRight().length > 0))) {
      const label = labelRight();
      if (label.length === 0) continue;
      // A badge pinned to an icon's corner (a count on a bell) is inked with the icon, which runs
      // on past it; a round icon on a coloured button, before the button's own caption, is the
      // button's.
      if ((input.glyphs ?? []).some((g) => bboxContainsPoint(g.bbox, bboxCenter(s.bbox)) && (x1 - g.bbox[0] >= 0.5 * w || g.bbox[2] - x2 >= 0.5 * w))) continue;
      if (widgets.some((o) => o !== s && saturation(o.fill) > 0.35 && luma(o.fill) < 215 && bboxContainsPoint(o.bbox, bboxCenter(s.bbox)) && bboxContainsPoint(o.bbox, bboxCenter(label.at(-1)!.bbox)) && bboxArea(o.bbox) > 4 * bboxArea(s.bbox))) continue;
      out.push(toggle("checkbox", s.bbox, label, usedWords, { confidence: 0.75, method: "heuristic_rectangle" }));
      claimed.push(s.bbox);
      continue;
    }
    // A dark header band on a light page holds its navigation the way a light strip holds tabs;
    // it may wrap it onto a second row (each row is then a strip of its own).
    const navBand = luma(s.fill) <= 150 && luma(s.surround) - luma(s.fill) > 100 && h >= 40 * scale && h <= 110 * scale;
    if (h < 16 * scale || (h > 80 * scale && !navBand)) continue;
    const tabs = luma(s.fill) > 150 ? tabStrip(inside, s.bbox, scale) : navBand ? rowItems(inside, Infinity).flatMap((row) => tabStrip(row.flat(), s.bbox, scale)) : [];
    // A table's header row has rows of its size right under it (a notebook's strip, its page):
    // its labels are no tabs, nor is it a button.
    if (tabs.length && shapes.some((o) => stacked(o.bbox, s.bbox, true))) continue;
    if (tabs.length) {
      for (const t of tabs) {
        t.words.forEach((x) => usedWords.add(x));
        out.push({ type: navBand ? "link" : "tab", bbox: t.bbox, label: t.text, text: t.text, confidence: 0.6, method: navBand ? "ocr_text" : "heuristic_rectangle", filled: false });
      }
      claimed.push(s.bbox);
      continue;
    }
    const filled = saturation(s.fill) > 0.35 && luma(s.fill) < 215;
    // A dark band on a light page is a banner or a header, not a field.
    const banner = luma(s.surround) - luma(s.fill) > 100;
    const light = luma(s.fill) > 200;
    const textBox = inside.length ? inside.reduce<BBox>((a, x) => [Math.min(a[0], x.bbox[0]), Math.min(a[1], x.bbox[1]), Math.max(a[2], x.bbox[2]), Math.max(a[3], x.bbox[3])], inside[0]!.bbox) : undefined;
    const centred = textBox ? Math.abs((textBox[0] + textBox[2]) / 2 - (x1 + x2) / 2) < Math.max(6 * scale, w * 0.12) && textBox[0] - x1 > 4 * scale : false;
    let type: UIElementType | undefined;
    let confidence = 0.6;
    // A wide one (a block button, a tile's footer) is filled and holds one short label.
    const blockButton = filled && contrast > 25 && h <= 50 * scale && textBox !== undefined && textBox[2] - textBox[0] <= 0.5 * w;
    // A count's pill ("70%") is a badge; a day marked in a calendar's grid of bare numbers is
    // the calendar's (the calendar is the control).
    const badge = quantity(text) && h <= 24 * scale;
    const day = /^\d{1,2}$/u.test(text) && words.filter((x) => /^\d{1,2}$/u.test(x.text) && !inside.includes(x) && Math.abs(bboxCenter(x.bbox)[1] - (y1 + y2) / 2) < h / 2 && Math.abs(bboxCenter(x.bbox)[0] - (x1 + x2) / 2) < 4 * w).length >= 3;
    if (centred && (w <= 420 * scale || blockButton) && !tableCell(s.bbox) && !badge && !day) {
      type = "button";
      confidence = contrast > 25 ? 0.85 : 0.65;
    } else if (!textBox && w <= 64 * scale && (contrast > 25 || toolbarButton(s)) && (!light || w < 1.2 * h || hasGlyph(s.bbox)) && !chartBar(s)) {
      type = "button"; // icon button
      confidence = 0.55;
    } else if (!textBox && light && (contrast > 25 || framed(input.img, s)) && w >= 1.2 * h && h <= 60 * scale && !gridCell(s.bbox) && !headerCell(s.bbox)) {
      type = "text_input"; // a short empty field (a day, a year, a postcode)
      confidence = 0.6;
    } else if ((light || !filled) && !centred && w >= 2.2 * h && h <= 60 * scale && !banner && !holdsControl(s.bbox) && !gridCell(s.bbox) && !panelHeader(s.bbox) && !cardTop(s)) {
      type = hasRightGlyph(input, s.bbox, inside) ? "dropdown" : headerCell(s.bbox) ? undefined : "text_input";
      confidence = light ? 0.75 : 0.6;
    }
    if (!type) continue;
    if (type === "button" && pagerBox(s)) type = "link";
    inside.forEach((x) => usedWords.add(x));
    // An icon the OCR read as a letter or nothing ("n" for ≡) is named by its figure.
    const icon = type === "button" && text.length <= 2 && !/\p{N}/u.test(text) ? (input.glyphs ?? []).find((g) => bboxContainsPoint(s.bbox, bboxCenter(g.bbox))) : undefined;
    const label = (icon && freeIconName(input, icon.bbox)) || text;
    out.push({ type, bbox: s.bbox, label, text, confidence, method: "heuristic_rectangle", filled });
    claimed.push(s.bbox);
  }
  out.push(...textAreas(input, words, usedWords, claimed));
  // A field's label is its caption: the line just left of it on the same row, else just above it.
  // What is typed inside stays in text.raw.
  for (const e of out) {
    if (e.type !== "text_input" && e.type !== "dropdown") continue;
    const caption = fieldCaption(e.bbox, lines, usedWords, scale);
    if (caption) e.label = caption;
  }
  for (const t of [...filledToggles(input, words, usedWords, claimed), ...ringRadios(input, words, usedWords, claimed)]) {
    out.push(t);
    claimed.push(t.bbox);
  }
  for (const row of menu) {
    if (row.line.words.every((x) => usedWords.has(x))) continue;
    out.push({ type: "link", bbox: row.bbox, label: row.line.text, text: row.line.text, confidence: 0.7, method: "ocr_text", filled: false });
  }
  for (const b of brandLinks(input, words, usedWords, claimed)) {
    // The logo left of the name is part of the brand, not a button of its own.
    for (let k = out.length - 1; k >= 0; k--) if (bboxContainsPoint(b.bbox, bboxCenter(out[k]!.bbox))) out.splice(k, 1);
    out.push(b);
    claimed.push(b.bbox);
  }
  for (const t of sideTabs(input, lines, usedWords, claimed)) {
    out.push(t);
    claimed.push(t.bbox);
  }
  const icons = [...iconButtons(input, words, claimed), ...smallIconRows(input, words, claimed)];
  for (const b of icons) {
    out.push(b);
    claimed.push(b.bbox);
  }
  const links = linkCandidates(input, lines, claimed);
  const bar = topBarItems(input, words, [...claimed, ...links.map((l) => l.bbox)]);
  const rows = rowMenus(input, words, [...claimed, ...links.map((l) => l.bbox), ...bar.map((b) => b.bbox)]);
  out.push(...links, ...bar, ...rows);
  // A percentage or a figure with a separator ("55%", "1,322", "12.50") is a quantity shown, not
  // a link; page numbers ("1", "10") stay. A tall framed box with tabs along its edges is a
  // notebook's page, not a multi-line field.
  const tabs = out.filter((e) => e.type === "tab").map((e) => e.bbox);
  return out.filter((e) => (e.type !== "link" || !quantity(e.text)) && !(e.type === "text_input" && e.bbox[3] - e.bbox[1] > 60 * scale && tabs.filter((t) => alongEdge(e.bbox, t, 12 * scale)).length >= 2));
}

/** `o` has `b`'s width and height and stands edge to edge right below it (`below`) or above it. */
function stackedEdge(o: BBox, b: BBox, below: boolean, near: (a: number, b: number) => boolean): boolean {
  return o !== b && near(o[0], b[0]) && near(o[2], b[2]) && near(o[3] - o[1], b[3] - b[1]) && (below ? near(o[1], b[3]) : near(o[3], b[1]));
}

/**
 * A spin button: an entry box followed, edge to edge, by two square boxes of its height, the last
 * holding "+" — one field, as toolkits report it (the − and + are its steppers).
 */
function spinFields(input: ClassifyInput, widgets: readonly ShapeRegion[], words: readonly OcrWord[], near: (a: number, b: number) => boolean): ElementCandidate[] {
  const { scale } = input;
  const out: ElementCandidate[] = [];
  const square = (b: BBox) => Math.abs(b[2] - b[0] - (b[3] - b[1])) <= 0.25 * (b[3] - b[1]) && b[3] - b[1] <= 48 * scale;
  const after = (b: BBox) => widgets.find((o) => o.bbox !== b && near(o.bbox[0], b[2]) && near(o.bbox[1], b[1]) && near(o.bbox[3], b[3]));
  for (const plus of widgets) {
    if (!square(plus.bbox) || !wordsIn(plus.bbox, words).some((w) => w.text === "+")) continue;
    const minus = widgets.find((o) => o !== plus && square(o.bbox) && after(o.bbox) === plus);
    const entry = minus && widgets.find((o) => o !== minus && after(o.bbox) === minus && o.bbox[2] - o.bbox[0] >= 1.2 * (o.bbox[3] - o.bbox[1]));
    if (!entry) continue;
    const bbox: BBox = [entry.bbox[0], entry.bbox[1], plus.bbox[2], plus.bbox[3]];
    const text = wordsIn(entry.bbox, words).map((w) => w.text).join(" ");
    out.push({ type: "text_input", bbox, label: fieldCaption(bbox, input.lines, new Set(), scale) ?? text, text, confidence: 0.7, method: "heuristic_rectangle", filled: false });
  }
  // Upright: "+" over the number over "−", three boxes of one width edge to edge.
  const stackedOn = (b: BBox, below: boolean) => widgets.find((o) => stackedEdge(o.bbox, b, below, near));
  for (const mid of widgets) {
    const number = wordsIn(mid.bbox, words);
    if (!square(mid.bbox) || number.length !== 1 || !/^-?\d+([.,]\d+)?$/u.test(number[0]!.text)) continue;
    const [up, down] = [stackedOn(mid.bbox, false), stackedOn(mid.bbox, true)];
    if (!up || !down || !square(up.bbox) || !square(down.bbox) || [up, down].some((o) => wordsIn(o.bbox, words).some((w) => /[\p{L}\p{N}]/u.test(w.text)))) continue;
    const bbox: BBox = [Math.min(up.bbox[0], mid.bbox[0], down.bbox[0]), up.bbox[1], Math.max(up.bbox[2], mid.bbox[2], down.bbox[2]), down.bbox[3]];
    out.push({ type: "text_input", bbox, label: fieldCaption(bbox, input.lines, new Set(), scale) ?? number[0]!.text, text: number[0]!.text, confidence: 0.65, method: "heuristic_rectangle", filled: false });
  }
  // Drawn as one box (a dark theme): a number at its left, "+" at its right end.
  for (const box of widgets) {
    const [x1, y1, x2, y2] = box.bbox;
    const inside = wordsIn(box.bbox, words).sort((a, b) => a.bbox[0] - b.bbox[0]);
    if (y2 - y1 > 48 * scale || x2 - x1 < 2.5 * (y2 - y1) || inside.length !== 2 || !/^-?\d+([.,]\d+)?$/u.test(inside[0]!.text) || inside[1]!.text !== "+" || x2 - inside[1]!.bbox[2] > y2 - y1) continue;
    out.push({ type: "text_input", bbox: box.bbox, label: fieldCaption(box.bbox, input.lines, new Set(), scale) ?? inside[0]!.text, text: inside[0]!.text, confidence: 0.65, method: "heuristic_rectangle", filled: false });
  }
  return out;
}

/** `b` lies just outside `box` (within `gap`), along one of its edges. */
function alongEdge(box: BBox, b: BBox, gap: number): boolean {
  const c = bboxCenter(b);
  if (bboxContainsPoint(box, c)) return false;
  const overlapsX = b[0] < box[2] && b[2] > box[0];
  const overlapsY = b[1] < box[3] && b[3] > box[1];
  return (overlapsX && (Math.abs(b[3] - box[1]) <= gap || Math.abs(b[1] - box[3]) <= gap)) || (overlapsY && (Math.abs(b[2] - box[0]) <= gap || Math.abs(b[0] - box[2]) <= gap));
}

/**
 * The OCR reads a row of small boxed icons (a window's minimize / maximize / close) as a short
 * word ("cod", "da"): a word of three characters or less over two or more small squares that
 * span most of it is not text.
 */
function withoutIconRuns(input: ClassifyInput): OcrLine[] {
  const squares = input.shapes.filter((s) => !s.container && Math.abs(s.bbox[2] - s.bbox[0] - (s.bbox[3] - s.bbox[1])) <= 2 * input.scale);
  const icons = (w: OcrWord): boolean => {
    if (alnum(w.text) > 3) return false;
    const h = w.bbox[3] - w.bbox[1];
    const inside = squares.filter((s) => bboxContainsPoint(w.bbox, bboxCenter(s.bbox)) && s.bbox[3] - s.bbox[1] >= 0.5 * h && s.bbox[3] - s.bbox[1] <= 1.2 * h);
    // Side by side, not nested (an outlined square's frame and face share a centre).
    const row = inside.filter((s, k) => !inside.slice(0, k).some((o) => Math.abs(bboxCenter(o.bbox)[0] - bboxCenter(s.bbox)[0]) < 0.5 * (s.bbox[2] - s.bbox[0])));
    return row.length >= 2 && row.reduce((a, s) => a + s.bbox[2] - s.bbox[0], 0) >= 0.6 * (w.bbox[2] - w.bbox[0]);
  };
  return input.lines.flatMap((l) => {
    if (!l.words.some(icons)) return [l];
    const words = l.words.filter((w) => !icons(w));
    return words.length ? [{ ...l, words, text: words.map((w) => w.text).join(" ") }] : [];
  });
}

const quantity = (t: string): boolean => !/\p{L}/u.test(t) && /\d/.test(t) && (t.includes("%") || /\d[.,]\d/.test(t));

/**
 * Multi-line fields: a framed light box taller than a widget, away from the frame's edges, empty
 * or holding a few left-aligned lines at its top, and no control or other shape inside (a card
 * or a panel holds those).
 */
function textAreas(input: ClassifyInput, words: readonly OcrWord[], used: Set<OcrWord>, claimed: BBox[]): ElementCandidate[] {
  const { img, scale, shapes } = input;
  const out: ElementCandidate[] = [];
  for (const s of shapes) {
    if (!s.container) continue;
    const [x1, y1, x2, y2] = s.bbox;
    const w = x2 - x1;
    const h = y2 - y1;
    if (x1 <= 1 || y1 <= 1 || x2 >= img.width - 1 || y2 >= img.height - 1) continue;
    if (h <= 60 * scale || h > 320 * scale || w < 1.5 * h || w > img.width * 0.8) continue;
    if (luma(s.fill) < 200 || s.fillRatio < 0.85 || !framed(img, s)) continue;
    // A field's frame is a line or two; a thick one (5 px) frames a notice (an error summary).
    const [fx, fy] = [Math.round(x1), Math.round((y1 + y2) / 2)];
    const [f1, f2] = colourRun(img, fx, fy, true);
    // (A frame the page's own tone runs on from is no thick frame.)
    if (f2 - f1 > 3 * scale && colourDistance(pixelAt(img, fx, fy), pixelAt(img, fx - 6 * scale, fy)) > 40) continue;
    if (shapes.some((o) => o !== s && bboxContainsPoint(s.bbox, bboxCenter(o.bbox)) && (o.bbox[2] - o.bbox[0]) * (o.bbox[3] - o.bbox[1]) < w * h * 0.9)) continue;
    if (claimed.some((c) => bboxContainsPoint(s.bbox, bboxCenter(c)))) continue;
    const inside = wordsIn(s.bbox, words).filter((x) => !used.has(x));
    if (inside.some((x) => x.bbox[0] - x1 > w * 0.6 && x.bbox[1] - y1 > 3 * (x.bbox[3] - x.bbox[1]))) continue;
    const text = inside.map((x) => x.text).join(" ");
    if (text.length > 200) continue;
    inside.forEach((x) => used.add(x));
    out.push({ type: "text_input", bbox: s.bbox, label: text, text, confidence: 0.55, method: "heuristic_rectangle", filled: false });
    claimed.push(s.bbox);
  }
  return out;
}

/** The colour of pixel (x, y), rounded and clamped into the image. */
function pixelAt(img: RgbImage, x: number, y: number): [number, number, number] {
  const i = (Math.max(0, Math.min(img.height - 1, Math.round(y))) * img.width + Math.max(0, Math.min(img.width - 1, Math.round(x)))) * 3;
  return [img.data[i]!, img.data[i + 1]!, img.data[i + 2]!];
}

/**
 * A border is drawn around the shape's face: the face stands out from its frame (GOV.UK's 2 px
 * frame on a white page stands out from the frame, not from what lies beyond it).
 */
function framed(img: RgbImage, s: ShapeRegion): boolean {
  return colourDistance(s.fill, edgeColour(img, s.bbox)) >= 40;
}

/** Mean colour of a box's outermost pixels (a frame drawn around a field). */
function edgeColour(img: RgbImage, b: BBox): [number, number, number] {
  const x1 = Math.max(0, Math.round(b[0]));
  const y1 = Math.max(0, Math.round(b[1]));
  const x2 = Math.min(img.width - 1, Math.round(b[2]) - 1);
  const y2 = Math.min(img.height - 1, Math.round(b[3]) - 1);
  const acc = [0, 0, 0];
  let n = 0;
  const add = (x: number, y: number) => {
    const i = (y * img.width + x) * 3;
    acc[0]! += img.data[i]!;
    acc[1]! += img.data[i + 1]!;
    acc[2]! += img.data[i + 2]!;
    n++;
  };
  for (let x = x1; x <= x2; x += 2) {
    add(x, y1);
    add(x, y2);
  }
  for (let y = y1; y <= y2; y += 2) {
    add(x1, y);
    add(x2, y);
  }
  return [acc[0]! / n, acc[1]! / n, acc[2]! / n];
}

/** Words grouped into items (a word space apart) along rows, left to right. */
function rowItems(words: readonly OcrWord[], joinGap: number): OcrWord[][][] {
  const rows: OcrWord[][] = [];
  for (const w of [...words].sort((a, b) => (a.bbox[1] + a.bbox[3]) / 2 - (b.bbox[1] + b.bbox[3]) / 2)) {
    const cy = (w.bbox[1] + w.bbox[3]) / 2;
    const h = w.bbox[3] - w.bbox[1];
    const row = rows.find((r) => Math.abs((r[0]!.bbox[1] + r[0]!.bbox[3]) / 2 - cy) < 0.4 * Math.max(h, r[0]!.bbox[3] - r[0]!.bbox[1]));
    if (row) row.push(w);
    else rows.push([w]);
  }
  return rows.map((r) => {
    r.sort((a, b) => a.bbox[0] - b.bbox[0]);
    const items: OcrWord[][] = [];
    for (const w of r) {
      const last = items.at(-1);
      const prev = last?.at(-1);
      if (prev && w.bbox[0] - prev.bbox[2] < joinGap * (w.bbox[3] - w.bbox[1])) last!.push(w);
      else items.push([w]);
    }
    return items;
  });
}

const itemBox = (it: readonly OcrWord[]): BBox => [it[0]!.bbox[0], Math.min(...it.map((w) => w.bbox[1])), it.at(-1)!.bbox[2], Math.max(...it.map((w) => w.bbox[3]))];

/**
 * Horizontal menus (a menu bar, breadcrumbs, a row of footer links, pagination): three or more
 * short items on one row, each a clear gap (0.9–3 text heights) from the next, outside every
 * element found so far. Each item is a link with the padding around it up to its neighbours.
 */
function rowMenus(input: ClassifyInput, words: readonly OcrWord[], claimed: readonly BBox[]): ElementCandidate[] {
  const { scale } = input;
  const free = words.filter((w) => alnum(w.text) >= 1 && !claimed.some((c) => bboxContainsPoint(c, bboxCenter(w.bbox))));
  const out: ElementCandidate[] = [];
  const obstacles: BBox[] = [...claimed, ...(input.glyphs ?? []).map((g) => g.bbox)];
  const runs: OcrWord[][][] = [];
  // Breadcrumbs: a separator between two items (">", "/", "»") allows a wider gap.
  const separators = words.filter((w) => /^[>/»›|]$/u.test(w.text));
  const separated = (a: BBox, b: BBox) => separators.some((s) => s.bbox[0] >= a[2] && s.bbox[2] <= b[0] && Math.abs((s.bbox[1] + s.bbox[3]) / 2 - (a[1] + a[3]) / 2) < a[3] - a[1]);
  for (const items of rowItems(free, 0.9)) {
    let run: OcrWord[][] = [];
    for (const it of items) {
      const prev = run.at(-1);
      const h = it[0]!.bbox[3] - it[0]!.bbox[1];
      if (prev && it[0]!.bbox[0] - prev.at(-1)!.bbox[2] > (separated(prev.at(-1)!.bbox, it[0]!.bbox) ? 5 : 3) * h) {
        runs.push(run);
        run = [];
      }
      run.push(it);
    }
    runs.push(run);
  }
  const texts = (run: OcrWord[][]) => run.map((it) => it.map((w) => w.text).join(" "));
  // An action's icon: a glyph of the text's height just before the item, none of a word's letters
  // nor a breadcrumb's separator.
  const iconOf = (it: readonly OcrWord[]): BBox | undefined => {
    const first = it[0]!.bbox;
    const h = first[3] - first[1];
    return (input.glyphs ?? []).find((g) => g.bbox[2] <= first[0] + 1 && g.bbox[2] >= first[0] - 1.2 * h && g.bbox[3] - g.bbox[1] >= 0.6 * h && g.bbox[3] - g.bbox[1] <= 1.6 * h && g.bbox[1] < first[3] && g.bbox[3] > first[1] && !words.some((w) => (alnum(w.text) > 0 || separators.includes(w)) && overlap(w.bbox, g.bbox) > 0.3))?.bbox;
  };
  // Two items each led by its icon ("↗ Share  👍 Like") are actions as surely as three bare ones.
  const iconLed = (run: OcrWord[][]) => run.length >= 2 && run.every((it) => it.length <= 2 && iconOf(it) !== undefined);
  const candidates = runs.filter((run) => (run.length >= 3 || iconLed(run)) && run.every((it) => it.length <= 3) && texts(run).every((t) => t.length <= 28) && texts(run).filter((t) => letters(t) >= 2).length >= run.length * 0.67);
  const withIcon = new Set<ElementCandidate>();
  // The rows of a table or a grid line up with the row above or below; a menu stands alone.
  const lefts = (run: OcrWord[][]) => run.map((it) => it[0]!.bbox[0]);
  const rowY = (run: OcrWord[][]) => (run[0]![0]!.bbox[1] + run[0]![0]!.bbox[3]) / 2;
  const tabular = (run: OcrWord[][]): boolean =>
    runs.some((o) => {
      if (o === run || o.length < 2) return false;
      const h = run[0]![0]!.bbox[3] - run[0]![0]!.bbox[1];
      if (Math.abs(rowY(o) - rowY(run)) > 3 * h) return false;
      const ol = lefts(o);
      return lefts(run).filter((x) => ol.some((y) => Math.abs(x - y) <= 4 * scale)).length >= 2;
    });
  // A paragraph's line wraps onto one that starts where it starts; a menu stands alone.
  const wraps = (run: OcrWord[][]): boolean => {
    const first = run[0]![0]!;
    const h = first.bbox[3] - first.bbox[1];
    return words.some((o) => o.bbox[1] > first.bbox[3] - 1 && o.bbox[1] - first.bbox[3] < 1.2 * h && Math.abs(o.bbox[0] - first.bbox[0]) <= 4 * scale);
  };
  // Captions over a row of fields (a date's Day / Month / Year) each start where a field below starts.
  const captions = (run: OcrWord[][]): boolean => run.filter((it) => fieldBelow(input, itemBox(it))).length >= run.length / 2;
  // The last crumb of a breadcrumb, in another colour than the others, is the page itself.
  const ink = (b: BBox) => inkColour(input.img, input.grey, b);
  const currentCrumb = (run: OcrWord[][]): boolean => {
    const boxes = run.map(itemBox);
    const k = boxes.length - 1;
    return k >= 2 && separated(boxes[k - 1]!, boxes[k]!) && colourDistance(ink(boxes[k]!), ink(boxes[k - 1]!)) > 40 && colourDistance(ink(boxes[k - 1]!), ink(boxes[k - 2]!)) <= 40;
  };
  for (const run of candidates) {
    if (tabular(run) || wraps(run) || captions(run)) continue;
    const led = run.length < 3;
    if (currentCrumb(run)) run.pop();
    run.forEach((it, k) => {
      const icon = led ? iconOf(it) : undefined;
      const b = icon ? bboxUnion(icon, itemBox(it)) : itemBox(it);
      const text = texts(run)[k]!;
      obstacles.push(b);
      const e: ElementCandidate = { type: "link", bbox: b, label: text, text, confidence: 0.5, method: "ocr_text", filled: false };
      if (icon) withIcon.add(e);
      out.push(e);
    });
  }
  const wordsBoxes = words.map((w) => w.bbox);
  for (const e of out) {
    if (withIcon.has(e)) continue; // icon and words are the whole of it
    const h = e.bbox[3] - e.bbox[1];
    e.bbox = padToNeighbours(e.bbox, 1.0 * h, 0.6 * h, [...obstacles, ...wordsBoxes].filter((o) => o !== e.bbox && overlap(o, e.bbox) < 0.5), 1 * scale);
  }
  return out;
}

/**
 * The bar along the top of a page or window (a web app's navigation bar): its short text items,
 * away from every element found so far, are links. Each item is its words (a word space apart)
 * and the padding around them up to the next item.
 */
function topBarItems(input: ClassifyInput, words: readonly OcrWord[], claimed: readonly BBox[]): ElementCandidate[] {
  const { img, scale } = input;
  const limit = Math.min(img.height * 0.07, 80 * scale);
  const top = words.filter((w) => w.bbox[3] <= limit && alnum(w.text) >= 1 && !claimed.some((c) => bboxContainsPoint(c, bboxCenter(w.bbox)))).sort((a, b) => a.bbox[0] - b.bbox[0]);
  // A bar holds one row of items; two rows or more at the top are a window's title and content.
  if (top.length === 0) return [];
  const mid = [...top].map((w) => (w.bbox[1] + w.bbox[3]) / 2).sort((a, b) => a - b)[top.length >> 1]!;
  if (top.some((w) => Math.abs((w.bbox[1] + w.bbox[3]) / 2 - mid) > 0.6 * (w.bbox[3] - w.bbox[1]))) return [];
  const items: OcrWord[][] = [];
  for (const w of top) {
    const last = items.at(-1);
    const prev = last?.at(-1);
    const h = w.bbox[3] - w.bbox[1];
    if (prev && w.bbox[0] - prev.bbox[2] < 0.8 * h && Math.abs((w.bbox[1] + w.bbox[3]) / 2 - (prev.bbox[1] + prev.bbox[3]) / 2) < 0.5 * h) last!.push(w);
    else items.push([w]);
  }
  const boxes = items.map(itemBox);
  const obstacles = [...boxes, ...claimed, ...(input.glyphs ?? []).map((g) => g.bbox)];
  const out: ElementCandidate[] = [];
  if (items.length < 2) return out;
  const found: { it: OcrWord[]; text: string; padded: BBox; band: [number, number] }[] = [];
  items.forEach((it, k) => {
    const text = it.map((w) => w.text).join(" ");
    if (it.length > 4) return;
    const words = boxes[k]!;
    const h = words[3] - words[1];
    // An avatar or icon just before the words is part of the item ("[photo] Alexander Pierce").
    const lead = (input.glyphs ?? []).find((g) => g.bbox[2] <= words[0] + 1 && words[0] - g.bbox[2] < 0.8 * h && Math.abs(bboxCenter(g.bbox)[1] - bboxCenter(words)[1]) < 0.5 * h);
    const b = lead ? bboxUnion(words, lead.bbox) : words;
    const padded = padToNeighbours(b, 1.0 * h, 0.75 * h, obstacles.filter((o) => o !== words && o !== lead?.bbox && overlap(o, b) < 0.5), 1 * scale);
    // The plain band the item sits on, read down the item's own margins left and right of its
    // words, where both show the bar. Not down the padded box's edge: that can be the window's
    // edge, where the background runs on past a bar drawn inset under the menu bar (a warning
    // bar, a toolbar's frame), and the first item took the height of both.
    const y = Math.round(bboxCenter(words)[1]);
    const left = colourRun(input.img, Math.round((padded[0] + b[0]) / 2), y, false);
    const right = colourRun(input.img, Math.round((b[2] + padded[2]) / 2), y, false);
    found.push({ it, text, padded, band: [Math.max(left[0], right[0]), Math.min(left[1], right[1])] });
  });
  // Where the bar is one plain band from the top of the screen, an item is as tall as the bar;
  // a bar is one band, so every item takes the height most of its items read.
  const fromTop = found.filter((f) => f.band[0] <= 1 && f.band[1] <= 80 * scale);
  const barBottom = fromTop.length ? fromTop.map((f) => f.band[1]).sort((a, b) => a - b)[(fromTop.length - 1) >> 1]! : undefined;
  for (const { it, text, padded, band } of found) {
    // One letter or sign alone is an icon the OCR tried to read (a magnifier as "Q"): a button.
    const icon = it.length === 1 && text.length <= 2 && !/\p{N}/u.test(text) && letters(text) <= 1;
    const bbox: BBox = barBottom !== undefined && band[0] <= 1 && barBottom >= padded[3] ? [padded[0], band[0], padded[2], barBottom] : padded;
    out.push({ type: icon ? "button" : "link", bbox, label: icon ? "" : text, text, confidence: 0.55, method: icon ? "heuristic_glyph" : "ocr_text", filled: false });
  }
  return out;
}

/**
 * Side tabs (a notebook's tabs stacked along its left or right edge): two to six short labels,
 * one above the other at one even pitch, each alone in a narrow strip of one colour (at most
 * 2.5× the label's width, the same for all) that no field starts at. Each is a tab, its label
 * with the strip's padding above and below.
 */
function sideTabs(input: ClassifyInput, lines: readonly OcrLine[], used: Set<OcrWord>, claimed: readonly BBox[]): ElementCandidate[] {
  const { img, scale } = input;
  const free = lines.filter((l) => l.words.length <= 3 && letters(l.text) >= 2 && l.bbox[3] - l.bbox[1] < 30 * scale && !l.words.some((w) => used.has(w)) && !claimed.some((c) => bboxContainsPoint(c, bboxCenter(l.bbox))));
  const strip = (l: OcrLine): [number, number] => {
    const cy = Math.round((l.bbox[1] + l.bbox[3]) / 2);
    return [colourRun(img, Math.round(l.bbox[0]) - 2, cy, true)[0], colourRun(img, Math.round(l.bbox[2]) + 2, cy, true)[1]];
  };
  const out: ElementCandidate[] = [];
  const taken = new Set<OcrLine>();
  const byTop = [...free].sort((a, b) => a.bbox[1] - b.bbox[1]);
  for (const l of byTop) {
    if (taken.has(l)) continue;
    const h = l.bbox[3] - l.bbox[1];
    const col = [l];
    for (const o of byTop) {
      if (o.bbox[1] <= col.at(-1)!.bbox[1] || Math.abs(o.bbox[0] - l.bbox[0]) > 4 * scale) continue;
      const step = o.bbox[1] - col.at(-1)!.bbox[1];
      const pitch = col.length > 1 ? col[1]!.bbox[1] - col[0]!.bbox[1] : step;
      if (step < 1.8 * h || step > 4 * h || Math.abs(step - pitch) > 3 * scale) break;
      col.push(o);
    }
    if (col.length < 2 || col.length > 6) continue;
    col.forEach((c) => taken.add(c));
    const strips = col.map(strip);
    const ok = strips.every(([a, b], k) => {
      const line = col[k]!;
      const width = line.bbox[2] - line.bbox[0];
      return a > 0 && b < img.width && b - a <= 2.5 * width && b - a >= width + 4 * scale && Math.abs(a - strips[0]![0]) <= 4 * scale && Math.abs(b - strips[0]![1]) <= 4 * scale && !fieldStartsAt(input, b, line.bbox[1], line.bbox[3]);
    });
    if (!ok) continue;
    for (const c of col) {
      c.words.forEach((w) => used.add(w));
      const ch = c.bbox[3] - c.bbox[1];
      out.push({ type: "tab", bbox: [c.bbox[0], c.bbox[1] - 0.25 * ch, c.bbox[2], c.bbox[3] + 0.25 * ch], label: c.text, text: c.text, confidence: 0.5, method: "ocr_text", filled: false });
    }
  }
  return out;
}

/**
 * A slider: a round knob on a thin straight track that runs on past it (one side at least 60 px,
 * both sides together 100 px or more), horizontal or vertical. Its box is the track's length
 * and the knob's breadth, with the knob's radius of margin all round (where it can be dragged).
 */
export function sliderOf(input: ClassifyInput, knob: BBox): BBox | undefined {
  const { grey, img, scale } = input;
  const W = img.width;
  const H = img.height;
  const [kx1, ky1, kx2, ky2] = knob.map(Math.round) as [number, number, number, number];
  const r = Math.max(kx2 - kx1, ky2 - ky1) / 2;
  const px = (x: number, y: number) => grey[Math.min(H - 1, Math.max(0, y)) * W + Math.min(W - 1, Math.max(0, x))]!;
  // Walk from the knob's edge along the line through its centre while the pixel stands out from
  // the background on both sides of the line (a track is thin).
  const run = (horizontal: boolean, dir: 1 | -1): number => {
    const c = Math.round(horizontal ? (ky1 + ky2) / 2 : (kx1 + kx2) / 2);
    const start = horizontal ? (dir > 0 ? kx2 + 1 : kx1 - 1) : dir > 0 ? ky2 + 1 : ky1 - 1;
    const off = Math.round(6 * scale);
    let n = 0;
    let miss = 0;
    for (let t = start; t >= 0 && t < (horizontal ? W : H) && miss <= 2 * scale; t += dir) {
      const at = (d: number) => (horizontal ? px(t, c + d) : px(c + d, t));
      const bg = (at(-off) + at(off)) / 2;
      // Filled or drawn as an outline, the track is within 2 px of the knob's centre line.
      const line = Math.max(...[-2, -1, 0, 1, 2].map((d) => Math.abs(at(Math.round(d * scale)) - bg))) > 20 && Math.abs(at(-off) - at(off)) < 12;
      if (line) {
        n += 1 + miss;
        miss = 0;
      } else miss++;
    }
    return n;
  };
  for (const horizontal of [true, false]) {
    const a = run(horizontal, -1);
    const b = run(horizontal, 1);
    if (Math.max(a, b) < 60 * scale || a + b < 100 * scale) continue;
    const m = r * 0.7;
    return horizontal ? [kx1 - a - m, ky1 - m, kx2 + b + m, ky2 + m] : [kx1 - m, ky1 - a - m, kx2 + m, ky2 + b + m];
  }
  return undefined;
}

/**
 * The brand in a page's top-left corner (a logo and the product's name in its own header cell)
 * links home; what is clicked is the whole cell. The cell is a box at the corner, as tall as a
 * bar, holding one short run of words and nothing found so far.
 */
function brandLinks(input: ClassifyInput, words: readonly OcrWord[], used: Set<OcrWord>, claimed: readonly BBox[]): ElementCandidate[] {
  const { img, scale, shapes } = input;
  for (const s of shapes) {
    const [x1, y1, x2, y2] = s.bbox;
    const w = x2 - x1;
    const h = y2 - y1;
    if (x1 > 2 * scale || y1 > 2 * scale || h < 24 * scale || h > 80 * scale || w < 2 * h || w > 0.3 * img.width) continue;
    const inside = wordsIn(s.bbox, words);
    if (inside.length === 0 || inside.length > 4 || inside.some((x) => used.has(x)) || letters(inside.map((x) => x.text).join("")) < 2) continue;
    const row = itemBox(inside);
    // Nothing else found inside, bar the logo before the name.
    const logo = (c: BBox) => c[2] <= row[0] + 2 * scale && c[2] - c[0] <= 64 * scale;
    if (row[3] - row[1] > 0.6 * h || claimed.some((c) => bboxContainsPoint(s.bbox, bboxCenter(c)) && !logo(c))) continue;
    inside.forEach((x) => used.add(x));
    const text = inside.map((x) => x.text).join(" ");
    return [{ type: "link", bbox: s.bbox, label: text, text, confidence: 0.6, method: "ocr_text", filled: false }];
  }
  return [];
}

/**
 * An icon's name away from a window's title bar: a bar or a square there is a spin button's minus
 * or a "new window" icon, not Minimize or Maximize; a cross and three bars keep their names.
 */
function freeIconName(input: ClassifyInput, box: BBox): string | undefined {
  const name = nameIcon(input.grey, input.img.width, box);
  return name === "Close" || name === "Menu" ? name : undefined;
}

/**
 * A row of small icons (6–12 px) at one even pitch with no text around them: a window's title-bar
 * controls (minimize, maximize, close) or a compact toolbar. Each is a button, the square of
 * most of the pitch around its icon.
 */
function smallIconRows(input: ClassifyInput, words: readonly OcrWord[], claimed: readonly BBox[]): ElementCandidate[] {
  const { scale } = input;
  const small = (input.glyphs ?? []).filter((g) => {
    const size = Math.max(g.bbox[2] - g.bbox[0], g.bbox[3] - g.bbox[1]);
    return size >= 6 * scale && size <= 12 * scale && g.surroundFlat >= 0.995 && !claimed.some((c) => bboxContainsPoint(c, bboxCenter(g.bbox)));
  });
  const cx = (g: GlyphRegion) => bboxCenter(g.bbox)[0];
  const cy = (g: GlyphRegion) => bboxCenter(g.bbox)[1];
  const out: ElementCandidate[] = [];
  const taken = new Set<GlyphRegion>();
  const byX = [...small].sort((a, b) => cx(a) - cx(b));
  for (const g of byX) {
    if (taken.has(g)) continue;
    const row = [g];
    for (const o of byX) {
      if (o === g || cx(o) <= cx(row.at(-1)!) || Math.abs(cy(o) - cy(g)) > 5 * scale) continue;
      const pitch = row.length > 1 ? cx(row[1]!) - cx(row[0]!) : cx(o) - cx(g);
      const step = cx(o) - cx(row.at(-1)!);
      if (step < 24 * scale || step > 60 * scale || Math.abs(step - pitch) > 3 * scale) break;
      row.push(o);
    }
    if (row.length < 2 || row.length > 6) continue;
    row.forEach((r) => taken.add(r));
    const pitch = (cx(row.at(-1)!) - cx(row[0]!)) / (row.length - 1);
    // Text within a pitch means labelled items (a legend, a list), not a row of controls.
    const span: BBox = [row[0]!.bbox[0] - pitch, Math.min(...row.map((r) => r.bbox[1])) - pitch / 2, row.at(-1)!.bbox[2] + pitch, Math.max(...row.map((r) => r.bbox[3])) + pitch / 2];
    if (words.some((w) => alnum(w.text) >= 2 && overlap(w.bbox, span) > 0)) continue;
    const half = 0.425 * pitch;
    // Each icon in its own box, the boxes side by side: a pager ("«", "1", "2", "»") when there
    // are four or more, a button group when fewer. Bare icons are the bar's controls.
    const boxOf = (r: GlyphRegion) => input.shapes.find((sh) => bboxContainsPoint(sh.bbox, bboxCenter(r.bbox)) && sh.bbox[2] - sh.bbox[0] <= 1.5 * pitch && sh.bbox[3] - sh.bbox[1] <= 1.5 * pitch);
    const boxes = row.map(boxOf);
    const pager = row.length >= 4 && boxes.every(Boolean);
    for (const [k, r] of row.entries()) {
      const [x, y] = bboxCenter(r.bbox);
      const bbox: BBox = boxes[k]?.bbox ?? [x - half, y - half, x + half, y + half];
      const label = pager ? "" : (nameIcon(input.grey, input.img.width, r.bbox) ?? "");
      out.push({ type: pager ? "link" : "button", bbox, label, text: "", confidence: 0.45, method: "heuristic_glyph", filled: false });
    }
  }
  return out;
}

const alnum = (t: string): number => t.replace(/[^\p{L}\p{N}]/gu, "").length;
const letters = (t: string): number => t.replace(/[^\p{L}]/gu, "").length;

/**
 * Borderless icon buttons (toolbars, title bars, card tools): an icon-sized blob of ink that no
 * word explains, standing alone (no label just right of it, no text run it ends, not among the
 * many blobs of a chart or a picture), outside every element found so far. Its box is the icon
 * plus the padding a person would click in: up to 0.6× its size, never past half the way to
 * the next thing on screen.
 */
function iconButtons(input: ClassifyInput, words: readonly OcrWord[], claimed: readonly BBox[]): ElementCandidate[] {
  const { scale } = input;
  const glyphs = input.glyphs ?? [];
  const out: ElementCandidate[] = [];
  // Text, unless the OCR read a lone icon as one letter ("Q" for a magnifier).
  const isText = (g: GlyphRegion): boolean =>
    words.some((w) => {
      if (overlap(w.bbox, g.bbox) <= 0.3) return false;
      // Typographic signs read as such ("#" over a table's first column, "@" of an address).
      if (/^[#@&%$€£§]$/u.test(w.text)) return true;
      if (alnum(w.text) === 0) return false;
      if (w.text.length > 1 || /\p{N}/u.test(w.text)) return true;
      const row = (b: BBox) => Math.abs((b[1] + b[3]) / 2 - (w.bbox[1] + w.bbox[3]) / 2) < (w.bbox[3] - w.bbox[1]) * 0.6;
      return words.some((o) => o !== w && row(o.bbox) && Math.min(Math.abs(o.bbox[0] - w.bbox[2]), Math.abs(w.bbox[0] - o.bbox[2])) < 2 * (w.bbox[3] - w.bbox[1]));
    });
  const icons = glyphs.filter((g) => !isText(g));
  for (const g of icons) {
    const [x1, y1, x2, y2] = g.bbox;
    const w = x2 - x1;
    const h = y2 - y1;
    const size = Math.max(w, h);
    // Measured on the dev corpus (484 candidates): of the blobs under 10 px high (bullets, dots,
    // carets) 1 in 144 was a button, and none of those whose surround was not wholly one plain
    // surface (a blob of a picture or a chart).
    if (size < 9 * scale || size > 32 * scale || h < 10 * scale || g.surroundFlat < 0.995) continue;
    const c = bboxCenter(g.bbox);
    if (claimed.some((b) => bboxContainsPoint(b, c))) continue;
    const cy = c[1];
    const sameRow = (b: BBox) => Math.abs((b[1] + b[3]) / 2 - cy) < Math.max(h, 10 * scale) * 0.6;
    // A label's decoration: a word right after it, or the end of a text run just before it.
    if (words.some((x) => letters(x.text) >= 2 && sameRow(x.bbox) && x.bbox[0] >= x2 - 2 && x.bbox[0] - x2 < Math.max(1.2 * size, 14 * scale))) continue;
    if (words.some((x) => letters(x.text) >= 2 && sameRow(x.bbox) && x.bbox[2] <= x1 + 2 && x1 - x.bbox[2] < 0.5 * size)) continue;
    // Among the blobs of a chart, a map, a picture.
    const ring: BBox = [x1 - size, y1 - size, x2 + size, y2 + size];
    if (glyphs.filter((o) => o !== g && overlap(o.bbox, ring) > 0).length >= 3) continue;
    const others: BBox[] = [...icons.filter((o) => o !== g).map((o) => o.bbox), ...words.map((x) => x.bbox)];
    const pad = Math.max(6 * scale, 0.6 * size);
    const box = padToNeighbours(g.bbox, pad, pad, others, 2 * scale);
    const inside = words.filter((x) => bboxContainsPoint(g.bbox, bboxCenter(x.bbox)));
    const read = inside.map((x) => x.text).join(" ");
    out.push({ type: "button", bbox: box, label: freeIconName(input, g.bbox) ?? read, text: read, confidence: 0.5, method: "heuristic_glyph", filled: false });
  }
  // A lone icon, no text within 80 px and no other icon on its row, is a decoration more often
  // than a button (measured: 6 of 38 on the dev corpus; toolbars have rows of them).
  const dist = (a: BBox, b: BBox) => Math.hypot(bboxCenter(a)[0] - bboxCenter(b)[0], bboxCenter(a)[1] - bboxCenter(b)[1]);
  // A close cross is a button wherever it stands.
  return out.filter((b) => b.label === "Close" || words.some((x) => dist(x.bbox, b.bbox) < 80 * scale) || out.some((o) => o !== b && Math.abs(bboxCenter(o.bbox)[1] - bboxCenter(b.bbox)[1]) < 4 * scale));
}

/**
 * Large radio buttons drawn as a ring around a hollow centre (accessible web forms: 40 px): no
 * flat face the proposer can close, so they come as glyphs. A round glyph, 20–48 px, its own
 * mirror image, its centre and corners the page's colour and its sides the ring's, that leads
 * a caption.
 */
function ringRadios(input: ClassifyInput, words: readonly OcrWord[], used: Set<OcrWord>, claimed: readonly BBox[]): ElementCandidate[] {
  const { grey, img, scale } = input;
  const out: ElementCandidate[] = [];
  const at = (x: number, y: number) => grey[Math.round(y) * img.width + Math.round(x)]!;
  for (const g of input.glyphs ?? []) {
    const [x1, y1, x2, y2] = g.bbox;
    const w = x2 - x1;
    const h = y2 - y1;
    if (Math.max(w, h) < 20 * scale || Math.max(w, h) > 48 * scale || Math.abs(w - h) > Math.max(2, 0.1 * w)) continue;
    if (claimed.some((c) => bboxContainsPoint(c, bboxCenter(g.bbox)))) continue;
    const [cx, cy] = bboxCenter(g.bbox);
    const bg = at(cx, cy);
    const corners = [at(x1 + 1, y1 + 1), at(x2 - 2, y1 + 1), at(x1 + 1, y2 - 2), at(x2 - 2, y2 - 2)];
    const sides = [at(x1 + 1, cy), at(x2 - 2, cy), at(cx, y1 + 1), at(cx, y2 - 2)];
    if (corners.some((v) => Math.abs(v - bg) > 30) || sides.some((v) => Math.abs(v - bg) < 80)) continue;
    if (mirrorDifference(grey, img.width, g.bbox) > 6) continue;
    const label = labelRightOf(input, g.bbox, words).filter((x) => !used.has(x));
    if (!label.length || label[0]!.bbox[0] - x2 > 24 * scale) continue;
    out.push(toggle("radio_button", g.bbox, label, used, { confidence: 0.7, method: "heuristic_disc" }));
  }
  return out;
}

/**
 * Checked check boxes and radio buttons drawn with a gradient (GTK's Adwaita): no flat surface,
 * so the region proposer sees them as a glyph. A square or round glyph of toggle size, mostly one
 * saturated colour with a light mark inside (a tick, a dot, a dash), that leads a caption.
 */
function filledToggles(input: ClassifyInput, words: readonly OcrWord[], used: Set<OcrWord>, claimed: readonly BBox[]): ElementCandidate[] {
  const { img, scale } = input;
  const out: ElementCandidate[] = [];
  for (const g of input.glyphs ?? []) {
    const [x1, y1, x2, y2] = g.bbox.map(Math.round) as [number, number, number, number];
    const w = x2 - x1;
    const h = y2 - y1;
    if (Math.max(w, h) < 12 * scale || Math.max(w, h) > 24 * scale || Math.abs(w - h) > Math.max(2, 0.2 * Math.max(w, h))) continue;
    if (claimed.some((c) => bboxContainsPoint(c, bboxCenter(g.bbox)))) continue;
    let vivid = 0;
    let light = 0;
    let n = 0;
    for (let y = y1; y < y2; y++) {
      for (let x = x1; x < x2; x++) {
        const i = (y * img.width + x) * 3;
        const c: [number, number, number] = [img.data[i]!, img.data[i + 1]!, img.data[i + 2]!];
        n++;
        if (saturation(c) > 0.35 && luma(c) < 215) vivid++;
        else if (luma(c) > 200 && saturation(c) < 0.15) light++;
      }
    }
    if (vivid < 0.45 * n || light < 0.03 * n || light > 0.4 * n) continue;
    const label = labelRightOf(input, g.bbox, words).filter((x) => !used.has(x));
    if (!label.length || label[0]!.bbox[0] - x2 > 12 * scale) continue;
    // A disc leaves its box's corners to the background (~15 % of each corner quarter-square is
    // inside the circle), a rounded square fills them (~90 %).
    const q = Math.max(2, Math.round(0.25 * w));
    let inCorners = 0;
    for (let dy = 0; dy < q; dy++)
      for (let dx = 0; dx < q; dx++)
        for (const [x, y] of [[x1 + dx, y1 + dy], [x2 - 1 - dx, y1 + dy], [x1 + dx, y2 - 1 - dy], [x2 - 1 - dx, y2 - 1 - dy]] as const) {
          const i = (y * img.width + x) * 3;
          if (saturation([img.data[i]!, img.data[i + 1]!, img.data[i + 2]!]) > 0.35) inCorners++;
        }
    const round = inCorners < 0.5 * 4 * q * q;
    out.push(toggle(round ? "radio_button" : "checkbox", g.bbox, label, used, { confidence: 0.7, method: round ? "heuristic_disc" : "heuristic_rectangle", filled: true }));
  }
  return out;
}

/**
 * Mean grey difference between the central 70 % of `box` and its left-right and top-bottom
 * mirror images: ~0 for a radio indicator's ring and dot, tens for a letter or a picture.
 */
export function mirrorDifference(grey: Uint8Array, width: number, box: BBox): number {
  const cx = (box[0] + box[2]) / 2;
  const cy = (box[1] + box[3]) / 2;
  const r = 0.35 * Math.min(box[2] - box[0], box[3] - box[1]);
  const height = grey.length / width;
  let sum = 0;
  let n = 0;
  for (let y = Math.round(cy - r); y <= cy + r; y++) {
    for (let x = Math.round(cx - r); x <= cx + r; x++) {
      const mx = Math.round(2 * cx - x - 1);
      const my = Math.round(2 * cy - y - 1);
      if (x < 0 || y < 0 || mx < 0 || my < 0 || x >= width || mx >= width || y >= height || my >= height) continue;
      const v = grey[y * width + x]!;
      sum += Math.abs(v - grey[y * width + mx]!) + Math.abs(v - grey[my * width + x]!);
      n += 2;
    }
  }
  return n ? sum / n : 0;
}

/**
 * Separate marks on the face of a small box: connected runs of pixels far from the face's median
 * grey, inside the box less a margin of 15 % of its side (its border), 2 pixels or more each.
 * 0 for an empty check box, 1 for a tick or a dash, one per cell or bar for an icon.
 */
export function faceMarks(grey: Uint8Array, width: number, box: BBox): number {
  const m = Math.max(2, Math.round(0.15 * Math.min(box[2] - box[0], box[3] - box[1])));
  const x1 = Math.max(0, Math.round(box[0]) + m);
  const y1 = Math.max(0, Math.round(box[1]) + m);
  const x2 = Math.min(width, Math.round(box[2]) - m);
  const y2 = Math.min(grey.length / width, Math.round(box[3]) - m);
  const w = x2 - x1;
  const h = y2 - y1;
  if (w < 3 || h < 3) return 0;
  const values: number[] = [];
  let lo = 255;
  let hi = 0;
  for (let y = y1; y < y2; y++)
    for (let x = x1; x < x2; x++) {
      const v = grey[y * width + x]!;
      values.push(v);
      lo = Math.min(lo, v);
      hi = Math.max(hi, v);
    }
  const face = values.sort((a, b) => a - b)[values.length >> 1]!;
  const thr = Math.max(30, 0.35 * (hi - lo));
  const mask = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) mask[y * w + x] = Math.abs(grey[(y1 + y) * width + x1 + x]! - face) > thr ? 1 : 0;
  return connectedComponents(mask, w, h).filter((c) => c.pixels >= 2).length;
}

/**
 * `box` grown by up to `padX` / `padY` a side, never past half the way to the nearest of
 * `others` that faces it (so two neighbours split the space between them), and at least `min`.
 */
export function padToNeighbours(box: BBox, padX: number, padY: number, others: readonly BBox[], min: number): BBox {
  const [x1, y1, x2, y2] = box;
  let l = padX;
  let r = padX;
  let t = padY;
  let b = padY;
  for (const o of others) {
    if (o === box) continue;
    const vOverlap = o[1] < y2 && o[3] > y1;
    const hOverlap = o[0] < x2 && o[2] > x1;
    if (vOverlap && o[0] >= x2) r = Math.min(r, (o[0] - x2) / 2);
    if (vOverlap && o[2] <= x1) l = Math.min(l, (x1 - o[2]) / 2);
    if (hOverlap && o[1] >= y2) b = Math.min(b, (o[1] - y2) / 2);
    if (hOverlap && o[3] <= y1) t = Math.min(t, (y1 - o[3]) / 2);
  }
  return [x1 - Math.max(l, min), y1 - Math.max(t, min), x2 + Math.max(r, min), y2 + Math.max(b, min)];
}

/** Area of a ∩ b over the smaller box's area. */
function overlap(a: BBox, b: BBox): number {
  const inter = bboxIntersection(a, b);
  return inter ? bboxArea(inter) / Math.max(1, Math.min(bboxArea(a), bboxArea(b))) : 0;
}

/**
 * Text outside every widget is a link when its ink is a saturated colour (blue/teal hues of
 * hyperlinks), or when it sits in a column of short labels with a regular pitch (a menu).
 */
function linkCandidates(input: ClassifyInput, lines: readonly OcrLine[], claimed: readonly BBox[]): ElementCandidate[] {
  const { img, grey, scale } = input;
  const out: ElementCandidate[] = [];
  const obstacles: BBox[] = [...lines.flatMap((l) => l.words.map((w) => w.bbox)), ...(input.glyphs ?? []).map((g) => g.bbox)];
  for (const l of lines) {
    if (claimed.some((c) => bboxContainsPoint(c, bboxCenter(l.bbox)))) continue;
    let run: OcrWord[] = [];
    const flush = (): void => {
      const text = run.map((w) => w.text).join(" ");
      if (run.length && run.length <= 8 && /[\p{L}\p{N}]{2}/u.test(text)) {
        const ink = itemBox(run);
        // What is clicked is the text and the padding around it, up to its neighbours.
        const h = ink[3] - ink[1];
        const own = new Set(run.map((w) => w.bbox));
        const bbox = padToNeighbours(ink, 0.3 * h, 0.25 * h, obstacles.filter((o) => !own.has(o) && overlap(o, ink) < 0.5), 1 * scale);
        out.push({ type: "link", bbox, label: text, text, confidence: 0.7, method: "ocr_text", filled: false });
      }
      run = [];
    };
    for (const w of l.words) {
      const ink = inkColour(img, grey, w.bbox);
      const hue = rgbHue(ink[0], ink[1], ink[2]);
      const coloured = saturation(ink) > 0.4 && hue >= 180 && hue <= 260 && luma(ink) < 200;
      if (coloured || underlined(grey, img.width, img.height, w.bbox, l.bbox)) run.push(w);
      else flush();
    }
    flush();
  }
  return out;
}

/**
 * A line drawn under a word: a pixel row at the word's foot (its last fifth or up to a quarter
 * of its height below) whose pixels nearly all differ from the background around the word.
 */
export function underlined(grey: Uint8Array, W: number, H: number, box: BBox, line: BBox = box): boolean {
  const x1 = Math.max(0, Math.round(box[0]) + 1);
  const x2 = Math.min(W, Math.round(box[2]) - 1);
  const h = box[3] - box[1];
  if (x2 - x1 < 4 || h < 4) return false;
  const bgY = Math.max(0, Math.round(box[1]) - 2);
  const top = Array.from({ length: x2 - x1 }, (_, k) => grey[bgY * W + x1 + k]!).sort((a, b) => a - b);
  const bg = top[top.length >> 1]!;
  const inkShare = (y: number, a: number, b: number): number => {
    let n = 0;
    let c = 0;
    for (let x = Math.max(0, a); x < Math.min(W, b); x++, n++) if (Math.abs(grey[y * W + x]! - bg) > 50) c++;
    return n ? c / n : 0;
  };
  for (let y = Math.round(box[3] - h * 0.2); y <= Math.round(box[3] + h * 0.25); y++) {
    if (y < 0 || y >= H) continue;
    if (inkShare(y, x1, x2) < 0.92) continue;
    // A rule or a border runs on past the word on both sides; an underline does not, or, under
    // a link of several words, ends where the line's words end.
    const span = Math.round(3 * h);
    if (inkShare(y, x1 - span, x1 - 2) > 0.9 && inkShare(y, x2 + 2, x2 + span) > 0.9) {
      const ink = (x: number) => Math.abs(grey[y * W + x]! - bg) > 50;
      let a = x1;
      while (a > 0 && ink(a - 1)) a--;
      let b = x2;
      while (b < W && ink(b)) b++;
      if (a < line[0] - 0.5 * h || b > line[2] + 0.5 * h) continue;
    }
    return true;
  }
  return false;
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

interface MenuRow {
  readonly line: OcrLine;
  readonly bbox: BBox;
}

/**
 * Vertical menus: ≥ 4 short, non-numeric labels sharing a left edge with a regular pitch. Each
 * becomes a row as wide as the band of background it sits on and one pitch high, which is what
 * a person clicks (the row, not just its words).
 */
function menuRows(input: ClassifyInput, lines: readonly OcrLine[]): MenuRow[] {
  const { scale } = input;
  const short = lines.filter((l) => l.words.length <= 5 && l.bbox[3] - l.bbox[1] < 40 * scale && /\p{L}{2}/u.test(l.text));
  // Left edge of the first real word (an icon before the label may or may not be in the line box).
  const leftOf = (l: OcrLine) => (l.words.find((w) => /[\p{L}\p{N}]{2}/u.test(w.text)) ?? l.words[0])?.bbox[0] ?? l.bbox[0];
  const groups: OcrLine[][] = [];
  for (const l of [...short].sort((a, b) => leftOf(a) - leftOf(b))) {
    const g = groups.find((gr) => Math.abs(leftOf(gr[0]!) - leftOf(l)) <= 6 * scale);
    if (g) g.push(l);
    else groups.push([l]);
  }
  const out: MenuRow[] = [];
  const menus: { x1: number; x2: number; top: number; pitch: number }[] = [];
  /** The rows of a run of labels, or undefined when they are no menu. */
  const menuOf = (r: readonly OcrLine[]): { rows: MenuRow[]; pitch: number } | undefined => {
    const centres = r.map((l) => (l.bbox[1] + l.bbox[3]) / 2);
    const pitches = centres.slice(1).map((c, i) => c - centres[i]!).sort((a, b) => a - b);
    const pitch = pitches[pitches.length >> 1]!;
    const rows = r.map((l) => {
      const cy = (l.bbox[1] + l.bbox[3]) / 2;
      const half = Math.max((l.bbox[3] - l.bbox[1]) / 2, pitch * 0.46);
      const [x1, x2] = bandExtent(input, l.bbox, Math.round(cy - half + 2 * scale));
      return { line: l, bbox: [x1, cy - half, x2, cy + half] as BBox };
    });
    // A menu's rows share their extent (a row whose background runs on into the page, dark
    // theme on dark page, takes the others'), and no other label sits in a row (a table row or
    // a form line would have several).
    const rights = rows.map((x) => x.bbox[2]).sort((a, b) => a - b);
    const medRight = rights[rights.length >> 1]!;
    const consistent = rows.filter((x) => Math.abs(x.bbox[2] - medRight) <= 12 * scale).length >= rows.length * 0.75;
    if (consistent) for (const x of rows) if (x.bbox[2] > medRight + 12 * scale) x.bbox = [x.bbox[0], x.bbox[1], medRight, x.bbox[3]];
    const crowded = rows.some((x) => lines.some((o) => o !== x.line && /\p{L}{4}/u.test(o.text) && bboxContainsPoint(x.bbox, bboxCenter(o.bbox))));
    // Captions of a form: their band ends where a field begins on the same row.
    const captions = rows.filter((x) => fieldStartsAt(input, x.bbox[2], x.bbox[1], x.bbox[3])).length >= rows.length / 2;
    // A side menu is narrow; rows of labels that span the page are a table's or a list's
    // (an invoice's "Subtotal / Tax / Total", a bulleted list, a column of check box captions).
    const widths = rows.map((x) => x.bbox[2] - x.bbox[0]).sort((a, b) => a - b);
    const wide = widths[widths.length >> 1]! > 400 * scale;
    return !consistent || crowded || captions || wide ? undefined : { rows, pitch };
  };
  for (const group of groups) {
    if (group.length < 4) continue;
    group.sort((a, b) => a.bbox[1] - b.bbox[1]);
    const gaps = group.slice(1).map((l, i) => (l.bbox[1] + l.bbox[3]) / 2 - (group[i]!.bbox[1] + group[i]!.bbox[3]) / 2);
    let run: OcrLine[] = [group[0]!];
    const runs: OcrLine[][] = [];
    group.slice(1).forEach((l, i) => {
      const gap = gaps[i]!;
      const prevGap = i > 0 ? gaps[i - 1]! : gap;
      if (gap > 70 * scale || gap < 18 * scale || (run.length > 1 && Math.abs(gap - prevGap) > Math.max(8 * scale, prevGap * 0.35))) {
        runs.push(run);
        run = [];
      }
      run.push(l);
    });
    runs.push(run);
    // A section heading (set at another left edge) breaks a menu's pitch once: the few items
    // under it, up to two pitches on, still belong to the menu when the menu holds with them
    // (a line as far above a menu is the user's name, taken below).
    const centre = (l: OcrLine) => (l.bbox[1] + l.bbox[3]) / 2;
    const medianPitch = (r: readonly OcrLine[]) => r.slice(1).map((l, i) => centre(l) - centre(r[i]!)).sort((a, b) => a - b)[(r.length - 1) >> 1]!;
    const joins = (a: readonly OcrLine[], b: readonly OcrLine[], pitch: number) => {
      const gap = centre(b[0]!) - centre(a.at(-1)!);
      return gap >= 1.5 * pitch && gap <= 2.6 * pitch && [a, b].every((r) => r.length >= 4 || r.length === 1 || medianPitch(r) <= 1.6 * pitch);
    };
    runs.forEach((r, k) => {
      if (r.length < 4) return;
      const after = runs[k + 1];
      const joined = after && after.length < 4 && joins(r, after, medianPitch(r)) ? menuOf([...r, ...after]) : undefined;
      const menu = joined ?? menuOf(r);
      if (!menu) return;
      out.push(...menu.rows);
      menus.push({ x1: Math.min(...menu.rows.map((x) => x.bbox[0])), x2: Math.max(...menu.rows.map((x) => x.bbox[2])), top: menu.rows[0]!.bbox[1], pitch: menu.pitch });
    });
  }
  // A side panel holds navigation only: a short line alone in a menu's column a little above it
  // (the signed-in user's name over the menu) is a link too. Not a section heading in capitals,
  // not a field's placeholder.
  for (const m of menus)
    for (const l of short) {
      const cy = (l.bbox[1] + l.bbox[3]) / 2;
      if (l.words.length > 3 || l.bbox[0] < m.x1 || l.bbox[2] > m.x2 || l.text === l.text.toUpperCase()) continue;
      if (cy > m.top - 1.5 * m.pitch || cy < m.top - 3.5 * m.pitch) continue;
      if (out.some((x) => x.line === l || Math.abs((x.bbox[1] + x.bbox[3]) / 2 - cy) < 1.2 * m.pitch)) continue;
      if (input.shapes.some((sh) => !sh.container && bboxContainsPoint(sh.bbox, bboxCenter(l.bbox)))) continue;
      const h = l.bbox[3] - l.bbox[1];
      out.push({ line: l, bbox: padBBox(l.bbox, 0.15 * h) });
    }
  return out;
}

/** A widget (not a panel) starts at x and meets the rows y1..y2: the field a caption stands before or over. */
function fieldStartsAt(input: ClassifyInput, x: number, y1: number, y2: number): boolean {
  return input.shapes.some((sh) => !sh.container && Math.abs(sh.bbox[0] - x) <= 6 * input.scale && sh.bbox[1] < y2 && sh.bbox[3] > y1);
}

/** A widget (not a panel) starts just below `caption` (within 1.5 text heights), at its left edge. */
function fieldBelow(input: ClassifyInput, caption: BBox): boolean {
  return fieldStartsAt(input, caption[0], caption[3] - 2 * input.scale, caption[3] + 1.5 * (caption[3] - caption[1]));
}


/** Horizontal extent of the background run that contains the area just left of `box`, on row `y`. */
function bandExtent(input: ClassifyInput, box: BBox, y: number): [number, number] {
  const [l, r] = colourRun(input.img, Math.round(box[0]) - 2, y, true, 8);
  // Never narrower than the text itself.
  return [Math.min(l, box[0]), Math.max(r, box[2])];
}

/**
 * The run [start, end) of pixels through (x, y), along the row or the column, whose colour stays
 * that of (x, y); a single stray pixel (anti-aliasing, a dotted rule) does not end it.
 */
function colourRun(img: RgbImage, x: number, y: number, horizontal: boolean, tolerance = 14): [number, number] {
  const W = img.width;
  const H = img.height;
  const cx = Math.max(0, Math.min(W - 1, x));
  const cy = Math.max(0, Math.min(H - 1, y));
  const n = horizontal ? W : H;
  const at = (t: number): [number, number, number] => {
    const i = (horizontal ? cy * W + t : t * W + cx) * 3;
    return [img.data[i]!, img.data[i + 1]!, img.data[i + 2]!];
  };
  const start = horizontal ? cx : cy;
  const ref = at(start);
  const differs = (t: number) => colourDistance(at(t), ref) > tolerance;
  let a = start;
  while (a > 0 && !(differs(a - 1) && (a < 2 || differs(a - 2)))) a--;
  let b = start;
  while (b < n - 1 && !(differs(b + 1) && (b + 2 > n - 1 || differs(b + 2)))) b++;
  return [a, b + 1];
}
