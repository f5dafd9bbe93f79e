// Perception on real screenshots of real apps (yad, gtk3-widget-factory) under Xvfb, with the
// real OCR models, checked against AT-SPI ground truth: design properties 1, 2, 3, 8, 19, 20,
// 21, 35, 37, 38, 39; dark theme and ×2 scale boxes in the right pixel space; the CLI.
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodePng } from "../../src/capture/png.js";
import { sleep } from "../../src/core/process.js";
import type { Frame } from "../../src/core/frame.js";
import { bboxArea, bboxIoU, bboxCenter, bboxContainsPoint, type BBox } from "../../src/core/geometry.js";
import { readDocument } from "../../src/core/schemas/documents.js";
import { UI_ELEMENT_TYPES, UIElementSchema } from "../../src/core/schemas/uielement.js";
import type { TextEmbedder } from "../../src/core/providers/embedders.js";
import { LayoutImageEmbedder } from "../../src/embedding/layout-image-embedder.js";
import { NgramTextEmbedder } from "../../src/embedding/ngram-text-embedder.js";
import type { AppVariant } from "../../src/platform/x11/desktop-lab.js";
import { atspiDump, groundTruthFromAtspi, type GroundTruth } from "../../src/lab/atspi.js";
import { AccentLexicon, HybridOcr } from "../../src/perception/hybrid-ocr.js";
import { locate, textTargets } from "../../src/perception/locate.js";
import { PpOcr } from "../../src/perception/ppocr-ocr.js";
import { toRgb } from "../../src/perception/raster.js";
import { TesseractOcr } from "../../src/perception/tesseract-ocr.js";
import { UIElementDetector } from "../../src/perception/ui-element-detector.js";
import { rpav } from "../support/cli.js";
import { labKit } from "./support.js";

const kit = labKit();
let ocr: HybridOcr;
let tess: TesseractOcr;
beforeAll(async () => {
  tess = await TesseractOcr.create();
  ocr = new HybridOcr(await PpOcr.create(), tess, AccentLexicon.load());
});
afterAll(async () => {
  await kit.cleanup();
  await tess?.close();
});

const YAD_FORM = ["--form", "--title=Nouveau patient", "--width=700", "--field=Nom", "--field=Prénom", "--field=Mutuelle:CB", "--field=Tiers payant:CHK", "Dupont", "Jean", "MGEN!Harmonie!Aucune", "TRUE"];

async function screenOf(command: string, args: string[], variant: AppVariant = {}, app?: string): Promise<{ frame: Frame; gt: GroundTruth; title: string; stop: () => Promise<void> }> {
  const a = await kit.launch({ command, args, variant, ...(app ? { window: { app } } : {}) });
  await kit.windows.activate(a.window.id);
  await kit.input.move([kit.session.width - 5, kit.session.height - 5], { durationMs: 0 });
  await sleep(700);
  const frame = await kit.screen.capture({ kind: "screen" });
  if (process.env.RPAV_TEST_DUMP) writeFileSync(join(process.env.RPAV_TEST_DUMP, `${command}-${JSON.stringify(variant).replace(/\W/g, "")}.png`), await encodePng(frame));
  const { nodes } = await atspiDump(kit.env, { pid: a.pid, scale: variant.scale ?? 1 });
  const win = (await kit.windows.get(a.window.id))!;
  return { frame, gt: groundTruthFromAtspi(nodes, win.bbox), title: win.title, stop: () => a.stop() };
}

