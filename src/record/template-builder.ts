// build_replay without a VLM: raw actions → workflow_v1 steps. Targets come from the detector run
// on the screenshot taken just before each action; typed text becomes variables (typed by what
// the data looks like, named after the field's label); intentions and expected states are written
// deterministically (French, as the plan) from window titles, labels and the text on screen.
import { join } from "node:path";
import { InvalidInputError } from "../core/errors.js";
import type { Frame } from "../core/frame.js";
import type { BBox, Point } from "../core/geometry.js";
import { bboxArea, bboxCenter, bboxContainsPoint, padBBox, positionOf } from "../core/geometry.js";
import type { UIElement } from "../core/schemas/uielement.js";
import { WORKFLOW_V1, type Step, type Target, type TargetCue, type Workflow, type WorkflowVariable } from "../core/schemas/workflow.js";
import { foldText, stripAccelerators } from "../core/text.js";
import { sameLabelInOrder, textTargets, typeCompatibility } from "../perception/locate.js";
import { addExpectations } from "./expectations.js";
import type { SessionAction } from "./recorder.js";
import { anchorOffsets, captionOf, iconCrop, iconRepeats, meaninglessLabel, medianTextHeight, offsetFrom, variableNameFrom, type WordList } from "./target-cues.js";
import { withoutWordsIn } from "../perception/learned-fusion.js";
import { fillContrast } from "../perception/icon-match.js";
import { nameIcon } from "../perception/icon-names.js";
import { iconClassAt, iconClassUnder } from "../perception/icon-class.js";
import type { IconRecognizer } from "../core/providers/icon-recognizer.js";
import { toGrey, toRgb } from "../perception/raster.js";
import { bboxFrameToScreen, bboxScreenToFrame, screenToFrame } from "../core/frame.js";
import { enclosingPanel } from "../perception/enclosing-panel.js";
import type { RawSession } from "./session.js";
import type { ScreenState } from "../core/schemas/screenstate.js";
import { addStepStates, recordingContext, type EmbedState, type StepStates } from "./step-states.js";

/** What the builder needs to see a recorded screen: elements and text lines (screen coordinates). */
export interface ScreenReader {
  read(frame: Frame): Promise<{ elements: readonly UIElement[]; lines: readonly { text: string; bbox: BBox; words?: readonly { text: string; bbox: BBox }[] }[] }>;
}

export interface BuildDeps {
  reader: ScreenReader;
  loadImage: (path: string) => Promise<Frame>;
  /** Writes an icon crop next to the workflow; returns its relative path. */
  saveIcon: (name: string, frame: Frame) => Promise<string>;
  onProgress?: (done: number, total: number) => void;
  /** The FR/EN word lists: variable names from captions are corrected against them (raw OCR otherwise). */
  words?: WordList;
  /**
   * The state embedder (the same at replay): given, each step keeps its recorded screen state
   * (`screen_state_id`, state vector, context); the caller stores `screenStates` and `vectors`
   * with the workflow.
   */
  embedState?: EmbedState;
  /** Names what icons show: an icon-only target keeps its icon's class (`icon_class`) when the recognizer is sure of it. */
  icons?: IconRecognizer;
}

export interface BuildResult {
  workflow: Workflow;
  warnings: string[];
  /** The steps' recorded screen states and their vectors (empty without `embedState`). */
  screenStates: ScreenState[];
  vectors: StepStates["vectors"];
}

const TYPE_WORDS_FR: Record<string, string> = {
  button: "le bouton", text_input: "le champ", dropdown: "la liste", tab: "l'onglet", checkbox: "la case", radio_button: "l'option", link: "le lien", generic_interactive: "l'élément",
};

/** Name of a variable typed where no label names it, by the kind of data. */
const VARIABLE_BASE_NAMES: Record<WorkflowVariable["type"], string> = {
  text: "texte", name: "nom", date: "date", amount: "montant", number: "nombre", file_name: "nom_fichier", path: "chemin", email: "email", identifier: "identifiant", secret: "mot_de_passe",
};

