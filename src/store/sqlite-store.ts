// The embedded default store: one SQLite file (better-sqlite3 12), WAL, foreign keys, versioned
// migrations. page_size 16384 gave the smallest file and fastest inserts for 2 KB vector rows.
import { accessSync, constants, existsSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { SchemaVersionError, StoreError } from "../core/errors.js";
import { ConnectionLock } from "./async-lock.js";
import { SqlStore, STORE_SCHEMA_VERSION, schemaStatements, type Row } from "./sql-store.js";
import { makeDirs } from "../core/make-dirs.js";

export const SQLITE_FILE = "rpav.db";

export class SqliteStore extends SqlStore {
  readonly backend = "sqlite" as const;
  readonly location: string;
  private readonly db: Database.Database;
  private readonly statements = new Map<string, Database.Statement>();
  private readonly lock = new ConnectionLock();

  /** Opens (creating if needed) `<dataDir>/rpav.db`. */
  static open(dataDir: string): SqliteStore {
    return new SqliteStore(join(dataDir, SQLITE_FILE), dataDir);
  }

  constructor(file: string, dir?: string) {
    super();
    this.location = file;
    const folder = dir ?? join(file, "..");
    try {
      makeDirs(folder, "The data directory");
      accessSync(folder, constants.W_OK);
    } catch (e) {
      throw new StoreError(`Cannot use the data directory ${folder}: ${(e as NodeJS.ErrnoException).code ?? String(e)}. Choose a writable one with --data-dir or RPAV_HOME.`, { cause: e, details: { path: folder } });
    }
    const isNew = !existsSync(file);
    try {
      this.db = new Database(file, { timeout: 10_000 });
    } catch (e) {
      throw this.wrap(e, "open");
    }
    try {
      if (isNew) this.db.pragma("page_size = 16384");
      this.db.pragma("journal_mode = WAL");
      this.db.pragma("foreign_keys = ON");
      this.db.pragma("synchronous = NORMAL");
      this.migrate();
    } catch (e) {
      this.db.close();
      throw e instanceof SchemaVersionError || e instanceof StoreError ? e : this.wrap(e, "open");
    }
  }

  private wrap(e: unknown, what: string): StoreError {
    const err = e as { code?: string; message?: string };
    const code = err.code ?? "";
    if (code === "SQLITE_NOTADB" || code === "SQLITE_CORRUPT")
      return new StoreError(`${this.location} is not an RPA Vision database or is damaged (${err.message}). It was left untouched; move it away or restore a backup.`, { cause: e, details: { path: this.location, code } });
    if (code === "SQLITE_FULL" || /disk is full|database or disk is full/i.test(err.message ?? ""))
      return new StoreError(`The disk holding ${this.location} is full: free some space. Nothing of the failed ${what} was written.`, { cause: e, details: { path: this.location, code } });
    if (code === "SQLITE_READONLY" || code === "SQLITE_CANTOPEN" || code.startsWith("SQLITE_IOERR") || code === "SQLITE_PERM")
      return new StoreError(`Cannot ${what} ${this.location} (${code}: ${err.message}). Check that the directory is writable and the disk not full.`, { cause: e, details: { path: this.location, code } });
    if (code === "SQLITE_BUSY") return new StoreError(`${this.location} is locked by another process for too long (${err.message}).`, { cause: e, details: { path: this.location, code } });
    return new StoreError(`Database error on ${this.location} during ${what}: ${err.message ?? String(e)}`, { cause: e, details: { path: this.location, code } });
  }

  private migrate(): void {
    this.db.exec("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
    const row = this.db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get() as { value: string } | undefined;
    const current = row ? Number(row.value) : 0;
    if (current > STORE_SCHEMA_VERSION)
      throw new SchemaVersionError(`${this.location} has database schema version ${current}, newer than this rpav reads (${STORE_SCHEMA_VERSION}). Upgrade rpav; the database was not changed.`, {
        details: { path: this.location, found: current, known: STORE_SCHEMA_VERSION },
      });
    const steps = schemaStatements("sqlite");
    for (let v = current; v < STORE_SCHEMA_VERSION; v++) {
      this.db.transaction(() => {
        for (const sql of steps[v] ?? []) this.db.exec(sql);
        this.db.prepare("INSERT INTO meta (key, value) VALUES ('schema_version', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run(String(v + 1));
      }).immediate();
    }
  }

  private run(sql: string, params: readonly unknown[]): Row[] {
    let st = this.statements.get(sql);
    if (!st) {
      st = this.db.prepare(sql);
      this.statements.set(sql, st);
    }
    try {
      return st.reader ? (st.all(...params) as Row[]) : (st.run(...params), []);
    } catch (e) {
      throw this.wrap(e, "write to");
    }
  }

  protected async exec(sql: string, params: readonly unknown[] = []): Promise<Row[]> {
    if (this.lock.current()) return this.run(sql, params);
    return this.lock.exclusive(true, async () => this.run(sql, params));
  }

  async transaction<T>(fn: () => Promise<T>): Promise<T> {
    if (this.lock.current()) return fn(); // joins the enclosing transaction
    return this.lock.exclusive(true, async () => {
      try {
        this.db.exec("BEGIN IMMEDIATE");
      } catch (e) {
        throw this.wrap(e, "write to");
      }
      try {
        const result = await fn();
        this.db.exec("COMMIT");
        return result;
      } catch (e) {
        if (this.db.inTransaction) this.db.exec("ROLLBACK");
        throw e instanceof StoreError || !(e as { code?: string }).code?.startsWith?.("SQLITE") ? e : this.wrap(e, "write to");
      }
    });
  }

  async close(): Promise<void> {
    await this.lock.exclusive(true, async () => {
      if (this.db.open) this.db.close();
    });
  }

  /** Page count × page size: the file size without the WAL. */
  sizeBytes(): number {
    return Number(this.db.pragma("page_count", { simple: true })) * Number(this.db.pragma("page_size", { simple: true }));
  }

  /** Checkpoints the WAL into the main file. */
  checkpoint(): void {
    this.db.pragma("wal_checkpoint(TRUNCATE)");
  }
}
