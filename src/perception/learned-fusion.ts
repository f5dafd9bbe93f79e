// Learned proposals + OCR → element candidates: the general post-processing that stays once a model
// finds the boxes. Labels come from the text inside a box; a field or a drop-down is named by its
// caption (the nearest line left of it on its row, else just above it), what is inside it staying in
// `text`; a check box or radio button fitted to its caption (fitToggles) takes those words, else the whole
// line its box cuts, or, when its box holds no words, the line right of it. Boxes are first fitted to
// what is drawn: snapToShapes, widenFields, fitToggles; a combo box seen as a field and its arrow is one (joinSplitDropdowns);
// what a face shows retypes an element (retypeByFace): a drawn wide « button » whose text sits at its left is a field
// showing its value (retypeLeftAlignedButtons), a field whose right end shows a down arrow a drop-down (retypeArrowedFields).
// Fill boxes (a FillProposer's: the model's coarse pass) are added only where no other element stands (fillIns).
// What a row, a column or a drawing shows completes them where no element stands: a table's row selectors
// (completeRowSelectors), large toggles before their captions (completeCaptionedToggles), switches (completeSwitches).
import { bboxCenter, bboxContainsPoint, bboxCoverage, bboxIntersection, bboxIoU, bboxUnion, padBBox, type BBox } from "../core/geometry.js";
import type { ElementProposal } from "../core/providers/element-proposer.js";
import type { OcrLine, OcrWord } from "../core/providers/ocr.js";
import { isFieldType } from "../core/schemas/uielement.js";
import { median } from "../core/vectors.js";
import { faceMarks, type ElementCandidate } from "./element-classifier.js";
import { connectedComponents } from "./raster.js";

const overlap = (a0: number, a1: number, b0: number, b1: number) => Math.max(0, Math.min(a1, b1) - Math.max(a0, b0));

/**
 * The words of an element: those whose centre is inside its box; for the elements a row of can be read as one word
 * (buttons, tabs, links side by side), a word run across its side counts by its part inside ({@link partInside}).
 */
function wordsInside(box: BBox, words: readonly OcrWord[], type: string): OcrWord[] {
  const cuts = type === "button" || type === "tab" || type === "link";
  return words
    .map((w) => (cuts ? partInside(box, w) : bboxContainsPoint(box, bboxCenter(w.bbox)) ? w : undefined))
    .filter((w): w is OcrWord => !!w)
    .sort((a, b) => a.bbox[1] - b.bbox[1] || a.bbox[0] - b.bbox[0]);
}

/**
 * The part of a word inside `box`: the word when its centre is inside, unless OCR ran it across the box's side — two
 * buttons of a row read as one « EnregistrerImprimer », the box's side falling within two characters of a join of a
 * small letter and a capital (where OCR dropped the space): then its characters on the box's side of that join. A word
 * whose centre is outside counts only by such a part. Undefined when its row is not the box's or nothing of it counts.
 */
export function partInside(box: BBox, w: OcrWord): OcrWord | undefined {
  const cy = (w.bbox[1] + w.bbox[3]) / 2;
  if (cy < box[1] || cy > box[3]) return undefined;
  const centred = bboxContainsPoint(box, bboxCenter(w.bbox));
  const width = w.bbox[2] - w.bbox[0];
  const lo = Math.max(box[0], w.bbox[0]);
  const hi = Math.min(box[2], w.bbox[2]);
  if (hi - lo >= 0.9 * width || hi <= lo) return centred ? w : undefined;
  const chars = [...w.text];
  const n = chars.length;
  const join = (k: number) => [0, 1, -1, 2, -2].map((d) => k + d).find((j) => j > 0 && j < n && /\p{Ll}/u.test(chars[j - 1]!) && /\p{Lu}/u.test(chars[j]!));
  // Where the box's sides fall in the word, in characters; within a character of its ends (OCR pads its boxes), none.
  const at = (x: number) => Math.round(((x - w.bbox[0]) / width) * n);
  const a = at(lo) <= 1 ? 0 : join(at(lo));
  const b = at(hi) >= n - 1 ? n : join(at(hi));
  // No join where the box's side cuts the word: a box drawn a little short of its text, not two words run together.
  if (a === undefined || b === undefined) return centred ? w : undefined;
  const text = chars.slice(a, b).join("").trim();
  if ([...text].length < 2) return undefined;
  return { ...w, text, bbox: [w.bbox[0] + (a / n) * width, w.bbox[1], w.bbox[0] + (b / n) * width, w.bbox[3]] };
}

/**
 * The line that names `box` on its `side` (left: same row, ending before it; above: over it, overlapping it across and
 * starting no further left than two text heights — a line starting far left of it is the row above's caption; right:
 * same row, after it), within `maxGap` text heights on a row. OCR's line boxes are padded (PP-OCR grows each detected
 * box), so a line may reach into the box by half a text height (a third above) as long as its centre is on its side.
 */
export function captionOf<L extends { readonly text: string; readonly bbox: BBox }>(box: BBox, lines: readonly L[], side: "left" | "above" | "right", maxGap = 12): L | undefined {
  const h = box[3] - box[1];
  let best: L | undefined;
  let bestGap = Infinity;
  for (const l of lines) {
    const lh = l.bbox[3] - l.bbox[1];
    const [lx, ly] = bboxCenter(l.bbox);
    if (bboxContainsPoint(box, [lx, ly])) continue;
    let gap: number;
    if (side === "left" || side === "right") {
      if (overlap(l.bbox[1], l.bbox[3], box[1], box[3]) < 0.5 * Math.min(lh, h)) continue;
      if (side === "left" ? lx >= box[0] : lx <= box[2]) continue;
      gap = side === "left" ? box[0] - l.bbox[2] : l.bbox[0] - box[2];
      if (gap < -Math.max(2, 0.5 * lh) || gap > Math.max(maxGap * lh, 60)) continue;
    } else {
      if (overlap(l.bbox[0], l.bbox[2], box[0], box[2]) <= 0 || l.bbox[0] < box[0] - 2 * lh || ly >= box[1]) continue;
      gap = box[1] - l.bbox[3];
      if (gap < -Math.max(2, lh / 3) || gap > Math.max(1.5 * lh, 12)) continue;
    }
    if (gap < bestGap) {
      bestGap = gap;
      best = l;
    }
  }
  return best;
}

/**
 * A line without its words that lie inside any of `boxes` (their centres); the line as it is when it has no words or
 * none is inside; undefined when every word is.
 */
export function withoutWordsIn<L extends { text: string; bbox: BBox; words?: readonly { text: string; bbox: BBox }[] }>(l: L, boxes: readonly { bbox: BBox }[]): L | { text: string; bbox: BBox } | undefined {
  if (!l.words?.length) return l;
  const kept = l.words.filter((w) => !boxes.some((b) => bboxContainsPoint(b.bbox, bboxCenter(w.bbox))));
  if (kept.length === l.words.length) return l;
  if (kept.length === 0) return undefined;
  // OCR's word boundaries keep a separator read at the field's edge (« client | »): dropped with the field.
  const text = kept.map((w) => w.text).join(" ").replace(/[\s|]+$/u, "").trim();
  if (!text) return undefined;
  return { text, bbox: kept.map((w) => w.bbox).reduce(bboxUnion) };
}

