// The learned icon classifier: a small convnet (training/icons/, model card in
// models/icon-classifier/MODEL_CARD.md) that names what an icon shows — a floppy disk ("save"), a
// lifebuoy or question mark ("help"), a right arrow — from its ink (icon-input.ts), run by
// onnxruntime-node. Trained on twelve npm icon sets and six Debian icon themes; its probabilities are
// temperature-calibrated on icons of files it never trained on. `rpav locate` asks it when an
// instruction describes an icon instead of naming it ("l'icône de disquette", "the play button").
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
/** The command that makes the model again (said in every "missing model" error). */
export const ICON_RESTORE_COMMAND = "git checkout -- models/icon-classifier (or retrain: npm run train -- icons-data && npm run train -- icons-data --held && npm run train -- icons)";
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
export function readIconClassifierMeta(dir = defaultIconModelDir()): z.infer<typeof MetaSchema> {
  const modelFile = join(dir, ICON_MODEL_FILE);
  const metaFile = join(dir, ICON_META_FILE);
  for (const f of [modelFile, metaFile])
    if (!existsSync(f)) throw new ProviderUnavailableError(`The icon classifier's file ${f} is missing. Restore it: ${ICON_RESTORE_COMMAND}.`, { details: { file: f } });
  try {
    return MetaSchema.parse(JSON.parse(readFileSync(metaFile, "utf8")));
  } catch (e) {
    throw new ProviderUnavailableError(`The icon classifier's description ${metaFile} is not one this version reads (${e instanceof SyntaxError ? "not JSON" : "classes, side, planes or temperature not this version's"}). Restore it: ${ICON_RESTORE_COMMAND}.`, { cause: e, details: { file: metaFile } });
  }
}

export class IconClassifier implements IconRecognizer {
  private constructor(
    private readonly ort: Ort,
    private readonly session: InferenceSession,
    readonly classes: readonly string[],
  ) {}

  static async create(options: { modelDir?: string; threads?: number } = {}): Promise<IconClassifier> {
    const dir = options.modelDir ?? defaultIconModelDir();
    const modelFile = join(dir, ICON_MODEL_FILE);
    const meta = readIconClassifierMeta(dir);
    const ort = await loadOnnxRuntime();
    let session: InferenceSession;
    try {
      session = await ort.InferenceSession.create(readFileSync(modelFile), cpuSessionOptions(options.threads ?? 1));
    } catch (e) {
      throw new ProviderUnavailableError(`The icon classifier's model ${modelFile} cannot be loaded (${(e as Error)?.message ?? e}). Restore it: ${ICON_RESTORE_COMMAND}.`, { cause: e, details: { file: modelFile } });
    }
    if (!session.inputNames.includes("ink") || !session.outputNames.includes("probs")) {
      await session.release();
      throw new ProviderUnavailableError(`The model ${modelFile} has no "ink" input or "probs" output: it is not the icon classifier. Restore it: ${ICON_RESTORE_COMMAND}.`, { details: { file: modelFile } });
    }
    return new IconClassifier(ort, session, meta.classes);
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
    const side = ICON_INPUT_SIDE;
    if (ink.length !== n * ICON_INPUT_SIZE) throw new InvalidInputError(`${n} icon inputs need ${n * ICON_INPUT_SIZE} values; ${ink.length} were given.`);
    const out = await this.session.run({ ink: new this.ort.Tensor("float32", ink, [n, ICON_INPUT_PLANES, side, side]) });
    const probs = out["probs"]!.data as Float32Array;
    const C = this.classes.length;
    if (probs.length !== n * C) throw new ProviderUnavailableError(`The icon classifier answered ${probs.length} values for ${n} icons of ${C} classes. Restore it: ${ICON_RESTORE_COMMAND}.`);
    return probs;
  }

  async close(): Promise<void> {
    await this.session.release();
  }
}
