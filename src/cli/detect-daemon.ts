// The detection daemon: one long-lived process that keeps the element detector warm (the model, both
// OCR engines, the word lists) so that a new `rpav detect` or `rpav locate` process skips the seconds
// of loading. Like a Gradle daemon: started with `rpav daemon start` (or after a first run when
// config.json says perception.daemon "auto"), it stops itself after a while idle.
//
// Boundary (Playwright's client/server split): the client sends the frame's pixels and the detect
// options over a Unix socket in the data folder (0700 folder, the user's alone); the server runs the
// same `UIElementDetector` a command would build and answers the detection as JSON. Only what JSON
// carries crosses: a command that needs crops or element vectors (--out, --remember) or asks the VLM
// for regions detects in its own process. A daemon built from other code, another model file or
// another detector / OCR choice is not used (its identity is checked first); nor one that does not
// answer at once. Every path works without it.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, statSync, unlinkSync, writeSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { writeFileAtomicSync } from "../core/atomic-write.js";
import { AbortedError, ERROR_CODES, ProviderUnavailableError, RpaError, type ErrorCode } from "../core/errors.js";
import { makeFrame, type Frame } from "../core/frame.js";
import { pidAlive } from "../core/process.js";
import { decodeImage } from "../capture/png.js";
import type { ImageEmbedder } from "../core/providers/embedders.js";
import type { Logger } from "../core/providers/logger.js";
import type { Vector } from "../core/vectors.js";
import type { FastifyReply, FastifyRequest } from "fastify";
import { DETECTOR_META_FILE, DETECTOR_MODEL_FILE } from "../perception/learned-detector.js";
import { RULES_GATE_FILE } from "../perception/rules-gate.js";
import type { DetectionResult, DetectOptions, ElementDetector } from "../perception/ui-element-detector.js";

const BIN = fileURLToPath(new URL("../../bin/rpav.js", import.meta.url));

/** What a daemon says about itself; a client uses it only when every field but pid / served / started_at matches. */
export interface DaemonIdentity {
  pid: number;
  /** The code and models it runs: the compiled daemon module's and the model files' sizes and dates. */
  build: string;
  detector: string;
  ocr: string;
  /** The image embedders it holds, by name. */
  embedders: string[];
  started_at: string;
  idle_minutes: number;
  served: number;
}

/** Options a remote detection takes (the rest of DetectOptions — crops, vectors, signal — stays on the client). */
const RemoteOptionsSchema = z.strictObject({
  appName: z.string().max(4096).optional(),
  windowTitle: z.string().max(65536).optional(),
  scale: z.number().positive().finite().optional(),
  autoScale: z.boolean().optional(),
  workflowHint: z.string().max(4096).nullable().optional(),
});
const REMOTE_OPTIONS = ["appName", "windowTitle", "scale", "autoScale", "workflowHint"] as const;
const FrameHeaderSchema = z.strictObject({
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  channels: z.union([z.literal(1), z.literal(3), z.literal(4)]),
  scaleFactor: z.number().positive().finite(),
  origin: z.tuple([z.number().finite(), z.number().finite()]),
});
/** An encoded image (PNG, JPEG, WebP) sent as it is, decoded by the daemon: `source` names it in errors. */
const ImageHeaderSchema = z.strictObject({ source: z.string().max(4096), scaleFactor: z.number().positive().finite() });
const RequestHeaderSchema = z
  .strictObject({ frame: FrameHeaderSchema.optional(), image: ImageHeaderSchema.optional(), options: RemoteOptionsSchema.optional(), embedder: z.string().max(200).optional() })
  .refine((h) => (h.frame === undefined) !== (h.image === undefined), "a request carries either raw pixels (frame) or an encoded image (image)");
const HEADER = "x-rpav-detect";
/** A daemon started without --idle stops after this many minutes without a request. */
export const DEFAULT_IDLE_MINUTES = 30;
/** The largest frame a daemon takes: 8K RGBA. */
const MAX_FRAME_BYTES = 7680 * 4320 * 4;

