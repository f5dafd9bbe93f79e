// Model answers on disk (property 30: a second identical request is a file read). Keyed by model,
// role, prompt, image content hashes and options; entries carry a version, and an entry of another
// version, a corrupt file or one that no longer validates is a miss.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync } from "node:fs";
import { writeFileAtomicSync } from "../core/atomic-write.js";
import { join } from "node:path";

export const VLM_CACHE_VERSION = 1;

export interface CacheKeyParts {
  readonly model: string;
  readonly role: string;
  /** Every message's role and text, in order. */
  readonly prompt: string;
  /** sha256 of each image's pixels as the model sees them. */
  readonly images: readonly string[];
  readonly options: unknown;
}

export function cacheKey(p: CacheKeyParts): string {
  return createHash("sha256")
    .update(JSON.stringify({ v: VLM_CACHE_VERSION, model: p.model, role: p.role, prompt: p.prompt, images: p.images, options: p.options }))
    .digest("hex");
}

interface Entry {
  version: number;
  key: string;
  model: string;
  role: string;
  created_at: string;
  raw: string;
}

export class AnswerCache {
  constructor(private readonly dir: string) {}

  private path(key: string): string {
    return join(this.dir, key.slice(0, 2), `${key}.json`);
  }

  get(key: string): string | undefined {
    try {
      const e = JSON.parse(readFileSync(this.path(key), "utf8")) as Partial<Entry>;
      return e.version === VLM_CACHE_VERSION && e.key === key && typeof e.raw === "string" ? e.raw : undefined;
    } catch {
      return undefined;
    }
  }

  /** Atomic write (temporary file + rename); a cache that cannot be written is not an error. */
  put(key: string, parts: Pick<CacheKeyParts, "model" | "role">, raw: string): void {
    const file = this.path(key);
    const entry: Entry = { version: VLM_CACHE_VERSION, key, model: parts.model, role: parts.role, created_at: new Date().toISOString(), raw };
    try {
      mkdirSync(join(file, ".."), { recursive: true });
      writeFileAtomicSync(file, JSON.stringify(entry));
    } catch {
      /* read-only or full disk: answers are just not cached */
    }
  }
}
