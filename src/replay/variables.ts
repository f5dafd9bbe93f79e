// Binding a workflow's variables before a replay: from `--var name=value` or a `--vars-file`, from the rows of a CSV
// file (one run per row), or from the recorded examples when asked. Every missing variable is
// reported at once, before any action.
import { parse } from "csv-parse/sync";
import { z } from "zod";
import { InvalidInputError } from "../core/errors.js";
import { formatJsonPath, parseJsonText } from "../core/schemas/documents.js";
import type { Workflow } from "../core/schemas/workflow.js";

export type Bindings = Readonly<Record<string, string>>;

/**
 * A value of the object's own, never one inherited from Object.prototype: a variable, a CSV
 * column or a template may be named `constructor`, `toString` or `__proto__`.
 */
export function ownValue(obj: Readonly<Record<string, string>> | undefined, key: string): string | undefined {
  return obj !== undefined && Object.hasOwn(obj, key) && typeof obj[key] === "string" ? obj[key] : undefined;
}

/** An empty record without a prototype, so that any name is a plain key. */
function record(): Record<string, string> {
  return Object.create(null) as Record<string, string>;
}

/** `name=value` pairs (the value may hold "="). */
export function parseVarArgs(args: readonly string[]): Record<string, string> {
  const out = record();
  for (const a of args) {
    const i = a.indexOf("=");
    if (i <= 0) throw new InvalidInputError(`--var "${a}": expected name=value (for example --var nom=Durand).`, { details: { arg: a } });
    out[a.slice(0, i).trim()] = a.slice(i + 1);
  }
  return out;
}

/** The most a --vars-file may hold. */
export const VARS_FILE_MAX_BYTES = 1024 * 1024;

const VarsFileSchema = z.record(z.string().regex(/^[a-z][a-z0-9_]*$/, "a variable name is lower case letters, digits and _ (starting with a letter)"), z.string());

/** The text of a `--vars-file` ({"nom": "Durand"}): a JSON object of variable name → text value, checked with zod. */
export function parseVarsFile(text: string, path: string): Record<string, string> {
  const r = VarsFileSchema.safeParse(parseJsonText(text, path));
  if (!r.success)
    throw new InvalidInputError(`${path}: not a --vars-file (a JSON object of variable name → text value): ${r.error.issues.slice(0, 5).map((i) => `${formatJsonPath(i.path)} ${i.message}`).join("; ")}.`, { details: { source: path } });
  return r.data;
}

/** --vars-file values and --var values together; a name given by both is an error (which one was meant?). */
export function mergeVars(fromFile: Record<string, string>, fromArgs: Record<string, string>): Record<string, string> {
  const both = Object.keys(fromArgs).filter((k) => Object.hasOwn(fromFile, k));
  if (both.length) throw new InvalidInputError(`${both.map((b) => `"${b}"`).join(", ")} given both by --var and --vars-file: give each variable once.`, { details: { both } });
  return { ...fromFile, ...fromArgs };
}

/**
 * CSV text → rows keyed by the header, through csv-parse. Separator ";", "," or tab (whichever the
 * header line uses most outside quotes; an Excel `sep=;` first line names it), double quotes with
 * "" escapes (line breaks allowed inside), CRLF, a UTF-8 BOM; blank lines are skipped. A row with
 * a different number of cells is an error naming its line.
 */
export function parseCsv(text: string, source = "<csv>"): Record<string, string>[] {
  let body = text.replace(/^\uFEFF/, "");
  let delimiter: string | undefined;
  const hint = /^sep=(.)\r?\n/.exec(body);
  if (hint) {
    delimiter = hint[1]!;
    body = body.slice(hint[0].length);
  }
  delimiter ??= guessDelimiter(body);
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(body, { delimiter, bom: true, skip_empty_lines: true, relax_column_count: true, info: true }) as unknown as { record: string[]; info: { lines: number } }[];
  } catch (e) {
    const err = e as { code?: string; lines?: number; message?: string };
    if (err.code === "CSV_QUOTE_NOT_CLOSED") throw new InvalidInputError(`${source}: a quoted cell is never closed (the file ends inside quotes).`, { cause: e, details: { source } });
    throw new InvalidInputError(`${source}: not a CSV file the replay can read${err.lines ? ` (line ${err.lines})` : ""}: ${err.message ?? String(e)}`, { cause: e, details: { source, line: err.lines } });
  }
  const [header, ...rows] = records;
  if (!header) throw new InvalidInputError(`${source}: the file is empty; expected a header line with variable names, then one line per run.`, { details: { source } });
  const names = header.record.map((h) => h.trim());
  if (names.some((n) => !n)) throw new InvalidInputError(`${source}: the header line has an empty column name.`, { details: { source } });
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup) throw new InvalidInputError(`${source}: the column "${dup}" appears twice in the header.`, { details: { source, column: dup } });
  return rows.map(({ record, info }) => {
    if (record.length !== names.length)
      throw new InvalidInputError(`${source}: line ${info.lines} has ${record.length} cells, the header has ${names.length} (${names.join(", ")}).`, { details: { source, line: info.lines } });
    const row = Object.create(null) as Record<string, string>;
    names.forEach((n, i) => (row[n] = record[i]!));
    return row;
  });
}

