// Properties 13 and 14 on real screenshots of real apps (the dev corpus bench measures them at scale).
import { execFileSync } from "node:child_process";
import sharp, { type Sharp } from "sharp";
import { afterEach, describe, expect, it } from "vitest";
import { decodeImage, encodePng } from "../../src/capture/png.js";
import type { Frame } from "../../src/core/frame.js";
import { waitFor } from "../../src/core/process.js";
import { cosine } from "../../src/core/vectors.js";
import { LayoutImageEmbedder } from "../../src/embedding/layout-image-embedder.js";
import { labKit } from "./support.js";

const kit = labKit();
afterEach(() => kit.cleanup());
const embedder = new LayoutImageEmbedder(512);

async function variant(frame: Frame, f: (s: Sharp, w: number, h: number) => Sharp): Promise<Frame> {
  const png = await encodePng(frame);
  return decodeImage(await f(sharp(png), frame.width, frame.height).png().toBuffer(), "variant");
}

async function shot(command: string, args: string[], app?: string) {
  const a = await kit.launch({ command, args, window: app ? { app } : undefined });
  await kit.windows.activate(a.window.id);
  await new Promise((r) => setTimeout(r, 500));
  return { app: a, frame: await kit.screen.capture({ kind: "screen" }) };
}

describe("layout embedding on real screenshots", () => {
  it("property 13: light variations of a real screen keep cosine >= 0.85 (colour, ±10 % size, ±20 px, window moved)", async () => {
    const { app, frame } = await shot("gtk3-widget-factory", [], "gtk3-widget-factory");
    const base = embedder.embedSync(frame);
    const variants = [
      await variant(frame, (s) => s.modulate({ hue: 30, brightness: 0.9, saturation: 1.3 })),
      await variant(frame, (s, w, h) => s.resize(Math.round(w * 0.9), Math.round(h * 0.9))),
      await variant(frame, (s, w, h) => s.resize(Math.round(w * 1.1), Math.round(h * 1.1))),
      await variant(frame, (s, w, h) => s.extend({ left: 20, top: 20, extendWith: "copy" }).extract({ left: 0, top: 0, width: w, height: h })),
    ];
    // A real window move on the desktop.
    execFileSync("xdotool", ["windowmove", app.window.id, String(app.window.bbox[0] + 150), String(app.window.bbox[1] + 90)], { env: kit.env });
    await waitFor("the move", async () => ((await kit.windows.get(app.window.id))?.bbox[0] !== app.window.bbox[0] ? true : undefined), { timeoutMs: 5000 });
    await new Promise((r) => setTimeout(r, 300));
    variants.push(await kit.screen.capture({ kind: "screen" }));
    for (const v of variants) expect(cosine(base, embedder.embedSync(v))).toBeGreaterThanOrEqual(0.85);
  });

  it("property 14: screens of different apps stay at cosine <= 0.70", async () => {
    const shots: Frame[] = [];
    for (const [cmd, args, app] of [
      ["gtk3-widget-factory", [], "gtk3-widget-factory"],
      ["yad", ["--form", "--title=Patient", "--width=600", "--field=Nom", "--field=Prénom", "--field=Date:DT", "--field=Mutuelle:CB", "--field=Tiers payant:CHK", "", "", "", "MGEN!Aucune", "TRUE"]],
      ["zenity", ["--forms", "--title=Invoice", "--add-entry=Customer", "--add-entry=Amount", "--add-calendar=Due"]],
    ] as Array<[string, string[], string?]>) {
      const s = await shot(cmd, args, app);
      shots.push(s.frame);
      await s.app.stop();
    }
    const v = shots.map((f) => embedder.embedSync(f));
    for (let i = 0; i < v.length; i++) for (let j = i + 1; j < v.length; j++) expect(cosine(v[i] as Float32Array, v[j] as Float32Array)).toBeLessThanOrEqual(0.7);
  });
});
