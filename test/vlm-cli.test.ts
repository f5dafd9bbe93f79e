// The VLM commands as a user runs them (bin/rpav.js), against the fake Ollama server and with no
// server at all: nothing changes for the user without one but a doctor line and vlm_used: false.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeFrame } from "../src/core/frame.js";
import { encodePng } from "../src/capture/png.js";
import { RAW_SESSION_V1 } from "../src/record/recorder.js";
import { ROOT } from "./support/cli.js";
import { closedPort, FakeOllama, groundMagenta, type FakeRequest } from "./support/fake-ollama.js";

/** Like test/support/cli.ts's rpav(), but asynchronous: the fake server answers from this process. */
function rpav(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [`${ROOT}bin/rpav.js`, ...args], { cwd: ROOT, env: { ...process.env, ...env } });
    let stdout = "";
    let stderr = "";
    p.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    p.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    p.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

let fake: FakeOllama;
let dir: string;
let down: string;
const respond = (req: FakeRequest) => (req.model.startsWith("gemma") ? JSON.stringify({ intention: "Renseigner le formulaire du patient", expected_state: "Formulaire « Nouveau patient » ouvert", expected_result: "Le champ a le focus", target_description: "bouton qui valide le formulaire" }) : groundMagenta(req));

beforeAll(async () => {
  fake = new FakeOllama({ respond });
  await fake.start();
  down = await closedPort();
  dir = mkdtempSync(join(tmpdir(), "rpav-vlmcli-"));
  // A screen: white, a magenta square at (300, 200)–(340, 230), nothing to read.
  const w = 640, h = 400;
  const data = new Uint8Array(w * h * 3).fill(255);
  for (let y = 200; y < 230; y++) for (let x = 300; x < 340; x++) data[(y * w + x) * 3 + 1] = 0;
  const png = await encodePng(makeFrame({ data, width: w, height: h, channels: 3 }));
  writeFileSync(join(dir, "screen.png"), png);
  const s = join(dir, "session");
  mkdirSync(join(s, "shots"), { recursive: true });
  writeFileSync(join(s, "shots", "a.png"), png);
  const win = { id: "0x1", title: "Nouveau patient", app: "Yad", bbox: [0, 0, w, h] };
  writeFileSync(join(s, "session.jsonl"), [{ schema_version: RAW_SESSION_V1, name: "Patient", app: "yad", started_at: "2026-12-02T06:00:00Z" }, { seq: 1, kind: "click", t: 1000, button: 1, x: 320, y: 215, window: win, before: "shots/a.png", after: "shots/a.png" }, { kind: "end", actions: 1 }].map((l) => JSON.stringify(l)).join("\n") + "\n");
}, 60_000);
afterAll(async () => {
  await fake.stop();
  rmSync(dir, { recursive: true, force: true });
});

const up = () => ({ RPAV_HOME: join(dir, "home-up"), RPAV_VLM_URL: fake.url });
const none = () => ({ RPAV_HOME: join(dir, "home-down"), RPAV_VLM_URL: down });

describe("rpav doctor / vlm status / vlm unload", () => {
  it("doctor shows each role: reachable, pulled, loaded; unreachable is a note", async () => {
    const r = await rpav(["doctor", "--json"], up());
    const checks = JSON.parse(r.stdout) as { name: string; status: string; detail: string }[];
    expect(checks.filter((c) => c.name.startsWith("vlm ")).map((c) => [c.name, c.status])).toEqual([["vlm grounding", "ok"], ["vlm understanding", "ok"], ["vlm decision", "ok"]]);
    expect(checks.find((c) => c.name === "vlm grounding")!.detail).toContain("qwen2.5vl:7b");
    const d = await rpav(["doctor", "--json"], { ...none() });
    const g = (JSON.parse(d.stdout) as { name: string; status: string; detail: string }[]).find((c) => c.name === "vlm grounding")!;
    expect(g.status).toBe("warn");
    expect(g.detail).toMatch(/unreachable — heuristics only/);
    const m = await rpav(["doctor", "--json"], { ...up(), RPAV_MODEL_GROUNDING: "qwen2.5vl:32b" });
    expect((JSON.parse(m.stdout) as { name: string; detail: string }[]).find((c) => c.name === "vlm grounding")!.detail).toContain("ollama pull qwen2.5vl:32b");
  }, 60_000);

  it("vlm status lists loaded models; vlm unload unloads them (confirmed by /api/ps)", async () => {
    fake.loaded.set("gemma4:e4b", Date.now());
    const s = await rpav(["vlm", "status", "--json"], up());
    expect(s.code).toBe(0);
    const roles = (JSON.parse(s.stdout) as { roles: { role: string; loaded: boolean; present: boolean }[] }).roles;
    expect(roles.map((x) => [x.role, x.present, x.loaded])).toEqual([["grounding", true, false], ["understanding", true, true], ["decision", true, true]]);
    const u = await rpav(["vlm", "unload", "--json"], up());
    expect(JSON.parse(u.stdout)).toEqual({ unloaded: [{ server: fake.url, model: "gemma4:e4b", confirmed: true }] });
    expect(fake.loaded.size).toBe(0);
    const n = await rpav(["vlm", "status"], none());
    expect(n.code).toBe(1);
    expect(n.stdout).toMatch(/UNREACHABLE/);
  }, 60_000);
});

