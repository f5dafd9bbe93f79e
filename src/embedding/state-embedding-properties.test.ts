// Properties 13 and 14 of the design on synthetic screens with the product's state embedder
// (layout_v2 image, ocr_text_v1 screen text, n-gram title, UI layout, context; default weights),
// given what perception would read: the text lines and element boxes of the screen.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { makeFrame, type Frame } from "../core/frame.js";
import type { BBox } from "../core/geometry.js";
import { cosine } from "../core/vectors.js";
import { LayoutImageEmbedder } from "./layout-image-embedder.js";
import { MultiModalEmbeddingManager, type FusionWeights, type StateInput } from "./multimodal-embedding-manager.js";
import { NgramTextEmbedder } from "./ngram-text-embedder.js";
import { OcrTextEmbedder } from "./ocr-text-embedder.js";

const DIM = 256;
const embedder = (weights: Partial<FusionWeights> = {}) => new MultiModalEmbeddingManager(new LayoutImageEmbedder(DIM), new NgramTextEmbedder(DIM), { screenText: new OcrTextEmbedder(DIM), weights });
const RUNS = { numRuns: 100 };

interface Theme {
  bg: number;
  panel: number;
  border: number;
  text: number;
}
const LIGHT: Theme = { bg: 245, panel: 255, border: 222, text: 30 };
// Not an inverse: borders and panels change contrast, a dark mode's own choices.
const DARK: Theme = { bg: 60, panel: 52, border: 75, text: 232 };

/** A screen: panels at seeded places, each holding lines of text; perception reads the lines and finds a field per panel. */
interface Screen {
  panels: BBox[];
  lines: Array<{ text: string; bbox: BBox }>;
}

function screenOf(seed: number, words: string[]): Screen {
  let a = seed | 1;
  const r = () => ((a = (Math.imul(a, 1103515245) + 12345) | 0), (a >>> 0) / 4294967296);
  const panels: BBox[] = [];
  const lines: Screen["lines"] = [];
  let k = 0;
  for (let i = 0; i < 4; i++) {
    const x = 10 + Math.floor(r() * 360);
    const y = 40 + Math.floor(r() * 200);
    const p: BBox = [x, y, x + 110 + Math.floor(r() * 140), y + 60 + Math.floor(r() * 50)];
    panels.push(p);
    for (let ly = p[1] + 10; words.length && ly + 10 < p[3] - 20; ly += 18) {
      const text = [words[k++ % words.length], words[k++ % words.length]].join(" ");
      lines.push({ text, bbox: [p[0] + 8, ly, Math.min(p[2] - 8, p[0] + 8 + text.length * 7), ly + 10] });
    }
  }
  return { panels, lines };
}

/** The screen drawn in a theme, at a scale, with its content moved by (dx, dy); what perception reads, in the same pixels. */
function render(s: Screen, theme: Theme, opts: { scale?: number; dx?: number; dy?: number } = {}): StateInput {
  const scale = opts.scale ?? 1;
  const w = Math.round(640 * scale);
  const h = Math.round(360 * scale);
  const at = (b: BBox): BBox => [Math.round(b[0] * scale + (opts.dx ?? 0)), Math.round(b[1] * scale + (opts.dy ?? 0)), Math.round(b[2] * scale + (opts.dx ?? 0)), Math.round(b[3] * scale + (opts.dy ?? 0))];
  const data = new Uint8Array(w * h * 4).fill(theme.bg);
  for (let i = 3; i < data.length; i += 4) data[i] = 255;
  const rect = (b: BBox, v: number) => {
    for (let y = Math.max(0, b[1]); y < Math.min(h, b[3]); y++) for (let x = Math.max(0, b[0]); x < Math.min(w, b[2]); x++) data.set([v, v, v], (y * w + x) * 4);
  };
  rect(at([0, 0, 640, 28]), theme.border); // a header bar
  for (const p of s.panels) {
    rect(at(p), theme.border);
    rect(at([p[0] + 1, p[1] + 1, p[2] - 1, p[3] - 1]), theme.panel);
  }
  for (const l of s.lines) rect(at(l.bbox), theme.text);
  const frame: Frame = makeFrame({ data, width: w, height: h, channels: 4 });
  const lines = s.lines.map((l) => ({ text: l.text, bbox: at(l.bbox) }));
  const elements = s.panels.map((p, i) => ({ schema_version: "uielement_v1" as const, element_id: `el_${i}`, type: "text_input" as const, role: "field", bbox: [...at([p[0] + 8, p[3] - 18, p[2] - 8, p[3] - 6])] as [number, number, number, number], label: "", confidence: 0.5, detection_method: "heuristic_rectangle" }));
  return { frame, detectedText: lines.map((l) => l.text), textBoxes: lines, elements, windowTitle: "Dossiers - Clinique Demo", context: { appName: "clinique", tags: [] } };
}

const word = fc.stringMatching(/^[A-Za-zéèàç]{3,10}$/);
const words = fc.uniqueArray(word, { minLength: 12, maxLength: 20, selector: (w) => w.toLowerCase() });

describe("state embedding properties (synthetic screens, the product's embedder)", () => {
  it("property 13: a light variation of a screen — dark theme, ±10 % size, content moved by 20 px — keeps cosine ≥ 0.85", async () => {
    const m = embedder();
    await fc.assert(
      fc.asyncProperty(fc.integer(), words, fc.constantFrom("dark", "size-10", "size+10", "shift"), async (seed, ws, kind) => {
        const s = screenOf(seed, ws);
        const base = await m.embed(render(s, LIGHT));
        const v = kind === "dark" ? render(s, DARK) : kind === "shift" ? render(s, LIGHT, { dx: 20, dy: 20 }) : render(s, LIGHT, { scale: kind === "size-10" ? 0.9 : 1.1 });
        expect(cosine(base.vector, (await m.embed(v)).vector)).toBeGreaterThanOrEqual(0.85);
      }),
      RUNS,
    );
  });

  it("property 14: two different screens of one app — same window title, same application — have cosine ≤ 0.70", async () => {
    const m = embedder();
    await fc.assert(
      fc.asyncProperty(fc.integer(), fc.integer(), words, words, async (s1, s2, w1, w2) => {
        fc.pre(s1 !== s2 && !w1.some((w) => w2.map((x) => x.toLowerCase()).includes(w.toLowerCase())));
        const a = await m.embed(render(screenOf(s1, w1), LIGHT));
        const b = await m.embed(render(screenOf(s2, w2), LIGHT));
        expect(cosine(a.vector, b.vector)).toBeLessThanOrEqual(0.7);
      }),
      RUNS,
    );
  });

  it("property 14 on screens without text: two screens of one app that show no text and look different (image cosine ≤ 0.6) keep cosine ≤ 0.70 — the text's weight goes to the image, the shared title and app do not decide", async () => {
    const m = embedder();
    const image = new LayoutImageEmbedder(DIM);
    await fc.assert(
      fc.asyncProperty(fc.integer(), fc.integer(), async (s1, s2) => {
        const ia = render(screenOf(s1, []), LIGHT);
        const ib = render(screenOf(s2, []), LIGHT);
        fc.pre(cosine(image.embedSync(ia.frame), image.embedSync(ib.frame)) <= 0.6);
        const a = await m.embed(ia);
        expect(cosine(a.vector, (await m.embed(ib)).vector)).toBeLessThanOrEqual(0.7);
        expect(cosine(a.vector, (await m.embed(render(screenOf(s1, []), DARK))).vector)).toBeGreaterThanOrEqual(0.85);
      }),
      RUNS,
    );
  });
});
