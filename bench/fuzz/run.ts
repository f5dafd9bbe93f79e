// Fuzz bench (#20 item 6): the seeded corpus of test/fuzz.test.ts at a larger count (100 MB
// strings included), plus hostile command lines and files through the built CLI, each under
// /usr/bin/time for its peak memory. Prints: inputs tried, typed errors, valid, crashes (exit 70,
// a signal, or a non-RpaError in-process), hangs, unbounded reads (peak RSS over the bound), and
// writes bench/results/fuzz.json.
// Run: npm run bench -- fuzz     (RPAV_FUZZ_ROUNDS=400 RPAV_FUZZ_SEED=1 by default; needs `npm run build`)
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { encodeNpy } from "../../src/core/npy.js";
import { fuzzWorkDir, generateCases, mutateJsonText, rawPng, runCase, seedDocuments, tally, type CaseResult } from "../../test/support/fuzz-corpus.js";
import { seededRandom } from "../../src/core/bezier-path.js";
import { writeResult } from "../lib.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const rounds = Number(process.env.RPAV_FUZZ_ROUNDS ?? 400);
const seed = Number(process.env.RPAV_FUZZ_SEED ?? 1);
/** Peak RSS above this is an unbounded read (the CLI with OCR loaded stays near 1.1 GiB). */
const RSS_BOUND_KB = 2.5 * 1048576;
const CLI_TIMEOUT_MS = 120_000;

const work = fuzzWorkDir();
const t0 = Date.now();

// ---- in-process readers ----
const results: CaseResult[] = [];
let i = 0;
for await (const c of generateCases(seed, rounds, { hugeBytes: 100 * 1048576, work, sweep: true })) {
  results.push(await runCase(c, 30_000));
  if (++i % 200 === 0) process.stderr.write(`\rin-process: ${i} inputs`);
}
process.stderr.write("\n");
const inProcess = tally(results);

// ---- the CLI ----
interface CliResult {
  args: string;
  outcome: "typed" | "valid" | "crash" | "hang" | "unbounded";
  code: number | null;
  signal: string | null;
  rssKb: number;
  ms: number;
}
const home = join(work, "home");
const dir = mkdtempSync(join(tmpdir(), "rpav-fuzz-bench-"));
const png = join(ROOT, "test/fixtures/ui-detector/screen.png");
const fifo = join(dir, "fifo.png");
execFileSync("mkfifo", [fifo]);
symlinkSync("/dev/zero", join(dir, "zero.json"));
writeFileSync(join(dir, "file"), "x");
writeFileSync(join(dir, "huge-dims.png"), rawPng({ width: 100_000, height: 100_000 }));
writeFileSync(join(dir, "empty.png"), "");
const nan = Buffer.from(encodeNpy(Float32Array.from([1, 2, 3])));
nan.writeFloatLE(NaN, nan.length - 4);
writeFileSync(join(dir, "nan.npy"), nan);
const docs = seedDocuments();
const rnd = seededRandom(seed);
const bad: string[] = [];
for (let k = 0; k < 24; k++) {
  const version = Object.keys(docs)[k % 4]!;
  const m = mutateJsonText(rnd, docs[version], { hugeBytes: 20 * 1048576 });
  const f = join(dir, `bad-${k}.json`);
  writeFileSync(f, m.text);
  bad.push(f);
}
mkdirSync(join(dir, "sess"));
writeFileSync(join(dir, "sess", "session.jsonl"), `${JSON.stringify({ schema_version: "rawsession_v1", name: "x", app: "x", started_at: "2026-01-01T00:00:00Z" })}\nnull\n`);
mkdirSync(join(dir, "run"));
writeFileSync(join(dir, "run", "trace.jsonl"), '{"type":"run","schema_version":"trace_v9"}\n');
const wf = join(ROOT, "demos/yad-patient/workflow.json");
const long = "a".repeat(40_000);
const many = Array.from({ length: 400 }, () => "b".repeat(100));
const commands: string[][] = [
  ["validate", "/dev/zero"],
  ["validate", fifo],
  ["validate", join(dir, "zero.json")],
  ["validate", join(dir, "nan.npy")],
  ["validate", ...bad],
  ["detect", "/dev/zero"],
  ["detect", fifo],
  ["detect", join(dir, "huge-dims.png")],
  ["detect", join(dir, "empty.png")],
  ["detect", "--title", long, png],
  ["detect", "--out", "/proc/rpav-x", png],
  ["detect", "--out", join(dir, "file"), png],
  ["locate", png, long],
  ["locate", png, "click", ...many],
  ["embed", "--mode", "light", "--dim", "-5", png],
  ["embed", "--mode", "light", "--dim", "1e12", png],
  ["embed", "--mode", "light", dir],
  ["embed", "--mode", "light", join(dir, "zero.json")],
  ["embed", "--mode", "light", "--title", long, png],
  ["match", "--mode", "light", "--workflow", dir, png],
  ["match", "--mode", "light", "--workflow", "/dev/zero", png],
  ["build", join(dir, "sess")],
  ["build", "/dev/zero"],
  ["report", join(dir, "run")],
  ["report", "--out", "/proc/rpav-x/r.html", join(dir, "run")],
  ["replay", wf, "--var", "constructor=x"],
  ["replay", wf, "--var", `nom=${long}`],
  ["replay", wf, "--data", "/dev/zero"],
  ["replay", wf, "--data", fifo],
  ["replay", "--resume", "/dev/null"],
  ["store", "import", dir],
  ["--data-dir", join(dir, "file"), "doctor"],
  ["--log-level", long, "doctor"],
];
for (const b of bad) commands.push(["embed", "--mode", "light", b]);
const cli: CliResult[] = [];
for (const args of commands) {
  const started = Date.now();
  const r = spawnSync("/usr/bin/time", ["-f", "RSSKB=%M", process.execPath, join(ROOT, "bin/rpav.js"), "--data-dir", home, ...args], { encoding: "utf8", timeout: CLI_TIMEOUT_MS, env: { ...process.env, DISPLAY: "", RPAV_DEBUG: "" }, maxBuffer: 256 << 20 });
  const ms = Date.now() - started;
  const rssKb = Number(/RSSKB=(\d+)/.exec(r.stderr ?? "")?.[1] ?? 0);
  // /usr/bin/time reports a child's signal as "Command terminated by signal N".
  const signal = r.signal ?? /terminated by signal (\d+)/.exec(r.stderr ?? "")?.[1] ?? null;
  const stack = /internal error|\n\s+at .+:\d+:\d+/.test(r.stderr ?? "");
  let outcome: CliResult["outcome"];
  if (r.error && (r.error as NodeJS.ErrnoException).code === "ETIMEDOUT") outcome = "hang";
  else if (signal || r.status === 70 || stack) outcome = "crash";
  else if (rssKb > RSS_BOUND_KB) outcome = "unbounded";
  else outcome = r.status === 0 ? "valid" : "typed";
  const shown = args.map((a) => (a.length > 60 ? `<${a.length} chars>` : a)).join(" ");
  cli.push({ args: shown.length > 200 ? `${shown.slice(0, 200)}…` : shown, outcome, code: r.status, signal: signal ? String(signal) : null, rssKb, ms });
  process.stderr.write(`\rcli: ${cli.length}/${commands.length}`);
}
process.stderr.write("\n");
rmSync(dir, { recursive: true, force: true });
rmSync(work, { recursive: true, force: true });

