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

  it("a check box painted by its label (the input hidden) is the painted box and the label's text, wherever the input lies", async () => {
    const page = await browser.newPage({ viewport: { width: 500, height: 300 } });
    await page.setContent(`<!doctype html><html><head><style>
      body{margin:0;font:16px sans-serif}
      .w98 input{opacity:0;position:fixed;margin:0}
      .w98 input+label{position:relative;margin-left:19px}
      .w98 input+label::before{content:"";position:absolute;left:-19px;top:0;width:13px;height:13px;background:#888}
      .paper input{position:absolute;width:1px;height:1px;opacity:0;margin:-1px;overflow:hidden}
      .paper span{display:block}
      .paper span::before{content:"";display:inline-block;width:16px;height:16px;margin-right:12px;border:2px solid #333;vertical-align:-3px}
      .icon input{position:absolute;clip:rect(0,0,0,0);width:1px;height:1px}
      .icon i{display:inline-block;width:14px;height:14px;background:#36c;margin-right:6px}
      </style></head><body>
      <div class="w98" style="position:absolute;left:40px;top:20px"><input type="checkbox" id="w"><label for="w" id="lw">Quatre-vingt-dix-huit</label></div>
      <label class="paper" style="position:absolute;left:40px;top:80px;width:400px"><input type="checkbox" checked><span id="sp">Papier</span></label>
      <label class="icon" style="position:absolute;left:40px;top:140px"><input type="radio"><i id="ic"></i>Icône</label>
    </body></html>`);
    await page.addScriptTag({ content: readFileSync(join(import.meta.dirname, "..", "lab", "dom-ground-truth.js"), "utf8") });
    const { elements } = await page.evaluate(() => (globalThis as unknown as { rpavCollectGroundTruth(): { elements: Element[] } }).rpavCollectGroundTruth());
    const byLabel = (l: string) => elements.find((e) => e.label === l)!;
    // The right edge of the element's text (a label or span's own box may be wider).
    const textRight = (sel: string) => page.evaluate(`(() => { const r = document.createRange(); r.selectNodeContents(document.querySelector(${JSON.stringify(sel)})); return Math.round(r.getBoundingClientRect().right); })()`) as Promise<number>;

    // The box the label paints 19 px left of it (the input itself is parked at the top left of the window).
    const w = byLabel("Quatre-vingt-dix-huit");
    expect(w.type).toBe("checkbox");
    expect(w.bbox[0]).toBe(40);
    expect(w.bbox[1]).toBe(20);
    expect(w.bbox[2]).toBe(await textRight("#lw"));

    // A 1 px input, the box drawn by the span's ::before in the flow: the box and the text, not the 400 px wide block.
    const paper = byLabel("Papier");
    expect(paper).toMatchObject({ type: "checkbox", states: ["checked"] });
    expect(paper.bbox[0]).toBe(40);
    expect(paper.bbox[2]).toBe(await textRight("#sp"));
    expect(paper.bbox[3] - paper.bbox[1]).toBeGreaterThanOrEqual(19);

    // A clipped radio whose label holds an empty icon element.
    const icon = byLabel("Icône");
    expect(icon.type).toBe("radio_button");
    expect(icon.bbox[0]).toBe(40);
    await page.close();
  });

  it("a box its label's ::before draws in a positioned ancestor (the label static, as GOV.UK's) is that box and the text", async () => {
    const page = await browser.newPage({ viewport: { width: 500, height: 200 } });
    await page.setContent(`<!doctype html><html><head><style>
      body{margin:0;font:19px sans-serif}
      .item{position:relative;padding-left:40px;min-height:40px;margin-bottom:10px}
      .item input{position:absolute;z-index:1;top:-2px;left:-2px;width:44px;height:44px;margin:0;opacity:0}
      .item label{display:inline-block;padding:8px 15px 5px}
      .item label::before{content:"";box-sizing:border-box;position:absolute;top:0;left:0;width:40px;height:40px;border:2px solid #0b0c0c;border-radius:50%}
      </style></head><body>
      <div class="item" style="position:absolute;left:60px;top:30px"><input type="radio" id="y" name="r"><label for="y" id="ly">Oui, toujours</label></div>
    </body></html>`);
    await page.addScriptTag({ content: readFileSync(join(import.meta.dirname, "..", "lab", "dom-ground-truth.js"), "utf8") });
    const { elements } = await page.evaluate(() => (globalThis as unknown as { rpavCollectGroundTruth(): { elements: Element[] } }).rpavCollectGroundTruth());
    const textRight = (await page.evaluate(`(() => { const r = document.createRange(); r.selectNodeContents(document.querySelector("#ly")); return Math.round(r.getBoundingClientRect().right); })()`)) as number;
    const yes = elements.find((e) => e.label === "Oui, toujours")!;
    expect(yes.type).toBe("radio_button");
    // From the disc (the hidden input reaches 2 px beyond it) to the end of the text, the disc's full height.
    expect(yes.bbox[0]).toBeLessThanOrEqual(60);
    expect(yes.bbox[0]).toBeGreaterThanOrEqual(58);
    expect(yes.bbox[2]).toBe(textRight);
    expect(yes.bbox[3] - yes.bbox[1]).toBeGreaterThanOrEqual(40);
    await page.close();
  });
});
