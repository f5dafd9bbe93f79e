// The detection daemon's boundary: what a detector answers in the daemon is what the client gets
// (the same values, the same typed errors), malformed requests are refused, and a daemon of
// another build or choice is not used. The detector behind it is a stand-in here: the real one is
// exercised through `rpav daemon` in test/daemon-cli.test.ts.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { InvalidInputError } from "../core/errors.js";
import { makeFrame, type Frame } from "../core/frame.js";
import { encodePng } from "../capture/png.js";
import { LayoutImageEmbedder } from "../embedding/layout-image-embedder.js";
import type { DetectionResult, DetectOptions, ElementDetector } from "../perception/ui-element-detector.js";
import { acquireDaemonLock, buildKey, connectDaemon, daemonInfo, daemonLockHolder, daemonSocketPath, DaemonDetector, serveDetectDaemon, stopDaemon, trimDaemonLog, type DaemonServer } from "./detect-daemon.js";

const root = mkdtempSync(join(tmpdir(), "rpav-daemon-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const servers: DaemonServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

function frameOf(w: number, h: number, seed = 7): Frame {
  const data = new Uint8Array(w * h * 4);
  for (let i = 0; i < data.length; i++) data[i] = (i * seed + (i >> 7)) & 255;
  return makeFrame({ data, width: w, height: h, channels: 4, scaleFactor: 1.5, origin: [10, 20] });
}

/** A stand-in detector that answers from what it was sent, and records the calls. */
class EchoDetector implements ElementDetector {
  calls: { frame: Frame; options: DetectOptions }[] = [];
  failWith?: Error;
  async detect(frame: Frame, options: DetectOptions = {}): Promise<DetectionResult> {
    this.calls.push({ frame, options });
    if (this.failWith) throw this.failWith;
    let sum = 0;
    for (const v of frame.data) sum += v;
    const element = { element_id: "e1", type: "button", label: `${options.appName ?? ""}|${options.windowTitle ?? ""}|${sum}`, bbox: [1.25, 2.5, 30.125, 40], confidence: 0.8123456789 };
    return {
      elements: [element as never],
      crops: new Map([["e1", frame]]),
      vectors: new Map(),
      ocr: { provider: "stand-in", lines: [{ text: "Valider", bbox: [1, 2, 3, 4], confidence: 0.9, words: [] }], timings: { read_ms: 1.5 } },
      perception: { detected_text: ["Valider"], text_boxes: [] },
      metadata: { detection_time_ms: 12.5, num_elements_detected: 1, vlm_used: false, timings: { a: 1 }, region_errors: [] },
    };
  }
}

async function serve(detector: ElementDetector, options: { idleMs?: number; build?: string; dataDir?: string } = {}) {
  const dataDir = options.dataDir ?? join(root, `d${n++}`);
  const server = await serveDetectDaemon({ dataDir, detector, embedders: [new LayoutImageEmbedder(512)], identity: { build: options.build ?? "B1", detector: "hybrid", ocr: "hybrid", idle_minutes: 0 }, idleMs: options.idleMs ?? 0 });
  servers.push(server);
  return { dataDir, server };
}

describe("detection daemon", () => {
  it("answers what the detector found, with the options and pixels sent; crops stay on the daemon's side", async () => {
    const det = new EchoDetector();
    const { dataDir } = await serve(det);
    const client = await connectDaemon(dataDir, { detector: "hybrid", ocr: "hybrid", build: "B1" });
    expect(client).toBeInstanceOf(DaemonDetector);
    const frame = frameOf(64, 48);
    const local = await new EchoDetector().detect(frame, { appName: "app", windowTitle: "Dossiers — é" });
    const remote = await client!.detect(frame, { appName: "app", windowTitle: "Dossiers — é", autoScale: true });
    expect(remote.elements).toEqual(local.elements);
    expect(remote.ocr).toEqual(local.ocr);
    expect(remote.metadata).toEqual(local.metadata);
    expect(remote.perception).toEqual(local.perception);
    expect(remote.crops.size).toBe(0);
    const seen = det.calls[0]!;
    expect(seen.options).toMatchObject({ appName: "app", windowTitle: "Dossiers — é", autoScale: true });
    expect(seen.frame.scaleFactor).toBe(1.5);
    expect(seen.frame.origin).toEqual([10, 20]);
    expect(Buffer.compare(Buffer.from(seen.frame.data), Buffer.from(frame.data))).toBe(0);
    expect((await daemonInfo(dataDir))?.served).toBe(1);
  });

  it("embeds with its own embedder: the same vector as in this process", async () => {
    const { dataDir } = await serve(new EchoDetector());
    const client = (await connectDaemon(dataDir, { detector: "hybrid", ocr: "hybrid", build: "B1" }))!;
    expect(client.imageEmbedder("clip-onnx:other", 512)).toBeUndefined();
    const remote = client.imageEmbedder("layout_v2_512", 512)!;
    const frame = frameOf(320, 200, 3);
    expect(Array.from(await remote.embed(frame))).toEqual(Array.from(await new LayoutImageEmbedder(512).embed(frame)));
  });

  it("with the embedder asked along with detections, the screen is sent once: the detection brings its vector back", async () => {
    const det = new EchoDetector();
    const { dataDir } = await serve(det);
    const client = (await connectDaemon(dataDir, { detector: "hybrid", ocr: "hybrid", build: "B1" }))!;
    const { detector, embedder: remote } = client.withScreenVector("layout_v2_512", 512)!;
    expect(client.withScreenVector("no_such_embedder", 512)).toBeUndefined();
    const frame = frameOf(320, 200, 3);
    const other = frameOf(320, 200, 5);
    const local = new LayoutImageEmbedder(512);
    // The detector it came from is left as it was: its detections do not ask for the vector.
    await client.detect(other);
    expect((await daemonInfo(dataDir))?.served).toBe(1);
    expect(Array.from(await remote.embed(other))).toEqual(Array.from(await local.embed(other)));
    expect((await daemonInfo(dataDir))?.served).toBe(2);
    await detector.detect(frame);
    expect(Array.from(await remote.embed(frame))).toEqual(Array.from(await local.embed(frame)));
    expect((await daemonInfo(dataDir))?.served).toBe(3);
    // A frame it did not detect (or one embedded already) is sent to be embedded.
    expect(Array.from(await remote.embed(other))).toEqual(Array.from(await local.embed(other)));
    expect(Array.from(await remote.embed(frame))).toEqual(Array.from(await local.embed(frame)));
    expect((await daemonInfo(dataDir))?.served).toBe(5);
    expect(det.calls.length).toBe(2);
  });

  it("detects in an encoded image it decodes itself: the same pixels, its size and the screen vector come back; a corrupt one is a typed error naming it", async () => {
    const det = new EchoDetector();
    const { dataDir } = await serve(det);
    const client = (await connectDaemon(dataDir, { detector: "hybrid", ocr: "hybrid", build: "B1" }))!;
    const { detector } = client.withScreenVector("layout_v2_512", 512)!;
    const frame = frameOf(96, 64, 11);
    const png = await encodePng(frame);
    const { result, width, height, vector } = await detector.detectImage(png, "ecran.png", 2, { appName: "app" });
    expect([width, height]).toEqual([96, 64]);
    const seen = det.calls[0]!;
    expect(Buffer.compare(Buffer.from(seen.frame.data), Buffer.from(frame.data))).toBe(0);
    expect(seen.frame.scaleFactor).toBe(2);
    expect(seen.options).toMatchObject({ appName: "app" });
    expect(result.elements).toEqual((await new EchoDetector().detect(frame, { appName: "app" })).elements);
    expect(Array.from(vector!)).toEqual(Array.from(await new LayoutImageEmbedder(512).embed(frame)));
    await expect(detector.detectImage(new Uint8Array([1, 2, 3, 4]), "cassé.png", 1)).rejects.toMatchObject({ code: "invalid_input", message: expect.stringContaining("cassé.png") });
    expect(det.calls.length).toBe(1);
    expect((await client.detectImage(png, "ecran.png", 1)).width).toBe(96);
  });

  it("throws the detector's typed error again on the client; an untyped one is detector_failed", async () => {
    const det = new EchoDetector();
    const { dataDir } = await serve(det);
    const client = (await connectDaemon(dataDir, { detector: "hybrid", ocr: "hybrid", build: "B1" }))!;
    det.failWith = new InvalidInputError("The image is 3×3 px: too small for the model.");
    await expect(client.detect(frameOf(3, 3))).rejects.toMatchObject({ code: "invalid_input", message: "The image is 3×3 px: too small for the model." });
    det.failWith = new Error("boom");
    await expect(client.detect(frameOf(8, 8))).rejects.toMatchObject({ code: "detector_failed", message: "boom" });
    // Crops cannot cross: refused before anything is sent.
    await expect(client.detect(frameOf(8, 8), { cropDir: "elements" })).rejects.toMatchObject({ code: "invalid_input" });
    expect(det.calls.length).toBe(2);
  });

  it("refuses a malformed request with a typed answer, and keeps serving", async () => {
    const det = new EchoDetector();
    const { dataDir } = await serve(det);
    const post = (headers: Record<string, string>, body: Buffer) =>
      new Promise<{ status: number; json: { error?: { code: string } } }>((resolve, reject) => {
        const req = request({ socketPath: daemonSocketPath(dataDir), method: "POST", path: "/detect", headers: { "content-type": "application/octet-stream", ...headers } }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString("utf8")) }));
        });
        req.on("error", reject);
        req.end(body);
      });
    const head = (h: unknown) => ({ "x-rpav-detect": encodeURIComponent(JSON.stringify(h)) });
    const good = { frame: { width: 2, height: 2, channels: 4, scaleFactor: 1, origin: [0, 0] }, options: {} };
    expect((await post({}, Buffer.alloc(16))).json.error?.code).toBe("invalid_input");
    expect((await post(head({ ...good, options: { appName: 3 } }), Buffer.alloc(16))).status).toBe(400);
    expect((await post(head({ ...good, extra: true }), Buffer.alloc(16))).status).toBe(400);
    const short = await post(head(good), Buffer.alloc(15));
    expect(short).toMatchObject({ status: 400, json: { error: { code: "invalid_input" } } });
    // A detection asking for an embedder the daemon does not hold is refused before detecting.
    expect(await post(head({ ...good, embedder: "clip-onnx:other" }), Buffer.alloc(16))).toMatchObject({ status: 400, json: { error: { code: "invalid_input" } } });
    expect(det.calls.length).toBe(0);
    expect((await post(head(good), Buffer.alloc(16))).status).toBe(200);
  });

  it("is not used by a client of another build or choice", async () => {
    const { dataDir } = await serve(new EchoDetector(), { build: "B1" });
    expect(await connectDaemon(dataDir, { detector: "hybrid", ocr: "hybrid", build: "B2" })).toBeUndefined();
    expect(await connectDaemon(dataDir, { detector: "rules", ocr: "hybrid", build: "B1" })).toBeUndefined();
    expect(await connectDaemon(dataDir, { detector: "hybrid", ocr: "ppocr", build: "B1" })).toBeUndefined();
    expect(await connectDaemon(join(root, "none"), { detector: "hybrid", ocr: "hybrid", build: "B1" })).toBeUndefined();
  });

  it("one daemon per data folder; a socket file left by a killed one is replaced", async () => {
    const dataDir = join(root, `d${n++}`);
    const sock = daemonSocketPath(dataDir);
    await serve(new EchoDetector(), { dataDir: join(root, "x-unused") }); // another folder's does not count
    mkdirSync(join(sock, ".."), { recursive: true });
    writeFileSync(sock, "left over");
    await serve(new EchoDetector(), { dataDir });
    expect((await daemonInfo(dataDir))?.pid).toBe(process.pid);
    await expect(serve(new EchoDetector(), { dataDir })).rejects.toMatchObject({ code: "invalid_input" });
  });

  it("stops when asked, and after the idle time; its socket is gone", async () => {
    const a = await serve(new EchoDetector());
    expect(await stopDaemon(a.dataDir)).toBe(true);
    await a.server.stopped;
    expect(existsSync(a.server.socket)).toBe(false);
    expect(await stopDaemon(a.dataDir)).toBe(false);
    const b = await serve(new EchoDetector(), { idleMs: 150 });
    const client = (await connectDaemon(b.dataDir, { detector: "hybrid", ocr: "hybrid", build: "B1" }))!;
    await client.detect(frameOf(4, 4)); // a request restarts the idle time
    await b.server.stopped;
    expect(await daemonInfo(b.dataDir)).toBeUndefined();
    // The client of a daemon gone says what to do.
    await expect(client.detect(frameOf(4, 4))).rejects.toMatchObject({ code: "provider_unavailable" });
  });

  it("the build key changes when the model, its settings or the hybrid's gate change, not otherwise", () => {
    const models = join(root, `m${n++}`);
    mkdirSync(models);
    for (const f of ["ui-detector.onnx", "ui-detector.json", "rules-gate.json"]) writeFileSync(join(models, f), f);
    const k = buildKey(models);
    expect(buildKey(models)).toBe(k);
    for (const f of ["ui-detector.onnx", "ui-detector.json", "rules-gate.json"]) {
      writeFileSync(join(models, f), `${f} refit`);
      expect(buildKey(models), f).not.toBe(k);
    }
    const before = buildKey(models);
    rmSync(join(models, "rules-gate.json"));
    expect(buildKey(models)).not.toBe(before);
  });

  it("one daemon lock per data folder: held by a live process it is refused, left by a dead one it is taken over", async () => {
    const dataDir = join(root, `d${n++}`);
    const lock = acquireDaemonLock(dataDir);
    expect("release" in lock).toBe(true);
    expect(daemonLockHolder(dataDir)).toBe(process.pid);
    (lock as { release: () => void }).release();
    expect(daemonLockHolder(dataDir)).toBeUndefined();
    // Another live process holds it.
    const other = spawn("sleep", ["30"], { stdio: "ignore" });
    const lockFile = join(daemonSocketPath(dataDir), "..", "detect.lock");
    writeFileSync(lockFile, `${other.pid}\n`);
    try {
      expect(acquireDaemonLock(dataDir)).toEqual({ heldBy: other.pid });
      expect(daemonLockHolder(dataDir)).toBe(other.pid);
    } finally {
      other.kill("SIGKILL");
      await new Promise((r) => other.once("exit", r));
    }
    // Its holder gone: taken over.
    const again = acquireDaemonLock(dataDir);
    expect("release" in again).toBe(true);
    expect(readFileSync(lockFile, "utf8").trim()).toBe(String(process.pid));
    (again as { release: () => void }).release();
    expect(existsSync(lockFile)).toBe(false);
  });

  it("a data folder too deep for a Unix socket path gets one in a private temporary folder", () => {
    const deep = join(root, "x".repeat(120));
    const p = daemonSocketPath(deep);
    expect(Buffer.byteLength(p)).toBeLessThan(104);
    expect(p).not.toBe(daemonSocketPath(`${deep}y`));
    expect(daemonSocketPath(join(root, "short"))).toBe(join(root, "short", "run", "detect.sock"));
  });
});

describe("the daemon's log", () => {
  it("is cut to its last lines, from a line's start, once it grows over the limit; a small one is left alone", () => {
    const dir = mkdtempSync(join(tmpdir(), "rpav-daemon-log-"));
    try {
      const log = join(dir, "daemon.log");
      const lines = Array.from({ length: 5000 }, (_, i) => `line ${i} ${"x".repeat(40)}`);
      writeFileSync(log, `${lines.join("\n")}\n`);
      trimDaemonLog(log, 100_000, 20_000);
      const kept = readFileSync(log, "utf8");
      expect(kept.length).toBeLessThanOrEqual(20_000);
      expect(kept.length).toBeGreaterThan(19_000);
      expect(kept.startsWith("line ")).toBe(true);
      expect(kept.endsWith(`${lines.at(-1)}\n`)).toBe(true);
      trimDaemonLog(log, 100_000, 20_000);
      expect(readFileSync(log, "utf8")).toBe(kept);
      trimDaemonLog(join(dir, "none.log"));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
