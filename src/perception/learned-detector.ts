// The learned UI element detector: a small CenterNet-style convnet (training/detector/, model card in
// models/ui-detector/MODEL_CARD.md) run by onnxruntime-node. It proposes typed boxes with a calibrated
// confidence and state probabilities; labels come from OCR (learned-fusion.ts).
//
// Decoding is the one of training/detector/common.py `decode` (same peaks, boxes and overlap rule):
// a cell is a peak when its best class logit is the largest of its 3×3 neighbourhood; its confidence
// is Platt's sigmoid(a · logit + b) (or, for a model without it, sigmoid(logit / T)), fitted on a
// calibration split of the training families only;
// overlapping peaks (IoU > nms_iou) keep the best; proposals under the threshold chosen on that same
// split are dropped.
//
// A model with a `coarse` pass (training/detector/coarse.py) also runs on the frame halved (2×2 mean):
// training crops are 320 px, so an element much wider than that (a 600-px field or drop-down) is only
// ever seen zoomed out, and is found at half resolution where the full one misses or mistypes it. The
// coarse detections at least `min_width` px wide (full-resolution pixels), with their own Platt
// calibration, join the full-resolution ones under the same overlap rule (the more confident stays).
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type * as OrtModule from "onnxruntime-node";
import type { InferenceSession } from "onnxruntime-node";
import { z } from "zod";
import { InvalidInputError, ProviderUnavailableError, throwIfAborted } from "../core/errors.js";
import type { Frame } from "../core/frame.js";
import { bboxIoU, type BBox } from "../core/geometry.js";
import type { ElementProposal, ElementProposer } from "../core/providers/element-proposer.js";
import type { FillProposer } from "../core/providers/fill-proposer.js";
import { UI_ELEMENT_TYPES, type UIElementType } from "../core/schemas/uielement.js";
import { logit, sigmoid } from "../core/vectors.js";
import { toRgb, type RgbImage } from "./raster.js";
import { OnnxWorkers } from "./onnx-workers.js";
import { cpuSessionOptions, loadOnnxRuntime, onnxRuntimePath } from "../core/onnx-runtime.js";

export const DETECTOR_MODEL_FILE = "ui-detector.onnx";
export const DETECTOR_META_FILE = "ui-detector.json";
/** The command that makes the model again (said in every "missing model" error). */
export const DETECTOR_RESTORE_COMMAND = "git checkout -- models/ui-detector (or retrain: npm run train -- data && npm run train -- detector)";

/** What the model's JSON sidecar says (written by training/detector/train.py). */
export interface DetectorMeta {
  readonly types: readonly UIElementType[];
  readonly states: readonly string[];
  readonly stride: number;
  readonly align: number;
  readonly temperature: number;
  readonly threshold: number;
  readonly floor: number;
  readonly nms_iou: number;
  readonly min_side: number;
  readonly max_side: number;
  /** Platt scaling fitted on the train families' calibration split; when present it replaces the temperature. */
  readonly calibration?: { readonly method: "platt"; readonly a: number; readonly b: number };
  /** The half-resolution pass for wide elements (see the file comment); absent: full resolution only. */
  readonly coarse?: CoarsePass;
}


/** A peak logit's calibrated confidence. */
export function calibratedConfidence(meta: Pick<DetectorMeta, "temperature" | "calibration">, logit: number): number {
  const c = meta.calibration;
  return c ? sigmoid(c.a * logit + c.b) : sigmoid(logit / meta.temperature);
}

/** The smallest logit whose calibrated confidence reaches `confidence` (the inverse of calibratedConfidence). */
export function logitForConfidence(meta: Pick<DetectorMeta, "temperature" | "calibration">, confidence: number): number {
  const z = logit(confidence);
  const c = meta.calibration;
  return c ? (z - c.b) / c.a : meta.temperature * z;
}

const CoarsePassSchema = z.object({
  scale: z.literal(0.5),
  min_width: z.number().positive().finite(),
  calibration: z.object({ method: z.literal("platt"), a: z.number().positive().finite(), b: z.number().finite() }),
});
export type CoarsePass = z.infer<typeof CoarsePassSchema>;

export function defaultDetectorModelDir(): string {
  // src/perception/ and dist/perception/ are both two levels under the package root.
  return join(dirname(fileURLToPath(import.meta.url)), "..", "..", "models", "ui-detector");
}

/** The SHA-256 of the model in `modelDir` as its description records it; undefined when the description is missing, not JSON or names none. */
export function recordedModelSha256(modelDir: string): string | undefined {
  try {
    const sha = (JSON.parse(readFileSync(join(modelDir, DETECTOR_META_FILE), "utf8")) as { onnx_sha256?: unknown }).onnx_sha256;
    return typeof sha === "string" ? sha : undefined;
  } catch {
    return undefined;
  }
}

