// `rpav report <run>`: one self-contained HTML file from a run's trace (and only from it): a table
// of results per row, then per step its timeline entry, the screenshot before the action with the
// chosen box (green), the other candidates (orange) and the point acted on, and the screenshot
// after. Images are embedded (data: URLs) so the file can be mailed or archived alone.
import { closeSync, openSync, readSync, realpathSync } from "node:fs";
import { join, resolve, sep } from "node:path";
import { readBoundedFileSync } from "../core/bounded-read.js";
import { TraceActionSchema, TraceAfterSchema, TraceBeforeSchema, type TraceAction, type TraceAfter, type TraceBefore, type TraceDecision, type TraceEvent } from "../core/schemas/trace.js";
import { rowOutcomes, type ReadTrace } from "./trace.js";
import { escapeHtml as esc } from "../core/html.js";


/** How a step card shows a run's screenshots: embedded (the report) or by URL (the studio). */
export interface ShotSource {
  /** The `src` of the image `rel` (relative to the run folder), undefined when it cannot be read. */
  src(rel: string): string | undefined;
  /** Its pixel size. */
  size(rel: string): { width: number; height: number } | undefined;
  /** Inline `style` attributes allowed (a page under a strict Content Security Policy has none). */
  inlineStyle: boolean;
}

/** Screenshots embedded as data: URLs, read from the run folder `dir`. */
export function embeddedShots(dir: string): ShotSource {
  return {
    src: (rel) => {
      const png = confinedShot(dir, rel);
      return png ? `data:image/png;base64,${png.toString("base64")}` : undefined;
    },
    size: (rel) => (confinedShot(dir, rel) ? pngSize(join(realpathSync(dir), rel)) : undefined),
    inlineStyle: true,
  };
}

/**
 * A screenshot of the run, read only inside the run folder (a trace naming `../x`, or a link out of
 * the folder, gets nothing), bounded, and only when it is a PNG; undefined otherwise.
 */
function confinedShot(dir: string, rel: string): Buffer | undefined {
  try {
    const root = realpathSync(dir);
    const path = realpathSync(resolve(root, rel));
    if (!path.startsWith(root + sep)) return undefined;
    const png = readBoundedFileSync(path, 64 * 1048576);
    return png.length >= 24 && png.readUInt32BE(0) === 0x89504e47 ? png : undefined;
  } catch {
    return undefined;
  }
}

/** Width and height from a PNG's header; undefined when the file is missing or not a PNG. */
export function pngSize(path: string): { width: number; height: number } | undefined {
  try {
    // The header only: the size is in the first 24 bytes (IHDR), whatever the file's length.
    const png = Buffer.alloc(24);
    const fd = openSync(path, "r");
    let n: number;
    try {
      n = readSync(fd, png, 0, 24, 0);
    } finally {
      closeSync(fd);
    }
    if (n < 24 || png.readUInt32BE(0) !== 0x89504e47 || png.readUInt32BE(12) !== 0x49484452) return undefined;
    return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
  } catch {
    return undefined;
  }
}

export interface FigureBox {
  bbox: readonly number[];
  kind: "chosen" | "candidate";
  label: string;
}

/** The screenshot with boxes drawn as SVG over it (coordinates: screen → image via the shot's origin). */
export function figure(shots: ShotSource, shot: string | null, origin: readonly [number, number] | null, boxes: FigureBox[], point: readonly [number, number] | null, caption: string): string {
  const src = shot ? shots.src(shot) : undefined;
  const size = shot ? shots.size(shot) : undefined;
  if (!src || !origin || !size) return `<figure class="missing"><figcaption>${esc(caption)}: no screenshot</figcaption></figure>`;
  const { width: w, height: h } = size;
  const rect = (b: readonly number[], cls: string, title: string) =>
    `<rect class="${cls}" x="${b[0]! - origin[0]}" y="${b[1]! - origin[1]}" width="${b[2]! - b[0]!}" height="${b[3]! - b[1]!}"><title>${esc(title)}</title></rect>`;
  const overlay = [
    ...boxes.filter((b) => b.kind === "candidate").map((b) => rect(b.bbox, "candidate", b.label)),
    ...boxes.filter((b) => b.kind === "chosen").map((b) => rect(b.bbox, "chosen", b.label)),
    point ? `<circle class="point" cx="${point[0] - origin[0]}" cy="${point[1] - origin[1]}" r="6"/>` : "",
  ].join("");
  return `<figure><div class="shot"${shots.inlineStyle ? ` style="aspect-ratio:${w}/${h}"` : ""}><img alt="${esc(caption)}" src="${esc(src)}" width="${w}" height="${h}"><svg viewBox="0 0 ${w} ${h}" preserveAspectRatio="none">${overlay}</svg></div><figcaption>${esc(caption)}</figcaption></figure>`;
}

