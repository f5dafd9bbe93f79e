// Listing the items a plan runs on: the files of a folder (each with a date read from its name
// in the usual formats, else its modification time, and the rule that gave it), the rows of a CSV
// (csv-parse) or XLSX sheet (exceljs), or an explicit list. Then the instruction's filters.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, extname, join, resolve } from "node:path";
import { parse as parseCsv } from "csv-parse/sync";
import type ExcelJS from "exceljs";
import { InvalidInputError } from "../core/errors.js";
import type { ScreenTableReader } from "../core/providers/table-reader.js";
import type { Instruction, PlanItem } from "../core/schemas/plan.js";
import { foldText } from "../core/text.js";
import { dayOf, isoDate, MONTH_WORDS, pad2, validDay } from "./dates.js";
import { dateMatches } from "./instruction.js";

export type SourceKind = "folder" | "csv" | "xlsx" | "list" | "screen";

/** `--in screen:<window title pattern>`: the rows of the list or table shown in that window. */
export const SCREEN_SOURCE = "screen:";

export interface ItemList {
  kind: SourceKind;
  location: string;
  items: PlanItem[];
  /** How the items were found (a screen table's header rule, rows left out…). */
  notes?: string[];
}

/** A date read from a name, or null: "2026-01-15", "15-01-2026", "15012026", "20260115", « 15 janvier 2026 », "jan-2026", "2026-01". */
export function dateFromName(name: string): { date: string; rule: string } | null {
  const s = foldText(name);
  const year = (y: string) => Number(y) >= 1900 && Number(y) <= 2999;
  let m = /(?<!\d)((?:19|20)\d\d)[-_. ](\d{1,2})[-_. ](\d{1,2})(?!\d)/.exec(s);
  if (m && validDay(+m[1]!, +m[2]!, +m[3]!)) return { date: isoDate(+m[1]!, +m[2]!, +m[3]!), rule: "name: YYYY-MM-DD" };
  m = /(?<!\d)(\d{1,2})[-_. ](\d{1,2})[-_. ]((?:19|20)\d\d)(?!\d)/.exec(s);
  if (m && validDay(+m[3]!, +m[2]!, +m[1]!)) return { date: isoDate(+m[3]!, +m[2]!, +m[1]!), rule: "name: DD-MM-YYYY" };
  m = /(?<!\d)(\d{8})(?!\d)/.exec(s);
  if (m) {
    const d = m[1]!;
    const [a, b, c] = [d.slice(0, 4), d.slice(4, 6), d.slice(6, 8)];
    if (year(a) && validDay(+a, +b, +c)) return { date: isoDate(+a, +b, +c), rule: "name: YYYYMMDD" };
    const [dd, mm, yy] = [d.slice(0, 2), d.slice(2, 4), d.slice(4, 8)];
    if (year(yy) && validDay(+yy, +mm, +dd)) return { date: isoDate(+yy, +mm, +dd), rule: "name: DDMMYYYY" };
  }
  // Month words, with a day before and a year after when there are.
  const tokens = s.split(/[^a-z0-9]+|(?<=[a-z])(?=\d)|(?<=\d)(?=[a-z])/).filter(Boolean);
  for (let i = 0; i < tokens.length; i++) {
    const month = MONTH_WORDS.get(tokens[i]!);
    if (!month) continue;
    const prev = tokens[i - 1];
    const next = tokens[i + 1];
    const y = next && /^\d{4}$/.test(next) && year(next) ? Number(next) : prev && /^\d{4}$/.test(prev) && year(prev) ? Number(prev) : undefined;
    const d = prev && /^\d{1,2}$/.test(prev) ? Number(prev) : undefined;
    // "mar", "may", "sept", "dec" are words too: only next to a number.
    if (["mar", "may", "sept", "dec"].includes(tokens[i]!) && y === undefined && d === undefined) continue;
    if (d !== undefined && y !== undefined && validDay(y, month, d)) return { date: isoDate(y, month, d), rule: "name: day month-name year" };
    if (y !== undefined) return { date: `${y}-${pad2(month)}`, rule: "name: month-name year" };
    return { date: `--${pad2(month)}`, rule: "name: month-name" };
  }
  m = /(?<!\d)((?:19|20)\d\d)[-_.](\d{2})(?![-_.]?\d)/.exec(s);
  if (m && +m[2]! >= 1 && +m[2]! <= 12) return { date: `${m[1]}-${m[2]}`, rule: "name: YYYY-MM" };
  return null;
}

