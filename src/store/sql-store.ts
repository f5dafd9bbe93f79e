// The Store over SQL, shared by the SQLite and PostgreSQL backends. Subclasses provide the
// connection (`exec`), transactions and dialect details; SQL here uses `?` placeholders.
import { StoreError } from "../core/errors.js";
import type { LedgerItem, LedgerUpdate, PlanLockHolder, PlanLockOutcome, PlanRecord, PlanSummary, RunEvent, RunRecord, ScreenStateQuery, Store, StoredVector, VectorStamp, WorkflowDocument, WorkflowVersion } from "../core/providers/store.js";
import { readDocument } from "../core/schemas/documents.js";
import type { ScreenState } from "../core/schemas/screenstate.js";
import type { UIElement, UIElementEntry } from "../core/schemas/uielement.js";
import { assertFinite, type Vector } from "../core/vectors.js";

/** Version of the database schema this code writes; `migrations` lists how to get there. */
export const STORE_SCHEMA_VERSION = 4;

export type Row = Record<string, unknown>;

export function vectorToBytes(v: Vector): Buffer {
  const le = Buffer.alloc(v.length * 4);
  for (let i = 0; i < v.length; i++) le.writeFloatLE(v[i] as number, i * 4);
  return le;
}

export function bytesToVector(b: Uint8Array): Vector {
  const out = new Float32Array(b.length / 4);
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  for (let i = 0; i < out.length; i++) out[i] = dv.getFloat32(i * 4, true);
  return out;
}

function parseDoc<T>(text: unknown, what: string): T {
  try {
    return (typeof text === "string" ? JSON.parse(text) : text) as T;
  } catch (e) {
    throw new StoreError(`Stored ${what} is not valid JSON (database damaged?).`, { cause: e });
  }
}

export abstract class SqlStore implements Store {
  abstract readonly backend: "sqlite" | "postgres";
  abstract readonly location: string;
  /** Runs one statement; returns rows for queries. */
  protected abstract exec(sql: string, params?: readonly unknown[]): Promise<Row[]>;
  abstract transaction<T>(fn: () => Promise<T>): Promise<T>;
  abstract close(): Promise<void>;

  async putScreenState(state: ScreenState): Promise<void> {
    const doc = readDocument(state, `screen state ${state.screen_state_id}`);
    if (doc.version !== "screenstate_v1") throw new StoreError(`Not a screen state: ${doc.version}.`);
    const s = doc.value;
    await this.transaction(async () => {
      await this.exec(
        `INSERT INTO screen_states (screen_state_id, session_id, ts, app_name, window_title, mode, doc) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (screen_state_id) DO UPDATE SET session_id = excluded.session_id, ts = excluded.ts, app_name = excluded.app_name,
         window_title = excluded.window_title, mode = excluded.mode, doc = excluded.doc`,
        [s.screen_state_id, s.session_id, s.timestamp, s.window.app_name, s.window.window_title, s.mode, JSON.stringify(s)],
      );
      await this.exec(`DELETE FROM state_elements WHERE screen_state_id = ?`, [s.screen_state_id]);
      for (const [i, el] of s.ui_elements.entries()) {
        await this.exec(`INSERT INTO state_elements (screen_state_id, element_id, ord, doc) VALUES (?, ?, ?, ?)`, [s.screen_state_id, el.element_id, i, JSON.stringify(el)]);
        // Complete element descriptors are also kept by id for direct lookup.
        if (el.visual && el.text && el.properties && el.context && el.tags && el.detection_method) await this.upsertElement(el as UIElement);
      }
    });
  }

  async getScreenState(id: string): Promise<ScreenState | undefined> {
    const rows = await this.exec(`SELECT doc FROM screen_states WHERE screen_state_id = ?`, [id]);
    return rows[0] ? parseDoc<ScreenState>(rows[0].doc, `screen state ${id}`) : undefined;
  }

