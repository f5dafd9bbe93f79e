// The planner end to end without a desktop: the committed demo workflows as the stored ones, real
// files and a real SQLite store, and an ItemRunner that edits each item's file (as the recorded
// editor workflow does) and fails where a test says.
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { AbortedError, RpaError } from "../core/errors.js";
import type { AppSession, ItemRunner, ItemRunRequest, ItemRunResult } from "../core/providers/item-runner.js";
import type { InstructionProposer } from "../core/providers/instruction-proposer.js";
import { WorkflowSchema, type Workflow } from "../core/schemas/workflow.js";
import { SqliteStore } from "../store/sqlite-store.js";
import { bindItems, formatDateLike } from "./bind.js";
import { chooseWorkflow, type WorkflowCandidate } from "./choose-workflow.js";
import { classifyFailure } from "./failures.js";
import { parseInstruction } from "./instruction.js";
import { listFolder } from "./items.js";
import { executePlan, itemsToRun, preparePlan, startPlan, type PrepareRequest } from "./planner.js";
import { formatPlan } from "./preview.js";
import { planCsv, renderPlanReport, summarizeItems, summaryLine } from "./report.js";

const demo = (name: string): Workflow => WorkflowSchema.parse(JSON.parse(readFileSync(new URL(`../../demos/${name}/workflow.json`, import.meta.url), "utf8")));
const editor = demo("mousepad-open-save");
const patient = demo("yad-patient");
const widgets = demo("widget-factory");
const stored: WorkflowCandidate[] = [editor, patient, widgets].map((workflow) => ({ workflow, version: 1, origin: "store" }));
const now = new Date(2026, 11, 2, 10);
const tmp = mkdtempSync(join(tmpdir(), "rpav-planner-"));
const stores: SqliteStore[] = [];
afterAll(async () => Promise.all(stores.map((s) => s.close())));

const NAMES = ["dossier-2026-01-05.txt", "12012026-dupont.txt", "Dossier janvier Martin.txt", "dossier-2026-02-03.txt", "03-02-2026 durand.txt", "dossier-2025-12-30.txt", "mars-2026-bernard.txt", "2026_03_15_petit.txt"];

function folder(name: string): string {
  const d = join(tmp, name);
  mkdirSync(d, { recursive: true });
  for (const n of NAMES) writeFileSync(join(d, n), `contenu de ${n}\n`);
  return d;
}

/** Appends the typed line to the item's file, as the editor workflow does; fails as `fail` says. */
class FileEditingRunner implements ItemRunner {
  readonly name = "file-editing";
  readonly calls: string[] = [];
  constructor(private readonly fail: (req: ItemRunRequest) => { code: string; stepId: string | null } | "throw" | undefined = () => undefined) {}
  async run(req: ItemRunRequest): Promise<ItemRunResult> {
    this.calls.push(req.label);
    const f = this.fail(req);
    if (f === "throw") throw new RpaError("display_unavailable", "no display");
    mkdirSync(req.runDir, { recursive: true });
    writeFileSync(join(req.runDir, "report.html"), "<html></html>");
    if (f) return { status: "failed", runId: `run_${req.index}_${req.attempt}`, runDir: req.runDir, report: null, error: { code: f.code, message: `${f.code} on ${req.label}`, stepId: f.stepId } };
    appendFileSync(req.bindings.chemin!, `${req.bindings.texte}\n`);
    return { status: "passed", runId: `run_${req.index}_${req.attempt}`, runDir: req.runDir, report: join(req.runDir, "report.html"), error: null };
  }
}

class CountingApp implements AppSession {
  readonly description = "counting";
  starts = 0;
  stops = 0;
  async start() {
    this.starts++;
  }
  async stop() {
    this.stops++;
  }
}

async function storeFor(name: string): Promise<SqliteStore> {
  const s = SqliteStore.open(join(tmp, `db-${name}`));
  stores.push(s);
  return s;
}

function request(name: string, instruction: string, source: string, extra: Partial<PrepareRequest> = {}): PrepareRequest {
  return { instruction, now, source, candidates: stored, planId: `plan_${name}`, reportDir: join(tmp, `report-${name}`), bind: { constants: { texte: "Traité", texte_2: "ok" } }, ...extra };
}

