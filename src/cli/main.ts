// Composition root of the `rpav` command. Only this folder (and src/fleet) picks concrete providers.
import { chmodSync, readFileSync, statSync } from "node:fs";
import { Command, CommanderError, Option } from "commander";
import { InvalidInputError, isRpaError } from "../core/errors.js";
import { DEFAULT_MAX_DOCUMENT_BYTES } from "../core/schemas/documents.js";
import { registerDaemonCommands } from "./commands/daemon.js";
import { registerDesktopCommands } from "./commands/desktop.js";
import { formatChecks, runDoctor } from "./commands/doctor.js";
import { registerEmbedCommands } from "./commands/embed.js";
import { registerPerceptionCommands } from "./commands/perception.js";
import { registerRecordCommands } from "./commands/record.js";
import { registerReplayCommands } from "./commands/replay.js";
import { registerSecretCommands } from "./commands/secret.js";
import { registerGcCommand } from "./commands/gc.js";
import { registerServeCommand } from "./commands/serve.js";
import { registerWorkflowPatchCommands } from "./commands/workflow-patches.js";
import { registerRunCommand } from "./commands/run.js";
import { runStartJob } from "./commands/start.js";
import { studioUrl } from "./commands/serve.js";
import { registerStoreCommands } from "./commands/store.js";
import { registerVlmCommands } from "./commands/vlm.js";
import { vlmChecks } from "./commands/doctor-vlm.js";
import { formatValidateResult, validateFile } from "./commands/validate.js";
import { isDebug, resolveDataDir, type GlobalOptions } from "./config.js";
import { parseSize } from "./io.js";
import { secretsCheck } from "./secrets.js";
import { createCliLogger, logLevel } from "./logger.js";
import type { Logger } from "../core/providers/logger.js";

interface Io {
  out: (s: string) => void;
  err: (s: string) => void;
  env: NodeJS.ProcessEnv;
  logger?: () => Logger;
}

function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };
  return pkg.version;
}

