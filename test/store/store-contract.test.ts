// One suite, run against both backends: embedded SQLite and PostgreSQL.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { SchemaVersionError, StoreError } from "../../src/core/errors.js";
import type { Store } from "../../src/core/providers/store.js";
import type { ScreenState } from "../../src/core/schemas/screenstate.js";
import type { UIElement } from "../../src/core/schemas/uielement.js";
import { PostgresStore } from "../../src/store/postgres-store.js";
import { STORE_SCHEMA_VERSION } from "../../src/store/sql-store.js";
import { SqliteStore } from "../../src/store/sqlite-store.js";
import { VectorSearch } from "../../src/store/vector-search.js";
import { ROOT } from "../support/cli.js";

const example = <T>(name: string): T => JSON.parse(readFileSync(join(ROOT, "examples/design", name), "utf8")) as T;
const tmp = mkdtempSync(join(tmpdir(), "rpav-store-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

interface Backend {
  name: string;
  open(): Promise<Store>;
  reopen(s: Store): Promise<Store>;
  /** Another connection to the same database (a second process would open one). */
  second(s: Store): Promise<Store>;
  cleanup(s: Store): Promise<void>;
}

let counter = 0;
const backends: Backend[] = [
  {
    name: "sqlite",
    async open() {
      return SqliteStore.open(mkdtempSync(join(tmp, "db-")));
    },
    async reopen(s) {
      await s.close();
      return new SqliteStore(s.location);
    },
    async second(s) {
      return new SqliteStore(s.location);
    },
    async cleanup(s) {
      await s.close();
    },
  },
  {
    name: "postgres",
    async open() {
      return PostgresStore.open(inject("pgUrl"), { schema: `t_${process.pid}_${Date.now()}_${counter++}` });
    },
    async reopen(s) {
      await s.close();
      return PostgresStore.open(inject("pgUrl"), { schema: (s as PostgresStore).schema });
    },
    async second(s) {
      return PostgresStore.open(inject("pgUrl"), { schema: (s as PostgresStore).schema });
    },
    async cleanup(s) {
      await (s as PostgresStore).dropSchema();
      await s.close();
    },
  },
];

function state(id: string, app: string, title: string, ts: string): ScreenState {
  const s = example<ScreenState>("screenstate-complete-example.json");
  return { ...s, screen_state_id: id, timestamp: ts, window: { ...s.window, app_name: app, window_title: title } };
}
const vec = (dim: number, f: (i: number) => number) => Float32Array.from({ length: dim }, (_, i) => f(i));

describe.each(backends)("Store contract on $name", (backend) => {
  let store: Store;
  beforeAll(async () => {
    store = await backend.open();
  });
  afterAll(async () => {
    await backend.cleanup(store);
  });

  it("stores and reads back a screen state with its elements", async () => {
    const s = state("screen_a", "facturation", "Factures - Clinique Demo", "2025-11-21T10:15:32.123Z");
    await store.putScreenState(s);
    expect(await store.getScreenState("screen_a")).toEqual(s);
    expect(await store.elementsOfState("screen_a")).toEqual(s.ui_elements);
  });

  it("finds screen states by app, window title and time", async () => {
    await store.putScreenState(state("screen_b", "facturation", "Facture n° 2025-00123 - DUPONT Jean", "2025-11-21T11:00:00.000Z"));
    await store.putScreenState(state("screen_c", "mousepad", "notes.txt - Mousepad", "2025-11-22T09:00:00.000Z"));
    const ids = async (q: Parameters<Store["findScreenStates"]>[0]) => (await store.findScreenStates(q)).map((s) => s.screen_state_id);
    expect(await ids({ appName: "facturation" })).toEqual(["screen_a", "screen_b"]);
    expect(await ids({ windowTitle: "notes.txt - Mousepad" })).toEqual(["screen_c"]);
    expect(await ids({ titleContains: "dupont" })).toEqual(["screen_b"]);
    expect(await ids({ titleContains: "100%_" })).toEqual([]);
    expect(await ids({ since: "2025-11-21T10:30:00Z", until: "2025-11-21T23:59:59Z" })).toEqual(["screen_b"]);
    expect(await ids({ limit: 1 })).toEqual(["screen_a"]);
  });

  it("looks elements up by element_id; an unknown id is undefined, not an error", async () => {
    const el = example<UIElement>("uielement-example.json");
    await store.putElement(el, "screen_c");
    expect(await store.getElement(el.element_id)).toEqual(el);
    expect(await store.getElement("el_nope")).toBeUndefined();
    expect(await store.getScreenState("screen_nope")).toBeUndefined();
    // screen_c already listed the example's short-form element; the added one comes last.
    expect((await store.elementsOfState("screen_c")).map((e) => e.element_id)).toEqual(["el_btn_valider", el.element_id]);
    expect((await store.scanElements("", 10)).map((e) => e.element_id)).toEqual([el.element_id]);
  });

  it("refuses invalid documents with the validation problems", async () => {
    const bad = { ...example<UIElement>("uielement-example.json"), type: "slider" } as unknown as UIElement;
    await expect(store.putElement(bad)).rejects.toThrow(/\$\.type/);
  });

  it("stores vectors exactly, scans them in order, and stamps changes", async () => {
    const a = vec(8, (i) => i + 0.5);
    await store.putVectors([
      { vectorId: "data/embeddings/a.npy", provider: "p8", vector: a },
      { vectorId: "data/embeddings/b.npy", provider: "p8", vector: vec(8, (i) => -i) },
    ]);
    expect(Array.from((await store.getVector("data/embeddings/a.npy"))?.vector ?? [])).toEqual(Array.from(a));
    const before = await store.vectorStamp("p8");
    expect(before.count).toBe(2);
    await store.putVector("data/embeddings/a.npy", "p8", vec(8, () => 1));
    const after = await store.vectorStamp("p8");
    expect(after.count).toBe(2);
    expect(after.maxSeq).toBeGreaterThan(before.maxSeq);
    expect((await store.scanVectors("p8", 0, 10)).map((r) => r.vectorId)).toEqual(["data/embeddings/b.npy", "data/embeddings/a.npy"]);
    expect(await store.vectorProviders()).toContain("p8");
    await expect(store.putVector("x.npy", "p8", Float32Array.from([1, NaN]))).rejects.toThrow(/non-finite/);
  });

  it("exact and approximate search find the nearest stored vectors, and follow appends and replacements", async () => {
    const rows = Array.from({ length: 300 }, (_, k) => ({ vectorId: `v${k}`, provider: "p16", vector: vec(16, (i) => Math.sin(k * 0.37 + i * 1.3) + (i === k % 16 ? 2 : 0)) }));
    await store.putVectors(rows);
    for (const kind of ["exact", "approximate"] as const) {
      const search = new VectorSearch(store, { kind, indexDir: kind === "approximate" ? mkdtempSync(join(tmp, "idx-")) : undefined });
      const hits = await search.search("p16", rows[42]?.vector as Float32Array, 3);
      expect(hits[0]?.id).toBe("v42");
      expect(hits[0]?.score).toBeCloseTo(1, 2);
      const fresh = `v_new_${kind}`;
      await store.putVector(fresh, "p16", vec(16, (i) => (i === 3 ? 5 : 0.01)));
      expect(await search.refresh("p16")).toMatchObject({ rebuilt: false, added: 1 });
      expect((await search.search("p16", vec(16, (i) => (i === 3 ? 5 : 0.01)), 1))[0]?.id).toBe(fresh);
      // A coordinate of its own per kind, so the two loops' vectors never tie.
      const hot = kind === "exact" ? 7 : 9;
      await store.putVector(fresh, "p16", vec(16, (i) => (i === hot ? 5 : 0.01)));
      expect((await search.refresh("p16")).rebuilt).toBe(true);
      expect((await search.search("p16", vec(16, (i) => (i === hot ? 5 : 0.01)), 1))[0]?.id).toBe(fresh);
      await expect(search.search("p16", vec(5, () => 1), 1)).rejects.toThrow(/dimension 5/);
    }
  });

  it("versions workflows", async () => {
    expect(await store.putWorkflow({ workflow_id: "wf_facture", name: "Valider facture", steps: [] })).toBe(1);
    expect(await store.putWorkflow({ workflow_id: "wf_facture", name: "Valider facture", steps: [{ action: "click" }] })).toBe(2);
    expect((await store.getWorkflow("wf_facture"))?.version).toBe(2);
    expect((await store.getWorkflow("wf_facture", 1))?.document.steps).toEqual([]);
    expect(await store.getWorkflow("wf_none")).toBeUndefined();
    expect(await store.listWorkflows()).toEqual([expect.objectContaining({ workflowId: "wf_facture", name: "Valider facture", latestVersion: 2 })]);
  });

  it("records runs and their trace events in order", async () => {
    await store.putRun({ runId: "run_1", workflowId: "wf_facture", workflowVersion: 2, status: "running", startedAt: "2025-11-21T10:00:00Z" });
    expect(await store.appendRunEvent("run_1", { kind: "before", ts: "2025-11-21T10:00:01Z", payload: { step: 1 } })).toBe(1);
    expect(await store.appendRunEvent("run_1", { kind: "action", ts: "2025-11-21T10:00:02Z", payload: { step: 1 } })).toBe(2);
    await store.putRun({ runId: "run_1", workflowId: "wf_facture", workflowVersion: 2, status: "succeeded", startedAt: "2025-11-21T10:00:00Z", finishedAt: "2025-11-21T10:00:05Z" });
    expect(await store.getRun("run_1")).toMatchObject({ status: "succeeded", finishedAt: "2025-11-21T10:00:05Z" });
    expect((await store.runEvents("run_1")).map((e) => e.kind)).toEqual(["before", "action"]);
    expect((await store.runsOfWorkflow("wf_facture")).map((r) => r.runId)).toEqual(["run_1"]);
  });

  it("keeps a plan's item ledger: all pending at first, updates survive a reopen, done items per workflow", async () => {
    await store.createPlan({ planId: "plan_1", workflowId: "wf_facture", createdAt: "2026-01-20T10:00:00Z", status: "running", document: { n: 2 } }, [
      { itemKey: "/in/a.txt", ord: 0 },
      { itemKey: "/in/b.txt", ord: 1 },
    ]);
    expect((await store.planItems("plan_1")).map((i) => [i.itemKey, i.status, i.attempts])).toEqual([["/in/a.txt", "pending", 0], ["/in/b.txt", "pending", 0]]);
    await store.updatePlanItem("plan_1", "/in/a.txt", { status: "running", attempts: 1, startedAt: "2026-01-20T10:00:01Z" });
    await store.updatePlanItem("plan_1", "/in/a.txt", { status: "done", runId: "run_9", finishedAt: "2026-01-20T10:00:09Z" });
    await store.updatePlanItem("plan_1", "/in/b.txt", { status: "failed", exceptionClass: "business", errorCode: "postcheck_failed", reason: "rejected « b »", attempts: 1 });
    store = await backend.reopen(store);
    expect(await store.planItems("plan_1")).toEqual([
      { planId: "plan_1", itemKey: "/in/a.txt", ord: 0, status: "done", exceptionClass: null, attempts: 1, runId: "run_9", errorCode: null, reason: null, startedAt: "2026-01-20T10:00:01Z", finishedAt: "2026-01-20T10:00:09Z" },
      { planId: "plan_1", itemKey: "/in/b.txt", ord: 1, status: "failed", exceptionClass: "business", attempts: 1, runId: null, errorCode: "postcheck_failed", reason: "rejected « b »", startedAt: null, finishedAt: null },
    ]);
    expect(await store.getPlan("plan_1")).toMatchObject({ workflowId: "wf_facture", status: "running", document: { n: 2 } });
    await store.setPlanStatus("plan_1", "finished");
    expect((await store.getPlan("plan_1"))?.status).toBe("finished");
    expect(await store.getPlan("plan_none")).toBeUndefined();
    await store.createPlan({ planId: "plan_0", workflowId: "wf_other", createdAt: "2026-01-19T10:00:00Z", status: "running", document: {} }, [{ itemKey: "k", ord: 0 }]);
    const listed = await store.listPlans();
    expect(listed.map((p) => [p.planId, p.items, p.counts, p.firstStartedAt, p.lastFinishedAt])).toEqual([
      ["plan_1", 2, { done: 1, failed: 1 }, "2026-01-20T10:00:01Z", "2026-01-20T10:00:09Z"],
      ["plan_0", 1, { pending: 1 }, null, null],
    ]);
    expect(listed[0]).toMatchObject({ workflowId: "wf_facture", status: "finished", document: { n: 2 } });
    expect((await store.listPlans(1)).map((p) => p.planId)).toEqual(["plan_1"]);
    expect([...(await store.doneItems("wf_facture"))]).toEqual([["/in/a.txt", "plan_1"]]);
    expect((await store.doneItems("wf_other")).size).toBe(0);
    // A plan is written whole or not at all (a duplicate item key rolls it back).
    await expect(store.createPlan({ planId: "plan_2", workflowId: "wf_facture", createdAt: "2026-01-21T10:00:00Z", status: "running", document: {} }, [{ itemKey: "x", ord: 0 }, { itemKey: "x", ord: 1 }])).rejects.toThrow();
    expect(await store.getPlan("plan_2")).toBeUndefined();
  });

  it("locks a plan for one holder at a time across connections; a stale holder is taken over; only the holder's token unlocks", async () => {
    await store.createPlan({ planId: "plan_lock", workflowId: "wf_lock", createdAt: "2026-01-22T10:00:00Z", status: "running", document: {} }, [{ itemKey: "k", ord: 0 }]);
    const holder = (token: string, pid: number) => ({ token, pid, host: "h1", since: "2026-01-22T10:00:01Z" });
    const never = () => false;
    expect(await store.lockPlan("plan_lock", holder("t1", 101), never)).toEqual({ ok: true, tookOver: null });
    const other = await backend.second(store);
    try {
      // Ten takers at once on another connection: none gets it while the holder lives.
      const tries = await Promise.all(Array.from({ length: 10 }, (_, i) => other.lockPlan("plan_lock", holder(`t${i + 2}`, 200 + i), never)));
      expect(tries.every((t) => !t.ok && t.holder.pid === 101 && t.holder.token === "t1")).toBe(true);
      expect(await other.lockedPlans("wf_lock")).toEqual([{ planId: "plan_lock", holder: holder("t1", 101) }]);
      // A wrong token does not unlock.
      await other.unlockPlan("plan_lock", "t9");
      expect((await store.lockPlan("plan_lock", holder("t3", 300), never)).ok).toBe(false);
      // The holder is gone: of ten takers at once, exactly one takes it over.
      const over = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? other : store).lockPlan("plan_lock", holder(`n${i}`, 400 + i), (h) => h.pid === 101)));
      const won = over.filter((o) => o.ok);
      expect(won).toHaveLength(1);
      expect(won[0]).toEqual({ ok: true, tookOver: holder("t1", 101) });
      const winner = (await store.lockedPlans("wf_lock"))[0]!.holder;
      expect(over.filter((o) => !o.ok).every((o) => !o.ok && o.holder.token === winner.token)).toBe(true);
      await other.unlockPlan("plan_lock", winner.token);
      expect(await store.lockedPlans("wf_lock")).toEqual([]);
      expect(await store.lockPlan("plan_lock", holder("t5", 500), never)).toEqual({ ok: true, tookOver: null });
      await expect(store.lockPlan("plan_nope", holder("t6", 600), never)).rejects.toThrow(StoreError);
    } finally {
      await other.close();
    }
  });

  it("rolls a failed transaction back completely", async () => {
    await expect(
      store.transaction(async () => {
        await store.putVector("tx/a.npy", "ptx", vec(4, () => 1));
        await store.putWorkflow({ workflow_id: "wf_tx", name: "tx" });
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(await store.getVector("tx/a.npy")).toBeUndefined();
    expect(await store.getWorkflow("wf_tx")).toBeUndefined();
  });

  it("refuses to open a database whose schema is newer than the code, naming both versions", async () => {
    await store.transaction(async () => {
      await (store as unknown as { exec(sql: string, p: unknown[]): Promise<unknown> }).exec("UPDATE meta SET value = ? WHERE key = 'schema_version'", ["99"]);
    });
    const err = await backend.reopen(store).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SchemaVersionError);
    expect((err as Error).message).toContain(`schema version 99, newer than this rpav reads (${STORE_SCHEMA_VERSION})`);
    // Put it back so cleanup can open and drop it.
    store = await reopenAfterDowngrade(backend, store);
  });
});

async function reopenAfterDowngrade(backend: Backend, s: Store): Promise<Store> {
  if (backend.name === "sqlite") {
    const Database = (await import("better-sqlite3")).default;
    const db = new Database(s.location);
    db.prepare("UPDATE meta SET value = ? WHERE key = 'schema_version'").run(String(STORE_SCHEMA_VERSION));
    db.close();
    return new SqliteStore(s.location);
  }
  const pg = (await import("pg")).default;
  const c = new pg.Client({ connectionString: inject("pgUrl") });
  await c.connect();
  await c.query(`UPDATE ${(s as PostgresStore).schema}.meta SET value = $1 WHERE key = 'schema_version'`, [String(STORE_SCHEMA_VERSION)]);
  await c.end();
  return PostgresStore.open(inject("pgUrl"), { schema: (s as PostgresStore).schema });
}

describe("PostgreSQL unreachable", () => {
  it("is a StoreError saying how to start it", async () => {
    await expect(PostgresStore.open("postgres://rpav@127.0.0.1:1/postgres")).rejects.toThrow(StoreError);
    await expect(PostgresStore.open("postgres://rpav:secret@127.0.0.1:1/postgres")).rejects.toThrow(/Cannot reach PostgreSQL at postgres:\/\/rpav:\*\*\*@127\.0\.0\.1:1\/postgres.*rpav db up/);
  });
});
