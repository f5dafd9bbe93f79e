// `rpav embed` and `rpav match`: state embeddings and workflow-step matching from the command line.
import { dirname, isAbsolute, join, resolve } from "node:path";
import type { Command } from "commander";
import { z } from "zod";
import { ConfigError, InvalidInputError, SchemaValidationError, UnknownProviderError } from "../../core/errors.js";
import type { ImageEmbedder, TextEmbedder } from "../../core/providers/embedders.js";
import type { MatchableWorkflow } from "../../core/providers/matching.js";
import { DEFAULT_MAX_DOCUMENT_BYTES, formatJsonPath, parseJsonText, readDocument } from "../../core/schemas/documents.js";
import { readBoundedText } from "../../core/bounded-read.js";
import { SCREEN_STATE_MODES, type ScreenStateMode } from "../../core/schemas/screenstate.js";
import { UIElementTypeSchema } from "../../core/schemas/uielement.js";
import { l2Norm } from "../../core/vectors.js";
import { readImageFile } from "../../capture/png.js";
import { LayoutImageEmbedder } from "../../embedding/layout-image-embedder.js";
import { MultiModalEmbeddingManager } from "../../embedding/multimodal-embedding-manager.js";
import { NgramTextEmbedder } from "../../embedding/ngram-text-embedder.js";
import { OcrTextEmbedder } from "../../embedding/ocr-text-embedder.js";
import { embedPyramid, type PyramidInput } from "../../embedding/zoom-pyramid.js";
import { OnnxImageEmbedder } from "../../embedding/onnx-image-embedder.js";
import { OnnxTextEmbedder } from "../../embedding/onnx-text-embedder.js";
import { ElementMatcher, LegacyMatcher, WorkflowMatcher } from "../../matching/workflow-matcher.js";
import type { CliIo } from "./desktop.js";
import { createDetector, resolveDetector } from "./perception.js";
import { resolveDataDir, type GlobalOptions } from "../config.js";
import type { Frame } from "../../core/frame.js";

interface ProviderChoice {
  dim: number;
  imageProvider: string;
  textProvider: string;
  modelDir?: string;
}

/** Providers chosen by name: the composition root's one registry. */
const IMAGE_PROVIDERS: Record<string, (o: ProviderChoice) => Promise<ImageEmbedder>> = {
  layout: async (o) => new LayoutImageEmbedder(o.dim),
  "clip-onnx": async (o) => OnnxImageEmbedder.load(requireModelDir(o)),
};
const TEXT_PROVIDERS: Record<string, (o: ProviderChoice) => Promise<TextEmbedder>> = {
  ngram: async (o) => new NgramTextEmbedder(o.dim),
  "clip-onnx": async (o) => OnnxTextEmbedder.load(requireModelDir(o)),
};

function requireModelDir(o: ProviderChoice): string {
  if (!o.modelDir) throw new ConfigError("The clip-onnx providers need --model-dir <folder> (vision_model.onnx, text_model.onnx, tokenizer.json).");
  return o.modelDir;
}

async function manager(o: ProviderChoice): Promise<MultiModalEmbeddingManager> {
  const image = IMAGE_PROVIDERS[o.imageProvider];
  if (!image) throw new UnknownProviderError("image", o.imageProvider, Object.keys(IMAGE_PROVIDERS));
  const text = TEXT_PROVIDERS[o.textProvider];
  if (!text) throw new UnknownProviderError("text", o.textProvider, Object.keys(TEXT_PROVIDERS));
  // The weight-free text provider reads screen text with the OCR-robust embedder, as the product's state embedder does.
  return new MultiModalEmbeddingManager(await image(o), await text(o), o.textProvider === "ngram" ? { screenText: new OcrTextEmbedder(o.dim) } : {});
}

/** Largest --dim: a CLIP vector is 512–1024 wide; far beyond is a typo, and would allocate without bound. */
const MAX_DIM = 16384;

function parseDim(v: string): number {
  const n = Number(v);
  if (!/^\s*\d+\s*$/.test(v) || !Number.isInteger(n) || n < 1 || n > MAX_DIM) throw new InvalidInputError(`--dim must be a whole number from 1 to ${MAX_DIM} (the vector width, e.g. 512), got "${v.length > 40 ? `${v.slice(0, 40)}…` : v}".`);
  return n;
}

function providerOptions(cmd: Command): Command {
  return cmd
    .option("--dim <n>", `dimension of the weight-free providers (1–${MAX_DIM})`, parseDim, 512)
    .option("--image-provider <name>", `image embedder: ${Object.keys(IMAGE_PROVIDERS).join(", ")}`, "layout")
    .option("--text-provider <name>", `text embedder: ${Object.keys(TEXT_PROVIDERS).join(", ")}`, "ngram")
    .option("--model-dir <dir>", "local folder of an ONNX CLIP-family model (for clip-onnx)");
}

