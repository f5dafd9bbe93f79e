// Grounding without a VLM: an English or French instruction ("click the Save button at the
// bottom", "Cliquez sur « Valider la facture »", "Cochez Tiers payant", "ouvrir la liste Mutuelle")
// is parsed into verb, target text, element type and position hint; detected elements are scored
// against it. Ambiguity (two candidates too close to call) is reported, not guessed silently.
import type { BBox, Point, PositionHint, Size } from "../core/geometry.js";
import { bboxCenter, parsePositionHint, positionHintScore, readingOrder } from "../core/geometry.js";
import type { UIElementType } from "../core/schemas/uielement.js";
import { foldText, normalizeLabel, tokenize } from "../core/text.js";

export type Verb = "click" | "double_click" | "right_click" | "type" | "check" | "uncheck" | "select" | "open" | "hover";

export interface ParsedInstruction {
  readonly verb: Verb;
  /** The words that name the target ("Valider la facture"), quotes removed. */
  readonly target: string;
  readonly type?: UIElementType;
  readonly position?: PositionHint;
  /** Text to type, for "type X in the Y field" / "saisir X dans Y". */
  readonly value?: string;
}

const VERBS: ReadonlyArray<[RegExp, Verb, UIElementType?]> = [
  [/^(double[ -]?click|double[ -]?cliquer?|double[ -]?cliquez)\b/, "double_click"],
  [/^(right[ -]?click|clic droit)\b/, "right_click"],
  [/^(uncheck|untick|decocher|decochez|decoche)\b/, "uncheck", "checkbox"],
  [/^(check|tick|cocher|cochez|coche)\b/, "check", "checkbox"],
  [/^(type|enter|fill|write|saisir|saisissez|taper|tapez|entrer|entrez|ecrire|ecrivez|remplir|remplissez|renseigner|renseignez)\b/, "type", "text_input"],
  [/^(select|choose|pick|selectionner|selectionnez|choisir|choisissez)\b/, "select"],
  [/^(open|ouvrir|ouvrez|deplier|depliez|expand)\b/, "open"],
  [/^(hover|survoler|survolez)\b/, "hover"],
  [/^(click|press|push|tap|hit|follow|go to|cliquer|cliquez|clique|appuyer|appuyez|appuie|activer|activez|valider|validez|aller|allez)\b/, "click"],
];

const TYPE_WORDS: ReadonlyArray<[RegExp, UIElementType]> = [
  [/\b(button|bouton)\b/, "button"],
  [/\b(field|textbox|text box|input|box|champ|zone de (texte|saisie)|saisie)\b/, "text_input"],
  [/\b(dropdown|drop-down|combo|combobox|select|list|menu deroulant|liste( deroulante)?)\b/, "dropdown"],
  [/\b(tab|onglet)\b/, "tab"],
  [/\b(checkbox|check box|case( a cocher)?)\b/, "checkbox"],
  [/\b(radio( button)?|bouton radio|option)\b/, "radio_button"],
  [/\b(link|lien)\b/, "link"],
];

const FILLER = new Set([
  "the", "a", "an", "on", "in", "into", "at", "to", "of", "button", "field", "link", "tab", "list", "dropdown", "checkbox", "box", "option", "menu", "item", "icon",
  "sur", "le", "la", "les", "l", "du", "de", "des", "dans", "un", "une", "bouton", "champ", "lien", "onglet", "liste", "case", "option", "menu", "icone", "zone", "texte", "saisie", "cocher", "deroulante",
  "top", "bottom", "left", "right", "middle", "center", "centre", "upper", "lower", "haut", "bas", "gauche", "droite", "milieu", "en", "au", "a",
  "select", "radio",
]);

