import { describe, expect, it } from "vitest";
import { DisplayUnavailableError } from "../../core/errors.js";
import { descriptorOf, X11WindowInfo, type HelperWindow } from "./x11-window-info.js";

const w: HelperWindow = { id: "0x00600007", title: "Fiche article", class: "Gtk_form.py", instance: "gtk_form.py", pid: 42, x: 680, y: 318, width: 560, height: 460, frame: [1, 1, 22, 5], viewable: true, hidden: false };

describe("X11 window info", () => {
  it("turns the helper's window into the descriptor the x11-utils path gives: client box, frame, active by id", () => {
    expect(descriptorOf(w, "0x600007")).toEqual({ id: "0x600007", title: "Fiche article", appName: "Gtk_form.py", instance: "gtk_form.py", pid: 42, bbox: [680, 318, 1240, 778], frame: { left: 1, right: 1, top: 22, bottom: 5 }, active: true, visible: true });
    expect(descriptorOf(w, "0x600008").active).toBe(false);
  });

  it("a window hidden (minimised) or not mapped is not visible", () => {
    expect(descriptorOf({ ...w, hidden: true }, undefined).visible).toBe(false);
    expect(descriptorOf({ ...w, viewable: false }, undefined).visible).toBe(false);
  });

  it("falls back to the x11-utils processes when the helper is not built, and says which it uses", () => {
    expect(new X11WindowInfo({ env: {}, helperPath: "/nonexistent/rpav-x11-windows" }).via).toBe("x11-utils");
    expect(new X11WindowInfo({ env: {}, helperPath: null }).via).toBe("x11-utils");
  });

  it("without DISPLAY, asks for `rpav lab up` before starting anything", async () => {
    await expect(new X11WindowInfo({ env: { DISPLAY: "" } }).list()).rejects.toThrow(DisplayUnavailableError);
  });
});