function parseMeta(text: string, file: string): DetectorMeta {
  let m: Record<string, unknown>;
  try {
    m = JSON.parse(text) as Record<string, unknown>;
  } catch (e) {
    throw new ProviderUnavailableError(`The detector's description ${file} is not JSON. Restore it: ${DETECTOR_RESTORE_COMMAND}.`, { cause: e, details: { file } });
  }
  const num = (k: string) => {
    const v = m[k];
    if (typeof v !== "number" || !Number.isFinite(v)) throw new ProviderUnavailableError(`The detector's description ${file} has no number "${k}". Restore it: ${DETECTOR_RESTORE_COMMAND}.`, { details: { file, field: k } });
    return v;
  };
  const types = m.types;
  if (!Array.isArray(types) || types.length === 0 || !types.every((t) => (UI_ELEMENT_TYPES as readonly unknown[]).includes(t)))
    throw new ProviderUnavailableError(`The detector's description ${file} lists unknown element types. Restore it: ${DETECTOR_RESTORE_COMMAND}.`, { details: { file } });
  const states = Array.isArray(m.states) ? (m.states as unknown[]).filter((s): s is string => typeof s === "string") : [];
  let calibration: DetectorMeta["calibration"];
  if (m.calibration !== undefined) {
    const c = m.calibration as Record<string, unknown> | null;
    if (!c || c.method !== "platt" || typeof c.a !== "number" || typeof c.b !== "number" || !(c.a > 0) || !Number.isFinite(c.a) || !Number.isFinite(c.b))
      throw new ProviderUnavailableError(`The detector's description ${file} has a calibration that is not Platt scaling with a > 0 and a finite b. Restore it: ${DETECTOR_RESTORE_COMMAND}.`, { details: { file, field: "calibration" } });
    calibration = { method: "platt", a: c.a, b: c.b };
  }
  let coarse: CoarsePass | undefined;
  if (m.coarse !== undefined) {
    const c = CoarsePassSchema.safeParse(m.coarse);
    if (!c.success)
      throw new ProviderUnavailableError(`The detector's description ${file} has a coarse pass this version cannot run (${c.error.issues.map((i) => `${i.path.join(".") || "coarse"}: ${i.message}`).join("; ")}). Restore it: ${DETECTOR_RESTORE_COMMAND}.`, { details: { file, field: "coarse" } });
    coarse = c.data;
  }
  const meta = { types: types as UIElementType[], states, stride: num("stride"), align: num("align"), temperature: num("temperature"), threshold: num("threshold"), floor: num("floor"), nms_iou: num("nms_iou"), min_side: num("min_side"), max_side: num("max_side"), ...(calibration ? { calibration } : {}), ...(coarse ? { coarse } : {}) };
  if (!(meta.temperature > 0) || !(meta.stride >= 1) || !(meta.align >= meta.stride))
    throw new ProviderUnavailableError(`The detector's description ${file} has impossible values (temperature ${meta.temperature}, stride ${meta.stride}). Restore it: ${DETECTOR_RESTORE_COMMAND}.`, { details: { file } });
  return meta;
}

/** The model's raw outputs for one image: C×h×w heat logits, 4×h×w box sides (input pixels), S×h×w state logits. */
export interface DetectorOutputs {
  readonly heat: Float32Array;
  readonly box: Float32Array;
  readonly state: Float32Array;
  /** Output grid size (cells). */
  readonly w: number;
  readonly h: number;
}

export interface DecodedDetection extends ElementProposal {
  /** The peak's logit, before the temperature (for calibration). */
  readonly logit: number;
}


/**
 * Peaks → boxes (see the file comment), best first, in the image's pixels (width × height, the
 * unpadded size), keeping those with confidence ≥ `minConfidence` (default the model's threshold).
 */
