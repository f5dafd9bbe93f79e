// Content-addressed cache of OCR results (property 30): the key is the SHA-256 of the frame's
// pixels and the provider name, so the same screen read twice costs one hash. Kept in memory
// (bounded, least recently used first out) and, when a folder is given, as JSON files there.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import type { Frame } from "../core/frame.js";
import type { OcrProvider, OcrResult } from "../core/providers/ocr.js";

export function frameHash(frame: Frame): string {
  return createHash("sha256").update(`${frame.width}x${frame.height}x${frame.channels}\n`).update(frame.data).digest("hex");
}

export interface OcrCacheStats {
  hits: number;
  misses: number;
}

export class CachedOcr implements OcrProvider {
  readonly name: string;
  readonly stats: OcrCacheStats = { hits: 0, misses: 0 };
  private readonly memory = new Map<string, OcrResult>();

  constructor(
    private readonly inner: OcrProvider,
    private readonly options: { dir?: string; maxEntries?: number } = {},
  ) {
    this.name = inner.name;
    if (options.dir) mkdirSync(options.dir, { recursive: true });
  }

  async recognize(frame: Frame, signal?: AbortSignal): Promise<OcrResult> {
    const key = createHash("sha256").update(this.inner.name).update("\0").update(frameHash(frame)).digest("hex");
    const hit = this.memory.get(key) ?? this.fromDisk(key);
    if (hit) {
      this.stats.hits++;
      this.remember(key, hit);
      return { ...hit, timings: { ...hit.timings, cache_hit: 1 } };
    }
    this.stats.misses++;
    const result = await this.inner.recognize(frame, signal);
    this.remember(key, result);
    if (this.options.dir) {
      const file = join(this.options.dir, `${key}.json`);
      writeFileSync(`${file}.part${process.pid}`, JSON.stringify(result));
      renameSync(`${file}.part${process.pid}`, file);
    }
    return result;
  }

  private remember(key: string, r: OcrResult): void {
    this.memory.delete(key);
    this.memory.set(key, r);
    const max = this.options.maxEntries ?? 64;
    while (this.memory.size > max) this.memory.delete(this.memory.keys().next().value!);
  }

  private fromDisk(key: string): OcrResult | undefined {
    if (!this.options.dir) return undefined;
    const file = join(this.options.dir, `${key}.json`);
    if (!existsSync(file)) return undefined;
    try {
      return JSON.parse(readFileSync(file, "utf8")) as OcrResult;
    } catch {
      return undefined; // a damaged entry is a miss; it is rewritten
    }
  }
}
