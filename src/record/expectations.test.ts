import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readDocumentAs } from "../core/schemas/documents.js";
import type { Workflow } from "../core/schemas/workflow.js";
import { makeFrame } from "../core/frame.js";
import { addExpectations, deriveExpectations, lookChanged, mayBeToggle, NO_VISIBLE_EFFECT, targetIsDangerous, visibleChange } from "./expectations.js";

const load = (name: string) => readDocumentAs("workflow_v1", readFileSync(new URL(`../../demos/${name}/workflow.json`, import.meta.url), "utf8"), name) as Workflow;

describe("expectations derived for workflows built before they existed", () => {
  it("yad form: each click on a field is checked by the typing into it, each typing reads its field back, OK must change the window", () => {
    const { workflow, notes } = deriveExpectations(load("yad-patient"));
    const e = workflow.steps.map((s) => s.expect!);
    expect(e[0]).toMatchObject({ source: "derived", checked_by: "step_002", after: [], before: { window: { title: "Nouveau patient", app: "Yad" }, required_elements: [{ type: "text_input", label: "Nom" }] } });
    expect(e[1]!.after).toEqual([{ kind: "field_value", region: { of: "step", step_id: "step_001" }, value: "{{nom}}" }]);
    expect(e[5]!.after).toEqual([{ kind: "field_value", region: { of: "step", step_id: "step_005" }, value: "{{date_de_naissance}}" }]);
    expect(e[6]!.after).toEqual([{ kind: "region_changed", region: { of: "window" }, title: true }]);
    expect(notes).toEqual(["step_007: the last step: which window it leaves open is not recorded"]);
    // The file's own steps are not changed.
    expect(load("yad-patient").steps[0]!.expect).toBeUndefined();
  });

  it("mousepad: a dialog opens (window_open), Return in it closes it and brings the file's window, typed text must be on screen", () => {
    const { workflow } = deriveExpectations(load("mousepad-open-save"));
    const by = Object.fromEntries(workflow.steps.map((s) => [s.step_id, s.expect!.after]));
    expect(by.step_002).toEqual([{ kind: "window_open", window: { title: "Open File", app: "Mousepad" } }]);
    expect(by.step_003).toEqual([{ kind: "window_open", window: { title: "Open File", app: "Mousepad" } }]);
    expect(by.step_006).toEqual([
      { kind: "window_open", window: { title: "*/tmp/rpav-demo/janvier.txt - Mousepad", app: "Mousepad" } },
      { kind: "window_closed", window: { title: "Open File", app: "Mousepad" } },
    ]);
    expect(by.step_008).toEqual([{ kind: "text_present", region: { of: "window" }, text: "{{texte}}" }]);
    expect(by.step_011).toEqual([{ kind: "region_changed", region: { of: "window" }, title: true }]);
  });

  it("widget factory: clicks on tabs and toggles must change them; the unrecorded on/off look is said, not guessed", () => {
    const { workflow, notes } = deriveExpectations(load("widget-factory"));
    const toggles = workflow.steps.filter((s) => s.target?.type === "checkbox" || s.target?.type === "radio_button");
    for (const s of toggles) expect(s.expect!.after).toContainEqual({ kind: "region_changed", region: { of: "target" } });
    if (toggles.length) expect(notes.some((n) => /on\/off look was not recorded/.test(n))).toBe(true);
  });

  it("dangerous targets from the role lexicon, unless the workflow says", () => {
    const t = { type: "button" as const, label: "Supprimer la facture", by_text: null, role: null, position_hint: null, anchors: [], recorded_bbox: null, icon: null };
    expect(targetIsDangerous(t)).toBe(true);
    expect(targetIsDangerous({ ...t, label: "Annuler" })).toBe(false);
    expect(targetIsDangerous({ ...t, is_dangerous: false })).toBe(false);
    expect(targetIsDangerous(null)).toBe(false);
  });
});

