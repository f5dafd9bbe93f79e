// Recording that keeps secrets and sees what the person did, on real apps under Xvfb:
// a password reached with Tab (through `rpav record` and `rpav build`, then every file searched),
// the window of a click held only briefly on a dialog that closes, text typed through keys bound
// on the fly.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readImageFile } from "../../src/capture/png.js";
import { bboxCenter } from "../../src/core/geometry.js";
import { sleep } from "../../src/core/process.js";
import { atspiDump, groundTruthFromAtspi } from "../../src/lab/atspi.js";
import { TesseractOcr } from "../../src/perception/tesseract-ocr.js";
import { X11RecordSource } from "../../src/platform/x11/x11-record-source.js";
import { Recorder } from "../../src/record/recorder.js";
import { readSession } from "../../src/record/session.js";
import { encodePng } from "../../src/capture/png.js";
import { ROOT } from "../support/cli.js";
import { labKit } from "./support.js";

const kit = labKit();
let tess: TesseractOcr;
beforeAll(async () => {
  tess = await TesseractOcr.create();
});
afterAll(async () => {
  await kit.cleanup();
  await tess?.close();
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? filesUnder(join(dir, f)) : [join(dir, f)]));
}
const fold = (t: string) => t.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().replace(/\s+/g, "");

async function fields(pid: number, bbox: readonly number[]) {
  const gt = groundTruthFromAtspi((await atspiDump(kit.env, { pid })).nodes, bbox as never);
  return gt.elements;
}

describe("secrets reached by keyboard focus", () => {
  it("user name, Tab, password into a real form through `rpav record` + `rpav build`: the password is in no file the project wrote, nor in any screenshot's OCR, nor in the logs", async () => {
    const SECRET = "Kx7#pWq2zR";
    const data = mkdtempSync(join(tmpdir(), "rpav-safety-data-"));
    const sessionDir = join(data, "sessions", "login");
    const out: string[] = [];
    const app = await kit.launch({ command: "yad", args: ["--form", "--title=Connexion", "--width=500", "--field=Utilisateur", "--field=Mot de passe:H", "", ""] });
    const yadOut = new Promise<string>((resolve) => {
      app.process.stdout?.on("data", (d: Buffer) => out.push(d.toString()));
      app.process.once("close", () => resolve(out.join("")));
    });
    await kit.windows.activate(app.window.id);
    await sleep(500);
    const inputs = (await fields(app.pid, app.window.bbox)).filter((e) => e.type === "text_input").sort((a, b) => a.bbox[1] - b.bbox[1]);
    expect(inputs).toHaveLength(2);
    const logs: string[] = [];
    const rec = spawn(process.execPath, [`${ROOT}bin/rpav.js`, "--data-dir", data, "record", "--name", "login", "--app", "yad", "--out", sessionDir], { env: { ...kit.env, RPAV_HOME: data } });
    const exited = new Promise<number | null>((r) => rec.once("close", r));
    rec.stdout.on("data", (d: Buffer) => logs.push(d.toString()));
    rec.stderr.on("data", (d: Buffer) => logs.push(d.toString()));
    const t0 = Date.now();
    while (!logs.join("").includes("recording") && Date.now() - t0 < 60_000) await sleep(100);
    await sleep(1500);
    await kit.input.click(bboxCenter(inputs[0]!.bbox) as [number, number]);
    await sleep(300);
    await kit.input.type("jdupont", { meanDelayMs: 20, jitterMs: 0 });
    await sleep(1500);
    await kit.input.key("Tab");
    await sleep(400);
    await kit.input.type(SECRET, { meanDelayMs: 20, jitterMs: 0 });
    await sleep(1500);
    await kit.input.key("Return");
    expect((await yadOut).trim()).toBe(`jdupont|${SECRET}|`);
    await sleep(2500); // the last burst's check and screenshots
    await kit.input.key("Pause");
    expect(await exited).toBe(0);

    const session = readSession(sessionDir);
    const kinds = session.actions.map((a) => a.kind + (a.combo ? `:${a.combo}` : "") + (a.text !== undefined ? `:${a.text}` : "") + (a.secret ? `:secret(${a.length})` : ""));
    expect(kinds, logs.join("")).toEqual(["click", "type:jdupont", "key:Tab", `type:secret(${SECRET.length})`, "key:Return"]);

    const build = spawnSync(process.execPath, [`${ROOT}bin/rpav.js`, "--data-dir", data, "build", sessionDir], { env: { ...kit.env, RPAV_HOME: data }, encoding: "utf8", timeout: 300_000 });
    logs.push(build.stdout, build.stderr);
    expect(build.status, build.stderr).toBe(0);
    const wf = JSON.parse(readFileSync(join(sessionDir, "workflow.json"), "utf8")) as { variables: { name: string; secret: boolean }[] };
    expect(wf.variables.filter((v) => v.secret)).toHaveLength(1);

    // Every file under the data directory (session, screenshots, workflow, icons, SQLite store and
    // its WAL, OCR cache), and everything printed.
    const files = filesUnder(data);
    expect(files.some((f) => f.includes(join("cache", "ocr")))).toBe(true);
    expect(files.some((f) => f.endsWith("rpav.db"))).toBe(true);
    for (const f of files) expect(readFileSync(f).includes(Buffer.from(SECRET)), f).toBe(false);
    expect(logs.join("")).not.toContain(SECRET);
    // And no screenshot shows it (read by OCR: the field was painted over, the characters are bullets anyway).
    let pngs = 0;
    for (const f of files.filter((x) => x.endsWith(".png"))) {
      const text = (await tess.recognize(await readImageFile(f))).lines.map((l) => l.text).join(" ");
      expect(fold(text), f).not.toContain(fold(SECRET));
      pngs++;
    }
    expect(pngs).toBeGreaterThanOrEqual(8);
  }, 300_000);
});

