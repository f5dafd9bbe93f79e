// Grounding without a VLM: an English or French instruction ("click the Save button at the
// bottom", « Cliquez sur "Valider la facture" », "the floppy disk icon in the toolbar", « la
// dernière case à cocher », "the second City list, on the right", « le menu Outils » on an English
// screen) is parsed (locate-parse.ts) and detected elements and on-screen text are scored against
// it: label words (also through a bilingual UI lexicon), the caption that names a field, type,
// where it is in the window and among the elements that fit, rank in reading order, colour and
// icon (element-appearance.ts, from the frame's pixels when they are given), and the thing it
// sits next to. Ambiguity (two candidates too close to call) is reported, not guessed silently.
// A parsed instruction given as an object (replay's recorded label) is looked up by label, type
// and position only, as before.
import type { Frame } from "../core/frame.js";
import type { BBox, Point, PositionHint, Size } from "../core/geometry.js";
import { bboxCenter, bboxContainsPoint, bboxIoU, matchesPositionHint, padBBox, positionHintScore, readingOrder } from "../core/geometry.js";
import { isFieldType, type UIElementType } from "../core/schemas/uielement.js";
import { foldOcrConfusables, foldText, levenshtein, normalizeLabel, tokenize } from "../core/text.js";
import { median } from "../core/vectors.js";
import { enclosingBox, probeFieldBesideCaption, toggleAtRowEnd, toggleBefore, underlinedField } from "./caption-field-probe.js";
import type { IconRecognizer, IconScores } from "../core/providers/icon-recognizer.js";
import { accentShare, colourMatch, elementAppearance, fillAndSurround, inkContrast, switchShaped, type Appearance, type Glyph } from "./element-appearance.js";
import type { IconShape } from "./icon-names.js";
import { captionOf } from "./learned-fusion.js";
import { iconProposals } from "./icon-proposals.js";
import { textAreasFromLines } from "./text-area.js";
import { slidersOf } from "./slider.js";
import { toRgb } from "./raster.js";
import { numberedRows, type NumberedRows } from "./numbered-run.js";
import { HEADING_WORDS, ICON_CONCEPTS, UI_LEXICON, type StateWord } from "./locate-lexicon.js";
import { showsMaskedText } from "./masked-entry.js";
import { parseInstruction, type ParsedInstruction, type Verb } from "./locate-parse.js";

export { parseInstruction, type ParsedInstruction, type Verb };

