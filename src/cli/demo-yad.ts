// The bundled demo task that `rpav start` replays (demos/yad-patient/, recorded in the lab): a
// real yad form, its new data, and the oracle that reads what yad printed on stdout. The lab's
// replay tasks (src/lab/replay-tasks.ts) add the scripted demonstration on top.
import { sleep } from "../core/process.js";
import type { WindowInfo } from "../core/providers/window-info.js";
import { launchApp, type AppHandle } from "../platform/x11/app-launcher.js";
import type { AppVariant } from "../platform/x11/desktop-lab.js";

export type TaskData = Readonly<Record<string, string>>;

export interface TaskRun {
  app: AppHandle;
  /** What the app produced, to compare with `expected`. */
  observe(): Promise<string>;
  stop(): Promise<void>;
}

/** A task's app, its data and its oracle; the lab adds `demonstrate`. */
export interface TaskApp {
  name: string;
  /** Workflow name when recorded. */
  title: string;
  app: string;
  /** Data of the demonstration, and the new rows replay uses. */
  recorded: TaskData;
  rows: TaskData[];
  /** Opens the app ready for the task (files the task opens are created from `data`). */
  start(desktop: { env: NodeJS.ProcessEnv }, windows: WindowInfo, variant: AppVariant, data: TaskData, ready?: (env: NodeJS.ProcessEnv, pid: number) => Promise<boolean>): Promise<TaskRun>;
  /** What `observe` must return once the task ran with `data`. */
  expected(data: TaskData): string;
}

/** Reads yad's stdout once it exits. */
function yadOutput(app: AppHandle): Promise<string> {
  return new Promise((resolve) => {
    if (app.process.exitCode !== null) return resolve(app.stdout());
    app.process.once("close", () => resolve(app.stdout()));
  });
}

export const YAD_PATIENT_APP: TaskApp = {
  name: "yad-patient",
  title: "Nouveau patient",
  app: "yad",
  recorded: { nom: "Martin", prenom: "Zoë", date_de_naissance: "12/03/1985" },
  rows: [
    { nom: "Durand", prenom: "Héloïse", date_de_naissance: "01/02/1990" },
    { nom: "Lefèvre", prenom: "Noël", date_de_naissance: "24/12/1977" },
    { nom: "N'Diaye", prenom: "Aïcha", date_de_naissance: "31/07/2001" },
  ],
  async start(desktop, windows, variant, _data, ready) {
    const app = await launchApp(desktop, windows, {
      command: "yad",
      args: ["--form", "--title=Nouveau patient", "--width=640", "--field=Nom", "--field=Prénom", "--field=Date de naissance", "", "", ""],
      variant,
      ready: ready && { what: "yad ready", check: ready },
    });
    const out = yadOutput(app);
    return {
      app,
      observe: async () => {
        const timeout = sleep(15_000).then(() => `(yad still open) ${app.stdout()}`);
        return (await Promise.race([out, timeout])).trim();
      },
      stop: () => app.stop(),
    };
  },
  expected: (d) => `${d.nom}|${d.prenom}|${d.date_de_naissance}|`,
};
