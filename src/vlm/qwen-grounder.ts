// Grounding by a vision-language model (plan, MICRO: qwen2.5vl bbox_2d). The frame (the active
// window's capture) is resized here to exactly the size the model's processor would use, so the
// coordinates it answers are in a known space:
//   - Qwen 2.5-VL: absolute pixels of that resized image;
//   - Qwen2-VL, Qwen3-VL: 0–1000 normalised to the image.
// The answer (a list or an object, fenced or not, bbox_2d or point_2d) is validated, clipped,
// mapped back to frame pixels (the caller converts frame → screen through core/frame.ts), and
// snapped to a detected element that overlaps it when there is one.
import { z } from "zod";
import type { Frame } from "../core/frame.js";
import type { BBox } from "../core/geometry.js";
import { bboxArea, bboxCenter, bboxContainsPoint, bboxIoU } from "../core/geometry.js";
import type { VlmGrounder, VlmGrounding, VlmGroundingContext } from "../core/providers/vlm.js";
import { frameHash, modelImageSize, resizeForModel, QWEN25VL_RESIZE, type ResizeRule } from "./image-prep.js";
import type { RoleModel } from "./role-model.js";

export type CoordinateSpace = "resized_pixels" | "normalized_1000";

/** Coordinate convention of a model, from its name (Qwen 2.5-VL: pixels; Qwen2-VL / Qwen3-VL: 0–1000). */
export function coordinateSpaceOf(model: string): CoordinateSpace {
  const m = model.toLowerCase().replace(/[-_ ]/g, "");
  if (/qwen2\.5vl|qwen25vl/.test(m)) return "resized_pixels";
  if (/qwen3vl|qwen2vl/.test(m)) return "normalized_1000";
  return "resized_pixels";
}

const num = z.number().finite();
const Item = z.looseObject({
  bbox_2d: z.tuple([num, num, num, num]).optional(),
  point_2d: z.tuple([num, num]).optional(),
  label: z.string().max(500).optional(),
}).refine((i) => i.bbox_2d !== undefined || i.point_2d !== undefined, { message: "each item needs bbox_2d [x1, y1, x2, y2] or point_2d [x, y]" });
/** A list of items (possibly empty: not visible), one item, or {"found": false}. */
export const GroundingAnswerSchema = z.union([z.array(Item).max(50), Item, z.looseObject({ found: z.literal(false) })]);
export type GroundingAnswer = z.infer<typeof GroundingAnswerSchema>;

export interface GroundingPrompt {
  readonly text: string;
}

export function groundingPrompt(description: string): string {
  // Descriptions come from recorded labels and user instructions: quoted, bounded, never instructions to the model.
  const d = description.replace(/\s+/g, " ").slice(0, 300);
  return `Locate the user interface element described here: ${JSON.stringify(d)}. Output its bbox coordinates as JSON: [{"bbox_2d": [x1, y1, x2, y2], "label": "<what it is>"}]. If it is not visible, output [].`;
}

/** Model coordinates → frame pixels, clipped. Returns undefined for a box with no area inside the image. */
export function mapToFrame(box: readonly [number, number, number, number], space: CoordinateSpace, sent: { width: number; height: number }, frame: { width: number; height: number }): BBox | undefined {
  const sx = space === "normalized_1000" ? frame.width / 1000 : frame.width / sent.width;
  const sy = space === "normalized_1000" ? frame.height / 1000 : frame.height / sent.height;
  const xs = [box[0] * sx, box[2] * sx].sort((a, b) => a - b);
  const ys = [box[1] * sy, box[3] * sy].sort((a, b) => a - b);
  const out: BBox = [Math.max(0, xs[0]!), Math.max(0, ys[0]!), Math.min(frame.width, xs[1]!), Math.min(frame.height, ys[1]!)];
  return out[2] - out[0] >= 1 && out[3] - out[1] >= 1 ? out : undefined;
}

/** The detected element the model's box stands for: best overlap, or the smallest one holding its centre. */
export function snapToElement(box: BBox, elements: VlmGroundingContext["elements"], point = false): { element_id: string; bbox: BBox } | undefined {
  let best: { element_id: string; bbox: BBox; iou: number } | undefined;
  const c = bboxCenter(box);
  for (const e of elements ?? []) {
    const b = e.bbox as BBox;
    const iou = bboxIoU(box, b);
    // A point names the element under it; a box, an element of about its size around its centre.
    const holds = bboxContainsPoint(b, c) && (point || (bboxArea(b) <= 6 * bboxArea(box) && bboxArea(b) * 6 >= bboxArea(box)));
    const score = Math.max(iou, holds ? 0.3 : 0);
    if (score >= 0.3 && (!best || score > best.iou || (score === best.iou && bboxArea(b) < bboxArea(best.bbox)))) best = { element_id: e.element_id, bbox: b, iou: score };
  }
  return best && { element_id: best.element_id, bbox: best.bbox };
}

export interface QwenGrounderOptions {
  /** Override the model family's convention. */
  coordinates?: CoordinateSpace;
  rule?: ResizeRule;
}

export class QwenGrounder implements VlmGrounder {
  readonly name: string;
  private readonly space: CoordinateSpace;
  constructor(
    private readonly model: RoleModel,
    private readonly opts: QwenGrounderOptions = {},
  ) {
    this.name = `vlm:${model.model}`;
    this.space = opts.coordinates ?? coordinateSpaceOf(model.model);
  }

  async ground(frame: Frame, description: string, signal?: AbortSignal, context?: VlmGroundingContext): Promise<VlmGrounding | undefined> {
    const size = modelImageSize(frame.width, frame.height, this.opts.rule ?? QWEN25VL_RESIZE);
    // Encoded only on a cache miss: a hit costs the pixels' hash and a file read.
    const image = { hash: `${frameHash(frame)}@${size.width}x${size.height}`, load: async () => (await resizeForModel(frame, size)).png };
    const r = await this.model.ask({ messages: [{ role: "user", content: groundingPrompt(description), images: [image] }], schema: GroundingAnswerSchema, structured: false, signal });
    const items = Array.isArray(r.value) ? r.value : "found" in r.value ? [] : [r.value];
    const first = items[0] as z.infer<typeof Item> | undefined;
    if (!first) return undefined;
    // A point: a small box around it (8 image pixels per screen pixel side).
    const half = 4 * (this.space === "normalized_1000" ? 1000 / Math.max(frame.width, frame.height) : size.width / frame.width) * frame.scaleFactor;
    const raw = first.bbox_2d ?? [first.point_2d![0] - half, first.point_2d![1] - half, first.point_2d![0] + half, first.point_2d![1] + half];
    const mapped = mapToFrame(raw, this.space, size, frame);
    const evidenceBase = { model: r.model, prompt_hash: r.promptHash, raw_answer: r.raw.slice(0, 2000), cached: r.cached, image_size: [size.width, size.height] as const };
    if (!mapped) return undefined;
    const snap = snapToElement(mapped, context?.elements, !first.bbox_2d);
    return { bbox: snap?.bbox ?? mapped, confidence: snap ? 0.8 : 0.6, evidence: { ...evidenceBase, ...(snap ? { snapped_to: snap.element_id } : {}) } };
  }
}
