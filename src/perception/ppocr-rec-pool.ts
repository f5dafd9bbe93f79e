// Line recognition on worker threads. onnxruntime-node runs a session's inference on the thread
// that calls it, so two sessions on the main thread take turns; two workers with one
// onnxruntime thread each read two lines at once. Measured on 120 line crops of screen widths,
// 2 cores: 1916 ms with two workers against 2338 ms for one session with two threads.
//
// The worker's code is evaluated from a string, so the same pool runs from the compiled CLI,
// under tsx and under vitest; it loads onnxruntime-node from the path the caller resolved.
import { Worker } from "node:worker_threads";
import { cpuSessionOptions } from "../core/onnx-runtime.js";

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

const WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const bestPerStep = ${bestPerStep.toString()};
const ort = require(workerData.ort);
ort.InferenceSession.create(workerData.model, workerData.options).then((s) => {
  parentPort.on("message", ({ id, buf, dims }) => {
    s.run({ [s.inputNames[0]]: new ort.Tensor("float32", new Float32Array(buf), dims) }).then((out) => {
      const t = out[s.outputNames[0]];
      const { best, prob } = bestPerStep(t.data, t.dims[t.dims.length - 1]);
      parentPort.postMessage({ id, best, prob, dims: t.dims }, [best.buffer, prob.buffer]);
    }, (e) => parentPort.postMessage({ id, error: String((e && e.message) || e) }));
  });
  parentPort.postMessage({ ready: true });
}, (e) => parentPort.postMessage({ fatal: String((e && e.message) || e) }));
`;

interface Job {
  resolve(out: RecOutput): void;
  reject(e: Error): void;
}

interface Slot {
  readonly worker: Worker;
  readonly jobs: Map<number, Job>;
}

/** A fixed set of recognizer workers; a failed worker fails its jobs and leaves the pool. */
export class RecognizerPool {
  private nextId = 0;
  private constructor(private readonly slots: Slot[]) {}

  /**
   * Starts `size` workers on the model (a file, or its bytes, copied to each worker); undefined when none can start (the
   * caller reads in-process). `options` are the sessions' (one onnxruntime thread each by default); only the first
   * worker writes an `optimizedModelFilePath` (onnx-cache.ts).
   */
  static async start(ortPath: string, model: string | Uint8Array, size: number, options: Record<string, unknown> = {}): Promise<RecognizerPool | undefined> {
    const base: Record<string, unknown> = { ...cpuSessionOptions(1), ...options };
    const { optimizedModelFilePath: _written, ...others } = base;
    const started = await Promise.all(
      Array.from({ length: size }, (_, i) =>
        new Promise<Slot | undefined>((resolve) => {
          let worker: Worker;
          try {
            worker = new Worker(WORKER, { eval: true, workerData: { ort: ortPath, model, options: i === 0 ? base : others } });
          } catch {
            resolve(undefined);
            return;
          }
          const fail = () => {
            void worker.terminate();
            resolve(undefined);
          };
          worker.once("error", fail);
          worker.once("message", (m: { ready?: boolean; fatal?: string }) => {
            worker.off("error", fail);
            if (!m.ready) return fail();
            worker.unref();
            resolve({ worker, jobs: new Map() });
          });
        }),
      ),
    );
    const slots = started.filter((s): s is Slot => s !== undefined);
    if (!slots.length) return undefined;
    const pool = new RecognizerPool(slots);
    for (const slot of slots) pool.listen(slot);
    return pool;
  }

  get size(): number {
    return this.slots.length;
  }

  private listen(slot: Slot): void {
    slot.worker.on("message", (m: { id: number; best?: Int32Array; prob?: Float32Array; dims?: number[]; error?: string }) => {
      const job = slot.jobs.get(m.id);
      if (!job) return;
      slot.jobs.delete(m.id);
      if (!slot.jobs.size) slot.worker.unref();
      if (m.error !== undefined || !m.best || !m.prob || !m.dims) job.reject(new Error(`line recognition failed in a worker: ${m.error ?? "no output"}`));
      else job.resolve({ best: m.best, prob: m.prob, dims: m.dims });
    });
    const drop = (why: string) => {
      const k = this.slots.indexOf(slot);
      if (k >= 0) this.slots.splice(k, 1);
      for (const job of slot.jobs.values()) job.reject(new Error(`the line recognition worker stopped: ${why}`));
      slot.jobs.clear();
    };
    slot.worker.on("error", (e) => drop(e.message));
    slot.worker.on("exit", (code) => drop(`exit code ${code}`));
  }

  /** Runs the recognizer on one input tensor (its buffer is handed over to the worker). */
  run(input: Float32Array, dims: readonly number[]): Promise<RecOutput> {
    const slot = this.slots.reduce<Slot | undefined>((best, s) => (!best || s.jobs.size < best.jobs.size ? s : best), undefined);
    if (!slot) return Promise.reject(new Error("no line recognition worker is running"));
    const id = this.nextId++;
    return new Promise<RecOutput>((resolve, reject) => {
      slot.jobs.set(id, { resolve, reject });
      // Held while it has work, so a caller awaiting it keeps the process alive.
      slot.worker.ref();
      slot.worker.postMessage({ id, buf: input.buffer, dims }, [input.buffer as ArrayBuffer]);
    });
  }

  async close(): Promise<void> {
    const slots = this.slots.splice(0);
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }
}
