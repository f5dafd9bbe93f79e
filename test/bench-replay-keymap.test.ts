// The replay bench's keymap helpers (bench/replay/keymap.ts): which characters our driver types on
// keys of the keymap, and which key codes of a cnee recording would type nothing at replay.
import { describe, expect, it } from "vitest";
import { deadKeycodes, keysymFor, onKeymap, parseKeymapTable, recordedKeycodes, spareKeycodes } from "../bench/replay/keymap.js";

// Lines as `xmodmap -pk` prints them (Xvfb's US keymap, with ë bound on 93 and € on 97).
const TABLE = `There are 7 KeySyms per KeyCode; KeyCodes range from 8 to 255.

    KeyCode\tKeysym (Keysym)\t...
    Value  \tValue   (Name) \t...

      8    \t
     26    \t0x0065 (e)\t0x0045 (E)\t0x0065 (e)\t0x0045 (E)
     61    \t0x002f (slash)\t0x003f (question)\t0x002f (slash)\t0x003f (question)
     93    \t0x00eb (ediaeresis)\t0x00eb (ediaeresis)
     97    \t0x10020ac (U20AC)\t0x10020ac (U20AC)
    103    \t
    108    \t0xffea (Alt_R)\t0xffe7 (Meta_L)\t0x0000 (NoSymbol)\t0x00e9 (eacute)
`;

describe("bench/replay keymap", () => {
  const keymap = parseKeymapTable(TABLE);

  it("gives the keysyms our driver types (Latin-1 as is, the rest as Unicode keysyms)", () => {
    expect(keysymFor("e")).toBe(0x65);
    expect(keysymFor("ë")).toBe(0xeb);
    expect(keysymFor("€")).toBe(0x10020ac);
    expect(keysymFor("\n")).toBe(0xff0d);
  });

  it("finds a character only on a key's plain or shifted level, as the driver does", () => {
    expect(onKeymap(keymap, "E")).toBe(true);
    expect(onKeymap(keymap, "?")).toBe(true);
    expect(onKeymap(keymap, "ë")).toBe(true);
    expect(onKeymap(keymap, "€")).toBe(true);
    expect(onKeymap(keymap, "é")).toBe(false); // only on a fourth column: the driver would bind it on the fly
    expect(onKeymap(keymap, "è")).toBe(false);
  });

  it("lists key codes without keysyms, highest first", () => {
    expect(spareKeycodes(keymap)).toEqual([103, 8]);
  });

  it("reads the key codes of a cnee recording and names those that type nothing", () => {
    const xnl = [
      "# cnee --record --mouse --keyboard",
      "delivered-event-range         21-21",
      "7,6,960,540,0,0,0,7905244,4,'Virtual core XTEST pointer'",
      "7,4,0,0,1,0,0,7905730,4,Virtual core XTEST pointer",
      "7,2,0,0,0,26,0,7906140,5,Virtual core XTEST keyboard",
      "6,2,0,0,0,26,0,7906140,3,Virtual core keyboard",
      "7,3,0,0,0,26,0,7906141,5,Virtual core XTEST keyboard",
      "7,2,0,0,0,93,0,7906150,5,Virtual core XTEST keyboard",
      "0,2,0,0,0,103,0,7906160",
      "0,3,0,0,0,103,0,7906161",
    ].join("\n");
    expect(recordedKeycodes(xnl)).toEqual([26, 93, 103]);
    expect(deadKeycodes(xnl, keymap)).toEqual([103]);
  });
});
