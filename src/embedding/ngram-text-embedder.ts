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

/**
 * Signed feature hashing: `fill` adds weighted features (each to one of `dimensions` slots, its
 * sign from the hash's top bit), then counts are damped (sign × log(1 + |x|)), so a long text does
 * not drown in its most repeated features.
 */
export function hashedFeatures(dimensions: number, fill: (add: (feature: string, weight: number) => void) => void): Float32Array {
  const v = new Float32Array(dimensions);
  fill((feature, weight) => {
    const h = fnv1a(feature);
    v[h % dimensions] = (v[h % dimensions] as number) + ((h & 0x80000000) !== 0 ? -weight : weight);
  });
  for (let i = 0; i < v.length; i++) {
    const x = v[i] as number;
    v[i] = Math.sign(x) * Math.log1p(Math.abs(x));
  }
  return v;
}

export class NgramTextEmbedder implements TextEmbedder {
  readonly name: string;

  constructor(readonly dimensions = 512) {
    this.name = `ngram_hash_v1_${dimensions}`;
  }

  /** Unnormalised counts; the zero vector for text without letters or digits. */
  embedSync(text: string): Vector {
    const words = foldText(text).split(/[^\p{L}\p{N}€$£%]+/u).filter(Boolean);
    return hashedFeatures(this.dimensions, (add) => {
      for (const w of words) {
        add(`w:${w}`, 1);
        const padded = `<${w}>`;
        for (let n = 3; n <= 5; n++) for (let i = 0; i + n <= padded.length; i++) add(padded.slice(i, i + n), 0.5);
      }
    });
  }

  async embed(text: string): Promise<Vector> {
    return this.embedSync(text);
  }
}
