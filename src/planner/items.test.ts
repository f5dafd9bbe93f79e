import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";
import { parseInstruction } from "./instruction.js";
import { dateFromName, filterItems, listCsv, listExplicit, listFolder, listItems, listXlsx } from "./items.js";

const now = new Date(2026, 11, 2);
const dir = mkdtempSync(join(tmpdir(), "rpav-items-"));

describe("dateFromName", () => {
  it.each([
    ["dossier-2026-01-15", "2026-01-15", "name: YYYY-MM-DD"],
    ["compte_rendu_2026_03_04", "2026-03-04", "name: YYYY-MM-DD"],
    ["15-01-2026_client", "2026-01-15", "name: DD-MM-YYYY"],
    ["releve 03.02.2026", "2026-02-03", "name: DD-MM-YYYY"],
    ["facture15012026", "2026-01-15", "name: DDMMYYYY"],
    ["scan20260115", "2026-01-15", "name: YYYYMMDD"],
    ["15 janvier 2026 Dupont", "2026-01-15", "name: day month-name year"],
    ["Dossier Février 2026", "2026-02", "name: month-name year"],
    ["rapport-jan-2026", "2026-01", "name: month-name year"],
    ["dec2025", "2025-12", "name: month-name year"],
    ["dossier janvier", "--01", "name: month-name"],
    ["notes-2026-02", "2026-02", "name: YYYY-MM"],
  ])("%s → %s", (name, date, rule) => {
    expect(dateFromName(name)).toEqual({ date, rule });
  });
  it.each(["martin", "may-notes", "31-02-2026", "mar"])("%s → no date", (name) => {
    expect(dateFromName(name)).toBeNull();
  });
});

describe("sources", () => {
  it("a folder: its files by name with dates from names, else the modification time; hidden files and subfolders left out", () => {
    const d = join(dir, "folder");
    mkdirSync(join(d, "sub"), { recursive: true });
    for (const n of ["a-2026-01-15.txt", "b-15012026.txt", "c-janvier.txt", "d.txt", ".hidden"]) writeFileSync(join(d, n), n);
    utimesSync(join(d, "d.txt"), new Date(2026, 0, 20), new Date(2026, 0, 20));
    const list = listFolder(d);
    expect(list.items.map((i) => [i.label, i.date, i.date_rule])).toEqual([
      ["a-2026-01-15.txt", "2026-01-15", "name: YYYY-MM-DD"],
      ["b-15012026.txt", "2026-01-15", "name: DDMMYYYY"],
      ["c-janvier.txt", "--01", "name: month-name"],
      ["d.txt", "2026-01-20", "modification time"],
    ]);
    expect(list.items[0]!.fields).toMatchObject({ path: join(d, "a-2026-01-15.txt"), file_name: "a-2026-01-15.txt", name: "a-2026-01-15", extension: "txt" });
    expect(list.items[0]!.key).toBe(join(d, "a-2026-01-15.txt"));
  });

  it("a CSV: rows keyed by their id column, dates from a date column, ; or ,", () => {
    const f = join(dir, "patients.csv");
    writeFileSync(f, "\uFEFFid;Nom;Date de naissance;date\n7;Dupont;01/02/1980;15/01/2026\n8;\"Martin; Zoë\";03/04/1990;2026-02-01\n");
    const list = listCsv(f);
    expect(list.items.map((i) => [i.key, i.label, i.date])).toEqual([
      [`${f}#id=7`, "7 · Dupont", "2026-01-15"],
      [`${f}#id=8`, "8 · Martin; Zoë", "2026-02-01"],
    ]);
    expect(list.items[1]!.fields.Nom).toBe("Martin; Zoë");
  });

  it("a CSV with a bad row is a typed error naming the file", () => {
    const f = join(dir, "bad.csv");
    writeFileSync(f, "a,b\n1,2,3\n");
    expect(() => listCsv(f)).toThrow(expect.objectContaining({ code: "invalid_input", message: expect.stringContaining("bad.csv") }));
  });

  it("an XLSX sheet: header row, dates, numbers, formulas, empty rows skipped", async () => {
    const f = join(dir, "factures.xlsx");
    const wb = new ExcelJS.Workbook();
    const s = wb.addWorksheet("Factures");
    s.addRow(["numero", "client", "date", "montant"]);
    s.addRow(["F-1", "Dupont", new Date(Date.UTC(2026, 0, 15)), 120.5]);
    s.addRow([]);
    s.addRow(["F-2", "Zoë", new Date(Date.UTC(2026, 1, 3)), { formula: "1+1", result: 2 }]);
    await wb.xlsx.writeFile(f);
    const list = await listXlsx(f);
    expect(list.items.map((i) => [i.key, i.date, i.fields.client, i.fields.montant])).toEqual([
      [`${f}#numero=F-1`, "2026-01-15", "Dupont", "120.5"],
      [`${f}#numero=F-2`, "2026-02-03", "Zoë", "2"],
    ]);
    expect((await listItems(f)).kind).toBe("xlsx");
  });

  it("a file that is not a workbook, a missing source, an unknown kind: typed errors", async () => {
    const f = join(dir, "fake.xlsx");
    writeFileSync(f, "not a zip");
    await expect(listXlsx(f)).rejects.toMatchObject({ code: "invalid_input" });
    await expect(listItems(join(dir, "nothing"))).rejects.toMatchObject({ code: "invalid_input" });
    writeFileSync(join(dir, "x.pdf"), "");
    await expect(listItems(join(dir, "x.pdf"))).rejects.toThrow(/not a source/);
  });

  it("explicit items: files when they exist, else values", () => {
    const l = listExplicit([join(dir, "patients.csv"), "Dupont 2026-01-15"]);
    expect(l.items.map((i) => [i.label, i.date])).toEqual([["patients.csv", expect.any(String)], ["Dupont 2026-01-15", "2026-01-15"]]);
  });
});

describe("filterItems", () => {
  const d = join(dir, "filter");
  mkdirSync(d, { recursive: true });
  for (const n of ["dossier-2026-01-05.txt", "dossier-2026-01-20.pdf", "devis-2026-01-25.txt", "dossier-2026-02-01.txt", "dossier-2025-01-10.txt"]) writeFileSync(join(d, n), "");
  const items = listFolder(d).items;
  const f = (t: string) => filterItems(items, parseInstruction(t, { now }));

  it("month, extension, pattern, count, each saying why an item is left out", () => {
    expect(f("les dossiers de janvier").kept.map((i) => i.label)).toEqual(["devis-2026-01-25.txt", "dossier-2026-01-05.txt", "dossier-2026-01-20.pdf"]);
    expect(f("les dossiers de janvier 2025").kept.map((i) => i.label)).toEqual(["dossier-2025-01-10.txt"]);
    expect(f("les fichiers txt de janvier").kept.map((i) => i.label)).toEqual(["devis-2026-01-25.txt", "dossier-2026-01-05.txt"]);
    expect(f('les fichiers contenant "devis"').kept.map((i) => i.label)).toEqual(["devis-2026-01-25.txt"]);
    expect(f("les 2 premiers dossiers de janvier").kept.map((i) => i.label)).toEqual(["dossier-2026-01-05.txt", "dossier-2026-01-20.pdf"]);
    expect(f("the last file").kept.map((i) => i.label)).toEqual(["dossier-2026-02-01.txt"]);
    const out = f("les dossiers de février");
    expect(out.dropped.find((x) => x.item.label === "dossier-2026-01-05.txt")?.why).toMatch(/2026-01-05 \(name: YYYY-MM-DD\) outside/);
  });
});
