// `rpav doctor`'s model lines: the element detector (model, description, the hybrid's gate) and the icon classifier, read from their folders.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { defaultDetectorModelDir, DETECTOR_META_FILE, DETECTOR_MODEL_FILE } from "../../perception/learned-detector.js";
import { RULES_GATE_FILE } from "../../perception/rules-gate.js";
import { checkDetector, checkIconClassifier } from "./doctor.js";
import { defaultIconModelDir, ICON_META_FILE, ICON_MODEL_FILE } from "../../perception/icon-classifier.js";

const dir = mkdtempSync(join(tmpdir(), "rpav-doctor-det-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
/** A copy of the committed model folder, less `without`. */
const copy = (without?: string) => {
  const d = mkdtempSync(join(dir, "m-"));
  for (const f of [DETECTOR_MODEL_FILE, DETECTOR_META_FILE, RULES_GATE_FILE]) if (f !== without) copyFileSync(join(defaultDetectorModelDir(), f), join(d, f));
  return d;
};

describe("doctor: element detector", () => {
  it("the committed folder is ok: model, description and a gate fitted for that model", () => {
    expect(checkDetector()).toMatchObject({ name: "element detector", status: "ok" });
  });

  it("a missing or altered model, or a missing description, is missing with the restore command; no gate is a note", () => {
    expect(checkDetector(copy(DETECTOR_MODEL_FILE))).toMatchObject({ status: "missing", detail: expect.stringMatching(/ui-detector\.onnx missing.*rules.*git checkout/u) });
    expect(checkDetector(copy(DETECTOR_META_FILE))).toMatchObject({ status: "missing", detail: expect.stringContaining("ui-detector.json missing or not JSON") });
    const altered = copy();
    writeFileSync(join(altered, DETECTOR_MODEL_FILE), Buffer.concat([readFileSync(join(altered, DETECTOR_MODEL_FILE)), Buffer.from([0])]));
    expect(checkDetector(altered)).toMatchObject({ status: "missing", detail: expect.stringContaining("is not the model") });
    expect(checkDetector(copy(RULES_GATE_FILE))).toMatchObject({ status: "warn", detail: expect.stringContaining("npm run train -- gate") });
  });

  it("a gate fitted for another model (the detector retrained since) is missing, saying to refit it", () => {
    const d = copy();
    const gate = JSON.parse(readFileSync(join(d, RULES_GATE_FILE), "utf8")) as { fitted: Record<string, unknown> };
    gate.fitted.model_sha256 = "0".repeat(64);
    writeFileSync(join(d, RULES_GATE_FILE), JSON.stringify(gate));
    expect(checkDetector(d)).toMatchObject({ status: "missing", detail: expect.stringMatching(/another model.*npm run train -- gate/u) });
  });
});

describe("doctor: icon classifier", () => {
  it("the committed folder is ok with its classes; a missing model or a description this version does not read is a note naming the file and the restore command", () => {
    expect(checkIconClassifier()).toMatchObject({ name: "icon classifier", status: "ok", detail: expect.stringMatching(/\d+ classes/u) });
    const d = mkdtempSync(join(dir, "icons-"));
    copyFileSync(join(defaultIconModelDir(), ICON_META_FILE), join(d, ICON_META_FILE));
    expect(checkIconClassifier(d)).toMatchObject({ status: "warn", detail: expect.stringMatching(/icon-classifier\.onnx is missing.*git checkout -- models\/icon-classifier.*drawn shapes/u) });
    copyFileSync(join(defaultIconModelDir(), ICON_MODEL_FILE), join(d, ICON_MODEL_FILE));
    writeFileSync(join(d, ICON_META_FILE), JSON.stringify({ classes: ["a"], side: 32 }));
    expect(checkIconClassifier(d)).toMatchObject({ status: "warn", detail: expect.stringContaining("not one this version reads") });
  });
});
