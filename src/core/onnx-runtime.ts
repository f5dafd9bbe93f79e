// Loading onnxruntime-node safely.
//
// When it creates its environment (the first InferenceSession), onnxruntime's POSIX telemetry
// matches regular expressions against the process command line (/proc/self/cmdline). GCC's
// std::regex backtracks recursively, so a command line of about 29,000 bytes or more (one
// long `--title`, `locate` instruction or `--var`, or many short arguments) overflows the stack
// and the process dies with SIGSEGV. Setting ORT_DISABLE_TELEMETRY before the environment is
// created skips that code path: the command line never reaches the native library's start-up.
// (Same crash and fix: vespa-engine/vespa pull request #37786.) The variable is read with
// getenv() in the main thread's process environment, so every loader goes through here.
import { createRequire } from "node:module";
import type * as OrtModule from "onnxruntime-node";
import { ProviderUnavailableError } from "./errors.js";

export type Ort = typeof OrtModule;

/** The environment variable that keeps onnxruntime from reading the command line at start-up. */
export const ORT_TELEMETRY_ENV = "ORT_DISABLE_TELEMETRY";

/** Imports onnxruntime-node with its telemetry off; a missing package is a typed error. */
export async function loadOnnxRuntime(): Promise<Ort> {
  process.env[ORT_TELEMETRY_ENV] = "1";
  try {
    return (await import("onnxruntime-node")) as Ort;
  } catch (e) {
    throw new ProviderUnavailableError("onnxruntime-node is not installed: npm install onnxruntime-node (with ONNXRUNTIME_NODE_INSTALL=skip).", { cause: e });
  }
}

/** Where onnxruntime-node is installed: what worker threads load (onnx-workers.ts), the same package as this process. */
export function onnxRuntimePath(): string {
  return createRequire(import.meta.url).resolve("onnxruntime-node");
}

/**
 * Options of every CPU session the product creates: `threads` intra-op threads, nodes run one after another, the graph
 * fully optimised, and **no spinning**. By default a pool thread out of work spins for a while before it sleeps, which
 * costs nothing on an idle machine; here the text detector, the element model and the line readers run side by side
 * on two cores, and spinning threads take the cores from the others' work (measured: the element model alone on a
 * 1920×1088 frame, 2 threads, 225–238 → 200–206 ms of CPU per run at the same wall time; a whole hybrid detection 3–12 %
 * less CPU, its wall time the same within the machine's drift). Results are the same: only how idle threads wait.
 */
export function cpuSessionOptions(threads: number): OrtModule.InferenceSession.SessionOptions {
  return { intraOpNumThreads: threads, interOpNumThreads: 1, graphOptimizationLevel: "all", extra: { session: { intra_op: { allow_spinning: "0" }, inter_op: { allow_spinning: "0" } } } };
}