/** Variable type from what the typed data looks like. */
export function dataType(text: string): WorkflowVariable["type"] {
  const t = text.trim();
  if (/^\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}$|^\d{4}-\d{2}-\d{2}$/.test(t)) return "date";
  if (/^-?\d{1,3}([  .]?\d{3})*([.,]\d{1,2})?\s?(€|eur|EUR|\$|£)$|^(€|\$|£)\s?\d+([.,]\d{1,2})?$|^-?\d{1,3}([  .]\d{3})*[.,]\d{2}$/.test(t)) return "amount";
  if (/^[^\s@]+@[^\s@]+\.[a-z]{2,}$/i.test(t)) return "email";
  if (/^(\/|~\/|[A-Za-z]:\\)/.test(t)) return "path";
  if (/^[^\s/\\]+\.[A-Za-z0-9]{1,5}$/.test(t) && !/^\d+\.\d+$/.test(t)) return "file_name";
  if (/^\d+$/.test(t)) return "number";
  if (/^(?=.*\d)(?=.*[A-Za-z])[A-Za-z0-9][A-Za-z0-9_./-]*$/.test(t)) return "identifier";
  if (/^\p{Lu}[\p{L}'-]*(\s\p{Lu}[\p{L}'-]*){0,3}$/u.test(t)) return "name";
  return "text";
}

function snake(label: string): string {
  const s = foldText(label).replace(/[^a-z0-9]+/g, "_").replace(/^_+|_+$/g, "").slice(0, 32);
  return /^[a-z]/.test(s) ? s : s ? `v_${s}` : "";
}

function positionHint(b: BBox, size: { width: number; height: number }): string {
  const p = positionOf(b, size);
  return `${p.vertical}-${p.horizontal}`;
}

function describeScreen(window: SessionAction["window"], lines: readonly { text: string }[]): string {
  const title = window ? `Fenêtre « ${window.title} » (${window.app})` : "Écran";
  const seen = lines.map((l) => l.text.trim()).filter((t) => t.length > 1).slice(0, 8);
  return seen.length ? `${title} ; à l'écran : ${seen.join(" · ")}` : title;
}

