// `rpav detect` and `rpav locate`: the perception pipeline from the command line.
// Composition root for perception: PP-OCR (+ tesseract for accents) with an on-disk OCR cache
// under the data folder, the shape proposer and heuristic classifier, no VLM (none is wired yet:
// heuristics only, design fallback 2).
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { Command } from "commander";
import { InvalidInputError, RpaError } from "../../core/errors.js";
import { timestampedId } from "../../core/ids.js";
import { encodeNpy } from "../../core/npy.js";
import type { IconRecognizer } from "../../core/providers/icon-recognizer.js";
import type { OcrProvider } from "../../core/providers/ocr.js";
import type { ImageEmbedder } from "../../core/providers/embedders.js";
import type { Logger } from "../../core/providers/logger.js";
import type { Frame } from "../../core/frame.js";
import { readDocument } from "../../core/schemas/documents.js";
import type { ScreenState } from "../../core/schemas/screenstate.js";
import { encodePng, MAX_IMAGE_FILE_BYTES, readImageFile } from "../../capture/png.js";
import { readBoundedFile } from "../../core/bounded-read.js";
import type { Vector } from "../../core/vectors.js";
import { LayoutImageEmbedder } from "../../embedding/layout-image-embedder.js";
import type { AccentLexicon } from "../../perception/hybrid-ocr.js";
import { defaultDetectorModelDir, DETECTOR_RESTORE_COMMAND, LearnedDetector } from "../../perception/learned-detector.js";
import { LogisticRulesGate } from "../../perception/rules-gate.js";
import type { DetectionResult, ElementDetector, UIElementDetector } from "../../perception/ui-element-detector.js";
import { resolveDataDir, type GlobalOptions } from "../config.js";
import { resolveVlmConfig } from "../vlm-config.js";
import { DaemonModeSchema, DetectorKindSchema, readConfigFile, type DaemonMode, type DetectorKind } from "../config-file.js";
import { buildKey, daemonInfo, daemonLockHolder, daemonLogPath, DEFAULT_IDLE_MINUTES, spawnDaemon, usableDaemon, type DaemonDetector } from "../detect-daemon.js";
import type { VlmClient, VlmGrounding } from "../../core/providers/vlm.js";
import { bboxCenter } from "../../core/geometry.js";
import type { CliIo } from "./desktop.js";
import type { ScreenNoveltyCheck } from "../../core/providers/screen-novelty.js";
import { defaultStateManager, embedDetectedScreen, newScreenGate, processingMetadata, regionsMode, rememberScreen } from "../screen-memory.js";
import { checkOutputFile, makeDirs, writeOutputFile } from "../../core/make-dirs.js";

export interface PerceptionChoice {
  ocr: string;
  scale?: number;
  /** "hybrid" (the default: the model's elements plus the rules' that overlap none), "learned" (models/ui-detector alone) or "rules" (shapes + classifier). */
  detector?: string;
  /**
   * Replay: a frame of the same size as the last one read is read again only where its pixels
   * changed (src/perception/incremental-ocr.ts), with engines that read a crop as the whole frame.
   * Off for record and build: their reads must not depend on what was read before.
   */
  rereadChangesOnly?: boolean;
}

const DETECTORS = DetectorKindSchema.options;
// The hybrid is the default: the model's elements on the edges drawn, plus the rules' elements that
// overlap none of them. Better than the rules alone on held families (detect-families) and on replay of
// generated apps (replay-gen); the full test suite and the actor bench pass with it (bench/RESULTS.md).
// `rules` stays one setting away, and needs no model file.
const DEFAULT_DETECTOR: DetectorKind = "hybrid";

/**
 * The element detector a command uses: its --detector, else RPAV_DETECTOR, else config.json's
 * `perception.detector`, else the default. A name that is none of them is a typed error.
 */
