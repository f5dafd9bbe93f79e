import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readImageFile } from "../capture/png.js";
import { InvalidInputError, ProviderUnavailableError } from "../core/errors.js";
import { makeFrame, type Frame } from "../core/frame.js";
import { bboxIoU, type BBox } from "../core/geometry.js";
import type { OcrLine, OcrProvider } from "../core/providers/ocr.js";
import type { ElementProposal, ElementProposer } from "../core/providers/element-proposer.js";
import type { FillProposer } from "../core/providers/fill-proposer.js";
import { UI_ELEMENT_TYPES } from "../core/schemas/uielement.js";
import { calibratedConfidence, decodeDetections, defaultDetectorModelDir, logitForConfidence, mergeCoarse, widenCoarse, DETECTOR_META_FILE, DETECTOR_MODEL_FILE, LearnedDetector, reliabilityTable, type CoarsePass, type DetectorMeta } from "./learned-detector.js";
import { captionOf, captionOfField, completeCaptionedToggles, completeRowSelectors, completeSwitches, completeTabStrips, fillIns, fitToggles, downArrowAtRight, fuseWithOcr, inkGaps, joinSplitDropdowns, keepFused, retypeArrowedFields, retypeLeftAlignedButtons, snapToShapes, widenFields, withoutWordsIn } from "./learned-fusion.js";
import { PpOcr } from "./ppocr-ocr.js";
import { UIElementDetector } from "./ui-element-detector.js";
import { CachedOcr } from "./ocr-cache.js";
import type { ElementCandidate } from "./element-classifier.js";
import type { RulesGate } from "./rules-gate.js";

const FIXTURES = join(import.meta.dirname, "..", "..", "test", "fixtures", "ui-detector");
const META: DetectorMeta = { types: UI_ELEMENT_TYPES, states: ["checked", "selected", "disabled"], stride: 4, align: 32, temperature: 2, threshold: 0.3, floor: 0.05, nms_iou: 0.5, min_side: 32, max_side: 4096 };

/** Model outputs on a w×h grid, all cells at `bg`, with the given peaks (cell, class, logit, box sides, state logits). */
function outputs(w: number, h: number, peaks: Array<{ x: number; y: number; c: number; z: number; sides: [number, number, number, number]; state?: [number, number, number] }>, bg = -8) {
  const n = w * h;
  const heat = new Float32Array(8 * n).fill(bg);
  const box = new Float32Array(4 * n).fill(4);
  const state = new Float32Array(3 * n).fill(-5);
  for (const p of peaks) {
    const i = p.y * w + p.x;
    heat[p.c * n + i] = p.z;
    p.sides.forEach((v, k) => (box[k * n + i] = v));
    p.state?.forEach((v, k) => (state[k * n + i] = v));
  }
  return { heat, box, state, w, h };
}

describe("mergeCoarse (the half-resolution pass for wide elements)", () => {
  const PASS: CoarsePass = { scale: 0.5, min_width: 192, calibration: { method: "platt", a: 1.5, b: 0.5 } };
  const d = (type: string, bbox: BBox, confidence: number) => ({ type, bbox, confidence });
  it("scales coarse boxes back, keeps only the wide ones, and lets the more confident of two overlapping detections stay", () => {
    const fine = [d("button", [10, 10, 40, 30], 0.9), d("link", [105, 42, 690, 78], 0.4), d("checkbox", [800, 100, 816, 116], 0.7)];
    const coarse = [
      d("text_input", [50, 20, 350, 40], 0.8), // 600 px wide at full resolution: kept, and the less confident link on the same box goes
      d("checkbox", [400, 50, 408, 58], 0.95), // 16 px wide: the fine pass's business
      d("dropdown", [0, 0, 110, 20], 0.5), // 220 px wide, overlapping the button a little (IoU < 0.5): kept
      d("button", [380, 45, 700, 70], 0.6), // clamped to the frame's 1000 px
    ];
    const out = mergeCoarse(fine, coarse, PASS, 1000, 600, 0.5);
    expect(out.map((x) => x.type)).toEqual(["button", "text_input", "checkbox", "button", "dropdown"]);
    expect(out[1]!.bbox).toEqual([100, 40, 700, 80]);
    expect(out[3]!.bbox).toEqual([760, 90, 1000, 140]);
    expect(out.map((x) => x.confidence)).toEqual([...out.map((x) => x.confidence)].sort((a, b) => b - a));
  });
  it("a coarse detection overlapping a more confident full-resolution one is dropped", () => {
    const out = mergeCoarse([d("text_input", [100, 40, 700, 80], 0.9)], [d("button", [50, 20, 350, 40], 0.7)], PASS, 1000, 600, 0.5);
    expect(out).toEqual([d("text_input", [100, 40, 700, 80], 0.9)]);
  });
});

describe("decodeDetections", () => {
  it("turns each local peak into a box around its cell centre, typed by its best class, confidence sigmoid(logit / T)", () => {
    const out = outputs(20, 10, [
      { x: 5, y: 3, c: 0, z: 2, sides: [10, 6, 14, 8] },
      { x: 15, y: 7, c: 4, z: 4, sides: [8, 8, 40, 8], state: [3, -3, -3] },
    ]);
    const d = decodeDetections(out, META, 80, 40);
    expect(d.map((x) => x.type)).toEqual(["checkbox", "button"]);
    // cell (15, 7) centre = (62, 30); sides clipped to the 80×40 image
    expect(d[0]!.bbox).toEqual([54, 22, 80, 38]);
    expect(d[1]!.bbox).toEqual([12, 8, 36, 22]);
    expect(d[0]!.confidence).toBeCloseTo(1 / (1 + Math.exp(-2)), 6);
    expect(d[1]!.confidence).toBeCloseTo(1 / (1 + Math.exp(-1)), 6);
    expect(d[0]!.state!.checked).toBeCloseTo(0.953, 3);
  });

  it("drops peaks under the threshold, non-maximal cells and boxes overlapping a better one", () => {
    const out = outputs(20, 10, [
      { x: 5, y: 3, c: 1, z: 3, sides: [20, 6, 20, 6] },
      { x: 6, y: 3, c: 1, z: 2.5, sides: [20, 6, 20, 6] }, // neighbour of a higher cell: not a peak
      { x: 9, y: 3, c: 1, z: 2.8, sides: [30, 6, 10, 6] }, // a peak, but IoU > 0.5 with the first box
      { x: 15, y: 5, c: 2, z: -1.5, sides: [6, 6, 6, 6] }, // sigmoid(-0.75) = 0.32 ≥ 0.3: kept
      { x: 18, y: 8, c: 3, z: -2, sides: [6, 6, 6, 6] }, // sigmoid(-1) = 0.27 < 0.3
    ]);
    const d = decodeDetections(out, META, 80, 40);
    expect(d.map((x) => x.type)).toEqual(["text_input", "dropdown"]);
    expect(decodeDetections(out, META, 80, 40, 0.05).map((x) => x.type)).toEqual(["text_input", "dropdown", "tab"]);
  });
});

describe("Platt calibration", () => {
  const PLATT: DetectorMeta = { ...META, calibration: { method: "platt", a: 0.5, b: -1 } };
  it("confidence is sigmoid(a·logit + b) when the model carries a Platt fit, and the threshold is applied on it", () => {
    const out = outputs(20, 10, [
      { x: 5, y: 3, c: 0, z: 4, sides: [10, 6, 14, 8] }, // sigmoid(1) = 0.73
      { x: 15, y: 7, c: 4, z: 1, sides: [8, 8, 8, 8] }, // sigmoid(-0.5) = 0.38 ≥ 0.3
      { x: 10, y: 1, c: 2, z: 0, sides: [8, 8, 8, 8] }, // sigmoid(-1) = 0.27 < 0.3 (with T = 2 it would be 0.5)
    ]);
    const d = decodeDetections(out, PLATT, 80, 40);
    expect(d.map((x) => x.type)).toEqual(["button", "checkbox"]);
    expect(d[0]!.confidence).toBeCloseTo(1 / (1 + Math.exp(-1)), 6);
    expect(d[1]!.confidence).toBeCloseTo(1 / (1 + Math.exp(0.5)), 6);
    expect(decodeDetections(out, META, 80, 40).map((x) => x.type)).toEqual(["button", "checkbox", "dropdown"]);
  });
  it("logitForConfidence inverts calibratedConfidence, with and without the Platt fit", () => {
    for (const m of [META, PLATT])
      for (const c of [0.05, 0.3, 0.5, 0.9]) expect(calibratedConfidence(m, logitForConfidence(m, c))).toBeCloseTo(c, 9);
  });
});

describe("reliabilityTable", () => {
  it("bins confidences and reports each bin's observed precision and the calibration error", () => {
    const scored = [
      ...Array.from({ length: 10 }, (_, i) => ({ confidence: 0.95, correct: i < 9 })),
      ...Array.from({ length: 10 }, (_, i) => ({ confidence: 0.15, correct: i < 5 })),
    ];
    const t = reliabilityTable(scored);
    expect(t.count).toBe(20);
    expect(t.bins).toHaveLength(10);
    expect(t.bins[9]).toMatchObject({ count: 10, correct: 9, precision: 0.9 });
    expect(t.bins[1]).toMatchObject({ count: 10, correct: 5, precision: 0.5 });
    expect(t.bins[5]).toMatchObject({ count: 0, precision: null });
    expect(t.ece).toBeCloseTo(0.5 * 0.05 + 0.5 * 0.35, 6);
    expect(reliabilityTable([{ confidence: 1, correct: true }]).bins[9]!.count).toBe(1);
    expect(() => reliabilityTable([{ confidence: 1.5, correct: true }])).toThrow(InvalidInputError);
  });

  it("on synthetic detections drawn from their own confidence the error is small; an overconfident score's is large", () => {
    // a deterministic LCG: confidence c uniform, the detection right with probability c (calibrated) or c² (overconfident)
    let seed = 12345;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const calibrated: Array<{ confidence: number; correct: boolean }> = [];
    const over: Array<{ confidence: number; correct: boolean }> = [];
    for (let i = 0; i < 20000; i++) {
      const c = rnd();
      const u = rnd();
      calibrated.push({ confidence: c, correct: u < c });
      over.push({ confidence: c, correct: u < c * c });
    }
    const good = reliabilityTable(calibrated);
    const bad = reliabilityTable(over);
    expect(good.ece).toBeLessThan(0.02);
    expect(bad.ece).toBeGreaterThan(0.12);
    for (const b of good.bins) expect(Math.abs(b.precision! - b.meanConfidence!)).toBeLessThan(0.05);
    expect(bad.bins[5]!.precision!).toBeLessThan(bad.bins[5]!.meanConfidence! - 0.15);
  });
});

