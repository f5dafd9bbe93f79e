// `rpav replay --assist` on a terminal: answers the run's questions through the same inbox the
// studio uses (AssistFiles), so a question is answered once whichever front end is first.
import { createInterface } from "node:readline/promises";
import type { AssistInbox } from "../core/providers/assist-channel.js";
import type { AssistAnswer, AssistQuestion } from "../core/schemas/assist.js";

function render(q: AssistQuestion): string {
  const lines = [`\nrpav needs you — ${q.step_id} (row ${q.row + 1}): ${q.message}`];
  if (q.window) lines.push(`  window: « ${q.window.title} » (${q.window.app})`);
  if (q.screenshot) lines.push(`  screenshot: ${q.run_dir}/${q.screenshot}`);
  q.candidates.forEach((c, i) => lines.push(`  ${i + 1}. « ${c.label} » ${c.type} at [${c.bbox.map(Math.round).join(", ")}] score ${c.score}`));
  const how: string[] = [];
  if (q.choices.includes("pick")) how.push(q.candidates.length ? "a number to pick a candidate" : "p to confirm");
  if (q.choices.includes("point")) how.push("x,y to click a screen point");
  if (q.choices.includes("skip")) how.push("s to skip the step");
  if (q.choices.includes("abort")) how.push("a to abort");
  lines.push(`  answer with ${how.join(", ")}: `);
  return lines.join("\n");
}

/** A typed answer line as a choice of `q`, or undefined when it is not one. */
export function parseAnswer(q: AssistQuestion, line: string): AssistAnswer["choice"] | undefined {
  const t = line.trim().toLowerCase();
  if (t === "s" && q.choices.includes("skip")) return { kind: "skip" };
  if (t === "a" && q.choices.includes("abort")) return { kind: "abort" };
  if (q.choices.includes("pick")) {
    if (t === "p" && q.candidates.length === 1) return { kind: "pick", candidate_id: q.candidates[0]!.candidate_id };
    const n = Number(t);
    if (Number.isInteger(n) && n >= 1 && n <= q.candidates.length) return { kind: "pick", candidate_id: q.candidates[n - 1]!.candidate_id };
  }
  const m = /^(-?\d+(?:\.\d+)?)\s*[, ]\s*(-?\d+(?:\.\d+)?)$/.exec(t);
  if (m && q.choices.includes("point")) return { kind: "point", x: Number(m[1]), y: Number(m[2]) };
  return undefined;
}

/** Polls the inbox for this run's questions and asks them on the terminal until `signal` fires. */
export async function terminalAnswerer(inbox: AssistInbox, runId: string, input: NodeJS.ReadableStream, output: NodeJS.WritableStream, signal: AbortSignal): Promise<void> {
  const rl = createInterface({ input, output, terminal: false });
  try {
    while (!signal.aborted) {
      const q = (await inbox.pending()).find((x) => x.run_id === runId);
      if (!q) {
        await new Promise((r) => setTimeout(r, 200));
        continue;
      }
      let choice: AssistAnswer["choice"] | undefined;
      while (!choice && !signal.aborted) {
        const line = await rl.question(render(q), { signal }).catch(() => undefined);
        if (line === undefined) return;
        choice = parseAnswer(q, line);
        if (!choice) output.write("  not one of the answers offered\n");
      }
      if (choice) await inbox.answer({ schema_version: "assist_answer_v1", question_id: q.question_id, answered_at: new Date().toISOString(), by: "terminal", choice }).catch((e: Error) => output.write(`  ${e.message}\n`));
    }
  } finally {
    rl.close();
  }
}
