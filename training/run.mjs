#!/usr/bin/env node
// `npm run train -- <what> [args]`: the training commands (never run by CI or npm test).
//   data       generate the training screens and write the data manifest (training/data.py)
//   bench-screens  generate only the screens the benches and the gate's fit read (training/bench-screens.ts → data.py --only)
//   detector   train, calibrate, evaluate and export the UI element detector (training/detector/train.py)
//   ppocr-fold fold PP-OCR's exported graphs once into models/ppocr (training/ocr/fold_ppocr.py, python3-onnx)
//   gate       fit the hybrid detector's gate on the rules' extra elements (training/gate/fit.ts, run by tsx)
//   calibrate  recalibrate the hybrid's final confidences by detection method, after the gate (training/gate/calibrate.ts)
//   icons-data render the icon classifier's training data from npm icon sets and Debian icon themes (training/icons/build.ts)
//   icons      train, evaluate and export the icon classifier (training/icons/train.py); with --extra (after
//              icons-data --extra) the second model, of 36 more figures (icon-extra.onnx)
// The Python ones run with Debian's /usr/bin/python3 (python3-torch, python3-gi, python3-pyqt5, python3-tk); all at nice 19.
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const scripts = { data: join(here, "data.py"), "bench-screens": join(here, "bench-screens.ts"), detector: join(here, "detector", "train.py"), "ppocr-fold": join(here, "ocr", "fold_ppocr.py"), gate: join(here, "gate", "fit.ts"), calibrate: join(here, "gate", "calibrate.ts"), "icons-data": join(here, "icons", "build.ts"), icons: join(here, "icons", "train.py") };
const [what, ...args] = process.argv.slice(2);
if (!what || !(what in scripts)) {
  console.error(`usage: npm run train -- <${Object.keys(scripts).join("|")}> [args]  (add --help after it for its options)`);
  process.exit(2);
}
const t0 = Date.now();
const runner = scripts[what].endsWith(".ts") ? [process.execPath, join(dirname(here), "node_modules", "tsx", "dist", "cli.mjs")] : ["/usr/bin/python3"];
const r = spawnSync("nice", ["-n", "19", ...runner, scripts[what], ...args], { stdio: "inherit", cwd: dirname(here) });
if (r.error) {
  console.error(`cannot run ${runner[0]} (${r.error.message}): ${runner.length > 1 ? "npm run setup" : "apt-get install python3 python3-torch python3-gi"}`);
  process.exit(1);
}
console.log(`${what}: ${((Date.now() - t0) / 3.6e6).toFixed(2)} h of wall time on this machine`);
process.exit(r.status ?? 1);
