// Shared helpers for benches: timing, percentiles, and the JSON result file.
import { mkdirSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const BENCH_RESULTS = join(dirname(fileURLToPath(import.meta.url)), "results");

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[idx] as number;
}

/** Runs `fn` `iterations` times after `warmup` runs; returns per-call milliseconds, sorted. */
export function timeIt(fn: () => unknown, iterations: number, warmup = Math.min(20, iterations)): number[] {
  for (let i = 0; i < warmup; i++) fn();
  const out: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const t0 = process.hrtime.bigint();
    fn();
    out.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return out.sort((a, b) => a - b);
}

export function summarize(ms: number[]): { median_ms: number; p95_ms: number; p99_ms: number; n: number } {
  return { median_ms: round(percentile(ms, 50)), p95_ms: round(percentile(ms, 95)), p99_ms: round(percentile(ms, 99)), n: ms.length };
}

export function round(v: number, digits = 4): number {
  return Number(v.toFixed(digits));
}

/** Writes `bench/results/<name>.json` with the machine description, and prints where. */
export function writeResult(name: string, result: Record<string, unknown>): string {
  mkdirSync(BENCH_RESULTS, { recursive: true });
  const path = join(BENCH_RESULTS, `${name}.json`);
  const payload = { bench: name, date: new Date().toISOString(), node: process.version, cpus: availableParallelism(), cpu_model: cpus()[0]?.model, ...result };
  writeFileSync(path, `${JSON.stringify(payload, null, 2)}\n`);
  console.log(`\nresult written to ${path}`);
  return path;
}

/**
 * The hybrid's model in a bench as the product composes it — its coarse pass asked apart for fill boxes, not merged — or a
 * variant measured against it: RPAV_BENCH_HYBRID_FILLS=0 (no fill boxes), RPAV_BENCH_HYBRID_COARSE=1 (the pass merged).
 */
export function benchHybridModel(): { coarse: boolean; fills: boolean } {
  return { coarse: process.env.RPAV_BENCH_HYBRID_COARSE === "1", fills: process.env.RPAV_BENCH_HYBRID_FILLS !== "0" };
}
