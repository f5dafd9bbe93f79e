// Fuzz suite (#20 item 6): every reader of the project fed hostile input answers with a typed
// RpaError or a valid parse — never another exception, a stack trace, a hang or an unbounded
// read — and a refused import leaves what the store already held identical. The bulk runs
// in-process on a seeded corpus (test/support/fuzz-corpus.ts, shared with `npm run bench -- fuzz`);
// a few cases go through the built CLI as a user would.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { isRpaError } from "../src/core/errors.js";
import { readBoundedText } from "../src/core/bounded-read.js";
import { encodeNpy } from "../src/core/npy.js";
import { parseJsonText, readDocument } from "../src/core/schemas/documents.js";
import { readImageFile } from "../src/capture/png.js";
import { readSession } from "../src/record/session.js";
import { readTrace } from "../src/replay/trace.js";
import { SqliteStore } from "../src/store/sqlite-store.js";
import { importFolder } from "../src/store/interchange.js";
import type { Store } from "../src/core/providers/store.js";
import type { UIElement } from "../src/core/schemas/uielement.js";
import { rpav } from "./support/cli.js";
import { bindVariables, fillTemplate, parseCsv, parseVarArgs } from "../src/replay/variables.js";
import { demoWorkflow, fuzzWorkDir, generateCases, mutateJsonText, npyCase, runCase, seedDocuments, tally, type CaseResult } from "./support/fuzz-corpus.js";
import { seededRandom } from "../src/core/bezier-path.js";

const work = fuzzWorkDir();
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A typed outcome: resolves, or rejects with an RpaError; anything else fails the test with its message. */
async function typedOrValid(what: string, run: () => unknown | Promise<unknown>): Promise<"valid" | "typed"> {
  try {
    await run();
    return "valid";
  } catch (e) {
    if (isRpaError(e)) return "typed";
    throw new Error(`${what}: not a typed error: ${(e as Error)?.stack ?? String(e)}`);
  }
}

