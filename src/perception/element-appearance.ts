// What an element looks like, for instructions that describe it instead of naming it ("the green
// button", « l'icône loupe », "the red cross icon"): its fill colour (the most common colour of its
// box), and its glyph (the largest piece of ink that is not a run of letters) with the glyph's
// colour and shape. Read from the frame's pixels only; bounded work per element.
import type { Frame } from "../core/frame.js";
import type { BBox } from "../core/geometry.js";
import { median } from "../core/vectors.js";
import { iconShapes, type IconShape } from "./icon-names.js";
import type { ColourName } from "./locate-lexicon.js";
import { componentsWithPixels, toGrey, toRgb } from "./raster.js";

export interface Glyph {
  /** Frame pixels. */
  readonly bbox: BBox;
  readonly colour: ColourName;
  /** True when most of its ink is strongly coloured (not grey, black or white). */
  readonly saturated: boolean;
  readonly shapes: readonly IconShape[];
}

export interface Appearance {
  readonly fill: ColourName;
  /** The icon-like ink inside the element, when there is one. */
  readonly glyph?: Glyph;
  /** For an icon-only element holding several separate figures: each of them. */
  readonly glyphs?: readonly Glyph[];
}

/** The colour name of an RGB value: hue for strong colours, else white, grey or black by lightness. */
export function colourName(r: number, g: number, b: number): ColourName {
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const chroma = max - min;
  if (chroma < 40 || (max > 0 && chroma / max < 0.25)) return max >= 215 ? "white" : max < 60 ? "black" : "grey";
  let hue: number;
  if (max === r) hue = (((g - b) / chroma) % 6) * 60;
  else if (max === g) hue = ((b - r) / chroma + 2) * 60;
  else hue = ((r - g) / chroma + 4) * 60;
  if (hue < 0) hue += 360;
  if (hue < 15 || hue >= 340) return "red";
  if (hue < 40) return max < 140 ? "red" : "orange";
  if (hue < 70) return "yellow";
  if (hue < 165) return "green";
  if (hue < 255) return "blue";
  if (hue < 295) return "purple";
  return "pink";
}

/** Colour names that people use loosely for one another ("light blue" cyan, "grey" a silver white). */
export function colourMatch(want: ColourName, got: ColourName | undefined): number {
  if (!got) return 0;
  if (want === got) return 1;
  const near: Partial<Record<ColourName, ColourName[]>> = { grey: ["white", "black"], white: ["grey"], black: ["grey"], orange: ["yellow", "red"], yellow: ["orange"], red: ["orange", "pink"], pink: ["purple", "red"], purple: ["pink", "blue"], blue: ["purple"] };
  return near[want]?.includes(got) ? 0.4 : 0;
}

const MAX_GLYPH_SIDE = 400;

/**
 * The element's fill colour and glyph. Boxes are in frame pixels; a box outside the frame gives a
 * grey fill and no glyph. `iconOnly`: the element carries no words (an empty or one-character
 * label), so all its ink is the glyph. `focus`: for a box padded around a tight one (an OCR
 * box, a proposed blob), the tight box: the glyph is the ink centred in it.
 */
export function elementAppearance(frame: Frame, box: BBox, iconOnly = false, focus?: BBox): Appearance {
  return appearance(frame, box, iconOnly, focus);
}

/** The ink of a region of the screen that is no element (nothing framed to leave out): its fill and glyphs, as for an icon-only element. */
export function regionAppearance(frame: Frame, region: BBox): Appearance {
  return appearance(frame, region, true, undefined, 0);
}

