// `rpav start` (what `npm start` runs): the main job that exists today, end to end on the embedded
// default. Brings up the lab if there is no display, opens a real GTK app, waits until its window
// is still, captures it, detects its UI elements and text, embeds it (image, OCR text, title,
// elements, context), stores the screen state, its
// screenshot and vectors in the embedded SQLite store; changes the window (clicks a check box it
// detected), captures it again and finds the stored state by vector search (cosine printed);
// writes an HTML report a person can open; replays the bundled demo and checks yad's output; leaves
// nothing running that it started. Any part that fails makes `rpav start` exit 1.
import { mkdirSync, writeFileSync } from "node:fs";
import { escapeHtml as esc } from "../../core/html.js";
import { frameToScreen, type Frame } from "../../core/frame.js";
import type { StateEmbedding } from "../../embedding/multimodal-embedding-manager.js";
import type { DetectionResult, UIElementDetector } from "../../perception/ui-element-detector.js";
import { X11XTestInputDriver } from "../../platform/x11/x11-xtest-input-driver.js";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { captureStable } from "../../capture/stable-capture.js";
import { X11ScreenSource } from "../../platform/x11/x11-screen-source.js";
import { X11WindowInfo } from "../../platform/x11/x11-window-info.js";
import { cosine } from "../../core/vectors.js";
import type { MultiModalEmbeddingManager } from "../../embedding/multimodal-embedding-manager.js";
import { launchApp } from "../../platform/x11/app-launcher.js";
import { YAD_PATIENT_APP as YAD_PATIENT } from "../demo-yad.js";
import { labDown, labUp, type LabSession } from "../../platform/x11/desktop-lab.js";
import { SqliteStore } from "../../store/sqlite-store.js";
import { VectorSearch } from "../../store/vector-search.js";
import { drawBoxes } from "../../perception/debug-image.js";
import { LAB_STATE_DIR } from "../config.js";
import { SAME_SCREEN_COSINE } from "../../embedding/screen-novelty.js";
import { defaultStateManager, embedDetectedScreen, rememberScreen } from "../screen-memory.js";
import { createDetector, resolveDetector } from "./perception.js";
import { replayWorkflow } from "./replay.js";
import type { CliIo } from "./desktop.js";

/** One part of the main job that did not do what it should; `rpav start` exits 1 when any did. */
export interface JobFailure {
  part: string;
  message: string;
}

interface Look {
  frame: Frame;
  det: DetectionResult;
  emb: StateEmbedding;
}

/** Captures the window once still, detects its elements and text, and embeds it (complete mode). */
async function look(screen: X11ScreenSource, windowId: string, title: string, appName: string, detector: UIElementDetector, manager: MultiModalEmbeddingManager): Promise<Look & { stable: boolean }> {
  const { frame, stable } = await captureStable(screen, { kind: "window", windowId });
  const det = await detector.detect(frame, { appName, windowTitle: title });
  const emb = await embedDetectedScreen(manager, frame, det, { appName, title, sessionId: "npm-start", tags: ["npm-start"] });
  return { frame, det, emb, stable };
}

/** Minimum cosine for the recaptured window to count as "the same screen" (property 13's 0.85). */
export { SAME_SCREEN_COSINE };
/** Earlier captures of the very same screen may score this much higher than the state just stored. */
const TIE_COSINE = 0.02;

/**
 * The main job; returns the report and every part that failed (empty when all passed). Steps:
 * capture → detect → embed → store; then a change in the window (a check box the detector found is
 * clicked), a new capture, and a vector search of the store with the new embedding that must find
 * the stored state (cosine printed); then the bundled demo replay, checked against what yad printed.
 */
