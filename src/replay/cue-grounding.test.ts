import { describe, expect, it } from "vitest";
import { makeFrame, type Frame } from "../core/frame.js";
import type { BBox } from "../core/geometry.js";
import type { Target } from "../core/schemas/workflow.js";
import type { UIElement } from "../core/schemas/uielement.js";
import { groundByCues } from "./cue-grounding.js";
import { groundTarget } from "./grounding.js";

/** A light window with boxes painted: `ink` dark text-like stripes (enabled) or pale ones (greyed out). */
function frame(w: number, h: number, boxes: { bbox: BBox; greyed?: boolean }[] = []): Frame {
  const data = new Uint8Array(w * h * 4).fill(240);
  for (const { bbox, greyed } of boxes)
    for (let y = bbox[1]; y < bbox[3]; y++)
      for (let x = bbox[0]; x < bbox[2]; x++) {
        const edge = y === bbox[1] || y === bbox[3] - 1 || x === bbox[0] || x === bbox[2] - 1;
        const v = greyed ? (edge ? 215 : 232) : edge ? 60 : (x + y) % 7 < 2 ? 20 : 255;
        data.fill(v, (y * w + x) * 4, (y * w + x) * 4 + 3);
      }
  return makeFrame({ data, width: w, height: h, channels: 4 });
}

const el = (id: string, type: UIElement["type"], bbox: BBox, label = ""): UIElement => ({
  schema_version: "uielement_v1", element_id: id, type, role: type, bbox: [...bbox] as [number, number, number, number], label, confidence: 0.8, detection_method: "test",
  visual: { screenshot_path: "", embedding: null }, text: { raw: label, normalized: label, embedding: null }, properties: { is_clickable: true, is_focusable: true, is_dangerous: false }, context: { app_name: "", window_title: "" }, tags: [],
});
const line = (text: string, bbox: BBox) => ({ text, bbox });
const base: Target = { type: "text_input", label: "", by_text: null, role: null, position_hint: null, anchors: [], recorded_bbox: null, icon: null };

