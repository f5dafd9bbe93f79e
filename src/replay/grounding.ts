// Grounding a recorded target on the live screen (plan, MICRO), in order:
//   1. element match: the detected elements and on-screen text, scored by label, type and
//      position hint (perception's `locate`); a tie is broken by the anchors (words read near
//      the target at recording time), else reported as ambiguous;
//   2. icon template: the recorded 80×80 crop, normalized cross-correlation ≥ 0.90;
//   3. an icon-only target recorded with what its icon shows (`icon_class`), given an icon recognizer: the icon that
//      shows it, one alone or the one nearest its recorded place by far; and a place found for such a target
//      otherwise (layout, cues, a crop that only resembles it there) is refused when the icon there surely shows
//      something else;
//   4. the VLM hook, when one is given.
// Every box here is in frame pixels; the executor converts to screen points in one place.
import type { Frame } from "../core/frame.js";
import type { BBox, Point } from "../core/geometry.js";
import { bboxCenter, bboxContainsPoint, parsePositionHint } from "../core/geometry.js";
import { stripAccelerators } from "../core/text.js";
import type { VlmEvidence, VlmGrounder } from "../core/providers/vlm.js";
import type { IconRecognizer } from "../core/providers/icon-recognizer.js";
import type { Target } from "../core/schemas/workflow.js";
import type { UIElement } from "../core/schemas/uielement.js";
import { matchIcon } from "../perception/icon-match.js";
import { expectedPlace, groundByCues, singleRow } from "./cue-grounding.js";
import { iconsShowing, iconUnder, otherIconAt } from "../perception/icon-class.js";
import { clickPoint, locate, sameLabelInOrder, textSimilarity, textTargets, type LocateCandidate, type LocatableElement, type Verb } from "../perception/locate.js";

export interface PerceivedScreen {
  readonly elements: readonly UIElement[];
  readonly lines: readonly { text: string; bbox: BBox; words?: readonly { text: string; bbox: BBox }[] }[];
  /** Where perception spent its time (ms by stage; the trace keeps them), when the perceiver says. */
  readonly timings?: Readonly<Record<string, number>>;
}

export type GroundMethod = "element" | "icon" | "region" | "vlm";

export type Grounding =
  | { readonly found: true; readonly method: GroundMethod; readonly bbox: BBox; readonly point: Point; readonly score: number; readonly ambiguous: boolean; readonly candidates: readonly LocateCandidate[]; readonly note: string; readonly vlm?: VlmEvidence }
  | { readonly found: false; readonly reason: string; readonly candidates: readonly LocateCandidate[] };

export interface GroundOptions {
  /** The label as this run's data writes it (a tab named after the file being processed). */
  label?: string;
  verb?: Verb;
  /** The recorded icon crop, when the target has one. */
  icon?: Frame;
  vlm?: VlmGrounder;
  /** Names what icons show: an icon-only target recorded with its icon's class is checked and found by it. */
  icons?: IconRecognizer;
  /** Icon correlation needed (plan: 0.90). */
  iconThreshold?: number;
  /** Label similarity needed to act on an element (default 0.7). */
  minTextScore?: number;
  /** Frame boxes of fields this row's earlier steps found for other recorded fields (see `CueOptions.taken`). */
  taken?: readonly BBox[];
  signal?: AbortSignal;
}

/** Mean distance from a box to the nearest line matching each anchor (Infinity when none is seen). */
function anchorDistance(b: BBox, anchors: readonly string[], lines: PerceivedScreen["lines"]): number {
  if (anchors.length === 0) return 0;
  const [cx, cy] = bboxCenter(b);
  let total = 0;
  let seen = 0;
  for (const a of anchors) {
    const near = lines.filter((l) => textSimilarity(a, l.text) >= 0.8).map((l) => Math.hypot(bboxCenter(l.bbox)[0] - cx, bboxCenter(l.bbox)[1] - cy));
    if (near.length === 0) continue;
    total += Math.min(...near);
    seen++;
  }
  return seen === 0 ? Infinity : total / seen;
}

