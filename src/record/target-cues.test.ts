import { describe, expect, it } from "vitest";
import type { BBox } from "../core/geometry.js";
import { captionOf, withoutWordsIn } from "./target-cues.js";

const line = (text: string, bbox: BBox) => ({ text, bbox });

describe("captionOf (the builder's caption of a control)", () => {
  // Read on a real recording (html-materialize): small captions right-aligned left of their fields, OCR's padded
  // line box of « Ville » reaching 7 px into its field; the row above's caption ends just over the field's left edge.
  const field: BBox = [163, 185, 510, 207];
  const rowAbove = line("Prix unitaire HT €", [69.9, 150.9, 167.1, 170.1]);

  it("takes the caption on the field's row even when OCR's padded box reaches into the field", () => {
    expect(captionOf(field, "text_input", [rowAbove, line("Ville", [132.9, 185.4, 170.1, 212.1])])?.text).toBe("Ville");
  });

  it("never takes the row above's left caption as the caption above a field", () => {
    expect(captionOf(field, "text_input", [rowAbove])).toBeUndefined();
  });

  it("takes a caption drawn just above the field, starting at its left edge", () => {
    expect(captionOf(field, "text_input", [line("Ville", [164, 163, 200, 181])])?.text).toBe("Ville");
    // On its row and nearer than the one above: the row's caption.
    expect(captionOf(field, "text_input", [line("Ville", [164, 163, 200, 181]), line("Code", [120, 187, 158, 205])])?.text).toBe("Code");
  });

  it("names a check box by the text right of it, and not by a line far away", () => {
    const box: BBox = [20, 100, 36, 116];
    expect(captionOf(box, "checkbox", [line("Accepter", [40, 99, 100, 117])])?.text).toBe("Accepter");
    expect(captionOf(box, "checkbox", [line("Loin", [400, 99, 440, 117])])).toBeUndefined();
  });
});

describe("withoutWordsIn (a line OCR merged across a caption and its field)", () => {
  it("keeps the words outside the fields, drops a separator read at the field's edge, and a line wholly inside", () => {
    const merged = { text: "Nom du client |Martin", bbox: [40, 10, 260, 30] as BBox, words: [{ text: "Nom", bbox: [40, 10, 70, 30] as BBox }, { text: "du", bbox: [74, 10, 90, 30] as BBox }, { text: "client", bbox: [94, 10, 140, 30] as BBox }, { text: "|Martin", bbox: [150, 10, 210, 30] as BBox }] };
    const field = { bbox: [148, 8, 400, 32] as BBox };
    expect(withoutWordsIn(merged, [field])).toEqual({ text: "Nom du client", bbox: [40, 10, 140, 30] });
    expect(withoutWordsIn(merged, [])).toBe(merged);
    expect(withoutWordsIn({ ...merged, words: [merged.words[3]!] }, [field])).toBeUndefined();
    const plain = { text: "Ville", bbox: [40, 40, 80, 60] as BBox };
    expect(withoutWordsIn(plain, [field])).toBe(plain);
  });
});