/**
 * The model's boxes are regressed on a coarse grid and come out a few pixels off; a shape drawn on
 * screen (a rectangle's or a disc's edges, found by the region proposals, containers left out by
 * the caller) is exact. A proposal that overlaps one such shape well (IoU ≥ 0.5) takes that
 * shape's box, keeping its own type, confidence and state; the others keep theirs.
 */
export function snapToShapes(proposals: readonly ElementProposal[], shapes: readonly { readonly bbox: BBox }[]): ElementProposal[] {
  return proposals.map((p) => {
    let best: BBox | undefined;
    let iou = 0.5;
    for (const s of shapes) {
      const v = bboxIoU(p.bbox, s.bbox);
      if (v >= iou) [best, iou] = [s.bbox, v];
    }
    return best ? { ...p, bbox: best } : p;
  });
}

/**
 * A combo box seen as two elements: a field over its text and a drop-down over its arrow end, on the same row, the
 * drop-down starting inside the field and ending at or past its end. It is one drop-down from the field's start to the
 * arrow's end (the model's confidence the larger of the two). A field followed by a drop-down beside it (an input
 * group) does not overlap it and stays two.
 */
export function joinSplitDropdowns<P extends { readonly type: string; readonly bbox: BBox; readonly confidence: number }>(proposals: readonly P[], merge: (dropdown: P, field: P, bbox: BBox) => P = (d, f, bbox) => ({ ...d, bbox, confidence: Math.max(d.confidence, f.confidence) })): P[] {
  const gone = new Set<P>();
  const joined = new Map<P, P>();
  for (const d of proposals) {
    if (d.type !== "dropdown") continue;
    const [dx0, dy0, dx1, dy1] = d.bbox;
    const field = proposals.find((t) => {
      if (t.type !== "text_input" || gone.has(t)) return false;
      const [tx0, ty0, tx1, ty1] = t.bbox;
      const h = Math.min(ty1 - ty0, dy1 - dy0);
      return overlap(ty0, ty1, dy0, dy1) >= 0.7 * h && tx0 < dx0 && dx0 < tx1 - 0.25 * (dx1 - dx0) && dx1 >= tx1 - 0.25 * h;
    });
    if (!field) continue;
    gone.add(field);
    const t = field.bbox;
    joined.set(d, merge(d, field, [t[0], Math.min(t[1], dy0), dx1, Math.max(t[3], dy1)]));
  }
  return proposals.flatMap((p) => (gone.has(p) ? [] : [joined.get(p) ?? p]));
}

const isToggle = (p: { readonly type: string }): boolean => p.type === "checkbox" || p.type === "radio_button";

/** A proposal whose box was fitted to a toggle's caption: the words it was fitted to, which name it. */
export type FittedProposal = ElementProposal & { readonly caption?: readonly OcrWord[] };

/**
 * The model sees a wide field or drop-down through a limited window and often boxes only one end of it (the arrow end
 * of a drop-down, the start of a long field). Where a drawn rectangle holds such a box, spans its height (its top and
 * bottom within a third of it) and shares one of its ends, the field is that rectangle.
 */
export function widenFields(proposals: readonly ElementProposal[], shapes: readonly { readonly bbox: BBox }[]): ElementProposal[] {
  return proposals.map((p) => {
    if (p.type !== "text_input" && p.type !== "dropdown") return p;
    const [x0, y0, x1, y1] = p.bbox;
    const h = y1 - y0;
    const area = (x1 - x0) * h;
    let best: BBox | undefined;
    for (const { bbox: b } of shapes) {
      if (b[2] - b[0] <= x1 - x0 || Math.abs(b[1] - y0) > h / 3 || Math.abs(b[3] - y1) > h / 3) continue;
      if (overlap(b[0], b[2], x0, x1) * overlap(b[1], b[3], y0, y1) < 0.8 * area) continue;
      if (Math.abs(b[2] - x1) > h / 2 && Math.abs(b[0] - x0) > h / 2) continue;
      if (!best || b[2] - b[0] < best[2] - best[0]) best = b;
    }
    return best ? { ...p, bbox: best } : p;
  });
}

/**
 * A check box's or radio button's box on what is drawn: the model's box says which element it saw — the indicator
 * alone (a row's check box in a table, an input whose caption is an element of its own) or the indicator with its
 * caption (a label wrapping its input) — but its edges come out loose, reaching past a short caption into the gap
 * or into the next cell. Where a drawn square or disc of the box's height sits in the box's left part, the box becomes
 * either that indicator or the indicator with the words that follow it on its row (each within a gap of the last,
 * up to the next indicator): whichever of the two the model's box overlaps more — across; down, it keeps the model's
 * rows too (a widget's padding around its ink). Without such an indicator, the box's left end stands for it, and the
 * box is fitted to the words from there only when it overlaps them more than its bare left end. Chosen on the train
 * families' validation and calibration screens, where a box IoU of 0.3–0.5 with the true box was most toggle misses.
 * Besides (stop 49, decided on the train families and the large-toggle pages): a box that runs well into a long caption
 * takes all of it; a switch whose track the shapes miss keeps the model's box (`grey` shows the track beside its knob);
 * a table's row selectors keep their indicator alone (tableRowSelectors). Since stop 50 (decided the same way): an
 * indicator 1.4 times as tall as its caption's first word or more (an accessible form's large toggle, which the model
 * never saw and boxes alone) takes its caption whatever the box covers, even a box on the indicator's own edges; a
 * caption's words need only sit on the indicator's rows (their middle within half its size of its middle: a large
 * ring's caption sits off its middle). Since stop 57 (decided the same way): a drawn check box's caption wrapped onto a
 * second line is part of it; every selector of a table's column is its indicator (`columnIndicator` for a ticked one).
 */
