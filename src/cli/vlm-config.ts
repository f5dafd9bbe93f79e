// The vision-language model configuration, read once here (composition root): defaults, then the
// data directory's config.json "vlm" section (validated), then environment variables.
//   RPAV_VLM_URL (default http://127.0.0.1:11434), RPAV_VLM_URL_GROUNDING / _UNDERSTANDING / _DECISION
//   RPAV_VLM_API (ollama | openai), RPAV_MODEL_GROUNDING (qwen2.5vl:7b),
//   RPAV_MODEL_UNDERSTANDING (gemma4:e4b), RPAV_MODEL_DECISION (the understanding model)
import { join } from "node:path";
import type { z } from "zod";
import { ConfigError } from "../core/errors.js";
import { readConfigFile, VlmApiSchema as Api, HttpUrlSchema as Url, type VlmFileSchema } from "./config-file.js";
import type { VlmApi } from "../vlm/chat.js";
import type { CoordinateSpace } from "../vlm/qwen-grounder.js";
import type { VlmRole } from "../vlm/role-model.js";

export const VLM_ROLES: readonly VlmRole[] = ["grounding", "understanding", "decision"];
export const DEFAULT_VLM_URL = "http://127.0.0.1:11434";
export const DEFAULT_MODELS: Record<VlmRole, string> = { grounding: "qwen2.5vl:7b", understanding: "gemma4:e4b", decision: "gemma4:e4b" };

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

/** config.json's "vlm" section, validated by the one config reader (src/cli/config-file.ts). */
export function readVlmFile(dataDir: string): z.infer<typeof VlmFileSchema> | undefined {
  return readConfigFile(dataDir)?.config.vlm;
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
