// Optimised graphs kept between runs. onnxruntime optimises a graph each time a session is
// created (level "all": ≈ 180 ms for each PP-OCR model on 2 cores, most of a session's start);
// the optimised graph can be written once and loaded next time with optimisation off (≈ 60 ms),
// giving the same outputs. Level "all" lays the graph out for this processor, so the file is
// keyed by the model's bytes, onnxruntime's version and the processor; a file that does not load
// is removed and the model optimised again.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { markUsed } from "../core/kept-files.js";
import { createRequire } from "node:module";
import { arch, cpus } from "node:os";
import { join } from "node:path";
import type { InferenceSession } from "onnxruntime-node";
import type { Ort } from "../core/onnx-runtime.js";

/** Where a model's optimised graph is kept in `cacheDir`. */
export function optimizedGraphFile(cacheDir: string, model: Uint8Array, name: string): string {
  const key = createHash("sha256")
    .update(model)
    .update(`\0${ortVersion()}\0${arch()}\0${cpus()[0]?.model ?? "?"}`)
    .digest("hex")
    .slice(0, 20);
  return join(cacheDir, `${name}-${key}.ort.onnx`);
}

let version: string | undefined;
function ortVersion(): string {
  if (version === undefined) {
    try {
      version = (createRequire(import.meta.url)("onnxruntime-node/package.json") as { version: string }).version;
    } catch {
      version = "unknown";
    }
  }
  return version;
}

/** How to create a session: from the kept graph when there is one, else from the model, writing the graph for next time. */
export interface KeptGraphPlan {
  /** The kept graph's path (optimisation off), or the model's bytes. */
  readonly source: string | Uint8Array;
  readonly options: InferenceSession.SessionOptions;
  /** Renames the graph just written into place (nothing when none was written). */
  keep(): void;
  /** Removes a kept graph that did not load; the caller then creates the session from the model. */
  discard(): void;
}

export function planKeptGraph(model: Uint8Array, options: InferenceSession.SessionOptions, cacheDir: string | undefined, name: string): KeptGraphPlan {
  const none = { source: model, options, keep: () => undefined, discard: () => undefined };
  if (!cacheDir) return none;
  const file = optimizedGraphFile(cacheDir, model, name);
  if (existsSync(file)) {
    markUsed(file);
    return { source: file, options: { ...options, graphOptimizationLevel: "disabled" }, keep: () => undefined, discard: () => rmSync(file, { force: true }) };
  }
  try {
    mkdirSync(cacheDir, { recursive: true });
  } catch {
    return none; // a read-only disk: no graph kept
  }
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  return {
    source: model,
    // Severity 3: onnxruntime's warning that the graph is for this processor, which the key accounts for.
    options: { ...options, optimizedModelFilePath: tmp, logSeverityLevel: 3 },
    keep: () => {
      try {
        if (existsSync(tmp)) renameSync(tmp, file);
      } catch {
        rmSync(tmp, { force: true });
      }
    },
    discard: () => rmSync(tmp, { force: true }),
  };
}

/** A session on `model`, through the kept optimised graph in `cacheDir` when there is one. */
export async function createKeptSession(ort: Ort, model: Uint8Array, options: InferenceSession.SessionOptions, cacheDir: string | undefined, name: string): Promise<InferenceSession> {
  const plan = planKeptGraph(model, options, cacheDir, name);
  try {
    const session = typeof plan.source === "string" ? await ort.InferenceSession.create(plan.source, plan.options) : await ort.InferenceSession.create(plan.source, plan.options);
    plan.keep();
    return session;
  } catch (e) {
    plan.discard();
    if (plan.source === model && !plan.options.optimizedModelFilePath) throw e;
    // The kept graph did not load, or writing it failed: the model itself, as without a cache.
    return ort.InferenceSession.create(model, options);
  }
}
