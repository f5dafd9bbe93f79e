// Grounding on hand-written instructions (bench/locate-handwritten/instructions.json): paraphrases,
// icons, colours, positions, in French and English, written by looking at generated screens — not
// templated from their ground-truth labels. Screens from the model's held families (fold A: Qt and
// bulma, never trained on) and from train families (their validation split, never trained on either);
// figures are reported per detector, split and language apart. A third set, tune.json, holds the
// instructions grounding code is tuned on (train-family screens only, written the same way); the
// held families are run only to report. Run: npm run bench -- locate-handwritten
//   RPAV_BENCH_DETECTORS=rules,learned,hybrid   which detectors ground the instructions (default rules,learned)
//   RPAV_BENCH_SETS=tune,train,held      which sets to run (default all three; leave held out while tuning)
//   RPAV_BENCH_OCR_CACHE=<dir>           keep OCR results between runs
//   RPAV_BENCH_VERBOSE=1                 print every miss with what was found instead
//   RPAV_BENCH_ICONS=0                   without the icon classifier (models/icon-classifier), as before 2026-12-04 23:00
// A hit is the located click point inside the intended element's box (±2 px), as in the detect bench.
// The screens come from the data engine (npm run train -- data): screen i is seeded by i, so the ids
// here name the same screens on any machine; each instruction also pins its element's type, checked
// before the run so that a changed generator is caught instead of scored.
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readImageFile } from "../../src/capture/png.js";
import { bboxContainsPoint, padBBox, type BBox } from "../../src/core/geometry.js";
import { AccentLexicon, HybridOcr } from "../../src/perception/hybrid-ocr.js";
import { defaultDetectorModelDir, DETECTOR_RESTORE_COMMAND, LearnedDetector } from "../../src/perception/learned-detector.js";
import { IconClassifier } from "../../src/perception/icon-classifier.js";
import { locateWithIcons, textTargets } from "../../src/perception/locate.js";
import { CachedOcr } from "../../src/perception/ocr-cache.js";
import { PpOcr } from "../../src/perception/ppocr-ocr.js";
import { TesseractOcr } from "../../src/perception/tesseract-ocr.js";
import { UIElementDetector } from "../../src/perception/ui-element-detector.js";
import { LogisticRulesGate } from "../../src/perception/rules-gate.js";
import { benchHybridModel, round, writeResult } from "../lib.js";
import { familyOf } from "../../training/fold-split.js";

const ROOT = join(import.meta.dirname, "..", "..");
const DATA = join(ROOT, "training", "data");
interface Instruction {
  lang: "en" | "fr";
  text: string;
  target: number;
  type: string;
}
type InstructionFile = { set?: string; screens: Array<{ id: string; instructions: Instruction[] }> };
const files = ["instructions.json", "tune.json"].map((f) => JSON.parse(readFileSync(join(import.meta.dirname, f), "utf8")) as InstructionFile);
const SETS = ["tune", "train", "held"] as const;
type SetName = (typeof SETS)[number];
const wanted = (process.env.RPAV_BENCH_SETS ?? SETS.join(",")).split(",").filter(Boolean);
for (const w of wanted) if (!(SETS as readonly string[]).includes(w)) throw new Error(`RPAV_BENCH_SETS: unknown set "${w}" (known: ${SETS.join(", ")})`);
const meta = JSON.parse(readFileSync(join(defaultDetectorModelDir(), "ui-detector.json"), "utf8")) as { fold: string; figures: { held_families: string[] } };
const held = meta.figures.held_families;

interface Screen {
  id: string;
  family: string;
  split: SetName;
  image: string;
  scale: number;
  elements: Array<{ type: string; bbox: BBox }>;
  instructions: Instruction[];
}
const screens: Screen[] = [];
const missing: string[] = [];
for (const s of files.flatMap((f) => f.screens.map((sc) => ({ ...sc, set: f.set })))) {
  const stack = s.id.split("-")[0]!;
  const path = join(DATA, stack, `${s.id}.json`);
  if (!existsSync(path)) {
    missing.push(s.id);
    continue;
  }
  const m = JSON.parse(readFileSync(path, "utf8")) as { family: string; subfamily: string; image: string; variant: { scale?: number }; elements: Screen["elements"] };
  for (const ins of s.instructions) {
    const e = m.elements[ins.target];
    if (!e || e.type !== ins.type) {
      console.error(`${s.id}: instruction "${ins.text}" names element ${ins.target} as a ${ins.type}, but the screen's ground truth has ${e ? `a ${e.type}` : "no such element"}: the generator changed; rewrite the instruction by looking at the screen.`);
      process.exit(1);
    }
  }
  const fam = familyOf(m);
  const isHeld = held.some((h) => h === fam || h === m.family);
  if (s.set === "tune" && isHeld) throw new Error(`tune.json: ${s.id} is a held-family screen; the tuning set holds train-family screens only.`);
  const split: SetName = s.set === "tune" ? "tune" : isHeld ? "held" : "train";
  if (!wanted.includes(split)) continue;
  screens.push({ id: s.id, family: fam, split, image: join(DATA, stack, m.image), scale: m.variant.scale ?? 1, elements: m.elements, instructions: s.instructions });
}
if (missing.length) console.log(`${missing.length} screens are not generated yet (npm run train -- bench-screens): ${missing.join(", ")}`);
if (!screens.length) process.exit(1);

