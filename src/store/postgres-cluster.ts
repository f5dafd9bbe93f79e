// A private PostgreSQL cluster on 127.0.0.1 for `rpav db up` and the tests: initdb once, then
// pg_ctl start/stop. Runs the server as the `postgres` user when we are root (PostgreSQL refuses
// to run as root). A new cluster uses scram-sha-256 for every connection (no `trust`), with
// generated passwords for its superuser `rpav` and for the application's role `rpav_app` (not a
// superuser; owns the database `rpav`), kept in a 0600 password file (libpq format, see pgpass.ts).
// A cluster made by an older rpav with `trust` still starts and is reached as before.
import { randomBytes } from "node:crypto";
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import pg from "pg";
import { ProviderUnavailableError, StoreError } from "../core/errors.js";
import { runCommand } from "../core/process.js";
import { lookupPassword, writePassEntry } from "./pgpass.js";

export interface ClusterOptions {
  dir: string;
  port?: number;
  /** The 0600 password file (libpq format) for the generated passwords; default `<dir>.pgpass` beside the cluster folder. */
  passFile?: string;
}

export const APP_ROLE = "rpav_app";
export const APP_DATABASE = "rpav";
const HOST = "127.0.0.1";

export function clusterPassFile(opts: ClusterOptions): string {
  return resolve(opts.passFile ?? `${resolve(opts.dir)}.pgpass`);
}

export const DEFAULT_PG_PORT = 54329;

function binDir(): string {
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(join(root, v, "bin", "initdb"))).sort((a, b) => Number(b) - Number(a)) : [];
  if (!versions[0]) throw new ProviderUnavailableError("PostgreSQL server programs are not installed: apt-get install postgresql-15 (Debian).");
  return join(root, versions[0], "bin");
}

async function asServerUser(cmd: string, args: string[], dir: string): Promise<string> {
  const isRoot = process.getuid?.() === 0;
  const r = isRoot
    ? await runCommand("runuser", ["-u", "postgres", "--", cmd, ...args], { timeoutMs: 60_000, cwd: dir, check: false })
    : await runCommand(cmd, args, { timeoutMs: 60_000, cwd: dir, check: false });
  if (r.code !== 0) throw new StoreError(`${cmd.split("/").pop()} failed (exit ${r.code}): ${(r.stderr || r.stdout).trim().slice(0, 600)}`, { details: { dir } });
  return r.stdout;
}

/** The URL of a cluster made with `trust` by an older rpav (superuser, no password). */
export function clusterUrl(port = DEFAULT_PG_PORT): string {
  return `postgres://rpav@${HOST}:${port}/postgres`;
}

/** The application's URL of a scram cluster (no password in it: the password file has it). */
export function appUrl(port = DEFAULT_PG_PORT): string {
  return `postgres://${APP_ROLE}@${HOST}:${port}/${APP_DATABASE}`;
}

/** Whether the cluster's pg_hba.conf still trusts connections (made by an older rpav). */
function trusts(dir: string): boolean {
  try {
    return readFileSync(join(dir, "pg_hba.conf"), "utf8").split("\n").some((l) => !l.trim().startsWith("#") && /\btrust\s*$/.test(l.trim()));
  } catch {
    return false; // not readable by us (owned by postgres): a cluster made here is scram
  }
}

/** The URL to give the application, without password: the app role's for a scram cluster, the old one for a trust cluster. */
export function clusterAppUrl(opts: ClusterOptions): string {
  const port = opts.port ?? DEFAULT_PG_PORT;
  return lookupPassword(clusterPassFile(opts), appUrl(port)) !== undefined || !trusts(opts.dir) ? appUrl(port) : clusterUrl(port);
}

/** The same URL with its password (for a process that connects at once, e.g. a test setup); never print it. */
export function clusterAppUrlWithPassword(opts: ClusterOptions): string {
  const url = clusterAppUrl(opts);
  const pw = lookupPassword(clusterPassFile(opts), url);
  if (pw === undefined) return url;
  const u = new URL(url);
  u.password = encodeURIComponent(pw);
  return u.toString();
}

const password = () => randomBytes(24).toString("base64url");

