// Grounding a target by all its recorded cues together (label, caption, nearby texts with their
// offsets, place in the window, type, icon), weighted by which of them the builder found reliable
// for this target. The frame is the target window's client area (frame pixels).
//   - Same window size as recorded: the window-relative place is a strong cue, and a candidate at
//     the recorded place that shows the target's label, caption or icon is taken — replay is then
//     never worse than replaying the recorded coordinates.
//   - Equal candidates (several « Nom » fields): the recorded rank in reading order is used only
//     when there are as many of them as when recorded; otherwise caption, anchors and place decide.
//   - A step that types into the target never picks a greyed-out element or one that takes no text.
//     Greyed out is judged by the fill: a field whose fill blends into the window far more than the
//     window's other fields do (or, alone in its window, than it did when recorded). Not by the grey
//     spread of the box: that falls in a dark theme, at ×2 (the border is a smaller share of the
//     box) and rises once text is typed in a field, so it set every field aside in those cells.
//   - A typing step whose field is not seen as a field (a toolkit whose entries the detector does
//     not type) is placed from its caption, at the recorded offset scaled to the live UI — never
//     inside an element set aside as greyed out.
//   - A region target (an empty area, a canvas) is "this region of this window": its place follows
//     the texts around it when they are seen, else the window's proportions.
// Targets from older workflows (no window-relative box) return undefined: the caller grounds them as before.
import type { BBox, Point } from "../core/geometry.js";
import { bboxCenter, readingOrder } from "../core/geometry.js";
import type { Target } from "../core/schemas/workflow.js";
import { isFieldType, type UIElement } from "../core/schemas/uielement.js";
import { cropFrame, type Frame } from "../core/frame.js";
import { edgeMap, fillContrast, greyContrast, matchIcon, type IconMatch } from "../perception/icon-match.js";
import { probeFieldBesideCaption } from "../perception/caption-field-probe.js";
import { panelFinder } from "../perception/enclosing-panel.js";
import { clickPoint, sameLabelInOrder, textSimilarity, textTargets, typeCompatibility, type LocatableElement, type LocateCandidate } from "../perception/locate.js";

export interface CueScreen {
  readonly elements: readonly UIElement[];
  readonly lines: readonly { text: string; bbox: BBox; words?: readonly { text: string; bbox: BBox }[] }[];
}

export type CueGrounding =
  | { readonly found: true; readonly method: "element" | "icon" | "region"; readonly bbox: BBox; readonly point: Point; readonly score: number; readonly ambiguous: boolean; readonly candidates: readonly LocateCandidate[]; readonly note: string }
  | { readonly found: false; readonly reason: string; readonly candidates: readonly LocateCandidate[] };

const WEIGHTS = { label: 0.4, caption: 0.35, icon: 0.35, anchors: 0.15, position: 0.15, type: 0.1 } as const;

/**
 * Elements one text row high. Text inside a taller element (two menu rows the classifier took for
 * one item: "Ctrl+O Open… Open Recent") stays a target of its own, so « Open… » is found.
 */
export function singleRow(screen: CueScreen): CueScreen["elements"] {
  const hs = screen.lines.map((l) => l.bbox[3] - l.bbox[1]).sort((a, b) => a - b);
  const lineH = hs[Math.floor(hs.length / 2)] ?? 0;
  if (!lineH) return screen.elements;
  return screen.elements.filter((e) => e.type === "text_input" || e.bbox[3] - e.bbox[1] <= 2.2 * lineH || screen.lines.filter((l) => l.bbox[1] >= e.bbox[1] - 2 && l.bbox[3] <= e.bbox[3] + 2 && l.bbox[0] >= e.bbox[0] - 2 && l.bbox[2] <= e.bbox[2] + 2).length < 2);
}

function medianHeight(lines: CueScreen["lines"]): number | undefined {
  const hs = lines.filter((l) => l.text.trim().length > 1).map((l) => l.bbox[3] - l.bbox[1]).sort((a, b) => a - b);
  return hs.length ? hs[hs.length >> 1] : undefined;
}

const overlapShare = (a: BBox, b: BBox) => {
  const w = Math.min(a[2], b[2]) - Math.max(a[0], b[0]);
  const h = Math.min(a[3], b[3]) - Math.max(a[1], b[1]);
  if (w <= 0 || h <= 0) return 0;
  return (w * h) / Math.min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1]));
};

