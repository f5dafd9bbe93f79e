// `rpav gc` on a temporary data directory with real files and mtimes: what goes, what stays (what a
// stored workflow references), and how much it says it freed.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Workflow } from "../core/schemas/workflow.js";
import { SqliteStore } from "../store/sqlite-store.js";
import { runCli } from "./main.js";

const root = mkdtempSync(join(tmpdir(), "rpav-gc-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const DAY = 86_400_000;
const demo = JSON.parse(readFileSync(new URL("../../demos/yad-patient/workflow.json", import.meta.url), "utf8")) as Workflow;

function cli(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  return runCli(["node", "rpav", ...args], { out: (s) => out.push(s), err: (s) => err.push(s), env: {} }).then((code) => ({ code, out: out.join(""), err: err.join("") }));
}

/** A file of `size` bytes last changed `days` ago. */
function file(path: string, size: number, days: number): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, Buffer.alloc(size, 7));
  const t = new Date(Date.now() - days * DAY);
  utimesSync(path, t, t);
  return path;
}

async function dataDir(name: string): Promise<{ data: string; paths: Record<string, string> }> {
  const data = join(root, name);
  const p: Record<string, string> = {};
  // Runs: one old (goes whole), one recent, one old but still written to (stays whole).
  p.oldTrace = file(join(data, "runs", "run_old", "trace.jsonl"), 1000, 40);
  p.oldShot = file(join(data, "runs", "run_old", "shots", "a.png"), 5000, 40);
  p.newTrace = file(join(data, "runs", "run_new", "trace.jsonl"), 300, 1);
  p.busyOld = file(join(data, "runs", "run_busy", "shots", "a.png"), 700, 40);
  p.busyNew = file(join(data, "runs", "run_busy", "trace.jsonl"), 100, 0);
  // A built session whose workflow is stored: its log, the target's screenshot, the workflow file and icon stay.
  const s = join(data, "sessions", "built");
  p.log = file(join(s, "session.jsonl"), 0, 2);
  const action = (seq: number, x: number, y: number) => ({ seq, kind: "click", t: seq, x, y, window: null, before: `shots/000${seq}-before.png`, after: `shots/000${seq}-after.png` });
  writeFileSync(p.log, [{ schema_version: "rawsession_v1", name: "t", app: "t", started_at: "2026-12-02T06:00:00.000Z" }, action(1, 10, 10), action(2, 60, 40), { kind: "end" }].map((l) => JSON.stringify(l)).join("\n") + "\n");
  p.targetShot = file(join(s, "shots", "0002-before.png"), 4000, 2);
  p.otherShot = file(join(s, "shots", "0001-before.png"), 4000, 2);
  p.afterShot = file(join(s, "shots", "0002-after.png"), 4000, 2);
  p.icon = file(join(s, "icons", "step_002.png"), 200, 2);
  const target = (bbox: number[], icon: string | null) => ({ type: "button" as const, label: "X", by_text: "X", role: null, position_hint: null, anchors: [], recorded_bbox: bbox as [number, number, number, number], icon });
  const wf: Workflow = { ...demo, workflow_id: "wf_gc", source_session: s, variables: [], steps: [{ ...demo.steps[0]!, step_id: "step_002", variables: {}, target: target([50, 30, 70, 50], "icons/step_002.png") }] };
  p.workflow = join(s, "workflow.json");
  writeFileSync(p.workflow, JSON.stringify(wf));
  const store = await SqliteStore.open(data);
  await store.putWorkflow(wf);
  await store.close();
  // Sessions never built: an old one goes, a recent one stays.
  p.oldSession = file(join(data, "sessions", "old", "shots", "0001-before.png"), 3000, 60);
  p.oldSessionLog = file(join(data, "sessions", "old", "session.jsonl"), 50, 60);
  p.newSession = file(join(data, "sessions", "recent", "session.jsonl"), 50, 0);
  // OCR cache, failure screenshots, studio uploads.
  p.oldOcr = file(join(data, "cache", "ocr", "aa.json"), 800, 31);
  p.newOcr = file(join(data, "cache", "ocr", "bb.json"), 800, 29);
  p.oldFailure = file(join(data, "failures", "x.png"), 900, 45);
  p.oldUpload = file(join(data, "studio", "uploads", "studio_1.csv"), 60, 40);
  // The engines' kept files, dated by their last use.
  p.oldLexicon = file(join(data, "cache", "lexicon", "folded-oldkey.txt"), 500, 40);
  p.newGraph = file(join(data, "cache", "onnx", "det-newkey.onnx"), 700, 2);
  return { data, paths: p };
}

