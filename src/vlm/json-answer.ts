// Model answers are untrusted text. JSON is taken from the answer (fenced ```json blocks, text
// around it), validated with zod; an answer that does not validate is asked again once with the
// validation error appended, then fails as ModelAnswerInvalidError.
import { createHash } from "node:crypto";
import type { z } from "zod";
import { ModelAnswerInvalidError } from "../core/errors.js";
import type { ChatMessage, ChatRequest } from "./chat.js";

/** The JSON value in a model's answer, or undefined when there is none. */
export function extractJson(text: string): unknown {
  const candidates: string[] = [];
  for (const m of text.matchAll(/```(?:json|JSON)?\s*\n?([\s\S]*?)```/g)) candidates.push(m[1]!.trim());
  candidates.push(text.trim());
  // The first [ or { to its matching last ] or }.
  const start = text.search(/[[{]/);
  if (start >= 0) {
    const close = text[start] === "[" ? "]" : "}";
    const end = text.lastIndexOf(close);
    if (end > start) candidates.push(text.slice(start, end + 1));
  }
  for (const c of candidates) {
    try {
      return JSON.parse(c) as unknown;
    } catch {
      /* next candidate */
    }
  }
  return undefined;
}

/** Short hash of a prompt (model, messages' text, images' content hashes), for the trace. */
export function promptHash(model: string, texts: readonly string[], imageHashes: readonly string[]): string {
  return createHash("sha256").update(JSON.stringify([model, texts, imageHashes])).digest("hex").slice(0, 16);
}

export interface StructuredResult<T> {
  readonly value: T;
  /** The raw answer that validated (untrusted text, for the trace). */
  readonly raw: string;
  /** Both answers when the first did not validate. */
  readonly attempts: number;
}

function describeIssues(e: z.ZodError): string {
  return e.issues
    .slice(0, 5)
    .map((i) => `${i.path.length ? i.path.join(".") : "(answer)"}: ${i.message}`)
    .join("; ");
}

/** Validates a raw answer: JSON taken from it, then the schema. */
export function validateAnswer<T>(raw: string, schema: z.ZodType<T>): { ok: true; value: T } | { ok: false; error: string } {
  const json = extractJson(raw);
  if (json === undefined) return { ok: false, error: "the answer holds no JSON" };
  const r = schema.safeParse(json);
  return r.success ? { ok: true, value: r.data } : { ok: false, error: describeIssues(r.error) };
}

/**
 * Sends `req` through `send`; validates; on failure asks once more with the error, then throws.
 * `send` returns the raw answer text.
 */
export async function askStructured<T>(req: ChatRequest, schema: z.ZodType<T>, send: (req: ChatRequest) => Promise<string>): Promise<StructuredResult<T>> {
  const first = await send(req);
  const a = validateAnswer(first, schema);
  if (a.ok) return { value: a.value, raw: first, attempts: 1 };
  const retry: ChatMessage[] = [
    ...req.messages,
    { role: "assistant", content: first.slice(0, 4000) },
    { role: "user", content: `Your answer is not valid: ${a.error}. Answer again with JSON only, following the requested format exactly.` },
  ];
  const second = await send({ ...req, messages: retry });
  const b = validateAnswer(second, schema);
  if (b.ok) return { value: b.value, raw: second, attempts: 2 };
  throw new ModelAnswerInvalidError(`Model ${req.model} gave an invalid answer twice (${b.error}); the answer was not used. Raw answer: ${JSON.stringify(second.slice(0, 200))}`, {
    details: { model: req.model, error: b.error, first_error: a.error, raw_answer: second.slice(0, 2000) },
  });
}
