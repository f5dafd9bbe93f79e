import { extname } from "node:path";
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