describe("fuzz: every reader answers hostile input with a typed error or a valid parse", () => {
  it("seeded corpus: JSON documents (4 kinds), PNG, .npy, CSV, sessions (+ builder), traces (+ report) — no crash, no hang", async () => {
    const results: CaseResult[] = [];
    for await (const c of generateCases(20261202, 60, { hugeBytes: 1 << 20, work, sweep: true })) results.push(await runCase(c, 10_000));
    const t = tally(results);
    const shown = t.failures.slice(0, 10).map((f) => `${f.reader} | ${f.mutation} | ${f.outcome} ${f.detail ?? ""}`);
    expect(shown).toEqual([]);
    expect(t.tried).toBeGreaterThan(60 * 9 + 200);
    // The corpus reaches both sides of every reader (a generator that only makes garbage tests nothing).
    for (const [reader, b] of Object.entries(t.byReader)) {
      expect(b.typed, `${reader}: typed errors`).toBeGreaterThan(0);
      if (reader !== "npy" || b.tried > 20) expect(b.valid, `${reader}: valid inputs`).toBeGreaterThan(0);
    }
  }, 120_000);

  it("a 100 MB string, 100,000-deep nesting and NaN literals in a document", async () => {
    const docs = seedDocuments();
    const el = docs.uielement_v1 as Record<string, unknown>;
    const huge = JSON.stringify({ ...el, label: "é".repeat(50 * 1048576) });
    expect(await typedOrValid("100 MB label", () => readDocument(parseJsonText(huge, "huge.json"), "huge.json"))).toBe("valid");
    const deep = JSON.stringify({ ...el, tags: "@" }).replace('"@"', `${"[".repeat(100_000)}${"]".repeat(100_000)}`);
    expect(await typedOrValid("deep", () => readDocument(parseJsonText(deep, "deep.json"), "deep.json"))).toBe("typed");
    const cut = deep.slice(0, 60_000);
    expect(await typedOrValid("deep cut", () => parseJsonText(cut, "cut.json"))).toBe("typed");
    for (const lit of ["NaN", "Infinity", "-Infinity"]) expect(await typedOrValid(lit, () => parseJsonText(JSON.stringify({ ...el, confidence: "@" }).replace('"@"', lit), "n.json"))).toBe("typed");
    // A mutated document is read the same with or without a byte-order mark (every reader agrees).
    const rnd = seededRandom(5);
    for (let i = 0; i < 30; i++) {
      const m = mutateJsonText(rnd, docs.screenstate_v1, { hugeBytes: 1024 });
      const plain = await typedOrValid("plain", () => readDocument(parseJsonText(m.text, "a.json"), "a.json"));
      expect(await typedOrValid("bom", () => readDocument(parseJsonText(`\uFEFF${m.text}`, "a.json"), "a.json")), m.mutation).toBe(plain);
    }
  }, 60_000);

  it("variables named like Object.prototype members are plain names (none is inherited)", async () => {
    const wf = demoWorkflow();
    const named = { ...wf, variables: wf.variables.map((v, i) => ({ ...v, name: ["constructor", "toString", "valueOf"][i] ?? v.name })) };
    expect(await typedOrValid("missing constructor", () => bindVariables(named, {}))).toBe("typed");
    expect(() => bindVariables(named, {})).toThrow(/Missing variable values.*constructor.*toString.*valueOf/);
    const bound = bindVariables(named, { vars: parseVarArgs(["constructor=A", "toString=B", "valueOf=C"]) });
    expect(bound[0]).toEqual({ constructor: "A", toString: "B", valueOf: "C" });
    expect(fillTemplate("{{constructor}}|{{hasownproperty}}|{{constructor}}", { constructor: "A" } as Record<string, string>)).toBe("A||A");
    expect(fillTemplate("{{constructor}}", {})).toBe("");
    expect(bindVariables(named, { rows: parseCsv("constructor;toString;valueOf\nx;y;z\n") })[0]).toEqual({ constructor: "x", toString: "y", valueOf: "z" });
  });

  it("devices, FIFOs, folders and links to them: refused before reading, by every file reader", async () => {
    const dir = join(work, "special");
    mkdirSync(dir, { recursive: true });
    const fifo = join(dir, "fifo");
    execFileSync("mkfifo", [fifo]);
    symlinkSync("/dev/zero", join(dir, "zero-link.json"));
    for (const p of ["/dev/zero", "/dev/urandom", fifo, join(dir, "zero-link.json"), dir, join(dir, "missing")]) {
      const t0 = Date.now();
      expect(await typedOrValid(`text ${p}`, () => readBoundedText(p, 16 * 1048576))).toBe("typed");
      expect(await typedOrValid(`image ${p}`, () => readImageFile(p))).toBe("typed");
      expect(Date.now() - t0).toBeLessThan(5000);
    }
    // A session or a trace whose file is a FIFO or a device.
    for (const [name, read] of [["session.jsonl", readSession], ["trace.jsonl", readTrace]] as const) {
      const d = join(work, `special-${name}`);
      mkdirSync(d, { recursive: true });
      execFileSync("mkfifo", [join(d, name)]);
      expect(await typedOrValid(name, () => read(d))).toBe("typed");
      rmSync(join(d, name));
      symlinkSync("/dev/zero", join(d, name));
      expect(await typedOrValid(`${name} → /dev/zero`, () => read(d))).toBe("typed");
    }
  });
});