/**
 * Where the daemon of a data folder listens: `<data>/run/detect.sock`, or — when that path is too
 * long for a Unix socket (about 108 bytes) — a file named after the folder in a private folder of the
 * system's temporary directory.
 */
export function daemonSocketPath(dataDir: string): string {
  const inData = join(dataDir, "run", "detect.sock");
  if (Buffer.byteLength(inData) <= 100) return inData;
  const dir = join(tmpdir(), `rpav-${process.getuid?.() ?? "user"}`);
  return join(dir, `${createHash("sha256").update(dataDir).digest("hex").slice(0, 24)}.sock`);
}

/** The lock a daemon holds from before it loads its engines until it stops: `detect.lock` beside the socket. */
function daemonLockPath(dataDir: string): string {
  return join(daemonSocketPath(dataDir), "..", "detect.lock");
}

/** The pid of the daemon holding the data folder's lock (starting or running), if it is alive. */
export function daemonLockHolder(dataDir: string): number | undefined {
  try {
    const pid = Number(readFileSync(daemonLockPath(dataDir), "utf8").trim());
    return Number.isInteger(pid) && pid > 0 && pidAlive(pid) ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Takes the data folder's daemon lock for this process: one daemon at a time, even when two commands
 * start one at once (config "auto"). A lock left by a process that is gone is taken over. Returns
 * how to release it, or the pid of the live process that holds it.
 */
export function acquireDaemonLock(dataDir: string): { release: () => void } | { heldBy: number } {
  const lock = daemonLockPath(dataDir);
  mkdirSync(join(lock, ".."), { recursive: true, mode: 0o700 });
  for (let attempt = 0; attempt < 2; attempt++) {
    let fd: number;
    try {
      fd = openSync(lock, "wx", 0o600);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      const holder = daemonLockHolder(dataDir);
      if (holder !== undefined && holder !== process.pid) return { heldBy: holder };
      unlinkSync(lock); // left by a daemon that was killed
      continue;
    }
    writeSync(fd, `${process.pid}\n`);
    closeSync(fd);
    return {
      release: () => {
        if (daemonLockHolder(dataDir) === process.pid) unlinkSync(lock);
      },
    };
  }
  const holder = daemonLockHolder(dataDir);
  return { heldBy: holder ?? 0 };
}

/** The code and model files this process would run, as one key (sizes and dates: no file is read). */
export function buildKey(modelDir: string): string {
  const files = [fileURLToPath(import.meta.url), ...[DETECTOR_MODEL_FILE, DETECTOR_META_FILE, RULES_GATE_FILE].map((f) => join(modelDir, f))];
  const h = createHash("sha256");
  for (const f of files) {
    try {
      const st = statSync(f);
      h.update(`${f}\0${st.size}\0${st.mtimeMs}\0`);
    } catch {
      h.update(`${f}\0missing\0`);
    }
  }
  return h.digest("hex").slice(0, 32);
}

interface HttpAnswer {
  status: number;
  body: Buffer;
}

function call(socketPath: string, method: string, path: string, body?: Uint8Array, headers: Record<string, string> = {}, timeoutMs?: number, signal?: AbortSignal): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath, method, path, headers: { ...headers, ...(body ? { "content-type": "application/octet-stream", "content-length": String(body.byteLength) } : {}) }, ...(signal ? { signal } : {}) }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("error", reject);
    if (timeoutMs !== undefined) req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.end(body);
  });
}

/** The daemon's identity, or undefined when none answers on the data folder's socket within `timeoutMs`. */
export async function daemonInfo(dataDir: string, timeoutMs = 500): Promise<DaemonIdentity | undefined> {
  const socket = daemonSocketPath(dataDir);
  if (!existsSync(socket)) return undefined;
  try {
    const r = await call(socket, "GET", "/info", undefined, {}, timeoutMs);
    return r.status === 200 ? (JSON.parse(r.body.toString("utf8")) as DaemonIdentity) : undefined;
  } catch {
    return undefined;
  }
}

