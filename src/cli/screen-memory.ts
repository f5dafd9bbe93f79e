// Screens the store remembers: the default state embedder (the one `rpav start` and `rpav detect
// --remember` store states with), storing a detected screen as a complete screenstate_v1, and the
// new-screen check that gates the grounding model's region proposals (the design's _should_use_vlm).
import { join } from "node:path";
import { encodePng } from "../capture/png.js";
import { InvalidInputError } from "../core/errors.js";
import type { Frame } from "../core/frame.js";
import { timestampedId } from "../core/ids.js";
import type { ScreenNoveltyCheck } from "../core/providers/screen-novelty.js";
import type { Store } from "../core/providers/store.js";
import { readDocument } from "../core/schemas/documents.js";
import type { ScreenState } from "../core/schemas/screenstate.js";
import type { MultiModalEmbeddingManager, StateEmbedding } from "../embedding/multimodal-embedding-manager.js";
import { StoredStateNovelty } from "../embedding/screen-novelty.js";
import { persistStateEmbedding } from "../embedding/state-embedding-record.js";
import type { DetectionResult } from "../perception/ui-element-detector.js";
import { ContentFiles } from "../store/content-files.js";
import { VectorSearch } from "../store/vector-search.js";
import { createStateEmbedder } from "./state-embedder.js";
import type { VlmConfig, VlmRegionsMode } from "./vlm-config.js";

/** The state embedder stored screens are embedded with: the one of recording and replay. */
export const defaultStateManager = createStateEmbedder;

export interface ScreenMeta {
  appName: string;
  title: string;
  sessionId: string;
  tags: string[];
}

/** The complete-mode state embedding of a detected screen (image, text, title, elements, context). */
export function embedDetectedScreen(manager: MultiModalEmbeddingManager, frame: Frame, det: DetectionResult, meta: ScreenMeta): Promise<StateEmbedding> {
  return manager.embed({ frame, windowTitle: meta.title, detectedText: det.perception.detected_text, textBoxes: det.perception.text_boxes.filter((b) => b.level === "line"), elements: det.elements, context: { appName: meta.appName, tags: meta.tags } }, "complete");
}

/** processing_metadata of a screen state from its detection: times, the model's part, what failed. */
export function processingMetadata(det: DetectionResult): NonNullable<ScreenState["processing_metadata"]> {
  const m = det.metadata;
  return {
    detection_time_ms: Math.round(m.detection_time_ms),
    num_elements_detected: m.num_elements_detected,
    vlm_used: m.vlm_used,
    ...(m.vlm_gate ? { vlm_gate: { novel: m.vlm_gate.novel, nearest: m.vlm_gate.nearest, min_cosine: m.vlm_gate.minCosine, stored: m.vlm_gate.stored } } : {}),
    ...(m.vlm_error ? { vlm_error: m.vlm_error } : {}),
    timings_ms: Object.fromEntries(Object.entries(m.timings).map(([k, v]) => [k, Math.round(v * 10) / 10])),
    ...(m.failed ? { detector_failed: m.failed } : {}),
    region_errors: m.region_errors,
  };
}

/**
 * Stores a detected screen: its screenshot (content-addressed under <data dir>/screens), its
 * vectors (fused and per component) and a complete screenstate_v1 pointing at them.
 */
export async function rememberScreen(store: Store, dataDir: string, frame: Frame, det: DetectionResult, emb: StateEmbedding, meta: ScreenMeta): Promise<ScreenState> {
  const shot = await new ContentFiles(join(dataDir, "screens")).put(await encodePng(frame));
  const id = timestampedId("screen");
  const state_embedding = await persistStateEmbedding(emb, id, (vectorId, provider, vector) => store.putVector(vectorId, provider, vector));
  const state: ScreenState = {
    schema_version: "screenstate_v1",
    mode: "complete",
    screen_state_id: id,
    timestamp: new Date().toISOString(),
    session_id: meta.sessionId,
    environment: { platform: process.platform, display_scale: frame.scaleFactor },
    window: { app_name: meta.appName, window_title: meta.title, screen_resolution: [frame.width, frame.height] },
    raw: { screenshot_path: shot.path },
    perception: det.perception,
    ui_elements: det.elements,
    state_embedding,
    context: { current_workflow_candidate: null, tags: meta.tags },
    processing_metadata: processingMetadata(det),
  };
  readDocument(state, id); // what we store is valid screenstate_v1
  await store.putScreenState(state);
  return state;
}

/**
 * When the grounding model proposes regions: `--vlm-regions` (true or "new": new screens only;
 * "always"), `--no-vlm` (vlm false: never), else the data directory's config ("off" by default).
 */
export function regionsMode(flag: string | boolean | undefined, vlm: boolean | undefined, config: Pick<VlmConfig, "enabled" | "regions">): VlmRegionsMode {
  if (vlm === false) return "off";
  if (flag === undefined || flag === false) return config.enabled ? config.regions : "off";
  if (flag === true || flag === "new") return "new_screens";
  if (flag === "always") return "always";
  throw new InvalidInputError(`--vlm-regions ${JSON.stringify(flag)}: write --vlm-regions (new screens only), --vlm-regions new or --vlm-regions always.`);
}

/** The new-screen check over the store's state vectors, for mode "new_screens". */
export function newScreenGate(store: Store, manager: MultiModalEmbeddingManager, config: Pick<VlmConfig, "newScreenCosine">): ScreenNoveltyCheck {
  return new StoredStateNovelty(manager, new VectorSearch(store, { kind: "exact" }), config.newScreenCosine !== undefined ? { minCosine: config.newScreenCosine } : {});
}
