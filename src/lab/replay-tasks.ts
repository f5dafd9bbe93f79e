// The replay tasks of the lab: a real app, a demonstration driven through the input driver (to
// record it), new data to replay it with, and an oracle that reads the app's real output (yad's
// stdout, the bytes mousepad saved, AT-SPI states) — never the screen replay looked at.
// Used by the demo recorder (lab/record-demos.ts), the end-to-end tests, bench/replay and npm start.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BBox, Point } from "../core/geometry.js";
import { bboxCenter } from "../core/geometry.js";
import { sleep } from "../core/process.js";
import type { InputDriver } from "../core/providers/input-driver.js";
import type { WindowInfo } from "../core/providers/window-info.js";
import { launchApp } from "./apps.js";
import { CONSENT_FORM, expectedOutput, yadArgs, type FormRow } from "./surprises.js";
import { YAD_PATIENT_APP, type TaskApp, type TaskData, type TaskRun } from "../cli/demo-yad.js";
import { atspiApps, atspiDump, type AtspiNode } from "./atspi.js";

export type { TaskData, TaskRun } from "../cli/demo-yad.js";

export interface ReplayTask extends TaskApp {
  /** The demonstration (for the recorder): a person's clicks and typing through `input`. */
  demonstrate(run: TaskRun, input: InputDriver, env: NodeJS.ProcessEnv, data: TaskData, windows: WindowInfo): Promise<void>;
}

const center = (b: BBox): Point => [Math.round(bboxCenter(b)[0]), Math.round(bboxCenter(b)[1])];
const typing = { meanDelayMs: 25, jitterMs: 10 };

const atspiListed = async (env: NodeJS.ProcessEnv, pid: number) => (await atspiApps(env)).some((a) => a.pid === pid);

async function nodes(env: NodeJS.ProcessEnv, pid: number): Promise<AtspiNode[]> {
  return (await atspiDump(env, { pid })).nodes.filter((n) => n.states.includes("showing"));
}

/** The bundled demo's form with the AT-SPI readiness check of the lab. */
export const YAD_PATIENT: ReplayTask = {
  ...YAD_PATIENT_APP,
  start: (desktop, windows, variant, data) => YAD_PATIENT_APP.start(desktop, windows, variant, data, atspiListed),
  async demonstrate(run, input, env, d) {
    const all = await nodes(env, run.app.pid);
    const fields = all.filter((n) => n.role === "text").sort((a, b) => a.bbox[1] - b.bbox[1]);
    const ok = all.find((n) => n.role === "push button" && n.name === "OK");
    if (fields.length !== 3 || !ok) throw new Error(`yad form: expected 3 fields and OK, found ${fields.length} fields`);
    for (const [i, v] of [d.nom!, d.prenom!, d.date_de_naissance!].entries()) {
      await input.click(center(fields[i]!.bbox));
      await sleep(400);
      await input.type(v, typing);
      await sleep(1600); // a pause ends the typing burst
    }
    await input.click(center(ok.bbox));
    await sleep(800);
  },
};

/**
 * The consent form (bench/actor's dev task): the patient form plus a check box the person ticks,
 * in a scrolled window. Judged by yad's output (« …|TRUE| »).
 */
export const YAD_CONSENT: ReplayTask = {
  name: "yad-consent",
  title: CONSENT_FORM.title,
  app: "yad",
  recorded: YAD_PATIENT_APP.recorded,
  rows: YAD_PATIENT_APP.rows,
  async start(desktop, windows, variant) {
    const app = await launchApp(desktop, windows, { command: "yad", args: yadArgs(CONSENT_FORM, []), variant });
    const out = new Promise<string>((resolve) => (app.process.exitCode !== null ? resolve(app.stdout()) : app.process.once("close", () => resolve(app.stdout()))));
    return {
      app,
      observe: async () => (await Promise.race([out, sleep(15_000).then(() => `(yad still open) ${app.stdout()}`)])).trim(),
      stop: () => app.stop(),
    };
  },
  expected: (d) => expectedOutput(d as unknown as FormRow, CONSENT_FORM),
  async demonstrate(run, input, env, d) {
    const all = await nodes(env, run.app.pid);
    const fields = all.filter((n) => n.role === "text").sort((a, b) => a.bbox[1] - b.bbox[1]);
    const box = all.find((n) => n.role === "check box");
    const ok = all.find((n) => n.role === "push button" && n.name === "OK");
    if (fields.length !== 3 || !box || !ok) throw new Error(`yad consent form: expected 3 fields, a check box and OK, found ${fields.length} fields${box ? "" : ", no check box"}`);
    for (const [i, v] of [d.nom!, d.prenom!, d.date_de_naissance!].entries()) {
      await input.click(center(fields[i]!.bbox));
      await sleep(400);
      await input.type(v, typing);
      await sleep(1600); // a pause ends the typing burst
    }
    // A person clicks the square itself (AT-SPI's box is the whole row, label and blank included).
    await input.click([Math.round(box.bbox[0] + 12), Math.round((box.bbox[1] + box.bbox[3]) / 2)]);
    await sleep(1200);
    await input.click(center(ok.bbox));
    await sleep(800);
  },
};

