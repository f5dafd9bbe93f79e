import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { makeFrame, type Frame } from "../core/frame.js";
import { EMBEDDING_COMPONENT_KEYS } from "../core/schemas/screenstate.js";
import { cosine, l2Norm } from "../core/vectors.js";
import { LayoutImageEmbedder } from "./layout-image-embedder.js";
import { COMPONENTS, MultiModalEmbeddingManager } from "./multimodal-embedding-manager.js";
import { NgramTextEmbedder } from "./ngram-text-embedder.js";
import { persistStateEmbedding } from "./state-embedding-record.js";

/** A synthetic screen: background plus a few filled rectangles (windows, buttons, text bars). */
function screen(seed: number, w = 320, h = 180, opts: { dark?: boolean } = {}): Frame {
  let a = seed | 1;
  const r = () => ((a = (Math.imul(a, 1103515245) + 12345) | 0), (a >>> 0) / 4294967296);
  const data = new Uint8Array(w * h * 4).fill(opts.dark ? 30 : 235);
  for (let i = 3; i < data.length; i += 4) data[i] = 255;
  for (let k = 0; k < 12; k++) {
    const x = Math.floor(r() * (w - 20));
    const y = Math.floor(r() * (h - 10));
    const rw = 10 + Math.floor(r() * (w / 3));
    const rh = 4 + Math.floor(r() * (h / 4));
    const v = opts.dark ? 255 - Math.floor(r() * 200) : Math.floor(r() * 200);
    for (let yy = y; yy < Math.min(h, y + rh); yy++) for (let xx = x; xx < Math.min(w, x + rw); xx++) data.set([v, v, v], (yy * w + xx) * 4);
  }
  return makeFrame({ data, width: w, height: h, channels: 4 });
}

/**
 * A web page: a side bar on the left with its menu, cards with borders holding text lines. `layout`
 * 0 and 1 are two pages of one site (same side bar, different cards and text).
 */
function page(c: { bg: number; bar: number; barText: number; card: number; border: number; text: number }, layout = 0, w = 640, h = 360): Frame {
  const data = new Uint8Array(w * h * 4).fill(c.bg);
  for (let i = 3; i < data.length; i += 4) data[i] = 255;
  const rect = (x1: number, y1: number, x2: number, y2: number, v: number) => {
    for (let y = y1; y < y2; y++) for (let x = x1; x < x2; x++) data.set([v, v, v], (y * w + x) * 4);
  };
  rect(0, 0, 120, h, c.bar);
  for (let i = 0; i < 12; i++) rect(16, 20 + i * 26, 16 + 40 + ((i * 37) % 50), 30 + i * 26, c.barText);
  const cards = layout === 0 ? [[140, 20, 620, 120], [140, 140, 370, 340], [390, 140, 620, 340]] : [[140, 20, 300, 340], [320, 20, 620, 200], [320, 220, 620, 340]];
  for (const [x1, y1, x2, y2] of cards as Array<[number, number, number, number]>) {
    rect(x1, y1, x2, y2, c.border);
    rect(x1 + 1, y1 + 1, x2 - 1, y2 - 1, c.card);
    for (let y = y1 + 14; y + 8 < y2 - 8; y += 22) rect(x1 + 12, y, Math.min(x2 - 12, x1 + 12 + 60 + ((y * 13) % 120)), y + 8, c.text);
  }
  return makeFrame({ data, width: w, height: h, channels: 4 });
}

const DIM = 256;
const manager = (weights = {}) => new MultiModalEmbeddingManager(new LayoutImageEmbedder(DIM), new NgramTextEmbedder(DIM), { weights });
const textArb = fc.array(fc.stringMatching(/^[A-Za-zéèàç]{2,9}$/), { maxLength: 8 }).map((w) => w.join(" "));
const RUNS = { numRuns: 100 };

