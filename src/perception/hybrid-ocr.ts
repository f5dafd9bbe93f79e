// The OCR the product uses by default: PP-OCR finds and reads every line (light-on-dark
// included, fast), then tesseract re-reads only the lines PP-OCR cannot spell — French words
// whose accents are missing from PP-OCR's character list (ê â ç ù û ô î ï œ …), characters read
// with low confidence (where € and other missing glyphs land). A re-read word replaces PP-OCR's
// only when both agree once accents are folded, so tesseract can add accents but never garbage.
// Accents are not looked for on English text (by its function words, else the screen's words:
// "Demo" is not "Démo" on an English page), which keeps tesseract off most English screens.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, statSync } from "node:fs";
import { writeFileAtomicSync } from "../core/atomic-write.js";
import { markUsed } from "../core/kept-files.js";
import { join } from "node:path";
import { throwIfAborted } from "../core/errors.js";
import type { Frame } from "../core/frame.js";
import type { BBox } from "../core/geometry.js";
import type { OcrLine, OcrProvider, OcrResult, OcrWord } from "../core/providers/ocr.js";
import { foldText } from "../core/text.js";
import type { PpOcr } from "./ppocr-ocr.js";
import { toRgb } from "./raster.js";
import type { TesseractOcr } from "./tesseract-ocr.js";

export const DEFAULT_FRENCH_WORD_LIST = "/usr/share/dict/french";
export const DEFAULT_ENGLISH_WORD_LIST = "/usr/share/dict/american-english";

/**
 * French spellings (which words need accents) and the English and French vocabularies, folded:
 * from the Debian `wfrench` and `wamerican` word lists. A missing list gives an empty set, and
 * refinement then relies on what is left (confidence, function words).
 */
export class AccentLexicon {
  private constructor(
    /** Folded spelling → the word list has it only with accents (so an unaccented read is suspect). */
    private readonly accentedOnly: ReadonlySet<string>,
    /** Folded spellings the list has without accents; French = these ∪ `accentedOnly`. */
    private readonly plain: ReadonlySet<string>,
    private readonly english: ReadonlySet<string>,
  ) {}

  /**
   * The lists folded (≈ 0.7 s for 450,000 words at start). With `cacheDir`, the folded sets are kept there, keyed by
   * the lists' paths, sizes and dates and the folding code, and read back next time (≈ 0.2 s); a cache file that
   * cannot be read or written is only a slower start.
   */
  static load(path = DEFAULT_FRENCH_WORD_LIST, englishPath = DEFAULT_ENGLISH_WORD_LIST, cacheDir?: string): AccentLexicon {
    const file = cacheDir ? join(cacheDir, `lexicon-${lexiconKey(path, englishPath)}.txt`) : undefined;
    const cached = file ? readLexiconCache(file) : undefined;
    if (cached) return new AccentLexicon(...cached);
    const lexicon = AccentLexicon.fold(path, englishPath);
    if (file && cacheDir) {
      try {
        mkdirSync(cacheDir, { recursive: true });
        writeFileAtomicSync(file, [LEXICON_CACHE_HEADER, ...[lexicon.accentedOnly, lexicon.plain, lexicon.english].map((set) => [...set].join("\n"))].join(LEXICON_CACHE_SEPARATOR));
      } catch {
        // A read-only or full disk: the next start folds the lists again.
      }
    }
    return lexicon;
  }

  private static fold(path: string, englishPath: string): AccentLexicon {
    const plain = new Set<string>();
    const accented = new Set<string>();
    for (const w of readList(path)) {
      const f = foldText(w);
      if (f === w.toLowerCase()) plain.add(f);
      else accented.add(f);
    }
    for (const p of plain) accented.delete(p);
    return new AccentLexicon(accented, plain, new Set(readList(englishPath).map((w) => foldText(w))));
  }