describe("fusion with OCR", () => {
  const line = (text: string, bbox: BBox): OcrLine => ({ text, bbox, confidence: 0.9, words: [{ text, bbox, confidence: 0.9 }] });
  it("names a field by its caption, a button by its words, a bare check box by the line right of it", () => {
    const lines = [line("Nom :", [10, 12, 50, 26]), line("Jean", [110, 12, 140, 26]), line("Valider", [220, 52, 270, 66]), line("Tiers payant", [34, 92, 120, 106]), line("Adresse", [100, 130, 160, 144])];
    const c = fuseWithOcr(
      [
        { type: "text_input", bbox: [100, 8, 300, 30], confidence: 0.9 },
        { type: "button", bbox: [210, 46, 280, 72], confidence: 0.8 },
        { type: "checkbox", bbox: [10, 90, 28, 108], confidence: 0.7, state: { checked: 0.9, disabled: 0.1 } },
        { type: "text_input", bbox: [100, 148, 300, 170], confidence: 0.6 },
      ],
      lines,
    );
    expect(c.map((x) => x.label)).toEqual(["Nom", "Valider", "Tiers payant", "Adresse"]);
    expect(c[0]!.text).toBe("Jean");
    expect(c[2]!.state).toEqual({ checked: true, disabled: false });
    expect(c.every((x) => x.method === "learned_detector")).toBe(true);
    expect(captionOf([100, 8, 300, 30], lines, "above")).toBeUndefined();
    // One line OCR ran from a caption into its field's value: the field is named by the words outside it.
    const w = (text: string, x0: number, x1: number) => ({ text, bbox: [x0, 212, x1, 228] as BBox, confidence: 0.9 });
    const merged: OcrLine = { text: "Invoice number : 1 250,00", bbox: [18, 210, 205, 230], confidence: 0.9, words: [w("Invoice", 18, 66), w("number", 70, 116), w(":", 120, 124), w("1", 140, 146), w("250,00", 150, 205)] };
    const [field] = fuseWithOcr([{ type: "text_input", bbox: [132, 208, 384, 232], confidence: 0.9 }], [merged]);
    expect([field!.label, field!.text]).toEqual(["Invoice number", "1 250,00"]);
    expect(captionOfField([132, 208, 384, 232], [merged])).toBe("Invoice number"); // as a rules « button » retyped a field is named
    expect(captionOfField([132, 300, 384, 324], [merged])).toBeUndefined();
    // Two drop-downs stacked, their captions far off at the row's start: the lower one is not named by the upper one's value.
    const stacked = fuseWithOcr([{ type: "dropdown", bbox: [600, 400, 700, 420], confidence: 0.9 }, { type: "dropdown", bbox: [600, 440, 700, 460], confidence: 0.9 }], [line("Include VAT", [604, 403, 670, 418]), line("Express", [604, 443, 660, 458])]);
    expect(stacked.map((x) => x.label)).toEqual(["Include VAT", "Express"]);
    expect(captionOfField([600, 440, 700, 460], [line("Include VAT", [604, 403, 670, 418])], [[600, 400, 700, 420]])).toBeUndefined();
    // A check box whose box cuts its caption is named by the whole line.
    const cut = { text: "Accepte les conditions", bbox: [20, 120, 160, 138] as BBox, confidence: 0.9, words: [{ text: "Accepte", bbox: [20, 120, 70, 138] as BBox, confidence: 0.9 }, { text: "les", bbox: [74, 120, 90, 138] as BBox, confidence: 0.9 }, { text: "conditions", bbox: [94, 120, 160, 138] as BBox, confidence: 0.9 }] };
    // Two buttons of a row OCR read as one word: each keeps its own part, cut where the capital starts the next word.
    const row = line("EnregistrerImprimer", [203, 200, 362, 216]); // PP-OCR's box padded past the first button's side
    const [save, print] = fuseWithOcr([{ type: "button", bbox: [207, 196, 292, 220], confidence: 0.8 }, { type: "button", bbox: [296, 196, 370, 220], confidence: 0.8 }], [row]);
    expect([save!.label, print!.label]).toEqual(["Enregistrer", "Imprimer"]);
    // A box a little short of its word, no join where it cuts: the whole word, as before.
    const [short] = fuseWithOcr([{ type: "button", bbox: [225, 196, 330, 220], confidence: 0.8 }], [line("Enregistrement", [215, 200, 362, 216])]);
    expect(short!.label).toBe("Enregistrement");
    const [toggle] = fuseWithOcr([{ type: "checkbox", bbox: [3, 118, 93, 140], confidence: 0.8 }], [cut]);
    expect(toggle).toMatchObject({ label: "Accepte les conditions", text: "Accepte les conditions" });
    // A box that reaches into the next toggle of its row holds that one's indicator (read « O »),
    // not its caption: the line mostly outside it is not its name.
    const next = { text: "O radiobutton", bbox: [170, 120, 260, 138] as BBox, confidence: 0.9, words: [{ text: "O", bbox: [170, 120, 182, 138] as BBox, confidence: 0.9 }, { text: "radiobutton", bbox: [188, 120, 260, 138] as BBox, confidence: 0.9 }] };
    const [first] = fuseWithOcr([{ type: "checkbox", bbox: [3, 118, 185, 140], confidence: 0.8 }], [cut, next]);
    expect(first).toMatchObject({ label: "Accepte les conditions", text: "Accepte les conditions" });
  });

  it("a proposal takes the box of the drawn shape it overlaps best (IoU ≥ 0.5), keeping its type; poor overlaps do not move it", () => {
    const p = [
      { type: "text_input" as const, bbox: [160, 8, 280, 30] as BBox, confidence: 0.9 }, // a field read narrower than drawn
      { type: "button" as const, bbox: [210, 46, 280, 72] as BBox, confidence: 0.8 }, // nothing drawn there
      { type: "checkbox" as const, bbox: [10, 90, 28, 108] as BBox, confidence: 0.7 }, // a shape far too large around it
    ];
    const shapes = [{ bbox: [100, 8, 300, 30] as BBox }, { bbox: [120, 6, 300, 32] as BBox }, { bbox: [0, 80, 200, 120] as BBox }];
    const s = snapToShapes(p, shapes);
    expect(s.map((x) => x.bbox)).toEqual([[100, 8, 300, 30], [210, 46, 280, 72], [10, 90, 28, 108]]);
    expect(s.map((x) => x.type)).toEqual(["text_input", "button", "checkbox"]);
    // The field snapped to its edges is read whole: the value typed at its left is inside.
    const [field] = fuseWithOcr(s, [line("Nom :", [10, 12, 50, 26]), line("Jean", [110, 12, 140, 26])]);
    expect(field).toMatchObject({ label: "Nom", text: "Jean" });
  });
});