export async function buildWorkflow(session: RawSession, deps: BuildDeps): Promise<BuildResult> {
  const warnings: string[] = [];
  if (session.truncatedTail !== undefined) warnings.push(`the session ends with an incomplete action (cut by a crash?), ignored: ${session.truncatedTail}`);
  if (!session.ended) warnings.push("the session has no end mark: the recorder did not stop cleanly; every complete action is used");
  // Left clicks at the same place within 400 ms are one double click (other buttons never are).
  const actions: (SessionAction & { double?: boolean })[] = [];
  for (const a of session.actions) {
    const prev = actions.at(-1);
    if (a.kind === "click" && a.button === 1 && prev?.kind === "click" && !prev.double && prev.button === a.button && a.t - prev.t <= 400 && Math.hypot((a.x ?? 0) - (prev.x ?? 0), (a.y ?? 0) - (prev.y ?? 0)) <= 6) {
      prev.double = true;
      prev.after = a.after;
      continue;
    }
    actions.push({ ...a });
  }
  if (actions.length === 0) throw new InvalidInputError(`${session.dir}: the session holds no action (nothing was clicked or typed); no workflow was written.`, { details: { source: session.dir } });
  const variables: WorkflowVariable[] = [];
  const steps: Step[] = [];
  const reads = new Map<string, Awaited<ReturnType<ScreenReader["read"]>> & { size: { width: number; height: number }; frame: Frame }>();
  const readShot = async (path: string | null) => {
    if (!path) return undefined;
    const hit = reads.get(path);
    if (hit) return hit;
    let frame: Frame;
    try {
      frame = await deps.loadImage(join(session.dir, path));
    } catch (e) {
      warnings.push(`${path}: ${(e as Error).message} — the step is built without seeing the screen`);
      return undefined;
    }
    const r = { ...(await deps.reader.read(frame)), size: { width: frame.width, height: frame.height }, frame };
    reads.set(path, r);
    return r;
  };
  const frames = new Map<string, Frame | undefined>();
  const loadFrame = async (path: string): Promise<Frame | undefined> => {
    if (reads.has(path)) return reads.get(path)!.frame;
    if (!frames.has(path)) frames.set(path, await deps.loadImage(join(session.dir, path)).catch(() => undefined));
    return frames.get(path);
  };
  let focused: Target | null = null;
  let focusedWindow = "";
  const selectable = new Set<Step>();
  // When the next action happens in another window (a dialog opened, the title changed), replay
  // must wait for it: a `wait_for` step.
  const waitForNext = (a: SessionAction, i: number) => {
    const next = actions[i + 1]?.window;
    if (!next || !a.window || next.title === a.window.title) return;
    steps.push({
      step_id: `step_${String(++n).padStart(3, "0")}`,
      action: "wait_for",
      intention: `Attendre la fenêtre « ${next.title} »`,
      by_text: null,
      target: null,
      variables: {},
      expected_state: `Fenêtre « ${a.window.title} » (${a.window.app})`,
      expected_result: `Fenêtre « ${next.title} » (${next.app}) active`,
      window: { title: next.title, app: next.app },
      timeout_ms: 10_000,
    });
  };
  let n = 0;
  for (const [i, a] of actions.entries()) {
    deps.onProgress?.(i, actions.length);
    const stepId = `step_${String(++n).padStart(3, "0")}`;
    const before = await readShot(a.before);
    const nextWindow = actions[i + 1]?.window ?? a.window;
    const expected_state = describeScreen(a.window, before?.lines ?? []);
    const expected_result = nextWindow && nextWindow.title !== a.window?.title ? `Fenêtre « ${nextWindow.title} » (${nextWindow.app})` : `Fenêtre « ${a.window?.title ?? ""} » inchangée`;
    const window = { title: a.window?.title ?? "", app: a.window?.app ?? "" };
    if (a.kind === "scroll") {
      // "This region of this window": the point relative to the client area, where the wheel turned.
      const wb = a.window?.bbox ?? [0, 0, 0, 0];
      const at: [number, number] = [(a.x ?? 0) - (wb[0] ?? 0), (a.y ?? 0) - (wb[1] ?? 0)];
      const dy = a.dy ?? 0;
      const dx = a.dx ?? 0;
      const how = [dy ? `${Math.abs(dy)} cran(s) vers le ${dy > 0 ? "bas" : "haut"}` : "", dx ? `${Math.abs(dx)} cran(s) vers la ${dx > 0 ? "droite" : "gauche"}` : ""].filter(Boolean).join(" et ");
      steps.push({ step_id: stepId, action: "scroll", intention: `Faire défiler ${how} au point (${at.join(", ")}) de la fenêtre`, by_text: null, target: null, variables: {}, expected_state, expected_result, window, scroll: { dx, dy, at } });
      waitForNext(a, i);
      continue;
    }
    if (a.kind === "click" || a.kind === "drag") {
      const point: Point = [a.x ?? 0, a.y ?? 0];
      // The screen before the pointer came: the previous action's "after", when the pointer was elsewhere then.
      const last = actions[i - 1];
      const calm = last?.after && last.window?.id === a.window?.id && (last.kind !== "click" || Math.hypot((last.x ?? 0) - point[0], (last.y ?? 0) - point[1]) > 60) ? await loadFrame(last.after) : undefined;
      const typedNext = actions[i + 1]?.kind === "type" && (actions[i + 1]?.window?.title ?? "") === (a.window?.title ?? "");
      const target = before ? await targetAt(before, point, stepId, deps, { window: a.window?.bbox, calm, typedNext, warn: (w) => warnings.push(w) }) : null;
      if (!target) warnings.push(`${stepId}: nothing recognisable under (${point.join(", ")}); the step keeps its recorded box only`);
      focused = target;
      focusedWindow = a.window?.title ?? "";
      const action = a.kind === "drag" ? "drag" : a.button === 3 ? "right_click" : a.button === 2 ? "middle_click" : a.double ? "double_click" : "click";
      const what = target ? describeTarget(target, a.window?.title ?? "") : `le point (${point.join(", ")})`;
      const verb = { click: "Cliquer sur", double_click: "Double-cliquer sur", right_click: "Clic droit sur", middle_click: "Clic du milieu sur", drag: "Glisser depuis" }[action];
      const prev = steps.at(-1);
      // A click on a dropdown followed by a click on one of its items is one choice: `select`.
      if (action === "click" && prev?.action === "click" && prev.target?.type === "dropdown" && target?.label && target.label !== prev.target.label && selectable.has(prev)) {
        selectable.delete(prev);
        prev.action = "select";
        prev.option = target.label;
        prev.intention = `Choisir « ${target.label} » dans ${TYPE_WORDS_FR.dropdown} « ${prev.target.label} »`;
        prev.expected_result = expected_result;
        n--;
        continue;
      }
      const step: Step = { step_id: stepId, action, intention: `${verb} ${what}`, by_text: target?.by_text ?? null, target, variables: {}, expected_state, expected_result, window, ...(a.kind === "drag" ? { to: [a.x2, a.y2] } : {}) };
      steps.push(step);
      if (action === "click" && target?.type === "dropdown") selectable.add(step);
      waitForNext(a, i);
      continue;
    }
    if (a.kind === "type") {
      // Typing goes to what the last click focused, unless another window came up since (a dialog).
      if ((a.window?.title ?? "") !== focusedWindow) focused = null;
      const label = focused?.caption?.text || focused?.label || "";
      const kind = a.secret ? "secret" : dataType(a.text ?? "");
      const base = variableNameFrom(label, deps.words) || VARIABLE_BASE_NAMES[kind];
      let name = base;
      for (let k = 2; variables.some((v) => v.name === name); k++) name = `${base}_${k}`;
      variables.push({ name, type: kind, example: a.secret ? null : (a.text ?? ""), secret: !!a.secret, steps: [stepId], description: label ? `saisi dans ${label}` : "texte saisi" });
      steps.push({
        step_id: stepId,
        action: "type",
        intention: a.secret ? `Saisir le secret {{${name}}}${label ? ` dans le champ « ${label} »` : ""}` : `Saisir {{${name}}}${label ? ` dans le champ « ${label} »` : ""}`,
        by_text: focused?.by_text ?? null,
        target: focused,
        text: `{{${name}}}`,
        variables: { [name]: a.secret ? null : (a.text ?? "") },
        expected_state,
        expected_result,
        window,
      });
      waitForNext(a, i);
      continue;
    }
    const combo = a.combo ?? "";
    steps.push({ step_id: stepId, action: "key", intention: `Appuyer sur ${combo}`, by_text: null, target: null, combo, variables: {}, expected_state, expected_result, window });
    if (combo === "Tab" || combo === "shift+Tab") focused = null;
    waitForNext(a, i);
  }
  deps.onProgress?.(actions.length, actions.length);
  const workflow: Workflow = {
    schema_version: WORKFLOW_V1,
    workflow_id: `wf_${snake(session.header.name) || "workflow"}`,
    name: session.header.name,
    app: session.header.app || actions.find((a) => a.window)?.window?.app || "",
    created_at: new Date().toISOString(),
    source_session: session.dir,
    variables,
    steps,
  };
  warnings.push(...(await addExpectations(workflow, { session, loadImage: deps.loadImage, saveCrop: deps.saveIcon })));
  if (!deps.embedState) return { workflow: { ...workflow, steps: workflow.steps.map((s) => ({ ...s, context: recordingContext(workflow, s.window.app) })) }, warnings, screenStates: [], vectors: [] };
  const states = await addStepStates(workflow, session, { read: readShot, embed: deps.embedState });
  return { workflow: states.workflow, warnings: [...warnings, ...states.warnings], screenStates: states.screenStates, vectors: states.vectors };
}