  /** Words that need accents (written with them or not), and optionally the two vocabularies. */
  static of(words: Iterable<string>, vocabulary: { french?: Iterable<string>; english?: Iterable<string> } = {}): AccentLexicon {
    const fold = (ws: Iterable<string>) => new Set([...ws].map((w) => foldText(w)));
    return new AccentLexicon(fold(words), fold(vocabulary.french ?? []), fold(vocabulary.english ?? []));
  }

  /**
   * English or French by vocabulary: words of 3+ letters found in one list and not the other
   * ("street", "project", "address" vs "facture", "mutuelle"), one side at least 3 and twice
   * the other; undefined when they don't tell.
   */
  vocabularyLanguage(text: string): TextLanguage | undefined {
    let en = 0;
    let fr = 0;
    for (const t of foldText(text).split(/[^\p{L}]+/u)) {
      if (t.length < 3) continue;
      const inEn = this.english.has(t);
      const inFr = this.plain.has(t) || this.accentedOnly.has(t);
      if (inEn && !inFr) en++;
      if (inFr && !inEn) fr++;
    }
    return en >= 3 && en >= 2 * fr ? "en" : fr >= 3 && fr >= 2 * en ? "fr" : undefined;
  }

  /** True when `word` (any case, accents or not) is in the French or the English word list. */
  knows(word: string): boolean {
    const f = foldText(word);
    return this.plain.has(f) || this.accentedOnly.has(f) || this.english.has(f);
  }

  get size(): number {
    return this.accentedOnly.size;
  }

  /** True when `word`, read without accents, is a word that needs them. */
  needsAccents(word: string): boolean {
    const clean = word.replace(/^[^\p{L}]+|[^\p{L}]+$/gu, "");
    if (clean.length < 2 || /\p{M}/u.test(clean.normalize("NFD"))) return false;
    return this.accentedOnly.has(foldText(clean));
  }
}

export interface HybridOcrOptions {
  /** A word read below this confidence sends its line to tesseract (default 0.5). */
  lowConfidence?: number;
  /** Upper bound of lines re-read per screen (default 16, accent lines first); the rest keep PP-OCR's reading. */
  maxRefinedLines?: number;
}

const ENGLISH = new Set(["the", "and", "of", "to", "you", "is", "that", "with", "for", "this", "are", "it", "in", "on", "be", "was", "not", "or", "by", "your", "will", "can", "have", "from", "an", "at", "as", "who", "which"]);
const FRENCH = new Set(["le", "la", "les", "des", "du", "de", "et", "pour", "avec", "une", "un", "est", "dans", "sur", "au", "aux", "par", "vous", "votre", "ce", "cette", "qui", "que", "pas", "sont", "ou"]);

export type TextLanguage = "en" | "fr";

const LEXICON_CACHE_HEADER = "rpav-accent-lexicon 1";
const LEXICON_CACHE_SEPARATOR = "\n\u001e\n";

/** What the folded sets depend on: the lists (path, size, date) and the folding code. */
function lexiconKey(...paths: string[]): string {
  const hash = createHash("sha256").update(LEXICON_CACHE_HEADER).update(foldText.toString());
  for (const p of paths) {
    const st = existsSync(p) ? statSync(p) : undefined;
    hash.update(`\0${p}\0${st ? `${st.size}:${st.mtimeMs}` : "missing"}`);
  }
  return hash.digest("hex").slice(0, 16);
}

/** The three folded sets of a cache file, or undefined when it is missing or not one. */
function readLexiconCache(file: string): [ReadonlySet<string>, ReadonlySet<string>, ReadonlySet<string>] | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
  const parts = text.split(LEXICON_CACHE_SEPARATOR);
  if (parts.length !== 4 || parts[0] !== LEXICON_CACHE_HEADER) return undefined;
  const set = (part: string) => new Set(part.length ? part.split("\n") : []);
  markUsed(file);
  return [set(parts[1]!), set(parts[2]!), set(parts[3]!)];
}

