import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeFrame } from "../core/frame.js";
import type { BBox, Point } from "../core/geometry.js";
import type { InputDriver } from "../core/providers/input-driver.js";
import type { ScreenSource } from "../core/providers/screen-source.js";
import type { WindowDescriptor, WindowInfo } from "../core/providers/window-info.js";
import type { WorkflowPatch } from "../core/schemas/workflow-patch.js";
import type { Step, Workflow } from "../core/schemas/workflow.js";
import { PatchFiles } from "../store/patch-files.js";
import { applyPatch, decidePatch } from "./patches.js";
import { safeAnswerRank, SAFE_DIALOG_ANSWERS } from "./policy.js";
import { clearField, dismissDialog, refocus, restoreWindow, scrollCandidates, scrollPointFor, scrollToTarget, startApp, waitStable, type RecoveryEnv, type Situation } from "./recovery.js";

const w = (id: string, title: string, bbox: BBox, o: Partial<WindowDescriptor> = {}): WindowDescriptor => ({ id, title, appName: "Yad", instance: "yad", pid: 1, bbox, frame: { left: 0, right: 0, top: 0, bottom: 0 }, active: false, visible: true, ...o });
const step = { step_id: "s1", action: "click", intention: "i", by_text: null, target: null, variables: {}, expected_state: "", expected_result: "", window: { title: "Form", app: "Yad" } } as Step;
const main = w("0x1", "Form", [0, 0, 800, 600]);
const sit = (o: Partial<Situation>): Situation => ({ step, title: "Form", windows: [main], stepWindow: main, atStart: true, canLaunch: false, ...o });

function env(buttons: string[], clicks: Point[]): RecoveryEnv {
  return {
    windows: { get: async () => undefined } as unknown as WindowInfo,
    input: { click: async (p: Point) => void clicks.push(p) } as unknown as InputDriver,
    screen: { capture: async () => makeFrame({ data: new Uint8Array(100 * 50 * 3), width: 100, height: 50, channels: 3, origin: [300, 300] }) } as unknown as ScreenSource,
    perceive: async () => ({ elements: buttons.map((label, i) => ({ type: "button", label, bbox: [10 + 40 * i, 10, 40 + 40 * i, 30] }) as never), lines: [{ text: "Une mise à jour est disponible", bbox: [0, 0, 90, 8] }] }),
    sleep: async () => undefined,
  };
}

describe("recovery strategies", () => {
  it("which one applies: app gone (only at the task's start, with a launch command), minimised, dialog over the window, focus elsewhere, still loading, field not empty, target off screen", () => {
    expect(startApp.applies(sit({ windows: [], stepWindow: undefined, canLaunch: true }))).toBe(true);
    expect(startApp.applies(sit({ windows: [], stepWindow: undefined, canLaunch: true, atStart: false }))).toBe(false);
    expect(startApp.applies(sit({ windows: [], stepWindow: undefined }))).toBe(false);
    expect(restoreWindow.applies(sit({ stepWindow: { ...main, visible: false } }))).toBe(true);
    const dialog = w("0x2", "Mise à jour", [300, 250, 500, 350], { active: true, appName: "Zenity" });
    expect(dismissDialog.applies(sit({ windows: [main, dialog] }))).toBe(true);
    const other = w("0x3", "Terminal", [900, 0, 1800, 900], { active: true, appName: "XTerm" });
    expect(dismissDialog.applies(sit({ windows: [main, other] }))).toBe(false);
    expect(refocus.applies(sit({ windows: [main, other] }))).toBe(true);
    expect(waitStable.applies(sit({ unstable: true }))).toBe(true);
    expect(clearField.applies(sit({ step: { ...step, action: "type" }, fieldNotEmpty: { box: [0, 0, 1, 1], read: "x" } }))).toBe(true);
    expect(clearField.applies(sit({ fieldNotEmpty: { box: [0, 0, 1, 1], read: "x" } }))).toBe(false);
    expect(scrollToTarget.applies(sit({ targetMissing: true }))).toBe(true);
  });

  it("a dialog is dismissed with a safe answer only: « Plus tard » over « Installer »; never « Supprimer »", async () => {
    const dialog = w("0x2", "Mise à jour", [300, 300, 400, 350], { active: true });
    const s = sit({ windows: [main, dialog] });
    const clicks: Point[] = [];
    const out = await dismissDialog.act(s, env(["Installer", "Plus tard"], clicks));
    expect(out).toMatchObject({ acted: true, evidence: { answer: "Plus tard", text: ["Une mise à jour est disponible"] } });
    expect(clicks).toEqual([[300 + 65, 300 + 20]]);
    const none: Point[] = [];
    const refused = await dismissDialog.act(s, env(["Supprimer", "Envoyer", "OK"], none));
    expect(refused).toMatchObject({ acted: false });
    expect(none).toEqual([]);
    expect(await dismissDialog.verify(s, env([], []))).toBe(true); // the dialog is gone
  });

  it("the safe-answer table: the listed answers, mnemonics ignored, destructive ones never", () => {
    for (const a of SAFE_DIALOG_ANSWERS) expect(safeAnswerRank(a)).toBeDefined();
    expect(safeAnswerRank("_Annuler")).toBe(0);
    expect(safeAnswerRank("not now")).toBeDefined();
    for (const bad of ["Supprimer", "Delete", "OK", "Envoyer", "Payer", "Oui", "Yes", "Installer"]) expect(safeAnswerRank(bad)).toBeUndefined();
  });
});