  async findScreenStates(q: ScreenStateQuery): Promise<ScreenState[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    const add = (clause: string, v: unknown) => {
      where.push(clause);
      params.push(v);
    };
    if (q.appName !== undefined) add("app_name = ?", q.appName);
    if (q.windowTitle !== undefined) add("window_title = ?", q.windowTitle);
    if (q.titleContains !== undefined) add("lower(window_title) LIKE ? ESCAPE '\\'", `%${q.titleContains.toLowerCase().replace(/[%_\\]/g, (c) => `\\${c}`)}%`);
    if (q.sessionId !== undefined) add("session_id = ?", q.sessionId);
    if (q.since !== undefined) add("ts >= ?", q.since);
    if (q.until !== undefined) add("ts <= ?", q.until);
    const sql = `SELECT doc FROM screen_states ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY ts, screen_state_id LIMIT ${Math.max(0, Math.floor(q.limit ?? 1000))}`;
    const rows = await this.exec(sql, params);
    return rows.map((r) => parseDoc<ScreenState>(r.doc, "screen state"));
  }

  private async upsertElement(el: UIElement): Promise<void> {
    await this.exec(
      `INSERT INTO ui_elements (element_id, type, role, label, app_name, window_title, doc) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (element_id) DO UPDATE SET type = excluded.type, role = excluded.role, label = excluded.label,
       app_name = excluded.app_name, window_title = excluded.window_title, doc = excluded.doc`,
      [el.element_id, el.type, el.role, el.label, el.context.app_name, el.context.window_title, JSON.stringify(el)],
    );
  }

  async putElement(element: UIElement, screenStateId?: string): Promise<void> {
    const doc = readDocument(element, `element ${element.element_id}`);
    if (doc.version !== "uielement_v1") throw new StoreError(`Not a UI element: ${doc.version}.`);
    await this.transaction(async () => {
      await this.upsertElement(doc.value);
      if (screenStateId !== undefined) {
        const rows = await this.exec(`SELECT COALESCE(MAX(ord), -1) AS m FROM state_elements WHERE screen_state_id = ?`, [screenStateId]);
        await this.exec(`INSERT INTO state_elements (screen_state_id, element_id, ord, doc) VALUES (?, ?, ?, ?)`, [screenStateId, element.element_id, Number(rows[0]?.m ?? -1) + 1, JSON.stringify(doc.value)]);
      }
    });
  }

  async getElement(elementId: string): Promise<UIElement | undefined> {
    const rows = await this.exec(`SELECT doc FROM ui_elements WHERE element_id = ?`, [elementId]);
    return rows[0] ? parseDoc<UIElement>(rows[0].doc, `element ${elementId}`) : undefined;
  }

  async elementsOfState(screenStateId: string): Promise<UIElementEntry[]> {
    const rows = await this.exec(`SELECT doc FROM state_elements WHERE screen_state_id = ? ORDER BY ord`, [screenStateId]);
    return rows.map((r) => parseDoc<UIElementEntry>(r.doc, "element"));
  }

  async scanElements(afterId: string, limit: number): Promise<UIElement[]> {
    const rows = await this.exec(`SELECT doc FROM ui_elements WHERE element_id > ? ORDER BY element_id LIMIT ${Math.floor(limit)}`, [afterId]);
    return rows.map((r) => parseDoc<UIElement>(r.doc, "element"));
  }

  async putVector(vectorId: string, provider: string, vector: Vector): Promise<void> {
    await this.putVectors([{ vectorId, provider, vector }]);
  }

  async putVectors(rows: ReadonlyArray<{ vectorId: string; provider: string; vector: Vector }>): Promise<void> {
    for (const r of rows) assertFinite(r.vector, `vector ${r.vectorId}`);
    await this.transaction(async () => {
      for (const r of rows) {
        // Replace = delete + insert, so the row gets a new sequence number and indexes see the change.
        await this.exec(`DELETE FROM vectors WHERE vector_id = ?`, [r.vectorId]);
        await this.exec(`INSERT INTO vectors (vector_id, provider, dim, data) VALUES (?, ?, ?, ?)`, [r.vectorId, r.provider, r.vector.length, vectorToBytes(r.vector)]);
      }
      for (const provider of new Set(rows.map((r) => r.provider)))
        await this.exec(`INSERT INTO vector_generations (provider, generation) VALUES (?, 1) ON CONFLICT (provider) DO UPDATE SET generation = vector_generations.generation + 1`, [provider]);
    });
  }

  async getVector(vectorId: string): Promise<StoredVector | undefined> {
    const rows = await this.exec(`SELECT vector_id, provider, data FROM vectors WHERE vector_id = ?`, [vectorId]);
    const r = rows[0];
    return r ? { vectorId: String(r.vector_id), provider: String(r.provider), vector: bytesToVector(r.data as Uint8Array) } : undefined;
  }

