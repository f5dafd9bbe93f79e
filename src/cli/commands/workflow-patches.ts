// `rpav workflow patches`: the changes proposed from a person's answers (mode assisté), applied
// to the workflow — as a new version, in its file and in the store — only when accepted.
import type { Command } from "commander";
import { InvalidInputError } from "../../core/errors.js";
import { decidePatch } from "../../actor/patches.js";
import { PatchFiles } from "../../store/patch-files.js";
import { resolveDataDir, type GlobalOptions } from "../config.js";
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
        // Opened only to accept: a rejection touches the patch file alone.
        const store = o.accept ? await openStore(globals(), io.env) : undefined;
        try {
          const r = await decidePatch({ patches, ...(store ? { store } : {}) }, id, o.accept ? "accept" : "reject");
          io.out(r.decision === "rejected" ? `${id} rejected\n` : `${id} accepted: ${r.workflowPath} is ${r.patch.workflow_id} version ${r.version}\n`);
        } finally {
          await store?.close();
        }
        return;
      }
      const list = (await patches.list()).filter((p) => o.all || p.status === "proposed");
      if (o.json) io.out(`${JSON.stringify(list, null, 2)}\n`);
      else if (!list.length) io.out("no proposed patch\n");
      else for (const p of list) io.out(`${p.patch_id}\t${p.status}\t${p.workflow_id} ${p.step_id}\t${p.op.op}\t${p.reason}\n`);
    });
}
