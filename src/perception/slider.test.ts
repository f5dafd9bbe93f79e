import { describe, expect, it } from "vitest";
import { makeFrame, type Frame } from "../core/frame.js";
import type { BBox } from "../core/geometry.js";
import { slidersOf } from "./slider.js";
import { locate } from "./locate.js";

/** A 500 × 300 page of grey `bg`, with `fill` to paint boxes and `disc` to paint a filled disc. */
function page(bg: number): Frame & { fill: (b: BBox, v: number) => void; disc: (cx: number, cy: number, r: number, v: number) => void } {
  const [width, height] = [500, 300];
  const data = new Uint8Array(width * height * 3).fill(bg);
  const fill = (b: BBox, v: number) => {
    for (let y = b[1]; y < b[3]; y++) for (let x = b[0]; x < b[2]; x++) data.fill(v, (y * width + x) * 3, (y * width + x) * 3 + 3);
  };
  const disc = (cx: number, cy: number, r: number, v: number) => {
    for (let y = Math.floor(cy - r); y <= cy + r; y++) for (let x = Math.floor(cx - r); x <= cx + r; x++) if ((x + 0.5 - cx) ** 2 + (y + 0.5 - cy) ** 2 <= r * r) data.fill(v, (y * width + x) * 3, (y * width + x) * 3 + 3);
  };
  return Object.assign(makeFrame({ data, width, height, channels: 3 }), { fill, disc });
}

describe("sliders: a knob on a thin track", () => {
  it("finds a knob with a filled part of the track on one side and the rest on the other, and one of the track's colour", () => {
    const f = page(240);
    f.fill([40, 98, 120, 102], 60); // filled part
    f.fill([120, 98, 300, 102], 180); // the rest
    f.disc(120, 100, 8, 255); // the knob, a white disc in a grey ring
    f.disc(120, 100, 6.5, 250);
    const [b] = slidersOf(f);
    expect(b).toBeDefined();
    expect(b![0]).toBeLessThanOrEqual(41);
    expect(b![2]).toBeGreaterThanOrEqual(299);
    expect(b![1]).toBeGreaterThanOrEqual(90);
    expect(b![3]).toBeLessThanOrEqual(110);
    // A dark theme: knob and track one colour.
    const dark = page(18);
    dark.fill([60, 200, 300, 202], 175);
    dark.disc(300, 201, 6, 175);
    expect(slidersOf(dark)).toEqual([[60, 195, 306, 207]]);
  });

  it("nothing for a radio button beside a line of text, a rule across the page, or a short bar", () => {
    const f = page(240);
    f.disc(50, 50, 7, 120);
    f.disc(50, 50, 5.5, 255);
    for (let x = 66; x < 200; x += 5) f.fill([x, 45, x + 3, 56], 30);
    f.fill([0, 150, 500, 151], 200);
    f.disc(100, 250, 7, 90);
    f.fill([107, 249, 130, 251], 90);
    expect(slidersOf(f)).toEqual([]);
  });

  it("locate offers a slider the detector missed when one is asked for", () => {
    const f = page(240);
    f.fill([40, 98, 300, 102], 180);
    f.disc(120, 100, 8, 90);
    const menu = [{ element_id: "text:0", type: "generic_interactive" as const, bbox: [10, 10, 60, 30] as BBox, label: "Fichier" }, { element_id: "text:1", type: "generic_interactive" as const, bbox: [70, 10, 120, 30] as BBox, label: "Édition" }];
    const r = locate("le curseur", menu, f);
    expect(r.found && r.point[1]).toBeGreaterThan(90);
    expect(r.found && r.point[1]).toBeLessThan(110);
    expect(r.found && r.ambiguous).toBe(false);
  });

  it("« le deuxième curseur » ranks among the sliders, not among a menu's items of the same type", () => {
    const f = page(240);
    f.fill([40, 98, 200, 102], 180);
    f.disc(120, 100, 8, 90);
    f.fill([260, 98, 460, 102], 180);
    f.disc(300, 100, 8, 90);
    const item = (i: number, label: string) => ({ element_id: `m${i}`, type: "generic_interactive" as const, bbox: [10 + 60 * i, 10, 60 + 60 * i, 30] as BBox, label });
    const r = locate("le deuxième curseur", [item(0, "Fichier"), item(1, "Édition"), item(2, "Affichage")], f);
    expect(r.found && r.point[0]).toBeGreaterThan(250);
    expect(r.found && r.point[1]).toBeGreaterThan(90);
  });
});
