import { roundBBoxOut, type BBox, type Point } from "./geometry.js";
import { InvalidInputError } from "./errors.js";

/**
 * An image as the robot sees it. Pixels are `channels` bytes each, row-major, no padding.
 *
 * Coordinates: a frame pixel (px, py) sits at screen point
 *   origin + (px, py) / scaleFactor
 * where `scaleFactor` is image pixels per screen pixel (2 for a HiDPI capture, 0.5 for a
 * half-size downscale) and `origin` is the screen point of the frame's top-left pixel (the
 * window's client-area origin for a window capture, (0, 0) for a full screen).
 * `frameToScreen` / `screenToFrame` are the only places this conversion is written.
 */
export interface Frame {
  readonly data: Uint8Array;
  readonly width: number;
  readonly height: number;
  readonly channels: 1 | 3 | 4;
  readonly scaleFactor: number;
  readonly origin: Point;
}

export function makeFrame(init: Omit<Frame, "scaleFactor" | "origin"> & Partial<Pick<Frame, "scaleFactor" | "origin">>): Frame {
  const frame: Frame = { scaleFactor: 1, origin: [0, 0], ...init };
  const expected = frame.width * frame.height * frame.channels;
  if (!Number.isInteger(frame.width) || !Number.isInteger(frame.height) || frame.width <= 0 || frame.height <= 0)
    throw new InvalidInputError(`Frame size ${frame.width}×${frame.height} is not a positive integer size.`);
  if (frame.data.length !== expected)
    throw new InvalidInputError(`Frame data has ${frame.data.length} bytes; ${frame.width}×${frame.height}×${frame.channels} needs ${expected}.`);
  if (!(frame.scaleFactor > 0) || !Number.isFinite(frame.scaleFactor))
    throw new InvalidInputError(`Frame scaleFactor ${frame.scaleFactor} must be a finite number > 0.`);
  return frame;
}

export function frameToScreen(frame: Pick<Frame, "scaleFactor" | "origin">, p: Point): Point {
  return [frame.origin[0] + p[0] / frame.scaleFactor, frame.origin[1] + p[1] / frame.scaleFactor];
}

export function screenToFrame(frame: Pick<Frame, "scaleFactor" | "origin">, p: Point): Point {
  return [(p[0] - frame.origin[0]) * frame.scaleFactor, (p[1] - frame.origin[1]) * frame.scaleFactor];
}

export function bboxFrameToScreen(frame: Pick<Frame, "scaleFactor" | "origin">, b: BBox): BBox {
  const [x1, y1] = frameToScreen(frame, [b[0], b[1]]);
  const [x2, y2] = frameToScreen(frame, [b[2], b[3]]);
  return [x1, y1, x2, y2];
}

export function bboxScreenToFrame(frame: Pick<Frame, "scaleFactor" | "origin">, b: BBox): BBox {
  const [x1, y1] = screenToFrame(frame, [b[0], b[1]]);
  const [x2, y2] = screenToFrame(frame, [b[2], b[3]]);
  return [x1, y1, x2, y2];
}

/** The pixels of `b` (frame pixels, rounded outwards) as a new frame that keeps the screen mapping. */
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
