// `rpav start` (what `npm start` runs): the main job that exists today, end to end on the embedded
// default. Brings up the lab if there is no display, opens a real GTK app, waits until its window
// is still, captures it, detects its UI elements and text, embeds it (image, OCR text, title,
// elements, context), stores the screen state, its
// screenshot and vectors in the embedded SQLite store, finds it again by vector search, writes an
// HTML report a person can open, and leaves nothing running that it started.
import { mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { captureStable } from "../../capture/stable-capture.js";
import { encodePng } from "../../capture/png.js";
import { X11ScreenSource } from "../../platform/x11/x11-screen-source.js";
import { X11WindowInfo } from "../../platform/x11/x11-window-info.js";
import { timestampedId } from "../../core/ids.js";
import { readDocument } from "../../core/schemas/documents.js";
import type { ScreenState } from "../../core/schemas/screenstate.js";
import { LayoutImageEmbedder } from "../../embedding/layout-image-embedder.js";
import { MultiModalEmbeddingManager } from "../../embedding/multimodal-embedding-manager.js";
import { NgramTextEmbedder } from "../../embedding/ngram-text-embedder.js";
import { persistStateEmbedding } from "../../embedding/state-embedding-record.js";
import { launchApp } from "../../platform/x11/app-launcher.js";
import { YAD_PATIENT_APP as YAD_PATIENT } from "../demo-yad.js";
import { labDown, labUp, type LabSession } from "../../platform/x11/desktop-lab.js";
import { ContentFiles } from "../../store/content-files.js";
import { SqliteStore } from "../../store/sqlite-store.js";
import { VectorSearch } from "../../store/vector-search.js";
import { drawBoxes } from "../../perception/debug-image.js";
import { LAB_STATE_DIR } from "../config.js";
import { createDetector } from "./perception.js";
import { replayWorkflow } from "./replay.js";
import type { CliIo } from "./desktop.js";

const esc = (s: string) => s.replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`);

export async function runStartJob(io: CliIo, dataDir: string): Promise<string> {
  const say = (m: string) => io.out(`${m}\n`);
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
  const store = SqliteStore.open(dataDir);
  try {
    say("opening gtk3-widget-factory…");
    const app = await launchApp({ env }, windows, { command: "gtk3-widget-factory", window: { app: "gtk3-widget-factory" } });
    try {
      const { frame, stable } = await captureStable(screen, { kind: "window", windowId: app.window.id });
      say(`captured ${frame.width}×${frame.height} at (${frame.origin.join(", ")})${stable ? "" : " (the window was still changing)"}`);
      say("detecting UI elements (OCR + shapes)…");
      const { detector, close } = await createDetector({ ocr: "hybrid" }, join(dataDir, "cache", "ocr"), false);
      const det = await detector.detect(frame, { appName: app.window.appName, windowTitle: app.window.title }).finally(close);
      say(`${det.elements.length} elements, ${det.perception.detected_text.length} text lines in ${Math.round(det.metadata.detection_time_ms)} ms`);
      const manager = new MultiModalEmbeddingManager(new LayoutImageEmbedder(512), new NgramTextEmbedder(512));
      const emb = await manager.embed({ frame, windowTitle: app.window.title, detectedText: det.perception.detected_text, elements: det.elements, context: { appName: app.window.appName, tags: ["npm-start"] } }, "complete");
      const png = await encodePng(frame);
      const annotated = await drawBoxes(frame, det.elements);
      const shot = await new ContentFiles(join(dataDir, "screens")).put(png);
      const id = timestampedId("screen");
      const state_embedding = await persistStateEmbedding(emb, id, (vectorId, provider, vector) => store.putVector(vectorId, provider, vector));
      const state: ScreenState = {
        schema_version: "screenstate_v1",
        mode: "complete",
        screen_state_id: id,
        timestamp: new Date().toISOString(),
        session_id: "npm-start",
        environment: { platform: process.platform, display_scale: frame.scaleFactor },
        window: { app_name: app.window.appName, window_title: app.window.title, screen_resolution: [frame.width, frame.height] },
        raw: { screenshot_path: shot.path },
        perception: det.perception,
        ui_elements: det.elements,
        state_embedding,
        context: { current_workflow_candidate: null, tags: ["npm-start"] },
        processing_metadata: { detection_time_ms: Math.round(det.metadata.detection_time_ms), num_elements_detected: det.elements.length, vlm_used: false },
      };
      readDocument(state, id); // the document we store is valid screenstate_v1
      await store.putScreenState(state);
      const hits = await new VectorSearch(store, { kind: "exact" }).search(emb.provider, emb.vector, 3);
      const stored = (await store.findScreenStates({ appName: app.window.appName, limit: 1_000_000 })).length;
      say(`stored ${id} in ${store.location} (${stored} state(s) of ${app.window.appName} so far)`);
      say(`nearest stored states: ${hits.map((h) => `${h.id.split("/").pop()} (${h.score.toFixed(3)})`).join(", ")}`);
      for (const w of emb.warnings) say(`  note: ${w.component} component empty (${w.reason})`);
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
</table><h2>Nearest stored states</h2><ol>${hits.map((h) => `<li>${esc(h.id)} — cosine ${h.score.toFixed(4)}</li>`).join("")}</ol></body></html>\n`,
      );
      say(`report: ${report}`);
      await app.stop();
      await replayDemo(io, env, dataDir, store, windows);
      return report;
    } finally {
      await app.stop();
    }
  } finally {
    await screen.close();
    await store.close();
    if (startedLab) await labDown({ display: 99, stateDir: LAB_STATE_DIR });
  }
}

/** The bundled demo (recorded in the lab, committed in demos/): a yad patient form, replayed with new values. */
export const DEMO_WORKFLOW = fileURLToPath(new URL("../../../demos/yad-patient/workflow.json", import.meta.url));

async function replayDemo(io: CliIo, env: NodeJS.ProcessEnv, dataDir: string, store: SqliteStore, windows: X11WindowInfo): Promise<void> {
  const row = YAD_PATIENT.rows[0]!;
  io.out(`\nreplaying the bundled demo « ${YAD_PATIENT.title} » (${DEMO_WORKFLOW}) with new values: ${Object.entries(row).map(([k, v]) => `${k}=${v}`).join(", ")}\n`);
  const run = await YAD_PATIENT.start({ env }, windows, {}, row);
  try {
    const r = await replayWorkflow({ workflowPath: DEMO_WORKFLOW, vars: { ...row } }, env, dataDir, (s) => io.err(s), store);
    const got = await run.observe();
    const want = YAD_PATIENT.expected(row);
    io.out(`replay ${r.status}; yad printed ${JSON.stringify(got)}${got === want ? " (as expected)" : ` — expected ${JSON.stringify(want)}`}\n`);
    io.out(`replay report: ${r.report}\n`);
  } finally {
    await run.stop();
  }
}
