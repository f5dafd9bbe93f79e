import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigError } from "../core/errors.js";
import { resolveVlmConfig } from "./vlm-config.js";

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), "rpav-vlmcfg-"))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("VLM configuration", () => {
  it("defaults: one Ollama on 11434, qwen2.5vl:7b grounds, gemma4:e4b understands and decides", () => {
    const c = resolveVlmConfig(dir, {});
    expect(c.enabled).toBe(true);
    expect(c.roles.grounding).toEqual({ url: "http://127.0.0.1:11434", api: "ollama", model: "qwen2.5vl:7b" });
    expect(c.roles.understanding).toEqual({ url: "http://127.0.0.1:11434", api: "ollama", model: "gemma4:e4b" });
    expect(c.roles.decision).toEqual(c.roles.understanding);
    expect(c.cacheDir).toBe(join(dir, "cache", "vlm"));
  });

  it("the plan's two servers: per-role URLs; decisions follow the understanding server and model", () => {
    const c = resolveVlmConfig(dir, { RPAV_VLM_URL_UNDERSTANDING: "http://127.0.0.1:11435", RPAV_MODEL_UNDERSTANDING: "gemma3:4b" });
    expect(c.roles.grounding.url).toBe("http://127.0.0.1:11434");
    expect(c.roles.understanding).toMatchObject({ url: "http://127.0.0.1:11435", model: "gemma3:4b" });
    expect(c.roles.decision).toMatchObject({ url: "http://127.0.0.1:11435", model: "gemma3:4b" });
    expect(resolveVlmConfig(dir, { RPAV_MODEL_DECISION: "qwen3:4b" }).roles.decision.model).toBe("qwen3:4b");
  });

  it("config.json's vlm section, overridden by the environment", () => {
    writeFileSync(join(dir, "config.json"), JSON.stringify({ other: { x: 1 }, vlm: { url: "http://gpu:11434", api: "openai", timeout_ms: 5000, cache: false, roles: { decision: { model: "gemma4:e4b", options: { num_gpu: 0 } }, grounding: { coordinates: "normalized_1000" } } } }));
    const c = resolveVlmConfig(dir, { RPAV_VLM_API: "ollama" });
    expect(c.roles.grounding).toMatchObject({ url: "http://gpu:11434", api: "ollama", coordinates: "normalized_1000" });
    expect(c.roles.decision.options).toEqual({ num_gpu: 0 });
    expect(c.timeoutMs).toBe(5000);
    expect(c.cacheDir).toBeUndefined();
  });

  it("bad values are invalid_config naming the problem", () => {
    expect(() => resolveVlmConfig(dir, { RPAV_VLM_API: "grpc" })).toThrow(/ollama or openai/);
    expect(() => resolveVlmConfig(dir, { RPAV_VLM_URL: "localhost:11434" })).toThrow(ConfigError);
    writeFileSync(join(dir, "config.json"), JSON.stringify({ vlm: { roles: { grounding: { modle: "x" } } } }));
    expect(() => resolveVlmConfig(dir, {})).toThrow(/vlm\.roles\.grounding/);
    writeFileSync(join(dir, "config.json"), "{ not json");
    expect(() => resolveVlmConfig(dir, {})).toThrow(/malformed JSON at line 1/);
  });
});
