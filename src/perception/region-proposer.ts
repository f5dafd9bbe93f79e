// Region proposals without a model: widgets are drawn as flat-coloured shapes (a button's face,
// a field's interior, a checkbox's square) bounded by an edge. We label 4-connected runs of
// near-identical colour, keep the components whose shape is a filled rectangle (they touch most
// of their bounding box's sides) or a disc, in widget sizes, and merge near-duplicates.
// Text regions come from the OCR lines. Everything is in frame pixels.
import type { BBox } from "../core/geometry.js";
import { bboxIoU } from "../core/geometry.js";
import { connectedComponents, type RgbImage } from "./raster.js";

export type ShapeKind = "rectangle" | "disc";

export interface ShapeRegion {
  readonly kind: ShapeKind;
  /** Outer box (the shape's own pixels plus a 1 px border allowance), frame pixels. */
  readonly bbox: BBox;
  /** Mean colour of the shape's face. */
  readonly fill: readonly [number, number, number];
  /** Shape pixels / bbox area (1 for a full rectangle without text, ~0.79 for a disc). */
  readonly fillRatio: number;
  /** Mean colour just outside the box (what the shape stands out from). */
  readonly surround: readonly [number, number, number];
  /** The component touches the frame's edge or is a large container (panel, page). */
  readonly container: boolean;
}

export interface ShapeProposerOptions {
  /** Per-channel colour difference still counted as the same surface (default 10). */
  tolerance?: number;
  /** Smallest side in pixels at scale 1 (default 9); multiplied by `scale`. */
  minSide?: number;
  /** Largest widget height at scale 1 (default 90); larger flat rectangles are containers. */
  maxHeight?: number;
  /** Image pixels per screen pixel; sizes scale with it. */
  scale?: number;
}

/** One colour region: its box (x2, y2 exclusive), pixel count and colour sums. */
export interface Stats {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  n: number;
  r: number;
  g: number;
  b: number;
}

/** Flat-colour rectangles and discs of widget size. */
export function proposeShapes(img: RgbImage, options: ShapeProposerOptions = {}): ShapeRegion[] {
  return proposeRegions(img, options).shapes;
}

/**
 * A compact blob of ink outside every large flat surface: an icon, a glyph, a small picture.
 * Text is among them too; the classifier sets apart what the OCR read.
 */
export interface GlyphRegion {
  readonly bbox: BBox;
  /**
   * Share of a ring 2–6 px around the box that is one flat surface: ~1 for an icon drawn on a
   * plain background, low for a blob cut out of a photo, a map or a chart.
   */
  readonly surroundFlat: number;
}

/**
 * Regions of one colour (4-connected, neighbours within `tol` on each channel): each pixel's
 * region index (`root`, in order of each region's first pixel) and each region's box, size and
 * colour sums.
 */
