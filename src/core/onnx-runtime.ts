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
