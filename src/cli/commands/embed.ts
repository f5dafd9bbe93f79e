// `rpav embed` and `rpav match`: state embeddings and workflow-step matching from the command line.
import { readFile } from "node:fs/promises";
import { dirname, isAbsolute, resolve } from "node:path";
import type { Command } from "commander";
import { z } from "zod";
import { InvalidInputError, SchemaValidationError } from "../../core/errors.js";
import type { MatchableWorkflow } from "../../core/providers/matching.js";
import { formatJsonPath, parseJsonText, readDocument } from "../../core/schemas/documents.js";
import { SCREEN_STATE_MODES, type ScreenStateMode } from "../../core/schemas/screenstate.js";
import { UIElementTypeSchema } from "../../core/schemas/uielement.js";
import { l2Norm } from "../../core/vectors.js";
import { readImageFile } from "../../capture/png.js";
import { LayoutImageEmbedder } from "../../embedding/layout-image-embedder.js";
import { MultiModalEmbeddingManager, type StateInput } from "../../embedding/multimodal-embedding-manager.js";
import { NgramTextEmbedder } from "../../embedding/ngram-text-embedder.js";
import { ElementMatcher, LegacyMatcher, WorkflowMatcher } from "../../matching/workflow-matcher.js";
import type { CliIo } from "./desktop.js";

/** Providers chosen by name: the composition root's registry. */
function manager(dim: number): MultiModalEmbeddingManager {
  return new MultiModalEmbeddingManager(new LayoutImageEmbedder(dim), new NgramTextEmbedder(dim));
}

/** A PNG, or a screenstate_v1 JSON whose raw.screenshot_path (relative to the JSON) is the image. */
async function loadInput(path: string): Promise<StateInput> {
  if (!path.toLowerCase().endsWith(".json")) return { frame: await readImageFile(path) };
  const doc = readDocument(parseJsonText(await readFile(path, "utf8"), path), path);
  if (doc.version !== "screenstate_v1") throw new InvalidInputError(`${path}: expected a screenstate_v1 document or a PNG, found ${doc.version}.`);
  const s = doc.value;
  const shot = isAbsolute(s.raw.screenshot_path) ? s.raw.screenshot_path : resolve(dirname(path), s.raw.screenshot_path);
  return {
    frame: await readImageFile(shot, { scaleFactor: s.environment.display_scale }),
    detectedText: s.perception.detected_text,
    windowTitle: s.window.window_title,
    elements: s.ui_elements,
    context: { workflowCandidate: s.context.current_workflow_candidate ?? null, tags: s.context.tags, appName: s.window.app_name },
  };
}

const DescriptorSchema = z.object({
  type: UIElementTypeSchema.optional(),
  role: z.string().optional(),
  label: z.string().optional(),
  position_hint: z.object({ vertical: z.enum(["top", "middle", "bottom"]).optional(), horizontal: z.enum(["left", "center", "right"]).optional() }).optional(),
});

/** What `rpav match` reads until workflow_v1 (recording issue) exists: steps with a screenshot and element descriptors. */
export const MatchWorkflowSchema = z.object({
  workflow_id: z.string().min(1),
  steps: z
    .array(
      z.object({
        step_id: z.string().min(1),
        /** A PNG or screenstate_v1 JSON of the expected screen, relative to the workflow file. */
        expected_state: z.string().optional(),
        window_title: z.string().optional(),
        required_elements: z.array(DescriptorSchema).optional(),
        optional_elements: z.array(DescriptorSchema).optional(),
      }),
    )
    .min(1),
});

