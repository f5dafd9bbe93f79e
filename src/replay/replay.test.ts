import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeFrame, type Frame } from "../core/frame.js";
import type { BBox } from "../core/geometry.js";
import type { Workflow } from "../core/schemas/workflow.js";
import { cropFrame } from "../core/frame.js";
import { matchIcon } from "../perception/icon-match.js";
import { groundTarget } from "./grounding.js";
import { readTrace, rowOutcomes, TraceWriter } from "./trace.js";
import { bindVariables, fillTemplate, parseCsv, parseVarArgs, titleWithData } from "./variables.js";

const demo = JSON.parse(readFileSync(new URL("../../demos/yad-patient/workflow.json", import.meta.url), "utf8")) as Workflow;

describe("variables", () => {
  it("CSV: ; or , separators, quotes with \"\" escapes, CRLF, BOM, blank lines; a short row names its line", () => {
    expect(parseCsv('\uFEFFnom;prenom\r\n"N\'Diaye";"Aï""cha"\r\n\r\nDurand;Zoë\r\n')).toEqual([
      { nom: "N'Diaye", prenom: 'Aï"cha' },
      { nom: "Durand", prenom: "Zoë" },
    ]);
    expect(parseCsv('a,b\n"x,1",2\n')).toEqual([{ a: "x,1", b: "2" }]);
    expect(() => parseCsv("a;b\n1;2\n3\n", "rows.csv")).toThrow(/rows\.csv: line 3 has 1 cells, the header has 2/);
    expect(() => parseCsv("", "rows.csv")).toThrow(/empty/);
    expect(() => parseCsv('a\n"open', "rows.csv")).toThrow(/never closed/);
    // What spreadsheets export: a ; header whose cells hold commas, quoted line breaks, tabs, Excel's sep= line.
    expect(parseCsv("nom;note\nDurand;réglée le 3 mars, 120 €\n")).toEqual([{ nom: "Durand", note: "réglée le 3 mars, 120 €" }]);
    expect(parseCsv('"a;b",c\n1,"deux\nlignes"\n')).toEqual([{ "a;b": "1", c: "deux\nlignes" }]);
    expect(parseCsv("nom\tprenom\nN'Diaye\tAïcha\n")).toEqual([{ nom: "N'Diaye", prenom: "Aïcha" }]);
    expect(parseCsv("sep=,\r\nnom;x,prenom\r\nA;B,C\r\n")).toEqual([{ "nom;x": "A;B", prenom: "C" }]);
    expect(parseCsv('nom,prenom\n"a",b\n"c", d \n')).toEqual([{ nom: "a", prenom: "b" }, { nom: "c", prenom: " d " }]);
    expect(() => parseCsv("a,a\n1,2\n", "rows.csv")).toThrow(/column "a" appears twice/);
    expect(() => parseCsv('a,b\n"x"y,2\n', "rows.csv")).toThrow(/rows\.csv: not a CSV file .*line 2/);
  });

  it("every missing variable is reported at once, before anything runs; unknown names are refused", () => {
    expect(() => bindVariables(demo, { vars: { nom: "Durand" } })).toThrow(/Missing variable values, nothing was run: prenom .*date_de_naissance/);
    expect(() => bindVariables(demo, { vars: { nom: "x", prenon: "y" } })).toThrow(/"prenon" is not a variable of workflow/);
    const rows = bindVariables(demo, { rows: [{ nom: "A", prenom: "B", date_de_naissance: "1" }, { nom: "C", prenom: "D", date_de_naissance: "2" }], vars: { prenom: "Z" } });
    expect(rows.map((r) => r.prenom)).toEqual(["Z", "Z"]);
    expect(bindVariables(demo, { useExamples: true })[0]).toEqual({ nom: "Martin", prenom: "Zoë", date_de_naissance: "12/03/1985" });
    expect(parseVarArgs(["a=b=c"])).toEqual({ a: "b=c" });
    expect(() => parseVarArgs(["novalue"])).toThrow(/name=value/);
  });

  it("templates and window titles take the row's data (the file name inside a recorded title too)", () => {
    expect(fillTemplate("{{nom}} / {{ prenom }}", { nom: "A", prenom: "B" })).toBe("A / B");
    const wf = { ...demo, variables: [{ name: "chemin", type: "path", example: "/tmp/x/janvier.txt", secret: false, steps: [] }] } as Workflow;
    expect(titleWithData("*/tmp/x/janvier.txt - Mousepad", wf, { chemin: "/tmp/y/fevrier.txt" })).toBe("*/tmp/y/fevrier.txt - Mousepad");
    expect(titleWithData("janvier.txt - Mousepad", wf, { chemin: "/tmp/y/fevrier.txt" })).toBe("fevrier.txt - Mousepad");
    // A new value that holds a shorter recorded form is not rewritten again.
    expect(titleWithData("*/tmp/x/janvier.txt - Mousepad", wf, { chemin: "/tmp/y/Dossier janvier Martin.txt" })).toBe("*/tmp/y/Dossier janvier Martin.txt - Mousepad");
  });
});

