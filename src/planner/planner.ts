// The planner (plan MACRO, phase 3): an instruction → a plan (the workflow, the items, their
// bindings) → one run per item through an ItemRunner, with a ledger in the store that survives a
// crash: `--resume` goes on with what is not done, a done item never runs twice unless forced.
// After UFO's dataflow (choose template → prefill → execute → evaluate) and UiPath's queues and
// REFramework (business failures are not retried; system failures restart the app and retry).
import { join } from "node:path";
import { AbortedError, AmbiguousWorkflowError, InvalidInputError, isRpaError, ModelAnswerInvalidError } from "../core/errors.js";
import type { AppSession, ItemRunner, ItemRunResult } from "../core/providers/item-runner.js";
import type { InstructionProposer } from "../core/providers/instruction-proposer.js";
import type { LedgerItem, Store } from "../core/providers/store.js";
import type { ScreenTableReader } from "../core/providers/table-reader.js";
import { InstructionSchema, PLAN_V1, PlanDocumentSchema, type ExceptionClass, type Instruction, type PlanDocument } from "../core/schemas/plan.js";
import { WorkflowSchema, type Workflow } from "../core/schemas/workflow.js";
import { bindItems, type BindOptions } from "./bind.js";
import { chooseWorkflow, type ScoredCandidate, type WorkflowCandidate } from "./choose-workflow.js";
import { classifyFailure } from "./failures.js";
import { parseInstruction } from "./instruction.js";
import { filterItems, listExplicit, listItems, type FilterOutcome } from "./items.js";

export interface PrepareRequest {
  instruction: string;
  now?: Date;
  language?: "fr" | "en";
  /** A decision model proposing the instruction's structure (optional; the parse is deterministic without it). */
  proposer?: InstructionProposer;
  /** --in: a folder, a .csv, an .xlsx or screen:<window title pattern>. */
  source?: string;
  /** Reads a list on screen (`screen:` sources). */
  screen?: ScreenTableReader;
  /** --item: explicit items. */
  explicitItems?: readonly string[];
  /** Stored workflows (latest versions). */
  candidates: readonly WorkflowCandidate[];
  /** --workflow: decides. */
  forced?: WorkflowCandidate;
  /** Asked when two candidates are too close (interactive); without it, AmbiguousWorkflowError. */
  choose?: (ranking: readonly ScoredCandidate[], reason: string) => Promise<ScoredCandidate | undefined>;
  bind?: BindOptions;
  /** Items some earlier plan of a workflow has done (the ledger). */
  doneItems?: (workflowId: string) => Promise<Map<string, string>>;
  /** Expected duration of one item of this workflow. */
  estimateMs?: (workflow: Workflow) => Promise<number>;
  planId: string;
  reportDir: string;
  appCommand?: string | null;
  maxSystemRetries?: number;
  signal?: AbortSignal;
}

/** What the decision model's proposal became (kept in the plan document: the trace of the parse). */
export interface ModelProposal {
  by: string;
  /** used: valid and different (the deterministic parse is shown next to it); same: valid and equal; refused: invalid, slow or absent. */
  outcome: "used" | "same" | "refused";
  ms: number;
  differences: string[];
  message: string | null;
}

export interface PreparedPlan {
  document: PlanDocument;
  workflow: Workflow;
  ranking: ScoredCandidate[];
  filtered: FilterOutcome;
  /** Fields where the model's proposal differs from the deterministic parse. */
  differences: string[];
  /** Warnings to show (an invalid model answer…). */
  warnings: string[];
  /** Items an earlier plan of this workflow has done → that plan. */
  alreadyDone: Map<string, string>;
}

/** Paths where two instruction structures differ ("filters.date", "noun"…). */
export function instructionDifferences(a: Instruction, b: Instruction): string[] {
  const out: string[] = [];
  const keys: Array<[string, (i: Instruction) => unknown]> = [
    ["verb", (i) => i.verb],
    ["noun", (i) => i.noun],
    ["filters.date", (i) => i.filters.date && { ...i.filters.date, text: undefined }],
    ["filters.name_pattern", (i) => i.filters.name_pattern],
    ["filters.extension", (i) => i.filters.extension],
    ["filters.not_done", (i) => i.filters.not_done],
    ["filters.count", (i) => i.filters.count],
    ["source", (i) => i.source],
  ];
  for (const [k, f] of keys) if (JSON.stringify(f(a)) !== JSON.stringify(f(b))) out.push(k);
  return out;
}

