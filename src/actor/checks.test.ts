import { describe, expect, it } from "vitest";
import { makeFrame, type Frame } from "../core/frame.js";
import type { BBox } from "../core/geometry.js";
import type { WindowDescriptor } from "../core/providers/window-info.js";
import type { CheckRegion, Postcondition } from "../core/schemas/workflow.js";
import { checkAll, checkPostcondition, fieldInk, fieldShows, maskDots, readFieldCheaply, textShows, type CheckProbe } from "./checks.js";

const win = (title: string, active = true, app = "Yad"): WindowDescriptor => ({ id: `0x${title.length}`, title, appName: app, instance: app.toLowerCase(), pid: 1, bbox: [0, 0, 100, 100], frame: { left: 0, right: 0, top: 0, bottom: 0 }, active, visible: true });

/** A grey frame with a dark square at (x, y) of side s: a "ticked" look when s > 0. */
function box(w: number, h: number, mark: number): Frame {
  const data = new Uint8Array(w * h * 3).fill(230);
  for (let y = 2; y < h - 2; y++) for (let x = 2; x < w - 2; x++) if (x === 2 || y === 2 || x === w - 3 || y === h - 3) data.set([60, 60, 60], (y * w + x) * 3);
  for (let y = 0; y < mark; y++) for (let x = 0; x < mark; x++) data.set([20, 20, 20], ((y + 6) * w + x + 6) * 3);
  return makeFrame({ data, width: w, height: h, channels: 3 });
}

function probe(p: Partial<CheckProbe> & { list?: WindowDescriptor[]; text?: string[]; screen?: Frame; boxes?: Partial<Record<CheckRegion["of"], BBox>> }): CheckProbe {
  const list = p.list ?? [win("Nouveau patient")];
  return {
    windows: async () => list,
    liveWindow: async () => list[0],
    box: (r) => p.boxes?.[r.of],
    capture: async (b) => {
      const s = p.screen ?? box(200, 200, 0);
      const clamp = (v: number, m: number) => Math.max(0, Math.min(m, Math.round(v)));
      const x1 = clamp(b[0], s.width), y1 = clamp(b[1], s.height), x2 = clamp(b[2], s.width), y2 = clamp(b[3], s.height);
      const data = new Uint8Array((x2 - x1) * (y2 - y1) * 3);
      for (let y = y1; y < y2; y++) data.set(s.data.subarray((y * s.width + x1) * 3, (y * s.width + x2) * 3), (y - y1) * (x2 - x1) * 3);
      return makeFrame({ data, width: x2 - x1, height: y2 - y1, channels: 3, origin: [x1, y1] });
    },
    before: () => undefined,
    readText: async () => p.text ?? [],
    loadCrop: async () => box(30, 30, 0),
    fill: (t) => t.replace("{{nom}}", "Durand"),
    title: (t) => t,
    sleep: async () => undefined,
    ...p,
  };
}

const after = { phase: "after", windowTimeoutMs: 0, settleMs: 0 } as const;

