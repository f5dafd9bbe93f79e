// `rpav validate`, `rpav doctor` and `rpav start`: the commands `npm start` and a first check use.
import { Option, type Command } from "commander";
import { DEFAULT_MAX_DOCUMENT_BYTES } from "../../core/schemas/documents.js";
import { resolveDataDir, type GlobalOptions } from "../config.js";
import { parseSize } from "../io.js";
import { secretsCheck } from "../secrets.js";
import type { CliIo } from "./desktop.js";
import { formatChecks, runDoctor } from "./doctor.js";
import { vlmChecks } from "./doctor-vlm.js";
import { studioUrl } from "./serve.js";
import { runStartJob } from "./start.js";
import { formatValidateResult, validateFile } from "./validate.js";

export function registerBasicCommands(program: Command, io: CliIo, setExit: (code: number) => void): void {
  const globals = (): GlobalOptions => program.opts<GlobalOptions>();

  program
    .command("validate")
    .description("validate JSON documents (kind detected by schema_version), .npy vector files, session folders and run folders")
    .argument("<files...>", "files to check")
    .option("--json", "print results as JSON")
    .addOption(new Option("--max-size <size>", "largest document accepted, e.g. 16M").default(String(DEFAULT_MAX_DOCUMENT_BYTES)))
    .action(async (files: string[], opts: { json?: boolean; maxSize: string }) => {
      const maxBytes = parseSize(opts.maxSize);
      const results = [];
      for (const f of files) results.push(await validateFile(f, maxBytes));
      if (opts.json) io.out(`${JSON.stringify(results, null, 2)}\n`);
      else for (const r of results) io.out(`${formatValidateResult(r)}\n`);
      if (results.some((r) => !r.ok)) setExit(1);
    });

  program
    .command("doctor")
    .description("show which components are available on this machine")
    .option("--json", "print checks as JSON")
    .option("--strict", "exit 1 when something is missing")
    .action(async (opts: { json?: boolean; strict?: boolean }) => {
      const checks = await runDoctor({ dataDir: resolveDataDir(globals(), io.env), env: io.env });
      checks.push(...(await vlmChecks(resolveDataDir(globals(), io.env), io.env)));
      checks.push(await secretsCheck(resolveDataDir(globals(), io.env), io.env));
      io.out(opts.json ? `${JSON.stringify(checks, null, 2)}\n` : `${formatChecks(checks)}\n`);
      if (opts.strict && checks.some((c) => c.status === "missing")) setExit(1);
    });

  program
    .command("start")
    .description("the `npm start` job: health check, sample documents, then capture → embed → store → search on a real app")
    .option("--no-desktop", "only the health check and the sample documents")
    .action(async (o: { desktop: boolean }) => {
      const checks = await runDoctor({ dataDir: resolveDataDir(globals(), io.env), env: io.env });
      io.out(`${formatChecks(checks)}\n\nBundled sample documents:\n`);
      const samples = ["uielement-example.json", "screenstate-complete-example.json"].map((f) => new URL(`../../../examples/design/${f}`, import.meta.url).pathname);
      for (const f of samples) {
        const r = await validateFile(f, DEFAULT_MAX_DOCUMENT_BYTES);
        io.out(`${formatValidateResult(r)}\n`);
        if (!r.ok) setExit(1);
      }
      if (o.desktop) {
        io.out("\nMain job:\n");
        const dataDir = resolveDataDir(globals(), io.env);
        const job = await runStartJob(io, dataDir);
        if (job.failures.length) setExit(1);
        io.out(`\nTo review this run, its workflow and its trace in the studio: rpav serve, then open\n  ${studioUrl(dataDir)}\n`);
      }
    });
}
