// Creating the folders a command writes into, with typed errors. Node's own
// `mkdirSync(p, { recursive: true })` never returns for some paths (under /proc it loops on
// ENOENT forever), and its errors name a system call, not the option the user gave. This walks up
// to the nearest existing folder, checks it is one, and creates each missing level itself.
import { mkdirSync, statSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { InvalidInputError } from "./errors.js";

function reason(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === "EACCES" || code === "EPERM") return "permission denied";
  if (code === "ENOTDIR") return "a part of the path is a file, not a folder";
  if (code === "EROFS") return "read-only file system";
  if (code === "ENOSPC") return "the disk is full";
  if (code === "ENOENT") return "this place cannot hold new folders";
  if (code === "ENAMETOOLONG") return "the name is too long";
  return code ?? String(e);
}

/**
 * Creates `dir` and its missing parents (mode from the umask), or throws InvalidInputError naming
 * `what` (e.g. "--out") and why. An existing folder is fine; an existing file is an error.
 */
export function makeDirs(dir: string, what: string): void {
  const abs = resolve(dir);
  const missing: string[] = [];
  let p = abs;
  for (;;) {
    let st;
    try {
      st = statSync(p);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== "ENOENT") throw new InvalidInputError(`${what} ${dir}: cannot create this folder (${reason(e)}).`, { cause: e, details: { path: abs } });
      missing.push(p);
      const up = dirname(p);
      if (up === p) break;
      p = up;
      continue;
    }
    if (!st.isDirectory()) throw new InvalidInputError(`${what} ${dir}: ${p === abs ? "is a file, not a folder" : `${p} is a file, not a folder`}; give a folder path.`, { details: { path: abs, file: p } });
    break;
  }
  for (const m of missing.reverse()) {
    try {
      mkdirSync(m);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "EEXIST" && statSync(m).isDirectory()) continue;
      throw new InvalidInputError(`${what} ${dir}: cannot create ${m} (${reason(e)}).`, { cause: e, details: { path: abs } });
    }
  }
}

/** Writes an output file whose folder is created first; typed errors name `what`. */
export function writeOutputFile(file: string, data: string | Uint8Array, what: string): void {
  makeDirs(dirname(resolve(file)), what);
  try {
    writeFileSync(file, data);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new InvalidInputError(`${what} ${file}: cannot write it (${code === "EISDIR" ? "a folder is there" : reason(e)}).`, { cause: e, details: { path: resolve(file) } });
  }
}

/** Checks before a long job that `file` could be written: its folder can be created and it is not a folder. */
export function checkOutputFile(file: string, what: string): void {
  makeDirs(dirname(resolve(file)), what);
  let st;
  try {
    st = statSync(file);
  } catch {
    return;
  }
  if (st.isDirectory()) throw new InvalidInputError(`${what} ${file}: is a folder; give a file name.`, { details: { path: resolve(file) } });
}
