// Approximate nearest neighbours with usearch (HNSW, prebuilt native module), cosine metric.
// Keys are sequence numbers; the id table travels with the index file.
import { readFileSync, renameSync } from "node:fs";
import { writeFileAtomicSync } from "../core/atomic-write.js";
import { Index, MetricKind, ScalarKind } from "usearch";
import { ProviderUnavailableError, VectorError } from "../core/errors.js";
import type { VectorHit, VectorIndex } from "../core/providers/vector-index.js";
import { assertDimension, type Vector } from "../core/vectors.js";

export type UsearchQuantization = "f32" | "f16" | "i8";

export interface UsearchOptions {
  quantization?: UsearchQuantization;
  connectivity?: number;
  expansionAdd?: number;
  expansionSearch?: number;
}

export class UsearchVectorIndex implements VectorIndex {
  readonly kind = "approximate" as const;
  private index: Index;
  private ids: string[] = [];

  constructor(
    readonly dimensions: number,
    private readonly opts: UsearchOptions = {},
  ) {
    this.index = UsearchVectorIndex.create(dimensions, opts);
  }

  private static create(dimensions: number, opts: UsearchOptions): Index {
    try {
      const quant = { f32: ScalarKind.F32, f16: ScalarKind.F16, i8: ScalarKind.I8 }[opts.quantization ?? "f16"];
      return new Index(dimensions, MetricKind.Cos, quant, opts.connectivity ?? 16, opts.expansionAdd ?? 128, opts.expansionSearch ?? 96, false);
    } catch (e) {
      throw new ProviderUnavailableError(`usearch could not create an index (${(e as Error).message}); reinstall the usearch package.`, { cause: e });
    }
  }

  get size(): number {
    return this.ids.length;
  }

  add(id: string, vector: Vector): void {
    assertDimension(vector, this.dimensions, `vector ${id}`);
    this.index.add(BigInt(this.ids.length), vector);
    this.ids.push(id);
  }

  /** Adds many vectors at once (usearch parallelises batch inserts). */
  addBatch(ids: readonly string[], matrix: Float32Array): void {
    if (matrix.length !== ids.length * this.dimensions) throw new VectorError(`Batch of ${ids.length} ids needs ${ids.length * this.dimensions} values, got ${matrix.length}.`);
    const keys = new BigUint64Array(ids.length);
    for (let i = 0; i < ids.length; i++) keys[i] = BigInt(this.ids.length + i);
    this.index.add(keys, matrix);
    for (const id of ids) this.ids.push(id); // not push(...ids): a million arguments overflow the stack
  }

  search(query: Vector, k: number): VectorHit[] {
    assertDimension(query, this.dimensions, "query");
    if (this.ids.length === 0) return [];
    const r = this.index.search(query, Math.min(k, this.ids.length), 0);
    const out: VectorHit[] = [];
    for (let i = 0; i < r.keys.length; i++) out.push({ id: this.ids[Number(r.keys[i])] as string, score: 1 - (r.distances[i] as number) });
    return out;
  }

  /** Writes `<path>` (usearch) and `<path>.ids.json`, each atomically. */
  save(path: string): void {
    this.index.save(`${path}.tmp`);
    renameSync(`${path}.tmp`, path);
    writeFileAtomicSync(`${path}.ids.json`, JSON.stringify(this.ids));
  }

  static load(path: string, dimensions: number, opts: UsearchOptions = {}): UsearchVectorIndex {
    const idx = new UsearchVectorIndex(dimensions, opts);
    idx.index.load(path);
    idx.ids = JSON.parse(readFileSync(`${path}.ids.json`, "utf8")) as string[];
    if (Number(idx.index.size()) !== idx.ids.length) throw new VectorError(`Index ${path} holds ${idx.index.size()} vectors but its id table ${idx.ids.length}.`);
    return idx;
  }
}
