// Diagnostic (not a bench): how often downArrowAtRight (src/perception/learned-fusion.ts) says « a drop-down's arrow »
// on the true boxes of the drop-downs and fields of the train families' sample (held families left out), per family.
// Run: npx tsx bench/detect-families/arrows.ts   (N=<screens per family>, V=1 lists the boxes it gets wrong)
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { readImageFile } from "../../src/capture/png.js";
import { toGrey, toRgb } from "../../src/perception/raster.js";
import { downArrowAtRight } from "../../src/perception/learned-fusion.js";
import { defaultDetectorModelDir } from "../../src/perception/learned-detector.js";
import { familySample, splitter } from "../../training/fold-split.js";
const DATA = join(import.meta.dirname, "..", "..", "training", "data");
const modelDir = defaultDetectorModelDir();
const meta = JSON.parse(readFileSync(join(modelDir, "ui-detector.json"), "utf8"));
const manifest = JSON.parse(readFileSync(join(modelDir, "data-manifest.json"), "utf8"));
const t: Record<string, [number, number]> = {};
for (const { split, family, files } of familySample(manifest.files, splitter(meta.figures.held_families), Number(process.env.N ?? 8))) {
  if (split === "held") continue;
  for (const f of files) {
    const p = join(DATA, f.family, `${f.id}.json`);
    if (!existsSync(p)) continue;
    const m = JSON.parse(readFileSync(p, "utf8"));
    const frame = await readImageFile(join(DATA, f.family, m.image), { scaleFactor: m.variant.scale ?? 1 });
    const grey = { data: toGrey(toRgb(frame)), width: frame.width };
    for (const e of m.elements) {
      if (e.type !== "dropdown" && e.type !== "text_input") continue;
      const yes = downArrowAtRight(grey, e.bbox, m.variant.scale ?? 1);
      const k = `${family} ${e.type}`;
      (t[k] ??= [0, 0])[yes ? 0 : 1]++;
      if (process.env.V && yes !== (e.type === "dropdown")) console.log(f.id, e.type, JSON.stringify(e.bbox), e.label, yes);
    }
  }
}
for (const [k, [y, n]] of Object.entries(t).sort()) console.log(k.padEnd(30), `arrow ${y} / ${y + n}`);
for (const type of ["dropdown", "text_input"]) {
  const rows = Object.entries(t).filter(([k]) => k.endsWith(` ${type}`));
  console.log(`all ${type}s`.padEnd(30), `arrow ${rows.reduce((a, [, [y]]) => a + y, 0)} / ${rows.reduce((a, [, [y, n]]) => a + y + n, 0)}`);
}
