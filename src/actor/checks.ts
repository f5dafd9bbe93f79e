// One checker for every post-condition (style guide: typed predicates, one module, a unit test per
// kind, after OSWorld's getter + metric pairs). A check is `passed` with its evidence, `failed`
// with what was seen instead, or `unverified` when it could not be made (no box for the field, OCR
// read nothing, the toggle's look matches neither recorded state) — never `passed` without evidence.
// `phase: "before"` asks whether a step's effect already holds (the actor's skip decision).
import type { Frame } from "../core/frame.js";
import { cropFrame, bboxScreenToFrame } from "../core/frame.js";
import type { BBox } from "../core/geometry.js";
import { clampBBox, padBBox } from "../core/geometry.js";
import type { WindowDescriptor } from "../core/providers/window-info.js";
import type { CheckResult } from "../core/schemas/trace.js";
import type { CheckRegion, Postcondition, PostconditionKind } from "../core/schemas/workflow.js";
import { foldText, levenshtein } from "../core/text.js";
import { readToggle, type ToggleRead } from "./toggle-look.js";
import { isModified, normTitle, windowsNamed } from "./windows.js";

/** What a check may look at; the actor gives the live desktop, unit tests give fixed data. */
export interface CheckProbe {
  windows(): Promise<WindowDescriptor[]>;
  /** The window the step acted in as it is now; undefined when it closed. */
  liveWindow(): Promise<WindowDescriptor | undefined>;
  /** Screen box of a region (the grounded target, an earlier step's target, the window); undefined when unknown. */
  box(region: CheckRegion): BBox | undefined;
  /** The screen inside `box` (screen pixels). */
  capture(box: BBox): Promise<Frame>;
  /** The region as it was just before the action, and the window's title then (region_changed). */
  before(region: CheckRegion): { frame: Frame; title: string } | undefined;
  /** Text lines read in a frame (OCR). */
  readText(frame: Frame): Promise<string[]>;
  /** A field's text, read the cheap way when it can be (see `readFieldCheaply`); default: `readText`. */
  readField?(frame: Frame, masked: boolean): Promise<FieldRead>;
  /** A crop the workflow names (relative to the workflow file). */
  loadCrop(path: string): Promise<Frame>;
  /** A value with the row's data ("{{nom}}" → "Durand"). */
  fill(text: string): string;
  /** A recorded window title with the row's data. */
  title(title: string): string;
  sleep(ms: number): Promise<void>;
}

export interface CheckOptions {
  phase: "before" | "after";
  /** How long window checks wait for the window (after the action; default 10 s). */
  windowTimeoutMs?: number;
  /** How long visual checks retry (text still rendering; default 1.2 s). */
  settleMs?: number;
}

/** Kinds that can already hold before the step runs (what the skip decision looks at). */
export const STATE_KINDS: ReadonlySet<PostconditionKind> = new Set(["window_open", "field_value", "toggle_state", "text_present"]);

const MASK = /^[•●*·∙⬤◦o.]+$/u;

/** Letters and digits only, folded: OCR engines disagree on accents, spaces and punctuation. */
export function comparable(s: string): string {
  return foldText(s).replace(/[^\p{L}\p{N}]+/gu, "");
}

/**
 * Does the text read in a field show `want`? Exact after folding, or one OCR slip in a long value;
 * a value typed twice (« DurandDurand ») or cut (« Hélo ») fails. A masked field passes on as many
 * mask characters as the value has (±1), is unverified when the mask is not readable.
 */
