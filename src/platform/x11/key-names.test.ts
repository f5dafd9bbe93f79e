import { describe, expect, it } from "vitest";
import { InvalidInputError } from "../../core/errors.js";
import { parseKeyCombo } from "./key-names.js";

describe("key combinations", () => {
  it.each([
    ["ctrl+s", ["Control_L", "s"]],
    ["alt+F4", ["Alt_L", "F4"]],
    ["alt+f4", ["Alt_L", "F4"]],
    ["ctrl+shift+t", ["Control_L", "Shift_L", "t"]],
    ["Ctrl+Shift+T", ["Control_L", "Shift_L", "t"]],
    ["Return", ["Return"]],
    ["enter", ["Return"]],
    ["ctrl++", ["Control_L", "plus"]],
    ["+", ["plus"]],
    ["shift+Tab", ["Shift_L", "Tab"]],
    ["page_down", ["Page_Down"]],
    ["ctrl+/", ["Control_L", "slash"]],
  ])("%s → %j", (combo, keys) => {
    expect(parseKeyCombo(combo)).toEqual(keys);
  });

  it("an unknown key name is an error listing the valid names", () => {
    expect(() => parseKeyCombo("ctrl+shft+t")).toThrow(InvalidInputError);
    expect(() => parseKeyCombo("ctrl+shft+t")).toThrow(/Unknown key "shft" in "ctrl\+shft\+t". Valid names: ctrl, control, shift, alt,.*F24/);
  });

  it("refuses empty, malformed and multi-key combinations", () => {
    expect(() => parseKeyCombo(" ")).toThrow(/Empty/);
    expect(() => parseKeyCombo("ctrl++s")).toThrow(/Malformed|non-modifier/);
    expect(() => parseKeyCombo("a+b")).toThrow(/2 non-modifier keys/);
  });
});
