// `rpav record`, `rpav build`, `rpav workflow vars`: the demonstration becomes a template.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { Command } from "commander";
import { InvalidInputError } from "../../core/errors.js";
import { timestampedId } from "../../core/ids.js";
import { DEFAULT_MAX_DOCUMENT_BYTES, readDocumentAs } from "../../core/schemas/documents.js";
import type { Workflow } from "../../core/schemas/workflow.js";
import { encodePng, readImageFile } from "../../capture/png.js";
import { X11ScreenSource } from "../../platform/x11/x11-screen-source.js";
import { X11WindowInfo } from "../../platform/x11/x11-window-info.js";
import { Recorder } from "../../record/recorder.js";
import { readSession } from "../../record/session.js";
import { detectorReader, secretFieldFinder } from "../../record/perception-adapters.js";
import { buildWorkflow } from "../../record/template-builder.js";
import { createStateEmbedder, storeBuiltWorkflow } from "../state-embedder.js";
import { applyVariableOperations, type VariableOperation } from "../../record/workflow-vars.js";
import { AccentLexicon } from "../../perception/hybrid-ocr.js";
import { X11RecordSource } from "../../platform/x11/x11-record-source.js";
import { resolveDataDir, type GlobalOptions } from "../config.js";
import { stepScreenshots } from "../../record/step-screens.js";
import { enrichWorkflow } from "../../vlm/enricher.js";
import { resolveVlmConfig } from "../vlm-config.js";
import { createVlmProviders } from "../vlm-providers.js";
import { readInputFile } from "../io.js";
import { desktopEnv } from "../desktop-env.js";
import type { CliIo } from "./desktop.js";
import { createDetector } from "./perception.js";
import { openStore, type StoreChoice } from "./store.js";

