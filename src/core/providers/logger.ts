// The structured logger every layer receives (constructor or deps), pino-compatible: levelled
// calls with an object of fields first (run_id, step, score…) and a message. The library is silent
// unless one is injected (`silentLogger()`); the CLI injects pino (src/cli/logger.ts).
export type LogLevel = "trace" | "debug" | "info" | "warn" | "error" | "fatal" | "silent";
export const LOG_LEVELS: readonly LogLevel[] = ["trace", "debug", "info", "warn", "error", "fatal", "silent"];

export interface LogFn {
  (fields: Record<string, unknown>, msg?: string): void;
  (msg: string): void;
}

export interface Logger {
  trace: LogFn;
  debug: LogFn;
  info: LogFn;
  warn: LogFn;
  error: LogFn;
  /** A logger that adds `bindings` to every line (run_id, step…). */
  child(bindings: Record<string, unknown>): Logger;
}

/** A logger that writes nothing (the library's default). */
export function silentLogger(): Logger {
  const nop: LogFn = () => undefined;
  const self: Logger = { trace: nop, debug: nop, info: nop, warn: nop, error: nop, child: () => self };
  return self;
}
