// What a plan did: a self-contained HTML page (the instruction, the workflow, then each item with
// its status, exception class, reason, bindings and a link to each attempt's replay report), a
// CSV and a JSON summary, and the last line in the terminal in the instruction's language
// (« 3 dossiers traités, 1 en échec : … »). Every text comes from files, screens or the user:
// all of it is escaped.
import { existsSync } from "node:fs";
import { join, relative } from "node:path";
import type { LedgerItem } from "../core/providers/store.js";
import type { PlanDocument } from "../core/schemas/plan.js";
import { describeDateFilter } from "./instruction.js";
import { itemRunDir } from "./planner.js";

import { escapeHtml as esc } from "../core/html.js";

export interface ItemSummary {
  index: number;
  key: string;
  label: string;
  status: LedgerItem["status"];
  exception_class: LedgerItem["exceptionClass"];
  error_code: string | null;
  reason: string | null;
  attempts: number;
  run_id: string | null;
  started_at: string | null;
  finished_at: string | null;
  /** Each attempt's replay report, relative to the plan's folder. */
  reports: string[];
  bindings: Record<string, string>;
}

export function summarizeItems(doc: PlanDocument, ledger: readonly LedgerItem[]): ItemSummary[] {
  return ledger.map((l) => {
    const planned = doc.items[l.ord];
    const reports: string[] = [];
    for (let a = 1; a <= l.attempts; a++) {
      const r = join(itemRunDir(doc, l.ord, a), "report.html");
      if (existsSync(r)) reports.push(relative(doc.options.report_dir, r));
    }
    return { index: l.ord + 1, key: l.itemKey, label: planned?.item.label ?? l.itemKey, status: l.status, exception_class: l.exceptionClass, error_code: l.errorCode, reason: l.reason, attempts: l.attempts, run_id: l.runId, started_at: l.startedAt, finished_at: l.finishedAt, reports, bindings: planned?.bindings ?? {} };
  });
}

const FEMININE = new Set(["facture", "ligne", "commande", "fiche", "demande", "entree", "piece", "lettre", "note", "declaration", "ordonnance", "feuille"]);

function nounForms(doc: PlanDocument): { one: string; many: string; fem: boolean } {
  const lang = doc.instruction.language;
  const n = doc.instruction.noun;
  if (!n) return lang === "fr" ? { one: "élément", many: "éléments", fem: false } : { one: "item", many: "items", fem: false };
  const one = n.length > 3 ? n.replace(/(?<!s)(?:s|x)$/, "") : n;
  const many = /s$|x$/.test(n) ? n : `${n}s`;
  return { one, many, fem: lang === "fr" && FEMININE.has(one.normalize("NFD").replace(/\p{M}+/gu, "")) };
}

/** The terminal's last line: « 3 dossiers traités, 1 en échec : dossier-x (postcheck_failed) ». */
export function summaryLine(doc: PlanDocument, ledger: readonly LedgerItem[]): string {
  const fr = doc.instruction.language === "fr";
  const { one, many, fem } = nounForms(doc);
  const done = ledger.filter((l) => l.status === "done").length;
  const failed = ledger.filter((l) => l.status === "failed");
  const skipped = ledger.filter((l) => l.status === "skipped").length;
  const left = ledger.filter((l) => l.status === "pending" || l.status === "running").length;
  const label = (l: LedgerItem) => `${doc.items[l.ord]?.item.label ?? l.itemKey} (${l.errorCode ?? "?"}${l.exceptionClass ? `, ${fr ? (l.exceptionClass === "business" ? "métier" : "système") : l.exceptionClass}` : ""})`;
  const e = fem ? "e" : "";
  const parts = fr
    ? [`${done} ${done === 1 ? one : many} traité${e}${done === 1 ? "" : "s"}`]
    : [`${done} ${done === 1 ? one : many} processed`];
  if (failed.length) parts.push(fr ? `${failed.length} en échec : ${failed.map(label).join(", ")}` : `${failed.length} failed: ${failed.map(label).join(", ")}`);
  if (skipped) parts.push(fr ? `${skipped} ignoré${e}${skipped === 1 ? "" : "s"} (déjà traité${e}${skipped === 1 ? "" : "s"})` : `${skipped} skipped (already done)`);
  if (left) parts.push(fr ? `${left} restant${left === 1 ? "" : "s"} (rpav run --resume ${doc.plan_id})` : `${left} left (rpav run --resume ${doc.plan_id})`);
  return parts.join(fr ? ", " : "; ");
}

