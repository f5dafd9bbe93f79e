// Start a run: choose a workflow, enter its variables or give a CSV, and the studio spawns
// `rpav replay` on the store's latest version of it into <data dir>/runs/<folder>; the live page
// follows the run's trace.jsonl as it grows (server-sent events) and the child's progress lines.
// Values reach the child through a private --vars-file (never its argv); secret variables are
// never asked for: the replay takes them from the credential store.
import type { ChildProcess } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, openSync, readSync, closeSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { PassThrough } from "node:stream";
import type { FastifyInstance } from "fastify";
import { InvalidInputError } from "../core/errors.js";
import { timestampedId } from "../core/ids.js";
import { TraceEventSchema, type TraceEvent } from "../core/schemas/trace.js";
import { WorkflowSchema, type Workflow } from "../core/schemas/workflow.js";
import { TRACE_FILE } from "../replay/trace.js";
import { parseCsv } from "../replay/variables.js";
import type { StudioContext } from "./server.js";

/** Starts `rpav replay <args>` (the CLI gives the executable, the data directory and the store). */
export type ReplaySpawner = (args: string[]) => ChildProcess;

interface Job {
  folder: string;
  dir: string;
  child: ChildProcess;
  log: string[];
  exit: number | null | undefined;
  /** The signal that ended the child (SIGKILL…), when one did. */
  signal: string | null;
}

const FOLDER = /^[A-Za-z0-9_.-]{1,160}$/;

/** One line a person reads for a trace event (the page shows it as text). */
export function describeEvent(e: TraceEvent): string {
  switch (e.type) {
    case "run":
      return `run ${e.run_id}: « ${e.workflow_name} », ${e.steps.length} steps × ${e.rows.length} row(s)`;
    case "row_start":
      return `row ${e.row + 1} from step ${e.from_step + 1}`;
    case "resume":
      return `resume row ${e.row + 1} from step ${e.from_step + 1}`;
    case "before":
      return `${e.step_id} attempt ${e.attempt}: ${e.method ?? "no target"}${e.score !== null ? ` ${e.score}` : ""} — ${e.decision}`;
    case "action":
      return `${e.step_id} ${e.action}${e.point ? ` at (${e.point.join(", ")})` : ""}${e.input !== null ? ` « ${e.input} »` : ""}`;
    case "after":
      return `${e.step_id} ${e.status} in ${e.duration_ms} ms${e.error ? ` — ${e.error.code}: ${e.error.message}` : ""}`;
    case "row_end":
      return `row ${e.row + 1} ${e.status}`;
    case "run_end":
      return `run ${e.status} in ${(e.duration_ms / 1000).toFixed(1)} s`;
    case "decision":
      return `${e.step_id} ${e.decision.kind} (${e.decision.by}): ${e.decision.reason}`;
  }
}