export function fitToggles(proposals: readonly ElementProposal[], shapes: readonly { readonly bbox: BBox }[], lines: readonly OcrLine[], grey?: GreyImage): FittedProposal[] {
  const words = lines.flatMap((l) => l.words);
  const boxes = shapes.map((s) => s.bbox);
  const square = (b: BBox, h: number) => {
    const w = b[2] - b[0];
    const sh = b[3] - b[1];
    return w >= 0.3 * h && sh >= 0.3 * h && w <= 1.5 * h && sh <= 1.5 * h && w <= 1.4 * sh && sh <= 1.4 * w;
  };
  const fits = proposals.map((p): { fitted: FittedProposal; mark?: BBox; next?: number } => {
    if (!isToggle(p)) return { fitted: p };
    const [x0, y0, x1, y1] = p.bbox;
    // A box already on a drawn shape's edges (snapToShapes) with no word in it, wider or taller than a square, is the
    // control as drawn — a switch's track, whose knob is a square of its own inside it and no indicator of its. A square
    // one (a bare indicator) is fitted below, to its caption where one follows.
    const h = y1 - y0;
    if (!square(p.bbox, h) && boxes.some((b) => b[0] === x0 && b[1] === y0 && b[2] === x1 && b[3] === y1) && !words.some((w) => bboxContainsPoint(p.bbox, bboxCenter(w.bbox)))) return { fitted: p };
    const reach = x0 + Math.max(1.5 * h, 0.35 * (x1 - x0));
    const drawn = boxes
      .filter((b) => square(b, h) && b[0] >= x0 - 0.5 * h && b[0] <= reach && overlap(b[1], b[3], y0, y1) >= 0.7 * (b[3] - b[1]))
      .sort((a, b) => a[0] - b[0])[0];
    // A switch: its knob (the square or disc found) at one end of a track the shapes miss (a pill), the track's edges
    // inked beside the knob for a knob's width (within the knob's height and most of it again, past the box's rows), no
    // word reaching into the box but the knob read as a letter (a caption's letters are ink too) — the control is the
    // model's box, not its knob.
    const inBox = (w: OcrWord) => overlap(w.bbox[0], w.bbox[2], x0, x1) > 2 && overlap(w.bbox[1], w.bbox[3], y0, y1) > 0.5 * (w.bbox[3] - w.bbox[1]);
    if (drawn && grey && x1 - x0 >= 1.5 * (drawn[2] - drawn[0]) && !words.some((w) => inBox(w) && !bboxContainsPoint(drawn, bboxCenter(w.bbox)))) {
      const [ky, kh] = [(drawn[1] + drawn[3]) / 2, drawn[3] - drawn[1]];
      const [top, bottom] = [Math.min(y0, ky - 0.9 * kh), Math.max(y1, ky + 0.9 * kh)];
      const kw = drawn[2] - drawn[0];
      const beside: BBox = drawn[0] + drawn[2] < x0 + x1 ? [drawn[2] + 1, top, Math.min(x1, drawn[2] + 1 + kw), bottom] : [Math.max(x0, drawn[0] - 1 - kw), top, drawn[0] - 1, bottom];
      if (inkedColumns(grey, beside) >= 0.8) return { fitted: p };
    }
    // No indicator drawn as a flat square or disc (a ring, a themed image): its place is the box's left end, and the box
    // is fitted only to a caption that starts in it.
    const mark: BBox = drawn ?? [x0, y0, x0 + Math.min(h, x1 - x0), y1];
    const cy = (mark[1] + mark[3]) / 2;
    // The next indicator of its row bounds its caption (toggles side by side).
    const next = boxes.filter((b) => b !== drawn && b[0] >= mark[2] && square(b, 1.2 * (mark[3] - mark[1])) && b[1] <= cy && b[3] >= cy).reduce((m, b) => Math.min(m, b[0]), Infinity);
    const starts = (w: OcrWord) => (drawn ? (w.bbox[0] + w.bbox[2]) / 2 > mark[2] : w.bbox[0] >= x0 - 2);
    const row = words.filter((w) => Math.abs((w.bbox[1] + w.bbox[3]) / 2 - cy) <= 0.5 * (mark[3] - mark[1]) && starts(w) && w.bbox[2] <= next + 2).sort((a, b) => a.bbox[0] - b.bbox[0]);
    let [end, top, bottom] = [mark[2], mark[1], mark[3]];
    const caption: OcrWord[] = [];
    // An indicator no shape holds, read by the OCR as a lone round sign on it (a ring « O », a dot « ● »): the
    // indicator, not its caption's first word; a circle sign drawn on a « check box » tells a radio button.
    let ring: string | undefined;
    for (const w of row) {
      if (!drawn && !caption.length && !ring && /^[oO0°○◯●◉]$/u.test(w.text) && (w.bbox[0] + w.bbox[2]) / 2 <= mark[2]) {
        ring = w.text;
        continue;
      }
      // The first word may stand off the indicator; the next ones follow at a word space (a wider gap is the next
      // toggle's, its indicator read as a letter when not drawn as a shape: « checkbutton  O radiobutton »).
      const wh = w.bbox[3] - w.bbox[1];
      if (w.bbox[0] - end > (end === mark[2] ? Math.max(1.2 * wh, mark[3] - mark[1]) : 0.8 * wh)) break;
      caption.push(w);
      end = Math.max(end, w.bbox[2]);
      top = Math.min(top, w.bbox[1]);
      bottom = Math.max(bottom, w.bbox[3]);
    }
    // A drawn check box's caption wrapped onto a second line: words right below its first, about as tall, a line's spacing
    // down, starting under its first word with nothing drawn before them (a hanging indent) or under the box with a word
    // there (a label wrapping its box) — not the next toggle's caption, which starts after its own box.
    const lead = caption.find((w) => w.bbox[2] > mark[2]);
    if (lead && grey && drawn && p.type === "checkbox") {
      const lh = lead.bbox[3] - lead.bbox[1];
      const below = words
        .filter((w) => !caption.includes(w) && w.bbox[1] >= bottom - 0.2 * lh && w.bbox[1] - bottom <= lh && Math.abs(w.bbox[3] - w.bbox[1] - lh) <= 0.35 * lh && w.bbox[0] >= mark[0] - 0.5 * lh && w.bbox[0] <= end + lh)
        .sort((a, b) => a.bbox[0] - b.bbox[0]);
      const head = below[0];
      const boxed = (x0b: number, x1b: number) => !!head && boxes.some((b) => square(b, mark[3] - mark[1]) && overlap(b[1], b[3], head.bbox[1], head.bbox[3]) > 0 && overlap(b[0], b[2], x0b, x1b) > 0);
      const faint = (b: BBox) => (inkedColumnFlags(grey, b, 12) ?? [true]).filter(Boolean).length;
      const hanging = !!head && Math.abs(head.bbox[0] - lead.bbox[0]) <= 0.5 * lh && !boxed(mark[0], mark[2]) && faint([mark[0], head.bbox[1], mark[2], head.bbox[3]]) === 0;
      const under = !!head && Math.abs(head.bbox[0] - mark[0]) <= 0.5 * lh && /^[\p{L}\p{N}]{2}/u.test(head.text.trim()) && !boxed(head.bbox[0], head.bbox[2]);
      // (Words another toggle's box holds are that toggle's caption: the model saw its box there.)
      const another = !!head && proposals.some((o) => o !== p && isToggle(o) && bboxContainsPoint(o.bbox, bboxCenter(head.bbox)));
      // (Nor words inside a field below — its placeholder or value —: a field the model saw, or a wide drawn box that holds
      // them and not the indicator.)
      const inField =
        !!head &&
        (proposals.some((o) => isFieldType(o.type) && bboxContainsPoint(o.bbox, bboxCenter(head.bbox))) ||
          boxes.some((b) => b[2] - b[0] >= 3 * (b[3] - b[1]) && bboxContainsPoint(b, bboxCenter(head.bbox)) && !bboxContainsPoint(b, bboxCenter(mark))));
      if ((hanging || under) && !another && !inField) {
        let prev = head!.bbox[0];
        for (const w of below) {
          if (w.bbox[0] - prev > 0.8 * lh) break;
          prev = w.bbox[2];
          caption.push(w);
          end = Math.max(end, w.bbox[2]);
          bottom = Math.max(bottom, w.bbox[3]);
        }
      }
    }
    // Across: from the indicator to its caption's end; down: the model's rows too (a widget's padding around its ink).
    const withCaption: BBox = [mark[0], Math.min(top, y0), end, Math.max(bottom, y1)];
    // A long caption: the model's box (it sees through a limited window) covers little of it, but reaches into it — past
    // the start of its first word beyond the indicator by half the indicator's size or more.
    const first = caption.find((w) => w.bbox[2] > mark[2]);
    const reachesIn = !!first && x1 - Math.max(mark[2], first.bbox[0]) >= 0.5 * (mark[3] - mark[1]);
    // A drawn indicator much taller than its caption's letters (an accessible form's large toggle, which the model boxes
    // alone: it never saw one) takes its caption whatever the model's box covers; one the model knows, as its box says.
    const large = !!drawn && !!first && drawn[3] - drawn[1] >= 1.4 * (first.bbox[3] - first.bbox[1]);
    const type = p.type === "checkbox" && ring && /[○◯●◉]/u.test(ring) ? "radio_button" : p.type;
    if (end > mark[2] && (large || reachesIn || bboxIoU(p.bbox, withCaption) >= bboxIoU(p.bbox, mark))) return { fitted: { ...p, type, bbox: withCaption, caption }, ...(drawn ? { mark: drawn, next } : {}) };
    return { fitted: { ...p, bbox: drawn ?? p.bbox }, ...(drawn ? { mark: drawn, next } : {}) };
  });
  const columns = tableRowSelectors(fits.flatMap((f) => (f.mark ? [{ mark: f.mark, caption: f.fitted.caption ?? [], next: f.next ?? Infinity }] : [])), words);
  return fits.map(({ fitted, mark }) => {
    const selector = mark ? (columns.some((c) => c.includes(mark)) ? mark : undefined) : fitted.caption && columnIndicator(fitted, columns);
    if (!selector) return fitted;
    const { caption: _caption, ...alone } = fitted;
    return { ...alone, bbox: selector };
  });
}