function csvCell(v: unknown): string {
  const s = v === null || v === undefined ? "" : String(v);
  return /[",;\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function planCsv(items: readonly ItemSummary[]): string {
  const cols = ["index", "key", "label", "status", "exception_class", "error_code", "reason", "attempts", "run_id", "started_at", "finished_at", "report"] as const;
  const rows = items.map((i) => [i.index, i.key, i.label, i.status, i.exception_class, i.error_code, i.reason, i.attempts, i.run_id, i.started_at, i.finished_at, i.reports.at(-1) ?? ""].map(csvCell).join(","));
  return `${cols.join(",")}\n${rows.join("\n")}\n`;
}

export function planJson(doc: PlanDocument, items: readonly ItemSummary[], line: string): Record<string, unknown> {
  return {
    plan_id: doc.plan_id,
    instruction: doc.instruction.text,
    workflow: { workflow_id: doc.workflow.workflow_id, name: doc.workflow.name, version: doc.workflow.version },
    source: doc.source,
    counts: Object.fromEntries(["pending", "running", "done", "failed", "skipped"].map((s) => [s, items.filter((i) => i.status === s).length])),
    summary: line,
    items,
  };
}

export function renderPlanReport(doc: PlanDocument, items: readonly ItemSummary[], line: string): string {
  const ins = doc.instruction;
  const lang = ins.language;
  const filters = [
    ins.filters.date ? `date: ${describeDateFilter(ins.filters.date, lang)}` : "",
    ins.filters.name_pattern ? `name: ${ins.filters.name_pattern}` : "",
    ins.filters.extension ? `.${ins.filters.extension}` : "",
    ins.filters.not_done ? "not done yet" : "",
    ins.filters.count ? `${ins.filters.count.from} ${ins.filters.count.n}` : "",
  ].filter(Boolean);
  const vars = Object.keys(doc.items[0]?.bindings ?? {});
  const rows = items
    .map(
      (i) => `<tr class="${esc(i.status)}"><td>${i.index}</td><td title="${esc(i.key)}">${esc(i.label)}</td><td class="st">${esc(i.status)}</td><td>${esc(i.exception_class ?? "")}</td><td>${esc(i.error_code ?? "")}</td><td class="reason">${esc(i.reason ?? "")}</td><td>${i.attempts}</td>${vars.map((v) => `<td>${esc(i.bindings[v] ?? "")}</td>`).join("")}<td>${i.reports.map((r, k) => `<a href="${esc(r)}">run ${k + 1}</a>`).join(" ")}</td></tr>`,
    )
    .join("\n");
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>${esc(`rpav plan ${doc.plan_id}`)}</title>
<style>body{font:14px system-ui,sans-serif;margin:1.5em;color:#222}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.3em .5em;text-align:left;vertical-align:top}
tr.done .st{background:#d8f5d8}tr.failed .st{background:#fbd5d5}tr.skipped .st{background:#eee}tr.pending .st,tr.running .st{background:#fff3c4}.reason{max-width:40em}code{background:#f4f4f4;padding:0 .2em}</style></head><body>
<h1>${esc(ins.text)}</h1>
<p class="summary">${esc(line)}</p>
<dl><dt>Plan</dt><dd><code>${esc(doc.plan_id)}</code> (${esc(doc.created_at)})</dd>
<dt>Workflow</dt><dd>${esc(doc.workflow.name)} <code>${esc(doc.workflow.workflow_id)}</code> v${doc.workflow.version} — ${esc(doc.workflow.chosen_by)}</dd>
<dt>Items</dt><dd>${esc(doc.source.kind)} ${esc(doc.source.location)}${doc.source.date_rules.length ? ` — dates: ${esc(doc.source.date_rules.join(", "))}` : ""}</dd>
${(doc.source.notes ?? []).map((n) => `<dd class="note">${esc(n)}</dd>`).join("")}
<dt>Understood</dt><dd>${esc([ins.verb ?? "", ins.noun ?? "", ...filters].filter(Boolean).join(" · "))}</dd>${
    doc.model_proposal
      ? `<dt>Decision model</dt><dd>${esc(`${doc.model_proposal.by}: ${doc.model_proposal.outcome === "used" ? `proposal used (differs from the deterministic parse on ${doc.model_proposal.differences.join(", ")})` : doc.model_proposal.outcome === "same" ? "same as the deterministic parse" : `not used (${doc.model_proposal.message ?? "refused"}); the deterministic parse stands`} — ${doc.model_proposal.ms} ms`)}</dd>`
      : ""
  }</dl>
<table><tr><th>#</th><th>item</th><th>status</th><th>class</th><th>code</th><th>reason</th><th>attempts</th>${vars.map((v) => `<th>${esc(v)}</th>`).join("")}<th>runs</th></tr>
${rows}
</table></body></html>
`;
}
