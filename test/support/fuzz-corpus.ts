// Hostile inputs for every reader of the project, generated from a seed (the fuzz test and
// `npm run bench -- fuzz` share them). Each case is fed to the real reader in-process; the
// outcome is "valid" (it parsed), "typed" (an RpaError), "crash" (anything else) or "hang"
// (over the time bound). Seeds are real documents: the bundled design examples, the demo
// workflow, a trace and a session written the way the replay and the recorder write them.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deflateSync } from "node:zlib";
import { isRpaError } from "../../src/core/errors.js";
import { seededRandom, type Random } from "../../src/core/bezier-path.js";
import { makeFrame } from "../../src/core/frame.js";
import { encodeNpy, decodeNpy } from "../../src/core/npy.js";
import { parseJsonText, readDocument } from "../../src/core/schemas/documents.js";
import { decodeUtf8Text } from "../../src/core/bounded-read.js";
import { decodeImage, encodePng } from "../../src/capture/png.js";
import { readSession } from "../../src/record/session.js";
import { buildWorkflow } from "../../src/record/template-builder.js";
import { readTrace, rowOutcomes } from "../../src/replay/trace.js";
import { renderReport } from "../../src/replay/report.js";
import { bindVariables, parseCsv } from "../../src/replay/variables.js";
import type { Workflow } from "../../src/core/schemas/workflow.js";

const ROOT = new URL("../../", import.meta.url);
const text = (rel: string) => readFileSync(new URL(rel, ROOT), "utf8");

export type Outcome = "valid" | "typed" | "crash" | "hang";
export interface CaseResult {
  reader: string;
  mutation: string;
  outcome: Outcome;
  ms: number;
  /** For crashes: the error's class and message (never thrown on: counted). */
  detail?: string;
}

export interface FuzzCase {
  reader: string;
  mutation: string;
  run: () => Promise<unknown>;
}

/** The demo workflow (workflow_v1), the seed of workflow and CSV cases. */
export const demoWorkflow = (): Workflow => JSON.parse(text("demos/yad-patient/workflow.json")) as Workflow;

export function seedDocuments(): Record<string, unknown> {
  return {
    uielement_v1: JSON.parse(text("examples/design/uielement-example.json")),
    screenstate_v1: JSON.parse(text("examples/design/screenstate-complete-example.json")),
    workflow_v1: demoWorkflow(),
    trace_v1: traceHeader(),
  };
}

export function traceHeader(): Record<string, unknown> {
  return { t: "2026-12-02T10:00:00.000Z", type: "run", schema_version: "trace_v1", run_id: "run_1", workflow_id: "wf", workflow_name: "wf", workflow_path: "/x.json", rows: [{ nom: "A" }, { nom: "B" }], on_error: "skip", steps: [{ step_id: "s1", action: "click", intention: "i" }, { step_id: "s2", action: "key", intention: "j" }] };
}

export function traceEvents(): Record<string, unknown>[] {
  const t = "2026-12-02T10:00:01.000Z";
  return [
    { t, type: "row_start", row: 0, from_step: 0 },
    { t, type: "after", row: 0, step: 0, step_id: "s1", status: "passed", attempts: 1, screenshot: "shots/0001-s1.png", origin: [0, 0], check: "", error: null, overhead_ms: 1, duration_ms: 2 },
    { t, type: "after", row: 0, step: 1, step_id: "s2", status: "failed", attempts: 3, screenshot: null, origin: null, check: "", error: { code: "target_not_found", message: "m" }, overhead_ms: 1, duration_ms: 2 },
    { t, type: "row_end", row: 0, status: "failed", failed_step: 1, error: { code: "target_not_found", message: "m" } },
    { t, type: "row_start", row: 1, from_step: 0 },
  ];
}

