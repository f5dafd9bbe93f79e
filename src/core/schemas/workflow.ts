// workflow_v1: a recorded task turned into a template with variables (plan "Phase 1", build_replay).
// Each step carries intention, variables, expected_state and expected_result as in the plan's
// example; targets carry what replay needs to find them again without coordinates.
import { z } from "zod";
import { BBoxSchema, IsoTimestampSchema, nonEmptyString } from "./common.js";
import { UIElementTypeSchema } from "./uielement.js";

export const WORKFLOW_V1 = "workflow_v1" as const;

export const VARIABLE_TYPES = ["text", "name", "date", "amount", "number", "file_name", "path", "email", "identifier", "secret"] as const;

export const WorkflowVariableSchema = z.looseObject({
  name: z.string().regex(/^[a-z][a-z0-9_]*$/, "a variable name is lower case letters, digits and _"),
  type: z.enum(VARIABLE_TYPES),
  /** Value seen during the recording; null for secrets (never stored). */
  example: z.string().nullable(),
  secret: z.boolean(),
  /** Steps that use it. */
  steps: z.array(nonEmptyString),
  description: z.string().optional(),
  /** A secret's value may come from this environment variable at run time (never from argv). Optional: older workflows have none. */
  secret_env: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "an environment variable name is letters, digits and _").optional(),
  /** The credential store entry holding a secret's value (`rpav secret set <name>`); the variable's name when absent. */
  secret_name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/, "a secret name is letters, digits, _ . -").optional(),
});
export type WorkflowVariable = z.infer<typeof WorkflowVariableSchema>;

/** What a target can be found by. */
export const TARGET_CUES = ["label", "caption", "anchors", "position", "icon", "type"] as const;
export type TargetCue = (typeof TARGET_CUES)[number];

export const TargetSchema = z.looseObject({
  type: UIElementTypeSchema.nullable(),
  label: z.string(),
  by_text: z.string().nullable(),
  role: z.string().nullable(),
  /** "top-left", "bottom", "middle-center"… of the screen. */
  position_hint: z.string().nullable(),
  /** Words read near the target, to tell equal labels apart. */
  anchors: z.array(z.string()),
  /** Box on the recorded screen (screen pixels), for reference and the report; replay re-locates. */
  recorded_bbox: BBoxSchema.nullable(),
  /** 80×80 crop around the target, relative to the workflow file (targets without text). */
  icon: z.string().nullable(),
  /** Several elements with this label and type on the recorded screen: this was the `index`-th of `count`, in reading order. */
  ordinal: z.looseObject({ index: z.number().int().nonnegative(), count: z.number().int().positive() }).optional(),
  /** What the element is and does, in a few words, written by a vision-language model (property 4); absent without one. */
  semantic_description: z.string().optional(),
  // Optional cues (older workflows have none of them and still replay). Offsets and boxes are
  // window pixels at the recorded UI scale, relative to the target window's client area.
  /** The text that names the control beside or above it (a field's caption), with its centre's offset from the target's centre and its width. */
  caption: z.looseObject({ text: z.string(), dx: z.number(), dy: z.number(), w: z.number().positive().optional() }).nullable().optional(),
  /** Nearby texts with their centres' offsets from the target's centre and their widths (the same words' width at replay gives the UI scale). */
  anchor_offsets: z.array(z.looseObject({ text: z.string(), dx: z.number(), dy: z.number(), w: z.number().positive().optional() })).optional(),
  /** The target's box relative to its window's client area, and that area's size, when recorded. */
  window_box: BBoxSchema.optional(),
  window_size: z.tuple([z.number().positive(), z.number().positive()]).optional(),
  /** Median height of a text line on the recorded screen (px): the UI scale recorded. */
  text_px: z.number().positive().optional(),
  /** Cues grounding trusts for this target, most telling first. */
  cues: z.array(z.enum(TARGET_CUES)).optional(),
  /** No visual cue identifies the target (an empty area, a canvas): it is this region of this window. */
  region: z.boolean().optional(),
  /** A region target inside a drawn panel (a canvas, an empty list): that panel's box (window pixels) and where in it the click was, as shares of its width and height. */
  panel: z.looseObject({ window_box: BBoxSchema, at: z.tuple([z.number().min(0).max(1), z.number().min(0).max(1)]) }).optional(),
  /** The next step types into it: only an enabled field qualifies. */
  typed_into: z.boolean().optional(),
  /** Grey-level standard deviation of the icon crop (a crop too flat to match is never kept). */
  icon_contrast: z.number().nonnegative().optional(),
  /**
   * What an icon-only target shows, as the icon recognizer named it when recorded (« save », « settings »…), when it was
   * sure (P ≥ 0.5, not « other »). Replay does not take another icon for it at its recorded place, and finds it by what it
   * shows when an icon theme, a style or the UI scale redrew it.
   */
  icon_class: z.string().min(1).optional(),
  /**
   * Grey spread (5th–95th percentile) of the target's box when recorded. No longer written nor read:
   * it falls in a dark theme and at ×2 and rises with text typed in the field, so it could not tell a
   * greyed-out field (`fill_contrast` does, against the live window's other fields).
   */
  box_contrast: z.number().nonnegative().optional(),
  /** Grey distance between the target's fill and its surroundings when recorded: a greyed-out element blends in. */
  fill_contrast: z.number().nonnegative().optional(),
  /** The element deletes, pays, sends…: replay acts on it only under an explicit policy (--allow-dangerous, workflow policy). */
  is_dangerous: z.boolean().optional(),
});
export type Target = z.infer<typeof TargetSchema>;

