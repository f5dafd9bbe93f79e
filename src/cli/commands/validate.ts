import { extname } from "node:path";
import { InvalidInputError, isRpaError, SchemaValidationError, type ValidationIssue } from "../../core/errors.js";
import { decodeNpy } from "../../core/npy.js";
import { parseJsonText, readDocument } from "../../core/schemas/documents.js";
import { readInputFile } from "../io.js";

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
    const bytes = await readInputFile(file, maxBytes);
    if (extname(file).toLowerCase() === ".npy") {
      const arr = decodeNpy(bytes, file);
      return { file, ok: true, kind: "npy", summary: `${arr.dtype}, shape (${arr.shape.join(", ")})` };
    }
    const text = decodeUtf8(bytes, file);
    const doc = readDocument(parseJsonText(text, file), file);
    const summary =
      doc.version === "screenstate_v1"
        ? `mode ${doc.value.mode}, ${doc.value.ui_elements.length} element(s)`
        : `${doc.value.type} "${doc.value.label}"`;
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

function decodeUtf8(bytes: Uint8Array, file: string): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes).replace(/^\uFEFF/, "");
  } catch (e) {
    throw new InvalidInputError(`${file}: not UTF-8 text; JSON documents must be UTF-8.`, { cause: e, details: { source: file } });
  }
}

export function formatValidateResult(r: ValidateResult): string {
  if (r.ok) return `ok       ${r.file} (${r.kind}: ${r.summary})`;
  if (r.issues) return [`invalid  ${r.file} (${r.kind}, ${r.issues.length} problem${r.issues.length === 1 ? "" : "s"}):`, ...r.issues.map((i) => `  ${i.path}: ${i.message}`)].join("\n");
  return `invalid  ${r.file}\n  [${r.code}] ${r.message}`;
}
