// Record once, replay anywhere (issue #22) on the generated list and editor apps (lab/task-apps/*_list.py,
// *_editor.py): the defects their first bench runs showed, each on the real app, judged by the file the app writes.
//   - GTK list: the detector saw the list's lower rows as one tall « field » and the builder named the row clicked by
//     the row above it (a caption); every replay then picked that other row and said « passed » (6 wrong of 6). The
//     row clicked is named by its own text, and the replay picks it.
//   - GTK editor under larger text: the document's lines above the empty part clicked cut the panel found around it
//     (« not in view »); the panel is found whole and the click lands below the text.
import { describe, expect, it } from "vitest";
import { genEditorTasks, genListTasks } from "../../src/lab/gen-tasks.js";
import { genReplaySuite } from "./gen-replay.js";

const gen = genReplaySuite();

describe("record once, replay anywhere on generated lists and editors", () => {
  it("GTK list: the row clicked is named by its own text, not the row above; replayed with new data, that row is the one archived", async () => {
    const task = genListTasks()["gtk-list"];
    const wf = await gen.recordAndBuild(task, "gtk-list");
    const pick = wf.workflow.steps.find((s) => s.action === "click")!;
    expect(pick.target?.label, JSON.stringify(pick.target)).toBe("Dossier 2026-014 — Dupont");
    const data = task.rows[0]!;
    const { status, got, why } = await gen.replayIn(task, wf, {}, data);
    expect(got, why).toBe(task.expected(data));
    expect(status, why).toBe("passed");
  }, 300_000);

  it("GTK editor, text ×1.5: the empty part of the document below its lines is found in the whole text area; the line typed and saved", async () => {
    const task = genEditorTasks()["gtk-editor"];
    const wf = await gen.recordAndBuild(task, "gtk-editor");
    expect(wf.workflow.steps[0]!.target).toMatchObject({ region: true, panel: expect.any(Object) });
    const { status, got, why } = await gen.replayIn(task, wf, { textScale: 1.5 }, task.recorded);
    expect(got, why).toBe(task.expected(task.recorded));
    expect(["passed", "unverified"], why).toContain(status);
    expect(why).not.toMatch(/not in view/);
  }, 300_000);
});
