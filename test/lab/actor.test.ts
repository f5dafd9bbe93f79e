// The decision actor on real apps (yad forms, zenity dialogs): each surprise of src/lab/surprises.ts
// replayed with the recorded demo (an old workflow: its expectations are derived at load), judged
// by yad's own output and the dialog's exit code; then a dangerous step blocked, and an assist
// answer turning into a patch accepted as a new version of the workflow.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { TraceDecision } from "../../src/core/schemas/trace.js";
import type { Workflow } from "../../src/core/schemas/workflow.js";
import { replayWorkflow } from "../../src/cli/commands/replay.js";
import { CONSENT_FORM, expectedOutput, PATIENT_FORM, prepareRow, type LabSurprise } from "../../src/lab/surprises.js";
import { readTrace } from "../../src/replay/trace.js";
import { AssistFiles } from "../../src/store/assist-files.js";
import { genQtConsentTask } from "../../src/lab/gen-tasks.js";
import { prepareGenRow } from "../../src/lab/gen-surprises.js";
import { rpav } from "../support/cli.js";
import { labKit } from "./support.js";

const kit = labKit();
afterAll(() => kit.cleanup());
const dataDir = mkdtempSync(join(tmpdir(), "rpav-actor-lab-"));
const demoPath = new URL("../../demos/yad-patient/workflow.json", import.meta.url).pathname;
const demo = JSON.parse(readFileSync(demoPath, "utf8")) as Workflow;
const row = { nom: "Durand", prenom: "Héloïse", date_de_naissance: "01/02/1990" };

function save(name: string, wf: Workflow): string {
  const dir = join(dataDir, name);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "workflow.json");
  writeFileSync(file, JSON.stringify(wf, null, 2));
  return file;
}

// The consent form (a check box in a scrolled window), recorded by bench/actor's scripted person.
const consentPath = new URL("../../demos/yad-consent/workflow.json", import.meta.url).pathname;
const consent = JSON.parse(readFileSync(consentPath, "utf8")) as Workflow;

async function surprise(s: LabSurprise, opts: { noActor?: boolean; consent?: boolean } = {}) {
  const [wf, path, spec] = opts.consent ? [consent, consentPath, CONSENT_FORM] : [demo, demoPath, PATIENT_FORM];
  const prepared = await prepareRow(s, wf, row, kit, kit.windows, spec);
  const file = prepared.workflow === wf ? path : save(`wf-${s}`, prepared.workflow);
  let result: Awaited<ReturnType<typeof replayWorkflow>>;
  let judged: Awaited<ReturnType<typeof prepared.finish>>;
  try {
    result = await replayWorkflow({ workflowPath: file, vars: { ...row }, runDir: join(dataDir, `${opts.consent ? "consent-" : ""}${s}${opts.noActor ? "-plain" : ""}`), ...(opts.noActor ? { noActor: true } : {}), ...(prepared.beforeRow ? { beforeRow: prepared.beforeRow } : {}) }, kit.env, dataDir, () => undefined);
  } finally {
    judged = await prepared.finish();
  }
  const decisions = readTrace(result.runDir).events.filter((e): e is TraceDecision => e.type === "decision").map((e) => e.decision);
  return { result, ...judged, decisions };
}

