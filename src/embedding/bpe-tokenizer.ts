// Tokenizer for CLIP-family text encoders, read from a Hugging Face `tokenizer.json` in the model
// folder: BPE (byte-level alphabet, end-of-word suffix, ranked merges) or WordLevel models, with
// the start/end special tokens CLIP uses. Offline; no network.
import { readFileSync } from "node:fs";
import { ProviderUnavailableError } from "../core/errors.js";

interface TokenizerJson {
  added_tokens?: Array<{ id: number; content: string }>;
  model: {
    type: "BPE" | "WordLevel" | string;
    vocab: Record<string, number>;
    merges?: Array<string | [string, string]>;
    end_of_word_suffix?: string | null;
    unk_token?: string | null;
  };
}

/** GPT-2/CLIP byte → printable unicode character map. */
function bytesToUnicode(): string[] {
  const bs: number[] = [];
  for (let i = 33; i <= 126; i++) bs.push(i);
  for (let i = 161; i <= 172; i++) bs.push(i);
  for (let i = 174; i <= 255; i++) bs.push(i);
  const cs = [...bs];
  let n = 0;
  for (let b = 0; b < 256; b++)
    if (!bs.includes(b)) {
      bs.push(b);
      cs.push(256 + n++);
    }
  const map: string[] = new Array(256);
  bs.forEach((b, i) => (map[b] = String.fromCodePoint(cs[i] as number)));
  return map;
}

const PRETOKENIZE = /<\|startoftext\|>|<\|endoftext\|>|'s|'t|'re|'ve|'m|'ll|'d|\p{L}+|\p{N}|[^\s\p{L}\p{N}]+/gu;

export class BpeTokenizer {
  private readonly vocab: Map<string, number>;
  private readonly ranks = new Map<string, number>();
  private readonly byteMap = bytesToUnicode();
  private readonly suffix: string;
  private readonly unk: number | undefined;
  readonly bos: number | undefined;
  readonly eos: number | undefined;

  constructor(private readonly json: TokenizerJson) {
    if (json.model.type !== "BPE" && json.model.type !== "WordLevel") throw new ProviderUnavailableError(`Tokenizer model type "${json.model.type}" is not supported (BPE, WordLevel).`);
    this.vocab = new Map(Object.entries(json.model.vocab));
    for (const t of json.added_tokens ?? []) this.vocab.set(t.content, t.id);
    (json.model.merges ?? []).forEach((m, i) => this.ranks.set(Array.isArray(m) ? m.join(" ") : m, i));
    this.suffix = json.model.end_of_word_suffix ?? "";
    this.unk = json.model.unk_token ? this.vocab.get(json.model.unk_token) : undefined;
    this.bos = this.vocab.get("<|startoftext|>");
    this.eos = this.vocab.get("<|endoftext|>");
  }

  static load(file: string): BpeTokenizer {
    try {
      return new BpeTokenizer(JSON.parse(readFileSync(file, "utf8")) as TokenizerJson);
    } catch (e) {
      if (e instanceof ProviderUnavailableError) throw e;
      throw new ProviderUnavailableError(`Cannot read the tokenizer ${file}: ${(e as Error).message}.`, { cause: e, details: { path: file } });
    }
  }

  private bpe(word: string): string[] {
    let symbols = [...word];
    if (symbols.length === 0) return [];
    symbols[symbols.length - 1] += this.suffix;
    for (;;) {
      let best = -1;
      let bestRank = Infinity;
      for (let i = 0; i + 1 < symbols.length; i++) {
        const r = this.ranks.get(`${symbols[i]} ${symbols[i + 1]}`);
        if (r !== undefined && r < bestRank) {
          bestRank = r;
          best = i;
        }
      }
      if (best < 0) return symbols;
      symbols = [...symbols.slice(0, best), `${symbols[best]}${symbols[best + 1]}`, ...symbols.slice(best + 2)];
    }
  }

  /** Token ids, with the start and end tokens when the vocabulary has them. */
  encode(text: string, maxLength = 77): number[] {
    const ids: number[] = [];
    if (this.bos !== undefined) ids.push(this.bos);
    const clean = text.normalize("NFC").toLowerCase().replace(/\s+/g, " ").trim();
    for (const m of clean.matchAll(PRETOKENIZE)) {
      const word = m[0];
      const pieces = this.json.model.type === "WordLevel" ? [word] : this.bpe([...Buffer.from(word, "utf8")].map((b) => this.byteMap[b]).join(""));
      for (const p of pieces) {
        const id = this.vocab.get(p) ?? this.unk;
        if (id !== undefined) ids.push(id);
      }
    }
    const limit = this.eos !== undefined ? maxLength - 1 : maxLength;
    const out = ids.slice(0, limit);
    if (this.eos !== undefined) out.push(this.eos);
    return out;
  }
}