/** `margin`: left out along the box's sides (default: the element's own border, 8 % of its shorter side). */
function appearance(frame: Frame, box: BBox, iconOnly: boolean, focus: BBox | undefined, margin?: number, nested = false): Appearance {
  const img = toRgb(frame);
  const [x1, y1, x2, y2] = pixelBox(img, box);
  const w = x2 - x1;
  const h = y2 - y1;
  if (w < 2 || h < 2) return { fill: "grey" };
  const px = img.data;
  // Fill: the most common 4-bit-per-channel colour, sampled on a grid of at most ~20k points.
  const step = Math.max(1, Math.floor(Math.sqrt((w * h) / 20000)));
  const bins = new Map<number, { n: number; r: number; g: number; b: number }>();
  for (let y = y1; y < y2; y += step)
    for (let x = x1; x < x2; x += step) {
      const o = (y * img.width + x) * 3;
      const key = ((px[o]! >> 4) << 8) | ((px[o + 1]! >> 4) << 4) | (px[o + 2]! >> 4);
      const bin = bins.get(key) ?? { n: 0, r: 0, g: 0, b: 0 };
      bin.n++;
      bin.r += px[o]!;
      bin.g += px[o + 1]!;
      bin.b += px[o + 2]!;
      bins.set(key, bin);
    }
  let mode = { n: 0, r: 0, g: 0, b: 0 };
  for (const v of bins.values()) if (v.n > mode.n) mode = v;
  const bg = [mode.r / mode.n, mode.g / mode.n, mode.b / mode.n] as const;
  const fill = colourName(bg[0], bg[1], bg[2]);
  if (w > MAX_GLYPH_SIDE || h > MAX_GLYPH_SIDE) return { fill };
  // Ink: pixels far from the fill, inside a margin that leaves the element's own border out.
  const m = margin ?? Math.max(2, Math.round(Math.min(w, h) * 0.08));
  const mask = new Uint8Array(w * h);
  for (let y = m; y < h - m; y++)
    for (let x = m; x < w - m; x++) {
      const o = ((y1 + y) * img.width + x1 + x) * 3;
      const d = Math.max(Math.abs(px[o]! - bg[0]), Math.abs(px[o + 1]! - bg[1]), Math.abs(px[o + 2]! - bg[2]));
      if (d > 40) mask[y * w + x] = 1;
    }
  // A box drawn a little wider than the element leaves the element's own frame inside the margin: a rectangle drawn on
  // its four sides around other ink is the frame, not the glyph (a bordered icon button boxed with its shadow).
  const parts = withoutFrame(components(mask, w, h), w, h, m);
  if (!parts.length) return { fill };
  // Letters come in runs of pieces of one height; an icon is a piece that stands out from them.
  parts.sort((a, b) => b.area - a.area);
  const inFocus = focus ? parts.filter((p) => {
    const cx = x1 + (p.x1 + p.x2) / 2;
    const cy = y1 + (p.y1 + p.y2) / 2;
    return cx >= focus[0] && cx <= focus[2] && cy >= focus[1] && cy <= focus[3];
  }) : parts;
  if (!inFocus.length) return { fill };
  const main = inFocus[0]!;
  const others = parts.slice(1).filter((p) => p.pixels >= 4);
  const medianArea = median(others.map((p) => p.area));
  const medianH = median(others.map((p) => p.y2 - p.y1));
  // A run of letters: several pieces, the largest not much larger than the rest ("P" among "ay invoice").
  const letterLike = others.length >= 2 && (main.area < 3.5 * medianArea || main.y2 - main.y1 < 1.2 * medianH);
  if (!iconOnly && (letterLike || main.pixels < 12)) return { fill };
  if (iconOnly && parts.reduce((n, p) => n + p.pixels, 0) < 12) return { fill };
  // Pieces inside or close beside the main one, of a like size, belong to it (a two-page copy
  // icon, a lens and its handle, the two chevrons of »).
  const mainH = main.y2 - main.y1;
  const grow = (from: readonly [number, number, number, number], gap: number, small: boolean) => {
    let [gx1, gy1, gx2, gy2] = from;
    for (let grown = true; grown; ) {
      grown = false;
      for (const p of parts) {
        const inside = p.x1 >= gx1 && p.x2 <= gx2 && p.y1 >= gy1 && p.y2 <= gy2;
        if (inside) continue;
        const near = p.x1 <= gx2 + gap && p.x2 >= gx1 - gap && p.y1 <= gy2 + gap && p.y2 >= gy1 - gap;
        // (An icon's own pieces may be small: an arc broken by anti-aliasing.)
        if (near && (p.y2 - p.y1 >= 0.5 * mainH || (small && p.pixels >= 3))) {
          [gx1, gy1, gx2, gy2] = [Math.min(gx1, p.x1), Math.min(gy1, p.y1), Math.max(gx2, p.x2), Math.max(gy2, p.y2)];
          grown = true;
        }
      }
    }
    return [gx1, gy1, gx2, gy2] as const;
  };
  /** The glyph made of the ink inside a box of the crop: its colour and figure. */
  const describe = ([gx1, gy1, gx2, gy2]: readonly [number, number, number, number]): Glyph | undefined => {
    const glyphMask = new Uint8Array((gx2 - gx1) * (gy2 - gy1));
    let n = 0;
    let satN = 0;
    const sums = [0, 0, 0];
    const satSums = [0, 0, 0];
    for (const p of parts) {
      if (p.x2 <= gx1 || p.x1 >= gx2 || p.y2 <= gy1 || p.y1 >= gy2) continue;
      for (const i of p.members) {
        const x = i % w;
        const y = (i / w) | 0;
        if (x < gx1 || x >= gx2 || y < gy1 || y >= gy2) continue;
        glyphMask[(y - gy1) * (gx2 - gx1) + x - gx1] = 1;
        const o = ((y1 + y) * img.width + x1 + x) * 3;
        const [r, g, b] = [px[o]!, px[o + 1]!, px[o + 2]!];
        n++;
        sums[0]! += r;
        sums[1]! += g;
        sums[2]! += b;
        if (saturatedPixel(r, g, b)) {
          satN++;
          satSums[0]! += r;
          satSums[1]! += g;
          satSums[2]! += b;
        }
      }
    }
    if (n < 12) return undefined;
    const saturated = satN >= 0.25 * n && satN >= 6;
    const colour = saturated ? colourName(satSums[0]! / satN, satSums[1]! / satN, satSums[2]! / satN) : colourName(sums[0]! / n, sums[1]! / n, sums[2]! / n);
    let shapes = iconShapes(glyphMask, gx2 - gx1, gy2 - gy1);
    // Small dots drawn close (⋯ on a small button) blur into one bar at the ink threshold: where the bar's core, its ink
    // far from the fill, falls apart in three alike dots, they are dots.
    if (shapes.includes("minus") && gx2 - gx1 <= 40) {
      let far = 0;
      const distance = (x: number, y: number) => {
        const o = ((y1 + y) * img.width + x1 + x) * 3;
        return Math.max(Math.abs(px[o]! - bg[0]), Math.abs(px[o + 1]! - bg[1]), Math.abs(px[o + 2]! - bg[2]));
      };
      for (let y = gy1; y < gy2; y++) for (let x = gx1; x < gx2; x++) far = Math.max(far, distance(x, y));
      const core = new Uint8Array(glyphMask.length);
      for (let y = gy1; y < gy2; y++) for (let x = gx1; x < gx2; x++) if (distance(x, y) >= 0.7 * far) core[(y - gy1) * (gx2 - gx1) + x - gx1] = 1;
      if (iconShapes(core, gx2 - gx1, gy2 - gy1).includes("dots")) shapes = shapes.map((x) => (x === "minus" ? "dots" : x));
    }
    return { bbox: [x1 + gx1, y1 + gy1, x1 + gx2, y1 + gy2], colour, saturated, shapes };
  };
  const whole = iconOnly && !focus;
  const start = whole ? partsBox(parts) : ([main.x1, main.y1, main.x2, main.y2] as const);
  const gap = Math.max(2, 0.35 * mainH, focus && iconOnly ? 0.25 * Math.min(focus[2] - focus[0], focus[3] - focus[1]) : 0);
  const glyph = describe(grow(start, gap, iconOnly));
  if (!glyph) return { fill };
  // An icon-only box may hold several icons (a detector's box over two toolbar buttons): each is a glyph too.
  const glyphs: Glyph[] = [];
  if (whole) {
    const clusterGap = Math.max(3, 0.2 * Math.min(w, h));
    const taken: (readonly [number, number, number, number])[] = [];
    for (const p of parts) {
      if (glyphs.length >= 6 || p.pixels < 4 || taken.some((t) => p.x1 >= t[0] && p.x2 <= t[2] && p.y1 >= t[1] && p.y2 <= t[3])) continue;
      const c = grow([p.x1, p.y1, p.x2, p.y2], clusterGap, true);
      taken.push(c);
      const d = describe(c);
      if (d) glyphs.push(d);
    }
  }
  // A ring drawn around the icon (a round button's outline around its gear), whole or cut by the margin into arcs: the
  // icon inside is a glyph too, beside the whole (a help icon's "?" in its circle stays one glyph as well).
  const inner = ringedInner(parts, [glyph.bbox[0] - x1, glyph.bbox[1] - y1, glyph.bbox[2] - x1, glyph.bbox[3] - y1], [m, m, w - m, h - m]);
  const innerGlyph = inner ? describe(inner) : undefined;
  if (innerGlyph) glyphs.splice(0, glyphs.length, ...(glyphs.length ? glyphs : [glyph]), innerGlyph);
  // A count badge drawn over an icon's corner (a mail icon's « 3 »): the icon beside it is a glyph too.
  const badged = whole ? besideBadge(img, [x1, y1], mask, w, [glyph.bbox[0] - x1, glyph.bbox[1] - y1, glyph.bbox[2] - x1, glyph.bbox[3] - y1]) : undefined;
  const badgedGlyph = badged ? describe(badged) : undefined;
  if (badgedGlyph) glyphs.splice(0, glyphs.length, ...(glyphs.length ? glyphs : [glyph]), badgedGlyph);
  // A face filled in its own colour inside the box (a round button's disc, boxed with its shadow or margin) holding a
  // figure of another colour: that figure is a glyph too (the trash can on an orange disc).
  const faceGlyph = iconOnly && !nested && !innerGlyph && !badgedGlyph ? figureOnFace(frame, glyph, [x1, y1, x2, y2]) : undefined;
  if (faceGlyph) glyphs.splice(0, glyphs.length, ...(glyphs.length ? glyphs : [glyph]), faceGlyph);
  return { fill, glyph, ...(glyphs.length > 1 ? { glyphs } : {}) };
}

