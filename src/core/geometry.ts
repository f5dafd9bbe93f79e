// Boxes are [x1, y1, x2, y2] in pixels, x2/y2 exclusive edges (x2 - x1 = width), as in the design's JSON.

export type BBox = readonly [number, number, number, number];
export type Point = readonly [number, number];
export interface Size {
  width: number;
  height: number;
}

export function bboxWidth(b: BBox): number {
  return Math.max(0, b[2] - b[0]);
}
export function bboxHeight(b: BBox): number {
  return Math.max(0, b[3] - b[1]);
}
export function bboxArea(b: BBox): number {
  return bboxWidth(b) * bboxHeight(b);
}
export function bboxCenter(b: BBox): Point {
  return [(b[0] + b[2]) / 2, (b[1] + b[3]) / 2];
}
export function isValidBBox(b: BBox): boolean {
  return b.every(Number.isFinite) && b[2] >= b[0] && b[3] >= b[1];
}

export function bboxIntersection(a: BBox, b: BBox): BBox | undefined {
  const x1 = Math.max(a[0], b[0]);
  const y1 = Math.max(a[1], b[1]);
  const x2 = Math.min(a[2], b[2]);
  const y2 = Math.min(a[3], b[3]);
  return x2 > x1 && y2 > y1 ? [x1, y1, x2, y2] : undefined;
}

/** Intersection over union in [0, 1]; 0 for disjoint or empty boxes. */
export function bboxIoU(a: BBox, b: BBox): number {
  const inter = bboxIntersection(a, b);
  if (!inter) return 0;
  const i = bboxArea(inter);
  const u = bboxArea(a) + bboxArea(b) - i;
  return u > 0 ? i / u : 0;
}

/** The share of `a`'s area that lies inside `b`, in [0, 1]; 0 for an empty `a`. */
export function bboxCoverage(a: BBox, b: BBox): number {
  const inter = bboxIntersection(a, b);
  const area = bboxArea(a);
  return inter && area > 0 ? bboxArea(inter) / area : 0;
}

/** Smallest box containing both. */
export function bboxUnion(a: BBox, b: BBox): BBox {
  return [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[2], b[2]), Math.max(a[3], b[3])];
}

/** True when `inner` lies entirely inside `outer` (edges may touch). */
export function bboxContains(outer: BBox, inner: BBox): boolean {
  return inner[0] >= outer[0] && inner[1] >= outer[1] && inner[2] <= outer[2] && inner[3] <= outer[3];
}

export function bboxContainsPoint(b: BBox, p: Point): boolean {
  return p[0] >= b[0] && p[0] < b[2] && p[1] >= b[1] && p[1] < b[3];
}

/** Clamp a box to a frame of the given size; the result may be empty (zero width or height). */
export function clampBBox(b: BBox, size: Size): BBox {
  const cx = (v: number) => Math.min(Math.max(v, 0), size.width);
  const cy = (v: number) => Math.min(Math.max(v, 0), size.height);
  const x1 = cx(b[0]);
  const y1 = cy(b[1]);
  return [x1, y1, Math.max(x1, cx(b[2])), Math.max(y1, cy(b[3]))];
}

export function translateBBox(b: BBox, dx: number, dy: number): BBox {
  return [b[0] + dx, b[1] + dy, b[2] + dx, b[3] + dy];
}

export function scaleBBox(b: BBox, factor: number): BBox {
  return [b[0] * factor, b[1] * factor, b[2] * factor, b[3] * factor];
}

/** The box grown by `mx` on its left and right and `my` on its top and bottom (negative: shrunk). */
export function padBBox(b: BBox, mx: number, my = mx): BBox {
  return [b[0] - mx, b[1] - my, b[2] + mx, b[3] + my];
}

/** Round outward to integer pixels, so the rounded box still covers the original. */
export function roundBBoxOut(b: BBox): BBox {
  return [Math.floor(b[0]), Math.floor(b[1]), Math.ceil(b[2]), Math.ceil(b[3])];
}

// ---------------------------------------------------------------------------------------------
// Position hints: "at the bottom", "en haut à gauche"…

export type VerticalHint = "top" | "middle" | "bottom";
export type HorizontalHint = "left" | "center" | "right";
export interface PositionHint {
  vertical?: VerticalHint;
  horizontal?: HorizontalHint;
}