/** Asks the data folder's daemon to stop; true when one answered. */
export async function stopDaemon(dataDir: string, timeoutMs = 5000): Promise<boolean> {
  const socket = daemonSocketPath(dataDir);
  if (!existsSync(socket)) return false;
  try {
    return (await call(socket, "POST", "/stop", undefined, {}, timeoutMs)).status === 200;
  } catch {
    return false;
  }
}

const AnswerSchema = z.looseObject({
  elements: z.array(z.looseObject({})),
  perception: z.looseObject({ detected_text: z.array(z.string()), text_boxes: z.array(z.unknown()) }),
  metadata: z.looseObject({ detection_time_ms: z.number(), region_errors: z.array(z.unknown()) }),
  ocr: z.looseObject({ provider: z.string(), lines: z.array(z.unknown()) }).nullable(),
  /** The screen vector, when the request named an embedder (one request for both). */
  vector: z.array(z.number().finite()).optional(),
});
const VectorAnswerSchema = z.object({ vector: z.array(z.number().finite()) });
/** An image the daemon decoded: its size, which the client did not read. */
const SizeAnswerSchema = z.object({ size: z.tuple([z.number().int().positive(), z.number().int().positive()]) });
const ErrorAnswerSchema = z.object({ error: z.object({ code: z.string(), message: z.string() }) });

const RESTART = "restart it: rpav daemon stop && rpav daemon start";

/** Sends a frame to the daemon at `socket` and returns its JSON answer; the daemon's typed errors are thrown again here. */
function sendFrame(socket: string, identity: DaemonIdentity, route: string, frame: Frame, extra: Omit<z.infer<typeof RequestHeaderSchema>, "frame" | "image">, signal?: AbortSignal): Promise<unknown> {
  return send(socket, identity, route, frame.data, { frame: { width: frame.width, height: frame.height, channels: frame.channels, scaleFactor: frame.scaleFactor, origin: [...frame.origin] }, ...extra }, signal);
}

async function send(socket: string, identity: DaemonIdentity, route: string, body: Uint8Array, header: z.input<typeof RequestHeaderSchema>, signal?: AbortSignal): Promise<unknown> {
  let r: HttpAnswer;
  try {
    r = await call(socket, "POST", route, body, { [HEADER]: encodeURIComponent(JSON.stringify(header)) }, undefined, signal);
  } catch (e) {
    if (signal?.aborted) throw new AbortedError("The detection was cancelled.");
    throw new ProviderUnavailableError(`The detection daemon (pid ${identity.pid}) stopped answering: ${(e as Error).message}. Run the command again (it detects in its own process when no daemon answers), or ${RESTART}.`, { cause: e });
  }
  let json: unknown;
  try {
    json = JSON.parse(r.body.toString("utf8"));
  } catch (e) {
    throw new ProviderUnavailableError(`The detection daemon (pid ${identity.pid}) answered something that is not JSON (HTTP ${r.status}); ${RESTART}.`, { cause: e });
  }
  if (r.status !== 200) {
    const err = ErrorAnswerSchema.safeParse(json);
    if (err.success && (ERROR_CODES as readonly string[]).includes(err.data.error.code)) throw new RpaError(err.data.error.code as ErrorCode, err.data.error.message);
    throw new ProviderUnavailableError(`The detection daemon (pid ${identity.pid}) failed (HTTP ${r.status}); ${RESTART}.`);
  }
  return json;
}

/** A detector that sends each frame to a running daemon. Made by `connectDaemon`. */
export class DaemonDetector implements ElementDetector {
  /** The vectors of `alongside` its detections brought back, by frame, until embedded. */
  private readonly vectors = new WeakMap<Frame, Vector>();

  constructor(
    private readonly socket: string,
    readonly identity: DaemonIdentity,
    /** The embedder whose vector each detection also asks for (see `withScreenVector`). */
    private readonly alongside?: { name: string; dimensions: number },
  ) {}