type ReadScreen = Awaited<ReturnType<ScreenReader["read"]>> & { size: { width: number; height: number }; frame: Frame };

/** The drawn panel around a click in an empty area, in window pixels, and the click's place in it. */
function panelAround(frame: Frame, point: Point, win: readonly number[]): Target["panel"] {
  const box = enclosingPanel(frame, screenToFrame(frame, point));
  if (!box) return undefined;
  const b = bboxFrameToScreen(frame, box);
  const at = (v: number, lo: number, hi: number) => Math.round(Math.min(1, Math.max(0, (v - lo) / (hi - lo))) * 1000) / 1000;
  return { window_box: [Math.round(b[0] - win[0]!), Math.round(b[1] - win[1]!), Math.round(b[2] - win[0]!), Math.round(b[3] - win[1]!)], at: [at(point[0], b[0], b[2]), at(point[1], b[1], b[3])] };
}

/** "le bouton « OK »", "le bouton (icône Close)", "la zone à 40 % × 30 % de la fenêtre « X »". */
function describeTarget(t: Target, windowTitle: string): string {
  const kind = TYPE_WORDS_FR[t.type ?? "generic_interactive"];
  if (t.label) return `${kind} « ${t.label} »`;
  if (t.region && t.window_box && t.window_size) {
    const [cx, cy] = bboxCenter(t.window_box);
    return `la zone à ${Math.round((100 * cx) / t.window_size[0])} % × ${Math.round((100 * cy) / t.window_size[1])} % de la fenêtre « ${windowTitle} »`;
  }
  if (t.caption?.text) return `${kind} « ${t.caption.text} »`;
  return `${kind} (icône)`;
}

