// What every model server client offers (Ollama's native API, OpenAI-compatible servers).
// Requests and answers are plain data; the content of an answer is untrusted text.

export type VlmApi = "ollama" | "openai";

export interface ChatMessage {
  readonly role: "system" | "user" | "assistant";
  readonly content: string;
  /** PNG/JPEG bytes of images attached to this message. */
  readonly images?: readonly Uint8Array[];
}

export interface ChatRequest {
  readonly model: string;
  readonly messages: readonly ChatMessage[];
  /** JSON schema of the answer (structured output), when the answer must be an object. */
  readonly schema?: Record<string, unknown>;
  /** Sampling and runtime options (temperature, seed, num_ctx, num_gpu…). */
  readonly options?: Record<string, unknown>;
  /** How long the server keeps the model loaded afterwards ("5m", 0). Ignored by OpenAI-compatible servers. */
  readonly keepAlive?: string | number;
  readonly signal?: AbortSignal;
}

export interface ChatAnswer {
  readonly content: string;
  readonly model: string;
  /** Wall time of the request, ms. */
  readonly ms: number;
}

export interface LoadedModel {
  readonly name: string;
  readonly sizeVram?: number;
  readonly expiresAt?: string;
}

export interface ModelServer {
  readonly api: VlmApi;
  readonly url: string;
  chat(req: ChatRequest): Promise<ChatAnswer>;
  /** Models present on the server (pulled). */
  models(signal?: AbortSignal): Promise<string[]>;
  /** Models loaded in memory now; undefined when the API cannot tell (OpenAI-compatible). */
  loaded(signal?: AbortSignal): Promise<LoadedModel[] | undefined>;
  /** Unloads a model now; false when the API cannot (OpenAI-compatible). */
  unload(model: string, signal?: AbortSignal): Promise<boolean>;
}

/** Ollama tags name "qwen2.5vl:7b"; "qwen2.5vl" means ":latest". */
export function sameModel(a: string, b: string): boolean {
  const norm = (s: string) => (s.includes(":") ? s : `${s}:latest`).toLowerCase();
  return norm(a) === norm(b);
}
