import type { Frame } from "../frame.js";
import type { BBox } from "../geometry.js";

/** A region a vision-language model points at, in the frame's pixels. */
export interface VlmRegion {
  readonly bbox: BBox;
  /** One of the eight element types when the model says so. */
  readonly type?: string;
  readonly label?: string;
  readonly confidence?: number;
}

/**
 * A vision-language model (Ollama, an OpenAI-compatible server…). Implementations live in
 * src/vlm; perception only asks for region proposals. Unreachable or missing models throw
 * ProviderUnavailableError: callers then fall back to heuristics (design fallback 2).
 */
export interface VlmClient {
  readonly name: string;
  proposeRegions(frame: Frame, signal?: AbortSignal): Promise<readonly VlmRegion[]>;
}

/** What a model answer was, for the trace: which model, which prompt, what it said (untrusted text). */
export interface VlmEvidence {
  readonly model: string;
  readonly prompt_hash: string;
  readonly raw_answer: string;
  readonly cached: boolean;
  /** The detected element the model's box was snapped to, if any. */
  readonly snapped_to?: string;
  /** Size of the image the model was sent (its coordinates' space before mapping back). */
  readonly image_size?: readonly [number, number];
}

/** A point or box a vision-language model gives for a described target ("the Save button"). */
export interface VlmGrounding {
  /** Frame pixels. */
  readonly bbox: BBox;
  readonly confidence: number;
  readonly evidence?: VlmEvidence;
}

/** What the caller already perceived on the frame: detected elements (frame pixels) to snap to. */
export interface VlmGroundingContext {
  readonly elements?: readonly { readonly element_id: string; readonly bbox: BBox | readonly [number, number, number, number] }[];
}

/**
 * Grounding by a vision-language model (plan, MICRO: qwen2.5vl bbox_2d): the last resort of
 * replay after element matching and icon templates. Returns undefined when the model sees no such
 * target; throws ProviderUnavailableError when unreachable (replay then fails the step as not found).
 */
export interface VlmGrounder {
  readonly name: string;
  ground(frame: Frame, description: string, signal?: AbortSignal, context?: VlmGroundingContext): Promise<VlmGrounding | undefined>;
}
