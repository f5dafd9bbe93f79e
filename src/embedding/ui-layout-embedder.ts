// The UI component of a state embedding ("ui_layout_v1"): where perception found text lines and
// interactive elements, in window-relative coordinates (the content's own box, the
// desktop around a window trimmed). What a theme changes (colours, contrast) is not in it by
// construction: the boxes come from OCR and the detector, which read both polarities; what a
// window move or a ±10 % size changes is divided out by the window-relative coordinates.
// Like the image descriptor, each map is pooled, centred and scaled to unit norm, so the cosine
// of two layouts is the mean correlation of their maps.
import type { BBox } from "../core/geometry.js";
import type { Vector } from "../core/vectors.js";
import { fixedProjection, unitMaps } from "./pooled-maps.js";

const LW = 64;
const LH = 36;

export interface LayoutInput {
  /** The window's content box in frame pixels (x1, y1, x2, y2): coordinates are taken relative to it. */
  box: readonly [number, number, number, number];
  textBoxes?: ReadonlyArray<{ bbox: BBox }>;
  elements?: ReadonlyArray<{ bbox: readonly number[] }>;
}

/** Adds the area of each box (in LW×LH cells) to a coverage map. */
function cover(map: Float32Array, b: readonly number[], box: LayoutInput["box"]): void {
  const [bx1, by1, bx2, by2] = box;
  const sx = LW / Math.max(1, bx2 - bx1);
  const sy = LH / Math.max(1, by2 - by1);
  const x1 = Math.max(0, ((b[0] as number) - bx1) * sx);
  const y1 = Math.max(0, ((b[1] as number) - by1) * sy);
  const x2 = Math.min(LW, ((b[2] as number) - bx1) * sx);
  const y2 = Math.min(LH, ((b[3] as number) - by1) * sy);
  if (!(x2 > x1 && y2 > y1)) return;
  for (let y = Math.floor(y1); y < Math.ceil(y2); y++) {
    const h = Math.min(y + 1, y2) - Math.max(y, y1);
    for (let x = Math.floor(x1); x < Math.ceil(x2); x++) {
      const w = Math.min(x + 1, x2) - Math.max(x, x1);
      map[y * LW + x] = (map[y * LW + x] as number) + w * h;
    }
  }
}

/**
 * The descriptor before projection (undefined when there is nothing to place): text-line and
 * element coverage at two scales, and the row and column profiles of both. Element kinds are not
 * drawn apart: a kind with one or two elements on a screen makes a map that one element more or
 * less turns over (a button a model proposed once, a check box the detector missed).
 * Exposed for tests and benches.
 */
export function uiLayoutFeatures(input: LayoutInput): Float32Array | undefined {
  const text = new Float32Array(LW * LH);
  const elements = new Float32Array(LW * LH);
  for (const t of input.textBoxes ?? []) cover(text, t.bbox, input.box);
  for (const e of input.elements ?? []) cover(elements, e.bbox, input.box);
  if (!(input.textBoxes?.length || input.elements?.length)) return undefined;
  const all = Float32Array.from(text, (v, i) => v + (elements[i] as number));
  return unitMaps(LW, LH, [
    { map: text, cols: 16, rows: 9 },
    { map: text, cols: 8, rows: 5 },
    { map: elements, cols: 16, rows: 9 },
    { map: elements, cols: 8, rows: 5 },
    { map: all, cols: 1, rows: 18 }, // row profile
    { map: all, cols: 32, rows: 1 }, // column profile
  ]);
}

export class UiLayoutEmbedder {
  readonly name: string;
  private readonly project: (f: Float32Array) => Vector;

  constructor(readonly dimensions = 512) {
    this.name = `ui_layout_v1_${dimensions}`;
    this.project = fixedProjection(dimensions, 0x1a7047);
  }

  /** The zero vector when perception placed nothing. */
  embed(input: LayoutInput): Vector {
    const f = uiLayoutFeatures(input);
    return f ? this.project(f) : new Float32Array(this.dimensions);
  }
}
