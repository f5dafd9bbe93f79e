// Moving data to and from the Python system's folder layout:
//   data/embeddings/**.npy   vectors, addressed by their path (the JSON `vector_id`)
//   *.json                   screenstate_v1 / uielement_v1 documents, anywhere in the folder
// Import reads every document and every .npy (provider taken from the documents that reference
// the vector); export writes vectors at their vector_id and documents under data/states/ and
// data/elements/.
import { mkdir, readdir, writeFile } from "node:fs/promises";
import { readBoundedFile, readBoundedText } from "../core/bounded-read.js";
import { join, relative, sep } from "node:path";
import { InvalidInputError, isRpaError } from "../core/errors.js";
import { decodeNpy } from "../core/npy.js";
import type { Store } from "../core/providers/store.js";
import { DEFAULT_MAX_DOCUMENT_BYTES, parseJsonText, readDocument, writeDocument } from "../core/schemas/documents.js";
import type { ScreenState } from "../core/schemas/screenstate.js";
import type { UIElement } from "../core/schemas/uielement.js";
import { wholeStateOfView } from "../core/vector-ids.js";
import { NpyVectorFiles } from "./npy-vector-files.js";

/** Largest .npy vector file read (a 512-d float64 vector is 4 KiB). */
export const MAX_VECTOR_FILE_BYTES = 64 * 1048576;

export interface TransferReport {
  screenStates: number;
  elements: number;
  vectors: number;
  /** Files that could not be used, with the reason; the rest of the import went on. */
  skipped: Array<{ file: string; reason: string }>;
}

async function* walk(dir: string): AsyncGenerator<string> {
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) yield* walk(p);
    else if (e.isFile()) yield p;
  }
}

function refsOf(doc: ScreenState | UIElement, out: Map<string, string>): void {
  const add = (ref: { provider: string; vector_id: string } | null | undefined) => {
    if (ref) out.set(ref.vector_id, ref.provider);
  };
  if (doc.schema_version === "screenstate_v1") {
    const s = doc as ScreenState;
    add(s.state_embedding);
    for (const c of Object.values(s.state_embedding.components ?? {})) add(c as { provider: string; vector_id: string });
    for (const el of s.ui_elements) {
      add(el.visual?.embedding);
      add(el.text?.embedding);
    }
  } else {
    const el = doc as UIElement;
    add(el.visual.embedding);
    add(el.text.embedding);
  }
}

export async function importFolder(store: Store, dir: string, opts: { defaultProvider?: string; onProgress?: (msg: string) => void } = {}): Promise<TransferReport> {
  const report: TransferReport = { screenStates: 0, elements: 0, vectors: 0, skipped: [] };
  const providers = new Map<string, string>();
  const npyFiles: string[] = [];
  let files: string[];
  try {
    files = [];
    for await (const f of walk(dir)) files.push(f);
  } catch (e) {
    throw new InvalidInputError(`Cannot read the folder ${dir}: ${(e as NodeJS.ErrnoException).code ?? String(e)}.`, { cause: e });
  }
  for (const file of files) {
    if (file.endsWith(".npy")) {
      npyFiles.push(file);
      continue;
    }
    if (!file.endsWith(".json")) continue;
    try {
      const doc = readDocument(parseJsonText(await readBoundedText(file, DEFAULT_MAX_DOCUMENT_BYTES), file), file);
      if (doc.version === "screenstate_v1") {
        await store.putScreenState(doc.value);
        refsOf(doc.value, providers);
        report.screenStates++;
      } else if (doc.version === "uielement_v1") {
        await store.putElement(doc.value);
        refsOf(doc.value, providers);
        report.elements++;
      }
      // Other documents (workflows) are not store content: left where they are.
    } catch (e) {
      if (!isRpaError(e)) throw e;
      report.skipped.push({ file, reason: e.message });
    }
  }
  opts.onProgress?.(`${report.screenStates} screen states, ${report.elements} elements; reading ${npyFiles.length} vectors…`);
  const batch: Array<{ file: string; vectorId: string; provider: string; vector: Float32Array }> = [];
  // A batch is one transaction. When the store refuses it (one vector of another dimension than
  // its provider's…), the vectors are put one by one, so that only the bad ones are skipped, each
  // with its reason, and the good ones of the batch are kept.
  const flush = async () => {
    if (batch.length === 0) return;
    const items = batch.splice(0);
    try {
      await store.putVectors(items.map(({ vectorId, provider, vector }) => ({ vectorId, provider, vector })));
      return;
    } catch (e) {
      if (!isRpaError(e)) throw e;
    }
    for (const { file, vectorId, provider, vector } of items) {
      try {
        await store.putVector(vectorId, provider, vector);
      } catch (e) {
        if (!isRpaError(e)) throw e;
        report.vectors--;
        report.skipped.push({ file, reason: e.message });
      }
    }
  };
  for (const file of npyFiles) {
    const vectorId = relative(dir, file).split(sep).join("/");
    try {
      const arr = decodeNpy(await readBoundedFile(file, MAX_VECTOR_FILE_BYTES), file);
      if (arr.shape.length !== 1) throw new InvalidInputError(`${file}: a vector file must hold a 1-D array, found shape (${arr.shape.join(", ")}).`);
      batch.push({ file, vectorId, provider: providers.get(vectorId) ?? providers.get(wholeStateOfView(vectorId) ?? "") ?? opts.defaultProvider ?? "unknown", vector: arr.data instanceof Float32Array ? arr.data : Float32Array.from(arr.data) });
      report.vectors++;
    } catch (e) {
      if (!isRpaError(e)) throw e;
      report.skipped.push({ file, reason: e.message });
    }
    if (batch.length >= 500) await flush();
  }
  await flush();
  return report;
}

export async function exportFolder(store: Store, dir: string): Promise<TransferReport> {
  const report: TransferReport = { screenStates: 0, elements: 0, vectors: 0, skipped: [] };
  const files = new NpyVectorFiles(dir);
  for (const provider of await store.vectorProviders()) {
    let after = 0;
    for (;;) {
      const rows = await store.scanVectors(provider, after, 1000);
      for (const r of rows) {
        await files.save(r.vectorId, r.vector);
        report.vectors++;
      }
      if (rows.length < 1000) break;
      after = (rows[rows.length - 1] as { seq: number }).seq;
    }
  }
  await mkdir(join(dir, "data", "states"), { recursive: true });
  for (const s of await store.findScreenStates({ limit: Number.MAX_SAFE_INTEGER })) {
    await writeFile(join(dir, "data", "states", `${s.screen_state_id.replace(/[^A-Za-z0-9_.-]/g, "_")}.json`), writeDocument(s));
    report.screenStates++;
  }
  await mkdir(join(dir, "data", "elements"), { recursive: true });
  let afterId = "";
  for (;;) {
    const els = await store.scanElements(afterId, 1000);
    for (const el of els) {
      await writeFile(join(dir, "data", "elements", `${el.element_id.replace(/[^A-Za-z0-9_.-]/g, "_")}.json`), writeDocument(el));
      report.elements++;
    }
    if (els.length < 1000) break;
    afterId = (els[els.length - 1] as UIElement).element_id;
  }
  return report;
}
