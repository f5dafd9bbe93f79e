import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { schemaStatements, STORE_SCHEMA_VERSION, vectorToBytes } from "../../src/store/sql-store.js";
import { SqliteStore } from "../../src/store/sqlite-store.js";

const tmp = mkdtempSync(join(tmpdir(), "rpav-migrate-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("store migrations", () => {
  it("upgrades a version-1 database in place, keeping its data", async () => {
    const file = join(tmp, "rpav.db");
    const db = new Database(file);
    db.exec("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
    for (const sql of schemaStatements("sqlite")[0] ?? []) db.exec(sql);
    db.prepare("INSERT INTO meta VALUES ('schema_version', '1')").run();
    db.prepare("INSERT INTO vectors (vector_id, provider, dim, data) VALUES (?, ?, ?, ?)").run("old.npy", "legacy", 2, vectorToBytes(Float32Array.from([1, 2])));
    db.close();
    const store = SqliteStore.open(tmp);
    expect(Array.from((await store.getVector("old.npy"))?.vector ?? [])).toEqual([1, 2]);
    expect(await store.vectorGeneration("legacy")).toBe(1);
    await store.putVector("new.npy", "legacy", Float32Array.from([3, 4]));
    // v3: the planner's ledger tables exist after the upgrade.
    await store.createPlan({ planId: "p", workflowId: "wf", createdAt: "2026-01-01T00:00:00Z", status: "running", document: {} }, [{ itemKey: "k", ord: 0 }]);
    expect((await store.planItems("p")).map((i) => i.status)).toEqual(["pending"]);
    expect(await store.vectorGeneration("legacy")).toBe(2);
    await store.close();
    const check = new Database(file);
    expect(check.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get()).toEqual({ value: String(STORE_SCHEMA_VERSION) });
    check.close();
  });
});
