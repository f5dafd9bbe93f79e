// Content-addressed cache of OCR results (property 30): the key is the SHA-256 of the frame's
// pixels and the provider name, so the same screen read twice costs one hash. Kept in memory
// (bounded, least recently used first out) and, when a folder is given, as JSON files there.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, existsSync } from "node:fs";
import { writeFileAtomicSync } from "../core/atomic-write.js";
import { join } from "node:path";
import type { Frame } from "../core/frame.js";
import type { BBox } from "../core/geometry.js";
import type { OcrLine, OcrProvider, OcrResult } from "../core/providers/ocr.js";

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
  /** The inner provider's text boxes, when it finds them apart (not cached: the detector alone is quick). */
  readonly detectBoxes?: (frame: Frame, signal?: AbortSignal) => Promise<BBox[]>;
  private readonly memory = new Map<string, OcrResult>();

  constructor(
    private readonly inner: OcrProvider,
    private readonly options: { dir?: string; maxEntries?: number } = {},
  ) {
    this.name = inner.name;
    if (inner.detectBoxes) this.detectBoxes = (frame, signal) => inner.detectBoxes!(frame, signal);
    if (options.dir) mkdirSync(options.dir, { recursive: true });
  }

  async recognize(frame: Frame, signal?: AbortSignal): Promise<OcrResult> {
    const key = createHash("sha256").update(this.inner.name).update("\0").update(frameHash(frame)).digest("hex");
    const hit = this.lookup(key);
    if (hit) return { ...hit, timings: { ...hit.timings, cache_hit: 1 } };
    return this.store(key, await this.inner.recognize(frame, signal));
  }

  /** Cached like `recognize`, keyed by the frame and the boxes; no lines when the inner provider cannot read boxes. */
  async readBoxes(frame: Frame, boxes: readonly BBox[], signal?: AbortSignal): Promise<OcrLine[]> {
    if (!this.inner.readBoxes) return [];
    const key = createHash("sha256").update(this.inner.name).update("\0boxes\0").update(frameHash(frame)).update(JSON.stringify(boxes)).digest("hex");
    const hit = this.lookup(key);
    if (hit) return [...hit.lines];
    const lines = await this.inner.readBoxes(frame, boxes, signal);
    return [...this.store(key, { provider: this.inner.name, lines, timings: {} }).lines];
  }

  private lookup(key: string): OcrResult | undefined {
    const hit = this.memory.get(key) ?? this.fromDisk(key);
    if (!hit) {
      this.stats.misses++;
      return undefined;
    }
    this.stats.hits++;
    this.remember(key, hit);
    return hit;
  }

  private store(key: string, result: OcrResult): OcrResult {
    this.remember(key, result);
    if (this.options.dir) {
      const file = join(this.options.dir, `${key}.json`);
      writeFileAtomicSync(file, JSON.stringify(result));
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
