import { statSync } from "node:fs";
import { basename, dirname, extname } from "node:path";
import { readSession } from "../../record/session.js";
import { readTrace } from "../../replay/trace.js";
import { isRpaError, SchemaValidationError, type ValidationIssue } from "../../core/errors.js";
import { decodeNpy } from "../../core/npy.js";
import { parseJsonText, readDocument } from "../../core/schemas/documents.js";
import { readInputFile } from "../io.js";
import { decodeUtf8Text } from "../../core/bounded-read.js";

export interface ValidateResult {
  file: string;
  ok: boolean;
  /** schema_version for JSON documents, "npy" for vector files. */
  kind?: string;
  summary?: string;
  code?: string;
  message?: string;
  issues?: ValidationIssue[];
}

/** Validates one file: a versioned JSON document (kind from `schema_version`) or a `.npy` vector file. */
export async function validateFile(file: string, maxBytes: number): Promise<ValidateResult> {
  try {
    // A session (folder or its session.jsonl) or a run (folder or its trace.jsonl): read by the
    // readers `rpav build` and `rpav report` use, a line cut by a crash reported, not fatal.
    const jsonl = folderKind(file);
    if (jsonl === "session") {
      const s = readSession(basename(file) === "session.jsonl" ? dirname(file) : file);
      return { file, ok: true, kind: "rawsession_v1", summary: `${s.actions.length} action(s)${s.ended ? "" : ", no end mark"}${s.truncatedTail !== undefined ? ", last line cut" : ""}` };
    }
    if (jsonl === "trace") {
      const t = readTrace(basename(file) === "trace.jsonl" ? dirname(file) : file);
      return { file, ok: true, kind: "trace_v1", summary: `run ${t.run.run_id}, ${t.events.length} event(s)${t.events.some((e) => e.type === "run_end") ? "" : ", not ended"}${t.truncatedTail !== undefined ? ", last line cut" : ""}` };
    }
    const bytes = await readInputFile(file, maxBytes);
    if (extname(file).toLowerCase() === ".npy") {
      const arr = decodeNpy(bytes, file);
      return { file, ok: true, kind: "npy", summary: `${arr.dtype}, shape (${arr.shape.join(", ")})` };
    }
    const text = decodeUtf8Text(bytes, file);
    const doc = readDocument(parseJsonText(text, file), file);
    const summary =
      doc.version === "screenstate_v1"
        ? `mode ${doc.value.mode}, ${doc.value.ui_elements.length} element(s)`
        : doc.version === "uielement_v1"
          ? `${doc.value.type} "${doc.value.label}"`
          : doc.version === "workflow_v1"
            ? `"${doc.value.name}", ${doc.value.steps.length} step(s)`
            : `run ${doc.value.run_id}`;
    return { file, ok: true, kind: doc.version, summary };
  } catch (e) {
    if (!isRpaError(e)) throw e;
    return {
      file,
      ok: false,
      code: e.code,
      message: e.message,
      ...(e instanceof SchemaValidationError ? { issues: [...e.issues], kind: String(e.details.version) } : {}),
    };
  }
}

export function formatValidateResult(r: ValidateResult): string {
  if (r.ok) return `ok       ${r.file} (${r.kind}: ${r.summary})`;
  if (r.issues) return [`invalid  ${r.file} (${r.kind}, ${r.issues.length} problem${r.issues.length === 1 ? "" : "s"}):`, ...r.issues.map((i) => `  ${i.path}: ${i.message}`)].join("\n");
  return `invalid  ${r.file}\n  [${r.code}] ${r.message}`;
}

/** "session" / "trace" for a session or run folder (or their .jsonl file); undefined otherwise. */
function folderKind(file: string): "session" | "trace" | undefined {
  const name = basename(file);
  if (name === "session.jsonl") return "session";
  if (name === "trace.jsonl") return "trace";
  let dir = false;
  try {
    dir = statSync(file).isDirectory();
  } catch {
    return undefined;
  }
  if (!dir) return undefined;
  if (exists(`${file}/session.jsonl`)) return "session";
  if (exists(`${file}/trace.jsonl`)) return "trace";
  return undefined;
}

function exists(p: string): boolean {
  try {
    statSync(p);
    return true;
  } catch {
    return false;
  }
}
