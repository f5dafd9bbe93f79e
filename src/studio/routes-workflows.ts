// Workflows: the list (name, app, steps, variables, versions, last run and its result); one
// workflow version with its steps (intention, target crop, expected state and result) and its
// variables, renamed / made literal / made variable through the same operations as
// `rpav workflow vars`, each saved as a new version in the store; a diff between two versions.
import type { FastifyInstance } from "fastify";
import { InvalidInputError } from "../core/errors.js";
import { WorkflowSchema, type Workflow } from "../core/schemas/workflow.js";
import { applyVariableOperations, type VariableOperation } from "../record/workflow-vars.js";
import { confinedFile } from "./paths.js";
import type { RunEntry } from "./runs.js";
import type { StudioContext } from "./server.js";
import { cropAround, diffDocuments, recordedTargetShot } from "./workflow-view.js";
import { stepAttempts } from "../replay/report.js";

/** Where a step's target can be seen: the recording's screenshot, else the latest run's screenshot of that step. */
export function targetCropSource(wf: Workflow, stepId: string, runs: RunEntry[]): { file: string; bbox: number[]; origin: readonly [number, number]; from: string } | undefined {
  const rec = recordedTargetShot(wf, stepId);
  const recFile = rec && confinedFile(rec.dir, rec.rel);
  if (rec && recFile) return { file: recFile, bbox: rec.bbox, origin: [0, 0], from: "recording" };
  for (const r of runs.filter((x) => x.summary.workflowId === wf.workflow_id)) {
    const before = stepAttempts(r.trace).filter((a) => a.after.step_id === stepId && a.before?.bbox && a.before.screenshot && a.before.origin).at(-1)?.before;
    const file = before && confinedFile(r.summary.dir, before.screenshot!);
    if (before && file) return { file, bbox: before.bbox!, origin: before.origin!, from: `run ${r.summary.runId}` };
  }
  return undefined;
}

export function registerWorkflowRoutes(app: FastifyInstance, ctx: StudioContext): void {
  const load = async (id: string, version?: number): Promise<{ wf: Workflow; version: number; latest: number; createdAt: string }> => {
    const latest = await ctx.store.getWorkflow(id);
    const v = version !== undefined ? await ctx.store.getWorkflow(id, version) : latest;
    if (!latest || !v) throw Object.assign(new Error(`No workflow ${id}${version !== undefined ? ` version ${version}` : ""} in the store.`), { statusCode: 404 });
    const parsed = WorkflowSchema.safeParse(v.document);
    if (!parsed.success) throw new InvalidInputError(`Workflow ${id} version ${v.version} in the store is not a valid workflow_v1: ${parsed.error.issues[0]?.message ?? "invalid"}.`);
    return { wf: parsed.data, version: v.version, latest: latest.version, createdAt: v.createdAt };
  };

  app.get("/workflows", async (_req, reply) => {
    const { runs } = await ctx.runs.list();
    const rows = [];
    for (const w of await ctx.store.listWorkflows()) {
      const doc = (await ctx.store.getWorkflow(w.workflowId))?.document as Partial<Workflow> | undefined;
      const last = runs.find((r) => r.summary.workflowId === w.workflowId)?.summary;
      rows.push({ id: w.workflowId, name: w.name, app: doc?.app ?? "", steps: doc?.steps?.length ?? 0, variables: (doc?.variables ?? []).map((v) => v.name), versions: w.latestVersion, updatedAt: w.updatedAt, lastRun: last ? { runId: last.runId, status: last.status, startedAt: last.startedAt } : null });
    }
    return ctx.page(reply, "workflows", { title: "Workflows", workflows: rows });
  });

  app.get<{ Params: { id: string }; Querystring: { version?: string; error?: string } }>("/workflows/:id", async (req, reply) => {
    const { wf, version, latest, createdAt } = await load(req.params.id, req.query.version ? Number(req.query.version) : undefined);
    const versions = [];
    for (let v = latest; v >= 1; v--) {
      const d = await ctx.store.getWorkflow(wf.workflow_id, v);
      if (d) versions.push({ version: v, createdAt: d.createdAt });
    }
    const { runs } = await ctx.runs.list();
    const lastRun = runs.find((r) => r.summary.workflowId === wf.workflow_id)?.summary ?? null;
    const proposedPatches = (await ctx.patches.list()).filter((p) => p.workflow_id === wf.workflow_id && p.status === "proposed").length;
    return ctx.page(reply, "workflow", {
      title: wf.name,
      wf,
      version,
      latest,
      createdAt,
      versions,
      lastRun,
      proposedPatches,
      crops: Object.fromEntries(wf.steps.map((s) => [s.step_id, targetCropSource(wf, s.step_id, runs)?.from ?? null])),
      typingSteps: wf.steps.filter((s) => s.action === "type" && s.text !== undefined && !/\{\{/.test(s.text)).map((s) => ({ stepId: s.step_id, text: s.text })),
    });
  });

  app.post<{ Params: { id: string }; Body: Record<string, string> }>("/workflows/:id/vars", async (req, reply) => {
    const { wf, version, latest } = await load(req.params.id);
    const b = req.body ?? {};
    if (Number(b.version) !== version) throw new InvalidInputError(`Workflow ${wf.workflow_id} changed meanwhile (version ${latest} now, the page showed ${b.version}); reload the page.`);
    let op: VariableOperation;
    if (b.op === "rename") op = { kind: "rename", from: b.from ?? "", to: (b.to ?? "").trim() };
    else if (b.op === "demote") op = { kind: "demote", name: b.name ?? "" };
    else if (b.op === "promote") op = { kind: "promote", stepId: b.step ?? "", ...(b.name?.trim() ? { name: b.name.trim() } : {}) };
    else throw new InvalidInputError(`Unknown variable operation "${String(b.op).slice(0, 40)}": rename, demote or promote.`);
    const next = applyVariableOperations(wf, [op], `workflow ${wf.workflow_id} version ${version}`);
    const saved = await ctx.store.putWorkflow(next);
    return reply.redirect(`/workflows/${encodeURIComponent(wf.workflow_id)}?version=${saved}`, 303);
  });

  app.get<{ Params: { id: string }; Querystring: { a?: string; b?: string } }>("/workflows/:id/diff", async (req, reply) => {
    const latest = await load(req.params.id);
    const bv = req.query.b ? Number(req.query.b) : latest.version;
    const av = req.query.a ? Number(req.query.a) : Math.max(1, bv - 1);
    const a = await load(req.params.id, av);
    const b = await load(req.params.id, bv);
    return ctx.page(reply, "diff", { title: `${latest.wf.name}: v${av} → v${bv}`, wf: latest.wf, a: av, b: bv, versions: Array.from({ length: latest.latest }, (_, i) => i + 1), changes: diffDocuments(a.wf, b.wf) });
  });

  app.get<{ Params: { id: string; version: string; stepId: string } }>("/workflows/:id/v/:version/steps/:stepId/crop.png", async (req, reply) => {
    const { wf } = await load(req.params.id, Number(req.params.version));
    const src = targetCropSource(wf, req.params.stepId, (await ctx.runs.list()).runs);
    if (!src) return reply.code(404).type("text/plain").send("No screenshot of this target on this machine (neither the recording's nor a run's).");
    const png = await cropAround(src.file, src.bbox, src.origin);
    if (!png) return reply.code(404).type("text/plain").send("The target's box lies outside its screenshot.");
    return reply.header("x-rpav-crop-from", src.from).type("image/png").send(png);
  });
}
