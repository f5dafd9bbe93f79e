// The vision-language model configuration, read once here (composition root): defaults, then the
// data directory's config.json "vlm" section (validated), then environment variables.
//   RPAV_VLM_URL (default http://127.0.0.1:11434), RPAV_VLM_URL_GROUNDING / _UNDERSTANDING / _DECISION
//   RPAV_VLM_API (ollama | openai), RPAV_MODEL_GROUNDING (qwen2.5vl:7b),
//   RPAV_MODEL_UNDERSTANDING (gemma4:e4b), RPAV_MODEL_DECISION (the understanding model)
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { ConfigError } from "../core/errors.js";
import type { VlmApi } from "../vlm/chat.js";
import type { CoordinateSpace } from "../vlm/qwen-grounder.js";
import type { VlmRole } from "../vlm/role-model.js";

export const VLM_ROLES: readonly VlmRole[] = ["grounding", "understanding", "decision"];
export const DEFAULT_VLM_URL = "http://127.0.0.1:11434";
export const DEFAULT_MODELS: Record<VlmRole, string> = { grounding: "qwen2.5vl:7b", understanding: "gemma4:e4b", decision: "gemma4:e4b" };

const Url = z.url({ protocol: /^https?$/ });
const Api = z.enum(["ollama", "openai"]);
const RoleSection = z.strictObject({
  url: Url.optional(),
  api: Api.optional(),
  model: z.string().min(1).optional(),
  /** Ollama options for this role (temperature, num_ctx, num_gpu: 0 to keep decisions on the CPU…). */
  options: z.record(z.string(), z.unknown()).optional(),
  keep_alive: z.union([z.string(), z.number()]).optional(),
  /** Grounding only: the model's coordinate convention, when its name does not tell. */
  coordinates: z.enum(["resized_pixels", "normalized_1000"]).optional(),
});
export const VlmFileSchema = z.strictObject({
  /** false: no model is asked unless a command says --vlm. */
  enabled: z.boolean().optional(),
  url: Url.optional(),
  api: Api.optional(),
  timeout_ms: z.number().int().positive().optional(),
  retries: z.number().int().min(0).max(10).optional(),
  /** Answers kept on disk under <data dir>/cache/vlm (default true). */
  cache: z.boolean().optional(),
  api_key: z.string().optional(),
  /**
   * Region proposals by the grounding model when detecting (slow): off (default), new_screens (only
   * for a screen whose state embedding matches no stored state), always.
   */
  regions: z.enum(["off", "new_screens", "always"]).optional(),
  /** Cosine at or above which a stored state counts as the same screen (default 0.85). */
  new_screen_cosine: z.number().gt(0).max(1).optional(),
  roles: z.strictObject({ grounding: RoleSection.optional(), understanding: RoleSection.optional(), decision: RoleSection.optional() }).optional(),
});

export interface VlmRoleConfig {
  readonly url: string;
  readonly api: VlmApi;
  readonly model: string;
  readonly options?: Record<string, unknown>;
  readonly keepAlive?: string | number;
  readonly coordinates?: CoordinateSpace;
}

export type VlmRegionsMode = "off" | "new_screens" | "always";

export interface VlmConfig {
  readonly enabled: boolean;
  readonly timeoutMs: number;
  readonly retries: number;
  readonly cacheDir: string | undefined;
  readonly apiKey: string | undefined;
  readonly regions: VlmRegionsMode;
  readonly newScreenCosine: number | undefined;
  readonly roles: Record<VlmRole, VlmRoleConfig>;
  /** Where each value came from, for `rpav vlm status`. */
  readonly sources: string[];
}

function envApi(v: string | undefined, name: string): VlmApi | undefined {
  if (v === undefined || v === "") return undefined;
  const r = Api.safeParse(v);
  if (!r.success) throw new ConfigError(`${name}=${JSON.stringify(v)}: the API kind is ollama or openai.`);
  return r.data;
}

function envUrl(v: string | undefined, name: string): string | undefined {
  if (v === undefined || v === "") return undefined;
  if (!Url.safeParse(v).success) throw new ConfigError(`${name}=${JSON.stringify(v)} is not an http(s) URL; write e.g. http://127.0.0.1:11434.`);
  return v;
}

/** Reads <dataDir>/config.json's "vlm" section (other sections are not ours and are ignored). */
export function readVlmFile(dataDir: string): z.infer<typeof VlmFileSchema> | undefined {
  const file = join(dataDir, "config.json");
  if (!existsSync(file)) return undefined;
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw new ConfigError(`${file}: not valid JSON (${(e as Error).message}); fix or remove it.`, { details: { source: file } });
  }
  const section = (doc as { vlm?: unknown } | null)?.vlm;
  if (section === undefined) return undefined;
  const r = VlmFileSchema.safeParse(section);
  if (!r.success) throw new ConfigError(`${file}: the "vlm" section is invalid: ${r.error.issues.map((i) => `vlm.${i.path.join(".")}: ${i.message}`).join("; ")}.`, { details: { source: file, issues: r.error.issues } });
  return r.data;
}

export function resolveVlmConfig(dataDir: string, env: NodeJS.ProcessEnv): VlmConfig {
  const file = readVlmFile(dataDir);
  const sources = [file ? `${join(dataDir, "config.json")} (vlm)` : "defaults"];
  const baseUrl = envUrl(env.RPAV_VLM_URL, "RPAV_VLM_URL") ?? file?.url ?? DEFAULT_VLM_URL;
  const baseApi = envApi(env.RPAV_VLM_API, "RPAV_VLM_API") ?? file?.api ?? "ollama";
  const roleOf = (role: VlmRole, fallback?: VlmRoleConfig): VlmRoleConfig => {
    const R = role.toUpperCase();
    const f = file?.roles?.[role];
    const url = envUrl(env[`RPAV_VLM_URL_${R}`], `RPAV_VLM_URL_${R}`) ?? f?.url ?? fallback?.url ?? baseUrl;
    const api = envApi(env[`RPAV_VLM_API_${R}`], `RPAV_VLM_API_${R}`) ?? f?.api ?? fallback?.api ?? baseApi;
    const model = env[`RPAV_MODEL_${R}`] || f?.model || fallback?.model || DEFAULT_MODELS[role];
    const options = f?.options ?? fallback?.options;
    const keepAlive = f?.keep_alive ?? fallback?.keepAlive;
    return { url, api, model, ...(options ? { options } : {}), ...(keepAlive !== undefined ? { keepAlive } : {}), ...(f?.coordinates ? { coordinates: f.coordinates } : {}) };
  };
  const grounding = roleOf("grounding");
  const understanding = roleOf("understanding");
  // Decisions default to the understanding model, on its server (plan: gemma in text mode).
  const decision = roleOf("decision", { url: understanding.url, api: understanding.api, model: understanding.model });
  if (Object.keys(env).some((k) => /^RPAV_(VLM|MODEL)_/.test(k))) sources.push("environment");
  return {
    enabled: file?.enabled ?? true,
    timeoutMs: file?.timeout_ms ?? 120_000,
    retries: file?.retries ?? 2,
    cacheDir: file?.cache === false ? undefined : join(dataDir, "cache", "vlm"),
    apiKey: file?.api_key,
    regions: file?.regions ?? "off",
    newScreenCosine: file?.new_screen_cosine,
    roles: { grounding, understanding, decision },
    sources,
  };
}
