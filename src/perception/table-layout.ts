// A list or table from what perception read on a screen: the OCR words grouped into rows (by
// their vertical centres), the rows into blocks (a steady row pitch; a larger gap ends a block),
// the block with most cells taken as the table, its columns where no word of any row stands (a
// gutter at least half a text height wide), and its first row as the header when it reads as one.
// General geometry only: no rule knows a toolkit, an app or a column's name.
import type { BBox } from "../core/geometry.js";
import { median } from "../core/vectors.js";
import type { OcrLine, OcrWord } from "../core/providers/ocr.js";

export interface TableLayout {
  columns: string[];
  header: boolean;
  rows: string[][];
  /** Where the table stands in the frame. */
  bbox: BBox | null;
  notes: string[];
}

interface Row {
  words: OcrWord[];
  yc: number;
  top: number;
  bottom: number;
}

const yc = (b: BBox) => (b[1] + b[3]) / 2;

/** Words grouped into visual rows, top to bottom; each row's words left to right. */
export function groupRows(words: readonly OcrWord[]): Row[] {
  const h = median(words.map((w) => w.bbox[3] - w.bbox[1])) || 1;
  const rows: Row[] = [];
  for (const w of [...words].sort((a, b) => yc(a.bbox) - yc(b.bbox))) {
    const last = rows.at(-1);
    if (last && Math.abs(yc(w.bbox) - last.yc) <= 0.5 * h) {
      last.words.push(w);
      last.yc = last.words.reduce((s, x) => s + yc(x.bbox), 0) / last.words.length;
      last.top = Math.min(last.top, w.bbox[1]);
      last.bottom = Math.max(last.bottom, w.bbox[3]);
    } else rows.push({ words: [w], yc: yc(w.bbox), top: w.bbox[1], bottom: w.bbox[3] });
  }
  for (const r of rows) r.words.sort((a, b) => a.bbox[0] - b.bbox[0]);
  return rows;
}

/** Runs of rows at a steady pitch: a gap over 1.6 × the usual pitch (or two text heights more) starts a new block. */
function blocks(rows: readonly Row[], h: number): Row[][] {
  if (rows.length === 0) return [];
  const pitches = rows.slice(1).map((r, i) => r.yc - rows[i]!.yc);
  const usual = median(pitches.filter((p) => p <= 4 * h)) || 2 * h;
  const out: Row[][] = [[rows[0]!]];
  for (let i = 1; i < rows.length; i++) {
    if (pitches[i - 1]! > Math.max(1.6 * usual, usual + 2 * h)) out.push([]);
    out.at(-1)!.push(rows[i]!);
  }
  return out;
}

/** Column intervals of a block: x ranges where words stand, split by gutters no word of any row crosses. */
function columnsOf(rows: readonly Row[], h: number): Array<[number, number]> {
  const spans = rows.flatMap((r) => r.words.map((w) => [w.bbox[0], w.bbox[2]] as [number, number])).sort((a, b) => a[0] - b[0]);
  const cols: Array<[number, number]> = [];
  for (const [a, b] of spans) {
    const last = cols.at(-1);
    if (last && a - last[1] < 0.5 * h) last[1] = Math.max(last[1], b);
    else cols.push([a, b]);
  }
  return cols;
}

/** OCR cuts digit runs (« 1 5/01/2026 »): a cell of digits and date marks only is read without its spaces when that makes a date. */
function cellText(words: readonly OcrWord[]): string {
  const text = words.map((w) => w.text).join(" ").trim();
  if (/\s/.test(text) && /^[\d\s/.:-]+$/.test(text)) {
    const compact = text.replace(/\s+/g, "");
    if (/^(\d{1,2}[/.-]\d{1,2}[/.-]\d{4}|\d{4}-\d{1,2}-\d{1,2})$/.test(compact)) return compact;
  }
  return text;
}

const overlaps = (a: BBox, b: BBox) => Math.min(a[2], b[2]) - Math.max(a[0], b[0]) > 0 && Math.min(a[3], b[3]) - Math.max(a[1], b[1]) > 0;

/**
 * The table of a screen from its OCR lines; `controls` are the boxes of detected elements
 * (header cells are usually drawn as buttons): one of the header rule's two signs.
 */
export function readTableLayout(lines: readonly OcrLine[], controls: readonly BBox[] = []): TableLayout {
  const words = lines.flatMap((l) => l.words).filter((w) => w.text.trim() !== "");
  const notes: string[] = [];
  if (words.length === 0) return { columns: [], header: false, rows: [], bbox: null, notes: ["no text was read in the window"] };
  const h = median(words.map((w) => w.bbox[3] - w.bbox[1])) || 1;
  const candidates = blocks(groupRows(words), h).map((b) => {
    const cols = columnsOf(b, h);
    const cells = b.map((r) => cols.map(([a, z]) => r.words.filter((w) => (w.bbox[0] + w.bbox[2]) / 2 >= a && (w.bbox[0] + w.bbox[2]) / 2 <= z)));
    const filled = cells.reduce((s, r) => s + r.filter((c) => c.length > 0).length, 0);
    return { rows: b, cols, cells, filled };
  });
  // A table has two columns and two rows at least; the one with most cells filled wins.
  const tables = candidates.filter((c) => c.cols.length >= 2 && c.rows.length >= 2).sort((a, b) => b.filled - a.filled);
  const best = tables[0];
  if (!best) return { columns: [], header: false, rows: [], bbox: null, notes: [`no block of two rows and two columns among ${candidates.length} block(s) of text`] };
  if (candidates.length > 1) notes.push(`${candidates.length - 1} other block(s) of text left out (${candidates.filter((c) => c !== best).map((c) => `${c.rows.length} row(s) at y ${Math.round(c.rows[0]!.top)}`).join(", ")})`);
  const texts = best.cells.map((r) => r.map(cellText));
  const bbox: BBox = [best.cols[0]![0], best.rows[0]!.top, best.cols.at(-1)![1], best.rows.at(-1)!.bottom];

  // The header: a first row without digits, filled in every column but one at most, and set apart
  // as controls (header buttons) or standing over a column whose every other cell holds a digit.
  const first = texts[0]!;
  const rest = texts.slice(1);
  const noDigit = first.every((t) => !/\d/.test(t));
  const full = first.filter((t) => t !== "").length >= first.length - 1;
  const firstBoxes = best.cells[0]!.filter((c) => c.length > 0).map((c) => c[0]!.bbox);
  const asControls = firstBoxes.length > 0 && firstBoxes.every((b) => controls.some((c) => overlaps(b, c) && c[3] - c[1] < 3 * h));
  const digitColumn = first.some((_, j) => rest.length > 0 && rest.every((r) => /\d/.test(r[j] ?? "")));
  const header = noDigit && full && (asControls || digitColumn) && rest.length > 0;
  notes.push(header ? `first row taken as the header (${asControls ? "drawn as controls" : "no digit over a column of digits"})` : "no header row: columns are named column_1, column_2…");
  const columns: string[] = [];
  for (const [j, t] of (header ? first : first.map(() => "")).entries()) {
    let name = t.trim() || `column_${j + 1}`;
    for (let k = 2; columns.includes(name); k++) name = `${t.trim() || `column_${j + 1}`}_${k}`;
    columns.push(name);
  }
  return { columns, header, rows: (header ? rest : texts).filter((r) => r.some((t) => t !== "")), bbox, notes };
}