describe("fitToggles (a toggle's box on its drawn indicator and caption)", () => {
  const word = (text: string, bbox: BBox) => ({ text, bbox, confidence: 0.9 });
  const lines: OcrLine[] = [
    // Row 1: « [ ] Business » then, far right, another column's text.
    { text: "Business", bbox: [124, 100, 182, 115], confidence: 0.9, words: [word("Business", [124, 100, 182, 115])] },
    { text: "Smith", bbox: [400, 100, 440, 115], confidence: 0.9, words: [word("Smith", [400, 100, 440, 115])] },
    // Row 2: two radio buttons side by side, « (o) Oui   ( ) Non ».
    { text: "Oui Non", bbox: [124, 140, 260, 155], confidence: 0.9, words: [word("Oui", [124, 140, 150, 155]), word("Non", [230, 140, 260, 155])] },
    // Row 3: a table row's check box, the name in the next cell.
    { text: "Martin", bbox: [150, 180, 200, 195], confidence: 0.9, words: [word("Martin", [150, 180, 200, 195])] },
    // Row 4: no drawn indicator (a ring the shapes miss), OCR reads it « O ».
    { text: "O Personal", bbox: [109, 221, 180, 236], confidence: 0.9, words: [word("O", [109, 221, 118, 236]), word("Personal", [122, 221, 180, 236])] },
  ];
  const shapes = [{ bbox: [108, 100, 122, 114] as BBox }, { bbox: [108, 140, 122, 154] as BBox }, { bbox: [214, 140, 228, 154] as BBox }, { bbox: [108, 180, 122, 194] as BBox }];
  it("fits a loose box to its indicator with the words that follow it, or to the indicator alone, as the box says", () => {
    const [business, oui, non, row, personal, button] = fitToggles(
      [
        { type: "checkbox", bbox: [106, 96, 260, 118], confidence: 0.8 }, // reaches far past « Business »
        { type: "radio_button", bbox: [106, 137, 200, 158], confidence: 0.8 }, // reaches into the next radio button
        { type: "radio_button", bbox: [212, 137, 300, 158], confidence: 0.8 },
        { type: "checkbox", bbox: [106, 178, 140, 196], confidence: 0.8 }, // the indicator and a gap, not the next cell's name
        { type: "radio_button", bbox: [107, 218, 250, 240], confidence: 0.8 },
        { type: "button", bbox: [106, 96, 260, 118], confidence: 0.8 }, // other types are left as they are
      ],
      shapes,
      lines,
    );
    expect(business!.bbox).toEqual([108, 96, 182, 118]); // across fitted, down the model's rows
    expect(oui!.bbox).toEqual([108, 137, 150, 158]); // the next indicator bounds the caption
    expect(non!.bbox).toEqual([214, 137, 260, 158]);
    expect(row!.bbox).toEqual([108, 180, 122, 194]);
    expect(personal!.bbox).toEqual([107, 218, 180, 240]); // its left end stands for the indicator
    expect(button!.bbox).toEqual([106, 96, 260, 118]);
    expect(business).toMatchObject({ type: "checkbox", confidence: 0.8 });
    // Named by the words it was fitted to: one OCR line ran across both radio buttons' captions.
    const named = fuseWithOcr([business!, oui!, non!, row!, personal!], lines);
    // (« O »: the ring no shape holds, read as a letter on the indicator — not the caption's first word.)
    expect(named.map((c) => c.label)).toEqual(["Business", "Oui", "Non", "Martin", "Personal"]);
  });
  it("a dot read on an indicator no shape holds is no word of its caption, and tells a radio button", () => {
    const dotted: OcrLine = { text: "● Include VAT", bbox: [109, 261, 200, 276], confidence: 0.9, words: [word("●", [109, 261, 118, 276]), word("Include", [122, 261, 170, 276]), word("VAT", [174, 261, 200, 276])] };
    const [radio] = fitToggles([{ type: "checkbox", bbox: [107, 258, 220, 280], confidence: 0.8 }], [], [dotted]);
    expect(radio).toMatchObject({ type: "radio_button", bbox: [107, 258, 200, 280] });
    expect(fuseWithOcr([radio!], [dotted])[0]!.label).toBe("Include VAT");
    // A ring read « O » names no type: a square the OCR reads round stays a check box.
    const ringed: OcrLine = { ...dotted, text: "O Include VAT", words: [word("O", [109, 261, 118, 276]), ...dotted.words.slice(1)] };
    expect(fitToggles([{ type: "checkbox", bbox: [107, 258, 220, 280], confidence: 0.8 }], [], [ringed])[0]).toMatchObject({ type: "checkbox" });
  });
  it("does not name a bare indicator by a caption another toggle's box holds", () => {
    const [bare, next] = fuseWithOcr(
      [
        { type: "checkbox", bbox: [100, 300, 114, 314], confidence: 0.8 },
        { type: "checkbox", bbox: [150, 298, 230, 316], confidence: 0.8 },
      ],
      [{ text: "Non", bbox: [170, 300, 200, 314], confidence: 0.9, words: [word("Non", [170, 300, 200, 314])] }],
    );
    expect([bare!.label, next!.label]).toEqual(["", "Non"]);
  });
  it("names a bare indicator by the caption a toggle the gate dropped held; the kept keep their boxes", () => {
    const fitted = [
      { type: "checkbox" as const, bbox: [100, 300, 114, 314] as BBox, confidence: 0.8 },
      { type: "checkbox" as const, bbox: [116, 298, 230, 316] as BBox, confidence: 0.2 },
    ];
    const lines: OcrLine[] = [{ text: "Non", bbox: [120, 300, 150, 314], confidence: 0.9, words: [word("Non", [120, 300, 150, 314])] }];
    const asked: string[][] = [];
    const { all, kept } = keepFused(fitted, lines, (c, every) => (asked.push(every.map((e) => e.label)), { keep: c.confidence >= 0.5 }));
    // The gate is asked with every element labelled among all of them (the dropped one holds « Non »'s centre)…
    expect(all.map((c) => c.label)).toEqual(["", "Non"]);
    expect(asked).toEqual([["", "Non"], ["", "Non"]]);
    // …and what it keeps is labelled again without it.
    expect(kept.map((c) => [c.label, c.bbox])).toEqual([["Non", [100, 300, 114, 314]]]);
    // Nothing dropped: the same candidates; a confidence the judge gives replaces the model's.
    expect(keepFused(fitted, lines, () => ({ keep: true })).kept).toEqual(all);
    expect(keepFused(fitted, lines, (c) => ({ keep: true, confidence: c.confidence / 2 })).kept.map((c) => [c.label, c.confidence])).toEqual([["", 0.4], ["Non", 0.1]]);
  });
  it("ends a caption at a gap wider than a word space: the next toggle's indicator read as a letter is not its caption", () => {
    const row: OcrLine = { text: "checkbutton O radiobutton", bbox: [80, 400, 330, 420], confidence: 0.9, words: [word("checkbutton", [80, 400, 180, 420]), word("O", [200, 400, 212, 420]), word("radiobutton", [217, 400, 330, 420])] };
    const [check] = fitToggles([{ type: "checkbox", bbox: [58, 396, 260, 424], confidence: 0.8 }], [{ bbox: [60, 402, 76, 418] as BBox }], [row]);
    expect(check!.bbox).toEqual([60, 396, 180, 424]);
    expect(fuseWithOcr([check!], [row])[0]!.label).toBe("checkbutton");
  });
  it("keeps a box on a drawn shape with no word in it whole: a switch's track is not shrunk to its knob", () => {
    // A switch drawn as a track (a rectangle) with its knob (a disc) inside; the model's box was snapped to the track.
    const track: BBox = [300, 500, 339, 521];
    const knob: BBox = [302, 502, 320, 519];
    const [sw] = fitToggles([{ type: "checkbox", bbox: track, confidence: 0.9 }], [{ bbox: track }, { bbox: knob }], []);
    expect(sw!.bbox).toEqual(track);
    // Not snapped (a few pixels off the track): the knob stands for an indicator, as before.
    const [loose] = fitToggles([{ type: "checkbox", bbox: [301, 500, 339, 521], confidence: 0.9 }], [{ bbox: track }, { bbox: knob }], []);
    expect(loose!.bbox).toEqual(knob);
  });
  it("fits a box that reaches into a long caption to the whole caption, though it covers little of it", () => {
    // « ( ) J'accepte les conditions générales »: the model's box ends in the middle of « J'accepte ».
    const long: OcrLine = { text: "J'accepte les conditions générales", bbox: [321, 402, 791, 431], confidence: 0.9, words: [word("J'accepte", [321, 402, 446, 431]), word("les", [456, 402, 493, 431]), word("conditions", [502, 402, 647, 431]), word("générales", [656, 402, 791, 431])] };
    const ring: BBox = [282, 402, 311, 431];
    expect(fitToggles([{ type: "radio_button", bbox: [279, 398, 386, 435], confidence: 0.9 }], [{ bbox: ring }], [long])[0]!.bbox).toEqual([282, 398, 791, 435]);
    // Into its first word by less than half the indicator's size: the indicator alone, as its box says (an indicator
    // as tall as its caption's letters: the model knows those).
    expect(fitToggles([{ type: "radio_button", bbox: [279, 398, 330, 435], confidence: 0.9 }], [{ bbox: ring }], [long])[0]!.bbox).toEqual(ring);
  });
  it("fits a large ring the model boxed alone to the caption beside it, though the caption's middle is off the ring's", () => {
    // An accessible form's 42 px ring, the model's box on its edges (snapToShapes), its caption's 14 px letters 24 px
    // after it and 8 px above its middle.
    const ring: BBox = [100, 700, 142, 742];
    const caption: OcrLine = { text: "Subscribe to newsletter", bbox: [166, 706, 355, 720], confidence: 0.9, words: [word("Subscribe", [166, 706, 243, 720]), word("to", [248, 706, 264, 720]), word("newsletter", [270, 706, 355, 720])] };
    expect(fitToggles([{ type: "radio_button", bbox: ring, confidence: 0.5 }], [{ bbox: ring }], [caption])[0]!.bbox).toEqual([100, 700, 355, 742]);
    // With no caption beside it (a row selector), the ring alone; a ring as tall as its caption's letters boxed alone
    // (a to-do list's check box before its text, no label of its), alone as the model's box says.
    expect(fitToggles([{ type: "radio_button", bbox: ring, confidence: 0.5 }], [{ bbox: ring }], [])[0]!.bbox).toEqual(ring);
    const small: BBox = [100, 704, 114, 718];
    const text: OcrLine = { text: "Design", bbox: [124, 704, 170, 718], confidence: 0.9, words: [word("Design", [124, 704, 170, 718])] };
    expect(fitToggles([{ type: "checkbox", bbox: small, confidence: 0.5 }], [{ bbox: small }], [text])[0]!.bbox).toEqual(small);
  });
  it("keeps the model's box of a switch whose track the shapes miss, where the track's edges are inked beside the knob", () => {
    // A white page; a pill-shaped track (its outline drawn at rows 100 and 120, x 200–240) the shapes miss, its knob a
    // disc the shapes found at the left end; the model's box sits inside the track's rows.
    const width = 400;
    const data = new Uint8Array(width * 200).fill(255);
    for (let x = 200; x < 240; x++) for (const y of [100, 120]) data[y * width + x] = 120;
    const knob: BBox = [203, 104, 216, 117];
    const model: BBox = [202, 103, 238, 118];
    const [sw] = fitToggles([{ type: "checkbox", bbox: model, confidence: 0.9 }], [{ bbox: knob }], [], { data, width });
    expect(sw!.bbox).toEqual(model);
    // The OCR read the knob as « o »: still the switch.
    const o: OcrLine = { text: "o", bbox: [205, 105, 214, 116], confidence: 0.5, words: [word("o", [205, 105, 214, 116])] };
    expect(fitToggles([{ type: "checkbox", bbox: model, confidence: 0.9 }], [{ bbox: knob }], [o], { data, width })[0]!.bbox).toEqual(model);
    // Nothing drawn beside the knob (a bare check box in a loose box): the indicator; without the pixels, as before.
    const blank = new Uint8Array(width * 200).fill(255);
    expect(fitToggles([{ type: "checkbox", bbox: model, confidence: 0.9 }], [{ bbox: knob }], [], { data: blank, width })[0]!.bbox).toEqual(knob);
    expect(fitToggles([{ type: "checkbox", bbox: model, confidence: 0.9 }], [{ bbox: knob }], [])[0]!.bbox).toEqual(knob);
    // A caption reaching into the box is ink too, but a check box's: not kept whole as a switch, fitted to the indicator
    // and its caption (the box reaches into it).
    const caption: OcrLine = { text: "Professionnel", bbox: [230, 104, 330, 117], confidence: 0.9, words: [word("Professionnel", [230, 104, 330, 117])] };
    for (let x = 217; x < 330; x++) data[110 * width + x] = 0;
    expect(fitToggles([{ type: "checkbox", bbox: model, confidence: 0.9 }], [{ bbox: knob }], [caption], { data, width })[0]!.bbox).toEqual([203, 103, 330, 118]);
  });
  it("keeps a table's row selectors to their indicators: the words after them are the next cell, not a caption", () => {
    // Three table rows « [ ] Name  City  Amount » (the model's boxes reach into the name), then three check boxes of a
    // list below in the same column, whose rows hold nothing past their captions.
    const cells = [["Girard", "Paris", "12"], ["Zoé", "Lyon", "7"], ["Martin", "Nantes", "130"]];
    const rows: OcrLine[] = cells.flatMap((texts, i) => texts.map((t, k) => ({ text: t, bbox: [130 + 100 * k, 500 + 30 * i, 130 + 100 * k + 8 * t.length, 515 + 30 * i] as BBox, confidence: 0.9, words: [word(t, [130 + 100 * k, 500 + 30 * i, 130 + 100 * k + 8 * t.length, 515 + 30 * i])] })));
    const list: OcrLine[] = ["Gras", "Italique", "Souligné"].map((t, i) => ({ text: t, bbox: [130, 620 + 30 * i, 130 + 8 * t.length, 635 + 30 * i] as BBox, confidence: 0.9, words: [word(t, [130, 620 + 30 * i, 130 + 8 * t.length, 635 + 30 * i])] }));
    const marks = [0, 1, 2, 4, 5, 6].map((i) => ({ bbox: [108, 500 + 30 * i, 124, 516 + 30 * i] as BBox }));
    const fitted = fitToggles(marks.map((m) => ({ type: "checkbox" as const, bbox: [106, m.bbox[1] - 2, 170, m.bbox[3] + 2] as BBox, confidence: 0.8 })), marks, [...rows, ...list]);
    expect(fitted.map((f) => f.bbox)).toEqual([...marks.slice(0, 3).map((m) => m.bbox), ...list.map((l, i) => [108, 618 + 30 * i, l.bbox[2], 638 + 30 * i])]);
    // Named by the row's first cell all the same (the line right of a bare indicator), the list by its captions.
    expect(fuseWithOcr(fitted, [...rows, ...list]).map((c) => c.label)).toEqual(["Girard", "Zoé", "Martin", "Gras", "Italique", "Souligné"]);
    // Two rows that go on are no table: those keep their captions.
    const two = fitToggles(marks.slice(0, 2).map((m) => ({ type: "checkbox" as const, bbox: [106, m.bbox[1] - 2, 170, m.bbox[3] + 2] as BBox, confidence: 0.8 })), marks, rows);
    expect(two.map((f) => f.bbox[2])).toEqual([178, 154]);
  });
  it("keeps every row selector of a table's column to its indicator: a row whose cells do not line up, a ticked one the shapes miss", () => {
    // Rows 1–3 and 5 « [ ] Name  City  Amount »; row 4's first cell runs on into its next (« FAC-2025-00123 » then
    // « Nantes » a word space on); row 0's box is ticked, filled with its accent colour: no drawn square for it.
    const cells = [["Johnson", "Paris", "12"], ["Girard", "Paris", "12"], ["Zoé", "Lyon", "7"], ["Martin", "Nantes", "130"], ["FAC-2025-00123", "Nantes", "9"], ["Dupont", "Lille", "4"]];
    const at = (i: number, k: number, t: string): BBox => (i === 4 && k === 1 ? [130 + 8 * 15, 500 + 30 * i, 130 + 8 * 21, 515 + 30 * i] : [130 + 100 * k, 500 + 30 * i, 130 + 100 * k + 8 * t.length, 515 + 30 * i]);
    const rows: OcrLine[] = cells.flatMap((texts, i) => texts.map((t, k) => ({ text: t, bbox: at(i, k, t), confidence: 0.9, words: [word(t, at(i, k, t))] })));
    const marks = [1, 2, 3, 4, 5].map((i) => ({ bbox: [108, 500 + 30 * i, 124, 516 + 30 * i] as BBox }));
    const boxes: BBox[] = [0, 1, 2, 3, 4, 5].map((i) => [106, 496 + 30 * i, 200, 520 + 30 * i]);
    const fitted = fitToggles(boxes.map((bbox) => ({ type: "checkbox" as const, bbox, confidence: 0.8 })), marks, rows);
    expect(fitted.map((f) => f.bbox)).toEqual([[108, 500, 124, 516], ...marks.map((m) => m.bbox)]);
  });
  it("takes a check box's caption wrapped onto a second line, not the next check box's caption below it", () => {
    // « [x] Subscribe to / newsletter » (the label wraps under its box), then « [ ] Annual billing », each box drawn.
    const width = 400;
    const grey = { data: new Uint8Array(width * 300).fill(255), width };
    for (const y0 of [100, 150]) for (let i = 0; i < 16; i++) for (const [x, y] of [[100 + i, y0], [100 + i, y0 + 15], [100, y0 + i], [115, y0 + i]] as const) grey.data[y * width + x] = 120;
    const words = [word("Subscribe", [124, 100, 194, 116]), word("to", [198, 100, 212, 116]), word("newsletter", [100, 124, 172, 137]), word("Annual", [124, 150, 170, 166]), word("billing", [174, 150, 220, 166])];
    const lines: OcrLine[] = words.map((w) => ({ text: w.text, bbox: w.bbox, confidence: 0.9, words: [w] }));
    const marks = [{ bbox: [100, 100, 116, 116] as BBox }, { bbox: [100, 150, 116, 166] as BBox }];
    const [subscribe, annual] = fitToggles(marks.map((m) => ({ type: "checkbox" as const, bbox: [98, m.bbox[1] - 2, 214, m.bbox[3] + 2] as BBox, confidence: 0.8 })), marks, lines, grey);
    expect(subscribe!.bbox).toEqual([100, 98, 212, 137]);
    expect(annual!.bbox).toEqual([100, 148, 220, 168]);
    // Words another toggle's box holds are its caption: the model saw a toggle there.
    const [held] = fitToggles([...marks.map((m) => ({ type: "checkbox" as const, bbox: [98, m.bbox[1] - 2, 214, m.bbox[3] + 2] as BBox, confidence: 0.8 })), { type: "radio_button", bbox: [96, 120, 176, 140], confidence: 0.6 }], marks, lines, grey);
    expect(held!.bbox).toEqual([100, 98, 212, 118]);
    // Words inside a field below (its placeholder under the caption's first word) are no wrap: the field the model saw, or
    // a wide box drawn around them.
    const [abovePlaceholder] = fitToggles([...marks.map((m) => ({ type: "checkbox" as const, bbox: [98, m.bbox[1] - 2, 214, m.bbox[3] + 2] as BBox, confidence: 0.8 })), { type: "text_input", bbox: [90, 120, 390, 142], confidence: 0.7 }], marks, lines, grey);
    expect(abovePlaceholder!.bbox).toEqual([100, 98, 212, 118]);
    const [aboveDrawn] = fitToggles(marks.map((m) => ({ type: "checkbox" as const, bbox: [98, m.bbox[1] - 2, 214, m.bbox[3] + 2] as BBox, confidence: 0.8 })), [...marks, { bbox: [90, 120, 390, 142] as BBox }], lines, grey);
    expect(aboveDrawn!.bbox).toEqual([100, 98, 212, 118]);
    // A list set tight: the next box a line's spacing below, its caption under the first one's words — not a wrap.
    const tight = { data: new Uint8Array(width * 300).fill(255), width };
    for (const y0 of [100, 122]) for (let i = 0; i < 16; i++) for (const [x, y] of [[100 + i, y0], [100 + i, y0 + 15], [100, y0 + i], [115, y0 + i]] as const) tight.data[y * width + x] = 120;
    const list = [word("Subscribe", [124, 100, 194, 116]), word("Annual", [124, 122, 170, 138])];
    const tightMarks = [{ bbox: [100, 100, 116, 116] as BBox }, { bbox: [100, 122, 116, 138] as BBox }];
    const [first] = fitToggles(tightMarks.map((m) => ({ type: "checkbox" as const, bbox: [98, m.bbox[1] - 2, 200, m.bbox[3] + 2] as BBox, confidence: 0.8 })), tightMarks, list.map((w) => ({ text: w.text, bbox: w.bbox, confidence: 0.9, words: [w] })), tight);
    expect(first!.bbox).toEqual([100, 98, 194, 118]);
  });
  it("leaves a box with neither a drawn indicator nor a caption starting in it as it is", () => {
    const [alone] = fitToggles([{ type: "checkbox", bbox: [600, 300, 616, 316], confidence: 0.7 }], shapes, lines);
    expect(alone!.bbox).toEqual([600, 300, 616, 316]);
  });
});