export function fieldShows(read: string, want: string, masked = false): { status: CheckResult["status"]; evidence: string } {
  const r = read.replace(/\s+/g, "");
  if (masked) {
    const n = [...want].length;
    if (MASK.test(r) && Math.abs([...r].length - n) <= 1) return { status: "passed", evidence: `${[...r].length} mask characters for a ${n}-character secret` };
    if (!r) return { status: "unverified", evidence: "no mask characters readable in the field" };
    if (MASK.test(r)) return { status: "failed", evidence: `${[...r].length} mask characters, the secret has ${n}` };
    return { status: "unverified", evidence: `the field shows « ${read} », not a mask` };
  }
  const a = comparable(read);
  const b = comparable(want);
  if (!b) return a ? { status: "failed", evidence: `the field holds « ${read} », expected it empty` } : { status: "passed", evidence: "the field is empty, as expected" };
  if (!a) return { status: "failed", evidence: `the field reads empty, expected « ${want} »` };
  if (a === b) return { status: "passed", evidence: `the field reads « ${read} »` };
  const slips = b.length >= 6 ? 1 : 0;
  if (a.length === b.length && levenshtein(a, b) <= slips) return { status: "passed", evidence: `the field reads « ${read} » (one OCR slip from « ${want} »)` };
  // The recognizer may have no glyph for some letters (PP-OCR reads no « É », no « € »): the read
  // matches the value without them. That cannot tell a dropped letter from an unreadable one.
  const unreadable = [...new Set([...want].filter((ch) => ch.codePointAt(0)! > 127 && comparable(ch) !== ""))];
  if (unreadable.length && a === comparable([...want].filter((ch) => !unreadable.includes(ch)).join("")))
    return { status: "unverified", evidence: `the field reads « ${read} »: the value without « ${unreadable.join(" ")} », which the OCR may not read` };
  return { status: "failed", evidence: `the field reads « ${read} », expected « ${want} »` };
}

/** Is `want` among the lines read (folded; a line may hold more)? */
export function textShows(lines: readonly string[], want: string): { status: CheckResult["status"]; evidence: string } {
  const b = comparable(want);
  if (!b) return { status: "unverified", evidence: "nothing to look for" };
  const joined = lines.map(comparable);
  if (joined.some((l) => l.includes(b)) || joined.join("").includes(b)) return { status: "passed", evidence: `« ${want} » is shown` };
  const near = joined.filter((l) => l.length >= b.length - 1).map((l) => Math.min(...[...Array(Math.max(1, l.length - b.length + 1)).keys()].map((k) => levenshtein(l.slice(k, k + b.length), b))));
  const best = near.length ? Math.min(...near) : Infinity;
  if (b.length >= 8 && best <= Math.floor(b.length / 10)) return { status: "passed", evidence: `« ${want} » is shown (${best} OCR slip${best > 1 ? "s" : ""})` };
  if (lines.length === 0) return { status: "unverified", evidence: "no text could be read there" };
  return { status: "failed", evidence: `« ${want} » not found; read: ${lines.slice(0, 6).map((l) => `« ${l} »`).join(", ")}` };
}

/** What a field shows and how it was read: no ink inside its border (nothing to read), mask dots counted, or one OCR line. */
export interface FieldRead {
  text: string;
  by: "no ink" | "mask dots" | "ocr line" | "ocr";
  /**
   * The read without a hair-thin run at the end (the text cursor, which OCR may read as « l » or « | »), made only when
   * asked: a second OCR read, needed only when the first does not show the value.
   */
  withoutCursor?: () => Promise<string>;
}

/** Where a field's text is: the ink inside its border (frame pixels), as runs of inked columns. */
export interface FieldInk {
  box: BBox;
  /** [first, last] columns (frame x) of each run of inked columns, left to right. */
  runs: Array<[number, number]>;
  /**
   * First column (frame x) of a text cursor touching the end of the text: the last one or two columns (at ×1) inked
   * without a gap from top to bottom, as tall as all the text before them and taller than the column they touch.
   * Undefined when there is none.
   */
  cursorAt?: number;
}

/**
 * The ink inside a field's box: pixels far (> 64 in grey level) from the field's background (the
 * commonest grey of its inner part), after leaving out the border and focus ring (an inset of
 * 4 px, and 15 % of the height). Null when there is none (or only the hair-thin text cursor): the
 * field is empty, and no OCR is needed. A one-letter value as thin as the cursor (« l ») reads empty.
 */