describe("grounding by every cue", () => {
  it("an older target (no window-relative box) is left to the older path", () => {
    expect(groundByCues(base, frame(100, 100), { elements: [], lines: [] })).toBeUndefined();
  });

  it("same layout as recorded: the element at its recorded place in the window wins over an equal one elsewhere", async () => {
    const a = el("a", "button", [20, 20, 100, 50], "Valider");
    const b = el("b", "button", [300, 200, 380, 230], "Valider");
    const t: Target = { ...base, type: "button", label: "Valider", by_text: "Valider", window_box: [300, 200, 380, 230], window_size: [400, 300], cues: ["label", "position", "type"], text_px: 16 };
    const g = await groundTarget(t, frame(400, 300, [{ bbox: a.bbox }, { bbox: b.bbox }]), { elements: [a, b], lines: [] });
    expect(g).toMatchObject({ found: true, method: "element", bbox: [300, 200, 380, 230], ambiguous: false });
    if (g.found) expect(g.note).toMatch(/layout as recorded/);
  });

  it("a field named by its caption is found through the caption, not by its rank when the count changed; a greyed button is never typed into", () => {
    // Recorded: 4 fields, « Nom » was the 4th, typed into. Now (window larger): 3 fields and a greyed-out button.
    const fields: BBox[] = [[200, 40, 400, 64], [200, 90, 400, 114], [200, 140, 400, 164]];
    const greyed: BBox = [420, 140, 520, 164];
    const screen = {
      elements: [el("f0", "text_input", fields[0]!), el("f1", "text_input", fields[1]!), el("f2", "text_input", fields[2]!), el("g", "button", greyed, "Nom")],
      lines: [line("Recherche", [100, 42, 180, 62]), line("Nom", [120, 92, 170, 112]), line("Ville", [120, 142, 170, 162]), line("Fiche client", [20, 5, 140, 25])],
    };
    const t: Target = {
      ...base, label: "Nom", by_text: "Nom", typed_into: true, box_contrast: 200, ordinal: { index: 3, count: 4 },
      caption: { text: "Nom", dx: -155, dy: 0 }, anchor_offsets: [{ text: "Fiche client", dx: -220, dy: -150 }], window_box: [200, 150, 400, 174], window_size: [500, 300], text_px: 20,
      cues: ["label", "caption", "anchors", "position", "type"],
    };
    const f = frame(600, 360, [...fields.map((b) => ({ bbox: b })), { bbox: greyed, greyed: true }]);
    const g = groundByCues(t, f, screen);
    expect(g).toMatchObject({ found: true, bbox: fields[1], ambiguous: false });
  });

  it("same window size but a new field above: the recorded place now holds another field, and the caption moves the choice to its field", () => {
    // Recorded: « Nom » field at y 40–64 (window 600×360). Now « Société » took that row; « Nom » is one row down.
    const fields: BBox[] = [[200, 40, 400, 64], [200, 90, 400, 114]];
    const screen = { elements: [el("f0", "text_input", fields[0]!, "Société"), el("f1", "text_input", fields[1]!, "Nom")], lines: [line("Société", [110, 42, 180, 62]), line("Nom", [130, 92, 170, 112])] };
    const t: Target = { ...base, label: "Nom", by_text: "Nom", typed_into: true, caption: { text: "Nom", dx: -150, dy: 0 }, window_box: [...fields[0]!], window_size: [600, 360], text_px: 20, cues: ["label", "caption", "position", "type"] };
    const g = groundByCues(t, frame(600, 360, fields.map((b) => ({ bbox: b }))), screen);
    expect(g).toMatchObject({ found: true, bbox: fields[1] });
    if (g?.found) expect(g.note).not.toMatch(/layout as recorded/);
  });

  it("a field whose fill blends into the window (greyed out) is set aside for typing", () => {
    // Enabled: white fill on a 240 window; greyed: a 238 fill.
    const box: BBox = [200, 90, 400, 114];
    const paint = (b: BBox, v: number) => {
      const f = frame(600, 360);
      for (let y = b[1]; y < b[3]; y++) for (let x = b[0]; x < b[2]; x++) f.data.fill(y === b[1] || y === b[3] - 1 ? 200 : v, (y * 600 + x) * 4, (y * 600 + x) * 4 + 3);
      return f;
    };
    const t: Target = { ...base, label: "Ville", by_text: "Ville", typed_into: true, fill_contrast: 15, caption: { text: "Ville", dx: -155, dy: 0 }, window_box: [...box], window_size: [600, 360], cues: ["label", "caption", "position", "type"] };
    const g = groundByCues(t, paint(box, 238), { elements: [el("f", "text_input", box, "Ville")], lines: [line("Ville", [120, 92, 170, 112])] });
    expect(g?.found).toBe(false);
    expect(groundByCues(t, paint(box, 255), { elements: [el("f", "text_input", box, "Ville")], lines: [line("Ville", [120, 92, 170, 112])] })).toMatchObject({ found: true, bbox: box });
  });

  it("when the count of equal candidates is the count recorded, the rank in reading order decides", () => {
    const boxes: BBox[] = [[10, 10, 100, 30], [10, 60, 100, 80], [10, 110, 100, 130]];
    const screen = { elements: boxes.map((b, i) => el(`c${i}`, "checkbox", b, "checkbutton")), lines: [] };
    const t: Target = { ...base, type: "checkbox", label: "checkbutton", by_text: "checkbutton", ordinal: { index: 1, count: 3 }, window_box: [10, 90, 100, 110], window_size: [300, 300], cues: ["label", "position", "type"] };
    expect(groundByCues(t, frame(200, 200), screen)).toMatchObject({ found: true, bbox: boxes[1] });
  });

  it("a typing step whose only field looks greyed out is not found, never typed into the greyed field", () => {
    const field: BBox = [200, 90, 400, 114];
    const t: Target = { ...base, label: "Nom", by_text: "Nom", typed_into: true, box_contrast: 200, caption: { text: "Nom", dx: -155, dy: 0 }, window_box: [...field], window_size: [600, 360], cues: ["caption", "position", "type"] };
    const g = groundByCues(t, frame(600, 360, [{ bbox: field, greyed: true }]), { elements: [el("f", "text_input", field)], lines: [line("Nom", [120, 92, 170, 112])] });
    expect(g?.found).toBe(false);
    if (g && !g.found) expect(g.reason).toMatch(/looks disabled/);
  });

  it("a region target is the recorded place when the window is as recorded, else where the texts around it say", () => {
    const t: Target = { ...base, type: null, region: true, window_box: [280, 180, 320, 220], window_size: [400, 300], anchor_offsets: [{ text: "Sans titre", dx: -200, dy: -150 }], text_px: 16, cues: ["anchors", "position"] };
    const same = groundByCues(t, frame(400, 300), { elements: [], lines: [line("Sans titre", [60, 42, 140, 58])] });
    expect(same).toMatchObject({ found: true, method: "region", point: [300, 200] });
    // Window twice as large (×2): text twice as high, the anchor moved; the point follows it.
    const big = groundByCues(t, frame(800, 600), { elements: [], lines: [line("Sans titre", [120, 84, 280, 116])] });
    expect(big).toMatchObject({ found: true, method: "region", point: [600, 400] });
  });
});
