// The lab's keymap as a coordinate recorder sees it. cnee records key codes and replays key codes,
// so a demonstration it is to replay must be typed on keys that exist on the keymap at record time
// and still mean the same at replay time. Our XTEST driver types a character that is not on the
// keymap by binding it to a spare key code for the moment (native/x11-input.c) and unbinding it when
// it exits: cnee then replays key codes that type nothing. Here the characters a demonstration uses
// are put on spare key codes once, for the whole lab session, like a keyboard layout that has them;
// the driver then types them on those keys (it looks a character up on the keymap first).
import { runCommand } from "../../src/core/process.js";

/** Key code → its keysyms, in xmodmap's column order (0 = plain, 1 = with Shift, …). */
export type Keymap = Map<number, number[]>;

/** The keysym our driver types for a character (native/x11-input.c `keysym_for`). */
export function keysymFor(ch: string): number {
  const cp = ch.codePointAt(0)!;
  if (cp === 0x0a || cp === 0x0d) return 0xff0d; // Return
  if (cp === 0x09) return 0xff09; // Tab
  if (cp === 0x08) return 0xff08; // BackSpace
  if ((cp >= 0x20 && cp <= 0x7e) || (cp >= 0xa0 && cp <= 0xff)) return cp;
  return 0x01000000 | cp;
}

/** Parses `xmodmap -pk` ("    38    \t0x0061 (a)\t0x0041 (A)\t…"). */
export function parseKeymapTable(text: string): Keymap {
  const map: Keymap = new Map();
  for (const line of text.split("\n")) {
    const m = /^\s*(\d+)\s+(.*)$/.exec(line);
    if (!m) continue;
    const syms = [...m[2]!.matchAll(/0x([0-9a-f]+)/gi)].map((s) => parseInt(s[1]!, 16));
    map.set(Number(m[1]), syms);
  }
  return map;
}

export async function readKeymap(env: NodeJS.ProcessEnv): Promise<Keymap> {
  return parseKeymapTable((await runCommand("xmodmap", ["-pk"], { env })).stdout);
}

/** Whether the driver types `ch` with a key of this keymap, plain or with Shift (no binding on the fly). */
export function onKeymap(keymap: Keymap, ch: string): boolean {
  const ks = keysymFor(ch);
  for (const syms of keymap.values()) if (syms[0] === ks || syms[1] === ks) return true;
  return false;
}

/** Key codes without any keysym (what the driver borrows for characters that are not on the keymap), highest first. */
export function spareKeycodes(keymap: Keymap): number[] {
  return [...keymap].filter(([, syms]) => syms.every((s) => s === 0)).map(([kc]) => kc).sort((a, b) => b - a);
}

/**
 * Puts every character of `chars` that is not on the keymap on a spare key code of its own (plain
 * and with Shift), highest key codes first (away from 8, the lowest a keymap can have), and returns what was bound. Keeps at least `leave` spare
 * key codes for the driver's own use.
 */
export async function bindCharacters(env: NodeJS.ProcessEnv, chars: Iterable<string>, leave = 8): Promise<Array<{ char: string; keycode: number }>> {
  const keymap = await readKeymap(env);
  const missing = [...new Set(chars)].filter((c) => c.codePointAt(0)! >= 0x20 && !onKeymap(keymap, c)).sort();
  const spare = spareKeycodes(keymap);
  if (spare.length - missing.length < leave) throw new Error(`keymap: ${missing.length} characters to bind but only ${spare.length} spare key codes`);
  const bound = missing.map((char, i) => ({ char, keycode: spare[i]! }));
  if (bound.length > 0) {
    const hex = (c: string) => `0x${keysymFor(c).toString(16)}`;
    await runCommand("xmodmap", bound.flatMap(({ char, keycode }) => ["-e", `keycode ${keycode} = ${hex(char)} ${hex(char)}`]), { env });
    const after = await readKeymap(env);
    const lost = bound.filter(({ char }) => !onKeymap(after, char));
    if (lost.length) throw new Error(`keymap: xmodmap did not bind ${lost.map((b) => b.char).join(" ")}`);
  }
  return bound;
}

/** Key codes pressed in a cnee recording (.xnl). */
export function recordedKeycodes(xnl: string): number[] {
  // One event per line: "KIND,TYPE,X,Y,BUTTON,KEYCODE,0,TIME,…" — KIND 0 core, 6 / 7 the core and
  // XTEST devices of XInput 2; TYPE 2 / 3 KeyPress / KeyRelease. Settings and comments are not events.
  const codes = new Set<number>();
  for (const line of xnl.split("\n")) {
    const f = line.split(",");
    if (!["0", "6", "7"].includes(f[0]!) || (f[1] !== "2" && f[1] !== "3")) continue;
    codes.add(Number(f[5]));
  }
  return [...codes].sort((a, b) => a - b);
}

/** Key codes of a cnee recording that type nothing on `keymap` (bound on the fly while recording). */
export function deadKeycodes(xnl: string, keymap: Keymap): number[] {
  const codes = recordedKeycodes(xnl);
  return codes.filter((kc) => !(keymap.get(kc) ?? []).some((s) => s !== 0));
}
