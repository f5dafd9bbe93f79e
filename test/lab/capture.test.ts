import { execFileSync } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { DisplayUnavailableError, WindowNotFoundError } from "../../src/core/errors.js";
import { X11ScreenSource } from "../../src/platform/x11/x11-screen-source.js";
import { X11WindowInfo } from "../../src/platform/x11/x11-window-info.js";
import { captureStable } from "../../src/capture/stable-capture.js";
import { labKit } from "./support.js";

const kit = labKit();
afterEach(() => kit.cleanup());

describe("screen capture", () => {
  it("returns the pixels of a known colour region", async () => {
    execFileSync("xsetroot", ["-solid", "#1e90ff"], { env: kit.env });
    // The bottom-right corner of the screen has no window in these tests.
    const f = await kit.screen.capture({ kind: "region", bbox: [1800, 1000, 1900, 1060] });
    expect([f.width, f.height, f.channels]).toEqual([100, 60, 4]);
    expect(f.origin).toEqual([1800, 1000]);
    for (let i = 0; i < f.data.length; i += 4) expect([f.data[i], f.data[i + 1], f.data[i + 2], f.data[i + 3]]).toEqual([0x1e, 0x90, 0xff, 255]);
  });

  it("captures the full screen at its size, and a window as its client area placed on screen", async () => {
    const full = await kit.screen.capture({ kind: "screen" });
    expect([full.width, full.height, full.scaleFactor]).toEqual([kit.session.width, kit.session.height, 1]);
    // A label-only dialog: no blinking text cursor, so the window becomes still.
    const app = await kit.launch({ command: "yad", args: ["--text=Capture me", "--title=Capture me", "--no-buttons"] });
    const { frame: w, stable } = await captureStable(kit.screen, { kind: "window", windowId: app.window.id });
    expect(stable).toBe(true);
    expect(w.origin).toEqual([app.window.bbox[0], app.window.bbox[1]]);
    expect(w.width).toBe(app.window.bbox[2] - app.window.bbox[0]);
    // Same pixels as the matching region of a full-screen grab.
    const again = await kit.screen.capture({ kind: "screen" });
    const row = 5;
    const start = ((app.window.bbox[1] + row) * again.width + app.window.bbox[0]) * 4;
    expect(Buffer.from(w.data.subarray(row * w.width * 4, (row + 1) * w.width * 4))).toEqual(Buffer.from(again.data.subarray(start, start + w.width * 4)));
  });

  it("a closed window is WindowNotFoundError", async () => {
    const app = await kit.launch({ command: "yad", args: ["--form", "--title=Short lived", "--field=Text"] });
    await app.stop();
    await expect(kit.screen.capture({ kind: "window", windowId: app.window.id })).rejects.toThrow(WindowNotFoundError);
    await expect(kit.windows.activate(app.window.id)).rejects.toThrow(WindowNotFoundError);
  });

  it("no display is DisplayUnavailableError saying to run rpav lab up", async () => {
    const env = { ...process.env, DISPLAY: ":55" };
    const source = new X11ScreenSource({ env });
    await expect(source.capture({ kind: "screen" })).rejects.toThrow(DisplayUnavailableError);
    await expect(source.capture({ kind: "screen" })).rejects.toThrow(/rpav lab up/);
    await expect(new X11WindowInfo({ env }).list()).rejects.toThrow(/rpav lab up/);
    await expect(new X11WindowInfo({ env: { ...process.env, DISPLAY: "" } }).list()).rejects.toThrow(DisplayUnavailableError);
  });

  it("window info reports title (UTF-8), app, pid and activity", async () => {
    const app = await kit.launch({ command: "yad", args: ["--form", "--title=Facture n° 12 — Zoë €", "--field=Text"] });
    await kit.windows.activate(app.window.id);
    const w = await kit.windows.find({ title: /Zoë/ });
    expect(w).toMatchObject({ title: "Facture n° 12 — Zoë €", appName: "Yad", instance: "yad", pid: app.pid, active: true, visible: true });
    expect((await kit.windows.active())?.id).toBe(app.window.id);
    await expect(kit.windows.waitFor({ title: "Never opened" }, { timeoutMs: 300 })).rejects.toThrow(/No window with title "Never opened" appeared within 300 ms/);
  });

  it("the window helper (one X connection) describes windows exactly as the xprop / xwininfo processes do", async () => {
    const viaUtils = new X11WindowInfo({ env: kit.env, helperPath: null });
    expect([kit.windows.via, viaUtils.via]).toEqual(["helper", "x11-utils"]);
    const yad = await kit.launch({ command: "yad", args: ["--form", "--title=Facture n° 12 — Zoë €", "--field=Text"] });
    // An Athena window: WM_NAME only, in Latin-1, no _NET_WM_PID.
    const xmsg = await kit.launch({ command: "xmessage", args: ["-title", "Télé café", "bonjour"], window: { app: "Xmessage" }, waitAtspi: false });
    const [a, b] = [await kit.windows.list(), await viaUtils.list()];
    expect(a).toEqual(b);
    expect(a.find((w) => w.id === xmsg.window.id)).toMatchObject({ title: "Télé café", appName: "Xmessage", pid: null, visible: true });
    execFileSync("xdotool", ["windowminimize", yad.window.id], { env: kit.env });
    await new Promise((r) => setTimeout(r, 300));
    const hidden = await kit.windows.get(yad.window.id);
    expect(hidden).toEqual(await viaUtils.get(yad.window.id));
    expect(hidden).toMatchObject({ title: "Facture n° 12 — Zoë €", visible: false });
    expect(await kit.windows.activeId()).toBe(await viaUtils.activeId());
    await kit.windows.activate(yad.window.id);
    expect(await kit.windows.get(yad.window.id)).toMatchObject({ active: true, visible: true });
    await yad.stop();
    expect(await kit.windows.get(yad.window.id)).toBeUndefined();
  });
});