export function decodeDetections(out: DetectorOutputs, meta: DetectorMeta, width: number, height: number, minConfidence = meta.threshold): DecodedDetection[] {
  const { w, h } = out;
  const n = w * h;
  const C = meta.types.length;
  const best = new Float32Array(n).fill(-Infinity);
  const cls = new Uint8Array(n);
  for (let c = 0; c < C; c++) {
    const off = c * n;
    for (let i = 0; i < n; i++) {
      const v = out.heat[off + i]!;
      if (v > best[i]!) {
        best[i] = v;
        cls[i] = c;
      }
    }
  }
  const zMin = logitForConfidence(meta, Math.min(Math.max(minConfidence, 1e-6), 1 - 1e-6));
  const peaks: number[] = [];
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      const v = best[i]!;
      if (v < zMin) continue;
      let peak = true;
      for (let dy = -1; dy <= 1 && peak; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const yy = y + dy;
          const xx = x + dx;
          if (yy < 0 || xx < 0 || yy >= h || xx >= w || (dx === 0 && dy === 0)) continue;
          if (best[yy * w + xx]! > v) {
            peak = false;
            break;
          }
        }
      if (peak) peaks.push(i);
    }
  peaks.sort((a, b) => best[b]! - best[a]!);
  const dets: DecodedDetection[] = [];
  const S = meta.states.length;
  for (const i of peaks.slice(0, 400)) {
    const x = i % w;
    const y = (i - x) / w;
    const cx = (x + 0.5) * meta.stride;
    const cy = (y + 0.5) * meta.stride;
    const bb: BBox = [Math.max(0, cx - out.box[i]!), Math.max(0, cy - out.box[n + i]!), Math.min(width, cx + out.box[2 * n + i]!), Math.min(height, cy + out.box[3 * n + i]!)];
    if (bb[2] - bb[0] < 2 || bb[3] - bb[1] < 2) continue;
    if (dets.some((d) => bboxIoU(d.bbox, bb) > meta.nms_iou)) continue;
    const state: Record<string, number> = {};
    for (let s = 0; s < S; s++) state[meta.states[s]!] = Math.round(sigmoid(out.state[s * n + i]!) * 1000) / 1000;
    dets.push({ type: meta.types[cls[i]!]!, bbox: bb, confidence: calibratedConfidence(meta, best[i]!), logit: best[i]!, state });
  }
  return dets;
}

/**
 * Full-resolution and coarse detections as one list, best first: the coarse ones (decoded on the halved
 * frame, in its pixels) are scaled back into the width × height frame and kept when at least
 * `pass.min_width` wide; then any detection overlapping (IoU > nmsIou) a more confident one is dropped.
 */
export function mergeCoarse<T extends { bbox: BBox; confidence: number }>(fine: readonly T[], coarse: readonly T[], pass: CoarsePass, width: number, height: number, nmsIou: number): T[] {
  const up = widenCoarse(coarse, pass, width, height);
  const out: T[] = [];
  for (const d of [...fine, ...up].sort((a, b) => b.confidence - a.confidence)) if (!out.some((o) => bboxIoU(o.bbox, d.bbox) > nmsIou)) out.push(d);
  return out;
}

/** Coarse detections (in the halved frame's pixels) scaled back into the width × height frame, those at least `pass.min_width` wide. */
export function widenCoarse<T extends { bbox: BBox }>(coarse: readonly T[], pass: CoarsePass, width: number, height: number): T[] {
  return coarse
    .map((d) => ({ ...d, bbox: [Math.min(width, d.bbox[0] * 2), Math.min(height, d.bbox[1] * 2), Math.min(width, d.bbox[2] * 2), Math.min(height, d.bbox[3] * 2)] as BBox }))
    .filter((d) => d.bbox[2] - d.bbox[0] >= pass.min_width);
}

/** The frame halved by 2×2 means (an odd last row or column dropped), as float RGB: what training/detector/coarse.py feeds. */
function halveRgb(rgb: RgbImage): { data: Float32Array; width: number; height: number } {
  const width = rgb.width >> 1;
  const height = rgb.height >> 1;
  const data = new Float32Array(width * height * 3);
  const src = rgb.data;
  const row = rgb.width * 3;
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const s = 2 * y * row + 6 * x;
      const o = (y * width + x) * 3;
      for (let c = 0; c < 3; c++) data[o + c] = (src[s + c]! + src[s + 3 + c]! + src[s + row + c]! + src[s + row + 3 + c]!) / 4;
    }
  return { data, width, height };
}

/** One row of a reliability table: detections whose confidence falls in [lo, hi) and the share of them that were right. */
export interface ReliabilityBin {
  readonly lo: number;
  readonly hi: number;
  readonly count: number;
  readonly correct: number;
  /** correct / count; null when the bin is empty. */
  readonly precision: number | null;
  readonly meanConfidence: number | null;
}

/**
 * Predicted confidence vs observed precision in `bins` equal bins, and the expected calibration
 * error (the count-weighted mean gap between a bin's mean confidence and its precision).
 */
