// Recorded screens embedded as a live screen may show them at another scale. Two ways a screen
// grows (HiDPI, GDK_SCALE, browser zoom):
//  - "top-left": a window laid out once shows the top-left part of the recorded layout, larger
//    (a GTK or Qt window clipped at ×2);
//  - "top": a web page is laid out again for a viewport 1/zoom as wide: its text reflows into the
//    narrower width and what fits shows the top of the page, the full width's content (a side
//    column folded or squeezed), so the band of the recording's top 1/zoom holds what it shows.
// Comparing a live screen with these crops as well as with the whole finds it again.
// Measured by bench/embed (complete mode, `npm run bench -- embed`): theme/scale pairs at cosine
// ≥ 0.85 against the recorded vector / the pyramid: gtk 0.905 / 1.000, govuk 0.333 / 1.000,
// admin-lte 0.773 / 0.955 (0.773 with top-left crops alone: its pages at ×2 fold their side bar
// and reflow), generated sites held out 0.750 / 1.000.
import { bboxContains, type BBox } from "../core/geometry.js";
import { cropFrame, type Frame } from "../core/frame.js";
import type { ScreenStateMode } from "../core/schemas/screenstate.js";
import type { MultiModalEmbeddingManager, StateEmbedding, StateInput } from "./multimodal-embedding-manager.js";

/** A crop of the recorded screen: its top-left 1/zoom, or its top band 1/zoom high. */
export interface PyramidView {
  zoom: number;
  anchor: "top-left" | "top";
}
export const DEFAULT_VIEWS: readonly PyramidView[] = [
  { zoom: 1, anchor: "top-left" },
  { zoom: 1.5, anchor: "top-left" },
  { zoom: 2, anchor: "top-left" },
  { zoom: 1.5, anchor: "top" },
  { zoom: 2, anchor: "top" },
];

/** The part of the frame a view shows: its top-left 1/zoom, or its top band 1/zoom high (same origin and scale). */
export function viewCrop(frame: Frame, view: PyramidView): Frame {
  if (view.zoom === 1) return frame;
  const h = Math.max(1, Math.round(frame.height / view.zoom));
  const w = view.anchor === "top" ? frame.width : Math.max(1, Math.round(frame.width / view.zoom));
  return cropFrame(frame, [0, 0, w, h]);
}

/** Top-left crop of 1/zoom of the frame. */
export const topLeftCrop = (frame: Frame, zoom: number): Frame => viewCrop(frame, { zoom, anchor: "top-left" });

/** textBoxes (perception's text_boxes) let each crop keep only the text it shows. */
export type PyramidInput = StateInput;

/** The state input of one view: its crop, with only the text and elements inside it. */
export function viewInput(input: PyramidInput, view: PyramidView): StateInput {
  const frame = viewCrop(input.frame, view);
  const region: BBox = [0, 0, frame.width, frame.height];
  const textBoxes = input.textBoxes?.filter((t) => bboxContains(region, t.bbox));
  const detectedText = textBoxes ? textBoxes.map((t) => t.text) : input.detectedText;
  const elements = input.elements?.filter((e) => bboxContains(region, e.bbox));
  return { ...input, frame, ...(detectedText ? { detectedText } : {}), ...(textBoxes ? { textBoxes } : {}), ...(elements ? { elements } : {}) };
}

/** The views of the pyramid other than the whole screen. */
export const CROP_VIEWS: readonly PyramidView[] = DEFAULT_VIEWS.filter((v) => v.zoom !== 1);

export async function embedPyramid(manager: MultiModalEmbeddingManager, input: PyramidInput, mode: ScreenStateMode, views: readonly PyramidView[] = DEFAULT_VIEWS) {
  const out: Array<PyramidView & { provider: string; vector: Float32Array; components: StateEmbedding["components"]; detectedText: readonly string[] }> = [];
  for (const view of views) {
    const vi = viewInput(input, view);
    const emb = await manager.embed(vi, mode);
    out.push({ ...view, provider: emb.provider, vector: emb.vector, components: emb.components, detectedText: vi.detectedText ?? [] });
  }
  return out;
}