describe("rpav locate --vlm", () => {
  it("grounds with the model (box mapped back to the image's pixels) and records model, prompt hash and raw answer", async () => {
    const r = await rpav(["locate", join(dir, "screen.png"), "click the magenta square", "--vlm", "--json", "--ocr", "ppocr"], up());
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout) as { method: string; vlm_used: boolean; bbox: number[]; vlm: { model: string; prompt_hash: string; raw_answer: string; image_size: number[] } };
    expect(j).toMatchObject({ method: "vlm", vlm_used: true, vlm: { model: "qwen2.5vl:7b", image_size: [644, 392] } });
    [300, 200, 340, 230].forEach((v, i) => expect(Math.abs(j.bbox[i]! - v)).toBeLessThanOrEqual(1));
    expect(j.vlm.raw_answer).toContain("bbox_2d");
  }, 90_000);

  it("without a server: the heuristics' answer, vlm_used false, and the reason", async () => {
    const r = await rpav(["locate", join(dir, "screen.png"), "click the magenta square", "--vlm", "--json", "--ocr", "ppocr"], none());
    const j = JSON.parse(r.stdout) as { found: boolean; vlm_used: boolean; vlm_error: string };
    expect(j).toMatchObject({ found: false, vlm_used: false });
    expect(j.vlm_error).toMatch(/No model server/);
    const plain = JSON.parse((await rpav(["locate", join(dir, "screen.png"), "click the magenta square", "--json", "--ocr", "ppocr"], up())).stdout) as { vlm_used: boolean };
    expect(plain.vlm_used).toBe(false);
  }, 90_000);
});

describe("rpav build --enrich", () => {
  it("writes the model's texts and the target's semantic description; without a server the deterministic texts stay", async () => {
    const out = join(dir, "wf-up.json");
    const r = await rpav(["build", join(dir, "session"), "--enrich", "--out", out], up());
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("vlm_used true");
    const wf = JSON.parse(readFileSync(out, "utf8")) as { steps: { intention: string; target: { semantic_description?: string } | null }[]; enrichment?: { model: string } };
    expect(wf.steps[0]!.intention).toBe("Renseigner le formulaire du patient");
    expect(wf.enrichment?.model).toBe("gemma4:e4b");
    const out2 = join(dir, "wf-down.json");
    const d = await rpav(["build", join(dir, "session"), "--enrich", "--out", out2], none());
    expect(d.code, d.stderr).toBe(0);
    expect(d.stderr).toContain("vlm_used false");
    const wf2 = JSON.parse(readFileSync(out2, "utf8")) as { steps: { intention: string; target: { semantic_description?: string } | null }[]; enrichment?: unknown };
    expect(wf2.steps[0]!.intention).not.toBe("Renseigner le formulaire du patient");
    expect(wf2.enrichment).toBeUndefined();
    expect(wf2.steps[0]!.target?.semantic_description).toBeUndefined();
  }, 180_000);
});

describe("rpav detect --vlm-regions", () => {
  it("adds the model's elements (vlm_query) to the heuristics'; without a server vlm_used is false", async () => {
    fake.respond = () => '[{"bbox_2d": [100, 50, 180, 80], "type": "button", "label": "Magenta"}]';
    // "always": \`rpav build\` above stored this very screen as a step's state, so "new" would not ask.
    const r = await rpav(["detect", join(dir, "screen.png"), "--vlm-regions", "always", "--json", "--ocr", "ppocr"], up());
    fake.respond = respond;
    expect(r.code, r.stderr).toBe(0);
    const s = JSON.parse(r.stdout) as { ui_elements: { detection_method: string; label: string }[]; processing_metadata: { vlm_used: boolean } };
    expect(s.processing_metadata.vlm_used).toBe(true);
    expect(s.ui_elements.some((e) => e.detection_method === "vlm_query" && e.label === "Magenta")).toBe(true);
    // The default, "new": the screen is the recorded state of the built workflow's step, so it is known.
    const known = JSON.parse((await rpav(["detect", join(dir, "screen.png"), "--vlm-regions", "--json", "--ocr", "ppocr", "--app", "Yad", "--title", "Nouveau patient"], up())).stdout) as { processing_metadata: { vlm_used: boolean; vlm_gate?: { novel: boolean; stored: number } } };
    expect(known.processing_metadata.vlm_gate?.stored).toBeGreaterThan(0);
    expect(known.processing_metadata.vlm_gate?.novel).toBe(false);
    expect(known.processing_metadata.vlm_used).toBe(false);
    const d = JSON.parse((await rpav(["detect", join(dir, "screen.png"), "--vlm-regions", "always", "--json", "--ocr", "ppocr"], none())).stdout) as { processing_metadata: { vlm_used: boolean } };
    expect(d.processing_metadata.vlm_used).toBe(false);
  }, 90_000);
});

