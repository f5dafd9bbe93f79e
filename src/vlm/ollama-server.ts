// Ollama's native API: POST /api/chat (stream: false, images base64 in messages[].images, format =
// JSON schema, options, keep_alive), GET /api/tags (models pulled), GET /api/ps (models loaded);
// keep_alive 0 with no messages unloads a model.
import { z } from "zod";
import { ProviderUnavailableError, RpaError } from "../core/errors.js";
import type { ChatAnswer, ChatRequest, LoadedModel, ModelServer } from "./chat.js";
import { HttpStatusError, requestJson, type HttpOptions } from "./http-json.js";

export interface ServerOptions {
  /** Per request, ms (a cold model load can take a minute). */
  timeoutMs?: number;
  retries?: number;
  retryDelayMs?: number;
  /** Short requests (tags, ps, unload), ms. */
  probeTimeoutMs?: number;
  /** Bearer token, for OpenAI-compatible servers that want one. */
  apiKey?: string;
}

const ChatResponse = z.looseObject({ model: z.string().optional(), message: z.looseObject({ content: z.string() }), done: z.boolean().optional() });
const TagsResponse = z.looseObject({ models: z.array(z.looseObject({ name: z.string(), model: z.string().optional() })) });
const PsResponse = z.looseObject({ models: z.array(z.looseObject({ name: z.string(), model: z.string().optional(), size_vram: z.number().optional(), expires_at: z.string().optional() })).nullable() });

/** What to do about an HTTP error of a model server, as a typed error. */
export function serverError(e: unknown, url: string, model?: string): RpaError {
  if (e instanceof RpaError) {
    if (e.details.unreachable) return new ProviderUnavailableError(`${e.message} Start the server (\`ollama serve\`), or point RPAV_VLM_URL (or RPAV_VLM_URL_<ROLE>) at it; until then only the heuristics run.`, { cause: e, details: e.details });
    return e;
  }
  if (e instanceof HttpStatusError) {
    let message = e.body;
    try {
      const j = JSON.parse(e.body) as { error?: unknown };
      message = typeof j.error === "string" ? j.error : typeof (j.error as { message?: unknown })?.message === "string" ? (j.error as { message: string }).message : e.body;
    } catch {
      /* not JSON: keep the text */
    }
    if (e.status === 404 && model && /not found|pull/i.test(message))
      return new ProviderUnavailableError(`Model "${model}" is not on the server at ${url} (${message}): run \`ollama pull ${model}\` there, or choose another model (RPAV_MODEL_<ROLE>).`, { details: { url, model, status: 404, missingModel: true } });
    return new ProviderUnavailableError(`The model server at ${url} answered HTTP ${e.status}: ${message.slice(0, 300)}`, { details: { url, status: e.status, ...(model ? { model } : {}) } });
  }
  return new ProviderUnavailableError(`The model server at ${url} failed: ${(e as Error).message}`, { cause: e, details: { url } });
}

function parseAs<T>(schema: z.ZodType<T>, value: unknown, url: string, what: string): T {
  const r = schema.safeParse(value);
  if (!r.success) throw new ProviderUnavailableError(`${url} answered ${what} in an unknown shape (${r.error.issues[0]?.message}); is this an Ollama server of a supported version?`, { details: { url } });
  return r.data;
}

function toBase64(b: Uint8Array): string {
  return Buffer.from(b.buffer, b.byteOffset, b.length).toString("base64");
}

export class OllamaServer implements ModelServer {
  readonly api = "ollama" as const;
  readonly url: string;
  private readonly o: Required<Omit<ServerOptions, "apiKey">>;

  constructor(url: string, opts: ServerOptions = {}) {
    this.url = url.replace(/\/+$/, "");
    this.o = { timeoutMs: opts.timeoutMs ?? 120_000, retries: opts.retries ?? 2, retryDelayMs: opts.retryDelayMs ?? 250, probeTimeoutMs: opts.probeTimeoutMs ?? 5_000 };
  }

  private http(signal: AbortSignal | undefined, long: boolean): HttpOptions {
    return { timeoutMs: long ? this.o.timeoutMs : this.o.probeTimeoutMs, retries: this.o.retries, retryDelayMs: this.o.retryDelayMs, signal };
  }

  async chat(req: ChatRequest): Promise<ChatAnswer> {
    const body = {
      model: req.model,
      messages: req.messages.map((m) => ({ role: m.role, content: m.content, ...(m.images?.length ? { images: m.images.map(toBase64) } : {}) })),
      stream: false,
      ...(req.schema ? { format: req.schema } : {}),
      ...(req.options ? { options: req.options } : {}),
      ...(req.keepAlive !== undefined ? { keep_alive: req.keepAlive } : {}),
    };
    const t0 = performance.now();
    let json: unknown;
    try {
      json = await requestJson(`${this.url}/api/chat`, body, this.http(req.signal, true));
    } catch (e) {
      throw serverError(e, this.url, req.model);
    }
    const r = parseAs(ChatResponse, json, this.url, "/api/chat");
    return { content: r.message.content, model: r.model ?? req.model, ms: performance.now() - t0 };
  }

  async models(signal?: AbortSignal): Promise<string[]> {
    try {
      return parseAs(TagsResponse, await requestJson(`${this.url}/api/tags`, undefined, this.http(signal, false)), this.url, "/api/tags").models.map((m) => m.name);
    } catch (e) {
      throw serverError(e, this.url);
    }
  }

  async loaded(signal?: AbortSignal): Promise<LoadedModel[]> {
    try {
      const r = parseAs(PsResponse, await requestJson(`${this.url}/api/ps`, undefined, this.http(signal, false)), this.url, "/api/ps");
      return (r.models ?? []).map((m) => ({ name: m.name, ...(m.size_vram !== undefined ? { sizeVram: m.size_vram } : {}), ...(m.expires_at ? { expiresAt: m.expires_at } : {}) }));
    } catch (e) {
      throw serverError(e, this.url);
    }
  }

  async unload(model: string, signal?: AbortSignal): Promise<boolean> {
    try {
      await requestJson(`${this.url}/api/chat`, { model, messages: [], keep_alive: 0 }, this.http(signal, false));
      return true;
    } catch (e) {
      throw serverError(e, this.url, model);
    }
  }
}