export function resolveDetector(dataDir: string, env: NodeJS.ProcessEnv, flag?: string): DetectorKind {
  const check = (v: string, from: string): DetectorKind => {
    const r = DetectorKindSchema.safeParse(v);
    if (!r.success) throw new InvalidInputError(`${from} must be one of ${DETECTORS.join(", ")}, got "${v}".`, { details: { source: from, value: v } });
    return r.data;
  };
  if (flag) return check(flag, "--detector");
  if (env.RPAV_DETECTOR) return check(env.RPAV_DETECTOR, "RPAV_DETECTOR");
  return readConfigFile(dataDir)?.config.perception?.detector ?? DEFAULT_DETECTOR;
}

/** What the engines keep between runs, in the data folder's cache (none without one). */
interface EngineCaches {
  /** The folded word lists (AccentLexicon). */
  lexicon?: string;
  /** onnxruntime's optimised graphs (onnx-cache.ts). */
  graphs?: string;
}

const OCR_PROVIDERS: Record<string, (caches: EngineCaches) => Promise<{ ocr: OcrProvider; lexicon?: AccentLexicon; close: () => Promise<void> }>> = {
  hybrid: async ({ lexicon: lexiconCache, graphs }) => {
    const [{ AccentLexicon, HybridOcr }, { PpOcr }, { TesseractOcr }] = await Promise.all([import("../../perception/hybrid-ocr.js"), import("../../perception/ppocr-ocr.js"), import("../../perception/tesseract-ocr.js")]);
    // Both engines start on their threads while the word lists load here.
    const engines = Promise.allSettled([TesseractOcr.create(), PpOcr.create(graphs ? { cacheDir: graphs } : {})] as const);
    let lexicon: AccentLexicon | undefined;
    let error: unknown;
    try {
      lexicon = AccentLexicon.load(undefined, undefined, lexiconCache);
    } catch (e) {
      error = e;
    }
    const [t, p] = await engines;
    if (t.status === "fulfilled" && p.status === "fulfilled" && lexicon) {
      const [tess, pp] = [t.value, p.value];
      return { ocr: new HybridOcr(pp, tess, lexicon), lexicon, close: async () => void (await Promise.all([tess.close(), pp.close()])) };
    }
    // Nothing left running behind a failure.
    await Promise.all([t, p].map((r) => (r.status === "fulfilled" ? r.value.close() : undefined)));
    throw t.status === "rejected" ? t.reason : p.status === "rejected" ? p.reason : error;
  },
  ppocr: async ({ graphs }) => {
    const { PpOcr } = await import("../../perception/ppocr-ocr.js");
    const pp = await PpOcr.create(graphs ? { cacheDir: graphs } : {});
    return { ocr: pp, close: () => pp.close() };
  },
  tesseract: async () => {
    const { TesseractOcr } = await import("../../perception/tesseract-ocr.js");
    const tess = await TesseractOcr.create();
    return { ocr: tess, close: () => tess.close() };
  },
};

export const OCR_NAMES = Object.keys(OCR_PROVIDERS);

/** The embedder of the screen vector `rpav detect` writes (state_embedding). */
export function screenImageEmbedder(): LayoutImageEmbedder {
  return new LayoutImageEmbedder(512);
}
export const DEFAULT_OCR = "hybrid";

/**
 * How one-shot commands (detect, locate) use the detection daemon: RPAV_DAEMON, else config.json's
 * `perception.daemon`, else "on" (use one that runs; "auto" also starts one for the next command;
 * "off" never uses one).
 */
export function resolveDaemonMode(dataDir: string, env: NodeJS.ProcessEnv): DaemonMode {
  if (env.RPAV_DAEMON) {
    const r = DaemonModeSchema.safeParse(env.RPAV_DAEMON);
    if (!r.success) throw new InvalidInputError(`RPAV_DAEMON must be one of ${DaemonModeSchema.options.join(", ")}, got "${env.RPAV_DAEMON}".`);
    return r.data;
  }
  return readConfigFile(dataDir)?.config.perception?.daemon ?? "on";
}

