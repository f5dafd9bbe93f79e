// Fuses image, OCR text, window title, UI elements and context into one state embedding
// (design: MultiModalEmbeddingManager). Each component is L2-normalised before fusion
// (property 40), fused with configurable weights (0.5 / 0.3 / 0.1 / 0.1 / 0.2 by default, see below), and
// the sum normalised again (property 11) at a fixed dimension (12). A component that is empty or
// fails contributes zeros and is flagged (design fallback 3); the state embedding stays valid.
import { ConfigError, VectorError } from "../core/errors.js";
import type { Frame } from "../core/frame.js";
import type { ImageEmbedder, TextEmbedder } from "../core/providers/embedders.js";
import type { ScreenStateMode } from "../core/schemas/screenstate.js";
import type { UIElementEntry } from "../core/schemas/uielement.js";
import { fuseWeighted, l2Normalize, type Vector } from "../core/vectors.js";
import { fnv1a } from "./ngram-text-embedder.js";

export const COMPONENTS = ["image", "text", "title", "ui", "context"] as const;
export type ComponentName = (typeof COMPONENTS)[number];
export type FusionWeights = Record<ComponentName, number>;
// The design gives context 0.1 "à terme". With 0.1, two states that differ only by context keep a
// cosine of about 0.97, above the 0.95 that property 22 requires (the other weighted components
// hold |S|² ≈ 0.36–0.45, so context needs w²/(|S|² + w²) > 0.05, i.e. w > 0.15). 0.2 meets it.
export const DEFAULT_WEIGHTS: FusionWeights = { image: 0.5, text: 0.3, title: 0.1, ui: 0.1, context: 0.2 };
export const FUSION_PROVIDER = "multimodal_fusion_v1";
export const CONTEXT_PROVIDER = "context_hash_v1";

/**
 * Context is categorical (workflow candidate, tags, application): two different workflow ids must
 * give unrelated vectors even when their names look alike, so each value is hashed whole (signed
 * feature hashing), not by character n-grams as free text is.
 */
export function contextEmbedding(ctx: StateInput["context"], dim: number): Vector {
  const v = new Float32Array(dim);
  if (!ctx) return v;
  const features = [
    ...(ctx.workflowCandidate ? [`wf:${ctx.workflowCandidate}`] : []),
    ...(ctx.tags ?? []).map((t) => `tag:${t}`),
    ...(ctx.appName ? [`app:${ctx.appName}`] : []),
  ];
  for (const f of features) {
    // Each feature spreads over 8 coordinates, so few collisions between different values.
    for (let k = 0; k < 8; k++) {
      const h = fnv1a(`${k}|${f}`);
      v[h % dim] = (v[h % dim] as number) + ((h & 0x80000000) !== 0 ? -1 : 1) * (f.startsWith("wf:") ? 2 : 1);
    }
  }
  return v;
}

export interface StateInput {
  frame: Frame;
  detectedText?: readonly string[];
  windowTitle?: string;
  elements?: readonly UIElementEntry[];
  context?: { workflowCandidate?: string | null; tags?: readonly string[]; appName?: string } | null;
}

export interface ComponentVector {
  provider: string;
  /** L2-normalised (zeros when the component was empty or failed). */
  vector: Vector;
}

export interface StateEmbedding {
  provider: string;
  mode: ScreenStateMode;
  dimensions: number;
  vector: Vector;
  /** All five in complete mode; the image only in light and enriched modes. */
  components: Partial<Record<ComponentName, ComponentVector>>;
  /** Components that were empty or failed, with why. */
  warnings: Array<{ component: ComponentName; reason: string }>;
}

export interface ManagerOptions {
  weights?: Partial<FusionWeights>;
}

export class MultiModalEmbeddingManager {
  readonly weights: FusionWeights;
  readonly dimensions: number;

  constructor(
    private readonly image: ImageEmbedder,
    private readonly text: TextEmbedder,
    opts: ManagerOptions = {},
  ) {
    if (image.dimensions !== text.dimensions) throw new ConfigError(`Image embedder "${image.name}" has dimension ${image.dimensions} but text embedder "${text.name}" has ${text.dimensions}; they must match.`);
    this.dimensions = image.dimensions;
    this.weights = { ...DEFAULT_WEIGHTS, ...opts.weights };
    for (const [k, w] of Object.entries(this.weights)) if (!(w >= 0) || !Number.isFinite(w)) throw new ConfigError(`Weight of "${k}" must be a finite number >= 0, got ${w}.`);
  }

  /** Text that stands for the UI elements: type, role and label of the clickable ones (top 5 if none). */
  static uiText(elements: readonly UIElementEntry[]): string {
    const important = elements.filter((e) => e.tags?.includes("primary_action") || e.properties?.is_clickable);
    return (important.length > 0 ? important : elements.slice(0, 5)).map((e) => `${e.type} ${e.role} ${e.label}`).join(" ; ");
  }

  private async component(name: ComponentName, provider: string, make: () => Promise<Vector>, warnings: StateEmbedding["warnings"]): Promise<ComponentVector> {
    try {
      const { vector, zero } = l2Normalize(await make(), `${name} embedding`);
      if (zero) warnings.push({ component: name, reason: "empty input" });
      return { provider, vector };
    } catch (e) {
      warnings.push({ component: name, reason: e instanceof Error ? e.message : String(e) });
      return { provider, vector: new Float32Array(this.dimensions) };
    }
  }

  async embed(input: StateInput, mode: ScreenStateMode = "complete", signal?: AbortSignal): Promise<StateEmbedding> {
    const warnings: StateEmbedding["warnings"] = [];
    const image = await this.component("image", this.image.name, () => this.image.embed(input.frame, signal), warnings);
    if (mode !== "complete") {
      if (warnings.length > 0) throw new VectorError(`The image embedding failed (${warnings[0]?.reason}); a ${mode} state embedding is the image alone.`);
      return { provider: this.image.name, mode, dimensions: this.dimensions, vector: image.vector, components: { image }, warnings };
    }
    const components: Record<ComponentName, ComponentVector> = {
      image,
      text: await this.component("text", this.text.name, () => this.text.embed((input.detectedText ?? []).join(" "), signal), warnings),
      title: await this.component("title", this.text.name, () => this.text.embed(input.windowTitle ?? "", signal), warnings),
      ui: await this.component("ui", this.text.name, () => this.text.embed(MultiModalEmbeddingManager.uiText(input.elements ?? []), signal), warnings),
      context: await this.component("context", CONTEXT_PROVIDER, async () => contextEmbedding(input.context, this.dimensions), warnings),
    };
    const fused = fuseWeighted(
      COMPONENTS.map((name) => ({ name, vector: components[name].vector, weight: this.weights[name] })),
      this.dimensions,
    );
    return { provider: FUSION_PROVIDER, mode, dimensions: this.dimensions, vector: fused.vector, components, warnings };
  }
}