export function colourComponents(img: RgbImage, tol: number): { root: Int32Array; stats: Stats[] } {
  // Union-find where a pixel's parent is never after it (roots are each set's first pixel), so
  // one forward pass flattens every pixel to its root. A pixel the same colour as its left
  // neighbour joins that neighbour's set; the union with the pixel above is skipped when it is
  // known already: left, above-left and above all joined in a square.
  const { width: W, height: H, data: d } = img;
  const n = W * H;
  const parent = new Int32Array(n);
  const same = (i: number, j: number): boolean => {
    const a = i * 3;
    const b = j * 3;
    return Math.abs(d[a]! - d[b]!) <= tol && Math.abs(d[a + 1]! - d[b + 1]!) <= tol && Math.abs(d[a + 2]! - d[b + 2]!) <= tol;
  };
  // Whether each pixel of the previous and of this row joined its left neighbour.
  let leftAbove = new Uint8Array(W);
  let leftHere = new Uint8Array(W);
  for (let y = 0; y < H; y++) {
    const row = y * W;
    let prevRoot = 0;
    let prevUp = false;
    for (let x = 0; x < W; x++) {
      const i = row + x;
      const left = x > 0 && same(i, i - 1);
      leftHere[x] = left ? 1 : 0;
      let r = left ? prevRoot : i;
      parent[i] = r;
      const up = y > 0 && same(i, i - W);
      if (up && !(left && prevUp && leftAbove[x])) {
        let rb = i - W;
        while (parent[rb] !== rb) {
          parent[rb] = parent[parent[rb]!]!;
          rb = parent[rb]!;
        }
        if (rb < r) {
          parent[r] = rb;
          r = rb;
        } else if (rb > r) parent[rb] = r;
      }
      prevRoot = r;
      prevUp = up;
    }
    const t = leftAbove;
    leftAbove = leftHere;
    leftHere = t;
  }
  // Components get compact ids (root → id + 1), their statistics flat arrays: a Map lookup per
  // pixel cost more than the labelling itself. Parents are flattened on the way (a pixel's parent
  // comes before it, so is already its root's), and a row's run of one component updates its
  // statistics once.
  const root = new Int32Array(n);
  const idOf = new Int32Array(n);
  const stats: Stats[] = [];
  for (let y = 0; y < H; y++) {
    const row = y * W;
    let x = 0;
    while (x < W) {
      const i = row + x;
      const r = (parent[i] = parent[parent[i]!]!);
      let k = idOf[r]! - 1;
      if (k < 0) {
        k = stats.length;
        idOf[r] = k + 1;
        stats.push({ x1: x, y1: y, x2: x + 1, y2: y + 1, n: 0, r: 0, g: 0, b: 0 });
      }
      let sr = 0;
      let sg = 0;
      let sb = 0;
      let e = x;
      for (;;) {
        const j = row + e;
        root[j] = k;
        sr += d[j * 3]!;
        sg += d[j * 3 + 1]!;
        sb += d[j * 3 + 2]!;
        e++;
        if (e >= W) break;
        const q = (parent[j + 1] = parent[parent[j + 1]!]!);
        if (q !== r) break;
      }
      const s = stats[k]!;
      if (x < s.x1) s.x1 = x;
      if (e > s.x2) s.x2 = e;
      if (y + 1 > s.y2) s.y2 = y + 1;
      s.n += e - x;
      s.r += sr;
      s.g += sg;
      s.b += sb;
      x = e;
    }
  }
  return { root, stats };
}