export function buildProgram(io: Io, setExit: (code: number) => void): Command {
  const program = new Command("rpav")
    .description("RPA Vision: a robot that sees the screen, learns a task once and replays it.")
    .version(packageVersion(), "-V, --version")
    .option("--data-dir <dir>", "data directory (default: $RPAV_HOME, else ~/.rpav)")
    .option("--store <kind>", "sqlite (default, in the data directory) or postgres ($RPAV_STORE)")
    .option("--pg-url <url>", "PostgreSQL connection URL for --store postgres ($RPAV_PG_URL)")
    .option("--log-level <level>", "trace, debug, info, warn (default), error, silent ($RPAV_LOG); lines on stderr")
    .configureOutput({ writeOut: io.out, writeErr: io.err })
    .exitOverride();

  const globals = (): GlobalOptions => program.opts<GlobalOptions>();
  let logger: Logger | undefined;
  io = { ...io, logger: () => (logger ??= createCliLogger(logLevel(program.opts<{ logLevel?: string }>().logLevel, io.env), io.env)) } as Io;
  // Data at rest: the data directory is the user's alone (0700); see protectDataDir.
  program.hook("preAction", () => protectDataDir(resolveDataDir(globals(), io.env)));

  program
    .command("validate")
    .description("validate JSON documents (kind detected by schema_version), .npy vector files, session folders and run folders")
    .argument("<files...>", "files to check")
    .option("--json", "print results as JSON")
    .addOption(new Option("--max-size <size>", "largest document accepted, e.g. 16M").default(String(DEFAULT_MAX_DOCUMENT_BYTES)))
    .action(async (files: string[], opts: { json?: boolean; maxSize: string }) => {
      const maxBytes = parseSize(opts.maxSize);
      const results = [];
      for (const f of files) results.push(await validateFile(f, maxBytes));
      if (opts.json) io.out(`${JSON.stringify(results, null, 2)}\n`);
      else for (const r of results) io.out(`${formatValidateResult(r)}\n`);
      if (results.some((r) => !r.ok)) setExit(1);
    });

  program
    .command("doctor")
    .description("show which components are available on this machine")
    .option("--json", "print checks as JSON")
    .option("--strict", "exit 1 when something is missing")
    .action(async (opts: { json?: boolean; strict?: boolean }) => {
      const checks = await runDoctor({ dataDir: resolveDataDir(globals(), io.env), env: io.env });
      checks.push(...(await vlmChecks(resolveDataDir(globals(), io.env), io.env)));
      checks.push(await secretsCheck(resolveDataDir(globals(), io.env), io.env));
      io.out(opts.json ? `${JSON.stringify(checks, null, 2)}\n` : `${formatChecks(checks)}\n`);
      if (opts.strict && checks.some((c) => c.status === "missing")) setExit(1);
    });

  program
    .command("start")
    .description("the `npm start` job: health check, sample documents, then capture → embed → store → search on a real app")
    .option("--no-desktop", "only the health check and the sample documents")
    .action(async (o: { desktop: boolean }) => {
      const checks = await runDoctor({ dataDir: resolveDataDir(globals(), io.env), env: io.env });
      io.out(`${formatChecks(checks)}\n\nBundled sample documents:\n`);
      const samples = ["uielement-example.json", "screenstate-complete-example.json"].map((f) => new URL(`../../examples/design/${f}`, import.meta.url).pathname);
      for (const f of samples) {
        const r = await validateFile(f, DEFAULT_MAX_DOCUMENT_BYTES);
        io.out(`${formatValidateResult(r)}\n`);
        if (!r.ok) setExit(1);
      }
      if (o.desktop) {
        io.out("\nMain job:\n");
        const dataDir = resolveDataDir(globals(), io.env);
        const job = await runStartJob(io, dataDir);
        if (job.failures.length) setExit(1);
        io.out(`\nTo review this run, its workflow and its trace in the studio: rpav serve, then open\n  ${studioUrl(dataDir)}\n`);
      }
    });

  registerDesktopCommands(program, io, setExit);
  registerStoreCommands(program, io, setExit);
  registerEmbedCommands(program, io, setExit);
  registerPerceptionCommands(program, io, setExit);
  registerDaemonCommands(program, io, setExit);
  registerRecordCommands(program, io);
  registerReplayCommands(program, io, setExit);
  registerServeCommand(program, io);
  registerVlmCommands(program, io, setExit);
  registerWorkflowPatchCommands(program, io);
  registerRunCommand(program, io, setExit);
  registerSecretCommands(program, io, setExit);
  registerGcCommand(program, io);
  return program;
}

/**
 * What rpav writes is the user's alone: files 0600 and folders 0700 (umask 077), and an existing
 * data directory is narrowed to 0700. A data directory that names something else than a folder
 * is a typed error before any command runs.
 */
export function protectDataDir(dir: string): void {
  process.umask(0o077);
  let st;
  try {
    st = statSync(dir);
  } catch {
    return; // created 0700 when a command first needs it
  }
  if (!st.isDirectory()) throw new InvalidInputError(`--data-dir ${dir}: is not a folder (a file is there); give a folder, or remove the file.`, { details: { source: dir } });
  if ((st.mode & 0o077) !== 0 && st.uid === process.getuid?.()) chmodSync(dir, 0o700);
}

/** Runs the CLI and returns the exit code; never throws for expected failures. */
export async function runCli(argv: string[], io: Io = { out: (s) => process.stdout.write(s), err: (s) => process.stderr.write(s), env: process.env }): Promise<number> {
  let code = 0;
  const program = buildProgram(io, (c) => (code = Math.max(code, c)));
  try {
    await program.parseAsync(argv);
    return code;
  } catch (e) {
    if (e instanceof CommanderError) {
      // --help and --version exit through here with code 0; usage errors were already printed.
      return e.exitCode === 0 ? 0 : 2;
    }
    if (isRpaError(e)) {
      io.err(`rpav: error [${e.code}]: ${e.message}\n`);
      return 1;
    }
    io.err(`rpav: unexpected internal error: ${e instanceof Error ? e.message : String(e)}\n`);
    if (isDebug(io.env) && e instanceof Error && e.stack) io.err(`${e.stack}\n`);
    else io.err("This is a bug in rpav. Run again with RPAV_DEBUG=1 for the stack trace and report it.\n");
    return 70;
  }
}
