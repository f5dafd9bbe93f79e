// Replay success per task × perturbation, per-step overhead and steps per minute; in the same run,
// the same demonstrations recorded and replayed by cnee (Debian xnee) as the coordinate baseline.
//   npm run bench -- replay        (RPAV_BENCH_TASKS=yad-patient,… RPAV_BENCH_CELLS=moved,dark,…)
// Brings its own lab up on display :95 and down again. Oracles read the apps' real output.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { X11WindowInfo } from "../../src/platform/x11/x11-window-info.js";
import { replayWorkflow } from "../../src/cli/commands/replay.js";
import { runCommand, sleep } from "../../src/core/process.js";
import { labDown, labUp, type AppVariant } from "../../src/platform/x11/desktop-lab.js";
import { REPLAY_TASKS, type ReplayTask, type TaskData, type TaskRun } from "../../src/lab/replay-tasks.js";
import { X11XTestInputDriver } from "../../src/platform/x11/x11-xtest-input-driver.js";
import { readTrace } from "../../src/replay/trace.js";
import { percentile, round, writeResult } from "../lib.js";

interface Cell {
  name: string;
  variant: AppVariant;
  move: boolean;
  newData: boolean;
}
const CELLS: Cell[] = [
  { name: "moved", variant: {}, move: true, newData: false },
  { name: "dark", variant: { theme: "dark" }, move: false, newData: false },
  { name: "gdk-scale-2", variant: { scale: 2 }, move: false, newData: false },
  { name: "dpi-scale-1.5", variant: { textScale: 1.5 }, move: false, newData: false },
  { name: "new-data", variant: {}, move: false, newData: true },
];
const taskFilter = process.env.RPAV_BENCH_TASKS?.split(",");
const cellFilter = process.env.RPAV_BENCH_CELLS?.split(",");
const tasks = REPLAY_TASKS.filter((t) => !taskFilter || taskFilter.includes(t.name));
const cells = CELLS.filter((c) => !cellFilter || cellFilter.includes(c.name));

const DISPLAY = 95;
const lab = await labUp({ display: DISPLAY, stateDir: "/tmp/rpav-bench-lab" });
const env = { ...process.env, ...lab.env };
const windows = new X11WindowInfo({ env });
const dataDir = mkdtempSync(join(tmpdir(), "rpav-bench-replay-"));
const demoPath = (t: ReplayTask) => new URL(`../../demos/${t.name}/workflow.json`, import.meta.url).pathname;

async function startCell(task: ReplayTask, cell: Cell, data: TaskData): Promise<TaskRun> {
  const run = await task.start({ env }, windows, cell.variant, data);
  if (cell.move) await runCommand("xdotool", ["windowmove", run.app.window.id, "60", "40"], { env });
  await sleep(800);
  return run;
}

interface Outcome {
  task: string;
  cell: string;
  ok: boolean;
  got: string;
  want: string;
  ms: number;
  steps?: number;
  overheads?: number[];
  error?: string;
}

async function ours(task: ReplayTask, cell: Cell): Promise<Outcome> {
  const data = cell.newData ? task.rows[0]! : task.recorded;
  const run = await startCell(task, cell, data);
  const t0 = performance.now();
  try {
    const r = await replayWorkflow({ workflowPath: demoPath(task), vars: { ...data } }, env, dataDir, () => undefined);
    const ms = performance.now() - t0;
    const got = await run.observe();
    const want = task.expected(data);
    const afters = readTrace(r.runDir).events.filter((e) => e.type === "after");
    const failed = afters.find((e) => e.type === "after" && e.status === "failed");
    return { task: task.name, cell: cell.name, ok: got === want && r.status === "passed", got, want, ms, steps: afters.length, overheads: afters.map((e) => (e.type === "after" ? e.overhead_ms : 0)), ...(failed?.type === "after" && failed.error ? { error: failed.error.message } : {}) };
  } finally {
    await run.stop();
  }
}

/** Records the demonstration with cnee (X events, screen coordinates), once per task. */
async function cneeRecord(task: ReplayTask): Promise<string> {
  const file = join(dataDir, `${task.name}.xnl`);
  const run = await task.start({ env }, windows, {}, task.recorded);
  const input = new X11XTestInputDriver({ env, speed: 2 });
  const rec = spawn("cnee", ["--record", "--mouse", "--keyboard", "-o", file, "-e", `${file}.log`, "--stop-key", "F12"], { env, stdio: "ignore" });
  const done = new Promise<void>((resolve) => rec.once("exit", () => resolve()));
  try {
    await sleep(1500);
    await windows.activate(run.app.window.id);
    await task.demonstrate(run, input, env, task.recorded, windows);
    await run.observe();
    await input.key("F12");
    await Promise.race([done, sleep(5000).then(() => rec.kill("SIGINT"))]);
    await done;
  } finally {
    await input.close();
    await run.stop();
  }
  return file;
}

