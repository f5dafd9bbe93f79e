import type { ExceptionClass, ItemStatus } from "../schemas/plan.js";
import type { ScreenState } from "../schemas/screenstate.js";
import type { UIElement, UIElementEntry } from "../schemas/uielement.js";
import type { Vector } from "../vectors.js";

export interface ScreenStateQuery {
  appName?: string;
  /** Exact window title. */
  windowTitle?: string;
  /** Case-insensitive substring of the window title. */
  titleContains?: string;
  sessionId?: string;
  /** ISO timestamps, inclusive. */
  since?: string;
  until?: string;
  limit?: number;
}

export interface StoredVector {
  vectorId: string;
  provider: string;
  vector: Vector;
}

/** A workflow document; its schema (workflow_v1) belongs to the recording layer. */
export interface WorkflowDocument {
  workflow_id: string;
  name: string;
  [key: string]: unknown;
}

export interface WorkflowVersion {
  workflowId: string;
  version: number;
  createdAt: string;
  document: WorkflowDocument;
}

export interface RunRecord {
  runId: string;
  workflowId: string;
  workflowVersion: number;
  status: "running" | "succeeded" | "failed" | "aborted";
  startedAt: string;
  finishedAt?: string | null;
  document?: Record<string, unknown>;
}

export interface RunEvent {
  seq: number;
  kind: string;
  ts: string;
  payload: Record<string, unknown>;
}

/** A plan of the planner (`rpav run`): its plan_v1 document and whether it is still going. */
export interface PlanRecord {
  planId: string;
  workflowId: string;
  createdAt: string;
  status: "running" | "finished";
  document: Record<string, unknown>;
}

/** Who holds a plan's lock: one process runs (or resumes) a plan at a time. */
export interface PlanLockHolder {
  /** Unique per taking (the holder's own id: only it releases the lock). */
  token: string;
  pid: number;
  host: string;
  since: string;
}

/** Taking a plan's lock: taken (maybe over a holder that died), or held by a live holder. */
export type PlanLockOutcome = { ok: true; tookOver: PlanLockHolder | null } | { ok: false; holder: PlanLockHolder };

/** The ledger row of one item of a plan. */
export interface LedgerItem {
  planId: string;
  itemKey: string;
  ord: number;
  status: ItemStatus;
  exceptionClass: ExceptionClass | null;
  attempts: number;
  runId: string | null;
  errorCode: string | null;
  reason: string | null;
  startedAt: string | null;
  finishedAt: string | null;
}

/** A plan with its ledger counted: items by status, the first item started and the last finished. */
export interface PlanSummary extends PlanRecord {
  items: number;
  counts: Partial<Record<ItemStatus, number>>;
  firstStartedAt: string | null;
  lastFinishedAt: string | null;
}

export type LedgerUpdate = Partial<Pick<LedgerItem, "status" | "exceptionClass" | "attempts" | "runId" | "errorCode" | "reason" | "startedAt" | "finishedAt">>;

/** Counts that tell an in-process vector index whether it is stale. */
export interface VectorStamp {
  count: number;
  maxSeq: number;
}

/**
 * Persistent storage of screen states, UI elements, vectors, workflows (versioned) and runs.
 * Lookups that find nothing return `undefined`; failures throw StoreError.
 */
export interface Store {
  readonly backend: "sqlite" | "postgres";
  /** File path or connection URL (without password), for messages. */
  readonly location: string;
  close(): Promise<void>;
  /** Runs `fn` in one transaction: all of its writes land, or none. */
  transaction<T>(fn: () => Promise<T>): Promise<T>;

  putScreenState(state: ScreenState): Promise<void>;
  getScreenState(id: string): Promise<ScreenState | undefined>;
  findScreenStates(q: ScreenStateQuery): Promise<ScreenState[]>;

  putElement(element: UIElement, screenStateId?: string): Promise<void>;
  getElement(elementId: string): Promise<UIElement | undefined>;
  elementsOfState(screenStateId: string): Promise<UIElementEntry[]>;
  /** Complete elements in element_id order, `limit` at a time after `afterId`. */
  scanElements(afterId: string, limit: number): Promise<UIElement[]>;

  putVector(vectorId: string, provider: string, vector: Vector): Promise<void>;
  putVectors(rows: ReadonlyArray<{ vectorId: string; provider: string; vector: Vector }>): Promise<void>;
  getVector(vectorId: string): Promise<StoredVector | undefined>;
  /** Vectors of a provider in insertion order, `limit` at a time after `afterSeq`. */
  scanVectors(provider: string, afterSeq: number, limit: number): Promise<Array<StoredVector & { seq: number }>>;
  vectorStamp(provider: string): Promise<VectorStamp>;
  /** A counter that changes whenever a vector of `provider` is written: a cheap staleness check. */
  vectorGeneration(provider: string): Promise<number>;
  vectorProviders(): Promise<string[]>;

  /** Saves a new version of the workflow and returns its number (1, 2, …). */
  putWorkflow(doc: WorkflowDocument): Promise<number>;
  /** A given version, or the latest. */
  getWorkflow(workflowId: string, version?: number): Promise<WorkflowVersion | undefined>;
  listWorkflows(): Promise<Array<{ workflowId: string; name: string; latestVersion: number; updatedAt: string }>>;

  putRun(run: RunRecord): Promise<void>;
  getRun(runId: string): Promise<RunRecord | undefined>;
  runsOfWorkflow(workflowId: string): Promise<RunRecord[]>;
  appendRunEvent(runId: string, event: Omit<RunEvent, "seq">): Promise<number>;
  runEvents(runId: string): Promise<RunEvent[]>;

  /** Creates a plan and its ledger (every item pending), in one transaction. */
  createPlan(plan: PlanRecord, items: ReadonlyArray<{ itemKey: string; ord: number }>): Promise<void>;
  getPlan(planId: string): Promise<PlanRecord | undefined>;
  /** Plans newest first (at most `limit`), each with its ledger counted. */
  listPlans(limit?: number): Promise<PlanSummary[]>;
  setPlanStatus(planId: string, status: PlanRecord["status"]): Promise<void>;
  /** The ledger of a plan, in item order. */
  planItems(planId: string): Promise<LedgerItem[]>;
  updatePlanItem(planId: string, itemKey: string, update: LedgerUpdate): Promise<void>;
  /** Items some plan of this workflow has done: key → the latest such plan. */
  doneItems(workflowId: string): Promise<Map<string, string>>;
  /**
   * Takes a plan's lock for `holder`, atomically: free → taken; held by a holder `isStale` says is
   * gone (its process died) → taken over; else the live holder is returned. A missing plan is a StoreError.
   */
  lockPlan(planId: string, holder: PlanLockHolder, isStale: (h: PlanLockHolder) => boolean): Promise<PlanLockOutcome>;
  /** Releases the lock if `token` still holds it (a lock taken over by another is left alone). */
  unlockPlan(planId: string, token: string): Promise<void>;
  /** Plans of a workflow whose lock is held now, with their holder (live or not). */
  lockedPlans(workflowId: string): Promise<Array<{ planId: string; holder: PlanLockHolder }>>;
}
