// `rpav run` without a desktop: the plan (--dry-run, --json) from a folder, a CSV and an XLSX
// sheet; and every refusal before any action — no terminal to confirm, two workflows too close to
// call, a variable no item fills, an unknown plan. Real files, the real CLI, a real SQLite store.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SqliteStore } from "../src/store/sqlite-store.js";
import { ROOT, rpav } from "./support/cli.js";
import { spawn } from "node:child_process";
import { hostname } from "node:os";

const tmp = mkdtempSync(join(tmpdir(), "rpav-run-cli-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const demo = (n: string) => JSON.parse(readFileSync(join(ROOT, `demos/${n}/workflow.json`), "utf8"));
const home = (n: string) => join(tmp, n);
// No desktop, and no model server (a port nothing listens on: the deterministic parse).
const env = (n: string) => ({ DISPLAY: "", RPAV_HOME: home(n), RPAV_VLM_URL: "http://127.0.0.1:9" });
const dossiers = join(tmp, "dossiers");
const NAMES = ["dossier-2026-01-05.txt", "12012026-dupont.txt", "Dossier janvier Martin.txt", "dossier-2026-02-03.txt", "03-02-2026 durand.txt"];

beforeAll(async () => {
  mkdirSync(dossiers, { recursive: true });
  for (const n of NAMES) writeFileSync(join(dossiers, n), `contenu ${n}\n`);
  for (const [name, wfs] of [["all", ["mousepad-open-save", "yad-patient", "widget-factory"]], ["two", ["yad-patient", "widget-factory"]], ["lock", ["mousepad-open-save"]]] as const) {
    const s = SqliteStore.open(home(name));
    for (const w of wfs) await s.putWorkflow(demo(w));
    await s.close();
  }
});

const plans = async (n: string) => {
  const s = SqliteStore.open(home(n));
  try {
    return (s as unknown as { db: { prepare(q: string): { all(): unknown[] } } }).db.prepare("SELECT plan_id FROM plans").all().length;
  } finally {
    await s.close();
  }
};

describe("rpav run --dry-run", () => {
  it("« Traite les dossiers de janvier » on a folder: the workflow, the three January files, their bindings and date rules, the time; nothing runs", async () => {
    const r = rpav(["run", "Traite les dossiers de janvier", "--in", dossiers, "--var", "texte=Traité", "--var", "texte_2=ok", "--dry-run"], env("all"));
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/workflow: « Compléter un fichier »/);
    expect(r.stdout).toMatch(/items: 3 of 5 in folder/);
    expect(r.stdout).toMatch(/12012026-dupont\.txt — 2026-01-12 \(name: DDMMYYYY\)/);
    expect(r.stdout).toMatch(/Dossier janvier Martin\.txt — --01 \(name: month-name\)/);
    expect(r.stdout).toMatch(/chemin = ".*dossier-2026-01-05\.txt" {2}\[type path ← path\]/);
    expect(r.stdout).toMatch(/estimated time: \d+/);
    expect(r.stdout).toMatch(/dossier-2026-02-03\.txt: date 2026-02-03 \(name: YYYY-MM-DD\) outside the filter/);
    expect(r.stdout).toMatch(/nothing was run/);
    expect(await plans("all")).toBe(0);
    for (const n of NAMES) expect(readFileSync(join(dossiers, n), "utf8")).toBe(`contenu ${n}\n`);
  });

  it("an English instruction on an XLSX sheet, as JSON: rows bound by column name", async () => {
    const f = join(tmp, "rows.xlsx");
    const wb = new ExcelJS.Workbook();
    const s = wb.addWorksheet("Sheet1");
    s.addRow(["chemin", "texte", "date"]);
    s.addRow([join(dossiers, NAMES[0]!), "Paid", new Date(Date.UTC(2026, 0, 5))]);
    s.addRow([join(dossiers, NAMES[3]!), "Late", new Date(Date.UTC(2026, 1, 3))]);
    await wb.xlsx.writeFile(f);
    const r = rpav(["run", "complete the rows from january 2026", "--in", f, "--var", "texte_2=x", "--dry-run", "--json"], env("all"));
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.plan.instruction).toMatchObject({ language: "en", verb: "complete", noun: "rows", filters: { date: { kind: "month", month: 1, year: 2026 } } });
    expect(out.plan.source.kind).toBe("xlsx");
    expect(out.plan.items.map((x: { bindings: unknown }) => x.bindings)).toEqual([{ chemin: join(dossiers, NAMES[0]!), texte: "Paid", texte_2: "x" }]);
    expect(out.left_out).toEqual([expect.objectContaining({ why: expect.stringMatching(/2026-02-03/) })]);
  });

  it("a CSV source with --workflow by name", () => {
    const f = join(tmp, "rows.csv");
    writeFileSync(f, `chemin;texte;texte_2\n${join(dossiers, NAMES[1]!)};A;B\n${join(dossiers, NAMES[2]!)};C;D\n`);
    const r = rpav(["run", "les 2 premières lignes", "--in", f, "--workflow", "compléter un fichier", "--dry-run"], env("all"));
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/--workflow/);
    expect(r.stdout).toMatch(/texte = "C" {2}\[field « texte »\]/);
  });
});

