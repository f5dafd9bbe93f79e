// `rpav run "<instruction>"`: the planner's composition root. The stored workflows (latest
// versions) or --workflow, the items of --in, today's replay as the ItemRunner (the decision
// actor can take its place behind the same interface), an app started per item by --app, the
// ledger in the store, the plan's report folder.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline/promises";
import type { Command } from "commander";
import { AbortedError, InvalidInputError, RpaError } from "../../core/errors.js";
import { timestampedId } from "../../core/ids.js";
import { pidAlive } from "../../core/process.js";
import type { AppSession, ItemRunner, ItemRunRequest, ItemRunResult } from "../../core/providers/item-runner.js";
import type { LedgerItem, Store } from "../../core/providers/store.js";
import type { PlanDocument } from "../../core/schemas/plan.js";
import { WorkflowSchema, type Workflow } from "../../core/schemas/workflow.js";
import type { ScoredCandidate, WorkflowCandidate } from "../../planner/choose-workflow.js";
import { executePlan, loadPlan, planWorkflow, preparePlan, startPlan, type PlanProgress } from "../../planner/planner.js";
import { SCREEN_SOURCE } from "../../planner/items.js";
import { assertNoConcurrentPlan, lockPlan, type HeldPlanLock, type LockOwner } from "../../planner/plan-lock.js";
import { PerceivedTableReader } from "../../perception/screen-table-reader.js";
import { X11ScreenSource } from "../../platform/x11/x11-screen-source.js";
import { X11WindowInfo } from "../../platform/x11/x11-window-info.js";
import { ModelInstructionProposer } from "../../vlm/instruction-proposer.js";
import { resolveVlmConfig } from "../vlm-config.js";
import { createVlmProviders } from "../vlm-providers.js";
import { createDetector, resolveDetector, type DetectorParts } from "./perception.js";
import { formatPlan } from "../../planner/preview.js";
import { planCsv, planJson, renderPlanReport, summarizeItems, summaryLine } from "../../planner/report.js";
import { parseVarArgs } from "../../replay/variables.js";
import { foldText } from "../../core/text.js";
import { resolveDataDir, type GlobalOptions } from "../config.js";
import { desktopEnv } from "../desktop-env.js";
import type { CliIo } from "./desktop.js";
import { loadWorkflow, replayWorkflow, withoutSecretEnv } from "./replay.js";
import { openStore, type StoreChoice } from "./store.js";
import { resolveSecrets, secretAvailability, type ResolvedSecrets } from "../../replay/secrets.js";
import { lazySecretStore, terminalSecretPrompt } from "../secrets.js";

/** Today's replay executor as the planner's ItemRunner: one replay run per item, in the item's folder, all with the one detector given (built once per plan). */
export class ReplayItemRunner implements ItemRunner {
  readonly name = "replay";
  constructor(
    private readonly env: () => NodeJS.ProcessEnv,
    private readonly dataDir: string,
    private readonly store: Store | undefined,
    /** `secrets`: the secret variables' values, taken once from their safe places and kept in memory (never in the plan). */
    private readonly opts: { ocr?: string; maxAttempts?: number; log?: (s: string) => void; secrets?: Readonly<Record<string, string>>; detector?: Omit<DetectorParts, "close">; vlm?: boolean } = {},
  ) {}

