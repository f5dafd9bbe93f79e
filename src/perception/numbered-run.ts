// A row of like boxes numbered in order (a pager: « 1 2 3 … 8 »): where OCR read some of the numbers and missed or
// misread others (grey digits on a dark theme, one glyph too small for the text detector), the others follow from
// their place in the row. General geometry: equal boxes, equal steps, one row; no screen's layout is assumed.
import type { BBox } from "../core/geometry.js";

interface Boxed {
  readonly element_id: string;
  readonly bbox: BBox;
  readonly label: string;
}

const NUMBER = /^\d{1,4}$/u;

/**
 * The numbers the unread boxes of numbered rows stand for, by element id. A run is three or more boxes of about one
 * size on one line at even steps; its numbering is the one that at least two of its read numbers agree on (each
 * read number n at index i says the run starts at n − i), or its one read number, 3 or more, where that says it starts at 1.
 * Boxes whose own label is a number keep it.
 */
export function numberedRuns(elements: readonly Boxed[]): Map<string, number> {
  return numberedRows(elements).numbers;
}

/** The boxes of numbered rows whose own label is the number their place gives ("4" between "3" and "5" in a pager): numbers, not icons. */
export function numberedMembers(elements: readonly Boxed[]): Set<string> {
  return numberedRows(elements).members;
}

/**
 * Where pagers are: each numbered row's box, widened by one step on each side (its « ‹ » and « › » boxes, which may
 * not be like the numbers' boxes, and its ends cut by the run's edge).
 */
export function pagerBands(elements: readonly Boxed[]): BBox[] {
  return numberedRows(elements).bands;
}

/** What a screen's numbered rows say, read once: `numberedRuns`, `numberedMembers` and `pagerBands` together. */
export interface NumberedRows {
  readonly numbers: Map<string, number>;
  readonly members: Set<string>;
  readonly bands: BBox[];
}

export function numberedRows(elements: readonly Boxed[]): NumberedRows {
  const numbers = new Map<string, number>();
  const members = new Set<string>();
  const bands: BBox[] = [];
  for (const { run, startAt } of numberings(elements)) {
    run.forEach((e, i) => {
      const label = e.label.trim();
      if (label === String(startAt + i)) members.add(e.element_id);
      else if (!NUMBER.test(label) && startAt + i >= 1) numbers.set(e.element_id, startAt + i);
    });
    const x0 = Math.min(...run.map((e) => e.bbox[0]));
    const x1 = Math.max(...run.map((e) => e.bbox[2]));
    const step = (x1 - x0) / run.length;
    bands.push([x0 - step, Math.min(...run.map((e) => e.bbox[1])), x1 + step, Math.max(...run.map((e) => e.bbox[3]))]);
  }
  return { numbers, members, bands };
}

/** The runs of like boxes at even steps on one line, each with the numbering two or more of its read numbers agree on. */
function numberings(elements: readonly Boxed[]): Array<{ run: readonly Boxed[]; startAt: number }> {
  return evenRuns(elements).flatMap((run) => {
    const startAt = numbering(run);
    return startAt === undefined ? [] : [{ run, startAt }];
  });
}

/** The runs of three or more like boxes (about one size, on one line) at even steps, each step no longer than about two boxes. */
export function evenRuns<B extends Boxed>(elements: readonly B[]): B[][] {
  const found: B[][] = [];
  const h = (e: Boxed) => e.bbox[3] - e.bbox[1];
  const w = (e: Boxed) => e.bbox[2] - e.bbox[0];
  const cy = (e: Boxed) => (e.bbox[1] + e.bbox[3]) / 2;
  const cx = (e: Boxed) => (e.bbox[0] + e.bbox[2]) / 2;
  const alike = (a: Boxed, b: Boxed) => Math.abs(cy(a) - cy(b)) <= 0.3 * Math.min(h(a), h(b)) && Math.abs(h(a) - h(b)) <= 0.5 * Math.max(h(a), h(b)) && Math.abs(w(a) - w(b)) <= 0.5 * Math.max(w(a), w(b));
  const boxes = elements.filter((e) => w(e) > 0 && h(e) > 0 && w(e) <= 4 * h(e));
  const seen = new Set<string>();
  for (const start of boxes) {
    if (seen.has(start.element_id)) continue;
    const row = boxes.filter((e) => alike(start, e)).sort((a, b) => cx(a) - cx(b));
    let run: B[] = [];
    const close = () => {
      if (run.length >= 3) found.push(run);
      run = [];
    };
    for (const e of row) {
      seen.add(e.element_id);
      const prev = run[run.length - 1];
      if (prev && cx(e) - cx(prev) < 0.5 * w(prev)) continue; // the same box twice
      const step = prev ? cx(e) - cx(prev) : 0;
      const first = run.length >= 2 ? cx(run[1]!) - cx(run[0]!) : step;
      if (prev && (step > 2.5 * Math.max(w(prev), w(e)) || Math.abs(step - first) > 0.25 * first)) close();
      run.push(e);
    }
    close();
  }
  return found;
}

/** Where a run's numbering starts, when two or more of its read numbers agree on it. */
function numbering(run: readonly Boxed[]): number | undefined {
  const votes = new Map<number, number>();
  run.forEach((e, i) => {
    const t = e.label.trim();
    if (NUMBER.test(t)) votes.set(Number(t) - i, (votes.get(Number(t) - i) ?? 0) + 1);
  });
  const [startAt, count] = [...votes].sort((a, b) => b[1] - a[1])[0] ?? [0, 0];
  // One number read alone counts where it is 3 or more, in its place counting from 1, the others' labels no number at all
  // (« _ _ 3 »): a pager counts from its first box; where a « ‹ » box stands first, it says 0 and counts for nothing (a
  // « 1 » read first says too little: an icon's stroke reads as one).
  const read = run.findIndex((e) => NUMBER.test(e.label.trim()));
  const alone = count === 1 && votes.size === 1 && startAt === 1 && read >= 2 && run.every((e, i) => i === read || !/\p{N}/u.test(e.label));
  return count >= 2 || alone ? startAt : undefined;
}
