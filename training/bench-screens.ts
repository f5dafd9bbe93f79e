// `npm run train -- bench-screens`: makes the generated screens the benches and the gate's fit read — detect-families'
// sample of each family, detect-speed's full-HD screens, the locate-handwritten screens, the calibration split the
// gate is fitted on, and detect-families' pages of large toggles (fold-split.ts BENCH_TOGGLE_PAGES) — each with its
// generator's own seed (training/data.py --only), a few hundred screens in minutes where the whole data engine makes thousands in hours. Which screens: the committed model's data manifest and fold.
// The dev corpus's screens (real apps and pages, family dev/<source>) are not generated: `npm run corpus` builds them in
// bench/corpus/out, and this command imports them (data.py --dev-corpus) when they are there.
// Environment: RPAV_BENCH_PER_FAMILY and RPAV_BENCH_SCREENS as the benches read them.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultDetectorModelDir } from "../src/perception/learned-detector.js";
import { BENCH_TOGGLE_PAGES, FAMILY_SAMPLE, familySample, fullHdScreens, pageIndices, SPEED_SCREENS, splitter, type ManifestScreen } from "./fold-split.js";
import { htmlPageId } from "./gen/gen-html.js";

const ROOT = join(import.meta.dirname, "..");
const DATA = join(ROOT, "training", "data");
const modelDir = defaultDetectorModelDir();
const meta = JSON.parse(readFileSync(join(modelDir, "ui-detector.json"), "utf8")) as { figures: { held_families: string[] } };
type Screen = ManifestScreen & { width: number; height: number; scale: number | null };
const files = (JSON.parse(readFileSync(join(modelDir, "data-manifest.json"), "utf8")) as { files: Screen[] }).files;
const corpus = join(ROOT, "bench", "corpus", "out");
const splitOf = splitter(meta.figures.held_families);
const perFamily = Number(process.env.RPAV_BENCH_PER_FAMILY ?? FAMILY_SAMPLE);
const speed = Number(process.env.RPAV_BENCH_SCREENS ?? SPEED_SCREENS);
const locate = ["instructions.json", "tune.json"].flatMap((f) => (JSON.parse(readFileSync(join(ROOT, "bench", "locate-handwritten", f), "utf8")) as { screens: Array<{ id: string }> }).screens.map((s) => s.id));
const sets: Record<string, string[]> = {
  "detect-families": familySample(files, splitOf, perFamily).flatMap((g) => g.files.map((f) => f.id)),
  "detect-speed": fullHdScreens(files).slice(0, speed + 1).map((f) => f.id),
  "locate-handwritten": locate,
  "gate (calibration split)": files.filter((f) => splitOf(f) === "calib").map((f) => f.id),
  "detect-families (large toggles)": pageIndices(BENCH_TOGGLE_PAGES).map(htmlPageId),
};
const onDisk = (id: string) => existsSync(join(DATA, id.split("-")[0]!, `${id}.json`));
const wanted = [...new Set(Object.values(sets).flat())];
const missing = wanted.filter((id) => !onDisk(id));
for (const [name, ids] of Object.entries(sets)) console.log(`${name}: ${ids.length} screens, ${ids.filter((id) => !onDisk(id)).length} to make`);
const devMissing = missing.filter((id) => id.startsWith("dev-"));
const importDev = devMissing.length > 0 && existsSync(join(corpus, "index.json"));
if (devMissing.length && !importDev) console.log(`${devMissing.length} of them are the dev corpus's (real apps and pages): build it with npm run corpus, then run this again; the benches leave them out meanwhile`);
const toMake = missing.filter((id) => !id.startsWith("dev-"));
if (toMake.length === 0 && !importDev) {
  console.log(devMissing.length ? "every generated screen is on disk" : "every screen is on disk");
  process.exit(0);
}
const list = join(mkdtempSync(join(tmpdir(), "rpav-bench-screens-")), "ids.txt");
writeFileSync(list, toMake.join("\n") + "\n");
const r = spawnSync("/usr/bin/python3", [join(ROOT, "training", "data.py"), "--only", list, ...(importDev ? ["--dev-corpus", corpus] : [])], { stdio: "inherit", cwd: ROOT });
const still = missing.filter((id) => !onDisk(id) && (importDev || !id.startsWith("dev-")));
if (still.length) console.error(`${still.length} screens were not made (see training/data/logs): ${still.slice(0, 10).join(", ")}${still.length > 10 ? "…" : ""}`);
process.exit(r.status === 0 && still.length === 0 ? 0 : 1);