describe("post-condition checks, one per kind", () => {
  it("window_open: passes on the named window (modified marker ignored), fails naming what is missing; before a step only an active window counts", async () => {
    const pc: Postcondition = { kind: "window_open", window: { app: "Mousepad", title: "Open File" } };
    expect(await checkPostcondition(pc, probe({ list: [win("Open File", true, "Mousepad")] }), after)).toMatchObject({ status: "passed" });
    expect(await checkPostcondition(pc, probe({ list: [win("Untitled 1", true, "Mousepad")] }), after)).toMatchObject({ status: "failed", evidence: expect.stringContaining("Open File") });
    expect(await checkPostcondition(pc, probe({ list: [win("Open File", false, "Mousepad")] }), { phase: "before" })).toMatchObject({ status: "failed" });
    expect(await checkPostcondition(pc, probe({ list: [win("Open File", true, "Other")] }), after)).toMatchObject({ status: "failed" });
  });

  it("window_closed: passes once the window is gone", async () => {
    const pc: Postcondition = { kind: "window_closed", window: { app: "Yad", title: "Nouveau patient" } };
    expect(await checkPostcondition(pc, probe({ list: [] }), after)).toMatchObject({ status: "passed" });
    expect(await checkPostcondition(pc, probe({}), after)).toMatchObject({ status: "failed" });
  });

  it("window_active: the title's modified marker * counts when the condition names it", async () => {
    const pc: Postcondition = { kind: "window_active", window: { app: "Mousepad", title: "janvier.txt - Mousepad" }, modified: false };
    expect(await checkPostcondition(pc, probe({ list: [win("janvier.txt - Mousepad", true, "Mousepad")] }), after)).toMatchObject({ status: "passed" });
    expect(await checkPostcondition(pc, probe({ list: [win("*janvier.txt - Mousepad", true, "Mousepad")] }), after)).toMatchObject({ status: "failed", evidence: expect.stringContaining("without *") });
    expect(await checkPostcondition(pc, probe({}), { phase: "before" })).toMatchObject({ status: "unverified" });
  });

  it("field_value: the field's text read back; a value typed twice or cut fails; no box or no OCR text is never a pass", async () => {
    const pc: Postcondition = { kind: "field_value", region: { of: "step", step_id: "step_001" }, value: "{{nom}}" };
    const boxes = { step: [10, 10, 90, 30] as BBox };
    expect(await checkPostcondition(pc, probe({ boxes, text: ["Durand"] }), after)).toMatchObject({ status: "passed" });
    expect(await checkPostcondition(pc, probe({ boxes, text: ["DurandDurand"] }), after)).toMatchObject({ status: "failed", evidence: expect.stringContaining("DurandDurand") });
    expect(await checkPostcondition(pc, probe({ boxes, text: [] }), after)).toMatchObject({ status: "failed" });
    expect(await checkPostcondition(pc, probe({ text: ["Durand"] }), after)).toMatchObject({ status: "unverified" });
    expect(fieldShows("Heloise", "Héloïse").status).toBe("passed"); // PP-OCR drops accents
    expect(fieldShows("HéloHéloïse", "Héloïse").status).toBe("failed");
    expect(fieldShows("Hélo", "Héloïse").status).toBe("failed");
    // A letter the recognizer has no glyph for (PP-OCR: no « É ») is not a pass, nor a failure.
    expect(fieldShows("Saint-tienne", "Saint-Étienne")).toMatchObject({ status: "unverified", evidence: expect.stringContaining("« É »") });
    expect(fieldShows("Saint-tienneSaint-tienne", "Saint-Étienne").status).toBe("failed");
    expect(fieldShows("Saint-Eti", "Saint-Étienne").status).toBe("failed");
    expect(fieldShows("01/02/199O", "01/02/1990").status).toBe("passed"); // one OCR slip in a long value
    expect(fieldShows("••••••", "secret", true).status).toBe("passed");
    expect(fieldShows("***", "secret", true).status).toBe("failed");
    expect(fieldShows("", "secret", true).status).toBe("unverified");
  });

  it("toggle_state: the live box resembles the recorded look after the click (on) or before it (off); neither clearly: unverified", async () => {
    const on = box(30, 30, 14);
    const off = box(30, 30, 0);
    const pc: Postcondition = { kind: "toggle_state", region: { of: "target" }, state: "on", on_crop: "on.png", off_crop: "off.png" };
    const loadCrop = async (p: string) => (p === "on.png" ? on : off);
    const screen = (ticked: boolean) => {
      const s = box(200, 200, 0);
      const src = ticked ? on : off;
      const data = new Uint8Array(s.data);
      for (let y = 0; y < 30; y++) data.set(src.data.subarray(y * 30 * 3, (y + 1) * 30 * 3), ((y + 50) * 200 + 50) * 3);
      return makeFrame({ data, width: 200, height: 200, channels: 3 });
    };
    const boxes = { target: [50, 50, 80, 80] as BBox };
    expect(await checkPostcondition(pc, probe({ boxes, screen: screen(true), loadCrop }), after)).toMatchObject({ status: "passed" });
    expect(await checkPostcondition(pc, probe({ boxes, screen: screen(false), loadCrop }), after)).toMatchObject({ status: "failed" });
    expect(await checkPostcondition(pc, probe({ boxes, screen: screen(true), loadCrop }), { phase: "before" })).toMatchObject({ status: "passed" }); // already ticked
    expect(await checkPostcondition({ ...pc, on_crop: null }, probe({ boxes }), after)).toMatchObject({ status: "unverified" });
    // Grounded now as a smaller box off to one side of the recorded crop (the label without its square): still seen.
    const narrow = { target: [66, 64, 80, 80] as BBox };
    expect(await checkPostcondition(pc, probe({ boxes: narrow, screen: screen(true), loadCrop }), { phase: "before" })).toMatchObject({ status: "passed" });
    expect(await checkPostcondition(pc, probe({ boxes: narrow, screen: screen(false), loadCrop }), { phase: "before" })).toMatchObject({ status: "failed" });
  });

  it("text_present: the text among the lines read in the region", async () => {
    const pc: Postcondition = { kind: "text_present", region: { of: "window" }, text: "Réglée le 3 mars : 120 €" };
    const boxes = { window: [0, 0, 100, 100] as BBox };
    expect(await checkPostcondition(pc, probe({ boxes, text: ["Facture n° 42", "Reglee le 3 mars : 120 €"] }), after)).toMatchObject({ status: "passed" });
    expect(await checkPostcondition(pc, probe({ boxes, text: ["Facture n° 42"] }), after)).toMatchObject({ status: "failed" });
    expect(await checkPostcondition(pc, probe({ boxes, text: [] }), after)).toMatchObject({ status: "unverified" });
    expect(textShows(["Regiee le 3 mars : 120"], "Réglée le 3 mars : 120").status).toBe("passed");
  });

  it("region_changed: pixels, a closed window, or a changed title count; the same pixels fail; no picture before is unverified", async () => {
    const pc: Postcondition = { kind: "region_changed", region: { of: "window" }, title: true };
    const boxes = { window: [0, 0, 50, 50] as BBox };
    const same = box(200, 200, 0);
    const p0 = probe({ boxes, screen: same });
    const was = { frame: await p0.capture([0, 0, 50, 50]), title: "Nouveau patient" };
    expect(await checkPostcondition(pc, probe({ boxes, screen: same, before: () => was }), after)).toMatchObject({ status: "failed" });
    expect(await checkPostcondition(pc, probe({ boxes, screen: box(200, 200, 20), before: () => was }), after)).toMatchObject({ status: "passed" });
    expect(await checkPostcondition(pc, probe({ boxes, screen: same, before: () => was, liveWindow: async () => undefined }), after)).toMatchObject({ status: "passed", evidence: "the window closed" });
    expect(await checkPostcondition(pc, probe({ boxes, screen: same, before: () => ({ ...was, title: "*Nouveau patient" }) }), after)).toMatchObject({ status: "passed" });
    expect(await checkPostcondition(pc, probe({ boxes, screen: same }), after)).toMatchObject({ status: "unverified" });
    // A text cursor blinking in a field (a hair-thin upright line) is no change.
    const caret = new Uint8Array(same.data);
    for (let y = 10; y < 26; y++) caret.set([20, 20, 20], (y * 200 + 30) * 3);
    const blink = makeFrame({ data: caret, width: 200, height: 200, channels: 3 });
    expect(await checkPostcondition(pc, probe({ boxes, screen: blink, before: () => was }), after)).toMatchObject({ status: "failed", evidence: expect.stringMatching(/text cursor/) });
  });

  it("a toggle's state, once read, stands for its click's change: « region changed » of the same box is not asked as well (the caption grounded now does not change); asked when the state cannot be read", async () => {
    const on = box(30, 30, 14);
    const off = box(30, 30, 0);
    const s = box(200, 200, 0);
    const data = new Uint8Array(s.data);
    for (let y = 0; y < 30; y++) data.set(on.data.subarray(y * 30 * 3, (y + 1) * 30 * 3), ((y + 50) * 200 + 50) * 3);
    const ticked = makeFrame({ data, width: 200, height: 200, channels: 3 });
    const boxes = { target: [50, 50, 80, 80] as BBox };
    const pcs: Postcondition[] = [
      { kind: "region_changed", region: { of: "target" } },
      { kind: "toggle_state", region: { of: "target" }, state: "on", on_crop: "on.png", off_crop: "off.png" },
    ];
    const loadCrop = async (p: string) => (p === "on.png" ? on : off);
    // The pixels before the click were the same (as when the box grounded is its unchanged caption).
    const before = () => ({ frame: makeFrame({ data: new Uint8Array(data.subarray(0)), width: 200, height: 200, channels: 3 }), title: "t" });
    const p = probe({ boxes, screen: ticked, loadCrop, before: (r) => (r.of === "target" ? { frame: cropOf(before().frame, [50, 50, 80, 80]), title: "t" } : undefined) });
    expect((await checkAll(pcs, p, after)).map((c) => [c.kind, c.status])).toEqual([["toggle_state", "passed"]]);
    const unreadable = probe({ boxes, screen: ticked, loadCrop: async () => off, before: (r) => (r.of === "target" ? { frame: cropOf(before().frame, [50, 50, 80, 80]), title: "t" } : undefined) });
    expect((await checkAll(pcs, unreadable, after)).map((c) => [c.kind, c.status])).toEqual([["region_changed", "failed"], ["toggle_state", "unverified"]]);
  });
});

