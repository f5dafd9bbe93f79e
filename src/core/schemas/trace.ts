// trace_v1: what a replay run did, one JSON object per line in <run>/trace.jsonl (append-only, so a
// crash loses at most the line being written). The first line is the `run` header; then, per row
// of data, `row_start`, per step `before` / `action` / `after` (screenshots under <run>/shots/),
// `row_end`, and `run_end`. A resumed run appends `resume` and goes on in the same file.
// The HTML report reads traces only (style guide, after Playwright's trace).
import { z } from "zod";
import { BBoxSchema, IsoTimestampSchema, nonEmptyString } from "./common.js";

export const TRACE_V1 = "trace_v1" as const;

/** `unverified`: the step ran but a check could not be made (never counted as passed). */
export const TRACE_STATUSES = ["passed", "failed", "skipped", "unverified"] as const;
export type TraceStatus = (typeof TRACE_STATUSES)[number];

export const TraceCandidateSchema = z.looseObject({
  element_id: z.string(),
  type: z.string(),
  label: z.string(),
  bbox: BBoxSchema,
  score: z.number(),
});

export const TraceErrorSchema = z.looseObject({ code: z.string(), message: z.string() });

const base = { t: IsoTimestampSchema };
/** Which row of data and which step an event is about. */
const stepRef = { row: z.number().int().nonnegative(), step: z.number().int().nonnegative(), step_id: nonEmptyString };

export const TraceRunSchema = z.looseObject({
  ...base,
  type: z.literal("run"),
  schema_version: z.literal(TRACE_V1),
  run_id: nonEmptyString,
  workflow_id: nonEmptyString,
  workflow_name: z.string(),
  /** The workflow file, absolute, so `--resume` finds it again. */
  workflow_path: z.string(),
  /** One object per row; secret values are never written (null). */
  rows: z.array(z.record(z.string(), z.string().nullable())),
  on_error: z.enum(["stop", "skip"]),
  steps: z.array(z.looseObject({ step_id: nonEmptyString, action: z.string(), intention: z.string() })),
});

export const TraceRowStartSchema = z.looseObject({ ...base, type: z.literal("row_start"), row: z.number().int().nonnegative(), from_step: z.number().int().nonnegative() });

export const TraceBeforeSchema = z.looseObject({
  ...base,
  type: z.literal("before"),
  ...stepRef,
  attempt: z.number().int().positive(),
  window: z.looseObject({ id: z.string(), title: z.string(), app: z.string(), bbox: BBoxSchema }).nullable(),
  /** Screenshot file under the run folder, and where its top-left pixel lies on screen. */
  screenshot: z.string().nullable(),
  origin: z.tuple([z.number(), z.number()]).nullable(),
  /** How the target was found: element match, icon template, VLM, or nothing to find. */
  method: z.enum(["element", "icon", "vlm", "none", "region"]).nullable(),
  /** Chosen box, screen coordinates. */
  bbox: BBoxSchema.nullable(),
  score: z.number().nullable(),
  ambiguous: z.boolean(),
  candidates: z.array(TraceCandidateSchema),
  decision: z.string(),
  timings: z.record(z.string(), z.number()),
  /** method "vlm": the model, the prompt's hash and its raw answer (untrusted text). */
  vlm: z.looseObject({ model: z.string(), prompt_hash: z.string(), raw_answer: z.string(), cached: z.boolean(), snapped_to: z.string().optional() }).optional(),
});

export const TraceActionSchema = z.looseObject({
  ...base,
  type: z.literal("action"),
  ...stepRef,
  action: z.string(),
  /** Screen point acted on (clicks, drags: the start). */
  point: z.tuple([z.number(), z.number()]).nullable(),
  /** What was typed or pressed; secrets as "•" × length. */
  input: z.string().nullable(),
  duration_ms: z.number(),
});

export const DECISION_KINDS = ["execute", "adapt", "skip", "ask", "fail"] as const;
export type DecisionKind = (typeof DECISION_KINDS)[number];

