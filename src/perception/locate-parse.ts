// An English or French instruction ("click the Save button at the bottom", « la flèche verte vers
// la droite », "the second City list, on the right", "put 12 in the box right of Quantity") parsed
// into what locate.ts scores: verb, the words that name the target, the element type, rank,
// position, colour, icon and the thing it sits next to. Instructions are untrusted input: the
// text is cut to a bounded length and read word by word against fixed phrase tables (no
// backtracking patterns over it).
import type { PositionHint } from "../core/geometry.js";
import type { UIElementType } from "../core/schemas/uielement.js";
import { foldText } from "../core/text.js";
import {
  COLOUR_WORDS,
  FILLER_PHRASES,
  FILLER_WORDS,
  ICON_CONCEPTS,
  ORDINAL_PHRASES,
  POSITION_WORDS,
  REGION_PHRASES,
  RELATION_PHRASES,
  CHECK_STATE_PHRASES,
  STATE_PHRASES,
  TYPE_PHRASES,
  UI_LEXICON,
  type ColourName,
  type RelationKind,
  type StateWord,
} from "./locate-lexicon.js";

export type Verb = "click" | "double_click" | "right_click" | "type" | "check" | "uncheck" | "select" | "open" | "hover";

export interface Relation {
  readonly kind: RelationKind;
  /** The words that name the other thing ("Department", "la date"). */
  readonly anchor: string;
  readonly anchorType?: UIElementType;
  readonly anchorOrdinal?: number;
  /** "row 3", « la ligne 2 »: a row said by a number — the row whose words say so ("Row 3"), else the third. */
  readonly rowNumber?: number;
}

export interface ParsedInstruction {
  readonly verb: Verb;
  /** The words that name the target ("Valider la facture"), quotes removed; "" when none. */
  readonly target: string;
  readonly type?: UIElementType;
  readonly position?: PositionHint;
  /** Text to type, for "type X in the Y field" / "saisir X dans Y". */
  readonly value?: string;
  /** Rank among the elements that fit, in reading order: 1 the first, -1 the last. */
  readonly ordinal?: number;
  readonly colour?: ColourName;
  /** An icon described ("floppy disk", « loupe »): a key of ICON_CONCEPTS. */
  readonly icon?: string;
  /** The side an arrow points to (« vers la droite », "pointing left"). */
  readonly direction?: "left" | "right" | "up" | "down";
  readonly relation?: Relation;
  /** A part of the window named as a place (toolbar: top; status bar: bottom; title bar, a window's own controls: title). */
  readonly region?: "top" | "title" | "bottom" | "side";
  /** The instruction places it in a pager ("the next arrow in the pagination", « la page 2 de la pagination »). */
  readonly pager?: boolean;
  /** The instruction says "menu" ("the Tools menu"): a menu-bar entry, whatever type the detector gave it. */
  readonly menu?: boolean;
  /** The target's words say password (« mot de passe »): a field showing masked text fits them, whatever its caption. */
  readonly masked?: boolean;
  /** The type was named a switch (« interrupteur », "toggle switch"): among check boxes, one drawn as a switch fits best. */
  readonly switch?: boolean;
  /** The type was named a text box of several lines ("text area", « zone de texte multiligne »): a tall one fits best. */
  readonly multiline?: boolean;
  /** The type was named a slider (« le curseur »): a knob on a track fits best. */
  readonly slider?: boolean;
  /** The target is said to be in a breadcrumb (« dans le fil d'Ariane »): a line of items between separators. */
  readonly breadcrumb?: boolean;
  /** A state the target is said to be in ("the checked box", « l'onglet actif », "the greyed-out button"). */
  readonly state?: StateWord;
}

/** Folded type phrases that name a text box of several lines (TYPE_PHRASES maps them to text_input). */
const MULTILINE_PHRASES: ReadonlySet<string> = new Set(["text area", "textarea", "zone de texte multiligne", "zone de texte multilignes", "zone de texte multi lignes"]);
/** Folded type phrases that name a slider (TYPE_PHRASES maps them to generic_interactive). */
const SLIDER_PHRASES: ReadonlySet<string> = new Set(["slider", "curseur", "glissiere"]);
/** Folded type phrases that name a check box drawn as a switch (TYPE_PHRASES maps them to checkbox). */
const SWITCH_PHRASES: ReadonlySet<string> = new Set(["switch", "toggle switch", "interrupteur"]);

/** State words that only a check box (or a radio button) can be said to be in. */
const CHECK_WORDS: ReadonlySet<string> = new Set(CHECK_STATE_PHRASES.map(([p]) => p));
/** Type words that say a box, not which kind. */
const GENERIC_BOX_WORDS: ReadonlySet<string> = new Set(["box", "zone"]);

/** Words that place the target in a pager. */
const PAGER_WORDS: ReadonlySet<string> = new Set(REGION_PHRASES.filter(([, v]) => v === "pager").map(([p]) => p));

/** Folded word runs that say a field is a password field. */
const MASKED_WORDS: readonly (readonly string[])[] = [["password"], ["passcode"], ["passwd"], ["mdp"], ["mot", "de", "passe"], ["mots", "de", "passe"], ["mot", "passe"], ["mots", "passe"]]; // « de » may be read as a filler
const MASKED_DESCRIPTIONS: ReadonlySet<string> = new Set(["masked", "masque", "masquee"]);

/** Instructions longer than this are cut (a sentence naming one element is far shorter). */
export const MAX_INSTRUCTION_LENGTH = 400;

