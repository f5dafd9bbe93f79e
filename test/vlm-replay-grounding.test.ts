// Replay's last-resort grounding through the VLM hook: elements and icon templates first, then
// the grounding model; its box snapped to a detected element; its evidence kept for the trace.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeFrame } from "../src/core/frame.js";
import type { Target } from "../src/core/schemas/workflow.js";
import { TraceBeforeSchema } from "../src/core/schemas/trace.js";
import { groundTarget, type PerceivedScreen } from "../src/replay/grounding.js";
import { ModelManager } from "../src/vlm/model-manager.js";
import { OllamaServer } from "../src/vlm/ollama-server.js";
import { QwenGrounder } from "../src/vlm/qwen-grounder.js";
import { RoleModel } from "../src/vlm/role-model.js";
import { closedPort, FakeOllama } from "./support/fake-ollama.js";

let fake: FakeOllama;
beforeAll(async () => {
  fake = new FakeOllama();
  await fake.start();
});
afterAll(() => fake.stop());

const grounder = (url: string) => {
  const server = new OllamaServer(url, { retries: 0 });
  return new QwenGrounder(new RoleModel({ role: "grounding", model: "qwen2.5vl:7b", server, manager: new ModelManager([server]) }));
};

// A window captured at scale 2, moved to (400, 300): the icon-only target (magenta) at frame (600, 200)–(680, 260).
const w = 1000, h = 700;
const data = new Uint8Array(w * h * 4).fill(255);
for (let y = 200; y < 260; y++) for (let x = 600; x < 680; x++) data[(y * w + x) * 4 + 1] = 0;
const frame = makeFrame({ data, width: w, height: h, channels: 4, scaleFactor: 2, origin: [400, 300] });
const target: Target = { type: "button", label: "", by_text: null, role: null, position_hint: "top-right", anchors: [], recorded_bbox: null, icon: null };
const el = { schema_version: "uielement_v1", element_id: "el_icon", type: "button", role: "interactive", bbox: [596, 196, 684, 264], label: "", confidence: 0.6 } as unknown as PerceivedScreen["elements"][number];

describe("replay's VLM hook", () => {
  it("grounds a target the elements cannot name, snapped to the detected element, with the model's evidence", async () => {
    const g = await groundTarget(target, frame, { elements: [el], lines: [] }, { vlm: grounder(fake.url) });
    expect(g).toMatchObject({ found: true, method: "vlm", bbox: [596, 196, 684, 264], vlm: { model: "qwen2.5vl:7b", snapped_to: "el_icon", cached: false } });
    if (!g.found) return;
    // The trace's before event accepts the evidence as written by the executor.
    const before = { type: "before", t: new Date().toISOString(), row: 0, step: 0, step_id: "step_001", attempt: 1, window: null, screenshot: null, origin: null, method: "vlm", bbox: [0, 0, 1, 1], score: g.score, ambiguous: false, candidates: [], decision: g.note, timings: {}, vlm: g.vlm };
    expect(TraceBeforeSchema.safeParse(before).success).toBe(true);
  });

  it("with the server down the step is not found, saying why", async () => {
    const g = await groundTarget(target, frame, { elements: [el], lines: [] }, { vlm: grounder(await closedPort()) });
    expect(g.found).toBe(false);
    if (!g.found) expect(g.reason).toMatch(/VLM unavailable \(No model server/);
  });
});
