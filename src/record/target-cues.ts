// What the builder keeps about a target besides its label, so replay can find it by every cue:
// the caption that names a field, nearby texts with their offsets, the box relative to the window,
// the UI scale (text height), an icon crop that can match (taken without the pointer's hover,
// clipped to the window, refused when flat), and a variable name from the caption corrected
// against the word lists instead of raw OCR.
import { cropFrame, screenToFrame, type Frame } from "../core/frame.js";
import type { BBox, Point } from "../core/geometry.js";
import { bboxCenter, bboxContainsPoint, padBBox } from "../core/geometry.js";
import { foldText, stripAccelerators } from "../core/text.js";
import { greyContrast, matchIcon } from "../perception/icon-match.js";
import { captionOf as lineCaption } from "../perception/learned-fusion.js";

export interface TextLine {
  readonly text: string;
  readonly bbox: BBox;
}

/** Grey standard deviation under which a crop is too flat to ever match (an empty area, a canvas). */
export const MIN_ICON_STD = 12;

/** Median height of the text lines of a screen (the UI scale), undefined without text. */
export function medianTextHeight(lines: readonly TextLine[]): number | undefined {
  const hs = lines.filter((l) => l.text.trim().length > 1).map((l) => l.bbox[3] - l.bbox[1]).sort((a, b) => a - b);
  return hs.length ? hs[hs.length >> 1] : undefined;
}

/** A caption reads like one: words, maybe a colon, not a value typed into a field. */
function captionText(t: string): string {
  return stripAccelerators(t).replace(/\s*[:：*]+\s*$/, "").trim();
}

/**
 * The text naming a control at `box`: left of it on its row or just above it overlapping it in x (a form's caption),
 * whichever is nearer (a gap above counts double: a row's caption wins a tie); for a check box or radio button, right
 * of it within four text heights. Undefined when none. The geometry is perception's (`captionOf`), one rule for both.
 */
export function captionOf(box: BBox, type: string, lines: readonly TextLine[]): { text: string; bbox: BBox } | undefined {
  const named = lines.filter((l) => captionText(l.text).length > 0);
  let best: TextLine | undefined;
  if (type === "checkbox" || type === "radio_button") best = lineCaption(box, named, "right", 4);
  else {
    const left = lineCaption(box, named, "left");
    const above = lineCaption(box, named, "above");
    const gap = (l: TextLine | undefined, g: (l: TextLine) => number) => (l ? Math.max(0, g(l)) : Infinity);
    best = gap(left, (l) => box[0] - l.bbox[2]) <= gap(above, (l) => (box[1] - l.bbox[3]) * 2) ? left : above;
  }
  return best ? { text: captionText(best.text), bbox: best.bbox } : undefined;
}

/**
 * Offset of a text's centre from a point, rounded (window pixels), and the text's width: the same
 * words read at replay give the UI scale by their width (steadier than line heights, which vary
 * with accents and descenders).
 */
export function offsetFrom(point: Point, b: BBox): { dx: number; dy: number; w: number } {
  const c = bboxCenter(b);
  return { dx: Math.round(c[0] - point[0]), dy: Math.round(c[1] - point[1]), w: Math.round(b[2] - b[0]) };
}

/** The nearest texts around a target (not its own label), with their offsets, nearest first. */
export function anchorOffsets(center: Point, own: BBox | undefined, exclude: readonly string[], lines: readonly TextLine[], max = 4): { text: string; dx: number; dy: number; w: number }[] {
  return lines
    .filter((l) => l.text.trim().length > 1 && !exclude.includes(l.text) && !(own && bboxContainsPoint(own, bboxCenter(l.bbox))))
    .map((l) => ({ l, d: Math.hypot(bboxCenter(l.bbox)[0] - center[0], bboxCenter(l.bbox)[1] - center[1]) }))
    .filter((x) => x.d < 300)
    .sort((a, b) => a.d - b.d || a.l.text.localeCompare(b.l.text))
    .slice(0, max)
    .map((x) => ({ text: x.l.text.trim(), ...offsetFrom(center, x.l.bbox) }));
}

