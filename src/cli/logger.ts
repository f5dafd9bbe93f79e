// The CLI's logger: pino, levelled by --log-level, else $RPAV_LOG, else "warn"; readable lines on
// stderr through pino-pretty, or JSON lines with $RPAV_LOG_FORMAT=json (for log collectors).
import pino from "pino";
import { createRequire } from "node:module";
import type PinoPretty from "pino-pretty";
import { InvalidInputError } from "../core/errors.js";
import { LOG_LEVELS, type Logger, type LogLevel } from "../core/providers/logger.js";

export function logLevel(option: string | undefined, env: NodeJS.ProcessEnv): LogLevel {
  const v = (option ?? env.RPAV_LOG ?? "warn").trim().toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(v))
    throw new InvalidInputError(`${option !== undefined ? "--log-level" : "RPAV_LOG"} must be one of ${LOG_LEVELS.join(", ")}, got "${v}".`);
  return v as LogLevel;
}

export function createCliLogger(level: LogLevel, env: NodeJS.ProcessEnv, fd = 2): Logger {
  if (level === "silent") return pino({ level: "silent" });
  if (env.RPAV_LOG_FORMAT === "json") return pino({ level, base: { name: "rpav" } }, pino.destination({ fd, sync: true }));
  return pino({ level }, prettyOnFirstLine(fd));
}

const requireLazy = createRequire(import.meta.url);

/** pino-pretty takes ~0.1 s to load: loaded when the first line is logged, not by every command. */
function prettyOnFirstLine(fd: number): pino.DestinationStream {
  let stream: pino.DestinationStream | undefined;
  return {
    write(line: string) {
      stream ??= (requireLazy("pino-pretty") as typeof PinoPretty)({ destination: fd, sync: true, colorize: false, translateTime: "HH:MM:ss.l", ignore: "pid,hostname" });
      stream.write(line);
    },
  };
}
