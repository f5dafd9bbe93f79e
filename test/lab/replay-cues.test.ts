// Targets described by every cue, on a real GTK 3 app (a generated task form, lab/task-apps/):
// the demonstration recorded once through X RECORD by a scripted person (human paths, clicks held
// 60–150 ms, typing delays), built, and replayed. The defects of issue #22 each have a case here:
// a flat icon crop is refused at build, an icon-only button is not named by one OCR character, the
// same session (and a second recording of the same demonstration) builds the same targets, a field
// is found by its caption when ranks shifted, and a greyed-out field is never typed into.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodePng } from "../../src/capture/png.js";
import { replayWorkflow } from "../../src/cli/commands/replay.js";
import type { Target, Workflow } from "../../src/core/schemas/workflow.js";
import { genFormTask, genTasks, recordDemonstration, type GenStartOptions } from "../../src/lab/gen-tasks.js";
import { AccentLexicon, HybridOcr } from "../../src/perception/hybrid-ocr.js";
import { PpOcr } from "../../src/perception/ppocr-ocr.js";
import { TesseractOcr } from "../../src/perception/tesseract-ocr.js";
import { UIElementDetector } from "../../src/perception/ui-element-detector.js";
import { X11RecordSource } from "../../src/platform/x11/x11-record-source.js";
import { secretFieldFinder } from "../../src/record/perception-adapters.js";
import { Recorder } from "../../src/record/recorder.js";
import { readTrace } from "../../src/replay/trace.js";
import { buildAt } from "./gen-replay.js";
import { labKit } from "./support.js";

const kit = labKit();
let detector: UIElementDetector;
let tess: TesseractOcr;
const words = AccentLexicon.load();
const work = mkdtempSync(join(tmpdir(), "rpav-cues-"));
const task = genTasks().gtk;
// The same demonstration by a person whose hand lands elsewhere in each field (another seed).
const again = genFormTask({ family: "gtk", name: task.name, params: { title: task.title, fields: [{ caption: "Nom du client", key: "client" }, { caption: "Prix unitaire HT €", key: "prix" }, { caption: "Ville", key: "ville" }], extra_field: { caption: "Société", key: "societe" }, mark: [0.7, 0.4] }, recorded: task.recorded, rows: task.rows, seed: 99 });

beforeAll(async () => {
  tess = await TesseractOcr.create();
  detector = new UIElementDetector({ ocr: new HybridOcr(await PpOcr.create(), tess, words) });
});
afterAll(async () => {
  await kit.cleanup();
  await tess?.close();
});

async function record(t: typeof task, name: string): Promise<string> {
  const dir = join(work, name);
  // The recorder sees the fields as `rpav record` does (without a way to see them, every burst would be secret).
  const find = secretFieldFinder(detector);
  const secretField: typeof find = async (q) => {
    const v = await find(q);
    verdicts.push(`${name}: « ${v.secret ? "•".repeat(q.text.length) : q.text} » secret=${v.secret} (${v.why})`);
    return v;
  };
  const recorder = new Recorder({ events: new X11RecordSource({ env: kit.env }), screen: kit.screen, windows: kit.windows, encodePng, secretField });
  const r = await recordDemonstration(t, { env: kit.env, windows: kit.windows, input: kit.input }, recorder, dir);
  expect(r.problems).toEqual([]);
  expect(r.observed).toBe(t.expected(t.recorded));
  return dir;
}

const build = (sessionDir: string, out: string) => buildAt(sessionDir, out, detector, words);

/** What must not change from one build of a demonstration to another. */
const identity = (t: Target | null) => (t ? { type: t.type, label: t.label, by_text: t.by_text, caption: t.caption?.text ?? null, cues: t.cues, region: !!t.region, icon: !!t.icon, typed_into: !!t.typed_into } : null);

let first: { workflow: Workflow; warnings: string[]; path: string };
const verdicts: string[] = [];

