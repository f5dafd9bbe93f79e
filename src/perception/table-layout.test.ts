import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BBox } from "../core/geometry.js";
import type { OcrLine } from "../core/providers/ocr.js";
import { readImageFile } from "../capture/png.js";
import { ROOT } from "../../test/support/cli.js";
import { PpOcr } from "./ppocr-ocr.js";
import { readTableLayout } from "./table-layout.js";
import { UIElementDetector } from "./ui-element-detector.js";

/** A line of words at y (text height 10), each word [text, x, width]. */
const line = (y: number, words: Array<[string, number, number]>): OcrLine => ({
  text: words.map((w) => w[0]).join(" "),
  bbox: [words[0]![1], y, words.at(-1)![1] + words.at(-1)![2], y + 10],
  confidence: 0.9,
  words: words.map(([text, x, w]) => ({ text, bbox: [x, y, x + w, y + 10] as BBox, confidence: 0.9 })),
});

describe("readTableLayout (geometry over OCR words)", () => {
  it("splits columns at gutters no row crosses and keeps a cell's words together", () => {
    const lines = [
      line(10, [["Nom", 10, 30], ["Ville", 120, 40], ["Date", 220, 35]]),
      line(35, [["Jean", 10, 32], ["Dupont", 46, 50], ["Le", 120, 15], ["Mans", 139, 35], ["2026-01-08", 220, 72]]),
      line(60, [["Zoé", 10, 25], ["Martin", 39, 45], ["Paris", 120, 38], ["2026-02-03", 220, 72]]),
      // Far below: the dialog's buttons, another block.
      line(300, [["Annuler", 400, 50], ["OK", 480, 20]]),
    ];
    const t = readTableLayout(lines);
    expect(t.header).toBe(true);
    expect(t.columns).toEqual(["Nom", "Ville", "Date"]);
    expect(t.rows).toEqual([["Jean Dupont", "Le Mans", "2026-01-08"], ["Zoé Martin", "Paris", "2026-02-03"]]);
    expect(t.notes.join(" ")).toMatch(/1 other block/);
  });

  it("takes no header when the first row holds digits, and names the columns column_N", () => {
    const t = readTableLayout([line(10, [["1001", 10, 30], ["Dupont", 90, 50]]), line(35, [["1002", 10, 30], ["Martin", 90, 45]])]);
    expect(t.header).toBe(false);
    expect(t.columns).toEqual(["column_1", "column_2"]);
    expect(t.rows).toEqual([["1001", "Dupont"], ["1002", "Martin"]]);
  });

  it("takes no header from a first row of words over columns of words, unless drawn as controls", () => {
    const lines = [line(10, [["Nom", 10, 30], ["Ville", 120, 40]]), line(35, [["Dupont", 10, 50], ["Paris", 120, 38]]), line(60, [["Martin", 10, 45], ["Lyon", 120, 30]])];
    expect(readTableLayout(lines).header).toBe(false);
    const headerButtons: BBox[] = [[4, 4, 110, 26], [114, 4, 200, 26]];
    const t = readTableLayout(lines, headerButtons);
    expect(t.header).toBe(true);
    expect(t.columns).toEqual(["Nom", "Ville"]);
    expect(t.rows).toHaveLength(2);
  });

  it("reads a date cell OCR cut in two (« 1 5/01/2026 ») as one date, and leaves other spaced cells alone", () => {
    const t = readTableLayout([line(10, [["Date", 10, 40], ["Code", 120, 40]]), line(35, [["1", 10, 4], ["5/01/2026", 18, 64], ["12", 120, 14], ["34", 138, 14]]), line(60, [["2026-02-03", 10, 72], ["56", 120, 14]])]);
    expect(t.rows).toEqual([["15/01/2026", "12 34"], ["2026-02-03", "56"]]);
  });

  it("finds no table in a single line of text", () => {
    const t = readTableLayout([line(10, [["Bonjour", 10, 50], ["à", 64, 8], ["tous", 76, 30]])]);
    expect(t.rows).toEqual([]);
    expect(t.notes[0]).toMatch(/no block of two rows and two columns/);
  });
});

describe("readTableLayout on a real screen (yad --list, PP-OCR and the product's detector)", () => {
  let ocr: PpOcr;
  beforeAll(async () => {
    ocr = await PpOcr.create();
  });
  afterAll(async () => ocr?.close());

  it("reads the header as field names and every row's cells from the pixels", async () => {
    const frame = await readImageFile(join(ROOT, "test/fixtures/screens/yad-list.png"));
    const det = await new UIElementDetector({ ocr }).detect(frame, { autoScale: true });
    const t = readTableLayout(det.ocr!.lines, det.elements.map((e) => e.bbox));
    expect(t.header).toBe(true);
    expect(t.columns.map((c) => c.toLowerCase())).toEqual(["numero", "client", "date", "montant"]);
    expect(t.rows).toEqual([
      ["1001", "Dupont", "2026-01-08", "120"],
      ["1002", "Martin", "2026-02-03", "80"],
      ["1003", "Durand", "15/01/2026", "45"],
      ["1004", "Bernard", "2026-03-14", "300"],
      ["1005", "Petit", "2026-01-27", "99"],
    ]);
  });
});
