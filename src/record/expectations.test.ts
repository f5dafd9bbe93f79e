import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readDocumentAs } from "../core/schemas/documents.js";
import type { Workflow } from "../core/schemas/workflow.js";
import { deriveExpectations, targetIsDangerous } from "./expectations.js";

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
