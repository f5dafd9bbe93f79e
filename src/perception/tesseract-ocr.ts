// Tesseract (tesseract.js, WebAssembly) with the French and English LSTM data that ship in
// `@tesseract.js-data/fra` and `@tesseract.js-data/eng` (local langPath, nothing downloaded).
// Used two ways: as a whole-page OcrProvider, and by the hybrid provider to re-read single line
// crops whose accents PP-OCR cannot spell. Keeps accents and €; misses light-on-dark text on a
// whole page (lines are inverted before reading here).
import { mkdirSync, copyFileSync, existsSync, renameSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import sharp from "sharp";
import type * as Tesseract from "tesseract.js";
import { ProviderUnavailableError, throwIfAborted } from "../core/errors.js";
import type { Frame } from "../core/frame.js";
import type { BBox } from "../core/geometry.js";
import type { OcrLine, OcrProvider, OcrResult, OcrWord } from "../core/providers/ocr.js";
import { cropResize, toRgb, type RgbImage } from "./raster.js";

type TesseractModule = typeof Tesseract;
type Worker = Awaited<ReturnType<TesseractModule["createWorker"]>>;

export interface TesseractOptions {
  /** Languages, "fra+eng" by default. */
  languages?: string;
  /** Folder holding `<lang>.traineddata.gz`; default: the @tesseract.js-data packages, gathered in one folder. */
  langPath?: string;
  /**
   * Workers reading at once, 2 by default (one per core here): the hybrid provider's line
   * re-reads go two at a time.
   */
  workers?: number;
}

/** One folder with every language's data (tesseract.js takes one langPath). Files are copied from the npm packages once. */
function gatherLangData(languages: string[]): string {
  const require = createRequire(import.meta.url);
  const dir = join(tmpdir(), `rpav-tessdata-${process.getuid?.() ?? "u"}`);
  mkdirSync(dir, { recursive: true });
  for (const lang of languages) {
    const target = join(dir, `${lang}.traineddata.gz`);
    if (existsSync(target)) continue;
    let pkgDir: string;
    try {
      pkgDir = dirname(require.resolve(`@tesseract.js-data/${lang}`));
    } catch (e) {
      throw new ProviderUnavailableError(`Tesseract data for "${lang}" is not installed: npm install @tesseract.js-data/${lang}.`, { cause: e, details: { language: lang } });
    }
    const src = join(pkgDir, "4.0.0_best_int", `${lang}.traineddata.gz`);
    if (!existsSync(src)) throw new ProviderUnavailableError(`${src} is missing: reinstall @tesseract.js-data/${lang}.`, { details: { language: lang } });
    copyFileSync(src, `${target}.part${process.pid}`);
    renameSync(`${target}.part${process.pid}`, target);
  }
  return dir;
}

function* linesOf(page: Tesseract.Page): Generator<Tesseract.Line> {
  for (const block of page.blocks ?? []) for (const para of block.paragraphs) yield* para.lines;
}

/** One tesseract worker and the jobs queued on it (its parameters are per worker). */
interface Slot {
  readonly worker: Worker;
  queue: Promise<unknown>;
  pending: number;
}

export class TesseractOcr implements OcrProvider {
  readonly name: string;
  private readonly slots: Slot[];

  private constructor(
    workers: readonly Worker[],
    private readonly tess: TesseractModule,
    languages: string,
  ) {
    this.name = `tesseract:${languages}`;
    this.slots = workers.map((worker) => ({ worker, queue: Promise.resolve(), pending: 0 }));
  }

  static async create(options: TesseractOptions = {}): Promise<TesseractOcr> {
    const languages = options.languages ?? "fra+eng";
    let tess: TesseractModule;
    try {
      tess = await import("tesseract.js");
    } catch (e) {
      throw new ProviderUnavailableError("tesseract.js is not installed: npm install tesseract.js.", { cause: e });
    }
    const langPath = options.langPath ?? gatherLangData(languages.split("+"));
    const start = async () => {
      const worker = await tess.createWorker(languages.split("+"), tess.OEM.LSTM_ONLY, { langPath, cacheMethod: "none", gzip: true });
      try {
        await worker.setParameters({ user_defined_dpi: "300", preserve_interword_spaces: "1" });
      } catch (e) {
        await worker.terminate();
        throw e;
      }
      return worker;
    };
    // Started together; one failing only means fewer at once, all failing is the provider's failure.
    const started = await Promise.allSettled(Array.from({ length: Math.max(1, options.workers ?? 2) }, start));
    const workers = started.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
    if (!workers.length) throw (started[0] as PromiseRejectedResult).reason;
    return new TesseractOcr(workers, tess, languages);
  }

  /** How many workers read at once. */
  get workers(): number {
    return this.slots.length;
  }

  /** Runs `job` on the least busy worker once that worker's earlier jobs are done. */
  private exclusive<T>(job: (worker: Worker) => Promise<T>): Promise<T> {
    const s = this.slots.reduce((a, b) => (b.pending < a.pending ? b : a));
    s.pending++;
    const run = () => job(s.worker);
    const next = s.queue.then(run, run).finally(() => s.pending--);
    s.queue = next.catch(() => undefined);
    return next;
  }

  async recognize(frame: Frame, signal?: AbortSignal): Promise<OcrResult> {
    throwIfAborted(signal, "tesseract");
    const t0 = performance.now();
    const img = toRgb(frame);
    const png = await sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } }).png({ compressionLevel: 1 }).toBuffer();
    const page = await this.exclusive(async (worker) => {
      await worker.setParameters({ tessedit_pageseg_mode: this.tess.PSM.SPARSE_TEXT });
      return (await worker.recognize(png, {}, { blocks: true, text: false })).data;
    });
    const lines: OcrLine[] = [];
    for (const line of linesOf(page)) {
      const words: OcrWord[] = line.words
        .filter((w) => w.text.trim())
        .map((w) => ({ text: w.text, bbox: [w.bbox.x0, w.bbox.y0, w.bbox.x1, w.bbox.y1] as BBox, confidence: w.confidence / 100 }));
      if (words.length) lines.push({ text: words.map((w) => w.text).join(" "), bbox: [line.bbox.x0, line.bbox.y0, line.bbox.x1, line.bbox.y1], confidence: line.confidence / 100, words });
    }
    return { provider: this.name, lines, timings: { recognize_ms: performance.now() - t0 } };
  }

  /**
   * Reads one line crop: scaled to a 40 px line height (tesseract's LSTM wants ~30 px x-height),
   * made dark-on-light when `inverted`, framed by a margin. Returns the words, boxes in `img` pixels.
   */
  async readLine(img: RgbImage, box: BBox, inverted: boolean, signal?: AbortSignal): Promise<OcrWord[]> {
    throwIfAborted(signal, "tesseract");
    const h = Math.max(1, box[3] - box[1]);
    const scale = 40 / h;
    const w = Math.max(8, Math.round((box[2] - box[0]) * scale));
    const pix = cropResize(img, box, w, 40);
    if (inverted) for (let i = 0; i < pix.length; i++) pix[i] = 255 - pix[i]!;
    const margin = 12;
    const png = await sharp(pix, { raw: { width: w, height: 40, channels: 3 } })
      .extend({ top: margin, bottom: margin, left: margin, right: margin, extendWith: "copy" })
      .png({ compressionLevel: 1 })
      .toBuffer();
    const page = await this.exclusive(async (worker) => {
      // Queued behind other reads: an abort meanwhile stops it before it starts.
      throwIfAborted(signal, "tesseract");
      await worker.setParameters({ tessedit_pageseg_mode: this.tess.PSM.SINGLE_LINE });
      return (await worker.recognize(png, {}, { blocks: true, text: false })).data;
    });
    const words: OcrWord[] = [];
    for (const line of linesOf(page))
      for (const word of line.words) {
        if (!word.text.trim()) continue;
        const x1 = box[0] + (word.bbox.x0 - margin) / scale;
        const x2 = box[0] + (word.bbox.x1 - margin) / scale;
        words.push({ text: word.text, bbox: [Math.max(box[0], x1), box[1], Math.min(box[2], Math.max(x2, x1 + 1)), box[3]], confidence: word.confidence / 100 });
      }
    return words;
  }

  async close(): Promise<void> {
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }
}
