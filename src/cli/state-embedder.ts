// The one state embedder of recording and replay (a step's recorded state and the live screen must
// be embedded alike to be compared), and how a built workflow lands in the store: its steps'
// vectors, their screen states and the workflow version in one transaction, so that no stored
// state embedding is left without its step and screen state (property 15).
import type { Store } from "../core/providers/store.js";
import type { ScreenState } from "../core/schemas/screenstate.js";
import type { Workflow } from "../core/schemas/workflow.js";
import type { Vector } from "../core/vectors.js";
import { LayoutImageEmbedder } from "../embedding/layout-image-embedder.js";
import { MultiModalEmbeddingManager } from "../embedding/multimodal-embedding-manager.js";
import { NgramTextEmbedder } from "../embedding/ngram-text-embedder.js";
import { OcrTextEmbedder } from "../embedding/ocr-text-embedder.js";

export const STATE_DIMENSIONS = 512;

/** Image layout_v2, screen text ocr_text_v1, title n-grams, UI layout, context (multimodal_fusion_v2). */
export function createStateEmbedder(dim = STATE_DIMENSIONS): MultiModalEmbeddingManager {
  return new MultiModalEmbeddingManager(new LayoutImageEmbedder(dim), new NgramTextEmbedder(dim), { screenText: new OcrTextEmbedder(dim) });
}

/** Stores a built workflow with its steps' screen states and vectors; returns the workflow's version. */
export async function storeBuiltWorkflow(store: Store, built: { workflow: Workflow; screenStates: readonly ScreenState[]; vectors: ReadonlyArray<{ vectorId: string; provider: string; vector: Vector }> }): Promise<number> {
  return store.transaction(async () => {
    if (built.vectors.length) await store.putVectors(built.vectors);
    for (const s of built.screenStates) await store.putScreenState(s);
    return store.putWorkflow(built.workflow);
  });
}
