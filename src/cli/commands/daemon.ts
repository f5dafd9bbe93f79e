// `rpav daemon start|run|status|stop`: the detection daemon (src/cli/detect-daemon.ts), which keeps
// the element detector loaded so that `rpav detect` and `rpav locate` start in about a second.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Command } from "commander";
import { InvalidInputError, ProviderUnavailableError } from "../../core/errors.js";
import { defaultDetectorModelDir } from "../../perception/learned-detector.js";
import { resolveDataDir, type GlobalOptions } from "../config.js";
import { acquireDaemonLock, buildKey, daemonInfo, daemonMismatch, daemonLockHolder, DEFAULT_IDLE_MINUTES, daemonLogPath, daemonSocketPath, serveDetectDaemon, spawnDaemon, stopDaemon, waitForDaemon, warmUpFrame } from "../detect-daemon.js";
import type { Logger } from "../../core/providers/logger.js";
import type { DetectorKind } from "../config-file.js";
import type { CliIo } from "./desktop.js";
import { createDetector, DEFAULT_OCR, OCR_NAMES, resolveDetector, screenImageEmbedder } from "./perception.js";

function minutes(v: string): number {
  const n = Number(v);
  if (!(n >= 0) || !Number.isFinite(n)) throw new InvalidInputError(`--idle must be a number of minutes ≥ 0 (0: never stop), got "${v}".`);
  return n;
}

function ocrName(v: string): string {
  if (!OCR_NAMES.includes(v)) throw new InvalidInputError(`--ocr must be one of ${OCR_NAMES.join(", ")}, got "${v}".`);
  return v;
}

