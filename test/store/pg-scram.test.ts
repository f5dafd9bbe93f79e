// `rpav db up`'s private cluster: scram-sha-256 everywhere (no trust), generated passwords in a
// 0600 password file, an application role that is not a superuser, and the connection code that
// reads the password file when RPAV_PG_URL carries none. A real PostgreSQL on its own port.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { APP_ROLE, appUrl, clusterDown, clusterUp } from "../../src/store/postgres-cluster.js";
import { PostgresStore } from "../../src/store/postgres-store.js";
import { lookupPassword, withPassFilePassword } from "../../src/store/pgpass.js";
import { ROOT } from "../support/cli.js";

// Well away from the ports other checkouts give RPAV_TEST_PG_PORT (54331, 5543x).
const port = Number(process.env.RPAV_TEST_PG_PORT ?? 54331) + 100;
const dir = `/tmp/rpav-scram-${port}-${process.pid}`;
const home = mkdtempSync(join(tmpdir(), "rpav-scram-home-"));
const passFile = join(home, "pgpass");
const opts = { dir, port, passFile };
let url: string;

async function connect(u: string): Promise<{ ok: true; client: pg.Client } | { ok: false; code: string | undefined; message: string }> {
  const client = new pg.Client({ connectionString: u, connectionTimeoutMillis: 10_000 });
  client.on("error", () => undefined);
  try {
    await client.connect();
    return { ok: true, client };
  } catch (e) {
    await client.end().catch(() => undefined);
    return { ok: false, code: (e as { code?: string }).code, message: (e as Error).message };
  }
}

beforeAll(async () => {
  url = await clusterUp(opts);
}, 180_000);
afterAll(async () => {
  await clusterDown(opts);
  rmSync(dir, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

describe("private PostgreSQL cluster", () => {
  it("uses scram-sha-256 only; the passwords are generated into a 0600 file and never in the URL", () => {
    expect(url).toBe(appUrl(port));
    expect(new URL(url).password).toBe("");
    const hba = readFileSync(join(dir, "pg_hba.conf"), "utf8").split("\n").filter((l) => l.trim() && !l.trim().startsWith("#"));
    expect(hba.length).toBeGreaterThan(0);
    for (const l of hba) expect(l).toMatch(/scram-sha-256\s*$/);
    expect(statSync(passFile).mode & 0o777).toBe(0o600);
    const app = lookupPassword(passFile, url);
    const su = lookupPassword(passFile, `postgres://rpav@127.0.0.1:${port}/postgres`);
    expect(app).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(su).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(app).not.toBe(su);
  });

  it("refuses a wrong password for the app role and the superuser; the app role is not a superuser and reaches its own database only", async () => {
    for (const who of [`postgres://${APP_ROLE}:wrong@127.0.0.1:${port}/rpav`, `postgres://rpav:wrong@127.0.0.1:${port}/postgres`]) {
      const r = await connect(who);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.code).toBe("28P01");
    }
    const r = await connect(withPassFilePassword(url, passFile));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const me = (await r.client.query("SELECT current_user AS u, rolsuper, rolcreaterole, rolcreatedb FROM pg_roles WHERE rolname = current_user")).rows[0];
    await r.client.end();
    expect(me).toEqual({ u: APP_ROLE, rolsuper: false, rolcreaterole: false, rolcreatedb: false });
    const other = await connect(withPassFilePassword(url, passFile).replace(/\/rpav$/, "/postgres"));
    expect(other.ok).toBe(false);
    if (!other.ok) expect(other.code).toBe("42501");
    const store = await PostgresStore.open(withPassFilePassword(url, passFile), { schema: "scram_check" });
    await store.close();
  });

  it("rpav db up prints the URL without password; commands given that URL read the password file", () => {
    const env = { ...process.env, RPAV_HOME: home, RPAV_PG_PASSFILE: passFile, RPAV_LOG: "silent" };
    const up = spawnSync(process.execPath, [`${ROOT}bin/rpav.js`, "db", "up", "--dir", dir, "--port", String(port)], { env, encoding: "utf8", timeout: 120_000 });
    expect(up.status, up.stderr).toBe(0);
    expect(up.stdout).toBe(`export RPAV_PG_URL='${url}'\n`);
    expect(up.stderr).toMatch(/scram-sha-256; role rpav_app \(not a superuser\); its generated password is in .*pgpass \(0600\)/);
    const pw = lookupPassword(passFile, url)!;
    expect(up.stdout + up.stderr).not.toContain(pw);
    const doctor = spawnSync(process.execPath, [`${ROOT}bin/rpav.js`, "doctor", "--json"], { env: { ...env, RPAV_PG_URL: url }, encoding: "utf8", timeout: 120_000 });
    const line = (JSON.parse(doctor.stdout) as { name: string; status: string; detail: string }[]).find((c) => c.name === "postgresql");
    expect(line?.status, line?.detail).toBe("ok");
    const noFile = spawnSync(process.execPath, [`${ROOT}bin/rpav.js`, "doctor", "--json"], { env: { ...env, RPAV_PG_URL: url, RPAV_PG_PASSFILE: join(home, "none") }, encoding: "utf8", timeout: 120_000 });
    expect((JSON.parse(noFile.stdout) as { name: string; status: string }[]).find((c) => c.name === "postgresql")?.status).toBe("missing");
  }, 180_000);
});