describe("fuzz: store import of a bad folder loses and alters nothing already recorded", () => {
  async function snapshot(store: Store) {
    const elements: UIElement[] = await store.scanElements("", 100_000);
    const states = await store.findScreenStates({ limit: 100_000 });
    const vectors: Record<string, number[]> = {};
    for (const p of await store.vectorProviders()) for (const v of await store.scanVectors(p, 0, 100_000)) vectors[v.vectorId] = [...v.vector];
    return { elements, states, vectors };
  }

  it("refused files are reported one by one; existing rows stay identical; the good files of the same batch are kept", async () => {
    const root = join(work, "store");
    const good = join(root, "good");
    const bad = join(root, "bad");
    const rnd = seededRandom(42);
    const docs = seedDocuments();
    const el = docs.uielement_v1 as UIElement;
    mkdirSync(join(good, "data", "embeddings"), { recursive: true });
    for (let i = 0; i < 5; i++) writeFileSync(join(good, `el${i}.json`), JSON.stringify({ ...el, element_id: `el_good_${i}` }));
    writeFileSync(join(good, "state.json"), JSON.stringify(docs.screenstate_v1));
    for (let i = 0; i < 8; i++) writeFileSync(join(good, "data", "embeddings", `v${i}.npy`), encodeNpy(Float32Array.from({ length: 16 }, () => rnd())));
    const store = SqliteStore.open(join(root, "home"));
    try {
      const first = await importFolder(store, good);
      expect(first.skipped).toEqual([]);
      const before = await snapshot(store);
      expect(Object.keys(before.vectors)).toHaveLength(8);

      // The bad folder: at the existing ids and paths, only documents and vectors that must be
      // refused (a newer version, a truncated or NaN vector…), and new good vectors among them.
      mkdirSync(join(bad, "data", "embeddings"), { recursive: true });
      for (let i = 0; i < 5; i++) writeFileSync(join(bad, `el${i}.json`), JSON.stringify({ ...el, element_id: `el_good_${i}`, schema_version: "uielement_v9", label: "altered" }));
      writeFileSync(join(bad, "el-cut.json"), JSON.stringify({ ...el, element_id: "el_good_0", label: "altered" }).slice(0, 100));
      writeFileSync(join(bad, "el-proto.json"), JSON.stringify({ ...el, element_id: "el_good_1" }).replace('"tags"', '"__proto__":{"label":"altered"},"tags"'));
      const refusedVectors = ["v0", "v1", "v2", "v3"];
      const nan = Float32Array.from({ length: 16 }, () => 0.5);
      nan[3] = NaN;
      writeFileSync(join(bad, "data", "embeddings", "v0.npy"), encodeNpy(Float32Array.from({ length: 16 }, () => 9)).subarray(0, 90));
      writeFileSync(join(bad, "data", "embeddings", "v1.npy"), Buffer.from(encodeNpy(Float32Array.from({ length: 16 }, () => 9))).fill(0xff, 128));
      writeFileSync(join(bad, "data", "embeddings", "v2.npy"), encodeNpy(nan));
      writeFileSync(join(bad, "data", "embeddings", "v3.npy"), Buffer.from(encodeNpy(Float32Array.from({ length: 16 }, () => 9))).fill(0, 0, 6));
      for (let i = 0; i < 30; i++) {
        const m = npyCase(rnd);
        writeFileSync(join(bad, "data", "embeddings", `fz${i}.npy`), m.bytes);
        const d = mutateJsonText(rnd, { ...el, element_id: `el_fz_${i}` }, { hugeBytes: 1 << 16 });
        writeFileSync(join(bad, `fz${i}.json`), d.text);
      }
      for (let i = 0; i < 6; i++) writeFileSync(join(bad, "data", "embeddings", `new${i}.npy`), encodeNpy(Float32Array.from({ length: 16 }, () => rnd())));

      const second = await importFolder(store, bad);
      const after = await snapshot(store);
      // Nothing recorded before is lost or altered.
      for (const e of before.elements) expect(after.elements.find((x) => x.element_id === e.element_id)).toEqual(e);
      for (const s of before.states) expect(after.states.find((x) => x.screen_state_id === s.screen_state_id)).toEqual(s);
      for (const [id, v] of Object.entries(before.vectors)) expect(after.vectors[id], id).toEqual(v);
      // Every refused file is named with its reason; the good new vectors of the batch are in.
      const skipped = second.skipped.map((s) => s.file);
      for (const v of refusedVectors) expect(skipped).toContain(join(bad, "data", "embeddings", `${v}.npy`));
      expect(second.skipped.find((s) => s.file.endsWith("v2.npy"))?.reason).toMatch(/value 3 is NaN/);
      for (let i = 0; i < 6; i++) expect(after.vectors[`data/embeddings/new${i}.npy`]).toBeDefined();
      for (let i = 0; i < 5; i++) expect(skipped).toContain(join(bad, `el${i}.json`));
      expect(second.skipped.find((s) => s.file.endsWith("el-proto.json"))?.reason).toMatch(/__proto__/);
    } finally {
      await store.close();
    }
  }, 60_000);
});

