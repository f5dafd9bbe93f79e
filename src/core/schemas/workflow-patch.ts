// workflow_patch_v1: a change to a workflow proposed from a person's answer in the "mode assisté"
// (a candidate picked, a point clicked, a step skipped). Patches are listed by `rpav workflow
// patches` and applied — as a new version of the workflow — only when accepted.
import { z } from "zod";
import { IsoTimestampSchema, nonEmptyString } from "./common.js";
import { TargetSchema } from "./workflow.js";

export const WORKFLOW_PATCH_V1 = "workflow_patch_v1" as const;

export const WorkflowPatchOpSchema = z.discriminatedUnion("op", [
  /** The step's target as the person showed it. */
  z.looseObject({ op: z.literal("set_target"), target: TargetSchema }),
  /** The step is not needed (the person skipped it). */
  z.looseObject({ op: z.literal("remove_step") }),
]);
export type WorkflowPatchOp = z.infer<typeof WorkflowPatchOpSchema>;

export const WorkflowPatchSchema = z.looseObject({
  schema_version: z.literal(WORKFLOW_PATCH_V1),
  patch_id: nonEmptyString,
  workflow_id: nonEmptyString,
  /** The workflow file, absolute. */
  workflow_path: z.string(),
  step_id: nonEmptyString,
  op: WorkflowPatchOpSchema,
  /** For people; never parsed. */
  reason: z.string(),
  proposed_at: IsoTimestampSchema,
  run_id: z.string(),
  question_id: z.string(),
  status: z.enum(["proposed", "accepted", "rejected"]),
  decided_at: IsoTimestampSchema.optional(),
  /** The workflow's store version written when accepted. */
  version: z.number().int().positive().optional(),
});
export type WorkflowPatch = z.infer<typeof WorkflowPatchSchema>;
