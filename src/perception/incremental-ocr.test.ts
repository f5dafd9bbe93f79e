import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { makeFrame, type Frame } from "../core/frame.js";
import type { BBox } from "../core/geometry.js";
import type { OcrLine, OcrProvider, OcrResult } from "../core/providers/ocr.js";
import { changedBoxes, IncrementalOcr } from "./incremental-ocr.js";

type Rect = { x: number; y: number; w: number; h: number; c: number };

function paint(width: number, height: number, rects: readonly Rect[]): Frame {
  const data = new Uint8Array(width * height * 4).fill(255);
  for (const r of rects)
    for (let y = r.y; y < Math.min(height, r.y + r.h); y++)
      for (let x = r.x; x < Math.min(width, r.x + r.w); x++) data.set([r.c, 255 - r.c, (r.c * 7) & 255, 255], (y * width + x) * 4);
  return makeFrame({ data, width, height, channels: 4 });
}

/**
 * An engine whose reading is local, as a text detector's is: each group of touching non-white
 * pixels is a line, named after its first pixel's colour, boxed by its bounds. Counts the pixels
 * its detector looks at and the lines it reads.
 */
class BlobOcr implements OcrProvider {
  readonly name = "blobs";
  pixelsSeen = 0;
  linesRead = 0;
  calls = 0;
  /** A colour this engine does not see (a line the detector passes over). */
  blind: number | undefined;
  async detectBoxes(f: Frame): Promise<BBox[]> {
    this.calls++;
    this.pixelsSeen += f.width * f.height;
    const W = f.width;
    const ink = (i: number) => f.data[i * 4] !== 255 || f.data[i * 4 + 1] !== 255 || f.data[i * 4 + 2] !== 255;
    const seen = new Uint8Array(W * f.height);
    const boxes: BBox[] = [];
    for (let s = 0; s < seen.length; s++) {
      if (seen[s] || !ink(s)) continue;
      let b: BBox = [Infinity, Infinity, -1, -1];
      const stack = [s];
      seen[s] = 1;
      while (stack.length) {
        const i = stack.pop()!;
        const x = i % W;
        const y = (i / W) | 0;
        b = [Math.min(b[0], x), Math.min(b[1], y), Math.max(b[2], x + 1), Math.max(b[3], y + 1)];
        for (const [nx, ny] of [[x + 1, y], [x - 1, y], [x, y + 1], [x, y - 1]] as const) {
          const n = ny * W + nx;
          if (nx >= 0 && ny >= 0 && nx < W && ny < f.height && !seen[n] && ink(n)) {
            seen[n] = 1;
            stack.push(n);
          }
        }
      }
      if (f.data[s * 4] !== this.blind) boxes.push(b);
    }
    return boxes.sort((a, c) => a[1] - c[1] || a[0] - c[0]);
  }
  async readBoxes(f: Frame, boxes: readonly BBox[]): Promise<OcrLine[]> {
    this.linesRead += boxes.length;
    return boxes.map((b) => {
      let text = "";
      for (let y = b[1]; y < b[3] && !text; y++)
        for (let x = b[0]; x < b[2]; x++) {
          const i = (y * f.width + x) * 4;
          if (f.data[i] !== 255 || f.data[i + 1] !== 255 || f.data[i + 2] !== 255) {
            text = `c${f.data[i]}`;
            break;
          }
        }
      return { text, bbox: b, confidence: 1, words: [{ text, bbox: b, confidence: 1 }] };
    });
  }
  async recognize(f: Frame): Promise<OcrResult> {
    const lines = (await this.readBoxes(f, await this.detectBoxes(f))).filter((l) => l.text);
    return { provider: this.name, lines, timings: { read: 1 } };
  }
}

const key = (lines: readonly OcrLine[]) => lines.map((l) => `${l.text}@${l.bbox.join(",")}`).sort();

