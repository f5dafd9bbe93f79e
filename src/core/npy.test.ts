import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RUNS } from "../../test/support/arbitraries.js";
import { NpyFormatError } from "./errors.js";
import { decodeNpy, encodeNpy } from "./npy.js";

// Fixtures in test/fixtures/npy were written by numpy 2.4.6 (np.save / np.lib.format.write_array).
const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`../../test/fixtures/npy/${name}`, import.meta.url)));

/** The bytes numpy writes for np.save(f, np.array([1.5, -2.0, 3.25], dtype='<f4')), spelled out by hand. */
function handMadeF4x3(): Uint8Array {
  const header = "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }";
  const padded = header + " ".repeat(128 - 10 - header.length - 1) + "\n";
  const bytes = [0x93, ..."NUMPY".split("").map((c) => c.charCodeAt(0)), 1, 0, padded.length & 0xff, padded.length >> 8];
  for (const c of padded) bytes.push(c.charCodeAt(0));
  // 1.5 = 0x3fc00000, -2.0 = 0xc0000000, 3.25 = 0x40500000, little-endian
  bytes.push(0x00, 0x00, 0xc0, 0x3f, 0x00, 0x00, 0x00, 0xc0, 0x00, 0x00, 0x50, 0x40);
  return Uint8Array.from(bytes);
}

describe(".npy interchange", () => {
  it("writes exactly the hand-made bytes of a float32 vector", () => {
    expect(encodeNpy(Float32Array.from([1.5, -2, 3.25]))).toEqual(handMadeF4x3());
  });

  it.each([
    ["f4-3.npy", () => Float32Array.from([1.5, -2, 3.25]), [3]],
    ["f8-3.npy", () => Float64Array.from([1.5, -2, 3.25]), [3]],
    ["f4-512.npy", () => Float32Array.from({ length: 512 }, (_, i) => (i - 256) / 100), [512]],
    ["f4-2x3.npy", () => Float32Array.from([0, 1, 2, 3, 4, 5]), [2, 3]],
    ["f4-empty.npy", () => new Float32Array(0), [0]],
  ] as const)("writes %s byte-for-byte as numpy does", (name, data, shape) => {
    expect(encodeNpy(data(), [...shape])).toEqual(fixture(name));
  });

  it.each(["f4-3.npy", "f8-3.npy", "f4-512.npy", "f4-2x3.npy", "f4-v2.npy", "f4-v3.npy", "f4-empty.npy"])("reads numpy's %s", (name) => {
    const arr = decodeNpy(fixture(name), name);
    expect(arr.data.length).toBe(arr.shape.reduce((a, b) => a * b, 1));
    if (name === "f4-v2.npy" || name === "f4-v3.npy") expect(Array.from(arr.data)).toEqual([1, 2, 3]);
    if (name === "f8-3.npy") {
      expect(arr.dtype).toBe("<f8");
      expect(arr.data).toBeInstanceOf(Float64Array);
    }
    if (name === "f4-2x3.npy") expect(arr.shape).toEqual([2, 3]);
  });

  it("round-trips any float32 vector exactly", () => {
    fc.assert(
      fc.property(fc.float32Array({ noNaN: true, noDefaultInfinity: true, maxLength: 600 }), (v) => {
        const back = decodeNpy(encodeNpy(v));
        expect(back.shape).toEqual([v.length]);
        expect(Array.from(back.data)).toEqual(Array.from(v));
      }),
      RUNS,
    );
  });

  it("uses format 2.0 when the header does not fit in 64 KiB", () => {
    const shape = Array.from({ length: 25000 }, () => 1);
    const bytes = encodeNpy(Float32Array.from([7]), shape);
    expect(bytes[6]).toBe(2);
    expect(decodeNpy(bytes).shape.length).toBe(25000);
  });

  it.each([
    ["i4.npy", /unsupported dtype '<i4'.*astype\('<f4'\)/],
    ["be-f4.npy", /unsupported dtype '>f4'/],
    ["fortran.npy", /Fortran-ordered.*ascontiguousarray/],
    ["truncated.npy", /truncated data: shape \(512,\) of <f4 needs 2176 bytes, the file has 1000/],
  ])("refuses %s with a clear NpyFormatError", (name, message) => {
    expect(() => decodeNpy(fixture(name), name)).toThrow(NpyFormatError);
    expect(() => decodeNpy(fixture(name), name)).toThrow(message);
  });

  it("refuses non-npy bytes, short files and trailing garbage with the byte offset", () => {
    expect(() => decodeNpy(new TextEncoder().encode("hello world, not numpy"), "x.npy")).toThrow(/magic string/);
    expect(() => decodeNpy(fixture("f4-3.npy").subarray(0, 6), "x.npy")).toThrow(/truncated: 6 bytes/);
    expect(() => decodeNpy(fixture("f4-3.npy").subarray(0, 50), "x.npy")).toThrow(/truncated header/);
    const extra = new Uint8Array([...fixture("f4-3.npy"), 1, 2]);
    try {
      decodeNpy(extra, "x.npy");
      expect.unreachable();
    } catch (e) {
      expect((e as NpyFormatError).details.byteOffset).toBe(140);
    }
  });
});