/**
 * The figure drawn on a face: a glyph about square, at least 16 px, well inside its box (a margin of the page around it),
 * read inside the square a disc holds as an element of its own — the face's colour its fill, a figure of another colour
 * clear of that square's sides taking at most 60 % of it. Undefined otherwise.
 */
function figureOnFace(frame: Frame, face: Glyph, box: readonly [number, number, number, number]): Glyph | undefined {
  const [fw, fh] = [face.bbox[2] - face.bbox[0], face.bbox[3] - face.bbox[1]];
  if (fw < 16 || fh < 16 || fw < 0.75 * fh || fw > 1.33 * fh || fw * fh > 0.8 * (box[2] - box[0]) * (box[3] - box[1])) return undefined;
  // (Read inside the square a disc holds, clear of its round edge.)
  const k = Math.round(0.15 * Math.min(fw, fh));
  const inner: BBox = [face.bbox[0] + k, face.bbox[1] + k, face.bbox[2] - k, face.bbox[3] - k];
  const on = appearance(frame, inner, true, undefined, 0, true);
  const g = on.glyph;
  if (!g || on.fill !== face.colour || g.colour === on.fill) return undefined;
  const clear = g.bbox[0] > inner[0] && g.bbox[1] > inner[1] && g.bbox[2] < inner[2] && g.bbox[3] < inner[3];
  return clear && (g.bbox[2] - g.bbox[0]) * (g.bbox[3] - g.bbox[1]) <= 0.6 * (inner[2] - inner[0]) * (inner[3] - inner[1]) ? g : undefined;
}

