import { mkdtempSync, writeFileSync, copyFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InvalidInputError, ProviderUnavailableError } from "../core/errors.js";
import { makeFrame, type Frame } from "../core/frame.js";
import type { BBox } from "../core/geometry.js";
import { defaultIconModelDir, ICON_EXTRA_META_FILE, ICON_EXTRA_MODEL_FILE, ICON_META_FILE, ICON_MODEL_FILE, IconClassifier } from "./icon-classifier.js";
import { ICON_INPUT_SIZE, iconInput } from "./icon-input.js";
import { ICON_CONCEPTS } from "./locate-lexicon.js";
import { DRAWN_EXTRA_ICONS, DRAWN_ICONS, paintIcon } from "../../test/support/drawn-icons.js";

/** A frame with each drawn icon at `size` px, `ink` on `bg`, side by side; the icons' ink boxes. */
async function drawIcons(size: number, ink: string, bg: [number, number, number], names = Object.keys(DRAWN_ICONS)): Promise<{ frame: Frame; boxes: Record<string, BBox> }> {
  const width = names.length * size * 3;
  const height = size * 3;
  const data = new Uint8Array(width * height * 3);
  for (let i = 0; i < width * height; i++) data.set(bg, i * 3);
  const boxes: Record<string, BBox> = {};
  for (const [k, name] of names.entries()) boxes[name] = await paintIcon(data, width, 3, name, k * size * 3 + size, size, size, ink);
  return { frame: makeFrame({ data, width, height, channels: 3 }), boxes };
}

const top = (s: Readonly<Record<string, number>>) => Object.entries(s).sort((a, b) => b[1] - a[1])[0]![0];

describe("icon input", () => {
  it("sees dark-on-light and light-on-dark icons alike, in [0, 1]", async () => {
    const light = await drawIcons(20, "#222", [245, 245, 245]);
    const dark = await drawIcons(20, "#eee", [40, 40, 40]);
    const a = iconInput(light.frame, light.boxes.search!);
    const b = iconInput(dark.frame, dark.boxes.search!);
    expect(a.length).toBe(ICON_INPUT_SIZE);
    expect(Math.min(...a)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...a)).toBeLessThanOrEqual(1);
    let diff = 0;
    for (let i = 0; i < a.length; i++) diff += Math.abs(a[i]! - b[i]!);
    expect(diff / a.length).toBeLessThan(0.05);
    // The background is 0, the ink near 1.
    expect(a[0]).toBe(0);
    expect(Math.max(...a)).toBeGreaterThan(0.9);
  });

  it("reads a box at the frame's edge (outside pixels repeat the edge)", async () => {
    const { frame } = await drawIcons(16, "#000", [255, 255, 255]);
    expect(iconInput(frame, [0, 0, 10, 10]).every((v) => v >= 0 && v <= 1)).toBe(true);
  });
});