  async scanVectors(provider: string, afterSeq: number, limit: number): Promise<Array<StoredVector & { seq: number }>> {
    const rows = await this.exec(`SELECT seq, vector_id, provider, data FROM vectors WHERE provider = ? AND seq > ? ORDER BY seq LIMIT ${Math.floor(limit)}`, [provider, afterSeq]);
    return rows.map((r) => ({ seq: Number(r.seq), vectorId: String(r.vector_id), provider: String(r.provider), vector: bytesToVector(r.data as Uint8Array) }));
  }

  async vectorStamp(provider: string): Promise<VectorStamp> {
    const rows = await this.exec(`SELECT COUNT(*) AS n, COALESCE(MAX(seq), 0) AS m FROM vectors WHERE provider = ?`, [provider]);
    return { count: Number(rows[0]?.n ?? 0), maxSeq: Number(rows[0]?.m ?? 0) };
  }

  async vectorGeneration(provider: string): Promise<number> {
    const rows = await this.exec(`SELECT generation FROM vector_generations WHERE provider = ?`, [provider]);
    return Number(rows[0]?.generation ?? 0);
  }

  async vectorProviders(): Promise<string[]> {
    return (await this.exec(`SELECT DISTINCT provider FROM vectors ORDER BY provider`)).map((r) => String(r.provider));
  }

  async putWorkflow(doc: WorkflowDocument): Promise<number> {
    if (!doc.workflow_id || !doc.name) throw new StoreError("A workflow needs a workflow_id and a name.");
    return this.transaction(async () => {
      const rows = await this.exec(`SELECT COALESCE(MAX(version), 0) AS v FROM workflows WHERE workflow_id = ?`, [doc.workflow_id]);
      const version = Number(rows[0]?.v ?? 0) + 1;
      await this.exec(`INSERT INTO workflows (workflow_id, version, name, created_at, doc) VALUES (?, ?, ?, ?, ?)`, [doc.workflow_id, version, doc.name, new Date().toISOString(), JSON.stringify(doc)]);
      return version;
    });
  }

  async getWorkflow(workflowId: string, version?: number): Promise<WorkflowVersion | undefined> {
    const rows =
      version === undefined
        ? await this.exec(`SELECT workflow_id, version, created_at, doc FROM workflows WHERE workflow_id = ? ORDER BY version DESC LIMIT 1`, [workflowId])
        : await this.exec(`SELECT workflow_id, version, created_at, doc FROM workflows WHERE workflow_id = ? AND version = ?`, [workflowId, version]);
    const r = rows[0];
    return r ? { workflowId: String(r.workflow_id), version: Number(r.version), createdAt: String(r.created_at), document: parseDoc<WorkflowDocument>(r.doc, `workflow ${workflowId}`) } : undefined;
  }

  async listWorkflows(): Promise<Array<{ workflowId: string; name: string; latestVersion: number; updatedAt: string }>> {
    const rows = await this.exec(
      `SELECT w.workflow_id, w.name, w.version, w.created_at FROM workflows w
       JOIN (SELECT workflow_id, MAX(version) AS v FROM workflows GROUP BY workflow_id) l ON l.workflow_id = w.workflow_id AND l.v = w.version
       ORDER BY w.workflow_id`,
    );
    return rows.map((r) => ({ workflowId: String(r.workflow_id), name: String(r.name), latestVersion: Number(r.version), updatedAt: String(r.created_at) }));
  }

  async putRun(run: RunRecord): Promise<void> {
    await this.exec(
      `INSERT INTO runs (run_id, workflow_id, workflow_version, status, started_at, finished_at, doc) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (run_id) DO UPDATE SET status = excluded.status, finished_at = excluded.finished_at, doc = excluded.doc`,
      [run.runId, run.workflowId, run.workflowVersion, run.status, run.startedAt, run.finishedAt ?? null, JSON.stringify(run.document ?? {})],
    );
  }

  private toRun(r: Row): RunRecord {
    return {
      runId: String(r.run_id),
      workflowId: String(r.workflow_id),
      workflowVersion: Number(r.workflow_version),
      status: r.status as RunRecord["status"],
      startedAt: String(r.started_at),
      finishedAt: r.finished_at === null || r.finished_at === undefined ? null : String(r.finished_at),
      document: parseDoc<Record<string, unknown>>(r.doc, "run"),
    };
  }

