import { z } from "zod";
import { EmbeddingRefSchema, IsoTimestampSchema, TextBoxSchema, nonEmptyString } from "./common.js";
import { UIElementEntrySchema } from "./uielement.js";

export const SCREENSTATE_V1 = "screenstate_v1" as const;
export const SCREEN_STATE_MODES = ["light", "enriched", "complete"] as const;
export type ScreenStateMode = (typeof SCREEN_STATE_MODES)[number];

export const EMBEDDING_COMPONENT_KEYS = [
  "image_embedding",
  "text_embedding",
  "title_embedding",
  "ui_embedding",
  "context_embedding",
] as const;
export type EmbeddingComponentKey = (typeof EMBEDDING_COMPONENT_KEYS)[number];

export const EmbeddingComponentsSchema = z.looseObject({
  image_embedding: EmbeddingRefSchema,
  text_embedding: EmbeddingRefSchema,
  title_embedding: EmbeddingRefSchema,
  ui_embedding: EmbeddingRefSchema,
  context_embedding: EmbeddingRefSchema,
});

export const PerceptionSchema = z
  .looseObject({
    detected_text: z.array(z.string()),
    /** Words and lines with their boxes (property 19). Optional for data written before it existed. */
    text_boxes: z.array(TextBoxSchema).optional(),
    ocr_results: z.record(z.string(), z.unknown()).nullable().optional(),
  })
  .superRefine((p, ctx) => {
    if (!p.text_boxes) return;
    const boxed = new Set(p.text_boxes.map((b) => b.text));
    p.detected_text.forEach((t, i) => {
      if (!boxed.has(t)) ctx.addIssue({ code: "custom", path: ["detected_text", i], message: `"${t}" has no entry in text_boxes (every detected text needs its position)` });
    });
  });
export type Perception = z.infer<typeof PerceptionSchema>;

export const ScreenStateSchema = z
  .looseObject({
    schema_version: z.literal(SCREENSTATE_V1),
    mode: z.enum(SCREEN_STATE_MODES),
    screen_state_id: nonEmptyString,
    timestamp: IsoTimestampSchema,
    session_id: nonEmptyString,
    environment: z.looseObject({
      platform: nonEmptyString,
      display_scale: z.number().positive(),
    }),
    window: z.looseObject({
      app_name: z.string(),
      window_title: z.string(),
      screen_resolution: z.tuple([z.number().int().positive(), z.number().int().positive()]),
    }),
    raw: z.looseObject({ screenshot_path: z.string() }),
    perception: PerceptionSchema,
    ui_elements: z.array(UIElementEntrySchema),
    state_embedding: z.looseObject({
      provider: nonEmptyString,
      vector_id: nonEmptyString,
      /** null in light and enriched modes (one image vector); all five in complete mode. */
      components: EmbeddingComponentsSchema.nullable(),
    }),
    context: z.looseObject({
      current_workflow_candidate: z.string().nullable().optional(),
      tags: z.array(z.string()),
    }),
    processing_metadata: z
      .looseObject({
        detection_time_ms: z.number().nonnegative().optional(),
        embedding_time_ms: z.number().nonnegative().optional(),
        num_elements_detected: z.number().int().nonnegative().optional(),
        vlm_used: z.boolean().optional(),
      })
      .optional(),
  })
  .superRefine((s, ctx) => {
    if (s.mode === "complete" && s.state_embedding.components === null)
      ctx.addIssue({ code: "custom", path: ["state_embedding", "components"], message: 'mode "complete" needs all five embedding components' });
  });
export type ScreenState = z.infer<typeof ScreenStateSchema>;
