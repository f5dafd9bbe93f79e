// RPA Vision Studio in headless Chromium against a real server (`startStudio`, as `rpav serve`
// starts it) on a temporary data directory: the demo workflows in the store, real runs of the yad
// demo on a real yad form (one that fails because the window never appears, one that passes), a
// question asked by a waiting AssistFiles.ask in this process about a real window whose title
// holds a <script>, and a run started from the page (a real `rpav replay` child) followed live.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStudio, type StudioHandle } from "../../src/cli/commands/serve.js";
import { replayWorkflow, type ReplayResult } from "../../src/cli/commands/replay.js";
import type { AssistQuestion } from "../../src/core/schemas/assist.js";
import type { TraceBefore } from "../../src/core/schemas/trace.js";
import type { Workflow } from "../../src/core/schemas/workflow.js";
import { YAD_PATIENT } from "../../src/lab/replay-tasks.js";
import { stepAttempts } from "../../src/replay/report.js";
import { readTrace } from "../../src/replay/trace.js";
import { AssistFiles } from "../../src/store/assist-files.js";
import { PatchFiles } from "../../src/store/patch-files.js";
import { SqliteStore } from "../../src/store/sqlite-store.js";
import { ROOT } from "../support/cli.js";
import { labKit } from "./support.js";

// Browser globals of the callbacks run in the page (this project is type-checked without the DOM library).
interface PageElement {
  getAttribute(name: string): string | null;
  getBoundingClientRect(): { left: number; top: number; width: number; height: number };
  querySelector(selector: string): PageElement | null;
  textContent: string | null;
}
interface HTMLImageElement extends PageElement {
  complete: boolean;
  naturalWidth: number;
}
declare const document: {
  images: HTMLImageElement[];
  scripts: { length: number };
  querySelector<T = PageElement>(selector: string): T | null;
  querySelectorAll(selector: string): { length: number };
  getElementById(id: string): PageElement | null;
};
declare const window: Record<string, unknown>;

const kit = labKit();
const dataDir = mkdtempSync(join(tmpdir(), "rpav-studio-lab-"));
const DEMOS = ["yad-patient", "mousepad-open-save", "widget-factory"];
const demoFile = (d: string) => new URL(`../../demos/${d}/workflow.json`, import.meta.url).pathname;
const demos = DEMOS.map((d) => JSON.parse(readFileSync(demoFile(d), "utf8")) as Workflow);
const HOSTILE = "<script>window.__pwned=1</script>Patient";
const DOCS = new URL("../../docs/", import.meta.url).pathname;

let studio: StudioHandle;
let browser: Browser;
let page: Page;
let failed: ReplayResult;
let passed: ReplayResult;
let base: string;
/** The run folder of the run started from the page (under <data dir>/runs). */
let liveFolder: string;
/** Console errors and CSP refusals of every page. */
const pageErrors: string[] = [];

beforeAll(async () => {
  const store = SqliteStore.open(dataDir);
  try {
    for (const wf of demos) await store.putWorkflow(wf);
    // Two real runs of the yad demo, recorded in the store: the window never appears, then a real form.
    const row = YAD_PATIENT.rows[0]!;
    failed = await replayWorkflow({ workflowPath: demoFile("yad-patient"), vars: { ...row }, windowTimeoutMs: 1500 }, kit.env, dataDir, () => undefined, store);
    const app = await YAD_PATIENT.start({ env: kit.env }, kit.windows, {}, row);
    try {
      passed = await replayWorkflow({ workflowPath: demoFile("yad-patient"), vars: { ...row } }, kit.env, dataDir, () => undefined, store);
      expect(await app.observe()).toBe(YAD_PATIENT.expected(row));
    } finally {
      await app.stop();
    }
  } finally {
    await store.close();
  }
  expect([failed.status, passed.status]).toEqual(["failed", "passed"]);
  studio = await startStudio({ dataDir, port: 0, env: kit.env });
  base = new URL(studio.url).origin;
  browser = await chromium.launch({ executablePath: process.env.RPAV_CHROMIUM ?? "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"] });
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.on("console", (m) => {
    if (m.type() === "error" || /Content Security Policy|Refused/.test(m.text())) pageErrors.push(m.text());
  });
  page.on("pageerror", (e) => pageErrors.push(e.message));
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await studio?.close();
  await kit.cleanup();
});

