// End-to-end replay in the lab: the committed demos (recorded once by lab/record-demos.ts) replayed
// on real apps under a changed screen, with new data, checked by each app's real output (yad's
// stdout per CSV row, the bytes mousepad saved, AT-SPI states of gtk3-widget-factory). Then a run
// that fails (no window), is resumed, and whose HTML report is opened in headless Chromium.
// The full task × perturbation matrix runs in bench/replay (too long for every test run).
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import { runCommand, sleep } from "../../src/core/process.js";
import type { AppVariant } from "../../src/platform/x11/desktop-lab.js";
import { MOUSEPAD_OPEN_SAVE, WIDGET_FACTORY, YAD_PATIENT, type ReplayTask, type TaskRun } from "../../src/lab/replay-tasks.js";
import { replayWorkflow } from "../../src/cli/commands/replay.js";
import { readTrace } from "../../src/replay/trace.js";
import { labKit } from "./support.js";

const kit = labKit();
afterAll(() => kit.cleanup());
const dataDir = mkdtempSync(join(tmpdir(), "rpav-replay-test-"));
const demo = (t: ReplayTask) => new URL(`../../demos/${t.name}/workflow.json`, import.meta.url).pathname;

/** Replays `task` once per row, a fresh app per row (moved away from where it was recorded), and returns each row's oracle. */
async function replayTask(task: ReplayTask, variant: AppVariant, rows: Record<string, string>[], extra: { dataPath?: string; vars?: Record<string, string> } = {}) {
  const seen: string[] = [];
  let run: TaskRun | undefined;
  const result = await replayWorkflow(
    {
      workflowPath: demo(task),
      ...(extra.dataPath ? { dataPath: extra.dataPath } : {}),
      ...(extra.vars ? { vars: extra.vars } : {}),
      beforeRow: async (row) => {
        run = await task.start({ env: kit.env }, kit.windows, variant, rows[row] ?? {});
        // Window moved: away from the centre where openbox placed it when recorded.
        await runCommand("xdotool", ["windowmove", run.app.window.id, String(40 + 60 * row), "30"], { env: kit.env });
        await sleep(800);
      },
      afterRow: async () => {
        seen.push(await run!.observe());
        await run!.stop();
      },
    },
    kit.env,
    dataDir,
    () => undefined,
  );
  return { result, seen };
}