const WIN = { id: "0x1", title: "Facture - Mousepad", app: "Mousepad", bbox: [0, 0, 64, 48] };
export function sessionLines(): Record<string, unknown>[] {
  return [
    { schema_version: "rawsession_v1", name: "Facture", app: "mousepad", started_at: "2026-11-30T10:00:00Z" },
    { seq: 1, t: 1000, kind: "click", x: 10, y: 10, button: 1, window: WIN, before: "shots/a.png", after: "shots/b.png" },
    { seq: 2, t: 2000, kind: "type", text: "Dupont", window: WIN, before: "shots/b.png", after: null },
    { seq: 3, t: 3000, kind: "scroll", x: 20, y: 20, dx: 0, dy: 2, window: WIN, before: "shots/a.png", after: null },
    { seq: 4, t: 4000, kind: "key", combo: "ctrl+s", window: WIN, before: null, after: null },
    { kind: "end", actions: 4 },
  ];
}

// ---------- generic JSON mutations ----------

type Json = unknown;
const HOSTILE_VALUES: Array<[string, Json]> = [
  ["null", null],
  ["number", -1e308],
  ["string", "x"],
  ["empty string", ""],
  ["array", [1, [2, [3]]]],
  ["object", { a: { b: 1 } }],
  ["bool", true],
  ["big int", 2 ** 53 + 1],
  ["negative", -5],
  ["proto key", JSON.parse('{"__proto__": {"polluted": 1}, "constructor": "x"}')],
];

/** Every path (list of keys) into a JSON value. */
function paths(v: Json, prefix: (string | number)[] = [], out: (string | number)[][] = [], limit = 4000): (string | number)[][] {
  if (out.length >= limit) return out;
  out.push(prefix);
  if (Array.isArray(v)) v.forEach((x, i) => paths(x, [...prefix, i], out, limit));
  else if (v && typeof v === "object") for (const [k, x] of Object.entries(v)) paths(x, [...prefix, k], out, limit);
  return out;
}

function setAt(root: Json, path: (string | number)[], value: Json): Json {
  if (path.length === 0) return value;
  const copy = structuredClone(root) as Record<string | number, Json>;
  let cur = copy;
  for (const k of path.slice(0, -1)) cur = cur[k] as Record<string | number, Json>;
  cur[path[path.length - 1]!] = value;
  return copy;
}

function deleteAt(root: Json, path: (string | number)[]): Json {
  if (path.length === 0) return root;
  const copy = structuredClone(root) as Record<string | number, Json>;
  let cur = copy;
  for (const k of path.slice(0, -1)) cur = cur[k] as Record<string | number, Json>;
  const last = path[path.length - 1]!;
  if (Array.isArray(cur)) cur.splice(Number(last), 1);
  else delete cur[last];
  return copy;
}

const pick = <T>(rnd: Random, xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
const int = (rnd: Random, lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));

