import { describe, expect, it } from "vitest";
import { decodeXpropString, normalizeWindowId, parseXprop, parseXwininfo, xpropNumbers, xpropStrings, xpropWindowIds } from "./x11-props.js";

describe("xprop / xwininfo parsing", () => {
  it("parses properties, strings, numbers and window ids", () => {
    const p = parseXprop(
      [
        '_NET_WM_NAME(UTF8_STRING) = "Facture n\\302\\260 12 \\"Zo\\303\\253\\""',
        'WM_CLASS(STRING) = "mousepad", "Mousepad"',
        "_NET_WM_PID(CARDINAL) = 4242",
        "_NET_FRAME_EXTENTS(CARDINAL) = 1, 1, 23, 4",
        "_NET_ACTIVE_WINDOW(WINDOW): window id # 0x00400007",
        "_NET_WM_STATE:  not found.",
      ].join("\n"),
    );
    expect(xpropStrings(p.get("_NET_WM_NAME") ?? "")).toEqual(['Facture n° 12 "Zoë"']);
    expect(xpropStrings(p.get("WM_CLASS") ?? "")).toEqual(["mousepad", "Mousepad"]);
    expect(xpropNumbers(p.get("_NET_WM_PID"))).toEqual([4242]);
    expect(xpropNumbers(p.get("_NET_FRAME_EXTENTS"))).toEqual([1, 1, 23, 4]);
    expect(xpropWindowIds(p.get("_NET_ACTIVE_WINDOW"))).toEqual(["0x400007"]);
    expect(p.has("_NET_WM_STATE")).toBe(false);
  });

  it("decodes UTF-8 titles written raw or escaped", () => {
    expect(decodeXpropString("Zoë €")).toBe("Zoë €");
    expect(decodeXpropString("\\342\\202\\254")).toBe("€");
    expect(decodeXpropString("a\\\\b")).toBe("a\\b");
  });

  it("normalizes window ids", () => {
    expect(normalizeWindowId("0x00400007")).toBe("0x400007");
    expect(normalizeWindowId(4194311)).toBe("0x400007");
  });

  it("reads client geometry from xwininfo", () => {
    const text = `xwininfo: Window id: 0x400007 "x"\n  Absolute upper-left X:  278\n  Absolute upper-left Y:  189\n  Relative upper-left X:  1\n  Width: 640\n  Height: 480\n  Map State: IsViewable\n`;
    expect(parseXwininfo(text)).toEqual({ x: 278, y: 189, width: 640, height: 480, viewable: true });
    expect(parseXwininfo("garbage")).toBeUndefined();
  });
});
