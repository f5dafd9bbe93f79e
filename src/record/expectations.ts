// Expectations as data (style guide, after OSWorld's evaluators): each step gets machine-checkable
// expectations next to its human sentences — before: the window, the elements it needs, the
// recorded state's vector; after: typed post-conditions (window_open / window_closed /
// window_active, field_value, toggle_state, text_present, region_changed). Written from the
// structure of the recording (actions, targets, windows, the recorded screenshots), never from a
// sentence. The builder calls `addExpectations`; replay calls `deriveExpectations` on workflows
// built before expectations existed and says what could not be derived.
import { join } from "node:path";
import type { Frame } from "../core/frame.js";
import { bboxScreenToFrame, cropFrame } from "../core/frame.js";
import { bboxContainsPoint, clampBBox, type BBox } from "../core/geometry.js";
import type { Postcondition, RequiredElement, Step, StepExpectations, Target, Workflow } from "../core/schemas/workflow.js";
import { describeRole } from "../perception/roles.js";
import type { RawSession } from "./session.js";

const TOGGLES = new Set(["checkbox", "radio_button"]);
const CHANGES_ON_CLICK = new Set(["checkbox", "radio_button", "tab", "dropdown"]);
const FOCUSABLE = new Set(["text_input", "dropdown", "generic_interactive"]);

/** Folded title without the modified marker, to tell "the same window, now modified" from another window. */
function bare(title: string): string {
  return title.replace(/^\s*\*\s*/, "").trim();
}

const sameWindow = (a: Step["window"], b: Step["window"]) => a.app.toLowerCase() === b.app.toLowerCase() && bare(a.title) === bare(b.title);

/** The target's danger, from its type and label (perception's role lexicon), unless the builder already said. */
export function targetIsDangerous(t: Target | null): boolean {
  if (!t) return false;
  if (t.is_dangerous !== undefined) return t.is_dangerous;
  return !!t.label.trim() && describeRole(t.type ?? "button", t.label).is_dangerous;
}

function required(t: Target | null): RequiredElement[] {
  return t && t.label.trim() ? [{ type: t.type, label: t.by_text ?? t.label, role: t.role, position_hint: t.position_hint }] : [];
}

/** The earlier step of the same window whose target a typing step types into (the click that focused it). */
function focusingStep(steps: readonly Step[], i: number): Step | undefined {
  const s = steps[i]!;
  if (!s.target) return undefined;
  for (let k = i - 1; k >= 0; k--) {
    const p = steps[k]!;
    if (!sameWindow(p.window, s.window)) return undefined;
    if (p.action === "click" && p.target && p.target.label === s.target.label && p.target.type === s.target.type) return p;
    if (p.action !== "wait_for") return undefined;
  }
  return undefined;
}

/** The window the next acting step happens in, if another one. */
function nextWindow(steps: readonly Step[], i: number): Step["window"] | undefined {
  const n = steps[i + 1];
  return n ? n.window : undefined;
}

interface Derived {
  after: Postcondition[];
  checked_by?: string;
  not_derived: string[];
}

