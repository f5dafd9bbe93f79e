// Each built step keeps the recorded screen state it started from (design: a workflow_step points
// at its screenstate_v1 by `screen_state_id`, and at its state vector): the screenshot taken just
// before the action, cropped to the action's window, read (elements, text) and embedded with the
// workflow context present at recording (property 24: stored in the step's `context`; property 10:
// included in the state embedding), and as its zoom-pyramid crops (`state_view_vector_ids`: a live
// screen at a larger scale shows one of them). Every vector made here belongs to that step and to
// that screen state (property 15): the caller stores vectors, screen states and the workflow together.
import { basename, join } from "node:path";
import { cropFrame, type Frame } from "../core/frame.js";
import { clampBBox, type BBox } from "../core/geometry.js";
import { SCREENSTATE_V1, type ScreenState } from "../core/schemas/screenstate.js";
import type { UIElement } from "../core/schemas/uielement.js";
import type { StepContext, Workflow } from "../core/schemas/workflow.js";
import { viewVectorIdFor } from "../core/vector-ids.js";
import type { Vector } from "../core/vectors.js";
import type { StateEmbedding, StateInput } from "../embedding/multimodal-embedding-manager.js";
import { persistStateEmbedding } from "../embedding/state-embedding-record.js";
import { CROP_VIEWS, viewInput } from "../embedding/zoom-pyramid.js";
import type { RawSession } from "./session.js";
import { stepScreenshots } from "./step-screens.js";

export type EmbedState = (input: StateInput) => Promise<StateEmbedding>;

export interface StepStates {
  workflow: Workflow;
  screenStates: ScreenState[];
  vectors: Array<{ vectorId: string; provider: string; vector: Vector }>;
  warnings: string[];
}

/** The context of a recording: the workflow being recorded, its app (and tags when the session has them). */
export function recordingContext(workflow: Pick<Workflow, "workflow_id">, app: string, tags: readonly string[] = []): StepContext {
  return { current_workflow_candidate: workflow.workflow_id, tags: [...tags], app_name: app };
}

/** The state embedding's context input from a step's stored context. */
export function contextInput(c: StepContext): NonNullable<StateInput["context"]> {
  return { workflowCandidate: c.current_workflow_candidate, tags: c.tags, ...(c.app_name ? { appName: c.app_name } : {}) };
}

/** A stable id per recorded screen: the session's start and the action's number (the same on every rebuild). */
export function screenStateIdOf(session: RawSession, seq: number): string {
  return `screen_${session.header.started_at.replace(/[:.]/g, "-")}_${basename(session.dir).replace(/[^A-Za-z0-9_-]/g, "_")}_${String(seq).padStart(4, "0")}`;
}

export async function addStepStates(
  workflow: Workflow,
  session: RawSession,
  deps: { read: (path: string) => Promise<{ frame: Frame; elements: readonly UIElement[]; lines: readonly { text: string; bbox: BBox }[] } | undefined>; embed: EmbedState },
): Promise<StepStates> {
  const warnings: string[] = [];
  const { shots, problem } = stepScreenshots(workflow, session);
  if (problem) warnings.push(`screen states: ${problem.replace("enriched without screenshots", "kept without a recorded screen state")}`);
  const byBefore = new Map(session.actions.filter((a) => a.before).map((a) => [a.before!, a]));
  const screenStates: ScreenState[] = [];
  const vectors: StepStates["vectors"] = [];
  const steps = [];
  for (const step of workflow.steps) {
    const context = recordingContext(workflow, step.window.app);
    const path = shots.get(step.step_id)?.before;
    const action = path ? byBefore.get(path) : undefined;
    const read = path ? await deps.read(path) : undefined;
    if (!path || !action || !read) {
      steps.push({ ...step, context });
      continue;
    }
    // The window the action happened in, as replay captures it.
    const wb = action.window?.bbox;
    const win: BBox | undefined = wb && wb.length === 4 ? [wb[0]! - read.frame.origin[0], wb[1]! - read.frame.origin[1], wb[2]! - read.frame.origin[0], wb[3]! - read.frame.origin[1]] : undefined;
    const box = win ? clampBBox(win, read.frame) : undefined;
    const cropped = box && box[2] - box[0] >= 8 && box[3] - box[1] >= 8 ? box : undefined;
    const frame = cropped ? cropFrame(read.frame, cropped) : read.frame;
    // What perception read inside the window, in the window frame's pixels (as replay perceives its window capture).
    const inWindow = (b: BBox) => !cropped || (b[0] >= cropped[0] && b[1] >= cropped[1] && b[2] <= cropped[2] && b[3] <= cropped[3]);
    const shift = (b: BBox): BBox => (cropped ? [b[0] - cropped[0], b[1] - cropped[1], b[2] - cropped[0], b[3] - cropped[1]] : b);
    const elements = read.elements.filter((e) => inWindow(e.bbox as BBox));
    const lines = read.lines.filter((l) => l.text.trim() && inWindow(l.bbox)).map((l) => ({ text: l.text, bbox: shift(l.bbox) }));
    const input: StateInput = { frame, detectedText: lines.map((l) => l.text), textBoxes: lines, windowTitle: step.window.title, elements: elements.map((e) => ({ ...e, bbox: [...shift(e.bbox as BBox)] as [number, number, number, number] })), context: contextInput(context) };
    const emb = await deps.embed(input);
    const detected = read.lines.map((l) => l.text).filter((t) => t.trim());
    const id = screenStateIdOf(session, action.seq);
    const state_embedding = await persistStateEmbedding(emb, id, async (vectorId, provider, vector) => void vectors.push({ vectorId, provider, vector }));
    // The crops a live screen at a larger scale may show (compared as well at replay; the best counts).
    const viewIds: string[] = [];
    for (const view of CROP_VIEWS) {
      const v = await deps.embed(viewInput(input, view));
      const vectorId = viewVectorIdFor(view, id);
      vectors.push({ vectorId, provider: v.provider, vector: v.vector });
      viewIds.push(vectorId);
    }
    screenStates.push({
      schema_version: SCREENSTATE_V1,
      mode: emb.mode,
      screen_state_id: id,
      timestamp: session.header.started_at,
      session_id: basename(session.dir) || "session",
      environment: { platform: process.platform, display_scale: frame.scaleFactor },
      window: { app_name: step.window.app, window_title: step.window.title, screen_resolution: [read.frame.width, read.frame.height] },
      raw: { screenshot_path: join(session.dir, path) },
      perception: { detected_text: detected },
      ui_elements: [...elements],
      state_embedding,
      context: { current_workflow_candidate: context.current_workflow_candidate, tags: context.tags },
      ...(emb.warnings.length ? { processing_metadata: { num_elements_detected: elements.length, vlm_used: false } } : {}),
    });
    steps.push({ ...step, screen_state_id: id, context, ...(step.expect ? { expect: { ...step.expect, before: { ...step.expect.before, state_vector_id: state_embedding.vector_id, state_view_vector_ids: viewIds } } } : {}) });
  }
  return { workflow: { ...workflow, steps }, screenStates, vectors, warnings };
}
