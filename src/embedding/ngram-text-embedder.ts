// Weight-free multilingual text embedding: hashed character n-grams (3 to 5, inside word
// boundaries) plus whole words, with signed feature hashing. Robust to OCR noise (one wrong
// character changes few n-grams) and to accents (text is folded first: "Créer" = "creer").
import type { TextEmbedder } from "../core/providers/embedders.js";
import { foldText } from "../core/text.js";
import type { Vector } from "../core/vectors.js";

/** 32-bit FNV-1a. */
export function fnv1a(s: string, seed = 0x811c9dc5): number {
  let h = seed >>> 0;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

export class NgramTextEmbedder implements TextEmbedder {
  readonly name: string;

  constructor(readonly dimensions = 512) {
    this.name = `ngram_hash_v1_${dimensions}`;
  }

  /** Unnormalised counts; the zero vector for text without letters or digits. */
  embedSync(text: string): Vector {
    const v = new Float32Array(this.dimensions);
    const words = foldText(text).split(/[^\p{L}\p{N}€$£%]+/u).filter(Boolean);
    const add = (feature: string, weight: number) => {
      const h = fnv1a(feature);
      v[h % this.dimensions] = (v[h % this.dimensions] as number) + ((h & 0x80000000) !== 0 ? -weight : weight);
    };
    for (const w of words) {
      add(`w:${w}`, 1);
      const padded = `<${w}>`;
      for (let n = 3; n <= 5; n++) for (let i = 0; i + n <= padded.length; i++) add(padded.slice(i, i + n), 0.5);
    }
    // Sub-linear term frequency: a long text does not drown in its most repeated n-grams.
    for (let i = 0; i < v.length; i++) {
      const x = v[i] as number;
      v[i] = Math.sign(x) * Math.log1p(Math.abs(x));
    }
    return v;
  }

  async embed(text: string): Promise<Vector> {
    return this.embedSync(text);
  }
}