const VERBS: ReadonlyArray<[readonly string[], Verb, UIElementType?]> = [
  [["double click", "double clic", "double cliquer", "double cliquez", "doubleclick"], "double_click"],
  [["right click", "clic droit", "cliquer droit", "rightclick"], "right_click"],
  [["uncheck", "untick", "decocher", "decochez", "decoche"], "uncheck", "checkbox"],
  [["check", "tick", "cocher", "cochez", "coche"], "check", "checkbox"],
  [["type", "enter", "fill in", "fill", "write", "put", "saisir", "saisissez", "taper", "tapez", "entrer", "entrez", "ecrire", "ecrivez", "remplir", "remplissez", "renseigner", "renseignez", "mettre", "mettez", "inscrire", "inscrivez"], "type", "text_input"],
  [["select", "choose", "pick", "selectionner", "selectionnez", "choisir", "choisissez"], "select"],
  [["open", "ouvrir", "ouvrez", "deplier", "depliez", "expand"], "open"],
  [["hover over", "hover", "survoler", "survolez"], "hover"],
  [["click on", "click", "press", "push", "tap", "hit", "follow", "go to", "cliquer sur", "cliquez sur", "cliquer", "cliquez", "clique", "appuyer sur", "appuyez sur", "appuyer", "appuyez", "appuie", "activer", "activez", "aller a", "allez a", "aller sur", "allez sur", "aller", "allez", "switch to", "navigate to", "passer a", "passez a", "passer sur", "basculer sur", "basculer vers", "use", "utiliser", "utilisez"], "click"],
];

interface Token {
  /** As written (casing, accents). */
  readonly orig: string;
  /** Folded (lower case, no accents). */
  readonly f: string;
  /** A comma, semicolon or parenthesis before it: ends a relation's anchor. */
  readonly boundary: boolean;
  /** An apostrophe just before it ("row's": the "s" of an English possessive). */
  readonly apos?: boolean;
}

