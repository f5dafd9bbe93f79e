// The text a screen shows, as OCR reads it ("ocr_text_v1"): weight-free, made for what OCR gets
// wrong rather than for what a person typed. OCR glues words together at one size and splits them
// at another ("youareusing"), cuts a word at a window edge ("ituelle" for "Mutuelle"), and reads
// numbers that are the data of the moment rather than the screen (dates, amounts, counters). So:
//  - text is folded (case, accents, ligatures) and digits are dropped;
//  - character 3- to 5-grams run across the spaces of a line (the words of a line joined), so a
//    space OCR added or missed changes only the few n-grams that straddle it; lines are not joined
//    (their order depends on the reader);
//  - whole words of 3 letters or more add a little specificity;
//  - counts are damped (log), so a screen's most repeated words do not decide alone.
// Signed feature hashing into the configured dimension, as the n-gram text embedder does.
import type { TextEmbedder } from "../core/providers/embedders.js";
import { foldText } from "../core/text.js";
import type { Vector } from "../core/vectors.js";
import { hashedFeatures } from "./ngram-text-embedder.js";

const WORD_WEIGHT = 0.5;

export class OcrTextEmbedder implements TextEmbedder {
  readonly name: string;

  constructor(readonly dimensions = 512) {
    this.name = `ocr_text_v1_${dimensions}`;
  }

  /** Unnormalised; the zero vector for text without letters. Lines are separated by newlines. */
  embedSync(text: string): Vector {
    return hashedFeatures(this.dimensions, (add) => {
      for (const line of text.split(/\n+/)) {
        const words = foldText(line).split(/[^\p{L}]+/u).filter(Boolean);
        if (!words.length) continue;
        for (const w of words) if (w.length >= 3) add(`w:${w}`, WORD_WEIGHT);
        const joined = `<${words.join("")}>`;
        for (let n = 3; n <= 5; n++) for (let i = 0; i + n <= joined.length; i++) add(joined.slice(i, i + n), 1);
      }
    });
  }

  async embed(text: string): Promise<Vector> {
    return this.embedSync(text);
  }
}
