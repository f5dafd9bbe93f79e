// UIElementDetector: OCR + region proposals (+ a VLM when one is given) → classified, characterized
// UIElements and the `perception` part of an enriched screen state. Boxes are in frame pixels.
//
// Robustness (design fallbacks 1 and 2, property 39): a VLM that fails leaves heuristics only; a
// region whose characterization fails is reported and skipped, the others are kept; a failing
// OCR or proposer yields no elements and `failed` set, so matching falls back to the legacy
// whole-screen comparison.
import { AbortedError, RpaError, throwIfAborted, type ErrorCode } from "../core/errors.js";
import { silentLogger, type Logger } from "../core/providers/logger.js";
import { cropFrame, type Frame } from "../core/frame.js";
import type { BBox } from "../core/geometry.js";
import { bboxCenter, bboxContainsPoint, bboxCoverage, bboxIoU, clampBBox, roundBBoxOut } from "../core/geometry.js";
import { elementId } from "../core/ids.js";
import type { ImageEmbedder, TextEmbedder } from "../core/providers/embedders.js";
import type { OcrLine, OcrProvider, OcrResult } from "../core/providers/ocr.js";
import type { RulesGate } from "./rules-gate.js";
import type { ElementProposal, ElementProposer } from "../core/providers/element-proposer.js";
import type { FillProposer } from "../core/providers/fill-proposer.js";
import type { ScreenNovelty, ScreenNoveltyCheck } from "../core/providers/screen-novelty.js";
import type { VlmClient } from "../core/providers/vlm.js";
import type { TextBox } from "../core/schemas/common.js";
import { isFieldType, UI_ELEMENT_TYPES, type UIElement, type UIElementType } from "../core/schemas/uielement.js";
import { normalizeLabel } from "../core/text.js";
import type { Vector } from "../core/vectors.js";
import { classifyRegions, type ElementCandidate } from "./element-classifier.js";
import { drawnFieldAround } from "./caption-field-probe.js";
import { captionOfField, completeCaptionedToggles, completeRowSelectors, completeSwitches, completeTabStrips, fillIns, fitToggles, fuseWithOcr, joinSplitDropdowns, keepFused, retypeByFace, snapToShapes, widenFields } from "./learned-fusion.js";
import { toGrey, toRgb } from "./raster.js";
import { proposeRegions, type GlyphRegion, type ShapeRegion } from "./region-proposer.js";
import { describeRole } from "./roles.js";
import { evenRuns } from "./numbered-run.js";

export interface DetectorDeps {
  readonly ocr: OcrProvider;
  /** Element crop → vector (visual.embedding). Optional: without it the embedding stays null. */
  readonly imageEmbedder?: ImageEmbedder;
  /** Label → vector (text.embedding). Optional. */
  readonly textEmbedder?: TextEmbedder;
  /** Region proposals from a vision-language model, when one is available. */
  readonly vlm?: VlmClient;
  /** When given, the model is asked for regions only on a screen this check finds new. */
  readonly vlmGate?: ScreenNoveltyCheck;
  /**
   * A learned detector (learned-detector.ts): when given, its typed boxes replace the shape
   * proposer and the rule classifier, and OCR names them (learned-fusion.ts).
   */
  readonly proposer?: ElementProposer;
  /**
   * With a proposer: keep the rule classifier too (`--detector hybrid`). The model's boxes move onto
   * the drawn shapes they overlap, and the rules' elements that overlap none of the model's and do
   * not lie mostly inside one are added.
   */
  readonly keepRules?: boolean;
  /**
   * With a proposer: boxes for the places nothing else covers (the model's coarse pass: fields and navigation links too
   * wide for its main pass), added only there (learned-fusion.ts `fillIns`). Asked once OCR has read the screen, so that
   * the pass runs beside the rules' single-threaded work.
   */
  readonly fills?: FillProposer;
  /**
   * With `keepRules`: which of the rules' extra elements (those the overlap test lets through) to
   * keep (rules-gate.ts); without it, all of them.
   */
  readonly rulesGate?: RulesGate;
  /** Where the pipeline's state goes (timings at debug, failures at warn); silent by default. */
  readonly logger?: Logger;
  /**
   * Keeps the screenshot of a detection that failed (or lost regions) and returns where it is;
   * the warning logged names that file (design: "les échecs de détection enregistrés avec screenshots").
   */
  readonly saveFailure?: (frame: Frame, what: string) => Promise<string>;
}