export function reliabilityTable(scored: ReadonlyArray<{ confidence: number; correct: boolean }>, bins = 10): { bins: ReliabilityBin[]; ece: number; count: number } {
  const acc = Array.from({ length: bins }, () => ({ count: 0, correct: 0, conf: 0 }));
  for (const s of scored) {
    if (!(s.confidence >= 0 && s.confidence <= 1)) throw new InvalidInputError(`A confidence must be in [0, 1], got ${s.confidence}.`);
    const b = acc[Math.min(bins - 1, Math.floor(s.confidence * bins))]!;
    b.count++;
    b.conf += s.confidence;
    if (s.correct) b.correct++;
  }
  let ece = 0;
  const out = acc.map((b, k) => {
    const precision = b.count ? b.correct / b.count : null;
    const meanConfidence = b.count ? b.conf / b.count : null;
    if (b.count) ece += (b.count / Math.max(1, scored.length)) * Math.abs(meanConfidence! - precision!);
    return { lo: k / bins, hi: (k + 1) / bins, count: b.count, correct: b.correct, precision, meanConfidence };
  });
  return { bins: out, ece, count: scored.length };
}

export interface LearnedDetectorOptions {
  /** Folder holding ui-detector.onnx and ui-detector.json (default: models/ui-detector of the package). */
  modelDir?: string;
  threads?: number;
  /** Merge the model's coarse pass into its detections when it has one (default true). The hybrid detector leaves it
   * off and asks for the pass's boxes apart, to add only where nothing else stands (`proposeFills`). */
  coarse?: boolean;
  /**
   * Run the model on a worker thread (default true): onnxruntime-node blocks the thread that runs a session, so on the
   * main thread the model and the text detector took turns; on a worker they run side by side (median detection of
   * detect-speed's 16 full-HD screens −130 ms in five interleaved pairs, `bench/RESULTS.md` stop 64). Where no worker
   * starts, or one fails, the model runs on the calling thread.
   */
  worker?: boolean;
}

/** A model output, from a worker or from the calling thread's session. */
type Outputs = Record<string, { readonly data: unknown; readonly dims: readonly number[] }>;

export class LearnedDetector implements ElementProposer, FillProposer {
  readonly name = "learned_detector";

  private constructor(
    private readonly ort: typeof OrtModule,
    /** The calling thread's session: made up front without a worker, else when the worker first fails. */
    private session: InferenceSession | undefined,
    private workers: OnnxWorkers | undefined,
    private readonly load: () => Promise<InferenceSession>,
    readonly meta: DetectorMeta,
    private readonly useCoarse: boolean,
  ) {}

  static async create(options: LearnedDetectorOptions = {}): Promise<LearnedDetector> {
    const dir = options.modelDir ?? defaultDetectorModelDir();
    const modelFile = join(dir, DETECTOR_MODEL_FILE);
    const metaFile = join(dir, DETECTOR_META_FILE);
    for (const f of [modelFile, metaFile])
      if (!existsSync(f)) throw new ProviderUnavailableError(`The UI element detector's file ${f} is missing. Restore it: ${DETECTOR_RESTORE_COMMAND}.`, { details: { file: f } });
    const meta = parseMeta(readFileSync(metaFile, "utf8"), metaFile);
    const ort: typeof OrtModule = await loadOnnxRuntime();
    const model = readFileSync(modelFile);
    const sessionOptions = cpuSessionOptions(options.threads ?? 2);
    const load = async () => {
      try {
        return await ort.InferenceSession.create(model, sessionOptions);
      } catch (e) {
        throw new ProviderUnavailableError(`The UI element detector's model ${modelFile} cannot be loaded (${(e as Error)?.message ?? e}). Restore it: ${DETECTOR_RESTORE_COMMAND}.`, { cause: e, details: { file: modelFile } });
      }
    };
    const ortPath = onnxRuntimePath();
    const workers = options.worker === false ? undefined : await OnnxWorkers.start({ ortPath, model, size: 1, options: sessionOptions as Record<string, unknown>, what: "element detection" }).catch(() => undefined);
    // A model no worker could load is loaded here, for its typed error.
    const session = workers ? undefined : await load();
    const outputs = workers?.outputNames ?? session!.outputNames;
    for (const name of ["heat_logits", "box", "state_logits"])
      if (!outputs.includes(name)) {
        await Promise.all([workers?.close(), session?.release()]);
        throw new ProviderUnavailableError(`The model ${modelFile} has no output "${name}": it is not a UI element detector. Restore it: ${DETECTOR_RESTORE_COMMAND}.`, { details: { file: modelFile } });
      }
    return new LearnedDetector(ort, session, workers, load, meta, options.coarse ?? true);
  }

  /** Whether the model runs on a worker thread now. */
  get onWorker(): boolean {
    return (this.workers?.size ?? 0) > 0;
  }

