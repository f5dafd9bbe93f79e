// Label normalization shared by element identity, role lexicons and label matching.
//
// Choice on accents: `normalized` folds diacritics ("Supprimer l'élément" → "supprimer element").
// OCR engines disagree on accents (PP-OCR's character list lacks most of them, tesseract keeps
// them), and an element's identity must not change with the OCR engine that read it. The
// accented text stays available in `text.raw`. Ligatures are expanded (œ → oe, æ → ae, ß → ss).

const FRENCH_STOP_WORDS = [
  "le", "la", "les", "l", "un", "une", "des", "de", "du", "d", "au", "aux", "a", "et", "ou",
  "en", "pour", "par", "sur", "avec", "ce", "cet", "cette", "ces", "son", "sa", "ses", "mon", "ma",
  "mes", "votre", "vos", "notre", "nos", "leur", "leurs", "dans", "qu", "que", "s",
];
const ENGLISH_STOP_WORDS = [
  "the", "a", "an", "of", "to", "for", "and", "or", "in", "on", "at", "with", "by", "from", "this",
  "that", "these", "those", "your", "my", "our", "its",
];

/** Stop words removed from normalized labels (after accent folding). */
export const STOP_WORDS: ReadonlySet<string> = new Set([...FRENCH_STOP_WORDS, ...ENGLISH_STOP_WORDS]);

const LIGATURES: Record<string, string> = { œ: "oe", Œ: "oe", æ: "ae", Æ: "ae", ß: "ss", ﬁ: "fi", ﬂ: "fl" };

/** Lower case, diacritics removed, ligatures expanded, NFC. Keeps every other character. */
export function foldText(text: string): string {
  // ASCII has nothing to fold but case (most words of the word lists loaded at start).
  if (!/[^\p{ASCII}]/u.test(text)) return text.toLowerCase();
  return text
    .replace(/[œŒæÆßﬁﬂ]/g, (c) => LIGATURES[c] ?? c)
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .normalize("NFC");
}

/** Word tokens of a folded text: letters and digits, plus the currency and percent signs as tokens. */
export function tokenize(text: string): string[] {
  return foldText(text)
    .replace(/[€$£%]/g, (c) => ` ${c} `)
    .split(/[^\p{L}\p{N}€$£%]+/u)
    .filter((t) => t.length > 0);
}

/**
 * Normalized label: folded, tokenized, stop words removed, joined by single spaces.
 * "Valider la facture" → "valider facture". If every token is a stop word ("Le", "A"), the
 * tokens are kept so that a non-empty label never normalizes to "".
 */
export function normalizeLabel(label: string): string {
  const tokens = tokenize(label);
  const kept = tokens.filter((t) => !STOP_WORDS.has(t));
  return (kept.length > 0 ? kept : tokens).join(" ");
}

/** Keyboard shortcuts shown beside menu items ("Ctrl+O", "Shift+Ctrl+S", "Alt+F4"), removed from a label. */
export function stripAccelerators(label: string): string {
  return label
    .replace(/(?:^|\s)(?:(?:shift|ctrl|alt|super|maj)\s?\+\s?)+\S+/gi, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** The edit distance of two strings (insertions, deletions and substitutions of one code unit each). */
/**
 * A text with the letters a screen reader's OCR takes for one another folded into one ("F" read "E", "I", "l", "1" and
 * "|", "O" and "0", "rn" for "m", "vv" for "w"): two texts equal once folded may be one name, one of them misread.
 */
export function foldOcrConfusables(text: string): string {
  return text.replace(/rn/g, "m").replace(/vv/g, "w").replace(/F/g, "E").replace(/[Il1|]/g, "l").replace(/0/g, "O");
}

export function levenshtein(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0]!;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j]!;
      prev[j] = Math.min(prev[j]! + 1, prev[j - 1]! + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return prev[b.length]!;
}