export function fieldInk(f: Frame): FieldInk | null {
  const s = f.scaleFactor;
  const ix = Math.round(4 * s);
  const iy = Math.max(Math.round(3 * s), Math.round(0.15 * f.height));
  const x0 = ix, x1 = f.width - ix, y0 = iy, y1 = f.height - iy;
  if (x1 - x0 < 2 || y1 - y0 < 2) return null;
  const grey = (x: number, y: number) => {
    const o = (y * f.width + x) * f.channels;
    return (f.data[o]! + f.data[o + 1]! + f.data[o + 2]!) / 3;
  };
  const hist = new Uint32Array(256);
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) hist[Math.round(grey(x, y))]!++;
  let bg = 0;
  for (let v = 1; v < 256; v++) if (hist[v]! > hist[bg]!) bg = v;
  const runs: Array<[number, number]> = [];
  let top = Infinity, bottom = -1;
  let start = -1;
  const cols = new Map<number, { top: number; bottom: number; n: number }>();
  for (let x = x0; x <= x1; x++) {
    let inked = false;
    if (x < x1)
      for (let y = y0; y < y1; y++)
        if (Math.abs(grey(x, y) - bg) > 64) {
          inked = true;
          top = Math.min(top, y);
          bottom = Math.max(bottom, y);
          const c = cols.get(x);
          if (c) [c.bottom, c.n] = [y, c.n + 1];
          else cols.set(x, { top: y, bottom: y, n: 1 });
        }
    if (inked && start < 0) start = x;
    if (!inked && start >= 0) {
      runs.push([start, x - 1]);
      start = -1;
    }
  }
  // A lone hair-thin run is the text cursor (it blinks): the field is still empty.
  if (runs.length === 0 || (runs.length === 1 && runs[0]![1] - runs[0]![0] + 1 <= Math.max(2, Math.round(2 * s)))) return null;
  const out: FieldInk = { box: [runs[0]![0], top, runs.at(-1)![1] + 1, bottom + 1], runs };
  // A cursor touching the text: the last columns, each one unbroken line at least as tall as the text before it.
  const last = runs.at(-1)!;
  const bar = (x: number) => {
    const c = cols.get(x);
    return !!c && c.n >= c.bottom - c.top + 1 && c.bottom - c.top + 1 >= 0.9 * (bottom - top + 1);
  };
  let k = last[1];
  while (k >= last[0] && last[1] - k < Math.max(2, Math.round(2 * s)) && bar(k)) k--;
  if (k < last[1] && k >= last[0]) {
    let restTop = Infinity, restBottom = -1;
    for (const [x, c] of cols) if (x <= k) [restTop, restBottom] = [Math.min(restTop, c.top), Math.max(restBottom, c.bottom)];
    const cur = cols.get(last[1])!;
    const before = cols.get(k);
    // …and taller than the glyph it touches (a letter's own last stroke is as tall as the columns before it).
    if (cur.bottom - cur.top >= 0.95 * (restBottom - restTop) && (!before || before.bottom - before.top <= 0.8 * (cur.bottom - cur.top))) out.cursorAt = k + 1;
  }
  return out;
}

/** Mask dots (•••): three or more runs of the same width (±1 px), each about as tall as wide. Undefined when the ink is not dots. */
export function maskDots(ink: FieldInk): number | undefined {
  const widths = ink.runs.map(([a, b]) => b - a + 1);
  if (widths.length < 3 || Math.max(...widths) - Math.min(...widths) > 1) return undefined;
  const h = ink.box[3] - ink.box[1];
  const w = Math.max(...widths);
  return h <= 1.6 * w && w <= 1.6 * h ? widths.length : undefined;
}

/**
 * A field's text the cheap way: no ink → empty without OCR; a masked field whose ink is dots →
 * that many mask characters without OCR; else one OCR line on the ink's box only (a few ms) when
 * `readLine` is given, the full read otherwise.
 */
export async function readFieldCheaply(f: Frame, masked: boolean, readLine: ((f: Frame, box: BBox) => Promise<string>) | undefined, readText: (f: Frame) => Promise<string[]>): Promise<FieldRead> {
  const ink = fieldInk(f);
  if (!ink) return { text: "", by: "no ink" };
  if (masked) {
    const n = maskDots(ink);
    if (n !== undefined) return { text: "•".repeat(n), by: "mask dots" };
  }
  if (!readLine) return { text: (await readText(f)).join(" "), by: "ocr" };
  const m = Math.round(3 * f.scaleFactor);
  const box = clampBBox(padBBox(ink.box, m), f);
  const text = await readLine(f, box);
  // A last run as thin as the cursor, apart from the text, or a cursor touching its end: read again without it (a value
  // may end in « l »; the read without it counts only when the read with it does not show the value).
  const runs = ink.runs;
  const last = runs.at(-1)!;
  const apart = runs.length > 1 && last[1] - last[0] + 1 <= Math.max(2, Math.round(2 * f.scaleFactor)) && last[0] - runs.at(-2)![1] >= 2;
  // The read without it: the same box, the cursor's columns painted over with the background right of them — cut out
  // instead, the box would either take it back in through its margin or end against the last letter, which OCR misreads.
  const cursor = apart ? last[0] : ink.cursorAt;
  if (cursor !== undefined) return { text, by: "ocr line", withoutCursor: () => readLine(withoutColumns(f, cursor, last[1], box), box) };
  return { text, by: "ocr line" };
}

