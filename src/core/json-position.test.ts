import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { findJsonErrorOffset, lineColumn } from "./json-position.js";

describe("JSON error position", () => {
  it.each([
    ['{"a": }', 6],
    ['{"a": 1,}', 8],
    ["[1, 2", 5],
    ['{"a": tru}', 9],
    ['{"a": "x\ny"}', 8],
    ["{} x", 3],
    ["{'a': 1}", 1],
    ["01", 1],
  ])("finds the first error in %j at %i", (text, offset) => {
    expect(findJsonErrorOffset(text)).toBe(offset);
  });

  it("accepts everything JSON.stringify writes", () => {
    fc.assert(fc.property(fc.jsonValue(), (v) => {
      expect(findJsonErrorOffset(JSON.stringify(v, null, 1))).toBeUndefined();
    }), { numRuns: 200 });
  });

  it("converts offsets to line and column", () => {
    expect(lineColumn("ab\ncd", 4)).toEqual({ line: 2, column: 2 });
  });
});

describe("findJsonErrorOffset on deep nesting", () => {
  it("does not recurse on input depth (100,000 levels, valid and cut)", () => {
    const deep = "[".repeat(100_000) + "]".repeat(100_000);
    expect(findJsonErrorOffset(deep)).toBeUndefined();
    expect(findJsonErrorOffset("[".repeat(100_000))).toBe(100_000);
    const obj = '{"a":'.repeat(50_000) + "1" + "}".repeat(50_000);
    expect(findJsonErrorOffset(obj)).toBeUndefined();
    expect(findJsonErrorOffset('{"a":'.repeat(50_000) + "x")).toBe(250_000);
  });
});