export async function runStartJob(io: CliIo, dataDir: string): Promise<{ report: string; failures: JobFailure[] }> {
  const say = (m: string) => io.out(`${m}\n`);
  const failures: JobFailure[] = [];
  const fail = (part: string, message: string) => {
    failures.push({ part, message });
    say(`FAILED (${part}): ${message}`);
  };
  let lab: LabSession | undefined;
  let startedLab = false;
  let env = io.env;
  if (!env.DISPLAY) {
    say("no DISPLAY: using the lab desktop on :99…");
    lab = await labUp({ display: 99, stateDir: LAB_STATE_DIR });
    startedLab = lab.upMs > 0; // a lab that was already up stays up
    env = { ...env, ...lab.env };
  }
  const windows = new X11WindowInfo({ env });
  const screen = new X11ScreenSource({ env, windows });
  const input = new X11XTestInputDriver({ env });
  const store = SqliteStore.open(dataDir);
  const { detector, close } = await createDetector({ ocr: "hybrid", detector: resolveDetector(dataDir, io.env) }, join(dataDir, "cache", "ocr"), false, { logger: io.logger?.(), failureDir: join(dataDir, "failures") });
  try {
    say("opening gtk3-widget-factory…");
    const app = await launchApp({ env }, windows, { command: "gtk3-widget-factory", window: { app: "gtk3-widget-factory" } });
    try {
      const manager = defaultStateManager();
      say("detecting UI elements (OCR + shapes)…");
      const first = await look(screen, app.window.id, app.window.title, app.window.appName, detector, manager);
      const { frame, det, emb } = first;
      say(`captured ${frame.width}×${frame.height} at (${frame.origin.join(", ")})${first.stable ? "" : " (the window was still changing)"}`);
      say(`${det.elements.length} elements, ${det.perception.detected_text.length} text lines in ${Math.round(det.metadata.detection_time_ms)} ms`);
      if (det.metadata.failed) fail("detect", `${det.metadata.failed.code}: ${det.metadata.failed.message}`);
      const annotated = await drawBoxes(frame, det.elements);
      const state = await rememberScreen(store, dataDir, frame, det, emb, { appName: app.window.appName, title: app.window.title, sessionId: "npm-start", tags: ["npm-start"] });
      const { screen_state_id: id, state_embedding } = state;
      const stored = (await store.findScreenStates({ appName: app.window.appName, limit: 1_000_000 })).length;
      say(`stored ${id} in ${store.location} (${stored} state(s) of ${app.window.appName} so far)`);
      for (const w of emb.warnings) say(`  note: ${w.component} component empty (${w.reason})`);

      // A change in the window, a new capture, and the stored state found again by search.
      const box = det.elements.find((e) => e.type === "checkbox");
      let hits: { id: string; score: number }[] = [];
      let change = "no check box detected: nothing changed";
      if (!box) fail("change", "the detector found no check box to click in gtk3-widget-factory");
      else {
        const [cx, cy] = frameToScreen(frame, [(box.bbox[0] + box.bbox[2]) / 2, (box.bbox[1] + box.bbox[3]) / 2]);
        change = `clicked the check box ${JSON.stringify(box.label)} at (${Math.round(cx)}, ${Math.round(cy)})`;
        await input.click([Math.round(cx), Math.round(cy)], { targetWindow: app.window.id });
        await input.move([Math.round(frame.origin[0] + frame.width / frame.scaleFactor + 40), Math.round(cy)], { durationMs: 0 }); // the pointer off the window
        const second = await look(screen, app.window.id, app.window.title, app.window.appName, detector, manager);
        const pixels = changedPixels(frame, second.frame);
        say(`${change}; recaptured: ${(pixels * 100).toFixed(2)} % of the pixels changed`);
        if (pixels === 0) fail("change", `${change}, but the window did not change`);
        // Earlier runs stored captures of the same screen, which may come out a hair nearer: ours
        // must be there, at ≥ SAME_SCREEN_COSINE, within TIE_COSINE of the nearest.
        const all = await new VectorSearch(store, { kind: "exact" }).search(second.emb.provider, second.emb.vector, 100);
        hits = all.slice(0, 3);
        say(`nearest stored states to the new capture: ${hits.map((h) => `${h.id.split("/").pop()} (cosine ${h.score.toFixed(3)})`).join(", ")}`);
        const rank = all.findIndex((h) => h.id === state_embedding.vector_id);
        const ours = all[rank];
        const top = all[0];
        if (!ours || !top) fail("search", `the vector search did not return ${state_embedding.vector_id}`);
        else if (ours.score < SAME_SCREEN_COSINE) fail("search", `found ${id} with cosine ${ours.score.toFixed(3)}, below ${SAME_SCREEN_COSINE}`);
        else if (top.score - ours.score > TIE_COSINE) fail("search", `${top.id} (cosine ${top.score.toFixed(3)}) is nearer than the stored ${id} (cosine ${ours.score.toFixed(3)})`);
        else {
          // The screen barely changed, so the fused cosine is near 1; the image component shows that the recapture is a vector of its own.
          const image = emb.components.image && second.emb.components.image ? cosine(emb.components.image.vector, second.emb.components.image.vector) : NaN;
          say(`found ${id} again by vector search: cosine ${ours.score.toFixed(4)} ≥ ${SAME_SCREEN_COSINE} (rank ${rank + 1} of ${all.length}); image component cosine ${image.toFixed(6)}`);
        }
      }
      const reportDir = join(dataDir, "reports");
      mkdirSync(reportDir, { recursive: true });
      const report = join(reportDir, `${id}.html`);
      writeFileSync(
        report,
        `<!DOCTYPE html><html><head><meta charset="utf-8"><title>rpav start — ${esc(id)}</title>
<style>body{font-family:sans-serif;margin:2em}img{max-width:100%;border:1px solid #999}td,th{padding:4px 10px;text-align:left}</style></head>
<body><h1>Screen state ${esc(id)}</h1><p>Window “${esc(app.window.title)}” (${esc(app.window.appName)}), ${frame.width}×${frame.height} at (${frame.origin.join(", ")}).</p>
<img alt="captured window with the detected elements" src="data:image/png;base64,${annotated.toString("base64")}">
<h2>Detected elements (${det.elements.length}, ${Math.round(det.metadata.detection_time_ms)} ms)</h2><table><tr><th>type</th><th>label</th><th>role</th><th>box</th><th>confidence</th></tr>
${det.elements.map((e) => `<tr><td>${esc(e.type)}</td><td>${esc(e.label)}</td><td>${esc(e.role)}${e.properties.is_dangerous ? " ⚠" : ""}</td><td>${e.bbox.join(", ")}</td><td>${e.confidence}</td></tr>`).join("\n")}
</table><h2>Text read</h2><p>${det.perception.detected_text.map(esc).join(" · ")}</p>
<h2>State embedding</h2><table><tr><th>component</th><th>provider</th><th>vector_id</th></tr>
${Object.entries((state_embedding.components ?? {}) as Record<string, { provider: string; vector_id: string }>).map(([k, c]) => `<tr><td>${esc(k)}</td><td>${esc(c.provider)}</td><td>${esc(c.vector_id)}</td></tr>`).join("\n")}
</table><h2>Found again after a change</h2><p>${esc(change)}; nearest stored states to the new capture:</p><ol>${hits.map((h) => `<li>${esc(h.id)} — cosine ${h.score.toFixed(4)}</li>`).join("")}</ol></body></html>\n`,
      );
      say(`report: ${report}`);
      await app.stop();
      failures.push(...(await replayDemo(io, env, dataDir, store, windows)));
      if (failures.length) say(`\nmain job: ${failures.length} part(s) failed: ${failures.map((f) => f.part).join(", ")}`);
      else say("\nmain job: every part passed");
      return { report, failures };
    } finally {
      await app.stop();
    }
  } finally {
    await close();
    await input.close();
    await screen.close();
    await store.close();
    if (startedLab) await labDown({ display: 99, stateDir: LAB_STATE_DIR });
  }
}

