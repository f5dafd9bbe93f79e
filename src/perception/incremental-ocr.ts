// Reads again only what changed. Replay perceives the same window step after step, and between two
// steps little of it changes (a field typed into, a focus ring, a mark). Against the last read of a
// frame of the same size: the same pixels are the same reading; otherwise the engine's detector
// finds the text lines of the whole frame as a whole read would (not of a crop: the detector looks
// at the whole image, and a typed line was seen split in two in a crop), and a line found where one
// was read last time, with every pixel of both boxes and 2 px around them unchanged, keeps that
// reading; only the others are recognised (most of a read's time). Pixels are compared, not time.
// Engines that do not detect and read boxes apart (`detectBoxes`, `readBoxes`), and a frame
// changed over most of its area (a new screen), are read whole.
import type { Frame } from "../core/frame.js";
import { padBBox, type BBox } from "../core/geometry.js";
import type { OcrLine, OcrProvider, OcrResult } from "../core/providers/ocr.js";

export interface IncrementalOcrOptions {
  /** Frame sizes remembered (the last read of each; default 4). */
  sizes?: number;
  /** Above this share of the frame's area changed, it is a new screen, read whole (default 0.75). */
  maxShare?: number;
}

/** Side of the square tiles changes are found in, in frame pixels. */
const TILE = 8;

interface Memory {
  frame: Frame;
  result: OcrResult;
}

const sizeKey = (f: Frame) => `${f.width}x${f.height}x${f.channels}@${f.scaleFactor}`;

const overlaps = (a: BBox, b: BBox) => a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];

const area = (b: BBox) => Math.max(0, b[2] - b[0]) * Math.max(0, b[3] - b[1]);

/**
 * The boxes (frame pixels, whole tiles) around the pixels that differ between two frames of the same
 * size: the changed tiles grouped by touching tiles. Empty when every pixel is the same.
 */
export function changedBoxes(a: Frame, b: Frame, tile = TILE): BBox[] {
  const { width: W, height: H, channels: c } = a;
  const tw = Math.ceil(W / tile);
  const th = Math.ceil(H / tile);
  const dirty = new Uint8Array(tw * th);
  const da = a.data;
  const db = b.data;
  for (let y = 0; y < H; y++) {
    const row = (y / tile) | 0;
    const o = y * W * c;
    for (let x = 0; x < W; x++) {
      const i = o + x * c;
      if (da[i] !== db[i] || da[i + 1] !== db[i + 1] || da[i + 2] !== db[i + 2]) {
        const t = row * tw + ((x / tile) | 0);
        dirty[t] = 1;
        // The rest of this tile's row is dirty already: go to the next tile.
        x = Math.min(W, ((x / tile) | 0) * tile + tile) - 1;
      }
    }
  }
  const boxes: BBox[] = [];
  const seen = new Uint8Array(tw * th);
  const stack: number[] = [];
  for (let t0 = 0; t0 < dirty.length; t0++) {
    if (!dirty[t0] || seen[t0]) continue;
    let [x0, y0, x1, y1] = [Infinity, Infinity, -1, -1];
    seen[t0] = 1;
    stack.push(t0);
    while (stack.length) {
      const t = stack.pop()!;
      const tx = t % tw;
      const ty = (t / tw) | 0;
      x0 = Math.min(x0, tx);
      y0 = Math.min(y0, ty);
      x1 = Math.max(x1, tx);
      y1 = Math.max(y1, ty);
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const nx = tx + dx;
          const ny = ty + dy;
          if (nx < 0 || ny < 0 || nx >= tw || ny >= th) continue;
          const n = ny * tw + nx;
          if (dirty[n] && !seen[n]) {
            seen[n] = 1;
            stack.push(n);
          }
        }
    }
    boxes.push([x0 * tile, y0 * tile, Math.min(W, (x1 + 1) * tile), Math.min(H, (y1 + 1) * tile)]);
  }
  return boxes;
}

