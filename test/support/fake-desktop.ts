// An in-memory desktop for the actor's tests: one form window with one field whose text the fake
// keyboard edits (typing appends, ctrl+a then typing replaces) and whose read-back is that text.
import { makeFrame } from "../../src/core/frame.js";
import type { BBox, Point } from "../../src/core/geometry.js";
import type { InputDriver } from "../../src/core/providers/input-driver.js";
import type { ScreenSource } from "../../src/core/providers/screen-source.js";
import type { WindowDescriptor, WindowInfo } from "../../src/core/providers/window-info.js";
import type { UIElement } from "../../src/core/schemas/uielement.js";
import type { Step, Workflow } from "../../src/core/schemas/workflow.js";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Frame } from "../../src/core/frame.js";
import type { DecisionModel } from "../../src/core/providers/decision-model.js";
import type { TraceDecision } from "../../src/core/schemas/trace.js";
import { encodePng } from "../../src/capture/png.js";
import { ReplayExecutor, type ReplayDeps } from "../../src/replay/executor.js";
import { readTrace, TraceWriter } from "../../src/replay/trace.js";

export const FIELD: BBox = [110, 20, 300, 44];
export const BUTTON: BBox = [20, 80, 120, 110];

export function element(type: UIElement["type"], label: string, bbox: BBox): UIElement {
  return {
    element_id: `el_${label}`, type, role: type === "button" ? "delete" : "name_field", bbox: [...bbox] as [number, number, number, number], label, confidence: 0.9, detection_method: "test",
    visual: { screenshot_path: "", embedding: null }, text: { raw: label, normalized: label.toLowerCase(), embedding: null },
    properties: { is_clickable: true, is_focusable: true, is_dangerous: false }, context: { app_name: "Yad", window_title: "Form", workflow_hint: null }, tags: [],
  } as unknown as UIElement;
}

export class FakeDesktop {
  field = "";
  selected = false;
  version = 0;
  sent: string[] = [];
  win: WindowDescriptor = { id: "0x1", title: "Form", appName: "Yad", instance: "yad", pid: 1, bbox: [0, 0, 400, 300], frame: { left: 0, right: 0, top: 0, bottom: 0 }, active: true, visible: true };
  windows: WindowInfo = {
    name: "fake",
    list: async () => [{ ...this.win }],
    active: async () => (this.win.active ? { ...this.win } : undefined),
    activeId: async () => (this.win.active ? this.win.id : undefined),
    get: async (id) => (id === this.win.id ? { ...this.win } : undefined),
    find: async () => ({ ...this.win }),
    waitFor: async () => ({ ...this.win }),
    activate: async () => {
      this.sent.push("activate");
      this.win = { ...this.win, active: true, visible: true };
    },
  };
  screen: ScreenSource = {
    name: "fake",
    capture: async (t: { kind: string; bbox?: BBox }) => {
      const b = t.kind === "region" && t.bbox ? t.bbox : [0, 0, 400, 300];
      const w = Math.max(1, Math.round(b[2] - b[0]));
      const h = Math.max(1, Math.round(b[3] - b[1]));
      return makeFrame({ data: new Uint8Array(w * h * 3).fill(this.version % 256), width: w, height: h, channels: 3, origin: [b[0], b[1]] });
    },
    close: async () => undefined,
  } as unknown as ScreenSource;
  input: InputDriver = {
    name: "fake",
    keyNames: [],
    cursor: async () => [0, 0],
    move: async () => undefined,
    click: async (p?: Point) => {
      this.sent.push(`click ${p?.map(Math.round).join(",")}`);
      this.version++;
    },
    drag: async () => undefined,
    scroll: async () => undefined,
    type: async (text: string) => {
      this.sent.push(`type ${text}`);
      this.field = this.selected ? text : this.field + text;
      this.selected = false;
      this.version++;
    },
    key: async (combo: string) => {
      this.sent.push(`key ${combo}`);
      if (combo === "ctrl+a" || combo === "shift+Home") this.selected = true;
      if (combo === "BackSpace") {
        this.field = this.selected ? "" : this.field.slice(0, -1);
        this.selected = false;
      }
    },
    close: async () => undefined,
  };
}

export const target = (type: "text_input" | "button", label: string, bbox: BBox) => ({ type, label, by_text: label, role: null, position_hint: null, anchors: [], recorded_bbox: [...bbox] as [number, number, number, number], icon: null });
export const base = { by_text: null, variables: {}, expected_state: "", expected_result: "", window: { title: "Form", app: "Yad" } };
export const formWorkflow = (extra: Step[] = []): Workflow => ({
  schema_version: "workflow_v1", workflow_id: "wf_form", name: "form", app: "yad", created_at: "2026-12-02T00:00:00Z", source_session: "test",
  variables: [{ name: "prenom", type: "name", example: "Zoë", secret: false, steps: ["step_002"] }],
  steps: [
    { ...base, step_id: "step_001", action: "click", intention: "Cliquer sur le champ « Prénom »", target: target("text_input", "Prénom", FIELD) },
    { ...base, step_id: "step_002", action: "type", intention: "Saisir {{prenom}}", target: target("text_input", "Prénom", FIELD), text: "{{prenom}}" },
    ...extra,
  ],
});


/** Replays `wf` for one row ({ prenom: « Héloïse » }) on the fake desktop; the decisions and the trace. */
export async function replayOnFake(d: FakeDesktop, wf: Workflow, opts: { mode?: "plain"; allowDangerous?: boolean; decisionModel?: DecisionModel; decisionTimeoutMs?: number; deps?: Partial<ReplayDeps> } = {}) {
  const dir = mkdtempSync(join(tmpdir(), "rpav-actor-"));
  const trace = new TraceWriter(dir);
  trace.append({ type: "run", schema_version: "trace_v1", run_id: "run_t", workflow_id: wf.workflow_id, workflow_name: wf.name, workflow_path: "/x", rows: [{}], on_error: "stop", steps: wf.steps.map((s) => ({ step_id: s.step_id, action: s.action, intention: s.intention })) });
  const ex = new ReplayExecutor(
    wf,
    {
      screen: d.screen, windows: d.windows, input: d.input, trace,
      perceive: async () => ({ elements: [element("text_input", "Prénom", FIELD), element("button", "Supprimer", BUTTON)], lines: [] }),
      readText: async (f: Frame) => (f.origin[1] >= 20 && f.origin[1] < 44 ? (d.field ? [d.field] : []) : []),
      encodePng: (f: Frame) => encodePng(f),
      ...(opts.decisionModel ? { decisionModel: opts.decisionModel } : {}),
      ...opts.deps,
    },
    { windowTimeoutMs: 300, postCheckTimeoutMs: 300, maxAttempts: 2, ...(opts.mode ? { mode: opts.mode } : {}), ...(opts.allowDangerous ? { allowDangerous: true } : {}), ...(opts.decisionTimeoutMs ? { decisionTimeoutMs: opts.decisionTimeoutMs } : {}) },
  );
  const [row] = await ex.run([{ prenom: "Héloïse" }]);
  const decisions = readTrace(dir).events.filter((e): e is TraceDecision => e.type === "decision");
  return { row: row!, decisions, trace: readTrace(dir) };
}