/** A window as an expectation names it: app, and title with the variables ("{{chemin}} - Mousepad" or the recorded example). */
export const WindowRefSchema = z.looseObject({ app: z.string(), title: z.string() });

/**
 * Where a check looks: the step's own target as grounded at run time (`target`), the target of an
 * earlier step of the same row (`step`: a field clicked before it is typed into), or the window.
 */
export const CheckRegionSchema = z.discriminatedUnion("of", [
  z.looseObject({ of: z.literal("target") }),
  z.looseObject({ of: z.literal("step"), step_id: nonEmptyString }),
  z.looseObject({ of: z.literal("window") }),
]);
export type CheckRegion = z.infer<typeof CheckRegionSchema>;

export const POSTCONDITION_KINDS = ["window_open", "window_closed", "window_active", "field_value", "toggle_state", "text_present", "region_changed"] as const;

/**
 * What must hold after a step: typed predicates checked by one module (src/actor/checks.ts),
 * never read from a sentence. Values may hold "{{variable}}" parts.
 */
export const PostconditionSchema = z.discriminatedUnion("kind", [
  z.looseObject({ kind: z.literal("window_open"), window: WindowRefSchema }),
  z.looseObject({ kind: z.literal("window_closed"), window: WindowRefSchema }),
  /** `modified`: the title carries (true) or lost (false) the modified marker `*`. */
  z.looseObject({ kind: z.literal("window_active"), window: WindowRefSchema, modified: z.boolean().optional() }),
  /** The field's text read back (OCR of its box); `masked`: a secret, dots or stars of the right length count. */
  z.looseObject({ kind: z.literal("field_value"), region: CheckRegionSchema, value: z.string(), masked: z.boolean().optional() }),
  /** `on` / `off` crops recorded (relative to the workflow file): the state is the one the live crop resembles. */
  z.looseObject({ kind: z.literal("toggle_state"), region: CheckRegionSchema, state: z.enum(["on", "off"]), on_crop: z.string().nullable(), off_crop: z.string().nullable() }),
  z.looseObject({ kind: z.literal("text_present"), region: CheckRegionSchema, text: z.string() }),
  /** Pixels of the region differ after the action (a window that closed, or whose title changed when `title` is set, counts). */
  z.looseObject({ kind: z.literal("region_changed"), region: CheckRegionSchema, title: z.boolean().optional() }),
]);
export type Postcondition = z.infer<typeof PostconditionSchema>;
export type PostconditionKind = Postcondition["kind"];

export const RequiredElementSchema = z.looseObject({
  type: UIElementTypeSchema.nullable(),
  label: z.string(),
  role: z.string().nullable(),
  position_hint: z.string().nullable(),
});
export type RequiredElement = z.infer<typeof RequiredElementSchema>;