interface TargetContext {
  /** The target window's client area (screen), when recorded. */
  window: readonly number[] | undefined;
  /** The screen before the pointer arrived (no hover highlight), when the session has it. */
  calm: Frame | undefined;
  /** The next action types into what this click focuses. */
  typedNext: boolean;
  warn: (w: string) => void;
}

/**
 * The target under a recorded click, described by every cue: the element (smallest containing
 * box), else the text under it; its caption, nearby texts with offsets, its box relative to the
 * window, the UI scale, and an icon crop only when it can match. With no label, caption or icon,
 * the target is "this region of this window", and says so.
 */
async function targetAt(screen: ReadScreen, point: Point, stepId: string, deps: BuildDeps, ctx: TargetContext): Promise<Target | null> {
  const win: BBox | undefined = ctx.window && ctx.window.length === 4 ? [ctx.window[0]!, ctx.window[1]!, ctx.window[2]!, ctx.window[3]!] : undefined;
  const inWindow = <T extends { bbox: BBox }>(x: T) => !win || bboxContainsPoint(win, bboxCenter(x.bbox));
  // A box many text lines high is an area, not a control, whatever the detector called it: empty (a canvas, an empty
  // document), or holding lines of text (a list, a document, a table), whose line under the click is the target.
  const allTextPx = medianTextHeight(screen.lines.filter(inWindow));
  const linesIn = (b: BBox) => screen.lines.filter((l) => bboxContainsPoint(b, bboxCenter(l.bbox))).length;
  const areas = new Set(screen.elements.filter((e) => !!allTextPx && e.bbox[3] - e.bbox[1] > 4 * allTextPx && linesIn(e.bbox) !== 1));
  const isArea = (e: UIElement) => areas.has(e);
  // Text typed into fields is data (it changes with every row): no anchor, no caption. An area's lines are no typed data.
  const fields = screen.elements.filter((e) => e.type === "text_input" && !isArea(e));
  // A line OCR merged across a caption and its field (« Nom du client |Martin ») keeps only its words outside the fields.
  const lines = screen.lines
    .filter(inWindow)
    .map((l) => withoutWordsIn(l, fields))
    .filter((l): l is NonNullable<typeof l> => !!l && !fields.some((f) => bboxContainsPoint(f.bbox, bboxCenter(l.bbox))));
  const textPx = medianTextHeight(lines);
  let el: UIElement | undefined = screen.elements.filter((e) => bboxContainsPoint(e.bbox, point) && !isArea(e)).sort((a, b) => bboxArea(a.bbox) - bboxArea(b.bbox))[0];
  // Text under the click: the smallest phrase or word of a line (a menu bar is one OCR line).
  let line: { text: string; bbox: BBox } | undefined = textTargets(lines, [])
    .filter((l) => bboxContainsPoint(padBBox(l.bbox, 4), point))
    .sort((a, b) => bboxArea(a.bbox) - bboxArea(b.bbox))
    .map((l) => ({ text: l.label, bbox: l.bbox }))[0] ?? rowText({ ...screen, lines }, point);
  // A click on a row away from its text (a list's row, clicked right of its text): the nearest element, else line, on
  // that row inside the same drawn panel as the click.
  if (!el && !line) {
    const row = rowInPanel(screen, screen.elements.filter((e) => !isArea(e)), lines, point);
    if (row && "element_id" in row) el = row;
    else if (row) line = row;
  }
  const box: BBox | undefined = el?.bbox ?? line?.bbox;
  const type = el?.type ?? (line ? "generic_interactive" : null);
  // A menu item's shortcut ("Ctrl+O") is read with its text; the item is "Open…".
  let label = stripAccelerators(el?.label ?? line?.text ?? "");
  const caption = box && type && ["text_input", "dropdown", "checkbox", "radio_button"].includes(type) ? captionOf(box, type, lines) : undefined;
  // One or two characters that are no word (an icon-only button read « v » or « y »): not a name.
  let iconName: string | undefined;
  if (label && meaninglessLabel(label)) {
    ctx.warn(`${stepId}: the text « ${label} » under the click is no name (an icon read by OCR); the target is named by its icon and surroundings`);
    label = "";
  }
  if (!label && el && el.type !== "text_input") {
    const g = toGrey(toRgb(screen.frame));
    iconName = nameIcon(g, screen.frame.width, bboxScreenToFrame(screen.frame, el.bbox));
  }
  const center: Point = box ? bboxCenter(box) : point;
  const exclude = [label, caption?.text ?? ""].filter(Boolean);
  const anchors = anchorOffsets(center, el?.bbox, exclude, lines);
  let icon: string | null = null;
  let iconStd: number | undefined;
  if (!label.trim() && !(type === "text_input" && caption)) {
    // The crop is the thing under the click: its element, else the box OCR read there (an icon read
    // as « B » or « 8 » is bounded by that box); 80×80 around the point only when neither is seen.
    const crop = iconCrop(screen.frame, ctx.calm, point, el?.bbox ?? line?.bbox, win);
    const found = anchors.length ? "found by the texts around it and its place in the window" : "this region of the window";
    const repeats = "flat" in crop ? undefined : iconRepeats(screen.frame, crop, win);
    if ("flat" in crop) ctx.warn(`${stepId}: the icon crop under (${point.join(", ")}) is flat (grey deviation ${crop.std}): it could never match; the target is ${found}`);
    else if (repeats) ctx.warn(`${stepId}: the icon crop under (${point.join(", ")}) matches elsewhere in its window as well (correlation ${repeats.score}): it cannot tell the target apart; the target is ${found}`);
    else {
      icon = await deps.saveIcon(`${stepId}.png`, crop.frame);
      iconStd = crop.std;
    }
  }
  if (!box && !icon && !win) return null;
  // What the icon shows, when the recognizer is sure of it: replay refuses another icon at its place and finds it redrawn.
  // The icon: the one in the element's box (else the text's), or — an icon kept for its crop that no element bounds —
  // the icon-sized blob under the click.
  const iconClass =
    label.trim() || type === "text_input" || !deps.icons
      ? undefined
      : box
        ? await iconClassAt(screen.frame, bboxScreenToFrame(screen.frame, box), deps.icons)
        : icon
          ? await iconClassUnder(screen.frame, screenToFrame(screen.frame, point), deps.icons)
          : undefined;
  const named = label || iconName || "";
  const ordinal = named && box && !iconName ? ordinalOf(box, named, type, screen) : undefined;
  const wbox: BBox | undefined = win ? (box ? [box[0] - win[0], box[1] - win[1], box[2] - win[0], box[3] - win[1]] : [point[0] - win[0] - 20, point[1] - win[1] - 20, point[0] - win[0] + 20, point[1] - win[1] + 20]) : undefined;
  const region = !named && !caption && !icon;
  // An empty area inside a drawn panel: where in the panel, which replay finds again around the point.
  const panel = region && win ? panelAround(ctx.calm && ctx.calm.width === screen.frame.width && ctx.calm.height === screen.frame.height ? ctx.calm : screen.frame, point, win) : undefined;
  const cues: TargetCue[] = [];
  if (named && !iconName) cues.push("label");
  if (caption) cues.push("caption");
  if (icon) cues.push("icon");
  if (anchors.length) cues.push("anchors");
  if (wbox) cues.push("position");
  if (el) cues.push("type");
  const fill = box && ctx.typedNext ? fillContrast(screen.frame, bboxScreenToFrame(screen.frame, box)) : undefined;
  return {
    type,
    label: iconName ?? label,
    by_text: named && !iconName ? (el?.text?.raw?.trim() && el.type !== "text_input" && !meaninglessLabel(el.text.raw) ? stripAccelerators(el.text.raw) || label : label) : null,
    role: el?.role ?? null,
    position_hint: box ? positionHint(box, screen.size) : null,
    anchors: anchors.slice(0, 3).map((a) => a.text),
    recorded_bbox: box ? [box[0], box[1], box[2], box[3]] : [point[0] - 40, point[1] - 40, point[0] + 40, point[1] + 40],
    icon,
    ...(ordinal ? { ordinal } : {}),
    caption: caption ? { text: caption.text, ...offsetFrom(center, caption.bbox) } : null,
    anchor_offsets: anchors,
    ...(wbox && win ? { window_box: [Math.round(wbox[0]), Math.round(wbox[1]), Math.round(wbox[2]), Math.round(wbox[3])] as [number, number, number, number], window_size: [win[2] - win[0], win[3] - win[1]] as [number, number] } : {}),
    ...(textPx ? { text_px: textPx } : {}),
    cues,
    ...(region ? { region: true } : {}),
    ...(panel ? { panel } : {}),
    ...(ctx.typedNext ? { typed_into: true } : {}),
    ...(iconStd !== undefined ? { icon_contrast: iconStd } : {}),
    ...(iconClass ? { icon_class: iconClass.name } : {}),
    ...(fill !== undefined ? { fill_contrast: fill } : {}),
  };
}

