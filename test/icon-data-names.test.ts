// The icon classifier's training labels come from icon file names (training/icons/build.ts): general names, style
// words dropped, a name mixing two classes left out, a name with no class word "other".
import { describe, expect, it } from "vitest";
import { classOfName, ICON_CLASSES, ICON_KEYWORDS } from "../training/icons/build.js";

describe("icon training labels from file names", () => {
  it("names a class through any set's spelling, whatever its style words and sizes", () => {
    expect(classOfName("icons/device-floppy.svg")).toBe("save");
    expect(classOfName("actions/32/document-save.png")).toBe("save");
    expect(classOfName("solid/bxs-trash.svg")).toBe("delete");
    expect(classOfName("x-circle-fill.svg")).toBe("close");
    expect(classOfName("gear-six-bold.svg")).toBe("settings");
    expect(classOfName("media-playback-start-symbolic.svg")).toBe("play");
    expect(classOfName("help-browser.png")).toBe("help");
    expect(classOfName("arrow-right-short.svg")).toBe("arrow_right");
    expect(classOfName("chevron-left-24.svg")).toBe("arrow_left");
  });

  it("leaves out a name that mixes two things, and calls a name with no class word other", () => {
    expect(classOfName("document-save-as.png")).toBeUndefined();
    expect(classOfName("user-plus.svg")).toBeUndefined();
    expect(classOfName("file-plus.svg")).toBeUndefined();
    expect(classOfName("zoom-in.svg")).toBeUndefined();
    expect(classOfName("camera.svg")).toBe("other");
    expect(classOfName("chart-bar.svg")).toBe("other");
  });

  it("gives each keyword one class, and the classes end with other", () => {
    const seen = new Map<string, string>();
    for (const [c, ks] of Object.entries(ICON_KEYWORDS))
      for (const k of ks) {
        expect(seen.get(k), `${k} in ${c} and ${seen.get(k)}`).toBeUndefined();
        seen.set(k, c);
      }
    expect(ICON_CLASSES.at(-1)).toBe("other");
  });
});
