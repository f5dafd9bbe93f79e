// `rpav run` with a decision model configured (the fake Ollama server, speaking the real wire
// protocol): the model proposes the instruction's structure as JSON; a valid proposal that
// differs is used and the deterministic parse is shown next to it; an invalid, slow or absent
// model leaves the deterministic parse in place, and the plan document says why (model_proposal).
// A source the instruction does not name is never taken from the model.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SqliteStore } from "../src/store/sqlite-store.js";
import { ROOT } from "./support/cli.js";
import { closedPort, FakeOllama, type FakeRequest } from "./support/fake-ollama.js";

/** The built CLI, asynchronously: the fake server answers from this process. */
function rpav(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [`${ROOT}bin/rpav.js`, ...args], { cwd: ROOT, env: { ...process.env, DISPLAY: "", ...env } });
    let stdout = "";
    let stderr = "";
    p.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    p.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    p.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

const tmp = mkdtempSync(join(tmpdir(), "rpav-run-model-"));
const dossiers = join(tmp, "dossiers");
const NAMES = ["dossier-2026-01-05.txt", "12012026-dupont.txt", "dossier-2026-02-03.txt", "03-02-2026 durand.txt"];
const HOME = join(tmp, "home");
let fake: FakeOllama;
let down: string;

/** What the model answers: the instruction's structure as the planner's schema says, or a fault. */
let answer: (instruction: string) => unknown = () => ({});
const instructionOf = (req: FakeRequest) => JSON.parse(/^instruction: (.*)$/m.exec(req.messages.at(-1)?.content ?? "")?.[1] ?? '""') as string;
const proposal = (text: string, over: Record<string, unknown> = {}) => ({
  text,
  language: "fr",
  verb: "traite",
  noun: "dossiers",
  filters: { date: { kind: "month", month: 1, year: 2026, year_implied: false, text: "premier mois de l'année" }, name_pattern: null, extension: null, not_done: false, count: null },
  source: null,
  task_words: ["traite", "dossiers"],
  ...over,
});

beforeAll(async () => {
  mkdirSync(dossiers, { recursive: true });
  for (const n of NAMES) writeFileSync(join(dossiers, n), `contenu ${n}\n`);
  const s = SqliteStore.open(HOME);
  // Each test asks again (the answer cache would give the first answer back).
  writeFileSync(join(HOME, "config.json"), JSON.stringify({ vlm: { cache: false } }));
  await s.putWorkflow(JSON.parse(readFileSync(join(ROOT, "demos/mousepad-open-save/workflow.json"), "utf8")));
  await s.close();
  fake = new FakeOllama({ respond: (req) => JSON.stringify(answer(instructionOf(req))) });
  await fake.start();
  down = await closedPort();
}, 60_000);
afterAll(async () => {
  await fake.stop();
  rmSync(tmp, { recursive: true, force: true });
});

const INSTRUCTION = "Traite les dossiers du premier mois de l'année";
const args = (extra: string[] = []) => ["run", INSTRUCTION, "--in", dossiers, "--var", "texte=a", "--var", "texte_2=b", "--dry-run", ...extra];
const env = (url = fake.url) => ({ RPAV_HOME: HOME, RPAV_VLM_URL: url });
const dryJson = (r: { stdout: string }) => JSON.parse(r.stdout) as { plan: { instruction: { filters: { date: unknown } }; model_instruction: { filters: { date: unknown } } | null; model_proposal?: { outcome: string; differences: string[]; message: string | null; by: string }; items: Array<{ item: { label: string } }> }; warnings: string[] };

describe("rpav run with a decision model", () => {
  it("a valid proposal that differs is used, the deterministic parse shown next to it; the request asks the planner's schema of the decision model", async () => {
    answer = (t) => proposal(t);
    fake.requests.length = 0;
    const text = await rpav(args(), env());
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/understood: verb traite · items dossiers · date janvier 2026 · \(fr\)/);
    expect(text.stdout).toMatch(/the model proposed this \(used\); the deterministic parse differs on filters\.date: verb traite · items dossiers · \(fr\)/);
    expect(text.stdout).toMatch(/items: 2 of 4/);
    const req = fake.requests.at(-1)!;
    expect(req.model).toBe("gemma4:e4b");
    expect(JSON.stringify(req.format)).toMatch(/"task_words"/);
    const j = dryJson(await rpav(args(["--json"]), env()));
    expect(j.plan.model_proposal).toMatchObject({ by: "vlm:gemma4:e4b", outcome: "used", differences: ["filters.date"], message: null });
    expect(j.plan.model_instruction?.filters.date).toBeNull();
    expect(j.plan.items.map((x) => x.item.label).sort()).toEqual(["12012026-dupont.txt", "dossier-2026-01-05.txt"]);
  });

  it("an answer that does not validate (twice): the deterministic parse, with a warning and the reason kept in the plan", async () => {
    answer = () => ({ verb: 42, filters: "janvier" });
    const j = dryJson(await rpav(args(["--json"]), env()));
    expect(j.plan.instruction.filters.date).toBeNull();
    expect(j.plan.model_instruction).toBeNull();
    expect(j.plan.model_proposal).toMatchObject({ outcome: "refused", message: expect.stringMatching(/^\[model_answer_invalid\]/) });
    expect(j.warnings.join(" ")).toMatch(/The deterministic parse is used/);
    expect(j.plan.items).toHaveLength(4);
  });

  it("a model slower than --model-timeout, and no server at all: the deterministic parse, the reason traced", async () => {
    answer = (t) => proposal(t);
    fake.delayMs = 4000;
    const t0 = Date.now();
    const slow = dryJson(await rpav(args(["--json", "--model-timeout", "1"]), env()));
    fake.delayMs = 0;
    expect(Date.now() - t0).toBeLessThan(15_000);
    expect(slow.plan.model_proposal).toMatchObject({ outcome: "refused", message: expect.stringMatching(/^\[timeout\]/) });
    expect(slow.plan.instruction.filters.date).toBeNull();
    const absent = dryJson(await rpav(args(["--json"]), env(down)));
    expect(absent.plan.model_proposal).toMatchObject({ outcome: "refused", message: expect.stringMatching(/^\[provider_unavailable\]/) });
    expect(absent.plan.items).toHaveLength(4);
  });

  it("a source the instruction does not name is not taken from the model; --no-model asks nothing", async () => {
    answer = (t) => proposal(t, { source: tmp });
    const r = await rpav(["run", INSTRUCTION, "--var", "texte=a", "--var", "texte_2=b", "--dry-run"], env());
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/\[invalid_input\]: No items to work on/);
    // The same proposal naming a folder the instruction names is taken.
    answer = (t) => proposal(t, { source: dossiers });
    const named = await rpav(["run", `${INSTRUCTION} dans ${dossiers}`, "--var", "texte=a", "--var", "texte_2=b", "--dry-run"], env());
    expect(named.code, named.stderr).toBe(0);
    expect(named.stdout).toMatch(/items: 2 of 4 in folder/);
    const before = fake.requests.length;
    const none = dryJson(await rpav(args(["--json", "--no-model"]), env()));
    expect(fake.requests.length).toBe(before);
    expect(none.plan.model_proposal).toBeUndefined();
  });
});
