import type { Vector } from "../vectors.js";

export interface VectorHit {
  id: string;
  /** Cosine similarity in [-1, 1]. */
  score: number;
}

/** Nearest-neighbour search over unit vectors of one dimension. */
export interface VectorIndex {
  readonly kind: "exact" | "approximate";
  readonly dimensions: number;
  readonly size: number;
  add(id: string, vector: Vector): void;
  search(query: Vector, k: number): VectorHit[];
}

/** kNN search over stored vectors of one provider (the store's vector search). */
export interface VectorSearcher {
  search(provider: string, query: Vector, k: number): Promise<VectorHit[]>;
  /** How many vectors of `provider` are stored. */
  count(provider: string): Promise<number>;
}
