import { existsSync, rmSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { X11WindowInfo } from "../../src/platform/x11/x11-window-info.js";
import { launchApp } from "../../src/lab/apps.js";
import { labDown, labProcesses, labStatus, labUp } from "../../src/platform/x11/desktop-lab.js";

describe("lab lifecycle", () => {
  it("up is idempotent, down ends every process it started (apps and AT-SPI services included)", async () => {
    const display = 96;
    const s = await labUp({ display });
    const again = await labUp({ display });
    expect(again.id).toBe(s.id);
    expect(again.upMs).toBe(0);
    const windows = new X11WindowInfo({ env: { ...process.env, ...s.env } });
    await launchApp(s, windows, { command: "yad", args: ["--form", "--title=Left running", "--field=A"] });
    const before = labProcesses(s.id);
    // Xvfb, dbus-daemon, openbox, the AT-SPI bus launcher and its daemons, yad.
    expect(before.length).toBeGreaterThanOrEqual(5);
    const ended = await labDown({ display });
    expect(ended).toBeGreaterThanOrEqual(before.length);
    expect(labProcesses(s.id)).toEqual([]);
    for (const pid of before) expect(existsSync(`/proc/${pid}`)).toBe(false);
    expect(await labStatus({ display })).toBeUndefined();
    expect(existsSync(`/tmp/.X11-unix/X${display}`)).toBe(false);
  });

  it("a lab whose state file was lost is cleaned up by the next up on that display", async () => {
    const display = 95;
    const old = await labUp({ display });
    const oldPids = labProcesses(old.id);
    expect(oldPids.length).toBeGreaterThanOrEqual(3);
    rmSync(`/tmp/rpav-lab/display-${display}.json`);
    const fresh = await labUp({ display });
    expect(fresh.id).not.toBe(old.id);
    expect(labProcesses(old.id)).toEqual([]);
    await labDown({ display });
    expect(labProcesses(fresh.id)).toEqual([]);
  });
});
