// Proposed workflow patches as files in <data dir>/patches/<patch_id>.json (workflow_patch_v1),
// written atomically; `rpav workflow patches` lists them and accepts or rejects one.
import { mkdir, readdir, readFile } from "node:fs/promises";
import { writeFileAtomic } from "../core/atomic-write.js";
import { join } from "node:path";
import { InvalidInputError, StoreError } from "../core/errors.js";
import { WorkflowPatchSchema, type WorkflowPatch } from "../core/schemas/workflow-patch.js";
import { parseJsonText } from "../core/schemas/documents.js";

const ID = /^[A-Za-z0-9_.-]{1,128}$/;

export class PatchFiles {
  constructor(readonly dir: string) {}

  private path(id: string): string {
    if (!ID.test(id)) throw new InvalidInputError(`"${id.slice(0, 80)}" is not a valid patch id (letters, digits, _ . - only).`);
    return join(this.dir, `${id}.json`);
  }

  async put(p: WorkflowPatch): Promise<void> {
    const doc = WorkflowPatchSchema.parse(p);
    const path = this.path(doc.patch_id);
    try {
      await mkdir(this.dir, { recursive: true, mode: 0o700 });
      await writeFileAtomic(path, `${JSON.stringify(doc, null, 2)}\n`, { mode: 0o600 });
    } catch (e) {
      throw new StoreError(`Cannot write ${path}: ${(e as NodeJS.ErrnoException).code ?? String(e)}. Check that the data directory is writable.`, { cause: e });
    }
  }

  async get(id: string): Promise<WorkflowPatch> {
    const path = this.path(id);
    let text: string;
    try {
      text = await readFile(path, "utf8");
    } catch {
      throw new InvalidInputError(`No patch ${id} in ${this.dir}; list them with rpav workflow patches.`);
    }
    const r = WorkflowPatchSchema.safeParse(parseJsonText(text, path));
    if (!r.success) throw new InvalidInputError(`${path} is not a workflow_patch_v1 document: ${r.error.issues.map((i) => i.message).join("; ")}.`);
    return r.data;
  }

  /** Every readable patch, oldest first (unreadable files are skipped). */
  async list(): Promise<WorkflowPatch[]> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return [];
    }
    const out: WorkflowPatch[] = [];
    for (const n of names.filter((x) => x.endsWith(".json"))) {
      const r = WorkflowPatchSchema.safeParse(await readFile(join(this.dir, n), "utf8").then((t) => JSON.parse(t) as unknown).catch(() => undefined));
      if (r.success) out.push(r.data);
    }
    return out.sort((a, b) => a.proposed_at.localeCompare(b.proposed_at));
  }
}
