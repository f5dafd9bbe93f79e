// One role of the plan (grounding, understanding, decision) bound to its server and model: every
// structured request goes through the cache, then the one-model-at-a-time manager.
import type { z } from "zod";
import { toJSONSchema } from "zod";
import type { ChatMessage, ModelServer } from "./chat.js";
import { cacheKey, type AnswerCache } from "./answer-cache.js";
import { askStructured, promptHash, validateAnswer } from "./json-answer.js";
import type { ModelManager } from "./model-manager.js";

export type VlmRole = "grounding" | "understanding" | "decision";

export interface RoleModelConfig {
  readonly role: VlmRole;
  readonly model: string;
  readonly server: ModelServer;
  readonly manager: ModelManager;
  readonly cache?: AnswerCache | undefined;
  /** Ollama options (temperature 0 and a fixed seed by default: answers are repeatable). */
  readonly options?: Record<string, unknown> | undefined;
  readonly keepAlive?: string | number | undefined;
}

/** An image known by its content hash, encoded only when the request really goes to the server. */
export interface LazyImage {
  readonly hash: string;
  readonly load: () => Promise<Uint8Array>;
}

export interface PromptMessage {
  readonly role: ChatMessage["role"];
  readonly content: string;
  readonly images?: readonly LazyImage[];
}

export interface AskRequest<T> {
  readonly messages: readonly PromptMessage[];
  readonly schema: z.ZodType<T>;
  /** Ask the server for structured output with the schema's JSON schema (false: free text, parsed leniently). */
  readonly structured: boolean;
  readonly signal?: AbortSignal | undefined;
}

export interface AskResult<T> {
  readonly value: T;
  readonly raw: string;
  readonly model: string;
  readonly promptHash: string;
  readonly cached: boolean;
  readonly ms: number;
}

export class RoleModel {
  readonly role: VlmRole;
  readonly model: string;
  constructor(private readonly c: RoleModelConfig) {
    this.role = c.role;
    this.model = c.model;
  }

  get server(): ModelServer {
    return this.c.server;
  }

  async ask<T>(req: AskRequest<T>): Promise<AskResult<T>> {
    const t0 = performance.now();
    const options = { temperature: 0, seed: 0, ...this.c.options };
    const schema = req.structured ? (toJSONSchema(req.schema, { target: "draft-7", unrepresentable: "any" }) as Record<string, unknown>) : undefined;
    const images = req.messages.flatMap((m) => (m.images ?? []).map((i) => i.hash));
    const hash = promptHash(this.c.model, req.messages.map((m) => `${m.role}:${m.content}`), images);
    const key = cacheKey({ model: this.c.model, role: this.c.role, prompt: req.messages.map((m) => `${m.role}:${m.content}`).join("\n"), images, options: { options, schema: schema ?? null } });
    const hit = this.c.cache?.get(key);
    if (hit !== undefined) {
      const v = validateAnswer(hit, req.schema);
      if (v.ok) return { value: v.value, raw: hit, model: this.c.model, promptHash: hash, cached: true, ms: performance.now() - t0 };
    }
    const messages: ChatMessage[] = await Promise.all(req.messages.map(async (m) => ({ role: m.role, content: m.content, ...(m.images?.length ? { images: await Promise.all(m.images.map((i) => i.load())) } : {}) })));
    const r = await askStructured({ model: this.c.model, messages, ...(schema ? { schema } : {}), options, ...(this.c.keepAlive !== undefined ? { keepAlive: this.c.keepAlive } : {}), ...(req.signal ? { signal: req.signal } : {}) }, req.schema, async (q) => (await this.c.manager.chat(this.c.server, q)).content);
    this.c.cache?.put(key, { model: this.c.model, role: this.c.role }, r.raw);
    return { value: r.value, raw: r.raw, model: this.c.model, promptHash: hash, cached: false, ms: performance.now() - t0 };
  }
}