describe("the decision actor on real apps", () => {
  it("`rpav replay` decides by default: an old workflow (demos/yad-patient, no expectations in it) replays unchanged, each field read back, OK closes the form; every step's decision and its evidence in trace.jsonl and report.html", async () => {
    const prepared = await prepareRow("none", demo, row, kit, kit.windows);
    const runDir = join(dataDir, "cli-none");
    let cli: ReturnType<typeof rpav>;
    try {
      cli = rpav(["--data-dir", dataDir, "replay", demoPath, "--var", `nom=${row.nom}`, "--var", `prenom=${row.prenom}`, "--var", `date_de_naissance=${row.date_de_naissance}`, "--report", runDir, "--no-vlm"], kit.env, undefined, 240_000);
    } finally {
      expect((await prepared.finish()).output).toBe(expectedOutput(row));
    }
    expect(cli.code, cli.stderr).toBe(0);
    const trace = readTrace(runDir);
    const typed = trace.events.filter((e) => e.type === "after" && e.step_id === "step_004");
    expect(typed.at(-1)).toMatchObject({ status: "passed", checks: [{ kind: "field_value", status: "passed" }] });
    const decisions = trace.events.filter((e): e is TraceDecision => e.type === "decision");
    // One decision per step, each with its reason and evidence (the window, the target grounded, the comparison).
    expect(new Set(decisions.map((d) => d.step_id))).toEqual(new Set(demo.steps.map((st) => st.step_id)));
    expect(decisions.every((d) => d.decision.kind === "execute" && d.decision.reason !== "" && Object.keys(d.decision.evidence).length > 0)).toBe(true);
    const html = readFileSync(join(runDir, "report.html"), "utf8");
    expect(html.match(/<li class="decision execute">/g)?.length).toBe(decisions.length);
    expect(html).toContain("the state is as expected");
  }, 300_000);

  it("a window still loading when the row starts (a progress bar moving over it): adapt — wait until it settles, then the row runs", async () => {
    const r = await surprise("loading");
    expect(r.output).toBe(expectedOutput(row));
    const wait = r.decisions.find((d) => d.chosen === "wait_stable");
    expect(wait?.kind, JSON.stringify(r.decisions.filter((d) => d.kind !== "execute"))).toBe("adapt");
    expect(wait?.evidence).toMatchObject({ stable: true, verified: true });
  }, 300_000);

  it("half-filled field (« Hél », a run cut mid-typing): adapt — select all, then type; never « HélHéloïse »; --no-actor doubles it", async () => {
    const r = await surprise("half_filled");
    expect(r.output).toBe(expectedOutput(row));
    expect(r.decisions.some((d) => d.kind === "adapt" && d.chosen === "select_all_before_typing")).toBe(true);
    const plain = await surprise("half_filled", { noActor: true });
    expect(plain.output).toBe(`${row.nom}|Hél${row.prenom}|${row.date_de_naissance}|`);
    expect(plain.result.status).toBe("passed"); // the plain replay's false success, kept for comparison
  }, 300_000);

  it("field already holding the value: skip — nothing typed there", async () => {
    const r = await surprise("filled");
    expect(r.output).toBe(expectedOutput(row));
    expect(r.decisions.some((d) => d.kind === "skip")).toBe(true);
    const typed = readTrace(r.result.runDir).events.filter((e) => e.type === "action" && e.step_id === "step_002");
    expect(typed).toEqual([]);
  }, 200_000);

  it("unexpected dialog over the form: adapt — its text and buttons read, dismissed with « Plus tard » (never « Installer »)", async () => {
    const r = await surprise("dialog");
    expect(r.output).toBe(expectedOutput(row));
    expect(r.dialogExit).toBe(1); // zenity: 1 = the cancel answer
    const d = r.decisions.find((x) => x.chosen === "dismiss_dialog");
    expect(d?.evidence).toMatchObject({ answer: "Plus tard" });
  }, 200_000);

  it("minimised window: adapt — restored; focus stolen by another window: adapt — re-activated", async () => {
    const m = await surprise("minimised");
    expect(m.output, JSON.stringify({ result: m.result, decisions: m.decisions })).toBe(expectedOutput(row));
    expect(m.decisions.some((d) => d.chosen === "restore_window")).toBe(true);
    const f = await surprise("focus_stolen");
    expect(f.output).toBe(expectedOutput(row));
    expect(f.decisions.some((d) => d.chosen === "refocus")).toBe(true);
  }, 300_000);

  it("box already ticked: skip — the check box's recorded « on » look is already there, nothing clicked; --no-actor clicks it off (a wrong action)", async () => {
    const want = expectedOutput(row, CONSENT_FORM);
    const r = await surprise("ticked", { consent: true });
    expect(r.output).toBe(want);
    const box = consent.steps.find((st) => st.expect?.after.some((c) => c.kind === "toggle_state"))!;
    expect(r.decisions.some((d) => d.kind === "skip")).toBe(true);
    expect(readTrace(r.result.runDir).events.filter((e) => e.type === "action" && e.step_id === box.step_id)).toEqual([]);
    const plain = await surprise("ticked", { consent: true, noActor: true });
    expect(plain.output).toBe(want.replace("|TRUE|", "|FALSE|"));
  }, 300_000);

  it("target scrolled out of view (the form made smaller): adapt — the target's container scrolled, the target grounded again", async () => {
    const r = await surprise("scrolled", { consent: true });
    expect(r.output).toBe(expectedOutput(row, CONSENT_FORM));
    const scroll = r.decisions.find((d) => d.chosen === "scroll_to_target");
    expect(scroll?.kind).toBe("adapt");
    expect(scroll?.evidence).toMatchObject({ verified: true });
  }, 300_000);

  it("a real Qt 5 form (demos/qt-adhesion, Fusion style): the box ticked and read « on » from what tells its looks apart, a box already ticked skipped, the canvas click stated unverified (its recording showed nothing), the lower field scrolled into view over the field above (the recorded place is on the canvas in the smaller window)", async () => {
    const qtPath = new URL("../../demos/qt-adhesion/workflow.json", import.meta.url).pathname;
    const qt = JSON.parse(readFileSync(qtPath, "utf8")) as Workflow;
    const task = genQtConsentTask();
    const data = task.rows[0]!;
    const vars = { nom_de_famille: data.nom!, code_postal: data.cp!, commune: data.commune! };
    const run = async (s: "none" | "ticked" | "scrolled") => {
      const prepared = await prepareGenRow(s, qt, task, data, kit, kit.windows);
      let result: Awaited<ReturnType<typeof replayWorkflow>>;
      let output: string;
      try {
        result = await replayWorkflow({ workflowPath: qtPath, vars, runDir: join(dataDir, `qt-${s}`), maxAttempts: 1 }, kit.env, dataDir, () => undefined);
      } finally {
        output = (await prepared.finish()).output;
      }
      const events = readTrace(result.runDir).events;
      const status = (id: string) => events.filter((e) => e.type === "after" && e.step_id === id).map((e) => (e.type === "after" ? e.status : ""))[0];
      const decisions = events.filter((e): e is TraceDecision => e.type === "decision");
      // The last step (the icon-only Save) is the builder's (#22): when it is reached and found, the saved state is right.
      if (result.status !== "failed") expect(output).toBe(task.expected(data));
      return { status, decisions, events };
    };
    const none = await run("none");
    expect(none.status("step_006")).toBe("passed"); // « Marseille » read back
    expect(none.status("step_007")).toBe("passed");
    expect(none.events.find((e) => e.type === "after" && e.step_id === "step_007")).toMatchObject({ checks: [{ kind: "toggle_state", status: "passed", evidence: expect.stringMatching(/^looks on/) }] });
    expect(none.status("step_008")).toBe("unverified");
    const ticked = await run("ticked");
    expect(ticked.status("step_007")).toBe("skipped");
    expect(ticked.events.filter((e) => e.type === "action" && e.step_id === "step_007")).toEqual([]);
    const scrolled = await run("scrolled");
    expect(scrolled.status("step_006")).toBe("passed");
    const scroll = scrolled.decisions.find((d) => d.step_id === "step_005" && d.decision.chosen === "scroll_to_target");
    expect(scroll?.decision.evidence).toMatchObject({ verified: true, moved: true });
  }, 600_000);

  it("app not started: adapt — started again with the workflow's launch command; slow window: waited for", async () => {
    const n = await surprise("not_started");
    expect(n.output).toBe(expectedOutput(row));
    expect(n.decisions.some((d) => d.chosen === "start_app")).toBe(true);
    const s = await surprise("slow_window");
    expect(s.output).toBe(expectedOutput(row));
    expect(s.decisions.some((d) => d.kind === "adapt")).toBe(true);
  }, 300_000);

  it("a dangerous step is blocked: typed error, the form stays open, nothing clicked; --allow-dangerous runs it", async () => {
    const wf = structuredClone(demo);
    wf.steps[6]!.target = { ...wf.steps[6]!.target!, is_dangerous: true };
    const file = save("dangerous", wf);
    const prepared = await prepareRow("none", wf, row, kit, kit.windows);
    const r = await replayWorkflow({ workflowPath: file, vars: { ...row }, runDir: join(dataDir, "dangerous-run") }, kit.env, dataDir, () => undefined);
    const { output } = await prepared.finish();
    expect(r.status).toBe("failed");
    expect(output).toBe(""); // OK never clicked: yad printed nothing
    const end = readTrace(r.runDir).events.find((e) => e.type === "row_end");
    expect(end).toMatchObject({ failed_step: 6, error: { code: "dangerous_action_blocked" } });
    expect(readTrace(r.runDir).events.filter((e) => e.type === "action" && e.step === 6)).toEqual([]);
  }, 200_000);

  it("ask: a target not found, with no one to ask, stops the row with a typed assist_needed, resumable; resumed with --assist, the answer (pick) clicks it and becomes a patch, accepted as a new version that replays alone", async () => {
    const wf = structuredClone(demo);
    wf.steps[6]!.target = { ...wf.steps[6]!.target!, label: "Valider", by_text: "Valider" };
    wf.steps[6]!.by_text = "Valider";
    const file = save("assist", wf);
    const prepared = await prepareRow("none", wf, row, kit, kit.windows);
    const inbox = new AssistFiles(join(dataDir, "assist"));
    let asked: string | undefined;
    const answering = (async () => {
      for (let i = 0; i < 900 && !asked; i++) {
        const q = (await inbox.pending())[0];
        if (q) {
          const ok = q.candidates.find((c) => c.label === "OK");
          asked = q.message;
          await inbox.answer({ schema_version: "assist_answer_v1", question_id: q.question_id, answered_at: new Date().toISOString(), by: "studio", choice: ok ? { kind: "pick", candidate_id: ok.candidate_id } : { kind: "abort" } });
        }
        await new Promise((r) => setTimeout(r, 200));
      }
    })();
    // No terminal, no --assist: asked of no one — the row stops, typed, before anything is clicked.
    const first = await replayWorkflow({ workflowPath: file, vars: { ...row }, runDir: join(dataDir, "assist-run"), maxAttempts: 1 }, kit.env, dataDir, () => undefined);
    expect(first.status).toBe("failed");
    const firstTrace = readTrace(first.runDir).events;
    expect(firstTrace.find((e) => e.type === "row_end")).toMatchObject({ failed_step: 6, error: { code: "assist_needed" } });
    expect(firstTrace.filter((e) => e.type === "decision" && e.step_id === "step_007").map((e) => (e.type === "decision" ? [e.decision.kind, e.decision.chosen] : []))).toContainEqual(["ask", null]);
    expect(firstTrace.filter((e) => e.type === "action" && e.step_id === "step_007")).toEqual([]);
    // Resumed from that step with --assist: the question goes to the studio's inbox.
    const r = await replayWorkflow({ workflowPath: file, resume: first.runDir, assist: true, maxAttempts: 1 }, kit.env, dataDir, () => undefined);
    await answering;
    const { output } = await prepared.finish();
    expect(asked).toContain("Valider");
    expect(output).toBe(expectedOutput(row));
    expect(r.status).toBe("passed");
    const list = rpav(["--data-dir", dataDir, "workflow", "patches", "--json"], kit.env);
    const patches = JSON.parse(list.stdout) as { patch_id: string; step_id: string; op: { op: string } }[];
    expect(patches).toEqual([expect.objectContaining({ step_id: "step_007", op: expect.objectContaining({ op: "set_target" }) })]);
    // Nothing changes until accepted.
    expect((JSON.parse(readFileSync(file, "utf8")) as Workflow).steps[6]!.target!.label).toBe("Valider");
    const acc = rpav(["--data-dir", dataDir, "workflow", "patches", "--accept", patches[0]!.patch_id], kit.env);
    expect(acc.code, acc.stderr).toBe(0);
    expect(acc.stdout).toMatch(/accepted: .* version \d+/);
    expect((JSON.parse(readFileSync(file, "utf8")) as Workflow).steps[6]!.target!.label).toBe("OK");
    // The new version replays without asking.
    const again = await prepareRow("none", wf, row, kit, kit.windows);
    const r2 = await replayWorkflow({ workflowPath: file, vars: { ...row }, runDir: join(dataDir, "assist-run-2") }, kit.env, dataDir, () => undefined);
    expect((await again.finish()).output).toBe(expectedOutput(row));
    expect(r2.status).toBe("passed");
  }, 300_000);
});