  async getRun(runId: string): Promise<RunRecord | undefined> {
    const rows = await this.exec(`SELECT * FROM runs WHERE run_id = ?`, [runId]);
    return rows[0] ? this.toRun(rows[0]) : undefined;
  }

  async runsOfWorkflow(workflowId: string): Promise<RunRecord[]> {
    return (await this.exec(`SELECT * FROM runs WHERE workflow_id = ? ORDER BY started_at`, [workflowId])).map((r) => this.toRun(r));
  }

  async appendRunEvent(runId: string, event: Omit<RunEvent, "seq">): Promise<number> {
    return this.transaction(async () => {
      const rows = await this.exec(`SELECT COALESCE(MAX(seq), 0) AS s FROM run_events WHERE run_id = ?`, [runId]);
      const seq = Number(rows[0]?.s ?? 0) + 1;
      await this.exec(`INSERT INTO run_events (run_id, seq, kind, ts, payload) VALUES (?, ?, ?, ?, ?)`, [runId, seq, event.kind, event.ts, JSON.stringify(event.payload)]);
      return seq;
    });
  }

  async runEvents(runId: string): Promise<RunEvent[]> {
    const rows = await this.exec(`SELECT seq, kind, ts, payload FROM run_events WHERE run_id = ? ORDER BY seq`, [runId]);
    return rows.map((r) => ({ seq: Number(r.seq), kind: String(r.kind), ts: String(r.ts), payload: parseDoc<Record<string, unknown>>(r.payload, "run event") }));
  }

  async createPlan(plan: PlanRecord, items: ReadonlyArray<{ itemKey: string; ord: number }>): Promise<void> {
    await this.transaction(async () => {
      await this.exec(`INSERT INTO plans (plan_id, workflow_id, created_at, status, doc) VALUES (?, ?, ?, ?, ?)`, [plan.planId, plan.workflowId, plan.createdAt, plan.status, JSON.stringify(plan.document)]);
      for (const it of items) await this.exec(`INSERT INTO plan_items (plan_id, item_key, ord, status, attempts) VALUES (?, ?, ?, 'pending', 0)`, [plan.planId, it.itemKey, it.ord]);
    });
  }

  async getPlan(planId: string): Promise<PlanRecord | undefined> {
    const r = (await this.exec(`SELECT * FROM plans WHERE plan_id = ?`, [planId]))[0];
    return r ? { planId: String(r.plan_id), workflowId: String(r.workflow_id), createdAt: String(r.created_at), status: r.status as PlanRecord["status"], document: parseDoc<Record<string, unknown>>(r.doc, `plan ${planId}`) } : undefined;
  }

  async listPlans(limit = 200): Promise<PlanSummary[]> {
    const plans = await this.exec(`SELECT * FROM plans ORDER BY created_at DESC, plan_id DESC LIMIT ${Math.max(0, Math.floor(limit))}`);
    if (plans.length === 0) return [];
    const ids = plans.map((r) => String(r.plan_id));
    const counts = await this.exec(`SELECT plan_id, status, COUNT(*) AS n, MIN(started_at) AS first_started, MAX(finished_at) AS last_finished FROM plan_items WHERE plan_id IN (${ids.map(() => "?").join(", ")}) GROUP BY plan_id, status`, ids);
    return plans.map((r) => {
      const planId = String(r.plan_id);
      const mine = counts.filter((c) => String(c.plan_id) === planId);
      const times = (k: string) => mine.map((c) => c[k]).filter((v): v is string => typeof v === "string" && v !== "").sort();
      return {
        planId,
        workflowId: String(r.workflow_id),
        createdAt: String(r.created_at),
        status: r.status as PlanRecord["status"],
        document: parseDoc<Record<string, unknown>>(r.doc, `plan ${planId}`),
        items: mine.reduce((n, c) => n + Number(c.n), 0),
        counts: Object.fromEntries(mine.map((c) => [String(c.status), Number(c.n)])) as PlanSummary["counts"],
        firstStartedAt: times("first_started")[0] ?? null,
        lastFinishedAt: times("last_finished").at(-1) ?? null,
      };
    });
  }

  async setPlanStatus(planId: string, status: PlanRecord["status"]): Promise<void> {
    await this.exec(`UPDATE plans SET status = ? WHERE plan_id = ?`, [status, planId]);
  }

