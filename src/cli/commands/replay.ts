// `rpav replay` and `rpav report`: the composition root of replay. Real X11 screen, windows and
// XTEST input; the product's detector (PP-OCR by default, with the on-disk OCR cache); no VLM is
// wired yet (grounding: elements, then icon templates). The run is a folder with its trace_v1,
// screenshots and report.html; it is also recorded in the store (runs table).
import { spawn } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { Command } from "commander";
import { InvalidInputError } from "../../core/errors.js";
import { runningProcess } from "../process-id.js";
import { timestampedId } from "../../core/ids.js";
import type { Store } from "../../core/providers/store.js";
import type { Frame } from "../../core/frame.js";
import type { BBox } from "../../core/geometry.js";
import { DEFAULT_MAX_DOCUMENT_BYTES, readDocumentAs } from "../../core/schemas/documents.js";
import type { Workflow } from "../../core/schemas/workflow.js";
import { encodePng, readImageFile } from "../../capture/png.js";
import { X11ScreenSource } from "../../platform/x11/x11-screen-source.js";
import { X11WindowInfo } from "../../platform/x11/x11-window-info.js";
import { ReplayExecutor, type ReplayProgress, type RowOutcome } from "../../replay/executor.js";
import { X11XTestInputDriver } from "../../platform/x11/x11-xtest-input-driver.js";
import { renderReport } from "../../replay/report.js";
import { ElementMatcher } from "../../matching/workflow-matcher.js";
import { NgramTextEmbedder } from "../../embedding/ngram-text-embedder.js";
import type { DecisionModel } from "../../core/providers/decision-model.js";
import { AssistFiles } from "../../store/assist-files.js";
import { PatchFiles } from "../../store/patch-files.js";
import { terminalAnswerer } from "../assist-prompt.js";
import { readTrace, rowOutcomes, TraceWriter } from "../../replay/trace.js";
import { bindVariables, mergeVars, parseCsv, parseVarArgs, type Bindings } from "../../replay/variables.js";
import { refuseExposedSecrets, resolveSecrets, secretVariables, type SecretSources } from "../../replay/secrets.js";
import { resolveDataDir, type GlobalOptions } from "../config.js";
import { desktopEnv } from "../desktop-env.js";
import { readInputFile } from "../io.js";
import type { CliIo } from "./desktop.js";
import { createDetector, loadIconClassifier, resolveDetector, type DetectorParts } from "./perception.js";
import type { DetectorKind } from "../config-file.js";
import { silentLogger, type Logger } from "../../core/providers/logger.js";
import { openStore, type StoreChoice } from "./store.js";
import { resolveVlmConfig } from "../vlm-config.js";
import { consumeVarsFile, lazySecretStore, terminalSecretPrompt } from "../secrets.js";
import { createVlmProviders } from "../vlm-providers.js";
import { checkOutputFile, writeOutputFile } from "../../core/make-dirs.js";
import { createStateEmbedder } from "../state-embedder.js";
import { decisionModelOf } from "../../vlm/decider.js";

