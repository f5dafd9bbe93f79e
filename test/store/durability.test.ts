import { spawn, spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { StoreError } from "../../src/core/errors.js";
import { SqliteStore } from "../../src/store/sqlite-store.js";
import { ROOT } from "../support/cli.js";

const tmp = mkdtempSync(join(tmpdir(), "rpav-durable-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const TSX = join(ROOT, "node_modules", "tsx", "dist", "cli.mjs");
const WRITER = join(ROOT, "test", "store", "writer.ts");

function writer(dir: string, prefix: string, batches: number, size: number) {
  return spawn(process.execPath, [TSX, WRITER, dir, prefix, String(batches), String(size)], { stdio: ["ignore", "pipe", "pipe"] });
}

async function checkRows(dir: string, prefix: string): Promise<number> {
  const store = SqliteStore.open(dir);
  try {
    const rows = await store.scanVectors(prefix, 0, 1_000_000);
    for (const r of rows) {
      const k = Number(/\/(\d+)\.npy$/.exec(r.vectorId)?.[1]);
      expect(r.vector.length).toBe(512);
      expect(r.vector[0]).toBe(Math.fround(k));
      expect(r.vector[511]).toBe(Math.fround(k + 0.511));
    }
    return rows.length;
  } finally {
    await store.close();
  }
}

describe("SQLite durability", () => {
  it("a writer killed with SIGKILL mid-batch leaves every committed row intact and no partial batch", async () => {
    const dir = join(tmp, "killed");
    const child = writer(dir, "k", 1000, 50);
    let committed = 0;
    await new Promise<void>((resolve) => {
      child.stdout.on("data", (d: Buffer) => {
        const m = [...d.toString().matchAll(/committed (\d+)/g)].pop();
        if (m) committed = Number(m[1]);
        if (committed >= 500 && !child.killed) {
          child.kill("SIGKILL");
        }
      });
      child.on("exit", () => resolve());
    });
    expect(committed).toBeGreaterThanOrEqual(500);
    const n = await checkRows(dir, "k");
    expect(n % 50).toBe(0); // whole batches only
    expect(n).toBeGreaterThanOrEqual(committed);
  });

  it("two processes writing at once lose nothing and corrupt nothing", async () => {
    const dir = join(tmp, "two");
    SqliteStore.open(dir).close();
    const a = writer(dir, "a", 20, 25);
    const b = writer(dir, "b", 20, 25);
    const codes = await Promise.all([a, b].map((c) => new Promise<number | null>((r) => c.on("exit", (code) => r(code)))));
    expect(codes).toEqual([0, 0]);
    expect(await checkRows(dir, "a")).toBe(500);
    expect(await checkRows(dir, "b")).toBe(500);
    const store = SqliteStore.open(dir);
    const integrity = (store as unknown as { db: { pragma(s: string): Array<{ integrity_check: string }> } }).db.pragma("integrity_check");
    await store.close();
    expect(integrity).toEqual([{ integrity_check: "ok" }]);
  });

  it("a corrupt database file is a StoreError and is not overwritten", () => {
    const dir = join(tmp, "corrupt");
    mkdirSync(dir, { recursive: true });
    const file = join(dir, "rpav.db");
    const garbage = Buffer.from("this is not a database ".repeat(500));
    writeFileSync(file, garbage);
    expect(() => SqliteStore.open(dir)).toThrow(StoreError);
    expect(() => SqliteStore.open(dir)).toThrow(/rpav\.db is not an RPA Vision database or is damaged.*left untouched/);
    expect(readFileSync(file)).toEqual(garbage);
  });

  it("a read-only data directory is a StoreError naming the path", () => {
    const dir = join(tmp, "readonly");
    mkdirSync(dir, { recursive: true });
    // As root, permission bits do not stop writes; the immutable attribute does.
    const immutable = process.getuid?.() === 0 ? spawnSync("chattr", ["+i", dir]).status === 0 : (chmodSync(dir, 0o555), true);
    expect(immutable).toBe(true);
    try {
      expect(() => SqliteStore.open(dir)).toThrow(StoreError);
      expect(() => SqliteStore.open(dir)).toThrow(new RegExp(`${dir}.*(writable|EACCES|EPERM|READONLY|CANTOPEN)`));
    } finally {
      if (process.getuid?.() === 0) spawnSync("chattr", ["-i", dir]);
      else chmodSync(dir, 0o755);
    }
  });

  it("a full disk is a StoreError naming the path, and the rows committed before stay readable", async () => {
    const dir = join(tmp, "full");
    mkdirSync(dir, { recursive: true });
    const mounted = spawnSync("mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", dir]).status === 0;
    expect(mounted, "mounting a 1 MiB tmpfs needs root (CI runs as root)").toBe(true);
    try {
      const store = SqliteStore.open(dir);
      await store.putVector("first.npy", "full", Float32Array.from({ length: 512 }, () => 1));
      let error: unknown;
      try {
        for (let i = 0; i < 2000; i++) await store.putVector(`v${i}.npy`, "full", Float32Array.from({ length: 512 }, (_, j) => i + j));
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(StoreError);
      expect((error as Error).message).toMatch(new RegExp(`(full|SQLITE_FULL|IOERR).*|${dir}`));
      expect((error as Error).message).toContain(dir);
      expect((await store.getVector("first.npy"))?.vector.length).toBe(512);
      await store.close();
      expect(statSync(join(dir, "rpav.db")).size).toBeGreaterThan(0);
    } finally {
      spawnSync("umount", [dir]);
    }
  });
});
