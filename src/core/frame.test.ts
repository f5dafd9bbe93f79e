import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RUNS } from "../../test/support/arbitraries.js";
import { InvalidInputError } from "./errors.js";
import { bboxFrameToScreen, bboxScreenToFrame, frameToScreen, makeFrame, screenToFrame } from "./frame.js";

describe("frame coordinates", () => {
  it("maps a HiDPI window capture to screen points", () => {
    const f = { scaleFactor: 2, origin: [100, 50] as const };
    expect(frameToScreen(f, [200, 100])).toEqual([200, 100]);
    expect(screenToFrame(f, [200, 100])).toEqual([200, 100]);
    expect(bboxFrameToScreen(f, [0, 0, 40, 20])).toEqual([100, 50, 120, 60]);
    expect(bboxScreenToFrame(f, [100, 50, 120, 60])).toEqual([0, 0, 40, 20]);
  });

  it("maps a half-size downscale back to full-size screen points", () => {
    expect(frameToScreen({ scaleFactor: 0.5, origin: [0, 0] }, [960, 540])).toEqual([1920, 1080]);
  });

  it("screenToFrame inverts frameToScreen", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(0.5, 1, 1.25, 1.5, 2, 3),
        fc.tuple(fc.integer({ min: -3000, max: 3000 }), fc.integer({ min: -3000, max: 3000 })),
        fc.tuple(fc.integer({ min: 0, max: 4000 }), fc.integer({ min: 0, max: 4000 })),
        (scaleFactor, origin, p) => {
          const back = screenToFrame({ scaleFactor, origin }, frameToScreen({ scaleFactor, origin }, p));
          expect(back[0]).toBeCloseTo(p[0], 9);
          expect(back[1]).toBeCloseTo(p[1], 9);
        },
      ),
      RUNS,
    );
  });

  it("rejects frames whose data does not fit their size", () => {
    expect(() => makeFrame({ data: new Uint8Array(11), width: 2, height: 2, channels: 3 })).toThrow(InvalidInputError);
    expect(() => makeFrame({ data: new Uint8Array(12), width: 2, height: 2, channels: 3, scaleFactor: 0 })).toThrow(/scaleFactor/);
    expect(makeFrame({ data: new Uint8Array(12), width: 2, height: 2, channels: 3 }).origin).toEqual([0, 0]);
  });
});
