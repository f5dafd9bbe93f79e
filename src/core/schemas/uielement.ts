import { z } from "zod";
import { BBoxSchema, EmbeddingRefSchema, nonEmptyString } from "./common.js";

export const UI_ELEMENT_TYPES = [
  "button",
  "text_input",
  "dropdown",
  "tab",
  "checkbox",
  "radio_button",
  "link",
  "generic_interactive",
] as const;
export const UIElementTypeSchema = z.enum(UI_ELEMENT_TYPES);
export type UIElementType = z.infer<typeof UIElementTypeSchema>;

/** The types a person types into or chooses in (a field, a drop-down): what a caption names and a value fills. */
export const isFieldType = (type: string | null | undefined): boolean => type === "text_input" || type === "dropdown";

export const UIELEMENT_V1 = "uielement_v1" as const;

export const UIElementSchema = z.looseObject({
  schema_version: z.literal(UIELEMENT_V1),
  element_id: nonEmptyString,
  type: UIElementTypeSchema,
  role: nonEmptyString,
  bbox: BBoxSchema,
  label: z.string(),
  confidence: z.number().min(0).max(1),
  /** How it was found: heuristic_rectangle, ocr_text, vlm_query, manual… */
  detection_method: nonEmptyString,
  visual: z.looseObject({
    screenshot_path: z.string(),
    /** null in light modes, before the element is embedded. */
    embedding: EmbeddingRefSchema.nullable(),
  }),
  text: z.looseObject({
    raw: z.string(),
    normalized: z.string(),
    embedding: EmbeddingRefSchema.nullable(),
  }),
  properties: z.looseObject({
    is_clickable: z.boolean(),
    is_focusable: z.boolean(),
    is_dangerous: z.boolean(),
  }),
  context: z.looseObject({
    app_name: z.string(),
    window_title: z.string(),
    workflow_hint: z.string().nullable().optional(),
  }),
  tags: z.array(z.string()),
  /** What the element is and does, in a few words, by a vision-language model (property 4); absent without one. */
  semantic_description: z.string().optional(),
  /** States read from the screen by the learned detector, where it can tell them. */
  state: z.looseObject({ checked: z.boolean().optional(), selected: z.boolean().optional(), disabled: z.boolean().optional() }).optional(),
});
export type UIElement = z.infer<typeof UIElementSchema>;

/**
 * An element as listed inside a screen state. The design's own screen-state example lists
 * elements in short form (id, type, role, bbox, label, confidence), so inside `ui_elements`
 * the descriptive parts are optional; a standalone `uielement_v1` document must be complete.
 */
export const UIElementEntrySchema = UIElementSchema.partial({
  detection_method: true,
  visual: true,
  text: true,
  properties: true,
  context: true,
  tags: true,
});
export type UIElementEntry = z.infer<typeof UIElementEntrySchema>;