/**
 * A toggle fitted to a caption with no indicator drawn as a shape (a ticked box filled with its accent colour) whose
 * box starts at a table's column of row selectors, among its rows (within 1.5 rows' pitch of the column's ends), and is
 * about their size: a row selector too, boxed as its column's indicators are, on its own rows.
 */
function columnIndicator(p: ElementProposal, columns: readonly (readonly BBox[])[]): BBox | undefined {
  const [x0, y0, , y1] = p.bbox;
  const cy = (y0 + y1) / 2;
  for (const marks of columns) {
    const side = median(marks.map((m) => m[3] - m[1]));
    const left = median(marks.map((m) => m[0]));
    const ys = marks.map((m) => (m[1] + m[3]) / 2).sort((a, b) => a - b);
    const pitch = (ys[ys.length - 1]! - ys[0]!) / (ys.length - 1);
    if (Math.abs(x0 - left) > side / 3 || y1 - y0 < 0.7 * side || y1 - y0 > 2 * side || cy < ys[0]! - 1.5 * pitch || cy > ys[ys.length - 1]! + 1.5 * pitch) continue;
    return [left, cy - side / 2, left + side, cy + side / 2];
  }
  return undefined;
}

/** A frame's grey levels, row by row. */
export interface GreyImage {
  readonly data: Uint8Array;
  readonly width: number;
}

/** Per column of a box (rounded, inside the image), whether its grey levels span `range` or more; undefined outside. */
function inkedColumnFlags(grey: GreyImage, box: BBox, range: number): boolean[] | undefined {
  const [x0, y0, x1, y1] = box.map(Math.round) as [number, number, number, number];
  const height = Math.floor(grey.data.length / grey.width);
  if (x1 <= x0 || y1 <= y0 || x0 < 0 || y0 < 0 || x1 > grey.width || y1 > height) return undefined;
  const flags: boolean[] = [];
  for (let x = x0; x < x1; x++) {
    let lo = 255;
    let hi = 0;
    for (let y = y0; y < y1; y++) {
      const v = grey.data[y * grey.width + x]!;
      lo = Math.min(lo, v);
      hi = Math.max(hi, v);
    }
    flags.push(hi - lo >= range);
  }
  return flags;
}

/** The share of a box's columns whose grey levels span 24 or more (an edge or a stroke crosses them); 0 for an empty box. */
export function inkedColumns(grey: GreyImage, box: BBox): number {
  const flags = inkedColumnFlags(grey, box, 24);
  return flags ? flags.filter(Boolean).length / flags.length : 0;
}

/**
 * The indicators of a table's row selectors among toggles on a drawn indicator (with a caption or none): three or more
 * drawn indicators stacked in one column (left sides within a third of their size) whose rows go on, past their
 * « captions », with words that start at one x on three of those rows or more (and on at least half of them): a table's
 * next columns. On its rows the words after the indicator are the next cell, not a caption; the toggle is its indicator
 * alone. A list of check boxes, whose rows hold nothing past their captions (or only the next toggle of the row, which
 * bounds them), is not one. The columns found, each as its indicators.
 */
function tableRowSelectors(fitted: readonly { mark: BBox; caption: readonly OcrWord[]; next: number }[], words: readonly OcrWord[]): BBox[][] {
  const out: BBox[][] = [];
  const size = (b: BBox) => b[3] - b[1];
  const rests = fitted.map((f) => {
    const cy = (f.mark[1] + f.mark[3]) / 2;
    // Past the caption; with none, past where a caption's first word could stand (a list's bare captions are no cells).
    const end = f.caption.length ? Math.max(...f.caption.map((w) => w.bbox[2])) : f.mark[2];
    const beyond = (w: OcrWord) => w.bbox[0] > end + (f.caption.length ? 0 : Math.max(1.2 * (w.bbox[3] - w.bbox[1]), size(f.mark)));
    return words.filter((w) => w.bbox[1] <= cy && w.bbox[3] >= cy && beyond(w) && w.bbox[2] <= f.next + 2 && !f.caption.includes(w)).map((w) => w.bbox[0]);
  });
  const done = new Set<number>();
  fitted.forEach((f, i) => {
    if (done.has(i)) return;
    const column = fitted.flatMap((g, j) => (Math.abs(g.mark[0] - f.mark[0]) <= size(f.mark) / 3 && Math.abs(size(g.mark) - size(f.mark)) <= size(f.mark) / 3 ? [j] : []));
    column.forEach((j) => done.add(j));
    if (column.length < 3) return;
    const tolerance = size(f.mark) / 3;
    const rowsAt = (x: number) => column.filter((j) => rests[j]!.some((r) => Math.abs(r - x) <= tolerance));
    const table = column.flatMap((j) => rests[j]!).map(rowsAt).reduce<number[]>((a, b) => (b.length > a.length ? b : a), []);
    // A table: every indicator of the column from its first such row to its last is a row's selector, also where that
    // row's cells did not line up (toggles of a form below the table, at the same x, are not).
    if (table.length < 3 || table.length < column.length / 2) return;
    const [top, bottom] = [Math.min(...table.map((j) => fitted[j]!.mark[1])), Math.max(...table.map((j) => fitted[j]!.mark[3]))];
    out.push(column.map((j) => fitted[j]!.mark).filter((m) => m[1] >= top && m[3] <= bottom));
  });
  return out;
}