export const MOUSEPAD_OPEN_SAVE: ReplayTask = {
  name: "mousepad-open-save",
  title: "Compléter un fichier",
  app: "mousepad",
  recorded: { chemin: "/tmp/rpav-demo/janvier.txt", texte: "Première ligne", texte_2: "Deuxième : Zoë €" },
  rows: [{ chemin: "/tmp/rpav-demo/fevrier.txt", texte: "Facture n° 42", texte_2: "Réglée le 3 mars : 120 €" }],
  async start(desktop, windows, variant, data) {
    const file = data.chemin!;
    rmSync(file, { force: true });
    const dir = file.slice(0, file.lastIndexOf("/"));
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, "");
    const home = mkdtempSync(join(tmpdir(), "rpav-mousepad-home-"));
    // In-memory settings and a home of its own: no session restore, no recent files.
    const app = await launchApp(desktop, windows, { command: "mousepad", window: { app: "mousepad" }, variant, env: { GSETTINGS_BACKEND: "memory", XDG_CONFIG_HOME: join(home, "config"), XDG_DATA_HOME: join(home, "data") } });
    return {
      app,
      observe: async () => {
        const deadline = Date.now() + 10_000;
        while (readFileSync(file, "utf8") === "" && Date.now() < deadline) await sleep(100);
        return readFileSync(file, "utf8");
      },
      stop: async () => {
        await app.stop();
        rmSync(home, { recursive: true, force: true });
      },
    };
  },
  expected: (d) => `${d.texte}\n${d.texte_2}`,
  async demonstrate(run, input, env, d, windows) {
    await sleep(1000);
    // File › Open through the menu, as a person does: the pointer rests on the item before pressing.
    const menu = (await nodes(env, run.app.pid)).find((n) => n.role === "menu" && n.name === "File");
    if (!menu) throw new Error("mousepad: no File menu on AT-SPI");
    await input.click(center(menu.bbox));
    await sleep(900);
    const open = (await atspiDump(env, { pid: run.app.pid })).nodes.find((n) => n.role === "menu item" && /^Open/.test(n.name) && n.states.includes("showing"));
    if (!open) throw new Error("mousepad: the File menu did not open");
    await input.click([open.bbox[0] + 40, center(open.bbox)[1]]);
    const dialog = await windows.waitFor({ title: /^Open/, app: "mousepad" }, { timeoutMs: 10_000 });
    await sleep(1000);
    const inDialog = { targetWindow: dialog.id };
    await input.key("ctrl+l", inDialog);
    await sleep(500);
    await input.type(d.chemin!, { ...typing, ...inDialog });
    await sleep(400);
    await input.key("Return", inDialog);
    const base = d.chemin!.split("/").pop()!;
    const main = await windows.waitFor({ title: new RegExp(base.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")), app: "mousepad" }, { timeoutMs: 10_000 });
    await sleep(1000);
    const inMain = { targetWindow: main.id };
    await input.type(d.texte!, { ...typing, ...inMain });
    await input.key("Return", inMain);
    await input.type(d.texte_2!, { ...typing, ...inMain });
    await sleep(400);
    await input.key("ctrl+s", inMain);
    await sleep(1000);
  },
};

/** Enabled check boxes in screen order, checked or not. */
async function factoryState(env: NodeJS.ProcessEnv, pid: number): Promise<string> {
  // Every node, showing or not: page 1's widgets are hidden once page 2 is shown.
  const all = (await atspiDump(env, { pid })).nodes;
  const checks = all.filter((n) => n.role === "check box" && n.name === "checkbutton" && n.states.includes("enabled")).sort((a, b) => a.bbox[1] - b.bbox[1]);
  const combo = all.filter((n) => n.role === "combo box" && n.states.includes("enabled") && ["Left", "Middle", "Right"].includes(n.name)).sort((a, b) => a.bbox[0] - b.bbox[0])[0];
  const page = all.find((n) => n.role === "radio button" && /^Page \d$/.test(n.name) && n.states.includes("checked"));
  return `checks=${checks.map((c) => (c.states.includes("checked") ? "x" : c.states.includes("indeterminate") ? "-" : "o")).join("")} combo=${combo?.name ?? "?"} page=${page?.name ?? "?"}`;
}

export const WIDGET_FACTORY: ReplayTask = {
  name: "widget-factory",
  title: "Réglages widget factory",
  app: "gtk3-widget-factory",
  recorded: {},
  rows: [{}],
  async start(desktop, windows, variant) {
    const app = await launchApp(desktop, windows, { command: "gtk3-widget-factory", window: { app: "gtk3-widget-factory" }, variant });
    return { app, observe: () => factoryState(app.env, app.pid), stop: () => app.stop() };
  },
  expected: () => "checks=xx combo=Right page=Page 1",
  async demonstrate(run, input, env) {
    await sleep(1000);
    const all = await nodes(env, run.app.pid);
    const checks = all.filter((n) => n.role === "check box" && n.name === "checkbutton" && n.states.includes("enabled")).sort((a, b) => a.bbox[1] - b.bbox[1]);
    const combo = all.find((n) => n.role === "combo box" && n.name === "Left");
    const page = (name: string) => all.find((n) => n.role === "radio button" && n.name === name);
    const page1 = page("Page 1");
    const page2 = page("Page 2");
    if (checks.length < 2 || !combo || !page1 || !page2) throw new Error("widget factory: widgets not found on AT-SPI");
    // The page switch first and back: page 1's widgets leave the accessibility tree while page 2 shows.
    await input.click(center(page2.bbox));
    await sleep(1200);
    await input.click(center(page1.bbox));
    await sleep(1200);
    await input.click(center(checks[1]!.bbox));
    await sleep(1200);
    await input.click(center(combo.bbox));
    await sleep(1000);
    const item = (await atspiDump(env, { pid: run.app.pid })).nodes.find((n) => n.role === "menu item" && n.name === "Right" && n.states.includes("showing"));
    if (!item) throw new Error("widget factory: the combo's list did not open");
    await input.move(center(item.bbox));
    await sleep(300);
    await input.click(center(item.bbox));
    await sleep(1200);
  },
};

export const REPLAY_TASKS: readonly ReplayTask[] = [YAD_PATIENT, MOUSEPAD_OPEN_SAVE, WIDGET_FACTORY];
