// Parsing the text output of xprop and xwininfo (x11-utils). Pure functions, unit-tested.

/** Decodes an xprop string value: C escapes (\", \\, \n, \ooo octal bytes) then UTF-8. */
export function decodeXpropString(s: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s[i] as string;
    if (c === "\\" && i + 1 < s.length) {
      const oct = /^[0-7]{1,3}/.exec(s.slice(i + 1))?.[0];
      if (oct) {
        bytes.push(parseInt(oct, 8));
        i += oct.length;
        continue;
      }
      const n = s[++i] as string;
      const map: Record<string, string> = { n: "\n", t: "\t", r: "\r" };
      bytes.push(...Buffer.from(map[n] ?? n, "utf8"));
      continue;
    }
    bytes.push(...Buffer.from(c, "utf8"));
  }
  return Buffer.from(bytes).toString("utf8");
}

/** The quoted strings of an xprop value: `"a", "b"` → ["a", "b"]. */
export function xpropStrings(value: string): string[] {
  const out: string[] = [];
  const re = /"((?:[^"\\]|\\.)*)"/g;
  for (const m of value.matchAll(re)) out.push(decodeXpropString(m[1] as string));
  return out;
}

/** `NAME(TYPE) = value` or `NAME(TYPE): window id # 0x…` lines into a map name → raw value. */
export function parseXprop(text: string): Map<string, string> {
  const props = new Map<string, string>();
  for (const line of text.split("\n")) {
    const m = /^([A-Za-z_0-9]+)(?:\([^)]*\))?(?:\s*=\s*|:\s+)(.*)$/.exec(line);
    if (!m || /not found\.?$/.test(line) || /no such atom/.test(line)) continue;
    props.set(m[1] as string, m[2] as string);
  }
  return props;
}

/** Window ids listed in a value like `window id # 0x400007, 0x600003`. */
export function xpropWindowIds(value: string | undefined): string[] {
  if (!value) return [];
  return [...value.matchAll(/0x[0-9a-fA-F]+/g)].map((m) => normalizeWindowId(m[0]));
}

export function xpropNumbers(value: string | undefined): number[] {
  if (!value) return [];
  return value.split(",").map((s) => Number(s.trim())).filter((n) => Number.isFinite(n));
}

/** "0x00400007" and "0x400007" are the same window. */
export function normalizeWindowId(id: string | number): string {
  const n = typeof id === "number" ? id : parseInt(id, id.startsWith("0x") ? 16 : 10);
  return `0x${n.toString(16)}`;
}

export interface XwininfoGeometry {
  x: number;
  y: number;
  width: number;
  height: number;
  viewable: boolean;
}

export function parseXwininfo(text: string): XwininfoGeometry | undefined {
  const num = (label: string) => {
    const m = new RegExp(`${label}:\\s*(-?\\d+)`).exec(text);
    return m ? Number(m[1]) : undefined;
  };
  const x = num("Absolute upper-left X");
  const y = num("Absolute upper-left Y");
  const width = num("Width");
  const height = num("Height");
  if (x === undefined || y === undefined || width === undefined || height === undefined) return undefined;
  return { x, y, width, height, viewable: /Map State:\s*IsViewable/.test(text) };
}
