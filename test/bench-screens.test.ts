// The samples the benches read (training/fold-split.ts), which `npm run train -- bench-screens` generates: fixed by the
// ids alone, whatever is on disk, in the order of the ids' SHA-256.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { BENCH_TOGGLE_PAGES, familySample, fullHdScreens, pageIndices, splitter } from "../training/fold-split.js";
import { htmlPageId, kitOfPage, V3_FROM } from "../training/gen/gen-html.js";

const screen = (id: string, family: string, subfamily: string, width = 800, height = 600, scale: number | null = 1) => ({ id, family, subfamily, width, height, scale });
const files = [
  ...Array.from({ length: 30 }, (_, i) => screen(`html-bulma-${String(i).padStart(5, "0")}`, "html", "bulma", 1920, 1080)),
  ...Array.from({ length: 400 }, (_, i) => screen(`gtk-s1-${String(i).padStart(5, "0")}`, "gtk", "adwaita", i % 2 ? 1920 : 640, i % 2 ? 1000 : 480, i % 3 ? 1 : 2)),
];
const hash = (id: string) => createHash("sha256").update(id).digest("hex");

describe("bench screen samples", () => {
  it("takes the first screens of each held and trainval family by their id's hash, none of another split", () => {
    const splitOf = splitter(["html/bulma"]);
    const groups = familySample(files, splitOf, 5);
    expect(groups.map((g) => `${g.split}:${g.family}`)).toEqual(["held:html/bulma", "trainval:gtk"]);
    const bulma = groups[0]!.files.map((f) => f.id);
    expect(bulma).toEqual(files.filter((f) => f.subfamily === "bulma").map((f) => f.id).sort((a, b) => hash(a).localeCompare(hash(b))).slice(0, 5));
    const gtk = groups[1]!.files;
    expect(gtk.length).toBeGreaterThan(0);
    expect(gtk.length).toBeLessThanOrEqual(5);
    expect(gtk.every((f) => splitOf(f) === "trainval")).toBe(true);
    // The same sample from the files in another order.
    expect(familySample([...files].reverse(), splitOf, 5)).toEqual(groups);
  });

  it("detect-speed's candidates are the full-HD screens at scale 1, by their id's hash", () => {
    const hd = fullHdScreens(files);
    expect(hd.every((f) => f.width * f.height >= 0.8 * 1920 * 1080 && f.scale === 1)).toBe(true);
    expect(hd.length).toBe(30 + files.filter((f) => f.family === "gtk" && f.width === 1920 && f.scale === 1).length);
    expect(hd.map((f) => hash(f.id))).toEqual(hd.map((f) => hash(f.id)).sort());
  });

  it("the large-toggle pages are of training kits only, and the data engine keeps detect-families' out of its manifest", () => {
    const meta = JSON.parse(readFileSync("models/ui-detector/ui-detector.json", "utf8")) as { figures: { held_families: string[] } };
    const splitOf = splitter(meta.figures.held_families);
    const ids = pageIndices(BENCH_TOGGLE_PAGES).map(htmlPageId);
    expect(ids[0]).toBe(`html-${kitOfPage(V3_FROM).name}-${V3_FROM}`);
    expect(new Set(ids).size).toBe(BENCH_TOGGLE_PAGES.count);
    const pages = pageIndices({ start: V3_FROM, count: 200 }).map((i) => ({ id: htmlPageId(i), family: "html", subfamily: kitOfPage(i).name }));
    expect(pages.filter((f) => splitOf(f) === "held")).toEqual([]);
    // training/data.py lists no page of BENCH_TOGGLE_PAGES in the manifest, and its --html3 pages start after them.
    const py = `import sys; sys.path.insert(0, "training"); import data; print(data.HTML3_FROM, data.V3_FROM, ",".join(str(int(data.bench_only("html", f"{i}.json"))) for i in sys.argv[1:]))`;
    const edges = [`html-x-${V3_FROM - 1}`, ids[0]!, ids.at(-1)!, `html-x-${BENCH_TOGGLE_PAGES.start + BENCH_TOGGLE_PAGES.count}`];
    const [from3, v3, only] = execFileSync("python3", ["-c", py, ...edges], { encoding: "utf8" }).trim().split(" ");
    expect(Number(from3)).toBe(BENCH_TOGGLE_PAGES.start + BENCH_TOGGLE_PAGES.count);
    expect(Number(v3)).toBe(V3_FROM);
    expect(only).toBe("0,1,1,0");
  });
});