  async planItems(planId: string): Promise<LedgerItem[]> {
    const str = (v: unknown) => (v === null || v === undefined ? null : String(v));
    return (await this.exec(`SELECT * FROM plan_items WHERE plan_id = ? ORDER BY ord`, [planId])).map((r) => ({
      planId: String(r.plan_id),
      itemKey: String(r.item_key),
      ord: Number(r.ord),
      status: r.status as LedgerItem["status"],
      exceptionClass: str(r.exception_class) as LedgerItem["exceptionClass"],
      attempts: Number(r.attempts),
      runId: str(r.run_id),
      errorCode: str(r.error_code),
      reason: str(r.reason),
      startedAt: str(r.started_at),
      finishedAt: str(r.finished_at),
    }));
  }

  async updatePlanItem(planId: string, itemKey: string, update: LedgerUpdate): Promise<void> {
    const keys = (Object.keys(update) as (keyof LedgerUpdate)[]).filter((k) => update[k] !== undefined);
    if (keys.length === 0) return;
    await this.exec(`UPDATE plan_items SET ${keys.map((k) => `${LEDGER_COLUMNS[k]} = ?`).join(", ")} WHERE plan_id = ? AND item_key = ?`, [...keys.map((k) => update[k] ?? null), planId, itemKey]);
  }

  async doneItems(workflowId: string): Promise<Map<string, string>> {
    const rows = await this.exec(`SELECT i.item_key, i.plan_id FROM plan_items i JOIN plans p ON p.plan_id = i.plan_id WHERE p.workflow_id = ? AND i.status = 'done' ORDER BY i.finished_at`, [workflowId]);
    return new Map(rows.map((r) => [String(r.item_key), String(r.plan_id)]));
  }

  async lockPlan(planId: string, holder: PlanLockHolder, isStale: (h: PlanLockHolder) => boolean): Promise<PlanLockOutcome> {
    const take = async (previous: string | null) =>
      (await this.exec(`UPDATE plans SET lock_token = ?, lock_holder = ? WHERE plan_id = ? AND ${previous === null ? "lock_token IS NULL" : "lock_token = ?"} RETURNING plan_id`, [holder.token, JSON.stringify(holder), planId, ...(previous === null ? [] : [previous])])).length === 1;
    // Compare-and-set on the token: of two processes taking the same lock, one update wins.
    for (let tries = 0; tries < 3; tries++) {
      if (await take(null)) return { ok: true, tookOver: null };
      const row = (await this.exec(`SELECT lock_token, lock_holder FROM plans WHERE plan_id = ?`, [planId]))[0];
      if (!row) throw new StoreError(`No plan ${planId} in ${this.location} to lock.`, { details: { plan: planId } });
      if (row.lock_token === null || row.lock_token === undefined) continue; // released meanwhile
      const current = parseDoc<PlanLockHolder>(row.lock_holder, `lock of plan ${planId}`);
      if (!isStale(current)) return { ok: false, holder: current };
      if (await take(String(row.lock_token))) return { ok: true, tookOver: current };
    }
    const row = (await this.exec(`SELECT lock_holder FROM plans WHERE plan_id = ?`, [planId]))[0];
    return { ok: false, holder: parseDoc<PlanLockHolder>(row?.lock_holder, `lock of plan ${planId}`) };
  }

  async unlockPlan(planId: string, token: string): Promise<void> {
    await this.exec(`UPDATE plans SET lock_token = NULL, lock_holder = NULL WHERE plan_id = ? AND lock_token = ?`, [planId, token]);
  }

  async lockedPlans(workflowId: string): Promise<Array<{ planId: string; holder: PlanLockHolder }>> {
    const rows = await this.exec(`SELECT plan_id, lock_holder FROM plans WHERE workflow_id = ? AND lock_token IS NOT NULL ORDER BY created_at`, [workflowId]);
    return rows.map((r) => ({ planId: String(r.plan_id), holder: parseDoc<PlanLockHolder>(r.lock_holder, `lock of plan ${String(r.plan_id)}`) }));
  }
}

const LEDGER_COLUMNS: Record<keyof LedgerUpdate, string> = {
  status: "status",
  exceptionClass: "exception_class",
  attempts: "attempts",
  runId: "run_id",
  errorCode: "error_code",
  reason: "reason",
  startedAt: "started_at",
  finishedAt: "finished_at",
};

