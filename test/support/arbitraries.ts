// fast-check generators for the v1 data model, shared by the property tests.
import fc from "fast-check";
import { UI_ELEMENT_TYPES, type UIElement } from "../../src/core/schemas/uielement.js";
import { EMBEDDING_COMPONENT_KEYS, SCREEN_STATE_MODES, type ScreenState, type ScreenStateMode } from "../../src/core/schemas/screenstate.js";
import type { TextBox } from "../../src/core/schemas/common.js";

const word = fc.stringMatching(/^[A-Za-zÀ-ÿ0-9]{1,10}$/);
export const labelArb = fc.array(word, { minLength: 1, maxLength: 4 }).map((w) => w.join(" "));

export const bboxArb = fc
  .tuple(fc.integer({ min: 0, max: 1900 }), fc.integer({ min: 0, max: 1060 }), fc.integer({ min: 1, max: 400 }), fc.integer({ min: 1, max: 200 }))
  .map(([x, y, w, h]) => [x, y, x + w, y + h] as [number, number, number, number]);

const embeddingRefArb = fc.record({
  provider: fc.constantFrom("openclip_ViT-B-32", "clip_text", "ngram_hash_v1", "layout_v1"),
  vector_id: fc.stringMatching(/^data\/embeddings\/[a-z0-9_/]{1,30}\.npy$/),
});

export const uiElementArb: fc.Arbitrary<UIElement> = fc.record({
  schema_version: fc.constant("uielement_v1" as const),
  element_id: fc.stringMatching(/^el_[a-f0-9]{8,20}$/),
  type: fc.constantFrom(...UI_ELEMENT_TYPES),
  role: fc.constantFrom("validate_invoice", "search_field", "primary_action", "cancel", "save", "delete", "unknown"),
  bbox: bboxArb,
  label: labelArb,
  confidence: fc.double({ min: 0, max: 1, noNaN: true }),
  detection_method: fc.constantFrom("heuristic_rectangle", "ocr_text", "vlm_query", "manual"),
  visual: fc.record({ screenshot_path: fc.string(), embedding: fc.option(embeddingRefArb, { nil: null }) }),
  text: fc.record({ raw: fc.string(), normalized: fc.string(), embedding: fc.option(embeddingRefArb, { nil: null }) }),
  properties: fc.record({ is_clickable: fc.boolean(), is_focusable: fc.boolean(), is_dangerous: fc.boolean() }),
  context: fc.record({ app_name: fc.string(), window_title: fc.string(), workflow_hint: fc.option(fc.string(), { nil: null }) }),
  tags: fc.array(fc.constantFrom("primary_action", "billing", "form", "dangerous")),
});

export const textBoxesArb: fc.Arbitrary<TextBox[]> = fc.array(
  fc.record({ text: labelArb, bbox: bboxArb, confidence: fc.double({ min: 0, max: 1, noNaN: true }), level: fc.constantFrom("word" as const, "line" as const) }),
  { maxLength: 12 },
);

const isoArb = fc.date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2100-01-01T00:00:00Z"), noInvalidDate: true }).map((d) => d.toISOString());

export function screenStateArb(modeArb: fc.Arbitrary<ScreenStateMode> = fc.constantFrom(...SCREEN_STATE_MODES)): fc.Arbitrary<ScreenState> {
  return modeArb.chain((mode) =>
    fc.record({
      schema_version: fc.constant("screenstate_v1" as const),
      mode: fc.constant(mode),
      screen_state_id: fc.stringMatching(/^screen_[A-Za-z0-9_.-]{1,30}$/),
      timestamp: isoArb,
      session_id: fc.stringMatching(/^session_[a-z0-9]{1,12}$/),
      environment: fc.record({ platform: fc.constantFrom("linux", "windows", "macos"), display_scale: fc.constantFrom(1, 1.25, 1.5, 2) }),
      window: fc.record({
        app_name: fc.string(),
        window_title: fc.string(),
        screen_resolution: fc.tuple(fc.integer({ min: 320, max: 7680 }), fc.integer({ min: 200, max: 4320 })),
      }),
      raw: fc.record({ screenshot_path: fc.string() }),
      perception: textBoxesArb.map((boxes) => ({ detected_text: boxes.filter((b) => b.level === "line").map((b) => b.text), text_boxes: boxes })),
      ui_elements: mode === "light" ? fc.constant([]) : fc.array(uiElementArb, { maxLength: 5 }),
      state_embedding: fc.record({
        provider: fc.constantFrom("multimodal_fusion_v1", "openclip_ViT-B-32"),
        vector_id: fc.stringMatching(/^data\/embeddings\/screens\/[a-z0-9_]{1,20}\.npy$/),
        components:
          mode === "complete"
            ? fc.record(Object.fromEntries(EMBEDDING_COMPONENT_KEYS.map((k) => [k, embeddingRefArb])) as Record<(typeof EMBEDDING_COMPONENT_KEYS)[number], typeof embeddingRefArb>)
            : fc.constant(null),
      }),
      context: fc.record({ current_workflow_candidate: fc.option(fc.string(), { nil: null }), tags: fc.array(fc.string(), { maxLength: 3 }) }),
    }),
  ) as fc.Arbitrary<ScreenState>;
}

/** Property runs: at least 100 each, as the issue asks. */
export const RUNS = { numRuns: 200 } as const;
