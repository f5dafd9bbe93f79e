import { afterEach, describe, expect, it } from "vitest";
import { bboxCenter } from "../../src/core/geometry.js";
import { sleep } from "../../src/core/process.js";
import { atspiDump } from "../../src/lab/atspi.js";
import { labKit } from "./support.js";

const kit = labKit();
afterEach(() => kit.cleanup());

/** A yad form with a text field "hello world" and a number field 5; returns it and its widgets' boxes from AT-SPI. */
async function form() {
  const app = await kit.launch({ command: "yad", args: ["--form", "--title=Mouse oracle", "--field=Text", "--field=Num:NUM", "hello world", "5!0..100!1"] });
  await kit.windows.activate(app.window.id);
  const { nodes } = await atspiDump(kit.env, { pid: app.pid });
  const text = nodes.find((n) => n.role === "text" && n.states.includes("showing"));
  const spin = nodes.find((n) => n.role === "spin button" && n.states.includes("showing"));
  const ok = nodes.find((n) => n.role === "push button" && n.name === "OK" && n.states.includes("showing"));
  const hello = text?.words?.find((w) => w.text === "hello");
  const world = text?.words?.find((w) => w.text === "world");
  if (!text || !spin || !ok || !hello || !world) throw new Error("yad form widgets not found on AT-SPI");
  const fields = async () => {
    await kit.input.click(bboxCenter(ok.bbox), { targetWindow: app.window.id });
    await app.exited;
    return app.stdout().trim().split("|");
  };
  return { app, spin, hello, world, fields };
}

describe("mouse actions on a real GTK form", () => {
  it("double click selects a word (typing replaces it)", async () => {
    const f = await form();
    await kit.input.click(bboxCenter(f.hello.bbox), { count: 2, targetWindow: f.app.window.id });
    await sleep(200);
    await kit.input.type("bye", { meanDelayMs: 5, jitterMs: 0, targetWindow: f.app.window.id });
    expect((await f.fields())[0]).toBe("bye world");
  });

  it("drag selects a text range (typing replaces it)", async () => {
    const f = await form();
    const from: [number, number] = [f.hello.bbox[0] + 1, bboxCenter(f.hello.bbox)[1]];
    const to: [number, number] = [f.world.bbox[2] - 1, bboxCenter(f.world.bbox)[1]];
    await kit.input.drag(from, to, { targetWindow: f.app.window.id });
    await sleep(200);
    await kit.input.type("X", { meanDelayMs: 5, jitterMs: 0, targetWindow: f.app.window.id });
    expect((await f.fields())[0]).toBe("X");
  });

  it("scroll over a spin button changes its value by one step per notch", async () => {
    const f = await form();
    await kit.input.scroll(bboxCenter(f.spin.bbox), -3, 0, { targetWindow: f.app.window.id });
    await sleep(200);
    expect(Number((await f.fields())[1])).toBe(8);
  });

  it("right click opens the field's context menu (new pixels on screen), Escape closes it", async () => {
    const f = await form();
    const at = bboxCenter(f.hello.bbox);
    const region: [number, number, number, number] = [at[0], at[1], at[0] + 150, at[1] + 150];
    await kit.input.move(at);
    await sleep(200);
    const before = await kit.screen.capture({ kind: "region", bbox: region });
    await kit.input.click(undefined, { button: "right", targetWindow: f.app.window.id });
    await sleep(500);
    const open = await kit.screen.capture({ kind: "region", bbox: region });
    expect(Buffer.compare(Buffer.from(before.data), Buffer.from(open.data))).not.toBe(0);
    await kit.input.key("Escape", { targetWindow: f.app.window.id });
    await sleep(300);
    const closed = await kit.screen.capture({ kind: "region", bbox: region });
    expect(Buffer.compare(Buffer.from(before.data), Buffer.from(closed.data))).toBe(0);
    expect((await f.fields())[0]).toBe("hello world");
  });
});