/** A copy of `f` whose columns x0..x1 (inside `box`'s rows) take, row by row, the pixel just right of them. */
function withoutColumns(f: Frame, x0: number, x1: number, box: BBox): Frame {
  const data = Uint8Array.from(f.data);
  const src = Math.min(f.width - 1, x1 + 1);
  for (let y = Math.max(0, Math.floor(box[1])); y < Math.min(f.height, Math.ceil(box[3])); y++) {
    const from = (y * f.width + src) * f.channels;
    for (let x = x0; x <= x1; x++) data.copyWithin((y * f.width + x) * f.channels, from, from + f.channels);
  }
  return { ...f, data };
}

const result = (pc: Postcondition, r: { status: CheckResult["status"]; evidence: string }): CheckResult => ({ kind: pc.kind, status: r.status, evidence: r.evidence });

async function until<T>(probe: CheckProbe, timeoutMs: number, f: () => Promise<T | undefined>): Promise<T | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await f();
    if (v !== undefined || Date.now() >= deadline) return v;
    await probe.sleep(150);
  }
}

/** The region's pixels now; undefined when its box is unknown or off the window. */
async function regionFrame(probe: CheckProbe, region: CheckRegion): Promise<Frame | undefined> {
  const b = probe.box(region);
  if (!b || b[2] - b[0] < 2 || b[3] - b[1] < 2) return undefined;
  return probe.capture(b);
}