export interface DetectOptions {
  appName?: string;
  windowTitle?: string;
  workflowHint?: string | null;
  /** Image pixels per screen pixel (default: the frame's scaleFactor). Widget sizes scale with it. */
  scale?: number;
  /**
   * Without `scale`: also estimate how much larger than usual the UI is drawn (GDK_SCALE=2, a
   * large text setting) from the height of the text read, and scale widget sizes by it.
   */
  autoScale?: boolean;
  /**
   * Where the caller writes element crops (visual.screenshot_path = <dir>/<element_id>.png). Without
   * it no crop file exists and screenshot_path is "" (the crops are still in DetectionResult.crops).
   */
  cropDir?: string;
  signal?: AbortSignal;
}

export interface RegionError {
  readonly bbox: BBox;
  readonly stage: string;
  readonly code: ErrorCode;
  readonly message: string;
}

export interface DetectionResult {
  readonly elements: UIElement[];
  /** Crop of each element, by element_id (property 37). */
  readonly crops: Map<string, Frame>;
  /** Element vectors by vector_id, with their provider. */
  readonly vectors: Map<string, { provider: string; vector: Vector }>;
  readonly ocr: OcrResult | undefined;
  readonly perception: { detected_text: string[]; text_boxes: TextBox[] };
  readonly metadata: {
    detection_time_ms: number;
    num_elements_detected: number;
    vlm_used: boolean;
    /** The new-screen check made before asking the model for regions (absent: none was made). */
    vlm_gate?: ScreenNovelty;
    timings: Record<string, number>;
    /** Set when the whole detector failed: matching must fall back to legacy. */
    failed?: { code: ErrorCode; message: string };
    vlm_error?: string;
    region_errors: RegionError[];
  };
}

/**
 * How much larger than usual a UI is drawn, from its text: the median height of OCR lines of 3+
 * characters is about 12.5 px on a standard desktop (GTK, 96 dpi; measured in the lab: 11–14),
 * twice that at GDK_SCALE=2. Rounded to 1, 1.5 or 2; 1 when too little text was read.
 */
export function uiScaleOf(lines: readonly OcrLine[]): number {
  const hs = lines.filter((l) => l.text.trim().length >= 3).map((l) => l.bbox[3] - l.bbox[1]).sort((a, b) => a - b);
  if (hs.length < 3) return 1;
  const est = hs[Math.floor(hs.length / 2)]! / 12.5;
  return est < 1.3 ? 1 : est < 1.75 ? 1.5 : 2;
}

/** `text_boxes` and `detected_text` (lines, in reading order) from OCR lines (properties 8, 19). */
export function perceptionFromOcr(lines: readonly OcrLine[]): { detected_text: string[]; text_boxes: TextBox[] } {
  const round = (b: BBox): [number, number, number, number] => [b[0], b[1], b[2], b[3]].map((v) => Math.round(v * 10) / 10) as [number, number, number, number];
  const clamp01 = (v: number) => Math.min(1, Math.max(0, v));
  const sorted = [...lines].filter((l) => l.text.trim()).sort((a, b) => a.bbox[1] - b.bbox[1] || a.bbox[0] - b.bbox[0]);
  const text_boxes: TextBox[] = [];
  for (const l of sorted) {
    text_boxes.push({ text: l.text, bbox: round(l.bbox), confidence: clamp01(l.confidence), level: "line" });
    for (const w of l.words) text_boxes.push({ text: w.text, bbox: round(w.bbox), confidence: clamp01(w.confidence), level: "word" });
  }
  return { detected_text: sorted.map((l) => l.text), text_boxes };
}