  async detect(frame: Frame, options: DetectOptions = {}): Promise<DetectionResult> {
    const { result, vector } = this.answer(await sendFrame(this.socket, this.identity, "/detect", frame, this.request(options), options.signal));
    if (vector) this.vectors.set(frame, vector);
    return result;
  }

  /**
   * Detects in an encoded image (PNG, JPEG, WebP) the daemon decodes itself, `source` naming it in errors (a corrupt or
   * huge image is the daemon's typed invalid_input): this process decodes nothing. Its size comes back, and the screen
   * vector when this detector asks for one (`withScreenVector`).
   */
  async detectImage(bytes: Uint8Array, source: string, scaleFactor: number, options: DetectOptions = {}): Promise<{ result: DetectionResult; width: number; height: number; vector?: Vector }> {
    const json = await send(this.socket, this.identity, "/detect", bytes, { image: { source, scaleFactor }, ...this.request(options) }, options.signal);
    const size = SizeAnswerSchema.safeParse(json);
    if (!size.success) throw new ProviderUnavailableError(`The detection daemon (pid ${this.identity.pid}) answered no image size; ${RESTART}.`);
    const { result, vector } = this.answer(json);
    return { result, width: size.data.size[0], height: size.data.size[1], ...(vector ? { vector } : {}) };
  }

  /** Whether its detections bring the screen's vector back (`withScreenVector`). */
  get bringsScreenVector(): boolean {
    return this.alongside !== undefined;
  }

  private request(options: DetectOptions): Omit<z.infer<typeof RequestHeaderSchema>, "frame" | "image"> {
    if (options.cropDir !== undefined) throw new RpaError("invalid_input", "The detection daemon does not return element crops: detect in this process to write them.");
    return { options: Object.fromEntries(REMOTE_OPTIONS.filter((k) => options[k] !== undefined).map((k) => [k, options[k]])), ...(this.alongside ? { embedder: this.alongside.name } : {}) };
  }

  private answer(json: unknown): { result: DetectionResult; vector?: Vector } {
    const a = AnswerSchema.safeParse(json);
    if (!a.success) throw new ProviderUnavailableError(`The detection daemon (pid ${this.identity.pid}) answered a detection of another shape (${a.error.issues[0]?.message}); ${RESTART}.`);
    const { vector, ...d } = a.data as unknown as Omit<DetectionResult, "crops" | "vectors" | "ocr"> & { ocr: DetectionResult["ocr"] | null; vector?: number[] };
    const along = this.alongside;
    return { result: { elements: d.elements, perception: d.perception, metadata: d.metadata, ocr: d.ocr ?? undefined, crops: new Map(), vectors: new Map() }, ...(along && vector?.length === along.dimensions ? { vector: Float32Array.from(vector) } : {}) };
  }

  /**
   * A detector on the same daemon whose detections also bring back the frame's vector from the daemon's image embedder
   * of that name, and that embedder: embedding a frame it just detected sends nothing (the screen is sent once).
   * Undefined when the daemon has no such embedder. This detector is left as it was.
   */
  withScreenVector(name: string, dimensions: number): { detector: DaemonDetector; embedder: ImageEmbedder } | undefined {
    if (!this.identity.embedders.includes(name)) return undefined;
    const detector = new DaemonDetector(this.socket, this.identity, { name, dimensions });
    return { detector, embedder: detector.imageEmbedder(name, dimensions)! };
  }

  /**
   * The daemon's image embedder of that name (it keeps its projection warm), when it has one. A frame this detector
   * detected with that embedder's vector alongside (`withScreenVector`) is embedded without being sent again.
   */
  imageEmbedder(name: string, dimensions: number): ImageEmbedder | undefined {
    if (!this.identity.embedders.includes(name)) return undefined;
    const { socket, identity, vectors } = this;
    return {
      name,
      dimensions,
      async embed(frame: Frame, signal?: AbortSignal): Promise<Vector> {
        const known = vectors.get(frame);
        if (known) {
          vectors.delete(frame);
          return known;
        }
        const a = VectorAnswerSchema.safeParse(await sendFrame(socket, identity, "/embed", frame, { embedder: name }, signal));
        if (!a.success || a.data.vector.length !== dimensions) throw new ProviderUnavailableError(`The detection daemon (pid ${identity.pid}) answered no ${dimensions}-value vector for ${name}; ${RESTART}.`);
        return Float32Array.from(a.data.vector);
      },
    };
  }
}

