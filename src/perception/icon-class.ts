// What an icon-only target shows, by the icon recognizer (the icon classifier): recorded with the
// target (« save », « settings »…) so that replay can tell its icon from another one drawn at the same
// place, and find it when an icon theme, a style or the UI scale redrew it and the layout changed too.
// A class counts only when the recognizer is sure of it: P ≥ 0.5 and not « other ».
import type { Frame } from "../core/frame.js";
import { bboxCenter, bboxContainsPoint, type BBox } from "../core/geometry.js";
import type { IconRecognizer, IconScores } from "../core/providers/icon-recognizer.js";
import { elementAppearance } from "./element-appearance.js";
import { iconProposals } from "./icon-proposals.js";

/** Probability a class needs to name an icon (the bar `locate` uses for described icons). */
export const ICON_CLASS_MIN_P = 0.5;

/** The class the scores name surely (P ≥ 0.5, not « other »), with its probability. */
export function sureClass(scores: IconScores | undefined): { name: string; p: number } | undefined {
  if (!scores) return undefined;
  let best: { name: string; p: number } | undefined;
  for (const [name, p] of Object.entries(scores)) if (name !== "other" && p >= ICON_CLASS_MIN_P && (!best || p > best.p)) best = { name, p };
  return best;
}

/** The ink box of the icon inside an element's box (its glyph), when one is drawn there. */
export function glyphIn(frame: Frame, box: BBox): BBox | undefined {
  return elementAppearance(frame, box, true).glyph?.bbox;
}

/** The recognizer's scores for the icon in `box` (an icon-only element), when an icon is drawn there. */
export async function iconScoresAt(frame: Frame, box: BBox, recognizer: IconRecognizer, signal?: AbortSignal): Promise<IconScores | undefined> {
  const glyph = glyphIn(frame, box);
  if (!glyph) return undefined;
  const [scores] = await recognizer.recognize(frame, [glyph], signal);
  return scores;
}

/** What the icon in `box` (an icon-only element) shows, when the recognizer is sure of it. */
export async function iconClassAt(frame: Frame, box: BBox, recognizer: IconRecognizer, signal?: AbortSignal): Promise<{ name: string; p: number } | undefined> {
  return sureClass(await iconScoresAt(frame, box, recognizer, signal));
}

/** Below this probability of its recorded class, an icon the recognizer surely names otherwise is another icon. */
export const ICON_CLASS_REFUTED_P = 0.1;

/**
 * Whether the icon in `box` is surely not one showing `name`: the recognizer names another class (P ≥ 0.5) and gives
 * `name` less than 0.1 — a redrawn icon it hesitates on is not refused. Returns what it saw there, or undefined.
 */
export async function otherIconAt(frame: Frame, box: BBox, name: string, recognizer: IconRecognizer, signal?: AbortSignal): Promise<{ name: string; p: number } | undefined> {
  const scores = await iconScoresAt(frame, box, recognizer, signal);
  const seen = sureClass(scores);
  return seen && seen.name !== name && (scores?.[name] ?? 0) < ICON_CLASS_REFUTED_P ? seen : undefined;
}

/** The smallest icon-sized blob under a point (frame pixels): the icon clicked where no element bounds it. */
export function iconUnder(frame: Frame, point: readonly [number, number]): BBox | undefined {
  const under = iconProposals(frame, []).filter((b) => bboxContainsPoint(b, point));
  return under.sort((a, b) => (a[2] - a[0]) * (a[3] - a[1]) - (b[2] - b[0]) * (b[3] - b[1]))[0];
}

/**
 * What the icon under a point shows, when the recognizer is sure of it: the blob under it (`iconUnder`; a button's
 * outline drawn around its icon is one blob with it) read as an icon-only element — its glyph, else the blob itself.
 */
export async function iconClassUnder(frame: Frame, point: readonly [number, number], recognizer: IconRecognizer, signal?: AbortSignal): Promise<{ name: string; p: number } | undefined> {
  const blob = iconUnder(frame, point);
  if (!blob) return undefined;
  const [scores] = await recognizer.recognize(frame, [glyphIn(frame, blob) ?? blob], signal);
  return sureClass(scores);
}

export interface IconShowing {
  /** The element's box, or the icon's own box when no element holds it. */
  readonly bbox: BBox;
  readonly p: number;
}

/**
 * The icons on a frame that show `name` (P ≥ 0.5): the glyphs of the elements with no word for a
 * label (icon-only buttons) and the icon-sized blobs no element or line of text covers.
 */
export async function iconsShowing(
  frame: Frame,
  name: string,
  elements: readonly { bbox: BBox; label: string }[],
  lines: readonly { bbox: BBox }[],
  recognizer: IconRecognizer,
  signal?: AbortSignal,
): Promise<IconShowing[]> {
  const iconOnly = elements.filter((e) => e.label.trim().length <= 2);
  const occupied = [...elements.map((e) => e.bbox), ...lines.map((l) => l.bbox)];
  const candidates: Array<{ bbox: BBox; glyph: BBox }> = [];
  for (const e of iconOnly) {
    const glyph = glyphIn(frame, e.bbox);
    if (glyph) candidates.push({ bbox: e.bbox, glyph });
  }
  // A blob may be a button's outline with its icon inside: its glyph is read, else the blob itself.
  for (const b of iconProposals(frame, occupied)) if (!iconOnly.some((e) => bboxContainsPoint(e.bbox, bboxCenter(b)))) candidates.push({ bbox: b, glyph: glyphIn(frame, b) ?? b });
  if (candidates.length === 0) return [];
  const scores: IconScores[] = [];
  for (let k = 0; k < candidates.length; k += 256) scores.push(...(await recognizer.recognize(frame, candidates.slice(k, k + 256).map((c) => c.glyph), signal)));
  return candidates.flatMap((c, i) => {
    const p = scores[i]?.[name] ?? 0;
    return p >= ICON_CLASS_MIN_P ? [{ bbox: c.bbox, p }] : [];
  });
}
