import { describe, expect, it } from "vitest";
import { dateMatches, describeDateFilter, parseInstruction } from "./instruction.js";

const now = new Date(2026, 11, 2, 10, 0, 0); // Wednesday 2 December 2026, local time
const p = (t: string) => parseInstruction(t, { now });

describe("parseInstruction: language, verb, noun", () => {
  it.each([
    ["Traite les dossiers de janvier", "fr", "traite", "dossiers"],
    ["Traite-moi tous les dossiers du mois de janvier", "fr", "traite", "dossiers"],
    ["Valide les factures du mois dernier", "fr", "valide", "factures"],
    ["Peux-tu traiter les lignes de ce mois-ci ?", "fr", "traiter", "lignes"],
    ["Saisis les patients de cette semaine", "fr", "saisis", "patients"],
    ["process the invoices from last month", "en", "process", "invoices"],
    ["Please handle all files from this week", "en", "handle", "files"],
    ["open the rows of january 2026", "en", "open", "rows"],
    ["complete every record from yesterday", "en", "complete", "record"],
  ])("%s", (text, lang, verb, noun) => {
    const r = p(text);
    expect([r.language, r.verb, r.noun]).toEqual([lang, verb, noun]);
  });
});

describe("parseInstruction: dates", () => {
  it.each([
    ["Traite les dossiers de janvier", { kind: "month", month: 1, year: 2026, year_implied: true }],
    ["les factures de janvier 2026", { kind: "month", month: 1, year: 2026, year_implied: false }],
    ["les factures de décembre 2025", { kind: "month", month: 12, year: 2025, year_implied: false }],
    ["les dossiers du mois dernier", { kind: "month", month: 11, year: 2026, year_implied: false }],
    ["les dossiers de ce mois-ci", { kind: "month", month: 12, year: 2026, year_implied: false }],
    ["process the invoices from last month", { kind: "month", month: 11, year: 2026 }],
    ["files of may 2026", { kind: "month", month: 5, year: 2026, year_implied: false }],
    ["the files from march", { kind: "month", month: 3, year: 2026, year_implied: true }],
    ["this week", { kind: "range", from: "2026-11-30", to: "2026-12-06" }],
    ["les dossiers de cette semaine", { kind: "range", from: "2026-11-30", to: "2026-12-06" }],
    ["les dossiers de la semaine dernière", { kind: "range", from: "2026-11-23", to: "2026-11-29" }],
    ["last week", { kind: "range", from: "2026-11-23", to: "2026-11-29" }],
    ["les dossiers d'aujourd'hui", { kind: "range", from: "2026-12-02", to: "2026-12-02" }],
    ["yesterday's files", { kind: "range", from: "2026-12-01", to: "2026-12-01" }],
    ["les factures de l'année dernière", { kind: "range", from: "2025-01-01", to: "2025-12-31" }],
    ["les dossiers de 2025", { kind: "range", from: "2025-01-01", to: "2025-12-31" }],
    ["factures du 3 au 10 janvier 2026", { kind: "range", from: "2026-01-03", to: "2026-01-10" }],
    ["entre le 1er mars et le 15 mars 2026", { kind: "range", from: "2026-03-01", to: "2026-03-15" }],
    ["files from Jan 3 to Jan 10 2026", { kind: "range", from: "2026-01-03", to: "2026-01-10" }],
    ["invoices between March 1st and March 15th 2026", { kind: "range", from: "2026-03-01", to: "2026-03-15" }],
    ["les dossiers du 15/01/2026", { kind: "range", from: "2026-01-15", to: "2026-01-15" }],
    ["rows dated 2026-01-15", { kind: "range", from: "2026-01-15", to: "2026-01-15" }],
    ["les factures depuis le 3 février", { kind: "range", from: "2026-02-03", to: "2026-12-02" }],
    ["les factures avant le 15 janvier", { kind: "range", from: "1900-01-01", to: "2026-01-14" }],
    ["process invoices from january to march", { kind: "range", from: "2026-01-01", to: "2026-03-31" }],
    ["les dossiers de janvier à mars 2026", { kind: "range", from: "2026-01-01", to: "2026-03-31" }],
  ])("%s", (text, want) => {
    expect(p(text).filters.date).toMatchObject(want);
  });

  it("a month not yet come this year is last year's (« de mars » said in February)", () => {
    expect(parseInstruction("les dossiers de mars", { now: new Date(2026, 1, 10) }).filters.date).toMatchObject({ month: 3, year: 2025, year_implied: true });
  });

  it("a day without a year is the latest one not in the future", () => {
    expect(p("les factures du 20 décembre").filters.date).toMatchObject({ from: "2025-12-20", to: "2025-12-20" });
  });

  it("no date when none is said", () => {
    expect(p("Traite les dossiers").filters.date).toBeNull();
  });
});

