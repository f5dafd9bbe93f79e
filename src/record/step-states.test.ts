// Each built step keeps its recorded screen state: properties 15 (every stored state embedding
// belongs to a step and a screen state), 24 (the recording's context is saved in the step) and 10
// (that context is part of the state embedding).
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeFrame } from "../core/frame.js";
import { readDocument, readDocumentAs } from "../core/schemas/documents.js";
import type { UIElement } from "../core/schemas/uielement.js";
import { cosine } from "../core/vectors.js";
import { viewCrop } from "../embedding/zoom-pyramid.js";
import { LayoutImageEmbedder } from "../embedding/layout-image-embedder.js";
import { MultiModalEmbeddingManager } from "../embedding/multimodal-embedding-manager.js";
import { NgramTextEmbedder } from "../embedding/ngram-text-embedder.js";
import { RAW_SESSION_V1 } from "./recorder.js";
import { readSession } from "./session.js";
import { contextInput } from "./step-states.js";
import { buildWorkflow, type BuildDeps } from "./template-builder.js";

const win = { id: "0x1", title: "Fiche client", app: "Yad", bbox: [100, 50, 500, 350] };
const field: UIElement = {
  schema_version: "uielement_v1", element_id: "el_1", type: "text_input", role: "name_field", bbox: [200, 100, 400, 130], label: "Nom client", confidence: 0.8, detection_method: "heuristic_rectangle",
  visual: { screenshot_path: "", embedding: null }, text: { raw: "", normalized: "", embedding: null }, properties: { is_clickable: true, is_focusable: true, is_dangerous: false }, context: { app_name: "", window_title: "", workflow_hint: null }, tags: [],
};

function session(): string {
  const dir = mkdtempSync(join(tmpdir(), "rpav-states-"));
  mkdirSync(join(dir, "shots"));
  const actions = [
    { kind: "click", x: 250, y: 115, button: 1 },
    { kind: "type", text: "Dupont" },
    { kind: "key", combo: "Return" },
  ].map((a, i) => ({ seq: i + 1, t: 1000 * (i + 1), window: win, before: `shots/b${i + 1}.png`, after: null, ...a }));
  const header = { schema_version: RAW_SESSION_V1, name: "Fiche client", app: "yad", started_at: "2026-12-02T10:00:00Z" };
  writeFileSync(join(dir, "session.jsonl"), `${[header, ...actions, { kind: "end", actions: 3 }].map((l) => JSON.stringify(l)).join("\n")}\n`);
  return dir;
}

/** A 800×600 screen whose window area shows stripes that depend on the screenshot (each step its own picture). */
const screen = (k: number) => {
  const data = new Uint8Array(800 * 600 * 3).fill(200);
  for (let y = 60; y < 340; y++) for (let x = 110; x < 490; x++) if ((x + k * 13) % 40 < 8 + 4 * k) data.fill(40, (y * 800 + x) * 3, (y * 800 + x) * 3 + 3);
  return makeFrame({ data, width: 800, height: 600, channels: 3 });
};

const manager = new MultiModalEmbeddingManager(new LayoutImageEmbedder(64), new NgramTextEmbedder(64));
const deps: BuildDeps = {
  reader: { read: async () => ({ elements: [field], lines: [{ text: "Nom client", bbox: [120, 105, 190, 125] }] }) },
  loadImage: async (p) => screen(Number(/b(\d)\.png$/.exec(p)?.[1] ?? 0)),
  saveIcon: async (name) => `icons/${name}`,
  embedState: (i) => manager.embed(i),
};