async function cneeReplay(task: ReplayTask, cell: Cell, file: string): Promise<Outcome> {
  const data = task.recorded; // cnee replays the recorded keystrokes: it has no variables
  const want = task.expected(cell.newData ? task.rows[0]! : data);
  const run = await startCell(task, cell, cell.newData ? task.rows[0]! : data);
  const t0 = performance.now();
  try {
    const p = spawn("cnee", ["--replay", "-f", file, "--no-synchronise", "--force-replay", "-e", `${file}.replay.log`], { env, stdio: "ignore" });
    await Promise.race([new Promise((r) => p.once("exit", r)), sleep(120_000).then(() => p.kill("SIGKILL"))]);
    const ms = performance.now() - t0;
    const got = await Promise.race([run.observe(), sleep(12_000).then(() => "(no output)")]);
    return { task: task.name, cell: cell.name, ok: got === want, got, want, ms };
  } finally {
    await run.stop();
  }
}

const oursOut: Outcome[] = [];
const cneeOut: Outcome[] = [];
try {
  for (const task of tasks) {
    for (const cell of cells) {
      const o = await ours(task, cell).catch((e: Error) => ({ task: task.name, cell: cell.name, ok: false, got: "", want: "", ms: 0, error: e.message }) as Outcome);
      oursOut.push(o);
      console.log(`rpav  ${task.name.padEnd(20)} ${cell.name.padEnd(14)} ${o.ok ? "ok  " : "FAIL"} ${(o.ms / 1000).toFixed(1)} s${o.ok ? "" : `  got ${JSON.stringify(o.got)}${o.error ? ` — ${o.error}` : ""}`}`);
    }
    const file = await cneeRecord(task).catch((e: Error) => (console.log(`cnee  ${task.name}: recording failed: ${e.message}`), undefined));
    if (!file) continue;
    for (const cell of cells) {
      const o = await cneeReplay(task, cell, file).catch((e: Error) => ({ task: task.name, cell: cell.name, ok: false, got: "", want: "", ms: 0, error: e.message }) as Outcome);
      cneeOut.push(o);
      console.log(`cnee  ${task.name.padEnd(20)} ${cell.name.padEnd(14)} ${o.ok ? "ok  " : "FAIL"} ${(o.ms / 1000).toFixed(1)} s${o.ok ? "" : `  got ${JSON.stringify(o.got).slice(0, 80)}`}`);
    }
  }
} finally {
  await labDown({ display: DISPLAY, stateDir: "/tmp/rpav-bench-lab", quiet: true });
  rmSync(dataDir, { recursive: true, force: true });
}

const rate = (xs: Outcome[]) => (xs.length ? round(xs.filter((x) => x.ok).length / xs.length, 3) : NaN);
const overheads = oursOut.flatMap((o) => o.overheads ?? []).sort((a, b) => a - b);
const steps = oursOut.reduce((s, o) => s + (o.steps ?? 0), 0);
const minutes = oursOut.reduce((s, o) => s + o.ms, 0) / 60000;
const table: Record<string, Record<string, string>> = {};
for (const o of oursOut) (table[o.task] ??= {})[o.cell] = `${o.ok ? "ok" : "FAIL"}${cneeOut.find((c) => c.task === o.task && c.cell === o.cell)?.ok ? " / cnee ok" : " / cnee FAIL"}`;
console.log("\nrpav / cnee per task × perturbation:");
console.table(table);
console.log(`rpav success ${rate(oursOut)} (${oursOut.filter((o) => o.ok).length}/${oursOut.length}); cnee success ${rate(cneeOut)} (${cneeOut.filter((o) => o.ok).length}/${cneeOut.length})`);
console.log(`per-step overhead (perception + grounding + checks, without human-like delays): median ${percentile(overheads, 50)} ms, p95 ${percentile(overheads, 95)} ms over ${overheads.length} steps; ${round(steps / minutes, 1)} steps/min`);
writeResult("replay", {
  rpav: { success_rate: rate(oursOut), cells: oursOut.map(({ overheads: _o, ...rest }) => rest), overhead_median_ms: percentile(overheads, 50), overhead_p95_ms: percentile(overheads, 95), steps_per_minute: round(steps / minutes, 1) },
  cnee: { success_rate: rate(cneeOut), cells: cneeOut },
});
