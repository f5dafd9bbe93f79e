// Concrete VLM providers from the configuration: one client per server (URL + API), one manager
// for all of them (one model in memory at a time, as the plan's single GPU needs), the disk cache,
// and the role objects (grounder, enrichment model, decider).
import { AnswerCache } from "../vlm/answer-cache.js";
import type { ModelServer } from "../vlm/chat.js";
import { ModelDecider } from "../vlm/decider.js";
import { ModelManager, type ManagerEvent } from "../vlm/model-manager.js";
import { OllamaServer } from "../vlm/ollama-server.js";
import { OpenAiServer } from "../vlm/openai-server.js";
import { QwenGrounder } from "../vlm/qwen-grounder.js";
import { VlmRegionProposer } from "../vlm/region-proposer.js";
import { RoleModel, type VlmRole } from "../vlm/role-model.js";
import { VLM_ROLES, type VlmConfig } from "./vlm-config.js";

export interface VlmProviders {
  readonly manager: ModelManager;
  readonly servers: readonly ModelServer[];
  readonly roles: Record<VlmRole, RoleModel>;
  readonly grounder: QwenGrounder;
  readonly decider: ModelDecider;
  /** Region proposals by the grounding model (off unless a command asks). */
  readonly proposer: VlmRegionProposer;
}

export function createVlmProviders(config: VlmConfig, opts: { onEvent?: (e: ManagerEvent) => void; probeTimeoutMs?: number } = {}): VlmProviders {
  const servers = new Map<string, ModelServer>();
  const serverFor = (url: string, api: "ollama" | "openai") => {
    const key = `${api} ${url}`;
    let s = servers.get(key);
    if (!s) {
      const o = { timeoutMs: config.timeoutMs, retries: config.retries, ...(opts.probeTimeoutMs ? { probeTimeoutMs: opts.probeTimeoutMs } : {}), ...(config.apiKey ? { apiKey: config.apiKey } : {}) };
      s = api === "openai" ? new OpenAiServer(url, o) : new OllamaServer(url, o);
      servers.set(key, s);
    }
    return s;
  };
  for (const r of VLM_ROLES) serverFor(config.roles[r].url, config.roles[r].api);
  const manager = new ModelManager([...servers.values()], opts.onEvent ? { onEvent: opts.onEvent } : {});
  const cache = config.cacheDir ? new AnswerCache(config.cacheDir) : undefined;
  const make = (role: VlmRole) => {
    const c = config.roles[role];
    return new RoleModel({ role, model: c.model, server: serverFor(c.url, c.api), manager, cache, options: c.options, keepAlive: c.keepAlive });
  };
  const roles = { grounding: make("grounding"), understanding: make("understanding"), decision: make("decision") };
  const coords = config.roles.grounding.coordinates;
  const space = coords ? { coordinates: coords } : {};
  return { manager, servers: [...servers.values()], roles, grounder: new QwenGrounder(roles.grounding, space), decider: new ModelDecider(roles.decision), proposer: new VlmRegionProposer(roles.grounding, space) };
}