/** What a command needs of a daemon to use it: the same build (code, model files) and the same detector and OCR. */
export interface DaemonWanted {
  detector: string;
  ocr: string;
  build: string;
}

/** Why a command wanting `want` would not use the daemon `info` (undefined: it would). */
export function daemonMismatch(info: DaemonIdentity, want: DaemonWanted): string | undefined {
  if (info.build !== want.build) return "it runs other code or another model file (rebuilt or retrained since it started)";
  if (info.detector !== want.detector || info.ocr !== want.ocr) return `it runs the ${info.detector} detector with ${info.ocr} OCR, commands here use ${want.detector} with ${want.ocr}`;
  return undefined;
}

/** The daemon that answered `info` as a detector, when it runs this build and choice; undefined otherwise. */
export function usableDaemon(dataDir: string, info: DaemonIdentity, want: DaemonWanted, logger?: Logger): DaemonDetector | undefined {
  const why = daemonMismatch(info, want);
  if (why) {
    logger?.info(`detection daemon pid ${info.pid} not used: ${why}`);
    return undefined;
  }
  return new DaemonDetector(daemonSocketPath(dataDir), info);
}

/**
 * The data folder's daemon as a detector when one answers at once and runs this build with this
 * detector and OCR; undefined otherwise (the caller detects in its own process).
 */
export async function connectDaemon(dataDir: string, want: DaemonWanted, logger?: Logger): Promise<DaemonDetector | undefined> {
  const info = await daemonInfo(dataDir);
  return info ? usableDaemon(dataDir, info, want, logger) : undefined;
}

export interface DaemonServerOptions {
  dataDir: string;
  detector: ElementDetector;
  /** Image embedders it serves too (the screen vector of `rpav detect`). */
  embedders: readonly ImageEmbedder[];
  identity: Omit<DaemonIdentity, "pid" | "served" | "started_at" | "embedders">;
  /** Stops after this long without a request (0: never). */
  idleMs: number;
  logger?: Logger;
}

export interface DaemonServer {
  readonly socket: string;
  /** Settles when the server has stopped (idle, /stop, or close()). */
  readonly stopped: Promise<void>;
  close(): Promise<void>;
}