/**
 * The box, in crop pixels, of the ink beside a count badge drawn over a glyph's top corner — a filled pill or disc of
 * one saturated colour, a third to 85 % of the glyph's height, at its top and at one end — where that ink is a
 * figure of its own (at least a third of the glyph's width, 12 pixels); undefined where there is no such badge.
 */
function besideBadge(img: { data: Uint8Array; width: number }, [ox, oy]: readonly [number, number], mask: Uint8Array, w: number, g: readonly [number, number, number, number]): readonly [number, number, number, number] | undefined {
  const [gw, gh] = [g[2] - g[0], g[3] - g[1]];
  if (gw < 8 || gh < 8) return undefined;
  const sat = new Uint8Array(gw * gh);
  for (let y = 0; y < gh; y++)
    for (let x = 0; x < gw; x++) {
      const o = ((oy + g[1] + y) * img.width + ox + g[0] + x) * 3;
      if (mask[(g[1] + y) * w + g[0] + x] && saturatedPixel(img.data[o]!, img.data[o + 1]!, img.data[o + 2]!)) sat[y * gw + x] = 1;
    }
  const badge = components(sat, gw, gh).find((p) => {
    const [bw, bh] = [p.x2 - p.x1, p.y2 - p.y1];
    const atEnd = p.x1 <= 0.1 * gw || p.x2 >= 0.9 * gw;
    return bh >= gh / 3 && bh <= 0.85 * gh && bw <= 3 * bh && bw <= 0.7 * gw && p.y1 <= 0.2 * gh && atEnd && p.pixels >= 0.5 * p.area;
  });
  if (!badge) return undefined;
  // The other side of the badge: the ink there, the badge's columns left out.
  const [cx1, cx2] = badge.x1 <= 0.1 * gw ? [badge.x2 + 1, gw] : [0, badge.x1 - 1];
  let box: [number, number, number, number] | undefined;
  let n = 0;
  for (let y = 0; y < gh; y++)
    for (let x = Math.max(0, cx1); x < cx2; x++) {
      if (!mask[(g[1] + y) * w + g[0] + x] || sat[y * gw + x]) continue;
      n++;
      box = box ? [Math.min(box[0], x), Math.min(box[1], y), Math.max(box[2], x + 1), Math.max(box[3], y + 1)] : [x, y, x + 1, y + 1];
    }
  if (!box || n < 12 || box[2] - box[0] < gw / 3) return undefined;
  return [g[0] + box[0], g[1] + box[1], g[0] + box[2], g[1] + box[3]];
}

