import type { Frame } from "../frame.js";
import type { BBox } from "../geometry.js";

/** What an icon shows, as probabilities over a fixed list of figures ("save", "help", "arrow_right", … and "other"). */
export type IconScores = Readonly<Record<string, number>>;

/**
 * Names the figure an icon shows from its pixels. One capability; the learned implementation is
 * src/perception/icon-classifier.ts. `boxes` are the icons' ink boxes in frame pixels; the answer
 * has one entry per box, in order.
 */
export interface IconRecognizer {
  readonly classes: readonly string[];
  recognize(frame: Frame, boxes: readonly BBox[], signal?: AbortSignal): Promise<IconScores[]>;
}
