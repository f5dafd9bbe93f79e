// Enrichment and decisions against the fake Ollama server: a recorded session built into a
// workflow, then enriched by the understanding model with the screens of each step.
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeFrame } from "../src/core/frame.js";
import { ModelAnswerInvalidError } from "../src/core/errors.js";
import { readDocumentAs } from "../src/core/schemas/documents.js";
import type { UIElement } from "../src/core/schemas/uielement.js";
import type { Workflow } from "../src/core/schemas/workflow.js";
import { encodePng, readImageFile } from "../src/capture/png.js";
import { RAW_SESSION_V1 } from "../src/record/recorder.js";
import { readSession } from "../src/record/session.js";
import { stepScreenshots } from "../src/record/step-screens.js";
import { buildWorkflow, type BuildDeps } from "../src/record/template-builder.js";
import { AnswerCache } from "../src/vlm/answer-cache.js";
import { ModelDecider } from "../src/vlm/decider.js";
import { enrichWorkflow } from "../src/vlm/enricher.js";
import { ModelManager } from "../src/vlm/model-manager.js";
import { OllamaServer } from "../src/vlm/ollama-server.js";
import { RoleModel } from "../src/vlm/role-model.js";
import { closedPort, FakeOllama, type FakeRequest } from "./support/fake-ollama.js";

const win = { id: "0x1", title: "Nouveau patient", app: "Yad", bbox: [0, 0, 640, 480] };
const field = (id: string, label: string, bbox: [number, number, number, number]): UIElement => ({
  schema_version: "uielement_v1", element_id: id, type: "text_input", role: "name_field", bbox, label, confidence: 0.8, detection_method: "heuristic_rectangle",
  visual: { screenshot_path: "", embedding: null }, text: { raw: "", normalized: "", embedding: null }, properties: { is_clickable: true, is_focusable: true, is_dangerous: false }, context: { app_name: "", window_title: "", workflow_hint: null }, tags: [],
});

/** The understanding model as the fake plays it: French texts built from the facts it is given, {{variables}} kept. */
function gemma(req: FakeRequest): string {
  const user = req.messages.find((m) => m.role === "user")!.content;
  const facts = JSON.parse(user.slice(user.indexOf("{"), user.indexOf("\n}") + 2)) as { action: string; cible: { libellé: string } | null; intention_proposée: string; fenêtre: string };
  const vars = [...facts.intention_proposée.matchAll(/\{\{[a-z0-9_]+\}\}/g)].map((m) => m[0]);
  return JSON.stringify({
    intention: facts.action === "type" ? `Renseigner ${vars.join(" ")} comme ${facts.cible?.libellé ?? "texte"} du patient` : `Activer « ${facts.cible?.libellé ?? facts.action} » pour saisir le patient`,
    expected_state: `Formulaire « ${facts.fenêtre} » ouvert (${req.images.length} image(s) vues, ${req.images.map((i) => `${i.sentWidth}×${i.sentHeight}`).join(", ")})`,
    expected_result: facts.action === "type" ? "Le champ contient la valeur saisie" : "Le champ a le focus",
    target_description: facts.cible ? `champ de saisie du ${facts.cible.libellé.toLowerCase()} du patient` : null,
  });
}

let fake: FakeOllama;
let dir: string;
beforeEach(async () => {
  fake = new FakeOllama({ respond: gemma });
  await fake.start();
  dir = mkdtempSync(join(tmpdir(), "rpav-enrich-"));
});
afterEach(async () => {
  await fake.stop();
  rmSync(dir, { recursive: true, force: true });
});

function understanding(url = fake.url, cache?: AnswerCache): RoleModel {
  const server = new OllamaServer(url, { retryDelayMs: 10 });
  return new RoleModel({ role: "understanding", model: "gemma4:e4b", server, manager: new ModelManager([server]), cache });
}

/** A recorded session: click Nom, type, click Prénom, type; a screenshot before and after each. */
async function recordedSession(): Promise<{ dir: string; workflow: Workflow }> {
  const s = join(dir, "session");
  mkdirSync(join(s, "shots"), { recursive: true });
  const shot = async (name: string, shade: number) => {
    writeFileSync(join(s, "shots", name), await encodePng(makeFrame({ data: new Uint8Array(640 * 480 * 3).fill(shade), width: 640, height: 480, channels: 3 })));
    return `shots/${name}`;
  };
  const actions = [
    { kind: "click", x: 200, y: 110, button: 1 },
    { kind: "type", text: "Dupont" },
    { kind: "click", x: 200, y: 160, button: 1 },
    { kind: "type", text: "Zoë" },
  ];
  const lines = [JSON.stringify({ schema_version: RAW_SESSION_V1, name: "Nouveau patient", app: "yad", started_at: "2026-12-02T06:00:00Z" })];
  for (const [i, a] of actions.entries()) lines.push(JSON.stringify({ seq: i + 1, t: 2000 * (i + 1), window: win, before: await shot(`${i}-b.png`, 200 + i), after: await shot(`${i}-a.png`, 210 + i), ...a }));
  lines.push(JSON.stringify({ kind: "end", actions: actions.length }));
  writeFileSync(join(s, "session.jsonl"), `${lines.join("\n")}\n`);
  const deps: BuildDeps = {
    reader: { read: async () => ({ elements: [field("el_nom", "Nom", [150, 100, 400, 125]), field("el_prenom", "Prénom", [150, 150, 400, 175])], lines: [] }) },
    loadImage: (p) => readImageFile(p),
    saveIcon: async (name) => `icons/${name}`,
  };
  return { dir: s, workflow: (await buildWorkflow(readSession(s), deps)).workflow };
}