export interface ReplayRequest {
  workflowPath: string;
  /** Structured log of the run (run_id, row, step fields); silent when absent. */
  logger?: Logger;
  /** Values for every row, handed over in memory (secret variables allowed: the planner, the API). */
  vars?: Record<string, string>;
  /** `--var` on the command line: the same values, but a secret variable among them is refused (argv is visible in `ps`). */
  argvVars?: Record<string, string>;
  /** Where secret variables' values come from (handed over, the named environment variable, the credential store, a prompt). */
  secrets?: SecretSources;
  dataPath?: string;
  useExamples?: boolean;
  /** Run folder (default <data dir>/runs/<run id>). */
  runDir?: string;
  /** Resume the run in this folder. */
  resume?: string;
  onError?: "stop" | "skip";
  ocr?: string;
  /** The element detector (default: RPAV_DETECTOR, config.json perception.detector, else the hybrid). */
  detectorKind?: DetectorKind;
  maxAttempts?: number;
  /** Pre-check wait for each step's window (default 10 s). */
  windowTimeoutMs?: number;
  /** A shell command run before each row, with the row's values in RPAV_VAR_<NAME> (opens the app…). */
  beforeRowCommand?: string;
  beforeRow?: (row: number, b: Bindings) => Promise<void>;
  afterRow?: (row: number, outcome: RowOutcome) => Promise<void>;
  signal?: AbortSignal;
  /** Replay's last-resort grounding by the grounding model (default: on, unless config.json says "enabled": false). */
  vlm?: boolean;
  /** --no-actor: the plain replay from before the decision actor (execute only), for comparison. */
  noActor?: boolean;
  /** --allow-dangerous: steps whose target deletes, pays, sends… may run. */
  allowDangerous?: boolean;
  /** --assist: questions go to <data dir>/assist (answered by the terminal prompt when given, or the studio). */
  assist?: boolean;
  /** With --assist on a terminal: where the prompt reads and writes. */
  prompt?: { input: NodeJS.ReadableStream; output: NodeJS.WritableStream };
  /** A decision model (rules decide when absent). */
  decisionModel?: DecisionModel;
  /** A detector the caller made and keeps (the planner's, for every item): not built here, not closed here. */
  detector?: Omit<DetectorParts, "close">;
  /** --decision-model: the configured decision model (RPAV_MODEL_DECISION / config.json) chooses among the rules' options. */
  useDecisionModel?: boolean;
  /** How long the decision model may take per question (default 3 s); slower, the rules decide. */
  decisionTimeoutMs?: number;
}

export interface ReplayResult {
  runDir: string;
  runId: string;
  report: string;
  rows: RowOutcome[];
  /** Every row of the run (from the trace, earlier attempts included). */
  summary: { row: number; status: string }[];
  status: "passed" | "failed" | "unverified";
}

export async function loadWorkflow(path: string): Promise<Workflow> {
  return readDocumentAs("workflow_v1", (await readInputFile(path, DEFAULT_MAX_DOCUMENT_BYTES)).toString("utf8"), path);
}

function progressLine(p: ReplayProgress): string {
  const where = `${p.rows > 1 ? `row ${p.row + 1}/${p.rows} · ` : ""}step ${p.step + 1}/${p.steps}`;
  if (p.phase === "start") return `  ${where} ${p.intention} …\n`;
  const word = { passed: "ok", skipped: "skipped (already done)", unverified: "done, unverified", failed: "FAILED" }[p.status ?? "failed"];
  return `  ${where} ${word} (${p.ms} ms)${p.message ? ` — ${p.message}` : ""}\n`;
}

/**
 * The environment a program started by the replay gets (--before-row, the workflow's launch
 * command): the desktop's, without the variables that carry a secret variable's value.
 */
export function withoutSecretEnv(env: NodeJS.ProcessEnv, workflow: Workflow): NodeJS.ProcessEnv {
  const out = { ...env };
  for (const v of secretVariables(workflow)) if (v.secret_env) delete out[v.secret_env];
  return out;
}

/**
 * `--before-row`: a detached shell command per row (it may leave an app running), given a second
 * to start. The row's values are in RPAV_VAR_<NAME>, secret variables excepted (never passed).
 */
export function rowCommand(cmd: string, env: NodeJS.ProcessEnv, workflow: Workflow, log: (s: string) => void): (row: number, b: Bindings) => Promise<void> {
  return async (row, b) => {
    const vars = Object.fromEntries(workflow.variables.filter((v) => !v.secret).map((v) => [`RPAV_VAR_${v.name.toUpperCase()}`, b[v.name] ?? ""]));
    log(`  row ${row + 1}: ${cmd}\n`);
    const child = spawn("sh", ["-c", cmd], { env: { ...withoutSecretEnv(env, workflow), ...vars, RPAV_ROW: String(row + 1) }, stdio: "ignore", detached: true });
    child.unref();
    await new Promise<void>((resolve, reject) => {
      child.once("error", (e) => reject(new InvalidInputError(`--before-row "${cmd}" cannot start: ${e.message}.`)));
      setTimeout(resolve, 1000);
    });
  };
}

