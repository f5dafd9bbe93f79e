import { formatBytes, readBoundedFile } from "../core/bounded-read.js";
import { InvalidInputError } from "../core/errors.js";

/** Reads a whole regular file of at most `maxBytes` (see src/core/bounded-read.ts). */
export const readInputFile = readBoundedFile;
export { formatBytes };

/** "16M", "512K", "2000" → bytes. */
export function parseSize(text: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*([kKmMgG]?)i?[bB]?$/.exec(text.trim());
  if (!m) throw new InvalidInputError(`"${text}" is not a size; write e.g. 16M, 512K or 2000.`);
  const mult = { "": 1, k: 1024, m: 1048576, g: 1073741824 }[(m[2] ?? "").toLowerCase()] ?? 1;
  return Math.round(Number(m[1]) * mult);
}