  async run(req: ItemRunRequest): Promise<ItemRunResult> {
    const r = await replayWorkflow(
      { workflowPath: req.workflowPath, vars: { ...req.bindings, ...this.opts.secrets }, runDir: req.runDir, onError: "stop", ...(this.opts.ocr ? { ocr: this.opts.ocr } : {}), ...(this.opts.maxAttempts ? { maxAttempts: this.opts.maxAttempts } : {}), ...(this.opts.detector ? { detector: this.opts.detector } : {}), ...(this.opts.vlm !== undefined ? { vlm: this.opts.vlm } : {}), ...(req.signal ? { signal: req.signal } : {}) },
      this.env,
      this.dataDir,
      this.opts.log ?? (() => undefined),
      this.store,
    );
    const row = r.rows[0];
    const failedStep = row?.failedStep ?? null;
    return {
      // An unverified run (the actor found no evidence of success) is not a done item.
      status: r.status === "passed" ? "passed" : "failed",
      runId: r.runId,
      runDir: r.runDir,
      report: r.report,
      error: r.status === "passed" ? null : { code: row?.error?.code ?? (r.status === "unverified" ? "postcheck_failed" : "command_failed"), message: row?.error?.message ?? (r.status === "unverified" ? "the run ended without evidence that it succeeded (unverified)" : "the run ended without finishing its row"), stepId: failedStep === null ? null : (req.workflow.steps[failedStep]?.step_id ?? null) },
    };
  }
}

/** `--app "<command>"`: a shell command started (in its own process group) before each item and ended after it. */
export class ShellAppSession implements AppSession {
  private child: ChildProcess | undefined;
  private exited: Promise<void> | undefined;
  constructor(
    readonly description: string,
    private readonly env: () => NodeJS.ProcessEnv,
    private readonly settleMs = 1000,
  ) {}

  async start(): Promise<void> {
    await this.stop();
    const child = spawn("sh", ["-c", this.description], { env: this.env(), stdio: "ignore", detached: true });
    this.child = child;
    this.exited = new Promise((res) => child.once("exit", () => res()));
    await new Promise<void>((res, rej) => {
      const t = setTimeout(res, this.settleMs);
      child.once("error", (e) => {
        clearTimeout(t);
        rej(new RpaError("command_failed", `--app "${this.description}" cannot start: ${e.message}.`, { cause: e }));
      });
      child.once("exit", (code) => {
        if (code !== 0 && code !== null) {
          clearTimeout(t);
          rej(new RpaError("command_failed", `--app "${this.description}" exited with code ${code} at once; check the command.`, { details: { command: this.description, code } }));
        }
      });
    });
  }

  async stop(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return;
    const group = (sig: NodeJS.Signals) => {
      try {
        process.kill(-child.pid!, sig);
      } catch {
        // already gone
      }
    };
    group("SIGTERM");
    const timer = setTimeout(() => group("SIGKILL"), 3000);
    await this.exited;
    clearTimeout(timer);
    // Children of the shell (the app itself) leave with the group; give the window system a moment.
    group("SIGKILL");
    await new Promise((r) => setTimeout(r, 300));
  }
}

/** The stored workflows, latest version of each; documents that do not validate are left out with a warning. */
async function storedCandidates(store: Store, warn: (s: string) => void): Promise<WorkflowCandidate[]> {
  const out: WorkflowCandidate[] = [];
  for (const w of await store.listWorkflows()) {
    const v = await store.getWorkflow(w.workflowId);
    const ok = WorkflowSchema.safeParse(v?.document);
    if (!v || !ok.success) {
      warn(`warning: stored workflow ${w.workflowId} is not a valid workflow_v1, left out\n`);
      continue;
    }
    out.push({ workflow: ok.data, version: v.version, origin: "store" });
  }
  return out;
}

/** `--workflow`: a workflow file, else a stored workflow by id or name (accents and case ignored). */
async function forcedWorkflow(arg: string, candidates: readonly WorkflowCandidate[]): Promise<WorkflowCandidate> {
  if (existsSync(arg)) return { workflow: await loadWorkflow(arg), version: 0, origin: resolve(arg) };
  const f = foldText(arg).trim();
  const exact = candidates.filter((c) => c.workflow.workflow_id === arg || foldText(c.workflow.name).trim() === f);
  const partial = exact.length ? exact : candidates.filter((c) => foldText(c.workflow.name).includes(f) || c.workflow.workflow_id.includes(arg));
  if (partial.length === 1) return partial[0]!;
  const names = candidates.map((c) => `« ${c.workflow.name} » (${c.workflow.workflow_id})`).join(", ") || "none";
  throw new InvalidInputError(partial.length > 1 ? `--workflow "${arg}" names several workflows: ${partial.map((c) => `« ${c.workflow.name} » (${c.workflow.workflow_id})`).join(", ")}; give its id.` : `--workflow "${arg}" is neither a file nor a stored workflow (stored: ${names}).`, { details: { workflow: arg } });
}