describe("the icon classifier (the committed model)", () => {
  let icons: IconClassifier;
  beforeAll(async () => {
    icons = await IconClassifier.create();
  });
  afterAll(async () => {
    await icons.close();
  });

  it("names drawn icons it never saw, light and dark, at toolbar sizes", async () => {
    for (const [size, ink, bg] of [[20, "#333", [250, 250, 250]], [24, "#f0f0f0", [45, 45, 45]], [16, "#0d6efd", [255, 255, 255]]] as const) {
      const { frame, boxes } = await drawIcons(size, ink, [...bg]);
      const names = Object.keys(boxes);
      const scores = await icons.recognize(frame, names.map((n) => boxes[n]!));
      expect(scores.map(top)).toEqual(names);
      for (const s of scores) expect(Object.values(s).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 1);
    }
  });

  it("names the extra model's figures too, and leaves the first model's answers as they are", async () => {
    const { frame, boxes } = await drawIcons(24, "#333", [250, 250, 250], [...Object.keys(DRAWN_ICONS), ...Object.keys(DRAWN_EXTRA_ICONS)]);
    const names = Object.keys(boxes);
    const scores = await icons.recognize(frame, names.map((n) => boxes[n]!));
    expect(scores.map(top)).toEqual(names);
    // Each probability is rounded to 0.001: 70 of them sum to 1 within 0.035.
    for (const s of scores) expect(Math.abs(Object.values(s).reduce((a, b) => a + b, 0) - 1)).toBeLessThan(0.04);
    // The first model alone (a folder without the extra model): the composed probabilities of its figures are its own,
    // each times one factor for the icon (the second model's "other", normalised).
    const dir = mkdtempSync(join(tmpdir(), "rpav-icons-"));
    for (const f of [ICON_MODEL_FILE, ICON_META_FILE]) copyFileSync(join(defaultIconModelDir(), f), join(dir, f));
    const first = await IconClassifier.create({ modelDir: dir });
    try {
      expect(icons.classes.length).toBeGreaterThan(first.classes.length);
      const ink = new Float32Array(names.length * ICON_INPUT_SIZE);
      names.forEach((n, i) => iconInput(frame, boxes[n]!, ink, i * ICON_INPUT_SIZE));
      const [both, alone] = [await icons.classifyInk(ink, names.length), await first.classifyInk(ink, names.length)];
      names.forEach((_, i) => {
        const factors = first.classes.filter((c) => c !== "other").map((c) => both[i * icons.classes.length + icons.classes.indexOf(c)]! / alone[i * first.classes.length + first.classes.indexOf(c)]!);
        for (const f of factors) expect(f / factors[0]!).toBeCloseTo(1, 4);
      });
    } finally {
      await first.close();
    }
  });

  it("knows every class the locate lexicon's icon concepts ask for", () => {
    for (const [name, c] of Object.entries(ICON_CONCEPTS)) for (const k of c.classes) expect(icons.classes, `${name} → ${k}`).toContain(k);
  });

  it("and every class it knows is a concept's, so that some words ask for it", () => {
    const asked = new Set(Object.values(ICON_CONCEPTS).flatMap((c) => c.classes));
    for (const k of icons.classes) if (k !== "other") expect(asked, k).toContain(k);
  });

  it("answers nothing for no boxes, and refuses a box that is not one", async () => {
    const { frame } = await drawIcons(16, "#000", [255, 255, 255]);
    expect(await icons.recognize(frame, [])).toEqual([]);
    await expect(icons.recognize(frame, [[10, 10, 5, 20]])).rejects.toBeInstanceOf(InvalidInputError);
  });

  it("a missing or corrupt model file is provider_unavailable, naming the file and the restore command", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rpav-icons-"));
    await expect(IconClassifier.create({ modelDir: dir })).rejects.toMatchObject({ code: "provider_unavailable", message: expect.stringContaining("git checkout -- models/icon-classifier") });
    copyFileSync(join(defaultIconModelDir(), ICON_META_FILE), join(dir, ICON_META_FILE));
    writeFileSync(join(dir, ICON_MODEL_FILE), "not a model");
    const e = await IconClassifier.create({ modelDir: dir }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ProviderUnavailableError);
    expect((e as Error).message).toContain(join(dir, ICON_MODEL_FILE));
    writeFileSync(join(dir, ICON_META_FILE), "{ not json");
    await expect(IconClassifier.create({ modelDir: dir })).rejects.toMatchObject({ code: "provider_unavailable", message: expect.stringContaining(ICON_META_FILE) });
    // The extra model: its description present, its model missing or not a model.
    copyFileSync(join(defaultIconModelDir(), ICON_META_FILE), join(dir, ICON_META_FILE));
    copyFileSync(join(defaultIconModelDir(), ICON_MODEL_FILE), join(dir, ICON_MODEL_FILE));
    copyFileSync(join(defaultIconModelDir(), ICON_EXTRA_META_FILE), join(dir, ICON_EXTRA_META_FILE));
    await expect(IconClassifier.create({ modelDir: dir })).rejects.toMatchObject({ code: "provider_unavailable", message: expect.stringContaining(join(dir, ICON_EXTRA_MODEL_FILE)) });
    writeFileSync(join(dir, ICON_EXTRA_MODEL_FILE), "not a model");
    await expect(IconClassifier.create({ modelDir: dir })).rejects.toMatchObject({ code: "provider_unavailable", message: expect.stringContaining(ICON_EXTRA_MODEL_FILE) });
  });
});
