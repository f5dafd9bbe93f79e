// ScreenSource over PNG files, for offline work (benches, `rpav detect`, replaying recorded frames).
import { InvalidInputError } from "../core/errors.js";
import { cropFrame, type Frame } from "../core/frame.js";
import { bboxIntersection } from "../core/geometry.js";
import type { CaptureTarget, ScreenSource } from "../core/providers/screen-source.js";
import { readImageFile } from "./png.js";

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
