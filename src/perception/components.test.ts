import { describe, expect, it } from "vitest";
import { componentsWithPixels, connectedComponents, type RgbImage } from "./raster.js";
import { colourComponents } from "./region-proposer.js";

/** Pseudo-random generator (fixed seed) for reproducible test images. */
function rng(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
}

/** Flood fill labelling, region indices in order of each region's first pixel (the reference). */
function floodLabels(W: number, H: number, joins: (i: number, j: number) => boolean, neighbours: (x: number, y: number) => [number, number][]): Int32Array {
  const label = new Int32Array(W * H).fill(-1);
  let next = 0;
  for (let i = 0; i < W * H; i++) {
    if (label[i] !== -1) continue;
    const stack = [i];
    label[i] = next;
    while (stack.length) {
      const p = stack.pop()!;
      for (const [x, y] of neighbours(p % W, Math.floor(p / W))) {
        const q = y * W + x;
        if (x < 0 || y < 0 || x >= W || y >= H || label[q] !== -1 || !joins(p, q)) continue;
        label[q] = next;
        stack.push(q);
      }
    }
    next++;
  }
  return label;
}

/** Blobs of a few near colours: long runs, U shapes and spirals that join late, within-tolerance noise. */
function blobImage(W: number, H: number, seed: number): RgbImage {
  const r = rng(seed);
  const data = new Uint8Array(W * H * 3);
  const palette = [[250, 250, 250], [30, 60, 200], [200, 40, 40], [36, 64, 205]];
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const band = (Math.floor(x / (3 + Math.floor(r() * 3))) + Math.floor(y / 4)) % 3;
      const c = r() < 0.1 ? palette[Math.floor(r() * 4)]! : palette[band]!;
      for (let k = 0; k < 3; k++) data[(y * W + x) * 3 + k] = Math.max(0, Math.min(255, c[k]! + Math.floor(r() * 5) - 2));
    }
  }
  return { data, width: W, height: H };
}

describe("connected components", () => {
  it("labels colour regions like a flood fill (4-connected, per-channel tolerance)", () => {
    for (const [W, H, seed] of [[37, 23, 1], [64, 48, 2], [5, 90, 3], [120, 7, 4]] as const) {
      const img = blobImage(W, H, seed);
      for (const tol of [0, 6, 12]) {
        const same = (i: number, j: number) => [0, 1, 2].every((k) => Math.abs(img.data[i * 3 + k]! - img.data[j * 3 + k]!) <= tol);
        const want = floodLabels(W, H, same, (x, y) => [[x - 1, y], [x + 1, y], [x, y - 1], [x, y + 1]]);
        const { root, stats } = colourComponents(img, tol);
        expect(Array.from(root)).toEqual(Array.from(want));
        expect(stats.reduce((a, s) => a + s.n, 0)).toBe(W * H);
        for (let k = 0; k < stats.length; k++) {
          const px = Array.from(want.keys()).filter((i) => want[i] === k);
          const xs = px.map((i) => i % W);
          const ys = px.map((i) => Math.floor(i / W));
          expect([stats[k]!.x1, stats[k]!.y1, stats[k]!.x2, stats[k]!.y2, stats[k]!.n]).toEqual([Math.min(...xs), Math.min(...ys), Math.max(...xs) + 1, Math.max(...ys) + 1, px.length]);
        }
      }
    }
  });

  it("finds the components of a mask like a flood fill, 8- and 4-connected", () => {
    for (const [W, H, seed] of [[40, 30, 5], [9, 70, 6]] as const) {
      const r = rng(seed);
      const mask = Uint8Array.from({ length: W * H }, () => (r() < 0.45 ? 1 : 0));
      for (const four of [false, true]) {
        const want = floodLabels(W, H, (i, j) => mask[i] === 1 && mask[j] === 1, (x, y) =>
          four ? [[x - 1, y], [x + 1, y], [x, y - 1], [x, y + 1]] : [[x - 1, y], [x + 1, y], [x, y - 1], [x, y + 1], [x - 1, y - 1], [x + 1, y - 1], [x - 1, y + 1], [x + 1, y + 1]],
        );
        const boxes = new Map<number, number[]>();
        want.forEach((l, i) => {
          if (!mask[i]) return;
          const x = i % W;
          const y = Math.floor(i / W);
          const b = boxes.get(l) ?? [x, y, x + 1, y + 1, 0];
          boxes.set(l, [Math.min(b[0]!, x), Math.min(b[1]!, y), Math.max(b[2]!, x + 1), Math.max(b[3]!, y + 1), b[4]! + 1]);
        });
        const got = connectedComponents(mask, W, H, undefined, four).map((c) => [c.x1, c.y1, c.x2, c.y2, c.pixels]);
        const key = (b: number[]) => b.join(",");
        expect(got.map(key).sort()).toEqual([...boxes.values()].map(key).sort());
        // With their pixels: each component's are one flood label's, all of them.
        const withPixels = componentsWithPixels(mask, W, H, four);
        expect(withPixels.map((c) => [c.x1, c.y1, c.x2, c.y2, c.pixels])).toEqual(got);
        const members = new Map<number, number[]>();
        want.forEach((l, i) => mask[i] && members.set(l, [...(members.get(l) ?? []), i]));
        expect(withPixels.map((c) => c.members.join(",")).sort()).toEqual([...members.values()].map((m) => m.join(",")).sort());
      }
    }
  });
});