/** Post-conditions from the structure alone: actions, targets, windows of this step and the next ones. */
function structural(steps: readonly Step[], i: number, secretText: (s: Step) => boolean): Derived {
  const s = steps[i]!;
  const after: Postcondition[] = [];
  const not_derived: string[] = [];
  if (s.action === "wait_for") return { after: [{ kind: "window_open", window: s.window }], not_derived };
  const next = nextWindow(steps, i);
  if (next && (next.title !== s.window.title || next.app.toLowerCase() !== s.window.app.toLowerCase())) {
    if (sameWindow(next, s.window)) {
      after.push({ kind: "window_active", window: next, modified: /^\s*\*/.test(next.title) });
      // Typing that retitled its own window (an editor's « * ») is still read back where it went: the title says the
      // document changed, not that this text is in it.
      if (s.action !== "type") return { after, not_derived };
    } else {
      after.push({ kind: "window_open", window: next });
      // A window the task opened (a dialog) that no later step uses again closes with this step
      // (Return in « Open File »); the task's first window may just be retitled.
      const opened = !sameWindow(steps[0]!.window, s.window);
      if (opened && !steps.slice(i + 1).some((x) => sameWindow(x.window, s.window))) after.push({ kind: "window_closed", window: s.window });
      return { after, not_derived };
    }
  }
  if (s.action === "type") {
    const text = s.text ?? "";
    const masked = secretText(s);
    const field = focusingStep(steps, i);
    if (s.target && FOCUSABLE.has(s.target.type ?? "")) after.push({ kind: "field_value", region: field ? { of: "step", step_id: field.step_id } : { of: "target" }, value: text, ...(masked ? { masked: true } : {}) });
    else if (!masked) after.push({ kind: "text_present", region: { of: "window" }, text });
    else not_derived.push("a secret typed outside a known field cannot be read back");
    return { after, not_derived };
  }
  if (s.action === "select") {
    after.push({ kind: "text_present", region: { of: "target" }, text: s.option ?? "" });
    return { after, not_derived };
  }
  if (s.action === "click" && s.target && FOCUSABLE.has(s.target.type ?? "") && !CHANGES_ON_CLICK.has(s.target.type ?? "")) {
    // A click that focuses a field is checked by the typing that follows (its text read back there).
    const typer = steps.slice(i + 1).findIndex((x, k) => x.action === "type" && focusingStep(steps, i + 1 + k)?.step_id === s.step_id);
    if (typer >= 0) return { after, checked_by: steps[i + 1 + typer]!.step_id, not_derived };
  }
  if (s.target && CHANGES_ON_CLICK.has(s.target.type ?? "") && s.action === "click") {
    after.push({ kind: "region_changed", region: { of: "target" } });
    return { after, not_derived };
  }
  // A click on a place nothing names (an empty area, a canvas: the target is a region of the
  // window) has no effect anyone can expect to see: no check that could never be met.
  if (s.action === "click" && s.target && (s.target.region || (!s.target.label.trim() && !s.target.type && !s.target.icon))) {
    not_derived.push(NO_VISIBLE_EFFECT.region);
    return { after, not_derived };
  }
  // Anything else must change what the window shows (or its title, or close it): weak, but evidence.
  after.push({ kind: "region_changed", region: { of: "window" }, title: true });
  if (!next && s.action !== "key") not_derived.push("the last step: which window it leaves open is not recorded");
  return { after, not_derived };
}

const onlyWindowChange = (e: StepExpectations) => e.after.length === 1 && e.after[0]!.kind === "region_changed" && e.after[0]!.region.of === "window";

/** Why a click is stated unverified: nothing on the screen can show its effect. */
export const NO_VISIBLE_EFFECT = {
  region: "a click on a place nothing names (a region of the window): no visible effect is expected, so nothing on the screen can confirm it (unverified)",
  recorded: "the recorded click changed nothing visible in its window: nothing on the screen can confirm it (unverified)",
} as const;

function secretStepOf(wf: Pick<Workflow, "variables">): (s: Step) => boolean {
  const secrets = wf.variables.filter((v) => v.secret).map((v) => `{{${v.name}}}`);
  return (s) => secrets.some((t) => (s.text ?? "").includes(t));
}

function expectationsOf(steps: readonly Step[], i: number, wf: Pick<Workflow, "variables">, source: StepExpectations["source"]): StepExpectations {
  const s = steps[i]!;
  const d = structural(steps, i, secretStepOf(wf));
  return {
    before: { window: s.window, required_elements: required(s.target), state_vector_id: null },
    after: d.after,
    ...(d.checked_by ? { checked_by: d.checked_by } : {}),
    source,
    ...(d.not_derived.length ? { not_derived: d.not_derived } : {}),
  };
}

/** A target that may be a check box the detector did not name: no text, small and about square. */
export function mayBeToggle(t: Target): boolean {
  // The box in window units (logical pixels) when recorded, else as recorded.
  const b = t.window_box ?? t.recorded_bbox;
  if (!b || t.label.trim() || (t.type && !["generic_interactive", "button"].includes(t.type))) return false;
  const [w, h] = [b[2] - b[0], b[3] - b[1]];
  return w >= 8 && h >= 8 && w <= 48 && h <= 48 && w / h >= 0.6 && w / h <= 1.67;
}