describe("parseInstruction: other filters", () => {
  it.each([
    ["les 3 premiers dossiers", { n: 3, from: "first" }],
    ["les trois premières factures", { n: 3, from: "first" }],
    ["les 2 dernières lignes", { n: 2, from: "last" }],
    ["the first 5 rows", { n: 5, from: "first" }],
    ["the last two invoices", { n: 2, from: "last" }],
    ["top 10 files", { n: 10, from: "first" }],
    ["le premier dossier", { n: 1, from: "first" }],
  ])("count: %s", (text, want) => {
    expect(p(text).filters.count).toEqual(want);
  });

  it.each(["les dossiers non traités", "les factures pas encore traitées", "les lignes restantes", "files not done yet", "the unprocessed invoices", "rows not yet processed", "the remaining files"])("not done: %s", (text) => {
    expect(p(text).filters.not_done).toBe(true);
  });

  it("not done is false otherwise", () => {
    expect(p("Traite les dossiers de janvier").filters.not_done).toBe(false);
  });

  it.each([
    ["les fichiers PDF de janvier", "pdf"],
    ["open all *.txt files", "txt"],
    ["les factures au format xlsx", "xlsx"],
    ["process the .csv files", "csv"],
  ])("extension: %s", (text, ext) => {
    expect(p(text).filters.extension).toBe(ext);
  });

  it.each([
    ['les factures contenant "devis"', "*devis*"],
    ["les dossiers commençant par « DUP »", "dup*"],
    ["files named report-*", "report-*"],
    ["files starting with scan", "scan*"],
    ["les dossiers dont le nom contient martin", "*martin*"],
  ])("name pattern: %s", (text, glob) => {
    expect(p(text).filters.name_pattern).toBe(glob);
  });

  it("a folder named in the instruction is its source, with its case", () => {
    const r = p("Traite les dossiers de janvier dans /srv/Entrée/Dossiers");
    expect(r.source).toBe("/srv/Entrée/Dossiers");
    expect(r.filters.date).toMatchObject({ month: 1 });
  });

  it("all filters together, and the words left for choosing the workflow", () => {
    const r = p("Valide les 2 premières factures PDF non traitées de janvier 2026");
    expect(r.filters).toMatchObject({ extension: "pdf", not_done: true, count: { n: 2, from: "first" }, date: { month: 1, year: 2026 } });
    expect(r.task_words).toEqual(["valide", "factures"]);
  });

  it("an empty instruction is a typed error", () => {
    expect(() => p("   ")).toThrow(expect.objectContaining({ code: "invalid_input" }));
  });
});

describe("dateMatches", () => {
  const jan = p("de janvier").filters.date!;
  const jan26 = p("de janvier 2026").filters.date!;
  it.each([
    [jan, "2026-01-15", true],
    [jan, "2025-01-15", false],
    [jan, "--01", true],
    [jan26, "--01", false],
    [jan, "2026-01", true],
    [jan, "2026-02-01", false],
    [jan, null, false],
  ] as const)("%o on %s → %s", (f, d, want) => {
    expect(dateMatches(f, d)).toBe(want);
  });
  it("ranges: a day inside, a month wholly inside", () => {
    const r = p("du 1er au 31 janvier 2026").filters.date!;
    expect(dateMatches(r, "2026-01-31")).toBe(true);
    expect(dateMatches(r, "2026-02-01")).toBe(false);
    expect(dateMatches(r, "2026-01")).toBe(true);
    expect(dateMatches(r, "--01")).toBe(false);
  });
  it("describes filters in the instruction's language", () => {
    expect(describeDateFilter(jan, "fr")).toBe("janvier 2026 (année déduite)");
    expect(describeDateFilter(jan26, "en")).toBe("January 2026");
  });
});
