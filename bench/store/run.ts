// Storage bench: element lookup by id, insert throughput, database size, kNN latency and recall@10
// (exact and approximate), on SQLite and PostgreSQL.
// Run: npm run bench -- store            (100k elements, 100k vectors × 512)
//      RPAV_BENCH_VECTORS=1000000 npm run bench -- store   (adds the 1M-vector figures; long)
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Store } from "../../src/core/providers/store.js";
import type { UIElement } from "../../src/core/schemas/uielement.js";
import { clusterDown, clusterUp } from "../../src/store/postgres-cluster.js";
import { PostgresStore } from "../../src/store/postgres-store.js";
import { SqliteStore } from "../../src/store/sqlite-store.js";
import { defaultExpansionSearch, VectorSearch } from "../../src/store/vector-search.js";
import { percentile, round, writeResult } from "../lib.js";

const ELEMENTS = Number(process.env.RPAV_BENCH_ELEMENTS ?? 100_000);
const VECTOR_SIZES = [100_000, ...(process.env.RPAV_BENCH_VECTORS ? [Number(process.env.RPAV_BENCH_VECTORS)] : [])];
const DIM = 512;
const QUERIES = Number(process.env.RPAV_BENCH_QUERIES ?? 200);
/** usearch search breadth; unset: the product default (defaultExpansionSearch, by index size). */
const EXPANSION = process.env.RPAV_BENCH_EXPANSION ? Number(process.env.RPAV_BENCH_EXPANSION) : undefined;
const QUANTIZATIONS = (process.env.RPAV_BENCH_QUANT ?? "f16,i8").split(",") as Array<"f16" | "i8">;
const backends = (process.env.RPAV_BENCH_BACKENDS ?? "sqlite,postgres").split(",");

function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Clustered unit vectors (a mixture of 1000 Gaussians), closer to real embeddings than uniform noise. */
function vectorSource(seed: number) {
  const r = rng(seed);
  const gauss = () => Math.sqrt(-2 * Math.log(r() + 1e-12)) * Math.cos(2 * Math.PI * r());
  const centres = Array.from({ length: 1000 }, () => Float32Array.from({ length: DIM }, gauss));
  return () => {
    const c = centres[Math.floor(r() * centres.length)] as Float32Array;
    const v = Float32Array.from(c, (x) => x + 0.6 * gauss());
    let n = 0;
    for (const x of v) n += x * x;
    n = Math.sqrt(n);
    return v.map((x) => x / n);
  };
}

const example = JSON.parse(readFileSync(new URL("../../examples/design/uielement-example.json", import.meta.url), "utf8")) as UIElement;
const stats = (ms: number[]) => {
  const s = [...ms].sort((a, b) => a - b);
  return { p50_ms: round(percentile(s, 50), 4), p99_ms: round(percentile(s, 99), 4), mean_ms: round(s.reduce((a, b) => a + b, 0) / s.length, 4) };
};