/** Targets whose own text is not where a click goes: a field's text is its value, a box's label is beside its square. */
const AIM_AT_BOX: ReadonlySet<string> = new Set(["text_input", "dropdown", "checkbox", "radio_button"]);

/**
 * Where a click on a target named by its text aims: the centre of the words that name it, when they
 * lie inside the grounded box. A detector's box can reach past its text (a menu bar's item padded
 * down onto a bar drawn under the menu bar): the text is the part of the box surely on the target.
 * Undefined when no run of words inside the box reads as the label (similarity ≥ 0.8).
 */
export function aimAtText(bbox: BBox, label: string, lines: PerceivedScreen["lines"]): Point | undefined {
  const n = label.trim().split(/\s+/).filter(Boolean).length;
  if (n === 0) return undefined;
  let best: { score: number; box: BBox } | undefined;
  for (const l of lines) {
    const words = (l.words?.length ? l.words : [{ text: l.text, bbox: l.bbox }]).filter((w) => bboxContainsPoint(bbox, bboxCenter(w.bbox)));
    for (let i = 0; i < words.length; i++)
      for (let j = i + 1; j <= Math.min(words.length, i + n + 1); j++) {
        const run = words.slice(i, j);
        const score = textSimilarity(label, run.map((w) => w.text).join(" "));
        if (score >= 0.8 && (!best || score > best.score)) best = { score, box: [run[0]!.bbox[0], Math.min(...run.map((w) => w.bbox[1])), run.at(-1)!.bbox[2], Math.max(...run.map((w) => w.bbox[3]))] };
      }
  }
  return best ? bboxCenter(best.box) : undefined;
}

export async function groundTarget(target: Target, frame: Frame, screen: PerceivedScreen, opts: GroundOptions = {}): Promise<Grounding> {
  const g = await groundOnce(target, frame, screen, opts);
  if (!g.found || g.method !== "element" || AIM_AT_BOX.has(target.type ?? "")) return g;
  const label = stripAccelerators(opts.label ?? target.by_text ?? target.label);
  const point = aimAtText(g.bbox, label, screen.lines);
  return point && (Math.abs(point[0] - g.point[0]) > 0.5 || Math.abs(point[1] - g.point[1]) > 0.5) ? { ...g, point, note: `${g.note}; aimed at its text` } : g;
}

