// The studio's server without a browser (Fastify inject): the token, the security headers, paths
// confined to their run folder, escaping of untrusted text, and the variable operations saved as
// new store versions. The browser side, on real runs, is test/lab/studio.test.ts.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeImage, encodePng } from "../capture/png.js";
import { makeFrame } from "../core/frame.js";
import type { PlanDocument } from "../core/schemas/plan.js";
import type { Workflow } from "../core/schemas/workflow.js";
import { itemRunDir } from "../planner/planner.js";
import { TraceWriter } from "../replay/trace.js";
import { AssistFiles } from "../store/assist-files.js";
import { PatchFiles } from "../store/patch-files.js";
import { SqliteStore } from "../store/sqlite-store.js";
import { confinedFile } from "./paths.js";
import { COOKIE, createStudio, TOKEN_HEADER } from "./server.js";
import { loadOrCreateToken, TOKEN_FILE } from "./token.js";
import { diffDocuments } from "./workflow-view.js";

const root = mkdtempSync(join(tmpdir(), "rpav-studio-unit-"));
const dataDir = join(root, "data");
const demo = JSON.parse(readFileSync(new URL("../../demos/yad-patient/workflow.json", import.meta.url), "utf8")) as Workflow;
const hostile = "<script>window.__pwned=1</script>Nouveau patient";
let app: FastifyInstance;
let store: SqliteStore;
let token: string;
const spawned: string[][] = [];
const get = (url: string, headers: Record<string, string> = { [TOKEN_HEADER]: token }) => app.inject({ method: "GET", url, headers });
const post = (url: string, form: Record<string, string>) => app.inject({ method: "POST", url, headers: { [TOKEN_HEADER]: token, "content-type": "application/x-www-form-urlencoded" }, payload: new URLSearchParams(form).toString() });

beforeAll(async () => {
  mkdirSync(dataDir, { recursive: true });
  store = SqliteStore.open(dataDir);
  await store.putWorkflow(demo);
  await store.putWorkflow({ ...demo, workflow_id: "wf_hostile", name: hostile, steps: demo.steps.map((s) => ({ ...s, window: { ...s.window, title: hostile } })) });
  // A run folder written by the trace writer, with one screenshot and the window title a hostile app could show.
  const w = new TraceWriter(join(dataDir, "runs", "r1"));
  w.append({ type: "run", schema_version: "trace_v1", run_id: "run_r1", workflow_id: "wf_hostile", workflow_name: hostile, workflow_path: "/nowhere/workflow.json", rows: [{}], on_error: "stop", steps: [{ step_id: "step_001", action: "click", intention: "Cliquer sur « <b>Nom</b> »" }] });
  const shot = w.putShot("before", await encodePng(makeFrame({ data: new Uint8Array(40 * 30 * 4).fill(200), width: 40, height: 30, channels: 4 })));
  w.append({ type: "before", row: 0, step: 0, step_id: "step_001", attempt: 1, window: { id: "0x1", title: hostile, app: "yad", bbox: [100, 100, 140, 130] }, screenshot: shot, origin: [100, 100], method: "element", bbox: [110, 105, 130, 115], score: 0.9, ambiguous: false, candidates: [], decision: "execute", timings: {}, decision_record: { kind: "execute", reason: "<i>only match</i>" } } as never);
  w.append({ type: "after", row: 0, step: 0, step_id: "step_001", status: "passed", attempts: 1, screenshot: null, origin: null, check: "ok", error: null, overhead_ms: 1, duration_ms: 2 });
  writeFileSync(join(root, "secret.txt"), "outside the run folder");
  symlinkSync(join(root, "secret.txt"), join(dataDir, "runs", "r1", "shots", "link.png"));
  token = loadOrCreateToken(dataDir).token;
  app = await createStudio({ dataDir, store, inbox: new AssistFiles(join(dataDir, "assist")), patches: new PatchFiles(join(dataDir, "patches")), token, spawnReplay: (args) => {
      spawned.push(args);
      // Stands in for `rpav replay` (this test has no desktop): says something on stderr and fails.
      return spawn(process.execPath, ["-e", "process.stderr.write('Missing variable values, nothing was run\\n'); process.exit(1)"], { stdio: ["ignore", "pipe", "pipe"] });
    } });
});
afterAll(async () => {
  await app?.close();
  await store?.close();
});

