import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { makeFrame, bboxFrameToScreen, type Frame } from "../core/frame.js";
import type { BBox } from "../core/geometry.js";
import { ModelAnswerInvalidError, ProviderUnavailableError, TimeoutError, AbortedError } from "../core/errors.js";
import { FakeOllama, closedPort, qwenSmartResize } from "../../test/support/fake-ollama.js";
import { AnswerCache } from "./answer-cache.js";
import type { ModelServer } from "./chat.js";
import { modelImageSize, roundHalfEven } from "./image-prep.js";
import { extractJson } from "./json-answer.js";
import { ModelManager, type ManagerEvent } from "./model-manager.js";
import { OllamaServer } from "./ollama-server.js";
import { OpenAiServer } from "./openai-server.js";
import { coordinateSpaceOf, QwenGrounder } from "./qwen-grounder.js";
import { RoleModel } from "./role-model.js";

/** A window capture: white, a magenta target at `target` (screen points), origin and scale as given. */
function windowFrame(size: [number, number], origin: [number, number], scale: number, target: BBox): Frame {
  const w = Math.round(size[0] * scale);
  const h = Math.round(size[1] * scale);
  const data = new Uint8Array(w * h * 4).fill(255);
  const [x1, y1, x2, y2] = [(target[0] - origin[0]) * scale, (target[1] - origin[1]) * scale, (target[2] - origin[0]) * scale, (target[3] - origin[1]) * scale];
  for (let y = Math.round(y1); y < Math.round(y2); y++)
    for (let x = Math.round(x1); x < Math.round(x2); x++) {
      const i = (y * w + x) * 4;
      data[i + 1] = 0;
    }
  return makeFrame({ data, width: w, height: h, channels: 4, scaleFactor: scale, origin });
}

let fake: FakeOllama;
let dir: string;
beforeEach(async () => {
  fake = new FakeOllama();
  await fake.start();
  dir = mkdtempSync(join(tmpdir(), "rpav-vlm-"));
});
afterEach(async () => {
  await fake.stop();
  rmSync(dir, { recursive: true, force: true });
});

function role(model = "qwen2.5vl:7b", server: ModelServer = new OllamaServer(fake.url, { retryDelayMs: 10 }), manager = new ModelManager([server]), cache?: AnswerCache) {
  return new RoleModel({ role: "grounding", model, server, manager, cache });
}

describe("Qwen 2.5-VL resize rule", () => {
  it("rounds half to even", () => {
    expect([0.5, 1.5, 2.5, 3.5, 2.4, 2.6].map(roundHalfEven)).toEqual([0, 2, 2, 4, 2, 3]);
  });
  it("gives Ollama's sizes (1920×1080 → 1904×1064) and agrees with the fake server's own copy", () => {
    expect(modelImageSize(1920, 1080)).toEqual({ width: 1904, height: 1064 });
    expect(modelImageSize(1600, 1200)).toEqual({ width: 1596, height: 1204 });
    expect(modelImageSize(20, 20)).toEqual({ width: 56, height: 56 });
    // 70/28 = 2.5 → 2 (half to even), 98/28 = 3.5 → 4.
    expect(modelImageSize(70, 98)).toEqual({ width: 56, height: 112 });
    for (const [w, h] of [[3840, 2160], [1366, 768], [800, 600], [57, 300], [2560, 1440], [1000, 30]] as const) expect(modelImageSize(w, h)).toEqual(qwenSmartResize(w, h));
  });
});

describe("answers are parsed leniently and validated", () => {
  it("takes JSON from fences, text around it, lists and objects", () => {
    expect(extractJson('```json\n[{"bbox_2d":[1,2,3,4]}]\n```')).toEqual([{ bbox_2d: [1, 2, 3, 4] }]);
    expect(extractJson('Sure! {"a": 1} hope this helps')).toEqual({ a: 1 });
    expect(extractJson("no json here")).toBeUndefined();
  });
});