describe("multimodal state embeddings", () => {
  it("property 7: a complete state embedding has all five components, each with a provider and a vector_id", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer(), textArb, textArb, async (seed, text, title) => {
        const emb = await manager().embed({ frame: screen(seed), detectedText: [text], windowTitle: title });
        expect(Object.keys(emb.components).sort()).toEqual([...COMPONENTS].sort());
        const written: string[] = [];
        const record = await persistStateEmbedding(emb, `screen_${seed}`, async (id) => void written.push(id));
        for (const k of EMBEDDING_COMPONENT_KEYS) {
          expect(record.components?.[k].provider).toBeTruthy();
          expect(record.components?.[k].vector_id).toMatch(/^data\/embeddings\/screens\/\w+\/screen_-?\d+\.npy$/);
        }
        expect(new Set(written).size).toBe(6);
      }),
      RUNS,
    );
  });

  it("property 41: every component is stored separately with its own provider and vector", async () => {
    const stored = new Map<string, { provider: string; vector: Float32Array }>();
    const emb = await manager().embed({ frame: screen(7), detectedText: ["Factures"], windowTitle: "Factures - Clinique" });
    const record = await persistStateEmbedding(emb, "screen_x", async (id, provider, vector) => void stored.set(id, { provider, vector }));
    for (const name of COMPONENTS) {
      const ref = record.components?.[`${name}_embedding` as (typeof EMBEDDING_COMPONENT_KEYS)[number]];
      expect(stored.get(ref?.vector_id as string)?.provider).toBe(emb.components[name]?.provider);
      expect(Array.from(stored.get(ref?.vector_id as string)?.vector ?? [])).toEqual(Array.from(emb.components[name]?.vector ?? []));
    }
  });

  it("property 10: the workflow context is part of the state embedding", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer(), fc.stringMatching(/^WF_[a-z]{3,10}$/), async (seed, wf) => {
        const m = manager();
        const without = await m.embed({ frame: screen(seed), windowTitle: "t" });
        const withCtx = await m.embed({ frame: screen(seed), windowTitle: "t", context: { workflowCandidate: wf, tags: ["facturation"] } });
        expect(l2Norm(withCtx.components.context?.vector ?? [])).toBeCloseTo(1, 5);
        expect(cosine(without.vector, withCtx.vector)).toBeLessThan(0.9999);
      }),
      RUNS,
    );
  });

  it("property 11: the state embedding has L2 norm 1 ± 0.001", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer(), textArb, textArb, async (seed, text, title) => {
        const emb = await manager().embed({ frame: screen(seed), detectedText: [text], windowTitle: title });
        expect(Math.abs(l2Norm(emb.vector) - 1)).toBeLessThanOrEqual(0.001);
      }),
      RUNS,
    );
  });

  it("property 12: the state embedding always has the configured dimension", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer(), fc.constantFrom(64, 128, 512), fc.constantFrom("light", "enriched", "complete") as fc.Arbitrary<"light" | "enriched" | "complete">, async (seed, dim, mode) => {
        const m = new MultiModalEmbeddingManager(new LayoutImageEmbedder(dim), new NgramTextEmbedder(dim));
        expect((await m.embed({ frame: screen(seed), windowTitle: "x" }, mode)).vector.length).toBe(dim);
      }),
      RUNS,
    );
  });

  it("property 22: states with different contexts differ (cosine < 0.95)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer(), textArb, fc.stringMatching(/^WF_[a-z]{4,10}$/), fc.stringMatching(/^WF_[a-z]{4,10}$/), async (seed, text, c1, c2) => {
        fc.pre(c1 !== c2);
        const m = manager();
        const a = await m.embed({ frame: screen(seed), detectedText: [text], windowTitle: "Factures", context: { workflowCandidate: c1 } });
        const b = await m.embed({ frame: screen(seed), detectedText: [text], windowTitle: "Factures", context: { workflowCandidate: c2 } });
        expect(cosine(a.vector, b.vector)).toBeLessThan(0.95);
      }),
      RUNS,
    );
  });

  it("property 23: without context the state embedding is still valid (dimension, unit norm), with a warning", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer(), textArb, async (seed, text) => {
        const emb = await manager().embed({ frame: screen(seed), detectedText: [text], windowTitle: "w" });
        expect(emb.vector.length).toBe(DIM);
        expect(Math.abs(l2Norm(emb.vector) - 1)).toBeLessThanOrEqual(0.001);
        expect(emb.warnings.map((w) => w.component)).toContain("context");
      }),
      RUNS,
    );
  });

  it("property 40: every component is L2-normalised before fusion (or zero and flagged)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer(), textArb, textArb, async (seed, text, title) => {
        const emb = await manager().embed({ frame: screen(seed), detectedText: [text], windowTitle: title, context: { appName: "facturation" } });
        for (const name of COMPONENTS) {
          const n = l2Norm(emb.components[name]?.vector ?? []);
          if (emb.warnings.some((w) => w.component === name)) expect(n).toBe(0);
          else expect(Math.abs(n - 1)).toBeLessThan(1e-5);
        }
      }),
      RUNS,
    );
  });

  it("light and enriched modes are the image alone; a failing component is zeros plus a warning (fallback 3)", async () => {
    const frame = screen(3);
    const light = await manager().embed({ frame }, "light");
    expect(Object.keys(light.components)).toEqual(["image"]);
    expect(light.provider).toBe(new LayoutImageEmbedder(DIM).name);
    const failing = new MultiModalEmbeddingManager(new LayoutImageEmbedder(DIM), { name: "broken", dimensions: DIM, embed: async () => Promise.reject(new Error("model crashed")) });
    const emb = await failing.embed({ frame, detectedText: ["x"], windowTitle: "t" });
    expect(emb.warnings.map((w) => w.component)).toEqual(["text", "title", "ui", "context"]);
    expect(emb.warnings[0]?.reason).toBe("model crashed");
    expect(Math.abs(l2Norm(emb.vector) - 1)).toBeLessThan(0.001);
  });

  it("rejects mismatched dimensions and bad weights with typed errors", () => {
    expect(() => new MultiModalEmbeddingManager(new LayoutImageEmbedder(128), new NgramTextEmbedder(256))).toThrow(/dimension 128 .* 256/);
    expect(() => manager({ image: -1 })).toThrow(/Weight of "image"/);
  });

  it("the layout descriptor is the same for a screen and its dark-theme inverse, and differs between screens", () => {
    const e = new LayoutImageEmbedder(DIM);
    const light = screen(11);
    const inverse = makeFrame({ ...light, data: light.data.map((v, i) => (i % 4 === 3 ? v : 255 - v)) });
    expect(cosine(e.embedSync(light), e.embedSync(inverse))).toBeGreaterThan(0.95);
    expect(cosine(e.embedSync(screen(11)), e.embedSync(screen(12)))).toBeLessThan(0.7);
  });

  it("the layout descriptor holds under a dark theme that is no inverse (a dark side bar stays dark, cards and borders change contrast)", () => {
    const e = new LayoutImageEmbedder(DIM);
    const light = page({ bg: 245, bar: 40, barText: 200, card: 255, border: 222, text: 30 });
    const dark = page({ bg: 60, bar: 40, barText: 200, card: 52, border: 75, text: 232 });
    expect(cosine(e.embedSync(light), e.embedSync(dark))).toBeGreaterThan(0.9);
    // Another page of the same site (same side bar, other content) stays apart.
    expect(cosine(e.embedSync(light), e.embedSync(page({ bg: 245, bar: 40, barText: 200, card: 255, border: 222, text: 30 }, 1)))).toBeLessThan(0.7);
  });

  it("the n-gram text embedding ignores accents and case, and tolerates an OCR slip", () => {
    const t = new NgramTextEmbedder(512);
    expect(cosine(t.embedSync("Créer la facture"), t.embedSync("CREER LA FACTURE"))).toBeCloseTo(1, 6);
    expect(cosine(t.embedSync("Valider la facture"), t.embedSync("Va1ider la facture"))).toBeGreaterThan(0.6);
    expect(cosine(t.embedSync("Valider la facture"), t.embedSync("Supprimer le patient"))).toBeLessThan(0.3);
    expect(l2Norm(t.embedSync("  ... "))).toBe(0);
  });
});