/** Understands the instruction, lists and filters the items, chooses the workflow and binds every item. Nothing runs. */
export async function preparePlan(req: PrepareRequest): Promise<PreparedPlan> {
  const parsed = parseInstruction(req.instruction, { ...(req.now ? { now: req.now } : {}), ...(req.language ? { language: req.language } : {}) });
  let instruction = parsed;
  let modelInstruction: Instruction | null = null;
  const warnings: string[] = [];
  let differences: string[] = [];
  let proposal: ModelProposal | null = null;
  if (req.proposer) {
    const t0 = Date.now();
    try {
      const answer = await req.proposer.propose(req.instruction, { now: (req.now ?? new Date()).toISOString(), language: parsed.language }, req.signal);
      const ok = InstructionSchema.safeParse(answer);
      if (!ok.success) throw new ModelAnswerInvalidError(`${req.proposer.name}: the proposed instruction does not validate: ${ok.error.issues.slice(0, 3).map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}.`);
      // Untrusted: the text is the user's, and a folder or file the user did not name is not taken.
      const proposed: Instruction = { ...ok.data, text: req.instruction };
      if (proposed.source !== null && proposed.source !== parsed.source && !req.instruction.includes(proposed.source)) {
        warnings.push(`${req.proposer.name} proposed the source « ${proposed.source.slice(0, 200)} », which the instruction does not name: not taken.`);
        proposed.source = parsed.source;
      }
      differences = instructionDifferences(parsed, proposed);
      if (differences.length > 0) {
        modelInstruction = proposed;
        instruction = proposed;
      }
      proposal = { by: req.proposer.name, outcome: differences.length ? "used" : "same", ms: Date.now() - t0, differences, message: null };
    } catch (e) {
      if (e instanceof AbortedError || !isRpaError(e)) throw e;
      warnings.push(`${req.proposer.name}: ${e.message} The deterministic parse is used.`);
      proposal = { by: req.proposer.name, outcome: "refused", ms: Date.now() - t0, differences: [], message: `[${e.code}] ${e.message.slice(0, 500)}` };
    }
  }

  const source = req.source ?? instruction.source ?? undefined;
  if (!source && !req.explicitItems?.length) throw new InvalidInputError("No items to work on: give --in <folder | file.csv | file.xlsx | screen:<window title>>, --item <value> (repeatable), or name a folder in the instruction.");
  const list = req.explicitItems?.length ? listExplicit(req.explicitItems) : await listItems(source!, { ...(req.screen ? { screen: req.screen } : {}), ...(req.signal ? { signal: req.signal } : {}) });
  const filtered = filterItems(list.items, instruction);
  const noItem = () => {
    const why = filtered.dropped.slice(0, 6).map((d) => `${d.item.label}: ${d.why}`).join("; ");
    return new InvalidInputError(`No item of ${list.location} matches « ${req.instruction} » (${list.items.length} listed${why ? `; ${why}${filtered.dropped.length > 6 ? "; …" : ""}` : ""}). Nothing was run.`, { details: { listed: list.items.length } });
  };
  if (filtered.kept.length === 0) throw noItem();

  let chosen: ScoredCandidate;
  let ranking: ScoredCandidate[] = [];
  const words = [...instruction.task_words, ...(instruction.noun ? [instruction.noun] : [])];
  if (req.forced) {
    chosen = { ...req.forced, score: 1, text: 1, coverage: 1, matched: [] };
    ranking = [chosen];
  } else {
    const choice = chooseWorkflow(words, req.candidates, filtered.kept, req.bind);
    if (choice.kind === "none") throw new InvalidInputError(`No workflow to run: ${choice.reason}.`);
    ranking = choice.ranking;
    if (choice.kind === "ambiguous") {
      const picked = req.choose ? await req.choose(choice.ranking, choice.reason) : undefined;
      if (!picked) {
        const names = choice.ranking.slice(0, 4).map((c) => `« ${c.workflow.name} » (${c.workflow.workflow_id}, score ${c.score.toFixed(2)})`);
        throw new AmbiguousWorkflowError(`Which workflow? ${choice.reason}. Candidates: ${names.join(", ")}. Say it with --workflow <name | file>, or word the instruction after the workflow's name.`, {
          details: { candidates: choice.ranking.slice(0, 4).map((c) => ({ workflow_id: c.workflow.workflow_id, name: c.workflow.name, score: Number(c.score.toFixed(3)) })) },
        });
      }
      chosen = picked;
    } else chosen = choice.chosen;
  }
  const workflow = chosen.workflow;

  const alreadyDone = req.doneItems ? await req.doneItems(workflow.workflow_id) : new Map<string, string>();
  let kept = filtered.kept;
  if (instruction.filters.not_done) {
    for (const it of kept) if (alreadyDone.has(it.key)) filtered.dropped.push({ item: it, why: `already done (plan ${alreadyDone.get(it.key)})` });
    kept = kept.filter((it) => !alreadyDone.has(it.key));
  }
  filtered.kept = kept;
  if (kept.length === 0) throw noItem();
  const bound = bindItems(workflow, kept, req.bind ?? {});
  const estimate = req.estimateMs ? await req.estimateMs(workflow) : workflow.steps.length * 3000;
  const rules = [...new Set(kept.map((i) => i.date_rule).filter((r): r is string => !!r))];
  const document = PlanDocumentSchema.parse({
    schema_version: PLAN_V1,
    plan_id: req.planId,
    created_at: (req.now ?? new Date()).toISOString(),
    instruction,
    model_instruction: modelInstruction ? parsed : null,
    ...(proposal ? { model_proposal: proposal } : {}),
    workflow: { workflow_id: workflow.workflow_id, name: workflow.name, version: chosen.version, path: chosen.origin === "store" ? join(req.reportDir, "workflow.json") : chosen.origin, chosen_by: req.forced ? "--workflow" : `similarity ${chosen.score.toFixed(2)}${ranking[1] ? ` (next: « ${ranking[1].workflow.name} » ${ranking[1].score.toFixed(2)})` : ""}`, document: workflow },
    source: { kind: list.kind, location: list.location, date_rules: rules, ...(list.notes?.length ? { notes: list.notes } : {}) },
    items: kept.map((item, i) => ({ item, bindings: bound[i]!.bindings, sources: bound[i]!.sources })),
    options: { app_command: req.appCommand ?? null, max_system_retries: req.maxSystemRetries ?? 2, report_dir: req.reportDir, estimated_ms_per_item: Math.round(estimate) },
  });
  // `model_instruction` holds the other parse: the deterministic one when the model's is used.
  return { document, workflow, ranking, filtered, differences, warnings, alreadyDone };
}

