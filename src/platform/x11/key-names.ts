// Key combinations ("ctrl+s", "alt+F4", "ctrl+shift+t") into X keysym names, with a clear error
// listing valid names for anything unknown.
import { InvalidInputError } from "../../core/errors.js";

const MODIFIERS: Record<string, string> = {
  ctrl: "Control_L", control: "Control_L", shift: "Shift_L", alt: "Alt_L", super: "Super_L", win: "Super_L", meta: "Meta_L", cmd: "Super_L",
};

const NAMED: Record<string, string> = {
  enter: "Return", return: "Return", tab: "Tab", esc: "Escape", escape: "Escape", space: "space", backspace: "BackSpace",
  delete: "Delete", del: "Delete", insert: "Insert", ins: "Insert", home: "Home", end: "End", pageup: "Page_Up", page_up: "Page_Up",
  pagedown: "Page_Down", page_down: "Page_Down", up: "Up", down: "Down", left: "Left", right: "Right", menu: "Menu", print: "Print",
  capslock: "Caps_Lock", numlock: "Num_Lock", pause: "Pause",
};

const PUNCTUATION: Record<string, string> = {
  "+": "plus", "-": "minus", "=": "equal", ",": "comma", ".": "period", "/": "slash", "\\": "backslash", ";": "semicolon",
  "'": "apostrophe", "`": "grave", "[": "bracketleft", "]": "bracketright", "!": "exclam", "@": "at", "#": "numbersign",
  $: "dollar", "%": "percent", "^": "asciicircum", "&": "ampersand", "*": "asterisk", "(": "parenleft", ")": "parenright",
  _: "underscore", "{": "braceleft", "}": "braceright", "|": "bar", ":": "colon", '"': "quotedbl", "<": "less", ">": "greater",
  "?": "question", "~": "asciitilde",
};

const FUNCTION_KEYS = Array.from({ length: 24 }, (_, i) => `f${i + 1}`);

/** Every key name `parseKeyCombo` accepts (besides single letters, digits and punctuation). */
export const KEY_NAMES: readonly string[] = [...Object.keys(MODIFIERS), ...Object.keys(NAMED), ...FUNCTION_KEYS.map((f) => f.toUpperCase())];

function keysym(token: string, combo: string): string {
  const lower = token.toLowerCase();
  if (NAMED[lower]) return NAMED[lower] as string;
  if (FUNCTION_KEYS.includes(lower)) return lower.toUpperCase();
  if (/^[a-z0-9]$/i.test(token)) return token.length === 1 && /[A-Z]/.test(token) ? token.toLowerCase() : token;
  if (PUNCTUATION[token]) return PUNCTUATION[token] as string;
  throw new InvalidInputError(`Unknown key "${token}" in "${combo}". Valid names: ${KEY_NAMES.join(", ")}, single letters, digits and punctuation.`, {
    details: { key: token, combo, valid: KEY_NAMES },
  });
}

/** "ctrl+shift+t" → ["Control_L", "Shift_L", "t"]; "ctrl++" → ["Control_L", "plus"]: X keysym names, modifiers first, one non-modifier key. */
export function parseKeyCombo(combo: string): string[] {
  const trimmed = combo.trim();
  if (!trimmed) throw new InvalidInputError("Empty key combination.");
  const tokens = trimmed === "+" ? ["+"] : trimmed.endsWith("++") ? [...trimmed.slice(0, -2).split("+"), "+"] : trimmed.split("+");
  const mods: string[] = [];
  const keys: string[] = [];
  for (const t of tokens) {
    if (t === "") throw new InvalidInputError(`Malformed key combination "${combo}": write keys joined by +, e.g. ctrl+shift+t.`);
    const mod = MODIFIERS[t.toLowerCase()];
    if (mod) mods.push(mod);
    else keys.push(keysym(t, combo));
  }
  if (keys.length > 1) throw new InvalidInputError(`Key combination "${combo}" has ${keys.length} non-modifier keys; press them one after the other.`);
  return [...new Set(mods), ...keys];
}
