// One model in memory at a time (plan: one GPU for qwen2.5vl on :11434 and gemma on :11435; build
// with gemma → unload → replay with qwen). Requests through one manager run one after the other;
// before a request needs a model other than the loaded ones, every other model loaded on the
// servers of the group is unloaded (keep_alive 0) and the unload is confirmed by /api/ps.
import { ProviderUnavailableError } from "../core/errors.js";
import { sameModel, type ChatAnswer, type ChatRequest, type ModelServer } from "./chat.js";

export type ManagerEvent =
  | { kind: "unload"; server: string; model: string; confirmed: boolean; ms: number }
  | { kind: "request"; server: string; model: string; ms: number };

export interface ModelManagerOptions {
  /** Polls of /api/ps after an unload before giving up on confirming it. */
  confirmPolls?: number;
  pollMs?: number;
  onEvent?: (e: ManagerEvent) => void;
}

export class ModelManager {
  private queue: Promise<unknown> = Promise.resolve();
  private readonly servers = new Map<string, ModelServer>();

  constructor(
    servers: readonly ModelServer[],
    private readonly opts: ModelManagerOptions = {},
  ) {
    for (const s of servers) this.servers.set(s.url, s);
  }

  /** The servers sharing the one-model budget (one per URL). */
  list(): ModelServer[] {
    return [...this.servers.values()];
  }

  /** Runs `fn` after every request queued before it. */
  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Sends a chat request on `server` with only its model loaded. */
  chat(server: ModelServer, req: ChatRequest): Promise<ChatAnswer> {
    if (!this.servers.has(server.url)) this.servers.set(server.url, server);
    return this.serial(async () => {
      await this.makeRoom(server, req.model, req.signal);
      const a = await server.chat(req);
      this.opts.onEvent?.({ kind: "request", server: server.url, model: req.model, ms: a.ms });
      return a;
    });
  }

  /** Unloads every model but `keep` on `keep`'s server, on every server of the group. */
  private async makeRoom(target: ModelServer, keep: string, signal?: AbortSignal): Promise<void> {
    for (const s of this.servers.values()) {
      let loaded;
      try {
        loaded = await s.loaded(signal);
      } catch (e) {
        // Another server of the group that is down holds nothing; the target's own failure surfaces in chat().
        if (e instanceof ProviderUnavailableError) continue;
        throw e;
      }
      if (!loaded) continue;
      for (const m of loaded) if (!(s === target && sameModel(m.name, keep))) await this.unloadOne(s, m.name, signal);
    }
  }

  private async unloadOne(s: ModelServer, model: string, signal?: AbortSignal): Promise<boolean> {
    const t0 = performance.now();
    await s.unload(model, signal);
    let confirmed = false;
    for (let i = 0; i < (this.opts.confirmPolls ?? 50); i++) {
      const now = await s.loaded(signal);
      if (!now || !now.some((m) => sameModel(m.name, model))) {
        confirmed = true;
        break;
      }
      await new Promise((r) => setTimeout(r, this.opts.pollMs ?? 100));
    }
    this.opts.onEvent?.({ kind: "unload", server: s.url, model, confirmed, ms: performance.now() - t0 });
    return confirmed;
  }

  /** Unloads every loaded model on every server (`rpav vlm unload`); lists what was unloaded. */
  unloadAll(signal?: AbortSignal): Promise<{ server: string; model: string; confirmed: boolean }[]> {
    return this.serial(async () => {
      const out: { server: string; model: string; confirmed: boolean }[] = [];
      for (const s of this.servers.values()) {
        const loaded = await s.loaded(signal);
        for (const m of loaded ?? []) out.push({ server: s.url, model: m.name, confirmed: await this.unloadOne(s, m.name, signal) });
      }
      return out;
    });
  }
}
