// Runs, the trace viewer: the list; one run with its step list, film strip and the selected step's
// card (the report's own step card, screenshots served from the run folder); failures only; the
// comparison with the previous run of the same workflow; the run's files, confined to its folder.
import { basename, dirname } from "node:path";
import type { FastifyInstance } from "fastify";
import { attemptBoxes, figure, pngSize, renderReport, stepAttempts, stepCard, type ShotSource, type StepAttempt } from "../replay/report.js";
import { confinedFile } from "./paths.js";
import type { RunEntry } from "./runs.js";
import type { StudioContext } from "./server.js";

/** Screenshots of a run by URL, each checked to lie inside the run folder. */
export function servedShots(entry: RunEntry): ShotSource {
  const base = `/runs/${encodeURIComponent(entry.summary.runId)}/files/`;
  return {
    src: (rel) => (confinedFile(entry.summary.dir, rel) ? `${base}${rel.split("/").map(encodeURIComponent).join("/")}` : undefined),
    size: (rel) => {
      const p = confinedFile(entry.summary.dir, rel);
      return p ? pngSize(p) : undefined;
    },
    inlineStyle: false,
  };
}

function stepRow(entry: RunEntry, a: StepAttempt) {
  const step = entry.trace.run.steps[a.after.step];
  return {
    index: a.index,
    row: a.row + 1,
    stepId: a.after.step_id,
    action: step?.action ?? "",
    intention: step?.intention ?? "",
    status: a.after.status,
    decision: a.before?.decision ?? "",
    method: a.before?.method ?? "",
    ms: a.after.duration_ms,
    attempts: a.after.attempts,
    error: a.after.error ? `${a.after.error.code}: ${a.after.error.message}` : "",
  };
}

/** The last attempt of each (row, step) of a run, keyed "row:step". */
function finalAttempts(entry: RunEntry): Map<string, StepAttempt> {
  const out = new Map<string, StepAttempt>();
  for (const a of stepAttempts(entry.trace)) out.set(`${a.row}:${a.after.step}`, a);
  return out;
}

export function registerRunRoutes(app: FastifyInstance, ctx: StudioContext): void {
  const load = async (runId: string): Promise<RunEntry> => {
    const entry = await ctx.runs.get(runId);
    if (!entry) throw Object.assign(new Error(`No run ${runId} in ${ctx.dataDir} or the store.`), { statusCode: 404 });
    return entry;
  };

  app.get("/runs", async (_req, reply) => {
    const { runs, broken } = await ctx.runs.list();
    return ctx.page(reply, "runs", { title: "Runs", runs: runs.map((r) => r.summary), broken });
  });

  app.get<{ Params: { runId: string }; Querystring: { step?: string; failures?: string } }>("/runs/:runId", async (req, reply) => {
    const entry = await load(req.params.runId);
    const attempts = stepAttempts(entry.trace);
    const failuresOnly = req.query.failures === "1";
    const listed = failuresOnly ? attempts.filter((a) => a.after.status === "failed") : attempts;
    const wanted = req.query.step !== undefined ? Number(req.query.step) : (listed.find((a) => a.after.status === "failed") ?? listed[0])?.index;
    const selected = attempts.find((a) => a.index === wanted);
    const shots = servedShots(entry);
    const previous = await ctx.runs.previous(entry.summary.runId);
    return ctx.page(reply, "run", {
      title: `Run ${entry.summary.runId}`,
      run: entry.summary,
      steps: listed.map((a) => stepRow(entry, a)),
      total: attempts.length,
      failuresOnly,
      selected: selected?.index ?? null,
      card: selected ? stepCard(entry.trace, selected, shots, { extraFields: true }) : "",
      film: attempts.map((a) => ({ index: a.index, status: a.after.status, stepId: a.after.step_id, src: (a.after.screenshot && shots.src(a.after.screenshot)) || (a.before?.screenshot && shots.src(a.before.screenshot)) || null })),
      previous: previous?.summary ?? null,
    });
  });

  app.get<{ Params: { runId: string; "*": string } }>("/runs/:runId/files/*", async (req, reply) => {
    const entry = await load(req.params.runId);
    const file = confinedFile(entry.summary.dir, req.params["*"]);
    if (!file) return reply.code(404).type("text/plain").send("No such file in this run's folder.");
    return reply.sendFile(basename(file), dirname(file));
  });

  // The self-contained report: inline style and data: images, never a script.
  app.get<{ Params: { runId: string } }>("/runs/:runId/report", async (req, reply) => {
    const entry = await load(req.params.runId);
    return reply.header("content-security-policy", "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'").type("text/html; charset=utf-8").send(renderReport(entry.trace));
  });

  app.get<{ Params: { runId: string }; Querystring: { with?: string } }>("/runs/:runId/compare", async (req, reply) => {
    const entry = await load(req.params.runId);
    const other = req.query.with ? await load(req.query.with) : await ctx.runs.previous(entry.summary.runId);
    if (!other) return ctx.page(reply, "error", { title: "Compare", status: 404, message: `Run ${entry.summary.runId} is the first run of workflow ${entry.summary.workflowId}: there is no earlier run to compare with.` }, 404);
    const left = finalAttempts(other);
    const right = finalAttempts(entry);
    const keys = [...new Set([...left.keys(), ...right.keys()])].sort((a, b) => {
      const [ra, sa] = a.split(":").map(Number) as [number, number];
      const [rb, sb] = b.split(":").map(Number) as [number, number];
      return ra - rb || sa - sb;
    });
    const cell = (e: RunEntry, a: StepAttempt | undefined) =>
      a ? { ...stepRow(e, a), figure: figure(servedShots(e), a.before?.screenshot ?? null, a.before?.origin ?? null, attemptBoxes(a), a.action?.point ?? null, "before") } : null;
    const rows = keys.map((k) => {
      const l = left.get(k);
      const r = right.get(k);
      const step = (r ?? l)!;
      return { row: step.row + 1, stepId: step.after.step_id, intention: (entry.trace.run.steps[step.after.step] ?? other.trace.run.steps[step.after.step])?.intention ?? "", left: cell(other, l), right: cell(entry, r), differs: l?.after.status !== r?.after.status };
    });
    return ctx.page(reply, "compare", { title: `Compare ${other.summary.runId} with ${entry.summary.runId}`, left: other.summary, right: entry.summary, rows });
  });
}
