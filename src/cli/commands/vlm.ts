// `rpav vlm status` and `rpav vlm unload`: the configured model servers, which models each role
// uses, which are loaded; unloading them all (the plan's "auto-unload" between build and replay).
import type { Command } from "commander";
import { resolveDataDir, type GlobalOptions } from "../config.js";
import { resolveVlmConfig } from "../vlm-config.js";
import { createVlmProviders } from "../vlm-providers.js";
import type { CliIo } from "./desktop.js";
import { vlmStatus } from "./doctor-vlm.js";

export function registerVlmCommands(program: Command, io: CliIo, setExit: (code: number) => void): void {
  const globals = () => program.opts<GlobalOptions>();
  const vlm = program.command("vlm").description("local vision-language models (Ollama, OpenAI-compatible servers)");
  vlm
    .command("status")
    .description("each role's server, model, whether it is reachable, pulled and loaded; exit 1 when a server is unreachable")
    .option("--json", "print as JSON")
    .action(async (o: { json?: boolean }) => {
      const config = resolveVlmConfig(resolveDataDir(globals(), io.env), io.env);
      const status = await vlmStatus(config);
      if (o.json) io.out(`${JSON.stringify({ enabled: config.enabled, sources: config.sources, cache: config.cacheDir ?? null, roles: status }, null, 2)}\n`);
      else {
        io.out(`configuration: ${config.sources.join(" + ")}${config.enabled ? "" : " — disabled (enabled: false)"}\n`);
        for (const s of status)
          io.out(`${s.role.padEnd(13)} ${s.model.padEnd(18)} ${s.url} (${s.api})  ${!s.reachable ? `UNREACHABLE: ${s.error}` : `${s.present ? "pulled" : `NOT PULLED (ollama pull ${s.model})`}, ${s.loaded === null ? "load state unknown" : s.loaded ? "loaded" : "not loaded"}${s.loaded_models?.length ? ` — loaded here: ${s.loaded_models.join(", ")}` : ""}`}\n`);
      }
      if (status.some((s) => !s.reachable)) setExit(1);
    });
  vlm
    .command("unload")
    .description("unload every model loaded on the configured Ollama servers (keep_alive 0), confirmed by /api/ps")
    .option("--json", "print as JSON")
    .action(async (o: { json?: boolean }) => {
      const config = resolveVlmConfig(resolveDataDir(globals(), io.env), io.env);
      const p = createVlmProviders(config);
      const done = await p.manager.unloadAll();
      if (o.json) io.out(`${JSON.stringify({ unloaded: done }, null, 2)}\n`);
      else if (done.length === 0) io.out("no model was loaded\n");
      else for (const d of done) io.out(`unloaded ${d.model} on ${d.server}${d.confirmed ? "" : " (still listed by /api/ps)"}\n`);
      if (done.some((d) => !d.confirmed)) setExit(1);
    });
}
