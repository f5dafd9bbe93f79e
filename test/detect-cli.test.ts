// `rpav detect` tells the truth about what it wrote: the screen vector's provider is the
// embedder's own name, its vector_id names a file that exists, element crops are named only
// when written (--out).
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { isAbsolute, join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeNpy } from "../src/core/npy.js";
import { rpav } from "./support/cli.js";

const tmp = mkdtempSync(join(tmpdir(), "rpav-detect-cli-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const png = join(tmp, "form.png");
const env = { RPAV_HOME: join(tmp, "home") };

beforeAll(async () => {
  const buttons = ["Valider", "Annuler", "Imprimer"].map((b, i) => `<rect x="${80 + i * 260}" y="300" width="220" height="48" rx="6" fill="#fff" stroke="#111" stroke-width="2"/><text x="${110 + i * 260}" y="332" font-family="DejaVu Sans" font-size="22" fill="#111">${b}</text>`).join("");
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="960" height="540"><rect width="960" height="540" fill="#f4f4f4"/><text x="80" y="200" font-family="DejaVu Sans" font-size="22" fill="#111">Nom du patient</text><rect x="300" y="176" width="300" height="36" fill="#fff" stroke="#888"/>${buttons}</svg>`;
  writeFileSync(png, await sharp(Buffer.from(svg)).png().toBuffer());
});

describe("rpav detect: names and files", () => {
  it("without --out: provider layout_v2_512, the vector file exists, no crop is named", () => {
    const r = rpav(["detect", png, "--json", "--ocr", "ppocr"], env, undefined, 120_000);
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.state_embedding.provider).toBe("layout_v2_512");
    expect(isAbsolute(doc.state_embedding.vector_id)).toBe(true);
    expect(doc.state_embedding.vector_id.startsWith(join(tmp, "home"))).toBe(true);
    expect(decodeNpy(readFileSync(doc.state_embedding.vector_id)).shape).toEqual([512]);
    expect(doc.ui_elements.length).toBeGreaterThan(0);
    for (const e of doc.ui_elements) expect(e.visual.screenshot_path).toBe("");
  });

  it("with --out: every crop and vector named in screen_state.json exists under --out", () => {
    const out = join(tmp, "out");
    const r = rpav(["detect", png, "--ocr", "ppocr", "--out", out], env, undefined, 120_000);
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(readFileSync(join(out, "screen_state.json"), "utf8"));
    expect(doc.state_embedding.provider).toBe("layout_v2_512");
    expect(existsSync(join(out, doc.state_embedding.vector_id))).toBe(true);
    for (const e of doc.ui_elements) {
      expect(e.visual.screenshot_path).not.toBe("");
      expect(existsSync(join(out, e.visual.screenshot_path)), e.visual.screenshot_path).toBe(true);
      for (const ref of [e.visual.embedding, e.text.embedding].filter(Boolean)) {
        expect(existsSync(join(out, ref.vector_id)), ref.vector_id).toBe(true);
        expect(ref.provider).toMatch(/^(layout_v2|ngram_hash_v1)_256$/);
      }
    }
  });
});

describe("rpav locate: icons described, named by the icon classifier", () => {
  it("finds the icon-only button whose icon shows what the instruction describes (no drawn-shape rule for a trash can or a house)", async () => {
    const icon = (d: string, x: number) => `<rect x="${x}" y="20" width="40" height="40" rx="4" fill="#fff" stroke="#bbb"/><g transform="translate(${x + 8} 28)" fill="none" stroke="#222" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">${d}</g>`;
    const trash = `<path d="M4 7h16M9 7V4h6v3M6 7l1 13h10l1-13"/><path d="M10 11v6M14 11v6"/>`;
    const house = `<path d="M3 11l9-8 9 8"/><path d="M5 10v10h14V10"/><path d="M10 20v-6h4v6"/>`;
    const bell = `<path d="M6 16V11a6 6 0 0 1 12 0v5l2 2H4z"/><path d="M10 20a2 2 0 0 0 4 0"/>`;
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="360"><rect width="640" height="360" fill="#f4f4f4"/>${icon(house, 20)}${icon(trash, 70)}${icon(bell, 120)}<text x="40" y="200" font-family="DejaVu Sans" font-size="20" fill="#111">Factures de janvier</text></svg>`;
    const file = join(tmp, "toolbar.png");
    writeFileSync(file, await sharp(Buffer.from(svg)).png().toBuffer());
    // (« Supprimer »: no label says it; the trash can icon stands for it.)
    for (const [instruction, x] of [["the trash can icon", 70], ["l'icône maison", 20], ["the bell icon", 120], ["cliquer sur Supprimer", 70]] as const) {
      const r = rpav(["locate", file, instruction, "--json", "--ocr", "ppocr"], env, undefined, 120_000);
      expect(r.code, r.stderr).toBe(0);
      const doc = JSON.parse(r.stdout);
      expect(doc.found, instruction).toBe(true);
      expect(doc.point[0], instruction).toBeGreaterThan(x);
      expect(doc.point[0], instruction).toBeLessThan(x + 40);
    }
  });
});
