import { describe, expect, it } from "vitest";
import { makeFrame, type Frame } from "../core/frame.js";
import type { CaptureTarget, ScreenSource } from "../core/providers/screen-source.js";
import type { WindowDescriptor } from "../core/providers/window-info.js";
import { stableFrame } from "./observe.js";

const win: WindowDescriptor = { id: "0x1", title: "Form", appName: "App", instance: "app", pid: 1, bbox: [10, 20, 30, 30], frame: { left: 0, right: 0, top: 0, bottom: 0 }, active: true, visible: true };

function frame(v: number, origin: [number, number] = [10, 20]): Frame {
  return makeFrame({ data: new Uint8Array(20 * 10 * 4).fill(v), width: 20, height: 10, channels: 4, origin });
}

/** A screen showing `frames` in turn (the last one stays), recording when each capture was made. */
function screen(frames: Frame[]): ScreenSource & { times: number[] } {
  const times: number[] = [];
  return {
    name: "fake",
    times,
    async capture(_t: CaptureTarget) {
      times.push(Date.now());
      return frames[Math.min(times.length - 1, frames.length - 1)]!;
    },
    async close() {},
  };
}

describe("a still frame of the step's window", () => {
  it("two captures at least 60 ms apart that agree, without a last look", async () => {
    const s = screen([frame(1), frame(1)]);
    const r = await stableFrame(s, win, 1000);
    expect(r.stable).toBe(true);
    expect(s.times).toHaveLength(2);
    expect(s.times[1]! - s.times[0]!).toBeGreaterThanOrEqual(59);
  });

  it("the last look at the window counts as the first capture: one capture when nothing changed since", async () => {
    const s = screen([frame(1)]);
    const r = await stableFrame(s, win, 1000, undefined, { frame: frame(1), at: Date.now() - 500 });
    expect(r.stable).toBe(true);
    expect(s.times).toHaveLength(1);
  });

  it("a last look under 60 ms old is waited on until it is, never taken for stillness at once", async () => {
    const s = screen([frame(1)]);
    const at = Date.now();
    await stableFrame(s, win, 1000, undefined, { frame: frame(1), at });
    expect(s.times[0]! - at).toBeGreaterThanOrEqual(59);
  });

  it("a window that changed since the last look, or a look at another place, needs two agreeing captures", async () => {
    const changed = screen([frame(2), frame(3), frame(3)]);
    const r = await stableFrame(changed, win, 1000, undefined, { frame: frame(1), at: Date.now() - 500 });
    expect([r.stable, changed.times.length]).toEqual([true, 3]);
    const moved = screen([frame(1), frame(1)]);
    await stableFrame(moved, win, 1000, undefined, { frame: frame(1, [0, 0]), at: Date.now() - 500 });
    expect(moved.times).toHaveLength(2);
  });
});