/**
 * Did the click show anything in its window between the recorded screens before and after it?
 * Pixels that moved by more than a rendering wobble (60 over the three channels), at least 4 of
 * them, and not only a hair-thin upright line (a text cursor blinking in a field). Pixels inside
 * `ignore` (boxes in the frames' pixels) are left out.
 */
export function visibleChange(a: Frame, b: Frame, ignore: readonly BBox[] = []): boolean {
  if (a.width !== b.width || a.height !== b.height) return true;
  let n = 0;
  let x0 = Infinity, y0 = Infinity, x1 = -1, y1 = -1;
  for (let y = 0; y < a.height; y++)
    for (let x = 0; x < a.width; x++) {
      if (ignore.some((g) => x >= g[0] && x < g[2] && y >= g[1] && y < g[3])) continue;
      const o = (y * a.width + x) * a.channels;
      const p = (y * b.width + x) * b.channels;
      if (Math.abs(a.data[o]! - b.data[p]!) + Math.abs(a.data[o + 1]! - b.data[p + 1]!) + Math.abs(a.data[o + 2]! - b.data[p + 2]!) <= 60) continue;
      n++;
      x0 = Math.min(x0, x);
      x1 = Math.max(x1, x);
      y0 = Math.min(y0, y);
      y1 = Math.max(y1, y);
    }
  if (n < 4) return false;
  const thin = x1 - x0 + 1 <= Math.max(2, Math.round(2 * a.scaleFactor)) && y1 - y0 > x1 - x0;
  return !thin;
}

