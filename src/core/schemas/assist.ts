// The design's "mode assisté": a run that cannot decide alone asks a person. A question is a file
// (or a row) that any front end can answer — the terminal prompt of `rpav replay --assist`, the
// studio's Ask page — and the waiting run reads the answer back. Questions and answers are data.
import { z } from "zod";
import { BBoxSchema, IsoTimestampSchema, nonEmptyString } from "./common.js";

export const ASSIST_QUESTION_V1 = "assist_question_v1" as const;
export const ASSIST_ANSWER_V1 = "assist_answer_v1" as const;

/** What a person may answer. A question lists the ones it offers. */
export const ASSIST_CHOICES = ["pick", "point", "skip", "abort"] as const;
export type AssistChoiceKind = (typeof ASSIST_CHOICES)[number];

export const AssistCandidateSchema = z.looseObject({
  candidate_id: nonEmptyString,
  label: z.string(),
  type: z.string(),
  /** Screen pixels of the screenshot the question shows. */
  bbox: BBoxSchema,
  score: z.number(),
});
export type AssistCandidate = z.infer<typeof AssistCandidateSchema>;

export const AssistQuestionSchema = z.looseObject({
  schema_version: z.literal(ASSIST_QUESTION_V1),
  question_id: nonEmptyString,
  asked_at: IsoTimestampSchema,
  run_id: nonEmptyString,
  /** The run folder, absolute: screenshots are relative to it. */
  run_dir: z.string(),
  row: z.number().int().nonnegative(),
  step_id: nonEmptyString,
  /** Why the run asks, for a person (never parsed). */
  message: z.string(),
  /** The screenshot the question is about, relative to `run_dir`; null when none could be taken. */
  screenshot: z.string().nullable(),
  /** Where the screenshot lies on screen, so a point clicked on it converts to screen pixels. */
  origin: z.object({ x: z.number(), y: z.number(), scale_factor: z.number().positive() }).nullable(),
  window: z.object({ app: z.string(), title: z.string() }).nullable(),
  candidates: z.array(AssistCandidateSchema),
  choices: z.array(z.enum(ASSIST_CHOICES)).min(1),
});
export type AssistQuestion = z.infer<typeof AssistQuestionSchema>;

export const AssistAnswerChoiceSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("pick"), candidate_id: nonEmptyString }),
  /** Screen pixels. */
  z.object({ kind: z.literal("point"), x: z.number().finite(), y: z.number().finite() }),
  z.object({ kind: z.literal("skip") }),
  z.object({ kind: z.literal("abort") }),
]);
export type AssistAnswerChoice = z.infer<typeof AssistAnswerChoiceSchema>;

export const AssistAnswerSchema = z.looseObject({
  schema_version: z.literal(ASSIST_ANSWER_V1),
  question_id: nonEmptyString,
  answered_at: IsoTimestampSchema,
  /** Who answered: "terminal", "studio", … */
  by: nonEmptyString,
  choice: AssistAnswerChoiceSchema,
});
export type AssistAnswer = z.infer<typeof AssistAnswerSchema>;
