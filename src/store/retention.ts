// `rpav gc`: what the data directory keeps and for how long. Old replay runs (their trace,
// screenshots and report), detection failure screenshots, studio uploads, OCR cache entries and engine caches no run has read (cache/lexicon, cache/onnx) go
// once older than the limit; a recording session goes once built (its workflow exists) or once
// older than the limit. Whatever a stored workflow still references is kept: its session's
// session.jsonl, the screenshots its target crops are cut from, its workflow file and icon crops.
// Symbolic links are removed as links, never followed.
import { lstatSync, readdirSync, rmdirSync, unlinkSync } from "node:fs";
import { join, resolve } from "node:path";
import { InvalidInputError } from "../core/errors.js";

export interface GcOptions {
  dataDir: string;
  /** Files whose last change is older than this are removed (ms before `now`). */
  olderThanMs: number;
  dryRun?: boolean;
  now?: number;
  /** Absolute paths (files, or folders kept whole) that must stay. */
  keep: ReadonlySet<string>;
}

export interface GcCategory {
  name: "runs" | "sessions" | "ocr_cache" | "engine_cache" | "failures" | "uploads";
  files: number;
  bytes: number;
  /** Files kept in this category because a stored workflow references them. */
  kept_referenced: number;
}

export interface GcResult {
  dry_run: boolean;
  older_than_ms: number;
  categories: GcCategory[];
  files: number;
  bytes: number;
}

/** "30d", "12h", "90m", "2w" → milliseconds; a typed error naming the accepted forms otherwise. */
export function parseDuration(text: string, where = "--older-than"): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(m|h|d|w)\s*$/i.exec(text);
  if (!m) throw new InvalidInputError(`${where} "${text}": write a number and a unit, e.g. 30d (days), 12h (hours), 90m (minutes), 2w (weeks).`, { details: { value: text } });
  const unit = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 }[m[2]!.toLowerCase() as "m" | "h" | "d" | "w"];
  return Number(m[1]) * unit;
}

interface Entry {
  path: string;
  size: number;
  mtimeMs: number;
  dir: boolean;
}

function list(dir: string): Entry[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const out: Entry[] = [];
  for (const n of names) {
    const path = join(dir, n);
    try {
      const st = lstatSync(path);
      out.push({ path, size: st.isFile() ? st.size : 0, mtimeMs: st.mtimeMs, dir: st.isDirectory() });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** Every file (and link) under a folder, without following links. */
function walk(dir: string): Entry[] {
  const out: Entry[] = [];
  for (const e of list(dir)) {
    if (e.dir) out.push(...walk(e.path));
    else out.push(e);
  }
  return out;
}

function isKept(path: string, keep: ReadonlySet<string>): boolean {
  for (let p = path; ; ) {
    if (keep.has(p)) return true;
    const up = resolve(p, "..");
    if (up === p) return false;
    p = up;
  }
}

/** Removes empty folders under (and including) `dir`, deepest first. */
function pruneEmpty(dir: string, keepRoot: boolean): void {
  for (const e of list(dir)) if (e.dir) pruneEmpty(e.path, false);
  if (keepRoot) return;
  try {
    rmdirSync(dir);
  } catch {
    // not empty
  }
}

export function collectGarbage(opts: GcOptions): GcResult {
  const now = opts.now ?? Date.now();
  const cutoff = now - opts.olderThanMs;
  const keep = new Set([...opts.keep].map((p) => resolve(p)));
  const cats: GcCategory[] = [];
  const remove = (cat: GcCategory, files: Entry[]) => {
    for (const f of files) {
      if (isKept(f.path, keep)) {
        cat.kept_referenced++;
        continue;
      }
      if (!opts.dryRun) {
        try {
          unlinkSync(f.path);
        } catch {
          continue; // gone meanwhile, or not ours to remove
        }
      }
      cat.files++;
      cat.bytes += f.size;
    }
  };
  const category = (name: GcCategory["name"]) => {
    const c: GcCategory = { name, files: 0, bytes: 0, kept_referenced: 0 };
    cats.push(c);
    return c;
  };
  /** Folders of `root` whose newest file is older than the cutoff go whole (a run still written to is never old). */
  const oldFolders = (cat: GcCategory, root: string, extra?: (folder: Entry, files: Entry[]) => boolean) => {
    for (const e of list(root)) {
      const files = e.dir ? walk(e.path) : [e];
      // Files' times decide (a folder's own time changes whenever a file is added or removed in it).
      const newest = files.length > 0 ? Math.max(...files.map((f) => f.mtimeMs)) : e.mtimeMs;
      if (newest < cutoff || extra?.(e, files)) {
        remove(cat, files);
        if (e.dir && !opts.dryRun) pruneEmpty(e.path, false);
      }
    }
  };
  const oldFiles = (cat: GcCategory, root: string) => {
    remove(cat, walk(root).filter((f) => f.mtimeMs < cutoff));
    if (!opts.dryRun) pruneEmpty(root, true);
  };

  oldFolders(category("runs"), join(opts.dataDir, "runs"));
  // A session is done with once built: its workflow file (and icon crops) are kept as referenced by the caller.
  oldFolders(category("sessions"), join(opts.dataDir, "sessions"), (e, files) => e.dir && files.some((f) => f.path === join(e.path, "workflow.json")));
  oldFiles(category("ocr_cache"), join(opts.dataDir, "cache", "ocr"));
  // The folded word lists and optimised graphs are dated by their last use: those of an older word list, model or
  // onnxruntime go once no run has read them for the age given.
  const engines = category("engine_cache");
  for (const sub of ["lexicon", "onnx"]) oldFiles(engines, join(opts.dataDir, "cache", sub));
  oldFiles(category("failures"), join(opts.dataDir, "failures"));
  oldFiles(category("uploads"), join(opts.dataDir, "studio", "uploads"));
  return { dry_run: !!opts.dryRun, older_than_ms: opts.olderThanMs, categories: cats, files: cats.reduce((s, c) => s + c.files, 0), bytes: cats.reduce((s, c) => s + c.bytes, 0) };
}
