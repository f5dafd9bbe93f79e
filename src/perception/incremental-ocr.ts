// Reads again only what changed. Replay perceives the same window step after step, and between two
// steps little of it changes (a field typed into, a focus ring, a mark). Against the last read of a
// frame of the same size: the lines away from every changed pixel are kept; around each change
// (with a margin, grown over the lines it touches and until no line is cut at its edge) text is
// found again by the engine's detector, and of the lines found there only those whose pixels
// changed are read — one found where an untouched line was read before keeps that reading.
// Pixels are compared, not time. Only engines that find a crop's text as in the whole frame
// (`fullScaleSide`) and read boxes apart (`detectBoxes`, `readBoxes`) are read this way, and only
// frames within that size; the others, and a frame changed over much of its area, are read whole.
import type { Frame } from "../core/frame.js";
import { cropFrame } from "../core/frame.js";
import type { BBox } from "../core/geometry.js";
import type { OcrLine, OcrProvider, OcrResult } from "../core/providers/ocr.js";

export interface IncrementalOcrOptions {
  /** Frame sizes remembered (the last read of each; default 4). */
  sizes?: number;
  /** Above this share of the frame's area to look at again, the frame is read whole (default 0.75: a new screen). */
  maxShare?: number;
  /** Context kept around a change, in screen pixels (× the frame's scale; default 24). */
  marginPx?: number;
}

/** Side of the square tiles changes are found in, in frame pixels. */
const TILE = 8;

interface Memory {
  frame: Frame;
  result: OcrResult;
}

const sizeKey = (f: Frame) => `${f.width}x${f.height}x${f.channels}@${f.scaleFactor}`;

const overlaps = (a: BBox, b: BBox) => a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];

const union = (a: BBox, b: BBox): BBox => [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[2], b[2]), Math.max(a[3], b[3])];

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

/**
 * The regions to read again: each changed box with `margin` around it, grown over every line of the
 * last read it touches (with the margin), merged while they overlap; inside the frame.
 */
export function regionsToRead(changed: readonly BBox[], lines: readonly OcrLine[], margin: number, size: { width: number; height: number }): BBox[] {
  const grow = (b: BBox): BBox => [Math.max(0, Math.floor(b[0] - margin)), Math.max(0, Math.floor(b[1] - margin)), Math.min(size.width, Math.ceil(b[2] + margin)), Math.min(size.height, Math.ceil(b[3] + margin))];
  let regions = changed.map(grow);
  for (let changedSomething = true; changedSomething; ) {
    changedSomething = false;
    for (let i = 0; i < regions.length; i++) {
      for (const l of lines) {
        if (!overlaps(regions[i]!, l.bbox)) continue;
        const g = union(regions[i]!, grow(l.bbox));
        if (area(g) > area(regions[i]!)) {
          regions[i] = g;
          changedSomething = true;
        }
      }
    }
    const merged: BBox[] = [];
    for (const r of regions) {
      const k = merged.findIndex((m) => overlaps(m, r));
      if (k >= 0) {
        merged[k] = union(merged[k]!, r);
        changedSomething = true;
      } else merged.push(r);
    }
    regions = merged;
  }
  return regions;
}

/** Does `line` (region pixels) reach an edge of `region` that is not the frame's own edge (it may go on beyond)? */
function cutAtEdge(line: BBox, region: BBox, size: { width: number; height: number }): boolean {
  const w = region[2] - region[0];
  const h = region[3] - region[1];
  return (region[0] > 0 && line[0] <= 1) || (region[1] > 0 && line[1] <= 1) || (region[2] < size.width && line[2] >= w - 1) || (region[3] < size.height && line[3] >= h - 1);
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

  get fullScaleSide(): number | undefined {
    return this.inner.fullScaleSide;
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
    const side = inner.fullScaleSide;
    const last = this.memory.get(sizeKey(frame));
    if (!last || side === undefined || !inner.detectBoxes || !inner.readBoxes || Math.max(frame.width, frame.height) > side) return this.remember(frame, await inner.recognize(frame, signal));
    const t0 = performance.now();
    const changed = changedBoxes(last.frame, frame);
    const timings: Record<string, number> = { diff_ms: performance.now() - t0 };
    if (changed.length === 0) return this.remember(frame, { ...last.result, timings: { ...timings, reused_lines: last.result.lines.length, read_regions: 0 } });
    const margin = (this.options.marginPx ?? 24) * frame.scaleFactor;
    const maxArea = (this.options.maxShare ?? 0.75) * frame.width * frame.height;
    const old = last.result.lines;
    // Pixels of a line and 2 px around it all as before: its reading stands.
    const untouched = (b: BBox) => !changed.some((c) => overlaps(c, [b[0] - 2, b[1] - 2, b[2] + 2, b[3] + 2]));
    let regions = regionsToRead(changed, old, margin, frame);
    // Text is found again in each region (with the margin's context); a line cut at a region's edge
    // grows that region over it, a few rounds at most.
    for (let round = 0; round < 3; round++) {
      if (regions.reduce((s, r) => s + area(r), 0) > maxArea) break;
      const t1 = performance.now();
      const found: BBox[] = [];
      const cut: BBox[] = [];
      for (const r of regions) {
        for (const b of await inner.detectBoxes(cropFrame(frame, r), signal)) {
          const box: BBox = [b[0] + r[0], b[1] + r[1], b[2] + r[0], b[3] + r[1]];
          if (cutAtEdge(b, r, frame)) cut.push(box);
          found.push(box);
        }
      }
      timings.detect_ms = (timings.detect_ms ?? 0) + performance.now() - t1;
      if (cut.length) {
        regions = regionsToRead([...regions, ...cut], old, margin, frame);
        continue;
      }
      // Lines found where an untouched line was read last time keep that reading; the others are read.
      const inRegions = old.filter((l) => regions.some((r) => overlaps(r, l.bbox)));
      const again: OcrLine[] = [];
      const toRead: BBox[] = [];
      for (const box of found) {
        const same = inRegions.find((l) => !again.includes(l) && untouched(l.bbox) && iou(l.bbox, box) >= SAME_LINE_IOU);
        if (same) again.push(same);
        else toRead.push(box);
      }
      const t2 = performance.now();
      const read = toRead.length ? (await inner.readBoxes(frame, toRead, signal)).filter((l) => l.text.trim().length > 0) : [];
      timings.recognize_ms = performance.now() - t2;
      const kept = old.filter((l) => !inRegions.includes(l));
      const lines = [...kept, ...again, ...read].sort((a, b) => a.bbox[1] - b.bbox[1] || a.bbox[0] - b.bbox[0]);
      const share = regions.reduce((s, r) => s + area(r), 0) / (frame.width * frame.height);
      return this.remember(frame, { provider: last.result.provider, lines, timings: { ...timings, reused_lines: kept.length + again.length, read_lines: toRead.length, read_regions: regions.length, read_pct: Math.round(share * 100) } });
    }
    // Too much changed (or lines kept running off the regions): the whole frame.
    const whole = await inner.recognize(frame, signal);
    return this.remember(frame, { ...whole, timings: { ...timings, ...whole.timings, read_regions: -1 } });
  }
}
