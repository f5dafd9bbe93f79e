// The learned icon classifier: a small convnet (training/icons/, model card in
// models/icon-classifier/MODEL_CARD.md) that names what an icon shows — a floppy disk ("save"), a
// lifebuoy or question mark ("help"), a right arrow — from its ink (icon-input.ts), run by
// onnxruntime-node. Trained on twelve npm icon sets and six Debian icon themes; its probabilities are
// temperature-calibrated on icons of files it never trained on. `rpav locate` asks it when an
// instruction describes an icon instead of naming it ("l'icône de disquette", "the play button").
//
// Two models, composed: the first names 33 figures and "other"; the second (icon-extra.onnx, when its description is
// in the folder) names 36 further figures (a funnel, a paperclip, an eye, three dots, a speech bubble, a flag…) and "other", the first's figures
// among its others. Each saw the other's figures as "other", so each is asked of every class — its probability of the
// class where it names it, of "other" where it does not — and the products are normalised (a product of experts): a
// paperclip the first takes for a pencil is a paperclip when the second is surer of it than the first of the pencil.
// The first model itself is unchanged, so are the classes workflows were recorded with (`icon_class`).
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { InferenceSession } from "onnxruntime-node";
import { z } from "zod";
import { InvalidInputError, ProviderUnavailableError, throwIfAborted } from "../core/errors.js";
import type { Frame } from "../core/frame.js";
import type { BBox } from "../core/geometry.js";
import { cpuSessionOptions, loadOnnxRuntime, type Ort } from "../core/onnx-runtime.js";
import type { IconRecognizer, IconScores } from "../core/providers/icon-recognizer.js";
import { ICON_INPUT_PLANES, ICON_INPUT_SIDE, ICON_INPUT_SIZE, iconInput } from "./icon-input.js";

export const ICON_MODEL_FILE = "icon-classifier.onnx";
export const ICON_META_FILE = "icon-classifier.json";
/** The extra figures' model and its description (optional: a folder without the description has the first model's classes). */
export const ICON_EXTRA_MODEL_FILE = "icon-extra.onnx";
export const ICON_EXTRA_META_FILE = "icon-extra.json";
/** The command that makes the model again (said in every "missing model" error). */
export const ICON_RESTORE_COMMAND = "git checkout -- models/icon-classifier (or retrain: npm run train -- icons-data && npm run train -- icons-data --held && npm run train -- icons, and for the extra figures npm run train -- icons-data --extra && npm run train -- icons --extra)";
/** At most this many icons per call (a screen's candidates are far fewer). */
export const MAX_ICONS = 512;

const MetaSchema = z.object({
  classes: z.array(z.string().min(1)).min(2),
  side: z.literal(ICON_INPUT_SIDE),
  planes: z.literal(ICON_INPUT_PLANES),
  temperature: z.number().positive().finite(),
});

export function defaultIconModelDir(): string {
  // src/perception/ and dist/perception/ are both two levels under the package root.
  return join(dirname(fileURLToPath(import.meta.url)), "..", "..", "models", "icon-classifier");
}

/**
 * The icon classifier's description (classes, input, temperature), its model file checked present: what `create` and
 * `rpav doctor` read. A missing file or a description this version does not read is `provider_unavailable` naming the
 * file and the command that restores it.
 */
export function readIconClassifierMeta(dir = defaultIconModelDir(), files: readonly [model: string, meta: string] = [ICON_MODEL_FILE, ICON_META_FILE]): z.infer<typeof MetaSchema> {
  const modelFile = join(dir, files[0]);
  const metaFile = join(dir, files[1]);
  for (const f of [modelFile, metaFile])
    if (!existsSync(f)) throw new ProviderUnavailableError(`The icon classifier's file ${f} is missing. Restore it: ${ICON_RESTORE_COMMAND}.`, { details: { file: f } });
  try {
    return MetaSchema.parse(JSON.parse(readFileSync(metaFile, "utf8")));
  } catch (e) {
    throw new ProviderUnavailableError(`The icon classifier's description ${metaFile} is not one this version reads (${e instanceof SyntaxError ? "not JSON" : "classes, side, planes or temperature not this version's"}). Restore it: ${ICON_RESTORE_COMMAND}.`, { cause: e, details: { file: metaFile } });
  }
}

/** The composed classes: each model's named classes in order (the first model's first), then "other". */
export function composeIconClasses(models: readonly (readonly string[])[]): string[] {
  const classes: string[] = [];
  for (const m of models) for (const c of m) if (c !== "other" && !classes.includes(c)) classes.push(c);
  return [...classes, "other"];
}

/** The models of `dir`, [model, description] files: the first, then the extra one where its description is there. */
function iconModelFiles(dir: string): (readonly [model: string, meta: string])[] {
  return [[ICON_MODEL_FILE, ICON_META_FILE], ...(existsSync(join(dir, ICON_EXTRA_META_FILE)) ? [[ICON_EXTRA_MODEL_FILE, ICON_EXTRA_META_FILE] as const] : [])];
}

/** The classes the models of `dir` name together, read from their descriptions (each model file checked present). */
export function readIconClasses(dir = defaultIconModelDir()): string[] {
  return composeIconClasses(iconModelFiles(dir).map((files) => readIconClassifierMeta(dir, files).classes));
}

/** One of the composed models: its session and its classes ("other" among them). */
interface Stage {
  readonly session: InferenceSession;
  readonly classes: readonly string[];
}

