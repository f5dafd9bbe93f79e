import { describe, expect, it } from "vitest";
import { makeFrame, type Frame } from "../core/frame.js";
import type { BBox } from "../core/geometry.js";
import type { Target } from "../core/schemas/workflow.js";
import type { UIElement } from "../core/schemas/uielement.js";
import { groundByCues, wordScale } from "./cue-grounding.js";
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

  it("a check box of which only the caption was read: its indicator before the caption, at the recorded width, is clicked and is the box to check", async () => {
    // yad's consent box (ticked, in a scrolled window): no check box detected, its caption read.
    const t: Target = { ...base, type: "checkbox", label: "Accepte les conditions", by_text: "Accepte les conditions", window_box: [6, 122, 162, 140], window_size: [640, 340], cues: ["label", "position", "type"], text_px: 14 };
    const g = await groundTarget(t, frame(640, 340), { elements: [], lines: [line("Accepte les conditions", [20, 123, 162, 140])] });
    expect(g).toMatchObject({ found: true, method: "element", bbox: [6, 123, 162, 140] });
    if (!g.found) return;
    expect(g.point[0]).toBeLessThan(20);
    expect(g.note).toMatch(/indicator before the caption/);
    // A button named the same stays its words.
    const b = await groundTarget({ ...t, type: "button" }, frame(640, 340), { elements: [], lines: [line("Accepte les conditions", [20, 123, 162, 140])] });
    expect(b).toMatchObject({ found: true, bbox: [20, 123, 162, 140] });
    // Drawn after its caption (the side before is blank): the box extends to the right.
    const after = await groundTarget(t, frame(640, 340, [{ bbox: [166, 124, 178, 136] }]), { elements: [], lines: [line("Accepte les conditions", [20, 123, 162, 140])] });
    expect(after).toMatchObject({ found: true, bbox: [20, 123, 176, 140] });
    if (after.found) expect(after.point[0]).toBeGreaterThan(162);
    // Drawn before, with other text after it: before.
    const both = await groundTarget(t, frame(640, 340, [{ bbox: [7, 125, 17, 135] }, { bbox: [166, 124, 178, 136] }]), { elements: [], lines: [line("Accepte les conditions", [20, 123, 162, 140])] });
    expect(both).toMatchObject({ found: true, bbox: [6, 123, 162, 140] });
  });

  it("an icon redrawn by a theme on an unchanged layout: its recorded place, when the texts around it are where recorded", () => {
    // The recorded icon: a dark square with two light bars; now drawn as a light square (no match anywhere).
    const icon = makeFrame({ data: new Uint8Array(24 * 24 * 4).map((_, i) => ((((i >> 2) % 24) + Math.floor((i >> 2) / 24)) % 6 < 3 ? 20 : 230)), width: 24, height: 24, channels: 4 });
    const button: BBox = [10, 10, 40, 40];
    const t: Target = { ...base, type: "button", label: "", icon: "icons/save.png", window_box: [...button] as [number, number, number, number], window_size: [400, 300], text_px: 16, cues: ["icon", "anchors", "position", "type"], anchor_offsets: [{ text: "Nom du client", dx: 60, dy: 45, w: 90 }, { text: "Ville", dx: 40, dy: 95, w: 40 }] };
    const lines = [line("Nom du client", [40, 52, 130, 68]), line("Ville", [35, 102, 75, 118])];
    const f = frame(400, 300, [{ bbox: button, greyed: true }]);
    const g = groundByCues(t, f, { elements: [el("b", "button", button)], lines }, { icon });
    expect(g).toMatchObject({ found: true, bbox: button });
    if (g?.found) expect(g.note).toMatch(/icon looks different here/);
    // The texts around it elsewhere (the layout changed): not taken on its place alone.
    const moved = [line("Nom du client", [140, 152, 230, 168]), line("Ville", [135, 202, 175, 218])];
    expect(groundByCues(t, f, { elements: [el("b", "button", button)], lines: moved }, { icon })).toMatchObject({ found: false });
  });

  it("a field target never takes the field an earlier step of the row found for another recorded field (nothing typed over it)", () => {
    // html-materialize: a caption recorded from the row above led a « Ville » step to the price field, and the city
    // replaced the price. The price field, found for its own step, is taken.
    const price: BBox = [160, 60, 460, 84];
    const city: BBox = [160, 100, 460, 124];
    const screen = { elements: [el("p", "text_input", price)], lines: [line("Prix unitaire", [40, 62, 150, 82]), line("Ville", [100, 102, 150, 122])] };
    const t: Target = { ...base, label: "", typed_into: true, caption: { text: "Prix unitaire", dx: -215, dy: 0 }, window_box: [160, 60, 460, 84], window_size: [500, 200], text_px: 20, cues: ["caption", "position", "type"] };
    const f = frame(500, 200, [{ bbox: price }, { bbox: city }]);
    expect(groundByCues(t, f, screen)).toMatchObject({ found: true, bbox: price });
    const g = groundByCues(t, f, screen, { taken: [price] });
    // Not found rather than typed over: the step fails and says why.
    expect(g).toMatchObject({ found: false, reason: expect.stringMatching(/earlier step found for another recorded field/) });
    // Another kind of target (a button) is not concerned.
    const b = groundByCues({ ...t, type: "button", typed_into: false, label: "OK", by_text: "OK", cues: ["label", "position"] }, f, { elements: [el("ok", "button", price, "OK")], lines: [] }, { taken: [price] });
    expect(b).toMatchObject({ found: true, bbox: price });
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

  it("a typing step whose only field looks greyed out (its fill blends into the window, unlike when recorded) is not found, never typed into the greyed field", () => {
    const field: BBox = [200, 90, 400, 114];
    const t: Target = { ...base, label: "Nom", by_text: "Nom", typed_into: true, fill_contrast: 20, caption: { text: "Nom", dx: -155, dy: 0 }, window_box: [...field], window_size: [600, 360], cues: ["caption", "position", "type"] };
    const g = groundByCues(t, frame(600, 360, [{ bbox: field, greyed: true }]), { elements: [el("f", "text_input", field)], lines: [line("Nom", [120, 92, 170, 112])] });
    expect(g?.found).toBe(false);
    if (g && !g.found) expect(g.reason).toMatch(/looks disabled \(fill 8 against 20, recorded\)/);
  });

  it("greyed out is judged against the live window's other fields: in a dark theme the enabled fields are kept, the greyed one set aside", () => {
    // Recorded in a light theme with a fill contrast of 30. Live, dark: window 40, enabled fields 52
    // (contrast 12: under half the recorded 30, so the recording alone would set every field aside),
    // one greyed field 43 (contrast 3).
    const w = 600, h = 360;
    const data = new Uint8Array(w * h * 4).fill(40);
    const paint = (b: BBox, v: number) => { for (let y = b[1]; y < b[3]; y++) for (let x = b[0]; x < b[2]; x++) data.fill(y === b[1] || y === b[3] - 1 ? 90 : v, (y * w + x) * 4, (y * w + x) * 4 + 3); };
    const fields: BBox[] = [[200, 40, 400, 64], [200, 90, 400, 114], [200, 140, 400, 164]];
    paint(fields[0]!, 52);
    paint(fields[1]!, 52);
    paint(fields[2]!, 43);
    const f = makeFrame({ data, width: w, height: h, channels: 4 });
    const screen = { elements: fields.map((b, i) => el(`f${i}`, "text_input", b)), lines: [line("Client", [110, 42, 180, 62]), line("Ville", [120, 92, 170, 112]), line("Code", [120, 142, 170, 162])] };
    const t = (caption: string, box: BBox): Target => ({ ...base, label: caption, by_text: caption, typed_into: true, fill_contrast: 30, caption: { text: caption, dx: -155, dy: 0 }, window_box: [...box], window_size: [w, h], text_px: 20, cues: ["caption", "position", "type"] });
    expect(groundByCues(t("Ville", fields[1]!), f, screen)).toMatchObject({ found: true, bbox: fields[1] });
    const code = groundByCues(t("Code", fields[2]!), f, screen);
    expect(code?.found).toBe(false);
    if (code && !code.found) expect(code.reason).toMatch(/« f2 » looks disabled \(fill 3 against 12, the fields of the window \(upper median of 3\)/);
  });

  it("at ×2, or once text is typed in a field, the empty fields are not taken for greyed out (a box's grey spread changed, its fill did not; a focus ring is no reference)", () => {
    // Recorded at ×1 (box spread 55 from its border). Live at ×2: a 1 px border is under 5 % of the
    // box, so its spread reads 0; the field above holds dark text, whose spread is high, and it has
    // the focus: a 4 px blue-grey ring around it (its fill then stands out by 130).
    const w = 1200, h = 720;
    const data = new Uint8Array(w * h * 4).fill(240);
    const paint = (b: BBox, text: boolean) => { for (let y = b[1]; y < b[3]; y++) for (let x = b[0]; x < b[2]; x++) data.fill(y === b[1] || y === b[3] - 1 || x === b[0] || x === b[2] - 1 ? 185 : text && x < b[0] + 300 && (x + y) % 3 === 0 ? 20 : 250, (y * w + x) * 4, (y * w + x) * 4 + 3); };
    const fields: BBox[] = [[400, 80, 800, 128], [400, 180, 800, 228]];
    const ring: BBox = [fields[0]![0] - 4, fields[0]![1] - 4, fields[0]![2] + 4, fields[0]![3] + 4];
    for (let y = ring[1]; y < ring[3]; y++) for (let x = ring[0]; x < ring[2]; x++) data.fill(120, (y * w + x) * 4, (y * w + x) * 4 + 3);
    paint(fields[0]!, true);
    paint(fields[1]!, false);
    const f = makeFrame({ data, width: w, height: h, channels: 4 });
    const screen = { elements: fields.map((b, i) => el(`f${i}`, "text_input", b)), lines: [line("Client", [220, 84, 360, 124]), line("Ville", [240, 184, 340, 224])] };
    const t: Target = { ...base, label: "Ville", by_text: "Ville", typed_into: true, box_contrast: 55, fill_contrast: 10, caption: { text: "Ville", dx: -155, dy: 0 }, window_box: [200, 90, 400, 114], window_size: [600, 360], text_px: 20, cues: ["caption", "position", "type"] };
    expect(groundByCues(t, f, screen)).toMatchObject({ found: true, bbox: fields[1] });
  });

  it("the UI scale is read from the widths of the words recorded around the target (caption, nearby texts), not their heights", () => {
    const t: Target = { ...base, caption: { text: "Prix unitaire", dx: -150, dy: 0, w: 90 }, anchor_offsets: [{ text: "Fiche article", dx: -100, dy: -80, w: 80 }, { text: "OK", dx: 0, dy: 100, w: 20 }] };
    // ×1.5 text: both words 1.5× as wide (one line read twice, one not at all), « OK » too short to count.
    expect(wordScale(t, [line("Prix unitaire", [0, 0, 135, 30]), line("Prix unitaire", [0, 50, 135, 80]), line("Fiche article", [0, 100, 120, 140]), line("OK", [0, 0, 60, 20])], 1)).toBeCloseTo(1.5, 2);
    // A frame at scale factor 2 (HiDPI capture) of the same UI: ×1 in screen pixels.
    expect(wordScale(t, [line("Prix unitaire", [0, 0, 180, 30]), line("Fiche article", [0, 100, 160, 140])], 2)).toBeCloseTo(1, 2);
    expect(wordScale(t, [line("Nom du client", [0, 0, 180, 30])], 1)).toBeUndefined();
    expect(wordScale(base, [line("Prix unitaire", [0, 0, 180, 30])], 1)).toBeUndefined();
  });

  it("a typing step whose field is not seen as a field is placed from its caption at the recorded offset scaled to the live UI (×2); never inside a field set aside as greyed", () => {
    // Recorded at ×1: field [200, 90, 400, 114] (centre 300, 102), caption « Ville » 155 px left. Live at
    // ×2 (text twice as high): no element at all; the caption is at (290, 204) → field centre (600, 204).
    const t: Target = { ...base, label: "Ville", by_text: "Ville", typed_into: true, fill_contrast: 20, caption: { text: "Ville", dx: -155, dy: 0 }, window_box: [200, 90, 400, 114], window_size: [600, 360], text_px: 20, cues: ["label", "caption", "position", "type"] };
    const g = groundByCues(t, frame(1200, 720), { elements: [], lines: [line("Ville", [240, 184, 340, 224])] });
    expect(g).toMatchObject({ found: true, method: "region", point: [600, 204], bbox: [400, 180, 800, 228] });
    if (g?.found) expect(g.note).toMatch(/no field seen: placed from its caption « Ville »/);
    // A window made smaller by hand (not alike both ways) where OCR reads the text 0.8× as high: the UI
    // is as recorded, the field is the recorded offset away from its caption, at its recorded size.
    const smaller = groundByCues(t, frame(500, 200), { elements: [], lines: [line("Ville", [120, 44, 170, 60])] });
    expect(smaller).toMatchObject({ found: true, method: "region", point: [300, 52], bbox: [200, 40, 400, 64] });
    // The same, but the field there is seen and greyed out (its fill blends in): not placed inside it.
    const field: BBox = [400, 180, 800, 228];
    const greyed = groundByCues(t, frame(1200, 720, [{ bbox: field, greyed: true }]), { elements: [el("f", "text_input", field)], lines: [line("Ville", [240, 184, 340, 224])] });
    expect(greyed?.found).toBe(false);
  });

  it("a typing step whose field the detector missed: the field drawn beside its caption, where the recorded offset would miss it", () => {
    // Recorded at ×1: field [200, 90, 400, 114], caption « Ville » 155 px left. Live at text ×1.5 in a
    // window of the same size: the captions' column grew, the field shrank to [235, 125, 400, 165] —
    // the offset ×1.5 from the caption would fall right of it. A pale border on a white window, as CSS kits draw.
    const t: Target = { ...base, label: "Ville", by_text: "Ville", typed_into: true, caption: { text: "Ville", dx: -155, dy: 0, w: 50 }, window_box: [200, 90, 400, 114], window_size: [600, 360], text_px: 20, cues: ["label", "caption", "position", "type"] };
    const bordered = (box: BBox) => {
      const data = new Uint8Array(600 * 360 * 4).fill(255);
      for (let y = box[1]; y < box[3]; y++)
        for (let x = box[0]; x < box[2]; x++)
          if (y === box[1] || y === box[3] - 1 || x === box[0] || x === box[2] - 1) data.fill(219, (y * 600 + x) * 4, (y * 600 + x) * 4 + 3);
      return makeFrame({ data, width: 600, height: 360, channels: 4 });
    };
    const lines = [line("Ville", [150, 130, 225, 160])];
    const g = groundByCues(t, bordered([235, 125, 400, 165]), { elements: [], lines });
    expect(g).toMatchObject({ found: true, method: "element" });
    if (!g?.found) return;
    expect(g.bbox[0]).toBeGreaterThanOrEqual(233);
    expect(g.bbox[2]).toBeLessThanOrEqual(402);
    expect(g.point[0]).toBeGreaterThan(235);
    expect(g.point[0]).toBeLessThan(400);
    expect(g.note).toMatch(/the field drawn right of its caption « Ville »/);
    // Nothing drawn there: the recorded offset, as before.
    expect(groundByCues(t, bordered([0, 300, 10, 310]), { elements: [], lines })).toMatchObject({ found: true, method: "region" });
    // A caption recorded on the row above (dy −35: it names the field below it): the field on its own
    // row is another one, the recorded offset decides.
    const above = groundByCues({ ...t, caption: { text: "Ville", dx: -155, dy: -35, w: 50 } }, bordered([235, 125, 400, 165]), { elements: [], lines });
    expect(above).toMatchObject({ found: true, method: "region" });
  });

  it("an icon-only target: a recoloured icon (correlation under 0.85) is taken at its recorded place, never elsewhere", () => {
    // The recorded icon: a dark square with a light bar, on a light button. Live (dark theme): the button
    // and window are dark, the icon keeps its colours — the grey correlation falls, the edges remain.
    const icon = (bg: number, w = 600, h = 360, at: [number, number] = [20, 20]) => {
      const data = new Uint8Array(w * h * 4).fill(bg);
      for (let y = 0; y < 24; y++) for (let x = 0; x < 24; x++) data.fill(y >= 4 && y < 20 && x >= 4 && x < 20 ? (y >= 7 && y < 11 && x >= 7 && x < 17 ? 230 : 30) : bg, ((at[1] + y) * w + at[0] + x) * 4, ((at[1] + y) * w + at[0] + x) * 4 + 3);
      return makeFrame({ data, width: w, height: h, channels: 4 });
    };
    const rec = icon(245, 40, 40, [8, 8]);
    const t: Target = { ...base, type: "button", label: "", by_text: null, icon: "icons/save.png", window_box: [20, 20, 44, 44], window_size: [600, 360], text_px: 16, cues: ["icon", "position", "type"] };
    const here = groundByCues(t, icon(60), { elements: [], lines: [] }, { icon: rec });
    expect(here).toMatchObject({ found: true, method: "icon" });
    if (here?.found) {
      expect(here.point[0]).toBeCloseTo(32, -1);
      expect(here.point[1]).toBeCloseTo(32, -1);
    }
    // The same recoloured icon far from its recorded place: not found (it would need 0.85).
    expect(groundByCues(t, icon(60, 600, 360, [400, 250]), { elements: [], lines: [] }, { icon: rec })?.found).toBe(false);
    // The window twice as large (×2) while the text reads only 1.3× as high, the icon redrawn a little
    // otherwise (its bar lower, the button darker: 0.78 anywhere): the window's growth gives the icon's scale.
    const big = (() => {
      const f = icon(245, 1200, 720, [2000, 2000]); // drawn off the frame: only the ×2 one below
      for (let y = 0; y < 48; y++) for (let x = 0; x < 48; x++) {
        const [iy, ix] = [y >> 1, x >> 1];
        f.data.fill(iy >= 4 && iy < 20 && ix >= 4 && ix < 20 ? (y >= 19 && y < 27 && ix >= 7 && ix < 17 ? 230 : 30) : 150, ((40 + y) * 1200 + 40 + x) * 4, ((40 + y) * 1200 + 40 + x) * 4 + 3);
      }
      return f;
    })();
    const x2 = groundByCues(t, big, { elements: [], lines: [line("Fichier", [300, 300, 380, 321])] }, { icon: rec });
    expect(x2).toMatchObject({ found: true, method: "icon" });
    if (x2?.found) expect(Math.hypot(x2.point[0] - 64, x2.point[1] - 64)).toBeLessThan(6);
  });

  it("a region target is the recorded place when the window is as recorded, else where the texts around it say", () => {
    const t: Target = { ...base, type: null, region: true, window_box: [280, 180, 320, 220], window_size: [400, 300], anchor_offsets: [{ text: "Sans titre", dx: -200, dy: -150 }], text_px: 16, cues: ["anchors", "position"] };
    const same = groundByCues(t, frame(400, 300), { elements: [], lines: [line("Sans titre", [60, 42, 140, 58])] });
    expect(same).toMatchObject({ found: true, method: "region", point: [300, 200] });
    // Window twice as large (×2): text twice as high, the anchor moved; the point follows it.
    const big = groundByCues(t, frame(800, 600), { elements: [], lines: [line("Sans titre", [120, 84, 280, 116])] });
    expect(big).toMatchObject({ found: true, method: "region", point: [600, 400] });
    // The same ×2 window where OCR reads the text only 1.7× as high (line boxes vary with what they
    // hold): the window's growth is the UI scale, the point is the same.
    // And with the anchor's recorded width (80 px), read only 1.4× as high here but twice as wide: the same.
    const widths = groundByCues({ ...t, anchor_offsets: [{ text: "Sans titre", dx: -200, dy: -150, w: 80 }] }, frame(800, 600), { elements: [], lines: [line("Sans titre", [120, 89, 280, 111])] });
    expect(widths).toMatchObject({ found: true, method: "region", point: [600, 400] });
    const noisy = groundByCues(t, frame(800, 600), { elements: [], lines: [line("Sans titre", [120, 86, 280, 114]), line("Fichier", [20, 30, 90, 57])] });
    expect(noisy).toMatchObject({ found: true, method: "region", point: [600, 400] });
  });

  it("a region target recorded inside a drawn panel: the same place in the panel around the point, when the panel moved or shrank", () => {
    // Recorded: panel [41, 101, 359, 279] (inside its border), the click at 70 % × 40 % of it. Live,
    // same window size, larger text: the panel starts lower, [41, 161, 359, 279].
    const t: Target = { ...base, type: null, region: true, window_box: [243, 152, 283, 192], window_size: [400, 300], panel: { window_box: [41, 101, 359, 279], at: [0.7, 0.4] }, text_px: 16, cues: ["position"] };
    const flat = (box: BBox) => {
      const data = new Uint8Array(400 * 300 * 4).fill(240);
      for (let y = box[1]; y < box[3]; y++) for (let x = box[0]; x < box[2]; x++) data.fill(y === box[1] || y === box[3] - 1 || x === box[0] || x === box[2] - 1 ? 120 : 255, (y * 400 + x) * 4, (y * 400 + x) * 4 + 3);
      return makeFrame({ data, width: 400, height: 300, channels: 4 });
    };
    const g = groundByCues(t, flat([40, 160, 360, 280]), { elements: [], lines: [] });
    expect(g).toMatchObject({ found: true, method: "region", point: [264, 208] });
    if (g?.found) expect(g.note).toMatch(/of the panel around it/);
    // The recorded place now just above the panel (it moved down further): found around its recorded centre.
    expect(groundByCues(t, flat([40, 180, 360, 280]), { elements: [], lines: [] })).toMatchObject({ found: true, point: [264, 220] });
    // Pushed further down by a longer form above it (neither the point nor the recorded centre in it): found by its
    // width down the column through its recorded centre — the same place in it.
    expect(groundByCues(t, flat([40, 200, 360, 296]), { elements: [], lines: [] })).toMatchObject({ found: true, point: [264, 239] });
    // A panel far smaller than recorded around the point is another thing: the recorded place stays.
    expect(groundByCues(t, flat([230, 150, 300, 200]), { elements: [], lines: [] })).toMatchObject({ found: true, point: [263, 172] });
  });

  it("a region target recorded inside a panel, text larger in a window of the same size and the panel out of view: not found (the actor scrolls), never a click beside it", () => {
    // html-pico at text ×1.5: the form grew and pushed the canvas below the window's bottom; the recorded place now lies
    // on the last field's row, and a click there « changed » the window (the field lost its focus ring).
    const t: Target = { ...base, type: null, region: true, window_box: [243, 152, 283, 192], window_size: [400, 300], panel: { window_box: [41, 101, 359, 279], at: [0.7, 0.4] }, text_px: 16, anchor_offsets: [{ text: "Ville", dx: -180, dy: -80, w: 40 }], cues: ["anchors", "position"] };
    const plain = makeFrame({ data: new Uint8Array(400 * 300 * 4).fill(240), width: 400, height: 300, channels: 4 });
    const grown = [line("Ville", [30, 150, 90, 174])];
    expect(groundByCues(t, plain, { elements: [], lines: grown })).toMatchObject({ found: false, reason: expect.stringMatching(/not in view/) });
    // The same text size as recorded: the layout is as recorded, the recorded place is clicked (as coordinates would).
    expect(groundByCues(t, plain, { elements: [], lines: [line("Ville", [43, 64, 83, 80])] })).toMatchObject({ found: true, point: [263, 172] });
  });
});