/** Serves `detector` on the data folder's socket; refuses when another daemon answers there. */
export async function serveDetectDaemon(o: DaemonServerOptions): Promise<DaemonServer> {
  const socket = daemonSocketPath(o.dataDir);
  const running = await daemonInfo(o.dataDir);
  if (running) throw new RpaError("invalid_input", `A detection daemon already runs for ${o.dataDir} (pid ${running.pid}); stop it first: rpav daemon stop.`, { details: { pid: running.pid } });
  mkdirSync(join(socket, ".."), { recursive: true, mode: 0o700 });
  // A socket file left by a daemon that was killed answers nothing: it is replaced.
  if (existsSync(socket)) unlinkSync(socket);
  const { default: Fastify } = await import("fastify");
  const app = Fastify({ logger: false, bodyLimit: MAX_FRAME_BYTES + 1 });
  app.addContentTypeParser("application/octet-stream", { parseAs: "buffer", bodyLimit: MAX_FRAME_BYTES + 1 }, (_req, body, done) => done(null, body));
  const identity: DaemonIdentity = { ...o.identity, embedders: o.embedders.map((e) => e.name), pid: process.pid, started_at: new Date().toISOString(), served: 0 };
  let queue: Promise<unknown> = Promise.resolve();
  let idle: NodeJS.Timeout | undefined;
  let stopping: Promise<void> | undefined;
  let resolveStopped!: () => void;
  const stopped = new Promise<void>((r) => (resolveStopped = r));
  const close = (): Promise<void> =>
    (stopping ??= (async () => {
      clearTimeout(idle);
      await app.close();
      resolveStopped();
    })());
  const armIdle = () => {
    clearTimeout(idle);
    if (o.idleMs > 0)
      idle = setTimeout(() => {
        o.logger?.info(`detection daemon idle for ${Math.round(o.idleMs / 60000)} min: stopping`);
        void close();
      }, o.idleMs);
  };

  app.get("/info", async () => identity);
  app.post("/stop", async (_req, reply) => {
    reply.send({ stopping: true });
    setImmediate(() => void close());
    return reply;
  });
  const embedderNamed = (name: string | undefined): ImageEmbedder => {
    const embedder = o.embedders.find((e) => e.name === name);
    if (!embedder) throw new RpaError("invalid_input", `This daemon holds no image embedder named "${name}" (it has ${identity.embedders.join(", ") || "none"}).`);
    return embedder;
  };
  /** Runs `work` on the request's frame, one request at a time; its value is the answer. */
  const serveFrame = (work: (frame: Frame, head: z.infer<typeof RequestHeaderSchema>, signal: AbortSignal) => Promise<unknown>) => async (req: FastifyRequest, reply: FastifyReply) => {
    let head: z.infer<typeof RequestHeaderSchema>;
    try {
      const raw = req.headers[HEADER];
      head = RequestHeaderSchema.parse(JSON.parse(decodeURIComponent(typeof raw === "string" ? raw : "")));
    } catch (e) {
      return reply.code(400).send({ error: { code: "invalid_input", message: `Malformed daemon request: ${(e as Error).message}` } });
    }
    const body = req.body;
    if (!(body instanceof Buffer)) return reply.code(400).send({ error: { code: "invalid_input", message: "The request carries no pixels (application/octet-stream)." } });
    // The client going away cancels its work.
    const abort = new AbortController();
    reply.raw.on("close", () => {
      if (!reply.raw.writableFinished) abort.abort();
    });
    const run = queue.then(async () => {
      clearTimeout(idle);
      try {
        const bytes = new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
        const frame = head.frame ? makeFrame({ data: bytes, ...head.frame, origin: head.frame.origin }) : await decodeImage(bytes, head.image!.source, { scaleFactor: head.image!.scaleFactor });
        const answer = await work(frame, head, abort.signal);
        identity.served++;
        return { status: 200, body: answer };
      } catch (e) {
        const code = e instanceof RpaError ? e.code : "detector_failed";
        if (!(e instanceof RpaError)) o.logger?.error(`daemon request failed: ${(e as Error).stack ?? String(e)}`);
        return { status: e instanceof RpaError && e.code === "invalid_input" ? 400 : 500, body: { error: { code, message: (e as Error).message } } };
      } finally {
        armIdle();
      }
    });
    queue = run.catch(() => undefined);
    const r = await run;
    return reply.code(r.status).send(r.body);
  };
  app.post(
    "/detect",
    serveFrame(async (frame, head, signal) => {
      // The embedder is checked before the detection, so that a wrong name costs no detection.
      const embedder = head.embedder === undefined ? undefined : embedderNamed(head.embedder);
      const det = await o.detector.detect(frame, { ...head.options, signal });
      const vector = embedder ? { vector: Array.from(await embedder.embed(frame, signal)) } : {};
      // An image it decoded: its size, which the client did not read.
      return { elements: det.elements, perception: det.perception, metadata: det.metadata, ocr: det.ocr ?? null, ...vector, ...(head.image ? { size: [frame.width, frame.height] } : {}) };
    }),
  );
  app.post(
    "/embed",
    serveFrame(async (frame, head, signal) => ({ vector: Array.from(await embedderNamed(head.embedder).embed(frame, signal)) })),
  );
  await app.listen({ path: socket });
  armIdle();
  return { socket, stopped, close };
}

/** Where a daemon started in the background writes its messages. */
export function daemonLogPath(dataDir: string): string {
  return join(dataDir, "run", "daemon.log");
}

