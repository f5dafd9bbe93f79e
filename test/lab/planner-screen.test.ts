// `rpav run … --in screen:<window title>` on the lab: the items are the rows of a real list
// window (yad --list, GTK tree view with a header) as the product's perception reads its pixels
// (OCR + detector, no accessibility tree). A French and an English instruction keep the January
// rows of its « Date » column; each row's columns bind the workflow's variables by name.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SqliteStore } from "../../src/store/sqlite-store.js";
import { ROOT } from "../support/cli.js";
import { labKit } from "./support.js";

const kit = labKit();
const tmp = mkdtempSync(join(tmpdir(), "rpav-planner-screen-"));
const dataDir = join(tmp, "data");
const TITLE = "Patients à enregistrer";
const COLUMNS = ["Nom", "Prénom", "Date de naissance", "Date"];
// Dates in two formats; one January of another year; a birth date in January that must not count.
// The header's « Prénom » keeps its accent (a French word the OCR's word list knows); first names
// with accents are not in that list and are read without them today, so the rows hold none.
const ROWS = [
  ["Dupont", "Helene", "12/03/1985", "2026-01-08"],
  ["Martin", "Paul", "01/02/1990", "2026-02-03"],
  ["Durand", "Eric", "23/07/1975", "15/01/2026"],
  ["Bernard", "Anne", "14/01/1980", "2026-03-14"],
  ["Petit", "Hugo", "30/11/1992", "2026-01-27"],
  ["Leroy", "Marc", "05/05/1988", "2025-01-20"],
];
const JANUARY_2026 = [ROWS[0]!, ROWS[2]!, ROWS[4]!];

function cli(args: string[]) {
  const r = spawnSync(process.execPath, [join(ROOT, "bin/rpav.js"), "--data-dir", dataDir, ...args], { env: kit.env, encoding: "utf8", timeout: 300_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

beforeAll(async () => {
  const store = SqliteStore.open(dataDir);
  for (const w of ["mousepad-open-save", "yad-patient", "widget-factory"]) await store.putWorkflow(JSON.parse(readFileSync(join(ROOT, `demos/${w}/workflow.json`), "utf8")));
  await store.close();
  await kit.launch({ command: "yad", args: ["--list", `--title=${TITLE}`, "--width=760", "--height=420", ...COLUMNS.map((c) => `--column=${c}`), ...ROWS.flat()] });
});
afterAll(async () => kit.cleanup());

interface DryRun {
  plan: { source: { kind: string; location: string; notes?: string[] }; items: Array<{ item: { key: string; fields: Record<string, string>; date: string | null; date_rule: string | null }; bindings: Record<string, string> }> };
  left_out: Array<{ label: string; why: string }>;
}

describe("rpav run --in screen:<window> on the lab", () => {
  it("« Enregistre les patients de janvier »: the January rows of the list on screen, their columns bound to the form's variables", () => {
    const r = cli(["run", "Enregistre les patients de janvier", "--in", "screen:patients a enregistrer", "--workflow", "Nouveau patient", "--ocr", "hybrid", "--no-model", "--dry-run", "--json"]);
    expect(r.code, r.err).toBe(0);
    const d = JSON.parse(r.out) as DryRun;
    expect(d.plan.source.kind).toBe("screen");
    expect(d.plan.source.location).toBe(`screen « ${TITLE} »`);
    expect(d.plan.source.notes?.join(" ")).toMatch(/first row taken as the header/);
    // Every field comes from the pixels: the header's names, each row's cells.
    expect(d.plan.items.map((x) => x.item.fields)).toEqual(JANUARY_2026.map((row) => Object.fromEntries(COLUMNS.map((c, j) => [c, row[j]]))));
    expect(d.plan.items.map((x) => x.item.date)).toEqual(["2026-01-08", "2026-01-15", "2026-01-27"]);
    expect(d.plan.items.every((x) => x.item.date_rule === "column « Date »")).toBe(true);
    expect(d.plan.items.map((x) => x.bindings)).toEqual(JANUARY_2026.map(([nom, prenom, naissance]) => ({ nom, prenom, date_de_naissance: naissance })));
    expect(d.left_out.map((x) => x.label).sort()).toEqual(["Bernard", "Leroy", "Martin"].sort());
  }, 300_000);

  it("\"Process the patients of January 2026\" (English, the default OCR): the same three rows", () => {
    const r = cli(["run", "Process the patients of January 2026", "--in", `screen:/^${TITLE.slice(0, 8)}/`, "--workflow", "Nouveau patient", "--no-model", "--dry-run", "--json"]);
    expect(r.code, r.err).toBe(0);
    const d = JSON.parse(r.out) as DryRun;
    expect(d.plan.items.map((x) => [x.item.fields.Nom, x.item.fields.Date])).toEqual(JANUARY_2026.map((row) => [row[0], row[3]]));
    expect(d.plan.items.map((x) => x.bindings.date_de_naissance)).toEqual(JANUARY_2026.map((row) => row[2]));
  }, 300_000);

  it("« Enregistre les 2 premiers patients de janvier »: the rows read on screen are typed into the real form, once per row (yad's output is the oracle)", () => {
    const out = join(tmp, "form-output.txt");
    const app = `yad --form --title="Nouveau patient" --width=640 --field=Nom --field=Prénom "--field=Date de naissance" "" "" "" >> ${out}`;
    const r = cli(["run", "Enregistre les 2 premiers patients de janvier", "--in", `screen:${TITLE}`, "--workflow", "Nouveau patient", "--ocr", "hybrid", "--no-model", "--app", app, "--yes"]);
    process.stderr.write(`[planner screen lab] ${r.err.split("\n").filter((l) => /\[\d\/\d\]/.test(l)).join(" | ")}\n`);
    expect(r.code, r.err).toBe(0);
    expect(readFileSync(out, "utf8")).toBe(`${[ROWS[0]!, ROWS[2]!].map(([nom, prenom, naissance]) => `${nom}|${prenom}|${naissance}|`).join("\n")}\n`);
    expect(r.out.trim().split("\n").at(-1)).toBe("2 patients traités");
  }, 900_000);

  it("a title no window has: a typed error naming the open windows, nothing planned", () => {
    const r = cli(["run", "Enregistre les patients de janvier", "--in", "screen:Factures fournisseurs", "--workflow", "Nouveau patient", "--no-model", "--dry-run"]);
    expect(r.code).not.toBe(0);
    expect(r.err).toMatch(/window_not_found|No window's title matches screen:Factures fournisseurs/);
    expect(r.err).toContain(TITLE);
  }, 120_000);
});