describe("completeTabStrips (a strip's tabs the model left out)", () => {
  const line = (text: string, bbox: BBox): OcrLine => ({ text, bbox, confidence: 0.9, words: [{ text, bbox, confidence: 0.9 }] });
  const tab = (label: string, bbox: BBox, confidence = 0.7): ElementCandidate => ({ type: "tab", bbox, label, text: label, confidence, method: "learned", filled: false });
  it("adds the row's free short lines next to its tabs as tabs, as tall and as padded as they are", () => {
    // « [ Général ]  Avancé  Contacts        …far away: Aide »; the model kept the selected pill only.
    const lines = [line("Général", [120, 250, 200, 270]), line("Avancé", [260, 250, 330, 270]), line("Contacts", [390, 250, 480, 270]), line("Aide", [1500, 250, 1540, 270])];
    const added = completeTabStrips([tab("Général", [80, 235, 240, 285], 0.8)], lines);
    expect(added.map((t) => [t.label, t.bbox, t.type, t.confidence])).toEqual([["Avancé", [220, 235, 370, 285], "tab", 0.8], ["Contacts", [350, 235, 520, 285], "tab", 0.8]]);
    // Nothing added where an element already holds the line, nor for a row with no tab.
    expect(completeTabStrips([tab("Général", [80, 235, 240, 285]), { ...tab("Avancé", [225, 240, 365, 280]), type: "link" }], lines).map((t) => t.label)).toEqual(["Contacts"]);
    expect(completeTabStrips([], lines)).toEqual([]);
  });
  it("does not spread along a table's header row: its texts head columns of text below", () => {
    const header = [line("Nom", [120, 250, 160, 270]), line("Ville", [260, 250, 300, 270]), line("Montant", [390, 250, 460, 270])];
    const body = [0, 1, 2].flatMap((r) => [line("Dupont", [120, 290 + 30 * r, 180, 310 + 30 * r]), line("Paris", [260, 290 + 30 * r, 300, 310 + 30 * r]), line("12", [390, 290 + 30 * r, 410, 310 + 30 * r])]);
    expect(completeTabStrips([tab("Nom", [100, 240, 180, 280])], [...header, ...body])).toEqual([]);
  });
});