/** One attempt of one step as the trace tells it: the `after` event and the `before` / `action` that led to it. */
export interface StepAttempt {
  /** Position among the run's attempts (0, 1, …), in trace order. */
  index: number;
  row: number;
  after: TraceAfter;
  before: TraceBefore | undefined;
  action: TraceAction | undefined;
}

/** Every finished step attempt of the run, in trace order. */
export function stepAttempts(trace: ReadTrace): StepAttempt[] {
  const out: StepAttempt[] = [];
  for (const [row] of trace.run.rows.entries()) {
    const evs = trace.events.filter((e) => "row" in e && e.row === row);
    for (const after of evs.filter((e): e is TraceAfter => e.type === "after")) {
      const before = evs.filter((e): e is TraceBefore => e.type === "before" && e.step === after.step && Date.parse(e.t) <= Date.parse(after.t)).at(-1);
      const action = evs.filter((e): e is TraceAction => e.type === "action" && e.step === after.step && Date.parse(e.t) <= Date.parse(after.t)).at(-1);
      out.push({ index: out.length, row, after, before, action });
    }
  }
  return out;
}

/** The boxes a step card draws on the screenshot before the action: the first candidates, then the chosen box. */
export function attemptBoxes(a: StepAttempt): FigureBox[] {
  return [
    ...(a.before?.candidates ?? []).slice(0, 5).map((c) => ({ bbox: c.bbox, kind: "candidate" as const, label: `${c.label} (${c.type}) ${c.score}` })),
    ...(a.before?.bbox ? [{ bbox: a.before.bbox, kind: "chosen" as const, label: `chosen, ${a.before.method} ${a.before.score ?? ""}` }] : []),
  ];
}

export interface StepCardOptions {
  /** Also list the fields of the events this build does not know (newer writers: decision records…). */
  extraFields?: boolean;
}

const KNOWN = {
  before: new Set(Object.keys(TraceBeforeSchema.shape)),
  action: new Set(Object.keys(TraceActionSchema.shape)),
  after: new Set(Object.keys(TraceAfterSchema.shape)),
};

/** Fields of an event beyond its schema, each as "name: value" (objects as JSON). */
export function extraFields(event: TraceBefore | TraceAction | TraceAfter | undefined): { event: string; name: string; value: string }[] {
  if (!event) return [];
  const known = KNOWN[event.type];
  return Object.entries(event)
    .filter(([k]) => !known.has(k))
    .map(([name, v]) => ({ event: event.type, name, value: typeof v === "string" ? v : JSON.stringify(v, null, 1) }));
}

