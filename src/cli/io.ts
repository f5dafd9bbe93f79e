import { readFile, stat } from "node:fs/promises";
import { InvalidInputError } from "../core/errors.js";

/** Reads a whole file, refusing missing paths, directories and files over `maxBytes` with typed errors. */
export async function readInputFile(path: string, maxBytes: number): Promise<Buffer> {
  let size: number;
  try {
    const st = await stat(path);
    if (st.isDirectory()) throw new InvalidInputError(`${path}: is a directory; give a file.`, { details: { source: path } });
    size = st.size;
  } catch (e) {
    if (e instanceof InvalidInputError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    throw new InvalidInputError(`${path}: ${code === "ENOENT" ? "no such file" : code === "EACCES" ? "permission denied" : `cannot read (${code ?? String(e)})`}.`, {
      cause: e,
      details: { source: path },
    });
  }
  if (size > maxBytes)
    throw new InvalidInputError(`${path}: ${formatBytes(size)} is over the ${formatBytes(maxBytes)} limit for one document. If the file is really meant to be this big, pass --max-size ${Math.ceil(size / 1048576)}M.`, {
      details: { source: path, size, maxBytes },
    });
  return readFile(path);
}

export function formatBytes(n: number): string {
  if (n >= 1048576) return `${(n / 1048576).toFixed(1)} MiB`;
  if (n >= 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${n} B`;
}

/** "16M", "512K", "2000" → bytes. */
export function parseSize(text: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*([kKmMgG]?)i?[bB]?$/.exec(text.trim());
  if (!m) throw new InvalidInputError(`"${text}" is not a size; write e.g. 16M, 512K or 2000.`);
  const mult = { "": 1, k: 1024, m: 1048576, g: 1073741824 }[(m[2] ?? "").toLowerCase()] ?? 1;
  return Math.round(Number(m[1]) * mult);
}