describe("completeRowSelectors (a table's row selectors the model and its gate left out)", () => {
  const line = (text: string, bbox: BBox): OcrLine => ({ text, bbox, confidence: 0.9, words: [{ text, bbox, confidence: 0.9 }] });
  const width = 600;
  // A white page; three 20 px squares outlined in grey down one column (x 40–60), rows 50 px apart.
  const page = () => {
    const data = new Uint8Array(width * 400).fill(255);
    for (const y0 of [100, 150, 200]) for (let i = 0; i < 20; i++) for (const [x, y] of [[40 + i, y0], [40 + i, y0 + 19], [40, y0 + i], [59, y0 + i]] as const) data[y * width + x] = 120;
    return { data, width };
  };
  const squares = [100, 150, 200].map((y) => ({ kind: "rectangle", bbox: [40, y, 60, y + 20] as BBox }));
  // Each row goes on with a name and a city, at one x down the rows: a table's next columns.
  const rows = [100, 150, 200].flatMap((y) => [line("Dupont", [90, y + 3, 150, y + 17]), line("Paris", [250, y + 3, 290, y + 17])]);
  it("makes the blank squares that open a table's rows check boxes, named by their rows' first cells, where no element stands", () => {
    const added = completeRowSelectors([], squares, rows, page(), 1);
    expect(added.map((c) => [c.type, c.bbox, c.label, c.method])).toEqual(squares.map((s) => ["checkbox", s.bbox, "Dupont", "heuristic_column"]));
    // One the model found already stays its own.
    const found: ElementCandidate = { type: "checkbox", bbox: [39, 149, 61, 171], label: "", text: "", confidence: 0.9, method: "learned", filled: false };
    expect(completeRowSelectors([found], squares, rows, page(), 1).map((c) => c.bbox[1])).toEqual([100, 200]);
  });
  it("leaves squares alone that do not open their rows, that stand two, or whose rows hold no next column", () => {
    // An icon drawn before each square: an outline further along a row (a copy icon after an edit icon).
    const inked = page();
    for (const y0 of [100, 150, 200]) for (let y = y0 + 4; y < y0 + 16; y++) for (let x = 12; x < 28; x++) inked.data[y * width + x] = 60;
    expect(completeRowSelectors([], squares, rows, inked, 1)).toEqual([]);
    expect(completeRowSelectors([], squares.slice(0, 2), rows, page(), 1)).toEqual([]);
    expect(completeRowSelectors([], squares, [], page(), 1)).toEqual([]);
    // Discs (radio buttons) are no row selectors.
    expect(completeRowSelectors([], squares.map((s) => ({ ...s, kind: "disc" })), rows, page(), 1)).toEqual([]);
  });
});

describe("completeCaptionedToggles (toggles drawn before their captions, which no element holds)", () => {
  const line = (text: string, bbox: BBox): OcrLine => ({ text, bbox, confidence: 0.9, words: [{ text, bbox, confidence: 0.9 }] });
  const width = 600;
  // A white page: a large outlined square (40 px, a tick in it) and a large ring (40 px, its border 8 px thick), each
  // before a caption of 16 px letters; a square icon with three marks in it before a third caption.
  const page = () => {
    const data = new Uint8Array(width * 400).fill(255);
    const set = (x: number, y: number, v: number) => (data[y * width + x] = v);
    for (let i = 0; i < 40; i++) for (const [x, y] of [[40 + i, 100], [40 + i, 139], [40, 100 + i], [79, 100 + i]] as const) set(x, y, 100);
    for (let i = 0; i < 14; i++) set(50 + i, 120 + (i < 5 ? i : 9 - i), 0);
    for (let y = 200; y < 240; y++) for (let x = 40; x < 80; x++) {
      const r = Math.hypot(x - 59.5, y - 219.5);
      if (r <= 20 && r >= 12) set(x, y, 100);
    }
    for (let i = 0; i < 40; i++) for (const [x, y] of [[40 + i, 300], [40 + i, 339], [40, 300 + i], [79, 300 + i]] as const) set(x, y, 100);
    for (const [x0, y0] of [[48, 308], [62, 308], [48, 324], [62, 324]] as const) for (let y = y0; y < y0 + 8; y++) for (let x = x0; x < x0 + 8; x++) set(x, y, 0);
    return { data, width };
  };
  const shapes = [
    { kind: "rectangle", bbox: [40, 100, 80, 140] as BBox },
    { kind: "disc", bbox: [40, 200, 80, 240] as BBox },
    { kind: "rectangle", bbox: [40, 300, 80, 340] as BBox },
  ];
  const lines = [line("Include VAT", [92, 112, 200, 128]), line("Express", [92, 212, 160, 228]), line("Documents", [92, 312, 190, 328])];
  it("makes a blank square a check box and a disc a radio button, spanning the indicator and its caption", () => {
    const added = completeCaptionedToggles([], shapes, lines, page(), 1);
    expect(added.map((c) => [c.type, c.bbox, c.label, c.method])).toEqual([
      ["checkbox", [40, 100, 200, 140], "Include VAT", "heuristic_caption_toggle"],
      ["radio_button", [40, 200, 160, 240], "Express", "heuristic_caption_toggle"],
    ]);
  });
  it("leaves an indicator or a caption an element holds, and a square far from any words, alone", () => {
    const found: ElementCandidate = { type: "link", bbox: [90, 110, 210, 130], label: "Include VAT", text: "", confidence: 0.9, method: "learned", filled: false };
    expect(completeCaptionedToggles([found], shapes, lines, page(), 1).map((c) => c.label)).toEqual(["Express"]);
    const far = [line("Include VAT", [300, 112, 400, 128])];
    expect(completeCaptionedToggles([], shapes.slice(0, 1), far, page(), 1)).toEqual([]);
    // A table's blank header cell before the next cell's words: its top and bottom edges run on into that cell.
    const table = page();
    for (let x = 40; x < 400; x++) for (const y of [360, 399]) table.data[y * width + x] = 100;
    for (let y = 360; y < 400; y++) for (const x of [40, 79, 399]) table.data[y * width + x] = 100;
    expect(completeCaptionedToggles([], [{ kind: "rectangle", bbox: [40, 360, 80, 400] }], [line("Due date", [92, 372, 170, 388])], table, 1)).toEqual([]);
  });
});

describe("completeSwitches (switches drawn that no element holds)", () => {
  const line = (text: string, bbox: BBox): OcrLine => ({ text, bbox, confidence: 0.9, words: [{ text, bbox, confidence: 0.9 }] });
  const lines = [line("Dark mode", [80, 24, 170, 40]), line("Notifications :", [100, 104, 220, 120]), line("Beta", [330, 104, 370, 120]), line("Save", [410, 24, 450, 40])];
  const switches: BBox[] = [[20, 20, 70, 44], [230, 100, 280, 124], [400, 20, 460, 44]];
  it("a check box on the switch with the caption that follows it, or the switch alone named by the caption before it", () => {
    expect(completeSwitches([], switches, lines).map((c) => [c.type, c.bbox, c.label, c.method])).toEqual([
      ["checkbox", [20, 20, 170, 44], "Dark mode", "heuristic_switch"],
      ["checkbox", [230, 100, 280, 124], "Notifications", "heuristic_switch"],
    ]);
  });
  it("leaves a switch an element holds, and names a bare one by a caption no element holds", () => {
    const held: ElementCandidate = { type: "checkbox", bbox: [18, 18, 172, 46], label: "Dark mode", text: "", confidence: 0.9, method: "learned", filled: false };
    const caption: ElementCandidate = { type: "link", bbox: [98, 102, 222, 122], label: "Notifications :", text: "", confidence: 0.9, method: "learned", filled: false };
    expect(completeSwitches([held, caption], switches, lines).map((c) => [c.bbox, c.label])).toEqual([[[230, 100, 280, 124], "Beta"]]);
  });
});

