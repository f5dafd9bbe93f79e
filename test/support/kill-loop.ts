// Crash safety (#20 item 7): `rpav record` and `rpav replay` killed with SIGKILL at seeded random
// moments on a real app (a yad form under the lab's Xvfb), then what they left is read back by
// the project's readers and commands: the session reader and `rpav build`; the trace reader,
// `rpav report` and `rpav replay --resume`. Shared by test/lab/crash-safety.test.ts (a few kills)
// and bench/crash-safety/run.ts (twenty and more).
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { isRpaError } from "../../src/core/errors.js";
import { sleep } from "../../src/core/process.js";
import type { Random } from "../../src/core/bezier-path.js";
import { readSession } from "../../src/record/session.js";
import { readTrace, rowOutcomes } from "../../src/replay/trace.js";
import { ROOT } from "./cli.js";

const RPAV = `${ROOT}bin/rpav.js`;
export const DEMO_WORKFLOW = `${ROOT}demos/yad-patient/workflow.json`;
export const DEMO_ROW = { nom: "Durand", prenom: "Aïcha", date_de_naissance: "04/07/1990" };
const FORM_TITLE = "Nouveau patient";
/** What the demo's `--before-row` opens: the form the workflow was recorded on. */
export const DEMO_BEFORE_ROW = `yad --form '--title=${FORM_TITLE}' --width=640 --field=Nom '--field=Prénom' '--field=Date de naissance' '' '' '' >/dev/null 2>&1 &`;

function xdo(env: NodeJS.ProcessEnv, args: string[]): string {
  return spawnSync("xdotool", args, { env, encoding: "utf8", timeout: 10_000 }).stdout ?? "";
}

/** Ends the form windows left open (by the pid of each window, never by name). */
export function closeForms(env: NodeJS.ProcessEnv): void {
  for (const id of xdo(env, ["search", "--name", FORM_TITLE]).split("\n").filter(Boolean)) {
    const pid = Number(xdo(env, ["getwindowpid", id]).trim());
    if (pid > 1) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
  }
}

function startRpav(env: NodeJS.ProcessEnv, dataDir: string, args: string[]): { child: ChildProcess; err: () => string } {
  const chunks: string[] = [];
  const child = spawn(process.execPath, [RPAV, "--data-dir", dataDir, ...args], { env: { ...env, RPAV_HOME: dataDir }, stdio: ["ignore", "pipe", "pipe"] });
  child.stderr!.on("data", (d: Buffer) => chunks.push(d.toString()));
  child.stdout!.on("data", (d: Buffer) => chunks.push(d.toString()));
  return { child, err: () => chunks.join("") };
}

function rpavSync(env: NodeJS.ProcessEnv, dataDir: string, args: string[], timeoutMs: number) {
  const r = spawnSync(process.execPath, [RPAV, "--data-dir", dataDir, ...args], { env: { ...env, RPAV_HOME: dataDir }, encoding: "utf8", timeout: timeoutMs });
  return { code: r.status, signal: r.signal, out: `${r.stdout ?? ""}${r.stderr ?? ""}` };
}

const typedExit = (r: { code: number | null; out: string }) => (r.code === 0 || r.code === 1) && !/internal error|\n\s+at .+:\d+:\d+/.test(r.out);

/** SIGKILL after `ms`, or as soon as `ready()` holds (polled), whichever comes first; false when the process ended before. */
async function killAt(child: ChildProcess, ms: number, ready?: () => boolean): Promise<boolean> {
  let ended = false;
  const exited = new Promise<void>((r) => child.once("exit", () => ((ended = true), r())));
  const due = Date.now() + ms;
  while (!ended && Date.now() < due && !(ready?.() ?? false)) await Promise.race([sleep(25), exited]);
  if (ended) return false;
  child.kill("SIGKILL");
  await exited;
  return true;
}

/** Lines written to a file so far (0 when it does not exist yet). */
function linesOf(file: string): number {
  try {
    return readFileSync(file, "utf8").split("\n").filter((l) => l.trim()).length;
  } catch {
    return 0;
  }
}

export interface RecordTrial {
  killAfterMs: number;
  killed: boolean;
  /** The session folder holds a session.jsonl (the kill may come before the header is written). */
  left: boolean;
  readerOk: boolean;
  readerError?: string;
  actions: number;
  truncatedTail: boolean;
  /** Actions the recorder announced on stderr (written and flushed) that the session lacks. */
  lostAnnounced: number;
  /** `rpav validate <session folder>`: exit 0. */
  validate?: "ok" | "refused";
  build?: "ok" | "typed" | "crash";
  buildOutput?: string;
}

/**
 * One trial: a fresh form, `rpav record` on it while a person clicks and types, SIGKILL after
 * `killAfterMs` (counted from "recording" on stderr), then the session read back.
 */
