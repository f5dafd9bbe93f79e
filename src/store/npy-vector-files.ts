// Vectors as .npy files under a root folder, addressed by their `vector_id` (a relative path such
// as "data/embeddings/elements/el_x.npy"), the layout the Python system reads and writes.
import { mkdir, readFile } from "node:fs/promises";
import { writeFileAtomic } from "../core/atomic-write.js";
import { dirname, isAbsolute, join, normalize, sep } from "node:path";
import { InvalidInputError, StoreError } from "../core/errors.js";
import { decodeNpy, encodeNpy } from "../core/npy.js";
import { assertFinite, type Vector } from "../core/vectors.js";

export class NpyVectorFiles {
  constructor(readonly root: string) {}

  /** Absolute path of a vector id; ids that would escape the root are refused. */
  pathOf(vectorId: string): string {
    const rel = normalize(vectorId);
    if (vectorId.length === 0 || isAbsolute(vectorId) || rel === ".." || rel.startsWith(`..${sep}`) || !rel.endsWith(".npy"))
      throw new InvalidInputError(`vector_id "${vectorId}" must be a relative path ending in .npy inside the data folder.`, { details: { vectorId } });
    return join(this.root, rel);
  }

  /** Writes atomically (temporary file, then rename): a crash leaves the old file or the new one, never half. */
  async save(vectorId: string, vector: Vector): Promise<void> {
    assertFinite(vector, `vector ${vectorId}`);
    const path = this.pathOf(vectorId);
    try {
      await mkdir(dirname(path), { recursive: true });
      await writeFileAtomic(path, encodeNpy(vector));
    } catch (e) {
      throw new StoreError(`Cannot write vector ${vectorId} to ${path}: ${(e as NodeJS.ErrnoException).code ?? String(e)}. Check that the folder is writable and the disk not full.`, {
        cause: e,
        details: { path },
      });
    }
  }

  /** Reads a vector file as float32 (float64 files are converted). One-dimensional arrays only. */
  async load(vectorId: string): Promise<Vector> {
    const path = this.pathOf(vectorId);
    let bytes: Buffer;
    try {
      bytes = await readFile(path);
    } catch (e) {
      throw new StoreError(`Cannot read vector ${vectorId} (${path}): ${(e as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : String(e)}.`, { cause: e, details: { path } });
    }
    const arr = decodeNpy(bytes, path);
    if (arr.shape.length !== 1) throw new InvalidInputError(`${path}: a vector file must hold a 1-D array, found shape (${arr.shape.join(", ")}).`, { details: { path } });
    return arr.data instanceof Float32Array ? arr.data : Float32Array.from(arr.data);
  }
}