describe("trace_v1", () => {
  const header = { type: "run", schema_version: "trace_v1", run_id: "run_1", workflow_id: "wf", workflow_name: "wf", workflow_path: "/x.json", rows: [{ nom: "A" }, { nom: "B" }], on_error: "skip", steps: [{ step_id: "s1", action: "click", intention: "i" }, { step_id: "s2", action: "key", intention: "j" }] } as const;

  it("is appended line by line; a line cut by a crash is ignored; rows resume at their first step not passed", () => {
    const dir = mkdtempSync(join(tmpdir(), "rpav-trace-"));
    const w = new TraceWriter(dir);
    w.append(header);
    w.append({ type: "row_start", row: 0, from_step: 0 });
    w.append({ type: "after", row: 0, step: 0, step_id: "s1", status: "passed", attempts: 1, screenshot: null, origin: null, check: "", error: null, overhead_ms: 1, duration_ms: 2 });
    w.append({ type: "after", row: 0, step: 1, step_id: "s2", status: "failed", attempts: 3, screenshot: null, origin: null, check: "", error: { code: "target_not_found", message: "m" }, overhead_ms: 1, duration_ms: 2 });
    w.append({ type: "row_end", row: 0, status: "failed", failed_step: 1, error: { code: "target_not_found", message: "m" } });
    w.append({ type: "row_start", row: 1, from_step: 0 });
    w.append({ type: "after", row: 1, step: 0, step_id: "s1", status: "passed", attempts: 1, screenshot: null, origin: null, check: "", error: null, overhead_ms: 1, duration_ms: 2 });
    writeFileSync(join(dir, "trace.jsonl"), `${readFileSync(join(dir, "trace.jsonl"), "utf8")}{"type":"aft`);
    const t = readTrace(dir);
    expect(t.truncatedTail).toBe('{"type":"aft');
    expect(rowOutcomes(t)).toEqual([
      { row: 0, status: "failed", resumeFrom: 1 },
      { row: 1, status: "not_run", resumeFrom: 1 },
    ]);
    expect(w.putShot("s1 before", new Uint8Array([1]))).toMatch(/^shots\/\d{4}-s1_before\.png$/);
  });

  it("a newer trace version is refused naming both; a bad event names its line; a folder without a trace says what to give", () => {
    const dir = mkdtempSync(join(tmpdir(), "rpav-trace-"));
    writeFileSync(join(dir, "trace.jsonl"), `${JSON.stringify({ t: new Date().toISOString(), ...header, schema_version: "trace_v2" })}\n`);
    expect(() => readTrace(dir)).toThrow(/"trace_v2" is not one this build reads.*trace_v1.*newer RPA Vision/);
    writeFileSync(join(dir, "trace.jsonl"), `${JSON.stringify({ t: new Date().toISOString(), ...header })}\n{"type":"after","row":-1}\n`);
    expect(() => readTrace(dir)).toThrow(/line 2 is not a trace_v1 event/);
    expect(() => readTrace(mkdtempSync(join(tmpdir(), "rpav-empty-")))).toThrow(/no run trace here/);
  });
});

/** A frame with a light background, a dark "icon" (a ring with a bar) at (x, y), and noise-free text-like stripes. */
function scene(w: number, h: number, at: [number, number], opts: { dark?: boolean; scale?: number } = {}): Frame {
  const s = opts.scale ?? 1;
  const data = new Uint8Array(w * h * 4);
  const bg = opts.dark ? 40 : 235;
  const fg = opts.dark ? 230 : 30;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = (y * w + x) * 4;
      let v = bg + ((x * 7 + y * 13) % 11) - 5;
      for (let k = 0; k < 8; k++) if (y > 20 + k * 60 && y < 30 + k * 60 && x < 40) v = fg; // text-like stripes in the margin
      const dx = (x - at[0]) / s;
      const dy = (y - at[1]) / s;
      const r = Math.hypot(dx - 20, dy - 20);
      if ((r > 12 && r < 17) || (Math.abs(dx - 20) < 3 && dy > 5 && dy < 35)) v = fg;
      data[i] = data[i + 1] = data[i + 2] = v;
      data[i + 3] = 255;
    }
  return makeFrame({ data, width: w, height: h, channels: 4 });
}