describe("fuzz: the CLI on hostile arguments and files (exit 1 or 2 with a message, never 70, a signal or a stack)", () => {
  const home = join(work, "cli-home");
  const run = (args: string[], timeoutMs = 90_000) => rpav(["--data-dir", home, ...args], { RPAV_DEBUG: "" }, undefined, timeoutMs);
  const png = new URL("./fixtures/ui-detector/screen.png", import.meta.url).pathname;

  function expectTyped(r: ReturnType<typeof run>, what: string) {
    expect(r.code, `${what}: exit ${r.code} ${r.stderr.slice(-500)}`).not.toBeNull();
    expect([1, 2], `${what}: ${r.stderr.slice(-500)}`).toContain(r.code);
    expect(r.stderr).not.toMatch(/internal error|\n\s+at .+:\d+:\d+/);
  }

  it("long arguments (40,000 characters) no longer kill the process once onnxruntime starts", () => {
    const long = "a".repeat(40_000);
    const r = run(["detect", "--title", long, "--json", png]);
    expect(r.code, r.stderr.slice(-300)).toBe(0);
    expect(JSON.parse(r.stdout).window.window_title).toBe(long);
    const l = run(["locate", png, `click ${long}`]);
    expect([0, 1]).toContain(l.code);
  }, 180_000);

  it("bad paths, ranges and names", () => {
    const dir = mkdtempSync(join(tmpdir(), "rpav-fuzz-cli-"));
    try {
      writeFileSync(join(dir, "file"), "x");
      writeFileSync(join(dir, "wf.json"), JSON.stringify({ workflow_id: "w", steps: [{ step_id: "a", expected_state: png }] }));
      const nan = Float32Array.from([1, 2, NaN]);
      writeFileSync(join(dir, "nan.npy"), encodeNpy(Float32Array.from([1, 2, 3])));
      const b = Buffer.from(encodeNpy(Float32Array.from([1, 2, 3])));
      Buffer.from(nan.buffer).copy(b, b.length - 12);
      writeFileSync(join(dir, "nan.npy"), b);
      const cases: string[][] = [
        ["embed", "--mode", "light", "--dim", "-5", png],
        ["embed", "--mode", "light", join(dir, "missing.json")],
        ["embed", "--mode", "light", dir],
        ["match", "--mode", "light", "--workflow", dir, png],
        ["match", "--mode", "light", "--workflow", join(dir, "missing.json"), png],
        ["match", "--mode", "light", "--workflow", join(dir, "wf.json"), dir],
        ["detect", "--out", "/proc/rpav-x", png],
        ["detect", "--out", join(dir, "file"), png],
        ["detect", "--debug-image", dir, png],
        ["report", "--out", "/proc/rpav-x/r.html", dir],
        ["validate", "/dev/zero", join(dir, "nan.npy")],
        ["replay", new URL("../demos/yad-patient/workflow.json", import.meta.url).pathname, "--var", "constructor=x"],
      ];
      for (const c of cases) expectTyped(run(c, 60_000), c.join(" "));
      const v = run(["validate", "--json", join(dir, "nan.npy")]);
      expect(JSON.parse(v.stdout)[0]).toMatchObject({ ok: false, code: "vector_invalid" });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);
});
