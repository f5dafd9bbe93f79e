// PNG in and out of Frames (sharp / libvips). Typed errors for corrupt, truncated or huge images.
import type { Metadata } from "sharp";
import { readBoundedFile } from "../core/bounded-read.js";
import { InvalidInputError } from "../core/errors.js";
import { makeFrame, type Frame } from "../core/frame.js";

/** sharp (libvips), loaded on first use: a command that hands its image to the detection daemon never loads it. */
const loadSharp = async () => (await import("sharp")).default;

/** Largest image accepted (pixels): 8K × 8K. Larger inputs are refused before decoding. */
export const MAX_IMAGE_PIXELS = 8192 * 8192;

/** Largest image file read (bytes): a compressed 8K × 8K screenshot is far below. */
export const MAX_IMAGE_FILE_BYTES = 256 * 1048576;

export interface DecodeOptions {
  scaleFactor?: number;
  origin?: readonly [number, number];
  maxPixels?: number;
}

/** Decodes PNG/JPEG/WebP bytes to an RGBA frame. `source` names the input in errors. */
export async function decodeImage(bytes: Uint8Array, source: string, opts: DecodeOptions = {}): Promise<Frame> {
  if (bytes.length === 0) throw new InvalidInputError(`${source}: the file is empty (0 bytes); expected a PNG image.`, { details: { source } });
  const maxPixels = opts.maxPixels ?? MAX_IMAGE_PIXELS;
  const sharp = await loadSharp();
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch (e) {
    throw new InvalidInputError(`${source}: not a readable image (${(e as Error).message}).`, { cause: e, details: { source } });
  }
  const w = meta.width ?? 0;
  const h = meta.height ?? 0;
  if (w * h > maxPixels)
    throw new InvalidInputError(`${source}: ${w}×${h} is larger than the ${maxPixels.toLocaleString("en")} pixel limit; crop or downscale it first.`, { details: { source, width: w, height: h } });
  try {
    const { data, info } = await sharp(bytes, { limitInputPixels: maxPixels, failOn: "error" }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    return makeFrame({ data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height, channels: 4, scaleFactor: opts.scaleFactor ?? 1, origin: opts.origin ?? [0, 0] });
  } catch (e) {
    throw new InvalidInputError(`${source}: the image is corrupt or truncated (${(e as Error).message}).`, { cause: e, details: { source } });
  }
}

export async function readImageFile(path: string, opts: DecodeOptions = {}): Promise<Frame> {
  return decodeImage(await readBoundedFile(path, MAX_IMAGE_FILE_BYTES), path, opts);
}

/** Encodes a frame as PNG. */
export async function encodePng(frame: Frame, opts: { compressionLevel?: number } = {}): Promise<Buffer> {
  const sharp = await loadSharp();
  return sharp(frame.data, { raw: { width: frame.width, height: frame.height, channels: frame.channels } })
    .png({ compressionLevel: opts.compressionLevel ?? 6 })
    .toBuffer();
}