/**
 * The detector of a one-shot command: the data folder's daemon when one answers with this build and
 * choice (and `remote` allows: the command needs nothing JSON does not carry — no crops, element
 * vectors or model regions), with its warm screen embedder (with `screenVector`, each detection brings
 * the screen's vector back in the same request); else one made here (element vectors with `embed`) —
 * and in "auto" mode a daemon started in the background for the next command.
 */
async function oneShotDetector(o: PerceptionChoice & { detector: DetectorKind }, dataDir: string, io: CliIo, obs: DetectorObservers, { remote, embed, screenVector = false, found }: { remote: boolean; embed: boolean; screenVector?: boolean; found?: DaemonFound }): Promise<{ detector: ElementDetector; imageEmbedder?: ImageEmbedder; close: () => Promise<void> }> {
  const mode = resolveDaemonMode(dataDir, io.env);
  const logger = obs.logger;
  if (remote && mode !== "off") {
    // (The daemon asked about already, when the command looked for one to hand its image to.)
    const { info, daemon } = found ?? (await daemonFor(o, dataDir, logger));
    if (daemon) {
      logger?.debug({ pid: daemon.identity.pid }, "detecting in the detection daemon");
      const local = screenImageEmbedder();
      const paired = screenVector ? daemon.withScreenVector(local.name, local.dimensions) : undefined;
      const imageEmbedder = paired?.embedder ?? daemon.imageEmbedder(local.name, local.dimensions);
      return { detector: paired?.detector ?? daemon, ...(imageEmbedder ? { imageEmbedder } : {}), close: async () => undefined };
    }
    if (mode === "auto" && !info && daemonLockHolder(dataDir) === undefined) {
      const pid = spawnDaemon({ dataDir, detector: o.detector, ocr: o.ocr, idleMinutes: DEFAULT_IDLE_MINUTES, env: io.env });
      logger?.info({ pid, log: daemonLogPath(dataDir) }, "detection daemon started in the background for the next commands");
    }
  }
  return createDetector(o, join(dataDir, "cache", "ocr"), embed, obs);
}

/**
 * `rpav detect`'s screen state (enriched mode) with its screen vector written, so that its vector_id names a file: under
 * `out` (relative to it, like the element crops and vectors), else in the data folder (an absolute path).
 */
function screenStateOf(det: DetectionResult, screen: Parameters<typeof enrichedState>[1], provider: string, vector: Vector, dataDir: string, out: string | undefined): ScreenState {
  const vectorRel = `data/embeddings/screens/image/${screen.id}.npy`;
  const vectorFile = out ? join(resolve(out), vectorRel) : join(dataDir, "embeddings", "screens", "image", `${screen.id}.npy`);
  writeOutputFile(vectorFile, encodeNpy(vector), out ? "--out" : "--data-dir");
  return enrichedState(det, screen, { provider, vector_id: out ? vectorRel : vectorFile });
}

/** `rpav detect`'s answer: the state as JSON, or the elements one a line with what failed. */
function printDetection(io: CliIo, det: DetectionResult, state: ScreenState, { json }: { json: boolean }): void {
  if (json) return void io.out(`${JSON.stringify(state, null, 2)}\n`);
  io.out(`${det.elements.length} elements, ${det.perception.detected_text.length} text lines in ${Math.round(det.metadata.detection_time_ms)} ms\n`);
  for (const e of det.elements) io.out(`  ${e.type.padEnd(19)} ${JSON.stringify(e.label).padEnd(32)} [${e.bbox.join(", ")}] ${e.role} ${e.confidence}${e.properties.is_dangerous ? " DANGEROUS" : ""}\n`);
  if (det.metadata.failed) io.out(`  detector failed (${det.metadata.failed.code}): ${det.metadata.failed.message} — matching will use the whole screen\n`);
  for (const r of det.metadata.region_errors) io.out(`  region [${r.bbox.map(Math.round).join(", ")}] skipped: ${r.message}\n`);
}

/** What the data folder's daemon said of itself, and the daemon as this choice's detector when it runs this build and choice. */
interface DaemonFound {
  info?: Awaited<ReturnType<typeof daemonInfo>>;
  daemon?: DaemonDetector;
}

