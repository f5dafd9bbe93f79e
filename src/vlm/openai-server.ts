// OpenAI-compatible servers (llama.cpp server, vLLM, LM Studio, Ollama's /v1): POST
// /v1/chat/completions with images as data URLs and response_format json_schema; GET /v1/models.
// They cannot say which model is loaded nor unload one (keep_alive is ignored there).
import { z } from "zod";
import { ProviderUnavailableError } from "../core/errors.js";
import type { ChatAnswer, ChatRequest, LoadedModel, ModelServer } from "./chat.js";
import { requestJson, type HttpOptions } from "./http-json.js";
import { serverError, type ServerOptions } from "./ollama-server.js";

const CompletionResponse = z.looseObject({ model: z.string().optional(), choices: z.array(z.looseObject({ message: z.looseObject({ content: z.string().nullable() }) })).min(1) });
const ModelsResponse = z.looseObject({ data: z.array(z.looseObject({ id: z.string() })) });

function sniffMime(b: Uint8Array): string {
  return b[0] === 0xff && b[1] === 0xd8 ? "image/jpeg" : "image/png";
}

export class OpenAiServer implements ModelServer {
  readonly api = "openai" as const;
  readonly url: string;
  private readonly o: Required<Omit<ServerOptions, "apiKey">>;
  private readonly headers: Record<string, string>;

  constructor(url: string, opts: ServerOptions = {}) {
    // Accept both http://host:port and http://host:port/v1.
    this.url = url.replace(/\/+$/, "").replace(/\/v1$/, "");
    this.o = { timeoutMs: opts.timeoutMs ?? 120_000, retries: opts.retries ?? 2, retryDelayMs: opts.retryDelayMs ?? 250, probeTimeoutMs: opts.probeTimeoutMs ?? 5_000 };
    this.headers = opts.apiKey ? { authorization: `Bearer ${opts.apiKey}` } : {};
  }

  private http(signal: AbortSignal | undefined, long: boolean): HttpOptions {
    return { timeoutMs: long ? this.o.timeoutMs : this.o.probeTimeoutMs, retries: this.o.retries, retryDelayMs: this.o.retryDelayMs, signal, headers: this.headers };
  }

  async chat(req: ChatRequest): Promise<ChatAnswer> {
    const opts = req.options ?? {};
    const body = {
      model: req.model,
      messages: req.messages.map((m) => ({
        role: m.role,
        content: m.images?.length
          ? [{ type: "text", text: m.content }, ...m.images.map((b) => ({ type: "image_url", image_url: { url: `data:${sniffMime(b)};base64,${Buffer.from(b.buffer, b.byteOffset, b.length).toString("base64")}` } }))]
          : m.content,
      })),
      stream: false,
      ...(req.schema ? { response_format: { type: "json_schema", json_schema: { name: "answer", strict: true, schema: req.schema } } } : {}),
      ...(typeof opts.temperature === "number" ? { temperature: opts.temperature } : {}),
      ...(typeof opts.seed === "number" ? { seed: opts.seed } : {}),
      ...(typeof opts.num_predict === "number" ? { max_tokens: opts.num_predict } : {}),
    };
    const t0 = performance.now();
    let json: unknown;
    try {
      json = await requestJson(`${this.url}/v1/chat/completions`, body, this.http(req.signal, true));
    } catch (e) {
      throw serverError(e, this.url, req.model);
    }
    const r = CompletionResponse.safeParse(json);
    if (!r.success) throw new ProviderUnavailableError(`${this.url}/v1/chat/completions answered in an unknown shape (${r.error.issues[0]?.message}).`, { details: { url: this.url } });
    return { content: r.data.choices[0]!.message.content ?? "", model: r.data.model ?? req.model, ms: performance.now() - t0 };
  }

  async models(signal?: AbortSignal): Promise<string[]> {
    let json: unknown;
    try {
      json = await requestJson(`${this.url}/v1/models`, undefined, this.http(signal, false));
    } catch (e) {
      throw serverError(e, this.url);
    }
    const r = ModelsResponse.safeParse(json);
    if (!r.success) throw new ProviderUnavailableError(`${this.url}/v1/models answered in an unknown shape.`, { details: { url: this.url } });
    return r.data.data.map((m) => m.id);
  }

  loaded(): Promise<LoadedModel[] | undefined> {
    return Promise.resolve(undefined);
  }

  unload(): Promise<boolean> {
    return Promise.resolve(false);
  }
}
