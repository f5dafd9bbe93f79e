// Surprises for the decision actor, on real apps: what the demonstration did not show — an
// unexpected dialog before a step, a field already filled (right or half), the window minimised,
// the app not started, a slow window, the focus stolen, a box already ticked, a target scrolled
// out of view (the window made smaller than the form). Each one prepares the desktop for one row
// of the recorded yad form task and judges the row by yad's own output (what it prints on OK) and,
// for the dialog, by the dialog's own exit code (1 = dismissed with its safe answer). Used by
// test/lab/actor.test.ts and bench/actor.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCommand, sleep } from "../core/process.js";
import type { WindowInfo } from "../core/providers/window-info.js";
import type { Workflow } from "../core/schemas/workflow.js";
import { launchApp, type AppHandle } from "./apps.js";

export const SURPRISES = ["none", "dialog", "filled", "half_filled", "minimised", "not_started", "slow_window", "focus_stolen", "ticked", "scrolled"] as const;
export type Surprise = (typeof SURPRISES)[number];
/**
 * Lab tests only (not in the bench's matrix): « loading » — when the row starts, the form's window
 * is up but still loading: a « Chargement… » progress bar covers it and moves for LOADING_MS, then
 * the form shows. The first step must wait for the window to settle before it looks for its field.
 */
export type LabSurprise = Surprise | "loading";
export const LOADING_MS = 6000;

/** A progress bar that pulses and grows over a box (an unmanaged window: no focus, in no window list) for a time, then gone. */
const LOADING_BAR = `
import sys, time, tkinter as tk
x, y, w, h, ms = map(int, sys.argv[1:6])
r = tk.Tk()
r.overrideredirect(True)
r.geometry(f"{w}x{h}+{x}+{y}")
c = tk.Canvas(r, width=w, height=h, highlightthickness=0, bg="#e8e8e8")
c.pack()
bar = c.create_rectangle(0, 0, 0, h, fill="#3d7ad6", width=0)
label = c.create_text(w // 2, h // 2, text="Chargement…", fill="#111111")
t0 = time.time()
def tick(k=0):
    done = (time.time() - t0) * 1000 / ms
    if done >= 1:
        r.destroy()
        return
    c.coords(bar, 0, 0, int(w * done), h)
    c.itemconfigure(bar, fill="#3d7ad6" if k % 2 else "#9ab8e8")
    r.after(40, tick, k + 1)
tick()
r.update()
print("shown", flush=True)
r.mainloop()
`;

/** A yad form task of the matrix: its fields in order (a ":CHK" field is a check box) and what a row fills in. */
export interface YadFormSpec {
  title: string;
  /** --field options, in order. */
  fields: string[];
  /** Other yad options (size; --scroll puts the fields in a scrolled window). */
  extra: string[];
  /** What the task leaves in each field for a row (a check box: TRUE), in field order. */
  values(row: FormRow): string[];
}

/** The bundled demo's form (demos/yad-patient). */
export const PATIENT_FORM: YadFormSpec = {
  title: "Nouveau patient",
  fields: ["--field=Nom", "--field=Prénom", "--field=Date de naissance"],
  extra: ["--width=640"],
  values: (r) => [r.nom, r.prenom, r.date_de_naissance],
};

/** The same form with a consent check box the task ticks, in a scrolled window (the bench's dev task). */
export const CONSENT_FORM: YadFormSpec = {
  title: "Consentement patient",
  fields: ["--field=Nom", "--field=Prénom", "--field=Date de naissance", "--field=Accepte les conditions:CHK"],
  extra: ["--width=640", "--height=330", "--scroll"],
  values: (r) => [r.nom, r.prenom, r.date_de_naissance, "TRUE"],
};

const isCheck = (field: string) => field.endsWith(":CHK");

/** The surprises a form can show: a box already ticked needs a check box, a target out of view a scrolled form. */
export function surprisesOf(spec: YadFormSpec): Surprise[] {
  return SURPRISES.filter((s) => (s !== "ticked" || spec.fields.some(isCheck)) && (s !== "scrolled" || spec.extra.includes("--scroll")));
}