/** Writes the plan and its ledger (every item pending; those an earlier plan did are skipped unless `force`). */
export async function startPlan(store: Store, p: PreparedPlan, force = false): Promise<void> {
  const doc = p.document;
  await store.createPlan(
    { planId: doc.plan_id, workflowId: doc.workflow.workflow_id, createdAt: doc.created_at, status: "running", document: doc as unknown as Record<string, unknown> },
    doc.items.map((x, i) => ({ itemKey: x.item.key, ord: i })),
  );
  if (!force) for (const x of doc.items) if (p.alreadyDone.has(x.item.key)) await store.updatePlanItem(doc.plan_id, x.item.key, { status: "skipped", reason: `already done by plan ${p.alreadyDone.get(x.item.key)} (--force runs it again)` });
}

/** A stored plan, validated. */
export async function loadPlan(store: Store, planId: string): Promise<PlanDocument> {
  const rec = await store.getPlan(planId);
  if (!rec) throw new InvalidInputError(`No plan ${planId} in ${store.location}. Plan ids are printed when \`rpav run\` starts (and in its report folder).`, { details: { plan: planId } });
  const ok = PlanDocumentSchema.safeParse(rec.document);
  if (!ok.success) throw new InvalidInputError(`Plan ${planId} in ${store.location} is not a plan this version reads: ${ok.error.issues[0]?.message ?? "invalid"}.`);
  return ok.data;
}

export function planWorkflow(doc: PlanDocument): Workflow {
  return WorkflowSchema.parse(doc.workflow.document);
}

export type PlanProgress =
  | { kind: "item_start"; index: number; total: number; label: string; attempt: number }
  | { kind: "item_end"; index: number; total: number; label: string; status: "done" | "failed"; exceptionClass: ExceptionClass | null; reason: string | null; ms: number; retry: boolean }
  | { kind: "item_kept"; index: number; total: number; label: string; status: LedgerItem["status"]; reason: string };

export interface ExecuteOptions {
  runner: ItemRunner;
  app?: AppSession;
  /** Run done items again. */
  force?: boolean;
  /** Run business failures again (once their data was fixed). */
  retryBusiness?: boolean;
  onProgress?: (p: PlanProgress) => void;
  signal?: AbortSignal;
}

/** Items a run (or a resume) will take, and why the others are left as they are. */
export function itemsToRun(ledger: readonly LedgerItem[], opts: { force?: boolean; retryBusiness?: boolean }): { run: LedgerItem[]; kept: Array<{ item: LedgerItem; why: string }> } {
  const run: LedgerItem[] = [];
  const kept: Array<{ item: LedgerItem; why: string }> = [];
  for (const it of ledger) {
    if (opts.force) run.push(it);
    else if (it.status === "done") kept.push({ item: it, why: "done" });
    else if (it.status === "skipped") kept.push({ item: it, why: it.reason ?? "skipped" });
    else if (it.status === "failed" && it.exceptionClass === "business" && !opts.retryBusiness) kept.push({ item: it, why: `business failure (${it.errorCode}); --retry-business runs it again` });
    else run.push(it);
  }
  return { run, kept };
}

