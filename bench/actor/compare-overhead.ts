// The actor's comparison alone, off the desktop: for each step of a run that bench/actor kept
// (RPAV_BENCH_KEEP=1), the live window as the actor saw it before the step (its "before"
// screenshot) embedded with the recording's state embedder and the step's recorded context, then
// compared with the step's stored state vector and required elements through the workflow matcher
// — what `compare_ms` + `match_ms` time in the trace, without the rest of the replay competing
// for the two cores. Perception's text and elements are left out (the trace keeps none): the
// embedding's text part sees the title only, a little cheaper than in a run.
//   npx tsx bench/actor/compare-overhead.ts <kept work dir> <task key> [reps]
//   e.g. npx tsx bench/actor/compare-overhead.ts /tmp/rpav-bench-actor-XXXX qt 5
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { readImageFile } from "../../src/capture/png.js";
import { createStateEmbedder } from "../../src/cli/state-embedder.js";
import type { Workflow } from "../../src/core/schemas/workflow.js";
import { NgramTextEmbedder } from "../../src/embedding/ngram-text-embedder.js";
import { ElementMatcher } from "../../src/matching/workflow-matcher.js";
import { readTrace } from "../../src/replay/trace.js";
import { SqliteStore } from "../../src/store/sqlite-store.js";
import { percentile, round } from "../lib.js";

const [work, key, repsArg] = process.argv.slice(2);
if (!work || !key) throw new Error("usage: compare-overhead.ts <kept work dir> <task key> [reps]");
const reps = Number(repsArg ?? 5);
const wf = JSON.parse(readFileSync(join(work, key, "wf", "workflow.json"), "utf8")) as Workflow;
const store = SqliteStore.open(join(work, "data"));
const embedder = createStateEmbedder();
const matcher = new ElementMatcher(new NgramTextEmbedder(256));
const times: number[] = [];
const runs = readdirSync(join(work, "runs")).filter((d) => d.startsWith(`${key}-none-`) && d.endsWith("-actor"));
for (const run of runs) {
  const dir = join(work, "runs", run);
  for (const e of readTrace(dir).events) {
    if (e.type !== "before" || !e.screenshot || !e.window || e.attempt !== 1) continue;
    const title = e.window.title;
    const step = wf.steps.find((s) => s.step_id === e.step_id);
    const id = step?.expect?.before.state_vector_id;
    if (!step || !id) continue;
    const frame = await readImageFile(join(dir, e.screenshot));
    const recorded = await store.getVector(id);
    const ctx = step.context ?? { current_workflow_candidate: wf.workflow_id, tags: [], app_name: step.window.app };
    for (let k = 0; k < reps; k++) {
      const t0 = performance.now();
      const live = await embedder.embed({ frame, detectedText: [], windowTitle: title, elements: [], context: { workflowCandidate: ctx.current_workflow_candidate, tags: ctx.tags, ...(ctx.app_name ? { appName: ctx.app_name } : {}) } }, "complete");
      await matcher.matchStep(
        { embedding: live, elements: [], windowTitle: title, frame: { width: frame.width, height: frame.height } },
        { stepId: step.step_id, ...(recorded ? { expectedEmbedding: recorded } : {}), expectedWindowTitle: step.window.title, requiredElements: [] },
        wf.workflow_id,
      );
      if (k > 0) times.push(performance.now() - t0); // the first is a warm-up
    }
  }
}
await store.close();
const sorted = [...times].sort((a, b) => a - b);
console.log(JSON.stringify({ task: key, runs, comparisons: times.length, median_ms: round(percentile(sorted, 50), 1), p90_ms: round(percentile(sorted, 90), 1), max_ms: round(sorted.at(-1) ?? 0, 1) }));
