import { describe, expect, it } from "vitest";
import { iconShapes, nameIcon } from "./icon-names.js";

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

describe("icon figures from a glyph's ink (iconShapes)", () => {
  const mask = (art: string[]) => ({ m: Uint8Array.from(art.join("").split("").map((c) => (c === "#" ? 1 : 0))), w: art[0]!.length, h: art.length });
  const shapes = (art: string[]) => {
    const { m, w, h } = mask(art);
    return iconShapes(m, w, h);
  };
  it("a plus, also inside a square frame; a minus; three bars", () => {
    const plus = ["....##....", "....##....", "....##....", "##########", "##########", "....##....", "....##....", "....##....", "....##....", "....##...."];
    expect(shapes(plus)).toContain("plus");
    const boxed = ["############", "#..........#", "#....##....#", "#....##....#", "#..######..#", "#..######..#", "#....##....#", "#....##....#", "#..........#", "#..........#", "#..........#", "############"];
    expect(shapes(boxed)).toContain("plus");
    expect(shapes(["##########", "##########"])).toEqual(["minus"]);
    // Three dots, in a row or a column (« more »), are no minus; two dots, or dots of unlike sizes, are not three dots.
    expect(shapes(["###..###..###", "###..###..###", "###..###..###"])).toEqual(["dots"]);
    expect(shapes(["###", "###", "...", "...", "###", "###", "...", "...", "###", "###"]).includes("dots")).toBe(true);
    expect(shapes(["###..###", "###..###", "###..###"])).not.toContain("dots");
    expect(shapes(["##..######..##", "##..######..##"])).not.toContain("dots");
    expect(shapes(["##########", "##########", "..........", "..........", "##########", "##########", "..........", "..........", "##########", "##########"])).toContain("bars");
  });

  it("two small chevrons side by side point the way both point (« and »), touching at a corner or not", () => {
    // « as a pager draws it at 10 × 9 (a Bootstrap pager's ink, anti-aliased): two chevrons, touching at corners.
    const left = ["...##...#.", "..###..##.", ".###..###.", "###..###..", "##..###...", "###.###...", ".###.###..", "..##..###.", "..###..###"];
    expect(shapes(left)).toContain("arrow_left");
    expect(shapes(left.map((row) => [...row].reverse().join("")))).toContain("arrow_right");
    // Two chevrons pointing apart (‹ ›) are no arrow; nor are two bars.
    const apart = ["..#.....#..", ".#.......#.", "#.........#", ".#.......#.", "..#.....#.."];
    expect(shapes(apart)).not.toContain("arrow_left");
    expect(shapes(apart)).not.toContain("arrow_right");
    expect(shapes(["##..##", "##..##", "##..##", "##..##", "##..##", "##..##"])).toEqual([]);
  });

  it("a lens with its handle is a magnifier, a plain circle a ring", () => {
    // Drawn as a person's icon would be: a round stroke, and for the magnifier a thick handle to the corner.
    const draw = (size: number, inked: (x: number, y: number) => boolean) => Array.from({ length: size }, (_, y) => Array.from({ length: size }, (_, x) => (inked(x, y) ? "#" : ".")).join(""));
    const ring = draw(18, (x, y) => Math.abs(Math.hypot(x - 8.5, y - 8.5) - 7.5) <= 1);
    expect(shapes(ring)).toEqual(["ring"]);
    const magnifier = draw(20, (x, y) => Math.abs(Math.hypot(x - 7.5, y - 7.5) - 6.5) <= 1 || (x >= 12 && y >= 12 && Math.abs(x - y) <= 1.5));
    expect(shapes(magnifier)).toEqual(["magnifier"]);
    // A gear: a closed ring with teeth; a circular arrow: an open ring.
    const gear = draw(24, (x, y) => {
      const r = Math.hypot(x - 11.5, y - 11.5);
      const a = Math.atan2(y - 11.5, x - 11.5);
      return r >= 4 && r <= (Math.cos(8 * a) > 0 ? 11 : 8.5);
    });
    expect(shapes(gear)).toEqual(["gear"]);
    const arc = draw(20, (x, y) => Math.abs(Math.hypot(x - 9.5, y - 9.5) - 8) <= 1.2 && !(x > 12 && y < 7));
    expect(shapes(arc)).not.toContain("gear");
  });

  it("triangles and arrows say which side they point to", () => {
    const play = ["#.........", "###.......", "#####.....", "#######...", "#########.", "#########.", "#######...", "#####.....", "###.......", "#........."];
    expect(shapes(play)).toEqual(["triangle_right"]);
    expect(shapes(play.map((r) => [...r].reverse().join("")))).toEqual(["triangle_left"]);
    const arrow = ["..........#.....", "..........###...", "################", "################", "..........###...", "..........#....."];
    expect(shapes(arrow)).toEqual(["arrow_right"]);
    const chevrons = ["##...##.....", ".##...##....", "..##...##...", "...##...##..", "..##...##...", ".##...##....", "##...##....."];
    expect(shapes(chevrons)).toEqual(["arrow_right"]);
    // A download's arrow over the tray's edge points down; the edge apart from it is no wedge's base. Upside down: up.
    const download = [".....##.....", ".....##.....", ".....##.....", ".....##.....", ".....##.....", ".##..##..##.", "..##.##.##..", "...######...", "....####....", ".....##.....", "............", "............", "############", "############"];
    expect(shapes(download)).toEqual(["arrow_down"]);
    expect(shapes([...download].reverse())).toEqual(["arrow_up"]);
  });

  it("letters and blobs are none of them", () => {
    expect(shapes(["########", "########", "########", "########", "########", "########"])).toEqual([]);
    expect(shapes(["##......", "##......", "##......", "##......", "##......", "##......", "########", "########"])).toEqual([]);
    expect(iconShapes(new Uint8Array(0), 0, 0)).toEqual([]);
  });
});