async function loadWorkflow(path: string, mgr: MultiModalEmbeddingManager, mode: ScreenStateMode): Promise<MatchableWorkflow> {
  const parsed = MatchWorkflowSchema.safeParse(parseJsonText(await readFile(path, "utf8"), path));
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({ path: formatJsonPath(i.path), message: i.message }));
    throw new SchemaValidationError(`${path}: not a valid workflow for matching: ${issues.map((i) => `${i.path}: ${i.message}`).join("; ")}`, issues);
  }
  const wf = parsed.data;
  const toDesc = (d: z.infer<typeof DescriptorSchema>) => ({ type: d.type, role: d.role, label: d.label, positionHint: d.position_hint });
  const steps = [];
  for (const s of wf.steps) {
    let expectedEmbedding;
    if (s.expected_state) {
      const emb = await mgr.embed(await loadInput(resolve(dirname(path), s.expected_state)), mode);
      expectedEmbedding = { provider: emb.provider, vector: emb.vector };
    }
    steps.push({ stepId: s.step_id, expectedEmbedding, expectedWindowTitle: s.window_title, requiredElements: s.required_elements?.map(toDesc), optionalElements: s.optional_elements?.map(toDesc) });
  }
  return { workflowId: wf.workflow_id, steps };
}

function parseMode(m: string): ScreenStateMode {
  if (!(SCREEN_STATE_MODES as readonly string[]).includes(m)) throw new InvalidInputError(`--mode must be one of ${SCREEN_STATE_MODES.join(", ")}, got "${m}".`);
  return m as ScreenStateMode;
}

export function registerEmbedCommands(program: Command, io: CliIo, setExit: (code: number) => void): void {
  program
    .command("embed <input>")
    .description("state embedding of a PNG or a screenstate_v1 JSON (image, text, title, UI elements, context)")
    .option("--mode <mode>", "light | enriched | complete", "complete")
    .option("--dim <n>", "dimension", (v) => Number(v), 512)
    .option("--json", "print the embedding as JSON, vector included")
    .action(async (input: string, o: { mode: string; dim: number; json?: boolean }) => {
      const emb = await manager(o.dim).embed(await loadInput(input), parseMode(o.mode));
      const components = Object.fromEntries(Object.entries(emb.components).map(([k, c]) => [k, { provider: c.provider, norm: Number(l2Norm(c.vector).toFixed(6)), vector: o.json ? Array.from(c.vector) : undefined }]));
      if (o.json) io.out(`${JSON.stringify({ provider: emb.provider, mode: emb.mode, dimensions: emb.dimensions, vector: Array.from(emb.vector), components, warnings: emb.warnings }, null, 2)}\n`);
      else {
        io.out(`${emb.provider} (${emb.mode}, ${emb.dimensions} dimensions), norm ${l2Norm(emb.vector).toFixed(6)}\n`);
        for (const [k, c] of Object.entries(components)) io.out(`  ${k.padEnd(8)} ${c.provider} norm ${c.norm}\n`);
        for (const w of emb.warnings) io.out(`  warning: ${w.component}: ${w.reason}\n`);
      }
    });

  program
    .command("match <input>")
    .description("which step of a workflow is this screen? prints the MatchResult")
    .requiredOption("--workflow <file.json>", "workflow: {workflow_id, steps: [{step_id, expected_state, window_title, required_elements, optional_elements}]}")
    .option("--mode <mode>", "light | enriched | complete", "complete")
    .option("--dim <n>", "dimension", (v) => Number(v), 512)
    .option("--json", "print the MatchResult as JSON")
    .action(async (input: string, o: { workflow: string; mode: string; dim: number; json?: boolean }) => {
      const mode = parseMode(o.mode);
      const mgr = manager(o.dim);
      const wf = await loadWorkflow(o.workflow, mgr, mode);
      const current = await loadInput(input);
      const emb = await mgr.embed(current, mode);
      const router = new WorkflowMatcher(new LegacyMatcher(), new ElementMatcher(new NgramTextEmbedder(o.dim)));
      const r = await router.match({ embedding: { provider: emb.provider, vector: emb.vector }, elements: current.elements ?? [], windowTitle: current.windowTitle ?? "", frame: { width: current.frame.width, height: current.frame.height } }, wf);
      if (o.json) io.out(`${JSON.stringify(r, null, 2)}\n`);
      else {
        io.out(`${r.ok ? "match" : "no match"}: step ${r.stepId ?? "-"} of ${r.workflowId} (${r.method}), score ${r.score.toFixed(3)}\n`);
        for (const d of r.differences) io.out(`  difference: ${JSON.stringify(d)}\n`);
      }
      if (!r.ok) setExit(1);
    });
}
