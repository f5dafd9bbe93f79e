// The surprise matrix on a generated task app (lab/task-apps, bench/actor's held-out task): the
// same surprises as the yad form where the app can show them (it has no check box and no scrolled
// area: « ticked » and « scrolled » do not apply), judged by the state the app saves.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { sleep } from "../core/process.js";
import { runCommand } from "../core/process.js";
import type { WindowInfo } from "../core/providers/window-info.js";
import type { Workflow } from "../core/schemas/workflow.js";
import type { genFormTask, GenTaskRun } from "./gen-tasks.js";
import type { TaskData } from "./replay-tasks.js";
import { dialogExitOf, popDialog, SLOW_WINDOW_MS, type PreparedRow, type Surprise } from "./surprises.js";

export const GEN_SURPRISES: readonly Surprise[] = ["none", "dialog", "filled", "half_filled", "minimised", "not_started", "slow_window", "focus_stolen"];

type GenTask = ReturnType<typeof genFormTask>;

/** The surprises a generated form can show: « ticked » needs its check box, « scrolled » its scrolled area. */
export function genSurprisesOf(task: GenTask): Surprise[] {
  return [...GEN_SURPRISES, ...(task.check ? (["ticked"] as const) : []), ...(task.scroll ? (["scrolled"] as const) : [])];
}

export async function prepareGenRow(s: Surprise, workflow: Workflow, task: GenTask, data: TaskData, desktop: { env: NodeJS.ProcessEnv }, windows: WindowInfo): Promise<PreparedRow> {
  if (!genSurprisesOf(task).includes(s)) throw new Error(`the generated form cannot show the surprise ${s}`);
  const env = desktop.env;
  const [k0, k1] = task.keys;
  const half = (v: string) => [...v].slice(0, Math.max(1, Math.floor([...v].length / 2))).join("");
  const values: Record<string, string> = s === "filled" ? { [k0!]: data[k0!] ?? "" } : s === "half_filled" ? { [k1!]: half(data[k1!] ?? "") } : s === "ticked" ? { [task.check!]: "1" } : {};
  if (s === "not_started") {
    const l = task.prepareLaunch({ values });
    const pidFile = join(l.dir, "app.pid");
    const quoted = [l.command, ...l.args].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(" ");
    return {
      workflow: { ...workflow, launch: { command: "sh", args: ["-c", `echo $$ > '${pidFile}'; exec ${quoted}`] } },
      finish: async () => {
        const output = await l.observe();
        const pid = existsSync(pidFile) ? Number(readFileSync(pidFile, "utf8").trim()) : NaN;
        if (Number.isInteger(pid) && pid > 0) {
          try {
            process.kill(pid, "SIGTERM");
          } catch {
            // already gone
          }
        }
        l.cleanup();
        return { output };
      },
    };
  }
  if (s === "slow_window") {
    let run: GenTaskRun | undefined;
    const started = sleep(SLOW_WINDOW_MS).then(async () => (run = await task.start(desktop, windows, {}, data, { values })));
    return {
      workflow,
      finish: async () => {
        await started.catch(() => undefined);
        if (!run) return { output: "(not saved)" };
        const output = await run.observe();
        await run.stop();
        return { output };
      },
    };
  }
  const run = await task.start(desktop, windows, {}, data, { values });
  await sleep(900);
  if (s === "scrolled") {
    // Made smaller by the user: the scrolled area shows the first two fields only.
    await runCommand("xdotool", ["windowsize", "--sync", run.app.window.id, "560", "250"], { env }).catch(() => runCommand("xdotool", ["windowsize", run.app.window.id, "560", "250"], { env }));
    await sleep(500);
  }
  if (s === "minimised") {
    await runCommand("xdotool", ["windowminimize", "--sync", run.app.window.id], { env });
    await sleep(400);
  }
  const dialog = s === "dialog" || s === "focus_stolen" ? await popDialog(s, env, windows) : undefined;
  return {
    workflow,
    finish: async () => {
      const output = await run.observe();
      await run.stop();
      return { output, ...(dialog ? { dialogExit: await dialogExitOf(dialog) } : {}) };
    },
  };
}
