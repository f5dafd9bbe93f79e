import { appendFileSync, mkdtempSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { InvalidInputError, SchemaVersionError } from "../core/errors.js";
import { makeFrame } from "../core/frame.js";
import { readDocumentAs } from "../core/schemas/documents.js";
import type { UIElement } from "../core/schemas/uielement.js";
import { rpav } from "../../test/support/cli.js";
import { encodePng } from "../capture/png.js";
import { SqliteStore } from "../store/sqlite-store.js";
import { paintOver, RAW_SESSION_V1, type SessionAction } from "./recorder.js";
import { readSession } from "./session.js";
import { buildWorkflow, dataType, type BuildDeps } from "./template-builder.js";
import { IconClassifier } from "../perception/icon-classifier.js";
import { paintIcon } from "../../test/support/drawn-icons.js";
import { variableNameFrom } from "./target-cues.js";

const header = { schema_version: RAW_SESSION_V1, name: "Facture", app: "mousepad", started_at: "2026-11-30T10:00:00Z" };
const win = { id: "0x1", title: "Facture - Mousepad", app: "Mousepad", bbox: [0, 0, 800, 600] };
const field: UIElement = {
  schema_version: "uielement_v1", element_id: "el_1", type: "text_input", role: "name_field", bbox: [100, 100, 300, 130], label: "Nom client", confidence: 0.8, detection_method: "heuristic_rectangle",
  visual: { screenshot_path: "", embedding: null }, text: { raw: "", normalized: "", embedding: null }, properties: { is_clickable: true, is_focusable: true, is_dangerous: false }, context: { app_name: "", window_title: "", workflow_hint: null }, tags: [],
};

function session(actions: Partial<SessionAction>[], opts: { end?: boolean; tail?: string; png?: Buffer } = {}): string {
  const dir = mkdtempSync(join(tmpdir(), "rpav-sess-"));
  mkdirSync(join(dir, "shots"));
  const lines = [JSON.stringify(header), ...actions.map((a, i) => JSON.stringify({ seq: i + 1, t: 1000 * (i + 1), window: win, before: "shots/b.png", after: null, ...a }))];
  if (opts.end !== false) lines.push(JSON.stringify({ kind: "end", actions: actions.length }));
  writeFileSync(join(dir, "session.jsonl"), `${lines.join("\n")}\n`);
  if (opts.tail) appendFileSync(join(dir, "session.jsonl"), opts.tail);
  if (opts.png) writeFileSync(join(dir, "shots", "b.png"), opts.png);
  return dir;
}

const deps: BuildDeps = {
  reader: { read: async () => ({ elements: [field], lines: [{ text: "Nom client", bbox: [20, 105, 90, 125] }, { text: "Facture n° 12", bbox: [20, 20, 200, 40] }] }) },
  loadImage: async () => makeFrame({ data: new Uint8Array(800 * 600 * 4), width: 800, height: 600, channels: 4 }),
  saveIcon: async (name) => `icons/${name}`,
};

describe("session reading", () => {
  it("uses every complete action and reports a tail cut by a crash", () => {
    const dir = session([{ kind: "click", x: 150, y: 115, button: 1 }], { end: false, tail: '{"seq":2,"kind":"type","te' });
    const s = readSession(dir);
    expect(s.actions).toHaveLength(1);
    expect(s.ended).toBe(false);
    expect(s.truncatedTail).toContain('"seq":2');
  });

  it("refuses a folder without a session, a newer session format, and an empty session", async () => {
    expect(() => readSession(tmpdir() + "/nope")).toThrow(InvalidInputError);
    const dir = session([]);
    writeFileSync(join(dir, "session.jsonl"), `${JSON.stringify({ ...header, schema_version: "rawsession_v9" })}\n`);
    expect(() => readSession(dir)).toThrow(SchemaVersionError);
    await expect(buildWorkflow(readSession(session([])), deps)).rejects.toThrow(/no action/);
  });
});

describe("template builder", () => {
  it("click + typing → a target with label, role, anchors and position; typed text → a typed variable", async () => {
    const dir = session([{ kind: "click", x: 150, y: 115, button: 1 }, { kind: "type", text: "Dupont" }, { kind: "key", combo: "ctrl+s" }]);
    const { workflow, warnings } = await buildWorkflow(readSession(dir), deps);
    expect(warnings).toEqual([]);
    readDocumentAs("workflow_v1", JSON.stringify(workflow), "wf");
    const [click, type, key] = workflow.steps;
    expect(click).toMatchObject({ action: "click", intention: "Cliquer sur le champ « Nom client »", by_text: "Nom client" });
    expect(click!.target).toMatchObject({ type: "text_input", role: "name_field", position_hint: "top-left", anchors: ["Facture n° 12"], icon: null });
    expect(type).toMatchObject({ action: "type", text: "{{nom_client}}", variables: { nom_client: "Dupont" }, intention: "Saisir {{nom_client}} dans le champ « Nom client »" });
    expect(key).toMatchObject({ action: "key", combo: "ctrl+s", intention: "Appuyer sur ctrl+s" });
    expect(workflow.variables).toEqual([{ name: "nom_client", type: "name", example: "Dupont", secret: false, steps: ["step_002"], description: "saisi dans Nom client" }]);
    expect(click!.expected_state).toBe("Fenêtre « Facture - Mousepad » (Mousepad) ; à l'écran : Nom client · Facture n° 12");
  });

  it("two clicks at one place within 400 ms are a double click; a click on a flat area is a region of the window, with a warning, no icon", async () => {
    const dir = session([{ kind: "click", x: 500, y: 400, button: 1, t: 1000 }, { kind: "click", x: 501, y: 400, button: 1, t: 1200 }, { kind: "click", x: 500, y: 400, button: 3, t: 5000 }]);
    const { workflow, warnings } = await buildWorkflow(readSession(dir), deps);
    expect(workflow.steps.map((s) => s.action)).toEqual(["double_click", "right_click"]);
    expect(workflow.steps[0]!.target).toMatchObject({ icon: null, region: true, window_box: [480, 380, 520, 420], window_size: [800, 600] });
    expect(workflow.steps[0]!.intention).toBe("Double-cliquer sur la zone à 63 % × 67 % de la fenêtre « Facture - Mousepad »");
    expect(warnings.filter((w) => /flat/.test(w))).toHaveLength(2);
  });

  it("a list the detector took for one tall field: the row clicked (right of its text) is the target, named by its own text, never by the row above", async () => {
    // A bordered white list box (100…500 × 100…400) on a grey window; its rows read by OCR; the detector saw its lower
    // part as one tall « field » and named it by the row above it, as a caption.
    const data = new Uint8Array(800 * 600 * 3).fill(236);
    for (let y = 100; y < 400; y++) for (let x = 100; x < 500; x++) data.fill(y === 100 || y === 399 || x === 100 || x === 499 ? 120 : 255, (y * 800 + x) * 3, (y * 800 + x) * 3 + 3);
    const frame = makeFrame({ data, width: 800, height: 600, channels: 3 });
    const rows = ["Dossier 2026-012 — Petit", "Dossier 2026-013 — Moreau", "Dossier 2026-014 — Dupont", "Dossier 2026-015 — Laurent", "Dossier 2026-016 — Simon"].map((text, i) => ({ text, bbox: [110, 110 + 24 * i, 290, 124 + 24 * i] as [number, number, number, number] }));
    const tall: UIElement = { ...field, element_id: "el_2", bbox: [102, 156, 498, 398], label: "Dossier 2026-013 — Moreau" };
    const dir = session([{ kind: "click", x: 350, y: 166, button: 1 }]);
    const { workflow } = await buildWorkflow(readSession(dir), { ...deps, reader: { read: async () => ({ elements: [tall], lines: rows }) }, loadImage: async () => frame });
    expect(workflow.steps[0]!.target).toMatchObject({ label: "Dossier 2026-014 — Dupont", recorded_bbox: [110, 158, 290, 172] });
    expect(workflow.steps[0]!.target!.anchors).toContain("Dossier 2026-013 — Moreau");
  });

  it("a click in an empty area inside a drawn panel (a canvas) keeps the panel and where in it the click was", async () => {
    const panelled = () => {
      const data = new Uint8Array(800 * 600 * 4).fill(240);
      for (let y = 300; y < 500; y++) for (let x = 400; x < 700; x++) data.fill(y === 300 || y === 499 || x === 400 || x === 699 ? 120 : 255, (y * 800 + x) * 4, (y * 800 + x) * 4 + 3);
      return makeFrame({ data, width: 800, height: 600, channels: 4 });
    };
    const dir = session([{ kind: "click", x: 500, y: 400, button: 1 }]);
    const { workflow } = await buildWorkflow(readSession(dir), { ...deps, loadImage: async () => panelled() });
    expect(workflow.steps[0]!.target).toMatchObject({ region: true, panel: { window_box: [401, 301, 699, 499], at: [0.332, 0.5] } });
    readDocumentAs("workflow_v1", JSON.stringify(workflow), "wf");
  });

  it("an icon crop is kept when it has contrast: clipped to the window, from the screen before the pointer came (no hover)", async () => {
    // A textured icon at (500, 400); the "at press" screen has a hover tint over it.
    const paint = (hover: boolean) => {
      const data = new Uint8Array(800 * 600 * 4).fill(230);
      for (let y = 380; y < 420; y++) for (let x = 480; x < 520; x++) data.fill((x + y) % 8 < 4 ? 20 : hover ? 250 : 200, (y * 800 + x) * 4, (y * 800 + x) * 4 + 3);
      return makeFrame({ data, width: 800, height: 600, channels: 4 });
    };
    const saved: { name: string; frame: ReturnType<typeof makeFrame> }[] = [];
    const d: BuildDeps = { ...deps, loadImage: async (p) => paint(p.endsWith("b.png")), saveIcon: async (name, frame) => (saved.push({ name, frame }), `icons/${name}`) };
    const dir = session([{ kind: "key", combo: "ctrl+n", after: "shots/a.png" }, { kind: "click", x: 500, y: 400, button: 1 }]);
    const { workflow, warnings } = await buildWorkflow(readSession(dir), d);
    expect(warnings).toEqual([]);
    expect(workflow.steps[1]!.target).toMatchObject({ icon: "icons/step_002.png", cues: ["icon", "position"] });
    expect(workflow.steps[1]!.target!.icon_contrast).toBeGreaterThan(12);
    // Taken from the calm screen: no pixel of the hover tint (250) in it.
    expect(saved[0]!.frame.data.includes(250)).toBe(false);
    // Clipped to the window's client area when the click is near its edge.
    const edge = session([{ kind: "click", x: 790, y: 400, button: 1, window: { ...win, bbox: [0, 0, 800, 600] } }]);
    saved.length = 0;
    await buildWorkflow(readSession(edge), { ...d, loadImage: async () => { const f = paint(false); for (let y = 360; y < 440; y++) for (let x = 750; x < 800; x++) f.data.fill((x + y) % 6 < 3 ? 0 : 255, (y * 800 + x) * 4, (y * 800 + x) * 4 + 3); return f; } });
    expect(saved[0]!.frame.width).toBe(50);
  });

  it("a field named by its caption keeps the caption, its offset and width; nearby texts keep theirs; the variable is named from the caption", async () => {
    const dir = session([{ kind: "click", x: 150, y: 115, button: 1 }, { kind: "type", text: "12,50" }]);
    const r: BuildDeps["reader"] = { read: async () => ({ elements: [{ ...field, label: "" }], lines: [{ text: "Prix unitaire HT €", bbox: [20, 105, 90, 125] }, { text: "Facture n° 12", bbox: [20, 20, 200, 40] }] }) };
    const words = { knows: (w: string) => ["prix", "unitaire", "commande", "objet", "de", "fournitures"].includes(w) };
    const { workflow } = await buildWorkflow(readSession(dir), { ...deps, reader: r, words });
    expect(workflow.steps[0]!.target).toMatchObject({ caption: { text: "Prix unitaire HT €", dx: -145, dy: 0, w: 70 }, typed_into: true, cues: ["caption", "anchors", "position", "type"], icon: null });
    expect(workflow.steps[0]!.target!.anchor_offsets).toEqual([{ text: "Facture n° 12", dx: -90, dy: -85, w: 180 }]);
    expect(workflow.variables[0]!.name).toBe("prix_unitaire_ht");
    expect(variableNameFrom("Prix unitaire HT e", words)).toBe("prix_unitaire_ht");
    expect(variableNameFrom("Objet connande de fournitures", words)).toBe("objet_commande_de_fournitures");
    expect(variableNameFrom("Objet connande de fournitures", undefined)).toBe("objet_connande_de_fournitures");
  });

  it("an icon-only button read by OCR as one character is named by its icon, never « v », « y » or « 8 »: the readings build the same target", async () => {
    const button: UIElement = { ...field, element_id: "el_9", type: "button", role: "button", bbox: [480, 380, 520, 420], label: "v", text: { raw: "v", normalized: "v", embedding: null } };
    const frame = () => {
      const data = new Uint8Array(800 * 600 * 4).fill(235);
      for (let y = 390; y < 410; y++) for (let x = 490; x < 510; x++) if ((x + y) % 5 < 2) data.fill(30, (y * 800 + x) * 4, (y * 800 + x) * 4 + 3);
      return makeFrame({ data, width: 800, height: 600, channels: 4 });
    };
    const build = async (reading: string) => {
      const reader: BuildDeps["reader"] = { read: async () => ({ elements: [{ ...button, label: reading, text: { raw: reading, normalized: reading, embedding: null } }], lines: [{ text: "Enregistrer le document", bbox: [540, 390, 700, 410] }] }) };
      const { workflow, warnings } = await buildWorkflow(readSession(session([{ kind: "click", x: 500, y: 400, button: 1 }])), { ...deps, reader, loadImage: async () => frame() });
      expect(warnings.some((w) => /no name/.test(w))).toBe(true);
      return workflow.steps[0]!;
    };
    const [a, b, c] = [await build("v"), await build("y"), await build("8")];
    expect(a.target).toMatchObject({ type: "button", label: "", by_text: null, icon: "icons/step_001.png" });
    expect(a.intention).toBe("Cliquer sur le bouton (icône)");
    expect(b.target).toEqual(a.target);
    // A floppy disk is read « 8 » as readily as a letter (Tk at ×2, Qt): a lone digit names nothing either.
    expect(c.target).toEqual(a.target);
  });

  it("an icon-only button keeps what its icon shows when the icon recognizer is sure of it (icon_class), and nothing without one", async () => {
    const frame = async () => {
      const data = new Uint8Array(800 * 600 * 4).fill(240);
      await paintIcon(data, 800, 4, "search", 490, 390, 20, "#333");
      return makeFrame({ data, width: 800, height: 600, channels: 4 });
    };
    const button: UIElement = { ...field, element_id: "el_9", type: "button", role: "button", bbox: [480, 380, 520, 420], label: "", text: { raw: "", normalized: "", embedding: null } };
    const reader: BuildDeps["reader"] = { read: async () => ({ elements: [button], lines: [{ text: "Rechercher dans la liste", bbox: [540, 390, 720, 410] }] }) };
    const icons = await IconClassifier.create();
    try {
      const build = async (withIcons: boolean) => (await buildWorkflow(readSession(session([{ kind: "click", x: 500, y: 400, button: 1 }])), { ...deps, reader, loadImage: async () => frame(), ...(withIcons ? { icons } : {}) })).workflow.steps[0]!.target!;
      expect(await build(true)).toMatchObject({ label: "", icon: "icons/step_001.png", icon_class: "search" });
      expect((await build(false)).icon_class).toBeUndefined();
    } finally {
      await icons.close();
    }
  });

  it("an icon no element bounds but OCR read as one character: its crop is the box OCR read there, not 80×80 of its surroundings", async () => {
    const frame = () => {
      const data = new Uint8Array(800 * 600 * 4).fill(235);
      for (let y = 390; y < 412; y++) for (let x = 490; x < 510; x++) data.fill((x + y) % 5 < 2 ? 30 : 250, (y * 800 + x) * 4, (y * 800 + x) * 4 + 3);
      return makeFrame({ data, width: 800, height: 600, channels: 4 });
    };
    const saved: { name: string; frame: ReturnType<typeof makeFrame> }[] = [];
    const reader: BuildDeps["reader"] = { read: async () => ({ elements: [], lines: [{ text: "B", bbox: [490, 390, 510, 412] }, { text: "Nom du client", bbox: [540, 440, 640, 460] }] }) };
    const { workflow } = await buildWorkflow(readSession(session([{ kind: "click", x: 500, y: 400, button: 1 }])), { ...deps, reader, loadImage: async () => frame(), saveIcon: async (name, f) => (saved.push({ name, frame: f }), `icons/${name}`) });
    expect(workflow.steps[0]!.target).toMatchObject({ label: "", by_text: null, icon: "icons/step_001.png" });
    expect([saved[0]!.frame.width, saved[0]!.frame.height]).toEqual([28, 30]);
  });

  it("a dropdown click then an item click is a select step; a new window brings a wait_for step", async () => {
    const combo: UIElement = { ...field, element_id: "el_2", type: "dropdown", role: "select_field", bbox: [100, 200, 300, 230], label: "Mutuelle" };
    const item: UIElement = { ...field, element_id: "el_3", type: "generic_interactive", role: "interactive", bbox: [100, 232, 300, 260], label: "Harmonie" };
    const reader: BuildDeps["reader"] = { read: async () => ({ elements: [combo, item], lines: [] }) };
    const dialog = { ...win, id: "0x2", title: "Enregistrer sous" };
    const dir = session([{ kind: "click", x: 150, y: 215, button: 1 }, { kind: "click", x: 150, y: 245, button: 1 }, { kind: "key", combo: "ctrl+shift+s" }, { kind: "type", text: "janvier.txt", window: dialog }]);
    const { workflow } = await buildWorkflow(readSession(dir), { ...deps, reader });
    readDocumentAs("workflow_v1", JSON.stringify(workflow), "wf");
    expect(workflow.steps.map((s) => s.action)).toEqual(["select", "key", "wait_for", "type"]);
    expect(workflow.steps[0]).toMatchObject({ option: "Harmonie", intention: "Choisir « Harmonie » dans la liste « Mutuelle »" });
    expect(workflow.steps[2]).toMatchObject({ intention: "Attendre la fenêtre « Enregistrer sous »", window: { title: "Enregistrer sous" }, timeout_ms: 10000 });
    expect(workflow.steps.map((s) => s.step_id)).toEqual(["step_001", "step_002", "step_003", "step_004"]);
    expect(workflow.variables[0]).toMatchObject({ name: "nom_fichier", type: "file_name", example: "janvier.txt" });
  });

  it("a secret burst becomes a secret variable without a value", async () => {
    const dir = session([{ kind: "click", x: 150, y: 115, button: 1 }, { kind: "type", secret: true, length: 8 }]);
    const { workflow } = await buildWorkflow(readSession(dir), deps);
    expect(workflow.variables[0]).toMatchObject({ type: "secret", example: null, secret: true });
    expect(workflow.steps[1]!.variables).toEqual({ nom_client: null });
  });

  it.each([
    ["12/01/2025", "date"], ["2025-01-12", "date"], ["12,50 €", "amount"], ["1 234,56", "amount"], ["jean@example.fr", "email"],
    ["facture-janvier.pdf", "file_name"], ["/home/u/a.txt", "path"], ["42", "number"], ["INV-2025-001", "identifier"], ["Jean Dupont", "name"], ["bonjour tout le monde", "text"],
  ] as const)("%j is %s", (text, type) => expect(dataType(text)).toBe(type));
});

describe("masking", () => {
  it("paints a box over a frame in screen coordinates (scale and origin applied)", () => {
    const f = makeFrame({ data: new Uint8Array(4 * 4 * 4).fill(255), width: 4, height: 4, channels: 4, scaleFactor: 2, origin: [10, 10] });
    const m = paintOver(f, [10, 10, 11, 11]);
    expect(Array.from(m.data.subarray(0, 4))).toEqual([128, 128, 128, 255]);
    expect(m.data[(1 * 4 + 1) * 4]).toBe(128);
    expect(m.data[(2 * 4 + 2) * 4]).toBe(255);
    expect(f.data[0]).toBe(255);
  });
});

describe("rpav build / workflow vars", () => {
  it("builds from a truncated session with a warning, renames and demotes variables", async () => {
    const png = await encodePng(makeFrame({ data: new Uint8Array(64 * 48 * 4).fill(230), width: 64, height: 48, channels: 4 }));
    const dir = session([{ kind: "key", combo: "ctrl+n" }, { kind: "type", text: "Zoë" }], { end: false, tail: "{", png });
    const home = join(dir, "home");
    const r = rpav(["build", dir], { RPAV_HOME: home });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("incomplete action");
    expect(r.stderr).toMatch(/stored in .* as wf_facture version 1/);
    const store = SqliteStore.open(home);
    expect((await store.getWorkflow("wf_facture"))?.document.steps).toHaveLength(2);
    await store.close();
    const wfFile = join(dir, "workflow.json");
    const ren = rpav(["workflow", "vars", wfFile, "--set", "nom=prenom"], { RPAV_HOME: home });
    expect(ren.code, ren.stderr).toBe(0);
    expect(ren.stderr).toContain("stored as wf_facture version 2");
    const wf = JSON.parse(readFileSync(wfFile, "utf8"));
    expect(wf.steps[1].text).toBe("{{prenom}}");
    expect(wf.variables[0].name).toBe("prenom");
    expect(rpav(["workflow", "vars", wfFile, "--set", "nope=x"], { RPAV_HOME: home }).code).toBe(1);
    expect(rpav(["workflow", "vars", wfFile, "--demote", "prenom"], { RPAV_HOME: home }).code).toBe(0);
    const demoted = JSON.parse(readFileSync(wfFile, "utf8"));
    expect(demoted.steps[1].text).toBe("Zoë");
    expect(demoted.variables).toEqual([]);
    expect(rpav(["workflow", "vars", wfFile, "--promote", "step_002=prenom"], { RPAV_HOME: home }).code).toBe(0);
    const promoted = JSON.parse(readFileSync(wfFile, "utf8"));
    expect(promoted.steps[1].text).toBe("{{prenom}}");
    expect(promoted.variables).toMatchObject([{ name: "prenom", type: "name", example: "Zoë", secret: false, steps: ["step_002"] }]);
    expect(rpav(["workflow", "vars", wfFile, "--promote", "step_001"], { RPAV_HOME: home }).code).toBe(1);
    const missing = rpav(["workflow", "vars", join(dir, "nope.json")], { RPAV_HOME: home });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("no such file");
    expect(rpav(["validate", wfFile]).code).toBe(0);
  });

  it("record without a display is a typed error", () => {
    const r = rpav(["record", "--name", "x"], { DISPLAY: "", RPAV_HOME: mkdtempSync(join(tmpdir(), "rpav-h-")) });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/display_unavailable/);
  });
});