function readList(path: string): string[] {
  return existsSync(path) ? readFileSync(path, "utf8").split("\n").filter((w) => w.length > 0) : [];
}

/** The language of the function words of `text` (more English or more French ones), or undefined when they don't tell. */
export function languageOf(text: string): TextLanguage | undefined {
  let en = 0;
  let fr = 0;
  for (const t of foldText(text).split(/[^\p{L}]+/u)) {
    if (ENGLISH.has(t)) en++;
    if (FRENCH.has(t)) fr++;
  }
  return en > fr ? "en" : fr > en ? "fr" : undefined;
}

/** Folded form used to decide that two readings are the same word (€ and E/C, œ and oe agree). */
function sameWord(a: string): string {
  return foldText(a)
    .replace(/€/g, "e")
    .replace(/[^\p{L}\p{N}]+/gu, "");
}

/** Words re-read on each side of those the accent lexicon flags. */
const ACCENT_NEIGHBOURS = 2;

export class HybridOcr implements OcrProvider {
  readonly name: string;
  private readonly lowConfidence: number;
  private readonly maxRefined: number;

  constructor(
    private readonly ppocr: PpOcr,
    private readonly tesseract: TesseractOcr | undefined,
    private readonly lexicon: AccentLexicon,
    options: HybridOcrOptions = {},
  ) {
    // The refinement's version is in the name: OCR caches are keyed by it.
    this.name = tesseract ? `${ppocr.name}+${tesseract.name}/refine2` : ppocr.name;
    this.lowConfidence = options.lowConfidence ?? 0.5;
    this.maxRefined = options.maxRefinedLines ?? 16;
  }

  /** Why a word sends its line to tesseract, or undefined (see `refineReason`). */
  private wordReason(w: OcrWord, accentsWanted: boolean): "accents" | "low_confidence" | undefined {
    if (accentsWanted && this.lexicon.needsAccents(w.text)) return "accents";
    if (w.confidence < this.lowConfidence && /[\p{L}\p{N}€]{2}/u.test(w.text)) return "low_confidence";
    return undefined;
  }

  /**
   * Why a line goes to tesseract, or undefined. Accents are looked for unless the line is
   * English: its function words say so, or, when it has none ("Address: Demo Street"), the
   * screen's do (`screenLanguage`) — "demo" is not "démo" on an English screen. Low confidence
   * counts on words with two letters or digits (an icon read as a glyph does not).
   */
  refineReason(line: OcrLine, screenLanguage?: TextLanguage): "accents" | "low_confidence" | undefined {
    const accentsWanted = (languageOf(line.text) ?? screenLanguage) !== "en";
    const reasons = line.words.map((w) => this.wordReason(w, accentsWanted));
    return reasons.find((r) => r === "accents") ?? reasons.find((r) => r);
  }

  /**
   * The parts of a line tesseract re-reads, left to right: each run of words that sent it there,
   * with half a line height either side; runs up to two line heights apart are read as one.
   * Tesseract costs ~30 ms a call plus ~0.5 ms a pixel of width, so two doubtful words at either
   * end of a long line are two short reads, not the whole line. For accents, two words more on
   * each side: a name beside the word the lexicon knows ("Liévin de Trèves") gets its accents too.
   */
  refineSpans(line: OcrLine, reason: "accents" | "low_confidence"): BBox[] {
    const flagged = line.words.flatMap((w, i) => (this.wordReason(w, reason === "accents") ? [i] : []));
    if (flagged.length === 0) return [line.bbox];
    const reach = reason === "accents" ? ACCENT_NEIGHBOURS : 0;
    const h = line.bbox[3] - line.bbox[1];
    const spans: [number, number, number, number][] = [];
    for (const f of flagged) {
      const first = line.words[Math.max(0, f - reach)]!;
      const last = line.words[Math.min(line.words.length - 1, f + reach)]!;
      const span: [number, number, number, number] = [Math.max(line.bbox[0], first.bbox[0] - h / 2), line.bbox[1], Math.min(line.bbox[2], last.bbox[2] + h / 2), line.bbox[3]];
      const prev = spans.at(-1);
      if (prev && span[0] - prev[2] <= 2 * h) prev[2] = Math.max(prev[2], span[2]);
      else spans.push(span);
    }
    return spans;
  }

