import type { Workflow } from "../schemas/workflow.js";

/** One item of a plan to run through a workflow, with its values. */
export interface ItemRunRequest {
  workflow: Workflow;
  /** The workflow file (icon crops are relative to it). */
  workflowPath: string;
  itemKey: string;
  label: string;
  /** 0-based position in the plan, and the plan's size. */
  index: number;
  total: number;
  bindings: Readonly<Record<string, string>>;
  /** Folder for this attempt's trace, screenshots and report. */
  runDir: string;
  attempt: number;
  signal?: AbortSignal;
}

/** How an item's run ended. A failure is a value with the typed error code of the step that failed. */
export interface ItemRunResult {
  status: "passed" | "failed";
  runId: string;
  runDir: string;
  /** The run's HTML report, when one was written. */
  report: string | null;
  error: { code: string; message: string; stepId: string | null } | null;
}

/**
 * Runs one item through a workflow on the desktop: today's replay executor, the decision actor
 * when it lands. Broken parts (no display, a provider that cannot start) may throw RpaErrors;
 * the planner records them as the item's failure.
 */
export interface ItemRunner {
  readonly name: string;
  run(req: ItemRunRequest): Promise<ItemRunResult>;
}

/** Brings the app to where an item starts (starts it) and ends it after the item; a restart is stop + start. */
export interface AppSession {
  readonly description: string;
  start(signal?: AbortSignal): Promise<void>;
  stop(): Promise<void>;
}
