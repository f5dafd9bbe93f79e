// `rpav db up|down|status` (a private PostgreSQL cluster) and `rpav store import|export`.
import { join } from "node:path";
import type { Command } from "commander";
import { ConfigError, InvalidInputError } from "../../core/errors.js";
import type { Store } from "../../core/providers/store.js";
import { exportFolder, importFolder } from "../../store/interchange.js";
import { clusterDown, clusterStatus, clusterUp, DEFAULT_PG_PORT } from "../../store/postgres-cluster.js";
import { withPassFilePassword } from "../../store/pgpass.js";
import { PostgresStore } from "../../store/postgres-store.js";
import { SqliteStore } from "../../store/sqlite-store.js";
import { resolveDataDir, type GlobalOptions } from "../config.js";
import type { CliIo } from "./desktop.js";

export interface StoreChoice {
  store?: string;
  pgUrl?: string;
}

/**
 * The store every command uses: `--store sqlite` (default, in the data directory) or
 * `--store postgres` (`--pg-url` or RPAV_PG_URL; schema RPAV_PG_SCHEMA, default "rpav").
 */
export async function openStore(globals: GlobalOptions & StoreChoice, env: NodeJS.ProcessEnv): Promise<Store> {
  const kind = globals.store ?? env.RPAV_STORE ?? "sqlite";
  if (kind === "sqlite") return SqliteStore.open(resolveDataDir(globals, env));
  if (kind === "postgres") {
    const url = globals.pgUrl ?? env.RPAV_PG_URL;
    if (!url) throw new ConfigError("--store postgres needs --pg-url or RPAV_PG_URL (for a local server: `rpav db up`).");
    return PostgresStore.open(withPassFilePassword(url, pgPassFile(resolveDataDir(globals, env), env)), { schema: env.RPAV_PG_SCHEMA || undefined });
  }
  throw new ConfigError(`Unknown store "${kind}"; use sqlite or postgres.`);
}

/** Where `rpav db up` keeps the generated PostgreSQL passwords (0600, libpq format): $RPAV_PG_PASSFILE, else <data dir>/pgpass. */
export function pgPassFile(dataDir: string, env: NodeJS.ProcessEnv): string {
  return env.RPAV_PG_PASSFILE || join(dataDir, "pgpass");
}

export function registerStoreCommands(program: Command, io: CliIo, setExit: (code: number) => void): void {
  const globals = () => program.opts<GlobalOptions & StoreChoice>();
  // As root the server runs as the postgres user, which cannot enter /root: use /var/lib/rpav/pg.
  const pgDir = () => (process.getuid?.() === 0 ? "/var/lib/rpav/pg" : join(resolveDataDir(globals(), io.env), "pg"));

  const db = program.command("db").description("a local PostgreSQL server for shared deployments (Debian postgresql-15)");
  const port = (v: string) => {
    const n = Number(v);
    if (!/^\d+$/.test(v.trim()) || n < 1 || n > 65535) throw new InvalidInputError(`--port must be a TCP port from 1 to 65535, got "${v.length > 40 ? `${v.slice(0, 40)}…` : v}".`);
    return n;
  };
  db.command("up")
    .description("initialise (first time) and start PostgreSQL on 127.0.0.1; prints RPAV_PG_URL")
    .option("--port <n>", "TCP port", port, DEFAULT_PG_PORT)
    .option("--dir <dir>", "cluster folder (default: <data dir>/pg; /var/lib/rpav/pg as root)")
    .action(async (o: { port: number; dir?: string }) => {
      const passFile = pgPassFile(resolveDataDir(globals(), io.env), io.env);
      const url = await clusterUp({ dir: o.dir ?? pgDir(), port: o.port, passFile });
      io.out(`export RPAV_PG_URL='${url}'\n`);
      if (!new URL(url).pathname.endsWith("/postgres")) io.err(`scram-sha-256; role ${new URL(url).username} (not a superuser); its generated password is in ${passFile} (0600), read by rpav when RPAV_PG_URL has none\n`);
      else io.err("note: this cluster was made by an older rpav with trust authentication; make a new one in an empty --dir for scram-sha-256\n");
    });
  db.command("down")
    .option("--port <n>", "TCP port", port, DEFAULT_PG_PORT)
    .option("--dir <dir>", "cluster folder (default: <data dir>/pg; /var/lib/rpav/pg as root)")
    .action(async (o: { port: number; dir?: string }) => {
      await clusterDown({ dir: o.dir ?? pgDir(), port: o.port });
      io.out("PostgreSQL stopped\n");
    });
  db.command("status")
    .option("--port <n>", "TCP port", port, DEFAULT_PG_PORT)
    .option("--dir <dir>", "cluster folder (default: <data dir>/pg; /var/lib/rpav/pg as root)")
    .action(async (o: { port: number; dir?: string }) => {
      const up = await clusterStatus({ dir: o.dir ?? pgDir(), port: o.port });
      io.out(up ? `PostgreSQL up on 127.0.0.1:${o.port}\n` : "PostgreSQL is not running\n");
      if (!up) setExit(1);
    });

  const store = program.command("store").description("move data to and from the Python system's folder layout (data/embeddings/...npy, JSON documents)");
  store
    .command("import <dir>")
    .description("import every screenstate/uielement JSON and every .npy vector under <dir>")
    .option("--provider <name>", "provider for vectors no document references", "unknown")
    .action(async (dir: string, o: { provider: string }) => {
      const s = await openStore(globals(), io.env);
      try {
        const r = await importFolder(s, dir, { defaultProvider: o.provider, onProgress: (m) => io.err(`${m}\n`) });
        io.out(`imported into ${s.location}: ${r.screenStates} screen states, ${r.elements} elements, ${r.vectors} vectors\n`);
        for (const k of r.skipped) io.out(`skipped  ${k.file}: ${k.reason.replace(`${k.file}: `, "")}\n`);
        if (r.skipped.length > 0) setExit(1);
      } finally {
        await s.close();
      }
    });
  store
    .command("export <dir>")
    .description("write vectors at their vector_id (.npy) and documents under data/states and data/elements")
    .action(async (dir: string) => {
      const s = await openStore(globals(), io.env);
      try {
        const r = await exportFolder(s, dir);
        io.out(`exported from ${s.location} to ${dir}: ${r.screenStates} screen states, ${r.elements} elements, ${r.vectors} vectors\n`);
      } finally {
        await s.close();
      }
    });
}
