import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeFrame } from "../core/frame.js";
import { cosine } from "../core/vectors.js";
import { persistStateEmbedding } from "../embedding/state-embedding-record.js";
import type { ScreenState } from "../core/schemas/screenstate.js";
import type { Workflow } from "../core/schemas/workflow.js";
import { SqliteStore } from "../store/sqlite-store.js";
import { createStateEmbedder, storeBuiltWorkflow } from "./state-embedder.js";

describe("a built workflow in the store", () => {
  it("lands with its steps' screen states and vectors in one transaction; the vector replay reads back is the one recorded (property 15)", async () => {
    const store = SqliteStore.open(mkdtempSync(join(tmpdir(), "rpav-states-store-")));
    try {
      const emb = await createStateEmbedder().embed({ frame: makeFrame({ data: new Uint8Array(64 * 48 * 3).fill(90), width: 64, height: 48, channels: 3 }), detectedText: ["Nom"], windowTitle: "Fiche", context: { workflowCandidate: "wf_fiche", tags: [] } });
      const vectors: Array<{ vectorId: string; provider: string; vector: Float32Array }> = [];
      const state_embedding = await persistStateEmbedding(emb, "screen_a", async (vectorId, provider, vector) => void vectors.push({ vectorId, provider, vector }));
      const state: ScreenState = { schema_version: "screenstate_v1", mode: "complete", screen_state_id: "screen_a", timestamp: "2026-12-02T10:00:00Z", session_id: "s", environment: { platform: "linux", display_scale: 1 }, window: { app_name: "Yad", window_title: "Fiche", screen_resolution: [64, 48] }, raw: { screenshot_path: "/x.png" }, perception: { detected_text: ["Nom"] }, ui_elements: [], state_embedding, context: { current_workflow_candidate: "wf_fiche", tags: [] } };
      const wf = { schema_version: "workflow_v1", workflow_id: "wf_fiche", name: "Fiche", app: "yad", created_at: "2026-12-02T10:00:00Z", source_session: "s", variables: [], steps: [{ step_id: "step_001", action: "key", intention: "Entrée", by_text: null, target: null, combo: "Return", variables: {}, expected_state: "", expected_result: "", window: { title: "Fiche", app: "Yad" }, screen_state_id: "screen_a" }] } as Workflow;
      expect(await storeBuiltWorkflow(store, { workflow: wf, screenStates: [state], vectors })).toBe(1);
      const back = await store.getVector(state_embedding.vector_id);
      expect(back?.provider).toBe("multimodal_fusion_v2");
      expect(cosine(back!.vector, emb.vector)).toBeCloseTo(1, 5);
      expect((await store.getScreenState("screen_a"))?.state_embedding.vector_id).toBe(state_embedding.vector_id);
      // A failing write leaves nothing behind: no vector without its step and screen state.
      await expect(storeBuiltWorkflow(store, { workflow: { ...wf, workflow_id: "" } as Workflow, screenStates: [{ ...state, screen_state_id: "screen_b" }], vectors: [{ vectorId: "v/orphan", provider: "p", vector: Float32Array.from([1, 0]) }] })).rejects.toThrow();
      expect(await store.getVector("v/orphan")).toBeUndefined();
      expect(await store.getScreenState("screen_b")).toBeUndefined();
    } finally {
      await store.close();
    }
  });
});
