// Where JSON text first goes wrong. Node 20's JSON.parse often gives no position
// ("Unexpected token '}', ... is not valid JSON"), and people fixing a file by hand need one.
// Only called after JSON.parse failed, so speed does not matter; correctness of the offset does.

/** Byte offset (UTF-16 index) of the first syntax error, or undefined if the text is valid JSON. */
export function findJsonErrorOffset(text: string): number | undefined {
  let i = 0;
  const ws = () => {
    while (i < text.length && " \t\n\r".includes(text[i] as string)) i++;
  };
  const fail = (): never => {
    throw i;
  };
  const literal = (word: string) => {
    for (const ch of word) {
      if (text[i] !== ch) fail();
      i++;
    }
  };
  const string = () => {
    i++; // opening quote
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return;
      }
      if (c < 0x20) fail();
      if (c === 0x5c) {
        i++;
        const e = text[i];
        if (e === "u") {
          for (let k = 1; k <= 4; k++) if (!/[0-9a-fA-F]/.test(text[i + k] ?? "")) {
            i += k;
            fail();
          }
          i += 5;
          continue;
        }
        if (e === undefined || !'"\\/bfnrt'.includes(e)) fail();
      }
      i++;
    }
    fail();
  };
  const number = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!m || m[0].length === 0) fail();
    i += (m as RegExpExecArray)[0].length;
  };
  // A scalar or the opening of a container; containers are walked with an explicit stack, so
  // that nesting depth costs memory, not the call stack (12,000 levels once overflowed it).
  const stack: ("{" | "[")[] = [];
  const scalar = (c: string | undefined) => {
    if (c === '"') string();
    else if (c === "t") literal("true");
    else if (c === "f") literal("false");
    else if (c === "n") literal("null");
    else if (c === "-" || (c !== undefined && c >= "0" && c <= "9")) number();
    else fail();
  };
  /** Reads a value; returns with i after it, or after the opening of a container (pushed). */
  const start = (): boolean => {
    ws();
    const c = text[i];
    if (c === "{" || c === "[") {
      i++;
      ws();
      if (text[i] === (c === "{" ? "}" : "]")) {
        i++;
        return false;
      }
      stack.push(c);
      if (c === "{") key();
      return true;
    }
    scalar(c);
    return false;
  };
  const key = () => {
    ws();
    if (text[i] !== '"') fail();
    string();
    ws();
    if (text[i] !== ":") fail();
    i++;
  };
  const value = (): void => {
    if (!start()) return;
    while (stack.length > 0) {
      // Inside a container, at a member's value.
      if (start()) continue;
      for (;;) {
        ws();
        const top = stack.at(-1);
        if (top === undefined) return;
        if (text[i] === ",") {
          i++;
          if (top === "{") key();
          break;
        }
        if (text[i] === (top === "{" ? "}" : "]")) {
          i++;
          stack.pop();
          continue;
        }
        fail();
      }
    }
  };
  try {
    value();
    ws();
    if (i < text.length) fail();
    return undefined;
  } catch (pos) {
    if (typeof pos === "number") return pos;
    throw pos;
  }
}

/** 1-based line and column of an offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  return { line: before.split("\n").length, column: offset - before.lastIndexOf("\n") };
}
