// A private PostgreSQL cluster on 127.0.0.1 for `rpav db up` and the tests: initdb once, then
// pg_ctl start/stop. Runs the server as the `postgres` user when we are root (PostgreSQL refuses
// to run as root).
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { ProviderUnavailableError, StoreError } from "../core/errors.js";
import { runCommand } from "../core/process.js";

export interface ClusterOptions {
  dir: string;
  port?: number;
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

export function clusterUrl(port = DEFAULT_PG_PORT): string {
  return `postgres://rpav@127.0.0.1:${port}/postgres`;
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
  if (await clusterStatus(opts)) return clusterUrl(port);
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
  if (!existsSync(join(opts.dir, "PG_VERSION"))) await asServerUser(join(bin, "initdb"), ["-D", opts.dir, "-U", "rpav", "-A", "trust", "-E", "UTF8", "--locale=C.UTF-8"], opts.dir);
  await asServerUser(join(bin, "pg_ctl"), ["-D", opts.dir, "-l", join(opts.dir, "server.log"), "-w", "-t", "30", "-o", `-p ${port} -k ${opts.dir} -c listen_addresses=127.0.0.1 -c fsync=on`, "start"], opts.dir);
  return clusterUrl(port);
}

export async function clusterDown(opts: ClusterOptions): Promise<void> {
  if (!existsSync(join(opts.dir, "PG_VERSION"))) return;
  await asServerUser(join(binDir(), "pg_ctl"), ["-D", opts.dir, "-m", "fast", "-w", "stop"], opts.dir).catch(() => undefined);
}