describe("grounding", () => {
  it.each([
    ["scale 1, full screen", [1920, 1080], [0, 0], 1],
    ["scale 2 (HiDPI window)", [800, 600], [0, 0], 2],
    ["a moved window at scale 1", [1000, 700], [613, 241], 1],
    ["a moved window at scale 2", [700, 500], [1100, 377], 2],
  ] as const)("maps the model's box back to the exact screen box: %s", async (_, size, origin, scale) => {
    const target: BBox = [origin[0] + size[0] - 120, origin[1] + 40, origin[0] + size[0] - 40, origin[1] + 70];
    const frame = windowFrame([size[0], size[1]], [origin[0], origin[1]], scale, target);
    const g = await new QwenGrounder(role()).ground(frame, 'button "Valider"');
    expect(g).toBeDefined();
    const screen = bboxFrameToScreen(frame, g!.bbox);
    for (let i = 0; i < 4; i++) expect(Math.abs(screen[i]! - target[i]!)).toBeLessThanOrEqual(1);
    expect(fake.requests[0]!.images[0]!.sentWidth).toBe(fake.requests[0]!.images[0]!.width);
    expect(g!.evidence).toMatchObject({ model: "qwen2.5vl:7b", cached: false });
    expect(g!.evidence!.raw_answer).toContain("bbox_2d");
    expect(g!.evidence!.prompt_hash).toMatch(/^[0-9a-f]{16}$/);
  });

  it("a client that sends another size than the model's gets coordinates in another space (why we resize)", async () => {
    const target: BBox = [1780, 1000, 1900, 1060];
    const frame = windowFrame([1920, 1080], [0, 0], 1, target);
    const g = await new QwenGrounder(role(), { rule: { factor: 1, minPixels: 1, maxPixels: 1e9 } }).ground(frame, "the target");
    expect(Math.abs(g!.bbox[0] - target[0])).toBeGreaterThan(10);
  });

  it("reads 0–1000 normalised coordinates for Qwen3-VL and Qwen2-VL", async () => {
    expect(coordinateSpaceOf("qwen2.5vl:7b")).toBe("resized_pixels");
    expect(coordinateSpaceOf("qwen3-vl:8b")).toBe("normalized_1000");
    expect(coordinateSpaceOf("qwen2-vl:7b")).toBe("normalized_1000");
    fake.models.push("qwen3-vl:8b");
    const target: BBox = [500, 300, 700, 360];
    const frame = windowFrame([1280, 720], [0, 0], 1, target);
    const g = await new QwenGrounder(role("qwen3-vl:8b")).ground(frame, "the target");
    for (let i = 0; i < 4; i++) expect(Math.abs(g!.bbox[i]! - target[i]!)).toBeLessThanOrEqual(1.5);
  });

  it("accepts point_2d and a single object, and snaps to the detected element that holds it", async () => {
    fake.respond = () => '{"point_2d": [300, 200], "label": "OK"}';
    const frame = windowFrame([560, 420], [0, 0], 1, [0, 0, 0, 0]);
    const g = await new QwenGrounder(role()).ground(frame, "OK", undefined, { elements: [{ element_id: "el_far", bbox: [0, 0, 40, 20] }, { element_id: "el_ok", bbox: [280, 190, 330, 212] }] });
    expect(g!.bbox).toEqual([280, 190, 330, 212]);
    expect(g!.evidence!.snapped_to).toBe("el_ok");
  });

  it("an empty list is 'not visible' (undefined), and boxes outside the image are clipped", async () => {
    fake.respond = () => "[]";
    const frame = windowFrame([560, 420], [0, 0], 1, [0, 0, 0, 0]);
    expect(await new QwenGrounder(role()).ground(frame, "nothing")).toBeUndefined();
    fake.respond = () => '[{"bbox_2d": [500, 400, 900, 900]}]';
    const g = await new QwenGrounder(role()).ground(frame, "edge");
    expect(g!.bbox).toEqual([500, 400, 560, 420]);
  });
});

