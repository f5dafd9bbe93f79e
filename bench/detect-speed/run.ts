// Detection speed (issue #21 item 4): warm `detect` of full-HD screens, OCR included, with the learned detector and the
// rules one; the model's own inference; and the cold start of `rpav detect` (a new process on one screenshot).
// Run: npm run bench -- detect-speed      (quiet machine: the figures are wall-clock times on its 2 cores, and the
//                                          process's CPU time per detection, all its threads: what the 2 cores share)
//   RPAV_BENCH_SCREENS=<n>   screens (default 16): the largest screens of the data manifest (≥ 80 % of 1920×1080
//                             pixels, drawn at scale 1), every family, deterministic order by id hash
//   RPAV_BENCH_COLD=<n>      cold starts of each kind (default 3): first run, and later runs with the data folder kept
//   RPAV_BENCH_MODEL_THREADS=<n>  the model's intra-op threads for the warm runs (default: the product's, 2)
//   RPAV_BENCH_DAEMON=0      skip the cold starts with the detection daemon running (RPAV_BENCH_DAEMON_RUNS, default 8)
//   RPAV_BENCH_DETECTORS=<list>  the warm runs of these detectors only, in this order (default hybrid,learned,rules)
// No OCR cache, and each detector its own engines warmed up on a screen outside the sample: every detection reads a
// screen its OCR never saw (the OCR keeps lines it read, so a second detector on the same screens would be flattered). Targets: median ≤ 500 ms, p95 ≤ 1 s, model ≤ 150 ms,
// cold start ≤ 1.5 s.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readImageFile } from "../../src/capture/png.js";
import { AccentLexicon, HybridOcr } from "../../src/perception/hybrid-ocr.js";
import { defaultDetectorModelDir, DETECTOR_RESTORE_COMMAND, LearnedDetector } from "../../src/perception/learned-detector.js";
import { PpOcr } from "../../src/perception/ppocr-ocr.js";
import { TesseractOcr } from "../../src/perception/tesseract-ocr.js";
import { UIElementDetector } from "../../src/perception/ui-element-detector.js";
import { LogisticRulesGate } from "../../src/perception/rules-gate.js";
import { benchHybridModel, percentile, round, writeResult } from "../lib.js";
import { fullHdScreens, SPEED_SCREENS } from "../../training/fold-split.js";

const ROOT = join(import.meta.dirname, "..", "..");
const DATA = join(ROOT, "training", "data");
const n = Number(process.env.RPAV_BENCH_SCREENS ?? SPEED_SCREENS);
const cold = Number(process.env.RPAV_BENCH_COLD ?? 3);
const manifest = JSON.parse(readFileSync(join(defaultDetectorModelDir(), "data-manifest.json"), "utf8")) as { files: Array<{ id: string; family: string; subfamily: string; width: number; height: number; scale: number | null }> };
const picked = fullHdScreens(manifest.files)
  .filter((f) => existsSync(join(DATA, f.family, `${f.id}.png`)))
  .slice(0, n + 1);
const warmup = picked.pop()!;
if (!picked.length) {
  console.error("No full-HD screens: generate them first (npm run train -- bench-screens: the benches' screens, minutes; npm run train -- data: the whole data set, hours).");
  process.exit(1);
}

const threads = process.env.RPAV_BENCH_MODEL_THREADS ? Number(process.env.RPAV_BENCH_MODEL_THREADS) : undefined; // the model's intra-op threads (product default 2)
// The product's hybrid: the rules' extras through its gate (models/ui-detector/rules-gate.json; RPAV_BENCH_GATE=0: all of them).
const rulesGate = LogisticRulesGate.load(defaultDetectorModelDir(), DETECTOR_RESTORE_COMMAND);
const frames = await Promise.all(picked.map((f) => readImageFile(join(DATA, f.family, `${f.id}.png`))));
const warmFrame = await readImageFile(join(DATA, warmup.family, `${warmup.id}.png`));
const q = (xs: number[], p: number) => round(percentile([...xs].sort((a, b) => a - b), p), 1);
const out: Record<string, unknown> = { screens: picked.map((f) => `${f.id} ${f.width}x${f.height}`), warmup: warmup.id };
// Each detector gets its own engines (the OCR keeps the lines it read: a screen read by one detector would be read
// faster by the next), warmed up on a screen outside the sample: every timed detection reads a screen it never saw.
// hybrid: the model and the rules (`--detector hybrid`, the product's default; its coarse pass's boxes where nothing else
// stands, lib.ts benchHybridModel); learned: the model alone, with its coarse pass merged in.
const known = ["hybrid", "learned", "rules"] as const;
const kinds = process.env.RPAV_BENCH_DETECTORS ? process.env.RPAV_BENCH_DETECTORS.split(",").filter((k): k is (typeof known)[number] => (known as readonly string[]).includes(k)) : known;
const hybridModel = benchHybridModel();
for (const name of kinds) {
  const pp = await PpOcr.create();
  const tess = await TesseractOcr.create();
  const ocr = new HybridOcr(pp, tess, AccentLexicon.load());
  const model = name === "rules" ? undefined : await LearnedDetector.create({ coarse: name === "learned" || hybridModel.coarse, ...(threads ? { threads } : {}) });
  const det =
    name === "rules" ? new UIElementDetector({ ocr }) : name === "learned" ? new UIElementDetector({ ocr, proposer: model! }) : new UIElementDetector({ ocr, proposer: model!, keepRules: true, ...(hybridModel.fills ? { fills: model! } : {}), ...(rulesGate && process.env.RPAV_BENCH_GATE !== "0" ? { rulesGate } : {}) });
  await det.detect(warmFrame);
  const total: number[] = [];
  const ocrMs: number[] = [];
  const modelMs: number[] = [];
  const cpuMs: number[] = [];
  for (const [i, frame] of frames.entries()) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const r = await det.detect(frame);
    total.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpuMs.push((c.user + c.system) / 1000);
    ocrMs.push(r.metadata.timings.ocr_ms ?? NaN);
    if (r.metadata.timings.proposer_ms !== undefined) modelMs.push(r.metadata.timings.proposer_ms);
    process.stdout.write(`  ${name} [${i + 1}/${frames.length}] ${picked[i]!.id}: ${total.at(-1)!.toFixed(0)} ms (${r.elements.length} elements)\n`);
  }
  out[name] = { median_ms: q(total, 50), p95_ms: q(total, 95), cpu_median_ms: q(cpuMs, 50), ocr_median_ms: q(ocrMs, 50), ...(modelMs.length ? { model_median_ms: q(modelMs, 50), model_p95_ms: q(modelMs, 95) } : {}) };
  console.log(`${name}: detect median ${q(total, 50)} ms, p95 ${q(total, 95)} ms, CPU median ${q(cpuMs, 50)} ms (OCR median ${q(ocrMs, 50)} ms${modelMs.length ? `, model median ${q(modelMs, 50)} ms, p95 ${q(modelMs, 95)} ms` : ""})`);
  await Promise.all([tess.close(), pp.close(), model?.close()]);
}

