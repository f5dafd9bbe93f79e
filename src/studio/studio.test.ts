// The studio's server without a browser (Fastify inject): the token, the security headers, paths
// confined to their run folder, escaping of untrusted text, and the variable operations saved as
// new store versions. The browser side, on real runs, is test/lab/studio.test.ts.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeImage, encodePng } from "../capture/png.js";
import { makeFrame } from "../core/frame.js";
import type { Workflow } from "../core/schemas/workflow.js";
import { TraceWriter } from "../replay/trace.js";
import { AssistFiles } from "../store/assist-files.js";
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
  app = await createStudio({ dataDir, store, inbox: new AssistFiles(join(dataDir, "assist")), token, spawnReplay: (args) => {
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
    for (const url of ["/runs", "/runs/run_r1", "/workflows", "/workflows/wf_nouveau_patient", "/ask", "/start"]) {
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
    expect(args.filter((a, i) => args[i - 1] === "--var")).toEqual(["prenom=Noël"]); // empty fields are left to the CSV
    const events = await get(`/live/${folder}/events`);
    expect(events.headers["content-type"]).toContain("text/event-stream");
    expect(events.body).toContain('event: log\ndata: {"text":"Missing variable values, nothing was run"}');
    expect(events.body).toMatch(/event: done\ndata: \{"exit":1,"ended":false\}/);
    expect((await get("/live/..%2F..%2Fetc/events")).statusCode).toBe(400);
  });
});

describe("studio runs with a secret variable", () => {
  it("hands the secret over in a 0600 file named by --vars-file, never on the child's argv", async () => {
    const SECRET = "studio-Pw-93kd";
    await store.putWorkflow({ ...demo, workflow_id: "wf_secret", variables: [...demo.variables, { name: "mot_de_passe", type: "secret", example: null, secret: true, steps: [] }] });
    const r = await post("/start", { workflow: "wf_secret", var_prenom: "Noël", var_mot_de_passe: SECRET });
    expect(r.statusCode).toBe(303);
    const args = spawned.at(-1)!;
    expect(args.join(" ")).not.toContain(SECRET);
    expect(args.filter((a, i) => args[i - 1] === "--var")).toEqual(["prenom=Noël"]);
    const varsFile = args[args.indexOf("--vars-file") + 1]!;
    expect(args.indexOf("--vars-file")).toBeGreaterThan(0);
    expect(statSync(varsFile).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(varsFile, "utf8"))).toEqual({ mot_de_passe: SECRET });
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