export interface LocatableElement {
  readonly element_id: string;
  readonly type: UIElementType;
  readonly bbox: readonly [number, number, number, number] | BBox;
  readonly label: string;
  readonly role?: string;
  readonly text?: { raw: string };
  readonly confidence?: number;
  /** States the learned detector read (uielement_v1 `state`), where it could tell them. */
  readonly state?: { readonly checked?: boolean; readonly selected?: boolean; readonly disabled?: boolean };
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
  | {
      readonly found: true;
      readonly element_id: string;
      readonly bbox: BBox;
      readonly point: Point;
      readonly score: number;
      readonly ambiguous: boolean;
      readonly candidates: LocateCandidate[];
      readonly instruction: ParsedInstruction;
      /** For an icon asked for: whether the chosen element shows it (its drawn shape, or the icon recognizer's P ≥ 0.5). */
      readonly icon_seen?: boolean;
      /** For an icon asked for: whether the chosen element bears the label such an icon stands for ("X" for close). */
      readonly icon_named?: boolean;
    }
  | { readonly found: false; readonly reason: string; readonly candidates: LocateCandidate[]; readonly instruction: ParsedInstruction };

/** Similarity of a target phrase and a label, in [0, 1]: token overlap, then character bigrams. */
export function textSimilarity(target: string, label: string): number {
  // Words the OCR read run together, each still capitalised ("BillingHistoryDetails": three tabs set close).
  const apart = label.replace(/(\p{Ll})(\p{Lu})/gu, "$1 $2");
  const whole = labelSimilarity(target, label);
  return apart === label ? whole : Math.max(whole, 0.95 * labelSimilarity(target, apart));
}

function labelSimilarity(target: string, label: string): number {
  const a = normalizeLabel(target);
  const b = normalizeLabel(label);
  if (!a || !b) return 0;
  if (a === b) return 1;
  // The same letters with spaces lost or added by the OCR ("Noitemselected", "Pass word"), small words included (« En
  // savoir plus » read "Ensavoirplus": its « en » is no word of its own there) and signs around them left out.
  const [sa, sb] = [a.replace(/ /g, ""), b.replace(/ /g, "")];
  if (sa.length >= 4 && sa === sb) return 0.95;
  const [wa, wb] = [tokenize(target).join(""), tokenize(label).join("")];
  if (wa.length >= 4 && wa === wb) return 0.95;
  // The same name with a letter the OCR confuses with another (« François » read "Erancois" under a link's underline).
  const [fa, fb] = [normalizeLabel(foldOcrConfusables(target)), normalizeLabel(foldOcrConfusables(label))];
  if (fa.length >= 4 && fa === fb) return 0.95;
  // (A recognizer with no « ç » reads it « g »: « François » read "Frangois".)
  if (/ç/iu.test(target) && normalizeLabel(foldOcrConfusables(target.replace(/ç/gu, "g").replace(/Ç/gu, "G"))) === fb) return 0.95;
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
  // A label that contains the whole target from a word's start ("Save" in "Save draft", a
  // truncated "Redenb" in "Redenbacher") is nearly as good as equal; the tail of another word is
  // not (« Nom » in « Prénom »), nor is a lone letter the start of a word (an icon read as "C" is no « copier »).
  const within = (long: string, short: string) => ` ${long} `.includes(` ${short} `) || (short.length >= 3 && ` ${long}`.includes(` ${short}`));
  const contains = within(b, a) || within(a, b) ? 0.9 * (Math.min(a.length, b.length) / Math.max(a.length, b.length)) ** 0.25 : 0;
  // One letter misread in a word of five or more (« Müller » read "Miller"), two in a longer text: the same name.
  const longest = Math.max(sa.length, sb.length);
  const slips = longest >= 5 && Math.abs(sa.length - sb.length) <= 2 ? levenshtein(sa, sb) : Infinity;
  const misread = slips <= (longest >= 10 ? 2 : 1) ? 0.9 - (0.5 * slips) / longest : 0;
  // An icon the OCR read as a lone sign before the words (a sidebar's circle read "O", a magnifier "Q"): the words.
  const glyphless = b.replace(/^\S (?=\S\S)/u, "");
  const bare = glyphless !== b && a.length >= 2 && !/^\S /u.test(a) ? 0.95 * textSimilarity(a, glyphless) : 0;
  return Math.max(tokenF1 * 0.95, dice * 0.9, contains, misread, bare);
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
  /**
   * Ground as a person's instruction: the UI lexicon, captions, rank, position among the
   * candidates, colour, icon and relation words. Default: when the instruction is given as text;
   * a parsed instruction (replay's recorded label) is looked up by label, type and position.
   */
  natural?: boolean;
  /**
   * What the icon recognizer said of glyphs (by `glyphKey` of their ink box): `locateWithIcons`
   * fills it for an instruction that describes an icon.
   */
  iconScores?: ReadonlyMap<string, IconScores>;
}

/**
 * « la liste Paramètres du compte »: a name a possessive cut in two (« du », "of the") that the screen shows whole is one
 * name, and the kind said after it is the target's.
 */
function joinedName(parsed: ParsedInstruction, elements: readonly LocatableElement[]): ParsedInstruction {
  const rel = parsed.relation;
  if (rel?.kind !== "near" || !parsed.target || !rel.anchor || rel.anchorOrdinal !== undefined) return parsed;
  const joined = `${parsed.target} ${rel.anchor}`;
  if (!elements.some((e) => textSimilarity(joined, e.label) >= 0.95 && textSimilarity(parsed.target, e.label) < 0.95)) return parsed;
  const { relation, ...rest } = parsed;
  const type = rest.type ?? relation?.anchorType;
  return { ...rest, target: joined, ...(type ? { type } : {}) };
}

/**
 * Chooses the element an instruction names. `frame` gives the size for position hints; when it
 * is a Frame (pixels), colours and icons are read from it too.
 */
export function locate(instruction: string | ParsedInstruction, elements: readonly LocatableElement[], frame: Size | Frame, options: LocateOptions = {}): LocateResult {
  const given = typeof instruction === "string" ? parseInstruction(instruction) : instruction;
  if (!(options.natural ?? typeof instruction === "string")) return locateByLabel(given, elements, frame, options);
  const parsed = joinedName(given, elements);
  const r = groundInstruction(parsed, elements, frame, options);
  for (const icon of r.found ? [] : iconReadings(parsed)) {
    const again = groundInstruction(icon.parsed, elements, frame, options);
    if (accepted(again, icon.strict)) return again;
  }
  return r.found ? r : byKind(r, parsed, (k) => groundInstruction(k, elements, frame, options));
}

/**
 * A field named by its kind ("the search box", « le champ de recherche ») where no element bears the word: the field the
 * type and place alone point to, where they point to one.
 */
function byKind(r: LocateResult, parsed: ParsedInstruction, ground: (p: ParsedInstruction) => LocateResult): LocateResult {
  if (parsed.type !== "text_input" || !parsed.target || !FIELD_KINDS.has(foldText(parsed.target).trim())) return r;
  const again = ground({ ...parsed, target: "" });
  return again.found && !again.ambiguous ? again : r;
}

/** Words that say what a field is for, not what it is called. */
const FIELD_KINDS: ReadonlySet<string> = new Set(["search", "recherche", "rechercher", "find"]);

/**
 * `locate`, with an icon recognizer asked what the candidates' glyphs show when the instruction
 * describes an icon ("the floppy disk icon", « l'icône de bouée ») or names one by what it does and
 * no label says it ("the play button" on a toolbar of icons). Without pixels, an icon or a
 * recognizer it is `locate`.
 */
export async function locateWithIcons(instruction: string, elements: readonly LocatableElement[], frame: Size | Frame, recognizer: IconRecognizer | undefined, options: LocateOptions = {}, signal?: AbortSignal): Promise<LocateResult> {
  if (!recognizer || !hasPixels(frame)) return locate(instruction, elements, frame, options);
  // The glyphs are read and recognized once, whatever reading of the instruction asks for them.
  let seen: SeenIcons | undefined;
  const withScores = async (parsed: ParsedInstruction): Promise<LocateResult> => {
    if (iconClasses(parsed).length === 0) return groundInstruction(parsed, elements, frame, options);
    seen ??= await recognizeGlyphs(frame, elements, recognizer, signal);
    return groundInstruction(parsed, elements, frame, { ...options, iconScores: seen.scores }, seen);
  };
  const parsed = joinedName(parseInstruction(instruction), elements);
  const r = await withIconReading(parsed);
  return r.found ? r : byKind(r, parsed, (k) => groundInstruction(k, elements, frame, options));

  /** The instruction grounded, or read as an icon where that fits better. */
  async function withIconReading(parsed: ParsedInstruction): Promise<LocateResult> {
    const r = await withScores(parsed);
    // Read as an icon where no label matched, or where only a detected element of a kin type bears the name ("the home
    // button": a link « Accueil » in a side menu) and an element of the very type shows the icon and bears no other words
    // (the button showing a house).
    const found = r.found ? r.candidates.find((c) => c.element_id === r.element_id) : undefined;
    const kinOnly = r.found && !!parsed.type && !isText({ element_id: r.element_id }) && (found?.type_score ?? 1) < 1;
    // …or where the instruction places the target beside something and the icon so named stands there much better than
    // the element bearing the name (« le bouton actualiser à côté de la recherche »: the refresh icon by the search field,
    // not the « Refresh » button at the bottom).
    // (A relation whose anchor nothing on screen bears — « le bouton du compte » — placed nothing: its words name the
    // target, and may name it as an icon.)
    const anchorless = !!parsed.relation && !parsed.target && !!parsed.relation.anchor && findAnchors(parsed.relation, elements, parsed.type).length === 0;
    const placed = r.found && !!parsed.relation && !anchorless;
    // …or, likewise, where what bears the name bears it only in part ("the help button" beside « Aide −33 % »: the button
    // showing a question mark; a table's « ACTIONS » header for « le bouton plus d'actions »), or where only lines of text
    // bear it, not one line alone (« le deuxième bouton paramètres » beside « Paramètres · −9 % »: the second gear) or not
    // where the instruction places it (« le bouton paramètres en haut » beside words low on the page).
    const misplaced = !!found && !!parsed.position && !matchesPositionHint(found.bbox, parsed.position, frame);
    const partly = (found?.text_score ?? 1) < 0.8;
    // (Words ending a sentence — « …avant de valider. » — are prose, no control's name: a label ends in no full stop.)
    const prose = !!found && /[^.]\.$/u.test(found.label.trim());
    const textOnly = r.found && !!parsed.type && (partly || (isText({ element_id: r.element_id }) && (r.ambiguous || misplaced || prose))) && !placed;
    // Why the icon reading is tried decides how it wins: where nothing (or no anchor) matched, it is the answer; where
    // the target is placed, when it stands there much better; where only a kin element or lines of text bear the name,
    // when an element of the very type shows the icon and bears no words.
    const why = kinOnly ? "kin" : placed ? "placed" : textOnly ? "text" : !r.found || anchorless ? "unmatched" : undefined;
    // (Of the icons the words may stand for, the first seen: « messages », a chat's bubbles or a mail's envelope.)
    let again: LocateResult | undefined;
    for (const icon of why ? iconReadings(anchorless ? { ...parsed, target: parsed.relation!.anchor, relation: undefined } : parsed) : []) {
      const next = await withScores(icon.parsed);
      if (accepted(next, icon.strict)) {
        again = next;
        break;
      }
    }
    if (!again) return r;
    switch (why) {
      case "unmatched":
        return again;
      case "placed":
        return again.found && r.found && again.element_id !== r.element_id && again.score >= r.score + 0.1 ? again : r;
      default:
        return showsIconAlone(again) ? again : r;
    }
  }

  /**
   * Whether the answer is an element of the very type that shows the icon and bears no words, not drawn inside an element
   * bearing other words (the lens of a « Recherche rapide » field is the field's).
   */
  function showsIconAlone(again: LocateResult): boolean {
    const shown = again.found && again.icon_seen === true ? again.candidates.find((c) => c.element_id === again.element_id) : undefined;
    const inWorded = (c: LocateCandidate) => elements.some((e) => e.element_id !== c.element_id && !isText(e) && !wordless(e.label) && bboxContainsPoint(boxOf(e), bboxCenter(c.bbox)));
    return !!shown && shown.type_score >= 1 && wordless(shown.label) && !inWorded(shown);
  }
}

/** The appearances and icon proposals of a screen's candidates, and what the recognizer said of their glyphs. */
interface SeenIcons {
  readonly look: (e: LocatableElement) => Appearance | undefined;
  readonly proposals: readonly LocatableElement[];
  readonly scores: ReadonlyMap<string, IconScores>;
}

async function recognizeGlyphs(frame: Frame, elements: readonly LocatableElement[], recognizer: IconRecognizer, signal?: AbortSignal): Promise<SeenIcons> {
  const look = appearances(frame);
  const proposals = iconProposalElements(frame, elements, true);
  const boxes = new Map<string, BBox>();
  for (const e of [...elements, ...proposals]) {
    const a = look(e);
    for (const g of [a?.glyph, ...(a?.glyphs ?? [])]) if (g) boxes.set(glyphKey(g.bbox), g.bbox);
  }
  const scores = await recognizer.recognize(frame, [...boxes.values()], signal);
  return { look, proposals, scores: new Map([...boxes.keys()].map((k, i) => [k, scores[i]!])) };
}

/** Whether `locateWithIcons` may ask an icon recognizer for this instruction (it describes an icon, or its target may be read as one). */
export function mayAskIcons(instruction: string): boolean {
  const parsed = parseInstruction(instruction);
  return iconClasses(parsed).length > 0 || iconReadings(parsed).some((r) => iconClasses(r.parsed).length > 0);
}

/**
 * A target no label matched, read as an icon: its whole text an icon's word ("the play button") describes that
 * icon; its whole text the name such an icon stands for ("click Save", « Imprimer » on a toolbar of icons) is
 * `strict`: taken only when an icon that shows it is seen, unambiguously — never a guess among icons. A name several
 * icons stand for (« messages »: a chat's bubbles, a mail's envelope) gives each, in the lexicon's order.
 */
function iconReadings(parsed: ParsedInstruction): { parsed: ParsedInstruction; strict: boolean }[] {
  if (parsed.icon || !parsed.target) return [];
  const t = foldText(parsed.target).trim();
  const concepts = Object.entries(ICON_CONCEPTS);
  const word = concepts.find(([, c]) => c.words.some((w) => foldText(w) === t))?.[0];
  if (word) return [{ parsed: { ...parsed, target: "", icon: word }, strict: false }];
  return concepts.filter(([, c]) => c.labels.some((l) => /\p{L}{3}/u.test(l) && foldText(l) === t)).map(([named]) => ({ parsed: { ...parsed, target: "", icon: named }, strict: true }));
}

// Strict: the icon is seen, or the element bears the icon's own label ("X" on a window's close button), unambiguously.
const accepted = (r: LocateResult, strict: boolean): boolean => r.found && (!strict || ((r.icon_seen === true || r.icon_named === true) && !r.ambiguous));

/** The key of a glyph's ink box in `LocateOptions.iconScores`. */
export const glyphKey = (b: BBox): string => b.map((v) => Math.round(v)).join(",");

/** An element's appearance, read once per element id; short text and proposed blobs are boxed tight around their ink, so their surroundings give the fill. */
function appearances(pixels: Frame | undefined): (e: LocatableElement) => Appearance | undefined {
  const looks = new Map<string, Appearance>();
  return (e) => {
    if (!pixels) return undefined;
    let a = looks.get(e.element_id);
    const short = wordless(e.label);
    const tight = (isText(e) && short) || e.element_id.startsWith("icon:");
    if (!a) looks.set(e.element_id, (a = tight ? elementAppearance(pixels, padBox(boxOf(e), 0.25), short, boxOf(e)) : elementAppearance(pixels, boxOf(e), short)));
    return a;
  };
}

/**
 * Icon-sized blobs no element or text covers: candidates when an icon is described. With a
 * recognizer to tell icons apart (`besideLabels`), also the icons inside labelled elements (a
 * toolbar button's icon above its word), which only text then covers.
 */
function iconProposalElements(pixels: Frame, elements: readonly LocatableElement[], besideLabels: boolean): LocatableElement[] {
  const occupied = (besideLabels ? elements.filter((e) => isText(e) || wordless(e.label)) : elements).map(boxOf);
  return iconProposals(pixels, occupied, elements.map(boxOf)).map((b, i) => ({ element_id: `icon:${i}`, type: "button", bbox: b, label: "" }));
}

/** The icon classifier's classes an instruction's icon may be, narrowed to the direction it gives. */
function iconClasses(parsed: ParsedInstruction): readonly string[] {
  const all = parsed.icon ? (ICON_CONCEPTS[parsed.icon]?.classes ?? []) : [];
  const d = parsed.direction;
  if (!d) return all;
  return all.filter((c) => (c.startsWith("arrow_") ? c.endsWith(`_${d}`) : !POINTING[c] || POINTING[c] === d));
}

/**
 * How greyed out each of like elements looks where the detector read no state, as a sum of votes (+1 greyed, −1 not):
 * its ink standing out far less than its kind's on screen; a field's fill faded towards the page (also where its words
 * keep their contrast or where other fields' placeholders are as pale); a toggle greyed in its box only (its caption as
 * dark as its neighbours'), whose box stands out from the page far less than theirs — said for the faded ones only: a
 * toggle greyed in its caption keeps what its caption tells. Elements no judge tells apart are left out.
 */
function greyedOut<S extends { readonly e: LocatableElement; readonly bbox: BBox }>(pixels: Frame, elements: readonly S[]): Map<S, number> {
  const votes = new Map<S, number>();
  const vote = (s: S, v: number) => votes.set(s, (votes.get(s) ?? 0) + v);
  const contrast = new Map(elements.map((s) => [s, inkContrast(pixels, insetBox(s.bbox))]));
  const typical = median([...contrast.values()]);
  const greyed = (c: number) => c > 0 && c < 0.7 * typical;
  if (elements.length >= 2 && [...contrast.values()].some(greyed))
    for (const [s, c] of contrast) if (c > 0) vote(s, greyed(c) ? 1 : -1);
  for (const [s, faded] of fadedFields(pixels, elements)) vote(s, faded ? 1 : -1);
  const toggles = elements.filter((s) => isToggleType(s.e.type));
  if (toggles.length >= 2) {
    const boxes = new Map(toggles.map((s) => [s, inkContrast(pixels, indicatorOf(s.bbox))]));
    const usual = median([...boxes.values()]);
    for (const [s, c] of boxes) if (c < 0.5 * usual) vote(s, 1);
  }
  return votes;
}

/**
 * Fields (text inputs, drop-downs) told apart by their fill: a greyed-out one's is faded towards the page, between the
 * fill the others share and the colour around it (a disabled entry a shade greyer than the white ones, on a light or a
 * dark page), or, where they share the page's colour, another. Each field with whether it is faded; empty where none
 * is, or where fewer than two share a fill.
 */
function fadedFields<S extends { readonly e: LocatableElement; readonly bbox: BBox }>(pixels: Frame, candidates: readonly S[]): Map<S, boolean> {
  const looks = candidates.filter((s) => isFieldType(s.e.type)).flatMap((s) => {
    const l = fillAndSurround(pixels, s.bbox);
    return l ? [[s, l] as const] : [];
  });
  const shared = median(looks.map(([, l]) => l.fill));
  // (Where the shared fill is the page's own colour, a field filled otherwise: a grey field among white ones on white.)
  const faded = (l: { fill: number; around: number }) =>
    Math.abs(shared - l.around) <= 3 ? Math.abs(l.fill - shared) > 3 : Math.sign(l.fill - l.around) === Math.sign(shared - l.around) && Math.abs(l.fill - l.around) < Math.abs(shared - l.around) - 3;
  const alike = looks.filter(([, l]) => Math.abs(l.fill - shared) <= 2).length;
  return alike >= 2 && looks.some(([, l]) => faded(l)) ? new Map(looks.map(([s, l]) => [s, faded(l)])) : new Map();
}

/** The recognizer's figures a drawn arrow shape may belong to. */
const SHAPE_FIGURES: Readonly<Record<string, readonly string[]>> = { arrow_down: ["arrow_down", "download"], arrow_up: ["arrow_up", "upload"], arrow_left: ["arrow_left"], arrow_right: ["arrow_right"] };

/** The recognizer's plain arrows: a figure a download or an upload may be drawn as. */
const PLAIN_ARROWS: ReadonlySet<string> = new Set(Object.keys(SHAPE_FIGURES));

/** Icon classes whose figure is an arrow pointing one way: an upload's up, a download's down, arrows all the same. */
const POINTING: Readonly<Record<string, string>> = { upload: "up", download: "down" };

/** Label, type and position: how replay finds a recorded target. */
function locateByLabel(parsed: ParsedInstruction, elements: readonly LocatableElement[], frame: Size, options: LocateOptions): LocateResult {
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
  const captioned = CAPTIONED_TYPES.includes(parsed.type!);
  // A caption whose field the detector did not find: the field drawn beside it in the pixels, as
  // for a person's instruction, never the caption's words (a click there focuses nothing, and the
  // text typed next goes to the field focused before).
  const control = best.element_id.startsWith("text:") && captioned ? controlCaptionedBy(best.bbox, parsed.type!, elements, best.label) : undefined;
  const probed = !control && best.element_id.startsWith("text:") && isFieldType(parsed.type) && hasPixels(frame) ? probeFieldBesideCaption(frame, best.bbox) : undefined;
  const narrowed = !control && !probed && parsed.target ? narrowToWords(parsed.target, elements.find((e) => e.element_id === best.element_id)) : undefined;
  const chosen = control ? { ...best, element_id: control.element_id, type: control.type, bbox: [control.bbox[0], control.bbox[1], control.bbox[2], control.bbox[3]] as BBox } : probed ? { ...best, element_id: `${best.element_id}:field`, type: parsed.type!, bbox: probed } : narrowed ? { ...best, bbox: narrowed } : best;
  return { found: true, element_id: chosen.element_id, bbox: chosen.bbox, point: clickPoint(chosen.type, chosen.bbox), score: best.score, ambiguous, candidates, instruction: parsed };
}

const isText = (e: { element_id: string }) => e.element_id.startsWith("text:");
/** A label that says no word: one or two characters, or signs alone (« -□× » read over a title bar's buttons). */
const wordless = (label: string): boolean => label.trim().length <= 2 || !/[\p{L}\p{N}]/u.test(label);
const isToggleType = (t: UIElementType | undefined): boolean => t === "checkbox" || t === "radio_button";
const hasPixels = (f: Size | Frame): f is Frame => (f as Frame).data instanceof Uint8Array && typeof (f as Frame).channels === "number";
const CAPTIONED_TYPES: readonly UIElementType[] = ["text_input", "dropdown", "checkbox", "radio_button"];

/** Lexicon phrases (normalized) → the other phrases of their group. */
const LEXICON_INDEX: ReadonlyMap<string, readonly string[]> = (() => {
  const m = new Map<string, Set<string>>();
  for (const group of UI_LEXICON) {
    const norm = [...new Set(group.map((p) => normalizeLabel(p)).filter(Boolean))];
    for (const p of norm) {
      const set = m.get(p) ?? new Set<string>();
      for (const q of norm) if (q !== p) set.add(q);
      m.set(p, set);
    }
  }
  return new Map([...m].map(([k, v]) => [k, [...v]]));
})();
const MAX_VARIANTS = 32;

/**
 * The target said with other UI words of the lexicon, phrase by phrase ("Tools menu" →
 * « outils menu », "mot de passe" → "password"): at most MAX_VARIANTS, the original excluded.
 */
export function lexiconVariants(target: string): string[] {
  const toks = normalizeLabel(target).split(" ").filter(Boolean).slice(0, 12);
  let variants: string[][] = [[]];
  let changed = false;
  for (let i = 0; i < toks.length; ) {
    let n = Math.min(4, toks.length - i);
    for (; n >= 1; n--) if (LEXICON_INDEX.has(toks.slice(i, i + n).join(" "))) break;
    const phrase = toks.slice(i, i + Math.max(n, 1)).join(" ");
    const options = n >= 1 ? [phrase, ...LEXICON_INDEX.get(phrase)!] : [phrase];
    if (options.length > 1) changed = true;
    const next: string[][] = [];
    for (const v of variants) for (const o of options) if (next.length < MAX_VARIANTS * 2) next.push([...v, o]);
    variants = next;
    i += Math.max(n, 1);
  }
  if (!changed) return [];
  const original = toks.join(" ");
  return [...new Set(variants.map((v) => v.join(" ")))].filter((v) => v !== original).slice(0, MAX_VARIANTS);
}

interface Scored {
  readonly e: LocatableElement;
  readonly bbox: BBox;
  /** The words that matched its label: the target, or the target in the lexicon's other words. */
  readonly said: string;
  readonly text: number;
  readonly type: number;
  /** Label, caption and type: what the element is. */
  readonly base: number;
  position: number;
  score: number;
}

/** A person's instruction against the elements and on-screen text (see the file's header). */
function groundInstruction(parsed: ParsedInstruction, elements: readonly LocatableElement[], frame: Size | Frame, options: LocateOptions, shared?: SeenIcons): LocateResult {
  // The thing the target sits next to; when nothing on screen is called so, its words name the target.
  const anchors = parsed.relation ? findAnchors(parsed.relation, elements, parsed.type) : [];
  // "The delete button in row 3" where no row says "Row 3": the third of those that fit, in reading order.
  if (parsed.relation?.rowNumber !== undefined && parsed.ordinal === undefined && !anchors.length) {
    const { relation, ...rest } = parsed;
    return groundInstruction({ ...rest, ordinal: relation.rowNumber }, elements, frame, options, shared);
  }
  const margin = options.ambiguityMargin ?? 0.05;
  const minScore = options.minScore ?? 0.45;
  const pixels = hasPixels(frame) ? frame : undefined;
  const look = shared?.look ?? appearances(pixels);
  const concept = parsed.icon ? ICON_CONCEPTS[parsed.icon] : undefined;
  const shapes = wantedShapes(parsed);
  const classes = iconClasses(parsed);
  /** The recognizer's belief that a glyph shows the icon asked for (undefined: not asked). */
  const learned = (g: Glyph): { wanted: number; other: number } | undefined => {
    const s = options.iconScores?.get(glyphKey(g.bbox));
    if (!s || classes.length === 0) return undefined;
    const wanted = classes.reduce((sum, c) => sum + (s[c] ?? 0), 0);
    const other = Math.max(0, ...Object.entries(s).filter(([c]) => c !== "other" && !classes.includes(c)).map(([, p]) => p));
    return { wanted, other };
  };
  // Numbered rows (pagers) among the boxes that are not OCR lines, read once when something asks: their numbers, their
  // members, where they are.
  let rows: NumberedRows | undefined;
  const numberedOnScreen = () => (rows ??= numberedRows(elements.filter((e) => !isText(e)).map((e) => ({ element_id: e.element_id, bbox: boxOf(e), label: e.label }))));
  const pagerNumbers = () => numberedOnScreen().members;
  /** The recognizer's figures the arrow shapes a glyph is drawn with (of those asked) may belong to. */
  const kinFigures = (g: Glyph) => g.shapes.filter((x) => shapes.includes(x)).flatMap((x) => SHAPE_FIGURES[x] ?? []);
  /** The recognizer's figures the arrow shapes asked for are drawn as. */
  const askedFigures = shapes.flatMap((x) => SHAPE_FIGURES[x] ?? []);
  /**
   * A plain arrow the recognizer surely names so, where the figure asked for is one drawn with it (a download): it may
   * stand in for one, below one named — also where its drawn shape was misread (an arrow cut by the screen's edge).
   */
  const standsIn = (g: Glyph) => {
    const s = options.iconScores?.get(glyphKey(g.bbox));
    const kin = [...kinFigures(g), ...askedFigures];
    return !!s && (learned(g)?.wanted ?? 1) < 0.3 && kin.some((c) => PLAIN_ARROWS.has(c) && !classes.includes(c) && (s[c] ?? 0) >= 0.6);
  };
  /** The element's glyph that shows the figure asked for (its drawn shape, or the recognizer's P ≥ 0.5), if any. */
  const figureOf = (e: LocatableElement) => {
    const a = look(e);
    const glyphs = [a?.glyph, ...(a?.glyphs ?? [])].filter((g): g is Glyph => !!g);
    // A pager's number ("4" between "3" and "5") is a character, whatever its ink's outline looks like; so is the ink of
    // a word ("Silva" underlined reads as an arrow; a two-letter « de » too) the recognizer, asked, sees no such icon in.
    const worded = !wordless(e.label) || /\p{L}{2}/u.test(e.label);
    // An arrow drawn is also part of other figures (a download's arrow onto its tray): the one the recognizer surely
    // names is that figure, not the one asked for (a chevron, a plain arrow up where an upload is drawn) — but a plain
    // arrow is what many kits draw for a download or an upload, so a download asked for may be one. And an outline read
    // as a shape is no such figure where the recognizer is all but certain it shows something else (an envelope's flap
    // read as an arrow down, a house's roof as a ring).
    const otherFigure = (g: Glyph) => {
      const s = options.iconScores?.get(glyphKey(g.bbox));
      const l = learned(g);
      if (!s || !l || l.wanted >= 0.3) return false;
      const kin = kinFigures(g);
      if (kin.some((c) => !classes.includes(c) && !(PLAIN_ARROWS.has(c) && classes.some((w) => kin.includes(w))) && (s[c] ?? 0) >= 0.6)) return true;
      return Object.entries(s).some(([c, p]) => c !== "other" && !kin.includes(c) && p >= 0.9);
    };
    const drawn = (g: Glyph) => !pagerNumbers().has(e.element_id) && g.shapes.some((x) => shapes.includes(x)) && !(worded && (learned(g)?.wanted ?? 1) < 0.1) && !otherFigure(g);
    return glyphs.find(drawn) ?? glyphs.find((g) => (learned(g)?.wanted ?? 0) >= 0.5) ?? glyphs.find((g) => !pagerNumbers().has(e.element_id) && !worded && standsIn(g));
  };
  const lines = elements.filter(isText).map((t) => ({ text: t.label, bbox: boxOf(t), confidence: 1, words: [] }));
  const captions = new Map<string, string>();
  const captionOfField = (e: LocatableElement): string => {
    if (isText(e) || !isFieldType(e.type)) return "";
    let c = captions.get(e.element_id);
    if (c === undefined) captions.set(e.element_id, (c = (captionOf(boxOf(e), lines, "left") ?? captionOf(boxOf(e), lines, "above"))?.text ?? ""));
    return c;
  };
  const anchor = anchors[0];
  const target = parsed.relation && !anchor ? [parsed.target, parsed.relation.anchor].filter(Boolean).join(" ") : parsed.target;
  const variants = target ? lexiconVariants(target) : [];
  // "page 3" in a pager is the link "3".
  const page = /^(?:page|p\.?)\s+(\d{1,4})$/iu.exec(target.trim());
  if (page) variants.push(page[1]!);
  // …and a pager's box whose number OCR missed stands for the number its place in the row gives.
  const numbered = page ? numberedOnScreen().numbers : undefined;
  // An icon described: icon-sized blobs no element or text covers are candidates too.
  // Icons inside labelled elements (asked only with a recognizer) stay candidates only when it names them as the icon asked for.
  // Not where the words read there hold the icon's sign ("?" in « Mot de passe oublié ? »): that ink is the word's.
  const signs = (concept?.labels ?? []).filter((l) => !/\p{L}/u.test(l));
  const labelled = elements.filter((e) => !isText(e) && !wordless(e.label));
  const inLabelled = (p: LocatableElement) => labelled.filter((e) => bboxContainsPoint(boxOf(e), bboxCenter(boxOf(p))));
  const proposals: LocatableElement[] = concept && pixels
    ? (shared?.proposals ?? iconProposalElements(pixels, elements, !!options.iconScores)).filter((p) => {
        const around = inLabelled(p);
        if (!around.length) return true;
        if (around.some((e) => signs.some((c) => e.label.includes(c)))) return false;
        return !!look(p)?.glyph && (learned(look(p)!.glyph!)?.wanted ?? 0) >= 0.5;
      })
    : [];
  // « The switch »: where check boxes drawn as switches are on screen, they are the type asked; the others are kin.
  const switches = parsed.switch && pixels ? new Set(elements.filter((e) => !isText(e) && e.type === "checkbox" && switchShaped(pixels, boxOf(e))).map((e) => e.element_id)) : undefined;
  // A text box asked for by no name ("the text area at the top"): multi-line boxes the detector missed are candidates too.
  const areas: LocatableElement[] =
    parsed.type === "text_input" && !parsed.target && !parsed.state && pixels
      ? textAreasFromLines(pixels, elements.filter(isText).map(boxOf), elements.filter((e) => !isText(e) && e.type !== "text_input").map(boxOf))
          .filter((b) => !elements.some((e) => !isText(e) && e.type === "text_input" && bboxIoU(boxOf(e), b) >= 0.5))
          .map((b, i) => ({ element_id: `area:${i}`, type: "text_input", bbox: b, label: "" }))
      : [];
  // A slider: a knob on a track fits best, an element holding one too; those the detector missed are candidates.
  const sliderBoxes = parsed.slider && pixels ? slidersOf(pixels, pixels.scaleFactor ?? 1) : [];
  const holdsSlider = (e: LocatableElement) => !isText(e) && sliderBoxes.some((b) => bboxContainsPoint(boxOf(e), bboxCenter(b)) && bboxIoU(boxOf(e), b) >= 0.3);
  const sliders: LocatableElement[] = sliderBoxes.filter((b) => !elements.some((e) => !isText(e) && bboxIoU(boxOf(e), b) >= 0.5)).map((b, i) => ({ element_id: `slider:${i}`, type: "generic_interactive", bbox: b, label: "" }));
  const scored: Scored[] = [...elements, ...proposals, ...areas, ...sliders].map((e) => {
    const bbox = boxOf(e);
    const names = [captionOfToggle(e), e.text?.raw ?? "", captionOfField(e), numbered?.get(e.element_id)?.toString() ?? ""];
    const sim = (t: string) => Math.max(textSimilarity(t, names[0]!), textSimilarity(t, names[1]!) * 0.95, textSimilarity(t, names[2]!) * 0.97, textSimilarity(t, names[3]!) * 0.95);
    let text = 0.5;
    let said = target;
    if (target) {
      text = sim(target);
      for (const v of variants) {
        if (text >= 0.95) break;
        const t = sim(v) * 0.95;
        if (t > text) [text, said] = [t, v];
      }
    }
    // "The password field": a field showing masked text fits those words as if it bore them.
    if (parsed.masked && pixels && e.type === "text_input" && text < 0.95 && showsMaskedText(pixels, bbox)) [text, said] = [0.95, e.label];
    let type = typeScore(parsed, e, !!concept);
    if (switches?.size && e.type === "checkbox" && !switches.has(e.element_id)) type = 0.6; // a check box for « the switch »: kin
    const base = text * 0.7 + type * 0.2 + 0.1;
    return { e, bbox, said, text, type, base, position: 1, score: base };
  });
  const bestBase = Math.max(0, ...scored.map((s) => s.base));
  const plausible = scored.filter((s) => s.base >= bestBase - 0.1 && (!target || s.text >= 0.5));
  // Where: on the window, and among the elements that fit the rest (the rightmost of two Apply buttons).
  // (A side bar is the column of items along the window's left edge: leftwards, and in that column.)
  const side = parsed.region === "side";
  const regionEdge = parsed.region === "title" ? "top" : side ? undefined : parsed.region;
  const hint: PositionHint | undefined =
    parsed.position || regionEdge || side
      ? { ...(parsed.position ?? {}), ...(!parsed.position?.vertical && regionEdge ? { vertical: regionEdge } : {}), ...(side && !parsed.position?.horizontal ? { horizontal: "left" as const } : {}) }
      : undefined;
  /** Of `xs`, those in the column nearest the window's left edge: starting within three of their heights of the leftmost. */
  const sideColumn = (xs: readonly Scored[]): Scored[] => {
    const left = Math.min(...xs.map((s) => s.bbox[0]));
    const h = median(xs.map((s) => s.bbox[3] - s.bbox[1]));
    return xs.filter((s) => s.bbox[0] - left <= 3 * h);
  };
  if (hint && parsed.ordinal === undefined) {
    // (A title bar is the window's top edge itself: said as strongly as "at the top".)
    const weight = parsed.position || parsed.region === "title" ? 0.3 : 0.12;
    const rel = relativePosition(plausible.map((s) => s.bbox), hint);
    for (const s of scored) {
      const win = positionHintScore(s.bbox, hint, frame);
      s.position = rel ? 0.6 * rel(s.bbox) + 0.4 * win : win;
      s.score += weight * (s.position - 0.5);
    }
  }
  if (parsed.colour && pixels)
    for (const s of scored) {
      const a = look(s.e)!;
      // An icon's colour is the colour of an element that shows nothing else, or of the icon asked for; beside words, said
      // of the element, it is a small part of it (the blue plus of a grey « + Preview » against a blue « Preview » button).
      const glyphShare = (a.glyph?.saturated ? 1 : 0.7) * (!wordless(s.e.label) && !parsed.icon ? 0.6 : 1);
      const c = Math.max(colourMatch(parsed.colour, a.fill), a.glyph ? colourMatch(parsed.colour, a.glyph.colour) * glyphShare : 0);
      s.score += 0.3 * (c - 0.5);
    }
  // "The text area": a text box several lines of the screen's text tall before a one-line field.
  if (parsed.multiline) {
    const heights = elements.filter(isText).map((t) => boxOf(t)[3] - boxOf(t)[1]).sort((a, b) => a - b);
    const line = heights[heights.length >> 1] ?? 16;
    for (const s of scored) if (!isText(s.e) && s.e.type === "text_input" && s.bbox[3] - s.bbox[1] >= 3 * line) s.score += 0.15;
  }
  if (sliderBoxes.length) for (const s of scored) if (s.e.element_id.startsWith("slider:") || holdsSlider(s.e)) s.score += 0.2;
  // "In the breadcrumb": the elements on a line of words with a path's separators between them (« Accueil / Rapports »).
  if (parsed.breadcrumb) {
    // (Its separators read alone between words, or glued to an item's end or start by OCR: « Forgotpassword?/ ».)
    const trails = elements.filter((e) => /(?:^|\s)[>›»/|→]+(?:\s|$)|[>›»/|→]$|^[>›»/|→]|\S[>›»|→]\S/u.test(e.label.trim())).map((e) => padBBox(boxOf(e), 2));
    for (const s of scored) if (trails.some((t) => bboxContainsPoint(t, bboxCenter(s.bbox)))) s.score += 0.2;
  }
  // "In the pagination": the elements in a pager's row (its numbers and the arrows at its ends).
  const bands = parsed.pager ? numberedOnScreen().bands : [];
  const inPager = (s: Scored) => bands.some((b) => bboxContainsPoint(b, bboxCenter(s.bbox)));
  for (const s of scored) if (inPager(s)) s.score += 0.2;
  // "The checked box", « l'onglet actif », "the greyed-out button": the states the detector read, only among elements
  // of the type asked (a state read on another kind says nothing of the target), and only where one of them is read in
  // that state (where none is, the detector did not tell them apart).
  if (parsed.state) {
    const kinToo = scored.filter((s) => !parsed.type || typeCompatibility(parsed.type, s.e.type) >= 0.6);
    // (Where elements of the very type are on screen and none is read in the state, a kin one read so — a greyed button
    // beside « la liste déroulante désactivée » — says nothing of them: they are told apart by their pixels, if at all.)
    const exact = parsed.type ? kinToo.filter((s) => !isText(s.e) && s.e.type === parsed.type) : [];
    const readIn = (xs: readonly Scored[]) => xs.some((s) => stateAgreement(parsed.state!, s.e.state) > 0);
    const fitting = exact.length && !readIn(exact) && readIn(kinToo) ? exact : kinToo;
    // « l'onglet actif »: the one tab in an accent colour its siblings lack (a selected tab's coloured bar or fill).
    const accented = (tabs: readonly Scored[]) => {
      const ranked = tabs.map((s) => [s, accentShare(pixels!, s.bbox)] as const).sort((a, b) => b[1] - a[1]);
      const [top, next] = [ranked[0], ranked[1]];
      return tabs.length >= 2 && top && top[1] >= 0.03 && (next?.[1] ?? 0) <= 0.25 * top[1] ? top[0] : undefined;
    };
    const tabState = !!pixels && parsed.state === "on" && parsed.type === "tab";
    if (readIn(fitting)) {
      for (const s of fitting) s.score += 0.15 * stateAgreement(parsed.state, s.e.state);
      // Several tabs read selected (the detector's state is wrong for all but one): the accent tells them apart.
      const read = fitting.filter((s) => !isText(s.e) && s.e.type === "tab" && stateAgreement(parsed.state!, s.e.state) > 0);
      const top = tabState && read.length >= 2 ? accented(read) : undefined;
      if (top) top.score += 0.1;
    } else if (tabState) {
      // Where the detector read none selected; among the tabs, where there are two or more (a kin button filled with the
      // accent is no sibling).
      const top = accented((exact.length >= 2 ? exact : fitting).filter((s) => !isText(s.e)));
      if (top) top.score += 0.15;
    } else if (pixels && (parsed.state === "disabled" || parsed.state === "enabled")) {
      // Not read by the detector: told by their pixels (of the very type asked, where there are two or more: a greyed
      // button says nothing of « la liste déroulante grisée »).
      const elements = exact.length >= 2 ? exact : fitting.filter((s) => !isText(s.e));
      const sign = parsed.state === "disabled" ? 1 : -1;
      for (const [s, greyed] of greyedOut(pixels, elements)) s.score += 0.15 * greyed * sign;
    }
    // « l'interrupteur activé »: of the switches, the one whose track is in an accent colour its siblings lack (a switch
    // is drawn on in the accent, off in grey), whatever the detector read (it reads a knob as ticked either way).
    if (pixels && switches?.size && parsed.state === "on") {
      const top = accented(fitting.filter((s) => switches.has(s.e.element_id)));
      if (top) top.score += 0.15;
    }
    // « l'élément de menu sélectionné », "the active link in the side bar": of the links and items (not buttons, which are
    // filled anyway; in the side bar's column where one is said), the one whose fill is of another colour than all the
    // others' — a menu's highlighted entry.
    if (pixels && parsed.state === "on" && (!parsed.type || parsed.type === "link" || parsed.type === "generic_interactive")) {
      const all = fitting.filter((s) => s.e.type === "link" || s.e.type === "generic_interactive");
      const items = side && all.length ? sideColumn(all) : all;
      const fills = items.map((s) => look(s.e)?.fill);
      const common = fills.find((f) => f !== undefined && fills.filter((g) => g === f).length === items.length - 1);
      const odd = fills.findIndex((f) => f !== common);
      if (items.length >= 3 && common && odd >= 0 && fills[odd]) items[odd]!.score += 0.2;
    }
  }
  if (concept) {
    // The icon: its figure (drawn shape or the recognizer's belief), else the label such an icon
    // usually carries, else how icon-like the element is — less so when the recognizer sees another icon in it.
    const weight = target ? 0.2 : 0.5;
    for (const s of scored) {
      const short = wordless(s.e.label);
      const g = look(s.e)?.glyph;
      const named = iconLabelMatch(concept.labels, s.e);
      const fig = figureOf(s.e);
      const belief = fig ? learned(fig) : undefined;
      // (An outline read as a ring — the loosest of the drawn shapes: any round or squarish loop — where the recognizer,
      // asked, all but rules the figure out — a window's maximize square beside a refresh arrow it names —: less than a
      // figure both agree on.)
      const drawnOnly = !!fig && !!belief && belief.wanted < 0.05 && fig.shapes.filter((x) => shapes.includes(x)).every((x) => x === "ring");
      const seen = fig ? (standsIn(fig) ? 0.85 : belief && !fig.shapes.some((x) => shapes.includes(x)) ? 0.55 + 0.45 * Math.min(1, belief.wanted) : drawnOnly ? 0.8 : 1) : 0;
      const l = g ? learned(g) : undefined;
      const elsewhere = l && l.wanted < 0.2 && l.other >= 0.6;
      const iconLike = g ? (short ? (elsewhere ? 0.45 : 0.55) : 0.4) : short ? 0.4 : 0.1;
      // (A title bar's control is its figure: a « Cancel » button below is not the window's close.)
      const i = Math.max(seen, named >= 0.9 ? (parsed.region === "title" ? 0.6 : g ? 0.85 : 0.75) : 0, iconLike);
      s.score += weight * (i - 0.4);
    }
  }
  // In a group: any of the things so named will do (a site's name in its header and a card's title alike). A row's
  // name seen twice stays the best match's (a name in one row's first column and in another's third).
  // (A row named by a toggle of a kin type — a radio button « Business » — and by words, whose row holds an element of
  // the very type asked — « Business » opening a settings row whose check box is at its end —: the words' row.)
  const first = anchors[0];
  const kinNamed = !!first && !!parsed.type && isToggleType(first.type) && first.type !== parsed.type && typeCompatibility(parsed.type, first.type) >= 0.6;
  const rowWith = parsed.relation?.kind === "row" && kinNamed
    ? anchors.find((a) => elements.some((e) => !isText(e) && e.type === parsed.type && !sameThing(boxOf(e), boxOf(a)) && relationScore("row", a, e) >= 0.5))
    : undefined;
  const placed = parsed.relation?.kind === "inside" || parsed.relation?.anchor === "" ? anchors : anchors.length ? [rowWith ?? anchors[0]!] : [];
  if (anchor)
    for (const s of scored) s.score += 0.4 * (Math.max(...placed.map((a) => relationScore(parsed.relation!.kind, a, s.e))) - 0.5);
  // A field named by words: its caption rather than a field that shows those words (a placeholder).
  const enclosures = new Map<string, BBox | undefined>();
  const enclosed = (s: Scored) => {
    if (!enclosures.has(s.e.element_id)) enclosures.set(s.e.element_id, pixels ? enclosingBox(pixels, s.bbox) : undefined);
    return enclosures.get(s.e.element_id);
  };
  if (pixels && target && isFieldType(parsed.type))
    for (const s of plausible) if (isText(s.e) && enclosed(s)) s.score -= 0.04;
  // "In the top bar", « dans la barre d'outils »: a bar is a strip at the window's edge — of the leading candidates,
  // those in the strip of the one nearest that edge (the navigation bar's search icon, not the side bar's below it);
  // "in the side bar", those in the column nearest the left edge.
  /** Of `xs` (two or more), those in the strip of the one nearest the window's `regionEdge`. */
  const edgeStrip = (xs: readonly Scored[]): Scored[] => {
    const edge = (s: Scored) => (regionEdge === "top" ? bboxCenter(s.bbox)[1] : -bboxCenter(s.bbox)[1]);
    const nearest = xs.reduce((m, s) => (edge(s) < edge(m) ? s : m));
    const strip = 1.5 * Math.max(nearest.bbox[3] - nearest.bbox[1], 0.02 * frame.height);
    return xs.filter((s) => edge(s) - edge(nearest) <= strip);
  };
  if ((regionEdge || side) && parsed.ordinal === undefined) {
    const lead = Math.max(...scored.map((s) => s.score));
    const contenders = scored.filter((s) => s.score >= lead - 0.1);
    if (contenders.length > 1) for (const s of side ? sideColumn(contenders) : edgeStrip(contenders)) s.score += 0.06;
  }
  scored.sort((a, b) => b.score - a.score);
  const out = (s: Scored): LocateCandidate => ({ element_id: s.e.element_id, type: s.e.type, label: s.e.label, bbox: s.bbox, score: round3(s.score), text_score: round3(s.text), type_score: s.type, position_score: round3(s.position) });
  const candidates = scored.slice(0, 5).map(out);
  let best = scored[0];
  if (!best || best.base < minScore || (target && best.text < 0.5))
    return { found: false, reason: best ? `no element matches "${target}" well enough (best: "${best.e.label}" ${best.e.type}, score ${round3(best.score)})` : "no elements detected on the screen", candidates, instruction: parsed };
  let ambiguous: boolean;
  if (parsed.ordinal !== undefined) {
    // Rank among the elements that fit, in reading order ("the second City list", « la dernière case »).
    // « le premier engrenage », "the second trash can": ranks among the elements that show the icon, where enough do.
    // "The first link of the pagination": ranks in the pager's row.
    // "The last button top right": ranks among those in that part of the window, where enough are.
    // A field's words inside a box drawn around them, where the detector missed the field, stand for that field (the
    // second « Search » field, of which only the placeholder was read).
    const fieldText = (s: Scored) => !!pixels && isFieldType(parsed.type) && isText(s.e) && !!enclosed(s);
    const topText = Math.max(...plausible.map((s) => s.text));
    const fits = target && pixels && isFieldType(parsed.type) ? [...plausible, ...scored.filter((s) => !plausible.includes(s) && s.text >= topText - 0.02 && fieldText(s))] : plausible;
    const paged = fits.filter(inPager);
    const placed = side && fits.length ? sideColumn(fits) : hint ? fits.filter((s) => matchesPositionHint(s.bbox, hint, frame)) : [];
    const enough = (xs: readonly Scored[]) => xs.length >= Math.abs(parsed.ordinal!);
    const among = enough(paged) ? paged : enough(placed) ? placed : fits;
    const showing = concept && !target ? among.filter((s) => figureOf(s.e)) : [];
    // « le deuxième curseur »: ranks among the sliders found, where enough are (not the menu's items of the same type).
    const sliding = sliderBoxes.length ? among.filter((s) => s.e.element_id.startsWith("slider:") || holdsSlider(s.e)) : [];
    const ranked = rankable(enough(showing) ? showing : enough(sliding) ? sliding : among, parsed, fieldText);
    const pick = ranked[parsed.ordinal > 0 ? parsed.ordinal - 1 : ranked.length + parsed.ordinal];
    if (pick) best = pick;
    ambiguous = !pick;
  } else {
    const second = scored.find((s) => s !== best && !sameThing(s.bbox, best!.bbox));
    ambiguous = !!second && best.score - second.score < margin;
  }
  // Words on screen that caption a control ("Year" above its field, "Tiers payant" right of its
  // box): act on the control the instruction names, not on its caption.
  let chosen: { element_id: string; type: UIElementType; bbox: BBox } = { element_id: best.e.element_id, type: best.e.type, bbox: best.bbox };
  const wantType = parsed.type;
  // (A caption the detector typed as something else, a tab or a link, is a caption all the same.)
  const isCaption = (s: Scored) => !!wantType && CAPTIONED_TYPES.includes(wantType) && (isText(s.e) || typeCompatibility(wantType, s.e.type) < 0.6);
  const controlOf = (s: Scored) => controlNamedBy(s, { pixels, wantType, elements, enclosed });
  // A kin element bearing the name (a radio button « Personal ») yields to a caption of the same words that names a
  // control of the very type asked (« Personal » opening a settings row whose switch stands at its end).
  if (wantType && target && parsed.ordinal === undefined && !isCaption(best) && best.type < 1) {
    const kin = best;
    const caption = scored.find((s) => isCaption(s) && s.text >= kin.text - 0.05 && kin.score - s.score <= 0.1 && controlOf(s)?.type === wantType);
    if (caption) best = caption;
  }
  // « le bouton Couleur »: words in no drawn box naming no button are a form's caption — the button is the box drawn
  // beside them that shows no words (a colour chooser's swatch the detector missed), where there is one; a flat
  // toolbar button's words, beside the next button, stay the button.
  const probedButton = !isCaption(best) && wantType === "button" && target && pixels && isText(best.e) && !enclosed(best) ? probeFieldBesideCaption(pixels, best.bbox) : undefined;
  const wordsIn = (b: BBox) => elements.some((e) => !wordless(e.label) && bboxContainsPoint(b, bboxCenter(boxOf(e))));
  const onRow = (b: BBox) => b[1] <= bboxCenter(best!.bbox)[1] && b[3] >= bboxCenter(best!.bbox)[1] && b[0] >= best!.bbox[2];
  const captionedButton = probedButton && onRow(probedButton) && !wordsIn(probedButton) ? probedButton : undefined;
  if (isCaption(best)) {
    chosen = controlOf(best) ?? chosen;
    // Equal captions ("Email address" over a field and over a drop-down): the one whose box shows
    // what was asked, a drop-down's arrow or none.
    if (pixels && isFieldType(wantType) && parsed.ordinal === undefined) {
      const tied = scored.filter((s) => s !== best && best!.score - s.score < 0.03 && Math.abs(s.text - best!.text) <= 0.05 && (isCaption(s) || isFieldType(s.e.type)));
      if (tied.length) {
        const wantsArrow = wantType === "dropdown";
        const fits = (c: typeof chosen | undefined) => !!c && dropDownArrow(pixels, c.bbox) === wantsArrow;
        if (!fits(chosen))
          for (const s of tied) {
            const c = isCaption(s) ? controlOf(s) : { element_id: s.e.element_id, type: s.e.type, bbox: s.bbox };
            if (fits(c)) {
              chosen = c!;
              best = s;
              break;
            }
          }
      }
    }
    // Equal captions for a check box or radio button ("Non" in a list, in a table and beside a radio): the one with a
    // toggle's box or circle just before it.
    if (pixels && target && isToggleType(wantType) && parsed.ordinal === undefined && ambiguous) {
      const tied = [best, ...scored.filter((s) => s !== best && best!.score - s.score < 0.03 && Math.abs(s.text - best!.text) <= 0.05 && isCaption(s))];
      // « The switch »: the caption whose control is drawn as a switch (a settings row's heading), before any other.
      const switched = switches?.size ? tied.filter((s) => switches.has(controlOf(s)?.element_id ?? "")) : [];
      const before = tied.filter((s) => !!toggleBefore(pixels, s.bbox));
      // (…else the one whose words name a toggle of the very type at all: a settings row's heading, not the same words a
      // drop-down shows as its value.)
      const toggled = switched.length === 1 ? switched : before.length ? before : tied.filter((s) => controlOf(s)?.type === wantType);
      if (toggled.length === 1) {
        best = toggled[0]!;
        chosen = controlOf(best) ?? { element_id: best.e.element_id, type: best.e.type, bbox: best.bbox };
        ambiguous = false;
      }
    }
  } else if (captionedButton) {
    chosen = { element_id: `${best.e.element_id}:button`, type: "button", bbox: captionedButton };
  } else if (concept && !target) {
    // An icon described: click the icon itself (a detector's box may hold two icons, or the icon and its label).
    const g = figureOf(best.e);
    if (g) chosen = { ...chosen, bbox: g.bbox };
  } else if (target) {
    const narrowed = narrowToWords(best.said, best.e) ?? narrowByCharacters(best.said, best.e);
    if (narrowed) chosen = { ...chosen, bbox: narrowed };
  }
  // A link is its words: where the detector boxed it as wide as its cell or side bar, the ink inside is what is clicked.
  if (chosen.type === "link" && pixels && !isText(best.e)) {
    const ink = inkSpan(pixels, chosen.bbox);
    if (ink) chosen = { ...chosen, bbox: ink };
  }
  const seen = concept ? { icon_seen: !!figureOf(best.e), ...(iconLabelMatch(concept.labels, best.e) >= 0.9 ? { icon_named: true } : {}) } : {};
  return { found: true, element_id: chosen.element_id, bbox: chosen.bbox, point: clickPoint(chosen.type, chosen.bbox), score: round3(best.score), ambiguous, candidates, instruction: parsed, ...seen };
}

/** What `controlNamedBy` reads a caption against: the screen's pixels, the type asked, the elements, and the box drawn
 * around a candidate (looked up once per element). */
interface CaptionScene {
  readonly pixels: Frame | undefined;
  readonly wantType: UIElementType | undefined;
  readonly elements: readonly LocatableElement[];
  readonly enclosed: (s: Scored) => BBox | undefined;
}

/** The control a caption names: the box it sits in, a detected control beside it, or a box drawn beside it. */
function controlNamedBy(s: Scored, { pixels, wantType, elements, enclosed }: CaptionScene): { element_id: string; type: UIElementType; bbox: BBox } | undefined {
  // (An element of another type read over a field's placeholder — a pill's words taken for a radio button's caption —:
  // the drawn box around it, wide of its words as a field is, not a button's own border tight around them.)
  const aroundAny = pixels && isFieldType(wantType) ? enclosed(s) : undefined;
  const h = s.bbox[3] - s.bbox[1];
  const around = aroundAny && (isText(s.e) || (aroundAny[2] - s.bbox[2] >= 2 * h && s.bbox[0] - aroundAny[0] < aroundAny[2] - s.bbox[2])) ? aroundAny : undefined;
  if (around) return { element_id: `${s.e.element_id}:field`, type: wantType!, bbox: around };
  // (Words over a line drawn under them and well past them — a field drawn as its bottom line —: that field, where
  // nothing else stands over the line: a settings row's rule runs under the row's own control too.)
  const underlined = pixels && isFieldType(wantType) ? underlinedField(pixels, s.bbox) : undefined;
  const alone = (b: BBox) => !elements.some((e) => e !== s.e && !bboxContainsPoint(s.bbox, bboxCenter(boxOf(e))) && bboxContainsPoint(b, bboxCenter(boxOf(e))));
  if (underlined && alone(underlined)) return { element_id: `${s.e.element_id}:field`, type: wantType!, bbox: underlined };
  // (One boxed as the field itself — a search field's placeholder taken for a link —: its words at the start of a
  // drawn box that is its own box.)
  if (pixels && isFieldType(wantType) && !isText(s.e)) {
    // (A box too narrow for its words' span to be read — a short field the detector boxed whole —: its inside.)
    const words = inkSpan(pixels, s.bbox) ?? insetBox(s.bbox);
    const drawn = enclosingBox(pixels, words);
    if (drawn && bboxIoU(drawn, s.bbox) >= 0.7) return { element_id: s.e.element_id, type: wantType!, bbox: s.bbox };
  }
  // (A toggle's caption read in one line with the words before it, « Échéance : High »: the words said.)
  const toggle = isToggleType(wantType);
  const cap = (toggle && narrowToWords(s.said, s.e)) || s.bbox;
  const control = controlCaptionedBy(cap, wantType!, elements, s.e.label);
  // A toggle's box drawn just before the caption beats a detected control further away: one further along the row,
  // or before that box (another toggle, with its own caption).
  const drawn = pixels && toggle ? toggleBefore(pixels, cap) : undefined;
  if (drawn && (!control || control.bbox[0] >= cap[0] || control.bbox[2] <= drawn[0] + 1))
    return { element_id: `${s.e.element_id}:toggle`, type: wantType!, bbox: drawn };
  const probed = () => (pixels && isFieldType(wantType) ? probeFieldBesideCaption(pixels, s.bbox, !isText(s.e)) : undefined);
  // Only a control of a kin type below the caption (the next row's button): a field drawn on the caption's own row,
  // right of it, is the one it names.
  if (control && control.type !== wantType && boxOf(control)[1] >= s.bbox[3] - 0.25 * h) {
    const beside = probed();
    const cy = (s.bbox[1] + s.bbox[3]) / 2;
    if (beside && beside[0] >= s.bbox[2] - h && beside[1] <= cy && beside[3] >= cy) return { element_id: `${s.e.element_id}:field`, type: wantType!, bbox: beside };
  }
  if (control) return { element_id: control.element_id, type: control.type, bbox: boxOf(control) };
  // (A toggle's box at its row's far end, which the detector missed: a settings row's check box, captioned by words.
  // Words read there make it no toggle; a single character is what the reader makes of a box's border: « 0 », « K ».)
  const atEnd = pixels && toggle && /\p{L}{2}/u.test(s.e.label) ? toggleAtRowEnd(pixels, cap, elements.filter((e) => e !== s.e && /[\p{L}\p{N}]{2}/u.test(e.label)).map(boxOf)) : undefined;
  if (atEnd) return { element_id: `${s.e.element_id}:toggle`, type: wantType!, bbox: atEnd };
  const field = probed();
  return field ? { element_id: `${s.e.element_id}:field`, type: wantType!, bbox: field } : undefined;
}

/**
 * The columns of a box's middle band that hold ink (pixels far from its most common colour), first to last, where they
 * take less than two thirds of its width: the words of a link boxed as wide as its cell. Undefined otherwise.
 */
function inkSpan(frame: Frame, b: BBox): BBox | undefined {
  const img = toRgb(frame);
  const [x1, y1, x2, y2] = [Math.max(0, Math.round(b[0])), Math.max(0, Math.round(b[1])), Math.min(img.width, Math.round(b[2])), Math.min(img.height, Math.round(b[3]))];
  const h = y2 - y1;
  if (x2 - x1 < 3 * h || h < 6) return undefined;
  const band = [y1 + Math.round(h * 0.2), y2 - Math.round(h * 0.2)] as const;
  const counts = new Map<number, number>();
  const px = img.data;
  for (let y = band[0]; y < band[1]; y++)
    for (let x = x1; x < x2; x++) {
      const o = (y * img.width + x) * 3;
      const key = (px[o]! << 16) | (px[o + 1]! << 8) | px[o + 2]!;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  let fill = 0;
  let most = 0;
  for (const [k, n] of counts) if (n > most) [fill, most] = [k, n];
  const far = (o: number) => Math.max(Math.abs(px[o]! - (fill >> 16)), Math.abs(px[o + 1]! - ((fill >> 8) & 255)), Math.abs(px[o + 2]! - (fill & 255))) > 40;
  let first = -1;
  let last = -1;
  for (let x = x1; x < x2; x++) {
    let inked = false;
    for (let y = band[0]; y < band[1] && !inked; y++) inked = far((y * img.width + x) * 3);
    if (inked) {
      if (first < 0) first = x;
      last = x;
    }
  }
  if (first < 0 || last - first + 1 >= (2 / 3) * (x2 - x1)) return undefined;
  return [first, b[1], last + 1, b[3]];
}

/** A toggle's label without its own box or disc read by OCR as a lone sign before the words (« O J'accepte… »). */
function captionOfToggle(e: LocatableElement): string {
  return isToggleType(e.type) ? e.label.replace(/^[oO0©®○●◯◉☐☑☒□■xX✓✔-]\s+(?=\S)/u, "") : e.label;
}

/**
 * A toggle's box (its check box's square or its radio's disc) with the page around it: the square at the start of the
 * toggle's box, nine tenths of its height wide (short of the caption), a fifth of its height more above, below and before.
 */
function indicatorOf(b: BBox): BBox {
  const h = b[3] - b[1];
  return [b[0] - 0.2 * h, b[1] - 0.2 * h, Math.min(b[2], b[0] + 0.9 * h), b[3] + 0.2 * h];
}

/** A box without its border: what it shows, not the frame drawn around it. */
function insetBox(b: BBox): BBox {
  return padBBox(b, -Math.max(3, 0.15 * Math.min(b[2] - b[0], b[3] - b[1])));
}

/** 1 when an element's read state is the one said, -1 when it is the other, 0 when the detector did not read it. */
export function stateAgreement(said: StateWord, state: LocatableElement["state"]): number {
  const on = state?.checked ?? state?.selected;
  const value = said === "on" || said === "off" ? on : state?.disabled;
  if (value === undefined) return 0;
  return value === (said === "on" || said === "disabled") ? 1 : -1;
}

/** Whether a field's box shows a drop-down's arrow at its right end (a chevron, a small triangle). */
function dropDownArrow(frame: Frame, b: BBox): boolean {
  const h = b[3] - b[1];
  if (h < 8 || b[2] - b[0] < 2 * h) return false;
  const g = elementAppearance(frame, [Math.max(b[0], b[2] - 1.6 * h), b[1], b[2], b[3]], true).glyph;
  if (!g) return false;
  return g.shapes.includes("arrow_down") || (g.bbox[3] - g.bbox[1] <= 0.3 * h && g.bbox[2] - g.bbox[0] <= 0.6 * h);
}

const round3 = (v: number) => Math.round(v * 1000) / 1000;
const boxOf = (e: { bbox: LocatableElement["bbox"] }): BBox => [e.bbox[0], e.bbox[1], e.bbox[2], e.bbox[3]];

/** Two boxes that are one thing seen twice (a field and its text, overlapping detections). */
function sameThing(a: BBox, b: BBox): boolean {
  return bboxIoU(a, b) > 0.5 || bboxContainsPoint(a, bboxCenter(b)) || bboxContainsPoint(b, bboxCenter(a));
}

const padBox = (b: BBox, f: number): BBox => padBBox(b, Math.max(2, Math.round(Math.max(b[2] - b[0], b[3] - b[1]) * f)));

/** How well an element's label is one an icon of the concept carries ("Save", « Enregistrer », "×", "+"), in [0, 1]. */
function iconLabelMatch(labels: readonly string[], e: LocatableElement): number {
  let best = 0;
  for (const l of labels) {
    if (/\p{L}/u.test(l)) best = Math.max(best, textSimilarity(l, e.label), textSimilarity(l, e.text?.raw ?? "") * 0.95);
    else if (e.label.trim() === l || (e.text?.raw ?? "").trim() === l) best = 1;
  }
  return best;
}

/** How well an element's type fits the instruction: the type named, a menu entry, an icon. */
function typeScore(parsed: ParsedInstruction, e: LocatableElement, icon: boolean): number {
  const text = isText(e);
  if (parsed.menu && !parsed.type) return text || e.type === "generic_interactive" ? 1 : e.type === "button" || e.type === "link" || e.type === "tab" || e.type === "dropdown" ? 0.8 : 0.4;
  // An icon the detector missed is often read as one or two characters ("Q" for a magnifier, "+", "×").
  if (icon && (!parsed.type || parsed.type === "button") && text) return wordless(e.label) ? 0.9 : 0.4;
  if (!parsed.type) {
    if (icon) return e.type === "button" || e.type === "generic_interactive" || e.type === "link" || e.type === "tab" ? 1 : 0.6;
    return 0.8;
  }
  // On-screen text the detector left untyped: a tab, link, button or menu entry it missed; a caption for a field or a box.
  if (text) return CAPTIONED_TYPES.includes(parsed.type) ? 0.3 : 0.7;
  return typeCompatibility(parsed.type, e.type);
}

/** The icon figures the instruction asks for, narrowed to the direction it gives. */
function wantedShapes(parsed: ParsedInstruction): readonly IconShape[] {
  const all = parsed.icon ? (ICON_CONCEPTS[parsed.icon]?.shapes ?? []) : [];
  if (!parsed.direction) return all;
  const d = parsed.direction;
  return all.filter((s) => s.endsWith(`_${d}`));
}

/**
 * For a position hint, a box's place among `boxes` on the named axes, in [0, 1] (1: the most
 * right / bottom / … of them); undefined when the boxes do not spread along those axes.
 */
function relativePosition(boxes: readonly BBox[], hint: PositionHint): ((b: BBox) => number) | undefined {
  if (boxes.length < 2) return undefined;
  const xs = boxes.map((b) => bboxCenter(b)[0]);
  const ys = boxes.map((b) => bboxCenter(b)[1]);
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const axis = (v: number, lo: number, hi: number, want: string) => {
    const f = Math.min(1, Math.max(0, (v - lo) / (hi - lo)));
    return want === "right" || want === "bottom" ? f : want === "left" || want === "top" ? 1 - f : 1 - 2 * Math.abs(f - 0.5);
  };
  const useX = !!hint.horizontal && x1 - x0 > 4;
  const useY = !!hint.vertical && y1 - y0 > 4;
  if (!useX && !useY) return undefined;
  return (b) => {
    const [cx, cy] = bboxCenter(b);
    const parts = [...(useX ? [axis(cx, x0, x1, hint.horizontal!)] : []), ...(useY ? [axis(cy, y0, y1, hint.vertical!)] : [])];
    return parts.reduce((s, v) => s + v, 0) / parts.length;
  };
}

/**
 * The elements an ordinal counts: those of the type asked (text only where no element stands for it), one per thing.
 * Where the screen has elements of exactly that type, only they count: « the last radio button » is not a check box
 * after the radio buttons; a kin type (a check box for a radio, a drop-down for a field) counts only when none is there.
 */
function rankable(plausible: readonly Scored[], parsed: ParsedInstruction, fieldText: (s: Scored) => boolean = () => false): Scored[] {
  // (Captions count where no element bears the name as well as they do: three « Paramètres du compte » captions over
  // their drop-downs, not a link « Paramètres » elsewhere.)
  const topText = Math.max(0, ...plausible.map((s) => s.text));
  const typed = plausible.filter((s) => !isText(s.e) && (!parsed.target || s.text >= topText - 0.05));
  let pool = parsed.type ? plausible.filter((s) => !isText(s.e) ? typeCompatibility(parsed.type!, s.e.type) >= 0.6 : !CAPTIONED_TYPES.includes(parsed.type!) || !typed.length || fieldText(s)) : plausible;
  const kin = pool;
  const exact = parsed.type ? pool.filter((s) => (s.e.type === parsed.type && s.type >= 1) || fieldText(s)) : [];
  if (exact.length) pool = exact;
  if (!pool.length) pool = [...plausible];
  // « le premier bouton Reply all »: of the elements bearing the name, a kin type counts where too few of the exact
  // type bear it (the detector typed one of two « Reply all » buttons a link).
  if (parsed.target && parsed.ordinal !== undefined && exact.length) {
    const top = Math.max(...kin.map((s) => s.text));
    const named = (xs: readonly Scored[]) => xs.filter((s) => s.text >= top - 0.02);
    const want = Math.max(2, Math.abs(parsed.ordinal)); // a rank says there are several
    if (named(pool).length < want && named(kin).length >= want) pool = named(kin);
  }
  // « la deuxième case cochée »: ranks among those in the state said, where the detector read it for enough of them.
  if (parsed.state) {
    const inState = pool.filter((s) => stateAgreement(parsed.state!, s.e.state) > 0);
    if (inState.length >= Math.abs(parsed.ordinal ?? 1)) pool = inState;
  }
  // Named ones count those that bear the name as well as the best does (« the first Échéance box »: the fields
  // captioned Échéance, not « Date d'échéance » above them), where there are enough of them for the ordinal.
  if (parsed.target && parsed.ordinal !== undefined) {
    const top = Math.max(...pool.map((s) => s.text));
    const named = pool.filter((s) => s.text >= top - 0.02);
    if (named.length >= Math.max(2, Math.abs(parsed.ordinal))) pool = named; // a rank says there are several
  }
  const kept: Scored[] = [];
  for (const s of [...pool].sort((a, b) => b.score - a.score)) if (!kept.some((k) => sameThing(k.bbox, s.bbox))) kept.push(s);
  return readingOrder(kept);
}

/** The elements or texts the relation's anchor names, best first (those of equal match), or the nth of equal ones alone. */
function findAnchors(rel: NonNullable<ParsedInstruction["relation"]>, elements: readonly LocatableElement[], targetType?: UIElementType): LocatableElement[] {
  // Named by its type alone (« à côté du lien »): the elements of that type, wherever the target stands best by one.
  if (!rel.anchor) return elements.filter((e) => !isText(e) && e.type === rel.anchorType);
  const variants = lexiconVariants(rel.anchor);
  const scored = elements
    .map((e) => {
      let s = Math.max(textSimilarity(rel.anchor, e.label), textSimilarity(rel.anchor, e.text?.raw ?? "") * 0.95);
      for (const v of variants) s = Math.max(s, textSimilarity(v, e.label) * 0.95, textSimilarity(v, e.text?.raw ?? "") * 0.9);
      return { e, s };
    })
    .filter((x) => x.s >= 0.7 && (!rel.anchorType || isText(x.e) || typeCompatibility(rel.anchorType, x.e.type) >= 0.6));
  if (!scored.length) {
    const title = HEADING_WORDS.has(foldText(rel.anchor).trim()) ? headingOf(elements) : undefined;
    return title ? [title] : [];
  }
  const top = Math.max(...scored.map((x) => x.s));
  const tied = scored.filter((x) => x.s >= top - 0.05).sort((a, b) => b.s - a.s);
  // A field or drop-down named after its caption, of the kind asked for, is not the anchor those words name: the caption
  // is (« the combo box next to Département »: the drop-down labelled Département is the one asked for, not a thing
  // beside it; "the Sign in button next to Department" is beside the field).
  const captioned = (e: LocatableElement) => isFieldType(e.type) && targetType !== undefined && typeCompatibility(targetType, e.type) >= 0.6 && tied.some((x) => isText(x.e) && !bboxContainsPoint(boxOf(e), bboxCenter(boxOf(x.e))));
  // A check box or radio button of the kind asked for, named after the words beside it, stands for those words (« la case
  // de la ligne Martin »: the « Martin » link beside the box names the row; the box is the target, not the anchor).
  const wordsOf = (e: LocatableElement): LocatableElement => {
    if (!isToggleType(e.type) || targetType === undefined || typeCompatibility(targetType, e.type) < 0.6) return e;
    const [cx, cy] = bboxCenter(boxOf(e));
    const h = boxOf(e)[3] - boxOf(e)[1];
    const beside = tied.map((x) => x.e).filter((o) => o.type !== e.type && !bboxContainsPoint(boxOf(e), bboxCenter(boxOf(o))) && Math.abs(bboxCenter(boxOf(o))[1] - cy) < h && boxOf(o)[0] >= cx);
    return beside.sort((a, b) => boxOf(a)[0] - boxOf(b)[0])[0] ?? e;
  };
  const anchors = tied.filter((x) => isText(x.e) || !captioned(x.e)).map((x) => ({ ...x, e: wordsOf(x.e) }));
  if (rel.anchorOrdinal === undefined) return (anchors.length ? anchors : tied.slice(0, 1)).map((x) => x.e);
  const kept: LocatableElement[] = [];
  for (const x of tied) if (!kept.some((k) => sameThing(boxOf(k), boxOf(x.e)))) kept.push(x.e);
  const ordered = readingOrder(kept);
  const nth = ordered[rel.anchorOrdinal > 0 ? rel.anchorOrdinal - 1 : ordered.length + rel.anchorOrdinal] ?? ordered[0];
  return nth ? [nth] : [];
}

/** The title: the tallest words on screen, where they stand above the rest (1.25 times the median words' height). */
function headingOf(elements: readonly LocatableElement[]): LocatableElement | undefined {
  const texts = elements.filter(isText);
  const height = (e: LocatableElement) => e.bbox[3] - e.bbox[1];
  const tallest = texts.reduce<LocatableElement | undefined>((t, e) => (!t || height(e) > height(t) ? e : t), undefined);
  return tallest && height(tallest) >= 1.25 * median(texts.map(height)) ? tallest : undefined;
}

/** How well `e` stands where the relation puts it from the anchor, in [0, 1]; 0 for the anchor itself. */
export function relationScore(kind: NonNullable<ParsedInstruction["relation"]>["kind"], anchor: { bbox: LocatableElement["bbox"] }, e: { bbox: LocatableElement["bbox"] }): number {
  const a = boxOf(anchor);
  const b = boxOf(e);
  if (sameThing(a, b)) return 0;
  const h = Math.max(8, a[3] - a[1]);
  const overlap = (p0: number, p1: number, q0: number, q1: number) => Math.max(0, Math.min(p1, q1) - Math.max(p0, q0)) / Math.max(1, Math.min(p1 - p0, q1 - q0));
  const sameRow = overlap(a[1], a[3], b[1], b[3]) > 0.3;
  const sameColumn = overlap(a[0], a[2], b[0], b[2]) > 0 || Math.abs(bboxCenter(a)[0] - bboxCenter(b)[0]) < 3 * h;
  switch (kind) {
    case "right_of": {
      const dx = b[0] - a[2];
      return dx < -h ? 0 : (sameRow ? 1 : 0.15) * Math.exp(-Math.max(0, dx) / (20 * h));
    }
    case "left_of": {
      const dx = a[0] - b[2];
      return dx < -h ? 0 : (sameRow ? 1 : 0.15) * Math.exp(-Math.max(0, dx) / (20 * h));
    }
    case "below": {
      const dy = b[1] - a[3];
      return dy < -h / 2 ? 0 : (sameColumn ? 1 : 0.3) * Math.exp(-Math.max(0, dy) / (8 * h));
    }
    case "above": {
      const dy = a[1] - b[3];
      return dy < -h / 2 ? 0 : (sameColumn ? 1 : 0.3) * Math.exp(-Math.max(0, dy) / (8 * h));
    }
    case "inside": {
      // In what the anchor titles: below it (or on its line, after it), from its left edge on; the nearer, the likelier.
      if (b[1] < a[1] - h / 2 || b[2] < a[0] - 2 * h) return 0;
      return Math.exp(-Math.max(0, b[1] - a[3]) / (15 * h)) * Math.exp(-Math.max(0, b[0] - a[0]) / (40 * h));
    }
    case "row": {
      // On its row: beside it however far across; a row above or below hardly counts.
      const dy = Math.max(0, b[1] - a[3], a[1] - b[3]);
      return sameRow ? 1 : 0.1 * Math.exp(-dy / h);
    }
    default: {
      // Next to: beside it on its row counts a quarter of the way across (a caption's field stands a column away),
      // whatever is on the rows above or below in full.
      const dx = Math.max(0, b[0] - a[2], a[0] - b[2]);
      const dy = Math.max(0, b[1] - a[3], a[1] - b[3]);
      return Math.exp(-Math.hypot(sameRow ? dx / 4 : dx, dy) / (10 * h));
    }
  }
}

/**
 * Where to click an element: its centre, but a check box's or radio button's indicator, which
 * sits at the left end of its box, or the right end when drawn after its caption (the box holds
 * the caption too; between them a web page may leave a gap that toggles nothing).
 */
export function clickPoint(type: string, bbox: BBox, indicator: "left" | "right" = "left"): Point {
  if (type !== "checkbox" && type !== "radio_button") return bboxCenter(bbox);
  const h = bbox[3] - bbox[1];
  const cy = (bbox[1] + bbox[3]) / 2;
  const mid = (bbox[0] + bbox[2]) / 2;
  return [indicator === "left" ? Math.min(bbox[0] + h / 2, mid) : Math.max(bbox[2] - h / 2, mid), cy];
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

/**
 * The part of a one-line label's box that holds the run of words naming `target` ("Accueil" in a
 * nav bar the detector took as one link "Clients Rapports Accueil"), by character count when the
 * element has no word boxes. Undefined when the whole label is the target or no run matches well.
 */
function narrowByCharacters(target: string, e: LocatableElement): BBox | undefined {
  if (e.words?.length) return undefined;
  const b = boxOf(e);
  // Words, and words the OCR ran together each still capitalised ("AdvancedSecuritySettings": tabs drawn side by side).
  const words = [...e.label.matchAll(/\S+/gu)].flatMap((m) => {
    const cuts = [0, ...[...m[0].matchAll(/(?<=\p{Ll})\p{Lu}/gu)].map((c) => c.index!), m[0].length];
    return cuts.slice(0, -1).map((at, k) => ({ 0: m[0].slice(at, cuts[k + 1]), index: m.index! + at }));
  });
  if (words.length < 2 || b[3] - b[1] > 2 * ((b[2] - b[0]) / Math.max(1, e.label.length)) * 3) return undefined;
  const n = tokenize(target).length;
  if (n === 0 || n >= words.length) return undefined;
  let best: { score: number; from: number; to: number } | undefined;
  for (let i = 0; i < words.length; i++)
    for (let j = i + 1; j <= Math.min(words.length, i + n + 1); j++) {
      const run = words.slice(i, j);
      const score = textSimilarity(target, run.map((w) => w[0]).join(" "));
      if (!best || score > best.score + 1e-9) best = { score, from: run[0]!.index!, to: run[run.length - 1]!.index! + run[run.length - 1]![0].length };
    }
  if (!best || best.score < 0.8) return undefined;
  const per = (b[2] - b[0]) / e.label.length;
  return [b[0] + best.from * per, b[1], b[0] + best.to * per, b[3]];
}

/** The control of `type` that a caption (`caption`'s words at `label`) names: a field right of or below it, a toggle left of it. */
function controlCaptionedBy(label: BBox, type: UIElementType, elements: readonly LocatableElement[], caption: string): LocatableElement | undefined {
  const h = label[3] - label[1];
  const cy = (label[1] + label[3]) / 2;
  const ofType = elements.filter((e) => !e.element_id.startsWith("text:") && (e.type === type || COMPATIBLE[type]?.includes(e.type)));
  // Beside the caption, a toggle whose box bears other words is another toggle, with its own caption (« Cheque » before
  // « High »); at a settings row's far end, a toggle's own short caption (« Enable ») does not make it another's.
  // A caption ending in a colon is a form's label, no toggle's own: the toggle it names may bear its own words.
  const foreign = (e: LocatableElement) => !/[:：]\s*$/u.test(caption) && /\p{L}{2}/u.test(e.label) && textSimilarity(e.label, caption) < 0.8;
  /** Another toggle of a row of them: bearing other words, right after the caption at a word's gap. */
  const nextToggle = (e: LocatableElement) => foreign(e) && e.bbox[0] - label[2] < 1.5 * h;
  const dist = (e: LocatableElement) => Math.hypot(bboxCenter(e.bbox)[0] - bboxCenter(label)[0], bboxCenter(e.bbox)[1] - cy);
  let options: LocatableElement[];
  const rightOf = (e: LocatableElement) => e.bbox[0] >= label[2] - h && e.bbox[0] - label[2] < 12 * h && Math.abs((e.bbox[1] + e.bbox[3]) / 2 - cy) < h;
  if (isToggleType(type)) {
    options = ofType.filter((e) => !foreign(e) && e.bbox[2] <= label[0] + h && label[0] - e.bbox[2] < 4 * h && Math.abs((e.bbox[1] + e.bbox[3]) / 2 - cy) < h);
    // A switch set right of its caption, as forms lay out switches (« Notifications : [switch] »), when none is before it.
    // (A toggle right after the caption, at a word's gap, bearing other words is the next toggle of a row of them: « ☐ High
    // ☑ Remember me »; one further along is the control a form's caption column names: « First name:   ☐ Personal ».)
    if (!options.length) options = ofType.filter((e) => !nextToggle(e) && rightOf(e));
  } else
    options = ofType.filter((e) => {
      const sameRow = rightOf(e);
      const below = e.bbox[1] >= label[1] && e.bbox[1] - label[3] < 4 * h && e.bbox[0] < label[2] && e.bbox[2] > label[0];
      return sameRow || below;
    });
  // A settings row: the caption at the left, its control at the right end, nothing between them on the row — also
  // where only a control of a kin type stands beside or below the caption (the next row's button under a caption whose
  // drop-down is at its row's end).
  const exact = (e: LocatableElement) => e.type === type;
  if (!options.some(exact)) {
    const rowOffset = (e: LocatableElement) => Math.abs(bboxCenter(e.bbox)[1] - cy);
    // (What stands between them shares the caption's line: a smaller line of help under the caption does not.)
    const onLine = (o: LocatableElement) => Math.min(o.bbox[3], label[3]) - Math.max(o.bbox[1], label[1]) >= 0.5 * Math.min(h, o.bbox[3] - o.bbox[1]);
    const clear = (e: LocatableElement) => !elements.some((o) => o !== e && o.bbox[0] >= label[2] - 2 && o.bbox[2] <= e.bbox[0] + 2 && rowOffset(o) < h && onLine(o));
    const row = ofType.filter((e) => e.bbox[0] >= label[2] - h && rowOffset(e) < 1.5 * h && clear(e) && !nextToggle(e));
    if (!options.length || row.some(exact)) options = row;
  }
  return options.sort((a, b) => Number(exact(b)) - Number(exact(a)) || dist(a) - dist(b))[0];
}

/**
 * Text on screen not already inside a detected element, as locatable targets ("click Edit" can
 * land on a menu-bar word the detector did not type). Each line gives its phrases (words split
 * at gaps wider than the line is high: menu bars, toolbars) and, inside a phrase, its words.
 * Phrases split at gaps wider than 0.6× the line height. Their ids start with "text:".
 */
/** A word with the separators a breadcrumb or path puts around its items, before and after it. */
const SEPARATED = /^([>›»/|→]*)(.*?)([>›»/|→]*)$/u;

export function textTargets(lines: readonly { text: string; bbox: BBox; words?: readonly { text: string; bbox: BBox }[] }[], elements: readonly LocatableElement[]): LocatableElement[] {
  // Inside an element: that element's words — but for a list or box of several lines (three lines tall or more) whose
  // own label is other words, each line is a thing of its own (a list's items the detector did not box); so is a run of
  // three words or more inside a field or toggle labelled with other words (a caption beside it taken for its label: a
  // toggle's caption in a box the detector took for a field).
  const inside = (b: BBox, text?: string) => elements.some((e) => {
    const [cx, cy] = bboxCenter(b);
    if (!(cx >= e.bbox[0] && cx <= e.bbox[2] && cy >= e.bbox[1] && cy <= e.bbox[3])) return false;
    if (text === undefined || textSimilarity(text, e.label) >= 0.8) return true;
    const tall = e.bbox[3] - e.bbox[1] >= 3 * (b[3] - b[1]) && e.type === "text_input";
    const otherWords = CAPTIONED_TYPES.includes(e.type) && text.trim().split(/\s+/u).length >= 3 && !wordless(e.label) && b[0] >= e.bbox[0] && b[2] <= e.bbox[2];
    return !tall && !otherWords;
  });
  const out: LocatableElement[] = [];
  const add = (text: string, b: BBox, words?: readonly { text: string; bbox: BBox }[], path = false) => {
    if (!text.trim() || (!path && inside(b, text)) || out.some((o) => o.label === text && glyphKey(o.bbox) === glyphKey(b))) return;
    out.push({ element_id: `text:${out.length}`, type: "generic_interactive", bbox: [b[0], b[1], b[2], b[3]], label: text, confidence: 0.3, ...(words && words.length > 1 ? { words } : {}) });
  };
  for (const l of lines) {
    const read = l.words ?? [];
    if (read.length < 2) {
      add(l.text, l.bbox);
      continue;
    }
    const h = l.bbox[3] - l.bbox[1];
    // A breadcrumb's or path's separators (« Accueil > Rapports », "Home / Users") end a phrase, read alone or glued
    // to a word by OCR (">Rapports"): each item is a target of its own.
    const words: { text: string; bbox: BBox; cut?: boolean }[] = [];
    let cut = false;
    let separated = false;
    for (const w of read) {
      // A toggle's box or a bullet read as a dash glued to its caption (« -High »): the caption starts a phrase of its own.
      if (/^[-–—]\p{L}/u.test(w.text)) {
        const per = (w.bbox[2] - w.bbox[0]) / w.text.length;
        words.push({ text: w.text.slice(1), bbox: [w.bbox[0] + per, w.bbox[1], w.bbox[2], w.bbox[3]], cut: true });
        cut = false;
        continue;
      }
      const m = SEPARATED.exec(w.text)!;
      if (m[1] || m[3] || !m[2]) separated = true;
      if (!m[2]) {
        cut = true;
        continue;
      }
      words.push({ text: m[2], bbox: w.bbox, ...(cut || m[1] ? { cut: true } : {}) });
      cut = !!m[3];
    }
    if (!words.length) continue;
    const phrases: { text: string; bbox: BBox }[][] = [[words[0]!]];
    for (const w of words.slice(1)) {
      const cur = phrases[phrases.length - 1]!;
      if (w.cut || w.bbox[0] - cur[cur.length - 1]!.bbox[2] > h * 0.6) phrases.push([w]);
      else cur.push(w);
    }
    // (A path's whole line, also where detected links hold its items: where it is, « in the breadcrumb ».)
    if (phrases.length > 1) add(l.text, l.bbox, words, separated);
    const span = (p: readonly { text: string; bbox: BBox }[]): BBox => [p[0]!.bbox[0], Math.min(...p.map((w) => w.bbox[1])), p[p.length - 1]!.bbox[2], Math.max(...p.map((w) => w.bbox[3]))];
    for (const p of phrases) {
      add(p.map((w) => w.text).join(" "), span(p), p);
      if (p.length > 1 && phrases.length > 1) for (const w of p) add(w.text, w.bbox);
      // Words read together with a detected element's (links in a row closer than the phrase gap: « Rapports Forgot
      // password? » where « Rapports » was detected): the words no element holds are a phrase of their own.
      const free = p.map((w) => !inside(w.bbox));
      if (!free.some(Boolean) || free.every(Boolean)) continue;
      for (let i = 0; i < p.length; ) {
        if (!free[i]) {
          i++;
          continue;
        }
        let j = i;
        while (j < p.length && free[j]) j++;
        const run = p.slice(i, j);
        add(run.map((w) => w.text).join(" "), span(run), run);
        i = j;
      }
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