/** Machine-checkable expectations of a step, next to its human sentences (expected_state, expected_result). */
export const StepExpectationsSchema = z.looseObject({
  before: z.looseObject({
    window: WindowRefSchema,
    required_elements: z.array(RequiredElementSchema),
    /** The recorded screen state's vector (state embedding), when the recording stored one. */
    state_vector_id: z.string().nullable(),
    /**
     * The same screen state embedded as its crops (src/embedding/zoom-pyramid.ts: top-left and top band at ×1.5 and ×2),
     * so that a live screen at a larger scale is compared with what it shows; absent in workflows built before.
     */
    state_view_vector_ids: z.array(z.string()).optional(),
  }),
  after: z.array(PostconditionSchema),
  /** No check of its own: its effect is what a later step checks (a click that focuses the field the next step types into). */
  checked_by: nonEmptyString.optional(),
  /** Written by the builder, or derived when an older workflow was loaded (what could not be derived is listed). */
  source: z.enum(["recorded", "derived"]),
  not_derived: z.array(z.string()).optional(),
});
export type StepExpectations = z.infer<typeof StepExpectationsSchema>;

export const StepContextSchema = z.looseObject({
  current_workflow_candidate: z.string().nullable(),
  tags: z.array(z.string()),
  app_name: z.string().optional(),
});
export type StepContext = z.infer<typeof StepContextSchema>;

export const STEP_ACTIONS = ["click", "double_click", "right_click", "drag", "type", "key", "select", "wait_for", "middle_click", "scroll"] as const;

export const StepSchema = z.looseObject({
  step_id: nonEmptyString,
  action: z.enum(STEP_ACTIONS),
  intention: nonEmptyString,
  by_text: z.string().nullable(),
  target: TargetSchema.nullable(),
  /** `type`: literal text, or "{{variable}}" parts. */
  text: z.string().optional(),
  /** `key`: "ctrl+s", "Return". */
  combo: z.string().optional(),
  /** `select`: the item chosen in the dropdown `target`. */
  option: z.string().optional(),
  /** `scroll`: wheel notches (dy > 0 down, dx > 0 right) at `at`, a point relative to the window's client area. */
  scroll: z.looseObject({ dx: z.number().int(), dy: z.number().int(), at: z.tuple([z.number(), z.number()]) }).optional(),
  /** `wait_for`: how long replay waits for `window` (ms). */
  timeout_ms: z.number().int().positive().optional(),
  /** Variables this step uses, with the recorded example (null for secrets), as in the plan. */
  variables: z.record(z.string(), z.string().nullable()),
  expected_state: z.string(),
  expected_result: z.string(),
  window: z.looseObject({ title: z.string(), app: z.string() }),
  /** Optional so that workflows built before expectations existed still load (derived at load). */
  expect: StepExpectationsSchema.optional(),
  /** The recorded screen state the step started from (a screenstate_v1 id); its state vector is `expect.before.state_vector_id`. */
  screen_state_id: nonEmptyString.optional(),
  /**
   * The workflow context present at recording (design: ContextData — property 24); the context
   * component of the state embedding is made from it again at replay (property 10).
   */
  context: StepContextSchema.optional(),
});
export type Step = z.infer<typeof StepSchema>;

export const WorkflowSchema = z
  .looseObject({
    schema_version: z.literal(WORKFLOW_V1),
    workflow_id: nonEmptyString,
    name: nonEmptyString,
    app: z.string(),
    created_at: IsoTimestampSchema,
    source_session: z.string(),
    variables: z.array(WorkflowVariableSchema),
    steps: z.array(StepSchema).min(1),
    /** `rpav build --enrich`: the model that wrote the intentions and expected states, and which steps. */
    enrichment: z.looseObject({ model: z.string(), at: IsoTimestampSchema, steps: z.array(nonEmptyString) }).optional(),
    /** How to start the app again when it is not running (recorded at record time, when the session has it). */
    launch: z.looseObject({ command: nonEmptyString, args: z.array(z.string()) }).optional(),
    /** Run policy stated by the workflow's owner: dangerous targets may run without --allow-dangerous. */
    policy: z.looseObject({ allow_dangerous: z.boolean().optional() }).optional(),
  })
  .superRefine((wf, ctx) => {
    const names = new Set(wf.variables.map((v) => v.name));
    wf.steps.forEach((s, i) => {
      for (const m of (s.text ?? "").matchAll(/\{\{\s*([a-z][a-z0-9_]*)\s*\}\}/g))
        if (!names.has(m[1]!)) ctx.addIssue({ code: "custom", path: ["steps", i, "text"], message: `uses {{${m[1]}}}, which is not declared in variables` });
    });
    wf.variables.forEach((v, i) => {
      if (v.secret && v.example !== null) ctx.addIssue({ code: "custom", path: ["variables", i, "example"], message: "a secret variable never stores its value" });
    });
  });
export type Workflow = z.infer<typeof WorkflowSchema>;