/** The separator the first line uses most, counting only outside double quotes. */
function guessDelimiter(body: string): string {
  const counts: Record<string, number> = { ";": 0, ",": 0, "\t": 0 };
  let quoted = false;
  for (const c of body) {
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === "\n" || c === "\r")) break;
    else if (!quoted && c in counts) counts[c]!++;
  }
  const best = Object.entries(counts).sort((x, y) => y[1] - x[1])[0]!;
  return best[1] > 0 ? best[0] : ",";
}

/**
 * The bindings of each run. `rows` (from --data) gives one run per row; `vars` (from --var) apply
 * to every row and win over a row's cell. With `useExamples`, a variable left unbound takes the
 * value seen during the recording (never for secrets). Unknown names and every missing variable
 * throw one InvalidInputError before anything runs.
 */
export function bindVariables(workflow: Workflow, opts: { vars?: Record<string, string>; rows?: Record<string, string>[]; useExamples?: boolean; source?: string }): Bindings[] {
  const declared = new Map(workflow.variables.map((v) => [v.name, v]));
  const rows = opts.rows && opts.rows.length > 0 ? opts.rows : [{}];
  const unknown = new Set<string>();
  for (const k of [...Object.keys(opts.vars ?? {}), ...Object.keys(rows[0] ?? {})]) if (!declared.has(k)) unknown.add(k);
  if (unknown.size > 0)
    throw new InvalidInputError(`${opts.source ?? "variables"}: ${[...unknown].map((u) => `"${u}"`).join(", ")} ${unknown.size === 1 ? "is" : "are"} not a variable of workflow ${workflow.workflow_id} (it has: ${[...declared.keys()].join(", ") || "none"}).`, {
      details: { unknown: [...unknown], declared: [...declared.keys()] },
    });
  const problems: string[] = [];
  const out = rows.map((row, i) => {
    const b = record();
    for (const v of workflow.variables) {
      const value = ownValue(opts.vars, v.name) ?? ownValue(row, v.name) ?? (opts.useExamples && !v.secret && v.example !== null ? v.example : undefined);
      if (value === undefined) problems.push(`${rows.length > 1 ? `row ${i + 1}: ` : ""}${v.name} (${v.type}${v.secret ? ", secret" : ""}${v.example !== null ? `, recorded: "${v.example}"` : ""})`);
      else b[v.name] = value;
    }
    return b;
  });
  if (problems.length > 0)
    throw new InvalidInputError(`Missing variable values, nothing was run: ${problems.join("; ")}. Give them with --var name=value or a --data CSV column${opts.useExamples ? "" : ", or --use-examples for the recorded values"}.`, {
      details: { missing: problems },
    });
  return out;
}

/** "{{name}}" parts replaced by their values. */
export function fillTemplate(text: string, b: Bindings): string {
  return text.replace(/\{\{\s*([a-z][a-z0-9_]*)\s*\}\}/g, (_, n: string) => ownValue(b, n) ?? "");
}

/**
 * A recorded window title with this run's data: "janvier.txt - Mousepad" recorded with
 * chemin=/tmp/janvier.txt becomes "fevrier.txt - Mousepad" when chemin=/tmp/fevrier.txt. Each
 * example (and its file name, and that without extension) found in the title is replaced.
 */
export function titleWithData(title: string, workflow: Workflow, b: Bindings): string {
  let out = title;
  for (const v of workflow.variables) {
    const value = ownValue(b, v.name);
    if (v.secret || v.example === null || value === undefined || v.example.length < 3) continue;
    const forms = (s: string) => {
      const base = s.split(/[\\/]/).pop() ?? s;
      return [s, base, base.replace(/\.[^.]+$/, "")];
    };
    const [e0, e1, e2] = forms(v.example);
    const [n0, n1, n2] = forms(value);
    // The longest recorded form found is replaced, once: a new value may hold a shorter form
    // (« Dossier janvier Martin.txt » holds « janvier »), which must not be replaced again.
    const hit = ([[e0, n0], [e1, n1], [e2, n2]] as const).find(([from]) => from && from.length >= 3 && out.includes(from));
    if (hit?.[0] && hit[1] !== undefined) out = out.split(hit[0]).join(hit[1]);
  }
  return out;
}