/** Reads the text and elements of a PNG (perception), for the complete mode. */
type Perceive = (frame: Frame) => Promise<Pick<PyramidInput, "detectedText" | "textBoxes" | "elements">>;

/**
 * A PNG, or a screenstate_v1 JSON whose raw.screenshot_path (relative to the JSON) is the image.
 * A PNG in complete mode goes through perception (OCR + elements) when `perceive` is given; its
 * title and app come from --title / --app (a PNG carries none).
 */
async function loadInput(path: string, perceive?: Perceive, meta: { title?: string; app?: string } = {}): Promise<PyramidInput> {
  if (!path.toLowerCase().endsWith(".json")) {
    const frame = await readImageFile(path);
    return {
      frame,
      ...(perceive ? await perceive(frame) : {}),
      ...(meta.title ? { windowTitle: meta.title } : {}),
      ...(meta.app ? { context: { workflowCandidate: null, tags: [], appName: meta.app } } : {}),
    };
  }
  const doc = readDocument(parseJsonText(await readBoundedText(path, DEFAULT_MAX_DOCUMENT_BYTES), path), path);
  if (doc.version !== "screenstate_v1") throw new InvalidInputError(`${path}: expected a screenstate_v1 document or a PNG, found ${doc.version}.`);
  const s = doc.value;
  const shot = isAbsolute(s.raw.screenshot_path) ? s.raw.screenshot_path : resolve(dirname(path), s.raw.screenshot_path);
  return {
    frame: await readImageFile(shot, { scaleFactor: s.environment.display_scale }),
    detectedText: s.perception.detected_text,
    textBoxes: s.perception.text_boxes?.filter((b) => b.level === "line"),
    windowTitle: s.window.window_title,
    elements: s.ui_elements,
    context: { workflowCandidate: s.context.current_workflow_candidate ?? null, tags: s.context.tags, appName: s.window.app_name },
  };
}

const DescriptorSchema = z.object({
  type: UIElementTypeSchema.optional(),
  role: z.string().optional(),
  label: z.string().optional(),
  position_hint: z.object({ vertical: z.enum(["top", "middle", "bottom"]).optional(), horizontal: z.enum(["left", "center", "right"]).optional() }).optional(),
});

/** What `rpav match` reads until workflow_v1 (recording issue) exists: steps with a screenshot and element descriptors. */
export const MatchWorkflowSchema = z.object({
  workflow_id: z.string().min(1),
  steps: z
    .array(
      z.object({
        step_id: z.string().min(1),
        /** A PNG or screenstate_v1 JSON of the expected screen, relative to the workflow file. */
        expected_state: z.string().optional(),
        window_title: z.string().optional(),
        required_elements: z.array(DescriptorSchema).optional(),
        optional_elements: z.array(DescriptorSchema).optional(),
      }),
    )
    .min(1),
});

async function loadWorkflow(path: string, mgr: MultiModalEmbeddingManager, mode: ScreenStateMode, perceive?: Perceive): Promise<MatchableWorkflow> {
  const parsed = MatchWorkflowSchema.safeParse(parseJsonText(await readBoundedText(path, DEFAULT_MAX_DOCUMENT_BYTES), path));
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({ path: formatJsonPath(i.path), message: i.message }));
    throw new SchemaValidationError(`${path}: not a valid workflow for matching: ${issues.map((i) => `${i.path}: ${i.message}`).join("; ")}`, issues);
  }
  const wf = parsed.data;
  const toDesc = (d: z.infer<typeof DescriptorSchema>) => ({ type: d.type, role: d.role, label: d.label, positionHint: d.position_hint });
  const steps = [];
  for (const s of wf.steps) {
    let expectedEmbedding;
    let extraEmbeddings;
    if (s.expected_state) {
      // The whole recorded screen plus its top-left and top-band crops at ×1.5 and ×2 (scale changes at replay).
      const [whole, ...zoomed] = await embedPyramid(mgr, await loadInput(resolve(dirname(path), s.expected_state), perceive, { title: s.window_title }), mode);
      expectedEmbedding = whole;
      extraEmbeddings = zoomed;
    }
    steps.push({ stepId: s.step_id, expectedEmbedding, extraEmbeddings, expectedWindowTitle: s.window_title, requiredElements: s.required_elements?.map(toDesc), optionalElements: s.optional_elements?.map(toDesc) });
  }
  return { workflowId: wf.workflow_id, steps };
}

function parseMode(m: string): ScreenStateMode {
  if (!(SCREEN_STATE_MODES as readonly string[]).includes(m)) throw new InvalidInputError(`--mode must be one of ${SCREEN_STATE_MODES.join(", ")}, got "${m}".`);
  return m as ScreenStateMode;
}

/**
 * Perception for PNG inputs in complete mode (the product's detector, OCR cache in the data
 * folder), started on first use and closed by `close`.
 */
