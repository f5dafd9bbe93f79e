// Surprises for the decision actor, on real apps: what the demonstration did not show — an
// unexpected dialog before a step, a field already filled (right or half), the window minimised,
// the app not started, a slow window, the focus stolen. Each one prepares the desktop for one row
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

export const SURPRISES = ["none", "dialog", "filled", "half_filled", "minimised", "not_started", "slow_window", "focus_stolen"] as const;
export type Surprise = (typeof SURPRISES)[number];

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
}

const FORM = ["--form", "--title=Nouveau patient", "--width=640", "--field=Nom", "--field=Prénom", "--field=Date de naissance"];

/** yad's line for a row. */
export const expectedOutput = (r: FormRow) => `${r.nom}|${r.prenom}|${r.date_de_naissance}|`;

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

/** Brings the desktop of `env` to the start of a row of the yad form task, with surprise `s`. */
export async function prepareRow(s: Surprise, workflow: Workflow, row: FormRow, desktop: { env: NodeJS.ProcessEnv }, windows: WindowInfo): Promise<PreparedRow> {
  const env = desktop.env;
  const values = s === "filled" ? [row.nom, "", ""] : s === "half_filled" ? ["", [...row.prenom].slice(0, Math.max(1, Math.floor([...row.prenom].length / 2))).join(""), ""] : ["", "", ""];
  if (s === "not_started") {
    const dir = mkdtempSync(join(tmpdir(), "rpav-surprise-"));
    const out = join(dir, "yad.out");
    const quoted = [...FORM, "", "", ""].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(" ");
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
    // The form comes up 4 s after the row starts (a slow app).
    let app: AppHandle | undefined;
    const started = sleep(4000).then(async () => (app = await launchApp(desktop, windows, { command: "yad", args: [...FORM, ...values], waitAtspi: false })));
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
  let dialog: ReturnType<typeof spawn> | undefined;
  if (s === "minimised") {
    await runCommand("xdotool", ["windowminimize", "--sync", app.window.id], { env });
    await sleep(400);
  }
  if (s === "dialog" || s === "focus_stolen") {
    const args =
      s === "dialog"
        ? ["--question", "--title=Mise à jour", "--text=Une mise à jour est disponible.", "--ok-label=Installer", "--cancel-label=Plus tard", "--width=360"]
        : ["--info", "--title=Notification", "--text=Sauvegarde terminée.", "--width=300"];
    dialog = spawn("zenity", args, { env, stdio: "ignore" });
    const w = await windows.waitFor({ pid: dialog.pid!, title: s === "dialog" ? "Mise à jour" : "Notification" }, { timeoutMs: 15_000 }).catch(() => windows.waitFor({ title: s === "dialog" ? "Mise à jour" : "Notification" }, { timeoutMs: 5000 }));
    // Focus stolen by a window away from the form (not over it).
    if (s === "focus_stolen") await runCommand("xdotool", ["windowmove", w.id, "1500", "850"], { env });
    await windows.activate(w.id);
    await sleep(500);
  }
  return {
    workflow,
    finish: async () => {
      const output = await stopYad(app);
      let dialogExit: number | null | undefined;
      if (dialog) {
        dialogExit = await exitOf(dialog, 500);
        if (dialogExit === null) dialog.kill("SIGTERM");
      }
      return { output, ...(dialog ? { dialogExit } : {}) };
    },
  };
}
