import type { Frame } from "../frame.js";
import type { BBox } from "../geometry.js";
import type { UIElementType } from "../schemas/uielement.js";

/** Probabilities (0..1) of an element's states, where the proposer can tell them. */
export interface ElementStateProbabilities {
  readonly checked?: number;
  readonly selected?: number;
  readonly disabled?: number;
}

/** An element a learned detector found: box in frame pixels, type, calibrated confidence. No label (OCR gives it). */
export interface ElementProposal {
  readonly type: UIElementType;
  readonly bbox: BBox;
  /** Calibrated: among proposals given c, about a fraction c are real elements of that type. */
  readonly confidence: number;
  readonly state?: ElementStateProbabilities;
}

/**
 * A model that proposes typed element boxes on a screenshot (src/perception/learned-detector.ts).
 * A missing or unreadable model throws ProviderUnavailableError; an image it cannot take, InvalidInputError.
 */
export interface ElementProposer {
  readonly name: string;
  propose(frame: Frame, signal?: AbortSignal): Promise<ElementProposal[]>;
}