describe("assist answers and patches", () => {
  it("an accepted patch changes the step's target or removes the step; the workflow must still be the one it was made for", async () => {
    const wf = { schema_version: "workflow_v1", workflow_id: "wf", name: "n", app: "a", created_at: "2026-12-02T00:00:00Z", source_session: "s", variables: [{ name: "v", type: "text", example: "x", secret: false, steps: ["s1", "s2"] }], steps: [step, { ...step, step_id: "s2", expect: { before: { window: step.window, required_elements: [], state_vector_id: null }, after: [], checked_by: "s1", source: "recorded" } }] } as unknown as Workflow;
    const t = { type: "button" as const, label: "Valider", by_text: "Valider", role: null, position_hint: null, anchors: [], recorded_bbox: [1, 2, 3, 4] as [number, number, number, number], icon: null };
    const p: WorkflowPatch = { schema_version: "workflow_patch_v1", patch_id: "patch_1", workflow_id: "wf", workflow_path: "/wf.json", step_id: "s1", op: { op: "set_target", target: t }, reason: "picked", proposed_at: "2026-12-02T00:00:00Z", run_id: "r", question_id: "q1", status: "proposed" };
    expect(applyPatch(wf, p).steps[0]!.target).toEqual(t);
    const removed = applyPatch(wf, { ...p, op: { op: "remove_step" } });
    expect(removed.steps.map((s) => s.step_id)).toEqual(["s2"]);
    expect(removed.steps[0]!.expect).toBeUndefined();
    expect(removed.variables[0]!.steps).toEqual(["s2"]);
    expect(() => applyPatch({ ...wf, workflow_id: "other" }, p)).toThrow(/not other/);
    const files = new PatchFiles(mkdtempSync(join(tmpdir(), "rpav-patches-")));
    await files.put(p);
    expect((await files.list()).map((x) => x.patch_id)).toEqual(["patch_1"]);
    await expect(files.get("nope")).rejects.toThrow(/No patch nope/);
  });

  it("decidePatch: accepting writes the workflow file and a store version once; rejecting only marks the patch; a decided patch stays as it is", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rpav-decide-"));
    const wf = { schema_version: "workflow_v1", workflow_id: "wf", name: "n", app: "a", created_at: "2026-12-02T00:00:00Z", source_session: "s", variables: [], steps: [step, { ...step, step_id: "s2" }] } as unknown as Workflow;
    const wfPath = join(dir, "workflow.json");
    writeFileSync(wfPath, JSON.stringify(wf));
    const files = new PatchFiles(join(dir, "patches"));
    const base: WorkflowPatch = { schema_version: "workflow_patch_v1", patch_id: "p_acc", workflow_id: "wf", workflow_path: wfPath, step_id: "s1", op: { op: "remove_step" }, reason: "skipped", proposed_at: "2026-12-02T00:00:00Z", run_id: "r", question_id: "q1", status: "proposed" };
    await files.put(base);
    await files.put({ ...base, patch_id: "p_rej", step_id: "s2" });
    const saved: Workflow[] = [];
    const held: { latest?: { version: number; document: Workflow } } = {};
    const store = {
      putWorkflow: async (d: unknown) => {
        saved.push(d as Workflow);
        return saved.length + 1;
      },
      getWorkflow: async () => (held.latest ? { workflowId: "wf", createdAt: "2026-12-02T00:00:00Z", ...held.latest, document: held.latest.document as never } : undefined),
    };
    const acc = await decidePatch({ patches: files, store }, "p_acc", "accept");
    expect(acc).toMatchObject({ decision: "accepted", version: 2 });
    expect(saved.map((w) => w.steps.map((s) => s.step_id))).toEqual([["s2"]]);
    expect((JSON.parse(readFileSync(wfPath, "utf8")) as Workflow).steps.map((s) => s.step_id)).toEqual(["s2"]);
    expect(await files.get("p_acc")).toMatchObject({ status: "accepted", version: 2 });
    await expect(decidePatch({ patches: files, store }, "p_acc", "reject")).rejects.toThrow(/already accepted/);
    expect((await decidePatch({ patches: files }, "p_rej", "reject")).decision).toBe("rejected");
    expect((await files.get("p_rej")).status).toBe("rejected");
    await expect(decidePatch({ patches: files, store }, "p_rej", "accept")).rejects.toThrow(/already rejected/);
    expect(saved).toHaveLength(1);
    expect((JSON.parse(readFileSync(wfPath, "utf8")) as Workflow).steps.map((s) => s.step_id)).toEqual(["s2"]);
    // The store moved on since the run that asked (a step added): the patch applies to its latest version.
    held.latest = { version: 3, document: { ...wf, steps: [step, { ...step, step_id: "s2" }, { ...step, step_id: "s3" }] } };
    await files.put({ ...base, patch_id: "p_new", step_id: "s2" });
    expect(await decidePatch({ patches: files, store }, "p_new", "accept")).toMatchObject({ decision: "accepted", version: 3 });
    expect(saved.at(-1)!.steps.map((s) => s.step_id)).toEqual(["s1", "s3"]);
  });
});