describe("a check box the detector did not name", () => {
  const step = (id: string, label: string, box: [number, number, number, number]): Workflow["steps"][number] => ({
    step_id: id, action: "click", intention: "Cliquer", by_text: null, variables: {}, expected_state: "", expected_result: "", window: { title: "Fiche", app: "Yad" },
    target: { type: null, label, by_text: null, role: null, position_hint: null, anchors: [], recorded_bbox: box, icon: null, window_box: box },
  });
  const frame = (ticked: boolean) => {
    const data = new Uint8Array(200 * 100 * 3).fill(240);
    if (ticked) for (let y = 14; y < 26; y++) for (let x = 14; x < 26; x++) data.fill(20, (y * 200 + x) * 3, (y * 200 + x) * 3 + 3);
    return makeFrame({ data, width: 200, height: 100, channels: 3 });
  };
  const session = (n: number) => ({
    dir: "/s", header: { schema_version: "rawsession_v1", name: "Fiche", app: "yad", started_at: "2026-12-02T10:00:00Z" }, ended: true,
    actions: [...Array(n).keys()].map((i) => ({ seq: i + 1, kind: "click" as const, t: i * 1000, x: 20 + 100 * i, y: 20, button: 1, window: { id: "0x1", title: "Fiche", app: "Yad", bbox: [0, 0, 200, 100] }, before: `b${i}.png`, after: `a${i}.png` })),
  });
  const wf = (steps: Workflow["steps"]): Workflow => ({ schema_version: "workflow_v1", workflow_id: "wf_fiche", name: "Fiche", app: "yad", created_at: "2026-12-02T10:00:00Z", source_session: "/s", variables: [], steps });

  it("a small square without text whose look the click changed keeps its looks as a toggle_state (so « already ticked » can be seen); one whose look did not change, or with a label, does not", async () => {
    const w = wf([step("step_001", "", [10, 10, 30, 30]), step("step_002", "", [110, 10, 130, 30])]);
    const saved: string[] = [];
    // The first square is ticked by its click; the second looks the same before and after.
    await addExpectations(w, { session: session(2) as never, loadImage: async (p) => frame(p.endsWith("/a0.png")), saveCrop: async (name) => (saved.push(name), name) });
    expect(w.steps[0]!.expect!.after).toEqual([{ kind: "region_changed", region: { of: "target" } }, { kind: "toggle_state", region: { of: "target" }, state: "on", on_crop: "step_001-on.png", off_crop: "step_001-off.png" }]);
    expect(w.steps[1]!.expect!.after.some((c) => c.kind === "toggle_state")).toBe(false);
    expect(saved).toEqual(["step_001-off.png", "step_001-on.png"]);
    expect(mayBeToggle({ ...w.steps[0]!.target!, label: "Valider" })).toBe(false);
    expect(mayBeToggle({ ...w.steps[0]!.target!, window_box: [0, 0, 120, 30] })).toBe(false);
  });

  it("an after screen taken once the window was gone (OK clicked at once) gives way to the screen before the next action", async () => {
    // yad's consent box ticked, then OK at once: the box's after screen showed the black root window.
    const w = wf([{ ...step("step_001", "Accepte", [10, 10, 30, 30]), target: { ...step("step_001", "Accepte", [10, 10, 30, 30]).target!, type: "checkbox" } }, step("step_002", "OK", [110, 10, 130, 30])]);
    const black = makeFrame({ data: new Uint8Array(200 * 100 * 3), width: 200, height: 100, channels: 3 });
    // The window's screens have a caption line drawn (a window is never one colour).
    const drawn = (f: ReturnType<typeof frame>) => (f.data.fill(90, (60 * 200 + 40) * 3, (60 * 200 + 120) * 3), f);
    const looks: Record<string, number> = {};
    const warnings = await addExpectations(w, {
      session: session(2) as never,
      loadImage: async (p) => (p.endsWith("/a0.png") ? black : drawn(frame(p.endsWith("/b1.png")))),
      saveCrop: async (name, f) => ((looks[name] = Math.min(...f.data)), name),
    });
    expect(w.steps[0]!.expect!.after.map((c) => c.kind)).toEqual(["region_changed", "toggle_state"]);
    // The « on » look is the ticked box (dark square on the light window), not the black root window.
    expect(looks).toEqual({ "step_001-off.png": 240, "step_001-on.png": 20 });
    expect(warnings.join("\n")).toMatch(/step_001: the screen after the click shows no window/);
  });
});

