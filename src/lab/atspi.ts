// Ground truth through AT-SPI (lab tool, not a product code path): runs lab/atspi-dump.py with
// Debian's python3 and maps accessible roles to the 8 UIElement types.
import { fileURLToPath } from "node:url";
import { bboxArea, bboxCenter, bboxContains, bboxContainsPoint, type BBox } from "../core/geometry.js";
import { runCommand } from "../core/process.js";
import type { UIElementType } from "../core/schemas/uielement.js";

export const ATSPI_DUMP = fileURLToPath(new URL("../../lab/atspi-dump.py", import.meta.url));
/** Debian's python3: the pyenv python on PATH has no `gi`. */
export const SYSTEM_PYTHON = "/usr/bin/python3";

export interface AtspiNode {
  role: string;
  name: string;
  states: string[];
  bbox: [number, number, number, number];
  pid: number;
  app: string;
  depth: number;
  /** The window (frame, dialog) this node belongs to. */
  toplevel: { role: string; name: string; bbox: [number, number, number, number] } | null;
  words?: Array<{ text: string; bbox: [number, number, number, number] }>;
}

/** One shape for every ground-truth source (AT-SPI, DOM): our type, label, box, and the source's role. */
export interface GroundTruthElement {
  type: UIElementType;
  label: string;
  bbox: [number, number, number, number];
  source_role: string;
  states?: string[];
}

export interface GroundTruthWord {
  text: string;
  bbox: [number, number, number, number];
}

export interface GroundTruth {
  elements: GroundTruthElement[];
  words: GroundTruthWord[];
}

const ROLE_TYPES: Record<string, UIElementType> = {
  "push button": "button",
  "toggle button": "button",
  "check box": "checkbox",
  "check menu item": "checkbox",
  "radio button": "radio_button",
  "radio menu item": "radio_button",
  "page tab": "tab",
  "combo box": "dropdown",
  text: "text_input",
  entry: "text_input",
  "password text": "text_input",
  "spin button": "text_input",
  link: "link",
  menu: "generic_interactive",
  "menu item": "generic_interactive",
  slider: "generic_interactive",
  "list item": "generic_interactive",
};

export function typeOfRole(role: string): UIElementType | undefined {
  return ROLE_TYPES[role];
}

export async function atspiDump(env: NodeJS.ProcessEnv, opts: { pid?: number; scale?: number } = {}): Promise<{ apps: Array<{ name: string; pid: number }>; nodes: AtspiNode[] }> {
  const args = [ATSPI_DUMP];
  if (opts.pid !== undefined) args.push("--pid", String(opts.pid));
  if (opts.scale !== undefined) args.push("--scale", String(opts.scale));
  const r = await runCommand(SYSTEM_PYTHON, args, { env: { ...env, PYTHONWARNINGS: "ignore" }, timeoutMs: 30_000, packageHint: "python3-pyatspi" });
  return JSON.parse(r.stdout) as { apps: Array<{ name: string; pid: number }>; nodes: AtspiNode[] };
}

export async function atspiApps(env: NodeJS.ProcessEnv): Promise<Array<{ name: string; pid: number }>> {
  const r = await runCommand(SYSTEM_PYTHON, [ATSPI_DUMP, "--list-apps"], { env: { ...env, PYTHONWARNINGS: "ignore" }, timeoutMs: 15_000, packageHint: "python3-pyatspi" });
  return (JSON.parse(r.stdout) as { apps: Array<{ name: string; pid: number }> }).apps;
}

/**
 * Interactive, showing elements of an AT-SPI dump, clipped to `within` (the app's window, so
 * occluded parts of other windows do not count). Text fields inside a combo box are folded into
 * the dropdown. Visible words come from every text-bearing node, inside that node's box.
 */
export function groundTruthFromAtspi(nodes: AtspiNode[], within: BBox): GroundTruth {
  const showing = nodes.filter((n) => n.states.includes("showing") && n.states.includes("visible") && bboxArea(n.bbox) > 0 && bboxContains(within, n.bbox));
  const combos = showing.filter((n) => n.role === "combo box").map((n) => n.bbox);
  const elements: GroundTruthElement[] = [];
  for (const n of showing) {
    const type = typeOfRole(n.role);
    if (!type) continue;
    if (type === "text_input" && combos.some((c) => bboxContains(c, n.bbox))) continue;
    const label = n.name || (n.words ?? []).map((w) => w.text).join(" ");
    elements.push({ type, label, bbox: n.bbox, source_role: n.role, states: n.states });
  }
  const words: GroundTruthWord[] = [];
  const seen = new Set<string>();
  for (const n of showing)
    for (const w of n.words ?? []) {
      const key = `${w.text}@${w.bbox.join(",")}`;
      // A scrolled text view reports the extents of its whole text; only words inside the
      // node's own visible box are drawn on screen.
      if (!seen.has(key) && bboxContains(within, w.bbox) && bboxContainsPoint(n.bbox, bboxCenter(w.bbox))) {
        seen.add(key);
        words.push(w);
      }
    }
  return { elements, words };
}