describe("studio security", () => {
  it("makes the token once, private to the user, and reuses it", () => {
    expect(statSync(join(dataDir, TOKEN_FILE)).mode & 0o777).toBe(0o600);
    expect(loadOrCreateToken(dataDir)).toMatchObject({ token, created: false });
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("refuses a request without the token (401), or with a wrong one", async () => {
    expect((await get("/runs", {})).statusCode).toBe(401);
    expect((await get("/runs", { [TOKEN_HEADER]: `${token.slice(0, -1)}x` })).statusCode).toBe(401);
    expect((await get(`/runs/run_r1/files/shots/0001-before.png`, {})).statusCode).toBe(401);
    expect((await get("/assets/htmx.min.js", {})).statusCode).toBe(401);
  });

  it("takes the token once from the URL, then from an HttpOnly SameSite=Strict cookie", async () => {
    const first = await get(`/runs?token=${token}`, {});
    expect(first.statusCode).toBe(303);
    expect(first.headers.location).toBe("/runs");
    const cookie = String(first.headers["set-cookie"]);
    expect(cookie).toMatch(new RegExp(`^${COOKIE}=${token}; Path=/; HttpOnly; SameSite=Strict`));
    expect((await get("/runs", { cookie: `${COOKIE}=${token}` })).statusCode).toBe(200);
  });

  it("sends a strict Content Security Policy, and pages carry no inline script or style", async () => {
    for (const url of ["/runs", "/runs/run_r1", "/workflows", "/workflows/wf_nouveau_patient", "/ask", "/start", "/patches?all=1", "/plans"]) {
      const r = await get(url);
      expect(r.statusCode, url).toBe(200);
      expect(r.headers["content-security-policy"]).toContain("default-src 'self'");
      expect(r.headers["content-security-policy"]).toContain("script-src 'self'");
      expect(r.headers["content-security-policy"]).not.toContain("unsafe");
      expect(r.body, url).not.toMatch(/<script(?![^>]*\bsrc="\/assets\/)/);
      expect(r.body, url).not.toMatch(/\sstyle=|<style|\son[a-z]+=/i);
    }
  });

  it("escapes the text of screens and recordings (window titles, workflow names, labels, decision records)", async () => {
    const run = await get("/runs/run_r1");
    expect(run.body).not.toContain("<script>window.__pwned");
    expect(run.body).toContain("&lt;script&gt;window.__pwned=1&lt;/script&gt;");
    expect(run.body).not.toContain("<b>Nom</b>");
    expect(run.body).toContain("decision_record"); // a field this build does not know, shown as text
    expect(run.body).not.toContain("<i>only match</i>");
    const wf = await get("/workflows/wf_hostile");
    expect(wf.body).not.toContain("<script>window.__pwned");
    expect(wf.body).toContain("&lt;script&gt;window.__pwned=1&lt;/script&gt;");
    expect((await get("/workflows")).body).not.toContain("<script>window.");
  });

  it("serves a run's files only from inside its folder: no ../, no absolute path, no symbolic link out", async () => {
    expect((await get("/runs/run_r1/files/shots/0001-before.png")).headers["content-type"]).toBe("image/png");
    for (const bad of ["../../studio-token", "..%2F..%2Fstudio-token", "%2e%2e/%2e%2e/studio-token", "shots/link.png", "%2Fetc%2Fpasswd", "shots"]) {
      const r = await get(`/runs/run_r1/files/${bad}`);
      expect(r.statusCode, bad).toBe(404);
      expect(r.body).not.toContain("outside the run folder");
    }
    const dir = join(dataDir, "runs", "r1");
    expect(confinedFile(dir, "shots/0001-before.png")).toBeDefined();
    expect(confinedFile(dir, "shots/../trace.jsonl")).toBeUndefined();
    expect(confinedFile(dir, join(dir, "trace.jsonl"))).toBeUndefined();
    expect(confinedFile(dir, "shots/link.png")).toBeUndefined();
  });
});

describe("studio workflows", () => {
  it("renames a variable through the `rpav workflow vars` operations, saved as a new version; a bad name changes nothing", async () => {
    const r = await post("/workflows/wf_nouveau_patient/vars", { op: "rename", version: "1", from: "nom", to: "nom_de_famille" });
    expect(r.statusCode).toBe(303);
    expect(r.headers.location).toBe("/workflows/wf_nouveau_patient?version=2");
    const v2 = await store.getWorkflow("wf_nouveau_patient");
    expect(v2?.version).toBe(2);
    const wf = v2!.document as unknown as Workflow;
    expect(wf.variables.map((v) => v.name)).toEqual(["nom_de_famille", "prenom", "date_de_naissance"]);
    expect(wf.steps.find((s) => s.step_id === "step_002")?.text).toBe("{{nom_de_famille}}");
    const bad = await post("/workflows/wf_nouveau_patient/vars", { op: "rename", version: "2", from: "prenom", to: "Prénom!" });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain("is not a variable name");
    const stale = await post("/workflows/wf_nouveau_patient/vars", { op: "demote", version: "1", name: "prenom" });
    expect(stale.statusCode).toBe(400);
    expect((await store.getWorkflow("wf_nouveau_patient"))?.version).toBe(2);
    const demoted = await post("/workflows/wf_nouveau_patient/vars", { op: "demote", version: "2", name: "prenom" });
    expect(demoted.statusCode).toBe(303);
    const v3 = (await store.getWorkflow("wf_nouveau_patient"))!.document as unknown as Workflow;
    expect(v3.steps.find((s) => s.step_id === "step_004")?.text).toBe("Zoë");
    const promoted = await post("/workflows/wf_nouveau_patient/vars", { op: "promote", version: "3", step: "step_004", name: "prenom" });
    expect(promoted.statusCode).toBe(303);
    expect(((await store.getWorkflow("wf_nouveau_patient"))!.document as unknown as Workflow).steps.find((s) => s.step_id === "step_004")?.text).toBe("{{prenom}}");
    const diff = await get("/workflows/wf_nouveau_patient/diff?a=1&b=2");
    expect(diff.body).toContain("$.variables[0].name");
    expect(diff.body).toContain("&quot;nom_de_famille&quot;");
  });

  it("diffs two documents leaf by leaf", () => {
    expect(diffDocuments({ a: 1, b: [1, 2], c: { d: "x" } }, { a: 1, b: [1], c: { d: "y" }, e: true })).toEqual([
      { path: "$.c.d", kind: "changed", before: '"x"', after: '"y"' },
      { path: "$.e", kind: "added", before: null, after: "true" },
      { path: "$.b[1]", kind: "removed", before: "2", after: null },
    ]);
  });
});

describe("studio runs started from the page", () => {
  it("spawns rpav replay on the store's latest version with the page's values and CSV, and streams its progress until it ends", async () => {
    const r = await post("/start", { workflow: "wf_nouveau_patient", var_prenom: "Noël", var_nom_de_famille: "", csv: "nom_de_famille;date_de_naissance\nN'Diaye;31/07/2001", on_error: "skip" });
    expect(r.statusCode).toBe(303);
    const folder = /^\/live\/(studio_[^/]+)$/.exec(String(r.headers.location))?.[1];
    expect(folder).toBeDefined();
    const args = spawned.at(-1)!;
    const wfFile = args[0]!;
    const latest = await store.getWorkflow("wf_nouveau_patient");
    expect(JSON.parse(readFileSync(wfFile, "utf8"))).toEqual(latest!.document);
    expect(args.slice(1, 5)).toEqual(["--report", join(dataDir, "runs", folder!), "--on-error", "skip"]);
    const csv = args[args.indexOf("--data") + 1]!;
    expect(readFileSync(csv, "utf8")).toBe("nom_de_famille;date_de_naissance\nN'Diaye;31/07/2001\n");
    expect(statSync(csv).mode & 0o777).toBe(0o600);
    expect(args).not.toContain("--var");
    expect(args.join(" ")).not.toContain("Noël");
    const varsFile = args[args.indexOf("--vars-file") + 1]!;
    expect(JSON.parse(readFileSync(varsFile, "utf8"))).toEqual({ prenom: "Noël" }); // empty fields are left to the CSV
    expect(statSync(varsFile).mode & 0o777).toBe(0o600);
    const events = await get(`/live/${folder}/events`);
    expect(events.headers["content-type"]).toContain("text/event-stream");
    expect(events.body).toContain('event: log\ndata: {"text":"Missing variable values, nothing was run"}');
    expect(events.body).toMatch(/event: done\ndata: \{"exit":1,"ended":false\}/);
    expect((await get("/live/..%2F..%2Fetc/events")).statusCode).toBe(400);
  });

  it("never asks for a secret variable's value, drops one posted anyway, and refuses a CSV column for it", async () => {
    const secretWf: Workflow = { ...demo, workflow_id: "wf_secret", variables: demo.variables.map((v) => (v.name === "date_de_naissance" ? { ...v, name: "mot_de_passe", type: "secret", secret: true, example: null } : v)), steps: demo.steps.map((s) => (s.text === "{{date_de_naissance}}" ? { ...s, text: "{{mot_de_passe}}" } : s)) };
    await store.putWorkflow(secretWf);
    const form = await get("/start?workflow=wf_secret");
    expect(form.body).not.toContain('name="var_mot_de_passe"');
    expect(form.body).toContain("taken from the credential store (<code>rpav secret set mot_de_passe</code>)");
    const n = spawned.length;
    const r = await post("/start", { workflow: "wf_secret", var_nom: "Durand", var_prenom: "Zoé", var_mot_de_passe: "Tr0ub4dor&3" });
    expect(r.statusCode).toBe(303);
    const args = spawned.at(-1)!;
    expect(spawned.length).toBe(n + 1);
    expect(args.join(" ")).not.toMatch(/Tr0ub4dor|Durand|Zoé/);
    expect(JSON.parse(readFileSync(args[args.indexOf("--vars-file") + 1]!, "utf8"))).toEqual({ nom: "Durand", prenom: "Zoé" });
    const csv = await post("/start", { workflow: "wf_secret", csv: "nom;prenom;mot_de_passe\nDurand;Zoé;Tr0ub4dor&3" });
    expect(csv.statusCode).toBe(400);
    expect(csv.body).toContain("secret variable mot_de_passe");
    expect(spawned.length).toBe(n + 1);
  });
});

describe("studio runs whose process died", () => {
  it("a run the store calls running is interrupted once its process is gone, running while it lives, running when no process is named", async () => {
    const dead = spawn(process.execPath, ["-e", ""]);
    await new Promise((res) => dead.once("exit", res));
    const cases = [
      ["run_dead", { pid: dead.pid!, host: hostname() }],
      ["run_alive", { pid: process.pid, host: hostname() }],
      ["run_old", {}],
    ] as const;
    for (const [id, proc] of cases) {
      const dir = join(dataDir, "runs", id);
      new TraceWriter(dir).append({ type: "run", schema_version: "trace_v1", run_id: id, workflow_id: "wf_nouveau_patient", workflow_name: "n", workflow_path: "/nowhere/workflow.json", rows: [{}], on_error: "stop", steps: [] });
      await store.putRun({ runId: id, workflowId: "wf_nouveau_patient", workflowVersion: 1, status: "running", startedAt: new Date().toISOString(), document: { run_dir: dir, ...proc } });
    }
    const list = await get("/runs");
    const status = (id: string) => new RegExp(`data-run="${id}">[\\s\\S]*?<td class="status">([a-z]+)</td>`).exec(list.body)?.[1];
    expect(cases.map(([id]) => status(id))).toEqual(["interrupted", "running", "running"]);
    const page = await get("/runs/run_dead");
    expect(page.body).toContain('id="interrupted-note"');
    expect(page.body).toContain(`rpav replay --resume ${join(dataDir, "runs", "run_dead")}`);
    expect((await get("/runs/run_alive")).body).not.toContain('id="interrupted-note"');
  });
});

describe("studio plans", () => {
  it("lists plans with their items counted, and one plan's ledger with status, exception class, attempts, reason and each item's run; a running item whose process died is interrupted", async () => {
    const reportDir = join(root, "plan-1");
    const item = (key: string, label: string) => ({ item: { key, label, fields: {}, date: null, date_rule: null }, bindings: {}, sources: {} });
    const doc: PlanDocument = {
      schema_version: "plan_v1", plan_id: "plan_s1", created_at: "2026-12-02T09:00:00.000Z",
      instruction: { text: "Traite les <b>dossiers</b> de janvier", language: "fr", verb: "traite", noun: "dossiers", filters: { date: null, name_pattern: null, extension: null, not_done: false, count: null }, source: null, task_words: ["dossiers"] },
      model_instruction: null,
      workflow: { workflow_id: "wf_nouveau_patient", name: "Nouveau patient", version: 1, path: "/nowhere/workflow.json", chosen_by: "--workflow" },
      source: { kind: "list", location: "--item", date_rules: [] },
      items: [item("/in/a.txt", "a.txt"), item("/in/b.txt", "b.txt"), item("/in/c.txt", "c.txt"), item("/in/d.txt", "d.txt")],
      options: { app_command: null, max_system_retries: 2, report_dir: reportDir, estimated_ms_per_item: 1000 },
    };
    await store.createPlan({ planId: "plan_s1", workflowId: "wf_nouveau_patient", createdAt: doc.created_at, status: "running", document: doc }, doc.items.map((x, ord) => ({ itemKey: x.item.key, ord })));
    await store.updatePlanItem("plan_s1", "/in/a.txt", { status: "done", attempts: 1, runId: "run_r1", startedAt: "2026-12-02T09:00:01.000Z", finishedAt: "2026-12-02T09:00:09.000Z" });
    await store.updatePlanItem("plan_s1", "/in/b.txt", { status: "failed", attempts: 1, exceptionClass: "business", errorCode: "postcheck_failed", reason: "step_003: « <i>refusé</i> »", startedAt: "2026-12-02T09:00:10.000Z", finishedAt: "2026-12-02T09:00:12.000Z" });
    // c: its second attempt was under way when the process was killed.
    await store.updatePlanItem("plan_s1", "/in/c.txt", { status: "running", attempts: 2, exceptionClass: null, startedAt: "2026-12-02T09:00:13.000Z" });
    const dead = spawn(process.execPath, ["-e", ""]);
    await new Promise((res) => dead.once("exit", res));
    const cDir = itemRunDir(doc, 2, 2);
    new TraceWriter(cDir).append({ type: "run", schema_version: "trace_v1", run_id: "run_c2", workflow_id: "wf_nouveau_patient", workflow_name: "n", workflow_path: "/nowhere/workflow.json", rows: [{}], on_error: "stop", steps: [] });
    await store.putRun({ runId: "run_c2", workflowId: "wf_nouveau_patient", workflowVersion: 1, status: "running", startedAt: "2026-12-02T09:00:13.000Z", document: { run_dir: cDir, pid: dead.pid!, host: hostname() } });
    const list = await get("/plans");
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain('data-plan="plan_s1"');
    expect(list.body).toContain("Traite les &lt;b&gt;dossiers&lt;/b&gt; de janvier");
    expect(list.body).toMatch(/4: <span[^>]*>1 pending<\/span>, <span[^>]*>1 running<\/span>, <span[^>]*>1 done<\/span>, <span[^>]*>1 failed<\/span>/);
    expect(list.body).toMatch(/data-plan="plan_s1">[\s\S]*?<td class="status">interrupted<\/td>/);
    const page = await get("/plans/plan_s1");
    const rows = [...page.body.matchAll(/<tr class="([a-z]+)" data-item="([^"]+)">([\s\S]*?)<\/tr>/g)].map((m) => ({ cls: m[1], key: m[2], attempts: /class="attempts">(\d+)/.exec(m[3]!)?.[1], exception: /class="exception">([a-z]*)/.exec(m[3]!)?.[1], run: /href="\/runs\/([^"]+)"/.exec(m[3]!)?.[1] ?? null }));
    expect(rows).toEqual([
      { cls: "done", key: "/in/a.txt", attempts: "1", exception: "", run: "run_r1" },
      { cls: "failed", key: "/in/b.txt", attempts: "1", exception: "business", run: null },
      { cls: "interrupted", key: "/in/c.txt", attempts: "2", exception: "", run: "run_c2" },
      { cls: "pending", key: "/in/d.txt", attempts: "0", exception: "", run: null },
    ]);
    expect(page.body).toContain("&lt;i&gt;refusé&lt;/i&gt;");
    expect(page.body).toContain("rpav run --resume plan_s1");
    expect((await get("/plans/plan_none")).statusCode).toBe(404);
  });
});

describe("studio patches", () => {
  it("lists a proposed patch with its step, the old and new target and the crop from the asking run; accept is a new store version, reject marks it", async () => {
    const wfPath = join(root, "hostile-workflow.json");
    const wf = (await store.getWorkflow("wf_hostile"))!.document as unknown as Workflow;
    writeFileSync(wfPath, JSON.stringify(wf));
    const patches = new PatchFiles(join(dataDir, "patches"));
    const target = { ...wf.steps[0]!.target!, label: "<b>Valider</b>", by_text: "<b>Valider</b>", recorded_bbox: [110, 105, 130, 115] as [number, number, number, number] };
    const base = { schema_version: "workflow_patch_v1" as const, workflow_id: "wf_hostile", workflow_path: wfPath, step_id: "step_001", run_id: "run_r1", question_id: "q1", status: "proposed" as const };
    await patches.put({ ...base, patch_id: "patch_a", op: { op: "set_target", target }, reason: "studio picked « <b>Valider</b> » (button)", proposed_at: "2026-12-02T10:00:00.000Z" });
    await patches.put({ ...base, patch_id: "patch_b", op: { op: "remove_step" }, reason: "studio chose to skip", proposed_at: "2026-12-02T10:01:00.000Z" });
    const list = await get("/patches");
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain('data-patch="patch_a"');
    expect(list.body).toContain('data-patch="patch_b"');
    expect(list.body).not.toContain("<b>Valider</b>");
    expect(list.body).toContain("&lt;b&gt;Valider&lt;/b&gt;");
    expect(list.body).toContain("box [110, 105, 130, 115]");
    expect(list.body).toContain('src="/patches/patch_a/crop.png"');
    expect(list.body).toContain("the step is removed");
    const crop = await get("/patches/patch_a/crop.png");
    expect(crop.headers["content-type"]).toBe("image/png");
    const f = await decodeImage(crop.rawPayload, "crop.png");
    expect([f.width, f.height]).toEqual([40, 30]); // 40 px around [10, 5, 30, 15] in the 40×30 shot: all of it
    expect((await post("/patches/patch_a/accept", {})).statusCode).toBe(303);
    const v2 = await store.getWorkflow("wf_hostile");
    expect(v2?.version).toBe(2);
    expect((v2!.document as unknown as Workflow).steps[0]!.target!.label).toBe("<b>Valider</b>");
    expect((JSON.parse(readFileSync(wfPath, "utf8")) as Workflow).steps[0]!.target!.label).toBe("<b>Valider</b>");
    expect((await patches.get("patch_a")).status).toBe("accepted");
    expect((await post("/patches/patch_b/reject", {})).statusCode).toBe(303);
    expect((await patches.get("patch_b")).status).toBe("rejected");
    expect((await store.getWorkflow("wf_hostile"))?.version).toBe(2);
    expect((await post("/patches/patch_b/accept", {})).statusCode).toBe(400); // already rejected
    expect((await get("/patches")).body).toContain('id="no-patches"');
    const all = await get("/patches?all=1");
    expect(all.body).toContain('href="/workflows/wf_hostile?version=2"');
    expect(all.body).not.toContain('action="/patches/patch_b/accept"');
  });
});

describe("studio runs with a secret variable", () => {
  it("hands values over in a 0600 file named by --vars-file, never on the child's argv; a posted secret goes nowhere", async () => {
    const SECRET = "studio-Pw-93kd";
    await store.putWorkflow({ ...demo, workflow_id: "wf_secret", variables: [...demo.variables, { name: "mot_de_passe", type: "secret", example: null, secret: true, steps: [] }] });
    const r = await post("/start", { workflow: "wf_secret", var_prenom: "Noël", var_mot_de_passe: SECRET });
    expect(r.statusCode).toBe(303);
    const args = spawned.at(-1)!;
    expect(args.join(" ")).not.toContain(SECRET);
    expect(args.join(" ")).not.toContain("Noël");
    expect(args).not.toContain("--var");
    const varsFile = args[args.indexOf("--vars-file") + 1]!;
    expect(args.indexOf("--vars-file")).toBeGreaterThan(0);
    expect(statSync(varsFile).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(varsFile, "utf8"))).toEqual({ prenom: "Noël" });
  });
});

describe("studio target crops", () => {
  it("cuts a step's target out of the recording's screenshot taken before the action that pointed inside its box", async () => {
    // A session as the recorder writes it: full-screen shots; the 2nd click (at 60,40) is on the target of step_002.
    const session = join(root, "session");
    mkdirSync(join(session, "shots"), { recursive: true });
    const screen = new Uint8Array(200 * 100 * 4).fill(255);
    for (let y = 30; y < 50; y++) for (let x = 50; x < 70; x++) screen.set([255, 0, 0, 255], (y * 200 + x) * 4);
    writeFileSync(join(session, "shots", "0001-before.png"), await encodePng(makeFrame({ data: new Uint8Array(200 * 100 * 4).fill(0), width: 200, height: 100, channels: 4 })));
    writeFileSync(join(session, "shots", "0002-before.png"), await encodePng(makeFrame({ data: screen, width: 200, height: 100, channels: 4 })));
    const action = (seq: number, x: number, y: number) => ({ seq, kind: "click", t: seq, x, y, window: null, before: `shots/000${seq}-before.png`, after: null });
    writeFileSync(join(session, "session.jsonl"), [{ schema_version: "rawsession_v1", name: "t", app: "t", started_at: "2026-12-02T06:00:00.000Z" }, action(1, 10, 10), action(2, 60, 40), { kind: "end" }].map((l) => JSON.stringify(l)).join("\n") + "\n");
    const target = (bbox: number[]) => ({ type: "button" as const, label: "X", by_text: "X", role: null, position_hint: null, anchors: [], recorded_bbox: bbox as [number, number, number, number], icon: null });
    const wf: Workflow = { ...demo, workflow_id: "wf_crop", source_session: session, variables: [], steps: [
      { ...demo.steps[0]!, step_id: "step_001", variables: {}, target: target([0, 0, 20, 20]) },
      { ...demo.steps[0]!, step_id: "step_002", variables: {}, target: target([50, 30, 70, 50]) },
    ] };
    await store.putWorkflow(wf);
    const page = await get("/workflows/wf_crop");
    expect(page.body).toContain("/workflows/wf_crop/v/1/steps/step_002/crop.png");
    expect(page.body).toContain("from the recording");
    const crop = await get("/workflows/wf_crop/v/1/steps/step_002/crop.png");
    expect(crop.statusCode).toBe(200);
    expect(crop.headers["x-rpav-crop-from"]).toBe("recording");
    const f = await decodeImage(crop.rawPayload, "crop.png");
    // 40 px around the 20×20 box, clipped by the screen's top-left: [10, 0, 110, 90].
    expect([f.width, f.height]).toEqual([100, 90]);
    const px = (x: number, y: number) => Array.from(f.data.subarray((y * f.width + x) * f.channels, (y * f.width + x) * f.channels + 3));
    expect(px(40 + 5, 30 + 5)).toEqual([255, 0, 0]); // inside the red target
    expect(px(2, 2)).toEqual([255, 255, 255]); // the 2nd screenshot, not the 1st (black)
  });
});