describe("choosing the workflow", () => {
  const items = listFolder(folder("choose")).items;
  it("the editor workflow for files, by its words and the variables files can fill", () => {
    const c = chooseWorkflow(parseInstruction("Complète les fichiers de janvier", { now }).task_words, stored, items);
    expect(c.kind).toBe("chosen");
    expect(c.kind === "chosen" && c.chosen.workflow.workflow_id).toBe(editor.workflow_id);
  });
  it("the patient workflow for a patient sheet", () => {
    const rows = [{ key: "r1", label: "Dupont", fields: { nom: "Dupont", prenom: "Léa", date_de_naissance: "1980-02-01" }, date: null, date_rule: null }];
    const c = chooseWorkflow(parseInstruction("Saisis les nouveaux patients", { now }).task_words, stored, rows);
    expect(c.kind === "chosen" && c.chosen.workflow.workflow_id).toBe(patient.workflow_id);
  });
  it("two workflows that fit as badly: ambiguous, naming both", () => {
    const c = chooseWorkflow(["bonjour"], stored.slice(1), []);
    expect(c.kind).toBe("ambiguous");
    expect(c.kind === "ambiguous" && c.reason).toMatch(/Nouveau patient.*Réglages widget factory|Réglages widget factory.*Nouveau patient/);
  });
});

describe("binding", () => {
  it("path by type, constants, dates in the recorded format, and every unbound variable for all items at once", () => {
    const items = listFolder(folder("bind")).items.slice(0, 2);
    const b = bindItems(editor, items, { constants: { texte: "a", texte_2: "b" } });
    expect(b[0]!.bindings.chemin).toBe(items[0]!.fields.path);
    expect(b[0]!.sources.chemin).toBe("type path ← path");
    expect(() => bindItems(editor, items)).toThrow(/Unbound variables, nothing was run: texte \(text, recorded « Première ligne »\) for all 2 items; texte_2/);
    expect(() => bindItems(patient, items)).toThrow(expect.objectContaining({ code: "invalid_input", details: expect.objectContaining({ missing: expect.objectContaining({ nom: expect.any(Array) }) }) }));
    expect(() => bindItems(editor, items, { constants: { nope: "x" } })).toThrow(/"nope": not a variable/);
    expect(formatDateLike("2026-01-15", "12/03/1985")).toBe("15/01/2026");
    const rows = [{ key: "r", label: "r", fields: { Nom: "Dupont", Prénom: "Léa", date: "2026-01-15" }, date: "2026-01-15", date_rule: "column « date »" }];
    expect(() => bindItems(patient, rows)).toThrow(/date_de_naissance/);
    const ok = bindItems(patient, [{ ...rows[0]!, fields: { ...rows[0]!.fields, "Date de naissance": "1980-02-01" } }]);
    expect(ok[0]!.bindings).toEqual({ nom: "Dupont", prenom: "Léa", date_de_naissance: "01/02/1980" });
  });
});

describe("business or system", () => {
  it("classifies by the typed code, and a target not found by whether its step uses the item's data", () => {
    expect(classifyFailure("postcheck_failed", editor, "step_006")).toBe("business"); // the window named after the item's file did not come
    expect(classifyFailure("postcheck_failed", editor, "step_001")).toBe("system"); // the File menu did not open
    expect(classifyFailure("invalid_input", editor, null)).toBe("business");
    expect(classifyFailure("window_not_found", editor, "step_001")).toBe("system");
    expect(classifyFailure("display_unavailable", editor, null)).toBe("system");
    expect(classifyFailure("provider_unavailable", editor, null)).toBe("system");
    expect(classifyFailure("target_not_found", editor, "step_001")).toBe("system"); // « File » menu: not the item's data
    expect(classifyFailure("target_not_found", editor, "step_007")).toBe("business"); // the window titled with the item's path
  });
});

