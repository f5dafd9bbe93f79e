// Files of a run folder served to the browser: a path from a trace or a URL is confined to its run
// folder — no "../", no absolute path, no symbolic link leading out, regular files only.
import { realpathSync, statSync } from "node:fs";
import { isAbsolute, relative, resolve, sep } from "node:path";

/** The real path of `rel` inside `root`, or undefined when it escapes, is missing or is not a file. */
export function confinedFile(root: string, rel: string): string | undefined {
  if (!rel || isAbsolute(rel) || rel.includes("\0") || rel.split(/[\\/]/).includes("..")) return undefined;
  let realRoot: string;
  let real: string;
  try {
    realRoot = realpathSync(root);
    real = realpathSync(resolve(realRoot, rel));
  } catch {
    return undefined;
  }
  const inside = relative(realRoot, real);
  if (!inside || inside.startsWith(`..${sep}`) || inside === ".." || isAbsolute(inside)) return undefined;
  try {
    if (!statSync(real).isFile()) return undefined;
  } catch {
    return undefined;
  }
  return real;
}