const contains = (b: BBox, p: Point, m = 0) => p[0] >= b[0] - m && p[0] <= b[2] + m && p[1] >= b[1] - m && p[1] <= b[3] + m;

export interface CueOptions {
  /** The label as this run's data writes it. */
  label?: string;
  icon?: Frame;
  iconThreshold?: number;
  /**
   * Frame boxes of the fields this row's earlier steps found for *other* recorded fields (recorded elsewhere in the
   * window). Two fields recorded apart are never one field now: a field target never takes one of these, so a value
   * is never typed over the one an earlier step put there.
   */
  taken?: readonly BBox[];
}

const TOGGLE_TYPES: ReadonlySet<string> = new Set(["checkbox", "radio_button"]);

interface Scored {
  c: LocatableElement;
  cues: Partial<Record<keyof typeof WEIGHTS, number>>;
  score: number;
  identity: boolean;
}

/**
 * Where the target was in its window, in this frame's pixels: the recorded window-relative box, at the frame's scale when
 * the window has its recorded size, else stretched with the window. Undefined for targets recorded without it.
 */
export function expectedPlace(target: Target, frame: Frame): { box: BBox; sameSize: boolean; sx: number; sy: number } | undefined {
  if (!target.window_box || !target.window_size) return undefined;
  const s = frame.scaleFactor;
  const [rw, rh] = target.window_size;
  const sameSize = Math.abs(frame.width - rw * s) <= 3 * s && Math.abs(frame.height - rh * s) <= 3 * s;
  const sx = sameSize ? s : frame.width / rw;
  const sy = sameSize ? s : frame.height / rh;
  const wb = target.window_box;
  return { box: [wb[0] * sx, wb[1] * sy, wb[2] * sx, wb[3] * sy], sameSize, sx, sy };
}

