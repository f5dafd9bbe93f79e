// `rpav record`, `rpav build`, `rpav workflow vars`: the demonstration becomes a template.
import { writeFileSync } from "node:fs";
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
import { createDetector, loadIconClassifier, resolveDetector } from "./perception.js";
import { openStore, type StoreChoice } from "./store.js";
import { newScreenGate, regionsMode } from "../screen-memory.js";
import { checkOutputFile, writeOutputFile } from "../../core/make-dirs.js";

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
      const { detector, close } = await createDetector({ ocr: "ppocr", detector: resolveDetector(dataDir, io.env) }, undefined, false);
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
    .option("--vlm-regions [when]", 'also ask the grounding model for the elements of each step\'s screen: "new" (default: only screens whose state embedding matches no stored state) or "always"; without it, config.json\'s vlm.regions (off by default)')
    .action(async (sessionDir: string, o: { out?: string; enrich?: boolean; vlmRegions?: string | boolean }) => {
      const session = readSession(resolve(sessionDir));
      const out = resolve(o.out ?? join(sessionDir, "workflow.json"));
      checkOutputFile(out, "--out");
      const dataDir = resolveDataDir(globals(), io.env);
      const stateEmbedder = createStateEmbedder();
      const vlmConfig = resolveVlmConfig(dataDir, io.env);
      const mode = regionsMode(o.vlmRegions, undefined, vlmConfig);
      const gateStore = mode === "new_screens" ? await openStore(program.opts<GlobalOptions & StoreChoice>(), io.env) : undefined;
      const regions = mode !== "off" ? { vlm: createVlmProviders(vlmConfig).proposer, ...(gateStore ? { vlmGate: newScreenGate(gateStore, stateEmbedder, vlmConfig) } : {}) } : {};
      const { detector, lexicon, close: closeDetector } = await createDetector({ ocr: "hybrid", detector: resolveDetector(dataDir, io.env) }, join(dataDir, "cache", "ocr"), false, regions);
      // What icon-only targets show (their icon's class), kept with them for replay; without the model, not kept.
      const icons = await loadIconClassifier((l) => io.err(l));
      const close = async () => {
        await Promise.all([closeDetector(), icons?.close()]);
        await gateStore?.close();
      };
      try {
        const built = await buildWorkflow(session, {
          reader: detectorReader(detector),
          loadImage: (p) => readImageFile(p),
          words: lexicon ?? AccentLexicon.load(), // the word lists the hybrid OCR already loaded
          saveIcon: async (name, frame) => {
            const rel = join("icons", name);
            writeOutputFile(join(dirname(out), rel), await encodePng(frame), "--out");
            return rel;
          },
          onProgress: (d, t) => io.err(`\rbuilding: ${d}/${t} actions`),
          embedState: (i) => stateEmbedder.embed(i),
          ...(icons ? { icons } : {}),
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
        writeOutputFile(out, `${JSON.stringify(workflow, null, 2)}\n`, "--out");
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
    .option("--secret-env <name=ENV_VAR...>", "a secret variable's value may come from this environment variable at run time")
    .option("--secret-name <name=entry...>", "the credential store entry (rpav secret set <entry>) holding a secret variable's value (default: its name)")
    .option("--json", "print the variables as JSON")
    .action(async (file: string, o: { set?: string[]; demote?: string[]; promote?: string[]; secretEnv?: string[]; secretName?: string[]; json?: boolean }) => {
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
      const sourceOf = (spec: string, field: "secret_env" | "secret_name", pattern: RegExp, option: string) => {
        const m = /^([a-z][a-z0-9_]*)=(.+)$/.exec(spec);
        const v = m ? wf.variables.find((x) => x.name === m[1]) : undefined;
        if (!m || !pattern.test(m[2]!)) throw new InvalidInputError(`${option} ${spec}: write name=${field === "secret_env" ? "ENV_VAR (letters, digits, _)" : "entry (letters, digits, _ . -)"}.`);
        if (!v) throw new InvalidInputError(`${option} ${spec}: "${m[1]}" is not a variable of ${file} (it has: ${wf.variables.map((x) => x.name).join(", ") || "none"}).`);
        if (!v.secret) throw new InvalidInputError(`${option} ${spec}: "${v.name}" is not a secret variable; only secrets take their value from there.`);
        wf = { ...wf, variables: wf.variables.map((x) => (x.name === v.name ? { ...x, [field]: m[2]! } : x)) };
      };
      for (const spec of o.secretEnv ?? []) sourceOf(spec, "secret_env", /^[A-Za-z_][A-Za-z0-9_]*$/, "--secret-env");
      for (const spec of o.secretName ?? []) sourceOf(spec, "secret_name", /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/, "--secret-name");
      if (o.set?.length || o.demote?.length || o.promote?.length || o.secretEnv?.length || o.secretName?.length) {
        writeFileSync(file, `${JSON.stringify(wf, null, 2)}\n`);
        const store = await openStore(program.opts<GlobalOptions & StoreChoice>(), io.env);
        try {
          io.err(`stored as ${wf.workflow_id} version ${await store.putWorkflow(wf)}\n`);
        } finally {
          await store.close();
        }
      }
      if (o.json) io.out(`${JSON.stringify(wf.variables, null, 2)}\n`);
      else for (const v of wf.variables) io.out(`${v.name}\t${v.type}\t${v.secret ? `(secret${v.secret_env ? `, env ${v.secret_env}` : ""}${v.secret_name ? `, store ${v.secret_name}` : ""})` : JSON.stringify(v.example)}\t${v.steps.join(",")}\n`);
    });
}