/** Starts the workflow's app again (its recorded command line), detached, given a second to start. */
function startDetached(command: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<void> {
  const child = spawn(command, [...args], { env, stdio: "ignore", detached: true });
  child.unref();
  return new Promise<void>((resolve, reject) => {
    child.once("error", (e) => reject(new InvalidInputError(`The workflow's launch command "${command}" cannot start: ${e.message}.`)));
    setTimeout(resolve, 1000);
  });
}

/** Replays a workflow on the desktop of `env`; writes the trace and the report. */
export async function replayWorkflow(req: ReplayRequest, desktop: NodeJS.ProcessEnv | (() => NodeJS.ProcessEnv), dataDir: string, log: (s: string) => void, store?: Store): Promise<ReplayResult> {
  let workflowPath = resolve(req.workflowPath);
  let rows: Bindings[];
  let from = new Map<number, number>();
  let only: Set<number> | undefined;
  let runDir: string;
  let runId: string;
  let workflow: Workflow;
  const writerRows = (wf: Workflow, rs: Bindings[]) => rs.map((b) => Object.fromEntries(wf.variables.map((v) => [v.name, v.secret ? null : (b[v.name] ?? null)])));
  if (req.resume) {
    runDir = resolve(req.resume);
    const previous = readTrace(runDir);
    workflowPath = previous.run.workflow_path;
    workflow = await loadWorkflow(workflowPath);
    runId = previous.run.run_id;
    // Recorded values, secrets taken again from their safe places, then checked like a new run.
    const recorded = previous.run.rows.map((r) => Object.fromEntries(Object.entries(r).filter(([, v]) => v !== null)) as Record<string, string>);
    const vars = await varsWithSecrets(workflow, req);
    rows = bindVariables(workflow, { rows: recorded, ...(vars ? { vars } : {}), source: `${runDir} (resume)` });
    const outcomes = rowOutcomes(previous).filter((o) => o.status !== "passed" && o.status !== "unverified");
    if (outcomes.length === 0) throw new InvalidInputError(`${runDir}: every row of this run passed; nothing to resume.`, { details: { run: runDir } });
    only = new Set(outcomes.map((o) => o.row));
    from = new Map(outcomes.map((o) => [o.row, o.resumeFrom]));
    log(`resuming ${runId}: ${outcomes.map((o) => `row ${o.row + 1} from step ${o.resumeFrom + 1}`).join(", ")}\n`);
  } else {
    workflow = await loadWorkflow(workflowPath);
    const dataRows = req.dataPath ? parseCsv((await readInputFile(req.dataPath, 64 * 1024 * 1024)).toString("utf8"), req.dataPath) : undefined;
    if (req.dataPath && dataRows?.length === 0) throw new InvalidInputError(`${req.dataPath}: a header line but no data row; nothing to run.`);
    if (dataRows?.[0]) refuseExposedSecrets(workflow, Object.keys(dataRows[0]), `the CSV file ${req.dataPath}`);
    const vars = await varsWithSecrets(workflow, req);
    rows = bindVariables(workflow, { ...(vars ? { vars } : {}), ...(dataRows ? { rows: dataRows } : {}), ...(req.useExamples ? { useExamples: true } : {}), source: req.dataPath ?? "--var" });
    runId = timestampedId("run");
    runDir = resolve(req.runDir ?? join(dataDir, "runs", runId));
    if (existsSync(join(runDir, "trace.jsonl"))) throw new InvalidInputError(`${runDir} already holds a run; give another folder, or --resume ${runDir}.`, { details: { run: runDir } });
  }
  // The workflow and its variables are checked before the desktop is touched.
  const env = typeof desktop === "function" ? desktop() : desktop;
  const trace = new TraceWriter(runDir);
  if (!req.resume)
    trace.append({ type: "run", schema_version: "trace_v1", run_id: runId, workflow_id: workflow.workflow_id, workflow_name: workflow.name, workflow_path: workflowPath, rows: writerRows(workflow, rows), on_error: req.onError ?? "stop", steps: workflow.steps.map((s) => ({ step_id: s.step_id, action: s.action, intention: s.intention })) });
  const started = new Date();
  await store?.putRun({ runId, workflowId: workflow.workflow_id, workflowVersion: (await store.getWorkflow(workflow.workflow_id))?.version ?? 0, status: "running", startedAt: started.toISOString(), document: { run_dir: runDir, ...runningProcess() } });
  const windows = new X11WindowInfo({ env });
  const screen = new X11ScreenSource({ env, windows });
  const input = new X11XTestInputDriver({ env });
  const runLog = (req.logger ?? silentLogger()).child({ run_id: runId, workflow_id: workflow.workflow_id });
  // Detection failures keep their screenshot in the run's folder, next to the trace.
  const { detector, ocr, readsBoxes, close } = req.detector ? { ...req.detector, close: async () => undefined } : await createDetector({ ocr: req.ocr ?? "ppocr", rereadChangesOnly: true, detector: req.detectorKind ?? resolveDetector(dataDir, env) }, join(dataDir, "cache", "ocr"), false, { logger: runLog, failureDir: join(runDir, "failures") });
  const stateEmbedder = createStateEmbedder();
  // Icon-only targets recorded with what their icon shows are checked and found by it (without the model: as before).
  const icons = workflow.steps.some((s) => s.target?.icon_class) ? await loadIconClassifier(log) : undefined;
  const vlmConfig = resolveVlmConfig(dataDir, env);
  const vlmProviders = (req.vlm ?? vlmConfig.enabled) || req.useDecisionModel ? createVlmProviders(vlmConfig) : undefined;
  const vlm = (req.vlm ?? vlmConfig.enabled) ? vlmProviders?.grounder : undefined;
  const decisionModel = req.decisionModel ?? (req.useDecisionModel && vlmProviders ? decisionModelOf(vlmProviders.decider) : undefined);
  if (decisionModel) log(`decisions: the rules offer the options; ${decisionModel.name} may choose among them (answers checked, ${req.decisionTimeoutMs ?? 3000} ms at most; the rules decide otherwise)\n`);
  const t0 = performance.now();
  let outcomes: RowOutcome[] = [];
  let status: ReplayResult["status"] = "failed";
  const assistFiles = req.assist ? new AssistFiles(join(dataDir, "assist")) : undefined;
  const patches = new PatchFiles(join(dataDir, "patches"));
  const promptCtl = new AbortController();
  const prompting = assistFiles && req.prompt ? terminalAnswerer(assistFiles, runId, req.prompt.input, req.prompt.output, promptCtl.signal) : undefined;
  const launch = workflow.launch;
  let rowSummary: { row: number; status: string }[] = [];
  try {
    const executor = new ReplayExecutor(
      workflow,
      {
        screen,
        windows,
        input,
        perceive: async (frame, signal) => {
          const det = await detector.detect(frame, { autoScale: true, ...(signal ? { signal } : {}) });
          return { elements: det.elements, lines: det.ocr?.lines ?? [], timings: det.metadata.timings };
        },
        readText: async (frame, signal) => (await detector.detect(frame, { autoScale: true, ...(signal ? { signal } : {}) })).ocr?.lines.map((l) => l.text) ?? [],
        // A field's read-back: the recognizer on the ink's box alone (PP-OCR and hybrid read boxes; tesseract falls back to readText).
        ...(readsBoxes && ocr.readBoxes ? { readLine: async (frame: Frame, box: BBox, signal?: AbortSignal) => (await ocr.readBoxes!(frame, [box], signal))[0]?.text ?? "" } : {}),
        matcher: new ElementMatcher(new NgramTextEmbedder(256)),
        // The live state embedded as the recording's states were, compared with the step's stored vector.
        embedState: (input, signal) => stateEmbedder.embed(input, "complete", signal),
        ...(store ? { stateVector: async (id: string) => store.getVector(id) } : {}),
        run: { runId, runDir },
        ...(launch ? { launch: () => startDetached(launch.command, launch.args, withoutSecretEnv(env, workflow)) } : {}),
        ...(assistFiles ? { assist: assistFiles } : {}),
        ...(decisionModel ? { decisionModel } : {}),
        proposePatch: async (p) => {
          const patch_id = timestampedId("patch");
          await patches.put({ schema_version: "workflow_patch_v1", patch_id, workflow_id: workflow.workflow_id, workflow_path: workflowPath, step_id: p.step_id, op: p.op, reason: p.reason, proposed_at: new Date().toISOString(), run_id: runId, question_id: p.question_id, status: "proposed" });
          log(`  proposed patch ${patch_id} for ${p.step_id}: ${p.reason} (rpav workflow patches --accept ${patch_id})\n`);
          return patch_id;
        },
        loadIcon: async (rel) => {
          const p = resolve(dirname(workflowPath), rel);
          if (!existsSync(p)) throw new InvalidInputError(`The icon crop ${p} named by the workflow is missing: restore it next to the workflow file, or re-record the step.`, { details: { source: p } });
          return readImageFile(p);
        },
        encodePng: (f) => encodePng(f, { compressionLevel: 3 }),
        ...(vlm ? { vlm } : {}),
        ...(icons ? { icons } : {}),
        trace,
        onProgress: (p) => {
          log(progressLine(p));
          const fields = { row: p.row + 1, step: p.step + 1, step_id: p.stepId, phase: p.phase, ...(p.status ? { status: p.status } : {}), ...(p.ms !== undefined ? { ms: Math.round(p.ms) } : {}), ...(p.message ? { message: p.message } : {}) };
          if (p.status === "failed") runLog.warn(fields, `step ${p.step + 1} failed: ${p.intention}`);
          else runLog.info(fields, `step ${p.step + 1} ${p.phase === "start" ? "starts" : "done"}: ${p.intention}`);
        },
        ...(req.beforeRow || req.beforeRowCommand ? { beforeRow: req.beforeRow ?? rowCommand(req.beforeRowCommand!, env, workflow, log) } : {}),
        ...(req.afterRow ? { afterRow: req.afterRow } : {}),
      },
      { onError: req.onError ?? "stop", mode: req.noActor ? "plain" : "actor", ...(req.allowDangerous ? { allowDangerous: true } : {}), ...(req.maxAttempts ? { maxAttempts: req.maxAttempts } : {}), ...(req.windowTimeoutMs ? { windowTimeoutMs: req.windowTimeoutMs } : {}), ...(req.decisionTimeoutMs ? { decisionTimeoutMs: req.decisionTimeoutMs } : {}), ...(req.signal ? { signal: req.signal } : {}) },
    );
    for (const n of executor.notes) log(`  note: ${n} (reported as unverified)\n`);
    log(`replaying « ${workflow.name} » (${workflow.steps.length} steps × ${only ? only.size : rows.length} row(s)) → ${runDir}\n`);
    outcomes = await executor.run(rows, from, only, !!req.resume);
  } finally {
    // Even after a failure or an abort: the run's end, its report and its record in the store.
    const summary = rowOutcomes(readTrace(runDir)).map((o) => ({ row: o.row, status: o.status }));
    status = summary.every((o) => o.status === "passed") ? "passed" : summary.some((o) => o.status !== "passed" && o.status !== "unverified") ? "failed" : "unverified";
    promptCtl.abort();
    await prompting?.catch(() => undefined);
    rowSummary = summary;
    trace.append({ type: "run_end", status, duration_ms: Math.round(performance.now() - t0) });
    writeFileSync(join(runDir, "report.html"), renderReport(readTrace(runDir)));
    await store?.putRun({ runId, workflowId: workflow.workflow_id, workflowVersion: (await store.getWorkflow(workflow.workflow_id))?.version ?? 0, status: status === "failed" ? "failed" : "succeeded", startedAt: started.toISOString(), finishedAt: new Date().toISOString(), document: { run_dir: runDir, rows: summary } });
    await Promise.allSettled([input.close(), screen.close(), close(), icons?.close()]);
  }
  return { runDir, runId, report: join(runDir, "report.html"), rows: outcomes, summary: rowSummary, status };
}

/** The values for every row: --var (secrets refused), values handed over, then each secret variable from its safe place. */
async function varsWithSecrets(workflow: Workflow, req: ReplayRequest): Promise<Record<string, string> | undefined> {
  if (req.argvVars) refuseExposedSecrets(workflow, Object.keys(req.argvVars), "--var");
  const vars = mergeVars(req.vars ?? {}, req.argvVars ?? {});
  const left = { ...workflow, variables: workflow.variables.filter((v) => !Object.hasOwn(vars, v.name)) };
  const secrets = await resolveSecrets(left, req.secrets ?? {});
  const all = { ...vars, ...secrets.values };
  return Object.keys(all).length > 0 ? all : undefined;
}

export function registerReplayCommands(program: Command, io: CliIo, setExit: (code: number) => void): void {
  const globals = () => program.opts<GlobalOptions & StoreChoice>();
  program
    .command("replay [workflow]")
    .description("replay a workflow on the desktop: ground each target on the live screen, act like a person, check, trace and report")
    .option("--var <name=value...>", "a variable value (applies to every row); refused for a secret variable (use rpav secret set, its environment variable, or the prompt)")
    .option("--vars-file <file.json>", "variable values as a JSON object in a 0600 file, deleted once read (how another process hands over secrets without argv)")
    .option("--data <rows.csv>", "one run per CSV row; the header names the variables")
    .option("--use-examples", "variables left unbound take the values seen during the recording")
    .option("--report <dir>", "run folder for the trace, screenshots and report.html (default <data dir>/runs/<run id>)")
    .option("--on-error <policy>", "stop: end the run at a failed step; skip: abandon that row, go on with the next", "stop")
    .option("--resume <run>", "go on with a run that failed or was cut, from the step that did not pass")
    .option("--ocr <provider>", "OCR for grounding: ppocr (default), hybrid, tesseract", "ppocr")
    .option("--max-attempts <n>", "attempts per step", "3")
    .option("--before-row <command>", "shell command run before each row (opens the app); the row's values are in RPAV_VAR_<NAME>")
    .option("--no-actor", "plain replay without the decision actor (execute every step, no skip / adapt / ask), for comparison")
    .option("--allow-dangerous", "let steps whose target deletes, pays, sends… run")
    .option("--assist", "when the actor cannot decide, ask a person: on this terminal, or through <data dir>/assist (the studio)")
    .option("--decision-model", "let the decision model (RPAV_MODEL_DECISION, config.json roles.decision; default the understanding model) choose among the options the rules offer; its answer is checked and traced, the rules decide when it is absent, slow or invalid")
    .option("--decision-timeout <ms>", "how long the decision model may take per question", "3000")
    .option("--json", "print the result as JSON")
    .option("--vlm", "last-resort grounding by the grounding model (default, unless config.json disables it)")
    .option("--no-vlm", "never ask a model: elements and icon templates only")
    .action(async (file: string | undefined, o: { vlm?: boolean; var?: string[]; varsFile?: string; data?: string; useExamples?: boolean; report?: string; onError: string; resume?: string; ocr: string; maxAttempts: string; beforeRow?: string; json?: boolean; actor: boolean; allowDangerous?: boolean; assist?: boolean; decisionModel?: boolean; decisionTimeout: string }) => {
      // Read (and deleted) first, before anything can fail and leave it behind.
      const handed = o.varsFile ? consumeVarsFile(o.varsFile) : undefined;
      if (o.onError !== "stop" && o.onError !== "skip") throw new InvalidInputError(`--on-error must be stop or skip, got "${o.onError}".`);
      if (!file && !o.resume) throw new InvalidInputError("Give a workflow file, or --resume <run folder>.");
      const attempts = Number(o.maxAttempts);
      if (!Number.isInteger(attempts) || attempts < 1) throw new InvalidInputError(`--max-attempts must be a whole number ≥ 1, got "${o.maxAttempts}".`);
      const decisionTimeoutMs = Number(o.decisionTimeout);
      if (!Number.isInteger(decisionTimeoutMs) || decisionTimeoutMs < 1) throw new InvalidInputError(`--decision-timeout must be a whole number of milliseconds ≥ 1, got "${o.decisionTimeout}".`);
      const env = () => desktopEnv(io.env);
      const dataDir = resolveDataDir(globals(), io.env);
      const ctl = new AbortController();
      const onSig = () => ctl.abort();
      process.once("SIGINT", onSig);
      process.once("SIGTERM", onSig);
      const prompt = terminalSecretPrompt();
      const secrets: SecretSources = { env: io.env, store: lazySecretStore(dataDir, io.env), ...(handed ? { given: handed } : {}), ...(prompt ? { prompt } : {}) };
      const store = await openStore(globals(), io.env);
      try {
        const r = await replayWorkflow(
          { workflowPath: file ?? "", logger: io.logger?.(), ...(o.var ? { argvVars: parseVarArgs(o.var) } : {}), ...(handed ? { vars: handed } : {}), secrets, ...(o.data ? { dataPath: o.data } : {}), ...(o.useExamples ? { useExamples: true } : {}), ...(o.report ? { runDir: o.report } : {}), ...(o.resume ? { resume: o.resume } : {}), onError: o.onError, ocr: o.ocr, maxAttempts: attempts, ...(o.vlm !== undefined ? { vlm: o.vlm } : {}), ...(o.beforeRow ? { beforeRowCommand: o.beforeRow } : {}), signal: ctl.signal,
            ...(o.actor === false ? { noActor: true } : {}), ...(o.allowDangerous ? { allowDangerous: true } : {}), ...(o.assist ? { assist: true } : {}), ...(o.decisionModel ? { useDecisionModel: true, decisionTimeoutMs } : {}),
            ...(o.assist && process.stdin.isTTY ? { prompt: { input: process.stdin, output: process.stderr } } : {}) },
          env,
          dataDir,
          (s) => io.err(s),
          store,
        );
        if (o.json) io.out(`${JSON.stringify({ run_id: r.runId, run_dir: r.runDir, report: r.report, status: r.status, rows: r.summary, steps: r.rows.flatMap((x) => x.steps.map((s) => ({ row: x.row, ...s }))) }, null, 2)}\n`);
        else {
          io.out(`row  result\n${r.summary.map((s) => `${String(s.row + 1).padStart(3)}  ${s.status}`).join("\n")}\n`);
          io.out(`${r.status === "passed" ? "passed" : r.status === "unverified" ? "done, UNVERIFIED (some checks could not be made; see the report)" : "FAILED"} — report: ${r.report}\n`);
          if (r.status === "failed") io.out(`resume with: rpav replay --resume ${r.runDir}\n`);
        }
        if (r.status === "failed") setExit(1);
      } finally {
        process.off("SIGINT", onSig);
        process.off("SIGTERM", onSig);
        await store.close();
      }
    });

  program
    .command("report <run>")
    .description("write the self-contained HTML report of a replay run (from its trace)")
    .option("--out <file.html>", "where to write it (default <run>/report.html)")
    .action((run: string, o: { out?: string }) => {
      const trace = readTrace(resolve(run));
      const out = resolve(o.out ?? join(run, "report.html"));
      checkOutputFile(out, "--out");
      writeOutputFile(out, renderReport(trace), "--out");
      io.out(`${out}\n`);
    });
}
