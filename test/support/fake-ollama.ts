// A fake Ollama server for tests (no model runs here): real HTTP on 127.0.0.1 speaking Ollama's
// wire protocol — POST /api/chat (stream false, base64 images, format, options, keep_alive),
// GET /api/tags, GET /api/ps, and the OpenAI-compatible POST /v1/chat/completions, GET /v1/models.
// It keeps which models are loaded (a chat loads its model; keep_alive 0 unloads it; /api/ps lists
// them), decodes the images it receives and applies Qwen 2.5-VL's own resize rule to them as the
// real server does (written here again from Ollama's process_image.go, not imported from src/), so
// a client that sends another size gets coordinates in a space it does not expect. Faults on
// demand: 404 for a model not pulled, 500, reset connections, slow and malformed or fenced answers.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import sharp from "sharp";

export interface FakeImage {
  /** Size received. */
  readonly sentWidth: number;
  readonly sentHeight: number;
  /** Size after the model's resize rule: the space coordinates are answered in. */
  readonly width: number;
  readonly height: number;
  /** RGB pixels at width × height. */
  readonly rgb: Uint8Array;
}

export interface FakeRequest {
  readonly api: "ollama" | "openai";
  readonly model: string;
  readonly messages: readonly { role: string; content: string }[];
  readonly images: readonly FakeImage[];
  readonly format: unknown;
  readonly options: Record<string, unknown> | undefined;
  readonly keepAlive: unknown;
}

export type Fault = "500" | "reset" | "slow" | "malformed" | "fenced" | "not_json";

export interface FakeOllamaOptions {
  /** Models present (pulled). */
  models?: string[];
  /** Answer text for a request; default: grounding of the magenta target (see groundMagenta). */
  respond?: (req: FakeRequest) => string | Promise<string>;
  /** Time each chat answer takes, ms (a model's inference). */
  delayMs?: number;
  /** Delay of a "slow" fault, ms. */
  slowMs?: number;
}

const FACTOR = 28;
const MIN_PIXELS = 56 * 56;
const MAX_PIXELS = 2_097_152;

