// The shared store: PostgreSQL (Debian postgresql-15). pgvector is not packaged in Debian
// bookworm, so vectors are stored as BYTEA (little-endian float32) and searched by the
// in-process indexes of src/store/vector-search.ts, like the SQLite backend.
import pg from "pg";
import { SchemaVersionError, StoreError } from "../core/errors.js";
import { ConnectionLock } from "./async-lock.js";
import { SqlStore, STORE_SCHEMA_VERSION, schemaStatements, type Row } from "./sql-store.js";

export interface PostgresStoreOptions {
  /** Schema (namespace) to use; created if missing. Default "rpav". */
  schema?: string;
  poolSize?: number;
}

/** `?` placeholders to `$1, $2…`. Our SQL has no `?` inside string literals. */
export function toPgPlaceholders(sql: string): string {
  let i = 0;
  return sql.replace(/\?/g, () => `$${++i}`);
}

export function redactUrl(url: string): string {
  return url.replace(/:\/\/([^:/@]+):[^@]*@/, "://$1:***@");
}

export class PostgresStore extends SqlStore {
  readonly backend = "postgres" as const;
  readonly location: string;
  private readonly lock = new ConnectionLock<pg.PoolClient>();

  private constructor(
    private readonly pool: pg.Pool,
    url: string,
    readonly schema: string,
  ) {
    super();
    this.location = redactUrl(url);
  }

  static async open(url: string, opts: PostgresStoreOptions = {}): Promise<PostgresStore> {
    const schema = opts.schema ?? "rpav";
    if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new StoreError(`Invalid PostgreSQL schema name "${schema}" (lower-case letters, digits, _).`);
    const pool = new pg.Pool({ connectionString: url, max: opts.poolSize ?? 4, options: `-c search_path=${schema}`, connectionTimeoutMillis: 10_000 });
    pool.on("error", () => undefined); // idle client errors surface on the next query
    const store = new PostgresStore(pool, url, schema);
    try {
      await pool.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
      await store.migrate();
    } catch (e) {
      await pool.end().catch(() => undefined);
      if (e instanceof SchemaVersionError) throw e;
      throw store.wrap(e, "open");
    }
    return store;
  }

  private wrap(e: unknown, what: string): StoreError {
    if (e instanceof StoreError) return e;
    const err = e as { code?: string; message?: string };
    if (err.code === "ECONNREFUSED" || err.code === "ENOTFOUND" || err.code === "ETIMEDOUT" || /timeout/i.test(err.message ?? ""))
      return new StoreError(`Cannot reach PostgreSQL at ${this.location} (${err.code ?? err.message}). Start it (\`rpav db up\`) or fix RPAV_PG_URL.`, { cause: e, details: { url: this.location } });
    if (err.code === "53100") return new StoreError(`The disk of PostgreSQL at ${this.location} is full: free some space.`, { cause: e, details: { url: this.location } });
    return new StoreError(`PostgreSQL error at ${this.location} during ${what}: ${err.message ?? String(e)}`, { cause: e, details: { url: this.location, code: err.code } });
  }

  private async migrate(): Promise<void> {
    await this.pool.query("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
    const r = await this.pool.query("SELECT value FROM meta WHERE key = 'schema_version'");
    const current = r.rows[0] ? Number(r.rows[0].value) : 0;
    if (current > STORE_SCHEMA_VERSION)
      throw new SchemaVersionError(`PostgreSQL schema "${this.schema}" at ${this.location} has database schema version ${current}, newer than this rpav reads (${STORE_SCHEMA_VERSION}). Upgrade rpav; the database was not changed.`, {
        details: { url: this.location, found: current, known: STORE_SCHEMA_VERSION },
      });
    const steps = schemaStatements("postgres");
    for (let v = current; v < STORE_SCHEMA_VERSION; v++) {
      const client = await this.pool.connect();
      try {
        await client.query("BEGIN");
        await client.query("LOCK TABLE meta IN EXCLUSIVE MODE");
        const again = await client.query("SELECT value FROM meta WHERE key = 'schema_version'");
        if ((again.rows[0] ? Number(again.rows[0].value) : 0) === v) {
          for (const sql of steps[v] ?? []) await client.query(sql);
          await client.query("INSERT INTO meta (key, value) VALUES ('schema_version', $1) ON CONFLICT (key) DO UPDATE SET value = excluded.value", [String(v + 1)]);
        }
        await client.query("COMMIT");
      } catch (e) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw e;
      } finally {
        client.release();
      }
    }
  }

  protected async exec(sql: string, params: readonly unknown[] = []): Promise<Row[]> {
    const client = this.lock.current();
    try {
      const r = await (client ?? this.pool).query(toPgPlaceholders(sql), params as unknown[]);
      return r.rows as Row[];
    } catch (e) {
      throw this.wrap(e, "query");
    }
  }

  async transaction<T>(fn: () => Promise<T>): Promise<T> {
    if (this.lock.current()) return fn();
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (e) {
      throw this.wrap(e, "connect to");
    }
    try {
      return await this.lock.exclusive(client, async () => {
        await client.query("BEGIN");
        try {
          const result = await fn();
          await client.query("COMMIT");
          return result;
        } catch (e) {
          await client.query("ROLLBACK").catch(() => undefined);
          throw e;
        }
      });
    } finally {
      client.release();
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  /** Drops the schema and everything in it (tests, benches). */
  async dropSchema(): Promise<void> {
    await this.pool.query(`DROP SCHEMA IF EXISTS ${this.schema} CASCADE`);
  }

  async sizeBytes(): Promise<number> {
    const r = await this.pool.query(`SELECT COALESCE(SUM(pg_total_relation_size(c.oid)), 0) AS s FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind = 'r'`, [this.schema]);
    return Number(r.rows[0].s);
  }
}
