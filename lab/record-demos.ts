// Records the lab's replay tasks once, as a person would show them, and builds the workflows
// committed under demos/<task>/ (workflow.json + icons/). Run on a lab desktop:
//   rpav lab up --display 96 && DISPLAY=:96 npx tsx lab/record-demos.ts [task…]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { encodePng, readImageFile } from "../src/capture/png.js";
import { X11ScreenSource } from "../src/platform/x11/x11-screen-source.js";
import { X11WindowInfo } from "../src/platform/x11/x11-window-info.js";
import { sleep } from "../src/core/process.js";
import { REPLAY_TASKS } from "../src/lab/replay-tasks.js";
import { AccentLexicon, HybridOcr } from "../src/perception/hybrid-ocr.js";
import { PpOcr } from "../src/perception/ppocr-ocr.js";
import { TesseractOcr } from "../src/perception/tesseract-ocr.js";
import { UIElementDetector } from "../src/perception/ui-element-detector.js";
import { detectorReader, secretFieldFinder } from "../src/record/perception-adapters.js";
import { Recorder } from "../src/record/recorder.js";
import { readSession } from "../src/record/session.js";
import { buildWorkflow } from "../src/record/template-builder.js";
import { X11RecordSource } from "../src/platform/x11/x11-record-source.js";
import { X11XTestInputDriver } from "../src/platform/x11/x11-xtest-input-driver.js";

const env = { ...process.env };
if (!env.DISPLAY) throw new Error("DISPLAY is not set: run `rpav lab up --display 96` and DISPLAY=:96.");
const windows = new X11WindowInfo({ env });
const screen = new X11ScreenSource({ env, windows });
const input = new X11XTestInputDriver({ env, speed: 2 });
const pp = await PpOcr.create();
const tess = await TesseractOcr.create();
const detector = new UIElementDetector({ ocr: new HybridOcr(pp, tess, AccentLexicon.load()) });
const wanted = process.argv.slice(2);
try {
  for (const task of REPLAY_TASKS.filter((t) => wanted.length === 0 || wanted.includes(t.name))) {
    console.error(`recording ${task.name}…`);
    const run = await task.start({ env }, windows, {}, task.recorded);
    const dir = mkdtempSync(join(tmpdir(), `rpav-demo-${task.name}-`));
    try {
      await windows.activate(run.app.window.id);
      await sleep(800);
      const recorder = new Recorder({ events: new X11RecordSource({ env }), screen, windows, encodePng, secretField: secretFieldFinder(new UIElementDetector({ ocr: pp })) });
      const recording = recorder.record({ dir, name: task.title, app: task.app, settleMs: 300 });
      await sleep(700);
      await task.demonstrate(run, input, env, task.recorded, windows);
      const got = await run.observe();
      if (got !== task.expected(task.recorded)) throw new Error(`${task.name}: the demonstration did not do the task: got ${JSON.stringify(got)}`);
      await sleep(500);
      recorder.stop();
      const { problems } = await recording;
      if (problems.length) console.error(problems);
      const out = resolve("demos", task.name);
      rmSync(out, { recursive: true, force: true });
      mkdirSync(join(out, "icons"), { recursive: true });
      const { workflow, warnings } = await buildWorkflow(readSession(dir), {
        reader: detectorReader(detector),
        loadImage: (p) => readImageFile(p),
        saveIcon: async (name, frame) => {
          writeFileSync(join(out, "icons", name), await encodePng(frame));
          return `icons/${name}`;
        },
      });
      workflow.source_session = `lab/record-demos.ts ${task.name}`;
      writeFileSync(join(out, "workflow.json"), `${JSON.stringify(workflow, null, 2)}\n`);
      for (const w of warnings) console.error(`  warning: ${w}`);
      console.error(`  ${workflow.steps.length} steps: ${workflow.steps.map((s) => `${s.action}${s.target ? `(${s.target.type} « ${s.target.label} »)` : s.combo ? `(${s.combo})` : ""}`).join(", ")}`);
      console.error(`  variables: ${workflow.variables.map((v) => `${v.name}=${JSON.stringify(v.example)}`).join(", ")}`);
    } finally {
      await run.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }
} finally {
  await Promise.allSettled([screen.close(), input.close(), tess.close()]);
}