/** Parses an instruction; never throws (an empty target means "no text given"). */
export function parseInstruction(instruction: string): ParsedInstruction {
  const raw = instruction.trim();
  const folded = foldText(raw).replace(/[’']/g, "'");
  let verb: Verb = "click";
  let type: UIElementType | undefined;
  let rest = folded;
  for (const [re, v, t] of VERBS) {
    const m = re.exec(folded);
    if (m) {
      verb = v;
      type = t;
      rest = folded.slice(m[0].length);
      break;
    }
  }
  for (const [re, t] of TYPE_WORDS) {
    if (re.test(rest)) {
      type = t;
      break;
    }
  }
  if (verb === "open" && !type) type = "dropdown";
  // Quoted target: « … », "…", “…”, '…'.
  const quoted = /[«“"]\s*([^»”"]+?)\s*[»”"]|'([^']{2,})'/.exec(raw);
  let value: string | undefined;
  let target: string;
  if (verb === "type") {
    // type "X" in the Y field / saisir "X" dans le champ Y
    const m = /^(?:type|enter|fill|write|saisir|saisissez|taper|tapez|entrer|entrez|ecrire|ecrivez|remplir|remplissez|renseigner|renseignez)\s+(.+?)\s+(?:in|into|dans)\s+(.+)$/i.exec(foldText(raw));
    if (m) {
      const valueStart = raw.length - foldText(raw).length + foldText(raw).indexOf(m[1]!);
      value = raw.slice(valueStart, valueStart + m[1]!.length).replace(/^[«“"']\s*|\s*[»”"']$/g, "");
      rest = m[2]!;
    }
  }
  if (quoted && verb !== "type") target = (quoted[1] ?? quoted[2] ?? "").trim();
  else {
    const words = rest
      .replace(/[«»“”"]/g, " ")
      .split(/[^\p{L}\p{N}€$%'-]+/u)
      .map((w) => w.replace(/^(l|d|qu)'/, ""))
      .filter((w) => w && !FILLER.has(w));
    // Keep the original casing / accents of those words from the instruction.
    const originals = raw.split(/[^\p{L}\p{N}€$%'-]+/u).filter(Boolean);
    target = words
      .map((w) => originals.find((o) => foldText(o).replace(/^(l|d)'/, "") === w.replace(/^(l|d)'/, "")) ?? w)
      .join(" ")
      .replace(/^(l|d)'/i, "");
  }
  const position = parsePositionHint(foldText(raw));
  return { verb, target, ...(type ? { type } : {}), ...(position ? { position } : {}), ...(value !== undefined ? { value } : {}) };
}

export interface LocatableElement {
  readonly element_id: string;
  readonly type: UIElementType;
  readonly bbox: readonly [number, number, number, number] | BBox;
  readonly label: string;
  readonly role?: string;
  readonly text?: { raw: string };
  readonly confidence?: number;
  /** Words with their boxes (on-screen text targets): a match on part of them narrows the box. */
  readonly words?: readonly { text: string; bbox: BBox }[];
}

export interface LocateCandidate {
  readonly element_id: string;
  readonly type: UIElementType;
  readonly label: string;
  readonly bbox: BBox;
  readonly score: number;
  readonly text_score: number;
  readonly type_score: number;
  readonly position_score: number;
}

export type LocateResult =
  | { readonly found: true; readonly element_id: string; readonly bbox: BBox; readonly point: Point; readonly score: number; readonly ambiguous: boolean; readonly candidates: LocateCandidate[]; readonly instruction: ParsedInstruction }
  | { readonly found: false; readonly reason: string; readonly candidates: LocateCandidate[]; readonly instruction: ParsedInstruction };

/** Similarity of a target phrase and a label, in [0, 1]: token overlap, then character bigrams. */
export function textSimilarity(target: string, label: string): number {
  const a = normalizeLabel(target);
  const b = normalizeLabel(label);
  if (!a || !b) return 0;
  if (a === b) return 1;
  const ta = new Set(tokenize(a));
  const tb = new Set(tokenize(b));
  let common = 0;
  for (const t of ta) if (tb.has(t)) common++;
  const tokenF1 = common === 0 ? 0 : (2 * common) / (ta.size + tb.size);
  const grams = (s: string) => {
    const g = new Map<string, number>();
    const p = ` ${s} `;
    for (let i = 0; i < p.length - 1; i++) g.set(p.slice(i, i + 2), (g.get(p.slice(i, i + 2)) ?? 0) + 1);
    return g;
  };
  const ga = grams(a);
  const gb = grams(b);
  let inter = 0;
  let total = 0;
  for (const [k, v] of ga) inter += Math.min(v, gb.get(k) ?? 0);
  for (const v of ga.values()) total += v;
  for (const v of gb.values()) total += v;
  const dice = total ? (2 * inter) / total : 0;
  // A label that contains the whole target ("Save" in "Save draft") is nearly as good as equal.
  const contains = b.includes(a) || a.includes(b) ? 0.9 * (Math.min(a.length, b.length) / Math.max(a.length, b.length)) ** 0.25 : 0;
  return Math.max(tokenF1 * 0.95, dice * 0.9, contains);
}

const COMPATIBLE: Partial<Record<UIElementType, UIElementType[]>> = {
  button: ["generic_interactive", "link", "tab"],
  link: ["button", "tab"],
  tab: ["button", "link", "radio_button"],
  dropdown: ["text_input", "button"],
  text_input: ["dropdown"],
  checkbox: ["radio_button"],
  radio_button: ["checkbox", "tab"],
};

/** How well an element of type `got` stands for a wanted `want`: 1 same, 0.6 compatible, 0.2 otherwise. */
export function typeCompatibility(want: UIElementType, got: UIElementType): number {
  return want === got ? 1 : COMPATIBLE[want]?.includes(got) ? 0.6 : 0.2;
}

export interface LocateOptions {
  /** Two candidates within this score margin are ambiguous (default 0.05). */
  ambiguityMargin?: number;
  /** Below this score nothing is found (default 0.45). */
  minScore?: number;
}

/** Chooses the element an instruction names. `frame` gives the size for position hints. */
export function locate(instruction: string | ParsedInstruction, elements: readonly LocatableElement[], frame: Size, options: LocateOptions = {}): LocateResult {
  const parsed = typeof instruction === "string" ? parseInstruction(instruction) : instruction;
  const margin = options.ambiguityMargin ?? 0.05;
  const minScore = options.minScore ?? 0.45;
  const scored: LocateCandidate[] = elements.map((e) => {
    const bbox = [e.bbox[0], e.bbox[1], e.bbox[2], e.bbox[3]] as const;
    const text = parsed.target ? Math.max(textSimilarity(parsed.target, e.label), textSimilarity(parsed.target, e.text?.raw ?? "") * 0.95) : 0.5;
    const type = !parsed.type ? 0.8 : e.type === parsed.type ? 1 : COMPATIBLE[parsed.type]?.includes(e.type) ? 0.6 : 0.2;
    const pos = parsed.position ? positionHintScore(bbox, parsed.position, frame) : 1;
    const score = text * 0.7 + type * 0.2 + pos * 0.1;
    return { element_id: e.element_id, type: e.type, label: e.label, bbox, score: Math.round(score * 1000) / 1000, text_score: Math.round(text * 1000) / 1000, type_score: type, position_score: Math.round(pos * 1000) / 1000 };
  });
  scored.sort((a, b) => b.score - a.score);
  const candidates = scored.slice(0, 5);
  const best = candidates[0];
  if (!best || best.score < minScore || (parsed.target && best.text_score < 0.5))
    return { found: false, reason: best ? `no element matches "${parsed.target}" well enough (best: "${best.label}" ${best.type}, score ${best.score})` : "no elements detected on the screen", candidates, instruction: parsed };
  const second = candidates[1];
  const ambiguous = !!second && best.score - second.score < margin;
  // Words on screen that caption a control ("Year" above its field, "Tiers payant" right of its
  // box): act on the control the instruction names, not on its caption.
  const captioned = parsed.type === "text_input" || parsed.type === "dropdown" || parsed.type === "checkbox" || parsed.type === "radio_button";
  const control = best.element_id.startsWith("text:") && captioned ? controlCaptionedBy(best.bbox, parsed.type!, elements) : undefined;
  const narrowed = !control && parsed.target ? narrowToWords(parsed.target, elements.find((e) => e.element_id === best.element_id)) : undefined;
  const chosen = control ? { ...best, element_id: control.element_id, type: control.type, bbox: [control.bbox[0], control.bbox[1], control.bbox[2], control.bbox[3]] as BBox } : narrowed ? { ...best, bbox: narrowed } : best;
  return { found: true, element_id: chosen.element_id, bbox: chosen.bbox, point: clickPoint(chosen.type, chosen.bbox), score: best.score, ambiguous, candidates, instruction: parsed };
}

/**
 * Where to click an element: its centre, but a check box's or radio button's indicator, which
 * sits at the left end of its box (the box holds the caption too; between them a web page may
 * leave a gap that toggles nothing).
 */
export function clickPoint(type: string, bbox: BBox): Point {
  if (type !== "checkbox" && type !== "radio_button") return bboxCenter(bbox);
  const h = bbox[3] - bbox[1];
  const cy = (bbox[1] + bbox[3]) / 2;
  return [Math.min(bbox[0] + h / 2, (bbox[0] + bbox[2]) / 2), cy];
}

/** The box of the run of words that names `target` inside a longer text ("Agile Delivery" in a breadcrumb line). */
function narrowToWords(target: string, e: LocatableElement | undefined): BBox | undefined {
  const words = e?.words;
  if (!words || words.length < 2) return undefined;
  const n = tokenize(target).length;
  if (n === 0 || n >= words.length) return undefined;
  let best: { score: number; box: BBox; len: number } | undefined;
  for (let i = 0; i < words.length; i++)
    for (let j = i + 1; j <= Math.min(words.length, i + n + 1); j++) {
      const run = words.slice(i, j);
      const score = textSimilarity(target, run.map((w) => w.text).join(" "));
      // Ties go to the shorter run (a leading "›" separator adds nothing).
      if (!best || score > best.score + 1e-9 || (Math.abs(score - best.score) <= 1e-9 && run.length < best.len))
        best = { score, len: run.length, box: [run[0]!.bbox[0], Math.min(...run.map((w) => w.bbox[1])), run[run.length - 1]!.bbox[2], Math.max(...run.map((w) => w.bbox[3]))] };
    }
  return best && best.score >= 0.8 ? best.box : undefined;
}

/** The control of `type` that a caption at `label` names: a field right of or below it, a toggle left of it. */
function controlCaptionedBy(label: BBox, type: UIElementType, elements: readonly LocatableElement[]): LocatableElement | undefined {
  const h = label[3] - label[1];
  const cy = (label[1] + label[3]) / 2;
  const ofType = elements.filter((e) => !e.element_id.startsWith("text:") && (e.type === type || COMPATIBLE[type]?.includes(e.type)));
  const dist = (e: LocatableElement) => Math.hypot(bboxCenter(e.bbox)[0] - bboxCenter(label)[0], bboxCenter(e.bbox)[1] - cy);
  let options: LocatableElement[];
  if (type === "checkbox" || type === "radio_button")
    options = ofType.filter((e) => e.bbox[2] <= label[0] + h && label[0] - e.bbox[2] < 4 * h && Math.abs((e.bbox[1] + e.bbox[3]) / 2 - cy) < h);
  else
    options = ofType.filter((e) => {
      const sameRow = e.bbox[0] >= label[2] - h && e.bbox[0] - label[2] < 12 * h && Math.abs((e.bbox[1] + e.bbox[3]) / 2 - cy) < h;
      const below = e.bbox[1] >= label[1] && e.bbox[1] - label[3] < 4 * h && e.bbox[0] < label[2] && e.bbox[2] > label[0];
      return sameRow || below;
    });
  return options.sort((a, b) => dist(a) - dist(b))[0];
}

/**
 * Text on screen not already inside a detected element, as locatable targets ("click Edit" can
 * land on a menu-bar word the detector did not type). Each line gives its phrases (words split
 * at gaps wider than the line is high: menu bars, toolbars) and, inside a phrase, its words.
 * Phrases split at gaps wider than 0.6× the line height. Their ids start with "text:".
 */
export function textTargets(lines: readonly { text: string; bbox: BBox; words?: readonly { text: string; bbox: BBox }[] }[], elements: readonly LocatableElement[]): LocatableElement[] {
  const inside = (b: BBox) => elements.some((e) => {
    const [cx, cy] = bboxCenter(b);
    return cx >= e.bbox[0] && cx <= e.bbox[2] && cy >= e.bbox[1] && cy <= e.bbox[3];
  });
  const out: LocatableElement[] = [];
  const add = (text: string, b: BBox, words?: readonly { text: string; bbox: BBox }[]) => {
    if (!text.trim() || inside(b)) return;
    out.push({ element_id: `text:${out.length}`, type: "generic_interactive", bbox: [b[0], b[1], b[2], b[3]], label: text, confidence: 0.3, ...(words && words.length > 1 ? { words } : {}) });
  };
  for (const l of lines) {
    const words = l.words ?? [];
    if (words.length < 2) {
      add(l.text, l.bbox);
      continue;
    }
    const h = l.bbox[3] - l.bbox[1];
    const phrases: { text: string; bbox: BBox }[][] = [[words[0]!]];
    for (const w of words.slice(1)) {
      const cur = phrases[phrases.length - 1]!;
      if (w.bbox[0] - cur[cur.length - 1]!.bbox[2] > h * 0.6) phrases.push([w]);
      else cur.push(w);
    }
    if (phrases.length > 1) add(l.text, l.bbox, words);
    for (const p of phrases) {
      add(p.map((w) => w.text).join(" "), [p[0]!.bbox[0], Math.min(...p.map((w) => w.bbox[1])), p[p.length - 1]!.bbox[2], Math.max(...p.map((w) => w.bbox[3]))], p);
      if (p.length > 1 && phrases.length > 1) for (const w of p) add(w.text, w.bbox);
    }
  }
  return out;
}

/**
 * Elements and text targets that carry `label` (similarity ≥ `minSimilarity`), overlapping ones
 * counted once, in reading order: "the 2nd « checkbutton »" is index 1 of this list.
 */
export function sameLabelInOrder<T extends { readonly bbox: BBox; readonly label: string }>(items: readonly T[], label: string, minSimilarity = 0.9): T[] {
  const same: T[] = [];
  for (const it of items) {
    if (textSimilarity(label, it.label) < minSimilarity) continue;
    // Boxes on one row that overlap or touch are one thing seen twice (a checkbox element and its
    // label's text beside it).
    const overlaps = (a: BBox, b: BBox) => {
      const h = Math.min(a[3] - a[1], b[3] - b[1]);
      return Math.min(a[3], b[3]) - Math.max(a[1], b[1]) >= 0.5 * h && Math.max(a[0], b[0]) - Math.min(a[2], b[2]) <= h;
    };
    if (same.some((s) => overlaps(s.bbox, it.bbox))) continue;
    same.push(it);
  }
  return readingOrder(same);
}