/** yad's arguments with the fields' starting values. */
export function yadArgs(spec: YadFormSpec, values: readonly string[]): string[] {
  return ["--form", `--title=${spec.title}`, ...spec.extra, ...spec.fields, ...spec.fields.map((f, i) => values[i] ?? (isCheck(f) ? "FALSE" : ""))];
}

/** The fields' values when a row starts, for surprise `s`: empty (unticked), or filled, half filled, ticked. */
export function startValues(spec: YadFormSpec, s: LabSurprise, row: FormRow): string[] {
  const want = spec.values(row);
  return spec.fields.map((f, i) => {
    if (isCheck(f)) return s === "ticked" ? "TRUE" : "FALSE";
    if (s === "filled" && i === 0) return want[0]!;
    if (s === "half_filled" && i === 1) return [...want[1]!].slice(0, Math.max(1, Math.floor([...want[1]!].length / 2))).join("");
    return "";
  });
}

/**
 * How late the slow window comes up after the row is prepared. Replay needs a few seconds to load
 * its detector before its first look (more on a loaded machine): 4 s was sometimes over before
 * that, and the window was simply there. Under the 10 s window timeout either way.
 */
export const SLOW_WINDOW_MS = 7000;

export interface FormRow {
  nom: string;
  prenom: string;
  date_de_naissance: string;
}

export interface PreparedRow {
  /** The workflow to replay (the recorded one, or a copy with its launch command for `not_started`). */
  workflow: Workflow;
  /** After the replay: yad's output, the dialog's exit code, and everything stopped. */
  finish(): Promise<{ output: string; dialogExit?: number | null }>;
  /** To run when the row starts (replay's beforeRow hook): the surprise that must come at that moment. */
  beforeRow?: () => Promise<void>;
}

/** yad's line for a row. */
export const expectedOutput = (r: FormRow, spec: YadFormSpec = PATIENT_FORM) => `${spec.values(r).join("|")}|`;

function exitOf(p: ReturnType<typeof spawn>, ms: number): Promise<number | null> {
  if (p.exitCode !== null) return Promise.resolve(p.exitCode);
  return Promise.race([new Promise<number | null>((r) => p.once("exit", (c) => r(c))), sleep(ms).then(() => null)]);
}

async function stopYad(app: AppHandle): Promise<string> {
  // yad prints and exits on OK; a row that did not get there leaves it open.
  await Promise.race([app.exited, sleep(3000)]);
  const out = app.stdout().trim();
  await app.stop();
  return out;
}

/**
 * An unexpected dialog over the app (« Mise à jour »: « Installer » or the safe « Plus tard »), or
 * a notification away from it that takes the focus. The caller judges by its exit code.
 */
export async function popDialog(s: "dialog" | "focus_stolen", env: NodeJS.ProcessEnv, windows: WindowInfo): Promise<ReturnType<typeof spawn>> {
  const args =
    s === "dialog"
      ? ["--question", "--title=Mise à jour", "--text=Une mise à jour est disponible.", "--ok-label=Installer", "--cancel-label=Plus tard", "--width=360"]
      : ["--info", "--title=Notification", "--text=Sauvegarde terminée.", "--width=300"];
  const dialog = spawn("zenity", args, { env, stdio: "ignore" });
  const w = await windows.waitFor({ pid: dialog.pid!, title: s === "dialog" ? "Mise à jour" : "Notification" }, { timeoutMs: 15_000 }).catch(() => windows.waitFor({ title: s === "dialog" ? "Mise à jour" : "Notification" }, { timeoutMs: 5000 }));
  // Focus stolen by a window away from the app (not over it).
  if (s === "focus_stolen") await runCommand("xdotool", ["windowmove", w.id, "1500", "850"], { env });
  await windows.activate(w.id);
  await sleep(500);
  return dialog;
}

/** The dialog's exit code (1: dismissed with its safe answer; null: left open, then closed here). */
export async function dialogExitOf(dialog: ReturnType<typeof spawn>): Promise<number | null> {
  const code = await exitOf(dialog, 500);
  if (code === null) dialog.kill("SIGTERM");
  return code;
}