async function benchBackend(name: string, store: Store, sizeBytes: () => Promise<number> | number) {
  const log = (m: string) => console.log(`[${name}] ${m}`);
  // Elements.
  let t0 = performance.now();
  const batch = 1000;
  for (let b = 0; b < ELEMENTS / batch; b++) {
    await store.transaction(async () => {
      for (let i = 0; i < batch; i++) {
        const k = b * batch + i;
        await store.putElement({ ...example, element_id: `el_${k}`, label: `Bouton ${k}`, bbox: [k % 1900, k % 1000, (k % 1900) + 80, (k % 1000) + 30] });
      }
    });
  }
  const elementInsertPerS = ELEMENTS / ((performance.now() - t0) / 1000);
  log(`${ELEMENTS} elements inserted: ${Math.round(elementInsertPerS)}/s`);
  const r = rng(7);
  const lookups: number[] = [];
  for (let i = 0; i < 20_000; i++) {
    const id = `el_${Math.floor(r() * ELEMENTS)}`;
    const t = performance.now();
    const el = await store.getElement(id);
    lookups.push(performance.now() - t);
    if (!el) throw new Error(`lookup of ${id} failed`);
  }
  const lookup = stats(lookups);
  log(`element lookup by id at ${ELEMENTS}: p50 ${lookup.p50_ms} ms, p99 ${lookup.p99_ms} ms`);

  const vectors: Record<string, unknown>[] = [];
  for (const n of VECTOR_SIZES) {
    const provider = `bench_${n}`;
    const next = vectorSource(n);
    t0 = performance.now();
    const chunk = 2000;
    for (let i = 0; i < n; i += chunk) {
      const rows = Array.from({ length: Math.min(chunk, n - i) }, (_, j) => ({ vectorId: `v${i + j}`, provider, vector: next() }));
      await store.putVectors(rows);
      if ((i / chunk) % 50 === 0) process.stdout.write(`\r[${name}] inserting vectors ${i}/${n}`);
    }
    const vecInsertPerS = n / ((performance.now() - t0) / 1000);
    process.stdout.write("\n");
    log(`${n} vectors × ${DIM} inserted: ${Math.round(vecInsertPerS)}/s`);
    const queries = Array.from({ length: QUERIES }, () => next());
    const result: Record<string, unknown> = { vectors: n, dimensions: DIM, insert_per_s: Math.round(vecInsertPerS) };
    // Exact: brute force in process (the ground truth for recall).
    t0 = performance.now();
    const exact = new VectorSearch(store, { kind: "exact" });
    await exact.refresh(provider);
    const exactBuild = (performance.now() - t0) / 1000;
    const truth: string[][] = [];
    const exactMs: number[] = [];
    for (const q of queries) {
      const t = performance.now();
      truth.push((await exact.search(provider, q, 10)).map((h) => h.id));
      exactMs.push(performance.now() - t);
    }
    result.exact = { load_s: round(exactBuild, 1), ...stats(exactMs) };
    log(`exact kNN@10 at ${n}: load ${round(exactBuild, 1)} s, p50 ${stats(exactMs).p50_ms} ms`);
    for (const quantization of QUANTIZATIONS) {
      const dir = mkdtempSync(join(tmpdir(), "rpav-bench-idx-"));
      t0 = performance.now();
      const approx = new VectorSearch(store, { kind: "approximate", indexDir: dir, usearch: { quantization, expansionSearch: EXPANSION } });
      await approx.refresh(provider);
      const build = (performance.now() - t0) / 1000;
      const ms: number[] = [];
      let hit = 0;
      for (const [qi, q] of queries.entries()) {
        const t = performance.now();
        const got = (await approx.search(provider, q, 10)).map((h) => h.id);
        ms.push(performance.now() - t);
        const want = new Set(truth[qi]);
        hit += got.filter((id) => want.has(id)).length;
      }
      // Reopen from the persisted file: no rebuild.
      t0 = performance.now();
      const reopened = await new VectorSearch(store, { kind: "approximate", indexDir: dir, usearch: { quantization, expansionSearch: EXPANSION } }).refresh(provider);
      const reload = (performance.now() - t0) / 1000;
      const recall = hit / (QUERIES * 10);
      result[`usearch_${quantization}`] = { expansion_search: EXPANSION ?? defaultExpansionSearch(n), build_s: round(build, 1), reload_s: round(reload, 2), rebuilt_on_reload: reopened.rebuilt, recall_at_10: round(recall, 4), ...stats(ms) };
      log(`usearch ${quantization} kNN@10 at ${n}: build ${round(build, 1)} s, p50 ${stats(ms).p50_ms} ms, p99 ${stats(ms).p99_ms} ms, recall@10 ${round(recall, 3)}, reload ${round(reload, 2)} s`);
      rmSync(dir, { recursive: true, force: true });
    }
    vectors.push(result);
  }
  const size = await sizeBytes();
  log(`database size: ${round(size / 1048576, 1)} MiB`);
  return { element_insert_per_s: Math.round(elementInsertPerS), element_lookup: lookup, vectors, db_size_mib: round(size / 1048576, 1) };
}

const results: Record<string, unknown> = { elements: ELEMENTS };
if (backends.includes("sqlite")) {
  const dir = mkdtempSync(join(tmpdir(), "rpav-bench-sqlite-"));
  const store = SqliteStore.open(dir);
  try {
    results.sqlite = await benchBackend("sqlite", store, () => {
      store.checkpoint();
      return store.sizeBytes();
    });
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
if (backends.includes("postgres")) {
  const cluster = { dir: "/tmp/rpav-bench-pg", port: 54332 };
  const url = await clusterUp(cluster);
  const store = await PostgresStore.open(url, { schema: `bench_${process.pid}` });
  try {
    results.postgres = await benchBackend("postgres", store, () => store.sizeBytes());
  } finally {
    await store.dropSchema();
    await store.close();
    await clusterDown(cluster);
  }
}
writeResult(process.env.RPAV_BENCH_NAME ?? "store", results);