/**
 * The lines a toggle's box cuts that are its caption: those at least half inside it across (a box
 * that reaches into the next toggle on its row holds that one's indicator, not its caption), else
 * the one most inside it.
 */
function cutLines(box: BBox, lines: readonly OcrLine[], inside: readonly OcrWord[]): OcrLine[] {
  const cut = lines.filter((l) => l.words.some((w) => inside.includes(w)));
  const share = (l: OcrLine) => overlap(l.bbox[0], l.bbox[2], box[0], box[2]) / Math.max(1, l.bbox[2] - l.bbox[0]);
  const most = cut.filter((l) => share(l) >= 0.5);
  return most.length ? most : cut.sort((a, b) => share(b) - share(a)).slice(0, 1);
}

/**
 * A field's or drop-down's caption: the nearest line left of it on its row, else just above it, without a trailing colon
 * or asterisk. A line OCR ran from the caption into the field (« Invoice number : 1 250,00 ») names it by its words
 * outside the field.
 */
export function captionOfField(box: BBox, lines: readonly OcrLine[], otherFields: readonly BBox[] = []): string | undefined {
  // (Not the words another field apart from it shows: the value of the drop-down above it.)
  const apart = otherFields.filter((f) => !bboxIntersection(f, box));
  const shown = (l: { bbox: BBox }) => apart.some((f) => bboxContainsPoint(f, bboxCenter(l.bbox)));
  const outside = lines.map((l) => withoutWordsIn(l, [{ bbox: box }])).filter((l) => l !== undefined).filter((l) => !shown(l));
  const cap = captionOf(box, outside, "left") ?? captionOf(box, lines.filter((l) => !shown(l)), "above");
  return cap ? cap.text.replace(/\s*[:*]+\s*$/u, "").trim() : undefined;
}

/** One candidate per proposal, best first, labelled from the OCR lines. */
export function fuseWithOcr(proposals: readonly FittedProposal[], lines: readonly OcrLine[]): ElementCandidate[] {
  const words = lines.flatMap((l) => l.words);
  const toggles = proposals.filter(isToggle);
  const fields = proposals.filter((p) => isFieldType(p.type)).map((p) => p.bbox);
  return proposals.map((p) => {
    const inside = wordsInside(p.bbox, words, p.type);
    let text = inside.map((w) => w.text).join(" ");
    let label = text;
    if (isFieldType(p.type)) label = captionOfField(p.bbox, lines, fields) ?? label;
    else if (isToggle(p)) {
      // A toggle is named by its whole caption: the line right of a bare indicator, or the
      // lines its box cuts (« Accepte les » of « Accepte les conditions »), which are its text too.
      // A box fitted to its caption (fitToggles) is named by those words alone: one OCR line may run across the
      // captions of toggles side by side. A bare indicator is not named by a line another toggle's box holds.
      if (p.caption?.length) text = p.caption.map((w) => w.text).join(" ");
      else if (text) text = cutLines(p.bbox, lines, inside).map((l) => l.text).join(" ");
      label = text || (captionOf(p.bbox, lines.filter((l) => !toggles.some((t) => t !== p && bboxContainsPoint(t.bbox, bboxCenter(l.bbox)))), "right")?.text ?? "");
    }
    const state: ElementCandidate["state"] = {};
    if (p.state) {
      if ((p.type === "checkbox" || p.type === "radio_button") && p.state.checked !== undefined) state.checked = p.state.checked >= 0.5;
      if (p.type === "tab" && p.state.selected !== undefined) state.selected = p.state.selected >= 0.5;
      if (p.state.disabled !== undefined) state.disabled = p.state.disabled >= 0.5;
    }
    return { type: p.type, bbox: p.bbox, label, text, confidence: p.confidence, method: "learned_detector", filled: false, ...(p.state ? { state } : {}) };
  });
}

/**
 * The model's elements the gate keeps: `judge` is asked of each as `fuseWithOcr` labels it with all the others there,
 * and says whether it stays and, when it knows, its confidence. Those kept are labelled again among themselves only (a
 * toggle dropped here no longer keeps the line in its box from naming a bare indicator beside it); boxes and types are
 * the fitted proposals' own.
 */
export function keepFused(fitted: readonly FittedProposal[], lines: readonly OcrLine[], judge: (c: ElementCandidate, all: readonly ElementCandidate[]) => { keep: boolean; confidence?: number }): { all: ElementCandidate[]; kept: ElementCandidate[] } {
  const all = fuseWithOcr(fitted, lines);
  const verdicts = all.map((c) => judge(c, all));
  if (verdicts.every((v) => v.keep && v.confidence === undefined)) return { all, kept: all };
  const kept = fitted.flatMap((p, i) => (verdicts[i]!.keep ? [verdicts[i]!.confidence === undefined ? p : { ...p, confidence: verdicts[i]!.confidence! }] : []));
  return { all, kept: fuseWithOcr(kept, lines) };
}

/**
 * Of fill boxes (core/providers/fill-proposer.ts), those to add to `elements`, best first: more likely right than not
 * (confidence ≥ 0.5), over no element (`elements` cover less than a fifth of the box, added ones included) and around
 * none but links (a field's placeholder or value may have been taken for a link; a bar holding buttons is no field).
 */
export function fillIns<P extends ElementProposal>(fills: readonly P[], elements: readonly { readonly type: string; readonly bbox: BBox }[]): P[] {
  const taken: Array<{ readonly type: string; readonly bbox: BBox }> = [...elements];
  const out: P[] = [];
  for (const f of [...fills].sort((a, b) => b.confidence - a.confidence)) {
    if (f.confidence < 0.5) continue;
    const covered = taken.reduce((sum, e) => sum + bboxCoverage(f.bbox, e.bbox), 0);
    if (covered >= 0.2 || taken.some((e) => e.type !== "link" && bboxCoverage(e.bbox, f.bbox) > 0.5)) continue;
    out.push(f);
    taken.push(f);
  }
  return out;
}

/**
 * A strip's tabs the model or the gate left out. Where tabs stand on a row, the short lines of text on that row that no
 * element holds, within the widest tab's width of the strip (past its ends or between its tabs), are tabs of the same
 * strip: as tall as its tabs, padded around their words as its tabs are (their median), at the strip's least
 * confidence. A strip is all tabs; the model and its gate judge one element at a time and drop a row's less sure ones
 * (plain-text tabs beside a selected pill or an underlined one). A table's header row (its texts head columns of text
 * below) is no strip. General geometry: no word, kit or app is named.
 */