/** Text of a hostile variant of `doc`: truncated, wrong types, newer version, deep, NaN, huge strings, BOM, bad UTF-8… */
export function mutateJsonText(rnd: Random, doc: Json, opts: { hugeBytes: number }): { mutation: string; text: string } {
  const good = JSON.stringify(doc, null, rnd() < 0.5 ? 2 : undefined);
  const ps = paths(doc);
  const p = pick(rnd, ps);
  const kind = int(rnd, 0, 13);
  switch (kind) {
    case 0:
      return { mutation: "truncated", text: good.slice(0, int(rnd, 0, good.length - 1)) };
    case 1: {
      const [name, v] = pick(rnd, HOSTILE_VALUES);
      return { mutation: `wrong type (${name}) at ${p.join(".") || "$"}`, text: JSON.stringify(setAt(doc, p, v)) };
    }
    case 2:
      return { mutation: `missing ${p.join(".") || "$"}`, text: JSON.stringify(deleteAt(doc, p)) };
    case 3: {
      const sv = String((doc as { schema_version?: string }).schema_version ?? "x_v1");
      const v = pick(rnd, [sv.replace(/\d+$/, (n) => String(Number(n) + 1)), sv.replace(/\d+$/, "999"), "", "v1", 42, null]);
      return { mutation: `schema_version ${JSON.stringify(v)}`, text: JSON.stringify({ ...(doc as object), schema_version: v }) };
    }
    case 4: {
      const depth = pick(rnd, [1000, 12000, 100000]);
      const open = rnd() < 0.5 ? "[" : '{"a":';
      const close = open === "[" ? "]" : "}";
      const nested = open.repeat(depth) + "1" + close.repeat(depth);
      // At an existing field, or at a new key (loose schemas keep unknown keys, so the value
      // reaches what comes after validation: storage, reports).
      const leaf = rnd() < 0.5 ? ["x_extra"] : (pick(rnd, ps.filter((q) => q.length > 0)) ?? ["x"]);
      const txt = JSON.stringify(setAt(doc, leaf, "@@DEEP@@")).replace('"@@DEEP@@"', nested);
      return { mutation: `nesting ${depth} deep at ${leaf.join(".")}`, text: rnd() < 0.3 ? txt.slice(0, txt.length - int(rnd, 1, depth)) : txt };
    }
    case 5: {
      const leaf = pick(rnd, ps.filter((q) => q.length > 0)) ?? ["x"];
      const lit = pick(rnd, ["NaN", "Infinity", "-Infinity", "1e999", "-1e999", "0x10", "+1", "01", "1.", ".5"]);
      return { mutation: `${lit} at ${leaf.join(".")}`, text: JSON.stringify(setAt(doc, leaf, "@@NUM@@")).replace('"@@NUM@@"', lit) };
    }
    case 6: {
      const leaf = pick(rnd, ps.filter((q) => q.length > 0)) ?? ["x"];
      return { mutation: `${opts.hugeBytes} B string at ${leaf.join(".")}`, text: JSON.stringify(setAt(doc, leaf, "é".repeat(Math.floor(opts.hugeBytes / 2)))) };
    }
    case 7:
      return { mutation: "BOM", text: `\uFEFF${good}` };
    case 8: {
      const i = int(rnd, 0, good.length - 1);
      return { mutation: `byte flipped at ${i}`, text: good.slice(0, i) + String.fromCharCode(int(rnd, 0, 255)) + good.slice(i + 1) };
    }
    case 9:
      return { mutation: "top level not an object", text: pick(rnd, ["[]", "null", "42", '"uielement_v1"', "true", "[{}]"]) };
    case 10: {
      // Duplicate keys and a second document after the first.
      return { mutation: rnd() < 0.5 ? "two documents" : "trailing comma", text: rnd() < 0.5 ? `${good}\n${good}` : good.replace(/\}\s*$/, ",}") };
    }
    case 11: {
      const leaf = pick(rnd, ps.filter((q) => q.length > 0)) ?? ["x"];
      const s = pick(rnd, ["\u0000", "\uD800", "\u202E", "<script>alert(1)</script>", "../../../../etc/passwd", "{{nom}}", "%s%n", "\r\n\r\n"]);
      return { mutation: `odd string ${JSON.stringify(s)} at ${leaf.join(".")}`, text: JSON.stringify(setAt(doc, leaf, s)) };
    }
    case 12: {
      const arrays = ps.filter((q) => Array.isArray(getAt(doc, q)));
      const a = arrays.length ? pick(rnd, arrays) : [];
      const arr = getAt(doc, a);
      const many = Array.isArray(arr) && arr.length > 0 ? Array.from({ length: int(rnd, 1000, 20000) }, () => arr[0]) : [];
      return { mutation: `array of ${many.length} at ${a.join(".") || "$"}`, text: JSON.stringify(setAt(doc, a, many)) };
    }
    default:
      return { mutation: "empty", text: pick(rnd, ["", " ", "\n\n", "\uFEFF"]) };
  }
}

function getAt(root: Json, path: (string | number)[]): Json {
  let cur = root as Record<string | number, Json> | undefined;
  for (const k of path) cur = cur?.[k] as Record<string | number, Json> | undefined;
  return cur;
}

