import { describe, expect, it } from "vitest";
import { foldOcrConfusables, foldText, levenshtein, normalizeLabel, tokenize } from "./text.js";

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

  it("ASCII text folds to its lower case, the same as the full folding gives", () => {
    const full = (t: string) => t.replace(/[œŒæÆßﬁﬂ]/g, (c) => ({ œ: "oe", Œ: "oe", æ: "ae", Æ: "ae", ß: "ss", ﬁ: "fi", ﬂ: "fl" })[c]!).normalize("NFD").replace(/\p{M}+/gu, "").toLowerCase().normalize("NFC");
    const ascii = Array.from({ length: 128 }, (_, i) => String.fromCharCode(i)).join("");
    for (const t of [ascii, "Save As…", "Invoice N°12", "ÉCOLE", "Œuvre", "straße", "A\u0301B"]) expect(foldText(t)).toBe(full(t));
    expect(foldText(ascii)).toBe(ascii.toLowerCase());
  });

  it("keeps currency and percent signs as tokens", () => {
    expect(tokenize("10% off, 5€")).toEqual(["10", "%", "off", "5", "€"]);
  });

  it("folds the letters OCR confuses into one", () => {
    expect(foldOcrConfusables("Erancois")).toBe(foldOcrConfusables("Francois"));
    expect(foldOcrConfusables("Iine 1O")).toBe(foldOcrConfusables("line l0"));
    expect(foldOcrConfusables("modern")).toBe(foldOcrConfusables("modem"));
    expect(foldOcrConfusables("Paris")).not.toBe(foldOcrConfusables("Pavis"));
  });

  it("counts the edits between two strings", () => {
    expect(levenshtein("muller", "miller")).toBe(1);
    expect(levenshtein("export", "import")).toBe(2);
    expect(levenshtein("", "abc")).toBe(3);
    expect(levenshtein("same", "same")).toBe(0);
  });
});