describe("model regions only for new screens (the design's _should_use_vlm)", () => {
  const home = () => join(dir, "home-gate");
  const regionRequests = () => fake.requests.filter((r) => r.model.startsWith("qwen")).length;
  type Meta = { processing_metadata: { vlm_used: boolean; vlm_gate?: { novel: boolean; nearest: { id: string; cosine: number } | null; min_cosine: number; stored: number } }; mode: string; screen_state_id: string };
  const detect = async (image: string, extra: string[], env: NodeJS.ProcessEnv = {}) => {
    const r = await rpav(["detect", join(dir, image), "--json", "--ocr", "ppocr", "--app", "demo", "--title", "Nouveau patient", ...extra], { RPAV_HOME: home(), RPAV_VLM_URL: fake.url, ...env });
    expect(r.code, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as Meta;
  };

  it("asks the model for a screen the store does not know, not for one it remembers, always when told", async () => {
    fake.respond = () => '[{"bbox_2d": [100, 50, 180, 80], "type": "button", "label": "Magenta"}]';
    // Another screen: dark, with light blocks where the first has none.
    const w = 640, h = 400;
    const data = new Uint8Array(w * h * 3).fill(40);
    for (let y = 40; y < 360; y++) for (let x = 20; x < 620; x++) if ((Math.floor(x / 80) + Math.floor(y / 60)) % 2 === 0) data.fill(230, (y * w + x) * 3, (y * w + x) * 3 + 3);
    writeFileSync(join(dir, "other.png"), await encodePng(makeFrame({ data, width: w, height: h, channels: 3 })));
    try {
      let before = regionRequests();
      const first = await detect("screen.png", ["--vlm-regions", "--remember"]);
      expect(first.processing_metadata.vlm_gate).toMatchObject({ novel: true, nearest: null, stored: 0, min_cosine: 0.85 });
      expect(first.processing_metadata.vlm_used).toBe(true);
      expect(first.mode).toBe("complete");
      expect(regionRequests()).toBe(before + 1);

      before = regionRequests();
      const again = await detect("screen.png", ["--vlm-regions"]);
      expect(again.processing_metadata.vlm_gate?.novel).toBe(false);
      expect(again.processing_metadata.vlm_gate?.nearest?.id).toContain(first.screen_state_id);
      expect(again.processing_metadata.vlm_gate?.nearest?.cosine).toBeGreaterThan(0.99);
      expect(again.processing_metadata.vlm_used).toBe(false);
      expect(regionRequests()).toBe(before);

      const other = await detect("other.png", ["--vlm-regions"]);
      expect(other.processing_metadata.vlm_gate?.novel).toBe(true);
      expect(other.processing_metadata.vlm_gate?.nearest?.cosine).toBeLessThan(0.85);
      expect(other.processing_metadata.vlm_used).toBe(true);
      expect(regionRequests()).toBe(before + 1);

      // Told "always": asked although the screen is known (its answer now comes from the cache).
      const always = await detect("screen.png", ["--vlm-regions", "always"]);
      expect(always.processing_metadata.vlm_gate).toBeUndefined();
      expect(always.processing_metadata.vlm_used).toBe(true);
    } finally {
      fake.respond = respond;
    }
  }, 180_000);

  it("config.json's vlm.regions applies without the flag; --no-vlm overrides it; a bad value is a typed error", async () => {
    mkdirSync(home(), { recursive: true });
    writeFileSync(join(home(), "config.json"), JSON.stringify({ vlm: { regions: "new_screens", new_screen_cosine: 0.999999 } }));
    try {
      const strict = await detect("screen.png", []);
      // The remembered screen again, but the threshold is set above what a recapture reaches.
      expect(strict.processing_metadata.vlm_gate?.min_cosine).toBe(0.999999);
      expect(strict.processing_metadata.vlm_used).toBe(strict.processing_metadata.vlm_gate?.novel);
      const off = await detect("screen.png", ["--no-vlm"]);
      expect(off.processing_metadata.vlm_gate).toBeUndefined();
      expect(off.processing_metadata.vlm_used).toBe(false);
      const bad = await rpav(["detect", join(dir, "screen.png"), "--vlm-regions", "sometimes"], { RPAV_HOME: home(), RPAV_VLM_URL: fake.url });
      expect(bad.code).toBe(1);
      expect(bad.stderr).toContain("[invalid_input]");
      expect(bad.stderr).toContain("--vlm-regions always");
    } finally {
      rmSync(join(home(), "config.json"), { force: true });
    }
  }, 180_000);
});