/** Median duration of the workflow's succeeded runs in the store, else 3 s a step. */
async function estimator(store: Store): Promise<(wf: Workflow) => Promise<number>> {
  return async (wf) => {
    const ms = (await store.runsOfWorkflow(wf.workflow_id))
      .filter((r) => r.status === "succeeded" && r.finishedAt)
      .map((r) => Date.parse(r.finishedAt!) - Date.parse(r.startedAt))
      .filter((x) => Number.isFinite(x) && x > 0)
      .sort((a, b) => a - b);
    return ms.length ? ms[Math.floor(ms.length / 2)]! : wf.steps.length * 3000;
  };
}

function progressLine(p: PlanProgress): string {
  const at = `[${p.index + 1}/${p.total}] ${p.label}`;
  if (p.kind === "item_start") return `${at} … running${p.attempt > 1 ? ` (attempt ${p.attempt})` : ""}\n`;
  if (p.kind === "item_kept") return `${at}: ${p.status}, not run (${p.reason})\n`;
  if (p.status === "done") return `${at}: done in ${Math.round(p.ms / 1000)} s\n`;
  return `${at}: FAILED (${p.exceptionClass}) ${p.reason}${p.retry ? " — system failure: restarting the app and retrying" : ""}\n`;
}

/** Writes report.html, summary.csv and summary.json into the plan's folder; returns the summary line. */
function writeReports(doc: PlanDocument, ledger: readonly LedgerItem[]): { line: string; html: string; json: Record<string, unknown> } {
  const items = summarizeItems(doc, ledger);
  const line = summaryLine(doc, ledger);
  mkdirSync(doc.options.report_dir, { recursive: true });
  const html = join(doc.options.report_dir, "report.html");
  writeFileSync(html, renderPlanReport(doc, items, line));
  writeFileSync(join(doc.options.report_dir, "summary.csv"), planCsv(items));
  const json = planJson(doc, items, line);
  writeFileSync(join(doc.options.report_dir, "summary.json"), `${JSON.stringify(json, null, 2)}\n`);
  return { line, html, json };
}

async function ask(question: string): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return (await rl.question(question)).trim();
  } finally {
    rl.close();
  }
}

interface RunCliOptions {
  in?: string;
  item?: string[];
  workflow?: string;
  var?: string[];
  useExamples?: boolean;
  dryRun?: boolean;
  yes?: boolean;
  report?: string;
  json?: boolean;
  resume?: string;
  force?: boolean;
  retryBusiness?: boolean;
  app?: string;
  maxRetries: string;
  maxAttempts: string;
  ocr: string;
  lang?: string;
  model: boolean;
  modelTimeout: string;
  /** Replay's last-resort grounding by the grounding model (undefined: as config.json says). */
  vlm?: boolean;
}

