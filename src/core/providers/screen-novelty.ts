// Is this screen new? The design's `_should_use_vlm` / `_is_new_screen`: costly model calls (region
// proposals) are made only for a screen whose state embedding matches nothing stored.
import type { Frame } from "../frame.js";
import type { UIElementEntry } from "../schemas/uielement.js";

export interface ScreenNoveltyInput {
  readonly frame: Frame;
  readonly windowTitle?: string;
  readonly appName?: string;
  readonly detectedText: readonly string[];
  /** The detected text lines with their boxes (frame pixels), as perception's text_boxes. */
  readonly textBoxes?: ReadonlyArray<{ readonly text: string; readonly bbox: readonly [number, number, number, number] }>;
  readonly elements: readonly UIElementEntry[];
}

export interface ScreenNovelty {
  /** true: no stored state is as near as `minCosine`. */
  readonly novel: boolean;
  /** The nearest stored state vector, null when nothing is stored. */
  readonly nearest: { readonly id: string; readonly cosine: number } | null;
  readonly minCosine: number;
  /** How many stored states the search could see (for people: "0 stored" explains a novel screen). */
  readonly stored: number;
}

export interface ScreenNoveltyCheck {
  readonly name: string;
  check(input: ScreenNoveltyInput, signal?: AbortSignal): Promise<ScreenNovelty>;
}