export function groundByCues(target: Target, frame: Frame, screen: CueScreen, opts: CueOptions = {}): CueGrounding | undefined {
  const place = expectedPlace(target, frame);
  if (!place) return undefined;
  const s = frame.scaleFactor;
  const { box: expBox, sameSize, sx, sy } = place;
  const wb = target.window_box!;
  const expC = bboxCenter(expBox);
  const liveText = medianHeight(screen.lines);
  // UI scale now against when recorded. Without the recorded words' widths (older workflows, none
  // read again), from the text's height — but OCR line heights vary by ±30 % with what the lines
  // hold, a window's size does not: in a window grown alike both ways (×2), the window's growth
  // when the text grew nearer to it than to nothing; otherwise (the recorded size, or a window
  // resized by hand) text within 30 % of its recorded height is the recorded scale.
  // Best of all: the width of the very words recorded around the target (caption, nearby texts).
  const grow = sameSize ? 1 : (sx + sy) / (2 * s);
  const uWords = wordScale(target, screen.lines, s);
  const uText = target.text_px && liveText ? liveText / target.text_px : undefined;
  const uniform = Math.abs(sx - sy) <= 0.05 * Math.max(sx, sy);
  const byHeight = (t: number) => (!sameSize && uniform && Math.abs(t - grow) < Math.abs(t - 1) ? grow : Math.abs(t - 1) < 0.3 ? 1 : t);
  const u = Math.min(3, Math.max(0.5, uWords ?? (uText === undefined ? grow : byHeight(uText))));
  const lineH = liveText ?? 16 * u;
  const cues = new Set(target.cues ?? []);
  const label = (opts.label ?? target.by_text ?? target.label).trim();
  const useLabel = cues.has("label") && label.length > 0;
  const caption = cues.has("caption") ? target.caption : null;
  const anchors = cues.has("anchors") ? (target.anchor_offsets ?? []) : [];
  const diag = Math.hypot(frame.width, frame.height);

  const iconMatch = cues.has("icon") && opts.icon ? matchIcon(frame, opts.icon, { scales: orderedScales(u) }) : undefined;
  const iconFound = iconMatch && iconMatch.score >= (opts.iconThreshold ?? 0.85) ? iconMatch : undefined;
  // Not matched anywhere: the icon at its recorded place (the window as recorded, or scaled with it)
  // needs only to resemble the recording — a dark theme recolours the button around it, ×2 redraws it.
  const iconHere = cues.has("icon") && opts.icon && !iconFound ? iconAtPlace(frame, opts.icon, expBox, [u, (sx + sy) / (2 * s)]) : undefined;
  const iconOk = iconFound ?? iconHere;

  const elements: LocatableElement[] = [...screen.elements, ...textTargets(screen.lines, singleRow(screen))];
  if (iconOk) elements.push({ element_id: iconFound ? "icon:match" : "icon:here", type: target.type ?? "button", bbox: iconOk.bbox, label: "" });

  const offsetScore = (from: Point, text: string, dx: number, dy: number, minSim: number) => {
    let best = 0;
    for (const l of screen.lines) {
      if (textSimilarity(text, l.text) < minSim) continue;
      const c = bboxCenter(l.bbox);
      const err = Math.hypot(c[0] - from[0] - u * dx * s, c[1] - from[1] - u * dy * s);
      best = Math.max(best, Math.exp(-err / (0.75 * lineH + 0.1 * u * s * Math.hypot(dx, dy))));
    }
    return best;
  };
  const typing = !!target.typed_into;
  const control = isFieldType(target.type);
  const excluded: string[] = [];
  const excludedBoxes: BBox[] = [];
  const taken = target.type === "text_input" ? (opts.taken ?? []) : [];
  excludedBoxes.push(...taken);
  const scored: Scored[] = [];
  // A step that types needs a field: never a button, a greyed-out element, or bare text.
  const takesText = (c: LocatableElement) => !c.element_id.startsWith("text:") && !(control && typeCompatibility(target.type!, c.type) < 0.6);
  // Greyed out, judged by the fill (the most common grey inside against the ring around): against
  // the live window's fields when there are several (a theme moves them all alike), else against
  // the fill recorded. Only when the recorded field stood out from its window.
  const fills = typing && target.fill_contrast !== undefined && target.fill_contrast >= 6 ? new Map(elements.filter(takesText).map((c) => [c, fillContrast(frame, c.bbox as BBox)])) : new Map<LocatableElement, number>();
  // The upper median, and never over twice the recorded fill: a focused field's highlight ring
  // (thick at ×2) makes its own fill stand out far more than any other's.
  const recordedFill = target.fill_contrast ?? 0;
  const refFill = fills.size >= 2 ? Math.min(2 * recordedFill, [...fills.values()].sort((a, b) => b - a)[(fills.size - 1) >> 1]!) : recordedFill;
  const refWhat = fills.size >= 2 ? `the fields of the window (upper median of ${fills.size})` : "recorded";
  for (const c of elements) {
    const isText = c.element_id.startsWith("text:");
    if (typing && control && !takesText(c)) continue;
    if (!isText && taken.some((b) => overlapShare(b, c.bbox as BBox) >= 0.6)) {
      excluded.push(`« ${c.label || c.element_id} » is the field an earlier step found for another recorded field`);
      continue;
    }
    if (typing && !isText) {
      const fill = fills.get(c);
      if (fill !== undefined && refFill >= 6 && fill < 0.5 * refFill) {
        excluded.push(`« ${c.label || c.element_id} » looks disabled (fill ${fill} against ${refFill}, ${refWhat})`);
        excludedBoxes.push(c.bbox as BBox);
        continue;
      }
    }
    const cc = bboxCenter(c.bbox as BBox);
    const sc: Scored["cues"] = {};
    if (useLabel) sc.label = Math.max(textSimilarity(label, c.label), 0.95 * textSimilarity(label, c.text?.raw ?? ""));
    if (caption) sc.caption = offsetScore(cc, caption.text, caption.dx, caption.dy, 0.75);
    if (iconOk) sc.icon = overlapShare(c.bbox as BBox, iconOk.bbox) >= 0.5 ? iconOk.score : 0;
    if (anchors.length) sc.anchors = anchors.reduce((a, x) => a + offsetScore(cc, x.text, x.dx, x.dy, 0.8), 0) / anchors.length;
    sc.position = Math.exp(-Math.hypot(cc[0] - expC[0], cc[1] - expC[1]) / ((sameSize ? 0.03 : 0.1) * diag));
    if (target.type) sc.type = typeCompatibility(target.type, c.type);
    let num = 0;
    let den = 0;
    for (const [k, v] of Object.entries(sc) as [keyof typeof WEIGHTS, number][]) {
      const w = k === "position" && sameSize ? 0.3 : WEIGHTS[k];
      num += w * v;
      den += w;
    }
    // What names the target must show on this candidate: its label, its caption at the recorded
    // offset, or its icon; a label that plainly disagrees rules a candidate out.
    const contradicted = sc.label !== undefined && sc.label < 0.5 && !(sc.caption !== undefined && sc.caption >= 0.7);
    const identity = !contradicted && ((sc.label ?? 0) >= 0.7 || (sc.caption ?? 0) >= 0.5 || (sc.icon ?? 0) > 0);
    scored.push({ c, cues: sc, score: den ? num / den : 0, identity });
  }
  const qualified = scored.filter((x) => x.identity).sort((a, b) => b.score - a.score);
  const candidates: LocateCandidate[] = qualified.slice(0, 5).map((x) => ({ element_id: x.c.element_id, type: x.c.type, label: x.c.label, bbox: x.c.bbox as BBox, score: Math.round(x.score * 1000) / 1000, text_score: Math.round((x.cues.label ?? x.cues.caption ?? x.cues.icon ?? 0) * 1000) / 1000, type_score: x.cues.type ?? 0, position_score: Math.round((x.cues.position ?? 0) * 1000) / 1000 }));
  const cueNote = (x: Scored) => Object.entries(x.cues).map(([k, v]) => `${k} ${Math.round(v * 100) / 100}`).join(", ");
  const found = (x: Scored, note: string, ambiguous = false): CueGrounding => {
    let bbox = x.c.bbox as BBox;
    let type = x.c.type;
    let how = "";
    let right = false;
    // A check box or radio button of which only the caption was read: the toggle is the caption
    // and the indicator beside it, as wide together as recorded (at the UI scale now). Its
    // indicator is clicked, and its change is looked for there — the caption never changes. The
    // indicator is on the side where something is drawn: before the caption unless that side is
    // blank and the other is not (toolkits and right-to-left layouts that draw it after).
    const width = (wb[2] - wb[0]) * s * u;
    if (TOGGLE_TYPES.has(target.type ?? "") && !TOGGLE_TYPES.has(type) && x.c.element_id.startsWith("text:") && width > bbox[2] - bbox[0] + 4 * s) {
      const extra = width - (bbox[2] - bbox[0]);
      const before = greyContrast(frame, [bbox[0] - extra, bbox[1], bbox[0], bbox[3]]).std;
      const after = greyContrast(frame, [bbox[2], bbox[1], Math.min(frame.width, bbox[2] + extra), bbox[3]]).std;
      right = after > 2 * before + 2;
      bbox = right ? [bbox[0], bbox[1], bbox[2] + extra, bbox[3]] : [Math.max(0, bbox[2] - width), bbox[1], bbox[2], bbox[3]];
      type = target.type!;
      how = `; its indicator ${right ? "after" : "before"} the caption, at the recorded width`;
    }
    return { found: true, method: x.c.element_id.startsWith("icon:") ? "icon" : "element", bbox, point: clickPoint(type, bbox, right ? "right" : "left"), score: Math.round(x.score * 1000) / 1000, ambiguous, candidates, note: `${note}${how} (${cueNote(x)})` };
  };

  // The layout is as recorded: the candidate at the recorded place that shows the target.
  if (sameSize) {
    // Only a strong sign counts here: the label read there, the caption where it was, the icon.
    const strong = (x: Scored) => (x.cues.label ?? 0) >= 0.8 || (x.cues.caption ?? 0) >= 0.7 || (x.cues.icon ?? 0) >= 0.9;
    const here = qualified.filter((x) => strong(x) && contains(x.c.bbox as BBox, expC, 2) && overlapShare(x.c.bbox as BBox, expBox) >= 0.5);
    const pick = here.sort((a, b) => b.score - a.score)[0];
    if (pick) return found(pick, `layout as recorded: « ${pick.c.label || target.caption?.text || "icon"} » at its recorded place in the window`);
    // An icon-only target whose icon looks different now (a theme redrew it) while the texts recorded around it are
    // where they were: the layout is as recorded, and its recorded place is the target — the element there when one is
    // seen, else the place itself. Never worse than replaying the recorded coordinates on an unchanged layout.
    if (cues.has("icon") && !iconOk && !useLabel && !caption && anchors.length) {
      const held = anchors.map((a) => offsetScore(expC, a.text, a.dx, a.dy, 0.8));
      const where = held.filter((v) => v >= 0.5).length;
      if (where * 2 > anchors.length) {
        const at = scored
          .filter((x) => !x.c.element_id.startsWith("text:") && contains(x.c.bbox as BBox, expC, 2) && overlapShare(x.c.bbox as BBox, expBox) >= 0.5 && (!target.type || typeCompatibility(target.type, x.c.type) >= 0.6))
          .sort((a, b) => (b.cues.position ?? 0) - (a.cues.position ?? 0))[0];
        const why = `layout as recorded (${where} of ${anchors.length} nearby texts where recorded), its icon looks different here (best correlation ${iconMatch?.score ?? 0}): its recorded place in the window`;
        if (at) return found(at, why);
        return { found: true, method: "region", bbox: expBox, point: expC, score: 0.6, ambiguous: false, candidates, note: why };
      }
    }
  }

  // Equal candidates: rank only when their count is the count recorded.
  if (useLabel && target.ordinal && target.ordinal.count > 1) {
    const equal = sameLabelInOrder(qualified.filter((x) => (x.cues.label ?? 0) >= 0.9).map((x) => ({ ...x, bbox: x.c.bbox as BBox, label: x.c.label })), label);
    if (equal.length === target.ordinal.count) {
      const pick = readingOrder(equal)[target.ordinal.index];
      if (pick) return found(pick, `« ${label} » ${target.ordinal.index + 1} of ${equal.length} in reading order, as recorded`);
    }
  }

  const best = qualified[0];
  if (best) {
    const rival = qualified.find((x) => x !== best && overlapShare(x.c.bbox as BBox, best.c.bbox as BBox) < 0.3);
    const ambiguous = !!rival && best.score - rival.score < 0.03;
    const why = target.ordinal && useLabel ? `; ${target.ordinal.count} « ${label} » when recorded, the caption, nearby texts and place decide` : "";
    return found(best, `${ambiguous ? `ambiguous: « ${best.c.label} » and « ${rival!.c.label} » score alike` : `best of all cues`}${why}${excluded.length ? `; set aside: ${excluded.join("; ")}` : ""}`, ambiguous);
  }

  // A typing step whose field is not seen as a field: the field drawn beside its caption on the
  // side it was recorded (its edges in the pixels), else where the caption says, at the recorded
  // offset scaled to the live UI — never inside an element set aside as greyed out.
  if (typing && caption) {
    const want: Point = [expC[0] + u * caption.dx * s, expC[1] + u * caption.dy * s];
    const dist = (l: CueScreen["lines"][number]) => Math.hypot(bboxCenter(l.bbox)[0] - want[0], bboxCenter(l.bbox)[1] - want[1]);
    const line = screen.lines.filter((l) => textSimilarity(caption.text, l.text) >= 0.75).sort((a, b) => dist(a) - dist(b))[0];
    if (line) {
      const c = bboxCenter(line.bbox);
      const point: Point = [Math.round(c[0] - u * caption.dx * s), Math.round(c[1] - u * caption.dy * s)];
      // The field drawn beside the caption must agree with the recorded offset across (on the row
      // the offset says for a caption at its left, the column for one above): a caption recorded
      // from a row above names the field below it, not the one on its own row.
      const drawn = probeFieldBesideCaption(frame, line.bbox);
      const leftOf = -caption.dx > Math.abs(caption.dy);
      const sideOk = drawn && (leftOf ? drawn[0] >= line.bbox[2] - 2 && point[1] >= drawn[1] && point[1] <= drawn[3] : -caption.dy > 0 && drawn[1] >= line.bbox[3] - 2 && point[0] >= drawn[0] && point[0] <= drawn[2]);
      if (drawn && sideOk && !excludedBoxes.some((b) => overlapShare(b, drawn) >= 0.5)) {
        return { found: true, method: "element", bbox: drawn, point: clickPoint("text_input", drawn), score: 0.7, ambiguous: false, candidates, note: `no field seen by the detector: the field drawn ${leftOf ? "right of" : "below"} its caption « ${line.text} »${excluded.length ? `; set aside: ${excluded.join("; ")}` : ""}` };
      }
      const w = ((wb[2] - wb[0]) * u * s) / 2;
      const h = ((wb[3] - wb[1]) * u * s) / 2;
      const inFrame = point[0] >= 0 && point[1] >= 0 && point[0] < frame.width && point[1] < frame.height;
      if (inFrame && !excludedBoxes.some((b) => contains(b, point))) {
        const bbox: BBox = [Math.round(point[0] - w), Math.round(point[1] - h), Math.round(point[0] + w), Math.round(point[1] + h)];
        return { found: true, method: "region", bbox, point, score: 0.6, ambiguous: false, candidates, note: `no field seen: placed from its caption « ${line.text} » at the recorded offset (UI scale ${Math.round(u * 100) / 100})${excluded.length ? `; set aside: ${excluded.join("; ")}` : ""}` };
      }
    }
  }

  if (target.region) {
    // This region of this window: where the texts around it say, else the window's proportions.
    const votes: Point[] = [];
    for (const a of target.anchor_offsets ?? []) {
      const l = screen.lines.filter((x) => textSimilarity(a.text, x.text) >= 0.8);
      if (l.length !== 1) continue;
      const c = bboxCenter(l[0]!.bbox);
      votes.push([c[0] - u * a.dx * s, c[1] - u * a.dy * s]);
    }
    const inside = votes.filter((p) => p[0] >= 0 && p[1] >= 0 && p[0] < frame.width && p[1] < frame.height);
    const med = (k: 0 | 1) => inside.map((p) => p[k]).sort((a, b) => a - b)[inside.length >> 1]!;
    // The window as recorded and its text as large: the layout is the recorded one. Larger text in a window of the same
    // size moves what is below it: the texts around the place say where it went.
    const asRecorded = sameSize && Math.abs(u - 1) < 0.1;
    let point: Point = asRecorded || inside.length === 0 ? expC : [med(0), med(1)];
    const h = Math.max(4, (expBox[3] - expBox[1]) / 2);
    const w = Math.max(4, (expBox[2] - expBox[0]) / 2);
    let how = asRecorded ? "window as recorded" : inside.length ? `placed by ${inside.length} nearby text(s)` : sameSize ? "window as recorded" : "the window's proportions";
    // Inside a drawn panel when recorded (a canvas): the same place in the panel found around that
    // point, when it is about as large as recorded (the layout around it may have grown or shrunk).
    // Looked for around that point, else around the panel's own recorded centre (the point may
    // fall just outside a panel that moved).
    if (target.panel) {
      const rp = target.panel.window_box;
      const panelAt = panelFinder(frame);
      const fitting = (p: Point) => {
        const b = panelAt(p);
        if (!b) return undefined;
        const rw = (b[2] - b[0]) / Math.max(1, (rp[2] - rp[0]) * sx);
        const rh = (b[3] - b[1]) / Math.max(1, (rp[3] - rp[1]) * sy);
        return rw >= 0.4 && rw <= 2.5 && rh >= 0.4 && rh <= 2.5 ? b : undefined;
      };
      // Around the point, around the panel's recorded centre, else anywhere up or down the window's column through that
      // centre (a longer form above it moved it): a panel as wide as recorded, the one nearest where it was.
      const rc: Point = [((rp[0] + rp[2]) / 2) * sx, ((rp[1] + rp[3]) / 2) * sy];
      const asWide = (b: BBox | undefined) => b && Math.abs((b[2] - b[0]) / Math.max(1, (rp[2] - rp[0]) * sx) - 1) <= 0.2;
      const down = (): BBox | undefined => {
        const step = Math.max(8, 0.35 * (rp[3] - rp[1]) * sy);
        let best: BBox | undefined;
        for (let y = step / 2; y < frame.height; y += step) {
          const b = fitting([rc[0], y]);
          if (asWide(b) && (!best || Math.abs((b![1] + b![3]) / 2 - rc[1]) < Math.abs((best[1] + best[3]) / 2 - rc[1]))) best = b;
        }
        return best;
      };
      const live = fitting(point) ?? fitting(rc) ?? down();
      if (live) {
        point = [Math.round(live[0] + target.panel.at[0] * (live[2] - live[0])), Math.round(live[1] + target.panel.at[1] * (live[3] - live[1]))];
        how += `, at ${Math.round(target.panel.at[0] * 100)} % × ${Math.round(target.panel.at[1] * 100)} % of the panel around it`;
      } else if (!asRecorded) {
        // Recorded inside a panel that is nowhere near now, in a layout that changed: it may be out of view (a longer
        // form pushed it down). Not found — the actor scrolls and looks again — rather than a click beside it.
        return { found: false, reason: `the panel it was recorded in (${Math.round(rp[2] - rp[0])}×${Math.round(rp[3] - rp[1])} px) is not in view (${how})`, candidates };
      }
    }
    return { found: true, method: "region", bbox: [point[0] - w, point[1] - h, point[0] + w, point[1] + h], point, score: sameSize ? 1 : 0.5, ambiguous: false, candidates, note: `region of the window (no visual cue recorded): ${how}` };
  }
  const what = [useLabel ? `label « ${label} »` : "", caption ? `caption « ${caption.text} »` : "", cues.has("icon") ? `icon (best correlation ${iconMatch?.score ?? 0})` : ""].filter(Boolean).join(", ");
  return { found: false, reason: `nothing on screen shows the ${what || "target"}${excluded.length ? `; set aside: ${excluded.join("; ")}` : ""}`, candidates };
}