  /** The model run on one input, on the worker where there is one, else (and where the worker fails) on this thread. */
  private async runModel(build: () => Float32Array, dims: readonly number[]): Promise<Outputs> {
    if (this.workers?.size) {
      try {
        return await this.workers.run(build(), dims);
      } catch {
        // The worker is gone (its input was handed over to it: built again below).
        await this.workers.close();
        this.workers = undefined;
      }
    }
    const session = (this.session ??= await this.load());
    return session.run({ [session.inputNames[0]!]: new this.ort.Tensor("float32", build(), [...dims]) });
  }

  /** The model's raw outputs on a frame (padded with black to a multiple of `align`). */
  async run(frame: Frame, signal?: AbortSignal): Promise<DetectorOutputs> {
    const { min_side: lo, max_side: hi } = this.meta;
    if (frame.width < lo || frame.height < lo || frame.width > hi || frame.height > hi)
      throw new InvalidInputError(`The UI element detector takes images from ${lo}×${lo} to ${hi}×${hi} pixels; this one is ${frame.width}×${frame.height}. Crop or scale it first.`, { details: { width: frame.width, height: frame.height } });
    return this.infer(toRgb(frame), signal);
  }

  /** The outputs on the frame halved (the coarse pass), or null when the half is under the model's smallest side. */
  async runHalf(frame: Frame, signal?: AbortSignal): Promise<{ out: DetectorOutputs; width: number; height: number } | null> {
    if (frame.width >> 1 < this.meta.min_side || frame.height >> 1 < this.meta.min_side) return null;
    const half = halveRgb(toRgb(frame));
    return { out: await this.infer(half, signal), width: half.width, height: half.height };
  }

  private async infer(rgb: { data: ArrayLike<number>; width: number; height: number }, signal?: AbortSignal): Promise<DetectorOutputs> {
    throwIfAborted(signal, "element detection");
    const { align } = this.meta;
    const W = Math.ceil(rgb.width / align) * align;
    const H = Math.ceil(rgb.height / align) * align;
    const build = () => {
      const input = new Float32Array(3 * W * H);
      const plane = W * H;
      for (let y = 0; y < rgb.height; y++) {
        let s = y * rgb.width * 3;
        const row = y * W;
        for (let x = 0; x < rgb.width; x++, s += 3) {
          input[row + x] = rgb.data[s]!;
          input[plane + row + x] = rgb.data[s + 1]!;
          input[2 * plane + row + x] = rgb.data[s + 2]!;
        }
      }
      return input;
    };
    const r = await this.runModel(build, [1, 3, H, W]);
    const heat = r.heat_logits!;
    const [, , h, w] = heat.dims as number[];
    return { heat: heat.data as Float32Array, box: r.box!.data as Float32Array, state: r.state_logits!.data as Float32Array, w: w!, h: h! };
  }

  /** Detections at or over the threshold: the full-resolution pass, with the coarse one merged in when the model has it (and it is on). */
  async detections(frame: Frame, signal?: AbortSignal, minConfidence = this.meta.threshold): Promise<DecodedDetection[]> {
    const fine = decodeDetections(await this.run(frame, signal), this.meta, frame.width, frame.height, minConfidence);
    if (!this.useCoarse) return fine;
    const coarse = await this.coarseDetections(frame, signal, minConfidence);
    return coarse ? mergeCoarse(fine, coarse, this.meta.coarse!, frame.width, frame.height, this.meta.nms_iou) : fine;
  }

  /** The coarse pass's detections in the halved frame's pixels; undefined when the model has none or the half is too small. */
  private async coarseDetections(frame: Frame, signal: AbortSignal | undefined, minConfidence: number): Promise<DecodedDetection[] | undefined> {
    const pass = this.meta.coarse;
    const half = pass ? await this.runHalf(frame, signal) : null;
    return pass && half ? decodeDetections(half.out, { ...this.meta, calibration: pass.calibration }, half.width, half.height, minConfidence) : undefined;
  }

  /** The coarse pass's wide detections (at or over the threshold) in the frame's pixels, whether or not it is merged; none without one. */
  async proposeFills(frame: Frame, signal?: AbortSignal): Promise<ElementProposal[]> {
    const coarse = await this.coarseDetections(frame, signal, this.meta.threshold);
    return coarse ? widenCoarse(coarse, this.meta.coarse!, frame.width, frame.height).map(({ logit: _logit, ...p }) => p) : [];
  }

  async propose(frame: Frame, signal?: AbortSignal): Promise<ElementProposal[]> {
    return (await this.detections(frame, signal)).map(({ logit: _logit, ...p }) => p);
  }

  async close(): Promise<void> {
    await Promise.all([this.workers?.close(), this.session?.release()]);
  }
}
