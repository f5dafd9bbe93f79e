// Composition root of the `rpav` command. Only this folder (and src/fleet) picks concrete providers.
import { chmodSync, readFileSync, statSync } from "node:fs";
import { Command, CommanderError } from "commander";
import { InvalidInputError, isRpaError } from "../core/errors.js";
import { isDebug, resolveDataDir, type GlobalOptions } from "./config.js";
import { createCliLogger, logLevel } from "./logger.js";
import type { Logger } from "../core/providers/logger.js";
import type { CliIo } from "./commands/desktop.js";

type Io = CliIo;

type Registrar = (program: Command, io: CliIo, setExit: (code: number) => void) => void;

/** The command modules, in help order, with the top-level commands each adds (main.test.ts checks the names). */
export const COMMAND_MODULES: readonly { names: readonly string[]; load: () => Promise<Registrar> }[] = [
  { names: ["validate", "doctor", "start"], load: async () => (await import("./commands/basics.js")).registerBasicCommands },
  { names: ["lab", "windows", "capture", "act"], load: async () => (await import("./commands/desktop.js")).registerDesktopCommands },
  { names: ["db", "store"], load: async () => (await import("./commands/store.js")).registerStoreCommands },
  { names: ["embed", "match"], load: async () => (await import("./commands/embed.js")).registerEmbedCommands },
  { names: ["detect", "locate"], load: async () => (await import("./commands/perception.js")).registerPerceptionCommands },
  { names: ["daemon"], load: async () => (await import("./commands/daemon.js")).registerDaemonCommands },
  { names: ["record", "build", "workflow"], load: async () => ((await import("./commands/record.js")).registerRecordCommands as Registrar) },
  { names: ["replay", "report"], load: async () => (await import("./commands/replay.js")).registerReplayCommands },
  { names: ["serve"], load: async () => ((await import("./commands/serve.js")).registerServeCommand as Registrar) },
  { names: ["vlm"], load: async () => (await import("./commands/vlm.js")).registerVlmCommands },
  { names: ["workflow"], load: async () => ((await import("./commands/workflow-patches.js")).registerWorkflowPatchCommands as Registrar) },
  { names: ["run"], load: async () => (await import("./commands/run.js")).registerRunCommand },
  { names: ["secret"], load: async () => (await import("./commands/secret.js")).registerSecretCommands },
  { names: ["gc"], load: async () => ((await import("./commands/gc.js")).registerGcCommand as Registrar) },
];

/** The top-level command `argv` names: its first word that is neither an option nor a global option's value. */
export function commandNamed(program: Command, argv: readonly string[]): string | undefined {
  const takesValue = new Set(program.options.filter((o) => o.required || o.optional).flatMap((o) => [o.long, o.short].filter((n): n is string => !!n)));
  for (let i = 2; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--") return argv[i + 1];
    if (a.startsWith("-")) {
      if (takesValue.has(a)) i++;
      continue;
    }
    return a;
  }
  return undefined;
}

function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };
  return pkg.version;
}

export async function buildProgram(io: Io, setExit: (code: number) => void, argv: readonly string[] = []): Promise<Command> {
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

  // Only the module of the command named is loaded (a command's start is most of what a short one
  // costs); --help, a typo or no command load them all, --version none.
  const wanted = commandNamed(program, argv);
  const modules = COMMAND_MODULES.filter((m) => wanted !== undefined && m.names.includes(wanted));
  const versionOnly = wanted === undefined && argv.some((a) => a === "-V" || a === "--version");
  if (!versionOnly) for (const m of modules.length ? modules : COMMAND_MODULES) (await m.load())(program, io, setExit);
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
  const program = await buildProgram(io, (c) => (code = Math.max(code, c)), argv);
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