/**
 * The UI scale from the words recorded around the target read again: the median ratio of their
 * widths now (screen pixels) to when recorded, over the caption and nearby texts read alike
 * (similarity ≥ 0.9); undefined when none is.
 */
export function wordScale(target: Target, lines: CueScreen["lines"], s: number): number | undefined {
  const refs = [...(target.caption ? [target.caption] : []), ...(target.anchor_offsets ?? [])].filter((r) => r.w && r.w >= 12 && r.text.trim().length >= 3);
  const ratios: number[] = [];
  for (const r of refs) {
    const same = lines.filter((l) => textSimilarity(r.text, l.text) >= 0.9);
    if (same.length === 0) continue;
    const ws = same.map((l) => (l.bbox[2] - l.bbox[0]) / s / r.w!).sort((a, b) => a - b);
    ratios.push(ws[ws.length >> 1]!);
  }
  if (ratios.length === 0) return undefined;
  ratios.sort((a, b) => a - b);
  return ratios[ratios.length >> 1];
}

/** Correlation an icon needs at its recorded place (grey or edges), against 0.85 anywhere. */
export const ICON_AT_PLACE = 0.6;

/**
 * The recorded icon at its expected place: the best of grey and edge correlation in a region
 * around the expected box, at the scales nearest the UI scales given (the text's, the window's);
 * kept when it reaches ICON_AT_PLACE and its centre lies in the expected box (a quarter of its size around).
 */