/** Share of pixels that differ between two captures of the same window (1 when the sizes differ). */
function changedPixels(a: Frame, b: Frame): number {
  if (a.width !== b.width || a.height !== b.height) return 1;
  let n = 0;
  for (let i = 0; i < a.data.length; i += 4) if (a.data[i] !== b.data[i] || a.data[i + 1] !== b.data[i + 1] || a.data[i + 2] !== b.data[i + 2]) n++;
  return n / (a.width * a.height);
}

/** The bundled demo (recorded in the lab, committed in demos/): a yad patient form, replayed with new values. */
export const DEMO_WORKFLOW = fileURLToPath(new URL("../../../demos/yad-patient/workflow.json", import.meta.url));

async function replayDemo(io: CliIo, env: NodeJS.ProcessEnv, dataDir: string, store: SqliteStore, windows: X11WindowInfo): Promise<JobFailure[]> {
  const row = YAD_PATIENT.rows[0]!;
  io.out(`\nreplaying the bundled demo « ${YAD_PATIENT.title} » (${DEMO_WORKFLOW}) with new values: ${Object.entries(row).map(([k, v]) => `${k}=${v}`).join(", ")}\n`);
  const failures: JobFailure[] = [];
  const run = await YAD_PATIENT.start({ env }, windows, {}, row);
  try {
    const r = await replayWorkflow({ workflowPath: DEMO_WORKFLOW, vars: { ...row }, logger: io.logger?.() }, env, dataDir, (s) => io.err(s), store);
    const got = await run.observe();
    const want = YAD_PATIENT.expected(row);
    io.out(`replay ${r.status}; yad printed ${JSON.stringify(got)}${got === want ? " (as expected)" : ` — expected ${JSON.stringify(want)}`}\n`);
    io.out(`replay report: ${r.report}\n`);
    if (r.status !== "passed") failures.push({ part: "replay", message: `the demo replay ${r.status} (${r.report})` });
    if (got !== want) failures.push({ part: "replay output", message: `yad printed ${JSON.stringify(got)}, expected ${JSON.stringify(want)}` });
    for (const f of failures) io.out(`FAILED (${f.part}): ${f.message}\n`);
  } finally {
    await run.stop();
  }
  return failures;
}
