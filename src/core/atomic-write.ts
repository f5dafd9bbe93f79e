// Writing a file so that a crash, a full disk or a reader at the same moment sees the old content or
// the new one, never half of it: the bytes go to a temporary file beside it (same folder, so the same
// file system), which is then renamed over it. A failed write leaves no temporary file behind.
// Errors are Node's own: each caller says what they mean for its data (a cache shrugs, a store throws
// its typed error).
import { chmodSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { chmod, rename, rm, writeFile } from "node:fs/promises";

export interface AtomicWriteOptions {
  /** The file's mode, also when a file of another mode was there (0o600 for secrets). */
  mode?: number;
}

let written = 0;
/** Unique per process and per call: two writes of one path at once do not share a temporary file. */
const temporaryOf = (path: string) => `${path}.${process.pid}.${++written}.tmp`;

export function writeFileAtomicSync(path: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): void {
  const tmp = temporaryOf(path);
  try {
    writeFileSync(tmp, data, options.mode !== undefined ? { mode: options.mode } : {});
    if (options.mode !== undefined) chmodSync(tmp, options.mode);
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

export async function writeFileAtomic(path: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): Promise<void> {
  const tmp = temporaryOf(path);
  try {
    await writeFile(tmp, data, options.mode !== undefined ? { mode: options.mode } : {});
    if (options.mode !== undefined) await chmod(tmp, options.mode);
    await rename(tmp, path);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
}
