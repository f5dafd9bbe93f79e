import { describe, expect, it } from "vitest";
import { makeFrame, type Frame } from "../core/frame.js";
import type { ScreenSource } from "../core/providers/screen-source.js";
import { captureStable, nearlySameFrame } from "./stable-capture.js";

/** A source replaying a sequence of 1×1 frames (the last one repeats). */
function sequence(values: number[]): ScreenSource & { calls: number } {
  const src = {
    name: "sequence",
    calls: 0,
    async capture(): Promise<Frame> {
      const v = values[Math.min(src.calls++, values.length - 1)] as number;
      return makeFrame({ data: Uint8Array.from([v, v, v, 255]), width: 1, height: 1, channels: 4 });
    },
    async close() {},
  };
  return src;
}

describe("stable capture", () => {
  it("returns once two consecutive frames are identical", async () => {
    const src = sequence([1, 2, 3, 3]);
    const r = await captureStable(src, { kind: "screen" }, { intervalMs: 1 });
    expect(r.stable).toBe(true);
    expect(r.frame.data[0]).toBe(3);
    expect(src.calls).toBe(4);
  });

  it("gives up after the timeout on a screen that never settles, with the last frame", async () => {
    const src = sequence(Array.from({ length: 1000 }, (_, i) => i % 250));
    const r = await captureStable(src, { kind: "screen" }, { intervalMs: 5, timeoutMs: 60 });
    expect(r.stable).toBe(false);
  });
});

describe("nearly the same frame", () => {
  const frame = (changed: number) => {
    const data = new Uint8Array(100 * 100 * 4).fill(200);
    for (let i = 0; i < changed; i++) data[i * 4] = 0;
    return makeFrame({ data, width: 100, height: 100, channels: 4 });
  };
  it("tolerates a spinner-sized change and no more", () => {
    expect(nearlySameFrame(frame(0), frame(30), 0.003)).toBe(true);
    expect(nearlySameFrame(frame(0), frame(31), 0.003)).toBe(false);
    expect(nearlySameFrame(frame(0), makeFrame({ data: new Uint8Array(4), width: 1, height: 1, channels: 4 }), 0.5)).toBe(false);
  });
});