/**
 * The box of what a ring encloses, in crop pixels: inside a piece spanning most of the glyph's box both ways, hollow
 * (its ink a third of its box at most), the pieces that keep clear of it; or, where the margin cut the ring into arcs,
 * the pieces but those arcs (pieces touching the margin's edge, centred off the largest piece). Undefined without either.
 */
function ringedInner(parts: readonly Part[], g: readonly [number, number, number, number], inside: readonly [number, number, number, number]): readonly [number, number, number, number] | undefined {
  const [gw, gh] = [g[2] - g[0], g[3] - g[1]];
  const ring = parts.find((p) => p.x2 - p.x1 >= 0.8 * gw && p.y2 - p.y1 >= 0.8 * gh && p.x2 - p.x1 >= 12 && p.pixels <= p.area / 3);
  if (ring) {
    const m = 0.1 * Math.min(ring.x2 - ring.x1, ring.y2 - ring.y1);
    // Held: inside the ring's box, centred well inside it (not an arc of the ring broken off), reaching close to the ring or not.
    const held = parts.filter((p) => {
      const [cx, cy] = [(p.x1 + p.x2) / 2, (p.y1 + p.y2) / 2];
      return p !== ring && p.pixels >= 4 && p.x1 > ring.x1 && p.x2 < ring.x2 && p.y1 > ring.y1 && p.y2 < ring.y2 && cx >= ring.x1 + 2 * m && cx <= ring.x2 - 2 * m && cy >= ring.y1 + 2 * m && cy <= ring.y2 - 2 * m;
    });
    return held.length ? partsBox(held) : undefined;
  }
  const main = parts.reduce((a, p) => (p.area > a.area ? p : a), parts[0]!);
  const clear = (p: Part) => {
    const [cx, cy] = [(p.x1 + p.x2) / 2, (p.y1 + p.y2) / 2];
    return cx < main.x1 || cx > main.x2 || cy < main.y1 || cy > main.y2;
  };
  const arc = (p: Part) => p !== main && clear(p) && (p.x1 <= inside[0] || p.y1 <= inside[1] || p.x2 >= inside[2] || p.y2 >= inside[3]);
  const arcs = parts.filter(arc);
  if (arcs.length < 2) return undefined;
  const rest = parts.filter((p) => !arcs.includes(p));
  const b = partsBox(rest);
  return b[2] - b[0] < 0.85 * gw || b[3] - b[1] < 0.85 * gh ? b : undefined;
}

