// Recorded screens embedded at several zooms, anchored top-left. A live screen at ×1.5 or ×2
// scale (HiDPI, GDK_SCALE, browser zoom) shows the top-left part of the recorded layout, larger;
// comparing it with the recording's top-left crops as well as the whole finds it again.
// Measured on the dev corpus (bench/embed, complete mode): theme/scale pairs at cosine ≥ 0.85
// 0.778 → 1.000 on gtk + govuk (a GTK window clipped at ×2 shows its top-left), no gain on held
// admin-lte (0.773 both): a web page at ×2 is laid out again for a narrower viewport, and shows
// no top-left part of the recorded layout.
import { bboxContains, type BBox } from "../core/geometry.js";
import { makeFrame, type Frame } from "../core/frame.js";
import type { ScreenStateMode } from "../core/schemas/screenstate.js";
import type { MultiModalEmbeddingManager, StateEmbedding, StateInput } from "./multimodal-embedding-manager.js";

export const DEFAULT_ZOOMS = [1, 1.5, 2] as const;

/** Top-left crop of 1/zoom of the frame (same origin and scale). */
export function topLeftCrop(frame: Frame, zoom: number): Frame {
  if (zoom === 1) return frame;
  const w = Math.max(1, Math.round(frame.width / zoom));
  const h = Math.max(1, Math.round(frame.height / zoom));
  const c = frame.channels;
  const out = new Uint8Array(w * h * c);
  for (let row = 0; row < h; row++) out.set(frame.data.subarray(row * frame.width * c, (row * frame.width + w) * c), row * w * c);
  return makeFrame({ data: out, width: w, height: h, channels: c, scaleFactor: frame.scaleFactor, origin: frame.origin });
}

/** textBoxes (perception's text_boxes) let each crop keep only the text it shows. */
export type PyramidInput = StateInput;

export async function embedPyramid(manager: MultiModalEmbeddingManager, input: PyramidInput, mode: ScreenStateMode, zooms: readonly number[] = DEFAULT_ZOOMS) {
  const out: Array<{ zoom: number; provider: string; vector: Float32Array; components: StateEmbedding["components"]; detectedText: readonly string[] }> = [];
  for (const zoom of zooms) {
    const frame = topLeftCrop(input.frame, zoom);
    const region: BBox = [0, 0, frame.width, frame.height];
    const textBoxes = input.textBoxes?.filter((t) => bboxContains(region, t.bbox));
    const detectedText = textBoxes ? textBoxes.map((t) => t.text) : input.detectedText;
    const elements = input.elements?.filter((e) => bboxContains(region, e.bbox));
    const emb = await manager.embed({ ...input, frame, detectedText, ...(textBoxes ? { textBoxes } : {}), ...(elements ? { elements } : {}) }, mode);
    out.push({ zoom, provider: emb.provider, vector: emb.vector, components: emb.components, detectedText: detectedText ?? [] });
  }
  return out;
}
