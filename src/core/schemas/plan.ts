// plan_v1: what the planner (plan MACRO, phase 3) understood of an instruction and what it will
// run: the parsed instruction, the chosen workflow, the items and their bindings. The ledger rows
// (one per item, in the store) carry the status of each item across crashes.
import { z } from "zod";

export const PLAN_V1 = "plan_v1" as const;

const IsoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "a date is YYYY-MM-DD");

/** A date filter: a month (of a year, or of any year when the items' dates have none), or an inclusive range of days. */
export const DateFilterSchema = z.discriminatedUnion("kind", [
  z.looseObject({
    kind: z.literal("month"),
    month: z.number().int().min(1).max(12),
    year: z.number().int().min(1900).max(2999),
    /** The year was not said; items whose date has no year match on the month alone. */
    year_implied: z.boolean(),
    text: z.string(),
  }),
  z.looseObject({ kind: z.literal("range"), from: IsoDate, to: IsoDate, text: z.string() }),
]);
export type DateFilter = z.infer<typeof DateFilterSchema>;

export const INSTRUCTION_LANGUAGES = ["fr", "en"] as const;

/** What an instruction asks, as data. The deterministic parser and a decision model both produce this. */
export const InstructionSchema = z.looseObject({
  text: z.string(),
  language: z.enum(INSTRUCTION_LANGUAGES),
  /** The verb as said, folded ("traite", "process"); null when none. */
  verb: z.string().nullable(),
  /** The item noun as said ("dossiers", "invoices"); null when none. */
  noun: z.string().nullable(),
  filters: z.looseObject({
    date: DateFilterSchema.nullable(),
    /** A glob on item names ("*facture*", "2026-*"); case and accents ignored. */
    name_pattern: z.string().nullable(),
    /** Lower case, without the dot ("pdf"). */
    extension: z.string().nullable(),
    /** Only items no earlier plan of this workflow has done. */
    not_done: z.boolean(),
    count: z.looseObject({ n: z.number().int().positive(), from: z.enum(["first", "last"]) }).nullable(),
  }),
  /** A folder or file named in the instruction ("dans /srv/in"), used when --in is not given. */
  source: z.string().nullable(),
  /** The words left once filters are taken out: what the workflow is chosen by. */
  task_words: z.array(z.string()),
});
export type Instruction = z.infer<typeof InstructionSchema>;

export const ITEM_STATUSES = ["pending", "running", "done", "failed", "skipped"] as const;
export type ItemStatus = (typeof ITEM_STATUSES)[number];
export const EXCEPTION_CLASSES = ["business", "system"] as const;
export type ExceptionClass = (typeof EXCEPTION_CLASSES)[number];

/** One thing the workflow runs on: a file of a folder, a row of a sheet, an entry of a list. */
export const PlanItemSchema = z.looseObject({
  /** Stable across plans: the absolute path of a file, source#row for a row (or its id column). */
  key: z.string().min(1),
  label: z.string(),
  /** Fields the item offers to bind: path, file_name, name, date, a sheet's columns… */
  fields: z.record(z.string(), z.string()),
  /** The item's date: "2026-01-15", "2026-01" (no day) or "--01" (month only), and the rule that found it. */
  date: z.string().nullable(),
  date_rule: z.string().nullable(),
});
export type PlanItem = z.infer<typeof PlanItemSchema>;

export const PlanDocumentSchema = z.looseObject({
  schema_version: z.literal(PLAN_V1),
  plan_id: z.string().min(1),
  created_at: z.string(),
  instruction: InstructionSchema,
  /** The model's proposal when one was asked and it differed. */
  model_instruction: InstructionSchema.nullable(),
  /** The decision model's proposal, when one was asked: used, the same as the parse, or refused (invalid, slow, absent) and why. */
  model_proposal: z.looseObject({ by: z.string(), outcome: z.enum(["used", "same", "refused"]), ms: z.number(), differences: z.array(z.string()), message: z.string().nullable() }).optional(),
  workflow: z.looseObject({ workflow_id: z.string(), name: z.string(), version: z.number().int(), path: z.string(), chosen_by: z.string() }),
  source: z.looseObject({ kind: z.enum(["folder", "csv", "xlsx", "list", "screen"]), location: z.string(), date_rules: z.array(z.string()), notes: z.array(z.string()).optional() }),
  items: z.array(z.looseObject({ item: PlanItemSchema, bindings: z.record(z.string(), z.string()), sources: z.record(z.string(), z.string()) })),
  options: z.looseObject({
    app_command: z.string().nullable(),
    max_system_retries: z.number().int().nonnegative(),
    report_dir: z.string(),
    estimated_ms_per_item: z.number().nonnegative(),
  }),
});
export type PlanDocument = z.infer<typeof PlanDocumentSchema>;
