// Images for a vision-language model, resized by us to the exact size the model's own processor
// would use, so the coordinates it answers are in a space we know.
//
// Qwen 2.5-VL (Ollama's model/models/qwen25vl/process_image.go, HF's smart_resize): sides become
// multiples of factor 28 (patch 14 × merge 2), rounded half to even; when the pixel count is over
// max_pixels (Ollama: vision.max_pixels = 2,097,152) both sides are floored after dividing by
// sqrt(pixels / max); under min_pixels (56 × 56) they are ceiled after multiplying.
import { createHash } from "node:crypto";
import sharp from "sharp";
import { InvalidInputError } from "../core/errors.js";
import type { Frame } from "../core/frame.js";

export interface ResizeRule {
  readonly factor: number;
  readonly minPixels: number;
  readonly maxPixels: number;
}

export const QWEN25VL_RESIZE: ResizeRule = { factor: 28, minPixels: 56 * 56, maxPixels: 2_097_152 };

/** Round half to even (banker's rounding), as Python's round(). */
export function roundHalfEven(x: number): number {
  const f = Math.floor(x);
  const d = x - f;
  if (Math.abs(d - 0.5) < 1e-9) return f % 2 === 0 ? f : f + 1;
  return Math.round(x);
}

/** The size (width, height) the model's processor turns a width × height image into. */
export function modelImageSize(width: number, height: number, rule: ResizeRule = QWEN25VL_RESIZE): { width: number; height: number } {
  if (!(width > 0 && height > 0)) throw new InvalidInputError(`An image of ${width}×${height} cannot be sent to a model.`);
  if (Math.max(width, height) / Math.min(width, height) > 200)
    throw new InvalidInputError(`A ${width}×${height} image is too elongated for the model (aspect ratio over 200); crop it.`);
  const f = rule.factor;
  let h = Math.max(f, roundHalfEven(height / f) * f);
  let w = Math.max(f, roundHalfEven(width / f) * f);
  if (h * w > rule.maxPixels) {
    const beta = Math.sqrt((height * width) / rule.maxPixels);
    h = Math.max(f, Math.floor(height / beta / f) * f);
    w = Math.max(f, Math.floor(width / beta / f) * f);
  } else if (h * w < rule.minPixels) {
    const beta = Math.sqrt(rule.minPixels / (height * width));
    h = Math.ceil((height * beta) / f) * f;
    w = Math.ceil((width * beta) / f) * f;
  }
  return { width: w, height: h };
}

/** sha256 of a frame's pixels and layout (what the model would see), for cache keys. */
export function frameHash(frame: Frame): string {
  return createHash("sha256").update(`${frame.width}x${frame.height}x${frame.channels};`).update(frame.data).digest("hex");
}

export interface ModelImage {
  /** PNG bytes, exactly `width` × `height`. */
  readonly png: Uint8Array;
  readonly width: number;
  readonly height: number;
}

/** The frame resized (bilinear-ish, libvips) to exactly `size` and encoded as PNG. */
export async function resizeForModel(frame: Frame, size: { width: number; height: number }): Promise<ModelImage> {
  let img = sharp(frame.data, { raw: { width: frame.width, height: frame.height, channels: frame.channels } });
  if (size.width !== frame.width || size.height !== frame.height) img = img.resize(size.width, size.height, { fit: "fill", kernel: "linear" });
  const png = await img.png({ compressionLevel: 3 }).toBuffer();
  return { png: new Uint8Array(png.buffer, png.byteOffset, png.length), width: size.width, height: size.height };
}
