// The embed bench's screens: every dev-corpus screenshot cropped to its window (as replay captures
// a window), the light variations of each recorded (light ×1) screen, and what the product's
// perception reads on each of them — every image read by OCR itself, none borrowing another's text.
//
// Families (whole sources held out together): gtk (the GTK apps on the lab desktop), adminlte
// (admin-lte 2 and 3), govuk (GOV.UK components), and generated sites (bench/corpus/sites.ts: one
// site per CSS kit) in two groups chosen before any was measured: sites (tuned on) and sites-held.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import sharp, { type Sharp } from "sharp";
import { readImageFile } from "../../src/capture/png.js";
import { cropFrame, makeFrame, type Frame } from "../../src/core/frame.js";
import { clampBBox, type BBox } from "../../src/core/geometry.js";
import type { UIElement } from "../../src/core/schemas/uielement.js";
import type { StateInput } from "../../src/embedding/multimodal-embedding-manager.js";
import { CORPUS_DIR, readCorpus, type CorpusItem } from "../corpus/build.js";
import { SITES_DIR, SITES_HELD } from "../corpus/sites.js";
import { BENCH_RESULTS } from "../lib.js";

export const FAMILIES = ["gtk", "adminlte", "govuk", "sites", "sites-held"] as const;
export type Family = (typeof FAMILIES)[number];
export const familyOf = (it: Pick<CorpusItem, "source">): Family => {
  if (it.source.startsWith("site-")) return (SITES_HELD as readonly string[]).includes(it.source.slice(5)) ? "sites-held" : "sites";
  return it.source === "gtk" ? "gtk" : it.source.startsWith("adminlte") ? "adminlte" : "govuk";
};

/** The dev corpus and the generated sites, each image path absolute. */
export const readBenchCorpus = (): CorpusItem[] => [CORPUS_DIR, SITES_DIR].flatMap((dir) => readCorpus(dir).map((it) => ({ ...it, image: resolve(dir, it.image) })));

/** What perception gives the state embedding: text lines (with boxes) and elements, in frame pixels. */
export interface Perceived {
  lines: Array<{ text: string; bbox: BBox }>;
  elements: UIElement[];
}

export interface BenchScreen {
  key: string;
  item: CorpusItem;
  family: Family;
  /** recorded: light ×1 (the recording); variation: a light variation of a recorded screen; change: a real capture under dark theme and/or ×2. */
  kind: "recorded" | "variation" | "change";
  /** The variation's name ("colour", "size-10"…) or the change ("dark-1x", "light-2x", "dark-2x"). */
  what: string;
  /** The recorded screen this one is a variation or change of (itself for a recorded screen). */
  of: string;
  frame: Frame;
  perceived: Perceived;
}

/** The state embedding's input: the real window title and application name, the text and elements read by perception. */
export function stateInput(s: BenchScreen): StateInput {
  return {
    frame: s.frame,
    detectedText: s.perceived.lines.map((l) => l.text),
    textBoxes: s.perceived.lines,
    windowTitle: s.item.window.title,
    elements: s.perceived.elements,
    context: { appName: s.item.window.app, tags: [] },
  };
}

/** The window's pixels, as replay captures them (X11: scale factor 1; the detector estimates the UI's scale). */
export async function windowFrame(it: CorpusItem): Promise<Frame> {
  const full = await readImageFile(resolve(CORPUS_DIR, it.image));
  const box = clampBBox(it.window.bbox, full);
  const f = box[2] - box[0] >= full.width && box[3] - box[1] >= full.height ? full : cropFrame(full, box);
  return makeFrame({ data: f.data, width: f.width, height: f.height, channels: f.channels });
}

async function fromSharp(img: Sharp): Promise<Frame> {
  const { data, info } = await img.ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return makeFrame({ data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height, channels: 4 });
}

/**
 * Light variations of a window (property 13: colour change, size ±10 %, content moved by ±20 px).
 * A moved window is not one: replay captures the window itself, so its pixels do not change.
 */
export async function variations(frame: Frame): Promise<Array<[string, Frame]>> {
  const raw = () => sharp(Buffer.from(frame.data.buffer, frame.data.byteOffset, frame.data.length), { raw: { width: frame.width, height: frame.height, channels: frame.channels } });
  const w = frame.width;
  const h = frame.height;
  return [
    ["colour", await fromSharp(raw().modulate({ hue: 25, brightness: 0.92, saturation: 1.25 }))],
    ["size-10", await fromSharp(raw().resize(Math.round(w * 0.9), Math.round(h * 0.9)))],
    ["size+10", await fromSharp(raw().resize(Math.round(w * 1.1), Math.round(h * 1.1)))],
    // Content moved by 20 px: what comes into view continues the edge pixels (as a scrolled page does).
    ["shift+20", await fromSharp(raw().extend({ left: 20, top: 20, extendWith: "copy" }).extract({ left: 0, top: 0, width: w, height: h }))],
    ["shift-20", await fromSharp(raw().extract({ left: 20, top: 20, width: w - 20, height: h - 20 }).extend({ right: 20, bottom: 20, extendWith: "copy" }))],
  ];
}

/** Hash of the perception code and models: a cached reading is reused only while they are unchanged. */
function perceptionVersion(): string {
  const root = join(fileURLToPath(new URL("../..", import.meta.url)));
  const h = createHash("sha256");
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else if (!name.endsWith(".test.ts")) h.update(`${relative(root, p)}:${st.size}:${name.endsWith(".ts") ? createHash("sha256").update(readFileSync(p)).digest("hex") : st.mtimeMs}\n`);
    }
  };
  for (const d of ["src/perception", "src/cli/commands/perception.ts", "models"]) {
    const p = join(root, d);
    if (!existsSync(p)) continue;
    if (statSync(p).isDirectory()) walk(p);
    else h.update(readFileSync(p));
  }
  return h.digest("hex").slice(0, 16);
}

export type Detect = (frame: Frame) => Promise<Perceived>;

/**
 * Perception results cached by image content and perception version under
 * bench/results/embed-perception/ (RPAV_BENCH_FRESH=1 reads every image again).
 */
export function cachedPerception(detect: Detect): { perceive: Detect; hits: () => number } {
  const dir = join(BENCH_RESULTS, "embed-perception", perceptionVersion());
  mkdirSync(dir, { recursive: true });
  const fresh = process.env.RPAV_BENCH_FRESH === "1";
  let hits = 0;
  return {
    hits: () => hits,
    perceive: async (frame) => {
      const key = createHash("sha256").update(`${frame.width}x${frame.height}x${frame.channels}:`).update(frame.data).digest("hex");
      const file = join(dir, `${key}.json`);
      if (!fresh && existsSync(file)) {
        hits++;
        return JSON.parse(readFileSync(file, "utf8")) as Perceived;
      }
      const p = await detect(frame);
      writeFileSync(file, JSON.stringify(p));
      return p;
    },
  };
}