function logTail(file: string, lines = 12): string {
  if (!existsSync(file)) return "";
  return readFileSync(file, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
}

export function registerDaemonCommands(program: Command, io: CliIo, setExit: (code: number) => void): void {
  const globals = () => program.opts<GlobalOptions>();
  const daemon = program.command("daemon").description("a background process that keeps the element detector loaded, so that `rpav detect` and `rpav locate` start at once (config.json perception.daemon: on, the default, uses a running one; auto also starts one; off never)");

  daemon
    .command("start")
    .description("start the detection daemon in the background and wait until it answers")
    .option("--detector <name>", "element detector it holds (default: as `rpav detect` would choose)")
    .option("--ocr <name>", "OCR it holds", ocrName, DEFAULT_OCR)
    .option("--idle <minutes>", `stop after this long without a request (0: never)`, minutes, DEFAULT_IDLE_MINUTES)
    .action(async (o: { detector?: string; ocr: string; idle: number }) => {
      const dataDir = resolveDataDir(globals(), io.env);
      const detector = resolveDetector(dataDir, io.env, o.detector);
      const want = { detector, ocr: o.ocr, build: buildKey(defaultDetectorModelDir()) };
      const running = await daemonInfo(dataDir);
      if (running) {
        const why = daemonMismatch(running, want);
        if (why) throw new InvalidInputError(`A detection daemon already runs for ${dataDir} (pid ${running.pid}) but commands would not use it: ${why}. Stop it first: rpav daemon stop.`, { details: { pid: running.pid } });
        io.out(`the detection daemon already runs (pid ${running.pid}, ${running.detector} detector, ${running.ocr} OCR)\n`);
        return;
      }
      // One starting already (another start, or a command in "auto" mode): wait for it.
      const starting = daemonLockHolder(dataDir);
      if (starting === undefined) io.err(`starting the detection daemon (loading the ${detector} detector and ${o.ocr} OCR)…\n`);
      else io.err(`a detection daemon is starting (pid ${starting}): waiting for it…\n`);
      const pid = starting ?? spawnDaemon({ dataDir, detector, ocr: o.ocr, idleMinutes: o.idle, env: io.env });
      const info = await waitForDaemon(dataDir, pid, 180_000);
      if (info && starting !== undefined) {
        const why = daemonMismatch(info, want);
        if (why) throw new InvalidInputError(`The detection daemon that was starting (pid ${info.pid}) is one commands here would not use: ${why}. Stop it first: rpav daemon stop.`, { details: { pid: info.pid } });
      }
      if (!info) {
        const log = daemonLogPath(dataDir);
        throw new ProviderUnavailableError(`The detection daemon did not start (pid ${pid}). Its log, ${log}:\n${logTail(log)}\nCommands still detect in their own process.`, { details: { log } });
      }
      io.out(`detection daemon ready: pid ${info.pid}, ${info.detector} detector, ${info.ocr} OCR; ${o.idle > 0 ? `stops after ${o.idle} min without a request` : "runs until stopped"} (rpav daemon stop)\n`);
    });

  daemon
    .command("run")
    .description("run the detection daemon in this process, in the foreground (for a service manager); Ctrl-C stops it")
    .option("--detector <name>", "element detector it holds (default: as `rpav detect` would choose)")
    .option("--ocr <name>", "OCR it holds", ocrName, DEFAULT_OCR)
    .option("--idle <minutes>", "stop after this long without a request (0: never)", minutes, 0)
    .action(async (o: { detector?: string; ocr: string; idle: number }) => {
      const dataDir = resolveDataDir(globals(), io.env);
      const detector = resolveDetector(dataDir, io.env, o.detector);
      const logger = io.logger?.();
      // Before loading anything: a second daemon started at the same moment stops here.
      const lock = acquireDaemonLock(dataDir);
      if ("heldBy" in lock) throw new InvalidInputError(`A detection daemon is already starting or running for ${dataDir} (pid ${lock.heldBy}); see rpav daemon status, or stop it: rpav daemon stop.`, { details: { pid: lock.heldBy } });
      try {
        await serveUntilStopped(dataDir, detector, o, io, logger);
      } finally {
        lock.release();
      }
    });

  daemon
    .command("status")
    .description("say whether a detection daemon runs for this data folder, and whether commands here use it")
    .option("--json", "print the daemon's identity as JSON (null when none runs)")
    .action(async (o: { json?: boolean }) => {
      const dataDir = resolveDataDir(globals(), io.env);
      const info = await daemonInfo(dataDir);
      const why = info ? daemonMismatch(info, { detector: resolveDetector(dataDir, io.env), ocr: DEFAULT_OCR, build: buildKey(defaultDetectorModelDir()) }) : undefined;
      if (o.json) io.out(`${JSON.stringify(info ? { ...info, socket: daemonSocketPath(dataDir), used_by_default: !why, ...(why ? { not_used_because: why } : {}) } : null, null, 2)}\n`);
      else if (!info) io.out(`no detection daemon runs for ${dataDir} (start one: rpav daemon start)\n`);
      else io.out(`detection daemon pid ${info.pid} since ${info.started_at}: ${info.detector} detector, ${info.ocr} OCR, ${info.served} detections served; ${why ? `not used by default commands: ${why}` : "used by rpav detect and rpav locate"}\n`);
      if (!info) setExit(1);
    });

  daemon
    .command("stop")
    .description("stop the detection daemon of this data folder")
    .action(async () => {
      const dataDir = resolveDataDir(globals(), io.env);
      const info = await daemonInfo(dataDir);
      if (!info) {
        // Still loading its engines (it answers nothing yet): ended by a signal.
        const starting = daemonLockHolder(dataDir);
        if (starting !== undefined) {
          process.kill(starting, "SIGTERM");
          io.out(`detection daemon pid ${starting} stopped while starting\n`);
        } else io.out(`no detection daemon runs for ${dataDir}\n`);
        return;
      }
      if (!(await stopDaemon(dataDir))) throw new ProviderUnavailableError(`The detection daemon (pid ${info.pid}) did not answer the stop request; end it with: kill ${info.pid}`);
      // It has stopped once its socket is gone.
      const until = Date.now() + 10_000;
      while (existsSync(daemonSocketPath(dataDir)) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      io.out(`detection daemon pid ${info.pid} stopped\n`);
    });
}

/** The daemon in this process until it is stopped (idle, rpav daemon stop, a signal). */
async function serveUntilStopped(dataDir: string, detector: DetectorKind, o: { ocr: string; idle: number }, io: CliIo, logger: Logger | undefined): Promise<void> {
  const parts = await createDetector({ ocr: o.ocr, detector }, join(dataDir, "cache", "ocr"), false, { ...(logger ? { logger } : {}), failureDir: join(dataDir, "failures") });
  const embedder = screenImageEmbedder();
  let server;
  try {
    // The first detection of a process is several times slower than the next: made here, before answering.
    const t = performance.now();
    try {
      const frame = await warmUpFrame();
      await parts.detector.detect(frame);
      await embedder.embed(frame);
      io.out(`${new Date().toISOString()} warmed up in ${Math.round(performance.now() - t)} ms\n`);
    } catch (e) {
      io.out(`${new Date().toISOString()} warm-up detection failed (${(e as Error).message}); the first command served will be slower\n`);
    }
    server = await serveDetectDaemon({ dataDir, detector: parts.detector, embedders: [embedder], identity: { build: buildKey(defaultDetectorModelDir()), detector, ocr: o.ocr, idle_minutes: o.idle }, idleMs: o.idle * 60_000, ...(logger ? { logger } : {}) });
  } catch (e) {
    await parts.close();
    throw e;
  }
  const stop = () => void server.close();
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
  io.out(`${new Date().toISOString()} detection daemon pid ${process.pid} listening on ${server.socket} (${detector} detector, ${o.ocr} OCR)\n`);
  await server.stopped;
  process.off("SIGTERM", stop);
  process.off("SIGINT", stop);
  await parts.close();
  io.out(`${new Date().toISOString()} detection daemon pid ${process.pid} stopped\n`);
}