/** At most this many boxes are read one by one per screen (each costs a recognizer call). */
const MAX_BOX_READS = 48;

/**
 * Small boxes (14–48 px high, at most 64 wide, not thin) that hold a glyph but no word the OCR
 * read: a pager's page number, a key's letter. Each box less a 1 px border.
 */
export function unreadBoxes(shapes: readonly ShapeRegion[], glyphs: readonly GlyphRegion[], lines: readonly OcrLine[], scale: number): BBox[] {
  const words = lines.flatMap((l) => l.words);
  const inside = (b: BBox, o: BBox) => bboxContainsPoint(b, bboxCenter(o));
  return shapes
    .filter((s) => {
      const w = s.bbox[2] - s.bbox[0];
      const h = s.bbox[3] - s.bbox[1];
      if (s.container || s.kind !== "rectangle" || h < 14 * scale || h > 48 * scale || w > 64 * scale || w < 0.6 * h) return false;
      return glyphs.some((g) => inside(s.bbox, g.bbox) && g.bbox[3] - g.bbox[1] < 0.8 * h) && !words.some((x) => inside(s.bbox, x.bbox));
    })
    .slice(0, MAX_BOX_READS)
    .map((s) => [s.bbox[0] + 1, s.bbox[1] + 1, s.bbox[2] - 1, s.bbox[3] - 1] as BBox);
}

/**
 * The wordless buttons and links that stand in a row of three or more like boxes at even steps (a pager drawn in outlined
 * boxes, its digits too thin or too small for the text detector), each with the box to read: its inside, inset from its
 * frame by 15 % (a frame's edge read beside a digit makes « 4] »). At most MAX_BOX_READS.
 */
function rowBoxesToRead(candidates: readonly ElementCandidate[]): Array<{ index: number; box: BBox }> {
  const wordless = candidates.flatMap((c, index) => ((c.type === "button" || c.type === "link") && !/[\p{L}\p{N}]/u.test(c.label) ? [{ element_id: String(index), bbox: c.bbox, label: c.label }] : []));
  return evenRuns(wordless)
    .flat()
    .slice(0, MAX_BOX_READS)
    .map(({ element_id, bbox: [x0, y0, x1, y1] }) => {
      const inset = 0.15 * Math.min(x1 - x0, y1 - y0);
      return { index: Number(element_id), box: [x0 + inset, y0 + inset, x1 - inset, y1 - inset] as BBox };
    });
}

/** What finds the elements of a screen: this file's detector in the process, or a daemon holding one warm (src/cli). */
export interface ElementDetector {
  detect(frame: Frame, options?: DetectOptions): Promise<DetectionResult>;
}

export class UIElementDetector implements ElementDetector {
  constructor(private readonly deps: DetectorDeps) {}

