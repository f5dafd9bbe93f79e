import type { Frame } from "../frame.js";
import type { Vector } from "../vectors.js";

/** Turns a frame (a screen, a window, an element crop) into a fixed-dimension vector. */
export interface ImageEmbedder {
  /** Provider name stored next to every vector it makes ("layout_v1", "clip-onnx:<model>"). */
  readonly name: string;
  readonly dimensions: number;
  embed(frame: Frame, signal?: AbortSignal): Promise<Vector>;
}

/** Turns text into a fixed-dimension vector. */
export interface TextEmbedder {
  readonly name: string;
  readonly dimensions: number;
  embed(text: string, signal?: AbortSignal): Promise<Vector>;
}
