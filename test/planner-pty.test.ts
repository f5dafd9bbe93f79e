// `rpav run` in a real terminal (a pseudo-terminal from python3's pty module): without --yes the
// plan is shown and confirmed before the first action; two workflows too close to call become a
// numbered question. « n » runs nothing and stores no plan; « o » stores the plan and runs it;
// a number picks that workflow. Real CLI, real SQLite store, real files.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SqliteStore } from "../src/store/sqlite-store.js";
import { ROOT } from "./support/cli.js";

const tmp = mkdtempSync(join(tmpdir(), "rpav-run-pty-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const demo = (n: string) => JSON.parse(readFileSync(join(ROOT, `demos/${n}/workflow.json`), "utf8"));
const home = (n: string) => join(tmp, n);
const dossiers = join(tmp, "dossiers");
const NAMES = ["dossier-2026-01-05.txt", "Dossier janvier Martin.txt", "dossier-2026-02-03.txt"];

beforeAll(async () => {
  mkdirSync(dossiers, { recursive: true });
  for (const n of NAMES) writeFileSync(join(dossiers, n), `contenu ${n}\n`);
  for (const [name, wfs] of [["no", ["mousepad-open-save"]], ["yes", ["mousepad-open-save"]], ["two", ["yad-patient", "widget-factory"]]] as const) {
    const s = SqliteStore.open(home(name));
    for (const w of wfs) await s.putWorkflow(demo(w));
    await s.close();
  }
});

/** The CLI in a pseudo-terminal, answering each prompt as it appears. */
function inTerminal(args: string[], homeName: string, answers: Array<[RegExp, string]>): { code: number; output: string; answered: number } {
  const spec = {
    cmd: [process.execPath, join(ROOT, "bin/rpav.js"), ...args],
    // No desktop and no model server here: items that run fail on the missing display.
    env: { DISPLAY: "", RPAV_HOME: home(homeName), RPAV_VLM_URL: "http://127.0.0.1:9" },
    answers: answers.map(([re, text]) => [re.source, text]),
    timeout: 120,
  };
  const r = spawnSync("/usr/bin/python3", [join(ROOT, "test/support/pty-run.py"), JSON.stringify(spec)], { encoding: "utf8", timeout: 150_000 });
  if (r.status !== 0) throw new Error(`pty-run failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as { code: number; output: string; answered: number };
}

async function ledger(homeName: string) {
  const s = SqliteStore.open(home(homeName));
  try {
    const db = (s as unknown as { db: { prepare(q: string): { all(): Array<{ plan_id: string }> } } }).db;
    const plans = db.prepare("SELECT plan_id FROM plans").all();
    return { plans: plans.length, items: plans.length ? await s.planItems(plans[0]!.plan_id) : [] };
  } finally {
    await s.close();
  }
}

const ARGS = ["run", "Traite les dossiers de janvier", "--in", dossiers, "--var", "texte=Traité", "--var", "texte_2=ok", "--no-model"];

describe("rpav run asks in a terminal", () => {
  it("« n » at the confirmation: the plan was shown, nothing ran, no plan is stored, the files are untouched", async () => {
    const r = inTerminal(ARGS, "no", [[/Lancer ce plan \? \[o\/N\] /, "n"]]);
    expect(r.answered).toBe(1);
    expect(r.output).toMatch(/items: 2 of 3 in folder/);
    expect(r.output).toMatch(/not run/);
    expect(r.output).not.toMatch(/… running/);
    expect(r.code).toBe(1);
    expect(await ledger("no")).toEqual({ plans: 0, items: [] });
    for (const n of NAMES) expect(readFileSync(join(dossiers, n), "utf8")).toBe(`contenu ${n}\n`);
  });

  it("« o » at the confirmation: the plan is stored and every item is run (here each fails on the missing display)", async () => {
    const r = inTerminal([...ARGS, "--max-retries", "0"], "yes", [[/Lancer ce plan \? \[o\/N\] /, "o"]]);
    expect(r.answered).toBe(1);
    expect(r.output).toMatch(/\[1\/2\] .* … running/);
    expect(r.output).toMatch(/\[2\/2\] .* … running/);
    const l = await ledger("yes");
    expect(l.plans).toBe(1);
    expect(l.items.map((i) => [i.status, i.attempts])).toEqual([["failed", 1], ["failed", 1]]);
  });

  it("two workflows too close to call: a numbered question; the number answered picks that workflow, then « n » runs nothing", async () => {
    const r = inTerminal(["run", "Fais le travail", "--in", dossiers, "--use-examples", "--no-model"], "two", [
      [/Number \(1-2, empty to stop\): /, "2"],
      [/Lancer ce plan \? \[o\/N\] |Run this plan\? \[y\/N\] /, "n"],
    ]);
    expect(r.answered).toBe(2);
    const listed = [...r.output.matchAll(/^\s+(\d)\. « ([^»]+) »/gm)].map((m) => [m[1], m[2]!.trim()]);
    expect(listed.map((x) => x[0])).toEqual(["1", "2"]);
    const second = listed[1]![1]!;
    expect(r.output).toMatch(new RegExp(`workflow: « ${second} »`));
    expect(r.output).toMatch(/not run/);
    expect(r.code).toBe(1);
    expect((await ledger("two")).plans).toBe(0);
  });
});
