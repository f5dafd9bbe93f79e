import { execFileSync } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { bboxCenter, bboxContains, translateBBox, type BBox } from "../../src/core/geometry.js";
import { atspiDump, type AtspiNode } from "../../src/lab/atspi.js";
import type { AppVariant } from "../../src/platform/x11/desktop-lab.js";
import { waitFor } from "../../src/core/process.js";
import { labKit } from "./support.js";

const kit = labKit();
afterEach(() => kit.cleanup());

/** The first enabled, unchecked "checkbutton" check box of gtk3-widget-factory, as AT-SPI sees it. */
async function uncheckedBox(pid: number, scale: number): Promise<AtspiNode> {
  const { nodes } = await atspiDump(kit.env, { pid, scale });
  const screen: BBox = [0, 0, kit.session.width, kit.session.height];
  const box = nodes
    .filter((n) => n.role === "check box" && n.name === "checkbutton" && n.states.includes("showing") && n.states.includes("sensitive"))
    .filter((n) => !n.states.includes("checked") && !n.states.includes("indeterminate") && bboxContains(screen, n.bbox))
    .sort((a, b) => a.bbox[1] - b.bbox[1])[0];
  if (!box) throw new Error("no unchecked check box visible");
  return box;
}

async function isChecked(pid: number, scale: number, bbox: BBox): Promise<boolean> {
  const { nodes } = await atspiDump(kit.env, { pid, scale });
  const same = nodes.find((n) => n.role === "check box" && n.bbox.every((v, i) => Math.abs(v - (bbox[i] as number)) < 2));
  return same?.states.includes("checked") ?? false;
}

async function widgetFactory(variant: AppVariant = {}) {
  const app = await kit.launch({ command: "gtk3-widget-factory", variant, window: { app: "gtk3-widget-factory" } });
  await kit.windows.activate(app.window.id);
  return app;
}

describe("pointer and window geometry on a real GTK app", () => {
  it("after the window moves, recorded window-relative coordinates plus the new client origin still hit the check box", async () => {
    const app = await widgetFactory();
    const box = await uncheckedBox(app.pid, 1);
    const before = app.window.bbox;
    const rel = translateBBox(box.bbox, -before[0], -before[1]);
    execFileSync("xdotool", ["windowmove", app.window.id, "311", "207"], { env: kit.env });
    const moved = await waitFor("the window to move", async () => {
      const w = await kit.windows.get(app.window.id);
      return w && (w.bbox[0] !== before[0] || w.bbox[1] !== before[1]) ? w : undefined;
    }, { timeoutMs: 5000 });
    // The client area moved by the same amount AT-SPI reports for the widget.
    const boxAfter = await uncheckedBox(app.pid, 1);
    expect(boxAfter.bbox[0] - moved.bbox[0]).toBeCloseTo(rel[0], 0);
    expect(boxAfter.bbox[1] - moved.bbox[1]).toBeCloseTo(rel[1], 0);
    const target = bboxCenter(translateBBox(rel, moved.bbox[0], moved.bbox[1]));
    await kit.input.click(target);
    await waitFor("the check box to be checked", async () => ((await isChecked(app.pid, 1, boxAfter.bbox)) ? true : undefined), { timeoutMs: 5000 });
  });

  it.each([
    ["dark theme", { theme: "dark" }, 1],
    ["scale ×2", { scale: 2 }, 2],
    ["text scale 1.5", { textScale: 1.5 }, 1],
  ] as const)("a click on the AT-SPI box of a check box lands under %s", async (_name, variant, scale) => {
    const app = await widgetFactory(variant);
    const box = await uncheckedBox(app.pid, scale);
    await kit.input.click(bboxCenter(box.bbox));
    await waitFor("the check box to be checked", async () => ((await isChecked(app.pid, scale, box.bbox)) ? true : undefined), { timeoutMs: 5000 });
  });
});
