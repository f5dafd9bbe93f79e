// JSON.parse for untrusted text. A key named "__proto__" is refused: JSON.parse keeps it as an
// own property, but any later copy (object spread, zod's record parsing, Object.assign) turns it
// into the object's prototype, so that a value escapes validation. Other keys are kept as given.
// Nesting is capped: see MAX_JSON_DEPTH.
import { InvalidInputError } from "./errors.js";

/**
 * Deepest nesting accepted. No document of this project nests past a few tens of levels; deeper
 * input would overflow the stack of recursive code further on (JSON.stringify, structuredClone).
 */
export const MAX_JSON_DEPTH = 512;

/**
 * JSON.parse (its SyntaxError kept for position reporting), then typed refusals of a key named
 * "__proto__" and of nesting deeper than MAX_JSON_DEPTH.
 */
export function parseUntrustedJson(text: string, source: string): unknown {
  const value: unknown = JSON.parse(text);
  const problem = check(value, text.includes("__proto__"));
  if (problem === "proto") throw new InvalidInputError(`${source}: a key named "__proto__" is not accepted in a document (it would change the object's prototype); rename it.`, { details: { source } });
  if (problem === "depth") throw new InvalidInputError(`${source}: nested more than ${MAX_JSON_DEPTH} levels deep; no document of RPA Vision nests like this. Is it the right file?`, { details: { source, maxDepth: MAX_JSON_DEPTH } });
  return value;
}

/** Iterative walk (no recursion on input depth). */
function check(root: unknown, lookForProto: boolean): "proto" | "depth" | undefined {
  if (root === null || typeof root !== "object") return undefined;
  const stack: Array<[object, number]> = [[root, 1]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (d > MAX_JSON_DEPTH) return "depth";
    if (Array.isArray(v)) {
      for (const x of v) if (x !== null && typeof x === "object") stack.push([x, d + 1]);
    } else {
      if (lookForProto && Object.hasOwn(v, "__proto__")) return "proto";
      for (const x of Object.values(v)) if (x !== null && typeof x === "object") stack.push([x as object, d + 1]);
    }
  }
  return undefined;
}

/** A short description of an untrusted JSON value for a message: never recursive, at most ~60 characters. */
export function describeJsonValue(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return `an array (${v.length} item${v.length === 1 ? "" : "s"})`;
  if (typeof v === "object") return "an object";
  if (typeof v === "string") return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  return String(v);
}