export function registerStartRoutes(app: FastifyInstance, ctx: StudioContext): void {
  const jobs = new Map<string, Job>();
  app.addHook("onClose", async () => {
    for (const j of jobs.values()) if (j.exit === undefined) j.child.kill("SIGTERM");
  });

  const latest = async (id: string): Promise<{ wf: Workflow; version: number }> => {
    const v = await ctx.store.getWorkflow(id);
    if (!v) throw new InvalidInputError(`No workflow ${id} in the store.`);
    return { wf: WorkflowSchema.parse(v.document), version: v.version };
  };

  app.get<{ Querystring: { workflow?: string } }>("/start", async (req, reply) => {
    const workflows = await ctx.store.listWorkflows();
    const chosen = req.query.workflow ? await latest(req.query.workflow) : undefined;
    return ctx.page(reply, "start", { title: "Start a run", workflows, chosen: chosen ? { ...chosen, variables: chosen.wf.variables } : null });
  });

  app.post<{ Body: Record<string, string> }>("/start", async (req, reply) => {
    const b = req.body ?? {};
    const { wf, version } = await latest(b.workflow ?? "");
    const folder = timestampedId("studio");
    const dir = join(ctx.dataDir, "runs", folder);
    // The version replayed is the store's, written out with the icon crops it names (from where the workflow last ran).
    const wfDir = join(ctx.dataDir, "studio", "workflows", wf.workflow_id.replace(/[^A-Za-z0-9_.-]/g, "_"), `v${version}`);
    mkdirSync(wfDir, { recursive: true });
    const wfFile = join(wfDir, "workflow.json");
    writeFileSync(wfFile, `${JSON.stringify(wf, null, 2)}\n`);
    const icons = wf.steps.map((s) => s.target?.icon).filter((x): x is string => !!x);
    if (icons.length) {
      const { runs } = await ctx.runs.list();
      const known = runs.map((r) => dirname(r.trace.run.workflow_path)).filter((d, i) => runs[i]!.summary.workflowId === wf.workflow_id);
      for (const icon of icons) {
        const from = known.map((d) => join(d, icon)).find((p) => existsSync(p));
        if (from && !icon.split(/[\\/]/).includes("..")) {
          mkdirSync(dirname(join(wfDir, icon)), { recursive: true });
          copyFileSync(from, join(wfDir, icon));
        }
      }
    }
    const args = [wfFile, "--report", dir, "--on-error", b.on_error === "skip" ? "skip" : "stop"];
    const secrets = wf.variables.filter((v) => v.secret).map((v) => v.name);
    const uploads = join(ctx.dataDir, "studio", "uploads");
    const csv = (b.csv ?? "").trim();
    if (csv) {
      // A secret's column would leave its values in a file: secrets come from the credential store only.
      const header = Object.keys(parseCsv(`${csv}\n`, "the CSV")[0] ?? {});
      const inCsv = header.filter((h) => secrets.includes(h));
      if (inCsv.length) throw new InvalidInputError(`The CSV has a column for the secret variable${inCsv.length > 1 ? "s" : ""} ${inCsv.join(", ")}: secrets are not given in the studio; they are taken from the credential store (rpav secret set ${inCsv[0]}). Remove the column.`);
      mkdirSync(uploads, { recursive: true, mode: 0o700 });
      const csvFile = join(uploads, `${folder}.csv`);
      writeFileSync(csvFile, `${csv}\n`, { mode: 0o600 });
      args.push("--data", csvFile);
    }
    // Values never go on the command line (other users of the machine can read it): a private file
    // the replay deletes once read. Secret variables are never taken from the page.
    const vars: Record<string, string> = {};
    for (const v of wf.variables) {
      const value = b[`var_${v.name}`];
      if (!v.secret && value !== undefined && value !== "") vars[v.name] = value;
    }
    if (Object.keys(vars).length) {
      mkdirSync(uploads, { recursive: true, mode: 0o700 });
      const varsFile = join(uploads, `${folder}.vars.json`);
      writeFileSync(varsFile, JSON.stringify(vars), { mode: 0o600, flag: "wx" });
      args.push("--vars-file", varsFile);
    }
    const handedFile = args.includes("--vars-file") ? args[args.indexOf("--vars-file") + 1] : undefined;
    if (b.use_examples === "1") args.push("--use-examples");
    const child = ctx.spawnReplay(args);
    // The command line as the child got it (its argv holds paths and options, no value).
    const job: Job = { folder, dir, child, log: [`$ ${child.spawnargs.join(" ")}`], exit: undefined, signal: null };
    jobs.set(folder, job);
    const keep = (chunk: Buffer) => job.log.push(...chunk.toString("utf8").split("\n").filter((l) => l.trim()));
    child.stdout?.on("data", keep);
    child.stderr?.on("data", keep);
    child.once("close", (code, signal) => {
      job.signal = signal;
      job.exit = code;
      // The replay deletes the vars file once read; one left by a child that never read it goes too.
      if (handedFile) rmSync(handedFile, { force: true });
    });
    child.once("error", (e) => {
      job.log.push(`rpav replay could not start: ${e.message}`);
      job.exit = null;
    });
    return reply.redirect(`/live/${folder}`, 303);
  });

  app.get<{ Params: { folder: string } }>("/live/:folder", async (req, reply) => {
    if (!FOLDER.test(req.params.folder)) throw new InvalidInputError("Not a run folder name.");
    return ctx.page(reply, "live", { title: `Live: ${req.params.folder}`, folder: req.params.folder });
  });

  app.get<{ Params: { folder: string } }>("/live/:folder/events", async (req, reply) => {
    const folder = req.params.folder;
    if (!FOLDER.test(folder)) throw new InvalidInputError("Not a run folder name.");
    const job = jobs.get(folder);
    const file = join(ctx.dataDir, "runs", folder, TRACE_FILE);
    const stream = new PassThrough();
    const send = (event: string, data: unknown) => stream.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    let offset = 0;
    let partial = "";
    let logged = 0;
    let ended = false;
    const tick = () => {
      if (job) while (logged < job.log.length) send("log", { text: job.log[logged++] });
      if (existsSync(file)) {
        const size = statSync(file).size;
        if (size > offset) {
          const fd = openSync(file, "r");
          const buf = Buffer.alloc(size - offset);
          try {
            readSync(fd, buf, 0, buf.length, offset);
          } finally {
            closeSync(fd);
          }
          offset = size;
          const lines = (partial + buf.toString("utf8")).split("\n");
          partial = lines.pop() ?? "";
          for (const line of lines) {
            if (!line.trim()) continue;
            let parsed: ReturnType<typeof TraceEventSchema.safeParse>;
            try {
              parsed = TraceEventSchema.safeParse(JSON.parse(line));
            } catch {
              continue;
            }
            if (!parsed.success) continue;
            const e = parsed.data;
            if (e.type === "run_end") ended = true;
            send("trace", { type: e.type, status: "status" in e ? e.status : null, text: describeEvent(e), ...(e.type === "run" ? { run_id: e.run_id } : {}) });
          }
        }
      }
      const exited = job ? job.exit !== undefined : ended;
      if (exited && (ended || !job || logged >= job.log.length)) {
        if (job) while (logged < job.log.length) send("log", { text: job.log[logged++] });
        send("done", { exit: job ? job.exit : null, ended, ...(job?.signal ? { signal: job.signal } : {}) });
        stop();
      }
    };
    const timer = setInterval(tick, 250);
    const stop = () => {
      clearInterval(timer);
      stream.end();
    };
    req.raw.once("close", stop);
    setImmediate(tick);
    return reply.header("content-type", "text/event-stream; charset=utf-8").header("x-accel-buffering", "no").send(stream);
  });
}