/** Shapes and glyphs from one labelling of the image's flat-colour surfaces. */
export function proposeRegions(img: RgbImage, options: ShapeProposerOptions = {}): { shapes: ShapeRegion[]; glyphs: GlyphRegion[]; switches: BBox[] } {
  const tol = options.tolerance ?? 6;
  const scale = options.scale ?? 1;
  const minSide = (options.minSide ?? 9) * scale;
  const maxH = (options.maxHeight ?? 90) * scale;
  const { width: W, height: H } = img;
  const n = W * H;
  const { root, stats } = colourComponents(img, tol);
  const out: ShapeRegion[] = [];
  for (let r = 0; r < stats.length; r++) {
    const s = stats[r]!;
    const w = s.x2 - s.x1;
    const h = s.y2 - s.y1;
    if (w < minSide || h < minSide) continue;
    // Toggles: up to 46 px (accessible web forms draw 40 px boxes and rings, plus their border).
    const smallSquare = Math.abs(w - h) <= Math.max(2, 0.15 * w) && w <= 46 * scale;
    // Outlines (a checkbox's or radio's border ring) are kept when small and square.
    if (s.n < 0.5 * w * h && !smallSquare) continue;
    // A box the frame's edge cuts is a container (a window's, a page's band) unless it is short, narrower than the
    // frame and cut on one side only: a field or a button half scrolled out of view.
    const cut = [s.x1 === 0, s.y1 === 0, s.x2 === W, s.y2 === H].filter(Boolean).length;
    const container = cut > 1 || (cut === 1 && (h > 60 * scale || w >= 0.9 * W)) || h > maxH;
    if (container && (h > maxH * 4 || w * h > n * 0.25)) continue;
    // Side coverage: share of each bbox side's pixels that belong to the component, past the
    // rounding of its corners (up to 3 px at scale 1; a short button's rounded ends are a
    // quarter of its height).
    const cover = (x0: number, y0: number, dx: number, dy: number, len: number): number => {
      const m = Math.min(Math.round(3 * scale), Math.floor(len / 6));
      let c = 0;
      for (let k = m; k < len - m; k++) if (root[(y0 + dy * k) * W + x0 + dx * k] === r) c++;
      return c / (len - 2 * m);
    };
    const sides = [cover(s.x1, s.y1, 1, 0, w), cover(s.x1, s.y2 - 1, 1, 0, w), cover(s.x1, s.y1, 0, 1, h), cover(s.x2 - 1, s.y1, 0, 1, h)];
    const minCover = Math.min(...sides);
    const fillRatio = s.n / (w * h);
    let kind: ShapeKind | undefined;
    if (minCover >= 0.75 && fillRatio >= 0.5) kind = "rectangle";
    else if (smallSquare) {
      // A small rounded square (a checkbox) fills its bbox corners; a disc leaves them empty.
      const q = Math.max(2, Math.floor(w / 4));
      let inCorner = 0;
      for (let dy = 0; dy < q; dy++)
        for (let dx = 0; dx < q; dx++)
          for (const [cx, cy] of [[s.x1 + dx, s.y1 + dy], [s.x2 - 1 - dx, s.y1 + dy], [s.x1 + dx, s.y2 - 1 - dy], [s.x2 - 1 - dx, s.y2 - 1 - dy]] as const) if (root[cy * W + cx] === r) inCorner++;
      const corner = inCorner / (4 * q * q);
      const ring = fillRatio < 0.5;
      // A rounded square's sides stay straight over most of their length; a circle's do not.
      if (ring ? minCover >= 0.5 : corner > 0.3 && minCover >= 0.5) kind = "rectangle";
      else if ((ring || corner < 0.25) && sides.every((c) => c > 0.05 && c < 0.5)) kind = "disc";
    }
    if (!kind) continue;
    const fill: [number, number, number] = [s.r / s.n, s.g / s.n, s.b / s.n];
    out.push({ kind, bbox: [Math.max(0, s.x1 - 1), Math.max(0, s.y1 - 1), Math.min(W, s.x2 + 1), Math.min(H, s.y2 + 1)], fill, fillRatio, surround: surroundColour(img, s), container });
  }
  return { shapes: dedupeShapes(out), glyphs: glyphsOf(root, stats, W, H, scale), switches: switchesOf(root, stats, W, scale) };
}

/**
 * Switches as drawn: a knob — a round surface (a disc, or a pill up to four times as wide as tall: its box's corners
 * left empty) — at one end of a track, a band of another surface centred on the knob's middle row, between a third of
 * the knob's height and 1.6 times it (a thin track under a large knob, or a pill around a small one), running past the
 * knob's other side by half its width or more; together 1.4 to 8 times as wide as tall (a switch stretched over its
 * column, its knob up to four times as wide as tall; a slider's track is thinner or runs longer).
 * Each switch's box is the knob's and the track's together. Words are not looked at here (a caller sets apart a pill
 * holding text, a button or a badge). General geometry: no kit's colours or sizes.
 */