/** The store of the data directory, opened beside the studio's for one read or write. */
async function withStore<T>(fn: (s: SqliteStore) => Promise<T>): Promise<T> {
  const s = SqliteStore.open(dataDir);
  try {
    return await fn(s);
  } finally {
    await s.close();
  }
}

const runId = (r: ReplayResult) => readTrace(r.runDir).run.run_id;

describe("RPA Vision Studio in Chromium", () => {
  it("a request without the token gets 401; the printed URL logs the browser in and the token leaves the address bar", async () => {
    expect(studio.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{43}$/);
    const bare = await fetch(`${base}/runs`);
    expect(bare.status).toBe(401);
    const other = await browser.newPage();
    expect((await other.goto(`${base}/workflows`))?.status()).toBe(401);
    await other.close();
    const r = await page.goto(studio.url);
    expect(r?.status()).toBe(200);
    expect(page.url()).toBe(`${base}/runs`);
    const cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === "rpav_studio")).toMatchObject({ httpOnly: true, sameSite: "Strict" });
  });

  it("the workflow list shows the demos with their steps, variables and last run", async () => {
    await page.goto(`${base}/workflows`);
    const rows = await page.locator("table.workflows tr[data-workflow]").evaluateAll((trs) => trs.map((tr) => ({ id: tr.getAttribute("data-workflow"), text: tr.textContent ?? "" })));
    expect(rows.map((r) => r.id).sort()).toEqual(demos.map((d) => d.workflow_id).sort());
    for (const d of demos) expect(rows.find((r) => r.id === d.workflow_id)?.text).toContain(d.name);
    const yad = rows.find((r) => r.id === "wf_nouveau_patient")!.text;
    expect(yad).toContain("nom, prenom, date_de_naissance");
    expect(yad).toContain("passed"); // its last run
  });

  it("a run's screenshots load and the chosen box is drawn where the trace says; a step chosen in the list loads in place", async () => {
    const trace = readTrace(passed.runDir);
    const attempts = stepAttempts(trace);
    const a = attempts.find((x) => x.after.step_id === "step_003")!;
    await page.goto(`${base}/runs/${runId(passed)}?step=${attempts[0]!.index}`);
    // htmx: the step list swaps the viewer without a page load, and the address follows.
    await page.evaluate(() => (window.__samePage = true));
    await page.locator(`.steps li[data-index="${a.index}"] a`).click();
    await page.waitForFunction((id) => document.querySelector("#detail section.step")?.getAttribute("data-step") === id, "step_003");
    expect(page.url()).toBe(`${base}/runs/${runId(passed)}?step=${a.index}`);
    expect(await page.evaluate(() => window.__samePage)).toBe(true);
    expect(await page.locator(".steps li.selected").getAttribute("data-index")).toBe(String(a.index));
    expect(await page.locator("#film .frame.selected").count()).toBe(1);
    await page.waitForFunction(() => Array.from(document.images).every((i) => i.complete));
    const before = a.before as TraceBefore;
    const seen = (await page.evaluate(() => {
      const imgs = Array.from(document.images);
      const fig = document.querySelector("#detail figure")!;
      const img = fig.querySelector("img") as HTMLImageElement;
      const rect = fig.querySelector("rect.chosen")!;
      const ib = img.getBoundingClientRect();
      const rb = rect.getBoundingClientRect();
      const k = img.naturalWidth / ib.width;
      return {
        images: imgs.length,
        loaded: imgs.filter((i) => i.complete && i.naturalWidth > 0).length,
        attrs: ["x", "y", "width", "height"].map((n) => Number(rect.getAttribute(n))),
        drawn: [(rb.left - ib.left) * k, (rb.top - ib.top) * k, rb.width * k, rb.height * k],
        film: document.querySelectorAll("#film .frame img").length,
      };
    })) as { images: number; loaded: number; attrs: number[]; drawn: number[]; film: number };
    expect(seen.loaded).toBe(seen.images);
    expect(seen.film).toBe(attempts.length);
    const expected = [before.bbox![0] - before.origin![0], before.bbox![1] - before.origin![1], before.bbox![2] - before.bbox![0], before.bbox![3] - before.bbox![1]];
    expect(seen.attrs).toEqual(expected);
    // On the page: the rectangle's box over the image, in the image's own pixels (stroke width aside).
    seen.drawn.forEach((v, i) => expect(Math.abs(v - expected[i]!)).toBeLessThan(4));
    mkdirSync(DOCS, { recursive: true });
    await page.screenshot({ path: join(DOCS, "studio-run-viewer.png") });
  });

  it("failures only: the failed run lists its failed steps with the typed error", async () => {
    await page.goto(`${base}/runs/${runId(failed)}`);
    await page.locator("#failures-only").click();
    const items = await page.locator(".steps li").evaluateAll((lis) => lis.map((li) => ({ cls: li.className, text: li.textContent ?? "" })));
    const fails = stepAttempts(readTrace(failed.runDir)).filter((x) => x.after.status === "failed");
    expect(items).toHaveLength(fails.length);
    expect(items.every((i) => i.cls.includes("failed") && i.text.includes("window_not_found"))).toBe(true);
  });

  it("compare with the previous run of the workflow shows both runs side by side", async () => {
    await page.goto(`${base}/runs/${runId(passed)}`);
    await page.locator("#compare-link").click();
    await page.waitForURL(/\/compare$/);
    expect(await page.locator("#left-run").textContent()).toContain(runId(failed));
    expect(await page.locator("#left-run").textContent()).toContain("failed");
    expect(await page.locator("#right-run").textContent()).toContain(runId(passed));
    const rows = await page.locator("table.compare tr").count();
    expect(rows - 1).toBe(demos[0]!.steps.length);
    await page.waitForFunction(() => Array.from(document.images).every((i) => i.complete));
    expect(await page.evaluate(() => Array.from(document.images).filter((i) => i.naturalWidth > 0).length)).toBe(demos[0]!.steps.length); // the passed run's before shots
  });

  it("a variable renamed in the page is a new version in the store, and the diff shows it", async () => {
    await page.goto(`${base}/workflows/wf_nouveau_patient`);
    const form = page.locator('tr[data-variable="nom"] form.rename');
    await form.locator('input[name="to"]').fill("nom_de_famille");
    await form.locator("button").click();
    await page.waitForURL(/version=2$/);
    const store = SqliteStore.open(dataDir);
    try {
      const v2 = await store.getWorkflow("wf_nouveau_patient");
      expect(v2?.version).toBe(2);
      expect((v2!.document as unknown as Workflow).variables.map((v) => v.name)).toEqual(["nom_de_famille", "prenom", "date_de_naissance"]);
      expect(((await store.getWorkflow("wf_nouveau_patient", 1))!.document as unknown as Workflow).variables[0]!.name).toBe("nom");
    } finally {
      await store.close();
    }
    await page.locator("#diff-link").click();
    const diff = await page.locator("table.diff").textContent();
    expect(diff).toContain("$.variables[0].name");
    expect(diff).toContain('"nom_de_famille"');
    expect(diff).toContain("{{nom_de_famille}}");
  });

  it("an assist question answered in the page resolves the waiting ask; a window title holding <script> is shown as text", async () => {
    const hostile = await kit.launch({ command: "yad", args: ["--form", `--title=${HOSTILE}`, "--field=Nom", ""] });
    const title = hostile.window.title; // read back from the X server
    expect(title).toBe(HOSTILE);
    const before = stepAttempts(readTrace(passed.runDir)).find((x) => x.after.step_id === "step_003")!.before!;
    const asker = new AssistFiles(join(dataDir, "assist"), { pollMs: 50 });
    const q = (id: string): AssistQuestion => ({
      schema_version: "assist_question_v1",
      question_id: id,
      asked_at: new Date().toISOString(),
      run_id: runId(passed),
      run_dir: passed.runDir,
      row: 0,
      step_id: "step_003",
      message: "Two fields look alike: which one is « Prénom »?",
      screenshot: before.screenshot,
      origin: { x: before.origin![0], y: before.origin![1], scale_factor: 1 },
      window: { app: hostile.window.appName, title },
      candidates: before.candidates.slice(0, 3).map((c, i) => ({ candidate_id: `c${i}`, label: i === 0 ? `<img src=x onerror="window.__pwned=2">${c.label}` : c.label, type: c.type, bbox: c.bbox, score: c.score })),
      choices: ["pick", "point", "skip", "abort"],
    });
    const waiting = asker.ask(q("q_point"));
    await expect.poll(async () => (await asker.pending()).length).toBe(1);
    await page.goto(`${base}/ask`);
    const section = page.locator('section[data-question="q_point"]');
    expect(await section.locator(".window-title").textContent()).toBe(HOSTILE);
    expect(await section.locator(".candidates .label").first().textContent()).toContain("<img src=x");
    expect(await page.evaluate(() => ({ pwned: window.__pwned, scripts: document.scripts.length, imgs: document.images.length }))).toEqual({ pwned: undefined, scripts: 2, imgs: 1 });
    // Click the middle of the chosen box on the screenshot: the answer is that point on the screen.
    const [x1, y1, x2, y2] = before.bbox!;
    const img = section.locator(".ask-shot img");
    await page.waitForFunction(() => document.querySelector<HTMLImageElement>(".ask-shot img")?.complete);
    const box = (await img.boundingBox())!;
    const natural = await img.evaluate((i: HTMLImageElement) => i.naturalWidth);
    const k = box.width / natural;
    const cx = (x1 + x2) / 2;
    const cy = (y1 + y2) / 2;
    await page.mouse.click(box.x + (cx - before.origin![0]) * k, box.y + (cy - before.origin![1]) * k);
    const answer = await waiting;
    expect(answer.by).toBe("studio");
    expect(answer.choice.kind).toBe("point");
    if (answer.choice.kind === "point") {
      expect(Math.abs(answer.choice.x - cx)).toBeLessThanOrEqual(1.5);
      expect(Math.abs(answer.choice.y - cy)).toBeLessThanOrEqual(1.5);
    }
    await page.waitForURL(/answered=q_point/);
    // A second question, asked while the page shows none: it appears without a reload; answered by a pick.
    expect(await page.locator("#no-questions").count()).toBe(1);
    const picking = asker.ask(q("q_pick"));
    await page.locator('section[data-question="q_pick"] .candidates button[value="c1"]').click({ timeout: 15_000 });
    expect((await picking).choice).toEqual({ kind: "pick", candidate_id: "c1" });
    await page.waitForURL(/answered=q_pick/);
    expect(await page.locator("#no-questions").count()).toBe(1);
    await hostile.stop();
  });

  it("a run started from the page replays the store's latest version and is followed live until it passes", async () => {
    const row = YAD_PATIENT.rows[1]!;
    const app = await YAD_PATIENT.start({ env: kit.env }, kit.windows, {}, row);
    try {
      await page.goto(`${base}/start?workflow=wf_nouveau_patient`);
      await page.locator("#var_nom_de_famille").fill(row.nom!); // the name given in the page earlier (version 2)
      await page.locator("#var_prenom").fill(row.prenom!);
      await page.locator("#var_date_de_naissance").fill(row.date_de_naissance!);
      await page.locator("#start-button").click();
      await page.waitForURL(/\/live\//);
      liveFolder = /\/live\/([^/?]+)/.exec(page.url())![1]!;
      await page.waitForFunction(() => document.getElementById("live-status")?.textContent !== "running…", undefined, { timeout: 150_000 });
      const events = await page.locator("#live-events li").allTextContents();
      expect(await page.locator("#live-status").textContent(), events.join("\n")).toBe("passed");
      expect(events.some((e) => /^step_007 passed in \d+ ms$/.test(e))).toBe(true);
      expect(events.some((e) => /^run passed in/.test(e))).toBe(true);
      expect(await app.observe()).toBe(YAD_PATIENT.expected(row));
      await page.locator("#live-link a").click();
      expect(await page.locator(".run-status").first().textContent()).toBe("passed");
    } finally {
      await app.stop();
    }
  }, 200_000);

  it("a patch proposed from an answer shows the old and new target with their crops; accepted in the page, it is a new version in the store", async () => {
    // As `rpav replay --assist` keeps a person's pick (src/cli/commands/replay.ts proposePatch): the
    // run started from the page, its step_003 answered with another candidate of that real screen.
    const runDir = join(dataDir, "runs", liveFolder);
    const trace = readTrace(runDir);
    const before = stepAttempts(trace).filter((x) => x.after.step_id === "step_003").at(-1)!.before!;
    const current = (await withStore((s) => s.getWorkflow("wf_nouveau_patient")))!;
    const step = (current.document as unknown as Workflow).steps.find((x) => x.step_id === "step_003")!;
    const pick = before.candidates.find((c) => c.label && c.label !== step.target!.label && c.bbox)!;
    expect(pick).toBeDefined();
    const patchId = "patch_lab_pick";
    await new PatchFiles(join(dataDir, "patches")).put({ schema_version: "workflow_patch_v1", patch_id: patchId, workflow_id: "wf_nouveau_patient", workflow_path: trace.run.workflow_path, step_id: "step_003", op: { op: "set_target", target: { ...step.target!, label: pick.label, by_text: pick.label, type: pick.type as never, recorded_bbox: pick.bbox as [number, number, number, number], ordinal: undefined } }, reason: `studio picked « ${pick.label} » (${pick.type})`, proposed_at: new Date().toISOString(), run_id: trace.run.run_id, question_id: "q_lab", status: "proposed" });
    expect(trace.run.workflow_path.startsWith(dataDir)).toBe(true); // the studio's copy, not the demo in the repository
    await page.goto(`${base}/workflows/wf_nouveau_patient`);
    await page.locator("#patches-link").click();
    const section = page.locator(`section[data-patch="${patchId}"]`);
    expect(await section.locator("h2").textContent()).toContain(step.intention);
    expect(await section.locator("td.old").textContent()).toContain(`« ${step.target!.label} »`);
    expect(await section.locator("td.new").textContent()).toContain(`« ${pick.label} »`);
    await page.waitForFunction(() => Array.from(document.images).every((i) => i.complete));
    // Both crops load: the current target's and the picked one cut from the asking run's screenshot.
    expect(await section.locator("img.crop").evaluateAll((imgs) => imgs.map((i) => (i as unknown as HTMLImageElement).naturalWidth > 0))).toEqual([true, true]);
    await section.locator("form.accept button").click();
    await page.waitForURL(/\/patches\?done=/);
    const next = (await withStore((s) => s.getWorkflow("wf_nouveau_patient")))!;
    expect(next.version).toBe(current.version + 1);
    const wf = next.document as unknown as Workflow;
    expect(wf.steps.find((x) => x.step_id === "step_003")!.target!.label).toBe(pick.label);
    expect(wf.variables.map((v) => v.name)).toContain("nom_de_famille"); // the rename made in the page is kept
    expect(await page.locator(`section[data-patch="${patchId}"] .accepted-version`).textContent()).toBe(`version ${next.version}`);
    expect(await page.locator(`section[data-patch="${patchId}"] form.accept`).count()).toBe(0);
  });

  it("the ledger of a real plan (rpav run, killed with SIGKILL during its second item) lists its items; the killed run and its item show interrupted", async () => {
    const csv = join(dataDir, "patients.csv");
    writeFileSync(csv, "nom_de_famille;prenom;date_de_naissance\nDurand;Zoé;01/02/1990\nPetit;Noël;03/04/1985\n");
    // No form on the screen: each item is a system failure (window_not_found) after the window timeout.
    const child = spawn(process.execPath, [join(ROOT, "bin/rpav.js"), "--data-dir", dataDir, "run", "Saisis les patients", "--in", csv, "--workflow", "wf_nouveau_patient", "--yes", "--max-retries", "0", "--max-attempts", "1"], { env: kit.env, stdio: ["ignore", "pipe", "pipe"] });
    let err = "";
    child.stderr.on("data", (d: Buffer) => (err += d.toString("utf8")));
    const exited = new Promise((res) => child.once("exit", res));
    let planId = "";
    let second: { runId: string } | undefined;
    try {
      await expect.poll(async () => {
        const plan = (await withStore((s) => s.listPlans()))[0];
        planId = plan?.planId ?? "";
        const items = plan ? await withStore((s) => s.planItems(plan.planId)) : [];
        if (items[0]?.status !== "failed" || items[1]?.status !== "running") return false;
        const runs = await withStore((s) => s.runsOfWorkflow("wf_nouveau_patient"));
        second = runs.find((r) => r.status === "running" && String(r.document?.run_dir).includes("002-"));
        return !!second;
      }, { timeout: 120_000, interval: 300 }).toBe(true);
    } finally {
      child.kill("SIGKILL");
      await exited;
    }
    expect(err).not.toMatch(/Traceback|TypeError/);
    await page.goto(`${base}/plans`);
    const row = page.locator(`tr[data-plan="${planId}"]`);
    expect(await row.locator(".instruction").textContent()).toBe("« Saisis les patients »");
    expect(await row.locator(".status").textContent()).toBe("interrupted");
    expect(await row.locator(".counts").textContent()).toBe("2: 1 running, 1 failed");
    await row.locator(`a[href="/plans/${planId}"]`).click();
    const items = await page.locator("table.ledger tr[data-item]").evaluateAll((trs) => trs.map((tr) => ({ status: tr.querySelector(".status")?.textContent, exception: tr.querySelector(".exception")?.textContent, attempts: tr.querySelector(".attempts")?.textContent, reason: tr.querySelector(".reason")?.textContent ?? "", run: tr.querySelector(".run a")?.getAttribute("href") ?? null })));
    expect(items.map((i) => [i.status, i.exception, i.attempts])).toEqual([["failed", "system", "1"], ["interrupted", "", "1"]]);
    expect(items[0]!.reason).toContain("window_not_found");
    expect(items[1]!.run).toBe(`/runs/${second!.runId}`);
    expect(await page.locator("#plan-status").textContent()).toBe("interrupted");
    await page.locator("table.ledger tr[data-item] .run a").first().click();
    expect(await page.locator(".run-status").first().textContent()).toBe("failed");
    await page.goto(`${base}/runs`);
    expect(await page.locator(`tr[data-run="${second!.runId}"] .status`).textContent()).toBe("interrupted");
    await page.locator(`tr[data-run="${second!.runId}"] a[href="/runs/${second!.runId}"]`).click();
    expect(await page.locator(".run-status").first().textContent()).toBe("interrupted");
    expect(await page.locator("#interrupted-note").textContent()).toContain("rpav replay --resume");
  }, 180_000);

  it("a run started from the page never carries a variable value on the child's argv, and never asks for a secret", async () => {
    const demo = demos[0]!;
    const secretWf: Workflow = { ...demo, workflow_id: "wf_secret_lab", variables: demo.variables.map((v) => (v.name === "date_de_naissance" ? { ...v, name: "mot_de_passe", type: "secret", secret: true, example: null } : v)), steps: demo.steps.map((x) => (x.text === "{{date_de_naissance}}" ? { ...x, text: "{{mot_de_passe}}" } : x)) };
    await withStore((s) => s.putWorkflow(secretWf));
    const SECRET = "Tr0ub4dor&3-lab";
    await page.goto(`${base}/start?workflow=wf_secret_lab`);
    expect(await page.locator("#var_mot_de_passe").count()).toBe(0);
    expect(await page.locator("#secret_mot_de_passe").textContent()).toBe("taken from the credential store (rpav secret set mot_de_passe)");
    await page.locator("#var_nom").fill("Durand-Argv");
    await page.locator("#var_prenom").fill("Zoé-Argv");
    // A forged field for the secret, as a hand-made request could send: the studio drops it.
    await page.evaluate((v) => {
      const f = document.querySelector<{ insertAdjacentHTML(p: string, h: string): void }>("#start-form")!;
      f.insertAdjacentHTML("beforeend", `<input type="hidden" name="var_mot_de_passe" value="${v}">`);
    }, SECRET);
    await page.locator("#start-button").click();
    await page.waitForURL(/\/live\//);
    await page.waitForFunction(() => document.getElementById("live-status")?.textContent !== "running…", undefined, { timeout: 60_000 });
    const lines = await page.locator("#live-events li").allTextContents();
    const argv = lines.find((l) => l.startsWith("$ "))!; // the child's argv, as given to the system
    expect(argv).toContain(" replay ");
    expect(argv).toContain("--vars-file");
    expect(argv).not.toMatch(/Durand-Argv|Zoé-Argv|Tr0ub4dor/);
    // nom and prenom reached the child through the file; the secret did not (no credential store here).
    expect(lines.join("\n")).toMatch(/secret_unavailable.*No value for the secret variable "mot_de_passe".*nothing was run/);
    const varsFile = argv.split(" ")[argv.split(" ").indexOf("--vars-file") + 1]!;
    expect(existsSync(varsFile)).toBe(false); // deleted by the child once read
    const leaked = spawnSync("grep", ["-rl", "--", SECRET, dataDir], { encoding: "utf8" });
    expect([leaked.status, leaked.stdout]).toEqual([1, ""]); // grep: 1 = found nowhere
  }, 90_000);

  it("no page broke the Content Security Policy or logged an error", () => {
    expect(pageErrors).toEqual([]);
  });
});