describe("recorded screen states of the steps", () => {
  it("property 15: every state embedding made by the build belongs to a step and to a screen state with a valid screen_state_id", async () => {
    const built = await buildWorkflow(readSession(session()), deps);
    readDocumentAs("workflow_v1", JSON.stringify(built.workflow), "wf");
    const steps = built.workflow.steps.filter((s) => s.action !== "wait_for");
    expect(steps.length).toBe(3);
    expect(built.screenStates).toHaveLength(3);
    const states = new Map(built.screenStates.map((s) => [s.screen_state_id, s]));
    for (const s of built.screenStates) readDocument(s, s.screen_state_id);
    for (const step of steps) {
      const st = states.get(step.screen_state_id!);
      expect(st, step.step_id).toBeDefined();
      expect(step.expect!.before.state_vector_id).toBe(st!.state_embedding.vector_id);
    }
    // Each vector's id is one of a screen state's (fused or component) or one of its crops a step names, and that screen state is a step's.
    const owned = new Set(built.screenStates.flatMap((s) => [s.state_embedding.vector_id, ...Object.values(s.state_embedding.components ?? {}).map((c) => (c as { vector_id: string }).vector_id)]));
    for (const step of steps) {
      const crops = step.expect!.before.state_view_vector_ids!;
      expect(crops).toHaveLength(4);
      for (const id of crops) expect(id).toContain(step.screen_state_id!);
      for (const id of crops) owned.add(id);
    }
    const stepStates = new Set(steps.map((s) => s.screen_state_id));
    expect(built.vectors.length).toBe(built.screenStates.length * (6 + 4));
    for (const v of built.vectors) expect(owned.has(v.vectorId), v.vectorId).toBe(true);
    for (const s of built.screenStates) expect(stepStates.has(s.screen_state_id)).toBe(true);
    // Distinct screens, distinct states.
    expect(new Set(steps.map((s) => s.screen_state_id)).size).toBe(3);
  });

  it("property 24: the workflow context present at recording is saved in each step's context", async () => {
    const built = await buildWorkflow(readSession(session()), deps);
    for (const s of built.workflow.steps) expect(s.context).toEqual({ current_workflow_candidate: built.workflow.workflow_id, tags: [], app_name: "Yad" });
    // Without a state embedder the context is still kept.
    const plain = await buildWorkflow(readSession(session()), { ...deps, embedState: undefined });
    expect(plain.workflow.steps.every((s) => s.context?.current_workflow_candidate === plain.workflow.workflow_id)).toBe(true);
    expect(plain.vectors).toEqual([]);
  });

  it("property 10: the stored state vector includes the step's context (the same screen under another workflow's context differs)", async () => {
    const built = await buildWorkflow(readSession(session()), deps);
    const step = built.workflow.steps[0]!;
    const stored = built.vectors.find((v) => v.vectorId === step.expect!.before.state_vector_id)!.vector;
    const frame = screen(1);
    const crop = makeFrame({ data: new Uint8Array(400 * 300 * 3), width: 400, height: 300, channels: 3, origin: [100, 50] });
    for (let y = 0; y < 300; y++) crop.data.set(frame.data.subarray(((y + 50) * 800 + 100) * 3, ((y + 50) * 800 + 500) * 3), y * 400 * 3);
    // What replay embeds: the window capture, with what perception read there in the window's pixels.
    const input = { frame: crop, detectedText: ["Nom client"], textBoxes: [{ text: "Nom client", bbox: [20, 55, 90, 75] as const }], windowTitle: "Fiche client", elements: [{ ...field, bbox: [100, 50, 300, 80] as [number, number, number, number] }] };
    const same = await manager.embed({ ...input, context: contextInput(step.context!) });
    const other = await manager.embed({ ...input, context: { workflowCandidate: "wf_autre_chose", tags: [], appName: "Yad" } });
    expect(cosine(stored, same.vector)).toBeGreaterThan(0.999);
    expect(cosine(stored, other.vector)).toBeLessThan(0.95);
    // Its crops: the top band 1/2 high is that band embedded (the field and its caption are inside it).
    const band = built.vectors.find((v) => v.vectorId === step.expect!.before.state_view_vector_ids!.find((id) => id.includes("state_top_2/")))!.vector;
    const bandFrame = viewCrop(crop, { zoom: 2, anchor: "top" });
    const bandSame = await manager.embed({ ...input, frame: bandFrame, context: contextInput(step.context!) });
    expect(bandFrame.height).toBe(150);
    expect(cosine(band, bandSame.vector)).toBeGreaterThan(0.999);
    expect(cosine(band, stored)).toBeLessThan(0.999);
  });
});
