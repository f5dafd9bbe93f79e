// Line recognition on worker threads. onnxruntime-node runs a session's inference on the thread
// that calls it, so two sessions on the main thread take turns; two workers with one
// onnxruntime thread each read two lines at once. Measured on 120 line crops of screen widths,
// 2 cores: 1916 ms with two workers against 2338 ms for one session with two threads.
//
// The worker's code is evaluated from a string, so the same pool runs from the compiled CLI,
// under tsx and under vitest; it loads onnxruntime-node from the path the caller resolved.
import { Worker } from "node:worker_threads";

export interface RecOutput {
  readonly data: Float32Array;
  readonly dims: readonly number[];
}

const WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const ort = require(workerData.ort);
ort.InferenceSession.create(workerData.model, { intraOpNumThreads: 1, interOpNumThreads: 1, graphOptimizationLevel: "all" }).then((s) => {
  parentPort.on("message", ({ id, buf, dims }) => {
    s.run({ [s.inputNames[0]]: new ort.Tensor("float32", new Float32Array(buf), dims) }).then((out) => {
      const t = out[s.outputNames[0]];
      const data = new Float32Array(t.data);
      parentPort.postMessage({ id, buf: data.buffer, dims: t.dims }, [data.buffer]);
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

  /** Starts `size` workers on the model; undefined when none can start (the caller reads in-process). */
  static async start(ortPath: string, modelFile: string, size: number): Promise<RecognizerPool | undefined> {
    const started = await Promise.all(
      Array.from({ length: size }, () =>
        new Promise<Slot | undefined>((resolve) => {
          let worker: Worker;
          try {
            worker = new Worker(WORKER, { eval: true, workerData: { ort: ortPath, model: modelFile } });
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
    slot.worker.on("message", (m: { id: number; buf?: ArrayBuffer; dims?: number[]; error?: string }) => {
      const job = slot.jobs.get(m.id);
      if (!job) return;
      slot.jobs.delete(m.id);
      if (!slot.jobs.size) slot.worker.unref();
      if (m.error !== undefined || !m.buf || !m.dims) job.reject(new Error(`line recognition failed in a worker: ${m.error ?? "no output"}`));
      else job.resolve({ data: new Float32Array(m.buf), dims: m.dims });
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