export function switchesOf(root: Int32Array, stats: readonly Stats[], W: number, scale: number): BBox[] {
  const knobs: number[] = [];
  const tracks: number[] = [];
  stats.forEach((s, k) => {
    const w = s.x2 - s.x1;
    const h = s.y2 - s.y1;
    if (h >= 4 * scale && h <= 50 * scale && w >= h && s.n >= 0.45 * w * h) tracks.push(k);
    if (h < 10 * scale || h > 50 * scale || w < 0.75 * h || w > 4 * h) return;
    const fill = s.n / (w * h);
    if (fill < 0.6 || fill > 0.95) return;
    // Round: its box's corners (a fifth of its height square) mostly not its own.
    const q = Math.max(2, Math.floor(h / 5));
    let inCorner = 0;
    for (let dy = 0; dy < q; dy++)
      for (let dx = 0; dx < q; dx++)
        for (const [cx, cy] of [[s.x1 + dx, s.y1 + dy], [s.x2 - 1 - dx, s.y1 + dy], [s.x1 + dx, s.y2 - 1 - dy], [s.x2 - 1 - dx, s.y2 - 1 - dy]] as const) if (root[cy * W + cx] === k) inCorner++;
    if (inCorner / (4 * q * q) < 0.3) knobs.push(k);
  });
  const found: BBox[] = [];
  for (const k of knobs) {
    const K = stats[k]!;
    const [kw, kh, kcy] = [K.x2 - K.x1, K.y2 - K.y1, (K.y1 + K.y2) / 2];
    for (const t of tracks) {
      if (t === k) continue;
      const T = stats[t]!;
      const th = T.y2 - T.y1;
      if (th < 0.33 * kh || th > 1.6 * kh || Math.abs((T.y1 + T.y2) / 2 - kcy) > 0.2 * Math.max(th, kh)) continue;
      if (T.x1 > K.x2 + 2 || T.x2 < K.x1 - 2) continue;
      const U: BBox = [Math.min(K.x1, T.x1), Math.min(K.y1, T.y1), Math.max(K.x2, T.x2), Math.max(K.y2, T.y2)];
      const [uw, uh] = [U[2] - U[0], U[3] - U[1]];
      if (uw < 1.4 * uh || uw > 8 * uh) continue;
      // The knob at one end, the track running past its other side.
      const atLeft = K.x1 - U[0] <= 0.3 * uh && T.x2 - K.x2 >= 0.5 * kw;
      const atRight = U[2] - K.x2 <= 0.3 * uh && K.x1 - T.x1 >= 0.5 * kw;
      if (!atLeft && !atRight) continue;
      // The two surfaces fill most of their box (a pill: about 0.85; a thin track under a knob less).
      if ((K.n + T.n) / (uw * uh) < 0.45) continue;
      // On one surface (a form's, a cell's): the ring 3 px around them mostly one region (not a map's or a picture's).
      if (ringUniformity(root, W, root.length / W, U, 3) < 0.75) continue;
      found.push(U);
    }
  }
  // One switch per place: the largest of boxes overlapping by half.
  return largestApart(found, (b) => b, 0.4);
}

/**
 * Ink blobs: pixels outside every flat surface of at least ~12×12 px (anti-aliased strokes, the
 * small enclosed counters of a glyph) joined 8-connected, then parts closer than 2 px joined
 * (the three bars of a menu icon). Kept when icon-sized: 6–44 px a side at scale 1.
 */
