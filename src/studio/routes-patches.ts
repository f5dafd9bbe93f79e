// Proposed patches: the changes the actor kept from a person's assist answers (a candidate picked,
// a point clicked, a step skipped). Each shows its step, the old target beside the new one (label,
// type, box or point, with crops: the old from the recording or a run, the new from the screenshot
// of the run that asked), and is accepted — a new workflow version, through the same decidePatch
// as `rpav workflow patches --accept` — or rejected.
import type { FastifyInstance } from "fastify";
import { decidePatch, type PatchStore } from "../actor/patches.js";
import type { WorkflowPatch } from "../core/schemas/workflow-patch.js";
import { WorkflowSchema, type Target, type Workflow } from "../core/schemas/workflow.js";
import { stepAttempts } from "../replay/report.js";
import { confinedFile } from "./paths.js";
import type { RunEntry } from "./runs.js";
import type { StudioContext } from "./server.js";
import { targetCropSource } from "./routes-workflows.js";
import { cropAround } from "./workflow-view.js";

/** The patch files (PatchFiles in src/store, chosen by the composition root). */
export interface PatchList extends PatchStore {
  list(): Promise<WorkflowPatch[]>;
}

interface TargetView {
  label: string;
  type: string;
  bbox: string | null;
  /** The clicked point, for a target given by a point (no label). */
  point: string | null;
  crop: string | null;
}

function targetView(t: Target | null | undefined, crop: string | null): TargetView | null {
  if (!t) return null;
  const b = t.recorded_bbox;
  return {
    label: t.label,
    type: t.type ?? "",
    bbox: b ? `[${b.map((v) => Math.round(v)).join(", ")}]` : null,
    point: b && !t.label ? `(${Math.round((b[0] + b[2]) / 2)}, ${Math.round((b[1] + b[3]) / 2)})` : null,
    crop,
  };
}

/** The screenshot of the asking run's step, to cut the new target from. */
function askedShot(run: RunEntry | undefined, stepId: string): { file: string; origin: readonly [number, number] } | undefined {
  if (!run) return undefined;
  const before = stepAttempts(run.trace).filter((a) => a.after.step_id === stepId && a.before?.screenshot && a.before.origin).at(-1)?.before;
  const file = before && confinedFile(run.summary.dir, before.screenshot!);
  return before && file ? { file, origin: before.origin! } : undefined;
}

export function registerPatchRoutes(app: FastifyInstance, ctx: StudioContext): void {
  const latestWorkflow = async (id: string): Promise<{ wf: Workflow; version: number } | undefined> => {
    const v = await ctx.store.getWorkflow(id);
    const parsed = v && WorkflowSchema.safeParse(v.document);
    return v && parsed?.success ? { wf: parsed.data, version: v.version } : undefined;
  };

  app.get<{ Querystring: { workflow?: string; all?: string; done?: string } }>("/patches", async (req, reply) => {
    const all = req.query.all === "1";
    const patches = (await ctx.patches.list()).filter((p) => (!req.query.workflow || p.workflow_id === req.query.workflow) && (all || p.status === "proposed" || p.patch_id === req.query.done));
    const { runs } = await ctx.runs.list();
    const rows = [];
    for (const p of patches.reverse()) {
      const cur = await latestWorkflow(p.workflow_id);
      const step = cur?.wf.steps.find((s) => s.step_id === p.step_id);
      const oldCrop = cur && step && targetCropSource(cur.wf, p.step_id, runs) ? `/workflows/${encodeURIComponent(p.workflow_id)}/v/${cur.version}/steps/${encodeURIComponent(p.step_id)}/crop.png` : null;
      const run = runs.find((r) => r.summary.runId === p.run_id);
      const newTarget = p.op.op === "set_target" ? p.op.target : null;
      const newCrop = newTarget?.recorded_bbox && askedShot(run, p.step_id) ? `/patches/${encodeURIComponent(p.patch_id)}/crop.png` : null;
      rows.push({
        id: p.patch_id,
        status: p.status,
        workflowId: p.workflow_id,
        workflowName: cur?.wf.name ?? p.workflow_id,
        version: cur?.version ?? null,
        stepId: p.step_id,
        intention: step?.intention ?? null,
        op: p.op.op,
        reason: p.reason,
        proposedAt: p.proposed_at,
        decidedAt: p.decided_at ?? null,
        acceptedVersion: p.version ?? null,
        runId: p.run_id,
        runKnown: !!run,
        old: targetView(step?.target, oldCrop),
        next: targetView(newTarget, newCrop),
      });
    }
    return ctx.page(reply, "patches", { title: "Proposed patches", patches: rows, all, workflow: req.query.workflow ?? null, done: req.query.done ?? null });
  });

  app.get<{ Params: { id: string } }>("/patches/:id/crop.png", async (req, reply) => {
    const p = await ctx.patches.get(req.params.id);
    const box = p.op.op === "set_target" ? p.op.target.recorded_bbox : null;
    const shot = box ? askedShot(await ctx.runs.get(p.run_id), p.step_id) : undefined;
    const png = box && shot ? await cropAround(shot.file, box, shot.origin) : undefined;
    if (!png) return reply.code(404).type("text/plain").send("No screenshot of this patch's run on this machine.");
    return reply.type("image/png").send(png);
  });

  app.post<{ Params: { id: string; decision: string } }>("/patches/:id/:decision", async (req, reply) => {
    const decision = req.params.decision === "accept" ? "accept" : req.params.decision === "reject" ? "reject" : undefined;
    if (!decision) return reply.code(404).type("text/plain").send("accept or reject");
    const r = await decidePatch({ patches: ctx.patches, store: ctx.store }, req.params.id, decision);
    return reply.redirect(`/patches?done=${encodeURIComponent(r.patch.patch_id)}`, 303);
  });
}
