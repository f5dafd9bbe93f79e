// Business or system: what a failed item's typed error says about retrying it (after UiPath's
// REFramework). A business failure is about the item itself — its data was refused or does not
// lead where the workflow expects — and running the same data again gives the same result: no
// retry, the other items go on. A system failure is about the machinery — the app's window is
// gone or never came, the display, a provider, the store — and a restarted app may well pass:
// the planner restarts the app and retries up to N times.
import { deriveExpectations } from "../record/expectations.js";
import type { ExceptionClass } from "../core/schemas/plan.js";
import type { Step, Workflow } from "../core/schemas/workflow.js";

/** Codes that are about the item's own data whatever the step. */
export const BUSINESS_CODES: ReadonlySet<string> = new Set([
  "invalid_input", // a value of the item is not valid input
  "dangerous_action_blocked", // this item would need an action the policy forbids
  "assist_needed", // a person must decide for this item
]);

/**
 * Codes that depend on the step: a post-check that fails after typing the item's value or waiting
 * for a window named after it (the app refused this item), or a target named after the item's
 * data that is not there, are the item's; the same codes on a step that uses none of its data (a
 * menu that did not open) are the machinery's.
 */
const DATA_DEPENDENT_CODES: ReadonlySet<string> = new Set(["postcheck_failed", "target_not_found", "target_ambiguous"]);

/** Whether a step reads the item's values: a {{variable}}, or a recorded value in its window title, target, option or post-conditions. */
export function stepUsesItemData(workflow: Workflow, step: Step | undefined): boolean {
  if (!step) return false;
  if (Object.keys(step.variables).length > 0 || /\{\{/.test(`${step.text ?? ""}${step.option ?? ""}`)) return true;
  // The step's typed post-conditions (never its expected_result sentence): windows it waits for, values and texts it checks.
  const checked = (step.expect?.after ?? []).map((c) => {
    if (c.kind === "window_open" || c.kind === "window_closed" || c.kind === "window_active") return c.window.title;
    if (c.kind === "field_value") return c.value;
    return c.kind === "text_present" ? c.text : "";
  });
  const places = [step.window.title, step.target?.label ?? "", step.target?.by_text ?? "", step.option ?? "", ...checked];
  return workflow.variables.some((v) => {
    if (!v.example || v.secret) return false;
    const forms = [v.example, v.example.split(/[\\/]/).pop() ?? ""].filter((f) => f.length >= 3);
    return forms.some((f) => places.some((p) => p.includes(f)));
  });
}

/** The exception class of an item's failure. Every code not named above is a system failure. */
export function classifyFailure(code: string, workflow: Workflow, stepId: string | null): ExceptionClass {
  if (BUSINESS_CODES.has(code)) return "business";
  if (DATA_DEPENDENT_CODES.has(code)) {
    // Older workflows get their post-conditions derived, as the actor does when it loads them.
    const wf = deriveExpectations(workflow).workflow;
    return stepUsesItemData(wf, wf.steps.find((s) => s.step_id === stepId)) ? "business" : "system";
  }
  return "system";
}
