// Surprise matrix for the decision actor: the recorded yad form task (demos/yad-patient, an old
// workflow: expectations derived at load) × {no surprise, unexpected dialog, field already filled,
// field half filled, window minimised, app not started, slow window, focus stolen} × data rows,
// with the actor and with --no-actor. Judged by yad's own output (what it prints on OK) and the
// dialog's exit code — never by the screen. Prints a table and writes bench/results/actor.json.
//   nice -n 10 npx tsx bench/actor/run.ts   (RPAV_BENCH_DISPLAY=84, RPAV_BENCH_ROWS=1, RPAV_BENCH_SURPRISES=dialog,filled)
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { replayWorkflow } from "../../src/cli/commands/replay.js";
import type { Workflow } from "../../src/core/schemas/workflow.js";
import { labUp } from "../../src/platform/x11/desktop-lab.js";
import { YAD_PATIENT } from "../../src/lab/replay-tasks.js";
import { expectedOutput, prepareRow, SURPRISES, type FormRow, type Surprise } from "../../src/lab/surprises.js";
import { X11WindowInfo } from "../../src/platform/x11/x11-window-info.js";
import { readTrace } from "../../src/replay/trace.js";
import { percentile, round, writeResult } from "../lib.js";
import { writeFileSync, mkdirSync } from "node:fs";

const DISPLAY = Number(process.env.RPAV_BENCH_DISPLAY ?? 84);
const nRows = Number(process.env.RPAV_BENCH_ROWS ?? 1);
const only = process.env.RPAV_BENCH_SURPRISES?.split(",");
const surprises = SURPRISES.filter((s) => !only || only.includes(s));
const rows = (YAD_PATIENT.rows as unknown as FormRow[]).slice(0, nRows);
const lab = await labUp({ display: DISPLAY, stateDir: `/tmp/rpav-bench-actor-lab-${DISPLAY}` });
const env = { ...process.env, ...lab.env };
const windows = new X11WindowInfo({ env });
const dataDir = mkdtempSync(join(tmpdir(), "rpav-bench-actor-"));
const demoPath = new URL("../../demos/yad-patient/workflow.json", import.meta.url).pathname;
const demo = JSON.parse(readFileSync(demoPath, "utf8")) as Workflow;

interface Cell {
  surprise: Surprise;
  mode: "actor" | "plain";
  row: number;
  success: boolean;
  claimed: string;
  wrong_action: boolean;
  output: string;
  dialog_exit?: number | null;
  decisions: string[];
  compare_ms: number[];
  overhead_ms: number[];
  seconds: number;
}
const cells: Cell[] = [];
const total = surprises.length * rows.length * 2;
for (const s of surprises)
  for (const [i, row] of rows.entries())
    for (const mode of ["actor", "plain"] as const) {
      const t0 = performance.now();
      const prepared = await prepareRow(s, demo, row, { env }, windows);
      let file = demoPath;
      if (prepared.workflow !== demo) {
        const dir = join(dataDir, `wf-${s}-${i}-${mode}`);
        mkdirSync(dir, { recursive: true });
        file = join(dir, "workflow.json");
        writeFileSync(file, JSON.stringify(prepared.workflow));
      }
      let status = "error";
      let runDir = "";
      try {
        const r = await replayWorkflow({ workflowPath: file, vars: { ...row }, runDir: join(dataDir, `${s}-${i}-${mode}`), ...(mode === "plain" ? { noActor: true } : {}), maxAttempts: 2 }, env, dataDir, () => undefined);
        status = r.status;
        runDir = r.runDir;
      } catch (e) {
        status = `error: ${(e as Error).message.slice(0, 80)}`;
      }
      const judged = await prepared.finish();
      const want = expectedOutput(row);
      // Success is the task's own output; a dialog left open is reported apart (dialog_exit null), its "Installer" answer is a wrong action.
      const success = judged.output === want && judged.dialogExit !== 0;
      // A wrong action: something the task should not change was changed — a field holding other
      // text than its value (typed twice, appended), or the dialog answered with its non-safe button.
      const wrong = (judged.output !== "" && judged.output !== want) || judged.dialogExit === 0;
      const trace = runDir ? readTrace(runDir) : undefined;
      const befores = trace?.events.filter((e) => e.type === "before") ?? [];
      const afters = trace?.events.filter((e) => e.type === "after") ?? [];
      const cell: Cell = {
        surprise: s, mode, row: i, success, claimed: status, wrong_action: wrong, output: judged.output, ...(judged.dialogExit !== undefined ? { dialog_exit: judged.dialogExit } : {}),
        decisions: trace?.events.flatMap((e) => (e.type === "decision" ? [`${e.step_id}:${e.decision.kind}${e.decision.chosen && e.decision.chosen !== e.decision.kind ? `/${e.decision.chosen}` : ""}`] : [])).filter((d) => !d.endsWith(":execute")) ?? [],
        compare_ms: befores.map((b) => (b.type === "before" ? (b.timings.compare_ms ?? 0) + (b.timings.match_ms ?? 0) : 0)),
        overhead_ms: afters.map((a) => (a.type === "after" ? a.overhead_ms : 0)),
        seconds: round((performance.now() - t0) / 1000, 1),
      };
      cells.push(cell);
      process.stderr.write(`[${cells.length}/${total}] ${s.padEnd(12)} ${mode.padEnd(6)} row ${i + 1}: ${success ? "ok  " : "FAIL"} claimed ${status}${wrong ? " WRONG ACTION" : ""} (${cell.seconds} s) ${cell.decisions.join(" ")}\n`);
    }