async function openStage(ort: Ort, dir: string, files: readonly [model: string, meta: string], threads: number): Promise<Stage> {
  const modelFile = join(dir, files[0]);
  const meta = readIconClassifierMeta(dir, files);
  if (!meta.classes.includes("other")) throw new ProviderUnavailableError(`The icon model description ${join(dir, files[1])} has no "other" class. Restore it: ${ICON_RESTORE_COMMAND}.`, { details: { file: join(dir, files[1]) } });
  let session: InferenceSession;
  try {
    session = await ort.InferenceSession.create(readFileSync(modelFile), cpuSessionOptions(threads));
  } catch (e) {
    throw new ProviderUnavailableError(`The icon classifier's model ${modelFile} cannot be loaded (${(e as Error)?.message ?? e}). Restore it: ${ICON_RESTORE_COMMAND}.`, { cause: e, details: { file: modelFile } });
  }
  if (!session.inputNames.includes("ink") || !session.outputNames.includes("probs")) {
    await session.release();
    throw new ProviderUnavailableError(`The model ${modelFile} has no "ink" input or "probs" output: it is not the icon classifier. Restore it: ${ICON_RESTORE_COMMAND}.`, { details: { file: modelFile } });
  }
  return { session, classes: meta.classes };
}

export class IconClassifier implements IconRecognizer {
  /** The first model's named classes, then the extra model's, then "other". */
  readonly classes: readonly string[];
  /** For each stage: where each of its classes goes in `classes` (-1: its "other"), its "other"'s index, and the classes it does not name. */
  private readonly plans: readonly { readonly slots: readonly number[]; readonly other: number; readonly unnamed: readonly number[] }[];

  private constructor(
    private readonly ort: Ort,
    private readonly stages: readonly Stage[],
  ) {
    this.classes = composeIconClasses(stages.map((st) => st.classes));
    this.plans = stages.map((st) => {
      const slots = st.classes.map((c) => (c === "other" ? -1 : this.classes.indexOf(c)));
      return { slots, other: slots.indexOf(-1), unnamed: this.classes.map((_, c) => c).filter((c) => !slots.includes(c)) };
    });
  }

  static async create(options: { modelDir?: string; threads?: number } = {}): Promise<IconClassifier> {
    const dir = options.modelDir ?? defaultIconModelDir();
    const threads = options.threads ?? 1;
    const ort = await loadOnnxRuntime();
    const stages: Stage[] = [];
    try {
      for (const files of iconModelFiles(dir)) stages.push(await openStage(ort, dir, files, threads));
    } catch (e) {
      for (const st of stages) await st.session.release();
      throw e;
    }
    return new IconClassifier(ort, stages);
  }

  async recognize(frame: Frame, boxes: readonly BBox[], signal?: AbortSignal): Promise<IconScores[]> {
    throwIfAborted(signal);
    if (boxes.length === 0) return [];
    if (boxes.length > MAX_ICONS) throw new InvalidInputError(`The icon classifier takes at most ${MAX_ICONS} icons at once; ${boxes.length} were given. Ask in several calls.`, { details: { boxes: boxes.length } });
    const n = ICON_INPUT_SIZE;
    const input = new Float32Array(boxes.length * n);
    boxes.forEach((b, i) => {
      if (!b.every(Number.isFinite) || b[2] <= b[0] || b[3] <= b[1]) throw new InvalidInputError(`Icon box ${i} (${b.join(", ")}) is not a box: x2 > x1 and y2 > y1 are needed.`, { details: { index: i } });
      iconInput(frame, b, input, i * n);
    });
    const probs = await this.classifyInk(input, boxes.length);
    throwIfAborted(signal);
    const C = this.classes.length;
    return boxes.map((_, i) => Object.fromEntries(this.classes.map((c, k) => [c, Math.round(probs[i * C + k]! * 1000) / 1000])));
  }

  /** The probabilities (n × classes, row-major) for `n` inputs already made by `iconInput` (the bench feeds stored ones). */
  async classifyInk(ink: Float32Array, n: number): Promise<Float32Array> {
    if (ink.length !== n * ICON_INPUT_SIZE) throw new InvalidInputError(`${n} icon inputs need ${n * ICON_INPUT_SIZE} values; ${ink.length} were given.`);
    const probs: Float32Array[] = [];
    for (const st of this.stages) probs.push(await this.run(st, ink, n));
    const C = this.classes.length;
    const out = new Float32Array(n * C);
    for (let i = 0; i < n; i++) {
      // Product of experts: each class gets each model's probability of it, or of its "other" where the model does not
      // name it; normalised.
      const row = out.subarray(i * C, (i + 1) * C).fill(1);
      this.plans.forEach(({ slots, other, unnamed }, s) => {
        const K = slots.length;
        const p = (k: number) => probs[s]![i * K + k]!;
        slots.forEach((slot, k) => {
          if (slot >= 0) row[slot] = row[slot]! * p(k);
        });
        for (const c of unnamed) row[c] = row[c]! * p(other);
      });
      const sum = row.reduce((a, b) => a + b, 0);
      for (let c = 0; c < C; c++) row[c] = row[c]! / sum;
    }
    return out;
  }

  private async run(st: Stage, ink: Float32Array, n: number): Promise<Float32Array> {
    const side = ICON_INPUT_SIDE;
    const out = await st.session.run({ ink: new this.ort.Tensor("float32", ink, [n, ICON_INPUT_PLANES, side, side]) });
    const probs = out["probs"]!.data as Float32Array;
    if (probs.length !== n * st.classes.length) throw new ProviderUnavailableError(`The icon classifier answered ${probs.length} values for ${n} icons of ${st.classes.length} classes. Restore it: ${ICON_RESTORE_COMMAND}.`);
    return probs;
  }

  async close(): Promise<void> {
    for (const st of this.stages) await st.session.release();
  }
}
