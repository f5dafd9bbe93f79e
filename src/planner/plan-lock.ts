// One process runs (or resumes) a plan at a time: its lock in the store names the holder (pid,
// host, since). A second `rpav run --resume` of the plan gets a PlanLockedError naming the plan
// and the pid; a holder whose process died (kill -9, a crash) is taken over. A new plan that would
// run items a live plan of the same workflow still has to do is refused the same way.
import { randomUUID } from "node:crypto";
import { PlanLockedError } from "../core/errors.js";
import type { PlanLockHolder, Store } from "../core/providers/store.js";
import type { PlanDocument } from "../core/schemas/plan.js";

/** This process, and how to tell whether another process (of this host) is alive. */
export interface LockOwner {
  pid: number;
  host: string;
  alive: (pid: number) => boolean;
}

export interface HeldPlanLock {
  holder: PlanLockHolder;
  /** The dead holder taken over, if any. */
  tookOver: PlanLockHolder | null;
  release(): Promise<void>;
}

/** A holder is gone when it ran on this host and its process no longer exists (another host's holder cannot be checked). */
export function staleFor(owner: LockOwner): (h: PlanLockHolder) => boolean {
  return (h) => h.host === owner.host && h.pid !== owner.pid && !owner.alive(h.pid);
}

function describe(h: PlanLockHolder, owner: LockOwner): string {
  return `pid ${h.pid}${h.host !== owner.host ? ` on ${h.host}` : ""}, since ${h.since}`;
}

/** Takes the plan's lock or throws PlanLockedError naming the plan and the live holder. */
export async function lockPlan(store: Store, planId: string, owner: LockOwner): Promise<HeldPlanLock> {
  const holder: PlanLockHolder = { token: randomUUID(), pid: owner.pid, host: owner.host, since: new Date().toISOString() };
  const r = await store.lockPlan(planId, holder, staleFor(owner));
  if (!r.ok)
    throw new PlanLockedError(
      `Plan ${planId} is being run by another rpav (${describe(r.holder, owner)}): one process at a time. Wait for it to end, or stop it (kill ${r.holder.pid}) and then rpav run --resume ${planId}.${r.holder.host !== owner.host ? ` That process runs on another host (${r.holder.host}); its lock cannot be checked from here.` : ""}`,
      { details: { plan: planId, pid: r.holder.pid, host: r.holder.host, since: r.holder.since } },
    );
  return { holder, tookOver: r.tookOver, release: () => store.unlockPlan(planId, holder.token) };
}

/**
 * Refuses a plan whose items another live plan of the same workflow has still to do (the same
 * instruction started twice): PlanLockedError naming that plan, its pid and the items shared.
 */
export async function assertNoConcurrentPlan(store: Store, doc: PlanDocument, owner: LockOwner): Promise<void> {
  const mine = new Set(doc.items.map((x) => x.item.key));
  const stale = staleFor(owner);
  for (const other of await store.lockedPlans(doc.workflow.workflow_id)) {
    if (other.planId === doc.plan_id || stale(other.holder)) continue;
    const shared = (await store.planItems(other.planId)).filter((i) => (i.status === "pending" || i.status === "running") && mine.has(i.itemKey));
    if (shared.length === 0) continue;
    throw new PlanLockedError(
      `Plan ${other.planId} (${describe(other.holder, owner)}) is already running « ${doc.workflow.name} » on ${shared.length} of these items (${shared.slice(0, 3).map((i) => i.itemKey).join(", ")}${shared.length > 3 ? ", …" : ""}). Nothing was run: wait for it to end, or follow it with rpav run --resume ${other.planId} once it stopped.`,
      { details: { plan: other.planId, pid: other.holder.pid, host: other.holder.host, items: shared.map((i) => i.itemKey) } },
    );
  }
}