/** A cell or field read as a date (ISO, DD/MM/YYYY, a month name…), or null. */
export function dateFromValue(v: string): string | null {
  const iso = /^(\d{4})-(\d{2})-(\d{2})(?:[T ].*)?$/.exec(v.trim());
  if (iso && validDay(+iso[1]!, +iso[2]!, +iso[3]!)) return `${iso[1]}-${iso[2]}-${iso[3]}`;
  const fr = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(v.trim());
  if (fr && validDay(+fr[3]!, +fr[2]!, +fr[1]!)) return isoDate(+fr[3]!, +fr[2]!, +fr[1]!);
  return dateFromName(v)?.date ?? null;
}

function fileItem(path: string): PlanItem {
  const st = statSync(path);
  const file = basename(path);
  const fromName = dateFromName(file.replace(/\.[^.]+$/, ""));
  const t = dayOf(st.mtime);
  const date = fromName?.date ?? isoDate(t.y, t.m, t.d);
  return {
    key: path,
    label: file,
    fields: { path, file_name: file, name: file.replace(/\.[^.]+$/, ""), extension: extname(file).replace(/^\./, "").toLowerCase(), folder: resolve(path, ".."), date, size: String(st.size) },
    date,
    date_rule: fromName?.rule ?? "modification time",
  };
}

/** The files of a folder (hidden files and subfolders left out), by name. */
export function listFolder(dir: string): ItemList {
  const abs = resolve(dir);
  let names: string[];
  try {
    names = readdirSync(abs);
  } catch (e) {
    throw new InvalidInputError(`Cannot list the folder ${abs}: ${(e as NodeJS.ErrnoException).code === "ENOENT" ? "it does not exist" : (e as Error).message}. Give an existing folder, CSV or XLSX file with --in.`, { cause: e, details: { source: abs } });
  }
  const items = names
    .filter((n) => !n.startsWith("."))
    .map((n) => join(abs, n))
    .filter((p) => statSync(p).isFile())
    .sort((a, b) => a.localeCompare(b))
    .map(fileItem);
  return { kind: "folder", location: abs, items };
}

const DATE_HEADER = /^(date|jour|day|dated|date_.*|.*_date|date de .*)$/;
const ID_HEADER = /^(id|ref|reference|numero|no|n°|number|code|identifiant|identifier)$/;

function rowItems(rows: Record<string, string>[], location: string, kind: SourceKind, firstLine: number): ItemList {
  const headers = Object.keys(rows[0] ?? {});
  const folded = headers.map((h) => foldText(h).trim());
  const idCol = headers[folded.findIndex((h) => ID_HEADER.test(h))];
  const exactDate = folded.findIndex((h) => /^(date|jour|day)$/.test(h));
  const dateCol = headers[exactDate >= 0 ? exactDate : folded.findIndex((h) => DATE_HEADER.test(h))];
  const items = rows.map((r, i) => {
    const fields = Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v ?? ""]));
    const date = dateCol ? dateFromValue(fields[dateCol] ?? "") : null;
    const id = idCol ? fields[idCol]?.trim() : "";
    const line = firstLine + i;
    const other = Object.entries(fields).find(([k, v]) => k !== idCol && k !== dateCol && v.trim())?.[1].trim();
    const label = [id, other].filter(Boolean).join(" · ") || `row ${line}`;
    return { key: `${location}#${id ? `${idCol}=${id}` : `row${line}`}`, label, fields, date, date_rule: dateCol ? `column « ${dateCol} »` : null };
  });
  return { kind, location, items };
}