export function completeTabStrips(candidates: readonly ElementCandidate[], lines: readonly OcrLine[]): ElementCandidate[] {
  const tabs = candidates.filter((c) => c.type === "tab");
  const rows: ElementCandidate[][] = [];
  for (const t of [...tabs].sort((a, b) => a.bbox[0] - b.bbox[0])) {
    const h = t.bbox[3] - t.bbox[1];
    const row = rows.find((r) => Math.abs(r[0]!.bbox[1] + r[0]!.bbox[3] - t.bbox[1] - t.bbox[3]) / 2 <= 0.25 * h && Math.abs(r[0]!.bbox[3] - r[0]!.bbox[1] - h) <= 0.25 * h);
    if (row) row.push(t);
    else rows.push([t]);
  }
  const added: ElementCandidate[] = [];
  const present = [...candidates];
  const held = (l: OcrLine) => present.some((c) => bboxContainsPoint(c.bbox, bboxCenter(l.bbox)));
  const words = lines.flatMap((l) => l.words);
  for (const row of rows) {
    const [y0, y1] = [median(row.map((t) => t.bbox[1])), median(row.map((t) => t.bbox[3]))];
    const h = y1 - y0;
    const cy = (y0 + y1) / 2;
    const reach = Math.max(...row.map((t) => t.bbox[2] - t.bbox[0]));
    const pads = row.flatMap((t) => {
      const inside = words.filter((w) => bboxContainsPoint(t.bbox, bboxCenter(w.bbox)));
      return inside.length ? [(t.bbox[2] - t.bbox[0] - (Math.max(...inside.map((w) => w.bbox[2])) - Math.min(...inside.map((w) => w.bbox[0])))) / 2] : [];
    });
    if (!pads.length) continue;
    const pad = Math.max(0, median(pads));
    // A table's header row is no strip: two lines or more below a text start at its x (a column), within a few rows.
    const column = (text: BBox) => lines.filter((o) => o.bbox[1] >= text[3] && o.bbox[1] <= text[3] + 8 * h && Math.abs(o.bbox[0] - text[0]) <= 0.3 * h).length >= 2;
    const texts = row.flatMap((t) => lines.filter((l) => bboxContainsPoint(t.bbox, bboxCenter(l.bbox))).map((l) => l.bbox));
    if (texts.filter(column).length * 2 >= texts.length) continue;
    const free = lines.filter((l) => Math.abs((l.bbox[1] + l.bbox[3]) / 2 - cy) <= 0.25 * h && l.bbox[3] - l.bbox[1] <= 0.8 * h && l.words.length <= 3 && /\p{L}/u.test(l.text) && !held(l) && !column(l.bbox));
    const strip = [...row];
    for (let grown = true; grown; ) {
      grown = false;
      for (const l of free) {
        if (held(l)) continue;
        const gap = Math.min(...strip.map((t) => Math.max(t.bbox[0] - l.bbox[2], l.bbox[0] - t.bbox[2])));
        if (gap > reach) continue;
        const bbox: BBox = [l.bbox[0] - pad, y0, l.bbox[2] + pad, y1];
        if (present.some((c) => bboxIoU(c.bbox, bbox) > 0.1)) continue;
        const tab: ElementCandidate = { type: "tab", bbox, label: l.text, text: l.text, confidence: Math.min(...row.map((t) => t.confidence)), method: "heuristic_strip", filled: false };
        added.push(tab);
        present.push(tab);
        strip.push(tab);
        grown = true;
      }
    }
  }
  return added;
}

/**
 * A table's row selectors no element holds: blank squares (no word in them, one mark at most: a tick) of one size
 * stacked in one column, three or more, at least half their size apart, each opening its row, whose rows go on with
 * words that start at one x on three of those rows or more (and on at least half of them): the table's next column.
 * Each such square no element stands on becomes a check box, its indicator alone, named by the line right of it (its
 * row's first cell), its confidence 0.6 set by hand as the rules' are.
 * The model and its gate judge one box at a time, and a blank square with no caption is most often something else;
 * stacked down a table's rows it is the row's selector. General geometry: no word, kit or app is named.
 */
export function completeRowSelectors(candidates: readonly ElementCandidate[], shapes: readonly { readonly kind: string; readonly bbox: BBox }[], lines: readonly OcrLine[], grey: GreyImage, scale: number): ElementCandidate[] {
  const words = lines.flatMap((l) => l.words);
  const side = (b: BBox) => b[3] - b[1];
  // A selector opens its row: nothing inked in the two sides' width before it (an icon's outline further along a row is no selector).
  const opens = (b: BBox) => b[0] - 2 * side(b) < 0 || inkedColumns(grey, [b[0] - 2 * side(b), b[1], b[0] - 2, b[3]]) <= 0.1;
  const squares = shapes
    .filter((s) => s.kind === "rectangle")
    .map((s) => s.bbox)
    .filter((b) => {
      const [w, h] = [b[2] - b[0], b[3] - b[1]];
      return h >= 10 * scale && h <= 64 * scale && Math.abs(w - h) <= 0.2 * Math.max(w, h) && !words.some((x) => bboxContainsPoint(b, bboxCenter(x.bbox))) && faceMarks(grey.data, grey.width, b) <= 1 && opens(b);
    })
    .sort((a, b) => a[1] - b[1]);
  const added: BBox[] = [];
  const done = new Set<BBox>();
  for (const s of squares) {
    if (done.has(s)) continue;
    const tol = side(s) / 4;
    const column = squares.filter((o) => Math.abs(o[0] - s[0]) <= tol && Math.abs(side(o) - side(s)) <= tol);
    column.forEach((o) => done.add(o));
    if (column.length < 3 || column.some((o, i) => i > 0 && o[1] - column[i - 1]![3] < side(s) / 2)) continue;
    // What follows each square on its row: the x where its words start.
    const rests = column.map((o) => {
      const cy = (o[1] + o[3]) / 2;
      return words.filter((w) => w.bbox[0] > o[2] && Math.abs((w.bbox[1] + w.bbox[3]) / 2 - cy) <= side(o) / 2).map((w) => w.bbox[0]);
    });
    const rowsAt = (x: number) => rests.filter((r) => r.some((v) => Math.abs(v - x) <= side(s) / 3)).length;
    const best = Math.max(0, ...rests.flat().map(rowsAt));
    if (best < 3 || best * 2 < column.length) continue;
    for (const o of column) {
      if ([...candidates.map((c) => c.bbox), ...added].some((b) => bboxContainsPoint(b, bboxCenter(o)))) continue;
      added.push(o);
    }
  }
  // Named as the model's row selectors are: by the line right of the indicator (the row's first cell).
  return fuseWithOcr(added.map((bbox) => ({ type: "checkbox" as const, bbox, confidence: 0.6 })), lines).map((c) => ({ ...c, method: "heuristic_column" }));
}

/**
 * Large toggles no element holds, found from what is drawn before a caption: a blank square or disc (no word in it, one
 * mark at most: a tick, a dot) 24 to 72 px a side at scale 1 (a usual toggle's is 13–20) and 1.3 times as tall as its
 * caption's letters or more, with words starting just after it on its rows that no element holds either, becomes a
 * check box (a square) or a radio button (a disc) spanning the indicator and its caption (up to the next such indicator),
 * named by it; confidence 0.6 set by hand, as the rules' are. The model
 * boxes large toggles (an accessible form's, 1.5–2.6 times its letters) alone or not at all — it never saw one — and
 * the gate refuses an uncaptioned square; the caption drawn beside it says what it is. General geometry: no word, kit
 * or app is named.
 */
