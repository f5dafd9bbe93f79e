// `rpav workflow patches`: the changes proposed from a person's answers (mode assisté), applied
// to the workflow — as a new version, in its file and in the store — only when accepted.
import { writeFileSync } from "node:fs";
import type { Command } from "commander";
import { InvalidInputError } from "../../core/errors.js";
import { readDocumentAs } from "../../core/schemas/documents.js";
import { applyPatch } from "../../actor/patches.js";
import { PatchFiles } from "../../store/patch-files.js";
import { resolveDataDir, type GlobalOptions } from "../config.js";
import { loadWorkflow } from "./replay.js";
import type { CliIo } from "./desktop.js";
import { openStore, type StoreChoice } from "./store.js";
import { join } from "node:path";

export function registerWorkflowPatchCommands(program: Command, io: CliIo): void {
  const globals = () => program.opts<GlobalOptions & StoreChoice>();
  const wf = program.commands.find((c) => c.name() === "workflow") ?? program.command("workflow").description("edit a workflow");
  wf.command("patches")
    .description("list the workflow changes proposed from assist answers; --accept <id> applies one as a new version, --reject <id> drops it")
    .option("--accept <id>", "apply this patch to its workflow (new version in the file and the store)")
    .option("--reject <id>", "drop this patch")
    .option("--all", "list accepted and rejected patches too")
    .option("--json", "print as JSON")
    .action(async (o: { accept?: string; reject?: string; all?: boolean; json?: boolean }) => {
      const patches = new PatchFiles(join(resolveDataDir(globals(), io.env), "patches"));
      if (o.accept && o.reject) throw new InvalidInputError("Give --accept or --reject, not both.");
      const id = o.accept ?? o.reject;
      if (id) {
        const p = await patches.get(id);
        if (p.status !== "proposed") throw new InvalidInputError(`Patch ${id} is already ${p.status}.`);
        if (o.reject) {
          await patches.put({ ...p, status: "rejected", decided_at: new Date().toISOString() });
          io.out(`${id} rejected\n`);
          return;
        }
        const next = applyPatch(await loadWorkflow(p.workflow_path), p);
        readDocumentAs("workflow_v1", JSON.stringify(next), p.workflow_path);
        writeFileSync(p.workflow_path, `${JSON.stringify(next, null, 2)}\n`);
        const store = await openStore(globals(), io.env);
        let version: number;
        try {
          version = await store.putWorkflow(next);
        } finally {
          await store.close();
        }
        await patches.put({ ...p, status: "accepted", decided_at: new Date().toISOString(), version });
        io.out(`${id} accepted: ${p.workflow_path} is ${p.workflow_id} version ${version}\n`);
        return;
      }
      const list = (await patches.list()).filter((p) => o.all || p.status === "proposed");
      if (o.json) io.out(`${JSON.stringify(list, null, 2)}\n`);
      else if (!list.length) io.out("no proposed patch\n");
      else for (const p of list) io.out(`${p.patch_id}\t${p.status}\t${p.workflow_id} ${p.step_id}\t${p.op.op}\t${p.reason}\n`);
    });
}