describe("retypeLeftAlignedButtons (a field showing its value, seen as a button)", () => {
  const width = 400;
  // A 300×40 outlined box at (20, 20) on white; « text » drawn as a dark bar from x0 to x1 in its middle rows.
  const box = (x0: number, x1: number) => {
    const data = new Uint8Array(width * 100).fill(255);
    for (let x = 20; x < 320; x++) data[20 * width + x] = data[59 * width + x] = 150;
    for (let y = 20; y < 60; y++) data[y * width + 20] = data[y * width + 319] = 150;
    for (let y = 33; y < 47; y++) for (let x = x0; x < x1; x++) data[y * width + x] = 40;
    return { data, width };
  };
  const shapes = [{ kind: "rectangle", bbox: [20, 20, 320, 60] as BBox }];
  const button = { type: "button", bbox: [20, 20, 320, 60] as BBox, confidence: 0.9 };
  it("retypes a drawn wide button whose text sits at its left or runs cut into its right end; a centred face stays a button", () => {
    expect(inkGaps(box(36, 150), button.bbox)).toEqual({ left: 6, right: 160 });
    expect(retypeLeftAlignedButtons([button], shapes, box(36, 150), 1)[0]!.type).toBe("text_input");
    expect(retypeLeftAlignedButtons([button], shapes, box(46, 308), 1)[0]!.type).toBe("text_input"); // cut at the right
    expect(retypeLeftAlignedButtons([button], shapes, box(110, 230), 1)[0]!.type).toBe("button"); // centred
    expect(retypeLeftAlignedButtons([button], [], box(36, 150), 1)[0]!.type).toBe("button"); // no drawn face: its edges unknown
    expect(retypeLeftAlignedButtons([{ ...button, type: "link" }], shapes, box(36, 150), 1)[0]!.type).toBe("link");
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

describe("downArrowAtRight (a drop-down's arrow, or up-down arrows, at a field's right end)", () => {
  const width = 300;
  // A 200×30 field at (20, 20), outlined, with a word at its left and a mark drawn by `mark` near its right end.
  const field = (mark: (set: (x: number, y: number) => void) => void) => {
    const data = new Uint8Array(width * 80).fill(250);
    const set = (x: number, y: number) => (data[y * width + x] = 60);
    for (let x = 20; x < 220; x++) [20, 49].forEach((y) => set(x, y));
    for (let y = 20; y < 50; y++) [20, 219].forEach((x) => set(x, y));
    for (let y = 30; y < 40; y++) for (let x = 30; x < 90; x += 7) [x, x + 1].forEach((v) => set(v, y));
    mark(set);
    return { data, width };
  };
  const box: BBox = [20, 20, 220, 50];
  const triangle = (set: (x: number, y: number) => void) => { for (let k = 0; k < 5; k++) for (let x = 196 + k; x < 206 - k; x++) set(x, 33 + k); };
  const chevron = (set: (x: number, y: number) => void) => { for (let k = 0; k < 5; k++) [196 + k, 205 - k].forEach((x) => set(x, 33 + k)); };
  const minusPlus = (set: (x: number, y: number) => void) => {
    for (let x = 180; x < 188; x++) set(x, 35);
    for (let x = 198; x < 206; x++) set(x, 35);
    for (let y = 31; y < 39; y++) set(202, y);
  };
  const spinArrows = (set: (x: number, y: number) => void) => {
    for (let k = 0; k < 4; k++) for (let x = 202 - k; x <= 202 + k; x++) [26 + k, 43 - k].forEach((y) => set(x, y)); // ▲ over ▼
  };
  const upDown = (set: (x: number, y: number) => void) => {
    for (let k = 0; k < 4; k++) for (let x = 201 - k; x <= 201 + k; x++) [29 + k, 38 - k].forEach((y) => set(x, y)); // ⇕, 2 px apart
  };
  const spinButtons = (set: (x: number, y: number) => void) => {
    upDown(set);
    for (const [y0, y1] of [[24, 34], [35, 45]] as const) {
      for (let x = 194; x <= 208; x++) [y0, y1].forEach((y) => set(x, y));
      for (let y = y0; y <= y1; y++) [194, 208].forEach((x) => set(x, y));
    }
  };
  it("sees a triangle or a chevron pointing down; not a spin box's − + or ▲▼, nor a plain field", () => {
    expect(downArrowAtRight(field(triangle), box, 1)).toBe(true);
    expect(downArrowAtRight(field(chevron), box, 1)).toBe(true);
    expect(downArrowAtRight(field(minusPlus), box, 1)).toBe(false);
    expect(downArrowAtRight(field(spinArrows), box, 1)).toBe(false);
    expect(downArrowAtRight(field(upDown), box, 1)).toBe(true); // a select's up-down arrows
    expect(downArrowAtRight(field(spinButtons), box, 1)).toBe(false); // the same on two framed buttons
    expect(downArrowAtRight(field(() => {}), box, 1)).toBe(false);
    const flipped = (set: (x: number, y: number) => void) => { for (let k = 0; k < 5; k++) for (let x = 196 + k; x < 206 - k; x++) set(x, 37 - k); }; // ▲
    expect(downArrowAtRight(field(flipped), box, 1)).toBe(false);
    expect(retypeArrowedFields([{ type: "text_input", bbox: box }, { type: "button", bbox: box }], field(triangle), 1).map((c) => c.type)).toEqual(["dropdown", "button"]);
  });
});

describe("joinSplitDropdowns (a combo box seen as a field and its arrow)", () => {
  it("joins a field and the drop-down over its arrow end into one drop-down; a drop-down beside a field stays apart", () => {
    const out = joinSplitDropdowns([
      { type: "text_input", bbox: [119, 420, 324, 439], confidence: 0.94 },
      { type: "dropdown", bbox: [232, 418, 336, 441], confidence: 0.64 }, // starts inside the field, ends past it
      { type: "text_input", bbox: [100, 500, 300, 522], confidence: 0.9 },
      { type: "dropdown", bbox: [302, 500, 380, 522], confidence: 0.9 }, // an input group: touches, does not overlap
      { type: "text_input", bbox: [100, 600, 300, 622], confidence: 0.9 },
      { type: "dropdown", bbox: [150, 640, 300, 662], confidence: 0.9 }, // another row
    ]);
    expect(out.map((p) => [p.type, p.bbox, p.confidence])).toEqual([
      ["dropdown", [119, 418, 336, 441], 0.94],
      ["text_input", [100, 500, 300, 522], 0.9],
      ["dropdown", [302, 500, 380, 522], 0.9],
      ["text_input", [100, 600, 300, 622], 0.9],
      ["dropdown", [150, 640, 300, 662], 0.9],
    ]);
  });
  it("joins named elements with the merge given: the field's caption names the drop-down (a rules field, the model's arrow button)", () => {
    const field = { type: "text_input", bbox: [351, 771, 599, 807] as BBox, confidence: 0.7, label: "City" };
    const arrow = { type: "dropdown", bbox: [555, 770, 630, 808] as BBox, confidence: 0.85, label: "I agree to the terms" };
    const out = joinSplitDropdowns([arrow, field], (d, f, bbox) => ({ ...d, bbox, label: f.label }));
    expect(out).toEqual([{ type: "dropdown", bbox: [351, 770, 630, 808], confidence: 0.85, label: "City" }]);
  });
});

describe("fillIns (the coarse pass's boxes where nothing else stands)", () => {
  const fill = (type: ElementProposal["type"], bbox: BBox, confidence: number): ElementProposal => ({ type, bbox, confidence });
  const elements = [
    { type: "button", bbox: [20, 20, 80, 40] as BBox },
    { type: "link", bbox: [120, 160, 160, 175] as BBox },
  ];
  it("adds those more likely right than not, over no element and around none but links, best first, one of two overlapping", () => {
    const out = fillIns([
      fill("text_input", [100, 60, 500, 90], 0.8), // empty space: added
      fill("text_input", [10, 15, 200, 45], 0.9), // around the button: no
      fill("dropdown", [600, 60, 900, 90], 0.45), // less likely right than not: no
      fill("text_input", [100, 150, 500, 185], 0.6), // around a link only (a value read as one): added
      fill("link", [110, 62, 400, 92], 0.7), // over the better field added before it: no
      fill("button", [50, 18, 150, 42], 0.95), // a quarter of it under the button (which is not inside it): no
    ], elements);
    expect(out.map((p) => [p.type, p.bbox])).toEqual([
      ["text_input", [100, 60, 500, 90]],
      ["text_input", [100, 150, 500, 185]],
    ]);
  });
  it("a box a little under other elements (less than a fifth) is added", () => {
    expect(fillIns([fill("text_input", [70, 20, 470, 40], 0.7)], elements)).toHaveLength(1); // 10 of 400 px under the button
    expect(fillIns([], elements)).toEqual([]);
  });
});

describe("UIElementDetector with fill proposals (the hybrid's coarse pass)", () => {
  const W = 900;
  const H = 240;
  const frame = makeFrame({ data: new Uint8Array(W * H * 3).fill(245), width: W, height: H, channels: 3 });
  const line = (text: string, bbox: BBox): OcrLine => ({ text, bbox, confidence: 0.95, words: [{ text, bbox, confidence: 0.95 }] });
  const ocr: OcrProvider = { name: "fixed", recognize: async () => ({ provider: "fixed", lines: [line("Name", [30, 68, 80, 84]), line("Jean", [110, 68, 150, 84]), line("OK", [40, 22, 60, 38])], timings: {} }) };
  const proposer: ElementProposer = { name: "stub", propose: async () => [{ type: "button", bbox: [20, 20, 80, 40], confidence: 0.9 }] };
  const fillBoxes: ElementProposal[] = [
    { type: "text_input", bbox: [100, 60, 500, 90], confidence: 0.8 },
    { type: "text_input", bbox: [10, 15, 200, 45], confidence: 0.9 },
    { type: "dropdown", bbox: [100, 150, 500, 185], confidence: 0.4 },
  ];
  let asked = 0;
  const fills: FillProposer = { proposeFills: async () => (asked++, fillBoxes) };
  for (const keepRules of [true, false])
    it(`adds a fill box where no element stands, named from its caption${keepRules ? " (hybrid)" : " (model alone)"}`, async () => {
      asked = 0;
      const { elements, metadata } = await new UIElementDetector({ ocr, proposer, keepRules, fills }).detect(frame);
      expect(asked).toBe(1);
      expect(elements.map((e) => [e.type, e.bbox, e.label])).toEqual([
        ["button", [20, 20, 80, 40], "OK"],
        ["text_input", [100, 60, 500, 90], "Name"],
      ]);
      expect(elements[1]!.text.raw).toBe("Jean");
      expect(elements[1]!.detection_method).toBe("learned_detector");
      expect(metadata.timings.fills_ms).toBeGreaterThanOrEqual(0);
    });
  it("a fill pass that fails loses its boxes only: the screen's other elements stay, the failure is reported", async () => {
    const broken: FillProposer = { proposeFills: async () => { throw new ProviderUnavailableError("model gone"); } };
    const r = await new UIElementDetector({ ocr, proposer, keepRules: true, fills: broken }).detect(frame);
    expect(r.metadata.failed).toBeUndefined();
    expect(r.elements.map((e) => e.type)).toEqual(["button"]);
    expect(r.metadata.region_errors).toEqual([expect.objectContaining({ stage: "fills", code: "provider_unavailable", message: "model gone" })]);
  });
});

describe("UIElementDetector: the gate's recalibration", () => {
  it("gives each element the hybrid keeps the confidence the gate recalibrates for its method; others keep theirs", async () => {
    const frame = makeFrame({ data: new Uint8Array(400 * 200 * 3).fill(245), width: 400, height: 200, channels: 3 });
    const ocr: OcrProvider = { name: "fixed", recognize: async () => ({ provider: "fixed", lines: [], timings: {} }) };
    const proposer: ElementProposer = { name: "stub", propose: async () => [{ type: "button", bbox: [20, 20, 80, 40], confidence: 0.9 }, { type: "link", bbox: [20, 100, 80, 120], confidence: 0.6 }] };
    const gate: RulesGate = { keep: () => true, calibrate: (c) => (c.type === "button" ? c.confidence / 2 : undefined) };
    const { elements } = await new UIElementDetector({ ocr, proposer, keepRules: true, rulesGate: gate }).detect(frame);
    expect(elements.map((e) => [e.type, e.confidence])).toEqual([["button", 0.45], ["link", 0.6]]);
  });
});

describe("widenFields (a field or drop-down boxed at one end)", () => {
  it("takes the drawn rectangle that holds the box, spans its height and shares one of its ends", () => {
    const shapes = [{ bbox: [100, 50, 600, 80] as BBox }, { bbox: [0, 0, 800, 400] as BBox }];
    const [arrowEnd, start, button, elsewhere, lower] = widenFields(
      [
        { type: "dropdown", bbox: [520, 51, 601, 79], confidence: 0.9 }, // the arrow end
        { type: "text_input", bbox: [99, 50, 260, 81], confidence: 0.8 }, // the start of a long field
        { type: "button", bbox: [520, 51, 601, 79], confidence: 0.8 }, // not a field
        { type: "text_input", bbox: [300, 52, 400, 78], confidence: 0.8 }, // shares no end
        { type: "dropdown", bbox: [520, 60, 601, 100], confidence: 0.8 }, // not the rectangle's height
      ],
      shapes,
    );
    expect(arrowEnd!.bbox).toEqual([100, 50, 600, 80]);
    expect(start!.bbox).toEqual([100, 50, 600, 80]);
    expect(button!.bbox).toEqual([520, 51, 601, 79]);
    expect(elsewhere!.bbox).toEqual([300, 52, 400, 78]);
    expect(lower!.bbox).toEqual([520, 60, 601, 100]);
  });
});

describe("LearnedDetector: bad model files", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "rpav-detector-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("a missing model is provider_unavailable naming the file and the command that restores it", async () => {
    const e = await LearnedDetector.create({ modelDir: join(dir, "nowhere") }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ProviderUnavailableError);
    expect((e as Error).message).toContain(join(dir, "nowhere", DETECTOR_MODEL_FILE));
    expect((e as Error).message).toContain("npm run train -- detector");
  });

  it("a corrupt model or description is provider_unavailable naming the file", async () => {
    const bad = join(dir, "corrupt");
    rmSync(bad, { recursive: true, force: true });
    mkdirSync(bad);
    writeFileSync(join(bad, DETECTOR_MODEL_FILE), "not an onnx graph");
    writeFileSync(join(bad, DETECTOR_META_FILE), JSON.stringify(META));
    const e = await LearnedDetector.create({ modelDir: bad }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ProviderUnavailableError);
    expect((e as Error).message).toContain(join(bad, DETECTOR_MODEL_FILE));
    writeFileSync(join(bad, DETECTOR_META_FILE), "{ nope");
    const e2 = await LearnedDetector.create({ modelDir: bad }).catch((x: unknown) => x);
    expect(e2).toBeInstanceOf(ProviderUnavailableError);
    expect((e2 as Error).message).toContain(join(bad, DETECTOR_META_FILE));
    writeFileSync(join(bad, DETECTOR_META_FILE), JSON.stringify({ ...META, types: ["button", "spaceship"] }));
    await expect(LearnedDetector.create({ modelDir: bad })).rejects.toThrow(/unknown element types/);
    writeFileSync(join(bad, DETECTOR_META_FILE), JSON.stringify({ ...META, calibration: { method: "platt", a: -0.5, b: 0 } }));
    await expect(LearnedDetector.create({ modelDir: bad })).rejects.toThrow(/calibration/);
    // A coarse pass this version cannot run (another scale) is refused by name, not run wrongly.
    writeFileSync(join(bad, DETECTOR_META_FILE), JSON.stringify({ ...META, coarse: { scale: 0.25, min_width: 192, calibration: { method: "platt", a: 1, b: 0 } } }));
    const e3 = await LearnedDetector.create({ modelDir: bad }).catch((x: unknown) => x);
    expect(e3).toBeInstanceOf(ProviderUnavailableError);
    expect((e3 as Error).message).toMatch(/coarse pass this version cannot run \(scale/);
  });
});

describe("LearnedDetector: the committed model on a fixture screen", () => {
  let det: LearnedDetector;
  /** Runs `run` on the fixture screen with a PP-OCR engine of its own, closed after it. */
  const onFixture = async (run: (frame: Frame, ppocr: PpOcr) => Promise<void>): Promise<void> => {
    const frame = await readImageFile(join(FIXTURES, "screen.png"));
    const ppocr = await PpOcr.create();
    try {
      await run(frame, ppocr);
    } finally {
      await ppocr.close();
    }
  };
  beforeAll(async () => {
    det = await LearnedDetector.create({ threads: 1 });
  });
  afterAll(() => det?.close());

  it("runs the model on a worker thread by default, with the outputs of the calling thread's session; where the worker fails, on the calling thread", async () => {
    const frame = await readImageFile(join(FIXTURES, "screen.png"));
    expect(det.onWorker).toBe(true);
    const here = await LearnedDetector.create({ worker: false });
    try {
      expect(here.onWorker).toBe(false);
      const [a, b] = [await det.run(frame), await here.run(frame)];
      expect([a.w, a.h]).toEqual([b.w, b.h]);
      expect(a.heat).toEqual(b.heat);
      expect(a.box).toEqual(b.box);
      // A worker whose run fails (it stopped): the same outputs, from this thread, and no worker after.
      const failing = await LearnedDetector.create();
      await (failing as unknown as { workers: { close(): Promise<void> } }).workers.close();
      const stub = { size: 1, run: () => Promise.reject(new Error("the element detection worker stopped: exit code 1")), close: async () => undefined };
      (failing as unknown as { workers: unknown }).workers = stub;
      const c = await failing.run(frame);
      expect(c.heat).toEqual(b.heat);
      expect(failing.onWorker).toBe(false);
      await failing.close();
    } finally {
      await here.close();
    }
  });

  it("an image too small or too large is invalid_input", async () => {
    const tiny = makeFrame({ data: new Uint8Array(10 * 10 * 3), width: 10, height: 10, channels: 3 });
    await expect(det.propose(tiny)).rejects.toThrow(InvalidInputError);
    const huge = makeFrame({ data: new Uint8Array(5000 * 40 * 3), width: 5000, height: 40, channels: 3 });
    await expect(det.propose(huge)).rejects.toThrow(/5000×40/);
  });

  it("gives, on the fixture, the detections of the Python reference (training/detector/reference.py), in bounds, best first", async () => {
    const frame = await readImageFile(join(FIXTURES, "screen.png"));
    const ref = JSON.parse(readFileSync(join(FIXTURES, "reference.json"), "utf8")) as { model_onnx_sha256: string; floor: number; detections: Array<{ type: string; bbox: BBox; score: number }> };
    const meta = JSON.parse(readFileSync(join(defaultDetectorModelDir(), DETECTOR_META_FILE), "utf8")) as { onnx_sha256: string };
    expect(ref.model_onnx_sha256).toBe(meta.onnx_sha256); // the reference was made with this model
    // Down to the reference's low floor, so the check holds however far the model is trained.
    const got = decodeDetections(await det.run(frame), det.meta, frame.width, frame.height, ref.floor);
    expect(ref.detections.length).toBeGreaterThan(5);
    // float32 in onnxruntime vs torch: near-equal peaks may swap, so compare as sets, allowing 3 % of such swaps.
    expect(Math.abs(got.length - ref.detections.length)).toBeLessThanOrEqual(Math.ceil(0.03 * ref.detections.length));
    const same = ref.detections.filter((r) => got.some((g) => g.type === r.type && bboxIoU(g.bbox, r.bbox) > 0.98 && Math.abs(g.confidence - r.score) < 1e-3));
    expect(same.length).toBeGreaterThanOrEqual(0.97 * ref.detections.length);
    for (const p of got) {
      expect(p.bbox[0]).toBeGreaterThanOrEqual(0);
      expect(p.bbox[2]).toBeLessThanOrEqual(frame.width);
      expect(p.confidence).toBeGreaterThanOrEqual(ref.floor);
      expect(p.confidence).toBeLessThanOrEqual(1);
    }
    expect(got.map((p) => p.confidence)).toEqual([...got.map((p) => p.confidence)].sort((a, b) => b - a));
    // propose() keeps those at or over the model's calibrated threshold, with the coarse pass's merged in.
    const kept = await det.propose(frame);
    const fine = got.filter((d) => d.confidence >= det.meta.threshold);
    const pass = det.meta.coarse;
    expect(pass).toBeDefined(); // the committed model has one
    const half = await det.runHalf(frame);
    expect(half).not.toBeNull();
    expect([half!.width, half!.height]).toEqual([frame.width >> 1, frame.height >> 1]);
    const coarse = decodeDetections(half!.out, { ...det.meta, calibration: pass!.calibration }, half!.width, half!.height);
    const merged = mergeCoarse(fine, coarse, pass!, frame.width, frame.height, det.meta.nms_iou);
    expect(merged.length).toBeGreaterThan(fine.length - coarse.length);
    expect(kept).toEqual(merged.map(({ logit: _l, ...p }) => p));
    // Fill boxes: the coarse pass's wide detections alone, whether or not merged (here any 64 px wide: the fixture's
    // elements are narrower than the model's own bound); without merging, propose() is the full-resolution pass alone.
    const narrow = mkdtempSync(join(tmpdir(), "rpav-detector-fill-"));
    writeFileSync(join(narrow, DETECTOR_MODEL_FILE), readFileSync(join(defaultDetectorModelDir(), DETECTOR_MODEL_FILE)));
    writeFileSync(join(narrow, DETECTOR_META_FILE), JSON.stringify({ ...JSON.parse(readFileSync(join(defaultDetectorModelDir(), DETECTOR_META_FILE), "utf8")), coarse: { ...pass, min_width: 64 } }));
    const apart = await LearnedDetector.create({ modelDir: narrow, threads: 1, coarse: false });
    try {
      const wide = widenCoarse(coarse, { ...pass!, min_width: 64 }, frame.width, frame.height);
      expect(wide.length).toBeGreaterThan(0);
      expect(await apart.proposeFills(frame)).toEqual(wide.map(({ logit: _l, ...p }) => p));
      expect(await apart.propose(frame)).toEqual(fine.map(({ logit: _l, ...p }) => p));
    } finally {
      await apart.close();
      rmSync(narrow, { recursive: true, force: true });
    }
    expect(await det.proposeFills(makeFrame({ data: new Uint8Array(40 * 40 * 3), width: 40, height: 40, channels: 3 }))).toEqual([]);
    // A frame whose half is under the model's smallest side gets the full-resolution pass alone.
    expect(await det.runHalf(makeFrame({ data: new Uint8Array(40 * 40 * 3), width: 40, height: 40, channels: 3 }))).toBeNull();
  });

  it("hybrid (`--detector hybrid`): the model's elements and the rules' that overlap none of them, OCR read once", () =>
    onFixture(async (frame, ppocr) => {
      let reads = 0;
      const ocr = { name: "counted", recognize: (f: typeof frame) => (reads++, ppocr.recognize(f)) };
      const learned = await new UIElementDetector({ ocr, proposer: det }).detect(frame);
      const rules = await new UIElementDetector({ ocr }).detect(frame);
      reads = 0;
      const hybrid = await new UIElementDetector({ ocr, proposer: det, keepRules: true }).detect(frame);
      expect(reads).toBe(1);
      const key = (e: { type: string; bbox: BBox }) => `${e.type}@${e.bbox.map((v) => Math.round(v)).join(",")}`;
      const [l, r, h] = [learned, rules, hybrid].map((d) => new Set(d.elements.map(key)));
      // Every element of the model's, on the edges of the rules' element it overlaps (IoU ≥ 0.5 before rounding)
      // or where the model put it — a toggle fitted to the indicator drawn (fitToggles) where the model alone had only
      // its box's left end —; the others are the rules', more than the model alone.
      const box = (k: string): BBox => { const [a = 0, b = 0, c = 0, d = 0] = k.split("@")[1]!.split(",").map(Number); return [a, b, c, d]; };
      const rulesBoxes = [...r!].map(box);
      const modelIn = [...l!].map((k) => [...h!].find((x) => x === k || (x.split("@")[0] === k.split("@")[0] && bboxIoU(box(x), box(k)) >= 0.45 && (rulesBoxes.some((b) => bboxIoU(b, box(x)) > 0.99) || /^(checkbox|radio_button)@/.test(k)))));
      expect([...l!].filter((_, i) => modelIn[i] === undefined)).toEqual([]);
      const added = [...h!].filter((k) => !modelIn.includes(k));
      expect(added.length).toBeGreaterThan(0);
      expect(added.every((k) => r!.has(k))).toBe(true);
      // None of the rules' added elements stands on one of the model's.
      for (const k of added) expect(Math.max(...modelIn.map((m) => bboxIoU(box(m!), box(k))))).toBeLessThan(0.5);
    }), 60_000);

  it("gated hybrid: the gate sees each of the rules' extras with the model's elements, and only those it keeps are added", () =>
    onFixture(async (frame, ppocr) => {
      const ocr = new CachedOcr(ppocr);
      const all = await new UIElementDetector({ ocr, proposer: det, keepRules: true }).detect(frame);
      const asked: ElementCandidate[] = [];
      let learnedSeen = 0;
      const gate: RulesGate = { keep: (c, ctx) => (asked.push(c), (learnedSeen = ctx.learned.length), c.type === "text_input") };
      const gated = await new UIElementDetector({ ocr, proposer: det, keepRules: true, rulesGate: gate }).detect(frame);
      const none = await new UIElementDetector({ ocr, proposer: det, keepRules: true, rulesGate: { keep: () => false } }).detect(frame);
      const extras = all.elements.filter((e) => e.detection_method !== "learned_detector");
      expect(asked.length).toBe(extras.length);
      expect(asked.length).toBeGreaterThan(0);
      expect(learnedSeen).toBe(all.elements.length - extras.length);
      expect(none.elements.every((e) => e.detection_method === "learned_detector")).toBe(true);
      expect(none.elements.length).toBe(all.elements.length - extras.length);
      const gatedExtras = gated.elements.filter((e) => e.detection_method !== "learned_detector");
      expect(gatedExtras.map((e) => e.type)).toEqual(extras.filter((e) => e.type === "text_input").map((e) => e.type));
      expect(gated.metadata.timings).toMatchObject({ rules_extras: extras.length, rules_extras_kept: gatedExtras.length });
    }), 60_000);

  it("gated hybrid: the model's elements the gate does not keep are gone, the others as they were", () =>
    onFixture(async (frame, ppocr) => {
      const ocr = new CachedOcr(ppocr);
      const keepAll: RulesGate = { keep: () => true };
      const all = await new UIElementDetector({ ocr, proposer: det, keepRules: true, rulesGate: keepAll }).detect(frame);
      const model = all.elements.filter((e) => e.detection_method === "learned_detector");
      expect(model.length).toBeGreaterThan(1);
      // Drop the model's least confident element's type under its confidence (a type threshold).
      const weakest = model.reduce((a, b) => (b.confidence < a.confidence ? b : a));
      const seen: number[] = [];
      let rulesSeen = 0;
      const gate: RulesGate = { keep: () => true, keepLearned: (c, ctx) => (seen.push(c.confidence), (rulesSeen = ctx.rules.length), c.type !== weakest.type || c.confidence > weakest.confidence) };
      const gated = await new UIElementDetector({ ocr, proposer: det, keepRules: true, rulesGate: gate }).detect(frame);
      expect(seen.length).toBe(model.length);
      expect(rulesSeen).toBeGreaterThan(0);
      const left = gated.elements.filter((e) => e.detection_method === "learned_detector");
      expect(left.length).toBeLessThan(model.length);
      expect(left.some((e) => e.type === weakest.type && e.confidence <= weakest.confidence)).toBe(false);
      expect(left.every((e) => model.some((m) => m.type === e.type && m.confidence === e.confidence))).toBe(true);
      expect(gated.metadata.timings).toMatchObject({ model_elements: seen.length, model_elements_kept: left.length });
    }), 60_000);

  it("gated hybrid: an element the gate gives a probability carries it as its confidence; the same elements", () =>
    onFixture(async (frame, ppocr) => {
      const ocr = new CachedOcr(ppocr);
      const plain = await new UIElementDetector({ ocr, proposer: det, keepRules: true, rulesGate: { keep: () => true } }).detect(frame);
      const gate: RulesGate = { keep: () => true, keepLearned: () => true, probability: () => 0.42, learnedProbability: () => 0.77 };
      const judged = await new UIElementDetector({ ocr, proposer: det, keepRules: true, rulesGate: gate }).detect(frame);
      const key = (e: { type: string; bbox: readonly number[] }) => `${e.type} ${e.bbox.join(",")}`;
      expect(judged.elements.map(key).sort()).toEqual(plain.elements.map(key).sort());
      const model = judged.elements.filter((e) => e.detection_method === "learned_detector");
      const extras = judged.elements.filter((e) => e.detection_method !== "learned_detector");
      expect(model.length).toBeGreaterThan(0);
      expect(extras.length).toBeGreaterThan(0);
      expect(new Set(model.map((e) => e.confidence))).toEqual(new Set([0.77]));
      expect(new Set(extras.map((e) => e.confidence))).toEqual(new Set([0.42]));
    }), 60_000);

  it("takes RGB and RGBA frames alike (the same pixels give the same boxes)", async () => {
    const frame = await readImageFile(join(FIXTURES, "screen.png"));
    const rgb = frame.channels === 3 ? frame : makeFrame({ data: Uint8Array.from({ length: frame.width * frame.height * 3 }, (_, i) => frame.data[Math.floor(i / 3) * frame.channels + (i % 3)]!), width: frame.width, height: frame.height, channels: 3 });
    const rgba = makeFrame({ data: Uint8Array.from({ length: frame.width * frame.height * 4 }, (_, i) => (i % 4 === 3 ? 255 : rgb.data[Math.floor(i / 4) * 3 + (i % 4)]!)), width: frame.width, height: frame.height, channels: 4 });
    const a = await det.propose(rgb);
    const b = await det.propose(rgba);
    expect(b).toEqual(a);
  });
});

describe("model files", () => {
  it("the committed model is under 30 MB and was trained on the committed data manifest (its SHA-256)", () => {
    const dir = defaultDetectorModelDir();
    expect(statSync(join(dir, DETECTOR_MODEL_FILE)).size).toBeLessThan(30 * 1024 * 1024);
    const meta = JSON.parse(readFileSync(join(dir, DETECTOR_META_FILE), "utf8")) as { data_manifest_sha256: string; onnx_sha256: string };
    expect(meta.data_manifest_sha256).toBe(createHash("sha256").update(readFileSync(join(dir, "data-manifest.json"))).digest("hex"));
    expect(meta.onnx_sha256).toBe(createHash("sha256").update(readFileSync(join(dir, DETECTOR_MODEL_FILE))).digest("hex"));
  });
});