export interface SpawnDaemonOptions {
  dataDir: string;
  detector: string;
  ocr: string;
  idleMinutes: number;
  env: NodeJS.ProcessEnv;
}

/** A daemon log over `maxBytes` is cut to its last `keepBytes` (from a line's start), before a new daemon appends to it. */
export function trimDaemonLog(path: string, maxBytes = 1 << 20, keepBytes = 256 << 10): void {
  let size: number;
  try {
    size = statSync(path).size;
  } catch {
    return;
  }
  if (size <= maxBytes) return;
  const fd = openSync(path, "r");
  const tail = Buffer.alloc(Math.min(keepBytes, size));
  try {
    readSync(fd, tail, 0, tail.length, size - tail.length);
  } finally {
    closeSync(fd);
  }
  const start = tail.indexOf(0x0a) + 1;
  writeFileAtomicSync(path, tail.subarray(start), { mode: 0o600 });
}

/** Starts `rpav daemon run` detached from this process (its messages in daemonLogPath, trimmed); returns its pid. */
export function spawnDaemon(o: SpawnDaemonOptions): number {
  mkdirSync(join(o.dataDir, "run"), { recursive: true, mode: 0o700 });
  trimDaemonLog(daemonLogPath(o.dataDir));
  const log = openSync(daemonLogPath(o.dataDir), "a", 0o600);
  try {
    const child = spawn(process.execPath, [BIN, "--data-dir", o.dataDir, "daemon", "run", "--detector", o.detector, "--ocr", o.ocr, "--idle", String(o.idleMinutes)], { detached: true, stdio: ["ignore", log, log], env: o.env });
    child.unref();
    return child.pid ?? 0;
  } finally {
    closeSync(log);
  }
}

/** The daemon's identity once it answers; undefined when `pid` exits first or `timeoutMs` passes. */
export async function waitForDaemon(dataDir: string, pid: number, timeoutMs: number, signal?: AbortSignal): Promise<DaemonIdentity | undefined> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until && !signal?.aborted) {
    const info = await daemonInfo(dataDir, 1000);
    if (info) return info;
    if (!pidAlive(pid)) return undefined; // it exited: its log says why
    await new Promise((r) => setTimeout(r, 100));
  }
  return undefined;
}

/**
 * A full-HD form drawn for the daemon's first detection, so that the first command it serves does not
 * pay the engines' first-run costs (buffers sized, kernels chosen). A line that changes each start
 * keeps the OCR cache from answering in the engines' place.
 */
export async function warmUpFrame(): Promise<Frame> {
  const W = 1920;
  const H = 1080;
  const words = ["Nom du client", "Adresse e-mail", "Numéro de dossier", "Date d'échéance", "Commentaire", "Catégorie"];
  const rows = words.map((w, i) => {
    const y = 180 + i * 90;
    return `<text x="120" y="${y + 26}" font-family="sans-serif" font-size="16" fill="#222">${w}</text><rect x="360" y="${y}" width="520" height="38" rx="4" fill="#fff" stroke="#999"/><rect x="960" y="${y + 9}" width="18" height="18" fill="#fff" stroke="#666"/><text x="990" y="${y + 24}" font-family="sans-serif" font-size="15" fill="#222">Option ${i + 1}</text>`;
  });
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><rect width="${W}" height="${H}" fill="#f4f5f7"/><rect width="${W}" height="56" fill="#2d3e50"/><text x="24" y="36" font-family="sans-serif" font-size="20" fill="#fff">Dossiers — démarrage ${new Date().toISOString()}</text>${rows.join("")}<rect x="360" y="760" width="140" height="40" rx="4" fill="#1769d1"/><text x="398" y="786" font-family="sans-serif" font-size="16" fill="#fff">Valider</text><rect x="520" y="760" width="140" height="40" rx="4" fill="#fff" stroke="#999"/><text x="557" y="786" font-family="sans-serif" font-size="16" fill="#222">Annuler</text></svg>`;
  return decodeImage(Buffer.from(svg), "warm-up form");
}