/** The data folder's daemon as this choice's detector, when one runs this build and choice (and what it said of itself). */
async function daemonFor(o: PerceptionChoice & { detector: DetectorKind }, dataDir: string, logger?: Logger): Promise<DaemonFound> {
  const info = await daemonInfo(dataDir);
  const daemon = info ? usableDaemon(dataDir, info, { detector: o.detector, ocr: o.ocr, build: buildKey(defaultDetectorModelDir()) }, logger) : undefined;
  return { ...(info ? { info } : {}), ...(daemon ? { daemon } : {}) };
}

/**
 * `rpav detect`'s image handed as it is to a running daemon that decodes it and brings the screen's vector back with
 * the detection (nothing else to do with its pixels here: no crops, debug image, store or model regions); none when
 * the command decodes and detects here or through `oneShotDetector`, which takes what the daemon said (`found`).
 */
async function handedToDaemon(o: PerceptionChoice & { detector: DetectorKind }, dataDir: string, io: CliIo, logger?: Logger): Promise<{ handed?: DaemonDetector; found?: DaemonFound }> {
  if (resolveDaemonMode(dataDir, io.env) === "off") return {};
  const found = await daemonFor(o, dataDir, logger);
  const local = screenImageEmbedder();
  const paired = found.daemon?.withScreenVector(local.name, local.dimensions)?.detector;
  return paired?.bringsScreenVector ? { handed: paired, found } : { found };
}

/** Logging of the detector (the logger, and the folder where failed detections keep their screenshot) and its optional VLM. */
export interface DetectorObservers {
  logger?: Logger;
  failureDir?: string;
  vlm?: VlmClient;
  /** With `vlm`: ask the model for regions only on a screen this check finds new. */
  vlmGate?: ScreenNoveltyCheck;
}

/** A detector with its OCR engine (a field's read-back reads boxes with it) and how to close both. */
export interface DetectorParts {
  detector: UIElementDetector;
  ocr: OcrProvider;
  /** Whether the OCR reads given boxes itself (PP-OCR, hybrid). */
  readsBoxes: boolean;
  /** The accent lexicon the OCR loaded (hybrid), for whatever else needs the word lists in the same run. */
  lexicon?: AccentLexicon;
  close: () => Promise<void>;
}

