// Screenshots and crops stored as files named by their content hash (sha256), deduplicated.
import { existsSync } from "node:fs";
import { mkdir, readFile } from "node:fs/promises";
import { writeFileAtomic } from "../core/atomic-write.js";
import { join } from "node:path";
import { InvalidInputError, StoreError } from "../core/errors.js";
import { contentHash } from "../core/ids.js";

export class ContentFiles {
  constructor(readonly root: string) {}

  pathOf(hash: string, ext = "png"): string {
    if (!/^[0-9a-f]{64}$/.test(hash)) throw new InvalidInputError(`"${hash}" is not a sha256 content hash.`);
    return join(this.root, hash.slice(0, 2), `${hash}.${ext}`);
  }

  /** Stores bytes once; returns their hash and path. */
  async put(bytes: Uint8Array, ext = "png"): Promise<{ hash: string; path: string }> {
    const hash = contentHash(bytes);
    const path = this.pathOf(hash, ext);
    if (existsSync(path)) return { hash, path };
    try {
      await mkdir(join(this.root, hash.slice(0, 2)), { recursive: true });
      await writeFileAtomic(path, bytes);
    } catch (e) {
      throw new StoreError(`Cannot write ${path}: ${(e as NodeJS.ErrnoException).code ?? String(e)}. Check that the folder is writable and the disk not full.`, { cause: e, details: { path } });
    }
    return { hash, path };
  }

  async get(hash: string, ext = "png"): Promise<Buffer | undefined> {
    const path = this.pathOf(hash, ext);
    return existsSync(path) ? readFile(path) : undefined;
  }
}
