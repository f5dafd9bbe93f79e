// The planner's plans and their item ledger (`rpav run`, kept in the store): the list (instruction,
// workflow, items counted by status, times) and one plan's items with their status, exception
// class, attempts, reason and the run of each in the trace viewer. An item the ledger calls
// "running" whose run's process is gone shows as interrupted (`rpav run --resume` goes on with it).
import { resolve } from "node:path";
import type { FastifyInstance } from "fastify";
import type { LedgerItem, PlanRecord } from "../core/providers/store.js";
import { ITEM_STATUSES, PlanDocumentSchema, type PlanDocument } from "../core/schemas/plan.js";
import { itemRunDir } from "../planner/planner.js";
import type { RunEntry } from "./runs.js";
import type { StudioContext } from "./server.js";

type ItemView = LedgerItem & { shown: LedgerItem["status"] | "interrupted"; label: string; run: { runId: string; status: string } | null };

/** The ledger as shown: each item with its run (the ledger's, or the folder of the attempt under way) and "interrupted" for a running item whose run's process is gone. */
function itemViews(doc: PlanDocument | undefined, items: LedgerItem[], runs: RunEntry[]): ItemView[] {
  return items.map((it) => {
    let entry = it.runId ? runs.find((r) => r.summary.runId === it.runId) : undefined;
    if (!entry && it.status === "running" && doc && it.attempts > 0) {
      const dir = resolve(itemRunDir(doc, it.ord, it.attempts));
      entry = runs.find((r) => resolve(r.summary.dir) === dir);
    }
    const shown = it.status === "running" && entry?.summary.status === "interrupted" ? "interrupted" : it.status;
    return { ...it, shown, label: doc?.items[it.ord]?.item.label ?? it.itemKey, run: entry ? { runId: entry.summary.runId, status: entry.summary.status } : it.runId ? { runId: it.runId, status: "" } : null };
  });
}

/** A plan still "running" with an interrupted item and none going on was interrupted. */
function planStatus(p: PlanRecord, items: ItemView[]): string {
  if (p.status !== "running") return p.status;
  return items.some((i) => i.shown === "interrupted") && !items.some((i) => i.shown === "running") ? "interrupted" : "running";
}

const parseDoc = (d: unknown): PlanDocument | undefined => {
  const r = PlanDocumentSchema.safeParse(d);
  return r.success ? r.data : undefined;
};

export function registerPlanRoutes(app: FastifyInstance, ctx: StudioContext): void {
  app.get("/plans", async (_req, reply) => {
    const { runs } = await ctx.runs.list();
    const plans = [];
    for (const p of await ctx.store.listPlans()) {
      const doc = parseDoc(p.document);
      // The ledger is read for plans still running only (to tell an interrupted one); counts come from the store.
      const status = p.status === "running" ? planStatus(p, itemViews(doc, await ctx.store.planItems(p.planId), runs)) : p.status;
      plans.push({
        planId: p.planId,
        instruction: doc?.instruction.text ?? "(unreadable plan document)",
        workflowId: p.workflowId,
        workflowName: doc?.workflow.name ?? p.workflowId,
        createdAt: p.createdAt,
        status,
        items: p.items,
        counts: ITEM_STATUSES.map((s) => ({ status: s, n: p.counts[s] ?? 0 })).filter((c) => c.n > 0),
        firstStartedAt: p.firstStartedAt,
        lastFinishedAt: p.lastFinishedAt,
      });
    }
    return ctx.page(reply, "plans", { title: "Plans", plans });
  });

  app.get<{ Params: { id: string } }>("/plans/:id", async (req, reply) => {
    const p = await ctx.store.getPlan(req.params.id);
    if (!p) return ctx.page(reply, "error", { title: "Not found", status: 404, message: `No plan ${req.params.id} in the store.` }, 404);
    const doc = parseDoc(p.document);
    const { runs } = await ctx.runs.list();
    const items = itemViews(doc, await ctx.store.planItems(p.planId), runs);
    return ctx.page(reply, "plan", {
      title: `Plan ${p.planId}`,
      plan: { planId: p.planId, createdAt: p.createdAt, status: planStatus(p, items), workflowId: p.workflowId },
      doc: doc ? { instruction: doc.instruction.text, workflowName: doc.workflow.name, version: doc.workflow.version, chosenBy: doc.workflow.chosen_by, source: `${doc.source.kind} ${doc.source.location}`, reportDir: doc.options.report_dir, retries: doc.options.max_system_retries } : null,
      items,
    });
  });
}
