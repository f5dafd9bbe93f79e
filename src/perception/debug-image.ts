// Draws detected elements (box, type, label) over a screenshot: `rpav detect --debug-image`.
import sharp from "sharp";
import type { Frame } from "../core/frame.js";
import type { BBox } from "../core/geometry.js";
import { escapeHtml as esc } from "../core/html.js";

export const TYPE_COLOURS: Readonly<Record<string, string>> = {
  button: "#e6194b",
  text_input: "#3cb44b",
  dropdown: "#4363d8",
  tab: "#f58231",
  checkbox: "#911eb4",
  radio_button: "#1fa2c4",
  link: "#f032e6",
  generic_interactive: "#808000",
};

export interface DrawnBox {
  readonly bbox: BBox;
  readonly type: string;
  readonly label: string;
  /** Dashed outline (ground truth, candidates). */
  readonly dashed?: boolean;
}

export function boxesSvg(width: number, height: number, boxes: readonly DrawnBox[]): string {
  const parts = boxes.map((b) => {
    const [x1, y1, x2, y2] = b.bbox;
    const colour = TYPE_COLOURS[b.type] ?? "#000";
    const caption = esc(`${b.type}${b.label ? `: ${b.label}` : ""}`.slice(0, 48));
    const ty = y1 > 12 ? y1 - 3 : y2 + 11;
    return `<rect x="${x1}" y="${y1}" width="${x2 - x1}" height="${y2 - y1}" fill="none" stroke="${colour}" stroke-width="2"${b.dashed ? ' stroke-dasharray="4,3"' : ""}/>` +
      (b.dashed ? "" : `<text x="${x1}" y="${ty}" font-family="DejaVu Sans, sans-serif" font-size="11" fill="${colour}" stroke="#fff" stroke-width="3" paint-order="stroke">${caption}</text>`);
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${parts.join("")}</svg>`;
}

/** PNG of `frame` with the boxes drawn on it. */
export async function drawBoxes(frame: Frame, boxes: readonly DrawnBox[]): Promise<Buffer> {
  const base = sharp(frame.data, { raw: { width: frame.width, height: frame.height, channels: frame.channels } });
  return base.composite([{ input: Buffer.from(boxesSvg(frame.width, frame.height, boxes)) }]).png({ compressionLevel: 6 }).toBuffer();
}
