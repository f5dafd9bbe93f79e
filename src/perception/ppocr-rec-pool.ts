// Line recognition on worker threads (onnx-workers.ts): two workers with one onnxruntime thread each read two lines at
// once. Measured on 120 line crops of screen widths, 2 cores: 1916 ms with two workers against 2338 ms for one session
// with two threads. Each worker sends back each CTC step's best class only.
import { cpuSessionOptions } from "../core/onnx-runtime.js";
import { OnnxWorkers } from "./onnx-workers.js";

/** The recognizer's CTC output [n, T, C] reduced to each time step's best class and its probability. */
export interface RecOutput {
  readonly best: Int32Array;
  readonly prob: Float32Array;
  readonly dims: readonly number[];
}

/**
 * Each time step's best class of a CTC output (rows of `classes` probabilities). Runs in the
 * workers too (its source is put into theirs), so it uses nothing from outside its body.
 */
export function bestPerStep(probs: Float32Array, classes: number): { best: Int32Array; prob: Float32Array } {
  const steps = Math.floor(probs.length / classes);
  const best = new Int32Array(steps);
  const prob = new Float32Array(steps);
  for (let t = 0; t < steps; t++) {
    const off = t * classes;
    let b = 0;
    let bp = probs[off]!;
    for (let c = 1; c < classes; c++) {
      const v = probs[off + c]!;
      if (v > bp) {
        bp = v;
        b = c;
      }
    }
    best[t] = b;
    prob[t] = bp;
  }
  return { best, prob };
}

/** The workers' reduction of a CTC output to its best classes (bestPerStep is put into their source). */
const REDUCE = `(out, s) => {
  const t = out[s.outputNames[0]];
  const { best, prob } = bestPerStep(t.data, t.dims[t.dims.length - 1]);
  return { value: { best, prob, dims: t.dims }, transfer: [best.buffer, prob.buffer] };
}`;

/** A fixed set of recognizer workers; a failed worker fails its jobs and leaves the pool. */
export type RecognizerPool = OnnxWorkers<RecOutput>;

export const RecognizerPool = {
  /**
   * Starts `size` workers on the model (a file, or its bytes, copied to each worker); undefined when none can start (the
   * caller reads in-process). `options` are the sessions' (one onnxruntime thread each by default); only the first
   * worker writes an `optimizedModelFilePath` (onnx-cache.ts).
   */
  start(ortPath: string, model: string | Uint8Array, size: number, options: Record<string, unknown> = {}): Promise<RecognizerPool | undefined> {
    return OnnxWorkers.start<RecOutput>({ ortPath, model, size, options: { ...cpuSessionOptions(1), ...options }, what: "line recognition", prelude: `const bestPerStep = ${bestPerStep.toString()};`, reduce: REDUCE });
  },
};