export function completeCaptionedToggles(candidates: readonly ElementCandidate[], shapes: readonly { readonly kind: string; readonly bbox: BBox }[], lines: readonly OcrLine[], grey: GreyImage, scale: number): ElementCandidate[] {
  const words = lines.flatMap((l) => l.words);
  const held = (b: BBox) => candidates.some((c) => bboxContainsPoint(c.bbox, bboxCenter(b)));
  const blank = shapes
    .filter((s) => {
      const b = s.bbox;
      const [w, h] = [b[2] - b[0], b[3] - b[1]];
      if (h < 24 * scale || h > 72 * scale || Math.abs(w - h) > 0.2 * Math.max(w, h) || words.some((x) => bboxContainsPoint(b, bboxCenter(x.bbox)))) return false;
      // (or blank within its middle: a large indicator's thick ring or border is no mark there, a tick at most two)
      return faceMarks(grey.data, grey.width, b) <= 1 || faceMarks(grey.data, grey.width, padBBox(b, -0.2 * w, -0.2 * h)) <= 2;
    })
    .sort((a, b) => (b.bbox[2] - b.bbox[0]) - (a.bbox[2] - a.bbox[0]));
  // (A ring's inner edge is a disc of its own: the outer one stands for both.)
  const indicators = blank.filter((s, i) => !blank.slice(0, i).some((o) => bboxContainsPoint(o.bbox, bboxCenter(s.bbox))));
  const added: ElementProposal[] = [];
  for (const { kind, bbox: m } of indicators) {
    if (held(m)) continue;
    const side = m[3] - m[1];
    // A table's blank cell is no indicator: its top or bottom edge runs on into the next cell.
    const runsOn = (y: number) => inkedColumns(grey, [m[2] + 2, y - 1, m[2] + 2 + 0.5 * side, y + 2]) >= 0.8;
    if (runsOn(m[1]) || runsOn(m[3])) continue;
    const onRows = (w: OcrWord) => (w.bbox[1] + w.bbox[3]) / 2 >= m[1] && (w.bbox[1] + w.bbox[3]) / 2 <= m[3];
    const next = indicators.filter((o) => o.bbox[0] >= m[2] && o.bbox[1] <= (m[1] + m[3]) / 2 && o.bbox[3] >= (m[1] + m[3]) / 2).reduce((x, o) => Math.min(x, o.bbox[0]), Infinity);
    const row = words.filter((w) => onRows(w) && w.bbox[0] >= m[2] - 2 && w.bbox[2] <= next + 2).sort((a, b) => a.bbox[0] - b.bbox[0]);
    const first = row[0];
    if (!first || held(first.bbox)) continue;
    const wh = first.bbox[3] - first.bbox[1];
    if (side < 1.3 * wh || first.bbox[0] - m[2] > Math.max(1.2 * wh, 0.8 * side)) continue;
    let [end, top, bottom] = [first.bbox[2], Math.min(m[1], first.bbox[1]), Math.max(m[3], first.bbox[3])];
    for (const w of row.slice(1)) {
      if (w.bbox[0] - end > 0.8 * wh || held(w.bbox)) break;
      [end, top, bottom] = [Math.max(end, w.bbox[2]), Math.min(top, w.bbox[1]), Math.max(bottom, w.bbox[3])];
    }
    added.push({ type: kind === "disc" ? "radio_button" : "checkbox", bbox: [m[0], top, end, bottom], confidence: 0.6 });
  }
  return fuseWithOcr(added, lines).map((c) => ({ ...c, method: "heuristic_caption_toggle" }));
}

/**
 * Switches no element holds (`switchesOf`: a round knob at one end of a track), which the model misses where a theme
 * draws them as it never saw (a knob larger than its track, a faint outline): a check box on the switch — with the
 * words that follow it on its row from a word's gap (a label wrapping its switch, named and boxed as a check box with
 * its caption), else the switch alone, named by the caption just before it on its row (a form's caption column) or, as
 * a bare indicator, after it. Not a pill a word reaches into (a button, a badge, a search field). Confidence 0.55 set by
 * hand, as the rules' are. General geometry: no word, kit or app is named.
 */
export function completeSwitches(candidates: readonly ElementCandidate[], switches: readonly BBox[], lines: readonly OcrLine[]): ElementCandidate[] {
  const words = lines.flatMap((l) => l.words);
  const held = (b: BBox) => candidates.some((c) => bboxContainsPoint(c.bbox, bboxCenter(b)) || bboxIoU(c.bbox, b) >= 0.3);
  const added: FittedProposal[] = [];
  const bare: BBox[] = [];
  for (const s of switches) {
    if (held(s) || added.some((a) => bboxContainsPoint(a.bbox, bboxCenter(s)))) continue;
    const h = s[3] - s[1];
    const cy = (s[1] + s[3]) / 2;
    const into = (w: OcrWord) => overlap(w.bbox[0], w.bbox[2], s[0], s[2]) > 0.3 * (w.bbox[2] - w.bbox[0]) && overlap(w.bbox[1], w.bbox[3], s[1], s[3]) > 0.5 * (w.bbox[3] - w.bbox[1]);
    if (words.some(into)) continue;
    const row = words.filter((w) => Math.abs((w.bbox[1] + w.bbox[3]) / 2 - cy) <= 0.5 * h && w.bbox[0] >= s[2] - 2).sort((a, b) => a.bbox[0] - b.bbox[0]);
    const caption: OcrWord[] = [];
    let [end, top, bottom] = [s[2], s[1], s[3]];
    for (const w of row) {
      const wh = w.bbox[3] - w.bbox[1];
      if (w.bbox[0] - end > (caption.length ? 0.8 * wh : Math.max(1.2 * wh, 0.5 * h)) || held(w.bbox)) break;
      caption.push(w);
      [end, top, bottom] = [Math.max(end, w.bbox[2]), Math.min(top, w.bbox[1]), Math.max(bottom, w.bbox[3])];
    }
    if (caption.length) added.push({ type: "checkbox", bbox: [s[0], top, end, bottom], confidence: 0.55, caption });
    else {
      added.push({ type: "checkbox", bbox: s, confidence: 0.55 });
      bare.push(s);
    }
  }
  const free = lines.filter((l) => !held(l.bbox));
  return fuseWithOcr(added, lines).map((c) => {
    if (!bare.includes(c.bbox)) return { ...c, method: "heuristic_switch" };
    // A bare switch: the caption no element holds ending just before it on its row (within three letters' heights), else
    // one starting just after it.
    const caption = captionOf(c.bbox, free, "left", 3) ?? captionOf(c.bbox, free, "right", 3);
    return { ...c, label: caption?.text.replace(/\s*:\s*$/u, "") ?? "", method: "heuristic_switch" };
  });
}

/**
 * The space left and right of what is inked in a box's middle rows (its outer quarter-heights aside, where a border and
 * rounded corners are drawn), in pixels; undefined when nothing is inked there.
 */
