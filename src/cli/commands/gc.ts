// `rpav gc [--older-than 30d] [--dry-run] [--json]`: frees the data directory (src/store/retention.ts)
// of old runs, built or old recording sessions, old OCR cache entries, unused engine caches, failure screenshots and
// studio uploads, keeping whatever a stored workflow references. The default limit is config.json's
// "retention": {"older_than": "30d"}, else 30 days.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { Command } from "commander";
import { formatBytes } from "../../core/bounded-read.js";
import type { Store } from "../../core/providers/store.js";
import { WorkflowSchema, type Workflow } from "../../core/schemas/workflow.js";
import { collectGarbage, parseDuration } from "../../store/retention.js";
import { recordedTargetShot } from "../../studio/workflow-view.js";
import { resolveDataDir, type GlobalOptions } from "../config.js";
import { readConfigFile } from "../config-file.js";
import type { CliIo } from "./desktop.js";
import { openStore, type StoreChoice } from "./store.js";

export const DEFAULT_RETENTION = "30d";

/** config.json's "retention": {"older_than": "30d"} (validated by src/cli/config-file.ts); the default when absent. */
export function retentionSetting(dataDir: string): string {
  return readConfigFile(dataDir)?.config.retention?.older_than ?? DEFAULT_RETENTION;
}

/** The workflow file's own parts: the file and the icon crops it names (relative to it). */
function workflowFiles(wf: Workflow, file: string): string[] {
  return [file, ...wf.steps.map((s) => s.target?.icon).filter((x): x is string => !!x && !x.split(/[\\/]/).includes("..")).map((rel) => resolve(dirname(file), rel))];
}

/** Paths gc must keep: every workflow file in a session with its icons, and for every stored workflow version its session's log, workflow file, icons and target screenshots. */
export async function referencedPaths(dataDir: string, store: Store): Promise<Set<string>> {
  const keep = new Set<string>();
  const sessions = join(dataDir, "sessions");
  for (const name of existsSync(sessions) ? readdirSync(sessions) : []) {
    const file = join(sessions, name, "workflow.json");
    if (!existsSync(file)) continue;
    keep.add(file);
    try {
      const wf = WorkflowSchema.parse(JSON.parse(readFileSync(file, "utf8")));
      for (const p of workflowFiles(wf, file)) keep.add(p);
    } catch {
      // an unreadable workflow file is kept, its icons folder too
      keep.add(join(sessions, name, "icons"));
    }
  }
  for (const w of await store.listWorkflows()) {
    for (let v = 1; v <= w.latestVersion; v++) {
      const parsed = WorkflowSchema.safeParse((await store.getWorkflow(w.workflowId, v))?.document);
      if (!parsed.success) continue;
      const wf = parsed.data;
      if (!wf.source_session) continue;
      const dir = resolve(wf.source_session);
      keep.add(join(dir, "session.jsonl"));
      for (const p of workflowFiles(wf, join(dir, "workflow.json"))) keep.add(p);
      for (const s of wf.steps) {
        const shot = recordedTargetShot(wf, s.step_id);
        if (shot) keep.add(resolve(shot.dir, shot.rel));
      }
    }
  }
  return keep;
}

export function registerGcCommand(program: Command, io: CliIo): void {
  program
    .command("gc")
    .description("free the data directory: old runs (traces, screenshots, reports), built or old recording sessions, old OCR cache entries, engine caches (folded word lists, optimised graphs) no run has read since, failure screenshots and studio uploads; keeps what stored workflows reference")
    .option("--older-than <age>", 'age limit, e.g. 30d, 12h, 2w (default: config.json "retention": {"older_than"}, else 30d)')
    .option("--dry-run", "say what would be removed and how much it would free; remove nothing")
    .option("--json", "print the result as JSON")
    .action(async (o: { olderThan?: string; dryRun?: boolean; json?: boolean }) => {
      const globals = program.opts<GlobalOptions & StoreChoice>();
      const dataDir = resolveDataDir(globals, io.env);
      const age = o.olderThan ?? retentionSetting(dataDir);
      const olderThanMs = parseDuration(age);
      const store = await openStore(globals, io.env);
      let keep: Set<string>;
      try {
        keep = await referencedPaths(dataDir, store);
      } finally {
        await store.close();
      }
      const r = collectGarbage({ dataDir, olderThanMs, keep, ...(o.dryRun ? { dryRun: true } : {}) });
      if (o.json) {
        io.out(`${JSON.stringify({ ...r, older_than: age, data_dir: dataDir }, null, 2)}\n`);
        return;
      }
      for (const c of r.categories) io.out(`${c.name.padEnd(10)} ${String(c.files).padStart(6)} files ${formatBytes(c.bytes).padStart(10)}${c.kept_referenced ? `  (${c.kept_referenced} kept: referenced by a stored workflow)` : ""}\n`);
      io.out(`${r.dry_run ? "would free" : "freed"} ${formatBytes(r.bytes)} (${r.bytes} bytes) in ${r.files} files older than ${age}${r.dry_run ? " (dry run: nothing removed)" : ""}\n`);
    });
}
