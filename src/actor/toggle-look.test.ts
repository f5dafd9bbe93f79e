import { describe, expect, it } from "vitest";
import { makeFrame, type Frame } from "../core/frame.js";
import type { Postcondition } from "../core/schemas/workflow.js";
import { checkPostcondition, type CheckProbe } from "./checks.js";
import { readToggle } from "./toggle-look.js";

/**
 * A check box and its caption as a toolkit draws them (grey RGB): a 13 px box at the left, a
 * long caption of dark strokes after it (most of the pixels), a tick inside the box when `on`.
 * `hover` tints the box's border (the pointer over it); `at` places it in a larger frame.
 */
function toggle(o: { on: boolean; hover?: boolean; width?: number; frame?: [number, number]; at?: [number, number]; invert?: boolean; font?: number; borderless?: boolean }): Frame {
  const [W, H] = o.frame ?? [o.width ?? 240, 17];
  const [ox, oy] = o.at ?? [0, 0];
  const bg = 236;
  const g = new Uint8Array(W * H).fill(bg);
  const put = (x: number, y: number, v: number) => {
    if (x + ox >= 0 && x + ox < W && y + oy >= 0 && y + oy < H) g[(y + oy) * W + x + ox] = v;
  };
  // The box: border (tinted when hovered), white inside.
  for (let y = 2; y < 15; y++)
    for (let x = 1; x < 14; x++) put(x, y, x === 1 || x === 13 || y === 2 || y === 14 ? (o.borderless ? bg : o.hover ? 150 : 120) : o.borderless && o.on ? 90 : 255);
  // The tick: a thick check mark.
  if (o.on)
    for (let k = 0; k < 9; k++) {
      const [x, y] = k < 3 ? [4 + k, 8 + k] : [6 + (k - 2), 10 - (k - 2)];
      for (const [dx, dy] of [[0, 0], [1, 0], [0, 1]]) put(x + dx!, y + dy!, 30);
    }
  // The caption: letter-like strokes, the same in every look.
  let seed = o.font ?? 7;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  const cw = (o.width ?? 240) - 20;
  for (let x = 0; x < cw; x += o.font ? 5 : 7) {
    const tall = rnd() > 0.6;
    for (let y = tall ? 3 : 6; y < 14; y++) put(20 + x, y, 40);
    if (rnd() > 0.4) for (let y = 6; y < 14; y++) put(23 + x, y, 40);
    for (let dx = 0; dx < 4; dx++) put(20 + x + dx, rnd() > 0.5 ? 6 : 13, 40);
  }
  const data = new Uint8Array(W * H * 3);
  for (let i = 0; i < W * H; i++) data.fill(o.invert ? 255 - g[i]! : g[i]!, i * 3, i * 3 + 3);
  return makeFrame({ data, width: W, height: H, channels: 3 });
}

