// Applying an accepted patch to a workflow: a new workflow document (the caller saves it as a new
// version). The patch names the step by id; a step that is gone is an InvalidInputError.
// `decidePatch` is the one place a patch is accepted or rejected (CLI and studio).
import { writeFileAtomic } from "../core/atomic-write.js";
import { readBoundedFile } from "../core/bounded-read.js";
import { InvalidInputError } from "../core/errors.js";
import type { Store } from "../core/providers/store.js";
import { DEFAULT_MAX_DOCUMENT_BYTES, readDocumentAs } from "../core/schemas/documents.js";
import type { WorkflowPatch } from "../core/schemas/workflow-patch.js";
import type { Workflow } from "../core/schemas/workflow.js";

export function applyPatch(wf: Workflow, p: WorkflowPatch): Workflow {
  if (p.workflow_id !== wf.workflow_id) throw new InvalidInputError(`Patch ${p.patch_id} is for workflow ${p.workflow_id}, not ${wf.workflow_id}.`);
  const i = wf.steps.findIndex((s) => s.step_id === p.step_id);
  if (i < 0) throw new InvalidInputError(`Patch ${p.patch_id}: workflow ${wf.workflow_id} has no step ${p.step_id} any more; reject the patch.`);
  const steps = wf.steps.map((s) => ({ ...s }));
  if (p.op.op === "remove_step") {
    if (steps.length === 1) throw new InvalidInputError(`Patch ${p.patch_id} would remove the only step of ${wf.workflow_id}.`);
    steps.splice(i, 1);
    // Expectations that pointed at the removed step are derived again at the next load.
    for (const s of steps) if (s.expect && JSON.stringify(s.expect).includes(`"${p.step_id}"`)) delete s.expect;
    return { ...wf, variables: wf.variables.map((v) => ({ ...v, steps: v.steps.filter((x) => x !== p.step_id) })), steps };
  } else {
    const s = steps[i]!;
    steps[i] = { ...s, target: p.op.target, by_text: p.op.target.by_text };
    // The expectations and the focused field of later steps follow the step's target.
    delete steps[i]!.expect;
  }
  return { ...wf, steps };
}

/** Where patches are decided: the patch files, the store, and how the workflow file is read and written. */
export interface PatchDecisionDeps {
  patches: PatchStore;
  /** Needed to accept (the new version goes there); a rejection touches the patch file alone. */
  store?: Pick<Store, "putWorkflow" | "getWorkflow">;
  /** Defaults: the bounded reader with the workflow_v1 schema, and a write then rename beside the file. */
  readWorkflow?: (path: string) => Promise<Workflow>;
  writeWorkflow?: (path: string, wf: Workflow) => Promise<void>;
  now?: () => Date;
}

/** The patch files' side a decision needs (PatchFiles in src/store). */
export interface PatchStore {
  get(id: string): Promise<WorkflowPatch>;
  put(p: WorkflowPatch): Promise<void>;
}

export type PatchDecision = { decision: "rejected"; patch: WorkflowPatch } | { decision: "accepted"; patch: WorkflowPatch; version: number; workflowPath: string };

async function readWorkflowFile(path: string): Promise<Workflow> {
  return readDocumentAs("workflow_v1", (await readBoundedFile(path, DEFAULT_MAX_DOCUMENT_BYTES)).toString("utf8"), path);
}

async function writeWorkflowFile(path: string, wf: Workflow): Promise<void> {
  try {
    await writeFileAtomic(path, `${JSON.stringify(wf, null, 2)}\n`);
  } catch (e) {
    throw new InvalidInputError(`Cannot write the workflow file ${path}: ${(e as NodeJS.ErrnoException).code ?? String(e)}. Check that its folder is writable.`, { cause: e });
  }
}

/**
 * Accepts or rejects a proposed patch — `rpav workflow patches --accept/--reject` and the studio
 * both come here. Accepting applies it to the workflow's latest store version (or, when the store
 * does not hold it, to the file it was proposed for), writes the result to that file and saves it
 * as a new version in the store; rejecting only marks it rejected. A patch
 * already decided is an InvalidInputError (nothing changes).
 */
export async function decidePatch(deps: PatchDecisionDeps, id: string, decision: "accept" | "reject"): Promise<PatchDecision> {
  const p = await deps.patches.get(id);
  if (p.status !== "proposed") throw new InvalidInputError(`Patch ${id} is already ${p.status}.`, { details: { patch_id: id, status: p.status } });
  const decidedAt = (deps.now?.() ?? new Date()).toISOString();
  if (decision === "reject") {
    const patch: WorkflowPatch = { ...p, status: "rejected", decided_at: decidedAt };
    await deps.patches.put(patch);
    return { decision: "rejected", patch };
  }
  if (!deps.store) throw new InvalidInputError(`Accepting patch ${id} needs the store, where its new workflow version goes.`);
  // The patch changes the workflow as it is now: the store's latest version (it may have moved on
  // since the run that asked, a variable renamed in the studio), else the file it was proposed for.
  const stored = await deps.store.getWorkflow(p.workflow_id);
  const base = stored ? readDocumentAs("workflow_v1", JSON.stringify(stored.document), `${p.workflow_id} version ${stored.version} in the store`) : await (deps.readWorkflow ?? readWorkflowFile)(p.workflow_path);
  const next = applyPatch(base, p);
  // The result is checked as a document before anything is written.
  readDocumentAs("workflow_v1", JSON.stringify(next), p.workflow_path);
  await (deps.writeWorkflow ?? writeWorkflowFile)(p.workflow_path, next);
  const version = await deps.store.putWorkflow(next);
  const patch: WorkflowPatch = { ...p, status: "accepted", decided_at: decidedAt, version };
  await deps.patches.put(patch);
  return { decision: "accepted", patch, version, workflowPath: p.workflow_path };
}