  async detect(frame: Frame, options: DetectOptions = {}): Promise<DetectionResult> {
    const t0 = performance.now();
    const signal = options.signal;
    let scale = options.scale ?? frame.scaleFactor;
    const timings: Record<string, number> = {};
    const regionErrors: RegionError[] = [];
    let ocr: OcrResult | undefined;
    let candidates: ElementCandidate[] = [];
    let failed: DetectionResult["metadata"]["failed"];
    let vlmUsed = false;
    let vlmError: string | undefined;
    let boxReadFailed = false;
    // The learned detector runs while the OCR reads (both wait on native threads), outside the
    // fallback below: an image it cannot take is the caller's error (InvalidInputError), not a
    // detector failure to hide.
    const tp = performance.now();
    const to = performance.now();
    const reading = this.deps.ocr.recognize(frame, signal);
    reading.catch(() => undefined); // handled below, once the proposer has answered
    let proposals: readonly ElementProposal[] | undefined;
    if (this.deps.proposer) {
      try {
        proposals = await this.deps.proposer.propose(frame, signal);
      } catch (e) {
        await reading.catch(() => undefined);
        throw e;
      }
      timings.proposer_ms = performance.now() - tp;
    }
    // The fill pass (the model's coarse pass) is asked as soon as the full-resolution one has answered: it runs on the
    // model's thread while the OCR still reads and the rules' work below runs on this one (back to back, four pairs of
    // warm runs: 2-7 % less wall time, same elements).
    const tf = performance.now();
    const asked = proposals && this.deps.fills ? this.deps.fills.proposeFills(frame, signal) : undefined;
    asked?.catch(() => undefined); // awaited below
    try {
      ocr = await reading;
      Object.assign(timings, ocr.timings);
      timings.ocr_ms = performance.now() - to;
      throwIfAborted(signal, "element detection");
      // A failure there loses the fill boxes only (property 39), not the screen.
      const fillsOf = async (): Promise<ElementProposal[]> => {
        try {
          return (await asked) ?? [];
        } catch (e) {
          if (e instanceof AbortedError) throw e;
          regionErrors.push({ bbox: [0, 0, frame.width, frame.height], stage: "fills", code: e instanceof RpaError ? e.code : "region_failed", message: (e as Error).message });
          return [];
        } finally {
          timings.fills_ms = performance.now() - tf;
        }
      };
      if (proposals && !this.deps.keepRules) {
        const fitted = fitToggles(joinSplitDropdowns(proposals), [], ocr.lines);
        candidates = fuseWithOcr([...fitted, ...fillIns(await fillsOf(), fitted)], ocr.lines);
      } else {
        const t1 = performance.now();
        const img = toRgb(frame);
        if (options.scale === undefined && options.autoScale) scale = frame.scaleFactor * uiScaleOf(ocr.lines);
        const { shapes, glyphs, switches } = proposeRegions(img, { scale });
        timings.proposals_ms = performance.now() - t1;
        // Characters the text detector passes over (a pager's lone digits, too small at its
        // reading size) are read box by box, inside small boxes holding a glyph and no word.
        // A failure there loses those characters only (property 39), not the screen.
        if (this.deps.ocr.readBoxes) {
          const tb = performance.now();
          const boxes = unreadBoxes(shapes, glyphs, ocr.lines, scale);
          try {
            const read = boxes.length ? await this.deps.ocr.readBoxes(frame, boxes, signal) : [];
            const found = read.flatMap((l) => l.words.filter((w) => /^[\p{L}\p{N}«»‹›]{1,3}$/u.test(w.text) && w.confidence >= 0.8).map((w) => ({ text: w.text, bbox: w.bbox, confidence: w.confidence, words: [w] })));
            if (found.length) ocr = { ...ocr, lines: [...ocr.lines, ...found] };
          } catch (e) {
            if (e instanceof AbortedError) throw e;
            boxReadFailed = true;
            for (const bbox of boxes) regionErrors.push({ bbox, stage: "read_box", code: e instanceof RpaError ? e.code : "region_failed", message: (e as Error).message });
          }
          timings.box_reads = boxes.length;
          timings.box_read_ms = performance.now() - tb;
        }
        const t2 = performance.now();
        const grey = toGrey(img);
        const rules = classifyRegions({ img, grey, shapes, glyphs, lines: ocr.lines, scale });
        timings.classify_ms = performance.now() - t2;
        // With both: the model's elements on the edges drawn where they overlap a shape (a
        // rectangle or disc the proposals found, containers aside), and the rules' elements that
        // overlap none of them and do not lie mostly inside one (a check box's caption is no
        // link of its own).
        if (!proposals) candidates = rules;
        else {
          const drawn = shapes.filter((s) => !s.container);
          const gate = this.deps.rulesGate;
          const snapped = snapToShapes(proposals, drawn);
          const greyImage = { data: grey, width: img.width };
          const fitted = retypeByFace(fitToggles(joinSplitDropdowns(widenFields(snapped, drawn)), drawn, ocr.lines, greyImage), drawn, greyImage, scale);
          // The gate's model part keeps those of the model's elements likely right (with what the rules saw).
          // Where the gate knows how likely an element is right, that is its confidence (calibrated on the train
          // families' calibration split with what the rules and the model saw together).
          const { all: fused, kept: learned } = keepFused(fitted, ocr.lines, (l, all) => {
            const ctx = { scale, rules, learned: all };
            if (gate?.keepLearned && !gate.keepLearned(l, ctx)) return { keep: false };
            const confidence = gate?.learnedProbability?.(l, ctx);
            return { keep: true, ...(confidence !== undefined ? { confidence } : {}) };
          });
          const extras = rules.filter((r) => learned.every((l) => bboxIoU(l.bbox, r.bbox) < 0.5 && bboxCoverage(r.bbox, l.bbox) < 0.6));
          const judged = gate
            ? extras.flatMap((r) => {
                const ctx = { scale, learned };
                if (!gate.keep(r, ctx)) return [];
                const confidence = gate.probability?.(r, ctx);
                return [confidence === undefined ? r : { ...r, confidence }];
              })
            : extras;
          // The rules' kept elements are read as the model's are: a field showing its value (named by its caption), a
          // drop-down's arrow.
          const lines = ocr.lines;
          const retyped = retypeByFace(judged, drawn, greyImage, scale);
          const fieldBoxes = [...learned, ...retyped].filter((e) => isFieldType(e.type)).map((e) => e.bbox);
          const kept = retyped.map((r, k) => (judged[k]!.type === "button" && r.type !== "button" ? { ...r, label: captionOfField(r.bbox, lines, fieldBoxes) ?? r.label } : r));
          timings.model_elements = fused.length;
          timings.model_elements_kept = learned.length;
          timings.rules_extras = extras.length;
          timings.rules_extras_kept = kept.length;
          // The coarse pass's boxes where neither the model's nor the rules' elements stand, named as the model's are.
          // A field's or drop-down's box not on a drawn shape takes the edges drawn around its middle (drawnFieldAround).
          // A field the rules drew up to a drop-down's arrow button, which the model boxed alone, is that drop-down.
          const joined = joinSplitDropdowns([...learned, ...kept], (d, f, bbox) => ({ ...d, bbox, label: f.label, text: f.text, confidence: Math.max(d.confidence, f.confidence) }));
          const onDrawn = snapToShapes(fillIns(await fillsOf(), joined), drawn).map((f) => isFieldType(f.type) && !drawn.some((d) => d.bbox === f.bbox) ? { ...f, bbox: drawnFieldAround(frame, f.bbox) ?? f.bbox } : f);
          const filled = fuseWithOcr(onDrawn, ocr.lines);
          timings.fill_ins = filled.length;
          const found = [...joined, ...filled];
          // Then what the gate judges alone and a row, a column or a caption shows: a table's row selectors, toggles drawn
          // before their captions, a strip's tabs.
          const selectors = completeRowSelectors(found, drawn, ocr.lines, greyImage, scale);
          const toggles = completeCaptionedToggles([...found, ...selectors], drawn, ocr.lines, greyImage, scale);
          const completed = [...found, ...selectors, ...toggles];
          const all = [...completed, ...completeSwitches(completed, switches, ocr.lines)];
          // Each kept element's confidence, recalibrated by how it was found where the gate knows how (its fit).
          candidates = [...all, ...completeTabStrips(all, ocr.lines)].map((c) => {
            const calibrated = gate?.calibrate?.(c);
            return calibrated === undefined ? c : { ...c, confidence: calibrated };
          });
        }
      }
      // A row of like wordless boxes is read box by box (rowBoxesToRead): a box takes the digits read surely in it; the
      // numbers of those still unread follow from their places (numbered-run.ts, when located). A failure there loses
      // those digits only (property 39), not the screen.
      // (Not where the box reading above failed: its reader is gone for this screen, and those boxes are reported.)
      const rowBoxes = this.deps.ocr.readBoxes && !boxReadFailed ? rowBoxesToRead(candidates) : [];
      if (rowBoxes.length) {
        const tr = performance.now();
        try {
          const read = await this.deps.ocr.readBoxes!(frame, rowBoxes.map((r) => r.box), signal);
          const next = [...candidates];
          read.forEach((l, k) => {
            const digits = l.words.length === 1 && /^\d{1,3}$/u.test(l.words[0]!.text) && l.words[0]!.confidence >= 0.8 ? l.words[0]!.text : undefined;
            const at = rowBoxes[k]?.index;
            if (digits && at !== undefined) next[at] = { ...next[at]!, label: digits, text: digits };
          });
          candidates = next;
        } catch (e) {
          if (e instanceof AbortedError) throw e;
          for (const r of rowBoxes) regionErrors.push({ bbox: r.box, stage: "read_row", code: e instanceof RpaError ? e.code : "region_failed", message: (e as Error).message });
        }
        timings.row_box_reads = rowBoxes.length;
        timings.row_read_ms = performance.now() - tr;
      }
    } catch (e) {
      if (e instanceof AbortedError) throw e;
      failed = { code: e instanceof RpaError ? e.code : "detector_failed", message: (e as Error).message };
      candidates = [];
    }
    const t3 = performance.now();
    const elements: UIElement[] = [];
    const crops = new Map<string, Frame>();
    const vectors = new Map<string, { provider: string; vector: Vector }>();
    const seen = new Set<string>();
    const characterizeAll = async (list: readonly ElementCandidate[]) => {
      for (const c of list) {
        throwIfAborted(signal, "element characterization");
        try {
          const el = await this.characterize(frame, c, options, crops, vectors);
          if (seen.has(el.element_id)) continue;
          seen.add(el.element_id);
          elements.push(el);
        } catch (e) {
          if (e instanceof AbortedError) throw e;
          regionErrors.push({ bbox: c.bbox, stage: "characterize", code: e instanceof RpaError ? e.code : "region_failed", message: (e as Error).message });
        }
      }
    };
    await characterizeAll(candidates);
    timings.characterize_ms = performance.now() - t3;
    // Region proposals by the model (slow): after the heuristics, so that the new-screen check
    // embeds the state with its elements, as stored states are; only for a new screen when a
    // check is given (the design's _should_use_vlm).
    let vlmGate: ScreenNovelty | undefined;
    if (this.deps.vlm && !failed) {
      const tv = performance.now();
      try {
        if (this.deps.vlmGate) {
          const seen = perceptionFromOcr(ocr?.lines ?? []);
          vlmGate = await this.deps.vlmGate.check({ frame, detectedText: seen.detected_text, textBoxes: seen.text_boxes.filter((b) => b.level === "line"), elements, ...(options.windowTitle !== undefined ? { windowTitle: options.windowTitle } : {}), ...(options.appName !== undefined ? { appName: options.appName } : {}) }, signal);
          timings.vlm_gate_ms = performance.now() - tv;
        }
        if (!vlmGate || vlmGate.novel) {
          const regions = await this.deps.vlm.proposeRegions(frame, signal);
          vlmUsed = true;
          const extra: ElementCandidate[] = [];
          for (const r of regions) {
            const type = (UI_ELEMENT_TYPES as readonly string[]).includes(r.type ?? "") ? (r.type as UIElementType) : "generic_interactive";
            const bbox = clampBBox(r.bbox, frame);
            if (bbox[2] - bbox[0] < 2 || bbox[3] - bbox[1] < 2) continue;
            const same = elements.find((e) => bboxIoU(e.bbox, bbox) > 0.5) ?? extra.find((c) => bboxIoU(c.bbox, bbox) > 0.5);
            if (same) {
              same.confidence = Math.min(1, same.confidence + 0.1);
              continue;
            }
            extra.push({ type, bbox, label: r.label ?? "", text: r.label ?? "", confidence: Math.min(1, Math.max(0, r.confidence ?? 0.6)), method: "vlm_query", filled: false });
          }
          await characterizeAll(extra);
        }
      } catch (e) {
        if (e instanceof AbortedError) throw e;
        vlmError = (e as Error).message;
      }
      timings.vlm_ms = performance.now() - tv;
    }
    elements.sort((a, b) => a.bbox[1] - b.bbox[1] || a.bbox[0] - b.bbox[0]);
    const log = this.deps.logger ?? silentLogger();
    const round = (v: number) => Math.round(v * 10) / 10;
    log.debug({ stage: "detect", app: options.appName ?? "", elements: elements.length, text_lines: ocr?.lines.length ?? 0, ms: round(performance.now() - t0), timings: Object.fromEntries(Object.entries(timings).map(([k, v]) => [k, round(v)])) }, "detection done");
    if (failed || regionErrors.length || vlmError) {
      let screenshot: string | undefined;
      try {
        screenshot = await this.deps.saveFailure?.(frame, failed ? "detector_failed" : "region_failed");
      } catch (e) {
        log.error({ stage: "detect", err: (e as Error).message }, "could not save the screenshot of a failed detection");
      }
      if (failed) log.warn({ stage: "detect", code: failed.code, screenshot, err: failed.message }, "detection failed: matching falls back to the whole screen");
      for (const r of regionErrors) log.warn({ stage: r.stage, code: r.code, bbox: r.bbox, screenshot, err: r.message }, "region skipped");
      if (vlmError) log.warn({ stage: "vlm", screenshot, err: vlmError }, "VLM region proposal failed: heuristics only");
    }
    return {
      elements,
      crops,
      vectors,
      ocr,
      perception: perceptionFromOcr(ocr?.lines ?? []),
      metadata: {
        detection_time_ms: performance.now() - t0,
        num_elements_detected: elements.length,
        vlm_used: vlmUsed,
        ...(vlmGate ? { vlm_gate: vlmGate } : {}),
        timings,
        ...(failed ? { failed } : {}),
        ...(vlmError ? { vlm_error: vlmError } : {}),
        region_errors: regionErrors,
      },
    };
  }