const HINT_PATTERNS: ReadonlyArray<[RegExp, Partial<PositionHint>]> = [
  // French first: "en haut à gauche", "en bas", "à droite", "au milieu", "au centre".
  [/\b(en\s+haut|du\s+haut|haut\s+de)\b/, { vertical: "top" }],
  [/\b(en\s+bas|du\s+bas|bas\s+de)\b/, { vertical: "bottom" }],
  [/(?:^|\s)(a|à)\s+gauche\b|\bde\s+gauche\b/, { horizontal: "left" }],
  [/(?:^|\s)(a|à)\s+droite\b|\bde\s+droite\b/, { horizontal: "right" }],
  [/\b(au\s+milieu|au\s+centre)\b/, { vertical: "middle", horizontal: "center" }],
  // English.
  [/\b(top|upper|at\s+the\s+top)\b/, { vertical: "top" }],
  [/\b(bottom|lower|at\s+the\s+bottom)\b/, { vertical: "bottom" }],
  [/\b(left|leftmost)\b/, { horizontal: "left" }],
  [/\b(right|rightmost)\b/, { horizontal: "right" }],
  [/\b(middle|centre|center)\b/, { vertical: "middle", horizontal: "center" }],
];

/**
 * Position hint in an instruction, English or French ("top", "bottom-left", "en haut",
 * "à droite", "en bas à gauche"). Undefined when the text names no position.
 */
export function parsePositionHint(text: string): PositionHint | undefined {
  const t = text.toLowerCase().replace(/[-_]/g, " ");
  const hint: PositionHint = {};
  for (const [re, part] of HINT_PATTERNS) {
    if (!re.test(t)) continue;
    // An explicit vertical/horizontal word wins over the vague "middle/centre".
    if (part.vertical && (!hint.vertical || hint.vertical === "middle")) hint.vertical = part.vertical;
    if (part.horizontal && (!hint.horizontal || hint.horizontal === "center")) hint.horizontal = part.horizontal;
  }
  return hint.vertical || hint.horizontal ? hint : undefined;
}

/** Where a box's centre lies in a frame, by thirds. */
export function positionOf(b: BBox, frame: Size): Required<PositionHint> {
  const [cx, cy] = bboxCenter(b);
  const third = (v: number, total: number) => (v < total / 3 ? 0 : v < (2 * total) / 3 ? 1 : 2);
  return {
    vertical: (["top", "middle", "bottom"] as const)[third(cy, frame.height)],
    horizontal: (["left", "center", "right"] as const)[third(cx, frame.width)],
  };
}

/**
 * How well a box fits a hint, in [0, 1]: 1 at the named edge, 0 at the opposite one, linear in
 * between; the mean over the named axes. A hint naming no axis scores 1.
 */
export function positionHintScore(b: BBox, hint: PositionHint, frame: Size): number {
  const [cx, cy] = bboxCenter(b);
  const fx = frame.width > 0 ? Math.min(Math.max(cx / frame.width, 0), 1) : 0.5;
  const fy = frame.height > 0 ? Math.min(Math.max(cy / frame.height, 0), 1) : 0.5;
  const scores: number[] = [];
  if (hint.vertical) scores.push(hint.vertical === "top" ? 1 - fy : hint.vertical === "bottom" ? fy : 1 - 2 * Math.abs(fy - 0.5));
  if (hint.horizontal) scores.push(hint.horizontal === "left" ? 1 - fx : hint.horizontal === "right" ? fx : 1 - 2 * Math.abs(fx - 0.5));
  return scores.length === 0 ? 1 : scores.reduce((s, v) => s + v, 0) / scores.length;
}

/** True when the box's centre lies in the half (or middle third) the hint names, on every named axis. */
export function matchesPositionHint(b: BBox, hint: PositionHint, frame: Size): boolean {
  const [cx, cy] = bboxCenter(b);
  const inAxis = (v: number, total: number, where: string) =>
    where === "top" || where === "left"
      ? v < total / 2
      : where === "bottom" || where === "right"
        ? v >= total / 2
        : v >= total / 3 && v < (2 * total) / 3;
  return (!hint.vertical || inAxis(cy, frame.height, hint.vertical)) && (!hint.horizontal || inAxis(cx, frame.width, hint.horizontal));
}

/** Elements in reading order: rows (centres within half a height) top to bottom, then left to right. */
export function readingOrder<T extends { readonly bbox: BBox }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => {
    const ha = (a.bbox[3] - a.bbox[1] + b.bbox[3] - b.bbox[1]) / 4;
    const dy = bboxCenter(a.bbox)[1] - bboxCenter(b.bbox)[1];
    return Math.abs(dy) > ha ? dy : bboxCenter(a.bbox)[0] - bboxCenter(b.bbox)[0];
  });
}