async function groundOnce(target: Target, frame: Frame, screen: PerceivedScreen, opts: GroundOptions): Promise<Grounding> {
  const label = stripAccelerators(opts.label ?? target.by_text ?? target.label);
  let candidates: readonly LocateCandidate[] = [];
  let reason = "the target has no label to look for";
  // A target recorded with all its cues is grounded by all of them; older ones as before.
  const cued = groundByCues(target, frame, screen, { ...(opts.label !== undefined ? { label: opts.label } : {}), ...(opts.icon ? { icon: opts.icon } : {}), ...(opts.iconThreshold !== undefined ? { iconThreshold: opts.iconThreshold } : {}), ...(opts.taken ? { taken: opts.taken } : {}) });
  // The recorded class is read from a file: only one of the recognizer's own classes is looked for.
  const iconClass = target.icon_class && opts.icons?.classes.includes(target.icon_class) ? target.icon_class : undefined;
  // An icon-only target must not be another icon: placed by layout, by cues or by a crop that only resembles it at its
  // recorded place (another theme's icon there can), the recognizer says what the icon there shows.
  let refused: string | undefined;
  if (cued?.found && iconClass && opts.icons) {
    // A region (the recorded place itself) is read as the icon under the point to be clicked.
    const at = cued.method === "region" ? (iconUnder(frame, cued.point) ?? cued.bbox) : cued.bbox;
    const there = await otherIconAt(frame, at, iconClass, opts.icons, opts.signal);
    if (there) refused = `the icon found by its place shows « ${there.name} » (P ${there.p.toFixed(2)}), not « ${iconClass} » as recorded`;
  }
  if (cued?.found && !refused) return cued;
  if (cued) {
    candidates = cued.candidates;
    reason = refused ?? (cued.found ? reason : cued.reason);
  }
  if (label && !cued) {
    const elements: LocatableElement[] = [...screen.elements, ...textTargets(screen.lines, singleRow(screen))];
    const position = target.position_hint ? parsePositionHint(target.position_hint) : undefined;
    const r = locate({ verb: opts.verb ?? "click", target: label, ...(target.type ? { type: target.type } : {}), ...(position ? { position } : {}) }, elements, frame);
    candidates = r.candidates;
    // Replay acts on what it finds: a label that only shares a word ("Ctrl+A" for "Ctrl+O Open…") is not the target.
    // A run of words inside a longer line that names the target ("Open…" in a line OCR merged
    // with the next menu row) counts: locate narrowed the box to it.
    const narrowed = r.found && r.candidates[0] && r.bbox.some((v, i) => Math.abs(v - r.candidates[0]!.bbox[i]!) > 0.5);
    const close = r.found && (narrowed || (r.candidates[0]?.text_score ?? 0) >= (opts.minTextScore ?? 0.7));
    if (r.found && !close) reason = `the best match « ${r.candidates[0]?.label} » is too far from « ${label} » (text ${r.candidates[0]?.text_score})`;
    else if (!r.found) reason = r.reason;
    if (r.found && close && target.ordinal && target.ordinal.count > 1) {
      // Equal labels recorded: the same rank among them, in reading order ("the 2nd « checkbutton »").
      const best = r.candidates[0]!;
      const same = sameLabelInOrder(elements, label);
      // The rank holds only when there are as many of them as when recorded; otherwise the anchors decide (below).
      const pick = same.length === target.ordinal.count ? same[target.ordinal.index] : undefined;
      if (pick) return { found: true, method: "element", bbox: pick.bbox, point: clickPoint(pick.type ?? "", pick.bbox), score: best.score, ambiguous: false, candidates, note: `« ${label} » ${target.ordinal.index + 1} of ${same.length} in reading order` };
      if (same.length > 1) {
        const ranked = same.map((c) => ({ c, d: anchorDistance(c.bbox, target.anchors, screen.lines) })).sort((a, b) => a.d - b.d);
        const [first, second] = ranked;
        if (first && Number.isFinite(first.d) && (!second || second.d - first.d > 20))
          return { found: true, method: "element", bbox: first.c.bbox, point: clickPoint(first.c.type ?? "", first.c.bbox), score: best.score, ambiguous: false, candidates, note: `${same.length} « ${label} » (${target.ordinal.count} when recorded): chosen by the nearby words` };
        return { found: true, method: "element", bbox: best.bbox, point: clickPoint(best.type, best.bbox), score: best.score, ambiguous: true, candidates, note: `ambiguous: ${same.length} « ${label} » where ${target.ordinal.count} were recorded, and the nearby words do not tell them apart` };
      }
    }
    if (r.found && close) {
      if (!r.ambiguous) return { found: true, method: "element", bbox: r.bbox, point: r.point, score: r.score, ambiguous: false, candidates, note: `element « ${candidates[0]?.label ?? label} » (${candidates[0]?.type ?? "?"})` };
      // Equal labels: the one nearest to the words recorded around the target.
      const tied = r.candidates.filter((c) => r.candidates[0]!.score - c.score < 0.05 && c.text_score >= 0.5);
      const ranked = tied.map((c) => ({ c, d: anchorDistance(c.bbox, target.anchors, screen.lines) })).sort((a, b) => a.d - b.d);
      const first = ranked[0];
      const second = ranked[1];
      if (first && Number.isFinite(first.d) && (!second || second.d - first.d > 20)) {
        const bbox = first.c.element_id === r.element_id ? r.bbox : first.c.bbox;
        return { found: true, method: "element", bbox, point: clickPoint(first.c.type, bbox), score: first.c.score, ambiguous: false, candidates, note: `${tied.length} elements « ${label} »; chosen by the nearby words ${target.anchors.map((a) => `« ${a} »`).join(", ")}` };
      }
      return { found: true, method: "element", bbox: r.bbox, point: r.point, score: r.score, ambiguous: true, candidates, note: `ambiguous: ${tied.length} elements match « ${label} » and the recorded nearby words do not tell them apart` };
    }
  }
  if (opts.icon && !cued) {
    const m = matchIcon(frame, opts.icon);
    const threshold = opts.iconThreshold ?? 0.9;
    if (m && m.score >= threshold)
      return { found: true, method: "icon", bbox: m.bbox, point: bboxCenter(m.bbox), score: m.score, ambiguous: false, candidates, note: `icon template, correlation ${m.score}${m.scale !== 1 ? ` at ×${m.scale}` : ""}${m.inverted ? " (contrast inverted)" : ""}` };
    reason += `; icon template best correlation ${m?.score ?? 0} < ${threshold}`;
  }
  if (iconClass && opts.icons) {
    const byClass = await groundByIconClass(target, iconClass, frame, screen, opts.icons, candidates, opts.signal);
    if (byClass.found) return byClass;
    reason += `; ${byClass.reason}`;
  }
  if (opts.vlm) {
    const description = `${target.type ?? "element"} ${label ? `"${label}"` : "(icon)"}${target.position_hint ? ` at ${target.position_hint}` : ""}`;
    try {
      const g = await opts.vlm.ground(frame, description, opts.signal, { elements: screen.elements });
      if (g) return { found: true, method: "vlm", bbox: g.bbox, point: bboxCenter(g.bbox), score: g.confidence, ambiguous: false, candidates, note: `${opts.vlm.name} grounded ${description}`, ...(g.evidence ? { vlm: g.evidence } : {}) };
      reason += `; ${opts.vlm.name} did not find ${description}`;
    } catch (e) {
      reason += `; VLM unavailable (${(e as Error).message})`;
    }
  }
  return { found: false, reason, candidates };
}