export function inkGaps(grey: GreyImage, box: BBox): { left: number; right: number } | undefined {
  const h = box[3] - box[1];
  const flags = inkedColumnFlags(grey, [box[0] + 0.25 * h, box[1] + 0.25 * h, box[2] - 0.25 * h, box[3] - 0.25 * h], 48);
  const first = flags?.indexOf(true) ?? -1;
  return flags && first >= 0 ? { left: first, right: flags.length - 1 - flags.lastIndexOf(true) } : undefined;
}

/**
 * A wide button on a drawn rectangle (its edges those of the face) whose text sits at its left, far from its right end
 * (or runs into it, cut), is a field showing its value: a button centres its face. Retyped text_input; the caller names
 * it by its caption (captionOfField).
 */
export function retypeLeftAlignedButtons<C extends { type: string; bbox: BBox }>(candidates: readonly C[], shapes: readonly { readonly kind: string; readonly bbox: BBox }[], grey: GreyImage, scale: number): C[] {
  return candidates.map((c) => {
    const [w, h] = [c.bbox[2] - c.bbox[0], c.bbox[3] - c.bbox[1]];
    if (c.type !== "button" || w < 3.5 * h || h < 18 * scale || h > 80 * scale) return c;
    if (!shapes.some((s) => s.kind === "rectangle" && bboxIoU(s.bbox, c.bbox) >= 0.9)) return c;
    const g = inkGaps(grey, c.bbox);
    if (!g || g.left > 0.8 * h) return c;
    const leftAligned = g.right - g.left >= Math.max(0.5 * h, g.left);
    const cut = g.right <= 0.1 * h && g.left >= 0.3 * h;
    return leftAligned || cut ? { ...c, type: "text_input" } : c;
  });
}

/**
 * Whether a field (two heights wide or more) shows a drop-down's arrow at its right end: the rightmost mark inked there
 * (its right 1.3 heights, inside the border; marks are what stands 40 grey levels off the end's median and touches none
 * of its sides, a border's or a button's bevel aside) points down — at least 1.3 times as wide as tall and 3 px tall or
 * more, its bottom third's rows at most 0.6 of its top third's width (a triangle ▼, a chevron ⌄) — with no other mark
 * above or below it, or it is the lower of a ⇕: an unframed ▲ close over it, alike in width and centred on it (a select's
 * up-down arrows; a spin box's ▲▼ sit on buttons whose bevels are marks too, and fail) — and a gap of a third of the
 * height lies before the next mark left of them (text). A spin box's − + fails (a bar, a cross).
 */
export function downArrowAtRight(grey: GreyImage, box: BBox, scale: number): boolean {
  const h = box[3] - box[1];
  if (h < 12 * scale || box[2] - box[0] < 2 * h) return false;
  const [x0, x1] = [Math.round(Math.max(box[0], box[2] - 1.3 * h)), Math.round(box[2] - 0.1 * h)];
  const [y0, y1] = [Math.round(box[1] + 0.12 * h), Math.round(box[3] - 0.12 * h)];
  const height = Math.floor(grey.data.length / grey.width);
  if (x0 < 0 || y0 < 0 || x1 > grey.width || y1 > height || x1 - x0 < 4 || y1 - y0 < 4) return false;
  const [W, H] = [x1 - x0, y1 - y0];
  const vals: number[] = [];
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) vals.push(grey.data[y * grey.width + x]!);
  const bg = median(vals);
  const mask = new Uint8Array(W * H);
  vals.forEach((v, i) => (mask[i] = Math.abs(v - bg) >= 40 ? 1 : 0));
  const marks = connectedComponents(mask, W, H).filter((c) => c.pixels >= 3 && c.x1 > 0 && c.y1 > 0 && c.x2 < W && c.y2 < H);
  if (!marks.length) return false;
  type Mark = (typeof marks)[number];
  const rightmost = marks.reduce((a, b) => (b.x2 > a.x2 ? b : a));
  // The marks in the rightmost one's column: itself alone (▼, ⌄), or a ▲ over a ▼ (⇕).
  const column = marks.filter((m) => overlap(m.x1, m.x2, rightmost.x1, rightmost.x2) > 0).sort((a, b) => a.y1 - b.y1);
  if (column.length > 2) return false;
  const left = Math.min(...column.map((m) => m.x1));
  if (marks.some((m) => !column.includes(m) && left - m.x2 < h / 3)) return false;
  /** The summed widths of a mark's top and bottom thirds (rows of the mask within its box). */
  const thirds = (m: Mark) => {
    const extent = (y: number) => {
      let lo = -1;
      let hi = -1;
      for (let x = m.x1; x < m.x2; x++) {
        if (!mask[y * W + x]) continue;
        if (lo < 0) lo = x;
        hi = x;
      }
      return lo < 0 ? 0 : hi - lo + 1;
    };
    const third = Math.max(1, Math.floor((m.y2 - m.y1) / 3));
    let top = 0;
    let bottom = 0;
    for (let k = 0; k < third; k++) {
      top += extent(m.y1 + k);
      bottom += extent(m.y2 - 1 - k);
    }
    return { top, bottom };
  };
  const [aw, ah] = [rightmost.x2 - rightmost.x1, rightmost.y2 - rightmost.y1];
  if (column.length === 1) {
    if (ah < 3 || aw < 1.3 * ah) return false;
    const { top, bottom } = thirds(rightmost);
    return bottom <= 0.6 * top;
  }
  // ⇕: two marks stacked close, alike in width and centred on one another, the upper pointing up, the lower down (their
  // mirrored pair is evidence enough to let each be as tall as wide).
  const [up, down] = column as [Mark, Mark];
  const [uw, uh, dw, dh] = [up.x2 - up.x1, up.y2 - up.y1, down.x2 - down.x1, down.y2 - down.y1];
  if (uh < 2 || dh < 2 || uw < 0.9 * uh || dw < 0.9 * dh || up.y2 > down.y1 || down.y1 - up.y2 > Math.max(uh, dh)) return false;
  if (Math.max(uw, dw) > 1.4 * Math.min(uw, dw) || Math.abs(up.x1 + up.x2 - down.x1 - down.x2) / 2 > 0.25 * Math.max(uw, dw)) return false;
  const [u, d] = [thirds(up), thirds(down)];
  return u.top <= 0.6 * u.bottom && d.bottom <= 0.6 * d.top;
}

/** A field whose right end shows a drop-down's arrow ({@link downArrowAtRight}) is a drop-down. */
export function retypeArrowedFields<C extends { type: string; bbox: BBox }>(candidates: readonly C[], grey: GreyImage, scale: number): C[] {
  return candidates.map((c) => (c.type === "text_input" && downArrowAtRight(grey, c.bbox, scale) ? { ...c, type: "dropdown" } : c));
}

/** What an element's face shows, read in order: a field showing its value ({@link retypeLeftAlignedButtons}), then a drop-down's arrow ({@link retypeArrowedFields}). */
export function retypeByFace<C extends { type: string; bbox: BBox }>(candidates: readonly C[], shapes: readonly { readonly kind: string; readonly bbox: BBox }[], grey: GreyImage, scale: number): C[] {
  return retypeArrowedFields(retypeLeftAlignedButtons(candidates, shapes, grey, scale), grey, scale);
}