/** The schema, per dialect. Each migration brings the database from version i to i + 1. */
export function schemaStatements(dialect: "sqlite" | "postgres"): string[][] {
  const seq = dialect === "sqlite" ? "seq INTEGER PRIMARY KEY AUTOINCREMENT" : "seq BIGSERIAL PRIMARY KEY";
  const blob = dialect === "sqlite" ? "BLOB" : "BYTEA";
  const json = dialect === "sqlite" ? "TEXT" : "TEXT";
  return [
    [
      `CREATE TABLE screen_states (screen_state_id TEXT PRIMARY KEY, session_id TEXT NOT NULL, ts TEXT NOT NULL, app_name TEXT NOT NULL, window_title TEXT NOT NULL, mode TEXT NOT NULL, doc ${json} NOT NULL)`,
      `CREATE INDEX screen_states_window ON screen_states (app_name, window_title)`,
      `CREATE INDEX screen_states_ts ON screen_states (ts)`,
      `CREATE TABLE ui_elements (element_id TEXT PRIMARY KEY, type TEXT NOT NULL, role TEXT NOT NULL, label TEXT NOT NULL, app_name TEXT, window_title TEXT, doc ${json} NOT NULL)`,
      `CREATE TABLE state_elements (screen_state_id TEXT NOT NULL REFERENCES screen_states (screen_state_id) ON DELETE CASCADE, element_id TEXT NOT NULL, ord INTEGER NOT NULL, doc ${json} NOT NULL, PRIMARY KEY (screen_state_id, ord))`,
      `CREATE INDEX state_elements_element ON state_elements (element_id)`,
      `CREATE TABLE vectors (${seq}, vector_id TEXT NOT NULL UNIQUE, provider TEXT NOT NULL, dim INTEGER NOT NULL, data ${blob} NOT NULL)`,
      `CREATE INDEX vectors_provider ON vectors (provider, seq)`,
      `CREATE TABLE workflows (workflow_id TEXT NOT NULL, version INTEGER NOT NULL, name TEXT NOT NULL, created_at TEXT NOT NULL, doc ${json} NOT NULL, PRIMARY KEY (workflow_id, version))`,
      `CREATE TABLE runs (run_id TEXT PRIMARY KEY, workflow_id TEXT NOT NULL, workflow_version INTEGER NOT NULL, status TEXT NOT NULL, started_at TEXT NOT NULL, finished_at TEXT, doc ${json})`,
      `CREATE INDEX runs_workflow ON runs (workflow_id)`,
      `CREATE TABLE run_events (run_id TEXT NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE, seq INTEGER NOT NULL, kind TEXT NOT NULL, ts TEXT NOT NULL, payload ${json} NOT NULL, PRIMARY KEY (run_id, seq))`,
    ],
    // v2: a per-provider counter bumped by every vector write, so searches check freshness with
    // one key lookup instead of COUNT(*) over the provider's rows.
    [
      `CREATE TABLE vector_generations (provider TEXT PRIMARY KEY, generation BIGINT NOT NULL)`,
      `INSERT INTO vector_generations (provider, generation) SELECT DISTINCT provider, 1 FROM vectors`,
    ],
    // v3: the planner's plans and their item ledger (status, exception class, attempts, run).
    [
      `CREATE TABLE plans (plan_id TEXT PRIMARY KEY, workflow_id TEXT NOT NULL, created_at TEXT NOT NULL, status TEXT NOT NULL, doc ${json} NOT NULL)`,
      `CREATE INDEX plans_workflow ON plans (workflow_id)`,
      `CREATE TABLE plan_items (plan_id TEXT NOT NULL REFERENCES plans (plan_id) ON DELETE CASCADE, item_key TEXT NOT NULL, ord INTEGER NOT NULL, status TEXT NOT NULL, exception_class TEXT, attempts INTEGER NOT NULL, run_id TEXT, error_code TEXT, reason TEXT, started_at TEXT, finished_at TEXT, PRIMARY KEY (plan_id, item_key))`,
      `CREATE INDEX plan_items_status ON plan_items (status, item_key)`,
    ],
    // v4: a plan's lock (one process runs or resumes a plan at a time; a dead holder's lock is taken over).
    [`ALTER TABLE plans ADD COLUMN lock_token TEXT`, `ALTER TABLE plans ADD COLUMN lock_holder ${json}`],
  ];
}