describe("recording sees what the person did", () => {
  // The helper reads the window under the pointer when it handles the press (XQueryPointer), which can come after a
  // 0 ms click closed the dialog; the recorder also keeps the windows it saw before the press (every rolling capture)
  // and takes the one those showed under the pointer when it has gone since.
  it("a click held briefly that closes a dialog is recorded in the dialog, not the window underneath", async () => {
    const main = await kit.launch({ command: "yad", args: ["--form", "--title=Fenêtre principale", "--width=700", "--height=500", "--field=Nom", ""] });
    await kit.windows.activate(main.window.id);
    await sleep(400);
    const dialog = await kit.launch({ command: "yad", args: ["--title=Confirmation", "--text=Enregistrer les changements ?", "--button=Valider:0", "--width=300"] });
    await kit.windows.activate(dialog.window.id);
    await sleep(500);
    const ok = (await fields(dialog.pid, dialog.window.bbox)).find((e) => e.type === "button" && /Valider/.test(e.label))!;
    expect(ok).toBeDefined();
    const dir = mkdtempSync(join(tmpdir(), "rpav-session-press-"));
    const recorder = new Recorder({ events: new X11RecordSource({ env: kit.env }), screen: kit.screen, windows: kit.windows, encodePng, secretField: async () => ({ secret: false, box: undefined, why: "not under test" }) });
    const recording = recorder.record({ dir, name: "press", settleMs: 200 });
    await sleep(700);
    const [x, y] = bboxCenter(ok.bbox).map(Math.round) as [number, number];
    // xdotool presses and releases at once (a script, a fast user): the dialog is gone right after.
    const click = spawnSync("xdotool", ["mousemove", String(x), String(y), "click", "1"], { env: kit.env });
    expect(click.status).toBe(0);
    const t0 = Date.now();
    while ((await kit.windows.get(dialog.window.id)) && Date.now() - t0 < 5000) await sleep(100);
    expect(await kit.windows.get(dialog.window.id)).toBeUndefined();
    await sleep(600);
    recorder.stop();
    await recording;
    const clicks = readSession(dir).actions.filter((a) => a.kind === "click");
    expect(clicks).toHaveLength(1);
    expect(clicks[0]!.window?.title).toBe("Confirmation");
  });

  it("text typed through keys bound on the fly (more distinct characters than spare keycodes) is one burst with every character", async () => {
    const TEXT = "Madame Hélène — « àâçéèêëîïôöùûüÿœæ€ŒÆ » ñß";
    const app = await kit.launch({ command: "yad", args: ["--form", "--title=Saisie", "--width=700", "--field=Texte", ""] });
    await kit.windows.activate(app.window.id);
    await sleep(500);
    const input = (await fields(app.pid, app.window.bbox)).find((e) => e.type === "text_input")!;
    const dir = mkdtempSync(join(tmpdir(), "rpav-session-keys-"));
    const recorder = new Recorder({ events: new X11RecordSource({ env: kit.env }), screen: kit.screen, windows: kit.windows, encodePng, secretField: async () => ({ secret: false, box: undefined, why: "not under test" }) });
    const recording = recorder.record({ dir, name: "keys", settleMs: 200 });
    await sleep(700);
    await kit.input.click(bboxCenter(input.bbox) as [number, number]);
    await sleep(300);
    await kit.input.type(TEXT, { meanDelayMs: 0, jitterMs: 0 });
    await sleep(1200);
    recorder.stop();
    await recording;
    const actions = readSession(dir).actions;
    expect(actions.map((a) => a.kind + (a.text !== undefined ? `:${a.text}` : "") + (a.combo ? `:${a.combo}` : ""))).toEqual(["click", `type:${TEXT}`]);
  });
});
