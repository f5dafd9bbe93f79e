// The report renders what the grounding model was asked and answered (trace field `vlm`), escaped.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { renderReport } from "./report.js";
import { readTrace, TRACE_FILE } from "./trace.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function traceWith(before: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), "rpav-report-"));
  dirs.push(dir);
  const t = (s: number) => new Date(Date.UTC(2026, 11, 2, 10, 0, s)).toISOString();
  const ref = { row: 0, step: 0, step_id: "step_001" };
  const events = [
    { t: t(0), type: "run", schema_version: "trace_v1", run_id: "run_1", workflow_id: "wf", workflow_name: "wf", workflow_path: "/x/wf.json", rows: [{}], on_error: "stop", steps: [{ step_id: "step_001", action: "click", intention: "Cliquer sur Enregistrer" }] },
    { t: t(1), type: "row_start", row: 0, from_step: 0 },
    { t: t(2), type: "before", ...ref, attempt: 1, window: null, screenshot: null, origin: null, method: "vlm", bbox: [10, 10, 50, 30], score: 0.8, ambiguous: false, candidates: [], decision: "execute", timings: {}, ...before },
    { t: t(3), type: "action", ...ref, action: "click", point: [30, 20], input: null, duration_ms: 5 },
    { t: t(4), type: "after", ...ref, status: "passed", attempts: 1, screenshot: null, origin: null, check: "window unchanged", error: null, overhead_ms: 1, duration_ms: 6 },
    { t: t(5), type: "row_end", row: 0, status: "passed", failed_step: null, error: null },
    { t: t(6), type: "run_end", status: "passed", duration_ms: 6 },
  ];
  writeFileSync(join(dir, TRACE_FILE), events.map((e) => JSON.stringify(e)).join("\n") + "\n");
  return renderReport(readTrace(dir));
}

describe("report: the grounding model's part of a step", () => {
  it("shows the model, the prompt hash, cache and snap, and the raw answer as escaped text", () => {
    const html = traceWith({ vlm: { model: "qwen2.5vl:7b", prompt_hash: "ab12cd", raw_answer: '[{"bbox_2d":[1,2,3,4],"label":"<script>alert(1)</script>"}]', cached: true, snapped_to: "btn_save" } });
    const block = /<details class="vlm">[\s\S]*?<\/details>/.exec(html)?.[0] ?? "";
    expect(block).toContain("model qwen2.5vl:7b");
    expect(block).toContain("prompt ab12cd");
    expect(block).toContain("answer from the cache");
    expect(block).toContain("snapped to btn_save");
    expect(block).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).not.toContain("<script>alert(1)");
  });

  it("cuts a huge answer in the card (the trace keeps it whole) and shows nothing without a vlm field", () => {
    const html = traceWith({ vlm: { model: "m", prompt_hash: "h", raw_answer: "x".repeat(20_000), cached: false } });
    expect(html).toContain("20000 characters, all in trace.jsonl");
    expect(html).toContain("not snapped to a detected element");
    expect(html.length).toBeLessThan(19_000);
    expect(traceWith({ method: "element" })).not.toContain('class="vlm"');
  });
});
