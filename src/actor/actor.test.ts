// The actor's loop on an in-memory desktop (test/support/fake-desktop.ts).
// Real apps are in test/lab/actor.test.ts; this pins each decision's logic.
import { describe, expect, it } from "vitest";
import type { Frame } from "../core/frame.js";
import { encodePng as encodePngOf } from "../capture/png.js";
import type { DecisionModel } from "../core/providers/decision-model.js";
import type { Step } from "../core/schemas/workflow.js";
import { rowStatus } from "../replay/executor.js";
import { deriveExpectations, NO_VISIBLE_EFFECT } from "../record/expectations.js";
import { ElementMatcher } from "../matching/workflow-matcher.js";
import { NgramTextEmbedder } from "../embedding/ngram-text-embedder.js";
import type { StateInput } from "../embedding/multimodal-embedding-manager.js";
import { BUTTON, element, FIELD, FakeDesktop, formWorkflow, base, replayOnFake as replay, target } from "../../test/support/fake-desktop.js";

describe("the decision actor", () => {
  it("execute: an empty field is typed into, and the row passes only because the text was read back in it", async () => {
    const d = new FakeDesktop();
    const { row, decisions } = await replay(d, formWorkflow());
    expect(d.field).toBe("Héloïse");
    expect(row.status).toBe("passed");
    expect(row.steps.map((s) => s.status)).toEqual(["unverified", "passed"]); // the click is checked by the typing
    expect(row.steps[1]!.checks).toEqual([expect.objectContaining({ kind: "field_value", status: "passed" })]);
    expect(decisions.map((x) => x.decision.kind)).toEqual(["execute", "execute"]);
  });

  it("skip: the field already holds the value — nothing is typed", async () => {
    const d = new FakeDesktop();
    d.field = "Héloïse";
    const { row, decisions } = await replay(d, formWorkflow());
    expect(d.sent.filter((s) => s.startsWith("type"))).toEqual([]);
    expect(row.steps[1]!.status).toBe("skipped");
    expect(row.status).toBe("passed");
    expect(decisions.find((x) => x.step_id === "step_002")?.decision).toMatchObject({ kind: "skip", by: "rules", chosen: "skip" });
  });

  it("adapt: a half-filled field (« Hélo », a run cut mid-typing) is selected before typing — never « HéloHéloïse »", async () => {
    const d = new FakeDesktop();
    d.field = "Hélo";
    const { row, decisions } = await replay(d, formWorkflow());
    expect(d.field).toBe("Héloïse");
    expect(d.sent).toContain("key ctrl+a");
    expect(row.status).toBe("passed");
    expect(decisions.find((x) => x.decision.kind === "adapt")?.decision).toMatchObject({ chosen: "select_all_before_typing", evidence: expect.objectContaining({ field_held: expect.stringContaining("Hélo") }) });
  });

  it("--no-actor: the plain replay types into the half-filled field and claims a pass (the baseline the actor is measured against)", async () => {
    const d = new FakeDesktop();
    d.field = "Hélo";
    const { row } = await replay(d, formWorkflow(), { mode: "plain" });
    expect(d.field).toBe("HéloHéloïse");
    expect(row.status).toBe("passed");
  });

  it("a field that still holds the wrong text after typing fails the row: no success without evidence", async () => {
    const d = new FakeDesktop();
    d.input.type = async (text: string) => {
      d.field = `${text}${text}`; // an app that doubles what it gets
      d.version++;
    };
    const { row } = await replay(d, formWorkflow());
    expect(row.status).toBe("failed");
    expect(row.error?.code).toBe("postcheck_failed");
    expect(row.error?.message).toContain("HéloïseHéloïse");
  });

  it("a typing step run again after a failed check clears the field first, even when the field then reads empty (never typed twice)", async () => {
    const d = new FakeDesktop();
    let typed = false;
    let checked = false;
    const type = d.input.type.bind(d.input);
    d.input.type = async (text: string, o?: unknown) => {
      typed = true;
      await type(text, o as never);
    };
    // The step's after-shot is encoded once its checks are done: the end of the first check, whatever the clock.
    const encodePng = async (f: Frame) => ((checked ||= typed), encodePngOf(f));
    let emptyRead = false;
    // After the first typing the read-back misreads (an OCR slip) until the check gives up; the
    // next look reads nothing (a field the reader misses); then what is there.
    const readText = async (f: { origin: [number, number] }) => {
      if (!(f.origin[1] >= 20 && f.origin[1] < 44) || !d.field) return [];
      if (typed && !checked) return ["Hélo"];
      if (typed && !emptyRead) return (emptyRead = true), [];
      return [d.field];
    };
    const { row } = await replay(d, formWorkflow(), { deps: { readText: readText as never, encodePng } });
    expect(emptyRead).toBe(true);
    expect(d.field).toBe("Héloïse");
    expect(d.sent).toContain("key ctrl+a");
    expect(row.status).toBe("passed");
  });

  it("dangerous: a click on « Supprimer » is blocked (typed error, nothing clicked) unless --allow-dangerous", async () => {
    const del: Step = { ...base, step_id: "step_003", action: "click", intention: "Cliquer sur « Supprimer »", target: target("button", "Supprimer", BUTTON) };
    const d = new FakeDesktop();
    const { row, decisions } = await replay(d, formWorkflow([del]));
    expect(row.status).toBe("failed");
    expect(row.error?.code).toBe("dangerous_action_blocked");
    expect(d.sent.filter((s) => s.startsWith("click"))).toHaveLength(1); // the field only
    expect(decisions.at(-1)?.decision.kind).toBe("fail");
    const d2 = new FakeDesktop();
    const ok = await replay(d2, formWorkflow([del]), { allowDangerous: true });
    expect(d2.sent.filter((s) => s.startsWith("click"))).toHaveLength(2);
    expect(ok.row.steps[2]!.status).toBe("passed"); // the window changed
  });

  it("a click whose recorded screens showed no effect (a button that only saves) is clicked once and stated unverified with its reason — never a silent pass, never an impossible check", async () => {
    const save: Step = { ...base, step_id: "step_003", action: "click", intention: "Cliquer sur « Enregistrer »", target: target("button", "Enregistrer", BUTTON), expect: { before: { window: base.window, required_elements: [], state_vector_id: null }, after: [], source: "recorded", not_derived: [NO_VISIBLE_EFFECT.recorded] } };
    const d = new FakeDesktop();
    const { row, trace } = await replay(d, formWorkflow([save]), { deps: { perceive: async () => ({ elements: [element("text_input", "Prénom", FIELD), element("button", "Enregistrer", BUTTON)], lines: [] }) } });
    expect(d.sent.filter((s) => s.startsWith("click"))).toHaveLength(2); // the field, then Save once (no retry)
    expect(row.steps[2]).toMatchObject({ status: "unverified", checks: [] });
    expect(row.status).toBe("unverified");
    expect(trace.events.find((e) => e.type === "after" && e.step_id === "step_003")).toMatchObject({ check: `unverified: ${NO_VISIBLE_EFFECT.recorded}` });
  });

  it("a target nowhere on the window, and nothing there scrolls: one wheel turn down, one up, then asked — not six turns that move nothing", async () => {
    const missing: Step = { ...base, step_id: "step_003", action: "click", intention: "Cliquer sur « Valider »", target: target("button", "Valider", BUTTON) };
    const d = new FakeDesktop();
    const scrolls: number[] = [];
    d.input.scroll = async (_p, dy) => void scrolls.push(dy);
    const { row, decisions } = await replay(d, formWorkflow([missing]));
    expect(row.status).toBe("failed");
    expect(row.error?.code).toBe("assist_needed");
    // Per attempt (2): down, then up — each tried over the field found earlier and at the window's centre.
    expect(scrolls).toEqual([2, 2, -3, -3, 2, 2, -3, -3]);
    expect(decisions.filter((x) => x.decision.chosen === "scroll_to_target").every((x) => x.decision.evidence.verified === false)).toBe(true);
  });

  it("adapt: a minimised window is restored first; an invalid model answer is traced and the rules decide", async () => {
    const d = new FakeDesktop();
    d.win = { ...d.win, visible: false, active: false };
    const model: DecisionModel = { name: "bad", decide: async () => ({ chosen: "rm -rf /", reason: "because" }) };
    const { row, decisions } = await replay(d, formWorkflow(), { decisionModel: model });
    expect(row.status).toBe("passed");
    const adapt = decisions.find((x) => x.decision.kind === "adapt")!.decision;
    expect(adapt).toMatchObject({ chosen: "restore_window", by: "rules" });
    expect(String(adapt.evidence.model_error)).toContain("not one of the options");
    const good: DecisionModel = { name: "good", decide: async (r) => ({ chosen: r.options[0]!.id, reason: "restore it" }) };
    const d2 = new FakeDesktop();
    d2.win = { ...d2.win, visible: false, active: false };
    const r2 = await replay(d2, formWorkflow(), { decisionModel: good });
    expect(r2.decisions.find((x) => x.decision.kind === "adapt")!.decision).toMatchObject({ by: "model", chosen: "restore_window" });
  });

  it("fail: no window at all and no way to start the app is a typed window_not_found, nothing sent", async () => {
    const d = new FakeDesktop();
    d.windows.list = async () => [];
    const { row, decisions } = await replay(d, formWorkflow());
    expect(row.error?.code).toBe("window_not_found");
    expect(d.sent).toEqual([]);
    expect(decisions.at(-1)?.decision.kind).toBe("fail");
  });

  it("compare: the live state embedding against the step's recorded state vector, through the workflow matcher, with the recorded context — its cosine is in the decision's evidence", async () => {
    const wf = deriveExpectations(formWorkflow()).workflow;
    const ctx = { current_workflow_candidate: "wf_form", tags: ["saisie"], app_name: "Yad" };
    wf.steps[0] = { ...wf.steps[0]!, screen_state_id: "screen_1", context: ctx, expect: { ...wf.steps[0]!.expect!, before: { ...wf.steps[0]!.expect!.before, state_vector_id: "v/state/screen_1" } } };
    // A toy state embedding: the frame's grey level and the context's workflow, so that a changed screen or context shows in the cosine.
    const inputs: StateInput[] = [];
    const embed = async (i: StateInput) => {
      inputs.push(i);
      const g = i.frame.data[0]! / 255;
      const wfc = i.context?.workflowCandidate === "wf_form" ? 1 : 0;
      return { provider: "toy", vector: Float32Array.from([1 - g, g, wfc, 1 - wfc]) };
    };
    const recorded = { provider: "toy", vector: Float32Array.from([1, 0, 1, 0]) };
    const deps = { matcher: new ElementMatcher(new NgramTextEmbedder(64)), embedState: embed, stateVector: async (id: string) => (id === "v/state/screen_1" ? recorded : undefined) };
    const d = new FakeDesktop(); // version 0: a black frame, as recorded
    const { decisions } = await replay(d, wf, { deps });
    const ev = decisions.find((x) => x.step_id === "step_001" && x.decision.kind === "execute")!.decision.evidence as { match: Record<string, unknown> };
    expect(ev.match).toMatchObject({ ok: true, state_similarity: 1, state_vector_id: "v/state/screen_1", screen_state_id: "screen_1", required: "1/1" });
    expect(inputs[0]!.context).toEqual({ workflowCandidate: "wf_form", tags: ["saisie"], appName: "Yad" });
    // Another screen: the cosine drops and says so.
    const d2 = new FakeDesktop();
    d2.version = 255;
    const r2 = await replay(d2, wf, { deps });
    const ev2 = r2.decisions.find((x) => x.step_id === "step_001" && x.decision.kind === "execute")!.decision.evidence as { match: Record<string, unknown> };
    expect(ev2.match.state_similarity).toBeLessThan(0.8);
    // The same other screen against recorded crops, one of which shows it (a larger scale): the best cosine counts, the crops are counted.
    const wfCrops = structuredClone(wf);
    wfCrops.steps[0]!.expect!.before.state_view_vector_ids = ["v/state_top_2/screen_1", "v/state_top-left_2/screen_1", "v/missing"];
    const crops: Record<string, { provider: string; vector: Float32Array }> = {
      "v/state_top_2/screen_1": { provider: "toy", vector: Float32Array.from([0, 1, 1, 0]) },
      "v/state_top-left_2/screen_1": { provider: "other", vector: Float32Array.from([0, 1, 1, 0]) },
    };
    const d5 = new FakeDesktop();
    d5.version = 255;
    const r5 = await replay(d5, wfCrops, { deps: { ...deps, stateVector: async (id: string) => (id === "v/state/screen_1" ? recorded : crops[id]) } });
    const ev5 = r5.decisions.find((x) => x.step_id === "step_001" && x.decision.kind === "execute")!.decision.evidence as { match: Record<string, unknown> };
    expect(ev5.match).toMatchObject({ state_similarity: 1, state_crops_compared: 1 });
    // No store: the evidence says the recorded state could not be compared.
    const r3 = await replay(new FakeDesktop(), wf, { deps: { ...deps, stateVector: async () => undefined } });
    const ev3 = r3.decisions.find((x) => x.step_id === "step_001" && x.decision.kind === "execute")!.decision.evidence as { match: Record<string, unknown> };
    expect(ev3.match).toMatchObject({ state_similarity: null, notes: [expect.stringContaining("not in the store")] });
    // A state recorded by an earlier embedder: not compared (never a cosine across providers), said so; the required elements are still checked.
    const r4 = await replay(new FakeDesktop(), wf, { deps: { ...deps, stateVector: async () => ({ provider: "multimodal_fusion_v1", vector: Float32Array.from([1, 0, 1, 0]) }) } });
    const ev4 = r4.decisions.find((x) => x.step_id === "step_001" && x.decision.kind === "execute")!.decision.evidence as { match: Record<string, unknown> };
    expect(ev4.match).toMatchObject({ state_similarity: null, required: "1/1", notes: [expect.stringMatching(/embedded by "multimodal_fusion_v1", this version embeds with "toy": states not compared .*rpav build/)] });
  });

  it("row status: unverified when a check could not be made, passed when deferred checks passed", () => {
    const s = (step_id: string, status: "passed" | "unverified" | "skipped", checked_by?: string) => ({ step: 0, step_id, status, attempts: 1, overhead_ms: 0, duration_ms: 0, ...(checked_by ? { checked_by } : {}) });
    expect(rowStatus([s("a", "unverified", "b"), s("b", "passed")])).toBe("passed");
    expect(rowStatus([s("a", "unverified"), s("b", "passed")])).toBe("unverified");
    expect(rowStatus([s("a", "skipped"), s("b", "passed")])).toBe("passed");
  });
});

describe("the report of the actor's decisions", () => {
  it("renders each decision and check, with everything read from screens or workflows escaped", async () => {
    const { renderReport } = await import("../replay/report.js");
    const d = new FakeDesktop();
    d.field = "<img src=x onerror=alert(1)>";
    const wf = formWorkflow();
    wf.steps[1]!.intention = "Saisir <script>alert(1)</script>";
    const { trace } = await replay(d, wf);
    const html = renderReport(trace);
    expect(html).toContain('class="decision adapt"');
    expect(html).toContain('class="check passed"');
    expect(html).not.toContain("<img src=x");
    expect(html).not.toContain("<script>alert");
  });
});