function glyphsOf(root: Int32Array, stats: readonly Stats[], W: number, H: number, scale: number): GlyphRegion[] {
  const minFlat = 150 * scale * scale;
  const n = W * H;
  const small = new Uint8Array(stats.length);
  stats.forEach((s, k) => (small[k] = s.n < minFlat ? 1 : 0));
  const mask = new Uint8Array(n);
  for (let i = 0; i < n; i++) mask[i] = small[root[i]!]!;
  const comps = connectedComponents(mask, W, H).filter((c) => c.x2 - c.x1 <= 60 * scale && c.y2 - c.y1 <= 60 * scale && c.pixels >= 4);
  // Join parts a gap of ≤ 2 px apart.
  const gap = 2 * scale;
  comps.sort((a, b) => a.x1 - b.x1);
  const boxes: Array<{ b: [number, number, number, number] }> = [];
  for (const c of comps) {
    let cur = { b: [c.x1, c.y1, c.x2, c.y2] as [number, number, number, number] };
    for (let merged = true; merged; ) {
      merged = false;
      for (let k = boxes.length - 1; k >= 0; k--) {
        const o = boxes[k]!;
        if (o.b[0] > cur.b[2] + gap || o.b[2] < cur.b[0] - gap || o.b[1] > cur.b[3] + gap || o.b[3] < cur.b[1] - gap) continue;
        const u: [number, number, number, number] = [Math.min(o.b[0], cur.b[0]), Math.min(o.b[1], cur.b[1]), Math.max(o.b[2], cur.b[2]), Math.max(o.b[3], cur.b[3])];
        if (u[2] - u[0] > 60 * scale || u[3] - u[1] > 60 * scale) continue;
        cur = { b: u };
        boxes.splice(k, 1);
        merged = true;
      }
    }
    boxes.push(cur);
  }
  const out: GlyphRegion[] = [];
  for (const { b } of boxes) {
    const w = b[2] - b[0];
    const h = b[3] - b[1];
    if (Math.max(w, h) < 6 * scale || Math.max(w, h) > 44 * scale || Math.min(w, h) < 2 * scale || Math.max(w, h) > 4 * Math.min(w, h)) continue;
    const counts = new Map<number, number>();
    let all = 0;
    const m1 = 2 * scale;
    const m2 = 6 * scale;
    for (let y = Math.max(0, b[1] - m2); y < Math.min(H, b[3] + m2); y++)
      for (let x = Math.max(0, b[0] - m2); x < Math.min(W, b[2] + m2); x++) {
        if (x >= b[0] - m1 && x < b[2] + m1 && y >= b[1] - m1 && y < b[3] + m1) continue;
        all++;
        const i = y * W + x;
        if (!mask[i]) counts.set(root[i]!, (counts.get(root[i]!) ?? 0) + 1);
      }
    const flat = Math.max(0, ...counts.values());
    out.push({ bbox: b, surroundFlat: all ? flat / all : 0 });
  }
  return out;
}

function surroundColour(img: RgbImage, s: Stats): [number, number, number] {
  const { width: W, height: H, data: d } = img;
  let r = 0;
  let g = 0;
  let b = 0;
  let c = 0;
  const add = (x: number, y: number): void => {
    if (x < 0 || y < 0 || x >= W || y >= H) return;
    const i = (y * W + x) * 3;
    r += d[i]!;
    g += d[i + 1]!;
    b += d[i + 2]!;
    c++;
  };
  const m = 3;
  for (let x = s.x1; x < s.x2; x += 2) {
    add(x, s.y1 - m);
    add(x, s.y2 - 1 + m);
  }
  for (let y = s.y1; y < s.y2; y += 2) {
    add(s.x1 - m, y);
    add(s.x2 - 1 + m, y);
  }
  return c ? [r / c, g / c, b / c] : [255, 255, 255];
}

/** The share of a ring `d` px outside a box (inside the image) taken by its most frequent region. */
function ringUniformity(root: Int32Array, W: number, H: number, b: BBox, d: number): number {
  const count = new Map<number, number>();
  let n = 0;
  const add = (x: number, y: number) => {
    if (x < 0 || y < 0 || x >= W || y >= H) return;
    const r = root[y * W + x]!;
    count.set(r, (count.get(r) ?? 0) + 1);
    n++;
  };
  for (let x = b[0] - d; x < b[2] + d; x++) {
    add(x, b[1] - d);
    add(x, b[3] - 1 + d);
  }
  for (let y = b[1] - d; y < b[3] + d; y++) {
    add(b[0] - d, y);
    add(b[2] - 1 + d, y);
  }
  return n ? Math.max(...count.values()) / n : 0;
}

/** Nested near-identical boxes (a border ring around a face) keep the outer one. */
export function dedupeShapes(shapes: ShapeRegion[]): ShapeRegion[] {
  return largestApart(shapes, (s) => s.bbox, 0.8);
}

/** Largest first, each kept unless it overlaps one kept already by more than `maxIoU`. */
function largestApart<T>(items: readonly T[], boxOf: (t: T) => BBox, maxIoU: number): T[] {
  const kept: T[] = [];
  for (const t of [...items].sort((a, b) => area(boxOf(b)) - area(boxOf(a)))) if (!kept.some((k) => bboxIoU(boxOf(k), boxOf(t)) > maxIoU)) kept.push(t);
  return kept;
}

function area(b: BBox): number {
  return (b[2] - b[0]) * (b[3] - b[1]);
}
