// Property 30 (design): a second VLM extraction of the same screen takes ≤ 10 % of the first's time
// (cache hit). Measured against the fake Ollama server of the tests (real HTTP on 127.0.0.1, the
// real wire protocol, Qwen 2.5-VL's resize applied to the image it decodes) answering after a
// fixed delay that stands for the model's inference: no model runs on these machines, so the first
// request's time is "our client + that delay"; the delay is an assumption, printed with the figures.
// Screens: synthetic 1920×1080 and 1280×720 window captures (a magenta target on a drawn UI),
// not corpus screenshots. Also with delay 0, to show what the client itself costs on a miss.
//   npm run bench -- vlm            (RPAV_BENCH_VLM_DELAY_MS=1500 by default)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeFrame, type Frame } from "../../src/core/frame.js";
import { AnswerCache } from "../../src/vlm/answer-cache.js";
import { ModelDecider } from "../../src/vlm/decider.js";
import { ModelManager } from "../../src/vlm/model-manager.js";
import { OllamaServer } from "../../src/vlm/ollama-server.js";
import { QwenGrounder } from "../../src/vlm/qwen-grounder.js";
import { RoleModel } from "../../src/vlm/role-model.js";
import { FakeOllama, groundMagenta } from "../../test/support/fake-ollama.js";
import { round, writeResult } from "../lib.js";

const DELAY = Number(process.env.RPAV_BENCH_VLM_DELAY_MS ?? 1500);

function screen(w: number, h: number, seed: number): Frame {
  const data = new Uint8Array(w * h * 3);
  let s = seed;
  const rnd = () => ((s = (s * 1103515245 + 12345) >>> 0) / 2 ** 32);
  data.fill(236);
  // Panels and fields at random places, then the target.
  for (let k = 0; k < 40; k++) {
    const x = Math.floor(rnd() * (w - 200)), y = Math.floor(rnd() * (h - 40)), bw = 40 + Math.floor(rnd() * 160), bh = 16 + Math.floor(rnd() * 24), c = 120 + Math.floor(rnd() * 120);
    for (let yy = y; yy < y + bh; yy++) for (let xx = x; xx < x + bw; xx++) data.fill(c, (yy * w + xx) * 3, (yy * w + xx) * 3 + 3);
  }
  const tx = Math.floor(rnd() * (w - 100)), ty = Math.floor(rnd() * (h - 40));
  for (let yy = ty; yy < ty + 30; yy++) for (let xx = tx; xx < tx + 90; xx++) data.set([255, 0, 255], (yy * w + xx) * 3);
  return makeFrame({ data, width: w, height: h, channels: 3 });
}

async function run(delayMs: number, screens: Frame[]) {
  const fake = new FakeOllama({ delayMs, respond: (r) => (r.images.length ? groundMagenta(r) : JSON.stringify({ chosen: "new_tab", reason: "Le document n'est pas vide." })) });
  await fake.start();
  const dir = mkdtempSync(join(tmpdir(), "rpav-bench-vlm-"));
  const rows: { screen: string; first_ms: number; second_ms: number; ratio: number }[] = [];
  try {
    const server = new OllamaServer(fake.url);
    const fresh = (role: "grounding" | "decision", model: string) => new RoleModel({ role, model, server, manager: new ModelManager([server]), cache: new AnswerCache(dir) });
    for (const [i, f] of screens.entries()) {
      const t0 = performance.now();
      const a = await new QwenGrounder(fresh("grounding", "qwen2.5vl:7b")).ground(f, "the magenta button");
      const t1 = performance.now();
      const b = await new QwenGrounder(fresh("grounding", "qwen2.5vl:7b")).ground(f, "the magenta button");
      const t2 = performance.now();
      if (!a || !b || !b.evidence?.cached || a.bbox.join() !== b.bbox.join()) throw new Error("the second request was not a cache hit with the same answer");
      rows.push({ screen: `grounding ${f.width}×${f.height} #${i + 1}`, first_ms: round(t1 - t0, 1), second_ms: round(t2 - t1, 1), ratio: round((t2 - t1) / (t1 - t0), 4) });
      process.stderr.write(`\r  delay ${delayMs} ms: ${i + 1}/${screens.length} screens`);
    }
    const req = { expected: "Bloc-notes ouvert avec un document vide", actual: "Bloc-notes ouvert avec du contenu", planned: "Taper du texte", options: [{ id: "execute", description: "taper" }, { id: "new_tab", description: "nouvel onglet" }] };
    const t0 = performance.now();
    await new ModelDecider(fresh("decision", "gemma4:e4b")).decide(req);
    const t1 = performance.now();
    await new ModelDecider(fresh("decision", "gemma4:e4b")).decide(req);
    const t2 = performance.now();
    rows.push({ screen: "decision (text only)", first_ms: round(t1 - t0, 1), second_ms: round(t2 - t1, 1), ratio: round((t2 - t1) / (t1 - t0), 4) });
    process.stderr.write("\n");
    return { delay_ms: delayMs, server_requests: fake.requests.length, rows };
  } finally {
    await fake.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const screens = [screen(1920, 1080, 1), screen(1920, 1080, 2), screen(1280, 720, 3), screen(1280, 720, 4), screen(1600, 1200, 5)];
const runs = [];
for (const d of [DELAY, 0]) runs.push(await run(d, screens));
for (const r of runs) {
  console.log(`\nserver delay ${r.delay_ms} ms (stands for the model's inference; ${r.server_requests} requests reached the server)`);
  console.log("request                         first ms  second ms  second/first");
  for (const x of r.rows) console.log(`${x.screen.padEnd(30)} ${String(x.first_ms).padStart(9)} ${String(x.second_ms).padStart(10)}  ${(x.ratio * 100).toFixed(2).padStart(10)} %`);
  const worst = Math.max(...r.rows.map((x) => x.ratio));
  console.log(`worst second/first: ${(worst * 100).toFixed(2)} % — property 30 (≤ 10 %): ${worst <= 0.1 ? "met" : "NOT met"}`);
}
writeResult("vlm", { what: "property 30: second identical VLM request vs first, disk cache, fake Ollama server with a fixed answer delay (synthetic screens)", runs, property_30_met_at_delay: runs.map((r) => ({ delay_ms: r.delay_ms, met: r.rows.every((x) => x.ratio <= 0.1) })) });