const count = (o: CliResult["outcome"]) => cli.filter((c) => c.outcome === o).length;
const summary = {
  seed,
  rounds,
  inputs_tried: inProcess.tried + cli.length,
  typed_errors: inProcess.typed + count("typed"),
  valid: inProcess.valid + count("valid"),
  crashes: inProcess.crashes + count("crash"),
  hangs: inProcess.hangs + count("hang"),
  unbounded_reads: count("unbounded"),
  in_process: { tried: inProcess.tried, typed: inProcess.typed, valid: inProcess.valid, crashes: inProcess.crashes, hangs: inProcess.hangs, by_reader: inProcess.byReader },
  cli: { tried: cli.length, typed: count("typed"), valid: count("valid"), crashes: count("crash"), hangs: count("hang"), unbounded: count("unbounded"), peak_rss_mib: Math.round(Math.max(...cli.map((c) => c.rssKb)) / 1024) },
  failures: [...inProcess.failures.slice(0, 50), ...cli.filter((c) => c.outcome !== "typed" && c.outcome !== "valid")],
  seconds: Math.round((Date.now() - t0) / 1000),
};
console.log(`inputs tried ${summary.inputs_tried} (in-process ${inProcess.tried}, CLI ${cli.length}); typed errors ${summary.typed_errors}; valid ${summary.valid}; crashes ${summary.crashes}; hangs ${summary.hangs}; unbounded reads ${summary.unbounded_reads}; CLI peak RSS ${summary.cli.peak_rss_mib} MiB; ${summary.seconds} s`);
for (const [reader, b] of Object.entries(inProcess.byReader)) console.log(`  ${reader.padEnd(20)} tried ${b.tried}, typed ${b.typed}, valid ${b.valid}, crashes ${b.crashes}, hangs ${b.hangs}`);
for (const f of summary.failures) console.log(`  FAIL ${JSON.stringify(f)}`);
console.log(JSON.stringify(summary));
console.log(`written ${writeResult("fuzz", summary)}`);
