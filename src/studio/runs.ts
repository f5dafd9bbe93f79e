// The runs the studio shows: every run folder under <data dir>/runs and every run the store knows
// (its run_dir may lie elsewhere, `rpav replay --report <dir>`), read from their trace_v1 only.
import { existsSync, readdirSync, statSync } from "node:fs";
import { hostname } from "node:os";
import { join, resolve } from "node:path";
import { pidAlive } from "../core/process.js";
import type { RunRecord, Store } from "../core/providers/store.js";
import type { TraceEvent } from "../core/schemas/trace.js";
import { readTrace, TRACE_FILE, type ReadTrace } from "../replay/trace.js";

export type RunStatus = "passed" | "failed" | "unverified" | "running" | "interrupted" | "unfinished";

/** Whether the process that runs a run is still there (`start`: its start time, when recorded); undefined when this machine cannot tell (another host, no pid). */
export type ProcessProbe = (pid: number, host: string, start?: string) => boolean | undefined;

/** Signal 0 to the pid on this host: ESRCH means gone, EPERM alive (another user's). The CLI passes one that also compares start times. */
export const localProcessProbe: ProcessProbe = (pid, host) => {
  if (host !== hostname() || !Number.isInteger(pid) || pid <= 0) return undefined;
  return pidAlive(pid);
};

/**
 * A run the store still calls "running": running while its process lives; "interrupted" once the
 * process named in its record (pid and host, written by the replay when it starts) is gone.
 * Records of older runs name no process: they stay "running".
 */
function liveStatus(record: RunRecord, probe: ProcessProbe): "running" | "interrupted" {
  const pid = record.document?.pid;
  const host = record.document?.host;
  if (typeof pid !== "number" || typeof host !== "string") return "running";
  const start = record.document?.pid_start;
  return probe(pid, host, typeof start === "string" ? start : undefined) === false ? "interrupted" : "running";
}

export interface RunSummary {
  runId: string;
  dir: string;
  workflowId: string;
  workflowName: string;
  startedAt: string;
  status: RunStatus;
  durationMs: number | null;
  rows: number;
  /** Step attempts that passed / failed. */
  passed: number;
  failed: number;
  /** The first error of the run, for the list. */
  error: string | null;
}

export interface RunEntry {
  summary: RunSummary;
  trace: ReadTrace;
}

function summarize(trace: ReadTrace, record: RunRecord | undefined, probe: ProcessProbe): RunSummary {
  const end = trace.events.filter((e): e is Extract<TraceEvent, { type: "run_end" }> => e.type === "run_end").at(-1);
  const afters = trace.events.filter((e): e is Extract<TraceEvent, { type: "after" }> => e.type === "after");
  const firstError = afters.find((a) => a.error)?.error;
  return {
    runId: trace.run.run_id,
    dir: trace.dir,
    workflowId: trace.run.workflow_id,
    workflowName: trace.run.workflow_name,
    startedAt: trace.run.t,
    status: end ? end.status : record?.status === "running" ? liveStatus(record, probe) : "unfinished",
    durationMs: end?.duration_ms ?? null,
    rows: trace.run.rows.length,
    passed: afters.filter((a) => a.status === "passed").length,
    failed: afters.filter((a) => a.status === "failed").length,
    error: firstError ? `${firstError.code}: ${firstError.message}` : null,
  };
}

export class RunIndex {
  /** Traces already read, by folder, with the size and time of their file then. */
  private readonly cache = new Map<string, { size: number; mtimeMs: number; trace: ReadTrace }>();

  constructor(
    private readonly dataDir: string,
    private readonly store: Store,
    private readonly probe: ProcessProbe = localProcessProbe,
  ) {}

  /** Run folders known to the store and under <data dir>/runs, each once. */
  private async folders(): Promise<Map<string, RunRecord | undefined>> {
    const dirs = new Map<string, RunRecord | undefined>();
    const runsDir = join(this.dataDir, "runs");
    if (existsSync(runsDir))
      for (const name of readdirSync(runsDir)) if (existsSync(join(runsDir, name, TRACE_FILE))) dirs.set(resolve(runsDir, name), undefined);
    for (const wf of await this.store.listWorkflows())
      for (const r of await this.store.runsOfWorkflow(wf.workflowId)) {
        const dir = typeof r.document?.run_dir === "string" ? resolve(r.document.run_dir) : undefined;
        if (dir && existsSync(join(dir, TRACE_FILE))) dirs.set(dir, r);
      }
    return dirs;
  }

  /** Every readable run, newest first; unreadable traces are listed in `broken`. */
  async list(): Promise<{ runs: RunEntry[]; broken: { dir: string; message: string }[] }> {
    const runs: RunEntry[] = [];
    const broken: { dir: string; message: string }[] = [];
    const seen = new Set<string>();
    for (const [dir, record] of await this.folders()) {
      try {
        const trace = this.read(dir);
        if (seen.has(trace.run.run_id)) continue;
        seen.add(trace.run.run_id);
        runs.push({ summary: summarize(trace, record, this.probe), trace });
      } catch (e) {
        broken.push({ dir, message: (e as Error).message });
      }
    }
    runs.sort((a, b) => b.summary.startedAt.localeCompare(a.summary.startedAt));
    return { runs, broken };
  }

  /** A run's trace, read again only when its file changed. */
  private read(dir: string): ReadTrace {
    const st = statSync(join(dir, TRACE_FILE));
    const hit = this.cache.get(dir);
    if (hit && hit.size === st.size && hit.mtimeMs === st.mtimeMs) return hit.trace;
    const trace = readTrace(dir);
    this.cache.set(dir, { size: st.size, mtimeMs: st.mtimeMs, trace });
    return trace;
  }

  async get(runId: string): Promise<RunEntry | undefined> {
    return (await this.list()).runs.find((r) => r.summary.runId === runId);
  }

  /** The run of the same workflow that started last before `runId`. */
  async previous(runId: string): Promise<RunEntry | undefined> {
    const { runs } = await this.list();
    const me = runs.find((r) => r.summary.runId === runId);
    if (!me) return undefined;
    return runs.find((r) => r.summary.workflowId === me.summary.workflowId && r.summary.startedAt < me.summary.startedAt);
  }
}