function cropOf(f: Frame, b: BBox): Frame {
  const [x1, y1, x2, y2] = b;
  const data = new Uint8Array((x2 - x1) * (y2 - y1) * 3);
  for (let y = y1; y < y2; y++) data.set(f.data.subarray((y * f.width + x1) * 3, (y * f.width + x2) * 3), (y - y1) * (x2 - x1) * 3);
  return makeFrame({ data, width: x2 - x1, height: y2 - y1, channels: 3 });
}

/** Whether column `x` of an entry holds ink on its middle row (what a fake OCR line reader looks at). */
const inkAt = (f: Frame, x: number) => f.data[(17 * f.width + x) * f.channels]! < 128;

/** A 300×34 entry: white inside a grey border, with dark blocks (x, width, height) centred vertically. */
function entry(blocks: Array<[number, number, number]>): Frame {
  const w = 300, h = 34;
  const data = new Uint8Array(w * h * 3).fill(255);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) if (x < 2 || y < 2 || x >= w - 2 || y >= h - 2) data.set([150, 150, 150], (y * w + x) * 3);
  for (const [bx, bw, bh] of blocks) for (let y = 17 - Math.floor(bh / 2); y < 17 - Math.floor(bh / 2) + bh; y++) for (let x = bx; x < bx + bw; x++) data.set([30, 30, 30], (y * w + x) * 3);
  return makeFrame({ data, width: w, height: h, channels: 3 });
}

