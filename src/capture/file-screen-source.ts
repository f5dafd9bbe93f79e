// ScreenSource over PNG files, for offline work (benches, `rpav detect`, replaying recorded frames).
import { InvalidInputError } from "../core/errors.js";
import { makeFrame, type Frame } from "../core/frame.js";
import { bboxIntersection, roundBBoxOut, type BBox } from "../core/geometry.js";
import type { CaptureTarget, ScreenSource } from "../core/providers/screen-source.js";
import { readImageFile } from "./png.js";

/** Copies a sub-rectangle of a frame; the crop keeps the parent's scale and its on-screen origin. */
export function cropFrame(frame: Frame, b: BBox): Frame {
  const [x1, y1, x2, y2] = roundBBoxOut(b);
  const c = frame.channels;
  const w = x2 - x1;
  const h = y2 - y1;
  const out = new Uint8Array(w * h * c);
  for (let row = 0; row < h; row++) {
    const start = ((y1 + row) * frame.width + x1) * c;
    out.set(frame.data.subarray(start, start + w * c), row * w * c);
  }
  return makeFrame({ data: out, width: w, height: h, channels: c, scaleFactor: frame.scaleFactor, origin: [frame.origin[0] + x1 / frame.scaleFactor, frame.origin[1] + y1 / frame.scaleFactor] });
}

export class FileScreenSource implements ScreenSource {
  readonly name = "file";
  constructor(
    private readonly path: string,
    private readonly opts: { scaleFactor?: number } = {},
  ) {}

  async capture(target: CaptureTarget): Promise<Frame> {
    const frame = await readImageFile(this.path, { scaleFactor: this.opts.scaleFactor ?? 1 });
    if (target.kind === "screen") return frame;
    if (target.kind === "window") throw new InvalidInputError(`${this.path}: a file source has no windows; capture the screen or a region.`);
    const clipped = bboxIntersection(target.bbox, [0, 0, frame.width, frame.height]);
    if (!clipped) throw new InvalidInputError(`Region [${target.bbox.join(", ")}] lies outside ${this.path} (${frame.width}×${frame.height}).`);
    return cropFrame(frame, clipped);
  }

  async close(): Promise<void> {}
}
