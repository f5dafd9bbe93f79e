// Which process runs a run: its pid, the host, and on Linux the process's start time (clock ticks
// after boot, field 22 of /proc/<pid>/stat), so that a pid reused by another process after a
// kill -9 is not taken for the run's.
import { readFileSync } from "node:fs";
import { hostname } from "node:os";
import { pidAlive } from "../core/process.js";
import type { ProcessProbe } from "../studio/runs.js";

/** The start time of a process, or undefined where /proc does not tell (not Linux, gone). */
export function processStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) is in parentheses and may hold spaces: count from the last ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return fields[19]; // field 22 of the whole line
  } catch {
    return undefined;
  }
}

/** What a replay writes into its store record while it runs. */
export function runningProcess(): { pid: number; host: string; pid_start?: string } {
  const start = processStart(process.pid);
  return { pid: process.pid, host: hostname(), ...(start ? { pid_start: start } : {}) };
}

/** Alive: the pid answers signal 0 on this host and, when the record has a start time, it is the same process. */
export const procProcessProbe: ProcessProbe = (pid, host, start) => {
  if (host !== hostname() || !Number.isInteger(pid) || pid <= 0) return undefined;
  if (!pidAlive(pid)) return false;
  if (start === undefined) return true;
  const now = processStart(pid);
  return now === undefined ? true : now === start;
};
