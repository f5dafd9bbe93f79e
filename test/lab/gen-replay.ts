// Record once and replay a generated task app (lab/task-apps) in the lab tests: the scripted person's demonstration
// recorded through X RECORD and built with the real detector, then replayed in a cell; the oracle is the file the app
// writes, which never looks at the screen.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect } from "vitest";
import { encodePng, readImageFile } from "../../src/capture/png.js";
import { replayWorkflow } from "../../src/cli/commands/replay.js";
import type { Workflow } from "../../src/core/schemas/workflow.js";
import { recordDemonstration } from "../../src/lab/gen-tasks.js";
import type { ReplayTask } from "../../src/lab/replay-tasks.js";
import type { AppVariant } from "../../src/platform/x11/desktop-lab.js";
import { AccentLexicon, HybridOcr } from "../../src/perception/hybrid-ocr.js";
import { PpOcr } from "../../src/perception/ppocr-ocr.js";
import { IconClassifier } from "../../src/perception/icon-classifier.js";
import type { IconRecognizer } from "../../src/core/providers/icon-recognizer.js";
import { TesseractOcr } from "../../src/perception/tesseract-ocr.js";
import { UIElementDetector } from "../../src/perception/ui-element-detector.js";
import { X11RecordSource } from "../../src/platform/x11/x11-record-source.js";
import { detectorReader, secretFieldFinder } from "../../src/record/perception-adapters.js";
import { Recorder } from "../../src/record/recorder.js";
import { readSession } from "../../src/record/session.js";
import { buildWorkflow } from "../../src/record/template-builder.js";
import { readTrace } from "../../src/replay/trace.js";
import { labKit } from "./support.js";

export type Built = { workflow: Workflow; warnings: string[]; path: string };

/** The workflow built from the session in `sessionDir` by the real detector, written to `out` (workflow.json, icons/). */
export async function buildAt(sessionDir: string, out: string, detector: UIElementDetector, words: AccentLexicon, icons?: IconRecognizer): Promise<Built> {
  mkdirSync(join(out, "icons"), { recursive: true });
  const { workflow, warnings } = await buildWorkflow(readSession(sessionDir), {
    reader: detectorReader(detector),
    loadImage: (p) => readImageFile(p),
    words,
    ...(icons ? { icons } : {}),
    saveIcon: async (file, frame) => {
      writeFileSync(join(out, "icons", file), await encodePng(frame));
      return join("icons", file);
    },
  });
  const path = join(out, "workflow.json");
  writeFileSync(path, JSON.stringify(workflow));
  return { workflow, warnings, path };
}

/** The recorder, builder and replayer of generated tasks on the lab's desktop (`start` before use, `close` after). */
export function genReplay(kit: ReturnType<typeof labKit>) {
  let detector: UIElementDetector;
  let tess: TesseractOcr;
  // As `rpav record` builds: icon-only targets keep what their icon shows.
  let icons: IconClassifier;
  const words = AccentLexicon.load();
  const work = mkdtempSync(join(tmpdir(), "rpav-gen-cells-"));
  return {
    async start(): Promise<void> {
      tess = await TesseractOcr.create();
      detector = new UIElementDetector({ ocr: new HybridOcr(await PpOcr.create(), tess, words) });
      icons = await IconClassifier.create();
    },
    async close(): Promise<void> {
      await Promise.all([tess?.close(), icons?.close()]);
    },
    /** Recorded once through X RECORD while the scripted person does the task (in `variant`), then built. */
    async recordAndBuild(task: ReplayTask, name: string, variant: AppVariant = {}): Promise<Built> {
      const dir = join(work, name);
      const recorder = new Recorder({ events: new X11RecordSource({ env: kit.env }), screen: kit.screen, windows: kit.windows, encodePng, secretField: secretFieldFinder(detector) });
      const r = await recordDemonstration(task, { env: kit.env, windows: kit.windows, input: kit.input }, recorder, join(dir, "session"), variant);
      expect(r.problems).toEqual([]);
      expect(r.observed).toBe(task.expected(task.recorded));
      return buildAt(join(dir, "session"), dir, detector, words, icons);
    },
    /** Replays `wf` on the app opened in `variant` with `data` (variables in the task's data order); the oracle and what each step did. */
    async replayIn(task: ReplayTask, wf: Built, variant: AppVariant, data: Record<string, string>) {
      const keys = Object.keys(task.recorded);
      const vars = Object.fromEntries(wf.workflow.variables.map((v, i) => [v.name, data[keys[i]!]!]));
      const run = await task.start({ env: kit.env }, kit.windows, variant, data);
      try {
        const r = await replayWorkflow({ workflowPath: wf.path, vars, maxAttempts: 2 }, kit.env, join(work, "data"), () => undefined);
        const trace = readTrace(r.runDir);
        const notes = trace.events.filter((e) => e.type === "before").map((e) => (e.type === "before" ? `${e.step_id} ${e.method}: ${e.decision}` : ""));
        const failed = trace.events.map((e) => (e.type === "after" && e.status === "failed" ? `${e.step_id}: ${e.error?.message ?? ""}` : "")).filter(Boolean);
        return { status: r.status, got: await run.observe(), notes, why: [...notes, ...failed].join("\n") };
      } finally {
        await run.stop();
      }
    },
  };
}

/** `genReplay` for one test file: the lab's desktop and the engines started before its tests, closed after them. */
export function genReplaySuite(): ReturnType<typeof genReplay> {
  const kit = labKit();
  const gen = genReplay(kit);
  beforeAll(() => gen.start());
  afterAll(async () => {
    await kit.cleanup();
    await gen.close();
  });
  return gen;
}