/** The box around pieces, in crop pixels. */
function partsBox(ps: readonly Part[]): readonly [number, number, number, number] {
  return [Math.min(...ps.map((p) => p.x1)), Math.min(...ps.map((p) => p.y1)), Math.max(...ps.map((p) => p.x2)), Math.max(...ps.map((p) => p.y2))];
}

interface Part {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  pixels: number;
  area: number;
  members: number[];
}

/**
 * The pieces without the element's own frame, which a box drawn a little wider than the element leaves inside the
 * margin: a piece spanning most of the crop both ways whose ink lies along its sides, reaching two of its corners (a
 * circle or a ring reaches none), with ink inside it; and thin strokes hugging the crop's sides, long or cut by its
 * margin (what the margin left of a frame); `m`: that margin. All of them where nothing else is inked.
 */
function withoutFrame(parts: Part[], w: number, h: number, m: number): Part[] {
  const frame = parts.find((p) => {
    const [pw, ph] = [p.x2 - p.x1, p.y2 - p.y1];
    if (pw < 0.8 * w || ph < 0.8 * h || pw < 12 || ph < 12) return false;
    const [bx, by] = [Math.max(2, 0.12 * pw), Math.max(2, 0.12 * ph)];
    let along = 0;
    const corners = new Set<number>();
    for (const i of p.members) {
      const x = i % w;
      const y = (i / w) | 0;
      const [l, r, t, b] = [x < p.x1 + bx, x >= p.x2 - bx, y < p.y1 + by, y >= p.y2 - by];
      if (l || r || t || b) along++;
      if ((l || r) && (t || b)) corners.add((l ? 0 : 1) + (t ? 0 : 2));
    }
    if (along < 0.95 * p.pixels || corners.size < 2) return false;
    return parts.some((q) => q !== p && q.x1 >= p.x1 + bx && q.x2 <= p.x2 - bx && q.y1 >= p.y1 + by && q.y2 <= p.y2 - by);
  });
  const stroke = (p: Part) => {
    const [pw, ph] = [p.x2 - p.x1, p.y2 - p.y1];
    // (long, or cut by the margin at one end: it goes on beyond it)
    const [cutX, cutY] = [p.x1 <= m || p.x2 >= w - m, p.y1 <= m || p.y2 >= h - m];
    const vertical = ph >= Math.max(4, cutY ? 0.2 * h : 0.6 * h) && pw <= Math.max(3, 0.1 * w) && (p.x2 <= 0.15 * w || p.x1 >= 0.85 * w);
    const horizontal = pw >= Math.max(4, cutX ? 0.2 * w : 0.6 * w) && ph <= Math.max(3, 0.1 * h) && (p.y2 <= 0.15 * h || p.y1 >= 0.85 * h);
    return vertical || horizontal;
  };
  // A rounded frame's corners: a few pixels in a corner of the crop, left inside the margin where the sides curve in.
  const cornerBit = (p: Part) => p.pixels <= 8 && (p.x1 <= m + 1 || p.x2 >= w - m - 1) && (p.y1 <= m + 1 || p.y2 >= h - m - 1);
  const kept = parts.filter((p) => p !== frame && !stroke(p) && !cornerBit(p));
  return kept.length ? kept : parts;
}