/** The actor's decisions for this attempt (since the step's previous result) and each check with its evidence, everything escaped. */
function actorHtml(trace: ReadTrace, a: StepAttempt): string {
  const { after, row } = a;
  const t = Date.parse(after.t);
  const prev = trace.events.filter((e): e is TraceAfter => e.type === "after" && e.row === row && e.step === after.step && Date.parse(e.t) < t).at(-1);
  const decisions = trace.events.filter((e): e is TraceDecision => e.type === "decision" && e.row === row && e.step === after.step && Date.parse(e.t) <= t && (!prev || Date.parse(e.t) > Date.parse(prev.t)));
  const list = decisions.length
    ? `<ol class="decisions">${decisions.map((d) => `<li class="decision ${esc(d.decision.kind)}"><b>${esc(d.decision.kind)}</b> (${esc(d.decision.by)}${d.decision.chosen ? `, chose ${esc(d.decision.chosen)}` : ""}): ${esc(d.decision.reason)}${d.decision.options.length > 1 ? `<br><small>options: ${d.decision.options.map((o) => esc(o.id)).join(", ")}</small>` : ""}<details><summary>evidence</summary><pre>${esc(JSON.stringify(d.decision.evidence, null, 1))}</pre></details></li>`).join("")}</ol>`
    : "";
  const checks = after.checks?.length ? `<ul class="checks">${after.checks.map((c) => `<li class="check ${esc(c.status)}">${esc(c.kind)} <b>${esc(c.status)}</b>: ${esc(c.evidence)}</li>`).join("")}</ul>` : "";
  return list + checks;
}

/** Longest raw model answer shown in a card; the whole answer stays in trace.jsonl. */
const RAW_ANSWER_SHOWN = 4000;

/** What the grounding model was asked and answered for this step (method "vlm"), all of it untrusted text, escaped. */
function vlmHtml(before: TraceBefore | undefined): string {
  const v = before?.vlm;
  if (!v) return "";
  const raw = v.raw_answer.length > RAW_ANSWER_SHOWN ? `${v.raw_answer.slice(0, RAW_ANSWER_SHOWN)}… (${v.raw_answer.length} characters, all in trace.jsonl)` : v.raw_answer;
  const facts = [`model ${v.model}`, v.cached ? "answer from the cache" : "answered now", v.snapped_to ? `snapped to ${v.snapped_to}` : "not snapped to a detected element", `prompt ${v.prompt_hash}`];
  return `<details class="vlm"><summary>grounding model: ${esc(facts.join(" · "))}</summary><pre>${esc(raw)}</pre></details>`;
}

/** One step card of the report (and of the studio's run viewer): status, timeline, candidates, screenshots. */
export function stepCard(trace: ReadTrace, a: StepAttempt, shots: ShotSource, opts: StepCardOptions = {}): string {
  const { after, before, action, row } = a;
  const step = trace.run.steps[after.step];
  const cands = (before?.candidates ?? []).slice(0, 5).map((c) => `<li>« ${esc(c.label)} » ${esc(c.type)} — ${c.score}</li>`).join("");
  const extras = opts.extraFields ? [...extraFields(before), ...extraFields(action), ...extraFields(after)] : [];
  const extrasHtml = extras.length ? `<dl class="extra">${extras.map((x) => `<dt>${esc(x.event)}.${esc(x.name)}</dt><dd><pre>${esc(x.value)}</pre></dd>`).join("")}</dl>` : "";
  return `<section class="step ${after.status}" data-step="${esc(after.step_id)}" data-row="${row}">
<h3><span class="status">${esc(after.status)}</span> ${esc(after.step_id)} · ${esc(step?.action ?? "")} · ${esc(step?.intention ?? "")}</h3>
<ul class="timeline"><li>window: ${esc(before?.window ? `« ${before.window.title} » (${before.window.app})` : "—")}</li><li>decision: ${esc(before?.decision ?? "—")}</li>
<li>action: ${esc(action ? `${action.action}${action.point ? ` at (${action.point.join(", ")})` : ""}${action.input !== null ? ` « ${action.input} »` : ""}` : "none")}</li>
<li>check: ${esc(after.check)}</li><li>attempts ${esc(String(after.attempts))}, ${esc(String(after.duration_ms))} ms (overhead ${esc(String(after.overhead_ms))} ms)${before ? `; ${esc(Object.entries(before.timings).map(([k, v]) => `${k} ${v}`).join(", "))}` : ""}</li>
${after.error ? `<li class="error">${esc(after.error.code)}: ${esc(after.error.message)}</li>` : ""}</ul>
${actorHtml(trace, a)}${vlmHtml(before)}
${cands ? `<details><summary>candidates</summary><ol>${cands}</ol></details>` : ""}${extrasHtml}
<div class="shots">${figure(shots, before?.screenshot ?? null, before?.origin ?? null, attemptBoxes(a), action?.point ?? null, "before")}${figure(shots, after.screenshot, after.origin, [], null, "after")}</div></section>`;
}

