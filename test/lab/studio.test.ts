// RPA Vision Studio in headless Chromium against a real server (`startStudio`, as `rpav serve`
// starts it) on a temporary data directory: the demo workflows in the store, real runs of the yad
// demo on a real yad form (one that fails because the window never appears, one that passes), a
// question asked by a waiting AssistFiles.ask in this process about a real window whose title
// holds a <script>, and a run started from the page (a real `rpav replay` child) followed live.
import { mkdirSync, mkdtempSync, readFileSync } from "node:fs";
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
import { SqliteStore } from "../../src/store/sqlite-store.js";
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

  it("no page broke the Content Security Policy or logged an error", () => {
    expect(pageErrors).toEqual([]);
  });
});