function lazyPerception(io: CliIo, dataDir: string, ocr: string): { perceive: Perceive; close: () => Promise<void> } {
  let made: Promise<Awaited<ReturnType<typeof createDetector>>> | undefined;
  return {
    perceive: async (frame) => {
      made ??= createDetector({ ocr, detector: resolveDetector(dataDir, io.env) }, join(dataDir, "cache", "ocr"), false, { logger: io.logger?.(), failureDir: join(dataDir, "failures") });
      // A PNG's scale is unknown: the detector estimates it from the text, as replay does.
      const det = await (await made).detector.detect(frame, { autoScale: true });
      return { detectedText: det.perception.detected_text, textBoxes: det.perception.text_boxes.filter((b) => b.level === "line"), elements: det.elements };
    },
    close: async () => {
      if (made) await (await made).close();
    },
  };
}

function perceptionOptions(cmd: Command): Command {
  return cmd
    .option("--ocr <name>", "OCR of PNG inputs in complete mode: hybrid, ppocr, tesseract", "hybrid")
    .option("--title <title>", "window title of a PNG input (a PNG carries none)")
    .option("--app <name>", "application name of a PNG input");
}

export function registerEmbedCommands(program: Command, io: CliIo, setExit: (code: number) => void): void {
  const dataDir = () => resolveDataDir(program.opts<GlobalOptions>(), io.env);
  perceptionOptions(providerOptions(program.command("embed <input>")))
    .description("state embedding of a PNG or a screenstate_v1 JSON (image, text, title, UI elements, context); a PNG in complete mode is read by perception (OCR + elements) first")
    .option("--mode <mode>", "light | enriched | complete", "complete")
    .option("--json", "print the embedding as JSON, vector included")
    .action(async (input: string, o: ProviderChoice & { mode: string; json?: boolean; ocr: string; title?: string; app?: string }) => {
      const mode = parseMode(o.mode);
      const p = mode === "complete" ? lazyPerception(io, dataDir(), o.ocr) : undefined;
      let emb;
      try {
        emb = await (await manager(o)).embed(await loadInput(input, p?.perceive, o), mode);
      } finally {
        await p?.close();
      }
      const components = Object.fromEntries(Object.entries(emb.components).map(([k, c]) => [k, { provider: c.provider, norm: Number(l2Norm(c.vector).toFixed(6)), vector: o.json ? Array.from(c.vector) : undefined }]));
      if (o.json) io.out(`${JSON.stringify({ provider: emb.provider, mode: emb.mode, dimensions: emb.dimensions, vector: Array.from(emb.vector), components, warnings: emb.warnings }, null, 2)}\n`);
      else {
        io.out(`${emb.provider} (${emb.mode}, ${emb.dimensions} dimensions), norm ${l2Norm(emb.vector).toFixed(6)}\n`);
        for (const [k, c] of Object.entries(components)) io.out(`  ${k.padEnd(8)} ${c.provider} norm ${c.norm}\n`);
        for (const w of emb.warnings) io.out(`  warning: ${w.component}: ${w.reason}\n`);
      }
    });

  perceptionOptions(providerOptions(program.command("match <input>")))
    .description("which step of a workflow is this screen? prints the MatchResult (PNG inputs in complete mode are read by perception first)")
    .requiredOption("--workflow <file.json>", "workflow: {workflow_id, steps: [{step_id, expected_state, window_title, required_elements, optional_elements}]}")
    .option("--mode <mode>", "light | enriched | complete", "complete")
    .option("--json", "print the MatchResult as JSON")
    .action(async (input: string, o: ProviderChoice & { workflow: string; mode: string; json?: boolean; ocr: string; title?: string; app?: string }) => {
      const mode = parseMode(o.mode);
      const mgr = await manager(o);
      const p = mode === "complete" ? lazyPerception(io, dataDir(), o.ocr) : undefined;
      let wf, current, emb;
      try {
        wf = await loadWorkflow(o.workflow, mgr, mode, p?.perceive);
        current = await loadInput(input, p?.perceive, o);
        emb = await mgr.embed(current, mode);
      } finally {
        await p?.close();
      }
      const logger = io.logger?.();
      const router = new WorkflowMatcher(new LegacyMatcher(logger ? { logger } : {}), new ElementMatcher(await TEXT_PROVIDERS[o.textProvider]!(o), logger ? { logger } : {}));
      const r = await router.match({ embedding: { provider: emb.provider, vector: emb.vector }, elements: current.elements ?? [], windowTitle: current.windowTitle ?? "", frame: { width: current.frame.width, height: current.frame.height } }, wf);
      if (o.json) io.out(`${JSON.stringify(r, null, 2)}\n`);
      else {
        io.out(`${r.ok ? "match" : "no match"}: step ${r.stepId ?? "-"} of ${r.workflowId} (${r.method}), score ${r.score.toFixed(3)}\n`);
        for (const d of r.differences) io.out(`  difference: ${JSON.stringify(d)}\n`);
      }
      if (!r.ok) setExit(1);
    });
}
