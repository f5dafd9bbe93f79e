import type { BBox } from "../geometry.js";
import type { PositionHint } from "../geometry.js";
import type { UIElementType } from "../schemas/uielement.js";

/** What a workflow step expects to find on screen. */
export interface ElementDescriptor {
  type?: UIElementType;
  role?: string;
  /** Visible text; compared by text-embedding similarity. */
  label?: string;
  positionHint?: PositionHint;
}

/** The part of a workflow step that matching needs. Workflows of the recording layer map to it. */
export interface MatchableStep {
  stepId: string;
  /** Unit state embedding recorded for the step, with its provider. */
  expectedEmbedding?: { provider: string; vector: Float32Array };
  /** More recorded embeddings of the same step (zoomed crops: top-left or top band, src/embedding/zoom-pyramid.ts); the best one counts. */
  extraEmbeddings?: Array<{ provider: string; vector: Float32Array; zoom?: number; anchor?: "top-left" | "top" }>;
  expectedWindowTitle?: string;
  requiredElements?: ElementDescriptor[];
  optionalElements?: ElementDescriptor[];
}

export interface MatchableWorkflow {
  workflowId: string;
  steps: MatchableStep[];
}

export type Difference =
  | { kind: "missing_element"; descriptor: ElementDescriptor; closest?: { label: string; type: string; bbox: BBox; similarity: number } }
  | { kind: "wrong_type"; descriptor: ElementDescriptor; found: UIElementType; label: string }
  | { kind: "title_mismatch"; expected: string; actual: string }
  | { kind: "low_state_similarity"; similarity: number; threshold: number }
  | { kind: "no_embedding"; reason: string };

export interface MatchResult {
  ok: boolean;
  method: "element_based" | "legacy";
  workflowId: string;
  stepId: string | null;
  /** In [0, 1]. */
  score: number;
  stateSimilarity: number | null;
  requiredMatched: number;
  requiredTotal: number;
  optionalMatched: number;
  optionalTotal: number;
  /** Why the match failed; on success empty but for an informative title_mismatch (the screen matched, its title changed). */
  differences: Difference[];
}