describe("errors", () => {
  const frame = () => windowFrame([560, 420], [0, 0], 1, [100, 100, 150, 130]);
  it("an unreachable server is provider_unavailable saying what to start", async () => {
    const server = new OllamaServer(await closedPort());
    const e = await new QwenGrounder(role("qwen2.5vl:7b", server)).ground(frame(), "x").catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ProviderUnavailableError);
    expect((e as Error).message).toMatch(/ollama serve|RPAV_VLM_URL/);
  });
  it("a model not pulled is provider_unavailable with the pull command", async () => {
    const e = await new QwenGrounder(role("qwen2.5vl:72b")).ground(frame(), "x").catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ProviderUnavailableError);
    expect((e as Error).message).toContain("ollama pull qwen2.5vl:72b");
  });
  it("retries a 500 and a reset connection, then succeeds", async () => {
    fake.fail("500", "reset");
    const g = await new QwenGrounder(role()).ground(frame(), "x");
    expect(g).toBeDefined();
    expect(fake.log.filter((l) => l === "POST /api/chat")).toHaveLength(3);
  });
  it("gives up after the bounded retries on repeated 500s", async () => {
    fake.fail("500", "500", "500");
    await expect(new QwenGrounder(role()).ground(frame(), "x")).rejects.toMatchObject({ code: "provider_unavailable", details: { status: 500 } });
  });
  it("a malformed answer is asked again once with the validation error, then succeeds", async () => {
    fake.fail("malformed");
    const g = await new QwenGrounder(role()).ground(frame(), "x");
    expect(g).toBeDefined();
    expect(fake.requests[1]!.messages.at(-1)!.content).toMatch(/not valid/);
  });
  it("two invalid answers are model_answer_invalid", async () => {
    fake.fail("not_json", "malformed");
    await expect(new QwenGrounder(role()).ground(frame(), "x")).rejects.toBeInstanceOf(ModelAnswerInvalidError);
  });
  it("a slow answer times out; the caller's signal aborts", async () => {
    fake.fail("slow");
    const server = new OllamaServer(fake.url, { timeoutMs: 200, retries: 0 });
    await expect(new QwenGrounder(role("qwen2.5vl:7b", server)).ground(frame(), "x")).rejects.toBeInstanceOf(TimeoutError);
    fake.fail("slow");
    const ctl = new AbortController();
    setTimeout(() => ctl.abort(), 100);
    await expect(new QwenGrounder(role()).ground(frame(), "x", ctl.signal)).rejects.toBeInstanceOf(AbortedError);
  });
  it("a fenced answer with text around it is read", async () => {
    fake.fail("fenced");
    fake.respond = () => '[{"bbox_2d": [100, 100, 150, 130]}]';
    expect((await new QwenGrounder(role()).ground(frame(), "x"))!.bbox).toEqual([100, 100, 150, 130]);
  });
});

describe("OpenAI-compatible servers", () => {
  it("send images as data URLs and structured output as response_format", async () => {
    const server = new OpenAiServer(`${fake.url}/v1`);
    const target: BBox = [200, 100, 260, 130];
    const g = await new QwenGrounder(role("qwen2.5vl:7b", server)).ground(windowFrame([700, 500], [0, 0], 1, target), "x");
    for (let i = 0; i < 4; i++) expect(Math.abs(g!.bbox[i]! - target[i]!)).toBeLessThanOrEqual(1);
    expect(fake.requests[0]!.api).toBe("openai");
    expect(await server.models()).toContain("gemma4:e4b");
    expect(await server.loaded()).toBeUndefined();
    fake.respond = () => '{"ok": true}';
    await role("gemma4:e4b", server).ask({ messages: [{ role: "user", content: "q" }], schema: z.object({ ok: z.boolean() }), structured: true });
    expect(fake.requests[1]!.format).toMatchObject({ type: "object", properties: { ok: { type: "boolean" } } });
  });
  it("a missing model is provider_unavailable", async () => {
    await expect(role("nope:1b", new OpenAiServer(fake.url)).ask({ messages: [{ role: "user", content: "q" }], schema: z.object({}), structured: true })).rejects.toMatchObject({ code: "provider_unavailable", details: { missingModel: true } });
  });
});

