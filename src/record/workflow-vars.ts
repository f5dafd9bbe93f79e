// The variable operations of a workflow template (`rpav workflow vars` and the studio's Workflows
// page go through these): rename a variable, turn one back into the recorded literal, make the
// literal text typed by a step a variable. Each returns a new, validated workflow; the input is
// left untouched. Saving it (file, store version) is the caller's job.
import { InvalidInputError } from "../core/errors.js";
import { readDocumentAs } from "../core/schemas/documents.js";
import type { Workflow } from "../core/schemas/workflow.js";
import { dataType } from "./template-builder.js";

export type VariableOperation = { kind: "rename"; from: string; to: string } | { kind: "demote"; name: string } | { kind: "promote"; stepId: string; name?: string };

const NAME = /^[a-z][a-z0-9_]*$/;

/** Applies the operations in order to a copy of `wf` (`source` names it in messages); the result is validated as workflow_v1. */
export function applyVariableOperations(wf: Workflow, ops: readonly VariableOperation[], source: string): Workflow {
  const out = structuredClone(wf);
  for (const op of ops) {
    if (op.kind === "rename") renameVariable(out, op.from, op.to, source);
    else if (op.kind === "demote") demoteVariable(out, op.name, source);
    else promoteStep(out, op.stepId, op.name, source);
  }
  return readDocumentAs("workflow_v1", JSON.stringify(out), source);
}

function renameVariable(wf: Workflow, from: string, to: string, source: string): void {
  if (!NAME.test(to)) throw new InvalidInputError(`"${to.slice(0, 80)}" is not a variable name: lower-case letters, digits and _, starting with a letter.`);
  const v = wf.variables.find((x) => x.name === from);
  if (!v) throw new InvalidInputError(`${source}: no variable "${from}"; variables: ${wf.variables.map((x) => x.name).join(", ")}.`);
  if (from === to) return;
  if (wf.variables.some((x) => x.name === to)) throw new InvalidInputError(`${source}: a variable "${to}" already exists.`);
  v.name = to;
  for (const s of wf.steps) {
    if (s.text) s.text = s.text.replaceAll(`{{${from}}}`, `{{${to}}}`);
    s.intention = s.intention.replaceAll(`{{${from}}}`, `{{${to}}}`);
    if (from in s.variables) {
      s.variables[to] = s.variables[from]!;
      delete s.variables[from];
    }
  }
}

function demoteVariable(wf: Workflow, name: string, source: string): void {
  const v = wf.variables.find((x) => x.name === name);
  if (!v) throw new InvalidInputError(`${source}: no variable "${name}".`);
  if (v.secret) throw new InvalidInputError(`${source}: "${name}" is a secret; its value was never recorded, it stays a variable.`);
  wf.variables = wf.variables.filter((x) => x !== v);
  for (const s of wf.steps) {
    if (s.text) s.text = s.text.replaceAll(`{{${name}}}`, v.example ?? "");
    s.intention = s.intention.replaceAll(`{{${name}}}`, `« ${v.example ?? ""} »`);
    delete s.variables[name];
  }
}

function promoteStep(wf: Workflow, stepId: string, wanted: string | undefined, source: string): void {
  const step = wf.steps.find((x) => x.step_id === stepId);
  if (!step || step.action !== "type" || step.text === undefined) throw new InvalidInputError(`${source}: no typing step "${stepId}"; typing steps: ${wf.steps.filter((x) => x.action === "type").map((x) => x.step_id).join(", ")}.`);
  if (/\{\{/.test(step.text)) throw new InvalidInputError(`${source}: ${stepId} already types a variable (${step.text}).`);
  const name = wanted ?? (step.target?.label ? step.target.label : "texte").normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().replace(/[^a-z0-9]+/g, "_").replace(/^_+|_+$/g, "");
  if (!NAME.test(name) || wf.variables.some((v) => v.name === name)) throw new InvalidInputError(`${source}: promoting ${stepId}: "${name.slice(0, 80)}" is not a free variable name (lower case letters, digits, _); give one (${stepId}=name).`);
  wf.variables.push({ name, type: dataType(step.text), example: step.text, secret: false, steps: [stepId] });
  step.variables[name] = step.text;
  step.intention = step.intention.replace(`« ${step.text} »`, `{{${name}}}`);
  step.text = `{{${name}}}`;
}