describe("reading again only what changed", () => {
  it("finds the boxes of changed pixels, tile-aligned, one per group of touching tiles; none for the same frame", () => {
    const a = paint(100, 60, [{ x: 10, y: 10, w: 5, h: 5, c: 10 }]);
    expect(changedBoxes(a, paint(100, 60, [{ x: 10, y: 10, w: 5, h: 5, c: 10 }]))).toEqual([]);
    const b = paint(100, 60, [
      { x: 10, y: 10, w: 5, h: 5, c: 10 },
      { x: 3, y: 41, w: 2, h: 2, c: 50 },
      { x: 70, y: 20, w: 20, h: 3, c: 90 },
    ]);
    expect(changedBoxes(a, b)).toEqual([
      [64, 16, 96, 24],
      [0, 40, 8, 48],
    ]);
  });

  it("a frame the same as the last one of its size is not read again", async () => {
    const engine = new BlobOcr();
    const ocr = new IncrementalOcr(engine);
    const f = paint(120, 80, [{ x: 10, y: 10, w: 30, h: 8, c: 20 }]);
    const first = await ocr.recognize(f);
    const again = await ocr.recognize(paint(120, 80, [{ x: 10, y: 10, w: 30, h: 8, c: 20 }]));
    expect(engine.calls).toBe(1);
    expect(again.lines).toEqual(first.lines);
    expect(again.timings).toMatchObject({ reused_lines: 1, read_lines: 0 });
  });

  it("reads only the lines whose pixels changed, keeps the others' readings, and gives what a whole read gives", async () => {
    const engine = new BlobOcr();
    const ocr = new IncrementalOcr(engine);
    const base: Rect[] = [
      { x: 10, y: 10, w: 60, h: 8, c: 20 },
      { x: 10, y: 100, w: 60, h: 8, c: 30 },
    ];
    await ocr.recognize(paint(400, 300, base));
    engine.linesRead = 0;
    const next = paint(400, 300, [...base, { x: 300, y: 200, w: 40, h: 10, c: 40 }]);
    const r = await ocr.recognize(next);
    expect(key(r.lines)).toEqual(key((await new BlobOcr().recognize(next)).lines));
    expect(engine.linesRead).toBe(1);
    expect(r.timings).toMatchObject({ reused_lines: 2, read_lines: 1 });
  });

  it("a line found again near a change, its pixels untouched, keeps its reading; a line whose pixels changed is read", async () => {
    const engine = new BlobOcr();
    const ocr = new IncrementalOcr(engine);
    // A caption and its field's text, close together: the typed text changes, the caption does not.
    await ocr.recognize(paint(400, 200, [{ x: 10, y: 50, w: 60, h: 8, c: 20 }]));
    engine.linesRead = 0;
    const next = paint(400, 200, [{ x: 10, y: 50, w: 60, h: 8, c: 20 }, { x: 80, y: 50, w: 30, h: 8, c: 44 }]);
    const r = await ocr.recognize(next);
    expect(key(r.lines)).toEqual(["c20@10,50,70,58", "c44@80,50,110,58"]);
    expect(engine.linesRead).toBe(1);
    // The caption itself recoloured: read again.
    engine.linesRead = 0;
    const again = await ocr.recognize(paint(400, 200, [{ x: 10, y: 50, w: 60, h: 8, c: 21 }, { x: 80, y: 50, w: 30, h: 8, c: 44 }]));
    expect(key(again.lines)).toEqual(["c21@10,50,70,58", "c44@80,50,110,58"]);
    expect(engine.linesRead).toBe(1);
  });

  it("a line the last read missed is found and read whole, though only a few of its pixels changed", async () => {
    const engine = new BlobOcr();
    const ocr = new IncrementalOcr(engine, { maxShare: 1 });
    // The first read missed a long line (a detector may pass over text); a few of its pixels change.
    engine.blind = 60;
    await ocr.recognize(paint(400, 100, [{ x: 20, y: 40, w: 360, h: 6, c: 60 }]));
    engine.blind = undefined;
    const next = paint(400, 100, [{ x: 20, y: 40, w: 360, h: 6, c: 60 }, { x: 200, y: 41, w: 3, h: 3, c: 61 }]);
    const r = await ocr.recognize(next);
    expect(key(r.lines)).toEqual(key((await new BlobOcr().recognize(next)).lines));
    expect(r.lines.find((l) => l.text === "c60")?.bbox).toEqual([20, 40, 380, 46]);
  });

  it("reads the whole frame when much of it changed, or when the engine cannot detect and read boxes apart", async () => {
    const engine = new BlobOcr();
    const ocr = new IncrementalOcr(engine);
    await ocr.recognize(paint(150, 100, []));
    const r = await ocr.recognize(paint(150, 100, [{ x: 0, y: 0, w: 150, h: 90, c: 5 }]));
    expect(r.timings).toMatchObject({ read: 1, read_pct: 100 });
    const plain: OcrProvider = { name: "plain", recognize: async (f) => ({ ...(await engine.recognize(f)), provider: "plain" }) };
    const o2 = new IncrementalOcr(plain);
    await o2.recognize(paint(100, 100, []));
    const w = await o2.recognize(paint(100, 100, [{ x: 5, y: 5, w: 5, h: 5, c: 5 }]));
    expect(w.timings).toEqual({ read: 1 });
  });

  it("property: reading only what changed gives the lines a whole read gives (an engine that reads locally)", async () => {
    const rect = fc.record({ x: fc.integer({ min: 0, max: 230 }), y: fc.integer({ min: 0, max: 110 }), w: fc.integer({ min: 1, max: 60 }), h: fc.integer({ min: 1, max: 12 }), c: fc.integer({ min: 0, max: 200 }) });
    await fc.assert(
      fc.asyncProperty(fc.array(rect, { maxLength: 10 }), fc.array(rect, { maxLength: 4 }), fc.array(fc.nat(), { maxLength: 3 }), async (before, added, removed) => {
        const after = before.filter((_, i) => !removed.some((k) => before.length && k % before.length === i)).concat(added);
        const ocr = new IncrementalOcr(new BlobOcr(), { maxShare: 1 });
        await ocr.recognize(paint(240, 120, before));
        const next = paint(240, 120, after);
        expect(key((await ocr.recognize(next)).lines)).toEqual(key((await new BlobOcr().recognize(next)).lines));
      }),
      { numRuns: 150 },
    );
  });
});
