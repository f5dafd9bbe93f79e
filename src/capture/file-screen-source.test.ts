import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InvalidInputError } from "../core/errors.js";
import { makeFrame } from "../core/frame.js";
import { cropFrame } from "../core/frame.js";
import { FileScreenSource } from "./file-screen-source.js";
import { decodeImage, encodePng } from "./png.js";

const dir = mkdtempSync(join(tmpdir(), "rpav-png-"));
let png: string;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

beforeAll(async () => {
  // 40×20: left half red, right half blue.
  const data = new Uint8Array(40 * 20 * 4);
  for (let y = 0; y < 20; y++)
    for (let x = 0; x < 40; x++) data.set(x < 20 ? [255, 0, 0, 255] : [0, 0, 255, 255], (y * 40 + x) * 4);
  png = join(dir, "two.png");
  writeFileSync(png, await encodePng(makeFrame({ data, width: 40, height: 20, channels: 4 })));
});

describe("PNG frames", () => {
  it("reads a PNG as RGBA with its scale factor, and crops regions with their screen origin", async () => {
    const source = new FileScreenSource(png, { scaleFactor: 2 });
    const f = await source.capture({ kind: "screen" });
    expect([f.width, f.height, f.channels, f.scaleFactor]).toEqual([40, 20, 4, 2]);
    expect(Array.from(f.data.subarray(0, 4))).toEqual([255, 0, 0, 255]);
    const right = await source.capture({ kind: "region", bbox: [20, 0, 40, 20] });
    expect([right.width, right.height]).toEqual([20, 20]);
    expect(right.origin).toEqual([10, 0]); // 20 image pixels at scale 2 = 10 screen points
    expect(Array.from(right.data.subarray(0, 4))).toEqual([0, 0, 255, 255]);
    expect(cropFrame(f, [0, 0, 1, 1]).data.length).toBe(4);
  });

  it.each([
    ["a zero-size file", () => new Uint8Array(0), /empty \(0 bytes\)/],
    ["a non-image file", () => new TextEncoder().encode("hello, I am text"), /not a readable image/],
    ["a truncated PNG", () => readFileSync(png).subarray(0, 60), /corrupt or truncated|not a readable image/],
  ])("refuses %s with InvalidInputError naming the file", async (_what, bytes, message) => {
    const p = join(dir, "bad.png");
    writeFileSync(p, bytes());
    const source = new FileScreenSource(p);
    await expect(source.capture({ kind: "screen" })).rejects.toThrow(InvalidInputError);
    await expect(source.capture({ kind: "screen" })).rejects.toThrow(message);
    await expect(source.capture({ kind: "screen" })).rejects.toThrow(p);
  });

  it("refuses a 20000×20000 image before decoding it", async () => {
    const huge = await sharp({ create: { width: 20000, height: 20000, channels: 3, background: "#fff" }, limitInputPixels: false }).png({ compressionLevel: 1 }).toBuffer();
    await expect(decodeImage(huge, "huge.png")).rejects.toThrow(/huge.png: 20000×20000 is larger than the 67,108,864 pixel limit/);
  });

  it("a missing file and a window capture are clear errors", async () => {
    await expect(new FileScreenSource(join(dir, "none.png")).capture({ kind: "screen" })).rejects.toThrow(/none\.png: no such file/);
    await expect(new FileScreenSource(png).capture({ kind: "window", windowId: "0x1" })).rejects.toThrow(/no windows/);
  });
});
