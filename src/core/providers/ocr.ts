import type { Frame } from "../frame.js";
import type { BBox } from "../geometry.js";

/** One word as read on screen, in frame pixels. */
export interface OcrWord {
  readonly text: string;
  readonly bbox: BBox;
  /** 0..1 */
  readonly confidence: number;
}

/** One line of text (a run of words the detector found together), in frame pixels. */
export interface OcrLine {
  readonly text: string;
  readonly bbox: BBox;
  readonly confidence: number;
  readonly words: readonly OcrWord[];
  /** True when the text is light on a darker background. */
  readonly inverted?: boolean;
}

export interface OcrResult {
  /** Provider name (and model) that produced the result. */
  readonly provider: string;
  readonly lines: readonly OcrLine[];
  readonly timings: Readonly<Record<string, number>>;
}

/** Reads text and its position from an image. One capability; implementations in src/perception. */
export interface OcrProvider {
  readonly name: string;
  recognize(frame: Frame, signal?: AbortSignal): Promise<OcrResult>;
  /**
   * Optional: reads each box of `frame` as one line, in the same order (text the detector passed
   * over, such as a lone digit in a pager's box). Lines may be empty.
   */
  readBoxes?(frame: Frame, boxes: readonly BBox[], signal?: AbortSignal): Promise<OcrLine[]>;
  /**
   * Optional: the boxes of the text lines `recognize` would read (its detector alone), in frame
   * pixels. With `readBoxes`, `recognize` is reading these boxes and leaving out the empty lines.
   */
  detectBoxes?(frame: Frame, signal?: AbortSignal): Promise<BBox[]>;
}