  /** Boxes are read by PP-OCR only (a few characters each: no accents to restore). */
  readBoxes(frame: Frame, boxes: readonly BBox[], signal?: AbortSignal): Promise<OcrLine[]> {
    return this.ppocr.readBoxes(frame, boxes, signal);
  }

  async recognize(frame: Frame, signal?: AbortSignal): Promise<OcrResult> {
    const base = await this.ppocr.recognize(frame, signal);
    if (!this.tesseract) return base;
    const t0 = performance.now();
    const img = toRgb(frame);
    const lines = [...base.lines];
    let changed = 0;
    const screenText = lines.map((l) => l.text).join(" ");
    const language = languageOf(screenText) ?? this.lexicon.vocabularyLanguage(screenText);
    const queue = lines
      .map((line, i) => ({ i, reason: this.refineReason(line, language) }))
      .filter((x): x is { i: number; reason: "accents" | "low_confidence" } => x.reason !== undefined)
      .sort((a, b) => (a.reason === "accents" ? 0 : 1) - (b.reason === "accents" ? 0 : 1))
      .slice(0, this.maxRefined);
    throwIfAborted(signal, "OCR refinement");
    // Every span is queued at once: tesseract reads them on its workers, least busy first.
    const reads = await settleAll(
      queue.map(async ({ i, reason }) => {
        const line = lines[i]!;
        const words = await settleAll(this.refineSpans(line, reason).map((span) => this.tesseract!.readLine(img, span, line.inverted ?? false, signal)));
        return { i, words: words.flat() };
      }),
    );
    for (const { i, words } of reads) {
      const merged = mergeWords(lines[i]!.words, words);
      if (merged.changed) {
        changed += merged.changed;
        lines[i] = { ...lines[i]!, words: merged.words, text: merged.words.map((w) => w.text).join(" ") };
      }
    }
    return {
      provider: this.name,
      lines,
      timings: { ...base.timings, refine_ms: performance.now() - t0, refined_lines: queue.length, refined_words: changed },
    };
  }
}

/** The values of all `promises` once every one has settled; the first failure, if any, once none is left running. */
async function settleAll<T>(promises: readonly Promise<T>[]): Promise<T[]> {
  const settled = await Promise.allSettled(promises);
  const failure = settled.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failure) throw failure.reason;
  return settled.map((r) => (r as PromiseFulfilledResult<T>).value);
}

/**
 * Takes tesseract's spelling of a PP-OCR word when the two agree once folded (same letters and
 * digits, accents and € aside). Words pair up in order; PP-OCR keeps its boxes.
 */
export function mergeWords(pp: readonly OcrWord[], tess: readonly OcrWord[]): { words: OcrWord[]; changed: number } {
  let changed = 0;
  let j = 0;
  const words = pp.map((w) => {
    const key = sameWord(w.text);
    for (let k = j; k < tess.length; k++) {
      const t = tess[k]!;
      const tk = sameWord(t.text);
      if (tk !== key || !tk) continue;
      j = k + 1;
      const text = w.text.replace(/^([^\p{L}\p{N}€]*).*?([^\p{L}\p{N}€]*)$/u, (_m, pre: string, post: string) => `${pre}${t.text.replace(/^[^\p{L}\p{N}€]+|[^\p{L}\p{N}€]+$/gu, "")}${post}`);
      if (text === w.text) return w;
      changed++;
      return { ...w, text, confidence: Math.max(w.confidence, t.confidence) };
    }
    return w;
  });
  return { words, changed };
}
