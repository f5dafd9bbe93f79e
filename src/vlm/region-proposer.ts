// Region proposals by the grounding model (the design's RegionProposer "méthode 3", optional and off
// by default): every interactive element of the screen as [{bbox_2d, type, label}], in the same
// known coordinate space as grounding, mapped back to frame pixels and validated (types outside the
// eight become generic_interactive; labels bounded). The detector merges them with its own.
import { z } from "zod";
import type { Frame } from "../core/frame.js";
import type { VlmClient, VlmRegion } from "../core/providers/vlm.js";
import { UI_ELEMENT_TYPES } from "../core/schemas/uielement.js";
import { frameHash, modelImageSize, QWEN25VL_RESIZE, resizeForModel } from "./image-prep.js";
import { coordinateSpaceOf, mapToFrame, type CoordinateSpace } from "./qwen-grounder.js";
import type { RoleModel } from "./role-model.js";

const num = z.number().finite();
const Region = z.looseObject({ bbox_2d: z.tuple([num, num, num, num]), type: z.string().max(40).optional(), label: z.string().max(200).optional() });
const RegionsSchema = z.union([z.array(Region).max(300), z.looseObject({ elements: z.array(Region).max(300) })]);

const PROMPT = `List every interactive element of this application screenshot (buttons, text fields, dropdowns, tabs, checkboxes, radio buttons, links). Output JSON only: [{"bbox_2d": [x1, y1, x2, y2], "type": one of ${JSON.stringify(UI_ELEMENT_TYPES)}, "label": "<its visible text, or what it is>"}].`;

export class VlmRegionProposer implements VlmClient {
  readonly name: string;
  private readonly space: CoordinateSpace;
  constructor(
    private readonly model: RoleModel,
    opts: { coordinates?: CoordinateSpace } = {},
  ) {
    this.name = `vlm:${model.model}`;
    this.space = opts.coordinates ?? coordinateSpaceOf(model.model);
  }

  async proposeRegions(frame: Frame, signal?: AbortSignal): Promise<readonly VlmRegion[]> {
    const size = modelImageSize(frame.width, frame.height, QWEN25VL_RESIZE);
    const image = { hash: `${frameHash(frame)}@${size.width}x${size.height}`, load: async () => (await resizeForModel(frame, size)).png };
    const r = await this.model.ask({ messages: [{ role: "user", content: PROMPT, images: [image] }], schema: RegionsSchema, structured: false, signal });
    const items = Array.isArray(r.value) ? r.value : r.value.elements;
    const out: VlmRegion[] = [];
    for (const it of items) {
      const bbox = mapToFrame(it.bbox_2d, this.space, size, frame);
      if (!bbox) continue;
      const type = (UI_ELEMENT_TYPES as readonly string[]).includes(it.type ?? "") ? it.type! : "generic_interactive";
      out.push({ bbox, type, ...(it.label ? { label: it.label.replace(/\s+/g, " ").trim() } : {}), confidence: 0.6 });
    }
    return out;
  }
}
