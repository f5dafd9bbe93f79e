// The OCR the product uses by default: PP-OCR finds and reads every line (light-on-dark
// included, fast), then tesseract re-reads only the lines PP-OCR cannot spell — French words
// whose accents are missing from PP-OCR's character list (ê â ç ù û ô î ï œ …), characters read
// with low confidence (where € and other missing glyphs land). A re-read word replaces PP-OCR's
// only when both agree once accents are folded, so tesseract can add accents but never garbage.
import { existsSync, readFileSync } from "node:fs";
import { throwIfAborted } from "../core/errors.js";
import type { Frame } from "../core/frame.js";
import type { OcrLine, OcrProvider, OcrResult, OcrWord } from "../core/providers/ocr.js";
import { foldText } from "../core/text.js";
import type { PpOcr } from "./ppocr-ocr.js";
import { toRgb } from "./raster.js";
import type { TesseractOcr } from "./tesseract-ocr.js";

export const DEFAULT_FRENCH_WORD_LIST = "/usr/share/dict/french";

/** Folded spelling → whether the word list has it only with accents (so an unaccented read is suspect). */
export class AccentLexicon {
  private constructor(private readonly accentedOnly: ReadonlySet<string>) {}

  /** The Debian `wfrench` word list; an empty lexicon when absent (refinement then relies on confidence only). */
  static load(path = DEFAULT_FRENCH_WORD_LIST): AccentLexicon {
    if (!existsSync(path)) return new AccentLexicon(new Set());
    const plain = new Set<string>();
    const accented = new Set<string>();
    for (const w of readFileSync(path, "utf8").split("\n")) {
      if (!w) continue;
      const f = foldText(w);
      if (f === w.toLowerCase()) plain.add(f);
      else accented.add(f);
    }
    for (const p of plain) accented.delete(p);
    return new AccentLexicon(accented);
  }

  static of(words: Iterable<string>): AccentLexicon {
    return new AccentLexicon(new Set([...words].map((w) => foldText(w))));
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

/** More English than French function words in the line. */
export function looksEnglish(text: string): boolean {
  let en = 0;
  let fr = 0;
  for (const t of foldText(text).split(/[^\p{L}]+/u)) {
    if (ENGLISH.has(t)) en++;
    if (FRENCH.has(t)) fr++;
  }
  return en > fr;
}

/** Folded form used to decide that two readings are the same word (€ and E/C, œ and oe agree). */
function sameWord(a: string): string {
  return foldText(a)
    .replace(/€/g, "e")
    .replace(/[^\p{L}\p{N}]+/gu, "");
}

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
    this.name = tesseract ? `${ppocr.name}+${tesseract.name}` : ppocr.name;
    this.lowConfidence = options.lowConfidence ?? 0.5;
    this.maxRefined = options.maxRefinedLines ?? 16;
  }

  /**
   * Why a line goes to tesseract, or undefined. Accents are looked for unless the line reads as
   * English (more English than French function words: "system" is not "système" there); low
   * confidence counts on words with two letters or digits (an icon read as a glyph does not).
   */
  refineReason(line: OcrLine): string | undefined {
    if (!looksEnglish(line.text) && line.words.some((w) => this.lexicon.needsAccents(w.text))) return "accents";
    if (line.words.some((w) => w.confidence < this.lowConfidence && /[\p{L}\p{N}€]{2}/u.test(w.text))) return "low_confidence";
    return undefined;
  }

  async recognize(frame: Frame, signal?: AbortSignal): Promise<OcrResult> {
    const base = await this.ppocr.recognize(frame, signal);
    if (!this.tesseract) return base;
    const t0 = performance.now();
    const img = toRgb(frame);
    const lines = [...base.lines];
    let refined = 0;
    let changed = 0;
    const queue = lines
      .map((line, i) => ({ i, reason: this.refineReason(line) }))
      .filter((x) => x.reason)
      .sort((a, b) => (a.reason === "accents" ? 0 : 1) - (b.reason === "accents" ? 0 : 1))
      .slice(0, this.maxRefined);
    for (const { i } of queue) {
      const line = lines[i]!;
      throwIfAborted(signal, "OCR refinement");
      refined++;
      const tess = await this.tesseract.readLine(img, line.bbox, line.inverted ?? false, signal);
      const merged = mergeWords(line.words, tess);
      if (merged.changed) {
        changed += merged.changed;
        lines[i] = { ...line, words: merged.words, text: merged.words.map((w) => w.text).join(" ") };
      }
    }
    return {
      provider: this.name,
      lines,
      timings: { ...base.timings, refine_ms: performance.now() - t0, refined_lines: refined, refined_words: changed },
    };
  }
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
