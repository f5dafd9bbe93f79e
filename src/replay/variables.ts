// Binding a workflow's variables before a replay: from `--var name=value`, from the rows of a CSV
// file (one run per row), or from the recorded examples when asked. Every missing variable is
// reported at once, before any action.
import { InvalidInputError } from "../core/errors.js";
import type { Workflow } from "../core/schemas/workflow.js";

export type Bindings = Readonly<Record<string, string>>;

/** `name=value` pairs (the value may hold "="). */
export function parseVarArgs(args: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const a of args) {
    const i = a.indexOf("=");
    if (i <= 0) throw new InvalidInputError(`--var "${a}": expected name=value (for example --var nom=Durand).`, { details: { arg: a } });
    out[a.slice(0, i).trim()] = a.slice(i + 1);
  }
  return out;
}

/**
 * CSV text → rows keyed by the header. Separator "," or ";" (whichever the header uses more),
 * double quotes with "" escapes, CRLF, a UTF-8 BOM; blank lines are skipped. A row with a
 * different number of cells is an error naming its line.
 */
export function parseCsv(text: string, source = "<csv>"): Record<string, string>[] {
  const body = text.replace(/^\uFEFF/, "");
  const firstLine = body.split(/\r?\n/, 1)[0] ?? "";
  const sep = (firstLine.match(/;/g)?.length ?? 0) > (firstLine.match(/,/g)?.length ?? 0) ? ";" : ",";
  const records: { cells: string[]; line: number }[] = [];
  let cells: string[] = [];
  let cell = "";
  let quoted = false;
  let line = 1;
  let startLine = 1;
  let touched = false;
  const endRecord = () => {
    cells.push(cell);
    if (touched || cells.length > 1 || cell !== "") records.push({ cells, line: startLine });
    cells = [];
    cell = "";
    touched = false;
  };
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (quoted) {
      if (c === '"' && body[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else {
        if (c === "\n") line++;
        cell += c;
      }
      continue;
    }
    if (c === '"') {
      quoted = true;
      touched = true;
    } else if (c === sep) {
      cells.push(cell);
      cell = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && body[i + 1] === "\n") i++;
      endRecord();
      line++;
      startLine = line;
    } else cell += c;
  }
  if (quoted) throw new InvalidInputError(`${source}: a quoted cell opened on line ${startLine} is never closed.`, { details: { source, line: startLine } });
  if (cell !== "" || cells.length > 0 || touched) endRecord();
  const [header, ...rows] = records;
  if (!header) throw new InvalidInputError(`${source}: the file is empty; expected a header line with variable names, then one line per run.`, { details: { source } });
  const names = header.cells.map((h) => h.trim());
  if (names.some((n) => !n)) throw new InvalidInputError(`${source}: the header line has an empty column name.`, { details: { source } });
  return rows.map((r) => {
    if (r.cells.length !== names.length)
      throw new InvalidInputError(`${source}: line ${r.line} has ${r.cells.length} cells, the header has ${names.length} (${names.join(", ")}).`, { details: { source, line: r.line } });
    return Object.fromEntries(names.map((n, i) => [n, r.cells[i]!]));
  });
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
    const b: Record<string, string> = {};
    for (const v of workflow.variables) {
      const value = opts.vars?.[v.name] ?? row[v.name] ?? (opts.useExamples && !v.secret && v.example !== null ? v.example : undefined);
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
  return text.replace(/\{\{\s*([a-z][a-z0-9_]*)\s*\}\}/g, (_, n: string) => b[n] ?? "");
}

/**
 * A recorded window title with this run's data: "janvier.txt - Mousepad" recorded with
 * chemin=/tmp/janvier.txt becomes "fevrier.txt - Mousepad" when chemin=/tmp/fevrier.txt. Each
 * example (and its file name, and that without extension) found in the title is replaced.
 */
export function titleWithData(title: string, workflow: Workflow, b: Bindings): string {
  let out = title;
  for (const v of workflow.variables) {
    const value = b[v.name];
    if (v.secret || v.example === null || value === undefined || v.example.length < 3) continue;
    const forms = (s: string) => {
      const base = s.split(/[\\/]/).pop() ?? s;
      return [s, base, base.replace(/\.[^.]+$/, "")];
    };
    const [e0, e1, e2] = forms(v.example);
    const [n0, n1, n2] = forms(value);
    for (const [from, to] of [[e0, n0], [e1, n1], [e2, n2]] as const) if (from && from.length >= 3 && out.includes(from)) out = out.split(from).join(to);
  }
  return out;
}
