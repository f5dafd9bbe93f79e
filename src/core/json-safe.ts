// JSON.parse for untrusted text. A key named "__proto__" is refused: JSON.parse keeps it as an
// own property, but any later copy (object spread, zod's record parsing, Object.assign) turns it
// into the object's prototype, so that a value escapes validation. Other keys are kept as given.
import { InvalidInputError } from "./errors.js";

/** JSON.parse (its SyntaxError kept for position reporting), refusing "__proto__" keys with a typed error. */
export function parseUntrustedJson(text: string, source: string): unknown {
  const value: unknown = JSON.parse(text);
  if (text.includes("__proto__") && hasProtoKey(value)) throw new InvalidInputError(`${source}: a key named "__proto__" is not accepted in a document (it would change the object's prototype); rename it.`, { details: { source } });
  return value;
}

/** Iterative walk (no recursion on input depth). */
function hasProtoKey(root: unknown): boolean {
  const stack: unknown[] = [root];
  while (stack.length) {
    const v = stack.pop();
    if (Array.isArray(v)) {
      for (const x of v) if (x !== null && typeof x === "object") stack.push(x);
    } else if (v !== null && typeof v === "object") {
      if (Object.hasOwn(v, "__proto__")) return true;
      for (const x of Object.values(v)) if (x !== null && typeof x === "object") stack.push(x);
    }
  }
  return false;
}
