// `rpav doctor`'s PostgreSQL line: it connects and says what it found (server version, store
// schema and its version), and an unreachable server is "missing" with what to do.
import { createServer } from "node:net";
import { describe, expect, inject, it } from "vitest";
import { checkPostgres } from "../src/cli/commands/doctor.js";
import { PostgresStore } from "../src/store/postgres-store.js";
import { STORE_SCHEMA_VERSION } from "../src/store/sql-store.js";
import { rpav } from "./support/cli.js";

const pgUrl = inject("pgUrl");

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

describe("doctor: postgresql", () => {
  it("without RPAV_PG_URL says SQLite is used", async () => {
    expect(await checkPostgres({})).toMatchObject({ status: "warn", detail: expect.stringMatching(/RPAV_PG_URL not set/) });
  });

  it("connects and reports the server version and a schema not created yet", async () => {
    const c = await checkPostgres({ RPAV_PG_URL: pgUrl, RPAV_PG_SCHEMA: `doctor_none_${process.pid}` });
    expect(c.status).toBe("ok");
    expect(c.detail).toMatch(new RegExp(`^connected to .*: PostgreSQL \\d+\\.\\d+.*, schema "doctor_none_${process.pid}" not created yet`));
  });

  it("reports the store schema's version once the store created it, and the CLI prints it", async () => {
    const schema = `doctor_${process.pid}`;
    const store = await PostgresStore.open(pgUrl, { schema });
    await store.close();
    const c = await checkPostgres({ RPAV_PG_URL: pgUrl, RPAV_PG_SCHEMA: schema });
    expect(c).toMatchObject({ status: "ok", detail: expect.stringContaining(`schema "${schema}" at store version ${STORE_SCHEMA_VERSION}`) });
    const r = rpav(["doctor", "--json"], { RPAV_PG_URL: pgUrl, RPAV_PG_SCHEMA: schema });
    const line = (JSON.parse(r.stdout) as { name: string; status: string; detail: string }[]).find((x) => x.name === "postgresql");
    expect(line).toEqual(c);
  });

  it("an unreachable server is missing, with the reason and what to do; --strict exits 1", async () => {
    const url = `postgres://rpav:secret@127.0.0.1:${await freePort()}/postgres`;
    const c = await checkPostgres({ RPAV_PG_URL: url });
    expect(c.status).toBe("missing");
    expect(c.detail).toMatch(/cannot connect to postgres:\/\/rpav:\*+@127\.0\.0\.1:\d+\/postgres \(connection refused\): start it \(`rpav db up`\) or fix RPAV_PG_URL/);
    expect(c.detail).not.toContain("secret");
    const r = rpav(["doctor", "--strict"], { RPAV_PG_URL: url });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/MISSING\s+postgresql\s+cannot connect/);
  });
});
