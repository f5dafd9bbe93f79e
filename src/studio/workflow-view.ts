// What the Workflows pages show beyond the document itself: a diff between two versions (field by
// field, by JSON path) and the crop of a step's target from the screenshot it was recorded on.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { encodePng, readImageFile } from "../capture/png.js";
import { cropFrame } from "../core/frame.js";
import type { Workflow } from "../core/schemas/workflow.js";
import { readSession } from "../record/session.js";
import { formatJsonPath } from "../core/schemas/documents.js";

export interface FieldChange {
  path: string;
  kind: "added" | "removed" | "changed";
  before: string | null;
  after: string | null;
}

function flatten(value: unknown, path: (string | number)[], out: Map<string, string>): void {
  if (value !== null && typeof value === "object") {
    const entries = Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value);
    if (entries.length === 0) out.set(formatJsonPath(path), JSON.stringify(value));
    for (const [k, v] of entries) flatten(v, [...path, k], out);
  } else out.set(formatJsonPath(path), JSON.stringify(value));
}

/** Every leaf that differs between two documents, in the order of the newer one (then removals). */
export function diffDocuments(a: unknown, b: unknown): FieldChange[] {
  const fa = new Map<string, string>();
  const fb = new Map<string, string>();
  flatten(a, [], fa);
  flatten(b, [], fb);
  const out: FieldChange[] = [];
  for (const [p, v] of fb) {
    const old = fa.get(p);
    if (old === undefined) out.push({ path: p, kind: "added", before: null, after: v });
    else if (old !== v) out.push({ path: p, kind: "changed", before: old, after: v });
  }
  for (const [p, v] of fa) if (!fb.has(p)) out.push({ path: p, kind: "removed", before: v, after: null });
  return out;
}

/**
 * Where a step's target was recorded: the session screenshot taken before the action whose point
 * lies inside the target's recorded box (full-screen shots, screen pixels), and the box to cut.
 * Undefined when the workflow's session folder is not on this machine.
 */
export function recordedTargetShot(wf: Workflow, stepId: string): { dir: string; rel: string; bbox: [number, number, number, number] } | undefined {
  const step = wf.steps.find((s) => s.step_id === stepId);
  const b = step?.target?.recorded_bbox;
  if (!b || !wf.source_session || !existsSync(join(wf.source_session, "session.jsonl"))) return undefined;
  let session;
  try {
    session = readSession(wf.source_session);
  } catch {
    return undefined;
  }
  // Steps follow the actions in order: pair each boxed step with the next action pointing inside its box.
  let next = 0;
  for (const s of wf.steps) {
    const box = s.target?.recorded_bbox;
    if (!box) continue;
    const i = session.actions.findIndex((a, k) => k >= next && a.before !== null && a.x !== undefined && a.y !== undefined && inside(box, a.x, a.y));
    if (i < 0) continue;
    next = i + 1;
    if (s === step) return { dir: session.dir, rel: session.actions[i]!.before!, bbox: [b[0], b[1], b[2], b[3]] };
  }
  return undefined;
}

function inside(b: readonly number[] | null, x: number, y: number): boolean {
  return !!b && x >= b[0]! && x <= b[2]! && y >= b[1]! && y <= b[3]!;
}

const MARGIN = 40;

/** A PNG of `bbox` (screen pixels) and 40 px around it, cut from the screenshot `file` taken at `origin`; undefined when the box lies outside it. */
export async function cropAround(file: string, bbox: readonly number[], origin: readonly [number, number]): Promise<Buffer | undefined> {
  const frame = await readImageFile(file);
  const [x1, y1, x2, y2] = bbox.map((v, i) => v - origin[i % 2]!) as [number, number, number, number];
  const box = [Math.max(0, Math.round(x1 - MARGIN)), Math.max(0, Math.round(y1 - MARGIN)), Math.min(frame.width, Math.round(x2 + MARGIN)), Math.min(frame.height, Math.round(y2 + MARGIN))] as [number, number, number, number];
  if (box[2] <= box[0] || box[3] <= box[1]) return undefined;
  return Buffer.from(await encodePng(cropFrame(frame, box)));
}