// ---------- PNG ----------

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();
function crc32(b: Uint8Array): number {
  let c = 0xffffffff;
  for (const x of b) c = CRC_TABLE[(c ^ x) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** A PNG built by hand: any IHDR (width, height, bit depth, colour type), optional IDAT bytes. */
export function rawPng(o: { width: number; height: number; depth?: number; colour?: number; idat?: Uint8Array; interlace?: number }): Buffer {
  const chunk = (type: string, data: Uint8Array) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, "latin1");
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
    return Buffer.concat([head, data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(o.width >>> 0, 0);
  ihdr.writeUInt32BE(o.height >>> 0, 4);
  ihdr[8] = o.depth ?? 8;
  ihdr[9] = o.colour ?? 6;
  ihdr[12] = o.interlace ?? 0;
  const idat = o.idat ?? deflateSync(Buffer.alloc(Math.min(1 << 20, (o.height || 1) * (1 + (o.width || 1) * 4))));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", ihdr), chunk("IDAT", idat), chunk("IEND", new Uint8Array())]);
}

async function goodPng(rnd: Random): Promise<Buffer> {
  const w = int(rnd, 1, 40);
  const h = int(rnd, 1, 40);
  const data = new Uint8Array(w * h * 4).map(() => int(rnd, 0, 255));
  return encodePng(makeFrame({ data, width: w, height: h, channels: 4 }));
}

export async function pngCase(rnd: Random): Promise<{ mutation: string; bytes: Uint8Array }> {
  const kind = int(rnd, 0, 7);
  if (kind === 0) {
    const good = await goodPng(rnd);
    const n = int(rnd, 0, good.length - 1);
    return { mutation: `truncated at ${n}/${good.length}`, bytes: good.subarray(0, n) };
  }
  if (kind === 1) {
    const [w, h] = pick(rnd, [[100000, 100000], [0xffffffff, 1], [1, 0x7fffffff], [65536, 65536], [0, 0], [9000, 9000], [8192, 8193]] as const);
    return { mutation: `IHDR ${w}×${h}`, bytes: rawPng({ width: w, height: h, idat: deflateSync(Buffer.alloc(64)) }) };
  }
  if (kind === 2) {
    const colour = pick(rnd, [0, 1, 2, 3, 4, 5, 6, 7, 255]);
    const depth = pick(rnd, [0, 1, 2, 4, 8, 16, 3, 32]);
    return { mutation: `colour type ${colour}, depth ${depth}`, bytes: rawPng({ width: int(rnd, 1, 30), height: int(rnd, 1, 30), colour, depth, interlace: pick(rnd, [0, 1, 2]) }) };
  }
  if (kind === 3) {
    const good = Buffer.from(await goodPng(rnd));
    for (let i = 0; i < int(rnd, 1, 8); i++) good[int(rnd, 8, good.length - 1)] = int(rnd, 0, 255);
    return { mutation: "bytes flipped", bytes: good };
  }
  if (kind === 4) return { mutation: "empty", bytes: new Uint8Array() };
  if (kind === 5) return { mutation: "random bytes", bytes: new Uint8Array(int(rnd, 1, 4096)).map(() => int(rnd, 0, 255)) };
  if (kind === 6) {
    // A small file that inflates to a huge image (decompression bomb within the pixel limit's margin).
    return { mutation: "deflate bomb 20000×20000", bytes: rawPng({ width: 20000, height: 20000, colour: 0, idat: deflateSync(Buffer.alloc(4 << 20)) }) };
  }
  return { mutation: "valid", bytes: await goodPng(rnd) };
}

// ---------- .npy ----------

export function npyCase(rnd: Random): { mutation: string; bytes: Uint8Array } {
  const v = Float32Array.from({ length: int(rnd, 1, 64) }, () => rnd() * 2 - 1);
  const good = encodeNpy(v);
  const header = () => {
    const len = good[8]! | (good[9]! << 8);
    return Buffer.from(good.subarray(10, 10 + len)).toString("latin1");
  };
  const withHeader = (h: string, body: Uint8Array) => {
    const padded = h.padEnd(Math.ceil((h.length + 11) / 64) * 64 - 11, " ") + "\n";
    const pre = Buffer.from([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0, padded.length & 0xff, padded.length >> 8]);
    return Buffer.concat([pre, Buffer.from(padded, "latin1"), body]);
  };
  const body = good.subarray(10 + (good[8]! | (good[9]! << 8)));
  const kind = int(rnd, 0, 9);
  switch (kind) {
    case 0:
      return { mutation: "truncated", bytes: good.subarray(0, int(rnd, 0, good.length - 1)) };
    case 1: {
      const d = pick(rnd, ["<i4", ">f4", "<f2", "|u1", "<c8", "O", "<U10", "|b1", "<f16", "'"]);
      return { mutation: `dtype ${d}`, bytes: withHeader(header().replace("<f4", d), body) };
    }
    case 2: {
      const s = pick(rnd, ["()", "(0,)", "(2, 3)", "(-1,)", "(1e400,)", "(99999999999999999999,)", "(3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3)", "(a,)", "(1,2", "(4294967296, 4294967296)"]);
      return { mutation: `shape ${s}`, bytes: withHeader(header().replace(/\(\d+,\)/, s), body) };
    }
    case 3: {
      const bad = Float32Array.from(v);
      bad[int(rnd, 0, bad.length - 1)] = pick(rnd, [NaN, Infinity, -Infinity]);
      const b = Buffer.from(good);
      Buffer.from(bad.buffer).copy(b, good.length - bad.byteLength);
      return { mutation: "non-finite value", bytes: b };
    }
    case 4:
      return { mutation: "fortran order", bytes: withHeader(header().replace("False", "True"), body) };
    case 5:
      return { mutation: "header not a dict", bytes: withHeader(pick(rnd, ["{", "[]", "{'descr': '<f4'}", "\u0000".repeat(30), "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), 'x': __import__('os')}"]), body) };
    case 6: {
      const b = Buffer.from(good);
      b[6] = pick(rnd, [0, 4, 9, 255]);
      return { mutation: `version ${b[6]}`, bytes: b };
    }
    case 7: {
      const b = Buffer.from(good);
      b.writeUInt16LE(pick(rnd, [0, 65535, 1, 9]), 8);
      return { mutation: "header length wrong", bytes: b };
    }
    case 8:
      return { mutation: "extra bytes", bytes: Buffer.concat([good, Buffer.alloc(int(rnd, 1, 9))]) };
    default:
      return { mutation: "valid", bytes: good };
  }
}

// ---------- CSV ----------

export function csvCase(rnd: Random): { mutation: string; text: string } {
  const cells = ["Durand", "Zoë", "12/03/1985", 'N"Diaye', "a;b", "x,y", "deux\nlignes", "", " ", "\t", "=cmd|'/c calc'!A1", "\u0000", "\uFEFF"];
  const header = pick(rnd, [["nom", "prenom", "date_de_naissance"], ["nom"], ["constructor", "nom"], ["__proto__", "nom", "prenom", "date_de_naissance"], ["nom", "nom"], ["", "x"], ["toString"]]);
  const sep = pick(rnd, [";", ",", "\t", "|"]);
  const rows = Array.from({ length: int(rnd, 0, 6) }, () => Array.from({ length: header.length + (rnd() < 0.2 ? int(rnd, -1, 2) : 0) }, () => pick(rnd, cells)));
  const quote = (c: string) => (rnd() < 0.7 ? `"${c.replace(/"/g, '""')}"` : c);
  let txt = [header.join(sep), ...rows.map((r) => r.map(quote).join(rnd() < 0.1 ? pick(rnd, [";", ","]) : sep))].join(rnd() < 0.3 ? "\r\n" : "\n");
  const extra = int(rnd, 0, 6);
  const mutation = ["plain", "BOM", "unclosed quote", "sep= line", "quote inside cell", "truncated", "huge cell"][extra]!;
  if (extra === 1) txt = `\uFEFF${txt}`;
  if (extra === 2) txt += '\n"open';
  if (extra === 3) txt = `sep=${sep}\n${txt}`;
  if (extra === 4) txt += `\na"b"c${sep}d`;
  if (extra === 5) txt = txt.slice(0, int(rnd, 0, txt.length));
  if (extra === 6) txt += `\n${"x".repeat(1 << 20)}`;
  return { mutation: `${mutation}, header ${header.join("|")}, sep ${JSON.stringify(sep)}`, text: txt };
}

// ---------- cases over files (sessions, traces) ----------

function tmpDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function jsonLines(rnd: Random, lines: Record<string, unknown>[], hugeBytes: number): { mutation: string; text: string } {
  const idx = int(rnd, 0, lines.length - 1);
  const kind = int(rnd, 0, 5);
  const out = lines.map((l) => JSON.stringify(l));
  let mutation: string;
  if (kind === 0) {
    const all = `${out.join("\n")}\n`;
    const n = int(rnd, 0, all.length - 1);
    return { mutation: `cut at byte ${n}`, text: all.slice(0, n) };
  } else if (kind === 1) {
    out[idx] = pick(rnd, ["null", "[]", "42", '"x"', "{}", "", "{\"kind\":\"end\"}", "true"]);
    mutation = `line ${idx + 1} replaced by ${out[idx]}`;
  } else if (kind === 5) {
    out.splice(idx, 0, "\uFEFF");
    mutation = `BOM line ${idx + 1}`;
  } else {
    const m = mutateJsonText(rnd, lines[idx], { hugeBytes });
    out[idx] = m.text.replace(/\n/g, " ");
    mutation = `line ${idx + 1}: ${m.mutation}`;
  }
  return { mutation, text: `${rnd() < 0.1 ? "\uFEFF" : ""}${out.join("\n")}${rnd() < 0.8 ? "\n" : ""}` };
}

async function attempt(run: () => Promise<unknown>): Promise<{ outcome: Exclude<Outcome, "hang">; detail?: string }> {
  try {
    await run();
    return { outcome: "valid" };
  } catch (e) {
    if (isRpaError(e)) return { outcome: "typed" };
    return { outcome: "crash", detail: `${(e as Error)?.name}: ${String((e as Error)?.message ?? e).slice(0, 300)}` };
  }
}

/** Runs one case with a time bound (a synchronous hang is caught by the caller's own timeout). */
export async function runCase(c: FuzzCase, boundMs: number): Promise<CaseResult> {
  const t0 = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const r = await Promise.race([attempt(c.run), new Promise<{ outcome: "hang" }>((res) => (timer = setTimeout(() => res({ outcome: "hang" }), boundMs)))]);
  clearTimeout(timer);
  const ms = performance.now() - t0;
  return { reader: c.reader, mutation: c.mutation, outcome: ms > boundMs && r.outcome !== "crash" ? "hang" : r.outcome, ms, ...("detail" in r && r.detail ? { detail: r.detail } : {}) };
}

/**
 * `n` generated cases per reader, from `seed`. `hugeBytes` is the size of the huge strings
 * (100 MB in the bench; smaller in the test, where time is short).
 */
export async function* generateCases(seed: number, n: number, opts: { hugeBytes: number; work: string; sweep?: boolean }): AsyncGenerator<FuzzCase> {
  const casesOut: FuzzCase[] = [];
  const rnd = seededRandom(seed);
  const docs = seedDocuments();
  const png = await goodPng(rnd);
  const wf = demoWorkflow();
  let k = 0;
  const dirFor = (name: string) => {
    const d = join(opts.work, `${name}-${k++}`);
    mkdirSync(join(d, "shots"), { recursive: true });
    return d;
  };
  for (let i = 0; i < n; i++) {
    for (const version of Object.keys(docs)) {
      const m = mutateJsonText(rnd, docs[version], { hugeBytes: opts.hugeBytes });
      yield { reader: `json ${version}`, mutation: m.mutation, run: async () => JSON.stringify(readDocument(parseJsonText(m.text, "fuzz.json"), "fuzz.json").value) };
    }
    {
      const m = await pngCase(rnd);
      yield { reader: "png", mutation: m.mutation, run: async () => decodeImage(m.bytes, "fuzz.png") };
    }
    {
      const m = npyCase(rnd);
      yield { reader: "npy", mutation: m.mutation, run: async () => decodeNpy(m.bytes, "fuzz.npy") };
    }
    {
      const m = csvCase(rnd);
      yield {
        reader: "csv",
        mutation: m.mutation,
        run: async () => {
          const rows = parseCsv(decodeUtf8Text(Buffer.from(m.text, "utf8"), "fuzz.csv"), "fuzz.csv");
          if (rows.length) bindVariables(wf, { rows, source: "fuzz.csv" });
        },
      };
    }
    {
      const m = jsonLines(rnd, sessionLines(), opts.hugeBytes);
      yield sessionCase(m, rnd() < 0.3 ? pick(rnd, [new Uint8Array(), png.subarray(0, int(rnd, 1, png.length - 1))]) : png);
    }
    {
      const m = jsonLines(rnd, [traceHeader(), ...traceEvents()], opts.hugeBytes);
      yield traceCase(m, rnd() < 0.4 ? pick(rnd, [new Uint8Array(), png.subarray(0, int(rnd, 1, png.length - 1))]) : png);
    }
  }
  // A sweep over every field of every session action and trace event, each given hostile values:
  // what the random mutations reach only now and then (a window that is a number, a title missing…).
  if (opts.sweep) {
    for (const [reader, lines] of [["session", sessionLines()], ["trace", [traceHeader(), ...traceEvents()]]] as const) {
      lines.forEach((line, li) => {
        for (const p of paths(line).filter((q) => q.length > 0 && q.length <= 2)) {
          for (const [name, v] of [HOSTILE_VALUES[0]!, pick(rnd, HOSTILE_VALUES.slice(1)), pick(rnd, HOSTILE_VALUES.slice(1))]) {
            const out = lines.map((l, k) => JSON.stringify(k === li ? setAt(l, p, v) : l));
            const m = { mutation: `line ${li + 1}: ${p.join(".")} = ${name}`, text: `${out.join("\n")}\n` };
            casesOut.push(reader === "session" ? sessionCase(m, png) : traceCase(m, png));
          }
          const out = lines.map((l, k) => JSON.stringify(k === li ? deleteAt(l, p) : l));
          casesOut.push((reader === "session" ? sessionCase : traceCase)({ mutation: `line ${li + 1}: ${p.join(".")} missing`, text: `${out.join("\n")}\n` }, png));
        }
      });
    }
    yield* casesOut;
  }

  function sessionCase(m: { mutation: string; text: string }, shot: Uint8Array): FuzzCase {
      return {
        reader: "session",
        mutation: `${m.mutation}${shot === png ? "" : `, screenshot of ${shot.length} B`}`,
        run: async () => {
          const dir = dirFor("session");
          writeFileSync(join(dir, "session.jsonl"), m.text);
          writeFileSync(join(dir, "shots", "a.png"), png);
          writeFileSync(join(dir, "shots", "b.png"), shot);
          try {
            const s = readSession(dir);
            // The builder on what the reader accepted, with the real image decoder; the screen
            // reader is a fixed answer here (perception is fuzzed through the PNG cases).
            await buildWorkflow(s, { reader: { read: async () => ({ elements: [], lines: [{ text: "Nom client", bbox: [2, 2, 30, 10] }] }) }, loadImage: async (p) => decodeImage(readFileSync(p), p), saveIcon: async (name) => `icons/${name}` });
          } finally {
            rmSync(dir, { recursive: true, force: true });
          }
        },
      };
  }

  function traceCase(m: { mutation: string; text: string }, shot: Uint8Array): FuzzCase {
      return {
        reader: "trace",
        mutation: `${m.mutation}${shot === png ? "" : `, screenshot of ${shot.length} B`}`,
        run: async () => {
          const dir = dirFor("trace");
          writeFileSync(join(dir, "trace.jsonl"), m.text);
          writeFileSync(join(dir, "shots", "0001-s1.png"), shot);
          try {
            const t = readTrace(dir);
            rowOutcomes(t);
            renderReport(t);
          } finally {
            rmSync(dir, { recursive: true, force: true });
          }
        },
      };
  }
}

export function fuzzWorkDir(): string {
  return tmpDir("rpav-fuzz-");
}

export interface Tally {
  tried: number;
  valid: number;
  typed: number;
  crashes: number;
  hangs: number;
  byReader: Record<string, { tried: number; valid: number; typed: number; crashes: number; hangs: number }>;
  failures: CaseResult[];
}

export function tally(results: CaseResult[]): Tally {
  const t: Tally = { tried: 0, valid: 0, typed: 0, crashes: 0, hangs: 0, byReader: {}, failures: [] };
  for (const r of results) {
    const b = (t.byReader[r.reader] ??= { tried: 0, valid: 0, typed: 0, crashes: 0, hangs: 0 });
    t.tried++;
    b.tried++;
    const key = r.outcome === "crash" ? "crashes" : r.outcome === "hang" ? "hangs" : r.outcome;
    t[key]++;
    b[key]++;
    if (r.outcome === "crash" || r.outcome === "hang") t.failures.push(r);
  }
  return t;
}