/** initdb with scram-sha-256 and a generated superuser password (given through a private temporary file, deleted after). */
async function initScram(bin: string, opts: ClusterOptions, isRoot: boolean): Promise<void> {
  const port = String(opts.port ?? DEFAULT_PG_PORT);
  const passFile = clusterPassFile(opts);
  const superPw = password();
  const tmp = mkdtempSync(join(tmpdir(), "rpav-initdb-"));
  const pwFile = join(tmp, "pw");
  try {
    writeFileSync(pwFile, `${superPw}\n`, { mode: 0o600 });
    if (isRoot) {
      const uid = Number((await runCommand("id", ["-u", "postgres"])).stdout.trim());
      const gid = Number((await runCommand("id", ["-g", "postgres"])).stdout.trim());
      chownSync(tmp, uid, gid);
      chownSync(pwFile, uid, gid);
    }
    // The password is kept before initdb runs: a cluster whose password was lost is never made.
    writePassEntry(passFile, { host: HOST, port, database: "*", user: "rpav", password: superPw });
    await asServerUser(join(bin, "initdb"), ["-D", opts.dir, "-U", "rpav", "--auth=scram-sha-256", `--pwfile=${pwFile}`, "-E", "UTF8", "--locale=C.UTF-8"], opts.dir);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** The application's role (LOGIN, not a superuser, cannot create roles or databases) owning the database `rpav`. */
async function ensureAppRole(opts: ClusterOptions, fresh: boolean): Promise<void> {
  const port = opts.port ?? DEFAULT_PG_PORT;
  const passFile = clusterPassFile(opts);
  // A password kept for this port names the role of this cluster, unless the cluster was just made
  // (an earlier cluster on the same port left its entry): then the role is made with a new one.
  if (!fresh && lookupPassword(passFile, appUrl(port)) !== undefined) return;
  const superPw = lookupPassword(passFile, `postgres://rpav@${HOST}:${port}/postgres`);
  if (superPw === undefined) throw new StoreError(`The superuser password of the cluster in ${opts.dir} is not in ${passFile}: restore that file, or make a new cluster in an empty folder.`, { details: { dir: opts.dir, passFile } });
  const client = new pg.Client({ host: HOST, port, user: "rpav", password: superPw, database: "postgres", connectionTimeoutMillis: 10_000 });
  client.on("error", () => undefined);
  const appPw = password();
  try {
    await client.connect();
    const exists = (await client.query("SELECT 1 FROM pg_roles WHERE rolname = $1", [APP_ROLE])).rowCount;
    const lit = client.escapeLiteral(appPw);
    await client.query(exists ? `ALTER ROLE ${APP_ROLE} WITH LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE PASSWORD ${lit}` : `CREATE ROLE ${APP_ROLE} WITH LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE PASSWORD ${lit}`);
    if (!(await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [APP_DATABASE])).rowCount) await client.query(`CREATE DATABASE ${APP_DATABASE} OWNER ${APP_ROLE}`);
    // The app reaches its own database only.
    await client.query("REVOKE CONNECT ON DATABASE postgres FROM PUBLIC");
    writePassEntry(passFile, { host: HOST, port: String(port), database: APP_DATABASE, user: APP_ROLE, password: appPw });
  } catch (e) {
    if (e instanceof StoreError) throw e;
    throw new StoreError(`Cannot prepare the application role of the cluster in ${opts.dir}: ${(e as Error).message}`, { cause: e, details: { dir: opts.dir } });
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function clusterStatus(opts: ClusterOptions): Promise<boolean> {
  if (!existsSync(join(opts.dir, "PG_VERSION"))) return false;
  const r = await runCommand(join(binDir(), "pg_isready"), ["-h", "127.0.0.1", "-p", String(opts.port ?? DEFAULT_PG_PORT)], { check: false, timeoutMs: 10_000 });
  return r.code === 0;
}

/** Initialises (first time) and starts the cluster; idempotent. Returns the connection URL. */
export async function clusterUp(opts: ClusterOptions): Promise<string> {
  const port = opts.port ?? DEFAULT_PG_PORT;
  const bin = binDir();
  if (await clusterStatus(opts)) return clusterAppUrl(opts);
  const isRoot = process.getuid?.() === 0;
  // Folders created here for the cluster must let the server's user through (the CLI's umask is 077):
  // the ones this call creates get 0711 (enter, not list); the cluster folder itself is the server's.
  const created = mkdirSync(resolve(opts.dir), { recursive: true });
  if (isRoot && created) {
    for (let d = dirname(resolve(opts.dir)); d.length >= created.length; d = dirname(d)) chmodSync(d, 0o711);
  }
  if (isRoot) {
    const id = await runCommand("id", ["-u", "postgres"], { check: false });
    const gid = await runCommand("id", ["-g", "postgres"], { check: false });
    if (id.code !== 0) throw new ProviderUnavailableError("There is no `postgres` user to run the server as root: install postgresql-15.");
    chownSync(opts.dir, Number(id.stdout.trim()), Number(gid.stdout.trim()));
    const reach = await runCommand("runuser", ["-u", "postgres", "--", "test", "-w", opts.dir], { check: false });
    if (reach.code !== 0)
      throw new StoreError(`The postgres user cannot reach ${opts.dir} (a parent folder is private to root): choose a folder it can reach, e.g. --dir /var/lib/rpav/pg.`, { details: { dir: opts.dir } });
  }
  const fresh = !existsSync(join(opts.dir, "PG_VERSION"));
  if (fresh) await initScram(bin, opts, isRoot);
  await asServerUser(join(bin, "pg_ctl"), ["-D", opts.dir, "-l", join(opts.dir, "server.log"), "-w", "-t", "30", "-o", `-p ${port} -k ${opts.dir} -c listen_addresses=127.0.0.1 -c fsync=on`, "start"], opts.dir);
  if (fresh || !trusts(opts.dir)) await ensureAppRole(opts, fresh);
  return clusterAppUrl(opts);
}

export async function clusterDown(opts: ClusterOptions): Promise<void> {
  if (!existsSync(join(opts.dir, "PG_VERSION"))) return;
  await asServerUser(join(binDir(), "pg_ctl"), ["-D", opts.dir, "-m", "fast", "-w", "stop"], opts.dir).catch(() => undefined);
}
