import { describe, expect, it } from "vitest";
import { cosine, l2Norm } from "../core/vectors.js";
import { NgramTextEmbedder } from "./ngram-text-embedder.js";
import { OcrTextEmbedder } from "./ocr-text-embedder.js";

const t = new OcrTextEmbedder(512);
const cos = (a: string, b: string) => cosine(t.embedSync(a), t.embedSync(b));
const screen = ["File Edit Search View", "Warning: you are using the root account. You may harm your system.", "Facture n° 2025-00123 - DUPONT Jean", "Montant : 1 250,00 €", "Statut : À valider"].join("\n");

describe("OCR text embedding", () => {
  it("spaces OCR added or lost barely move it (words glued at one size, split at another)", () => {
    const glued = screen.replace("you are using the root account", "youareusing therootaccount").replace("You may harm your system", "You mayharmyoursystem");
    expect(cos(screen, glued)).toBeGreaterThan(0.9);
    // The word-based embedder loses more: each glued word is a new word.
    const w = new NgramTextEmbedder(512);
    expect(cosine(w.embedSync(screen), w.embedSync(glued))).toBeLessThan(cos(screen, glued));
  });

  it("numbers are the data of the moment, not the screen: they are left out", () => {
    expect(cos(screen, screen.replace("2025-00123", "2026-00007").replace("1 250,00", "37,10"))).toBeCloseTo(1, 6);
  });

  it("folds case and accents; words cut at a window edge keep most of their n-grams", () => {
    expect(cos("Statut : À valider", "STATUT : A VALIDER")).toBeCloseTo(1, 6);
    expect(cos("Mutuelle\nTiers payant\nDossier", "ituelle\nTiers payant\nssier")).toBeGreaterThan(0.75);
  });

  it("separates different screens", () => {
    expect(cos(screen, "Nouveau patient\nNom\nPrénom\nMot de passe\nDate de naissance\nMutuelle\nAnnuler\nValider")).toBeLessThan(0.2);
    expect(l2Norm(t.embedSync("  12 / 34 ... "))).toBe(0);
  });
});