/**
 * An icon-only target by what its icon shows: the one icon on screen that shows the recorded class, or, among several, the
 * one nearest the target's recorded place in its window when the next one is at least twice as far. Otherwise not found:
 * replay never guesses between two icons alike.
 */
async function groundByIconClass(target: Target, name: string, frame: Frame, screen: PerceivedScreen, icons: IconRecognizer, candidates: readonly LocateCandidate[], signal?: AbortSignal): Promise<Grounding> {
  const showing = await iconsShowing(frame, name, screen.elements.filter((e) => e.type !== "text_input"), screen.lines, icons, signal);
  const found = (s: (typeof showing)[number], how: string): Grounding => ({ found: true, method: "icon", bbox: s.bbox, point: bboxCenter(s.bbox), score: s.p, ambiguous: false, candidates, note: `the icon showing « ${name} » (P ${s.p.toFixed(2)})${how}` });
  if (showing.length === 0) return { found: false, reason: `no icon shows « ${name} »`, candidates };
  if (showing.length === 1) return found(showing[0]!, "");
  const place = expectedPlace(target, frame);
  if (place) {
    const c = bboxCenter(place.box);
    const [first, second] = showing.map((s) => ({ s, d: Math.hypot(bboxCenter(s.bbox)[0] - c[0], bboxCenter(s.bbox)[1] - c[1]) })).sort((a, b) => a.d - b.d);
    if (first && second && second.d >= 2 * first.d) return found(first.s, `, the nearest of ${showing.length} to its recorded place`);
  }
  return { found: false, reason: `${showing.length} icons show « ${name} » and its recorded place does not tell them apart`, candidates };
}