describe("zoom pyramid", () => {
  it("crops the top-left 1/zoom and the top band 1/zoom high of a frame and embeds each crop with only the text it shows", async () => {
    const { topLeftCrop, viewCrop, embedPyramid } = await import("./zoom-pyramid.js");
    const f = screen(5, 300, 200);
    const c = topLeftCrop(f, 2);
    expect([c.width, c.height]).toEqual([150, 100]);
    expect(Array.from(c.data.subarray(0, 8))).toEqual(Array.from(f.data.subarray(0, 8)));
    const band = viewCrop(f, { zoom: 2, anchor: "top" });
    expect([band.width, band.height]).toEqual([300, 100]);
    expect(Array.from(band.data.subarray(0, 300 * 4 * 2))).toEqual(Array.from(f.data.subarray(0, 300 * 4 * 2)));
    const seen: string[] = [];
    const spy = new NgramTextEmbedder(DIM);
    const m = new MultiModalEmbeddingManager(new LayoutImageEmbedder(DIM), { name: spy.name, dimensions: DIM, embed: async (t: string) => (seen.push(t), spy.embedSync(t)) });
    const boxes = [
      { text: "haut", bbox: [10, 10, 40, 20] as const },
      { text: "droite", bbox: [200, 10, 260, 20] as const },
      { text: "bas", bbox: [200, 150, 240, 160] as const },
    ];
    const out = await embedPyramid(m, { frame: f, windowTitle: "w", textBoxes: boxes.map((b) => ({ text: b.text, bbox: [...b.bbox] })) }, "complete");
    expect(out.map((o) => `${o.anchor} ${o.zoom}`)).toEqual(["top-left 1", "top-left 1.5", "top-left 2", "top 1.5", "top 2"]);
    expect(seen.filter((t) => /haut|bas|droite/.test(t))).toEqual(["haut\ndroite\nbas", "haut", "haut", "haut\ndroite", "haut\ndroite"]);
  });
});