describe("rpav run refuses before any action", () => {
  it("without a terminal and without --yes: the plan is shown, then a clear refusal; no plan is stored", async () => {
    const r = rpav(["run", "Traite les dossiers de janvier", "--in", dossiers, "--var", "texte=a", "--var", "texte_2=b"], env("all"));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/items: 3 of 5/);
    expect(r.stderr).toMatch(/rpav: error \[invalid_input\]: Not run: the plan above needs a confirmation and there is no terminal to ask\. Add --yes/);
    expect(await plans("all")).toBe(0);
  });

  it("two workflows too close to call: ambiguous_workflow naming both", () => {
    const r = rpav(["run", "Fais le travail", "--in", dossiers, "--yes"], env("two"));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/rpav: error \[ambiguous_workflow\]: Which workflow\?.*« (Nouveau patient|Réglages widget factory) ».*« (Nouveau patient|Réglages widget factory) ».*--workflow/);
  });

  it("a variable no item fills: reported for all items before anything runs", async () => {
    const r = rpav(["run", "Traite les dossiers de janvier", "--in", dossiers, "--yes"], env("all"));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/\[invalid_input\]: Unbound variables, nothing was run: texte \(text, recorded « Première ligne »\) for all 3 items; texte_2 \(text, recorded « Deuxième : Zoë € »\) for all 3 items\. The items offer: path, file_name/);
    expect(await plans("all")).toBe(0);
    for (const n of NAMES) expect(readFileSync(join(dossiers, n), "utf8")).toBe(`contenu ${n}\n`);
  });

  it("no item matches, an unknown plan, no instruction: clear errors", () => {
    expect(rpav(["run", "Traite les dossiers de mars", "--in", dossiers, "--yes"], env("all")).stderr).toMatch(/No item of .* matches « Traite les dossiers de mars » \(5 listed; /);
    expect(rpav(["run", "--resume", "plan_nope"], env("all")).stderr).toMatch(/\[invalid_input\]: No plan plan_nope/);
    expect(rpav(["run"], env("all")).stderr).toMatch(/Give an instruction/);
  });
});

describe("one process per plan", () => {
  it("a resume while a live process holds the plan: plan_locked naming the plan and its pid; the same instruction started again is refused too; once the holder is gone its lock is taken over", async () => {
    const args = ["run", "Traite les dossiers de janvier", "--in", dossiers, "--var", "texte=a", "--var", "texte_2=b", "--max-retries", "0"];
    // A stored plan (its items fail here: no desktop).
    const first = rpav([...args, "--yes"], env("lock"));
    const planId = /plan (plan_\S+) →/.exec(first.stderr)?.[1];
    expect(planId, first.stderr).toBeDefined();
    const holderProcess = spawn("sleep", ["60"], { stdio: "ignore" });
    const pid = holderProcess.pid!;
    const s = SqliteStore.open(home("lock"));
    try {
      // The plan as a live process running it would leave it: locked, its items still to do.
      expect((await s.lockPlan(planId!, { token: "other", pid, host: hostname(), since: "2026-12-02T10:00:00Z" }, () => false)).ok).toBe(true);
      for (const it of await s.planItems(planId!)) await s.updatePlanItem(planId!, it.itemKey, { status: "pending" });
      const before = await s.planItems(planId!);

      const resumed = rpav(["run", "--resume", planId!], env("lock"));
      expect(resumed.code).toBe(1);
      expect(resumed.stderr).toContain(`rpav: error [plan_locked]: Plan ${planId} is being run by another rpav (pid ${pid}, since 2026-12-02T10:00:00Z)`);
      const twice = rpav([...args, "--yes"], env("lock"));
      expect(twice.code).toBe(1);
      expect(twice.stderr).toMatch(new RegExp(`\\[plan_locked\\]: Plan ${planId} \\(pid ${pid}, since [^)]+\\) is already running « Compléter un fichier » on 3 of these items .*Nothing was run`));
      expect(await s.planItems(planId!)).toEqual(before);
      expect(await plans("lock")).toBe(1);

      holderProcess.kill("SIGKILL");
      await new Promise((r) => holderProcess.once("exit", r));
      const after = rpav(["run", "--resume", planId!], env("lock"));
      expect(after.stderr).toContain(`its lock was held by pid ${pid}, which is gone: taken over`);
      expect((await s.planItems(planId!)).map((i) => i.attempts)).toEqual(before.map((i) => i.attempts + 1));
      // Released at the end.
      expect(await s.lockedPlans("wf_completer_un_fichier")).toEqual([]);
    } finally {
      if (holderProcess.exitCode === null && holderProcess.signalCode === null) holderProcess.kill("SIGKILL");
      await s.close();
    }
  }, 120_000);
});

describe("--app: the app started per item", () => {
  it("runs in its own process group and is ended with all its children; a command that fails at once is a typed error", async () => {
    const { ShellAppSession } = await import("../src/cli/commands/run.js");
    const pidFile = join(tmp, "app.pid");
    const app = new ShellAppSession(`sleep 60 & echo $! > ${pidFile}; wait`, () => process.env, 300);
    await app.start();
    // The shell writes the pid a moment after it starts (later on a loaded machine).
    for (let k = 0; k < 100 && !(existsSync(pidFile) && readFileSync(pidFile, "utf8").trim()); k++) await new Promise((r) => setTimeout(r, 50));
    const pid = Number(readFileSync(pidFile, "utf8"));
    // Alive: in /proc and not a zombie (this container's init may reap late).
    const alive = (p: number) => {
      try {
        return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${p}/stat`, "utf8"));
      } catch {
        return false;
      }
    };
    expect(alive(pid)).toBe(true);
    await app.stop();
    expect(alive(pid)).toBe(false);
    await expect(new ShellAppSession("exit 3", () => process.env, 500).start()).rejects.toMatchObject({ code: "command_failed", message: expect.stringMatching(/exited with code 3/) });
  });
});
