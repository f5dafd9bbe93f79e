// Applying an accepted patch to a workflow: a new workflow document (the caller saves it as a new
// version). The patch names the step by id; a step that is gone is an InvalidInputError.
import { InvalidInputError } from "../core/errors.js";
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