export async function checkPostcondition(pc: Postcondition, probe: CheckProbe, opts: CheckOptions): Promise<CheckResult> {
  const before = opts.phase === "before";
  const wait = before ? 0 : (opts.windowTimeoutMs ?? 10_000);
  const settle = before ? 0 : (opts.settleMs ?? 1200);
  switch (pc.kind) {
    case "window_open": {
      const title = probe.title(pc.window.title);
      // Before the step, only an active window counts: the main window is always "open" behind a dialog.
      const w = await until(probe, wait, async () => windowsNamed(await probe.windows(), pc.window.app, title).find((x) => !before || x.active));
      return result(pc, w ? { status: "passed", evidence: `window « ${w.title} » (${w.appName}) is open${w.active ? " and active" : ""}` } : { status: "failed", evidence: `no window « ${title} » of ${pc.window.app || "any app"}${before ? " is active" : ` within ${Math.round(wait / 1000)} s`}` });
    }
    case "window_closed": {
      const title = probe.title(pc.window.title);
      const gone = await until(probe, wait, async () => (windowsNamed(await probe.windows(), pc.window.app, title).length === 0 ? true : undefined));
      return result(pc, gone ? { status: "passed", evidence: `window « ${title} » is closed` } : { status: "failed", evidence: `window « ${title} » is still open` });
    }
    case "window_active": {
      if (before) return result(pc, { status: "unverified", evidence: "checked after the step only" });
      const title = probe.title(pc.window.title);
      const ok = (w: WindowDescriptor) => w.active && (pc.modified === undefined || isModified(w.title) === pc.modified);
      const w = await until(probe, wait, async () => windowsNamed(await probe.windows(), pc.window.app, title).find(ok));
      if (w) return result(pc, { status: "passed", evidence: `window « ${w.title} » is active${pc.modified === undefined ? "" : pc.modified ? ", marked modified (*)" : ", not marked modified"}` });
      const active = (await probe.windows()).find((x) => x.active);
      return result(pc, { status: "failed", evidence: `expected « ${title} »${pc.modified === undefined ? "" : pc.modified ? " with *" : " without *"} active; active: ${active ? `« ${active.title} »` : "none"}` });
    }
    case "field_value": {
      const want = probe.fill(pc.value);
      let last = { status: "unverified" as CheckResult["status"], evidence: "the field's box is not known (its target was never grounded)" };
      const deadline = Date.now() + settle;
      for (;;) {
        const f = await regionFrame(probe, pc.region);
        if (!f) break;
        const r = probe.readField ? await probe.readField(f, !!pc.masked) : { text: (await probe.readText(f)).join(" "), by: "ocr" as const };
        let shown = fieldShows(r.text, want, pc.masked);
        if (shown.status !== "passed" && r.withoutCursor) {
          const alt = fieldShows(await r.withoutCursor(), want, pc.masked);
          if (alt.status === "passed") shown = { ...alt, evidence: `${alt.evidence}; the text cursor after it left out` };
        }
        last = r.by === "ocr" ? shown : { ...shown, evidence: `${shown.evidence} (${r.by})` };
        if (last.status === "passed" || Date.now() >= deadline) break;
        await probe.sleep(300);
      }
      return result(pc, last);
    }
    case "text_present": {
      const want = probe.fill(pc.text);
      let last = { status: "unverified" as CheckResult["status"], evidence: "the region is not known" };
      const deadline = Date.now() + settle;
      for (;;) {
        const f = await regionFrame(probe, pc.region);
        if (!f) break;
        last = textShows(await probe.readText(f), want);
        if (last.status === "passed" || Date.now() >= deadline) break;
        await probe.sleep(300);
      }
      return result(pc, last);
    }
    case "toggle_state": {
      if (!pc.on_crop || !pc.off_crop) return result(pc, { status: "unverified", evidence: "the toggle's recorded looks are missing" });
      const b = probe.box(pc.region);
      if (!b || b[2] - b[0] < 2 || b[3] - b[1] < 2) return result(pc, { status: "unverified", evidence: "the toggle's box is not known" });
      const [on, off] = [await probe.loadCrop(pc.on_crop), await probe.loadCrop(pc.off_crop)];
      // The live box with a margin, so that a crop a few pixels off still aligns — and wide
      // enough to hold the recorded crops, which may be larger than the box grounded now.
      // The grounded box need not be centred on the recorded crop (a label-only box where the box
      // and its label were recorded): the whole size difference on each side.
      const need = (c: Frame, side: 0 | 1) => (side === 0 ? c.width : c.height) / c.scaleFactor - (side === 0 ? b[2] - b[0] : b[3] - b[1]);
      const mx = Math.max(6, need(on, 0) + 6, need(off, 0) + 6);
      const my = Math.max(6, need(on, 1) + 6, need(off, 1) + 6);
      // Only what tells the two looks apart decides (the tick, the box's fill), never the caption
      // both share nor a hover tint or focus ring the recording happened to show. After the
      // click, read again until it shows the state wanted or the settle time ran out (a repaint late under load).
      const deadline = Date.now() + settle;
      let r: ToggleRead;
      for (;;) {
        r = readToggle(await probe.capture(padBBox(b, mx, my)), on, off);
        if (r.state === pc.state || Date.now() >= deadline) break;
        await probe.sleep(150);
      }
      if (!r.state) return result(pc, { status: "unverified", evidence: `the toggle's state cannot be read: ${r.evidence}` });
      return result(pc, { status: r.state === pc.state ? "passed" : "failed", evidence: r.evidence });
    }
    case "region_changed": {
      if (before) return result(pc, { status: "unverified", evidence: "checked after the step only" });
      const was = probe.before(pc.region);
      const live = await probe.liveWindow();
      if (!live) return result(pc, { status: "passed", evidence: "the window closed" });
      if (pc.title && was && normTitle(was.title) !== normTitle(live.title)) return result(pc, { status: "passed", evidence: `the title changed: « ${was.title} » → « ${live.title} »` });
      if (pc.title && was && isModified(was.title) !== isModified(live.title)) return result(pc, { status: "passed", evidence: `the modified marker changed: « ${was.title} » → « ${live.title} »` });
      if (!was) return result(pc, { status: "unverified", evidence: "no picture of the region before the action" });
      let diff: ChangedArea = { pixels: 0, box: null };
      const deadline = Date.now() + settle;
      for (;;) {
        const now = await regionFrame(probe, pc.region);
        if (!now) return result(pc, { status: "unverified", evidence: "the region is not known any more" });
        diff = changedArea(was.frame, now);
        if ((diff.pixels !== 0 && !cursorOnly(diff, now.scaleFactor)) || Date.now() >= deadline) break;
        await probe.sleep(150);
      }
      if (diff.pixels === 0) return result(pc, { status: "failed", evidence: "the region looks exactly as before the action" });
      // A text cursor blinking in a field is no effect of the action.
      if (cursorOnly(diff, was.frame.scaleFactor)) return result(pc, { status: "failed", evidence: `only a hair-thin upright line changed (${diff.pixels} pixels: a blinking text cursor), nothing else` });
      return result(pc, { status: "passed", evidence: diff.pixels < 0 ? "the region changed size" : `${diff.pixels} pixels changed` });
    }
  }
}