describe("UIElementDetector on real lab screenshots", () => {
  it("yad form (French): properties 1, 2, 3, 8, 19, 20, 21, 35, 37, 38 and accents read right", async () => {
    const s = await screenOf("yad", YAD_FORM);
    try {
      const detector = new UIElementDetector({ ocr, imageEmbedder: new LayoutImageEmbedder(128), textEmbedder: new NgramTextEmbedder(128) });
      const det = await detector.detect(s.frame, { appName: "yad", windowTitle: s.title });
      // Property 1: every interactive element of the form (fields, dropdown, check box, buttons) is
      // found where it is with its type: IoU ≥ 0.5 with the AT-SPI box, or — where AT-SPI gives the
      // widget's whole allocation (a GTK check button spans its column, far past its box and label) —
      // a box inside it with the same label.
      const interactive = s.gt.elements.filter((g) => (UI_ELEMENT_TYPES as readonly string[]).includes(g.type));
      expect(new Set(interactive.map((g) => g.type))).toEqual(new Set(["text_input", "dropdown", "checkbox", "button"]));
      expect(interactive.length).toBeGreaterThanOrEqual(6);
      const inside = (e: BBox, g: BBox) => bboxArea([Math.max(e[0], g[0]), Math.max(e[1], g[1]), Math.min(e[2], g[2]), Math.min(e[3], g[3])]) >= 0.9 * bboxArea(e);
      const missed = interactive.filter((g) => !det.elements.some((e) => e.type === g.type && (bboxIoU(g.bbox, e.bbox) >= 0.5 || (inside(e.bbox, g.bbox) && e.label === g.label))));
      expect(missed.map((g) => `${g.type} ${JSON.stringify(g.label)} [${g.bbox.map(Math.round).join(", ")}]`)).toEqual([]);
      for (const e of det.elements) {
        expect(UIElementSchema.safeParse(e).success).toBe(true);
        expect(UI_ELEMENT_TYPES).toContain(e.type); // property 2
        expect(e.confidence).toBeGreaterThanOrEqual(0); // property 3
        expect(e.confidence).toBeLessThanOrEqual(1);
        expect(e.role.length).toBeGreaterThan(0); // property 38
        // Property 37: crop, image embedding, text, text embedding (when there is text), bbox.
        const crop = det.crops.get(e.element_id)!;
        expect(crop.width).toBe(e.bbox[2] - e.bbox[0]);
        expect(det.vectors.has(e.visual.embedding!.vector_id)).toBe(true);
        if (e.label.trim()) expect(det.vectors.has(e.text.embedding!.vector_id)).toBe(true);
      }
      // Property 35: detected elements are in the screen state's list.
      expect(det.elements.length).toBeGreaterThan(0);
      // Property 8 and 19: text extracted, each with its box; accents kept.
      const text = det.perception.detected_text.join(" ");
      // Accents exact; case is not asserted (PP-OCR reads a capital J as lower case at this size).
      for (const w of ["Nom", "Prénom", "Mutuelle", "Tiers payant", "Dupont", "Jean"]) expect(text.toLowerCase()).toContain(w.toLowerCase());
      expect(text).toContain("Prénom");
      for (const t of det.perception.detected_text) expect(det.perception.text_boxes.some((b) => b.text === t && b.level === "line")).toBe(true);
      // Properties 20 and 21: the text inside an element is in its text.raw, and is detected text.
      const nom = det.elements.find((e) => e.label === "Nom")!;
      expect(nom.type).toBe("text_input");
      expect(nom.text.raw).toBe("Dupont");
      for (const e of det.elements.filter((x) => x.text.raw)) for (const w of e.text.raw.split(" ")) expect(text).toContain(w);
      // Roles from the French lexicon.
      expect(det.elements.find((e) => e.label === "OK")?.role).toBe("validate");
      expect(det.elements.find((e) => e.label === "Cancel")?.role).toBe("cancel");
      expect(det.elements.find((e) => e.label === "Prénom")?.role).toBe("name_field");
    } finally {
      await s.stop();
    }
  });

  it("property 39: a region that fails characterization is skipped, the others are kept; a failing OCR falls back to no elements with a flag", async () => {
    const s = await screenOf("yad", YAD_FORM);
    try {
      const good = await new UIElementDetector({ ocr }).detect(s.frame, { appName: "yad" });
      const failing: TextEmbedder = { name: "failing", dimensions: 8, embed: async (t) => { if (t === "Nom") throw new Error("embedder crashed on this one"); return new Float32Array(8).fill(0.5); } };
      const det = await new UIElementDetector({ ocr, textEmbedder: failing }).detect(s.frame, { appName: "yad" });
      expect(det.elements.length).toBe(good.elements.length - 1);
      expect(det.elements.some((e) => e.label === "Nom")).toBe(false);
      expect(det.metadata.region_errors).toHaveLength(1);
      expect(det.metadata.region_errors[0]!.message).toContain("crashed");
      const broken = await new UIElementDetector({ ocr: { name: "broken", recognize: async () => { throw new Error("model file damaged"); } } }).detect(s.frame);
      expect(broken.elements).toEqual([]);
      expect(broken.metadata.failed?.message).toContain("damaged");
      // A VLM that is unreachable leaves the heuristics' result, flagged as not used.
      const noVlm = await new UIElementDetector({ ocr, vlm: { name: "ollama", proposeRegions: async () => { throw new Error("connect ECONNREFUSED 127.0.0.1:11434"); } } }).detect(s.frame, { appName: "yad" });
      expect(noVlm.metadata.vlm_used).toBe(false);
      expect(noVlm.metadata.vlm_error).toContain("ECONNREFUSED");
      expect(noVlm.elements.map((e) => e.element_id)).toEqual(good.elements.map((e) => e.element_id));
    } finally {
      await s.stop();
    }
  });

  for (const variant of [{ theme: "dark" }, { scale: 2 }] as AppVariant[]) {
    it(`boxes land in the screenshot's pixel space: ${JSON.stringify(variant)}`, async () => {
      const s = await screenOf("yad", YAD_FORM, variant);
      try {
        const det = await new UIElementDetector({ ocr }).detect(s.frame, { appName: "yad", scale: variant.scale ?? 1 });
        const buttons = s.gt.elements.filter((g) => g.type === "button" && /^(OK|Cancel|Annuler|Valider)$/.test(g.label));
        expect(buttons.length).toBe(2);
        for (const b of buttons) {
          const found = det.elements.find((e) => e.label === b.label);
          expect(found, `${b.label} found`).toBeDefined();
          expect(bboxIoU(found!.bbox, b.bbox)).toBeGreaterThan(0.7);
        }
        const nom = det.elements.find((e) => e.label === "Nom" && e.type === "text_input");
        expect(nom, "the Nom field").toBeDefined();
        const gtNom = s.gt.elements.find((g) => g.type === "text_input" && bboxContainsPoint(g.bbox, bboxCenter(nom!.bbox)));
        expect(gtNom).toBeDefined();
      } finally {
        await s.stop();
      }
    });
  }

  it("PP-OCR reads lines on two worker threads as on the calling thread, with its graphs folded as shipped, and goes on reading when its workers are gone", async () => {
    const s = await screenOf("yad", YAD_FORM);
    const here = await PpOcr.create({ workers: 0 });
    const shipped = await PpOcr.create({ workers: 0, fold: false });
    const pooled = await PpOcr.create({ workers: 2 });
    const orphaned = await PpOcr.create({ workers: 2 });
    try {
      expect([here.workers, pooled.workers, orphaned.workers]).toEqual([0, 2, 2]);
      const lines = (await here.recognize(s.frame)).lines.map((l) => [l.text, l.bbox]);
      expect(lines.length).toBeGreaterThan(5);
      expect((await pooled.recognize(s.frame)).lines.map((l) => [l.text, l.bbox])).toEqual(lines);
      expect((await shipped.recognize(s.frame)).lines.map((l) => [l.text, l.bbox])).toEqual(lines);
      // Workers that died (killed here) leave the pool; the calling thread reads their lines.
      for (const slot of (orphaned as unknown as { pool: { slots: { worker: { terminate(): Promise<number> } }[] } }).pool.slots.slice()) await slot.worker.terminate();
      expect(orphaned.workers).toBe(0);
      expect((await orphaned.recognize(s.frame)).lines.map((l) => [l.text, l.bbox])).toEqual(lines);
    } finally {
      await Promise.all([pooled.close(), orphaned.close()]);
      await s.stop();
    }
  });

  it("tesseract reads line crops on two workers as on one, and an abort stops the reads still queued", async () => {
    const s = await screenOf("yad", YAD_FORM);
    const one = await TesseractOcr.create({ workers: 1 });
    try {
      expect([one.workers, tess.workers]).toEqual([1, 2]);
      const img = toRgb(s.frame);
      const boxes = (await ocr.recognize(s.frame)).lines.map((l) => l.bbox);
      expect(boxes.length).toBeGreaterThan(5);
      const alone: string[] = [];
      for (const b of boxes) alone.push((await one.readLine(img, b, false)).map((w) => w.text).join(" "));
      expect(alone.join(" ")).toContain("Prénom");
      expect(await Promise.all(boxes.map(async (b) => (await tess.readLine(img, b, false)).map((w) => w.text).join(" ")))).toEqual(alone);
      // Aborted once every read has been asked for: none of those waiting their turn starts.
      const abort = new AbortController();
      const reads = boxes.map((b) => one.readLine(img, b, false, abort.signal));
      abort.abort();
      const settled = await Promise.allSettled(reads);
      expect(settled.map((r) => r.status === "rejected" && (r.reason as { code?: string }).code)).toEqual(boxes.map(() => "aborted"));
      // The worker is still there for the next read.
      expect((await one.readLine(img, boxes[0]!, false)).map((w) => w.text).join(" ")).toBe(alone[0]);
    } finally {
      await one.close();
      await s.stop();
    }
  });

  it("locate grounds English and French instructions on the real form", async () => {
    const s = await screenOf("yad", YAD_FORM);
    try {
      const det = await new UIElementDetector({ ocr }).detect(s.frame, { appName: "yad" });
      const targets = [...det.elements, ...textTargets(det.ocr!.lines, det.elements)];
      const gtOf = (label: string, type: string) => s.gt.elements.find((g) => g.type === type && g.label === label)!;
      for (const [instruction, label, type] of [
        ["click the OK button at the bottom", "OK", "button"],
        ["Cliquez sur « Cancel »", "Cancel", "button"],
        ["Cochez Tiers payant", "Tiers payant", "checkbox"],
        ["type Martin in the Nom field", "Dupont", "text_input"],
      ] as const) {
        const r = locate(instruction, targets, s.frame);
        expect(r.found, instruction).toBe(true);
        if (!r.found) continue;
        const g = gtOf(label, type);
        expect(g, `${label} in ground truth`).toBeDefined();
        expect(bboxContainsPoint([g.bbox[0] - 2, g.bbox[1] - 2, g.bbox[2] + 2, g.bbox[3] + 2], r.point), instruction).toBe(true);
      }
      const none = locate("click the Supprimer le dossier button", targets, s.frame);
      expect(none.found).toBe(false);
    } finally {
      await s.stop();
    }
  });

  it("rpav detect and rpav locate on a captured PNG: JSON, debug image, exit codes, bad input", async () => {
    const s = await screenOf("gtk3-widget-factory", [], {}, "gtk3-widget-factory");
    const dir = mkdtempSync(join(tmpdir(), "rpav-detect-"));
    try {
      const png = join(dir, "screen.png");
      writeFileSync(png, await encodePng(s.frame));
      const env = { RPAV_HOME: join(dir, "home") };
      const r = await rpav(["detect", png, "--app", "gtk3-widget-factory", "--json", "--debug-image", join(dir, "debug.png")], env);
      expect(r.code, r.stderr).toBe(0);
      const state = readDocument(JSON.parse(r.stdout), "detect output");
      expect(state.version).toBe("screenstate_v1");
      const doc = JSON.parse(r.stdout);
      expect(doc.mode).toBe("enriched");
      expect(doc.ui_elements.length).toBeGreaterThan(10);
      expect(doc.processing_metadata.num_elements_detected).toBe(doc.ui_elements.length);
      expect(doc.perception.text_boxes.some((b: { level: string }) => b.level === "word")).toBe(true);
      const meta = await sharp(join(dir, "debug.png")).metadata();
      expect([meta.width, meta.height]).toEqual([s.frame.width, s.frame.height]);
      // The second run reads the OCR cache under RPAV_HOME.
      expect(existsSync(join(dir, "home", "cache", "ocr"))).toBe(true);
      const loc = await rpav(["locate", png, "switch to the page 2 tab", "--json"], env);
      const out = JSON.parse(loc.stdout);
      expect(out.found, loc.stdout).toBe(true);
      expect(out.candidates.length).toBeGreaterThan(0);
      expect(out.point).toHaveLength(2);
      // Bad input: typed error naming the file, exit 1.
      writeFileSync(join(dir, "notes.txt"), "not an image");
      writeFileSync(join(dir, "empty.png"), "");
      writeFileSync(join(dir, "truncated.png"), readFileSync(png).subarray(0, 2000));
      for (const f of ["notes.txt", "empty.png", "truncated.png", "missing.png"]) {
        const bad = await rpav(["detect", join(dir, f)], env);
        expect(bad.code, f).toBe(1);
        expect(bad.stderr).toContain("invalid_input");
        expect(bad.stderr).toContain(f);
      }
    } finally {
      await s.stop();
    }
  });
});
