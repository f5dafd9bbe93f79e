// Choosing the workflow an instruction asks for, among the stored ones (latest version of each):
// how close the instruction's words are to the workflow's name, step intentions, variable names
// and descriptions (accent-folded words, plurals and verb endings, character trigrams for the
// rest), and how many of its variables the listed items can fill. Two candidates too close to
// call are an ambiguity (a value: the caller asks, or throws AmbiguousWorkflowError).
import type { PlanItem } from "../core/schemas/plan.js";
import type { Workflow } from "../core/schemas/workflow.js";
import { foldText } from "../core/text.js";
import { unboundVariables, type BindOptions } from "./bind.js";

export interface WorkflowCandidate {
  workflow: Workflow;
  version: number;
  /** Where it comes from, for messages: "store", a file path. */
  origin: string;
}

export interface ScoredCandidate extends WorkflowCandidate {
  score: number;
  text: number;
  coverage: number;
  /** Words of the instruction found in the workflow. */
  matched: string[];
}

export type WorkflowChoice =
  | { kind: "chosen"; chosen: ScoredCandidate; ranking: ScoredCandidate[] }
  | { kind: "ambiguous"; ranking: ScoredCandidate[]; reason: string }
  | { kind: "none"; reason: string };

/** Two candidates closer than this are too close to call. */
export const AMBIGUITY_MARGIN = 0.08;
const TEXT_WEIGHT = 0.6;

const STOP = new Set(["les", "des", "du", "de", "la", "le", "un", "une", "sur", "dans", "et", "au", "aux", "en", "pour", "par", "l", "d", "the", "of", "a", "an", "to", "on", "in", "and", "for", "with", "cliquer", "click", "saisir", "type", "appuyer", "press", "attendre", "wait", "fenetre", "window", "onglet", "bouton", "button", "tab"]);

function words(text: string): string[] {
  return foldText(text)
    .replace(/\{\{\s*([a-z0-9_]+)\s*\}\}/g, " $1 ")
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 1 && !STOP.has(w) && !/^\d+$/.test(w));
}

function singular(w: string): string {
  return w.length > 3 ? w.replace(/(?:es|s|x)$/, "") : w;
}

function trigrams(w: string): Set<string> {
  const p = `  ${w} `;
  const g = new Set<string>();
  for (let i = 0; i < p.length - 2; i++) g.add(p.slice(i, i + 3));
  return g;
}

/** How well one word matches a set of words: 1 same word (plural folded), 0.8 same stem (5+ letters), else trigram overlap ≥ 0.5. */
function wordScore(w: string, pool: readonly string[]): number {
  const a = singular(w);
  let best = 0;
  const ga = trigrams(a);
  for (const p of pool) {
    const b = singular(p);
    if (a === b) return 1;
    const n = Math.min(a.length, b.length);
    if (n >= 5 && (a.startsWith(b.slice(0, Math.max(5, n - 2))) || b.startsWith(a.slice(0, Math.max(5, n - 2))))) best = Math.max(best, 0.8);
    const gb = trigrams(b);
    let inter = 0;
    for (const g of ga) if (gb.has(g)) inter++;
    const dice = (2 * inter) / (ga.size + gb.size);
    if (dice >= 0.5) best = Math.max(best, dice * 0.8);
  }
  return best;
}

/** The words a workflow is known by. */
export function workflowWords(wf: Workflow): string[] {
  const parts = [wf.name, wf.app, ...wf.steps.map((s) => s.intention), ...wf.variables.flatMap((v) => [v.name.replace(/_/g, " "), v.description ?? ""])];
  return [...new Set(parts.flatMap(words))];
}

/** Ranks the candidates for an instruction's words and items. */
export function rankWorkflows(taskWords: readonly string[], candidates: readonly WorkflowCandidate[], items: readonly PlanItem[], bind: BindOptions = {}): ScoredCandidate[] {
  const asked = [...new Set(taskWords.flatMap(words))];
  return candidates
    .map((c) => {
      const pool = workflowWords(c.workflow);
      const scores = asked.map((w) => [w, wordScore(w, pool)] as const);
      const text = asked.length ? scores.reduce((s, [, x]) => s + x, 0) / asked.length : 0;
      const vars = c.workflow.variables.length;
      // A workflow without variables does the same thing for every item: nothing to fill, no credit.
      const coverage = items.length === 0 || vars === 0 ? 0 : 1 - unboundVariables(c.workflow, items, { ...bind, useExamples: false }).length / vars;
      return { ...c, text, coverage, score: TEXT_WEIGHT * text + (1 - TEXT_WEIGHT) * coverage, matched: scores.filter(([, x]) => x >= 0.5).map(([w]) => w) };
    })
    .sort((a, b) => b.score - a.score || a.workflow.name.localeCompare(b.workflow.name));
}

/** The workflow to run, or why none can be picked without asking. */
export function chooseWorkflow(taskWords: readonly string[], candidates: readonly WorkflowCandidate[], items: readonly PlanItem[], bind: BindOptions = {}): WorkflowChoice {
  if (candidates.length === 0) return { kind: "none", reason: "no workflow is stored: record one (rpav record, rpav build) or give --workflow <file>" };
  const ranking = rankWorkflows(taskWords, candidates, items, bind);
  const [best, second] = ranking as [ScoredCandidate, ScoredCandidate | undefined];
  if (!second) return { kind: "chosen", chosen: best, ranking };
  if (best.score - second.score < AMBIGUITY_MARGIN)
    return { kind: "ambiguous", ranking, reason: `« ${best.workflow.name} » (${best.score.toFixed(2)}) and « ${second.workflow.name} » (${second.score.toFixed(2)}) fit the instruction about as well` };
  return { kind: "chosen", chosen: best, ranking };
}
