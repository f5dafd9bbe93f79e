// The rows of a list or table shown in a window, as perception reads them: the window found by
// its title pattern, its client area captured, the product's detector run on it (OCR words and
// element boxes), then `readTableLayout`. Only what the screen shows is read (no accessibility
// tree): the rows visible now, not those scrolled out of view.
import { InvalidInputError, WindowNotFoundError } from "../core/errors.js";
import type { Frame } from "../core/frame.js";
import type { BBox } from "../core/geometry.js";
import type { OcrLine } from "../core/providers/ocr.js";
import type { ScreenSource } from "../core/providers/screen-source.js";
import type { ScreenTable, ScreenTableReader } from "../core/providers/table-reader.js";
import type { WindowDescriptor, WindowInfo } from "../core/providers/window-info.js";
import { foldText } from "../core/text.js";
import { readTableLayout } from "./table-layout.js";

export interface ScreenPerception {
  lines: readonly OcrLine[];
  /** Boxes of the elements detected (buttons, header cells…). */
  controls: readonly BBox[];
}

/** A title pattern: `/regex/flags`, else words found in the title (case and accents ignored). */
export function titleMatcher(pattern: string): (title: string) => boolean {
  const re = /^\/(.+)\/([a-z]*)$/.exec(pattern);
  if (re) {
    let r: RegExp;
    try {
      r = new RegExp(re[1]!, re[2]!.includes("i") ? re[2] : `${re[2]}i`);
    } catch (e) {
      throw new InvalidInputError(`screen:${pattern}: not a valid regular expression (${(e as Error).message}).`, { cause: e });
    }
    return (t) => r.test(t);
  }
  const want = foldText(pattern).trim();
  if (!want) throw new InvalidInputError("screen: needs a window title pattern, e.g. --in \"screen:Dossiers à traiter\" (see `rpav windows`).");
  return (t) => foldText(t).includes(want);
}

export class PerceivedTableReader implements ScreenTableReader {
  readonly name = "perception";
  constructor(
    private readonly windows: WindowInfo,
    private readonly screen: ScreenSource,
    private readonly perceive: (frame: Frame, signal?: AbortSignal) => Promise<ScreenPerception>,
    private readonly opts: { waitMs?: number } = {},
  ) {}

  private async window(pattern: string, signal?: AbortSignal): Promise<WindowDescriptor> {
    const match = titleMatcher(pattern);
    const deadline = Date.now() + (this.opts.waitMs ?? 0);
    for (;;) {
      const all = (await this.windows.list(signal)).filter((w) => w.visible);
      const hits = all.filter((w) => match(w.title));
      const titles = new Set(hits.map((w) => w.title));
      if (titles.size > 1) throw new InvalidInputError(`screen:${pattern} names several windows: ${[...titles].map((t) => `« ${t} »`).join(", ")}; give more of the title, or /regex/.`, { details: { pattern, windows: [...titles] } });
      if (hits.length > 0) return hits.find((w) => w.active) ?? hits.at(-1)!;
      if (Date.now() >= deadline) throw new WindowNotFoundError(`No window's title matches screen:${pattern} (open windows: ${all.map((w) => `« ${w.title} »`).join(", ") || "none"}). Open the list first, or see \`rpav windows\`.`, { details: { pattern } });
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  async read(titlePattern: string, signal?: AbortSignal): Promise<ScreenTable> {
    const w = await this.window(titlePattern, signal);
    const frame = await this.screen.capture({ kind: "window", windowId: w.id }, signal);
    const seen = await this.perceive(frame, signal);
    const t = readTableLayout(seen.lines, seen.controls);
    return { window: { id: w.id, title: w.title, appName: w.appName }, columns: t.columns, header: t.header, rows: t.rows, notes: t.notes };
  }
}