export async function createDetector(o: PerceptionChoice, cacheDir: string | undefined, embed: boolean, obs: DetectorObservers = {}): Promise<DetectorParts> {
  const make = OCR_PROVIDERS[o.ocr];
  if (!make) throw new InvalidInputError(`--ocr must be one of ${OCR_NAMES.join(", ")}, got "${o.ocr}".`);
  const kind = DetectorKindSchema.safeParse(o.detector ?? DEFAULT_DETECTOR).data;
  if (!kind) throw new InvalidInputError(`--detector must be one of ${DETECTORS.join(", ")}, got "${o.detector}".`);
  // The engines are loaded by the commands that detect in their process only.
  const [{ CachedOcr }, { IncrementalOcr }, { UIElementDetector }, { NgramTextEmbedder }] = await Promise.all([
    import("../../perception/ocr-cache.js"),
    import("../../perception/incremental-ocr.js"),
    import("../../perception/ui-element-detector.js"),
    import("../../embedding/ngram-text-embedder.js"),
  ]);
  // The model alone merges its coarse pass's wide elements in; the hybrid asks for them apart and adds them only where
  // nothing else stands (its `fills`, learned-detector.ts).
  const proposer = kind === "learned" || kind === "hybrid" ? await LearnedDetector.create({ coarse: kind === "learned" }) : undefined;
  // The hybrid keeps the rules' extra elements its gate, fitted with the model, lets through (rules-gate.ts).
  const rulesGate = kind === "hybrid" ? LogisticRulesGate.load(defaultDetectorModelDir(), DETECTOR_RESTORE_COMMAND) : undefined;
  let ocrParts: { ocr: OcrProvider; lexicon?: AccentLexicon; close: () => Promise<void> };
  try {
    // The folded word lists and the optimised graphs are kept beside the OCR cache (<data>/cache/lexicon, …/onnx).
    ocrParts = await make(cacheDir ? { lexicon: join(dirname(cacheDir), "lexicon"), graphs: join(dirname(cacheDir), "onnx") } : {});
  } catch (e) {
    await proposer?.close();
    throw e;
  }
  const cachedOcr = new CachedOcr(ocrParts.ocr, cacheDir ? { dir: cacheDir } : {});
  const reader = o.rereadChangesOnly ? new IncrementalOcr(cachedOcr) : cachedOcr;
  const failureDir = obs.failureDir;
  const saveFailure = failureDir
    ? async (frame: Frame, what: string) => {
        mkdirSync(failureDir, { recursive: true });
        const file = join(failureDir, `${timestampedId(what)}.png`);
        writeFileSync(file, await encodePng(frame));
        return file;
      }
    : undefined;
  const detector = new UIElementDetector({
    ocr: reader,
    ...(proposer ? { proposer, keepRules: kind === "hybrid", ...(kind === "hybrid" ? { fills: proposer } : {}) } : {}),
    ...(rulesGate ? { rulesGate } : {}),
    ...(obs.vlm ? { vlm: obs.vlm } : {}),
    ...(obs.vlmGate ? { vlmGate: obs.vlmGate } : {}),
    ...(embed ? { imageEmbedder: new LayoutImageEmbedder(256), textEmbedder: new NgramTextEmbedder(256) } : {}),
    ...(obs.logger ? { logger: obs.logger } : {}),
    ...(saveFailure ? { saveFailure } : {}),
  });
  // The cache answers readBoxes for every engine (nothing when the engine cannot): say which can.
  return { detector, ocr: reader, readsBoxes: !!ocrParts.ocr.readBoxes, ...(ocrParts.lexicon ? { lexicon: ocrParts.lexicon } : {}), close: async () => void (await Promise.all([ocrParts.close(), proposer?.close()])) };
}

/**
 * The icon classifier (locate's described icons, the icon class of icon-only targets). A missing or broken model file is
 * said through `warn` (with the command that restores it) and the caller goes on without it: locate with the icons'
 * drawn shapes, record and replay without icon classes.
 */
export async function loadIconClassifier(warn: (line: string) => void): Promise<IconRecognizer & { close(): Promise<void> } | undefined> {
  const { IconClassifier } = await import("../../perception/icon-classifier.js");
  try {
    return await IconClassifier.create();
  } catch (e) {
    if (!(e instanceof RpaError)) throw e;
    warn(`icon classifier not used (${e.code}): ${e.message}\n`);
    return undefined;
  }
}

function scaleOption(v: string): number {
  const n = Number(v);
  if (!(n > 0) || !Number.isFinite(n)) throw new InvalidInputError(`--scale must be a number > 0 (image pixels per screen pixel), got "${v}".`);
  return n;
}

/** The enriched screen state of a detection (mode "enriched", one image vector, written at `image.vector_id`). */
export function enrichedState(det: DetectionResult, meta: { id: string; app: string; title: string; width: number; height: number; scale: number; screenshot: string }, image: { provider: string; vector_id: string }): ScreenState {
  const state: ScreenState = {
    schema_version: "screenstate_v1",
    mode: "enriched",
    screen_state_id: meta.id,
    timestamp: new Date().toISOString(),
    session_id: "rpav-detect",
    environment: { platform: process.platform, display_scale: meta.scale },
    window: { app_name: meta.app, window_title: meta.title, screen_resolution: [meta.width, meta.height] },
    raw: { screenshot_path: meta.screenshot },
    perception: det.perception,
    ui_elements: det.elements,
    state_embedding: { provider: image.provider, vector_id: image.vector_id, components: null },
    context: { current_workflow_candidate: null, tags: det.metadata.failed ? ["detector_failed"] : [] },
    processing_metadata: processingMetadata(det),
  };
  readDocument(state, meta.id);
  return state;
}