export function iconAtPlace(frame: Frame, icon: Frame, expBox: BBox, uiScales: readonly number[]): IconMatch | undefined {
  const scales = [...new Set(uiScales.map((u) => orderedScales(u)[0]!))];
  const m = Math.max(16, Math.max(icon.width, icon.height) * Math.max(...scales));
  const region: BBox = [Math.max(0, Math.floor(expBox[0] - m)), Math.max(0, Math.floor(expBox[1] - m)), Math.min(frame.width, Math.ceil(expBox[2] + m)), Math.min(frame.height, Math.ceil(expBox[3] + m))];
  if (region[2] - region[0] < 8 || region[3] - region[1] < 8) return undefined;
  const sub = cropFrame(frame, region);
  const grey = matchIcon(sub, icon, { scales });
  const edges = matchIcon(edgeMap(sub), edgeMap(icon), { scales, allowInverted: false });
  const best = [grey, edges].filter((x): x is IconMatch => !!x).sort((a, b) => b.score - a.score)[0];
  if (!best || best.score < ICON_AT_PLACE) return undefined;
  const bbox: BBox = [best.bbox[0] + region[0], best.bbox[1] + region[1], best.bbox[2] + region[0], best.bbox[3] + region[1]];
  const slack = 0.25 * Math.max(expBox[2] - expBox[0], expBox[3] - expBox[1]);
  return contains(expBox, bboxCenter(bbox), slack) ? { ...best, bbox } : undefined;
}

/** Icon scales to try, the one the UI scale suggests first. */
function orderedScales(u: number): number[] {
  const all = [1, 1.5, 2, 0.75];
  return [...all].sort((a, b) => Math.abs(a - u) - Math.abs(b - u));
}