describe("targets with every cue on a real GTK form", () => {
  it("builds: captions name the fields, variables come from corrected captions, the empty canvas is a region (flat crop refused), the icon-only Save is no one-letter text", async () => {
    const session = await record(task, "rec-1");
    first = await build(session, join(work, "wf-1"));
    const { workflow, warnings } = first;
    const clicks = workflow.steps.filter((s) => s.action === "click");
    expect(clicks).toHaveLength(5);
    expect(clicks.slice(0, 3).map((s) => s.target?.caption?.text)).toEqual(["Nom du client", "Prix unitaire HT", "Ville"].map((c) => expect.stringMatching(new RegExp(`^${c}`, "i"))));
    expect(clicks.slice(0, 3).every((s) => s.target?.typed_into && s.target.type === "text_input")).toBe(true);
    expect(workflow.variables.map((v) => v.name)).toEqual(["nom_du_client", "prix_unitaire_ht", "ville"]);
    // No field of this form is a password field and the typed text shows in each: no burst is kept secret.
    expect(workflow.variables.map((v) => v.secret), verdicts.join("\n")).toEqual([false, false, false]);
    // The click into the empty canvas: its crop is plain, refused with a warning; the target is a region of the window.
    expect(clicks[3]!.target).toMatchObject({ icon: null, region: true, label: "" });
    expect(clicks[3]!.intention).toMatch(/^Cliquer sur la zone à \d+ % × \d+ % de la fenêtre « Fiche article »$/);
    expect(warnings.some((w) => new RegExp(`${clicks[3]!.step_id}: the icon crop .* is flat`).test(w))).toBe(true);
    // The icon-only Save button: found by its icon, never a one- or two-letter OCR reading.
    const save = clicks[4]!.target!;
    expect(save.icon).toBeTruthy();
    expect(save.icon_contrast).toBeGreaterThan(12);
    expect(save.label.replace(/[^\p{L}]/gu, "").length === 0 || save.label.length > 2).toBe(true);
    expect(save.by_text === null || save.by_text.length > 2).toBe(true);
  }, 300_000);

  it("the same session builds the same targets twice; a second recording of the same demonstration builds the same ones", async () => {
    const twice = await build(join(work, "rec-1"), join(work, "wf-1b"));
    expect(twice.workflow.steps.map((s) => s.target)).toEqual(first.workflow.steps.map((s) => s.target));
    expect(twice.workflow.variables).toEqual(first.workflow.variables);
    const other = await build(await record(again, "rec-2"), join(work, "wf-2"));
    expect(other.workflow.steps.map((s) => [s.action, identity(s.target)])).toEqual(first.workflow.steps.map((s) => [s.action, identity(s.target)]));
    expect(other.workflow.variables.map((v) => v.name)).toEqual(first.workflow.variables.map((v) => v.name));
  }, 300_000);

  const replay = async (opts: GenStartOptions, data: Record<string, string>) => {
    const wf = first.workflow;
    const keys = Object.keys(task.recorded);
    const vars = Object.fromEntries(wf.variables.map((v, i) => [v.name, data[keys[i]!]!]));
    const run = await task.start({ env: kit.env }, kit.windows, {}, data, opts);
    try {
      const r = await replayWorkflow({ workflowPath: first.path, vars, maxAttempts: 2 }, kit.env, join(work, "data"), () => undefined);
      return { r, got: await run.observe(), trace: readTrace(r.runDir) };
    } finally {
      await run.stop();
    }
  };

  it("a field is found by its caption when a new field above shifts every rank: the new data lands in the right fields", async () => {
    const data = task.rows[0]!;
    const { r, got, trace } = await replay({ extraField: true }, data);
    expect(got).toBe(task.expected(data));
    // The oracle decides; the actor says "unverified" when a check of its own could not be made, never "failed" here.
    expect(["passed", "unverified"]).toContain(r.status);
    const notes = trace.events.filter((e) => e.type === "before" && e.method === "element").map((e) => (e.type === "before" ? e.decision : ""));
    expect(notes.some((n) => /in reading order/.test(n))).toBe(false);
  }, 300_000);

  it("a greyed-out field is never typed into: the step fails as not found, nothing typed elsewhere", async () => {
    const data = task.rows[0]!;
    const { r, got, trace } = await replay({ insensitive: ["ville"] }, data);
    expect(r.status).toBe("failed");
    const end = trace.events.find((e) => e.type === "row_end");
    // Not found: the actor asks (assist_needed without a terminal) instead of guessing.
    expect(["target_not_found", "assist_needed"]).toContain(end?.type === "row_end" ? end.error?.code : undefined);
    // The two fields before it got their values; no Save happened (the app wrote nothing).
    expect(got).toBe("(not saved)");
    const typed = trace.events.filter((e) => e.type === "action" && e.action === "type").map((e) => (e.type === "action" ? e.input : ""));
    // Only those two typing steps ran, in clear (neither field is a secret).
    expect(typed).toEqual([data.client, data.prix]);
  }, 300_000);
});
