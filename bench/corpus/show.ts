// Draws a corpus item's ground truth on its screenshot: `npx tsx bench/corpus/show.ts <id> [out.png]`.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { CORPUS_DIR, type CorpusItem } from "./build.js";

const COLORS: Record<string, string> = { button: "#e6194b", text_input: "#3cb44b", dropdown: "#4363d8", tab: "#f58231", checkbox: "#911eb4", radio_button: "#42d4f4", link: "#f032e6", generic_interactive: "#808000" };
const id = process.argv[2];
if (!id) throw new Error("usage: show.ts <corpus id> [out.png]");
const item = JSON.parse(readFileSync(join(CORPUS_DIR, `${id}.json`), "utf8")) as CorpusItem;
const esc = (s: string) => s.replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`);
const rects = item.elements
  .map((e) => `<rect x="${e.bbox[0]}" y="${e.bbox[1]}" width="${e.bbox[2] - e.bbox[0]}" height="${e.bbox[3] - e.bbox[1]}" fill="none" stroke="${COLORS[e.type]}" stroke-width="2"/><text x="${e.bbox[0]}" y="${e.bbox[1] - 2}" font-size="11" fill="${COLORS[e.type]}">${esc(`${e.type}: ${e.label}`.slice(0, 40))}</text>`)
  .join("");
const words = item.words.map((w) => `<rect x="${w.bbox[0]}" y="${w.bbox[1]}" width="${w.bbox[2] - w.bbox[0]}" height="${w.bbox[3] - w.bbox[1]}" fill="none" stroke="#999" stroke-width="1" stroke-dasharray="2,2"/>`).join("");
const meta = await sharp(join(CORPUS_DIR, item.image)).metadata();
const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${meta.width}" height="${meta.height}">${words}${rects}</svg>`;
const out = process.argv[3] ?? `/tmp/${id}-gt.png`;
writeFileSync(out, await sharp(join(CORPUS_DIR, item.image)).composite([{ input: Buffer.from(svg) }]).png().toBuffer());
console.log(out);
