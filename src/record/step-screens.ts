// Which recorded screenshots belong to each built step (for `rpav build --enrich`): the builder
// makes one step per action, except a double click (two clicks, one action) and a dropdown choice
// (two clicks, one `select` step), and adds `wait_for` steps of its own. The alignment is checked
// on every step (kind and window); where it stops matching, the remaining steps get no screens.
import type { Workflow } from "../core/schemas/workflow.js";
import type { RawSession } from "./session.js";

export interface StepShots {
  readonly before: string | null;
  readonly after: string | null;
}

const CLICKS = new Set(["click", "double_click", "right_click", "select", "drag"]);

export function stepScreenshots(workflow: Workflow, session: RawSession): { shots: Map<string, StepShots>; problem?: string } {
  const shots = new Map<string, StepShots>();
  const actions = session.actions;
  let p = 0;
  for (const step of workflow.steps) {
    if (step.action === "wait_for") continue;
    const a = actions[p];
    const kindOk = a && (CLICKS.has(step.action) ? a.kind === "click" || a.kind === "drag" : a.kind === step.action);
    if (!a || !kindOk || (a.window?.title ?? "") !== step.window.title) return { shots, problem: `${step.step_id} does not line up with the session's action ${p + 1}; the steps from there on are enriched without screenshots` };
    const n = step.action === "double_click" || step.action === "select" ? 2 : 1;
    const last = actions[Math.min(actions.length - 1, p + n - 1)]!;
    shots.set(step.step_id, { before: a.before, after: last.after });
    p += n;
  }
  return { shots };
}