/** 8-connected pieces of a mask, with their pixels and the areas of their boxes. */
function components(mask: Uint8Array, w: number, h: number): Part[] {
  return componentsWithPixels(mask, w, h).map((c) => ({ ...c, area: (c.x2 - c.x1) * (c.y2 - c.y1) }));
}

/** A box's whole pixels inside the image: [x1, y1, x2, y2), rounded outward, clamped. */
function pixelBox(img: { width: number; height: number }, box: BBox): [number, number, number, number] {
  return [Math.max(0, Math.floor(box[0])), Math.max(0, Math.floor(box[1])), Math.min(img.width, Math.ceil(box[2])), Math.min(img.height, Math.ceil(box[3]))];
}

/** A colour far from grey: a glyph's or an accent's hue, not a shade. */
function saturatedPixel(r: number, g: number, b: number): boolean {
  const spread = Math.max(r, g, b) - Math.min(r, g, b);
  return spread >= 60 && spread / Math.max(r, g, b) >= 0.35;
}

/**
 * The share of a box's pixels in a saturated colour (an accent: a selected tab's coloured bar or fill, a checked
 * toggle's), 0–1; 0 for an empty box.
 */
export function accentShare(frame: Frame, box: BBox): number {
  const img = toRgb(frame);
  const [x1, y1, x2, y2] = pixelBox(img, box);
  if (x2 - x1 < 2 || y2 - y1 < 2) return 0;
  let n = 0;
  let all = 0;
  for (let y = y1; y < y2; y++)
    for (let x = x1; x < x2; x++, all++) {
      const o = (y * img.width + x) * 3;
      const [r, g, b] = [img.data[o]!, img.data[o + 1]!, img.data[o + 2]!];
      if (saturatedPixel(r, g, b)) n++;
    }
  return n / all;
}

/**
 * How strongly an element's ink stands out from its background, 0–255: the 90th percentile of the pixels' colour
 * distance (the largest of the three channels') from the colour of the box's most common luminance (its fill).
 * Greyed-out controls (a disabled field's pale value, a disabled check box's grey caption) stand out less than their
 * enabled neighbours; a coloured word (a danger button's red on a dark fill) stands out as its colour does.
 */
export function inkContrast(frame: Frame, box: BBox): number {
  const img = toRgb(frame);
  const [x1, y1, x2, y2] = pixelBox(img, box);
  if (x2 - x1 < 2 || y2 - y1 < 2) return 0;
  const step = Math.max(1, Math.floor(Math.sqrt(((x2 - x1) * (y2 - y1)) / 20000)));
  const grey = toGrey(img);
  const at: number[] = [];
  const counts = new Uint32Array(256);
  const lum = (o: number) => grey[o / 3]!;
  for (let y = y1; y < y2; y += step)
    for (let x = x1; x < x2; x += step) {
      const o = (y * img.width + x) * 3;
      at.push(o);
      counts[lum(o)]!++;
    }
  let bgLum = 0;
  for (let l = 1; l < 256; l++) if (counts[l]! > counts[bgLum]!) bgLum = l;
  // The background's colour (of the commonest grey level): ink is told from it by colour too, a red word on a dark fill
  // standing out as much as a white one.
  const bgPixels = at.filter((o) => lum(o) === bgLum);
  const bg = [0, 1, 2].map((c) => median(bgPixels.map((o) => img.data[o + c]!)));
  const d = at.map((o) => Math.max(Math.abs(img.data[o]! - bg[0]!), Math.abs(img.data[o + 1]! - bg[1]!), Math.abs(img.data[o + 2]! - bg[2]!))).sort((a, b) => a - b);
  // Ink is a small share of a box: its strongest tenth, not the mean (mostly background).
  const ink = d.filter((x) => x > 24);
  return ink.length ? ink[Math.floor(0.9 * (ink.length - 1))]! : 0;
}