/**
 * A click on a list row or menu item away from its text ("Right" in a popup list, clicked at the
 * row's middle): the text on the same row, within three line heights to the left or right.
 */
function rowText(screen: Awaited<ReturnType<ScreenReader["read"]>>, point: Point): { text: string; bbox: BBox } | undefined {
  return textTargets(screen.lines, [])
    .filter((l) => point[1] >= l.bbox[1] - 2 && point[1] <= l.bbox[3] + 2)
    .map((l) => ({ l, gap: point[0] < l.bbox[0] ? l.bbox[0] - point[0] : point[0] > l.bbox[2] ? point[0] - l.bbox[2] : 0, h: l.bbox[3] - l.bbox[1] }))
    .filter((x) => x.gap <= 3 * x.h && !x.l.words)
    .sort((a, b) => a.gap - b.gap)
    .map((x) => ({ text: x.l.label, bbox: x.l.bbox }))[0];
}

/**
 * The thing on the clicked row inside the drawn panel around the click: the elements and lines whose height spans the
 * click's and whose box lies in that panel, the nearest across; undefined without a panel round the click.
 */
function rowInPanel(screen: ReadScreen, elements: readonly UIElement[], lines: readonly { text: string; bbox: BBox }[], point: Point): UIElement | { text: string; bbox: BBox } | undefined {
  const found = enclosingPanel(screen.frame, screenToFrame(screen.frame, point));
  if (!found) return undefined;
  const panel = bboxFrameToScreen(screen.frame, found);
  const onRow = (b: BBox) => point[1] >= b[1] - 2 && point[1] <= b[3] + 2 && b[0] >= panel[0] - 2 && b[2] <= panel[2] + 2 && b[1] >= panel[1] - 2 && b[3] <= panel[3] + 2;
  const gap = (b: BBox) => (point[0] < b[0] ? b[0] - point[0] : point[0] > b[2] ? point[0] - b[2] : 0);
  const things: (UIElement | { text: string; bbox: BBox })[] = [...elements.filter((e) => onRow(e.bbox)), ...lines.filter((l) => onRow(l.bbox))];
  return things.sort((a, b) => gap(a.bbox) - gap(b.bbox) || ("element_id" in a ? 0 : 1) - ("element_id" in b ? 0 : 1))[0];
}

/**
 * Where the target stands among the things on screen with the same label and a compatible type
 * ("the 2nd « checkbutton »"), when there are several.
 */
function ordinalOf(box: BBox, label: string, type: Target["type"], screen: Awaited<ReturnType<ScreenReader["read"]>>): { index: number; count: number } | undefined {
  // A field's caption is no second field: controls are ranked among controls only.
  const control = type === "text_input" || type === "dropdown" || type === "checkbox" || type === "radio_button";
  const all = [...screen.elements, ...textTargets(screen.lines, screen.elements)].filter((e) => !type || (e.element_id.startsWith("text:") ? !control : typeCompatibility(type, e.type) >= 0.6));
  const same = sameLabelInOrder(all, label, 0.999);
  const index = same.findIndex((s) => s.bbox[0] === box[0] && s.bbox[1] === box[1] && s.bbox[2] === box[2] && s.bbox[3] === box[3]);
  return same.length > 1 && index >= 0 ? { index, count: same.length } : undefined;
}