describe("one model at a time", () => {
  it("unloads the other model (keep_alive 0, confirmed by /api/ps) before a request needs another, across two servers", async () => {
    const second = new FakeOllama({ respond: () => '{"ok": true}' });
    await second.start();
    try {
      const events: ManagerEvent[] = [];
      const qwen = new OllamaServer(fake.url);
      const gemma = new OllamaServer(second.url);
      const manager = new ModelManager([qwen, gemma], { onEvent: (e) => events.push(e), pollMs: 10 });
      const understanding = new RoleModel({ role: "understanding", model: "gemma4:e4b", server: gemma, manager });
      const grounding = new RoleModel({ role: "grounding", model: "qwen2.5vl:7b", server: qwen, manager });
      const ask = () => understanding.ask({ messages: [{ role: "user", content: "describe" }], schema: z.object({ ok: z.boolean() }), structured: true });
      await ask();
      expect([...second.loaded.keys()]).toEqual(["gemma4:e4b"]);
      await new QwenGrounder(grounding).ground(windowFrame([560, 420], [0, 0], 1, [10, 10, 50, 30]), "x");
      expect([...second.loaded.keys()]).toEqual([]);
      expect([...fake.loaded.keys()]).toEqual(["qwen2.5vl:7b"]);
      expect(events.filter((e) => e.kind === "unload")).toEqual([expect.objectContaining({ server: second.url, model: "gemma4:e4b", confirmed: true })]);
      // The unload came before the grounding request, and was checked on /api/ps after it.
      const i = second.log.lastIndexOf("POST /api/chat");
      expect(second.log.slice(i + 1)).toContain("GET /api/ps");
      // Requests at once are serialised: never two models loaded together.
      await Promise.all([ask(), new QwenGrounder(grounding).ground(windowFrame([560, 420], [0, 0], 1, [10, 10, 50, 30]), "y"), ask()]);
      expect(fake.loaded.size + second.loaded.size).toBe(1);
      expect((await manager.unloadAll()).length).toBe(1);
      expect(fake.loaded.size + second.loaded.size).toBe(0);
    } finally {
      await second.stop();
    }
  });
});

describe("cache", () => {
  it("a second identical request is answered from disk, without the server", async () => {
    const cache = new AnswerCache(join(dir, "vlm"));
    const frame = windowFrame([560, 420], [0, 0], 1, [100, 100, 150, 130]);
    const r = role("qwen2.5vl:7b", undefined, undefined, cache);
    const a = await new QwenGrounder(r).ground(frame, "x");
    const b = await new QwenGrounder(r).ground(frame, "x");
    expect(b!.bbox).toEqual(a!.bbox);
    expect(b!.evidence!.cached).toBe(true);
    expect(fake.requests).toHaveLength(1);
    // Another description, another image or another model is a miss.
    await new QwenGrounder(r).ground(frame, "y");
    await new QwenGrounder(r).ground(windowFrame([560, 420], [0, 0], 1, [200, 100, 250, 130]), "x");
    expect(fake.requests).toHaveLength(3);
  });
});

describe("region proposals", () => {
  it("maps every proposed element back to frame pixels and keeps only the eight types", async () => {
    const { VlmRegionProposer } = await import("./region-proposer.js");
    // 1920×1080 is seen as 1904×1064: the model's boxes are in that space.
    fake.respond = () => '```json\n[{"bbox_2d": [952, 532, 1904, 1064], "type": "button", "label": "OK"}, {"bbox_2d": [0, 0, 95.2, 53.2], "type": "spaceship"}, {"bbox_2d": [5000, 5000, 6000, 6000], "type": "link"}]\n```';
    const frame = windowFrame([1920, 1080], [0, 0], 1, [0, 0, 0, 0]);
    const regions = await new VlmRegionProposer(role()).proposeRegions(frame);
    expect(regions).toHaveLength(2);
    expect(regions[0]).toMatchObject({ type: "button", label: "OK" });
    regions[0]!.bbox.forEach((v, i) => expect(v).toBeCloseTo([960, 540, 1920, 1080][i]!, 5));
    expect(regions[1]!.type).toBe("generic_interactive");
    regions[1]!.bbox.forEach((v, i) => expect(v).toBeCloseTo([0, 0, 96, 54][i]!, 5));
  });
});
