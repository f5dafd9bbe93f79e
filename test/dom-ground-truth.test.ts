// The corpus's DOM ground truth (lab/dom-ground-truth.js) in real headless Chromium: the boxes
// and types it gives, check boxes and radio buttons with their label text as on the desktop.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

interface Element {
  type: string;
  label: string;
  bbox: [number, number, number, number];
  states: string[];
}

const PAGE = `<!doctype html><html><body style="margin:0;font:16px sans-serif">
  <div style="position:absolute;left:20px;top:20px">
    <input type="checkbox" id="a" style="width:20px;height:20px;margin:0;vertical-align:middle"><label for="a" id="la" style="margin-left:8px">Tiers payant</label>
    <div id="hint" style="margin-top:4px">A hint below the box, not the label</div>
  </div>
  <label id="lb" style="position:absolute;left:20px;top:120px"><input type="radio" name="r" style="width:18px;height:18px;margin:0 6px 0 0">Mutuelle</label>
  <div style="position:absolute;left:20px;top:200px">
    <input type="checkbox" id="alone" checked style="width:20px;height:20px;margin:0">
    <button id="save" style="margin-left:40px">Save</button>
    <button id="off" disabled>Off</button>
    <a href="#" role="tab" aria-selected="true">Général</a>
  </div>
</body></html>`;

let browser: Browser;
beforeAll(async () => {
  browser = await chromium.launch({ executablePath: process.env.RPAV_CHROMIUM ?? "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"] });
});
afterAll(async () => {
  await browser?.close();
});

describe("DOM ground truth", () => {
  it("a check box or radio button is its box and its label's text beside it; other elements are their own box", async () => {
    const page = await browser.newPage({ viewport: { width: 400, height: 300 } });
    await page.setContent(PAGE);
    await page.addScriptTag({ content: readFileSync(join(import.meta.dirname, "..", "lab", "dom-ground-truth.js"), "utf8") });
    const { elements } = await page.evaluate(() => (globalThis as unknown as { rpavCollectGroundTruth(): { elements: Element[] } }).rpavCollectGroundTruth());
    const rect = (sel: string) => page.$eval(sel, (e) => { const r = e.getBoundingClientRect(); return [Math.round(r.left), Math.round(r.top), Math.round(r.right), Math.round(r.bottom)]; });
    const [la, hint, save, alone] = await Promise.all([rect("#la"), rect("#hint"), rect("#save"), rect("#alone")]);
    const byLabel = (l: string) => elements.find((e) => e.label === l)!;

    const tiers = byLabel("Tiers payant");
    expect(tiers.type).toBe("checkbox");
    // From the box's left edge to the label's right edge; the hint below is left out.
    expect(tiers.bbox[0]).toBe(20);
    expect(tiers.bbox[2]).toBe(la[2]);
    expect(tiers.bbox[3]).toBeLessThan(hint[1]! + 2);

    const mutuelle = byLabel("Mutuelle");
    expect(mutuelle.type).toBe("radio_button");
    expect(mutuelle.bbox[0]).toBe(20);
    expect(mutuelle.bbox[2]).toBeGreaterThan(20 + 18 + 6 + 30);

    // No label: the box alone. A button: its own box.
    const boxOnly = elements.find((e) => e.type === "checkbox" && e.bbox[1] >= 200)!;
    expect(boxOnly.bbox).toEqual(alone);
    expect(byLabel("Save").bbox).toEqual(save);
    // States, by AT-SPI's names: the ticked box, the disabled button, the selected tab; none on the others.
    expect(boxOnly.states).toEqual(["checked"]);
    expect(byLabel("Off").states).toEqual(["disabled"]);
    expect(byLabel("Général")).toMatchObject({ type: "tab", states: ["selected"] });
    expect(tiers.states).toEqual([]);
    await page.close();
  });
});