/** Words of a text: split at spaces, punctuation, apostrophes (« l'icône » → l, icône) and hyphens; symbols like × » € kept. */
function tokens(text: string): Token[] {
  const out: Token[] = [];
  let boundary = false;
  let apos = false;
  const pieces = text.split(/([\s,;:!.?()[\]{}"“”«»'’`‐‑–—-]+)/u);
  for (const [i, piece] of pieces.entries()) {
    if (!piece) continue;
    if (/^[\s,;:!.?()[\]{}"“”«»'’`‐‑–—-]+$/u.test(piece)) {
      // (A comma between digits is a number's, « 1 250,00 € », not a clause's end.)
      const decimal = piece === "," && /\d$/u.test(pieces[i - 1] ?? "") && /^\d/u.test(pieces[i + 1] ?? "");
      if (/[,;:()[\]]/.test(piece) && !decimal) boundary = true;
      apos = /^['’]$/u.test(piece);
      continue;
    }
    out.push({ orig: piece, f: foldText(piece), boundary, ...(apos ? { apos } : {}) });
    boundary = false;
    apos = false;
  }
  return out;
}

type Kind =
  | { k: "relation"; v: RelationKind }
  | { k: "ordinal"; v: number }
  | { k: "type"; v: UIElementType | "menu" }
  | { k: "region"; v: "top" | "title" | "bottom" | "side" | "pager" | "breadcrumb" | "window" | undefined }
  | { k: "colour"; v: ColourName }
  | { k: "icon"; v: string; depiction: boolean }
  | { k: "direction"; v: "left" | "right" | "up" | "down" }
  | { k: "position"; v: PositionHint }
  | { k: "state"; v: StateWord }
  | { k: "iconword" }
  | { k: "filler" };

const split = (phrase: string) => phrase.split(" ");
const LEXICON_PHRASES = new Set(UI_LEXICON.flat());
const ICONISH = new Set(["icon", "icons", "icone", "icones", "symbol", "symbole", "sign", "signe", "pictogramme", "picto", "logo", "glyph"]);
const DIRECTIONS: readonly (readonly [string, "left" | "right" | "up" | "down"])[] = [
  ["vers la droite", "right"], ["vers la gauche", "left"], ["vers le haut", "up"], ["vers le bas", "down"],
  ["pointing right", "right"], ["pointing left", "left"], ["pointing up", "up"], ["pointing down", "down"],
  ["pointing to the right", "right"], ["pointing to the left", "left"], ["qui pointe a droite", "right"], ["qui pointe a gauche", "left"],
  // An arrow up is any arrow that points up (a chevron, a caret, an arrow onto a tray's edge…), not only an upload's.
  ["up arrow", "up"], ["upward arrow", "up"], ["arrow up", "up"], ["down arrow", "down"], ["downward arrow", "down"], ["arrow down", "down"],
];

/** Direction words said alone beside an arrowhead's name ("the up chevron", « le chevron bas »). */
const BARE_DIRECTIONS: Readonly<Record<string, "left" | "right" | "up" | "down">> = { up: "up", upward: "up", upwards: "up", down: "down", downward: "down", downwards: "down", left: "left", right: "right", haut: "up", bas: "down", gauche: "left", droite: "right", droit: "right" };

/** Every phrase table as [words, kind], longest phrases first. */
const PHRASES: readonly (readonly [readonly string[], Kind])[] = [
  ...DIRECTIONS.map(([p, v]) => [split(p), { k: "direction", v }] as const),
  ...RELATION_PHRASES.map(([p, v]) => [split(p), { k: "relation", v }] as const),
  ...ORDINAL_PHRASES.map(([p, v]) => [split(p), { k: "ordinal", v }] as const),
  ...TYPE_PHRASES.map(([p, v]) => [split(p), { k: "type", v }] as const),
  ...REGION_PHRASES.map(([p, v]) => [split(p), { k: "region", v }] as const),
  ...Object.entries(COLOUR_WORDS).map(([p, v]) => [split(p), { k: "colour", v }] as const),
  ...Object.entries(ICON_CONCEPTS).flatMap(([key, c]) => c.words.map((w) => [split(foldText(w)), { k: "icon", v: key, depiction: !LEXICON_PHRASES.has(foldText(w)) }] as const)),
  ...Object.entries(POSITION_WORDS).map(([p, v]) => [split(p), { k: "position", v }] as const),
  ...STATE_PHRASES.map(([p, v]) => [split(p), { k: "state", v }] as const),
  ...[...ICONISH].map((w) => [[w], { k: "iconword" }] as const),
  ...[...FILLER_WORDS].map((w) => [[w], { k: "filler" }] as const),
  ...FILLER_PHRASES.map((p) => [split(p), { k: "filler" }] as const),
].sort((a, b) => b[0].length - a[0].length);
const MAX_PHRASE = Math.max(...PHRASES.map((p) => p[0].length));
const BY_FIRST = new Map<string, (readonly [readonly string[], Kind])[]>();
for (const p of PHRASES) {
  const list = BY_FIRST.get(p[0][0]!) ?? [];
  list.push(p);
  BY_FIRST.set(p[0][0]!, list);
}

/** The longest phrase of the tables at `i`, if any. */
function phraseAt(toks: readonly Token[], i: number): { len: number; kind: Kind } | undefined {
  for (const [words, kind] of BY_FIRST.get(toks[i]!.f) ?? []) {
    if (words.length > MAX_PHRASE || i + words.length > toks.length) continue;
    let ok = true;
    for (let j = 1; j < words.length && ok; j++) ok = toks[i + j]!.f === words[j] && !toks[i + j]!.boundary;
    if (ok) return { len: words.length, kind };
  }
  return undefined;
}

/** A lexicon phrase of UI words starting at `i` ("last name", "first name"): its words name the target, whatever else they could mean. */
function labelPhraseAt(toks: readonly Token[], i: number): number {
  for (let n = Math.min(4, toks.length - i); n >= 2; n--) if (LEXICON_PHRASES.has(toks.slice(i, i + n).map((t) => t.f).join(" "))) return n;
  return 0;
}

/** The first quoted run of words (« … », "…", “…”) that holds a letter or digit. */
function quotedText(raw: string): RegExpExecArray | null {
  const re = /[«“"]\s*([^«»“”"]{1,200}?)\s*[»”"]/gu;
  for (let m = re.exec(raw); m; m = re.exec(raw)) if (/[\p{L}\p{N}]/u.test(m[1]!)) return m;
  return null;
}

/** Relation phrases that may only say whose picture an icon is (« l'icône de la loupe », "the icon of a gear"). */
const POSSESSIVE: ReadonlySet<string> = new Set(["of", "of the", "of a", "de", "de la", "de l", "du", "des", "d"]);
/** Words that make the thing named beside them a place the target is in: a table's row, a titled group of controls. */
const PLACE_WORDS: ReadonlyMap<string, "row" | "inside"> = new Map([
  ...["row", "ligne", "rangee"].map((w) => [w, "row"] as const),
  // Not "box": "the Name box" is a field.
  ...["group", "section", "card", "panel", "frame", "fieldset", "pane", "groupe", "cadre", "carte", "panneau", "encadre", "volet", "bloc", "zone"].map((w) => [w, "inside"] as const),
  // A window or a form named by its title ("OK in the Invoice dialog", « de la fenêtre Facture »).
  ...["dialog", "window", "form", "modal", "popup", "dialogue", "fenetre", "formulaire", "modale"].map((w) => [w, "inside"] as const),
  // A notebook's page, shown below its tab ("the Medium option in the General tab", « dans l'onglet Général »).
  ...["tab", "onglet"].map((w) => [w, "inside"] as const),
]);
/** Place words English puts after the place's name ("the Smith row", "the Shipping section"). */
const ENGLISH_PLACE: ReadonlySet<string> = new Set(["row", "group", "section", "card", "panel", "frame", "fieldset", "pane", "dialog", "window", "form", "modal", "popup", "tab"]);
/** English words that may sit inside a name quoted in French (« Cash on delivery », « Terms of use »). */
const ENGLISH_SMALL_WORDS: ReadonlySet<string> = new Set(["on", "of", "in", "at", "to", "for", "and", "the", "by", "with", "from"]);
const PLACE_PREPOSITIONS: ReadonlySet<string> = new Set(["in", "on", "of", "at", "from", "dans", "sur", "de", "du", "en"]);
const ARTICLES: ReadonlySet<string> = new Set(["the", "a", "la", "le", "l", "une", "un"]);
const NAME_JOINERS: ReadonlySet<string> = new Set(["de", "des", "du", "d", "of"]);
/** What a title bar's or a card header's controls do, and the icon (ICON_CONCEPTS key) each shows. */
const CONTROL_WORDS: Readonly<Record<string, string>> = {
  close: "close", fermer: "close", x: "close", "×": "close", dismiss: "close",
  minimize: "remove", minimise: "remove", minimiser: "remove", reduire: "remove", collapse: "remove", replier: "remove",
  maximize: "maximize", maximise: "maximize", maximiser: "maximize", agrandir: "maximize",
};
/** What is done to a window by its title bar's buttons (« réduire la fenêtre »), the window itself, and the words before it. */
const WINDOW_ACTIONS: ReadonlySet<string> = new Set([...Object.keys(CONTROL_WORDS), "restore", "restaurer"]);
const WINDOW_WORDS: ReadonlySet<string> = new Set(["window", "fenetre"]);
const WINDOW_PLACES: ReadonlySet<string> = new Set(["window", "fenetre", "dialog", "dialogue", "modal", "modale", "popup"]);
const WINDOW_OBJECT_ARTICLES: ReadonlySet<string> = new Set(["the", "this", "la", "cette"]);

/**
 * A place named by what it shows, after a preposition: a table's row ("in the Da Silva row", « de la ligne Zoë »,
 * « dans la ligne Dupont ») or a titled group ("in the Shipping section", « dans le groupe Company », « de la carte
 * Booking »). Its words (before the place word in English, after it in French) are the anchor; `rest` is the
 * instruction without the phrase. None for a row named by rank ("the last row": the ordinal is the element's) or a
 * place word with no preposition before it (« le champ Adresse ligne 2 »).
 */
function placeRelation(toks: readonly Token[]): { kind: "row" | "inside"; anchor: Token[]; rest: Token[]; ordinal?: number; rowNumber?: number; acts?: boolean; window?: boolean } | undefined {
  // An ordinal word just before `at` ("the second Nguyen row", « la dernière ligne Nguyen »): which of the places so
  // named, and where the phrase's article is looked for.
  const ordinalBefore = (at: number): { v: number; at: number } | undefined => {
    for (let j = Math.max(0, at - 3); j < at; j++) {
      const p = phraseAt(toks, j);
      if (p && p.kind.k === "ordinal" && j + p.len === at) return { v: p.kind.v, at: j };
    }
    return undefined;
  };
  for (let r = 0; r < toks.length; r++) {
    // "the Delete button in the Orders box": a box the target is in, its kind said before — a group's frame, not a field.
    const boxed = toks[r]!.f === "box" && r === toks.length - 1 && toks.some((t, j) => j < r && t.f === "in") && toks.some((_, j) => j < r && phraseAt(toks, j)?.kind.k === "type");
    const kind = PLACE_WORDS.get(toks[r]!.f) ?? (boxed ? "inside" : undefined);
    if (!kind) continue;
    // After a French place word, English small words belong to the place's name (« la ligne Cash on delivery »).
    // A capitalised word is a name, whatever else it may mean (the « Dossier patient » card, not a folder icon).
    const capital = (j: number) => /^\p{Lu}/u.test(toks[j]!.orig) && !PLACE_PREPOSITIONS.has(toks[j]!.f) && !ARTICLES.has(toks[j]!.f);
    const plain = (j: number) => (!phraseAt(toks, j) || capital(j) || (!ENGLISH_PLACE.has(toks[r]!.f) && ENGLISH_SMALL_WORDS.has(toks[j]!.f))) && !toks[j]!.boundary;
    // (Small words joining a name's capitalised words are the name's: "the Gestion des stocks dialog", « de la fenêtre
    // Gestion des stocks ».)
    const joins = (j: number, end: number) => NAME_JOINERS.has(toks[j]!.f) && j > 0 && capital(j - 1) && j + 1 < end && (capital(j + 1) || !phraseAt(toks, j + 1));
    const after: Token[] = [];
    for (let j = r + 1; j < toks.length && (plain(j) || (after.length > 0 && joins(j, toks.length) && !toks[j]!.boundary)); j++) after.push(toks[j]!);
    const before: Token[] = [];
    const joined = (j: number) => joins(j, r);
    for (let j = r - 1; j >= 0 && (!phraseAt(toks, j) || capital(j) || joined(j)); j--) {
      before.unshift(toks[j]!);
      if (toks[j]!.boundary) break;
    }
    // The preposition (and article) that opens the phrase, just before `at` (or before an ordinal word there).
    const windowed = WINDOW_PLACES.has(toks[r]!.f);
    const opening = (at: number): { start: number; ordinal?: number; acts?: boolean } | undefined => {
      const ord = ordinalBefore(at);
      let j = (ord?.at ?? at) - 1;
      // « la boîte de dialogue Facture »: the words that open the place's own name.
      if (j >= 1 && toks[j]!.f === "de" && toks[j - 1]!.f === "boite") j -= 2;
      while (j >= 0 && ARTICLES.has(toks[j]!.f)) j--;
      // "close the Invoice dialog": the window the verb acts on is the place, the verb names what does it there.
      if (j >= 0 && WINDOW_ACTIONS.has(toks[j]!.f) && windowed) return { start: j + 1, acts: true };
      return j >= 0 && PLACE_PREPOSITIONS.has(toks[j]!.f) ? { start: j, ...(ord ? { ordinal: ord.v } : {}) } : undefined;
    };
    if ((ENGLISH_PLACE.has(toks[r]!.f) || boxed) && before.length) {
      const o = opening(r - before.length);
      if (o) return { kind, anchor: before, rest: [...toks.slice(0, o.start), ...toks.slice(r + 1)], ...(o.ordinal !== undefined ? { ordinal: o.ordinal } : {}), ...(o.acts ? { acts: true } : {}), ...(windowed ? { window: true } : {}) };
    }
    if (after.length) {
      const o = opening(r);
      // "in row 3", « de la ligne 2 »: the row's word and its number are what such a row may show ("Row 3").
      const numbered = kind === "row" && after.length === 1 && /^[1-9]\d{0,2}$/u.test(after[0]!.f) ? Number(after[0]!.f) : undefined;
      const anchor = numbered !== undefined ? [toks[r]!, after[0]!] : after;
      if (o) return { kind, anchor, rest: [...toks.slice(0, o.start), ...toks.slice(r + 1 + after.length)], ...(o.ordinal !== undefined ? { ordinal: o.ordinal } : {}), ...(numbered ? { rowNumber: numbered } : {}), ...(o.acts ? { acts: true } : {}), ...(windowed ? { window: true } : {}) };
    }
  }
  return undefined;
}

/**
 * "the last row's checkbox", "the Dupont row's print icon": English names the owner first; read as "the checkbox of
 * the last row", "the print icon of the Dupont row". The "s" after an apostrophe that French « s'il » has is no owner's.
 */
function possessiveAsOf(toks: readonly Token[]): readonly Token[] {
  const p = toks.findIndex((t, i) => i > 0 && i + 1 < toks.length && t.apos && t.f === "s" && toks[i + 1]!.f !== "il" && toks[i + 1]!.f !== "ils");
  if (p < 0) return toks;
  const owner = toks.slice(0, p);
  const word = (w: string): Token => ({ orig: w, f: w, boundary: false });
  return [...toks.slice(p + 1), word("of"), ...(ARTICLES.has(owner[0]!.f) ? owner : [word("the"), ...owner])];
}

/** Parses an instruction; never throws (an empty target means "no words name it"). */
export function parseInstruction(instruction: string): ParsedInstruction {
  const raw = instruction.slice(0, MAX_INSTRUCTION_LENGTH).trim();
  let toks: readonly Token[] = tokens(raw);
  let verb: Verb = "click";
  let verbType: UIElementType | undefined;
  // The verb: the longest of the verb phrases that starts the instruction.
  let best = 0;
  for (const [phrases, v, t] of VERBS)
    for (const p of phrases) {
      const w = split(p);
      if (w.length > best && w.every((x, j) => toks[j]?.f === x)) {
        best = w.length;
        verb = v;
        verbType = t;
      }
    }
  toks = toks.slice(best);
  // "type X in the Y field" / « saisir X dans le champ Y »: the value is what comes before the last in / into / dans.
  let value: string | undefined;
  if (verb === "type") {
    const folded = toks.map((t) => t.f);
    const at = Math.max(folded.lastIndexOf("in"), folded.lastIndexOf("into"), folded.lastIndexOf("dans"));
    if (at > 0) {
      const quotedValue = quotedText(raw);
      value = quotedValue && foldText(raw).indexOf(foldText(quotedValue[0])) < foldText(raw).lastIndexOf(toks[at]!.f) ? quotedValue[1]! : toks.slice(0, at).map((t) => t.orig).join(" ");
      toks = toks.slice(at + 1);
    }
  }
  toks = possessiveAsOf(toks);
  // « … de la ligne Zoë », « … dans le groupe Company »: the place is the relation, whatever else the words say.
  const place = placeRelation(toks);
  if (place) toks = place.rest;
  // "minimize the window", « réduire la fenêtre »: the window is what the button acts on, not part of its name.
  const untrimmed = toks.length;
  toks = toks.filter((t, i) => !(WINDOW_WORDS.has(t.f) && i >= 2 && WINDOW_OBJECT_ARTICLES.has(toks[i - 1]!.f) && WINDOW_ACTIONS.has(toks[i - 2]!.f)) && !(WINDOW_OBJECT_ARTICLES.has(t.f) && WINDOW_WORDS.has(toks[i + 1]?.f ?? "") && i >= 1 && WINDOW_ACTIONS.has(toks[i - 1]!.f)));
  // A quoted target: « … », "…", “…”.
  const quoted = verb !== "type" ? quotedText(raw) : null;
  const quotedWords = quoted ? new Set(tokens(quoted[1]!).map((t) => t.f)) : undefined;

  let type: UIElementType | undefined;
  let menu = false;
  let isSwitch = false;
  let ordinal: number | undefined;
  let colour: ColourName | undefined;
  let icon: string | undefined;
  let direction: ParsedInstruction["direction"];
  let region: ParsedInstruction["region"];
  let breadcrumb = false;
  /** The window's own control ("the close button of the window", "minimize the window"): in its title bar. */
  let windowOwn = toks.length < untrimmed || !!place?.window;
  const position: { vertical?: PositionHint["vertical"]; horizontal?: PositionHint["horizontal"] } = {};
  let relation: { kind: RelationKind; anchor: Token[]; anchorType?: UIElementType; anchorOrdinal?: number; rowNumber?: number } | undefined = place
    ? { kind: place.kind, anchor: place.anchor, ...(place.ordinal !== undefined ? { anchorOrdinal: place.ordinal } : {}), ...(place.rowNumber !== undefined ? { rowNumber: place.rowNumber } : {}) }
    : undefined;
  const target: Token[] = [];
  const iconish = toks.some((t) => ICONISH.has(t.f));
  const iconCandidates: { v: string; depiction: boolean; at: number; len: number }[] = [];
  const anchorIcons: { v: string; at: number; len: number }[] = [];
  /** The relation was opened by "of the", « de la »: an icon named after it may be the target's own picture. */
  let possessive = false;
  let inAnchor = false;
  let state: StateWord | undefined;
  let stateTokens: Token[] = [];
  /** The state was said with a check box's words ("unchecked", « cochée »). */
  let checkWord = false;
  let typeWords = "";
  /** The tokens the kind was said with. */
  let typeToks: Token[] = [];
  /** Where they stand in the instruction (−1 before any). */
  let typeAt = -1;
  // "pagination" also names a link's type; wherever it stands, it places the target in a pager.
  const pager = toks.some((t) => PAGER_WORDS.has(t.f));
  /** Words of a UI phrase ("intitulé du poste", "mot de passe"): kept whole, small words included. */
  const kept = new Set<Token>();
  const capitalised: Token[][] = [];
  for (let i = 0; i < toks.length; ) {
    const t = toks[i]!;
    if (t.boundary) inAnchor = false;
    if (quotedWords?.has(t.f) && !inAnchor) {
      i++;
      continue;
    }
    const label = labelPhraseAt(toks, i);
    const hit = phraseAt(toks, i);
    // A UI phrase ("first name", "last name") beats a phrase of the tables that is no longer.
    if (label && (!hit || label >= hit.len) && hit?.kind.k !== "relation") {
      for (const w of toks.slice(i, i + label)) kept.add(w);
      (inAnchor ? relation!.anchor : target).push(...toks.slice(i, i + label));
      i += label;
      continue;
    }
    if (!hit) {
      (inAnchor ? relation!.anchor : target).push(t);
      i++;
      continue;
    }
    // « grisé » folds to « grise », the colour: written with its accent, it is the state (« le bouton radio grisé »).
    const said = toks.slice(i, i + hit.len);
    const stateToo = hit.kind.k === "colour" && said.some((w) => /é/iu.test(w.orig)) ? STATE_PHRASES.find(([ph]) => ph === said.map((w) => w.f).join(" ")) : undefined;
    const k: typeof hit.kind = stateToo ? { k: "state", v: stateToo[1] } : hit.kind;
    // A type or icon word written with a capital inside the instruction may be what the screen shows ("the Icons link").
    if (((k.k === "type" && k.v !== "menu") || k.k === "iconword") && !inAnchor && /^\p{Lu}/u.test(t.orig)) capitalised.push(toks.slice(i, i + hit.len));
    // "the View invoice link next to Last updated": after the kind, with « Last » capitalised, beside a name, not the
    // rank "next to last".
    const last = said[said.length - 1]!;
    if (k.k === "ordinal" && !relation && type && said.length === 3 && said[0]!.f === "next" && /^\p{Lu}/u.test(last.orig)) {
      relation = { kind: "near", anchor: [last] };
      inAnchor = true;
      i += hit.len;
      continue;
    }
    switch (k.k) {
      case "relation":
        if (!relation && i > 0) {
          relation = { kind: k.v, anchor: [] };
          possessive = POSSESSIVE.has(toks.slice(i, i + hit.len).map((t) => t.f).join(" "));
          inAnchor = true;
        } else if (!relation) {
          // An instruction that starts with "under" or « sous »: no target before it, so not a relation.
          break;
        } else inAnchor = false;
        break;
      case "ordinal":
        if (inAnchor) relation!.anchorOrdinal ??= k.v;
        else ordinal ??= k.v;
        break;
      case "type":
        if (inAnchor) {
          if (k.v !== "menu") relation!.anchorType ??= k.v;
        } else if (k.v === "menu") menu = true;
        else if (!type || (i + hit.len === toks.length && toks.slice(0, typeAt).some((w) => w.f === "the") && target.some((w) => toks.indexOf(w) > typeAt && toks.indexOf(w) < i))) {
          // "the list view button": in English (its article said), a kind word closing the instruction, after another kind
          // word said with the name's words, is the kind; the first is part of the name ("list view"). (French says the
          // kind first: « le bouton vue liste ».)
          if (type) target.push(...typeToks);
          type = k.v;
          typeToks = toks.slice(i, i + hit.len);
          typeAt = i;
          typeWords = typeToks.map((t) => t.f).join(" ");
          isSwitch = SWITCH_PHRASES.has(typeWords);
        }
        break;
      case "region":
        if (k.v === "breadcrumb") breadcrumb = true;
        else if (k.v === "window") windowOwn = true;
        else if (k.v && k.v !== "pager") region ??= k.v;
        break;
      case "colour":
        if (!inAnchor) colour ??= k.v;
        break;
      case "icon":
        if (!inAnchor) iconCandidates.push({ v: k.v, depiction: k.depiction, at: i, len: hit.len });
        else anchorIcons.push({ v: k.v, at: i, len: hit.len });
        break;
      case "direction":
        direction ??= k.v;
        break;
      case "state":
        if (!inAnchor) {
          if (!state) stateTokens = toks.slice(i, i + hit.len);
          state ??= k.v;
          if (CHECK_WORDS.has(toks.slice(i, i + hit.len).map((t) => t.f).join(" "))) checkWord = true;
        }
        break;
      case "position":
        if (k.v.vertical && (!position.vertical || position.vertical === "middle")) position.vertical = k.v.vertical;
        if (k.v.horizontal && (!position.horizontal || position.horizontal === "center")) position.horizontal = k.v.horizontal;
        break;
      default:
        break;
    }
    i += hit.len;
  }
  // « l'icône de la loupe », "the icon of a gear": no target before « de », and all the "anchor" says is an icon's
  // picture — the icon is the target, not a thing beside it.
  const anchorIcon = anchorIcons.length === 1 ? anchorIcons[0]! : undefined;
  if (anchorIcon && relation && iconish && possessive && !iconCandidates.length && target.every((t) => FILLER_WORDS.has(t.f) || ICONISH.has(t.f))) {
    const own = new Set(toks.slice(anchorIcon.at, anchorIcon.at + anchorIcon.len));
    if (relation.anchor.every((t) => own.has(t) || FILLER_WORDS.has(t.f))) {
      iconCandidates.push({ v: anchorIcon.v, depiction: true, at: anchorIcon.at, len: anchorIcon.len });
      relation = undefined;
    }
  }
  // Icon words that are also UI words ("print", "copy", "play") describe an icon only when the
  // instruction speaks of an icon; otherwise they name the target.
  for (const c of iconCandidates) {
    if (c.depiction || iconish) icon ??= c.v;
    else target.push(...toks.slice(c.at, c.at + c.len));
  }
  target.sort((a, b) => toks.indexOf(a) - toks.indexOf(b));
  // "the up chevron", "the chevron down": a chevron's direction said by a bare word beside it, all its target says.
  if (icon === "chevron" && !direction) {
    const named = target.filter((t) => !FILLER_WORDS.has(t.f));
    const said = named.length === 1 ? BARE_DIRECTIONS[named[0]!.f] : undefined;
    if (said) {
      direction = said;
      target.splice(target.indexOf(named[0]!), 1);
    }
  }
  if (direction && !icon) icon = "arrow";
  // « la coche », « une coche »: after an article, with no kind said, the noun — a check mark drawn (« la coche de
  // confirmation »), not a ticked box.
  const cocheAt = stateTokens.length === 1 && stateTokens[0]!.orig.toLowerCase() === "coche" ? toks.indexOf(stateTokens[0]!) : -1;
  if (!type && !icon && cocheAt > 0 && ARTICLES.has(toks[cocheAt - 1]!.f)) {
    icon = "check";
    state = undefined;
    checkWord = false;
  }
  // "the unchecked Notifications box", « la case non cochée »: a box said ticked or not is a check box.
  // So is a box ticked or cleared by the verb ("check the Remember me box").
  const ticking = verb === "check" || verb === "uncheck";
  if ((checkWord || ticking) && (!type || (type === "text_input" && GENERIC_BOX_WORDS.has(typeWords)))) type = "checkbox";
  const finalType = type ?? verbType ?? (verb === "open" && !menu ? "dropdown" : undefined);
  // A field or a link is never ticked nor selected: a state word said of one, after its first word, is part of what
  // it shows (« la zone de texte No item selected »), the small words between them too.
  const isNamed = (t: Token) => !FILLER_WORDS.has(t.f) || kept.has(t);
  const firstNamed = target.filter(isNamed).reduce((m, t) => Math.min(m, toks.indexOf(t)), Infinity);
  if ((state === "on" || state === "off") && !checkWord && (finalType === "text_input" || finalType === "link") && stateTokens.length && toks.indexOf(stateTokens[0]!) > firstNamed) {
    const between = toks.slice(firstNamed + 1, toks.indexOf(stateTokens[0]!));
    for (const t of [...between, ...stateTokens]) {
      kept.add(t);
      if (!target.includes(t)) target.push(t);
    }
    target.sort((a, b) => toks.indexOf(a) - toks.indexOf(b));
    state = undefined;
  }
  // « le bouton coche »: a button is not ticked; « coche » written without its accent is the noun, a check mark.
  if (state === "on" && finalType === "button" && !icon && stateTokens.length === 1 && stateTokens[0]!.orig.toLowerCase() === "coche") {
    icon = "check";
    state = undefined;
  }
  // Small words between a name's words, all of them said in one run, are the name's (« le lien Voir la facture »).
  const namedAt = target.filter(isNamed).map((t) => toks.indexOf(t));
  const [lo, hi] = [Math.min(...namedAt), Math.max(...namedAt)];
  const run = namedAt.length >= 2 ? toks.slice(lo, hi + 1) : [];
  let words = run.length && run.every((t) => target.includes(t) || FILLER_WORDS.has(t.f)) ? run : target.filter(isNamed);
  /** The words name nothing but the icon `c` shows: the target is that icon. */
  const asIcon = (c: string) => {
    icon = c;
    words = [];
    target.length = 0;
  };
  const said = () => words.map((t) => t.f).join(" ");
  /** Written with a capital, a word is a name the screen shows (« le bouton Fermer de la fenêtre »). */
  const capitalisedWord = () => words.some((t) => /^\p{Lu}/u.test(t.orig));
  // "the search icon", « l'icône Accueil »: all that is named is what such an icon stands for, and an icon is asked —
  // that icon, not words on screen that say the same (a search field's "Search").
  if (!icon && iconish && !quoted && words.length) {
    const concept = Object.entries(ICON_CONCEPTS).find(([, c]) => c.labels.some((l) => /\p{L}{3}/u.test(l) && foldText(l) === said()))?.[0];
    if (concept) asIcon(concept);
  }
  // A window's or a card's own control, said by what it does (« fermer », "minimize"): the icon of its title bar or
  // header — "the close button of the window" at the window's top, "close the Inventory window" and "the close button of
  // the Direct Chat card" on the title's line.
  const placed = place?.kind === "inside" && relation?.kind === "inside";
  if (windowOwn || placed) {
    const control = !icon && !quoted && !capitalisedWord() ? CONTROL_WORDS[said()] : undefined;
    if (control) asIcon(control);
    if ((control || (windowOwn && icon && Object.values(CONTROL_WORDS).includes(icon))) && !relation) region ??= "title";
    // (« la croix de la fenêtre X », "the minus of the Visitors card": an icon drawn as such a control is one too.)
    const drawnControl = !control && placed && !said() && !!icon && Object.values(CONTROL_WORDS).includes(icon);
    if ((control || drawnControl) && relation?.kind === "inside") relation = { ...relation, kind: "row" };
  }
  // "the download arrow", « la flèche suivante »: an arrow named by what it does is that figure.
  const kind = icon === "arrow" && !quoted && said() && !capitalisedWord() ? Object.entries(ICON_CONCEPTS).find(([k, c]) => k !== "arrow" && c.classes.some((x) => ICON_CONCEPTS.arrow!.classes.includes(x)) && [...c.words, ...c.labels].some((w) => foldText(w) === said()))?.[0] : undefined;
  if (kind) asIcon(kind);
  // "the notifications bell", « la loupe de recherche »: words that only say what the icon described stands for.
  if (icon && !quoted && said() && ICON_CONCEPTS[icon]?.labels.some((l) => foldText(l) === said())) asIcon(icon);
  // Nothing named but a capitalised type or icon word past the instruction's start (« le lien Icons », "the Link
  // button button"): that word is the name, as if quoted.
  if (!words.length && !quoted && !icon) {
    const wordAt = (w: string) => {
      let at = raw.indexOf(w);
      while (at > 0 && /[\p{L}\p{N}]/u.test(raw[at - 1]!)) at = raw.indexOf(w, at + 1);
      return at;
    };
    const named = capitalised.map((ws) => ({ ws, at: wordAt(ws[0]!.orig) })).find((c) => c.at > 0);
    if (named) {
      const phrase = named.ws.map((w) => w.orig);
      const end = phrase.slice(1).reduce((at, w) => raw.indexOf(w, at) + w.length, named.at + phrase[0]!.length);
      return parseInstruction(`${raw.slice(0, named.at)}"${raw.slice(named.at, end)}"${raw.slice(end)}`);
    }
  }
  const folded = target.map((t) => t.f);
  // (A field said masked, « masqué », shows masked text too, whatever it is called.)
  const masked = MASKED_WORDS.some((m) => folded.some((_, i) => m.every((w, k) => folded[i + k] === w))) || toks.some((t) => MASKED_DESCRIPTIONS.has(t.f) && !relation?.anchor.includes(t));
  // "the menu button", « le bouton menu »: a button said a menu, nothing else named, is named so (a « Menu » button, or
  // the icon that stands for one), not an item of a menu bar.
  const menuWord = menu && finalType === "button" && !quoted && !icon && !words.length ? toks.find((t) => t.f === "menu") : undefined;
  if (menuWord) menu = false;
  const targetText = quoted ? quoted[1]!.trim() : menuWord ? menuWord.orig : words.map((t) => t.orig).join(" ");
  // (Small words between the anchor's named words are its own: "the Terms of Use section".)
  const anchorNamed = relation?.anchor.filter(isNamed) ?? [];
  const anchorWords = relation && anchorNamed.length >= 2 ? relation.anchor.slice(relation.anchor.indexOf(anchorNamed[0]!), relation.anchor.indexOf(anchorNamed[anchorNamed.length - 1]!) + 1) : anchorNamed;
  // "the checkbox of the last row", « la case de la dernière ligne »: a rank with nothing named after it is the target's.
  if (relation && !anchorWords.length && relation.anchorOrdinal !== undefined) ordinal ??= relation.anchorOrdinal;
  // « le curseur à côté du lien », "the field under the drop-down": a place beside a thing named by its type alone.
  const byTypeAlone = !!relation && !anchorWords.length && !!relation.anchorType && relation.anchorOrdinal === undefined && !possessive && relation.kind !== "row" && relation.kind !== "inside";
  const pos = position.vertical || position.horizontal ? { ...(position.vertical ? { vertical: position.vertical } : {}), ...(position.horizontal ? { horizontal: position.horizontal } : {}) } : undefined;
  return {
    verb,
    target: targetText,
    ...(finalType ? { type: finalType } : {}),
    ...(pos ? { position: pos } : {}),
    ...(value !== undefined ? { value } : {}),
    ...(ordinal !== undefined ? { ordinal } : {}),
    ...(colour ? { colour } : {}),
    ...(icon ? { icon } : {}),
    ...(direction ? { direction } : {}),
    ...(relation && (anchorWords.length || byTypeAlone)
      ? { relation: { kind: relation.kind, anchor: anchorWords.map((t) => t.orig).join(" "), ...(relation.anchorType ? { anchorType: relation.anchorType } : {}), ...(relation.anchorOrdinal !== undefined ? { anchorOrdinal: relation.anchorOrdinal } : {}), ...(relation.rowNumber !== undefined ? { rowNumber: relation.rowNumber } : {}) } }
      : {}),
    ...(region ? { region } : {}),
    ...(menu ? { menu } : {}),
    ...(masked && (!finalType || finalType === "text_input") ? { masked } : {}),
    ...(breadcrumb ? { breadcrumb } : {}),
    ...(isSwitch && finalType === "checkbox" ? { switch: true } : {}),
    ...(MULTILINE_PHRASES.has(typeWords) && finalType === "text_input" ? { multiline: true } : {}),
    ...(SLIDER_PHRASES.has(typeWords) && finalType === "generic_interactive" ? { slider: true } : {}),
    ...(state ? { state } : {}),
    ...(pager ? { pager } : {}),
  };
}