describe("plans and the ledger", () => {
  it("« Traite les dossiers de janvier »: exactly the three January files, each once, and the report lists them", async () => {
    const store = await storeFor("jan");
    const d = folder("jan");
    const before = Object.fromEntries(NAMES.map((n) => [n, readFileSync(join(d, n), "utf8")]));
    const p = await preparePlan(request("jan", "Traite les dossiers de janvier", d, { doneItems: (id) => store.doneItems(id) }));
    expect(p.document.workflow.workflow_id).toBe(editor.workflow_id);
    expect(p.document.items.map((x) => x.item.label)).toEqual(["12012026-dupont.txt", "Dossier janvier Martin.txt", "dossier-2026-01-05.txt"]);
    expect(formatPlan(p)).toMatch(/name: DDMMYYYY.*\n[\s\S]*chemin = .*\[type path ← path\][\s\S]*estimated time/);
    await startPlan(store, p);
    const app = new CountingApp();
    const runner = new FileEditingRunner();
    const ledger = await executePlan(store, "plan_jan", { runner, app });
    expect(ledger.map((l) => l.status)).toEqual(["done", "done", "done"]);
    expect(app.starts).toBe(3);
    for (const n of NAMES) expect(readFileSync(join(d, n), "utf8")).toBe(p.document.items.some((x) => x.item.label === n) ? `${before[n]}Traité\n` : before[n]);
    const items = summarizeItems(p.document, ledger);
    expect(items.map((i) => i.reports)).toEqual([["items/001-12012026-dupont.txt/attempt-1/report.html"], ["items/002-Dossier_janvier_Martin.txt/attempt-1/report.html"], ["items/003-dossier-2026-01-05.txt/attempt-1/report.html"]]);
    expect(summaryLine(p.document, ledger)).toBe("3 dossiers traités");
    expect(planCsv(items).split("\n")[1]).toMatch(/^1,.*12012026-dupont\.txt,done,/);
    // Asked again: done items are skipped unless forced; « non traités » leaves them out.
    const again = await preparePlan(request("jan2", "Traite les dossiers de janvier", d, { doneItems: (id) => store.doneItems(id) }));
    await startPlan(store, again);
    expect((await executePlan(store, "plan_jan2", { runner })).map((l) => l.status)).toEqual(["skipped", "skipped", "skipped"]);
    expect(runner.calls.length).toBe(3);
    await expect(preparePlan(request("jan3", "Traite les dossiers de janvier non traités", d, { doneItems: (id) => store.doneItems(id) }))).rejects.toThrow(/already done/);
  });

  it("a business failure does not stop the others and is not retried; a system failure restarts the app and retries up to N times", async () => {
    const store = await storeFor("fail");
    const d = folder("fail");
    const p = await preparePlan(request("fail", "Traite les dossiers de janvier", d, { maxSystemRetries: 2 }));
    await startPlan(store, p);
    let flaky = 0;
    const runner = new FileEditingRunner((req) => {
      if (req.label.startsWith("12012026")) return { code: "postcheck_failed", stepId: "step_006" };
      if (req.label.startsWith("Dossier janvier") && flaky++ < 1) return { code: "window_not_found", stepId: "step_001" };
      if (req.label.startsWith("dossier-2026-01-05")) return "throw";
      return undefined;
    });
    const app = new CountingApp();
    const ledger = await executePlan(store, "plan_fail", { runner, app });
    expect(ledger.map((l) => [l.status, l.exceptionClass, l.errorCode, l.attempts])).toEqual([
      ["failed", "business", "postcheck_failed", 1],
      ["done", null, null, 2],
      ["failed", "system", "display_unavailable", 3],
    ]);
    expect(runner.calls).toEqual(["12012026-dupont.txt", "Dossier janvier Martin.txt", "Dossier janvier Martin.txt", "dossier-2026-01-05.txt", "dossier-2026-01-05.txt", "dossier-2026-01-05.txt"]);
    expect(app.starts).toBe(6);
    expect(app.stops).toBe(6);
    expect(summaryLine(p.document, ledger)).toBe("1 dossier traité, 2 en échec : 12012026-dupont.txt (postcheck_failed, métier), dossier-2026-01-05.txt (display_unavailable, système)");
    // A resume runs the system failure again, not the business one (unless asked).
    expect(itemsToRun(ledger, {}).run.map((l) => l.ord)).toEqual([2]);
    expect(itemsToRun(ledger, { retryBusiness: true }).run.map((l) => l.ord)).toEqual([0, 2]);
  });

  it("an interrupted plan resumes with the items not done; a done item never runs twice unless forced", async () => {
    const store = await storeFor("resume");
    const d = folder("resume");
    const p = await preparePlan(request("resume", "process the files from january", d));
    await startPlan(store, p);
    const ctl = new AbortController();
    const runner = new FileEditingRunner((req) => {
      if (req.index === 1) ctl.abort(); // stopped while the second item runs
      return undefined;
    });
    await expect(executePlan(store, "plan_resume", { runner, signal: ctl.signal })).rejects.toBeInstanceOf(AbortedError);
    // The second item's run ended (done); the stop comes before the third.
    expect((await store.planItems("plan_resume")).map((l) => l.status)).toEqual(["done", "done", "pending"]);
    expect((await store.getPlan("plan_resume"))?.status).toBe("running");
    // A process killed mid-item leaves it running: a resume takes it again.
    await store.updatePlanItem("plan_resume", p.document.items[2]!.item.key, { status: "running", attempts: 1 });
    const resumed = new FileEditingRunner();
    const ledger = await executePlan(store, "plan_resume", { runner: resumed });
    expect(resumed.calls).toEqual(["dossier-2026-01-05.txt"]);
    expect(ledger[2]!.attempts).toBe(2);
    expect(ledger.map((l) => l.status)).toEqual(["done", "done", "done"]);
    expect((await store.getPlan("plan_resume"))?.status).toBe("finished");
    expect(summaryLine(p.document, ledger)).toBe("3 files processed");
    const forced = new FileEditingRunner();
    await executePlan(store, "plan_resume", { runner: forced, force: true });
    expect(forced.calls.length).toBe(3);
  });

  it("CSV rows as items, the unbound variables before anything, an ambiguity as a typed error", async () => {
    const csv = join(tmp, "rows.csv");
    writeFileSync(csv, `chemin;texte;date\n${join(tmp, "a.txt")};Payée;15/01/2026\n${join(tmp, "b.txt")};Rejetée;20/02/2026\n`);
    const p = await preparePlan({ ...request("csv", "Complète les lignes de janvier", csv), bind: { constants: { texte_2: "x" } } });
    expect(p.document.items.map((x) => x.bindings)).toEqual([{ chemin: join(tmp, "a.txt"), texte: "Payée", texte_2: "x" }]);
    expect(p.document.items[0]!.sources.texte).toBe("field « texte »");
    await expect(preparePlan({ ...request("csv2", "Complète les lignes", csv), bind: {} })).rejects.toThrow(/texte_2 \(text.*\) for all 2 items/);
    await expect(preparePlan({ ...request("amb", "Fais le travail", csv), candidates: stored.slice(1), bind: {} })).rejects.toMatchObject({ code: "ambiguous_workflow", message: expect.stringMatching(/Nouveau patient.*--workflow/) });
    const picked = await preparePlan({ ...request("amb2", "Fais le travail", csv), candidates: [...stored.slice(1), { workflow: { ...editor, workflow_id: "wf_b", name: "Autre" }, version: 1, origin: "store" }], forced: stored[0]! });
    expect(picked.document.workflow.chosen_by).toBe("--workflow");
  });

  it("a decision model's proposal is validated; shown next to the deterministic parse when they differ", async () => {
    const d = folder("model");
    const model = (answer: (base: ReturnType<typeof parseInstruction>) => unknown): InstructionProposer => ({ name: "test-model", propose: async (text, ctx) => answer(parseInstruction(text, { now: new Date(ctx.now) })) });
    const feb = await preparePlan(request("m1", "Traite les dossiers de janvier", d, { proposer: model((b) => ({ ...b, filters: { ...b.filters, date: { kind: "month", month: 2, year: 2026, year_implied: false, text: "février" } } })) }));
    expect(feb.differences).toEqual(["filters.date"]);
    expect(feb.document.items.map((x) => x.item.label)).toEqual(["03-02-2026 durand.txt", "dossier-2026-02-03.txt"]);
    expect(feb.document.model_instruction?.filters.date).toMatchObject({ month: 1 });
    expect(formatPlan(feb)).toMatch(/the model proposed this \(used\); the deterministic parse differs on filters\.date/);
    expect(feb.document.model_proposal).toMatchObject({ by: "test-model", outcome: "used", differences: ["filters.date"] });
    expect(renderPlanReport(feb.document, [], "")).toContain("test-model: proposal used (differs from the deterministic parse on filters.date)");
    const bad = await preparePlan(request("m2", "Traite les dossiers de janvier", d, { proposer: model(() => ({ verb: 42 })) }));
    expect(bad.warnings[0]).toMatch(/does not validate.*deterministic parse is used/);
    expect(bad.document.items).toHaveLength(3);
    expect(bad.document.model_proposal).toMatchObject({ outcome: "refused", message: expect.stringMatching(/^\[model_answer_invalid\]/) });
    expect(renderPlanReport(bad.document, [], "")).toMatch(/test-model: not used \(\[model_answer_invalid\].*the deterministic parse stands/);
    const same = await preparePlan(request("m3", "Traite les dossiers de janvier", d, { proposer: model((b) => b) }));
    expect(same.differences).toEqual([]);
    expect(same.document.model_instruction).toBeNull();
  });

  it("the HTML report escapes every text", async () => {
    const d = join(tmp, "esc");
    mkdirSync(d, { recursive: true });
    writeFileSync(join(d, "<img src=x onerror=alert(1)>-2026-01-02.txt"), "");
    const p = await preparePlan(request("esc", "Traite les dossiers de janvier <script>", d));
    const store = await storeFor("esc");
    await startPlan(store, p);
    const ledger = await executePlan(store, "plan_esc", { runner: new FileEditingRunner(() => ({ code: "postcheck_failed", stepId: "step_006" })) });
    const html = renderPlanReport(p.document, summarizeItems(p.document, ledger), summaryLine(p.document, ledger));
    expect(html).not.toMatch(/<img src=x|<script>/);
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect(existsSync(join(tmp, "report-esc"))).toBe(true);
  });
});