export function registerPerceptionCommands(program: Command, io: CliIo, setExit: (code: number) => void): void {
  const globals = () => program.opts<GlobalOptions>();
  program
    .command("detect <image>")
    .description("find and classify the UI elements of a screenshot (OCR + shapes + heuristics); prints an enriched screen state")
    .option("--app <name>", "application name (element ids and context)", "")
    .option("--title <title>", "window title", "")
    .option("--scale <n>", "image pixels per screen pixel (2 for a HiDPI capture)", scaleOption)
    .option("--ocr <name>", `OCR provider: ${OCR_NAMES.join(", ")}`, DEFAULT_OCR)
    .option("--detector <name>", `element detector: ${DETECTORS.join(", ")} (learned: the model in models/ui-detector; hybrid: the model's elements and the rules' that overlap none of them; default: RPAV_DETECTOR, config.json perception.detector, else ${DEFAULT_DETECTOR})`)
    .option("--json", "print the screen state JSON on stdout")
    .option("--debug-image <out.png>", "draw every element box with its type and label")
    .option("--out <dir>", "write the screen state, element crops and vectors there")
    .option("--vlm-regions [when]", 'also ask the grounding model for the interactive elements (slow): "new" (the default: only for a screen whose state embedding matches no stored state) or "always"; without it, config.json\'s vlm.regions (off by default); without a server the heuristics stand (vlm_used false)')
    .option("--no-vlm", "no model, whatever config.json says")
    .option("--remember", "store this screen (complete mode: screenshot, elements, state embedding) so that later detections know it")
    .action(async (image: string, o: PerceptionChoice & { app: string; title: string; json?: boolean; debugImage?: string; out?: string; vlmRegions?: string | boolean; vlm?: boolean; remember?: boolean }) => {
      // Output places are checked before the detection, not after it.
      if (o.out) makeDirs(o.out, "--out");
      if (o.debugImage) checkOutputFile(o.debugImage, "--debug-image");
      const dataDir = resolveDataDir(globals(), io.env);
      const vlmConfig = resolveVlmConfig(dataDir, io.env);
      const mode = regionsMode(o.vlmRegions, o.vlm, vlmConfig);
      const remote = !o.out && !o.remember && mode === "off";
      const choice = { ...o, detector: resolveDetector(dataDir, io.env, o.detector) };
      // With a daemon running, the image goes to it as it is (decoded there: this process loads no image library).
      const { handed, found } = remote && !o.debugImage ? await handedToDaemon(choice, dataDir, io, io.logger?.()) : {};
      if (handed) {
        if (!o.json) io.err(`detecting elements in ${image}…\n`);
        const { result: det, width, height, vector } = await handed.detectImage(await readBoundedFile(image, MAX_IMAGE_FILE_BYTES), image, o.scale ?? 1, { appName: o.app, windowTitle: o.title, scale: o.scale ?? 1 });
        const embedder = screenImageEmbedder();
        // (A vector the daemon did not bring back is made here.)
        const screenVector = vector ?? (await embedder.embed(await readImageFile(image, { scaleFactor: o.scale ?? 1 })));
        const state = screenStateOf(det, { id: timestampedId("screen"), app: o.app, title: o.title, width, height, scale: o.scale ?? 1, screenshot: resolve(image) }, embedder.name, screenVector, dataDir, o.out);
        printDetection(io, det, state, { json: !!o.json });
        return;
      }
      const frame = await readImageFile(image, { scaleFactor: o.scale ?? 1 });
      const proposer = mode !== "off" ? (await import("../vlm-providers.js")).createVlmProviders(vlmConfig).proposer : undefined;
      const store = mode === "new_screens" || o.remember ? await (await import("./store.js")).openStore(globals(), io.env) : undefined;
      const manager = defaultStateManager();
      const vlmGate = store && mode === "new_screens" ? newScreenGate(store, manager, vlmConfig) : undefined;
      const obs = { logger: io.logger?.(), failureDir: join(dataDir, "failures"), ...(proposer ? { vlm: proposer } : {}), ...(vlmGate ? { vlmGate } : {}) };
      const { detector, imageEmbedder = screenImageEmbedder(), close: closeDetector } = await oneShotDetector(choice, dataDir, io, obs, { remote, embed: !!o.out, screenVector: true, ...(found ? { found } : {}) });
      const close = async () => {
        await closeDetector();
        await store?.close();
      };
      try {
        if (!o.json) io.err(`detecting elements in ${image} (${frame.width}×${frame.height})…\n`);
        const det = await detector.detect(frame, { appName: o.app, windowTitle: o.title, scale: o.scale ?? 1, cropDir: o.out ? "elements" : undefined });
        const meta = { appName: o.app, title: o.title, sessionId: "rpav-detect", tags: [] };
        const remembered = store && o.remember ? await rememberScreen(store, dataDir, frame, det, await embedDetectedScreen(manager, frame, det, meta), meta) : undefined;
        // complete mode: its vectors are in the store
        const state = remembered ?? screenStateOf(det, { id: timestampedId("screen"), app: o.app, title: o.title, width: frame.width, height: frame.height, scale: o.scale ?? 1, screenshot: resolve(image) }, imageEmbedder.name, await imageEmbedder.embed(frame), dataDir, o.out);
        if (o.out) {
          const out = resolve(o.out);
          makeDirs(join(out, "elements"), "--out");
          for (const [eid, crop] of det.crops) writeOutputFile(join(out, "elements", `${eid}.png`), await encodePng(crop), "--out");
          for (const [vid, v] of det.vectors) writeOutputFile(join(out, vid), encodeNpy(v.vector), "--out");
          writeOutputFile(join(out, "screen_state.json"), `${JSON.stringify(state, null, 2)}\n`, "--out");
        }
        if (o.debugImage) writeOutputFile(o.debugImage, await (await import("../../perception/debug-image.js")).drawBoxes(frame, det.elements), "--debug-image");
        printDetection(io, det, state, { json: !!o.json });
        if (!o.json) {
          const gate = det.metadata.vlm_gate;
          if (gate) io.out(`  model regions: ${gate.novel ? "asked, a new screen" : "not asked, a known screen"} (${gate.nearest ? `nearest stored state ${gate.nearest.id}, cosine ${gate.nearest.cosine.toFixed(3)} ${gate.novel ? "<" : "≥"} ${gate.minCosine}` : "no state stored yet"})\n`);
          if (det.metadata.vlm_error) io.out(`  model regions failed: ${det.metadata.vlm_error} — heuristics only\n`);
          if (remembered) io.out(`stored as ${remembered.screen_state_id} in ${store!.location}\n`);
          if (o.debugImage) io.out(`debug image: ${o.debugImage}\n`);
          if (o.out) io.out(`written to ${resolve(o.out)}\n`);
        }
      } finally {
        await close();
      }
    });

  program
    .command("locate <image> <instruction>")
    .description('ground an instruction on a screenshot without a VLM ("click the Save button", "Cochez Tiers payant")')
    .option("--app <name>", "application name", "")
    .option("--scale <n>", "image pixels per screen pixel", scaleOption)
    .option("--ocr <name>", `OCR provider: ${OCR_NAMES.join(", ")}`, DEFAULT_OCR)
    .option("--detector <name>", `element detector: ${DETECTORS.join(", ")} (default: RPAV_DETECTOR, config.json perception.detector, else ${DEFAULT_DETECTOR})`)
    .option("--json", "print {bbox, point, element_id, score, candidates[]} as JSON")
    .option("--vlm", "ask the grounding model (RPAV_MODEL_GROUNDING) too; its box, snapped to a detected element, wins; without a reachable server the heuristics' answer stands")
    .option("--no-vlm", "heuristics only (the default)")
    .action(async (image: string, instruction: string, o: PerceptionChoice & { app: string; json?: boolean; vlm?: boolean }) => {
      if (!instruction.trim()) throw new InvalidInputError("The instruction is empty: say what to click, e.g. \"click the Save button\".");
      const frame = await readImageFile(image, { scaleFactor: o.scale ?? 1 });
      const dataDir = resolveDataDir(globals(), io.env);
      const { detector, close } = await oneShotDetector({ ...o, detector: resolveDetector(dataDir, io.env, o.detector) }, dataDir, io, { logger: io.logger?.(), failureDir: join(dataDir, "failures") }, { remote: true, embed: false });
      try {
        const det = await detector.detect(frame, { appName: o.app, scale: o.scale ?? 1 });
        const { locateWithIcons, mayAskIcons, textTargets } = await import("../../perception/locate.js");
        const icons = mayAskIcons(instruction) ? await loadIconClassifier((l) => io.err(l)) : undefined;
        let r: Awaited<ReturnType<typeof locateWithIcons>>;
        try {
          r = await locateWithIcons(instruction, [...det.elements, ...textTargets(det.ocr?.lines ?? [], det.elements)], frame, icons);
        } finally {
          await icons?.close();
        }
        const round = (v: number) => Math.round(v * 10) / 10;
        let g: VlmGrounding | undefined;
        let vlmError: string | undefined;
        let vlmAsked = false;
        if (o.vlm) {
          const { grounder } = (await import("../vlm-providers.js")).createVlmProviders(resolveVlmConfig(resolveDataDir(globals(), io.env), io.env));
          try {
            g = await grounder.ground(frame, instruction, undefined, { elements: det.elements });
            vlmAsked = true;
            if (!g) vlmError = `${grounder.name} does not see it`;
          } catch (e) {
            vlmError = `${(e as Error).message}`;
            if (!o.json) io.err(`VLM not used: ${vlmError}\n`);
          }
        }
        if (g) {
          const point = bboxCenter(g.bbox);
          if (o.json)
            io.out(`${JSON.stringify({ found: true, method: "vlm", vlm_used: true, bbox: g.bbox.map(round), point: point.map(round), element_id: g.evidence?.snapped_to ?? null, score: g.confidence, ambiguous: false, instruction: r.instruction, vlm: g.evidence, heuristic: r.found ? { bbox: r.bbox.map(round), element_id: r.element_id, score: r.score, ambiguous: r.ambiguous } : { found: false, reason: r.reason }, candidates: r.candidates }, null, 2)}\n`);
          else io.out(`${r.instruction.verb} at (${point.map(round).join(", ")}) — ${g.evidence?.model ?? "vlm"} [${g.bbox.map(round).join(", ")}]${g.evidence?.snapped_to ? `, snapped to ${g.evidence.snapped_to}` : ""}${g.evidence?.cached ? " (cached answer)" : ""}\n`);
          return;
        }
        const vlmFields = { method: r.found ? "element" : null, vlm_used: vlmAsked, ...(vlmError ? { vlm_error: vlmError } : {}) };
        if (o.json) {
          io.out(`${JSON.stringify(r.found ? { found: true, ...vlmFields, bbox: r.bbox.map(round), point: r.point.map(round), element_id: r.element_id, score: r.score, ambiguous: r.ambiguous, ...(r.icon_seen !== undefined ? { icon_seen: r.icon_seen } : {}), instruction: r.instruction, candidates: r.candidates } : { found: false, ...vlmFields, reason: r.reason, instruction: r.instruction, candidates: r.candidates }, null, 2)}\n`);
        } else if (r.found) {
          io.out(`${r.ambiguous ? "AMBIGUOUS: " : ""}${r.instruction.verb} at (${r.point.map(round).join(", ")}) — ${r.element_id} [${r.bbox.map(round).join(", ")}], score ${r.score}\n`);
          for (const c of r.candidates) io.out(`  ${c.score.toFixed(3)} ${c.type.padEnd(19)} ${JSON.stringify(c.label)}\n`);
        } else {
          io.out(`not found: ${r.reason}\n`);
          for (const c of r.candidates) io.out(`  ${c.score.toFixed(3)} ${c.type.padEnd(19)} ${JSON.stringify(c.label)}\n`);
        }
        if (!r.found || r.ambiguous) setExit(1);
      } finally {
        await close();
      }
    });
}