  /** ElementCharacterizer: crop, label, role, embeddings (property 37) for one candidate. */
  private async characterize(frame: Frame, c: ElementCandidate, o: DetectOptions, crops: Map<string, Frame>, vectors: DetectionResult["vectors"]): Promise<UIElement> {
    const bbox = roundBBoxOut(clampBBox(c.bbox, frame));
    const appName = o.appName ?? "";
    const id = elementId(appName, bbox, c.label);
    const crop = cropFrame(frame, bbox);
    crops.set(id, crop);
    const role = describeRole(c.type, c.label, { filled: c.filled });
    let visualEmbedding: UIElement["visual"]["embedding"] = null;
    if (this.deps.imageEmbedder) {
      const v = await this.deps.imageEmbedder.embed(crop, o.signal);
      const vector_id = `data/embeddings/elements/${id}.npy`;
      vectors.set(vector_id, { provider: this.deps.imageEmbedder.name, vector: v });
      visualEmbedding = { provider: this.deps.imageEmbedder.name, vector_id };
    }
    let textEmbedding: UIElement["text"]["embedding"] = null;
    if (this.deps.textEmbedder && c.label.trim()) {
      const v = await this.deps.textEmbedder.embed(c.label, o.signal);
      const vector_id = `data/embeddings/elements/${id}_text.npy`;
      vectors.set(vector_id, { provider: this.deps.textEmbedder.name, vector: v });
      textEmbedding = { provider: this.deps.textEmbedder.name, vector_id };
    }
    return {
      schema_version: "uielement_v1",
      element_id: id,
      type: c.type,
      role: role.role,
      bbox: [bbox[0], bbox[1], bbox[2], bbox[3]],
      label: c.label,
      confidence: Math.round(Math.min(1, Math.max(0, c.confidence)) * 1000) / 1000,
      detection_method: c.method,
      visual: { screenshot_path: o.cropDir === undefined ? "" : `${o.cropDir}/${id}.png`, embedding: visualEmbedding },
      text: { raw: c.text, normalized: normalizeLabel(c.text), embedding: textEmbedding },
      properties: { is_clickable: role.is_clickable, is_focusable: role.is_focusable, is_dangerous: role.is_dangerous },
      context: { app_name: appName, window_title: o.windowTitle ?? "", workflow_hint: o.workflowHint ?? null },
      tags: [c.type, ...role.tags],
      ...(c.state ? { state: c.state } : {}),
    };
  }
}