describe("replay of the recorded demos on real apps", () => {
  it("yad form from a 3-row CSV, dark theme, window moved: yad prints each row's values", async () => {
    const csv = join(dataDir, "patients.csv");
    writeFileSync(csv, `nom;prenom;date_de_naissance\n${YAD_PATIENT.rows.map((r) => `${r.nom};${r.prenom};${r.date_de_naissance}`).join("\n")}\n`);
    const { result, seen } = await replayTask(YAD_PATIENT, { theme: "dark" }, YAD_PATIENT.rows as Record<string, string>[], { dataPath: csv });
    expect(seen).toEqual(YAD_PATIENT.rows.map((r) => YAD_PATIENT.expected(r)));
    expect(result.summary.map((s) => s.status)).toEqual(["passed", "passed", "passed"]);
    const trace = readTrace(result.runDir);
    const befores = trace.events.filter((e) => e.type === "before" && e.method === "element");
    expect(befores.length).toBeGreaterThanOrEqual(12); // 4 clicks per row, each grounded on the live screen
  }, 400_000);

  it("mousepad at GDK_SCALE=2 with new data: the file opened through File › Open holds the new accented text", async () => {
    const row = MOUSEPAD_OPEN_SAVE.rows[0]!;
    const { result, seen } = await replayTask(MOUSEPAD_OPEN_SAVE, { scale: 2 }, [row], { vars: { ...row } });
    expect(seen).toEqual([MOUSEPAD_OPEN_SAVE.expected(row)]);
    expect(Buffer.from(seen[0]!, "utf8").equals(Buffer.from("Facture n° 42\nRéglée le 3 mars : 120 €", "utf8"))).toBe(true);
    expect(result.status).toBe("passed");
  }, 200_000);

  it("gtk3-widget-factory at GDK_DPI_SCALE=1.5: page tabs, the 2nd of several equal checkboxes, a combo item — AT-SPI states", async () => {
    const { result, seen } = await replayTask(WIDGET_FACTORY, { textScale: 1.5 }, [{}]);
    expect(seen).toEqual([WIDGET_FACTORY.expected({})]);
    expect(result.status).toBe("passed");
  }, 200_000);

  it("the app crashing mid-run fails the step with a typed error, nothing is sent elsewhere, and the run can resume", async () => {
    const runDir = join(dataDir, "crash");
    const row = YAD_PATIENT.rows[1]!;
    const run = await YAD_PATIENT.start({ env: kit.env }, kit.windows, {}, row);
    let killed = false;
    const failed = await replayWorkflow({ workflowPath: demo(YAD_PATIENT), vars: { ...row }, runDir, windowTimeoutMs: 1500 }, kit.env, dataDir, (line) => {
      // The app dies while the third step (click on « Prénom ») starts.
      if (!killed && /step 3\/7 .*…/.test(line)) {
        killed = true;
        run.app.process.kill("SIGKILL");
      }
    });
    expect(killed).toBe(true);
    expect(failed.status).toBe("failed");
    const end = readTrace(runDir).events.find((e) => e.type === "row_end");
    expect(end?.type === "row_end" && end.failed_step).toBeGreaterThanOrEqual(2);
    expect(end?.type === "row_end" && end.error?.code).toMatch(/^(window_not_found|timeout)$/);
    // The failed step sent nothing: no action event at or after it.
    const failedStep = end?.type === "row_end" ? (end.failed_step ?? 0) : 0;
    expect(readTrace(runDir).events.filter((e) => e.type === "action" && e.step >= failedStep)).toEqual([]);
    // Resumable: a new form, and the run goes on from the step that failed.
    const again = await YAD_PATIENT.start({ env: kit.env }, kit.windows, {}, row);
    try {
      const resumed = await replayWorkflow({ workflowPath: "", resume: runDir }, kit.env, dataDir, () => undefined);
      expect(resumed.status).toBe("passed");
      // The new form only got what the remaining steps type (the surname was typed into the dead one).
      expect(await again.observe()).toBe(`|${row.prenom}|${row.date_de_naissance}|`);
    } finally {
      await again.stop();
    }
  }, 200_000);

  it("a missing icon crop fails its step with a typed error naming the file, shown in the report; earlier steps are kept", async () => {
    const wf = JSON.parse(readFileSync(demo(YAD_PATIENT), "utf8"));
    const ok = wf.steps.at(-1);
    ok.target = { ...ok.target, label: "", by_text: null, icon: "icons/ok-button.png" };
    const file = join(dataDir, "no-icon", "workflow.json");
    mkdirSync(join(dataDir, "no-icon"), { recursive: true });
    writeFileSync(file, JSON.stringify(wf));
    const row = YAD_PATIENT.rows[2]!;
    const run = await YAD_PATIENT.start({ env: kit.env }, kit.windows, {}, row);
    try {
      const r = await replayWorkflow({ workflowPath: file, vars: { ...row }, runDir: join(dataDir, "no-icon", "run") }, kit.env, dataDir, () => undefined);
      expect(r.status).toBe("failed");
      const trace = readTrace(r.runDir);
      const end = trace.events.find((e) => e.type === "row_end");
      expect(end).toMatchObject({ failed_step: 6, error: { code: "invalid_input" } });
      expect(end?.type === "row_end" && end.error?.message).toContain(join(dataDir, "no-icon", "icons", "ok-button.png"));
      // Earlier steps are kept: the six before it ran, the typing ones verified by reading their field back; a click that
      // only focuses a field is checked by the typing after it (the actor marks it unverified on its own).
      const earlier = trace.events.filter((e) => e.type === "after" && e.step < 6).map((e) => (e as { status: string }).status);
      expect(earlier).toHaveLength(6);
      expect(earlier.filter((s) => s === "passed")).toHaveLength(3);
      expect(earlier.every((s) => s === "passed" || s === "unverified")).toBe(true);
      expect(readFileSync(r.report, "utf8")).toContain("ok-button.png");
    } finally {
      await run.stop();
    }
  }, 200_000);

  it("a window that never appears fails the step (typed error, nothing sent); the run resumes once the app is there; the report shows it", async () => {
    const runDir = join(dataDir, "resumed");
    const failed = await replayWorkflow({ workflowPath: demo(YAD_PATIENT), vars: { ...YAD_PATIENT.rows[0]! }, runDir, windowTimeoutMs: 1500 }, kit.env, dataDir, () => undefined);
    expect(failed.status).toBe("failed");
    const firstTrace = readTrace(runDir);
    const end = firstTrace.events.find((e) => e.type === "row_end");
    expect(end).toMatchObject({ status: "failed", failed_step: 0, error: { code: "window_not_found" } });
    expect(firstTrace.events.some((e) => e.type === "action")).toBe(false);

    const run = await YAD_PATIENT.start({ env: kit.env }, kit.windows, {}, YAD_PATIENT.rows[0]!);
    try {
      const resumed = await replayWorkflow({ workflowPath: "", resume: runDir }, kit.env, dataDir, () => undefined);
      expect(resumed.status).toBe("passed");
      expect(await run.observe()).toBe(YAD_PATIENT.expected(YAD_PATIENT.rows[0]!));
    } finally {
      await run.stop();
    }
    const trace = readTrace(runDir);
    expect(trace.events.filter((e) => e.type === "resume")).toHaveLength(1);

    const browser = await chromium.launch({ executablePath: process.env.RPAV_CHROMIUM ?? "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"] });
    try {
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      await page.goto(`file://${join(runDir, "report.html")}`);
      const seen = (await page.evaluate(`(() => {
        const imgs = [...document.querySelectorAll("img")];
        const chosen = [...document.querySelectorAll("rect.chosen")].map((r) => r.getBoundingClientRect());
        return {
          images: imgs.length,
          loaded: imgs.filter((i) => i.complete && i.naturalWidth > 0).length,
          chosen: chosen.length,
          chosenVisible: chosen.filter((b) => b.width > 2 && b.height > 2).length,
          status: document.querySelector(".run-status")?.textContent,
          rows: document.querySelectorAll("table.rows tr.passed, table.rows tr.failed").length,
          steps: document.querySelectorAll("section.step").length,
          failedSteps: document.querySelectorAll("section.step.failed").length,
        };
      })()`)) as { images: number; loaded: number; chosen: number; chosenVisible: number; status: string; rows: number; steps: number; failedSteps: number };
      expect(seen.images).toBeGreaterThan(10);
      expect(seen.loaded).toBe(seen.images);
      expect(seen.chosen).toBeGreaterThanOrEqual(4);
      expect(seen.chosenVisible).toBe(seen.chosen);
      expect(seen.status).toBe("passed");
      expect(seen.rows).toBe(1);
      expect(seen.failedSteps).toBe(1); // the first attempt, kept in the report
      expect(seen.steps).toBe(8);
      expect(readFileSync(join(runDir, "report.html"), "utf8")).not.toMatch(/src="(?!data:)/); // self-contained
    } finally {
      await browser.close();
    }
  }, 200_000);
});