// Cold start: `rpav detect` in a new process on one screenshot (node start, engines and model loaded, one detection, OCR
// read). Two series: a first run (a new data folder: nothing kept from before) and later runs (the same data folder,
// what the product keeps between runs — the folded word lists — kept, the OCR cache emptied so the screen is read).
const spawnDetect = (home: string) => {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [join(ROOT, "bin", "rpav.js"), "detect", shot, "--json"], { encoding: "utf8", maxBuffer: 64 << 20, env: { ...process.env, RPAV_HOME: home } });
  if (r.status !== 0) throw new Error(`rpav detect failed (exit ${r.status}): ${r.stderr.slice(-500)}`);
  return performance.now() - t0;
};
const shot = join(DATA, picked[0]!.family, `${picked[0]!.id}.png`);
const firstMs: number[] = [];
const laterMs: number[] = [];
const kept = mkdtempSync(join(tmpdir(), "rpav-cold-"));
spawnDetect(kept); // fills the kept folder
for (let i = 0; i < cold; i++) {
  firstMs.push(spawnDetect(mkdtempSync(join(tmpdir(), "rpav-cold-"))));
  rmSync(join(kept, "cache", "ocr"), { recursive: true, force: true });
  laterMs.push(spawnDetect(kept));
}
// With the detection daemon running (`rpav daemon start`, src/cli/detect-daemon.ts): the new `rpav detect` process
// loads no engine; it sends the screen to the daemon. Each run is a screen the daemon has not read (its OCR cache,
// on disk and in memory, cannot answer).
const rpavIn = (home: string, args: string[]) => spawnSync(process.execPath, [join(ROOT, "bin", "rpav.js"), ...args], { encoding: "utf8", env: { ...process.env, RPAV_HOME: home } });
const daemonMs: number[] = [];
const daemonScreens = picked.slice(1, 1 + Math.max(cold, Number(process.env.RPAV_BENCH_DAEMON_RUNS ?? 8)));
if (process.env.RPAV_BENCH_DAEMON !== "0") {
  const started = rpavIn(kept, ["daemon", "start", "--idle", "5"]);
  if (started.status !== 0) throw new Error(`rpav daemon start failed: ${started.stderr.slice(-500)}`);
  try {
    for (const [i, f] of daemonScreens.entries()) {
      const t0 = performance.now();
      const r = spawnSync(process.execPath, [join(ROOT, "bin", "rpav.js"), "detect", join(DATA, f.family, `${f.id}.png`), "--json"], { encoding: "utf8", maxBuffer: 64 << 20, env: { ...process.env, RPAV_HOME: kept } });
      if (r.status !== 0) throw new Error(`rpav detect failed (exit ${r.status}): ${r.stderr.slice(-500)}`);
      daemonMs.push(performance.now() - t0);
      const served = (JSON.parse(rpavIn(kept, ["daemon", "status", "--json"]).stdout) as { served: number } | null)?.served;
      if (served !== i + 1) throw new Error(`the daemon served ${served} requests after ${i + 1} detections (one each, its screen vector along): rpav detect did not use it`);
    }
  } finally {
    rpavIn(kept, ["daemon", "stop"]);
  }
}
out.cold_start = { runs: laterMs.map((v) => round(v, 0)), median_ms: q(laterMs, 50), first_run: { runs: firstMs.map((v) => round(v, 0)), median_ms: q(firstMs, 50) }, ...(daemonMs.length ? { with_daemon: { runs: daemonMs.map((v) => round(v, 0)), median_ms: q(daemonMs, 50), p95_ms: q(daemonMs, 95), screens: daemonScreens.map((f) => f.id) } } : {}) };
console.log(`rpav detect cold start (the default detector, one screenshot, OCR read): first run (new data folder) ${firstMs.map((v) => v.toFixed(0)).join(", ")} ms; later runs (data folder kept, OCR cache emptied) ${laterMs.map((v) => v.toFixed(0)).join(", ")} ms`);
if (daemonMs.length) console.log(`rpav detect with the detection daemon running (a new process, ${daemonMs.length} screens it had not read): median ${q(daemonMs, 50)} ms, p95 ${q(daemonMs, 95)} ms (${daemonMs.map((v) => v.toFixed(0)).join(", ")})`);
console.log(`result: ${writeResult("detect-speed", out)}`);