/** One colour all over (within 2 levels): no window drawn there (the root window behind a closed one). */
function flat(f: Frame): boolean {
  let lo = 255, hi = 0;
  for (let i = 0; i < f.data.length; i += f.channels)
    for (let c = 0; c < Math.min(3, f.channels); c++) {
      const v = f.data[i + c]!;
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
  return f.data.length > 0 && hi - lo <= 2;
}

/** Did at least 5 % of the pixels change between two crops of the same box? */
/**
 * Did the look of a small box change (5 % of its pixels by more than a rendering wobble)? With `inside`, only pixels of
 * its interior count — a fifth of its size in from each edge (at least 3 px) — so a focus ring drawn round it is no change.
 */
export function lookChanged(a: Frame, b: Frame, inside = false): boolean {
  if (a.width !== b.width || a.height !== b.height) return false;
  const mx = inside ? Math.max(3, Math.round(0.2 * a.width)) : 0;
  const my = inside ? Math.max(3, Math.round(0.2 * a.height)) : 0;
  if (a.width - 2 * mx < 2 || a.height - 2 * my < 2) return false;
  let n = 0;
  for (let y = my; y < a.height - my; y++)
    for (let x = mx; x < a.width - mx; x++) {
      const o = (y * a.width + x) * a.channels;
      if (Math.abs(a.data[o]! - b.data[o]!) + Math.abs(a.data[o + 1]! - b.data[o + 1]!) + Math.abs(a.data[o + 2]! - b.data[o + 2]!) > 60) n++;
    }
  return n >= 0.05 * a.width * a.height;
}

export interface ExpectationDeps {
  session: RawSession;
  loadImage: (path: string) => Promise<Frame>;
  /** Writes a crop next to the workflow; returns its relative path. */
  saveCrop: (name: string, frame: Frame) => Promise<string>;
}

/**
 * Called by the builder once the steps are written: expectations for every step, the targets'
 * danger, the toggles' recorded looks (the crop before and after the recorded click), and the
 * command line that started the app when the session recorded one.
 */
export async function addExpectations(wf: Workflow, deps: ExpectationDeps): Promise<string[]> {
  const warnings: string[] = [];
  const clicks = deps.session.actions.filter((a) => a.kind === "click");
  const actions = deps.session.actions;
  /**
   * The screens just before and after a click. The after screen is taken a moment after the click;
   * when the person acted again sooner (OK clicked at once closes the window), it can show the
   * window gone: then the screen just before the next action is the one after this click.
   */
  const framesOf = new Map<(typeof clicks)[number], Promise<[Frame, Frame]>>();
  const clickFrames = (a: (typeof clicks)[number], stepId: string): Promise<[Frame, Frame]> => {
    const known = framesOf.get(a);
    if (known) return known;
    const loaded = loadClickFrames(a, stepId);
    framesOf.set(a, loaded);
    return loaded;
  };
  async function loadClickFrames(a: (typeof clicks)[number], stepId: string): Promise<[Frame, Frame]> {
    const f0 = await deps.loadImage(join(deps.session.dir, a.before!));
    const f1 = await deps.loadImage(join(deps.session.dir, a.after!));
    const win = a.window ? clampBBox(bboxScreenToFrame(f1, a.window.bbox as BBox), f1) : undefined;
    const next = actions[actions.indexOf(a) + 1];
    if (win && win[2] - win[0] >= 2 && win[3] - win[1] >= 2 && flat(cropFrame(f1, win)) && !flat(cropFrame(f0, win)) && next?.before) {
      const n = await deps.loadImage(join(deps.session.dir, next.before));
      if (!flat(cropFrame(n, clampBBox(win, n)))) {
        warnings.push(`${stepId}: the screen after the click shows no window (taken after the next action): the screen before the next action stands for it`);
        return [f0, n];
      }
    }
    return [f0, f1];
  }
  let cursor = 0;
  for (const [i, s] of wf.steps.entries()) {
    if (s.target && s.target.is_dangerous === undefined) s.target.is_dangerous = targetIsDangerous(s.target);
    const e = expectationsOf(wf.steps, i, wf, "recorded");
    if (s.action === "click" && s.target?.recorded_bbox) {
      const box = s.target.recorded_bbox;
      const k = clicks.findIndex((a, j) => j >= cursor && a.window?.title === s.window.title && bboxContainsPoint(box, [a.x ?? -1, a.y ?? -1]));
      if (k >= 0) {
        cursor = k + 1;
        const a = clicks[k]!;
        // A small square without text whose look the click did not change is no check box: its
        // click is judged as any other's below (an icon-only Save that shows nothing).
        let toggleLike = (TOGGLES.has(s.target.type ?? "") || mayBeToggle(s.target)) && !!a.before && !!a.after;
        if (toggleLike && !TOGGLES.has(s.target.type ?? "")) {
          try {
            const [f0, f1] = await clickFrames(a, s.step_id);
            // Inside its edges: a focus ring drawn round a button it clicked is no tick.
            toggleLike = lookChanged(cropFrame(f0, clampBBox(box, f0)), cropFrame(f1, clampBBox(box, f1)), true) && !e.after.some((c) => c.kind !== "region_changed");
          } catch {
            toggleLike = false;
          }
        }
        // A « tab » whose click left its own look as it was when recorded (a row of buttons the detector took for tabs):
        // its change is not asked for; the window's is, as for any button, if the recording showed one.
        if (s.target.type === "tab" && a.before && a.after && e.after.length === 1 && e.after[0]!.kind === "region_changed" && e.after[0]!.region.of === "target") {
          try {
            const [f0, f1] = await clickFrames(a, s.step_id);
            if (!visibleChange(cropFrame(f0, clampBBox(box, f0)), cropFrame(f1, clampBBox(box, f1)))) e.after = [{ kind: "region_changed", region: { of: "window" }, title: true }];
          } catch {
            // judged as derived
          }
        }
        if (toggleLike && a.before && a.after) {
          try {
            const [f0, f1] = await clickFrames(a, s.step_id);
            const crop = (f: Frame) => cropFrame(f, clampBBox(box, f));
            if (!TOGGLES.has(s.target.type ?? "")) {
              // A small square without text whose look the click changed, in a window that stayed
              // (no other window, no new title): a check box the detector did not name. Its looks
              // are the check; the window's change is no longer asked for.
              e.after = e.after.filter((c) => !(c.kind === "region_changed" && c.region.of === "window"));
              e.after.push({ kind: "region_changed", region: { of: "target" } });
            }
            const off = await deps.saveCrop(`${s.step_id}-off.png`, crop(f0));
            const on = await deps.saveCrop(`${s.step_id}-on.png`, crop(f1));
            e.after.push({ kind: "toggle_state", region: { of: "target" }, state: "on", on_crop: on, off_crop: off });
          } catch (err) {
            warnings.push(`${s.step_id}: the toggle's recorded look could not be kept (${(err as Error).message}); only a change is checked`);
          }
        } else if (a.before && a.after && a.window && (onlyWindowChange(e) || (e.after.length === 0 && e.not_derived?.includes(NO_VISIBLE_EFFECT.region)))) {
          // Only « the window changed » was derived (or nothing, for a place nothing names): the
          // recording says whether the click showed anything. One that showed nothing then (a
          // mark in an empty canvas, a button that only saves) is stated unverified, never asked
          // for a change that cannot come; one that did is asked for it again.
          try {
            const [f0, f1] = await clickFrames(a, s.step_id);
            const win = clampBBox(bboxScreenToFrame(f0, a.window!.bbox as BBox), f0);
            const crop = (f: Frame) => cropFrame(f, win);
            const notes = (e.not_derived ?? []).filter((n) => n !== NO_VISIBLE_EFFECT.region);
            // The after screen is taken a moment after the click, while the person's pointer may
            // already be on the next target: that target's hover look is not the click's effect.
            const next = wf.steps.slice(i + 1).find((n) => n.action === "click" && n.target?.recorded_bbox)?.target?.recorded_bbox;
            const pad = 2 * f0.scaleFactor;
            const hover: BBox[] = next ? [[next[0] - pad - Math.floor(win[0]), next[1] - pad - Math.floor(win[1]), next[2] + pad - Math.floor(win[0]), next[3] + pad - Math.floor(win[1])]] : [];
            if (!visibleChange(crop(f0), crop(f1), hover)) {
              e.after = [];
              e.not_derived = [...notes, NO_VISIBLE_EFFECT.recorded];
            } else {
              e.after = [{ kind: "region_changed", region: { of: "window" }, title: true }];
              if (notes.length) e.not_derived = notes;
              else delete e.not_derived;
            }
          } catch (err) {
            warnings.push(`${s.step_id}: the recorded screens around the click could not be compared (${(err as Error).message}); a change of the window is checked`);
          }
        }
      }
    }
    s.expect = e;
  }
  const launch = (deps.session.header as { launch?: { command?: unknown; args?: unknown } }).launch;
  if (launch && typeof launch.command === "string" && launch.command && Array.isArray(launch.args) && launch.args.every((x) => typeof x === "string")) wf.launch = { command: launch.command, args: launch.args as string[] };
  return warnings;
}

/**
 * A workflow built before expectations existed (or edited by hand): the expectations derivable
 * from its structure are added to the steps that have none; `notes` says, per step, what could not
 * be derived (it will be reported as unverified). The workflow file is not changed.
 */
export function deriveExpectations(wf: Workflow): { workflow: Workflow; notes: string[] } {
  const notes: string[] = [];
  const steps = wf.steps.map((s) => ({ ...s }));
  for (const [i, s] of steps.entries()) {
    if (s.expect) continue;
    s.expect = expectationsOf(steps, i, wf, "derived");
    if (s.target && s.target.is_dangerous === undefined) s.target = { ...s.target, is_dangerous: targetIsDangerous(s.target) };
    if (TOGGLES.has(s.target?.type ?? "")) (s.expect.not_derived ??= []).push("the toggle's on/off look was not recorded: only a change is checked, and an already ticked box is not recognised");
    for (const n of s.expect.not_derived ?? []) notes.push(`${s.step_id}: ${n}`);
  }
  return { workflow: { ...wf, steps }, notes };
}