/**
 * A label that cannot name the target: empty, or one or two characters that are not a word (an
 * icon-only button read by OCR as « v », « y », « ▼ », « + », a floppy disk read « 8 » or « B »).
 * Such a target is named by its icon. A lone digit counts too: OCR reads icons as digits as
 * readily as letters, and a digit button keeps its icon crop, which matches it as well.
 */
export function meaninglessLabel(label: string): boolean {
  const t = label.trim();
  if (!t) return true;
  const letters = t.replace(/[^\p{L}\p{N}]/gu, "");
  if (letters.length === 0) return true;
  if (t.length === 1) return true;
  if (/^\d+$/.test(t)) return false;
  // Two letters in one case pattern name buttons everywhere (« OK », « No », « Go »); an icon misread
  // by OCR gives one character or a letter with a symbol.
  if (t.length === 2) return !/^(\p{Lu}{2}|\p{Lu}\p{Ll})$/u.test(t);
  return false;
}

export interface IconCrop {
  frame: Frame;
  /** Screen box of the crop. */
  box: BBox;
  std: number;
  /** Where it was taken: the screen before the pointer came, or the one at the press. */
  source: "before_pointer" | "at_press";
}

/**
 * The icon crop of a target: its element's box (with a margin) or 80×80 around the point, clipped
 * to the window's client area (never its title bar or another window), from the frame without
 * the pointer's hover when there is one (`calm`: the screen before the pointer arrived, kept only
 * when the target's surroundings look the same there, so nothing else changed but the hover).
 * Undefined when the crop is flat (nothing to match): the caller picks another cue.
 */
export function iconCrop(at: Frame, calm: Frame | undefined, point: Point, element: BBox | undefined, window: BBox | undefined): IconCrop | { flat: true; std: number } {
  let box: BBox = element && element[2] - element[0] <= 120 && element[3] - element[1] <= 80 ? padBBox(element, 4) : padBBox([point[0], point[1], point[0], point[1]], 40);
  if (window) box = [Math.max(box[0], window[0]), Math.max(box[1], window[1]), Math.min(box[2], window[2]), Math.min(box[3], window[3])];
  box = [Math.max(0, box[0]), Math.max(0, box[1]), Math.min(at.width / at.scaleFactor, box[2]), Math.min(at.height / at.scaleFactor, box[3])];
  const toFrame = (f: Frame): BBox => {
    const a = screenToFrame(f, [box[0], box[1]]);
    const b = screenToFrame(f, [box[2], box[3]]);
    return [Math.max(0, a[0]), Math.max(0, a[1]), Math.min(f.width, b[0]), Math.min(f.height, b[1])];
  };
  const fb = toFrame(at);
  if (fb[2] - fb[0] < 8 || fb[3] - fb[1] < 8) return { flat: true, std: 0 };
  const pressCrop = cropFrame(at, fb);
  let chosen: IconCrop = { frame: pressCrop, box, std: greyContrast(pressCrop).std, source: "at_press" };
  if (calm && calm.width === at.width && calm.height === at.height) {
    const calmCrop = cropFrame(calm, toFrame(calm));
    // Hover changes a tint; a new dialog or another page changes most pixels.
    if (calmCrop.width === pressCrop.width && calmCrop.height === pressCrop.height && meanAbsDiff(calmCrop, pressCrop) < 24) chosen = { frame: calmCrop, box, std: greyContrast(calmCrop).std, source: "before_pointer" };
  }
  return chosen.std < MIN_ICON_STD ? { flat: true, std: chosen.std } : chosen;
}

/** Correlation at or above which an icon found elsewhere is taken for the target at replay (grounding's bar). */
export const ICON_REPEAT = 0.85;

/**
 * Where else in its window (frame `at`, screen box `window`) the crop matches as well as replay would take it: the best
 * match at least half a crop away from where it was taken, when its correlation reaches {@link ICON_REPEAT} — an empty
 * field's crop matches every empty field of a form, a crop that cannot tell its target apart.
 */