describe("a toggle's state read from what tells its recorded looks apart", () => {
  it("the caption drawn in another font than at recording (another machine): the indicator alone is aligned and read", () => {
    const [on2, off2] = [toggle({ on: true }), toggle({ on: false })];
    for (const ticked of [true, false]) {
      const r = readToggle(toggle({ on: ticked, font: 99, frame: [260, 29], at: [9, 5] }), on2, off2);
      expect(r.state).toBe(ticked ? "on" : "off");
      expect(r.evidence).toContain("the indicator alone");
    }
  });

  it("an indicator with nothing drawn alike around it in both looks (a filled box on a flat margin) is not aligned on the margin: no reading", () => {
    const [on2, off2] = [toggle({ on: true, borderless: true }), toggle({ on: false, borderless: true })];
    const r = readToggle(toggle({ on: true, borderless: true, font: 99, frame: [260, 29], at: [9, 5] }), on2, off2);
    expect(r.state).toBeUndefined();
    expect(r.evidence).toContain("cannot be aligned");
  });

  // Recorded with the pointer over the box (hover tint in both looks).
  const on = toggle({ on: true, hover: true });
  const off = toggle({ on: false, hover: true });

  it("a small box with a long caption: the tick decides, not the caption both looks share", () => {
    const live = (ticked: boolean) => toggle({ on: ticked, frame: [260, 29], at: [9, 5] });
    expect(readToggle(live(true), on, off)).toMatchObject({ state: "on" });
    expect(readToggle(live(false), on, off)).toMatchObject({ state: "off" });
    const r = readToggle(live(false), on, off);
    expect(r.distinguishing).toBeLessThan(60); // a few dozen pixels of 4,000
    expect(r.residual).toBeLessThan(10);
  });

  it("no hover now (the pointer elsewhere) and a region offset by a few pixels: still read right", () => {
    for (const at of [[3, 2], [11, 7], [0, 0]] as const) {
      expect(readToggle(toggle({ on: false, frame: [262, 31], at: [at[0], at[1]] }), on, off).state).toBe("off");
      expect(readToggle(toggle({ on: true, frame: [262, 31], at: [at[0], at[1]] }), on, off).state).toBe("on");
    }
  });

  it("cannot tell: looks that do not differ, a region that does not show them (another theme), a half-drawn tick", () => {
    expect(readToggle(toggle({ on: false, frame: [260, 29], at: [5, 5] }), off, off).state).toBeUndefined();
    const dark = readToggle(toggle({ on: true, frame: [260, 29], at: [5, 5], invert: true }), on, off);
    expect(dark.state).toBeUndefined();
    expect(dark.evidence).toMatch(/not found/);
    // Half the tick's pixels at the « on » grey, half at the « off » one: in between.
    const mid = toggle({ on: true, frame: [260, 29], at: [5, 5] });
    const half = toggle({ on: false, frame: [260, 29], at: [5, 5] });
    const data = new Uint8Array(mid.data);
    for (let i = 0; i < data.length; i += 3) if (((i / 3) | 0) % 2 === 0) data.set(half.data.subarray(i, i + 3), i);
    expect(readToggle(makeFrame({ ...mid, data }), on, off).state).toBeUndefined();
  });

  it("a live frame at twice the recorded scale is read at its own scale", () => {
    const small = toggle({ on: true, frame: [260, 29], at: [6, 6] });
    const big = new Uint8Array(small.width * 2 * small.height * 2 * 3);
    for (let y = 0; y < small.height * 2; y++)
      for (let x = 0; x < small.width * 2; x++) big.set(small.data.subarray(((y >> 1) * small.width + (x >> 1)) * 3, ((y >> 1) * small.width + (x >> 1)) * 3 + 3), (y * small.width * 2 + x) * 3);
    const live = makeFrame({ data: big, width: small.width * 2, height: small.height * 2, channels: 3, scaleFactor: 2 });
    expect(readToggle(live, on, off).state).toBe("on");
  });
});

describe("toggle_state through the checker", () => {
  it("the box grounded now is the caption alone, the looks recorded with the pointer over the box: ticked passes, unticked fails (the caption would make the looks alike)", async () => {
    const on = toggle({ on: true, hover: true });
    const off = toggle({ on: false, hover: true });
    const pc: Postcondition = { kind: "toggle_state", region: { of: "target" }, state: "on", on_crop: "on.png", off_crop: "off.png" };
    const screenOf = (ticked: boolean) => toggle({ on: ticked, frame: [400, 60], at: [100, 20] });
    const probe = (screen: Frame): CheckProbe => ({
      windows: async () => [],
      liveWindow: async () => undefined,
      // The caption's box only (x 120…340), as grounding finds a check box by its text.
      box: () => [120, 21, 340, 36],
      capture: async (b) => {
        const [x1, y1, x2, y2] = b.map(Math.round) as [number, number, number, number];
        const data = new Uint8Array((x2 - x1) * (y2 - y1) * 3);
        for (let y = y1; y < y2; y++) data.set(screen.data.subarray((y * screen.width + x1) * 3, (y * screen.width + x2) * 3), (y - y1) * (x2 - x1) * 3);
        return makeFrame({ data, width: x2 - x1, height: y2 - y1, channels: 3, origin: [x1, y1] });
      },
      before: () => undefined,
      readText: async () => [],
      loadCrop: async (p) => (p === "on.png" ? on : off),
      fill: (t) => t,
      title: (t) => t,
      sleep: async () => undefined,
    });
    expect(await checkPostcondition(pc, probe(screenOf(true)), { phase: "before" })).toMatchObject({ status: "passed" });
    expect(await checkPostcondition(pc, probe(screenOf(false)), { phase: "before" })).toMatchObject({ status: "failed" });
    expect(await checkPostcondition({ ...pc, state: "off" }, probe(screenOf(false)), { phase: "after", settleMs: 0 })).toMatchObject({ status: "passed" });
  });
});
