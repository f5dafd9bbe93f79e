// `rpav doctor`'s VLM lines: for each role, whether its server answers, the model is pulled, and
// whether it is loaded now. A missing VLM is a note, never a failure: every command works without one.
import { sameModel } from "../../vlm/chat.js";
import { VLM_ROLES, resolveVlmConfig, type VlmConfig } from "../vlm-config.js";
import { createVlmProviders } from "../vlm-providers.js";
import type { Check } from "./doctor.js";

export interface RoleStatus {
  role: string;
  url: string;
  api: string;
  model: string;
  reachable: boolean;
  present: boolean | null;
  loaded: boolean | null;
  error?: string;
  loaded_models?: string[];
}

export async function vlmStatus(config: VlmConfig, probeTimeoutMs = 3000): Promise<RoleStatus[]> {
  const p = createVlmProviders(config, { probeTimeoutMs });
  const out: RoleStatus[] = [];
  for (const role of VLM_ROLES) {
    const m = p.roles[role];
    const base = { role, url: m.server.url, api: m.server.api, model: m.model };
    try {
      const models = await m.server.models();
      const loaded = await m.server.loaded();
      out.push({ ...base, reachable: true, present: models.some((x) => sameModel(x, m.model)), loaded: loaded ? loaded.some((x) => sameModel(x.name, m.model)) : null, ...(loaded ? { loaded_models: loaded.map((x) => x.name) } : {}) });
    } catch (e) {
      out.push({ ...base, reachable: false, present: null, loaded: null, error: (e as Error).message });
    }
  }
  return out;
}

export async function vlmChecks(dataDir: string, env: NodeJS.ProcessEnv): Promise<Check[]> {
  let config: VlmConfig;
  try {
    config = resolveVlmConfig(dataDir, env);
  } catch (e) {
    return [{ name: "vlm config", status: "missing", detail: (e as Error).message }];
  }
  if (!config.enabled) return [{ name: "vlm", status: "warn", detail: 'disabled in config.json ("vlm": {"enabled": false}); heuristics only unless a command says --vlm' }];
  return (await vlmStatus(config)).map((s) => ({
    name: `vlm ${s.role}`,
    status: s.reachable && s.present ? "ok" : "warn",
    detail: !s.reachable
      ? `${s.model} at ${s.url}: unreachable — heuristics only (start \`ollama serve\`, or set RPAV_VLM_URL${s.role === "grounding" ? "" : ` / RPAV_VLM_URL_${s.role.toUpperCase()}`})`
      : !s.present
        ? `${s.url} (${s.api}) reachable, ${s.model} not pulled: run \`ollama pull ${s.model}\``
        : `${s.model} at ${s.url} (${s.api}), ${s.loaded === null ? "load state unknown (OpenAI-compatible API)" : s.loaded ? "loaded" : "not loaded"}`,
  }));
}
