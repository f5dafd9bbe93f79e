// Model inference on worker threads. onnxruntime-node runs a session's inference on the thread that calls it, blocking
// it (microsoft/onnxruntime#19611): two sessions on the main thread take turns, and the main thread's own work waits
// for both. A session on a worker runs beside the main thread and beside other workers. Used for PP-OCR's line
// recognizer (two workers, one onnxruntime thread each: ppocr-rec-pool.ts) and the UI element detector (one worker with
// its two threads, beside the text detector on the main thread: learned-detector.ts).
//
// The worker's code is evaluated from a string, so the same pool runs from the compiled CLI, under tsx and under vitest;
// it loads onnxruntime-node from the path the caller resolved.
import { Worker } from "node:worker_threads";

/** A model output as the worker sends it back. */
export interface WorkerTensor {
  readonly data: Float32Array;
  readonly dims: readonly number[];
}

export interface OnnxWorkersOptions {
  /** onnxruntime-node's resolved path. */
  readonly ortPath: string;
  /** The model: a file, or its bytes (copied to each worker). */
  readonly model: string | Uint8Array;
  readonly size: number;
  /** The sessions' options; only the first worker writes an `optimizedModelFilePath` (onnx-cache.ts). */
  readonly options: Record<string, unknown>;
  /** What the workers do, for error messages ("line recognition"). */
  readonly what: string;
  /**
   * Source of a function `(out, session) => ({ value, transfer })` run in the worker on each run's outputs (what it sends
   * back, and the buffers to hand over); by default every output as a WorkerTensor. `prelude`: source it may use.
   */
  readonly reduce?: string;
  readonly prelude?: string;
}

const workerSource = (prelude: string, reduce: string) => `
const { parentPort, workerData } = require("node:worker_threads");
${prelude}
const reduce = ${reduce};
const ort = require(workerData.ort);
ort.InferenceSession.create(workerData.model, workerData.options).then((s) => {
  parentPort.on("message", ({ id, buf, dims }) => {
    s.run({ [s.inputNames[0]]: new ort.Tensor("float32", new Float32Array(buf), dims) }).then((out) => {
      const { value, transfer } = reduce(out, s);
      parentPort.postMessage({ id, value }, transfer);
    }, (e) => parentPort.postMessage({ id, error: String((e && e.message) || e) }));
  });
  parentPort.postMessage({ ready: true, inputs: s.inputNames, outputs: s.outputNames });
}, (e) => parentPort.postMessage({ fatal: String((e && e.message) || e) }));
`;

const ALL_OUTPUTS = `(out, s) => {
  const value = {};
  const transfer = [];
  for (const k of s.outputNames) {
    value[k] = { data: out[k].data, dims: out[k].dims };
    transfer.push(out[k].data.buffer);
  }
  return { value, transfer };
}`;

interface Job<Out> {
  resolve(out: Out): void;
  reject(e: Error): void;
}

interface Slot<Out> {
  readonly worker: Worker;
  readonly jobs: Map<number, Job<Out>>;
}

/** A fixed set of workers each holding a session of one model; a failed worker fails its jobs and leaves the pool. */
export class OnnxWorkers<Out = Record<string, WorkerTensor>> {
  private nextId = 0;
  private constructor(
    private readonly slots: Slot<Out>[],
    private readonly what: string,
    /** The model's input and output names, as the first worker's session read them. */
    readonly inputNames: readonly string[],
    readonly outputNames: readonly string[],
  ) {}

  /** Starts the workers; undefined when none can start (the caller runs the model in-process). */
  static async start<Out = Record<string, WorkerTensor>>(o: OnnxWorkersOptions): Promise<OnnxWorkers<Out> | undefined> {
    const { optimizedModelFilePath: _written, ...others } = o.options;
    const source = workerSource(o.prelude ?? "", o.reduce ?? ALL_OUTPUTS);
    const started = await Promise.all(
      Array.from({ length: o.size }, (_, i) =>
        new Promise<{ slot: Slot<Out>; inputs: string[]; outputs: string[] } | undefined>((resolve) => {
          let worker: Worker;
          try {
            worker = new Worker(source, { eval: true, workerData: { ort: o.ortPath, model: o.model, options: i === 0 ? o.options : others } });
          } catch {
            resolve(undefined);
            return;
          }
          const fail = () => {
            void worker.terminate();
            resolve(undefined);
          };
          worker.once("error", fail);
          worker.once("message", (m: { ready?: boolean; inputs?: string[]; outputs?: string[] }) => {
            worker.off("error", fail);
            if (!m.ready) return fail();
            worker.unref();
            resolve({ slot: { worker, jobs: new Map() }, inputs: m.inputs ?? [], outputs: m.outputs ?? [] });
          });
        }),
      ),
    );
    const ok = started.filter((s) => s !== undefined);
    if (!ok.length) return undefined;
    const pool = new OnnxWorkers<Out>(
      ok.map((s) => s.slot),
      o.what,
      ok[0]!.inputs,
      ok[0]!.outputs,
    );
    for (const { slot } of ok) pool.listen(slot);
    return pool;
  }

  get size(): number {
    return this.slots.length;
  }

  private listen(slot: Slot<Out>): void {
    slot.worker.on("message", (m: { id: number; value?: Out; error?: string }) => {
      const job = slot.jobs.get(m.id);
      if (!job) return;
      slot.jobs.delete(m.id);
      if (!slot.jobs.size) slot.worker.unref();
      if (m.error !== undefined || m.value === undefined) job.reject(new Error(`${this.what} failed in a worker: ${m.error ?? "no output"}`));
      else job.resolve(m.value);
    });
    const drop = (why: string) => {
      const k = this.slots.indexOf(slot);
      if (k >= 0) this.slots.splice(k, 1);
      for (const job of slot.jobs.values()) job.reject(new Error(`the ${this.what} worker stopped: ${why}`));
      slot.jobs.clear();
    };
    slot.worker.on("error", (e) => drop(e.message));
    slot.worker.on("exit", (code) => drop(`exit code ${code}`));
  }

  /** Runs the model on one input tensor, on the least busy worker (the tensor's buffer is handed over to it). */
  run(input: Float32Array, dims: readonly number[]): Promise<Out> {
    const slot = this.slots.reduce<Slot<Out> | undefined>((best, s) => (!best || s.jobs.size < best.jobs.size ? s : best), undefined);
    if (!slot) return Promise.reject(new Error(`no ${this.what} worker is running`));
    const id = this.nextId++;
    return new Promise<Out>((resolve, reject) => {
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
