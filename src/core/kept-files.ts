// Files kept between runs (the engines' caches): dated by their last use, so that `rpav gc` removes
// only what no run has read for a while (src/store/retention.ts).
import { utimesSync } from "node:fs";

/** Sets the file's date to now; a read-only disk or a file gone is not an error. */
export function markUsed(file: string): void {
  try {
    const now = new Date();
    utimesSync(file, now, now);
  } catch {
    // the file is still read
  }
}
