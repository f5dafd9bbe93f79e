// Reading versioned JSON documents: detect the kind by `schema_version`, validate, and report
// every problem with its JSON path. Later document kinds (workflow_v1, trace_v1…) register here.
import type { z } from "zod";
import { findJsonErrorOffset, lineColumn } from "../json-position.js";
import { parseUntrustedJson } from "../json-safe.js";
import { InvalidInputError, SchemaValidationError, SchemaVersionError, type ValidationIssue } from "../errors.js";
import { ScreenStateSchema, SCREENSTATE_V1, type ScreenState } from "./screenstate.js";
import { UIElementSchema, UIELEMENT_V1, type UIElement } from "./uielement.js";
import { TraceRunSchema, TRACE_V1, type TraceRun } from "./trace.js";
import { WorkflowSchema, WORKFLOW_V1, type Workflow } from "./workflow.js";

export interface DocumentKinds {
  uielement_v1: UIElement;
  screenstate_v1: ScreenState;
  workflow_v1: Workflow;
  /** The header line of a run trace (<run>/trace.jsonl). */
  trace_v1: TraceRun;
}
export type DocumentVersion = keyof DocumentKinds;
export type AnyDocument = { [K in DocumentVersion]: { version: K; value: DocumentKinds[K] } }[DocumentVersion];

const SCHEMAS: { [K in DocumentVersion]: z.ZodType<DocumentKinds[K]> } = {
  [UIELEMENT_V1]: UIElementSchema,
  [SCREENSTATE_V1]: ScreenStateSchema,
  [WORKFLOW_V1]: WorkflowSchema,
  [TRACE_V1]: TraceRunSchema,
};

/** Every `schema_version` this build reads. */
export const KNOWN_SCHEMA_VERSIONS: readonly DocumentVersion[] = Object.keys(SCHEMAS) as DocumentVersion[];

/** Documents larger than this are refused before reading (raise it with `maxBytes`). */
export const DEFAULT_MAX_DOCUMENT_BYTES = 16 * 1024 * 1024;

/** `$.a.b[0].c` from a zod path. */
export function formatJsonPath(path: ReadonlyArray<PropertyKey>): string {
  let out = "$";
  for (const p of path) {
    if (typeof p === "number") out += `[${p}]`;
    else if (typeof p === "string" && /^[A-Za-z_][A-Za-z0-9_]*$/.test(p)) out += `.${p}`;
    else out += `[${JSON.stringify(String(p))}]`;
  }
  return out;
}

function toIssues(error: z.ZodError): ValidationIssue[] {
  return error.issues.map((i) => ({ path: formatJsonPath(i.path), message: i.message }));
}

/** JSON.parse with a message that gives line and column, for people fixing files by hand. */
export function parseJsonText(text: string, source = "<input>"): unknown {
  // A byte-order mark is accepted by every reader alike (validate, embed, match, build, replay, store import).
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.trim().length === 0) throw new InvalidInputError(`${source}: the file is empty; expected a JSON document.`, { details: { source } });
  try {
    return parseUntrustedJson(text, source);
  } catch (e) {
    if (e instanceof InvalidInputError) throw e;
    const msg = e instanceof Error ? e.message : String(e);
    const offset = findJsonErrorOffset(text);
    let where = "";
    if (offset !== undefined) {
      const { line, column } = lineColumn(text, offset);
      where = offset >= text.length ? " (the text ends too early)" : ` at line ${line}, column ${column} (offset ${offset})`;
    }
    throw new InvalidInputError(`${source}: malformed JSON${where}: ${msg}`, { cause: e, details: { source } });
  }
}

/** Splits "uielement_v2" into its kind and version number. */
function splitVersion(v: string): { kind: string; n: number } | undefined {
  const m = /^([a-z_]+)_v(\d+)$/.exec(v);
  return m ? { kind: m[1] as string, n: Number(m[2]) } : undefined;
}

/**
 * Validates an already-parsed value as the document its `schema_version` names.
 * Unknown or newer versions throw SchemaVersionError; schema problems throw
 * SchemaValidationError listing every issue with its JSON path.
 */
export function readDocument(value: unknown, source = "<input>"): AnyDocument {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new InvalidInputError(`${source}: expected a JSON object with a "schema_version" field, got ${Array.isArray(value) ? "an array" : value === null ? "null" : typeof value}.`, { details: { source } });
  const version = (value as Record<string, unknown>).schema_version;
  if (typeof version !== "string")
    throw new InvalidInputError(`${source}: no "schema_version" string field; expected one of ${KNOWN_SCHEMA_VERSIONS.join(", ")}.`, { details: { source } });
  if (!(version in SCHEMAS)) {
    const parsed = splitVersion(version);
    const sameKind = KNOWN_SCHEMA_VERSIONS.filter((k) => splitVersion(k)?.kind === parsed?.kind);
    const newer = parsed && sameKind.length > 0 && sameKind.every((k) => (splitVersion(k)?.n ?? 0) < parsed.n);
    const hint = newer ? " It was written by a newer RPA Vision: upgrade rpav to read it." : "";
    throw new SchemaVersionError(`${source}: schema_version "${version}" is not one this build reads (${KNOWN_SCHEMA_VERSIONS.join(", ")}).${hint}`, {
      details: { source, version, known: KNOWN_SCHEMA_VERSIONS },
    });
  }
  const v = version as DocumentVersion;
  const result = SCHEMAS[v].safeParse(value);
  if (!result.success) {
    const issues = toIssues(result.error);
    throw new SchemaValidationError(`${source}: not a valid ${v} document (${issues.length} problem${issues.length === 1 ? "" : "s"}): ${issues.map((i) => `${i.path}: ${i.message}`).join("; ")}`, issues, { details: { source, version: v } });
  }
  return { version: v, value: result.data } as AnyDocument;
}

/** Parses and validates JSON text as a document of exactly the given version. */
export function readDocumentAs<K extends DocumentVersion>(expected: K, text: string, source = "<input>"): DocumentKinds[K] {
  const doc = readDocument(parseJsonText(text, source), source);
  if (doc.version !== expected) throw new InvalidInputError(`${source}: expected a ${expected} document, found ${doc.version}.`, { details: { source, expected, found: doc.version } });
  return doc.value as DocumentKinds[K];
}

/** Stable, diff-friendly JSON (2-space indent, trailing newline). */
export function writeDocument(value: DocumentKinds[DocumentVersion]): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