describe("a click whose effect cannot be seen", () => {
  const win = { id: "0x1", title: "Fiche", app: "Yad", bbox: [0, 0, 200, 100] };
  const click = (id: string, target: Partial<NonNullable<Workflow["steps"][number]["target"]>>): Workflow["steps"][number] => ({
    step_id: id, action: "click", intention: "Cliquer", by_text: null, variables: {}, expected_state: "", expected_result: "", window: { title: "Fiche", app: "Yad" },
    target: { type: null, label: "", by_text: null, role: null, position_hint: null, anchors: [], recorded_bbox: [40, 20, 120, 90], icon: null, ...target },
  });
  const wf = (steps: Workflow["steps"]): Workflow => ({ schema_version: "workflow_v1", workflow_id: "wf_fiche", name: "Fiche", app: "yad", created_at: "2026-12-02T10:00:00Z", source_session: "/s", variables: [], steps });
  /** Screens of a 200×100 window; `mark` draws a 6×6 dot at (70, 50), `caret` a 1-px upright line at (150, 20…36). */
  const screen = (o: { mark?: boolean; caret?: boolean } = {}) => {
    const data = new Uint8Array(200 * 100 * 3).fill(240);
    if (o.mark) for (let y = 50; y < 56; y++) for (let x = 70; x < 76; x++) data.fill(20, (y * 200 + x) * 3, (y * 200 + x) * 3 + 3);
    if (o.caret) for (let y = 20; y < 36; y++) data.fill(20, (y * 200 + 150) * 3, (y * 200 + 150) * 3 + 3);
    return makeFrame({ data, width: 200, height: 100, channels: 3 });
  };
  const session = (after: { mark?: boolean; caret?: boolean }) => ({
    dir: "/s", header: { schema_version: "rawsession_v1", name: "Fiche", app: "yad", started_at: "2026-12-02T10:00:00Z" }, ended: true,
    actions: [{ seq: 1, kind: "click" as const, t: 0, x: 80, y: 60, button: 1, window: win, before: "b.png", after: "a.png" }],
    after,
  });
  const build = async (target: Partial<NonNullable<Workflow["steps"][number]["target"]>>, after: { mark?: boolean; caret?: boolean }) => {
    const w = wf([click("step_001", target)]);
    const s = session(after);
    await addExpectations(w, { session: s as never, loadImage: async (p) => (p.endsWith("a.png") ? screen(after) : screen()), saveCrop: async (n) => n });
    return w.steps[0]!.expect!;
  };

  it("recorded: a click in an empty canvas that showed nothing is stated unverified (no « region changed » that could never come); one that drew a mark is asked for a change", async () => {
    const still = await build({ region: true }, {});
    expect(still.after).toEqual([]);
    expect(still.not_derived).toContain(NO_VISIBLE_EFFECT.recorded);
    expect(still.not_derived).not.toContain(NO_VISIBLE_EFFECT.region);
    const drew = await build({ region: true }, { mark: true });
    expect(drew.after).toEqual([{ kind: "region_changed", region: { of: "window" }, title: true }]);
    expect(drew.not_derived ?? []).not.toContain(NO_VISIBLE_EFFECT.region);
  });

  it("recorded: a named button whose click showed nothing (it only saves) is unverified; a text cursor blinking elsewhere is no effect", async () => {
    expect((await build({ type: "button", label: "Enregistrer" }, {})).after).toEqual([]);
    expect((await build({ type: "button", label: "Enregistrer" }, { caret: true })).not_derived).toContain(NO_VISIBLE_EFFECT.recorded);
    expect((await build({ type: "button", label: "Enregistrer" }, { mark: true })).after).toEqual([{ kind: "region_changed", region: { of: "window" }, title: true }]);
    expect(visibleChange(screen(), screen({ caret: true }))).toBe(false);
    expect(visibleChange(screen(), screen({ mark: true }))).toBe(true);
  });

  it("recorded: a « tab » whose click left its own look as it was (a toolbar button taken for a tab) is judged as a button; one whose look changed must change again", async () => {
    expect((await build({ type: "tab", label: "Enregistrer" }, { caret: true })).after).toEqual([]);
    expect((await build({ type: "tab", label: "Détails" }, { mark: true })).after).toEqual([{ kind: "region_changed", region: { of: "target" } }]);
  });

  it("recorded: an icon-only button (a small square without text) whose click showed nothing is unverified, not a toggle and not asked for a change", async () => {
    // The generated Tk form's Save: a 30×30 icon that only writes a file; a text cursor blinked meanwhile.
    const icon = { type: "button" as const, label: "", recorded_bbox: [65, 45, 95, 75] as [number, number, number, number], window_box: [65, 45, 95, 75] as [number, number, number, number] };
    expect(mayBeToggle(icon as never)).toBe(true);
    const still = await build(icon, { caret: true });
    expect(still.after).toEqual([]);
    expect(still.not_derived).toContain(NO_VISIBLE_EFFECT.recorded);
    // One whose click drew something in the window is asked for that change.
    expect((await build(icon, { mark: true })).after).toEqual([{ kind: "region_changed", region: { of: "window" }, title: true }]);
  });

  it("recorded: the next target's hover look in the after screen (the pointer already on its way there) is not the click's effect", async () => {
    // The generated GTK form: the canvas click shows nothing; its after screen shows Save hovered.
    const w = wf([click("step_001", { region: true, recorded_bbox: [120, 20, 180, 60] }), click("step_002", { type: "button", label: "", recorded_bbox: [64, 44, 82, 62] })]);
    const s = {
      ...session({}),
      actions: [
        { seq: 1, kind: "click" as const, t: 0, x: 150, y: 40, button: 1, window: win, before: "b0.png", after: "a0.png" },
        { seq: 2, kind: "click" as const, t: 900, x: 73, y: 53, button: 1, window: win, before: "b1.png", after: "a1.png" },
      ],
    };
    await addExpectations(w, { session: s as never, loadImage: async (p) => (p.endsWith("a0.png") ? screen({ mark: true }) : screen()), saveCrop: async (n) => n });
    expect(w.steps[0]!.expect!.after).toEqual([]);
    expect(w.steps[0]!.expect!.not_derived).toContain(NO_VISIBLE_EFFECT.recorded);
    // Elsewhere than on the next target, the same change is the click's.
    w.steps[1]!.target!.recorded_bbox = [150, 70, 190, 95];
    delete w.steps[0]!.expect;
    await addExpectations(w, { session: s as never, loadImage: async (p) => (p.endsWith("a0.png") ? screen({ mark: true }) : screen()), saveCrop: async (n) => n });
    expect(w.steps[0]!.expect!.after).toEqual([{ kind: "region_changed", region: { of: "window" }, title: true }]);
  });

  it("derived (an old workflow): a click on a place nothing names is unverified and said so; a named button still must change the window", () => {
    const { workflow, notes } = deriveExpectations(wf([click("step_001", { region: true }), click("step_002", { type: "button", label: "Valider" })]));
    expect(workflow.steps[0]!.expect!.after).toEqual([]);
    expect(notes).toContain(`step_001: ${NO_VISIBLE_EFFECT.region}`);
    expect(workflow.steps[1]!.expect!.after).toEqual([{ kind: "region_changed", region: { of: "window" }, title: true }]);
  });

  it("derived: typing that puts « * » in its own window's title is checked both ways — the title marked modified and the text read in the window; a click that retitles is checked by the title", () => {
    const edited = { title: "*Fiche", app: "Yad" };
    const type: Workflow["steps"][number] = { ...click("step_002", {}), action: "type", target: null, text: "{{texte}}" };
    const wait: Workflow["steps"][number] = { ...click("step_003", {}), action: "wait_for", target: null, window: edited };
    const save = { ...click("step_004", { type: "button", label: "Enregistrer" }), window: edited };
    const { workflow } = deriveExpectations(wf([click("step_001", { region: true }), type, wait, save]));
    expect(workflow.steps[1]!.expect!.after).toEqual([
      { kind: "window_active", window: edited, modified: true },
      { kind: "text_present", region: { of: "window" }, text: "{{texte}}" },
    ]);
    const retitled = deriveExpectations(wf([click("step_001", { type: "button", label: "Renommer" }), { ...save, step_id: "step_002" }]));
    expect(retitled.workflow.steps[0]!.expect!.after).toEqual([{ kind: "window_active", window: edited, modified: true }]);
  });
});

describe("lookChanged (is an unnamed small square a toggle?)", () => {
  const square = (paint: (x: number, y: number) => number) => {
    const data = new Uint8Array(36 * 34 * 4);
    for (let y = 0; y < 34; y++) for (let x = 0; x < 36; x++) data.fill(paint(x, y), (y * 36 + x) * 4, (y * 36 + x) * 4 + 3);
    return makeFrame({ data, width: 36, height: 34, channels: 4 });
  };
  const icon = (x: number, y: number) => (x >= 9 && x < 27 && y >= 6 && y < 27 ? 30 : 240);
  it("a focus ring drawn round a clicked button (GTK's dotted ring) is no change inside it; a tick is", () => {
    const ring = square((x, y) => (x === 1 || x === 2 || x === 33 || x === 34 || y === 1 || y === 2 || y === 31 || y === 32 ? 60 : icon(x, y)));
    const tick = square((x, y) => (icon(x, y) === 30 && Math.abs(x - 9 - (y - 6)) < 3 ? 240 : icon(x, y)));
    expect(lookChanged(square(icon), ring)).toBe(true);
    expect(lookChanged(square(icon), ring, true)).toBe(false);
    expect(lookChanged(square(icon), tick, true)).toBe(true);
  });
});