/** Pixels that differ (−1 when the sizes differ). */
export function changedPixels(a: Frame, b: Frame): number {
  return changedArea(a, b).pixels;
}

/** Pixels that differ (−1 when the sizes differ) and the box around them (frame pixels; null when none). */
export interface ChangedArea {
  pixels: number;
  box: [number, number, number, number] | null;
}

export function changedArea(a: Frame, b: Frame): ChangedArea {
  if (a.width !== b.width || a.height !== b.height || a.channels !== b.channels) return { pixels: -1, box: null };
  let n = 0;
  let x0 = Infinity, y0 = Infinity, x1 = -1, y1 = -1;
  for (let y = 0; y < a.height; y++)
    for (let x = 0; x < a.width; x++) {
      const o = (y * a.width + x) * a.channels;
      if (a.data[o] !== b.data[o] || a.data[o + 1] !== b.data[o + 1] || a.data[o + 2] !== b.data[o + 2]) {
        n++;
        if (x < x0) x0 = x;
        if (x > x1) x1 = x;
        if (y < y0) y0 = y;
        if (y > y1) y1 = y;
      }
    }
  return { pixels: n, box: n ? [x0, y0, x1 + 1, y1 + 1] : null };
}

/** Is the change one hair-thin upright line (≤ 2 px wide at scale 1, taller than wide): a text cursor blinking? */
export function cursorOnly(d: ChangedArea, scale: number): boolean {
  if (d.pixels <= 0 || !d.box) return false;
  const [x0, y0, x1, y1] = d.box;
  return x1 - x0 <= Math.max(2, Math.round(2 * scale)) && y1 - y0 > x1 - x0;
}

const sameRegion = (a: CheckRegion, b: CheckRegion) => a.of === b.of && (a.of !== "step" || (b.of === "step" && a.step_id === b.step_id));

/**
 * Every post-condition of a step, in order. A toggle's state, once read (on or off), is what its
 * click changes: a « region changed » of the same region is not asked as well — the box grounded
 * now may be the caption alone, which a tick does not change (an impossible check). When the state
 * cannot be read, the change is asked.
 */
export async function checkAll(pcs: readonly Postcondition[], probe: CheckProbe, opts: CheckOptions): Promise<CheckResult[]> {
  const toggles = new Map<Postcondition, CheckResult>();
  for (const pc of pcs) if (pc.kind === "toggle_state") toggles.set(pc, await checkPostcondition(pc, probe, opts));
  const read = [...toggles].filter(([, r]) => r.status !== "unverified").map(([pc]) => pc as Extract<Postcondition, { kind: "toggle_state" }>);
  const out: CheckResult[] = [];
  for (const pc of pcs) {
    if (pc.kind === "toggle_state") out.push(toggles.get(pc)!);
    else if (pc.kind === "region_changed" && read.some((t) => sameRegion(t.region, pc.region))) continue;
    else out.push(await checkPostcondition(pc, probe, opts));
  }
  return out;
}

/** A frame's box in screen pixels cropped from a larger capture (helper for probes). */
export function cropScreenBox(frame: Frame, box: BBox): Frame {
  return cropFrame(frame, clampBBox(bboxScreenToFrame(frame, box), frame));
}