/** One option the actor weighed (a recovery strategy, a candidate, skip, abort). */
export const DecisionOptionSchema = z.looseObject({ id: nonEmptyString, kind: z.enum(DECISION_KINDS), description: z.string() });

/** A decision of the actor before (or while) running a step: typed, with what it saw (style guide). */
export const DecisionSchema = z.looseObject({
  kind: z.enum(DECISION_KINDS),
  /** For people; never parsed. */
  reason: z.string(),
  /** What was observed: typed facts (window title, check results, dialog text…). */
  evidence: z.record(z.string(), z.unknown()),
  options: z.array(DecisionOptionSchema),
  /** The option id taken (one of `options`), null when there was no choice. */
  chosen: z.string().nullable(),
  by: z.enum(["rules", "model", "person"]),
});
export type Decision = z.infer<typeof DecisionSchema>;

export const TraceDecisionSchema = z.looseObject({ ...base, type: z.literal("decision"), ...stepRef, attempt: z.number().int().positive(), decision: DecisionSchema });

export const CHECK_STATUSES = ["passed", "failed", "unverified"] as const;
/** The result of one post-condition. */
export const CheckResultSchema = z.looseObject({ kind: z.string(), status: z.enum(CHECK_STATUSES), evidence: z.string() });
export type CheckResult = z.infer<typeof CheckResultSchema>;

export const TraceAfterSchema = z.looseObject({
  ...base,
  type: z.literal("after"),
  ...stepRef,
  status: z.enum(TRACE_STATUSES),
  attempts: z.number().int().nonnegative(),
  screenshot: z.string().nullable(),
  origin: z.tuple([z.number(), z.number()]).nullable(),
  /** What the post-check saw: the window title, whether the screen changed. */
  check: z.string(),
  /** Each post-condition checked, with its evidence (absent in traces written before checks existed). */
  checks: z.array(CheckResultSchema).optional(),
  error: TraceErrorSchema.nullable(),
  /** Perception + locate + checks, without the deliberate human-like delays (ms). */
  overhead_ms: z.number(),
  /** Of the overhead, the last attempt's post-conditions (ms; absent in older traces and when the step acted on nothing). */
  post_ms: z.number().optional(),
  duration_ms: z.number(),
});

export const TraceRowEndSchema = z.looseObject({ ...base, type: z.literal("row_end"), row: z.number().int().nonnegative(), status: z.enum(TRACE_STATUSES), failed_step: z.number().int().nonnegative().nullable(), error: TraceErrorSchema.nullable() });

export const TraceResumeSchema = z.looseObject({ ...base, type: z.literal("resume"), row: z.number().int().nonnegative(), from_step: z.number().int().nonnegative() });

export const TraceRunEndSchema = z.looseObject({ ...base, type: z.literal("run_end"), status: z.enum(["passed", "failed", "unverified"]), duration_ms: z.number() });

export const TraceEventSchema = z.discriminatedUnion("type", [TraceRunSchema, TraceRowStartSchema, TraceBeforeSchema, TraceActionSchema, TraceAfterSchema, TraceRowEndSchema, TraceResumeSchema, TraceRunEndSchema, TraceDecisionSchema]);

export type TraceRun = z.infer<typeof TraceRunSchema>;
export type TraceBefore = z.infer<typeof TraceBeforeSchema>;
export type TraceAction = z.infer<typeof TraceActionSchema>;
export type TraceAfter = z.infer<typeof TraceAfterSchema>;
export type TraceDecision = z.infer<typeof TraceDecisionSchema>;
export type TraceRowEnd = z.infer<typeof TraceRowEndSchema>;
export type TraceEvent = z.infer<typeof TraceEventSchema>;
export type TraceCandidate = z.infer<typeof TraceCandidateSchema>;
/** An event as written: the timestamp is added by the writer. */
export type TraceEventInput = TraceEvent extends infer E ? (E extends { t: string } ? Omit<E, "t"> : never) : never;