export function registerRecordCommands(program: Command, io: CliIo): void {
  const globals = () => program.opts<GlobalOptions>();
  program
    .command("record")
    .description("record a demonstration (global mouse and keyboard, screenshots before/after each action) until the stop key or Ctrl+C")
    .requiredOption("--name <workflow>", "name of the task")
    .option("--app <name>", "application the task is about", "")
    .option("--stop-key <keysym>", "X keysym of the key that stops the recording", "Pause")
    .option("--out <dir>", "session folder (default: <data dir>/sessions/<name>-<time>)")
    .action(async (o: { name: string; app: string; stopKey: string; out?: string }) => {
      const env = desktopEnv(io.env);
      const dataDir = resolveDataDir(globals(), io.env);
      const dir = resolve(o.out ?? join(dataDir, "sessions", timestampedId(o.name.replace(/[^\w.-]+/g, "_"))));
      const windows = new X11WindowInfo({ env });
      const screen = new X11ScreenSource({ env, windows });
      // No OCR cache while recording: what the screen shows during typing stays in memory.
      const { detector, close } = await createDetector({ ocr: "ppocr" }, undefined, false);
      const ctl = new AbortController();
      const onSig = () => ctl.abort();
      process.once("SIGINT", onSig);
      process.once("SIGTERM", onSig);
      try {
        const recorder = new Recorder({ events: new X11RecordSource({ env }), screen, windows, encodePng, secretField: secretFieldFinder(detector) });
        io.err(`recording "${o.name}" into ${dir} — press ${o.stopKey} or Ctrl+C to stop\n`);
        const r = await recorder.record({
          dir,
          name: o.name,
          app: o.app,
          stopKey: o.stopKey,
          signal: ctl.signal,
          onSecretVerdict: (seq, v) => io.err(`  ${seq}. typing ${v.secret ? "kept secret" : "kept"}: ${v.why}\n`),
          onAction: (a) => io.err(`  ${a.seq}. ${a.kind}${a.combo ? ` ${a.combo}` : ""}${a.secret ? " (secret)" : a.text !== undefined ? ` ${JSON.stringify(a.text)}` : ""}${a.x !== undefined ? ` at (${a.x}, ${a.y})` : ""} — ${a.window?.title ?? "?"}\n`),
        });
        io.out(`${r.dir}\n`);
        if (r.actions === 0) io.err("no action was recorded.\n");
        for (const problem of r.problems) io.err(`warning: ${problem}\n`);
      } finally {
        process.off("SIGINT", onSig);
        process.off("SIGTERM", onSig);
        await screen.close();
        await close();
      }
    });

  program
    .command("build <session>")
    .description("turn a recorded session into a workflow_v1 template with variables")
    .option("--out <file.json>", "workflow file (default: <session>/workflow.json)")
    .option("--enrich", "ask the understanding model (RPAV_MODEL_UNDERSTANDING) for each step's intention, expected state and result and its target's description; without a reachable model the deterministic texts stay")
    .action(async (sessionDir: string, o: { out?: string; enrich?: boolean }) => {
      const session = readSession(resolve(sessionDir));
      const out = resolve(o.out ?? join(sessionDir, "workflow.json"));
      const dataDir = resolveDataDir(globals(), io.env);
      const { detector, close } = await createDetector({ ocr: "hybrid" }, join(dataDir, "cache", "ocr"), false);
      const stateEmbedder = createStateEmbedder();
      try {
        const built = await buildWorkflow(session, {
          reader: detectorReader(detector),
          loadImage: (p) => readImageFile(p),
          words: AccentLexicon.load(),
          saveIcon: async (name, frame) => {
            const rel = join("icons", name);
            mkdirSync(join(dirname(out), "icons"), { recursive: true });
            writeFileSync(join(dirname(out), rel), await encodePng(frame));
            return rel;
          },
          onProgress: (d, t) => io.err(`\rbuilding: ${d}/${t} actions`),
          embedState: (i) => stateEmbedder.embed(i),
        });
        io.err("\n");
        let { workflow } = built;
        const warnings = [...built.warnings];
        if (o.enrich) {
          const { roles } = createVlmProviders(resolveVlmConfig(dataDir, io.env));
          const { shots, problem } = stepScreenshots(workflow, session);
          if (problem) warnings.push(problem);
          const load = async (p: string | null | undefined) => (p ? readImageFile(join(session.dir, p)).catch(() => undefined) : undefined);
          const r = await enrichWorkflow(workflow, async (s) => ({ before: await load(shots.get(s.step_id)?.before), after: await load(shots.get(s.step_id)?.after) }), roles.understanding, { onProgress: (d, t) => io.err(`\renriching with ${roles.understanding.model}: ${d}/${t} steps`) });
          io.err("\n");
          workflow = r.workflow;
          warnings.push(...r.warnings);
          io.err(`enrichment: vlm_used ${r.vlm_used}, ${r.enriched.length} of ${workflow.steps.filter((s) => s.action !== "wait_for").length} steps written by ${roles.understanding.model}\n`);
        }
        mkdirSync(dirname(out), { recursive: true });
        writeFileSync(out, `${JSON.stringify(workflow, null, 2)}\n`);
        // And in the store, as a new version of the workflow.
        const store = await openStore(program.opts<GlobalOptions & StoreChoice>(), io.env);
        try {
          const version = await storeBuiltWorkflow(store, { ...built, workflow });
          io.err(`stored in ${store.location} as ${workflow.workflow_id} version ${version}, with ${built.screenStates.length} recorded screen states\n`);
        } finally {
          await store.close();
        }
        for (const w of warnings) io.err(`warning: ${w}\n`);
        io.out(`${out}: ${workflow.steps.length} steps, variables: ${workflow.variables.map((v) => `${v.name} (${v.type}${v.secret ? "" : `, e.g. ${JSON.stringify(v.example)}`})`).join(", ") || "none"}\n`);
        for (const s of workflow.steps) io.out(`  ${s.step_id} ${s.intention}\n`);
      } finally {
        await close();
      }
    });

  program
    .command("workflow")
    .description("edit a workflow")
    .command("vars <workflow.json>")
    .description("list the variables; --set old=new renames one, --demote name turns it back into the recorded literal, --promote step=name makes a typed literal a variable")
    .option("--set <old=new...>", "rename a variable")
    .option("--demote <name...>", "replace a variable by its recorded value")
    .option("--promote <step=name...>", "turn the literal text typed by a step (step_002 or step_002=name) into a variable")
    .option("--json", "print the variables as JSON")
    .action(async (file: string, o: { set?: string[]; demote?: string[]; promote?: string[]; json?: boolean }) => {
      let wf: Workflow = readDocumentAs("workflow_v1", (await readInputFile(file, DEFAULT_MAX_DOCUMENT_BYTES)).toString("utf8"), file);
      const ops: VariableOperation[] = [];
      for (const spec of o.set ?? []) {
        const m = /^([a-z][a-z0-9_]*)=([a-z][a-z0-9_]*)$/.exec(spec);
        if (!m) throw new InvalidInputError(`--set ${spec}: write old=new with lower-case names (letters, digits, _).`);
        ops.push({ kind: "rename", from: m[1]!, to: m[2]! });
      }
      for (const name of o.demote ?? []) ops.push({ kind: "demote", name });
      for (const spec of o.promote ?? []) {
        const [stepId, wanted] = spec.split("=") as [string, string | undefined];
        ops.push({ kind: "promote", stepId, ...(wanted !== undefined ? { name: wanted } : {}) });
      }
      wf = applyVariableOperations(wf, ops, file);
      if (o.set?.length || o.demote?.length || o.promote?.length) {
        writeFileSync(file, `${JSON.stringify(wf, null, 2)}\n`);
        const store = await openStore(program.opts<GlobalOptions & StoreChoice>(), io.env);
        try {
          io.err(`stored as ${wf.workflow_id} version ${await store.putWorkflow(wf)}\n`);
        } finally {
          await store.close();
        }
      }
      if (o.json) io.out(`${JSON.stringify(wf.variables, null, 2)}\n`);
      else for (const v of wf.variables) io.out(`${v.name}\t${v.type}\t${v.secret ? "(secret)" : JSON.stringify(v.example)}\t${v.steps.join(",")}\n`);
    });
}
