import type { Frame } from "../frame.js";
import type { BBox } from "../geometry.js";

/** What to capture. Regions and window ids are in screen coordinates / the platform's window ids. */
export type CaptureTarget = { kind: "screen" } | { kind: "window"; windowId: string } | { kind: "region"; bbox: BBox };

export interface ScreenSource {
  readonly name: string;
  /** Captures the target as an RGBA frame whose `origin` and `scaleFactor` place it on screen. */
  capture(target: CaptureTarget, signal?: AbortSignal): Promise<Frame>;
  close(): Promise<void>;
}