/** The report's style sheet (the studio serves it as a file). */
export const REPORT_CSS = `body{font-family:sans-serif;margin:1.5em;color:#222}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:3px 8px;text-align:left}
.passed .status{color:#0a7a28;font-weight:bold}.failed .status{color:#b00020;font-weight:bold}.not_run .status,.skipped .status{color:#777}.unverified .status{color:#a86500;font-weight:bold}section.step.unverified{border-color:#e0a000}section.step.skipped{border-color:#999}ol.decisions{font-size:90%}li.check.failed{color:#b00020}li.check.unverified{color:#a86500}
section.step{border-left:4px solid #0a7a28;padding-left:10px;margin:1em 0}section.step.failed{border-color:#b00020}
.shots{display:flex;gap:10px;flex-wrap:wrap}figure{margin:0;max-width:48%}.shot{position:relative;width:100%}.shot img{width:100%;height:auto;display:block;border:1px solid #999}
.shot svg{position:absolute;left:0;top:0;width:100%;height:100%}rect.chosen{fill:none;stroke:#00c040;stroke-width:3}rect.candidate{fill:none;stroke:#ff8c00;stroke-width:2;stroke-dasharray:6 3}
circle.point{fill:#e00;stroke:#fff;stroke-width:2}.error{color:#b00020}`;

export function renderReport(trace: ReadTrace): string {
  const { run, events, dir } = trace;
  const outcomes = rowOutcomes(trace);
  const end = events.filter((e) => e.type === "run_end").at(-1);
  const status = end?.type === "run_end" ? end.status : "unfinished";
  const varNames = [...new Set(run.rows.flatMap((r) => Object.keys(r)))];
  const rowsTable = `<table class="rows"><tr><th>row</th>${varNames.map((n) => `<th>${esc(n)}</th>`).join("")}<th>result</th><th>failed step</th><th>error</th></tr>
${outcomes
  .map((o) => {
    const endEv = events.filter((e): e is Extract<TraceEvent, { type: "row_end" }> => e.type === "row_end" && e.row === o.row).at(-1);
    const step = endEv?.failed_step !== null && endEv?.failed_step !== undefined ? run.steps[endEv.failed_step] : undefined;
    return `<tr class="${o.status}"><td>${o.row + 1}</td>${varNames.map((n) => `<td>${run.rows[o.row]?.[n] === null ? "<i>secret</i>" : esc(run.rows[o.row]?.[n] ?? "")}</td>`).join("")}<td class="status">${o.status}</td><td>${step ? esc(`${step.step_id} ${step.intention}`) : ""}</td><td>${esc(endEv?.error?.message ?? "")}</td></tr>`;
  })
  .join("\n")}</table>`;
  const sections: string[] = [];
  const shots = embeddedShots(dir);
  const attempts = stepAttempts(trace);
  for (const [row] of run.rows.entries()) {
    if (!events.some((e) => "row" in e && e.row === row)) continue;
    sections.push(`<h2>Row ${row + 1}</h2>`);
    for (const a of attempts.filter((x) => x.row === row)) sections.push(stepCard(trace, a, shots));
  }
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Replay ${esc(run.run_id)} — ${esc(run.workflow_name)}</title>
<style>${REPORT_CSS}</style></head><body>
<h1>Replay of « ${esc(run.workflow_name)} »</h1><p>Run <code>${esc(run.run_id)}</code>, workflow <code>${esc(run.workflow_id)}</code> (${esc(run.workflow_path)}), ${run.steps.length} steps × ${run.rows.length} row(s), on error: ${run.on_error}. Result: <b class="run-status">${status}</b>${end?.type === "run_end" ? ` in ${(end.duration_ms / 1000).toFixed(1)} s` : ""}.</p>
<h2>Results per row</h2>${rowsTable}
${sections.join("\n")}
</body></html>
`;
}