describe("wait for a window still loading", () => {
  it("waits until the window stayed still for a while: an animation that stalls one frame (a loaded machine) is not taken for a loaded window", async () => {
    let calls = 0;
    // Frames change at every capture, but for one repeated pair (captures 2 and 3), until capture 12; then still.
    const shade = (k: number) => (k >= 12 ? 200 : k === 3 ? 2 * 10 : k * 10);
    const e: RecoveryEnv = { ...env([], []), screen: { capture: async () => makeFrame({ data: new Uint8Array(20 * 20 * 3).fill(shade(calls++)), width: 20, height: 20, channels: 3 }) } as unknown as ScreenSource };
    const s = sit({ unstable: true });
    const out = await waitStable.act(s, e);
    expect(out.evidence).toMatchObject({ stable: true });
    expect(calls).toBeGreaterThan(12); // not stopped at the stalled pair
    expect(await waitStable.verify(s, e)).toBe(true);
  });
});

describe("scroll to a target out of view", () => {
  it("turns the wheel over the target's recorded place in its window (moved windows included), or the centre when that place is no longer inside; down first, then back up", async () => {
    const withBox = { ...step, target: { type: "checkbox", label: "Accepte", by_text: "Accepte", role: null, position_hint: null, anchors: [], recorded_bbox: [0, 0, 1, 1], icon: null, window_box: [100, 200, 140, 220] } } as unknown as Step;
    expect(scrollPointFor(withBox, [500, 100, 1140, 500])).toEqual([620, 310]);
    expect(scrollPointFor(withBox, [500, 100, 1140, 290])).toEqual([820, 195]); // the window was made smaller
    const scrolls: Array<{ at: Point; dy: number }> = [];
    let shown = 0;
    const e: RecoveryEnv = {
      ...env([], []),
      input: { scroll: async (at: Point, dy: number) => void (scrolls.push({ at, dy }), shown++) } as unknown as InputDriver,
      screen: { capture: async () => makeFrame({ data: new Uint8Array(20 * 20 * 3).fill(shown * 40), width: 20, height: 20, channels: 3 }) } as unknown as ScreenSource,
    };
    const s0 = sit({ step: withBox, targetMissing: true, scrolls: 0 });
    expect((await scrollToTarget.act(s0, e)).acted).toBe(true);
    expect(await scrollToTarget.verify(s0, e)).toBe(true);
    for (const k of [1, 2, 3, 4]) await scrollToTarget.act(sit({ step: withBox, targetMissing: true, scrolls: k }), e);
    expect(scrolls.map((x) => x.dy)).toEqual([2, 2, 2, -3, -3]);
    expect(scrolls[0]!.at).toEqual([120, 210]);
    // A scroll that moved nothing did not help.
    const still: RecoveryEnv = { ...e, input: { scroll: async () => undefined } as unknown as InputDriver };
    const s2 = sit({ step: withBox, targetMissing: true, scrolls: 0 });
    await scrollToTarget.act(s2, still);
    expect(await scrollToTarget.verify(s2, still)).toBe(false);
  });

  it("finds the container that scrolls: the recorded place now over a canvas (the window made smaller) moves nothing, the field found above it in this row does; never over a list whose choice the wheel would change", async () => {
    // Recorded at (140, 330) in a 560×460 window; now 560×250: that place is on a canvas.
    const target = { ...step, target: { type: "text_input", label: "Commune", by_text: "Commune", role: null, position_hint: null, anchors: [], recorded_bbox: [0, 0, 1, 1], icon: null, window_box: [120, 320, 160, 340] } } as unknown as Step;
    const win = w("0x1", "Form", [0, 0, 560, 250]);
    const container: BBox = [0, 40, 540, 110]; // the scrolled area
    const field: BBox = [120, 86, 450, 110]; // « Code postal », grounded by an earlier step of this row
    const list: BBox = [120, 50, 450, 74]; // a dropdown, also earlier
    const s = (o: Partial<Situation> = {}) => sit({ step: target, windows: [win], stepWindow: win, targetMissing: true, scrolls: 0, neighbours: [{ box: list, type: "dropdown" }, { box: field, type: "text_input" }], ...o });
    expect(scrollCandidates(s(), win.bbox)).toEqual([[280, 125], [285, 98]]); // the recorded place is outside now: the centre; the field; never the list
    const wheel: Point[] = [];
    let offset = 0;
    const e: RecoveryEnv = {
      ...env([], []),
      input: { scroll: async (at: Point, dy: number) => void (wheel.push(at), at[1] >= container[1] && at[1] < container[3] && (offset += dy)) } as unknown as InputDriver,
      screen: { capture: async () => makeFrame({ data: new Uint8Array(20 * 20 * 3).fill(offset * 10), width: 20, height: 20, channels: 3 }) } as unknown as ScreenSource,
    };
    const first = s();
    const out = await scrollToTarget.act(first, e);
    expect(await scrollToTarget.verify(first, e)).toBe(true);
    expect(out.evidence).toMatchObject({ at: [285, 98], moved: true, tried: [[280, 125], [285, 98]] });
    expect(wheel.some((p) => p[1] >= list[1] && p[1] < list[3])).toBe(false);
    // The next try starts where the content moved.
    wheel.length = 0;
    await scrollToTarget.act(s({ scrolls: 1, scrollAt: [285, 98] }), e);
    expect(wheel).toEqual([[285, 98]]);
  });
});
