import { describe, expect, it } from "vitest";
import { InvalidInputError } from "../core/errors.js";
import { titleMatcher } from "./screen-table-reader.js";

describe("titleMatcher (screen:<pattern>)", () => {
  it("finds the words in the title, case and accents ignored", () => {
    const m = titleMatcher("patients a enregistrer");
    expect(m("Patients à enregistrer — Clinique")).toBe(true);
    expect(m("Nouveau patient")).toBe(false);
  });

  it("takes /regex/ as a regular expression (case ignored), and refuses a broken one or an empty pattern", () => {
    expect(titleMatcher("/^Factures \\d{4}$/")("factures 2026")).toBe(true);
    expect(titleMatcher("/^Factures \\d{4}$/")("Factures 2026 (copie)")).toBe(false);
    expect(() => titleMatcher("/(/")).toThrow(InvalidInputError);
    expect(() => titleMatcher("  ")).toThrow(/needs a window title pattern/);
  });
});