function roundEven(x: number): number {
  const r = Math.round(x);
  return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

/** Ollama's Qwen 2.5-VL SmartResize. */
export function qwenSmartResize(width: number, height: number): { width: number; height: number } {
  let h = roundEven(height / FACTOR) * FACTOR;
  let w = roundEven(width / FACTOR) * FACTOR;
  if (h * w > MAX_PIXELS) {
    const beta = Math.sqrt((height * width) / MAX_PIXELS);
    h = Math.floor(height / beta / FACTOR) * FACTOR;
    w = Math.floor(width / beta / FACTOR) * FACTOR;
  } else if (h * w < MIN_PIXELS) {
    const beta = Math.sqrt(MIN_PIXELS / (height * width));
    h = Math.ceil((height * beta) / FACTOR) * FACTOR;
    w = Math.ceil((width * beta) / FACTOR) * FACTOR;
  }
  return { width: Math.max(FACTOR, w), height: Math.max(FACTOR, h) };
}

/** Box of the magenta (#ff00ff) pixels of an image, in its pixels, or undefined. */
export function magentaBox(img: FakeImage): [number, number, number, number] | undefined {
  let x1 = Infinity, y1 = Infinity, x2 = -1, y2 = -1;
  for (let y = 0; y < img.height; y++)
    for (let x = 0; x < img.width; x++) {
      const i = (y * img.width + x) * 3;
      if (img.rgb[i]! > 160 && img.rgb[i + 1]! < 90 && img.rgb[i + 2]! > 160) {
        x1 = Math.min(x1, x); y1 = Math.min(y1, y); x2 = Math.max(x2, x + 1); y2 = Math.max(y2, y + 1);
      }
    }
  return x2 < 0 ? undefined : [x1, y1, x2, y2];
}

/** Qwen-style grounding answer for the magenta target: absolute resized pixels (Qwen 2.5-VL) or 0–1000 (Qwen2/3-VL). */
export function groundMagenta(req: FakeRequest): string {
  const img = req.images[0];
  const box = img && magentaBox(img);
  if (!img || !box) return "[]";
  const normalised = /qwen3-?vl|qwen2-?vl/i.test(req.model.replace(/qwen2\.5/i, "q25"));
  const out = normalised ? [box[0] / img.width, box[1] / img.height, box[2] / img.width, box[3] / img.height].map((v) => Math.round(v * 1000)) : box;
  return `\`\`\`json\n[\n  {"bbox_2d": [${out.join(", ")}], "label": "target"}\n]\n\`\`\``;
}

function sameModel(a: string, b: string): boolean {
  const n = (s: string) => (s.includes(":") ? s : `${s}:latest`);
  return n(a) === n(b);
}

async function decode(b64: string): Promise<FakeImage> {
  const bytes = Buffer.from(b64.replace(/^data:[^;]+;base64,/, ""), "base64");
  const meta = await sharp(bytes).metadata();
  const size = qwenSmartResize(meta.width!, meta.height!);
  const { data } = await sharp(bytes).removeAlpha().resize(size.width, size.height, { fit: "fill" }).raw().toBuffer({ resolveWithObject: true });
  return { sentWidth: meta.width!, sentHeight: meta.height!, width: size.width, height: size.height, rgb: new Uint8Array(data) };
}

export class FakeOllama {
  readonly requests: FakeRequest[] = [];
  /** Every HTTP request: method and path, in order. */
  readonly log: string[] = [];
  readonly loaded = new Map<string, number>();
  models: string[];
  respond: (req: FakeRequest) => string | Promise<string>;
  delayMs: number;
  private faults: Fault[] = [];
  private server: Server | undefined;
  private readonly slowMs: number;
  url = "";

  constructor(opts: FakeOllamaOptions = {}) {
    this.models = opts.models ?? ["qwen2.5vl:7b", "gemma4:e4b"];
    this.respond = opts.respond ?? groundMagenta;
    this.delayMs = opts.delayMs ?? 0;
    this.slowMs = opts.slowMs ?? 3000;
  }

  /** The next chat requests fail this way, in order. */
  fail(...faults: Fault[]): void {
    this.faults.push(...faults);
  }

  chats(): FakeRequest[] {
    return this.requests;
  }

  async start(port = 0): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((r) => this.server!.listen(port, "127.0.0.1", r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }

  private send(res: ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
    res.end(JSON.stringify(body));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.log.push(`${req.method} ${req.url}`);
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    try {
      if (req.method === "GET" && req.url === "/api/tags")
        return this.send(res, 200, { models: this.models.map((name) => ({ name, model: name, modified_at: "2026-04-05T10:00:00Z", size: 6_000_000_000, digest: "sha256:0", details: { format: "gguf", family: name.split(":")[0], parameter_size: "7B", quantization_level: "Q4_K_M" } })) });
      if (req.method === "GET" && req.url === "/api/ps")
        return this.send(res, 200, { models: [...this.loaded.keys()].map((name) => ({ name, model: name, size: 6_000_000_000, digest: "sha256:0", details: {}, expires_at: new Date(Date.now() + 300_000).toISOString(), size_vram: 6_000_000_000 })) });
      if (req.method === "GET" && req.url === "/v1/models") return this.send(res, 200, { object: "list", data: this.models.map((id) => ({ id, object: "model", created: 0, owned_by: "library" })) });
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as Record<string, unknown>;
      if (req.method === "POST" && req.url === "/api/chat") return await this.chat(res, body, "ollama");
      if (req.method === "POST" && req.url === "/v1/chat/completions") return await this.chat(res, body, "openai");
      this.send(res, 404, { error: "404 page not found" });
    } catch (e) {
      this.send(res, 400, { error: (e as Error).message });
    }
  }

  private async chat(res: ServerResponse, body: Record<string, unknown>, api: "ollama" | "openai"): Promise<void> {
    const model = String(body.model ?? "");
    const rawMessages = (body.messages ?? []) as { role: string; content: unknown; images?: string[] }[];
    if (!this.models.some((m) => sameModel(m, model))) {
      const msg = `model '${model}' not found`;
      return this.send(res, 404, api === "ollama" ? { error: msg } : { error: { message: msg, type: "api_error", param: null, code: null } });
    }
    const name = this.models.find((m) => sameModel(m, model))!;
    if (api === "ollama" && rawMessages.length === 0) {
      // Load or unload only (keep_alive 0: unload).
      if (body.keep_alive === 0 || body.keep_alive === "0" || body.keep_alive === "0s") {
        this.loaded.delete(name);
        return this.send(res, 200, { model: name, created_at: new Date().toISOString(), message: { role: "assistant", content: "" }, done_reason: "unload", done: true });
      }
      this.loaded.set(name, Date.now());
      return this.send(res, 200, { model: name, created_at: new Date().toISOString(), message: { role: "assistant", content: "" }, done_reason: "load", done: true });
    }
    const fault = this.faults.shift();
    if (fault === "500") return this.send(res, 500, api === "ollama" ? { error: "llama runner process has terminated: signal: killed" } : { error: { message: "internal error", type: "api_error" } });
    if (fault === "reset") {
      res.socket?.destroy();
      return;
    }
    const messages: { role: string; content: string }[] = [];
    const images: FakeImage[] = [];
    for (const m of rawMessages) {
      if (typeof m.content === "string") messages.push({ role: m.role, content: m.content });
      else if (Array.isArray(m.content)) {
        const parts = m.content as { type: string; text?: string; image_url?: { url: string } }[];
        messages.push({ role: m.role, content: parts.filter((p) => p.type === "text").map((p) => p.text ?? "").join("\n") });
        for (const p of parts) if (p.type === "image_url" && p.image_url) images.push(await decode(p.image_url.url));
      }
      for (const b64 of m.images ?? []) images.push(await decode(b64));
    }
    const format = api === "ollama" ? body.format : (body.response_format as { json_schema?: { schema?: unknown } } | undefined)?.json_schema?.schema;
    const request: FakeRequest = { api, model: name, messages, images, format, options: body.options as Record<string, unknown> | undefined, keepAlive: body.keep_alive };
    this.requests.push(request);
    this.loaded.set(name, Date.now());
    const wait = fault === "slow" ? this.slowMs : this.delayMs;
    if (wait) await new Promise((r) => setTimeout(r, wait));
    if (res.destroyed) return;
    let content = await this.respond(request);
    if (fault === "malformed") content = '{"bbox_2d": [12, 40, "wide"';
    if (fault === "not_json") content = "I think the button is near the top left.";
    if (fault === "fenced") content = `Here it is:\n\`\`\`json\n${content}\n\`\`\``;
    if (api === "ollama" && (body.keep_alive === 0 || body.keep_alive === "0")) this.loaded.delete(name);
    if (api === "ollama")
      return this.send(res, 200, { model: name, created_at: new Date().toISOString(), message: { role: "assistant", content }, done_reason: "stop", done: true, total_duration: wait * 1e6, load_duration: 0, prompt_eval_count: 100, prompt_eval_duration: 0, eval_count: 20, eval_duration: 0 });
    this.send(res, 200, { id: "chatcmpl-1", object: "chat.completion", created: Math.floor(Date.now() / 1000), model: name, system_fingerprint: "fp_ollama", choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }], usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 } });
  }
}

/** A port nothing listens on (connection refused). */
export async function closedPort(): Promise<string> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return `http://127.0.0.1:${port}`;
}