const GONE = ["oldTrace", "oldShot", "otherShot", "afterShot", "oldSession", "oldSessionLog", "oldOcr", "oldFailure", "oldUpload", "oldLexicon"];
const STAY = ["newTrace", "busyOld", "busyNew", "log", "targetShot", "icon", "workflow", "newSession", "newOcr", "newGraph"];

describe("rpav gc", () => {
  it("--dry-run says what would go and removes nothing; then gc removes exactly that, keeps what a stored workflow references, and says how much it freed", async () => {
    const { data, paths } = await dataDir("a");
    const freed = GONE.reduce((n, k) => n + statSync(paths[k]!).size, 0);
    const dry = await cli(["--data-dir", data, "gc", "--dry-run", "--json"]);
    expect(dry.code, dry.err).toBe(0);
    const d = JSON.parse(dry.out) as { files: number; bytes: number; categories: { name: string; files: number; bytes: number; kept_referenced: number }[] };
    expect({ files: d.files, bytes: d.bytes }).toEqual({ files: GONE.length, bytes: freed });
    for (const k of [...GONE, ...STAY]) expect(existsSync(paths[k]!), k).toBe(true);
    const real = await cli(["--data-dir", data, "gc"]);
    expect(real.code, real.err).toBe(0);
    expect(real.out).toContain(`freed ${(freed / 1024).toFixed(1)} KiB (${freed} bytes) in ${GONE.length} files older than 30d`);
    expect(real.out, real.out).toMatch(/sessions +4 files .*\(4 kept: referenced by a stored workflow\)/);
    for (const k of GONE) expect(existsSync(paths[k]!), `${k} should be gone`).toBe(false);
    for (const k of STAY) expect(existsSync(paths[k]!), `${k} should stay`).toBe(true);
    expect(existsSync(join(data, "runs", "run_old"))).toBe(false);
    expect(existsSync(join(data, "sessions", "old"))).toBe(false);
    // The studio still cuts the target from the recording.
    const again = await cli(["--data-dir", data, "gc", "--json"]);
    expect((JSON.parse(again.out) as { files: number }).files).toBe(0);
  });

  it("--older-than and config.json's retention set the limit; a bad age is a typed error", async () => {
    const { data, paths } = await dataDir("b");
    writeFileSync(join(data, "config.json"), JSON.stringify({ retention: { older_than: "50d" } }));
    const r = await cli(["--data-dir", data, "gc", "--json"]);
    const j = JSON.parse(r.out) as { older_than: string; categories: { name: string; files: number }[] };
    expect(j.older_than).toBe("50d");
    expect(existsSync(paths.oldTrace!)).toBe(true);
    expect(existsSync(paths.oldSession!)).toBe(false);
    expect(j.categories.find((c) => c.name === "ocr_cache")?.files).toBe(0);
    const h = await cli(["--data-dir", data, "gc", "--older-than", "25d", "--json"]);
    expect((JSON.parse(h.out) as { categories: { name: string; files: number }[] }).categories.find((c) => c.name === "ocr_cache")?.files).toBe(2);
    const bad = await cli(["--data-dir", data, "gc", "--older-than", "soon"]);
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/\[invalid_input\]: --older-than "soon": write a number and a unit, e.g. 30d/);
    writeFileSync(join(data, "config.json"), JSON.stringify({ retention: { older_than: 30 } }));
    expect((await cli(["--data-dir", data, "gc"])).err).toMatch(/\[invalid_config\]: .*config\.json: retention\.older_than: .*expected string/);
  });
});
