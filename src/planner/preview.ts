// The plan as text, before anything runs (`--dry-run`, and the confirmation): what was
// understood, the workflow and why, the items with their date rule and bindings, what was left
// out and why, and the estimated time.
import type { PlanDocument } from "../core/schemas/plan.js";
import { describeDateFilter } from "./instruction.js";
import type { PreparedPlan } from "./planner.js";

function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 90 ? `${s} s` : s < 5400 ? `${Math.round(s / 60)} min` : `${(s / 3600).toFixed(1)} h`;
}

function understood(i: PlanDocument["instruction"]): string {
  const f = i.filters;
  return [
    `verb ${i.verb ?? "—"}`,
    `items ${i.noun ?? "—"}`,
    f.date ? `date ${describeDateFilter(f.date, i.language)}` : "",
    f.name_pattern ? `name ${f.name_pattern}` : "",
    f.extension ? `extension .${f.extension}` : "",
    f.not_done ? "not done yet" : "",
    f.count ? `${f.count.from} ${f.count.n}` : "",
    i.source ? `source ${i.source}` : "",
    `(${i.language})`,
  ]
    .filter(Boolean)
    .join(" · ");
}

export function formatPlan(p: PreparedPlan): string {
  const d = p.document;
  const out: string[] = [];
  out.push(`Plan ${d.plan_id}: « ${d.instruction.text} »`);
  out.push(`  understood: ${understood(d.instruction)}`);
  if (d.model_instruction) out.push(`  the model proposed this (used); the deterministic parse differs on ${p.differences.join(", ")}: ${understood(d.model_instruction)}`);
  for (const w of p.warnings) out.push(`  warning: ${w}`);
  out.push(`  workflow: « ${d.workflow.name} » (${d.workflow.workflow_id} v${d.workflow.version}) — ${d.workflow.chosen_by}`);
  for (const c of p.ranking.slice(1, 3)) out.push(`    also considered: « ${c.workflow.name} » ${c.score.toFixed(2)} (words ${c.text.toFixed(2)}, variables filled ${c.coverage.toFixed(2)})`);
  out.push(`  items: ${d.items.length} of ${d.items.length + p.filtered.dropped.length} in ${d.source.kind} ${d.source.location}${d.source.date_rules.length ? ` (dates from ${d.source.date_rules.join(", ")})` : ""}`);
  for (const n of d.source.notes ?? []) out.push(`    ${n}`);
  d.items.forEach((x, i) => {
    const skip = p.alreadyDone.get(x.item.key);
    out.push(`   ${String(i + 1).padStart(3)}. ${x.item.label}${x.item.date ? ` — ${x.item.date} (${x.item.date_rule})` : ""}${skip ? ` — already done by plan ${skip}, skipped unless --force` : ""}`);
    for (const [k, v] of Object.entries(x.bindings)) out.push(`          ${k} = ${JSON.stringify(v)}  [${x.sources[k]}]`);
  });
  if (p.filtered.dropped.length) {
    out.push(`  left out: ${p.filtered.dropped.length}`);
    for (const x of p.filtered.dropped.slice(0, 12)) out.push(`        ${x.item.label}: ${x.why}`);
    if (p.filtered.dropped.length > 12) out.push(`        … ${p.filtered.dropped.length - 12} more`);
  }
  const n = d.items.filter((x) => !p.alreadyDone.has(x.item.key)).length;
  out.push(`  estimated time: ${duration(n * d.options.estimated_ms_per_item)} (${n} × ${duration(d.options.estimated_ms_per_item)})${d.options.app_command ? `; the app is started for each item: ${d.options.app_command}` : ""}`);
  out.push(`  report: ${d.options.report_dir}`);
  return `${out.join("\n")}\n`;
}
