// An icon-only target recorded with what its icon shows (`icon_class`), replayed where the toolbar was redrawn (another
// icon set: other strokes, size and colour, so the recorded crop matches nothing) and reordered: the icon recognizer
// (the committed icon classifier, on icons drawn here) refuses the other icon now at the recorded place and finds the
// recorded one by what it shows.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeFrame, type Frame } from "../core/frame.js";
import type { BBox } from "../core/geometry.js";
import type { Target } from "../core/schemas/workflow.js";
import type { UIElement } from "../core/schemas/uielement.js";
import { IconClassifier } from "../perception/icon-classifier.js";
import { iconClassAt, otherIconAt } from "../perception/icon-class.js";
import { groundTarget } from "./grounding.js";
import { paintIcon } from "../../test/support/drawn-icons.js";

const W = 480;
const H = 200;
/** A toolbar of icon-only buttons: 40 px squares from x = 40, 60 px apart, at y = 40; `order` says which icon each shows. */
const buttonBox = (i: number): [number, number, number, number] => [40 + 60 * i, 40, 80 + 60 * i, 80];

async function toolbar(order: readonly string[], size: number, ink: string, stroke: number): Promise<Frame> {
  const data = new Uint8Array(W * H * 3).fill(236);
  for (const [i, name] of order.entries()) {
    const [x1, y1, x2, y2] = buttonBox(i);
    for (let y = y1; y < y2; y++) for (let x = x1; x < x2; x++) data.fill(y === y1 || y === y2 - 1 || x === x1 || x === x2 - 1 ? 170 : 250, (y * W + x) * 3, (y * W + x) * 3 + 3);
    await paintIcon(data, W, 3, name, Math.round((x1 + x2 - size) / 2), Math.round((y1 + y2 - size) / 2), size, ink, stroke);
  }
  return makeFrame({ data, width: W, height: H, channels: 3 });
}

const el = (id: string, bbox: BBox): UIElement => ({
  schema_version: "uielement_v1", element_id: id, type: "button", role: "button", bbox: [...bbox] as [number, number, number, number], label: "", confidence: 0.8, detection_method: "test",
  visual: { screenshot_path: "", embedding: null }, text: { raw: "", normalized: "", embedding: null }, properties: { is_clickable: true, is_focusable: true, is_dangerous: false }, context: { app_name: "", window_title: "" }, tags: [],
});
/** The window's title text and a caption under the toolbar, where they were recorded (the layout's anchors). */
const lines = [
  { text: "Documents", bbox: [40, 8, 140, 24] as BBox },
  { text: "Recherche rapide", bbox: [40, 120, 200, 136] as BBox },
];
const screenOf = (n: number) => ({ elements: Array.from({ length: n }, (_, i) => el(`b${i}`, buttonBox(i))), lines });

/** The search button recorded first in the toolbar, with its icon's class, the texts around it and its place in the window. */
const recorded: Target = {
  type: "button", label: "", by_text: null, role: null, position_hint: null, anchors: ["Documents"], recorded_bbox: buttonBox(0), icon: "icons/s1.png",
  window_box: buttonBox(0), window_size: [W, H], cues: ["icon", "anchors", "position", "type"], text_px: 16, icon_class: "search",
  anchor_offsets: [{ text: "Documents", dx: 30, dy: -44, w: 100 }, { text: "Recherche rapide", dx: 60, dy: 68, w: 160 }],
};

describe("icon-only targets by what their icon shows", () => {
  let icons: IconClassifier;
  beforeAll(async () => {
    icons = await IconClassifier.create();
  });
  afterAll(async () => {
    await icons.close();
  });

  it("the recognizer names the icon of an icon-only button (what the builder records), not a flat button", async () => {
    const f = await toolbar(["search", "add", "close"], 20, "#333", 2);
    expect((await iconClassAt(f, buttonBox(0), icons))?.name).toBe("search");
    expect((await iconClassAt(f, buttonBox(2), icons))?.name).toBe("close");
    expect(await iconClassAt(f, [300, 140, 340, 180], icons)).toBeUndefined();
  });

  it("the toolbar redrawn and reordered: the other icon now at the recorded place is refused and the recorded one is found by what it shows", async () => {
    const live = await toolbar(["close", "add", "search"], 26, "#1a5fb4", 1.5);
    // Without the recognizer: the layout is as recorded, so the recorded place is taken — the wrong icon.
    const blind = await groundTarget(recorded, live, screenOf(3));
    expect(blind).toMatchObject({ found: true, bbox: buttonBox(0) });
    const g = await groundTarget(recorded, live, screenOf(3), { icons });
    expect(g).toMatchObject({ found: true, method: "icon", bbox: buttonBox(2) });
    if (g.found) expect(g.note).toMatch(/« search »/);
  });

  it("a class the recognizer does not have (a workflow file edited or from elsewhere) is not looked for: grounded as without one", async () => {
    const live = await toolbar(["close", "add", "search"], 26, "#1a5fb4", 1.5);
    for (const icon_class of ["constructor", "__proto__", "not-a-class"]) {
      const g = await groundTarget({ ...recorded, icon_class }, live, screenOf(3), { icons });
      expect(g).toMatchObject({ found: true, bbox: buttonBox(0) });
    }
  });

  it("the same icon still at its place is taken there", async () => {
    const live = await toolbar(["search", "add", "close"], 26, "#1a5fb4", 1.5);
    const g = await groundTarget(recorded, live, screenOf(3), { icons });
    expect(g).toMatchObject({ found: true, bbox: buttonBox(0) });
  });

  it("two icons alike far from the recorded place: not found, never a guess", async () => {
    const live = await toolbar(["close", "add", "add", "search", "search"], 22, "#222", 2);
    const g = await groundTarget({ ...recorded, anchor_offsets: [], anchors: [], cues: ["icon", "position", "type"] }, live, screenOf(5), { icons });
    expect(g.found).toBe(false);
    if (!g.found) expect(g.reason).toMatch(/2 icons show « search »/);
    // One of them near the recorded place, the other far: the near one.
    const near = await toolbar(["add", "search", "close", "add", "search"], 22, "#222", 2);
    const n = await groundTarget({ ...recorded, anchor_offsets: [], anchors: [], cues: ["icon", "position", "type"] }, near, screenOf(5), { icons });
    expect(n).toMatchObject({ found: true, method: "icon", bbox: buttonBox(1) });
  });
});

describe("what counts as another icon", () => {
  it("another class named surely and the recorded one all but ruled out; an icon the recognizer hesitates on is not refused", async () => {
    const f = await toolbar(["search"], 20, "#333", 2);
    const saying = (scores: Record<string, number>) => ({ classes: Object.keys(scores), recognize: async (_: Frame, boxes: readonly BBox[]) => boxes.map(() => scores) });
    expect(await otherIconAt(f, buttonBox(0), "save", saying({ print: 0.9, save: 0.02, other: 0.08 }))).toEqual({ name: "print", p: 0.9 });
    expect(await otherIconAt(f, buttonBox(0), "save", saying({ print: 0.6, save: 0.3, other: 0.1 }))).toBeUndefined();
    expect(await otherIconAt(f, buttonBox(0), "save", saying({ save: 0.7, print: 0.2, other: 0.1 }))).toBeUndefined();
    expect(await otherIconAt(f, buttonBox(0), "save", saying({ other: 0.95, save: 0.01, print: 0.04 }))).toBeUndefined();
    // No icon drawn in the box: nothing to say.
    expect(await otherIconAt(f, [300, 140, 340, 180], "save", saying({ print: 0.99, save: 0, other: 0.01 }))).toBeUndefined();
  });
});
