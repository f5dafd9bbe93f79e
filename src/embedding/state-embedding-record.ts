// Writes a state embedding's vectors (the fused one and each component, separately, with their
// providers: properties 7 and 41) through a sink, and returns the `state_embedding` JSON of a
// screenstate_v1 document that points at them by vector_id.
import type { ScreenState } from "../core/schemas/screenstate.js";
import { vectorIdFor } from "../core/vector-ids.js";
import type { Vector } from "../core/vectors.js";
import { COMPONENTS, type StateEmbedding } from "./multimodal-embedding-manager.js";

export type VectorSink = (vectorId: string, provider: string, vector: Vector) => Promise<void>;


export async function persistStateEmbedding(emb: StateEmbedding, screenStateId: string, sink: VectorSink): Promise<ScreenState["state_embedding"]> {
  if (emb.mode !== "complete") {
    const vector_id = vectorIdFor("image", screenStateId);
    await sink(vector_id, emb.provider, emb.vector);
    return { provider: emb.provider, vector_id, components: null };
  }
  const components: Record<string, { provider: string; vector_id: string }> = {};
  for (const name of COMPONENTS) {
    const c = emb.components[name];
    if (!c) continue;
    const vector_id = vectorIdFor(name, screenStateId);
    await sink(vector_id, c.provider, c.vector);
    components[`${name}_embedding`] = { provider: c.provider, vector_id };
  }
  const vector_id = vectorIdFor("state", screenStateId);
  await sink(vector_id, emb.provider, emb.vector);
  return { provider: emb.provider, vector_id, components: components as NonNullable<ScreenState["state_embedding"]["components"]> };
}