describe("enrichment (build phase 1)", () => {
  it("writes each step's intention, expected state and result and its target's description from the model, with the step's screens", async () => {
    const { dir: sdir, workflow } = await recordedSession();
    const { shots, problem } = stepScreenshots(workflow, readSession(sdir));
    expect(problem).toBeUndefined();
    const r = await enrichWorkflow(workflow, async (s) => ({ before: await readImageFile(join(sdir, shots.get(s.step_id)!.before!)), after: await readImageFile(join(sdir, shots.get(s.step_id)!.after!)) }), understanding());
    expect(r.vlm_used).toBe(true);
    expect(r.enriched).toEqual(["step_001", "step_002", "step_003", "step_004"]);
    readDocumentAs("workflow_v1", JSON.stringify(r.workflow), "enriched");
    const [c1, t1] = r.workflow.steps;
    expect(c1).toMatchObject({ intention: "Activer « Nom » pour saisir le patient", expected_result: "Le champ a le focus" });
    expect(c1!.target!.semantic_description).toBe("champ de saisie du nom du patient");
    expect(t1!.intention).toBe("Renseigner {{nom}} comme Nom du patient");
    expect(t1!.expected_state).toContain("2 image(s) vues, 640×480, 640×480");
    expect(r.workflow.enrichment).toMatchObject({ model: "gemma4:e4b", steps: r.enriched });
    // The screens of each step, in order: before and after of the same action.
    expect(fake.requests.map((q) => q.images.map((i) => i.rgb[0]))).toEqual([[200, 210], [201, 211], [202, 212], [203, 213]]);
    // The input workflow is untouched.
    expect(workflow.steps[0]!.intention).toBe("Cliquer sur le champ « Nom »");
  });

  it("keeps the deterministic texts of a step whose answer drops a {{variable}} (after one retry)", async () => {
    const { workflow } = await recordedSession();
    fake.respond = (req) => (req.messages.at(-1)!.content.includes("{{nom}}") || req.messages.some((m) => m.content.includes("not valid")) ? JSON.stringify({ intention: "Saisir le nom", expected_state: "Formulaire", expected_result: "Rempli", target_description: null }) : gemma(req));
    const r = await enrichWorkflow(workflow, async () => undefined, understanding());
    expect(r.enriched).toEqual(["step_001", "step_003", "step_004"]);
    expect(r.workflow.steps[1]!.intention).toBe("Saisir {{nom}} dans le champ « Nom »");
    expect(r.warnings[0]).toMatch(/step_002: .*must keep \{\{nom\}\}/);
  });

  it("enriches a committed demo workflow (text only) without breaking its variables", async () => {
    const demo = readDocumentAs("workflow_v1", readFileSync("demos/yad-patient/workflow.json", "utf8"), "demo");
    const r = await enrichWorkflow(demo, async () => undefined, understanding());
    expect(r.enriched.length).toBe(demo.steps.filter((s) => s.action !== "wait_for").length);
    readDocumentAs("workflow_v1", JSON.stringify(r.workflow), "enriched demo");
    for (const [i, s] of demo.steps.entries()) for (const v of s.intention.match(/\{\{[a-z0-9_]+\}\}/g) ?? []) expect(r.workflow.steps[i]!.intention).toContain(v);
  });

  it("without a server nothing changes: vlm_used false, one warning", async () => {
    const { workflow } = await recordedSession();
    const r = await enrichWorkflow(workflow, async () => undefined, understanding(await closedPort()));
    expect(r.vlm_used).toBe(false);
    expect(r.workflow).toEqual(workflow);
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0]).toMatch(/deterministic texts stay/);
  });

  it("a second build of the same session is answered from the cache", async () => {
    const { workflow } = await recordedSession();
    const cache = new AnswerCache(join(dir, "cache"));
    await enrichWorkflow(workflow, async () => undefined, understanding(fake.url, cache));
    const n = fake.requests.length;
    const again = await enrichWorkflow(workflow, async () => undefined, understanding(fake.url, cache));
    expect(fake.requests.length).toBe(n);
    expect(again.enriched).toHaveLength(4);
  });
});

describe("decisions (MESO, text only)", () => {
  const request = { expected: "Bloc-notes ouvert avec un document vide", actual: "Bloc-notes ouvert avec du contenu existant", planned: "Taper du texte", options: [{ id: "execute", description: "taper quand même" }, { id: "new_tab", description: "ouvrir un nouvel onglet avant de taper" }, { id: "ask", description: "demander à une personne" }] };
  it("chooses among the options given, with a JSON schema answer and no image", async () => {
    fake.respond = () => JSON.stringify({ chosen: "new_tab", reason: "Le document n'est pas vide." });
    const d = await new ModelDecider(understanding()).decide(request);
    expect(d).toMatchObject({ chosen: "new_tab", by: "model", model: "gemma4:e4b", cached: false });
    expect(fake.requests[0]!.images).toHaveLength(0);
    expect(fake.requests[0]!.format).toMatchObject({ properties: { chosen: { enum: ["execute", "new_tab", "ask"] } } });
  });
  it("an option it was not given is refused (asked again once, then model_answer_invalid)", async () => {
    fake.respond = () => JSON.stringify({ chosen: "delete_everything", reason: "pourquoi pas" });
    await expect(new ModelDecider(understanding()).decide(request)).rejects.toBeInstanceOf(ModelAnswerInvalidError);
    expect(fake.requests).toHaveLength(2);
  });
});