export function registerRunCommand(program: Command, io: CliIo, setExit: (code: number) => void): void {
  const globals = () => program.opts<GlobalOptions & StoreChoice>();
  program
    .command("run [instruction]")
    .description("the planner: an instruction (« Traite les dossiers de janvier ») → the learned workflow once per item, with a ledger and a report")
    .option("--in <source>", "the items: a folder (its files), a .csv or an .xlsx (its rows), or screen:<window title> (the rows of the list or table that window shows, read by perception)")
    .option("--item <value...>", "explicit items (files or values)")
    .option("--workflow <name|file>", "the workflow to run (a stored name or id, or a workflow file); else chosen by similarity")
    .option("--var <name=value...>", "a value for every item")
    .option("--use-examples", "variables no item fills take the values seen during the recording")
    .option("--dry-run", "print the plan (workflow, items, bindings, estimated time) and run nothing")
    .option("--yes", "run without asking for confirmation")
    .option("--report <dir>", "the plan's folder: report.html, summary.csv, summary.json, one folder per item run (default <data dir>/plans/<plan id>)")
    .option("--json", "print the plan (with --dry-run) or the summary as JSON")
    .option("--resume <plan>", "go on with a plan's items that are not done (after a crash, kill -9, Ctrl+C)")
    .option("--force", "run items again even when done")
    .option("--retry-business", "with --resume: run business failures again (their data was fixed)")
    .option("--app <command>", "shell command that starts the app before each item (ended after it; restarted on a system failure)")
    .option("--max-retries <n>", "retries of an item after a system failure (app restarted each time)", "2")
    .option("--max-attempts <n>", "attempts per step inside a run", "3")
    .option("--ocr <provider>", "OCR for grounding: ppocr (default), hybrid, tesseract", "ppocr")
    .option("--lang <fr|en>", "the instruction's language (default: guessed)")
    .option("--no-model", "do not ask the decision model to read the instruction (the deterministic parse only)")
    .option("--vlm", "each item's replay may ground a target with the grounding model as a last resort (the default, unless config.json disables it)")
    .option("--no-vlm", "no grounding model in the items' replays: elements and icon templates only")
    .option("--model-timeout <s>", "seconds the decision model may take to read the instruction before the deterministic parse is used", "20")
    .action(async (instruction: string | undefined, o: RunCliOptions) => {
      const retries = Number(o.maxRetries);
      const attempts = Number(o.maxAttempts);
      if (!Number.isInteger(retries) || retries < 0) throw new InvalidInputError(`--max-retries must be a whole number ≥ 0, got "${o.maxRetries}".`);
      if (!Number.isInteger(attempts) || attempts < 1) throw new InvalidInputError(`--max-attempts must be a whole number ≥ 1, got "${o.maxAttempts}".`);
      if (o.lang && o.lang !== "fr" && o.lang !== "en") throw new InvalidInputError(`--lang must be fr or en, got "${o.lang}".`);
      if (!instruction && !o.resume) throw new InvalidInputError('Give an instruction (rpav run "Traite les dossiers de janvier" --in <folder>), or --resume <plan id>.');
      if (instruction && o.resume) throw new InvalidInputError("--resume continues a stored plan: give no instruction with it.");
      const modelTimeout = Number(o.modelTimeout);
      if (!(modelTimeout > 0) || !Number.isFinite(modelTimeout)) throw new InvalidInputError(`--model-timeout must be a number of seconds > 0, got "${o.modelTimeout}".`);
      const dataDir = resolveDataDir(globals(), io.env);
      const env = () => desktopEnv(io.env);
      const store = await openStore(globals(), io.env);
      const secretStore = lazySecretStore(dataDir, io.env);
      // Secret variables: once, from the safe places (never the plan, the ledger or argv), before any item runs.
      let secrets: ResolvedSecrets | undefined;
      const takeSecrets = async (wf: Workflow) => {
        const prompt = terminalSecretPrompt();
        const r = await resolveSecrets(wf, { env: io.env, store: secretStore, ...(prompt ? { prompt } : {}) });
        for (const [name, from] of Object.entries(r.from)) io.err(`secret « ${name} » from ${from}\n`);
        return r;
      };
      const ctl = new AbortController();
      const onSig = () => ctl.abort();
      process.once("SIGINT", onSig);
      process.once("SIGTERM", onSig);
      const owner: LockOwner = { pid: process.pid, host: hostname(), alive: pidAlive };
      let lock: HeldPlanLock | undefined;
      // One detector for the whole plan (the screen list and every item's run), built when first needed.
      let detectorParts: Promise<DetectorParts> | undefined;
      const detector = (failureDir: string) => (detectorParts ??= createDetector({ ocr: o.ocr, detector: resolveDetector(dataDir, io.env) }, join(dataDir, "cache", "ocr"), false, { ...(io.logger ? { logger: io.logger() } : {}), failureDir }));
      let closeScreen: (() => Promise<void>) | undefined;
      try {
        let planId: string;
        let doc: PlanDocument;
        if (o.resume) {
          planId = o.resume;
          doc = await loadPlan(store, planId);
          // Before anything is written: one process per plan.
          lock = await lockPlan(store, planId, owner);
          // The workflow as planned (its snapshot), even if the file moved.
          if (!existsSync(doc.workflow.path)) {
            mkdirSync(doc.options.report_dir, { recursive: true });
            writeFileSync(join(doc.options.report_dir, "workflow.json"), JSON.stringify(planWorkflow(doc), null, 2));
            doc = { ...doc, workflow: { ...doc.workflow, path: join(doc.options.report_dir, "workflow.json") } };
          }
          io.err(`resuming plan ${planId}: « ${doc.instruction.text} » with « ${doc.workflow.name} »${lock.tookOver ? ` (its lock was held by pid ${lock.tookOver.pid}, which is gone: taken over)` : ""}\n`);
        } else {
          planId = timestampedId("plan");
          const reportDir = resolve(o.report ?? join(dataDir, "plans", planId));
          const candidates = await storedCandidates(store, io.err);
          const interactive = !!(process.stdin.isTTY && process.stderr.isTTY);
          let screen: PerceivedTableReader | undefined;
          if (o.in?.startsWith(SCREEN_SOURCE)) {
            const e = env();
            const windows = new X11WindowInfo({ env: e });
            const source = new X11ScreenSource({ env: e, windows });
            closeScreen = () => source.close();
            screen = new PerceivedTableReader(windows, source, async (frame, signal) => {
              const d = await (await detector(join(reportDir, "failures"))).detector.detect(frame, { autoScale: true, ...(signal ? { signal } : {}) });
              return { lines: d.ocr?.lines ?? [], controls: d.elements.map((el) => el.bbox) };
            });
          }
          const vlm = o.model ? resolveVlmConfig(dataDir, io.env) : undefined;
          // The decision model reads the instruction within --model-timeout, without retries: slow or absent, the parse stands.
          const proposer = vlm?.enabled ? new ModelInstructionProposer(createVlmProviders({ ...vlm, timeoutMs: Math.round(modelTimeout * 1000), retries: 0 }, { probeTimeoutMs: Math.round(modelTimeout * 1000) }).roles.decision) : undefined;
          const prepared = await preparePlan({
            instruction: instruction!,
            ...(o.lang ? { language: o.lang as "fr" | "en" } : {}),
            ...(o.in ? { source: o.in } : {}),
            ...(screen ? { screen } : {}),
            ...(proposer ? { proposer } : {}),
            ...(o.item ? { explicitItems: o.item } : {}),
            candidates,
            ...(o.workflow ? { forced: await forcedWorkflow(o.workflow, candidates) } : {}),
            ...(interactive
              ? {
                  choose: async (ranking: readonly ScoredCandidate[], reason: string) => {
                    const top = ranking.slice(0, 4);
                    io.err(`Which workflow? ${reason}:\n${top.map((c, i) => `  ${i + 1}. « ${c.workflow.name} » (${c.workflow.workflow_id}) ${c.score.toFixed(2)}`).join("\n")}\n`);
                    const a = await ask(`Number (1-${top.length}, empty to stop): `);
                    return top[Number(a) - 1];
                  },
                }
              : {}),
            bind: { ...(o.var ? { constants: parseVarArgs(o.var) } : {}), ...(o.useExamples ? { useExamples: true } : {}) },
            doneItems: (id) => store.doneItems(id),
            estimateMs: await estimator(store),
            planId,
            reportDir,
            appCommand: o.app ?? null,
            maxSystemRetries: retries,
            signal: ctl.signal,
          });
          doc = prepared.document;
          if (o.dryRun) {
            const where = await secretAvailability(prepared.workflow, { env: io.env, store: secretStore });
            for (const [name, from] of Object.entries(where)) io.err(`secret « ${name} »: ${from ?? "in no safe place yet: it would be asked on the terminal, else the run stops (rpav secret set, or its environment variable)"}\n`);
            if (o.json) io.out(`${JSON.stringify({ dry_run: true, plan: doc, differences: prepared.differences, warnings: prepared.warnings, left_out: prepared.filtered.dropped.map((d) => ({ key: d.item.key, label: d.item.label, why: d.why })), already_done: Object.fromEntries(prepared.alreadyDone) }, null, 2)}\n`);
            else io.out(`${formatPlan(prepared)}(dry run: nothing was run)\n`);
            return;
          }
          // The same instruction started twice: refused before anything is written or asked.
          await assertNoConcurrentPlan(store, doc, owner);
          io.err(formatPlan(prepared));
          secrets = await takeSecrets(prepared.workflow);
          if (!o.yes) {
            if (!interactive) throw new InvalidInputError("Not run: the plan above needs a confirmation and there is no terminal to ask. Add --yes to run it, or --dry-run to only print it.");
            const a = (await ask(doc.instruction.language === "fr" ? "Lancer ce plan ? [o/N] " : "Run this plan? [y/N] ")).toLowerCase();
            if (!/^(o|oui|y|yes)$/.test(a)) {
              io.err("not run\n");
              setExit(1);
              return;
            }
          }
          mkdirSync(reportDir, { recursive: true });
          if (!existsSync(doc.workflow.path)) writeFileSync(doc.workflow.path, JSON.stringify(prepared.workflow, null, 2));
          writeFileSync(join(reportDir, "plan.json"), `${JSON.stringify(doc, null, 2)}\n`);
          await startPlan(store, prepared, o.force);
          lock = await lockPlan(store, planId, owner);
          // Two starts at the same moment: each sees the other once both hold their own lock.
          await assertNoConcurrentPlan(store, doc, owner).catch(async (e: unknown) => {
            await store.setPlanStatus(planId, "finished");
            throw e;
          });
          io.err(`plan ${planId} → ${reportDir} (after a stop: rpav run --resume ${planId})\n`);
        }
        secrets ??= await takeSecrets(planWorkflow(doc));
        const runner = new ReplayItemRunner(env, dataDir, store, { ocr: o.ocr, maxAttempts: attempts, secrets: secrets.values, detector: await detector(join(doc.options.report_dir, "failures")), ...(o.vlm !== undefined ? { vlm: o.vlm } : {}) });
        // The app started per item never sees the environment variables that carry secrets.
        const planned = planWorkflow(doc);
        const app = doc.options.app_command ? new ShellAppSession(doc.options.app_command, () => withoutSecretEnv(env(), planned)) : undefined;
        let ledger: LedgerItem[];
        try {
          ledger = await executePlan(store, planId, { runner, ...(app ? { app } : {}), ...(o.force ? { force: true } : {}), ...(o.retryBusiness ? { retryBusiness: true } : {}), onProgress: (p) => io.err(progressLine(p)), signal: ctl.signal });
        } catch (e) {
          if (e instanceof AbortedError) writeReports(doc, await store.planItems(planId));
          throw e;
        } finally {
          await app?.stop();
        }
        const r = writeReports(doc, ledger);
        if (o.json) io.out(`${JSON.stringify({ ...r.json, report: r.html }, null, 2)}\n`);
        else io.out(`report: ${r.html}\n${r.line}\n`);
        if (ledger.some((l) => l.status !== "done" && l.status !== "skipped")) setExit(1);
      } finally {
        process.off("SIGINT", onSig);
        process.off("SIGTERM", onSig);
        await lock?.release();
        await closeScreen?.();
        await (await detectorParts?.catch(() => undefined))?.close();
        await store.close();
      }
    });
}