/**
 * A box's fill and the colour around it, as grey levels: the commonest level inside the box's inner part (its fill, text
 * and frame aside) and the median of a ring of pixels a little outside it (the page or panel it sits on). Undefined for
 * a box too small or touching the image's edge.
 */
export function fillAndSurround(frame: Frame, box: BBox): { fill: number; around: number } | undefined {
  const img = toRgb(frame);
  const [x1, y1, x2, y2] = pixelBox(img, box);
  const pad = Math.max(3, Math.round(0.15 * (y2 - y1)));
  if (x2 - x1 < 8 || y2 - y1 < 8 || x1 - pad < 0 || y1 - pad < 0 || x2 + pad > img.width || y2 + pad > img.height) return undefined;
  const grey = toGrey(img);
  const lum = (x: number, y: number) => grey[y * img.width + x]!;
  const counts = new Uint32Array(256);
  const [ix, iy] = [Math.max(2, Math.round(0.1 * (x2 - x1))), Math.max(2, Math.round(0.2 * (y2 - y1)))];
  for (let y = y1 + iy; y < y2 - iy; y++) for (let x = x1 + ix; x < x2 - ix; x++) counts[lum(x, y)]!++;
  let fill = 0;
  for (let l = 1; l < 256; l++) if (counts[l]! > counts[fill]!) fill = l;
  const ring: number[] = [];
  for (let x = x1 - pad; x < x2 + pad; x++) ring.push(lum(x, y1 - pad), lum(x, y2 + pad - 1));
  for (let y = y1 - pad; y < y2 + pad; y++) ring.push(lum(x1 - pad, y), lum(x2 + pad - 1, y));
  return { fill, around: median(ring) };
}

/**
 * Whether a toggle is drawn as a switch (a track wider than tall, its knob inside it) rather than a box or a ring: the
 * first piece of ink at the element's left end at least half as tall as the element, against the colour around the
 * element (the median of a ring of pixels just outside it), is 1.5 times as wide as tall or more. A caption's letters
 * come after the indicator. For « the switch » among check boxes; general geometry, read from the pixels only.
 */
export function switchShaped(frame: Frame, box: BBox): boolean {
  const img = toRgb(frame);
  const pad = Math.max(3, Math.round(0.2 * (box[3] - box[1])));
  const x1 = Math.max(0, Math.floor(box[0]) - pad);
  const y1 = Math.max(0, Math.floor(box[1]) - pad);
  const x2 = Math.min(img.width, Math.ceil(box[2]) + pad);
  const y2 = Math.min(img.height, Math.ceil(box[3]) + pad);
  const [w, h] = [x2 - x1, y2 - y1];
  if (w < 4 || h < 4) return false;
  const px = img.data;
  const at = (x: number, y: number) => ((y1 + y) * img.width + x1 + x) * 3;
  const ring: number[][] = [[], [], []];
  for (let x = 0; x < w; x++) for (const y of [0, h - 1]) for (let c = 0; c < 3; c++) ring[c]!.push(px[at(x, y) + c]!);
  for (let y = 0; y < h; y++) for (const x of [0, w - 1]) for (let c = 0; c < 3; c++) ring[c]!.push(px[at(x, y) + c]!);
  const bg = ring.map((v) => median(v));
  const mask = new Uint8Array(w * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const o = at(x, y);
      if (Math.max(Math.abs(px[o]! - bg[0]!), Math.abs(px[o + 1]! - bg[1]!), Math.abs(px[o + 2]! - bg[2]!)) > 20) mask[y * w + x] = 1;
    }
  const tall = components(mask, w, h).filter((p) => p.y2 - p.y1 >= 0.5 * (box[3] - box[1]) && p.x1 <= pad + 0.3 * (box[2] - box[0]));
  const first = tall.sort((a, b) => a.x1 - b.x1)[0];
  return !!first && first.x2 - first.x1 >= 1.5 * (first.y2 - first.y1);
}