function slug(s: string): string {
  return s.normalize("NFD").replace(/\p{M}+/gu, "").replace(/[^A-Za-z0-9._-]+/g, "_").slice(0, 60) || "item";
}

/** The folder of an item's attempt: <report dir>/items/003-<label>/attempt-2. */
export function itemRunDir(doc: PlanDocument, ord: number, attempt: number): string {
  return join(doc.options.report_dir, "items", `${String(ord + 1).padStart(3, "0")}-${slug(doc.items[ord]?.item.label ?? "item")}`, `attempt-${attempt}`);
}

/** Runs a stored plan's items that are not done, keeping the ledger; returns the final ledger. */
export async function executePlan(store: Store, planId: string, opts: ExecuteOptions): Promise<LedgerItem[]> {
  const doc = await loadPlan(store, planId);
  const workflow = planWorkflow(doc);
  const ledger = await store.planItems(planId);
  const { run, kept } = itemsToRun(ledger, opts);
  const total = ledger.length;
  for (const k of kept) opts.onProgress?.({ kind: "item_kept", index: k.item.ord, total, label: doc.items[k.item.ord]?.item.label ?? k.item.itemKey, status: k.item.status, reason: k.why });
  const maxRetries = doc.options.max_system_retries;
  for (const entry of run) {
    const planned = doc.items[entry.ord];
    if (!planned || planned.item.key !== entry.itemKey) throw new InvalidInputError(`Plan ${planId}: ledger item ${entry.itemKey} is not in the plan document (damaged plan?).`);
    let attempts = entry.attempts;
    let systemRetries = 0;
    for (;;) {
      if (opts.signal?.aborted) throw new AbortedError(`Plan ${planId} stopped; resume with rpav run --resume ${planId}.`);
      attempts++;
      const t0 = Date.now();
      await store.updatePlanItem(planId, entry.itemKey, { status: "running", attempts, startedAt: new Date(t0).toISOString(), finishedAt: null, runId: null, errorCode: null, reason: null, exceptionClass: null });
      opts.onProgress?.({ kind: "item_start", index: entry.ord, total, label: planned.item.label, attempt: attempts });
      const runDir = itemRunDir(doc, entry.ord, attempts);
      let result: ItemRunResult;
      try {
        await opts.app?.start(opts.signal);
        try {
          result = await opts.runner.run({ workflow, workflowPath: doc.workflow.path, itemKey: entry.itemKey, label: planned.item.label, index: entry.ord, total, bindings: planned.bindings, runDir, attempt: attempts, ...(opts.signal ? { signal: opts.signal } : {}) });
        } finally {
          await opts.app?.stop();
        }
      } catch (e) {
        if (e instanceof AbortedError || opts.signal?.aborted) {
          await store.updatePlanItem(planId, entry.itemKey, { status: "pending", reason: "interrupted" });
          throw e instanceof AbortedError ? e : new AbortedError(`Plan ${planId} stopped; resume with rpav run --resume ${planId}.`);
        }
        if (!isRpaError(e)) throw e;
        result = { status: "failed", runId: "", runDir, report: null, error: { code: e.code, message: e.message, stepId: null } };
      }
      const ms = Date.now() - t0;
      if (result.status === "passed") {
        await store.updatePlanItem(planId, entry.itemKey, { status: "done", runId: result.runId, finishedAt: new Date().toISOString() });
        opts.onProgress?.({ kind: "item_end", index: entry.ord, total, label: planned.item.label, status: "done", exceptionClass: null, reason: null, ms, retry: false });
        break;
      }
      const err = result.error ?? { code: "command_failed", message: "the run failed without an error", stepId: null };
      const cls = classifyFailure(err.code, workflow, err.stepId);
      const retry = cls === "system" && systemRetries < maxRetries;
      const reason = `${err.stepId ? `${err.stepId}: ` : ""}${err.message}`;
      await store.updatePlanItem(planId, entry.itemKey, { status: retry ? "running" : "failed", exceptionClass: cls, errorCode: err.code, reason, runId: result.runId || (null), finishedAt: new Date().toISOString() });
      opts.onProgress?.({ kind: "item_end", index: entry.ord, total, label: planned.item.label, status: "failed", exceptionClass: cls, reason: `[${err.code}] ${reason}`, ms, retry });
      if (!retry) break;
      systemRetries++;
    }
  }
  const final = await store.planItems(planId);
  if (final.every((i) => i.status !== "pending" && i.status !== "running")) await store.setPlanStatus(planId, "finished");
  return final;
}
