import { describe, expect, it } from "vitest";
import type { BBox } from "../core/geometry.js";
import { numberedMembers, numberedRuns, pagerBands } from "./numbered-run.js";

const box = (id: string, x: number, label: string, y = 100, w = 50, h = 50) => ({ element_id: id, bbox: [x, y, x + w, y + h] as BBox, label });

describe("numbered runs (a pager whose digits OCR partly missed)", () => {
  it("numbers the unread boxes of a row from two read numbers that agree", () => {
    // « 1 2 3 4 5 6 7 8 »: 2 and 3 read, 5 misread as "o", the others empty; boxes a little uneven, as detected.
    const row = [box("prev", 440, "«"), box("p1", 490, ""), box("p2", 541, "2", 98, 49, 54), box("p3", 592, "3"), box("p4", 643, "", 102), box("p5", 694, "o", 100, 52, 47), box("p6", 745, ""), box("p7", 796, "")];
    const n = numberedRuns(row);
    expect(n.get("p1")).toBe(1);
    expect(n.get("p4")).toBe(4);
    expect(n.get("p5")).toBe(5);
    expect(n.get("p7")).toBe(7);
    expect(n.has("prev")).toBe(false); // it would be 0
    expect(n.has("p2")).toBe(false); // read: its own label stands
    // The read numbers that agree with their place are numbers of the row (not icons, whatever their ink looks like).
    expect([...numberedMembers(row)].sort()).toEqual(["p2", "p3"]);
  });

  it("guesses nothing from one read number, across a wide gap, or off the row", () => {
    expect(numberedRuns([box("a", 0, "1"), box("b", 51, ""), box("c", 102, "")]).size).toBe(0);
    // Two runs apart: the numbers of one say nothing of the other.
    const apart = numberedRuns([box("a", 0, "1"), box("b", 51, "2"), box("c", 102, ""), box("d", 600, ""), box("e", 651, ""), box("f", 702, "")]);
    expect(apart.get("c")).toBe(3);
    expect(apart.has("d")).toBe(false);
    // A box on another line, or of another size, is not in the row.
    const off = numberedRuns([box("a", 0, "1"), box("b", 51, "2"), box("c", 102, "", 300), box("d", 153, "", 100, 200, 50)]);
    expect(off.size).toBe(0);
  });

  it("one number read, 3 or more, in its place counting from 1, the others blank: the row counts from 1", () => {
    const n = numberedRuns([box("a", 0, ""), box("b", 51, ""), box("c", 102, "3")]);
    expect([n.get("a"), n.get("b"), n.has("c")]).toEqual([1, 2, false]);
    // A « ‹ » box first makes it say 0, another box reading a number makes two numberings: nothing.
    expect(numberedRuns([box("prev", 0, "‹"), box("a", 51, ""), box("b", 102, ""), box("c", 153, "3")]).size).toBe(0);
    expect(numberedRuns([box("a", 0, ""), box("b", 51, "7"), box("c", 102, "3")]).size).toBe(0);
  });

  it("a pager's band is its numbered row widened by one step each side; no band without a numbering", () => {
    const row = [box("1", 100, "1"), box("2", 151, "2"), box("3", 202, "3")];
    const [band] = pagerBands([...row, box("far", 900, "Next")]);
    expect(band![0]).toBeCloseTo(100 - 152 / 3, 6);
    expect(band![2]).toBeCloseTo(252 + 152 / 3, 6);
    expect([band![1], band![3]]).toEqual([100, 150]);
    expect(pagerBands([box("a", 0, "x"), box("b", 51, "y"), box("c", 102, "z")])).toEqual([]);
  });
});
