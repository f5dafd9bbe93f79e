// A screen is new when its fused state embedding (the same manager that embeds stored states) has
// no stored neighbour at `minCosine` or more. 0.85 is property 13's "same screen" threshold, the
// one `rpav start` checks a recaptured window against.
import { VectorError } from "../core/errors.js";
import type { ScreenNovelty, ScreenNoveltyCheck, ScreenNoveltyInput } from "../core/providers/screen-novelty.js";
import type { VectorSearcher } from "../core/providers/vector-index.js";
import type { MultiModalEmbeddingManager } from "./multimodal-embedding-manager.js";

export const SAME_SCREEN_COSINE = 0.85;

export class StoredStateNovelty implements ScreenNoveltyCheck {
  readonly name = "stored_state_novelty";
  readonly minCosine: number;

  constructor(
    private readonly manager: MultiModalEmbeddingManager,
    private readonly search: VectorSearcher,
    opts: { minCosine?: number } = {},
  ) {
    this.minCosine = opts.minCosine ?? SAME_SCREEN_COSINE;
    if (!(this.minCosine > 0 && this.minCosine <= 1)) throw new VectorError(`The new-screen threshold must be a cosine in (0, 1], got ${this.minCosine}.`);
  }

  async check(input: ScreenNoveltyInput, signal?: AbortSignal): Promise<ScreenNovelty> {
    const emb = await this.manager.embed(
      { frame: input.frame, detectedText: input.detectedText, ...(input.textBoxes ? { textBoxes: input.textBoxes } : {}), elements: input.elements, ...(input.windowTitle !== undefined ? { windowTitle: input.windowTitle } : {}), context: { appName: input.appName ?? "", tags: [] } },
      "complete",
      signal,
    );
    const stored = await this.search.count(emb.provider);
    const [hit] = stored ? await this.search.search(emb.provider, emb.vector, 1) : [];
    const nearest = hit ? { id: hit.id, cosine: hit.score } : null;
    return { novel: !nearest || nearest.cosine < this.minCosine, nearest, minCosine: this.minCosine, stored };
  }
}
