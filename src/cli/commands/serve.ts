// `rpav serve`: RPA Vision Studio on 127.0.0.1 (other hosts only with --host, and a warning). The
// composition root of the studio: the store, the file-backed assist channel and the `rpav replay`
// child processes it starts are chosen here.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Command } from "commander";
import type { FastifyInstance } from "fastify";
import { InvalidInputError } from "../../core/errors.js";
import { loadOrCreateToken } from "../../studio/token.js";
import { AssistFiles } from "../../store/assist-files.js";
import { PatchFiles } from "../../store/patch-files.js";
import { resolveDataDir, type GlobalOptions } from "../config.js";
import { procProcessProbe } from "../process-id.js";
import type { CliIo } from "./desktop.js";
import { openStore, type StoreChoice } from "./store.js";

export const DEFAULT_STUDIO_PORT = 7878;
export const DEFAULT_STUDIO_HOST = "127.0.0.1";
const BIN = fileURLToPath(new URL("../../../bin/rpav.js", import.meta.url));
const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1"]);

export interface StudioHandle {
  /** The address with the token, to open in a browser. */
  url: string;
  app: FastifyInstance;
  close(): Promise<void>;
}

export interface StartStudioOptions {
  dataDir: string;
  host?: string;
  port?: number;
  /** Environment of the `rpav replay` runs the studio starts (their desktop). */
  env: NodeJS.ProcessEnv;
  /** --store / --pg-url, passed to the store and to the runs. */
  storeChoice?: StoreChoice;
}

function urlOf(host: string, port: number, token: string): string {
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}/?token=${token}`;
}

/** The studio's URL for `dataDir` (the token is made if this is the first start) — for `rpav start` to print. */
export function studioUrl(dataDir: string, host = DEFAULT_STUDIO_HOST, port = DEFAULT_STUDIO_PORT): string {
  return urlOf(host, port, loadOrCreateToken(dataDir).token);
}

/** Opens the store and starts the studio's server; `close` stops it, the runs it started and the store. */
export async function startStudio(o: StartStudioOptions): Promise<StudioHandle> {
  const host = o.host ?? DEFAULT_STUDIO_HOST;
  const port = o.port ?? DEFAULT_STUDIO_PORT;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new InvalidInputError(`--port must be a TCP port (0–65535), got ${port}.`);
  const { token } = loadOrCreateToken(o.dataDir);
  const store = await openStore({ dataDir: o.dataDir, ...o.storeChoice }, o.env);
  const globalArgs = ["--data-dir", o.dataDir, ...(o.storeChoice?.store ? ["--store", o.storeChoice.store] : []), ...(o.storeChoice?.pgUrl ? ["--pg-url", o.storeChoice.pgUrl] : [])];
  try {
    // The studio (fastify and its plugins) is loaded by `serve` only, not by every command.
    const { createStudio } = await import("../../studio/server.js");
    const app = await createStudio({
      dataDir: o.dataDir,
      store,
      inbox: new AssistFiles(join(o.dataDir, "assist")),
      patches: new PatchFiles(join(o.dataDir, "patches")),
      processProbe: procProcessProbe,
      token,
      spawnReplay: (args) => spawn(process.execPath, [BIN, ...globalArgs, "replay", ...args], { env: o.env, stdio: ["ignore", "pipe", "pipe"] }),
    });
    await app.listen({ host, port });
    const address = app.server.address();
    const bound = typeof address === "object" && address ? address.port : port;
    return {
      url: urlOf(host, bound, token),
      app,
      close: async () => {
        await app.close();
        await store.close();
      },
    };
  } catch (e) {
    await store.close();
    throw e;
  }
}

export function registerServeCommand(program: Command, io: CliIo): void {
  program
    .command("serve")
    .description("RPA Vision Studio: workflows, run traces, questions of waiting runs and new runs in the browser")
    .option("--port <n>", "TCP port", String(DEFAULT_STUDIO_PORT))
    .option("--host <address>", "address to listen on (other than 127.0.0.1: reachable from other machines)", DEFAULT_STUDIO_HOST)
    .action(async (o: { port: string; host: string }) => {
      const globals = program.opts<GlobalOptions & StoreChoice>();
      const dataDir = resolveDataDir(globals, io.env);
      if (!LOOPBACK.has(o.host))
        io.err(`warning: the studio listens on ${o.host}: other machines can reach it. Anyone with the token can see your screens and start runs on this desktop; the connection is not encrypted.\n`);
      const studio = await startStudio({ dataDir, host: o.host, port: Number(o.port), env: io.env, storeChoice: { ...(globals.store ? { store: globals.store } : {}), ...(globals.pgUrl ? { pgUrl: globals.pgUrl } : {}) } });
      io.out(`RPA Vision Studio: ${studio.url}\n`);
      io.err(`token in ${join(dataDir, "studio-token")}; Ctrl+C stops the studio\n`);
      await new Promise<void>((resolve) => {
        const stop = () => resolve();
        process.once("SIGINT", stop);
        process.once("SIGTERM", stop);
      });
      await studio.close();
    });
}