export function iconRepeats(at: Frame, crop: IconCrop, window: BBox | undefined): { score: number; bbox: BBox } | undefined {
  const area = window ?? [0, 0, at.width / at.scaleFactor, at.height / at.scaleFactor];
  const a = screenToFrame(at, [Math.max(0, area[0]), Math.max(0, area[1])]);
  const b = screenToFrame(at, [area[2], area[3]]);
  const region: BBox = [a[0], a[1], Math.min(at.width, b[0]), Math.min(at.height, b[1])];
  if (region[2] - region[0] < 2 * crop.frame.width && region[3] - region[1] < 2 * crop.frame.height) return undefined;
  const win = cropFrame(at, region);
  // The crop's own place, grown by half its size each way, painted flat: nothing there can match.
  const own = screenToFrame(at, [crop.box[0], crop.box[1]]);
  const hw = crop.frame.width / 2;
  const hh = crop.frame.height / 2;
  const x0 = Math.max(0, Math.floor(own[0] - region[0] - hw));
  const y0 = Math.max(0, Math.floor(own[1] - region[1] - hh));
  const x1 = Math.min(win.width, Math.ceil(own[0] - region[0] + crop.frame.width + hw));
  const y1 = Math.min(win.height, Math.ceil(own[1] - region[1] + crop.frame.height + hh));
  const c = win.channels;
  for (let y = y0; y < y1; y++) win.data.fill(128, (y * win.width + x0) * c, (y * win.width + x1) * c);
  const m = matchIcon(win, crop.frame, { scales: [1], allowInverted: false });
  return m && m.score >= ICON_REPEAT ? { score: Math.round(m.score * 100) / 100, bbox: m.bbox } : undefined;
}

function meanAbsDiff(a: Frame, b: Frame): number {
  let s = 0;
  const n = Math.min(a.data.length, b.data.length);
  for (let i = 0; i < n; i++) s += Math.abs(a.data[i]! - b.data[i]!);
  return n ? s / n : 255;
}

/** A word list: does it know this word (any case, accents or not)? */
export interface WordList {
  knows(word: string): boolean;
}

// OCR confusions, both ways: "mm" read "nn", "rn" read "m", "l" read "1"…
const CONFUSIONS: readonly (readonly [string, string])[] = [["n", "m"], ["rn", "m"], ["nn", "m"], ["l", "i"], ["1", "l"], ["1", "i"], ["0", "o"], ["5", "s"], ["cl", "d"], ["vv", "w"], ["u", "v"], ["c", "e"], ["ii", "u"], ["rn", "n"], ["h", "b"]];

/** One OCR-confusion replacement anywhere in `w`, both directions. */
function confusionVariants(w: string): string[] {
  const out: string[] = [];
  for (const [a, b] of CONFUSIONS)
    for (const [from, to] of [[a, b], [b, a]] as const)
      for (let i = w.indexOf(from); i >= 0; i = w.indexOf(from, i + 1)) out.push(w.slice(0, i) + to + w.slice(i + from.length));
  return out;
}

/**
 * A token of a caption as the word lists spell it: kept when known (or short, like « HT », « TVA »,
 * or with digits); else the known word one or two OCR confusions away (« connande » → « commande »);
 * else kept as read. A lone letter is dropped (« € » read as « e », a stray mark).
 */
export function correctToken(token: string, words: WordList): string | undefined {
  const t = foldText(token);
  if (t.length === 1) return /\d/.test(t) ? t : undefined;
  if (words.knows(t) || t.length <= 3 || /\d/.test(t)) return t;
  const one = confusionVariants(t);
  const hit1 = one.filter((v) => words.knows(v)).sort();
  if (hit1.length) return hit1[0];
  const hit2 = [...new Set(one.flatMap(confusionVariants))].filter((v) => words.knows(v)).sort();
  return hit2[0] ?? t;
}

/** A variable name from a caption: tokens corrected against the word lists, snake case, ≤ 32 chars. */
export function variableNameFrom(caption: string, words: WordList | undefined): string {
  const tokens = foldText(caption)
    .replace(/[€$£%]/g, " ")
    .split(/[^a-z0-9]+/)
    .filter((t) => t.length > 0);
  const kept = words ? tokens.map((t) => correctToken(t, words)).filter((t): t is string => !!t) : tokens;
  let s = "";
  for (const t of kept) {
    const next = s ? `${s}_${t}` : t;
    if (next.length > 32) break;
    s = next;
  }
  return /^[a-z]/.test(s) ? s : s ? `v_${s}` : "";
}