/** The rows of a CSV file (header = field names; `;` or `,` as the header uses). */
export function listCsv(file: string): ItemList {
  const abs = resolve(file);
  const text = readFileSync(abs, "utf8").replace(/^\uFEFF/, "");
  const head = text.split(/\r?\n/, 1)[0] ?? "";
  const delimiter = (head.match(/;/g)?.length ?? 0) > (head.match(/,/g)?.length ?? 0) ? ";" : ",";
  let rows: Record<string, string>[];
  try {
    rows = parseCsv(text, { columns: (h: string[]) => h.map((x) => x.trim()), delimiter, skip_empty_lines: true, relax_column_count: false, trim: false }) as Record<string, string>[];
  } catch (e) {
    throw new InvalidInputError(`${abs}: not a readable CSV: ${(e as Error).message}.`, { cause: e, details: { source: abs } });
  }
  return rowItems(rows, abs, "csv", 2);
}

function cellText(v: ExcelJS.CellValue): string {
  if (v === null || v === undefined) return "";
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  if (typeof v === "object") {
    if ("richText" in v) return v.richText.map((t) => t.text).join("");
    if ("result" in v) return cellText(v.result as ExcelJS.CellValue);
    if ("text" in v) return String(v.text);
    if ("error" in v) return String(v.error);
  }
  return String(v);
}

/** The rows of the first sheet of an XLSX workbook (row 1 = field names). */
export async function listXlsx(file: string): Promise<ItemList> {
  const abs = resolve(file);
  // exceljs takes ~0.3 s to load: only when a workbook is read.
  const { default: Excel } = await import("exceljs");
  const wb = new Excel.Workbook();
  try {
    await wb.xlsx.readFile(abs);
  } catch (e) {
    throw new InvalidInputError(`${abs}: not a readable XLSX workbook: ${(e as Error).message}.`, { cause: e, details: { source: abs } });
  }
  const sheet = wb.worksheets[0];
  if (!sheet) throw new InvalidInputError(`${abs}: the workbook has no sheet.`, { details: { source: abs } });
  const header: string[] = [];
  sheet.getRow(1).eachCell({ includeEmpty: true }, (c, col) => (header[col - 1] = cellText(c.value).trim()));
  if (header.length === 0 || header.every((h) => !h)) throw new InvalidInputError(`${abs}: the first row of « ${sheet.name} » is empty; it must name the columns.`, { details: { source: abs } });
  const rows: Record<string, string>[] = [];
  for (let r = 2; r <= sheet.rowCount; r++) {
    const row = sheet.getRow(r);
    const values = header.map((_, i) => cellText(row.getCell(i + 1).value));
    if (values.every((v) => v.trim() === "")) continue;
    rows.push(Object.fromEntries(header.map((h, i) => [h || `column_${i + 1}`, values[i]!])));
  }
  return rowItems(rows, `${abs}`, "xlsx", 2);
}

/** Explicit items (`--item`): a file when it exists, else a value. */
export function listExplicit(values: readonly string[]): ItemList {
  const items = values.map((v, i): PlanItem => {
    try {
      if (statSync(v).isFile()) return fileItem(resolve(v));
    } catch {
      // not a file: a value
    }
    const date = dateFromValue(v);
    return { key: `item:${v}`, label: v, fields: { value: v, name: v, ...(date ? { date } : {}) }, date, date_rule: date ? "value" : null, ...(i < 0 ? {} : {}) };
  });
  return { kind: "list", location: "--item", items };
}