describe("icon template (plan: 80×80, NCC ≥ 0.90)", () => {
  const recorded = scene(400, 300, [150, 100]);
  const icon = cropFrame(recorded, [130, 80, 210, 160]);

  it("finds the icon where it moved, on a dark theme (inverted contrast) and drawn twice as large", () => {
    const moved = matchIcon(scene(400, 300, [260, 200]), icon)!;
    expect(moved.score).toBeGreaterThanOrEqual(0.9);
    expect(moved.bbox).toEqual([240, 180, 320, 260]);
    const dark = matchIcon(scene(400, 300, [60, 40], { dark: true }), icon)!;
    expect(dark.inverted).toBe(true);
    expect(dark.score).toBeGreaterThanOrEqual(0.9);
    const big = matchIcon(scene(500, 400, [100, 100], { scale: 2 }), icon)!;
    expect(big.scale).toBe(2);
    expect(big.score).toBeGreaterThanOrEqual(0.8);
  });

  it("grounding falls back to the icon when the target has no label, and reports a miss below 0.90 with the correlation", async () => {
    const target = { type: null, label: "", by_text: null, role: null, position_hint: null, anchors: [], recorded_bbox: [130, 80, 210, 160] as [number, number, number, number], icon: "icons/x.png" };
    const hit = await groundTarget(target, scene(400, 300, [260, 200]), { elements: [], lines: [] }, { icon });
    expect(hit).toMatchObject({ found: true, method: "icon", point: [280, 220] });
    const blank = makeFrame({ data: new Uint8Array(400 * 300 * 4).fill(200), width: 400, height: 300, channels: 4 });
    const miss = await groundTarget(target, blank, { elements: [], lines: [] }, { icon });
    expect(miss.found).toBe(false);
    if (!miss.found) expect(miss.reason).toMatch(/icon template best correlation [\d.]+ < 0\.9/);
  });

  it("the VLM hook is asked last, and its failure is a reason, not a crash", async () => {
    const target = { type: "button" as const, label: "Valider", by_text: "Valider", role: null, position_hint: null, anchors: [], recorded_bbox: null, icon: null };
    const frame = scene(200, 100, [10, 10]);
    const asked: string[] = [];
    const vlm = { name: "vlm-test", ground: async (_f: Frame, d: string) => (asked.push(d), { bbox: [10, 10, 50, 30] as const, confidence: 0.8 }) };
    expect(await groundTarget(target, frame, { elements: [], lines: [] }, { vlm })).toMatchObject({ found: true, method: "vlm", point: [30, 20] });
    expect(asked).toEqual(['button "Valider"']);
    const down = { name: "vlm-down", ground: async () => Promise.reject(new Error("connect ECONNREFUSED 127.0.0.1:11434")) };
    const r = await groundTarget(target, frame, { elements: [], lines: [] }, { vlm: down });
    expect(r.found).toBe(false);
    if (!r.found) expect(r.reason).toMatch(/VLM unavailable \(connect ECONNREFUSED/);
  });

  it("a click on a target named by its text aims at the text, not at the centre of a box that reaches past it; a field is clicked in its box", async () => {
    // mousepad as root: the detector's « File » box ran down past the menu bar onto the red warning
    // bar under it (0–55 where the bar ends at 30); its centre (y 27.5) opened nothing.
    const frame = scene(640, 480, [500, 300]);
    const file = { element_id: "el_file", type: "link", bbox: [0, 0, 37, 55], label: "File" } as never;
    const edit = { element_id: "el_edit", type: "link", bbox: [37, 0, 76, 30], label: "Edit" } as never;
    const lines = [
      { text: "File", bbox: [7.8, 7.8, 34.3, 21.3] as BBox, words: [{ text: "File", bbox: [9, 8, 28, 19] as BBox }] },
      { text: "Edit", bbox: [28.5, 7.5, 87.5, 21.5] as BBox, words: [{ text: "Edit", bbox: [46, 8, 68, 19] as BBox }] },
    ];
    const target = { type: "tab" as const, label: "File", by_text: "File", role: null, position_hint: "top-center", anchors: [], recorded_bbox: null, icon: null };
    const g = await groundTarget(target, frame, { elements: [file, edit], lines });
    expect(g).toMatchObject({ found: true, method: "element", bbox: [0, 0, 37, 55], point: [18.5, 13.5] });
    // A field's own text is its value: the click stays in the middle of the field.
    const field = { element_id: "el_nom", type: "text_input", bbox: [100, 100, 400, 134], label: "Nom" } as never;
    const value = [{ text: "Nom Durand", bbox: [104, 104, 190, 128] as BBox, words: [{ text: "Nom", bbox: [104, 106, 130, 126] as BBox }, { text: "Durand", bbox: [136, 106, 190, 126] as BBox }] }];
    const f = await groundTarget({ ...target, type: "text_input", label: "Nom", by_text: "Nom", position_hint: null }, frame, { elements: [field], lines: value });
    expect(f).toMatchObject({ found: true, point: [250, 117] });
  });

  it("equal labels: the recorded rank in reading order picks the element", async () => {
    const el = (id: string, y: number) => ({ element_id: id, type: "checkbox" as const, bbox: [10, y, 100, y + 20] as [number, number, number, number], label: "checkbutton" }) as never;
    const frame = scene(200, 200, [150, 150]);
    const target = { type: "checkbox" as const, label: "checkbutton", by_text: "checkbutton", role: null, position_hint: "middle-left", anchors: [], recorded_bbox: null, icon: null, ordinal: { index: 1, count: 3 } };
    const g = await groundTarget(target, frame, { elements: [el("c", 90), el("a", 30), el("b", 60)], lines: [] });
    expect(g).toMatchObject({ found: true, method: "element", bbox: [10, 60, 100, 80], ambiguous: false });
  });
});