/** Intersection over union of two boxes. */
function iou(a: BBox, b: BBox): number {
  const inter = area([Math.max(a[0], b[0]), Math.max(a[1], b[1]), Math.min(a[2], b[2]), Math.min(a[3], b[3])]);
  return inter === 0 ? 0 : inter / (area(a) + area(b) - inter);
}

/** A line found again where it was read last time, at about the same box, is that line. */
const SAME_LINE_IOU = 0.6;

export class IncrementalOcr implements OcrProvider {
  readonly name: string;
  readonly detectBoxes?: (frame: Frame, signal?: AbortSignal) => Promise<BBox[]>;
  private readonly memory = new Map<string, Memory>();

  constructor(
    private readonly inner: OcrProvider,
    private readonly options: IncrementalOcrOptions = {},
  ) {
    this.name = inner.name;
    if (inner.detectBoxes) this.detectBoxes = (frame, signal) => inner.detectBoxes!(frame, signal);
  }

  readBoxes(frame: Frame, boxes: readonly BBox[], signal?: AbortSignal): Promise<OcrLine[]> {
    return this.inner.readBoxes ? this.inner.readBoxes(frame, boxes, signal) : Promise.resolve([]);
  }

  private remember(frame: Frame, result: OcrResult): OcrResult {
    const key = sizeKey(frame);
    this.memory.delete(key);
    this.memory.set(key, { frame, result });
    while (this.memory.size > (this.options.sizes ?? 4)) this.memory.delete(this.memory.keys().next().value!);
    return result;
  }

  async recognize(frame: Frame, signal?: AbortSignal): Promise<OcrResult> {
    const { inner } = this;
    const last = this.memory.get(sizeKey(frame));
    if (!last || !inner.detectBoxes || !inner.readBoxes) return this.remember(frame, await inner.recognize(frame, signal));
    const t0 = performance.now();
    const changed = changedBoxes(last.frame, frame);
    const timings: Record<string, number> = { diff_ms: performance.now() - t0 };
    if (changed.length === 0) return this.remember(frame, { ...last.result, timings: { ...timings, reused_lines: last.result.lines.length, read_lines: 0, read_pct: 0 } });
    const changedArea = changed.reduce((s, c) => s + area(c), 0);
    if (changedArea > (this.options.maxShare ?? 0.75) * frame.width * frame.height) {
      // A new screen: read whole.
      const whole = await inner.recognize(frame, signal);
      return this.remember(frame, { ...whole, timings: { ...timings, ...whole.timings, read_pct: 100 } });
    }
    // Pixels of a box and 2 px around it all as before.
    const untouched = (b: BBox) => !changed.some((c) => overlaps(c, padBBox(b, 2)));
    const t1 = performance.now();
    const found = await inner.detectBoxes(frame, signal);
    timings.detect_ms = performance.now() - t1;
    // A line found where an untouched line was read last time keeps that reading; the others are read.
    const old = last.result.lines;
    const again: OcrLine[] = [];
    const toRead: BBox[] = [];
    for (const box of found) {
      const same = untouched(box) ? old.find((l) => !again.includes(l) && untouched(l.bbox) && iou(l.bbox, box) >= SAME_LINE_IOU) : undefined;
      if (same) again.push(same);
      else toRead.push(box);
    }
    const t2 = performance.now();
    const read = toRead.length ? (await inner.readBoxes(frame, toRead, signal)).filter((l) => l.text.trim().length > 0) : [];
    timings.recognize_ms = performance.now() - t2;
    const lines = [...again, ...read].sort((a, b) => a.bbox[1] - b.bbox[1] || a.bbox[0] - b.bbox[0]);
    const readArea = toRead.reduce((s, b) => s + area(b), 0);
    const allArea = found.reduce((s, b) => s + area(b), 0);
    return this.remember(frame, { provider: last.result.provider, lines, timings: { ...timings, reused_lines: again.length, read_lines: toRead.length, read_pct: allArea ? Math.round((100 * readArea) / allArea) : 0 } });
  }
}