/** The rows of the list or table a window shows, as perception read them (header row = field names, when there is one). */
export async function listScreen(pattern: string, reader: ScreenTableReader, signal?: AbortSignal): Promise<ItemList> {
  const t = await reader.read(pattern, signal);
  const location = `screen « ${t.window.title} »`;
  if (t.rows.length === 0) throw new InvalidInputError(`${location}: no list or table rows were read in the window (${t.notes.join("; ")}). Show the list with its rows visible, or give --in a file.`, { details: { source: location, notes: t.notes } });
  const rows = t.rows.map((r) => Object.fromEntries(t.columns.map((c, j) => [c, r[j] ?? ""])));
  return { ...rowItems(rows, location, "screen", 1), notes: [`read by ${reader.name} in « ${t.window.title} » (${t.window.appName}): ${t.rows.length} row(s), columns ${t.columns.map((c) => `« ${c} »`).join(", ")}`, ...t.notes] };
}

export interface ListOptions {
  /** Reads `screen:` sources; without it they are refused. */
  screen?: ScreenTableReader;
  signal?: AbortSignal;
}

/** Lists the items of `--in` (a folder, .csv, .xlsx, or screen:<window title pattern>). */
export async function listItems(source: string, opts: ListOptions = {}): Promise<ItemList> {
  if (source.startsWith(SCREEN_SOURCE)) {
    if (!opts.screen) throw new InvalidInputError(`--in ${source}: reading a list on screen needs a desktop (DISPLAY) and the detector; none was given here.`, { details: { source } });
    return listScreen(source.slice(SCREEN_SOURCE.length), opts.screen, opts.signal);
  }
  const abs = resolve(source);
  let st;
  try {
    st = statSync(abs);
  } catch (e) {
    throw new InvalidInputError(`--in ${abs} does not exist: give a folder, a .csv or an .xlsx file.`, { cause: e, details: { source: abs } });
  }
  if (st.isDirectory()) return listFolder(abs);
  const ext = extname(abs).toLowerCase();
  if (ext === ".csv" || ext === ".tsv" || ext === ".txt") return listCsv(abs);
  if (ext === ".xlsx") return listXlsx(abs);
  throw new InvalidInputError(`--in ${abs}: a ${ext || "file without extension"} is not a source this version reads; give a folder, a .csv or an .xlsx file.`, { details: { source: abs } });
}

function globRegex(glob: string): RegExp {
  const body = foldText(glob).replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".");
  return new RegExp(`^${body}$`);
}

export interface FilterOutcome {
  kept: PlanItem[];
  /** Why each item left out was left out. */
  dropped: Array<{ item: PlanItem; why: string }>;
}

/** The instruction's filters (date, name pattern, extension, count) over a list, in this order. */
export function filterItems(items: readonly PlanItem[], ins: Instruction): FilterOutcome {
  const f = ins.filters;
  const dropped: FilterOutcome["dropped"] = [];
  let kept = items.filter((it) => {
    const name = foldText(it.fields.file_name ?? it.label);
    if (f.extension && (it.fields.extension ?? extname(name).slice(1)).toLowerCase() !== f.extension) return dropped.push({ item: it, why: `not .${f.extension}` }), false;
    if (f.name_pattern && !globRegex(f.name_pattern).test(name) && !globRegex(f.name_pattern).test(foldText(it.label))) return dropped.push({ item: it, why: `name does not match ${f.name_pattern}` }), false;
    if (f.date && !dateMatches(f.date, it.date)) return dropped.push({ item: it, why: it.date ? `date ${it.date} (${it.date_rule}) outside the filter` : "no date" }), false;
    return true;
  });
  if (f.count) {
    const ordered = [...kept].sort((a, b) => (a.date ?? "").localeCompare(b.date ?? "") || a.label.localeCompare(b.label));
    const chosen = new Set(f.count.from === "first" ? ordered.slice(0, f.count.n) : ordered.slice(-f.count.n));
    for (const it of kept) if (!chosen.has(it)) dropped.push({ item: it, why: `beyond the ${f.count.from} ${f.count.n}` });
    kept = kept.filter((it) => chosen.has(it));
  }
  return { kept, dropped };
}
