import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rpav } from "./support/cli.js";
import { tinyTextModel, tinyVisionModel } from "./support/onnx-writer.js";
import { cosine } from "../src/core/vectors.js";
import { OcrTextEmbedder } from "../src/embedding/ocr-text-embedder.js";

const tmp = mkdtempSync(join(tmpdir(), "rpav-embed-cli-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A rendered form-like screen (SVG rasterised by sharp with the system fonts). */
async function screenPng(name: string, title: string, buttons: string[], dark = false): Promise<string> {
  const bg = dark ? "#222" : "#f4f4f4";
  const fg = dark ? "#eee" : "#111";
  const rows = buttons.map((b, i) => `<rect x="${80 + i * 260}" y="${300 + (i % 2) * 200}" width="220" height="48" rx="6" fill="none" stroke="${fg}" stroke-width="2"/><text x="${100 + i * 260}" y="${332 + (i % 2) * 200}" font-family="DejaVu Sans" font-size="22" fill="${fg}">${b}</text>`).join("");
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="960" height="540"><rect width="960" height="540" fill="${bg}"/><rect x="0" y="0" width="960" height="60" fill="${dark ? "#333" : "#ddd"}"/><text x="20" y="40" font-family="DejaVu Sans" font-size="26" fill="${fg}">${title}</text>${rows}</svg>`;
  const path = join(tmp, `${name}.png`);
  writeFileSync(path, await sharp(Buffer.from(svg)).png().toBuffer());
  return path;
}

let invoices: string;
let patients: string;
let invoicesDark: string;
beforeAll(async () => {
  invoices = await screenPng("invoices", "Factures - Clinique Demo", ["Valider", "Annuler", "Imprimer"]);
  patients = await screenPng("patients", "Patients", ["Nouveau patient", "Rechercher"]);
  invoicesDark = await screenPng("invoices-dark", "Factures - Clinique Demo", ["Valider", "Annuler", "Imprimer"], true);
  writeFileSync(join(tmp, "wf.json"), JSON.stringify({ workflow_id: "wf_demo", steps: [{ step_id: "invoices", expected_state: "invoices.png" }, { step_id: "patients", expected_state: "patients.png" }] }));
  writeFileSync(join(tmp, "wf-elements.json"), JSON.stringify({ workflow_id: "wf_el", steps: [{ step_id: "invoices", expected_state: "invoices.png", required_elements: [{ type: "button", label: "Valider la facture" }] }] }));
});

describe("rpav embed / match", () => {
  it("embed --json prints a unit state embedding with its components", () => {
    const r = rpav(["embed", invoices, "--json", "--dim", "128"]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ provider: "multimodal_fusion_v2", mode: "complete", dimensions: 128 });
    expect(out.vector).toHaveLength(128);
    expect(Math.hypot(...out.vector)).toBeCloseTo(1, 3);
    expect(Object.keys(out.components).sort()).toEqual(["context", "image", "text", "title", "ui"]);
    // A PNG in complete mode is read by perception: its text and elements are in the embedding.
    const warned = out.warnings.map((w: { component: string }) => w.component);
    expect(warned).not.toContain("text");
    expect(warned).not.toContain("ui");
    expect(out.components.text.norm).toBeCloseTo(1, 3);
    expect(out.components.ui.norm).toBeCloseTo(1, 3);
    // --title and --app fill the title and context components; --mode light is the image alone, no OCR.
    const titled = JSON.parse(rpav(["embed", invoices, "--json", "--dim", "128", "--title", "Factures - Clinique Demo", "--app", "clinique"]).stdout);
    expect(titled.warnings).toEqual([]);
    const light = JSON.parse(rpav(["embed", invoices, "--json", "--dim", "128", "--mode", "light"]).stdout);
    expect(Object.keys(light.components)).toEqual(["image"]);
    expect(light.provider).toBe("layout_v2_128");
  });

  it("complete mode embeds the text OCR read on the PNG (light mode does not read it): the same screen in a dark theme stays near, another screen moves away", () => {
    const embed = (png: string, mode = "complete") => JSON.parse(rpav(["embed", png, "--json", "--dim", "128", "--mode", mode, "--title", "Clinique Demo", "--app", "clinique"]).stdout);
    const a = embed(invoices);
    // The text component is the OCR text embedding of what the screen shows.
    const shown = new OcrTextEmbedder(128).embedSync("Factures - Clinique Demo\nValider\nAnnuler\nImprimer");
    expect(a.components.text.provider).toBe("ocr_text_v1_128");
    expect(cosine(Float32Array.from(a.components.text.vector), shown)).toBeGreaterThan(0.8);
    expect(a.components.ui.provider).toBe("ui_layout_v1_128");
    expect(cosine(Float32Array.from(a.vector), Float32Array.from(embed(invoicesDark).vector))).toBeGreaterThanOrEqual(0.85);
    expect(cosine(Float32Array.from(a.vector), Float32Array.from(embed(patients).vector))).toBeLessThanOrEqual(0.7);
  });

  it("match finds the right step of a workflow without element descriptors (legacy matcher), in light mode", () => {
    const r = rpav(["match", invoicesDark, "--workflow", join(tmp, "wf.json"), "--mode", "light", "--json"]);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ method: "legacy", stepId: "invoices", workflowId: "wf_demo" });
    const p = JSON.parse(rpav(["match", patients, "--workflow", join(tmp, "wf.json"), "--mode", "light", "--json"]).stdout);
    expect(p.stepId).toBe("patients");
  });

  it("match with element descriptors and no detected elements fails with the missing element listed (exit 1)", () => {
    const r = rpav(["match", invoices, "--workflow", join(tmp, "wf-elements.json"), "--json"]);
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ ok: false, method: "element_based", requiredMatched: 0, requiredTotal: 1 });
    expect(out.score).toBeLessThan(0.5);
    expect(out.differences[0]).toMatchObject({ kind: "missing_element", descriptor: { label: "Valider la facture" } });
  });

  it("bad input: a broken workflow file and a non-image are typed errors", () => {
    writeFileSync(join(tmp, "bad-wf.json"), JSON.stringify({ workflow_id: "x", steps: [{}] }));
    const r = rpav(["match", invoices, "--workflow", join(tmp, "bad-wf.json")]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/error \[schema_invalid\].*\$\.steps\[0\]\.step_id/);
    writeFileSync(join(tmp, "notimage.png"), "hello");
    const e = rpav(["embed", join(tmp, "notimage.png")]);
    expect(e.code).toBe(1);
    expect(e.stderr).toMatch(/error \[invalid_input\].*notimage\.png: not a readable image/);
  });

  it("--image-provider/--text-provider clip-onnx use a local model folder; unknown names list the known ones", () => {
    const dir = join(tmp, "tiny-clip");
    rmSync(dir, { recursive: true, force: true });
    const D = 4;
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "vision_model.onnx"), tinyVisionModel(16, Float32Array.from({ length: 3 * D }, (_, i) => i - 5), D));
    writeFileSync(join(dir, "preprocessor_config.json"), JSON.stringify({ crop_size: 16 }));
    writeFileSync(join(dir, "text_model.onnx"), tinyTextModel(Float32Array.from({ length: 5 * D }, (_, i) => (i % 3) - 1), 5, D));
    writeFileSync(join(dir, "tokenizer.json"), JSON.stringify({ added_tokens: [{ id: 0, content: "<|startoftext|>" }, { id: 1, content: "<|endoftext|>" }], model: { type: "WordLevel", vocab: { "<unk>": 2, factures: 3, clinique: 4 }, unk_token: "<unk>" } }));
    const r = rpav(["embed", invoices, "--image-provider", "clip-onnx", "--text-provider", "clip-onnx", "--model-dir", dir, "--json"]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.dimensions).toBe(D);
    expect(out.components.image.provider).toBe("clip-onnx:tiny-clip");
    expect(out.components.text.provider).toBe("clip-text-onnx:tiny-clip");
    const bad = rpav(["embed", invoices, "--text-provider", "bert"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/error \[unknown_provider\]: Unknown text provider "bert". Known: ngram, clip-onnx\./);
    const missing = rpav(["embed", invoices, "--image-provider", "clip-onnx", "--text-provider", "clip-onnx", "--model-dir", join(tmp, "no-such-model")]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/error \[provider_unavailable\]: Model folder .*no-such-model does not exist/);
  });
});