const which = (process.env.RPAV_BENCH_DETECTORS ?? "rules,learned").split(",").filter(Boolean);
const pp = await PpOcr.create();
const tess = await TesseractOcr.create();
const ocr = new CachedOcr(new HybridOcr(pp, tess, AccentLexicon.load()), { dir: process.env.RPAV_BENCH_OCR_CACHE ?? mkdtempSync(join(tmpdir(), "rpav-bench-ocr-")) });
// As the product composes them: the model alone with its coarse pass merged in, the hybrid with the pass's boxes where nothing
// else stands (variants: lib.ts benchHybridModel).
const model = which.includes("learned") ? await LearnedDetector.create() : undefined;
const hybridModel = benchHybridModel();
const fineModel = which.includes("hybrid") ? await LearnedDetector.create({ coarse: hybridModel.coarse }) : undefined;
const detectors: Record<string, UIElementDetector> = {};
if (which.includes("rules")) detectors.rules = new UIElementDetector({ ocr });
if (model) detectors.learned = new UIElementDetector({ ocr, proposer: model });
// The product's hybrid: the rules' extras through its gate (models/ui-detector/rules-gate.json; RPAV_BENCH_GATE=0: all of them).
const rulesGate = LogisticRulesGate.load(defaultDetectorModelDir(), DETECTOR_RESTORE_COMMAND);
if (fineModel) detectors.hybrid = new UIElementDetector({ ocr, proposer: fineModel, keepRules: true, ...(hybridModel.fills ? { fills: fineModel } : {}), ...(rulesGate && process.env.RPAV_BENCH_GATE !== "0" ? { rulesGate } : {}) });

// As `rpav locate`: the icon classifier names what icons show when an instruction describes one.
const icons = process.env.RPAV_BENCH_ICONS === "0" ? undefined : await IconClassifier.create();

// hits / count per detector → split → lang, and per family
const tally: Record<string, Record<string, { n: number; hits: number; notFound: number }>> = {};
const add = (det: string, key: string, hit: boolean, notFound: boolean) => {
  const t = ((tally[det] ??= {})[key] ??= { n: 0, hits: 0, notFound: 0 });
  t.n++;
  if (hit) t.hits++;
  if (notFound) t.notFound++;
};
const misses: Array<Record<string, string>> = [];
for (const [i, s] of screens.entries()) {
  const frame = await readImageFile(s.image, { scaleFactor: s.scale });
  for (const [name, det] of Object.entries(detectors)) {
    const r = await det.detect(frame, { scale: s.scale });
    const targets = [...r.elements, ...textTargets(r.ocr?.lines ?? [], r.elements)];
    for (const ins of s.instructions) {
      const res = await locateWithIcons(ins.text, targets, frame, icons);
      const g = s.elements[ins.target]!.bbox;
      const hit = res.found && bboxContainsPoint(padBBox(g, 2), res.point);
      for (const key of [`${s.split}/${ins.lang}`, `${s.split}/all`, `family:${s.family}`]) add(name, key, hit, !res.found);
      if (!hit) {
        const got = res.found ? `${res.candidates[0]?.type} "${res.candidates[0]?.label}"${res.ambiguous ? " (ambiguous)" : ""}` : `not found: ${res.reason}`;
        misses.push({ detector: name, screen: s.id, split: s.split, lang: ins.lang, instruction: ins.text, got });
        if (process.env.RPAV_BENCH_VERBOSE) console.log(`    miss [${name}] ${s.id}: ${ins.text} → ${got}`);
      }
    }
  }
  process.stdout.write(`  [${i + 1}/${screens.length}] ${s.id} (${s.split} ${s.family}, ${s.instructions.length} instructions)\n`);
}

const rate = (t?: { n: number; hits: number }) => (t && t.n ? round(t.hits / t.n, 3) : null);
const cell = (t?: { n: number; hits: number }) => (t ? `${rate(t)!.toFixed(3)} (${t.hits}/${t.n})` : "-").padEnd(16);
const out: Record<string, unknown> = { icon_classifier: !!icons, fold: meta.fold, held_families: held, sets: wanted, screens: screens.length, instructions: screens.reduce((a, s) => a + s.instructions.length, 0), missing_screens: missing, detectors: {} };
console.log(`\nhand-written locate (fold ${meta.fold}, held: ${held.join(", ")}): hit rate (hits/instructions)`);
const keys = SETS.filter((x) => wanted.includes(x)).flatMap((x) => ["en", "fr", "all"].map((l) => `${x}/${l}`));
console.log(`detector  ${keys.map((k) => k.replace("/", " ").replace(/ (en|fr)$/, (m) => m.toUpperCase()).padEnd(16)).join("")}`);
for (const [name, t] of Object.entries(tally)) {
  console.log(`${name.padEnd(10)}${keys.map((k) => cell(t[k])).join("")}`);
  (out.detectors as Record<string, unknown>)[name] = {
    ...Object.fromEntries(keys.map((k) => [k, { hit_rate: rate(t[k]), hits: t[k]?.hits ?? 0, instructions: t[k]?.n ?? 0, not_found: t[k]?.notFound ?? 0 }])),
    families: Object.fromEntries(Object.entries(t).filter(([k]) => k.startsWith("family:")).map(([k, v]) => [k.slice(7), { hit_rate: rate(v), hits: v.hits, instructions: v.n }])),
  };
  console.log(`          per family: ${Object.entries(t).filter(([k]) => k.startsWith("family:")).map(([k, v]) => `${k.slice(7)} ${rate(v)!.toFixed(2)} (${v.hits}/${v.n})`).join(", ")}`);
}
out.misses = misses;
console.log(`result: ${writeResult("locate-handwritten", out)}`);
await Promise.all([tess.close(), pp.close(), model?.close(), fineModel?.close(), icons?.close()]);
