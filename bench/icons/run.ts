// The icon classifier as the product runs it (onnxruntime-node, models/icon-classifier), on the icons its training
// never saw: Qt's built-in icons (training/data/icons/held.bin, `npm run train -- icons-data --held`; Qt is a held
// family) and the validation icons of the training sources (10 % of icons, by name: seen families, unseen icons).
// Prints top-1 accuracy, how often a named icon gets P(its class) ≥ 0.5 (what locate uses), how often an icon of none
// of the classes gets a named class ≥ 0.5, a reliability table (max probability bins vs accuracy), per-class recall,
// and the time per icon. Run: npm run bench -- icons (after npm run train -- icons-data and -- icons-data --held).
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { defaultIconModelDir, IconClassifier } from "../../src/perception/icon-classifier.js";
import { ICON_INPUT_SIZE } from "../../src/perception/icon-input.js";
import { classOfName } from "../../training/icons/build.js";
import { round, writeResult } from "../lib.js";

const DATA = join(import.meta.dirname, "..", "..", "training", "data", "icons");
interface IconSet { side: number; planes?: number; classes: string[]; labels: number[]; extra_classes?: string[]; extra_labels?: number[]; families: string[]; files: string[]; groups?: string[] }

function load(name: string): { x: Float32Array; set: IconSet } | undefined {
  if (!existsSync(join(DATA, `${name}.bin`))) return undefined;
  const set = JSON.parse(readFileSync(join(DATA, `${name}.json`), "utf8")) as IconSet;
  const raw = readFileSync(join(DATA, `${name}.bin`));
  return { x: Float32Array.from(raw, (v) => v / 255), set };
}

const icons = await IconClassifier.create();
/**
 * Each icon's class among the model's: the first model's data names its classes and "other"; an "other" icon showing
 * one of the extra figures the model knows is that figure (Qt's held icons say so; the sources' icons by file name).
 */
function labelsOf(set: IconSet, extraOf: (i: number) => string | undefined): number[] {
  return set.labels.map((l, i) => {
    const name = set.classes[l]!;
    const extra = name === "other" ? extraOf(i) : undefined;
    const k = icons.classes.indexOf(extra && icons.classes.includes(extra) ? extra : name);
    if (k < 0) throw new Error(`the data's class « ${name} » is not the model's; rebuild the data (npm run train -- icons-data).`);
    return k;
  });
}
const splits: Record<string, { x: Float32Array; labels: number[] }> = {};
const held = load("held");
if (held) splits["held: Qt built-in icons"] = { x: held.x, labels: labelsOf(held.set, (i) => (held.set.extra_labels ? held.set.extra_classes?.[held.set.extra_labels[i]!] : undefined)) };
// The validation split means "unseen" only for the data the committed model was trained on.
const trainedOn = (JSON.parse(readFileSync(join(defaultIconModelDir(), "icon-classifier.json"), "utf8")) as { data_sha256?: string }).data_sha256;
const built = existsSync(join(DATA, "manifest.json")) ? (JSON.parse(readFileSync(join(DATA, "manifest.json"), "utf8")) as { sha256?: string }).sha256 : undefined;
const all = built && built === trainedOn ? load("set") : undefined;
if (built && built !== trainedOn) console.log(`validation split skipped: training/data/icons was rebuilt (${built.slice(0, 12)}) since the model was trained (${trainedOn?.slice(0, 12)})`);
if (all) {
  // The training script's validation split: 10 % of icons by a hash of their name (training/icons/train.py file_split).
  const keys = all.set.groups ?? all.set.files;
  const n = ICON_INPUT_SIZE;
  const idx = keys.map((k, i) => [k, i] as const).filter(([k]) => Number.parseInt(createHash("sha256").update(k).digest("hex").slice(0, 8), 16) % 10 === 0).map(([, i]) => i);
  const x = new Float32Array(idx.length * n);
  idx.forEach((i, j) => x.set(all.x.subarray(i * n, (i + 1) * n), j * n));
  const labels = labelsOf(all.set, (i) => classOfName(all.set.files[i]!, true));
  splits["validation: training sources, unseen icons"] = { x, labels: idx.map((i) => labels[i]!) };
}
if (!Object.keys(splits).length) {
  console.error("no icon data: npm run train -- icons-data && npm run train -- icons-data --held");
  process.exit(1);
}

const out: Record<string, unknown> = { model_classes: icons.classes.length };
for (const [name, s] of Object.entries(splits)) {
  const C = icons.classes.length;
  const N = s.labels.length;
  const t0 = performance.now();
  const probs = new Float32Array(N * C);
  for (let i = 0; i < N; i += 256) {
    const m = Math.min(256, N - i);
    probs.set(await icons.classifyInk(s.x.subarray(i * ICON_INPUT_SIZE, (i + m) * ICON_INPUT_SIZE), m), i * C);
  }
  const ms = (performance.now() - t0) / N;
  const other = icons.classes.indexOf("other");
  let top1 = 0, named = 0, namedHit = 0, others = 0, otherFalse = 0;
  const bins = Array.from({ length: 5 }, () => ({ n: 0, right: 0, conf: 0 }));
  const perClass = icons.classes.map(() => ({ n: 0, right: 0 }));
  for (let i = 0; i < N; i++) {
    const row = probs.subarray(i * C, (i + 1) * C);
    let best = 0;
    for (let c = 1; c < C; c++) if (row[c]! > row[best]!) best = c;
    const y = s.labels[i]!;
    const right = best === y;
    if (right) top1++;
    perClass[y]!.n++;
    if (right) perClass[y]!.right++;
    if (y !== other) {
      named++;
      if (row[y]! >= 0.5) namedHit++;
    } else {
      others++;
      if (row.some((p, c) => c !== other && p >= 0.5)) otherFalse++;
    }
    const b = bins[Math.min(4, Math.floor(row[best]! * 5))]!;
    b.n++;
    b.conf += row[best]!;
    if (right) b.right++;
  }
  const res = {
    icons: N,
    top1: round(top1 / N, 3),
    named_p50: round(namedHit / Math.max(1, named), 3),
    other_false_p50: round(otherFalse / Math.max(1, others), 3),
    ms_per_icon: round(ms, 3),
    reliability: bins.map((b, k) => ({ bin: `${(k / 5).toFixed(1)}–${((k + 1) / 5).toFixed(1)}`, n: b.n, mean_confidence: b.n ? round(b.conf / b.n, 3) : null, accuracy: b.n ? round(b.right / b.n, 3) : null })),
    per_class_top1: Object.fromEntries(icons.classes.map((c, k) => [c, perClass[k]!.n ? round(perClass[k]!.right / perClass[k]!.n, 2) : null]).filter(([, v]) => v !== null)),
  };
  out[name] = res;
  console.log(`\n${name}: ${N} icons — top-1 ${res.top1.toFixed(3)}, named icons P ≥ 0.5 ${res.named_p50.toFixed(3)}, other icons given a named class ${res.other_false_p50.toFixed(3)}, ${res.ms_per_icon} ms per icon`);
  console.log(`  reliability (max probability → accuracy): ${res.reliability.map((b) => `${b.bin}: ${b.n ? `${b.accuracy} (n ${b.n}, mean ${b.mean_confidence})` : "-"}`).join("; ")}`);
  console.log(`  per class: ${Object.entries(res.per_class_top1).map(([c, v]) => `${c} ${v}`).join(", ")}`);
}
console.log(`result: ${writeResult("icons", out)}`);
await icons.close();
