import { describe, expect, it } from "vitest";
import { foldText, normalizeLabel, tokenize } from "./text.js";

describe("label normalization", () => {
  it.each([
    ["Valider la facture", "valider facture"],
    ["  VALIDER   LA  FACTURE ", "valider facture"],
    ["Supprimer l'élément", "supprimer element"],
    ["Save the file", "save file"],
    ["Tiers payant", "tiers payant"],
    ["Cœur & Âme", "coeur ame"],
    ["Total : 12,50 €", "total 12 50 €"],
    ["Le", "le"],
    ["", ""],
    ["Zoë", "zoe"],
  ])("normalizes %j to %j", (input, expected) => {
    expect(normalizeLabel(input)).toBe(expected);
  });

  it("folds accents the same way for composed and decomposed input", () => {
    expect(foldText("e\u0301te\u0301")).toBe(foldText("été"));
    expect(foldText("été")).toBe("ete");
  });

  it("keeps currency and percent signs as tokens", () => {
    expect(tokenize("10% off, 5€")).toEqual(["10", "%", "off", "5", "€"]);
  });
});