export async function recordTrial(env: NodeJS.ProcessEnv, dataDir: string, dir: string, rnd: Random, opts: { killAfterMs: number; build: boolean }): Promise<RecordTrial> {
  const form = spawn("yad", ["--form", "--title=Kill loop", "--width=500", "--field=Nom", "--field=Ville", "", ""], { env, stdio: "ignore" });
  try {
    await sleep(1200);
    const win = xdo(env, ["search", "--sync", "--name", "Kill loop"]).split("\n").filter(Boolean)[0];
    const geo = /Position: (\d+),(\d+).*\n\s*Geometry: (\d+)x(\d+)/s.exec(xdo(env, ["getwindowgeometry", win ?? ""]));
    const [wx, wy, ww, wh] = geo ? [Number(geo[1]), Number(geo[2]), Number(geo[3]), Number(geo[4])] : [100, 100, 400, 200];
    const rec = startRpav(env, dataDir, ["record", "--name", "kill", "--app", "yad", "--out", dir]);
    const t0 = Date.now();
    while (!rec.err().includes("recording") && Date.now() - t0 < 120_000 && rec.child.exitCode === null) await sleep(100);
    // The person: clicks in the form, words typed, Tab, at a human pace, until the kill.
    let stop = false;
    const person = (async () => {
      const words = ["Dupont", "Lyon", "Zoë", "Martin", "Nantes", "Éric"];
      while (!stop) {
        const x = wx + 20 + Math.floor(rnd() * Math.max(1, ww - 40));
        const y = wy + 20 + Math.floor(rnd() * Math.max(1, wh - 60));
        xdo(env, ["mousemove", String(x), String(y), "click", "1"]);
        await sleep(150 + rnd() * 300);
        xdo(env, ["type", "--delay", "40", words[Math.floor(rnd() * words.length)]!]);
        await sleep(200 + rnd() * 400);
        if (rnd() < 0.5) xdo(env, ["key", "Tab"]);
        await sleep(300 + rnd() * 500);
      }
    })();
    const killed = await killAt(rec.child, opts.killAfterMs);
    stop = true;
    await person;
    const announced = [...rec.err().matchAll(/^\s+(\d+)\. (click|drag|type|key|scroll)/gm)].map((m) => Number(m[1]));
    const trial: RecordTrial = { killAfterMs: opts.killAfterMs, killed, left: existsSync(join(dir, "session.jsonl")), readerOk: false, actions: 0, truncatedTail: false, lostAnnounced: 0 };
    if (!trial.left) {
      trial.lostAnnounced = announced.length;
      return trial;
    }
    try {
      const s = readSession(dir);
      trial.readerOk = true;
      trial.actions = s.actions.length;
      trial.truncatedTail = s.truncatedTail !== undefined;
      const seqs = new Set(s.actions.map((a) => a.seq));
      trial.lostAnnounced = announced.filter((n) => !seqs.has(n)).length;
    } catch (e) {
      trial.readerError = isRpaError(e) ? `${e.code}: ${e.message}` : `not typed: ${(e as Error).message}`;
    }
    trial.validate = rpavSync(env, dataDir, ["validate", dir], 60_000).code === 0 ? "ok" : "refused";
    if (opts.build && trial.readerOk && trial.actions > 0) {
      const b = rpavSync(env, dataDir, ["build", dir], 300_000);
      trial.build = b.code === 0 ? "ok" : typedExit(b) ? "typed" : "crash";
      if (b.code !== 0) trial.buildOutput = b.out.slice(-600);
    }
    return trial;
  } finally {
    form.kill("SIGKILL");
  }
}

export interface ReplayTrial {
  killAfterMs: number;
  killed: boolean;
  /** A trace.jsonl was left (the kill may come before the run header). */
  left: boolean;
  readerOk: boolean;
  readerError?: string;
  events: number;
  truncatedTail: boolean;
  /** `rpav validate <run folder>`: exit 0. */
  validate?: "ok" | "refused";
  report?: "ok" | "typed" | "crash";
  resume?: "passed" | "typed" | "crash" | "nothing_to_resume";
  resumeOutput?: string;
}

/** One trial: `rpav replay` of the demo on a fresh form, SIGKILL after `killAfterMs`, then the trace read back, reported and (when asked) resumed. */
export async function replayTrial(env: NodeJS.ProcessEnv, dataDir: string, runDir: string, opts: { killAfterMs: number; resume: boolean; /** Kill once the trace holds this many lines (a moment in the run's progress, whatever the machine's speed). */ killAfterLines?: number }): Promise<ReplayTrial> {
  closeForms(env);
  const vars = Object.entries(DEMO_ROW).flatMap(([k, v]) => ["--var", `${k}=${v}`]);
  const rep = startRpav(env, dataDir, ["replay", DEMO_WORKFLOW, ...vars, "--report", runDir, "--before-row", DEMO_BEFORE_ROW]);
  const killed = await killAt(rep.child, opts.killAfterMs, opts.killAfterLines !== undefined ? () => linesOf(join(runDir, "trace.jsonl")) >= opts.killAfterLines! : undefined);
  closeForms(env);
  const trial: ReplayTrial = { killAfterMs: opts.killAfterMs, killed, left: existsSync(join(runDir, "trace.jsonl")), readerOk: false, events: 0, truncatedTail: false };
  if (!trial.left) return trial;
  try {
    const t = readTrace(runDir);
    rowOutcomes(t);
    trial.readerOk = true;
    trial.events = t.events.length;
    trial.truncatedTail = t.truncatedTail !== undefined;
  } catch (e) {
    trial.readerError = isRpaError(e) ? `${e.code}: ${e.message}` : `not typed: ${(e as Error).message}`;
  }
  trial.validate = rpavSync(env, dataDir, ["validate", runDir], 60_000).code === 0 ? "ok" : "refused";
  const r = rpavSync(env, dataDir, ["report", runDir], 120_000);
  trial.report = r.code === 0 && existsSync(join(runDir, "report.html")) && readFileSync(join(runDir, "report.html"), "utf8").includes("</html>") ? "ok" : typedExit(r) ? "typed" : "crash";
  if (opts.resume && trial.readerOk) {
    const res = rpavSync(env, dataDir, ["replay", "--resume", runDir, ...vars, "--before-row", DEMO_BEFORE_ROW], 400_000);
    closeForms(env);
    trial.resume = res.code === 0 ? "passed" : /nothing to resume/.test(res.out) ? "nothing_to_resume" : typedExit(res) ? "typed" : "crash";
    if (res.code !== 0) trial.resumeOutput = res.out.slice(-800);
  }
  return trial;
}