const by = (mode: string, s?: Surprise) => cells.filter((c) => c.mode === mode && (!s || c.surprise === s));
const rate = (cs: Cell[]) => (cs.length ? round(cs.filter((c) => c.success).length / cs.length, 3) : 0);
const median = (xs: number[]) => (xs.length ? percentile([...xs].sort((a, b) => a - b), 50) : 0);
console.log(`\nsurprise      actor  plain   (success of ${rows.length} row(s) each; wrong actions in brackets)`);
for (const s of surprises) {
  const a = by("actor", s);
  const p = by("plain", s);
  console.log(`${s.padEnd(13)} ${`${a.filter((c) => c.success).length}/${a.length}`.padEnd(6)} ${`${p.filter((c) => c.success).length}/${p.length}`.padEnd(6)}  [${a.filter((c) => c.wrong_action).length} / ${p.filter((c) => c.wrong_action).length}]`);
}
const none = (mode: string) => by(mode, "none");
const summary = {
  command: "nice -n 10 npx tsx bench/actor/run.ts",
  task: "demos/yad-patient (7 steps, recorded before expectations existed: derived at load)",
  rows: rows.length,
  ocr: "PP-OCR (real OCR of the live screen for grounding and read-back)",
  success_actor: rate(by("actor")),
  success_plain: rate(by("plain")),
  wrong_actions_actor: by("actor").filter((c) => c.wrong_action).length,
  wrong_actions_plain: by("plain").filter((c) => c.wrong_action).length,
  false_success_plain: by("plain").filter((c) => !c.success && c.claimed === "passed").length,
  false_success_actor: by("actor").filter((c) => !c.success && c.claimed === "passed").length,
  compare_ms_median_per_step_no_surprise: median(none("actor").flatMap((c) => c.compare_ms)),
  overhead_ms_median_per_step_no_surprise: { actor: median(none("actor").flatMap((c) => c.overhead_ms)), plain: median(none("plain").flatMap((c) => c.overhead_ms)) },
  cells,
};
console.log(`success: actor ${summary.success_actor}, plain ${summary.success_plain}; wrong actions: actor ${summary.wrong_actions_actor}, plain ${summary.wrong_actions_plain}; false "passed": actor ${summary.false_success_actor}, plain ${summary.false_success_plain}`);
console.log(`no surprise, per step: comparison (skip check + matcher) median ${summary.compare_ms_median_per_step_no_surprise} ms; overhead median actor ${summary.overhead_ms_median_per_step_no_surprise.actor} ms vs plain ${summary.overhead_ms_median_per_step_no_surprise.plain} ms`);
console.log(`wrote ${writeResult("actor", summary)}`);
