import { describe, expect, it } from "vitest";
import { nameIcon } from "./icon-names.js";

/** A 40 × 20 grey image with ASCII art ('#' ink) drawn at (10, 5). */
function draw(art: string[], ink = 40, bg = 240): { grey: Uint8Array; box: [number, number, number, number] } {
  const W = 40;
  const grey = new Uint8Array(W * 20).fill(bg);
  art.forEach((row, y) => [...row].forEach((c, x) => c === "#" && (grey[(5 + y) * W + 10 + x] = ink)));
  return { grey, box: [10, 5, 10 + art[0]!.length, 5 + art.length] };
}

describe("icon names from ink", () => {
  it("tells the title-bar controls and the menu icon apart, dark on light and light on dark", () => {
    const close = ["#......#", ".#....#.", "..#..#..", "...##...", "...##...", "..#..#..", ".#....#.", "#......#"];
    const maximize = ["########", "########", "##....##", "##....##", "##....##", "##....##", "########", "########"];
    const minimize = ["########", "########"];
    const menu = ["##########", "##########", "..........", "..........", "##########", "##########", "..........", "..........", "##########", "##########"];
    for (const [art, name] of [[close, "Close"], [maximize, "Maximize"], [minimize, "Minimize"], [menu, "Menu"]] as const) {
      const a = draw([...art]);
      expect(nameIcon(a.grey, 40, a.box)).toBe(name);
      const b = draw([...art], 230, 50);
      expect(nameIcon(b.grey, 40, b.box)).toBe(name);
    }
  });

  it("names nothing it does not know: a filled square, a letter, a plus", () => {
    const solid = draw(["########", "########", "########", "########", "########", "########", "########", "########"]);
    const letterL = draw(["##......", "##......", "##......", "##......", "##......", "##......", "########", "########"]);
    const plus = draw(["...##...", "...##...", "...##...", "########", "########", "...##...", "...##...", "...##..."]);
    for (const a of [solid, letterL, plus]) expect(nameIcon(a.grey, 40, a.box)).toBeUndefined();
  });
});
