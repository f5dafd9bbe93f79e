// Read/write speed of the v1 data model: JSON parse + validation, and serialisation.
// Run: npm run bench -- schema     (prints figures, writes bench/results/schema.json)
import { readFileSync } from "node:fs";
import { decodeNpy, encodeNpy } from "../../src/core/npy.js";
import { parseJsonText, readDocument, writeDocument } from "../../src/core/schemas/documents.js";
import type { ScreenState } from "../../src/core/schemas/screenstate.js";
import type { UIElement } from "../../src/core/schemas/uielement.js";
import { round, summarize, timeIt, writeResult } from "../lib.js";

const example = (n: string) => readFileSync(new URL(`../../examples/design/${n}`, import.meta.url), "utf8");
const uiText = example("uielement-example.json");
const element = JSON.parse(uiText) as UIElement;

/** A busy screen: 60 complete elements and 400 OCR words/lines. */
function busyState(): ScreenState {
  const base = JSON.parse(example("screenstate-complete-example.json")) as ScreenState;
  const boxes = Array.from({ length: 400 }, (_, i) => ({ text: `mot${i} Facture`, bbox: [i % 1900, (i * 7) % 1000, (i % 1900) + 60, ((i * 7) % 1000) + 20] as [number, number, number, number], confidence: 0.9, level: (i % 4 === 0 ? "line" : "word") as "line" | "word" }));
  return {
    ...base,
    perception: { detected_text: boxes.filter((b) => b.level === "line").map((b) => b.text), text_boxes: boxes },
    ui_elements: Array.from({ length: 60 }, (_, i) => ({ ...element, element_id: `el_${i}`, bbox: [i * 20, i * 10, i * 20 + 100, i * 10 + 30] as [number, number, number, number] })),
  };
}

const busy = busyState();
const busyText = writeDocument(busy);
const vector = Float32Array.from({ length: 512 }, (_, i) => Math.sin(i));
const npy = encodeNpy(vector);

const cases = {
  uielement_read: summarize(timeIt(() => readDocument(parseJsonText(uiText)), 5000)),
  uielement_write: summarize(timeIt(() => writeDocument(element), 5000)),
  screenstate_example_read: summarize(timeIt(() => readDocument(parseJsonText(example("screenstate-complete-example.json"))), 2000)),
  screenstate_busy_read: summarize(timeIt(() => readDocument(parseJsonText(busyText)), 300)),
  screenstate_busy_write: summarize(timeIt(() => writeDocument(busy), 300)),
  npy_512_encode: summarize(timeIt(() => encodeNpy(vector), 20000)),
  npy_512_decode: summarize(timeIt(() => decodeNpy(npy), 20000)),
};

console.log(`busy screen state: ${busy.ui_elements.length} elements, ${busy.perception.text_boxes?.length} text boxes, ${round(busyText.length / 1024, 1)} KiB`);
console.log("case                          median ms    p95 ms    p99 ms");
for (const [name, s] of Object.entries(cases)) console.log(`${name.padEnd(28)} ${String(s.median_ms).padStart(10)} ${String(s.p95_ms).padStart(9)} ${String(s.p99_ms).padStart(9)}`);
writeResult("schema", { busy_state_kib: round(busyText.length / 1024, 1), cases });
