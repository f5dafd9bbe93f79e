// `rpav record`, `rpav build`, `rpav workflow vars`: the demonstration becomes a template.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { Command } from "commander";
import { InvalidInputError } from "../../core/errors.js";
import { timestampedId } from "../../core/ids.js";
import { readDocumentAs } from "../../core/schemas/documents.js";
import type { Workflow } from "../../core/schemas/workflow.js";
import { encodePng, readImageFile } from "../../capture/png.js";
import { X11ScreenSource } from "../../capture/x11-screen-source.js";
import { X11WindowInfo } from "../../capture/x11-window-info.js";
import { Recorder } from "../../record/recorder.js";
import { readSession } from "../../record/session.js";
import { detectorReader, secretFinder } from "../../record/perception-adapters.js";
import { buildWorkflow } from "../../record/template-builder.js";
import { X11RecordSource } from "../../record/x11-record-source.js";
import { resolveDataDir, type GlobalOptions } from "../config.js";
import { desktopEnv } from "../desktop-env.js";
import type { CliIo } from "./desktop.js";
import { createDetector } from "./perception.js";

export function registerRecordCommands(program: Command, io: CliIo): void {
  const globals = () => program.opts<GlobalOptions>();
  program
    .command("record")
    .description("record a demonstration (global mouse and keyboard, screenshots before/after each action) until the stop key or Ctrl+C")
    .requiredOption("--name <workflow>", "name of the task")
    .option("--app <name>", "application the task is about", "")
    .option("--stop-key <keysym>", "X keysym of the key that stops the recording", "Pause")
    .option("--out <dir>", "session folder (default: <data dir>/sessions/<name>-<time>)")
    .action(async (o: { name: string; app: string; stopKey: string; out?: string }) => {
      const env = desktopEnv(io.env);
      const dataDir = resolveDataDir(globals(), io.env);
      const dir = resolve(o.out ?? join(dataDir, "sessions", timestampedId(o.name.replace(/[^\w.-]+/g, "_"))));
      const windows = new X11WindowInfo({ env });
      const screen = new X11ScreenSource({ env, windows });
      const { detector, close } = await createDetector({ ocr: "ppocr" }, join(dataDir, "cache", "ocr"), false);
      const ctl = new AbortController();
      const onSig = () => ctl.abort();
      process.once("SIGINT", onSig);
      process.once("SIGTERM", onSig);
      try {
        const recorder = new Recorder({ events: new X11RecordSource({ env }), screen, windows, encodePng, secretAt: secretFinder(detector) });
        io.err(`recording "${o.name}" into ${dir} — press ${o.stopKey} or Ctrl+C to stop\n`);
        const r = await recorder.record({
          dir,
          name: o.name,
          app: o.app,
          stopKey: o.stopKey,
          signal: ctl.signal,
          onAction: (a) => io.err(`  ${a.seq}. ${a.kind}${a.combo ? ` ${a.combo}` : ""}${a.secret ? " (secret)" : a.text !== undefined ? ` ${JSON.stringify(a.text)}` : ""}${a.x !== undefined ? ` at (${a.x}, ${a.y})` : ""} — ${a.window?.title ?? "?"}\n`),
        });
        io.out(`${r.dir}\n`);
        if (r.actions === 0) io.err("no action was recorded.\n");
      } finally {
        process.off("SIGINT", onSig);
        process.off("SIGTERM", onSig);
        await screen.close();
        await close();
      }
    });

  program
    .command("build <session>")
    .description("turn a recorded session into a workflow_v1 template with variables")
    .option("--out <file.json>", "workflow file (default: <session>/workflow.json)")
    .action(async (sessionDir: string, o: { out?: string }) => {
      const session = readSession(resolve(sessionDir));
      const out = resolve(o.out ?? join(sessionDir, "workflow.json"));
      const dataDir = resolveDataDir(globals(), io.env);
      const { detector, close } = await createDetector({ ocr: "hybrid" }, join(dataDir, "cache", "ocr"), false);
      try {
        const { workflow, warnings } = await buildWorkflow(session, {
          reader: detectorReader(detector),
          loadImage: (p) => readImageFile(p),
          saveIcon: async (name, frame) => {
            const rel = join("icons", name);
            mkdirSync(join(dirname(out), "icons"), { recursive: true });
            writeFileSync(join(dirname(out), rel), await encodePng(frame));
            return rel;
          },
          onProgress: (d, t) => io.err(`\rbuilding: ${d}/${t} actions`),
        });
        io.err("\n");
        mkdirSync(dirname(out), { recursive: true });
        writeFileSync(out, `${JSON.stringify(workflow, null, 2)}\n`);
        for (const w of warnings) io.err(`warning: ${w}\n`);
        io.out(`${out}: ${workflow.steps.length} steps, variables: ${workflow.variables.map((v) => `${v.name} (${v.type}${v.secret ? "" : `, e.g. ${JSON.stringify(v.example)}`})`).join(", ") || "none"}\n`);
        for (const s of workflow.steps) io.out(`  ${s.step_id} ${s.intention}\n`);
      } finally {
        await close();
      }
    });

  program
    .command("workflow")
    .description("edit a workflow")
    .command("vars <workflow.json>")
    .description("list the variables; --set old=new renames one, --demote name turns it back into the recorded literal")
    .option("--set <old=new...>", "rename a variable")
    .option("--demote <name...>", "replace a variable by its recorded value")
    .option("--json", "print the variables as JSON")
    .action(async (file: string, o: { set?: string[]; demote?: string[]; json?: boolean }) => {
      const wf: Workflow = readDocumentAs("workflow_v1", readFileSync(file, "utf8"), file);
      for (const spec of o.set ?? []) {
        const m = /^([a-z][a-z0-9_]*)=([a-z][a-z0-9_]*)$/.exec(spec);
        if (!m) throw new InvalidInputError(`--set ${spec}: write old=new with lower-case names (letters, digits, _).`);
        const [, from, to] = m as unknown as [string, string, string];
        const v = wf.variables.find((x) => x.name === from);
        if (!v) throw new InvalidInputError(`${file}: no variable "${from}"; variables: ${wf.variables.map((x) => x.name).join(", ")}.`);
        if (wf.variables.some((x) => x.name === to)) throw new InvalidInputError(`${file}: a variable "${to}" already exists.`);
        v.name = to;
        for (const s of wf.steps) {
          if (s.text) s.text = s.text.replaceAll(`{{${from}}}`, `{{${to}}}`);
          s.intention = s.intention.replaceAll(`{{${from}}}`, `{{${to}}}`);
          if (from in s.variables) {
            s.variables[to] = s.variables[from]!;
            delete s.variables[from];
          }
        }
      }
      for (const name of o.demote ?? []) {
        const v = wf.variables.find((x) => x.name === name);
        if (!v) throw new InvalidInputError(`${file}: no variable "${name}".`);
        if (v.secret) throw new InvalidInputError(`${file}: "${name}" is a secret; its value was never recorded, it stays a variable.`);
        wf.variables = wf.variables.filter((x) => x !== v);
        for (const s of wf.steps) {
          if (s.text) s.text = s.text.replaceAll(`{{${name}}}`, v.example ?? "");
          s.intention = s.intention.replaceAll(`{{${name}}}`, `« ${v.example ?? ""} »`);
          delete s.variables[name];
        }
      }
      if (o.set?.length || o.demote?.length) {
        readDocumentAs("workflow_v1", JSON.stringify(wf), file);
        writeFileSync(file, `${JSON.stringify(wf, null, 2)}\n`);
      }
      if (o.json) io.out(`${JSON.stringify(wf.variables, null, 2)}\n`);
      else for (const v of wf.variables) io.out(`${v.name}\t${v.type}\t${v.secret ? "(secret)" : JSON.stringify(v.example)}\t${v.steps.join(",")}\n`);
    });
}
