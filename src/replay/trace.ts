// Run folders: <run>/trace.jsonl (trace_v1, append-only) and <run>/shots/*.png.
import { readBoundedFileSync } from "../core/bounded-read.js";
import { appendFileSync, closeSync, fsyncSync, openSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { InvalidInputError, StoreError } from "../core/errors.js";
import { readDocument } from "../core/schemas/documents.js";
import { TraceEventSchema, type TraceEvent, type TraceEventInput, type TraceRun } from "../core/schemas/trace.js";
import { formatJsonPath } from "../core/schemas/documents.js";
import { makeDirs } from "../core/make-dirs.js";
import { parseUntrustedJson } from "../core/json-safe.js";

export const TRACE_FILE = "trace.jsonl";

export class TraceWriter {
  private shots = 0;

  constructor(readonly dir: string) {
    try {
      makeDirs(join(dir, "shots"), "The run folder");
    } catch (e) {
      if (e instanceof InvalidInputError) throw e;
      throw new StoreError(`Cannot create the run folder ${dir}: ${(e as Error).message}.`, { cause: e, details: { path: dir } });
    }
    // A resumed run goes on numbering after the screenshots already there.
    this.shots = readdirSync(join(dir, "shots")).length;
  }

  /** Appends one event (flushed to disk: a crash keeps every earlier line). */
  append(event: TraceEventInput): void {
    const line = `${JSON.stringify({ t: new Date().toISOString(), ...event })}\n`;
    const path = join(this.dir, TRACE_FILE);
    try {
      const fd = openSync(path, "a");
      try {
        appendFileSync(fd, line);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    } catch (e) {
      throw new StoreError(`Cannot write the trace ${path}: ${(e as Error).message}.`, { cause: e, details: { path } });
    }
  }

  /** Saves a screenshot; returns its path relative to the run folder. */
  putShot(name: string, png: Uint8Array): string {
    const rel = `shots/${String(++this.shots).padStart(4, "0")}-${name.replace(/[^A-Za-z0-9_.-]/g, "_")}.png`;
    try {
      writeFileSync(join(this.dir, rel), png);
    } catch (e) {
      throw new StoreError(`Cannot write the screenshot ${join(this.dir, rel)}: ${(e as Error).message}.`, { cause: e, details: { path: join(this.dir, rel) } });
    }
    return rel;
  }
}

export interface ReadTrace {
  dir: string;
  run: TraceRun;
  events: TraceEvent[];
  /** A last line cut by a crash, ignored. */
  truncatedTail?: string;
}

/** Largest trace read. */
export const MAX_TRACE_BYTES = 256 * 1048576;

/** Reads and validates a run's trace; a newer trace version is a SchemaVersionError naming both. */
export function readTrace(dir: string): ReadTrace {
  const path = join(dir, TRACE_FILE);
  let text: string;
  try {
    text = readBoundedFileSync(path, MAX_TRACE_BYTES).toString("utf8").replace(/^\uFEFF/, "");
  } catch (e) {
    if (e instanceof InvalidInputError && (e.details as { size?: number } | undefined)?.size !== undefined) throw e;
    throw new InvalidInputError(`${dir}: no run trace here (${TRACE_FILE} cannot be read: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}). Give the folder a replay wrote (rpav replay --report <dir>).`, { cause: e, details: { source: path } });
  }
  const lines = text.split("\n");
  let truncatedTail: string | undefined;
  if (lines.at(-1) === "") lines.pop();
  else truncatedTail = lines.pop();
  if (lines.length === 0) throw new InvalidInputError(`${path}: the trace is empty.`, { details: { source: path } });
  let header: unknown;
  try {
    header = parseUntrustedJson(lines[0]!, `${path} line 1`);
  } catch (e) {
    if (e instanceof InvalidInputError) throw e;
    throw new InvalidInputError(`${path}: line 1 is not JSON: ${(e as Error).message}.`, { cause: e, details: { source: path } });
  }
  const run = readDocument(header, `${path} line 1`);
  if (run.version !== "trace_v1") throw new InvalidInputError(`${path}: line 1 is a ${run.version} document, not a trace_v1 run header.`, { details: { source: path } });
  const events: TraceEvent[] = [];
  lines.forEach((l, i) => {
    let value: unknown;
    try {
      value = parseUntrustedJson(l, `${path} line ${i + 1}`);
    } catch (e) {
      if (e instanceof InvalidInputError) throw e;
      throw new InvalidInputError(`${path}: line ${i + 1} is not JSON: ${(e as Error).message}.`, { cause: e, details: { source: path, line: i + 1 } });
    }
    const r = TraceEventSchema.safeParse(value);
    if (!r.success)
      throw new InvalidInputError(`${path}: line ${i + 1} is not a trace_v1 event: ${r.error.issues.map((x) => `${formatJsonPath(x.path)}: ${x.message}`).join("; ")}.`, { details: { source: path, line: i + 1 } });
    events.push(r.data);
  });
  return { dir, run: run.value, events, ...(truncatedTail !== undefined ? { truncatedTail } : {}) };
}

/** Per row: its last status and, when it did not pass, the step to resume from. */
export function rowOutcomes(trace: ReadTrace): { row: number; status: "passed" | "failed" | "skipped" | "unverified" | "not_run"; resumeFrom: number }[] {
  return trace.run.rows.map((_, row) => {
    const evs = trace.events.filter((e) => "row" in e && e.row === row);
    const ends = evs.filter((e) => e.type === "row_end");
    const lastEnd = ends.at(-1);
    const passedSteps = new Set(evs.filter((e) => e.type === "after" && e.status !== "failed").map((e) => (e as { step: number }).step));
    // Resume at the first step not passed (after a crash: the one that was running).
    let resumeFrom = 0;
    while (passedSteps.has(resumeFrom)) resumeFrom++;
    if (lastEnd?.type === "row_end") return { row, status: lastEnd.status, resumeFrom: lastEnd.status === "passed" || lastEnd.status === "unverified" ? trace.run.steps.length : (lastEnd.failed_step ?? resumeFrom) };
    return { row, status: "not_run", resumeFrom: evs.length ? resumeFrom : 0 };
  });
}
