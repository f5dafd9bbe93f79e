// An app update on the generated GTK form (lab/task-apps/gtk_form.py, RPAV_TASK_VERSION=2): its next version puts an
// icon-only Print button where the icon-only Save was recorded, and Save one button further. Recorded with what its icon
// shows (`icon_class`, the icon classifier), the Save step is replayed in another icon theme (Numix, which the
// classifier never saw): the recorded crop matches neither button, the layout is otherwise as recorded — Print at the
// recorded place is refused for what its icon shows, and Save is found by its own. Judged by the file the app writes on
// Save (the oracle, which never looks at the screen).
import { describe, expect, it } from "vitest";
import { genTasks } from "../../src/lab/gen-tasks.js";
import { genReplaySuite, type Built } from "./gen-replay.js";

const gen = genReplaySuite();
const task = genTasks().gtk;

describe("an app update on a generated GTK form", () => {
  let wf: Built;
  it("records the icon-only Save with what its icon shows", async () => {
    wf = await gen.recordAndBuild(task, "rec-update");
    const save = wf.workflow.steps.filter((s) => s.action === "click").at(-1)!;
    expect(save.target, JSON.stringify(save.target)).toMatchObject({ label: "", icon_class: "save" });
  }, 300_000);

  it("next version, another icon theme: Print where Save was is not clicked; Save is found by what its icon shows", async () => {
    const { status, got, why } = await gen.replayIn(task, wf, { version: 2, iconTheme: "Numix" }, task.recorded);
    expect(got, why).toBe(task.expected(task.recorded));
    expect(["passed", "unverified"], why).toContain(status);
  }, 300_000);
});