describe("field read-back the cheap way (the comparison's overhead when nothing is unexpected)", () => {
  it("an empty field (border, focus ring, blinking cursor) has no ink: it reads empty with no OCR at all", async () => {
    expect(fieldInk(entry([]))).toBeNull();
    expect(fieldInk(entry([[10, 1, 16]]))).toBeNull(); // the text cursor
    let ocr = 0;
    const r = await readFieldCheaply(entry([[10, 1, 16]]), false, async () => (ocr++, "x"), async () => (ocr++, ["x"]));
    expect(r).toEqual({ text: "", by: "no ink" });
    expect(ocr).toBe(0);
  });

  it("text is read as one line on its ink's box only", async () => {
    const f = entry([[10, 6, 12], [18, 6, 12], [26, 8, 14]]);
    const ink = fieldInk(f)!;
    expect(ink.box).toEqual([10, 10, 34, 24]);
    const boxes: BBox[] = [];
    const r = await readFieldCheaply(f, false, async (_f, b) => (boxes.push(b), "Durand"), async () => ["never"]);
    expect(r).toEqual({ text: "Durand", by: "ocr line" });
    expect(boxes).toEqual([[7, 7, 37, 27]]);
  });

  it("a hair-thin run after the text (the cursor) is read again without it: « Michel » with its cursor is not « Michell », « Michel » stays « Michel »", async () => {
    const f = entry([[10, 6, 12], [18, 6, 12], [26, 8, 14], [37, 1, 16]]);
    const boxes: BBox[] = [];
    const r = await readFieldCheaply(f, false, async (fr, b) => (boxes.push(b), inkAt(fr, 37) ? "Michell" : "Michel"), async () => []);
    expect(r).toMatchObject({ text: "Michell", by: "ocr line" });
    // The second read is made only when asked (the first one did not show the value).
    expect(boxes).toHaveLength(1);
    expect(await r.withoutCursor!()).toBe("Michel");
    const pc: Postcondition = { kind: "field_value", region: { of: "target" }, value: "Michel" };
    const res = await checkPostcondition(pc, probe({ boxes: { target: [0, 0, 50, 20] }, readField: async () => r }), after);
    expect(res).toMatchObject({ status: "passed", evidence: expect.stringContaining("cursor") });
    // The cursor one pixel after the text (qt-dialog, « …gardienl »): the read without it stops before it, margin or not.
    const near = entry([[10, 6, 12], [18, 6, 12], [25, 6, 14], [32, 1, 16]]);
    const cut: BBox[] = [];
    const n = await readFieldCheaply(near, false, async (fr, b) => (cut.push(b), inkAt(fr, 32) ? "Michell" : "Michel"), async () => []);
    expect(await n.withoutCursor!()).toBe("Michel");
    // The same box both times (the margins OCR needs), the cursor painted over the second time; the last letter kept.
    expect(cut[1]).toEqual(cut[0]);
    expect(inkAt(near, 32)).toBe(true);
    // Without the cursor run nothing is read twice.
    expect((await readFieldCheaply(entry([[10, 6, 12], [18, 6, 12]]), false, async () => "Mi", async () => [])).withoutCursor).toBeUndefined();
  });

  it("a cursor touching the end of the text (Qt draws it against the last letter) is read again without it; a letter's own stroke is not", async () => {
    // qt-dialog: « Laisser chez le gardien » read « …gardienl », the cursor one pixel against the « n ».
    const f = entry([[10, 6, 12], [18, 6, 12], [26, 8, 10], [34, 1, 16]]);
    expect(fieldInk(f)!.cursorAt).toBe(34);
    const boxes: BBox[] = [];
    const r = await readFieldCheaply(f, false, async (fr, b) => (boxes.push(b), inkAt(fr, 34) ? "gardienl" : inkAt(fr, 33) ? "gardien" : "gardie"), async () => []);
    expect(r).toMatchObject({ text: "gardienl", by: "ocr line" });
    expect(await r.withoutCursor!()).toBe("gardien");
    expect(boxes[1]).toEqual(boxes[0]);
    // The last letter's stroke as tall as the text before it (« Michel » ends in « l »): no cursor.
    expect(fieldInk(entry([[10, 6, 12], [18, 6, 12], [26, 2, 16]]))!.cursorAt).toBeUndefined();
    expect(fieldInk(entry([[10, 6, 16], [18, 6, 10], [24, 1, 16]]))!.cursorAt).toBe(24);
  });

  it("a masked field's dots are counted without OCR; text in a masked field still goes to OCR", async () => {
    const dots = entry([0, 1, 2, 3, 4].map((k) => [10 + 11 * k, 7, 7] as [number, number, number]));
    expect(maskDots(fieldInk(dots)!)).toBe(5);
    let ocr = 0;
    expect(await readFieldCheaply(dots, true, async () => (ocr++, "?"), async () => [])).toEqual({ text: "•••••", by: "mask dots" });
    expect(ocr).toBe(0);
    expect(fieldShows("•••••", "abcde", true).status).toBe("passed");
    const text = entry([[10, 4, 14], [16, 9, 10], [27, 5, 14]]);
    expect(maskDots(fieldInk(text)!)).toBeUndefined();
    expect(await readFieldCheaply(text, true, async () => "Ab1", async () => [])).toEqual({ text: "Ab1", by: "ocr line" });
  });

  it("field_value uses the probe's cheap read and says how it read", async () => {
    const pc: Postcondition = { kind: "field_value", region: { of: "target" }, value: "{{nom}}" };
    const r = await checkPostcondition(pc, probe({ boxes: { target: [0, 0, 50, 20] }, readField: async () => ({ text: "", by: "no ink" }), text: ["Durand"] }), { phase: "before" });
    expect(r).toMatchObject({ status: "failed", evidence: expect.stringContaining("(no ink)") });
  });
});
