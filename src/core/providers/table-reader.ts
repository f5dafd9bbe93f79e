/** A list or table as read on screen (perception only, never the toolkit's accessibility tree). */
export interface ScreenTable {
  /** The window it was read in. */
  window: { id: string; title: string; appName: string };
  /** Column names: the header row's texts when one was found, else column_1, column_2… */
  columns: string[];
  /** Whether the first row read was taken as the header (and why, in `notes`). */
  header: boolean;
  /** The data rows, one text per column ("" for an empty cell), top to bottom. */
  rows: string[][];
  /** How the table was found (rows left out, the header rule…), for the plan's preview. */
  notes: string[];
}

/** Reads the rows of the list or table shown in a window named by a title pattern. */
export interface ScreenTableReader {
  readonly name: string;
  read(titlePattern: string, signal?: AbortSignal): Promise<ScreenTable>;
}