/** Brings the desktop of `env` to the start of a row of the yad form task, with surprise `s`. */
export async function prepareRow(s: LabSurprise, workflow: Workflow, row: FormRow, desktop: { env: NodeJS.ProcessEnv }, windows: WindowInfo, spec: YadFormSpec = PATIENT_FORM): Promise<PreparedRow> {
  const env = desktop.env;
  if (s !== "loading" && !surprisesOf(spec).includes(s)) throw new Error(`the form « ${spec.title} » cannot show the surprise ${s}`);
  const values = startValues(spec, s, row);
  const FORM = yadArgs(spec, []).slice(0, -spec.fields.length);
  if (s === "not_started") {
    const dir = mkdtempSync(join(tmpdir(), "rpav-surprise-"));
    const out = join(dir, "yad.out");
    const quoted = [...FORM, ...values].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(" ");
    const pidFile = join(dir, "yad.pid");
    const wf: Workflow = { ...workflow, launch: { command: "sh", args: ["-c", `echo $$ > '${pidFile}'; exec yad ${quoted} > '${out}'`] } };
    return {
      workflow: wf,
      finish: async () => {
        await sleep(1000);
        const text = existsSync(out) ? readFileSync(out, "utf8").trim() : "";
        // The app the actor started: ended by its own pid, if it is still there.
        const pid = existsSync(pidFile) ? Number(readFileSync(pidFile, "utf8").trim()) : NaN;
        if (Number.isInteger(pid) && pid > 0) {
          try {
            process.kill(pid, "SIGTERM");
          } catch {
            // already gone
          }
        }
        return { output: text };
      },
    };
  }
  if (s === "slow_window") {
    // The form comes up SLOW_WINDOW_MS after the row starts (a slow app).
    let app: AppHandle | undefined;
    const started = sleep(SLOW_WINDOW_MS).then(async () => (app = await launchApp(desktop, windows, { command: "yad", args: [...FORM, ...values], waitAtspi: false })));
    return {
      workflow,
      finish: async () => {
        await started.catch(() => undefined);
        return { output: app ? await stopYad(app) : "" };
      },
    };
  }
  const app = await launchApp(desktop, windows, { command: "yad", args: [...FORM, ...values] });
  await sleep(600);
  if (s === "scrolled") {
    // Made smaller by the user: the lower fields are out of the scrolled view.
    await runCommand("xdotool", ["windowsize", "--sync", app.window.id, "640", "120"], { env }).catch(() => runCommand("xdotool", ["windowsize", app.window.id, "640", "120"], { env }));
    await sleep(500);
  }
  if (s === "minimised") {
    await runCommand("xdotool", ["windowminimize", "--sync", app.window.id], { env });
    await sleep(400);
  }
  const dialog = s === "dialog" || s === "focus_stolen" ? await popDialog(s, env, windows) : undefined;
  let loading: ReturnType<typeof spawn> | undefined;
  const [x0, y0, x1, y1] = app.window.bbox;
  // Over the whole form as the row starts: the window is there, its content not yet. The row starts once the bar is
  // drawn (Python and Tk take from 0.2 s to over a second to start on a busy machine).
  const startLoading = async () => {
    const bar = spawn("/usr/bin/python3", ["-c", LOADING_BAR, ...[x0, y0, x1 - x0, y1 - y0].map((v) => String(Math.round(v))), String(LOADING_MS)], { env, stdio: ["ignore", "pipe", "ignore"] });
    loading = bar;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(done, 10_000);
      bar.stdout!.on("data", (d: Buffer) => {
        if (d.toString().includes("shown")) done();
      });
      bar.on("exit", done);
    });
    await sleep(100);
  };
  return {
    workflow,
    ...(s === "loading" ? { beforeRow: startLoading } : {}),
    finish: async () => {
      if (loading && loading.exitCode === null) loading.kill("SIGTERM");
      const output = await stopYad(app);
      return { output, ...(dialog ? { dialogExit: await dialogExitOf(dialog) } : {}) };
    },
  };
}
