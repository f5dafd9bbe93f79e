// Reading a raw session written by the recorder: every complete action line is used; a tail cut
// by a crash is reported, not fatal.
import { existsSync } from "node:fs";
import { readBoundedFileSync } from "../core/bounded-read.js";
import { join } from "node:path";
import { z } from "zod";
import { InvalidInputError, SchemaVersionError } from "../core/errors.js";
import { describeJsonValue, parseUntrustedJson } from "../core/json-safe.js";
import { formatJsonPath } from "../core/schemas/documents.js";
import { RAW_SESSION_V1, type SessionAction } from "./recorder.js";

export interface RawSession {
  dir: string;
  header: { schema_version: string; name: string; app: string; started_at: string };
  actions: SessionAction[];
  /** The session was stopped cleanly (an "end" line). */
  ended: boolean;
  /** What could not be read at the end of the file (a crash mid-write). */
  truncatedTail?: string;
}

const finite = z.number().finite();
const shotPath = z.string().max(4096).nullable();
const SessionWindowSchema = z.looseObject({ id: z.string(), title: z.string(), app: z.string(), bbox: z.array(finite).length(4) });

/** What the recorder writes per action (src/record/recorder.ts, SessionAction); extra fields are kept. */
export const SessionActionSchema = z.looseObject({
  seq: z.number().int().nonnegative(),
  kind: z.enum(["click", "drag", "type", "key", "scroll"]),
  t: finite,
  button: z.number().int().min(1).max(32).optional(),
  x: finite.optional(),
  y: finite.optional(),
  dx: finite.optional(),
  dy: finite.optional(),
  x2: finite.optional(),
  y2: finite.optional(),
  text: z.string().optional(),
  secret: z.boolean().optional(),
  length: z.number().int().nonnegative().optional(),
  combo: z.string().optional(),
  window: SessionWindowSchema.nullable().optional(),
  before: shotPath,
  after: shotPath,
});

const SessionHeaderSchema = z.looseObject({ schema_version: z.literal(RAW_SESSION_V1), name: z.string(), app: z.string(), started_at: z.string() });

/** Largest session file read: hours of recording are a few MB. */
export const MAX_SESSION_BYTES = 256 * 1048576;

export function readSession(dir: string): RawSession {
  const file = join(dir, "session.jsonl");
  if (!existsSync(file)) throw new InvalidInputError(`${dir}: no session.jsonl here; give the folder \`rpav record\` printed.`, { details: { source: dir } });
  const lines = readBoundedFileSync(file, MAX_SESSION_BYTES).toString("utf8").replace(/^\uFEFF/, "").split("\n");
  if (lines.at(-1) === "") lines.pop();
  let header: RawSession["header"] | undefined;
  const actions: SessionAction[] = [];
  let ended = false;
  let truncatedTail: string | undefined;
  lines.forEach((line, i) => {
    let doc: Record<string, unknown>;
    try {
      doc = parseUntrustedJson(line, `${file}:${i + 1}`) as Record<string, unknown>;
    } catch (e) {
      if (e instanceof InvalidInputError) throw e;
      if (i === lines.length - 1) {
        truncatedTail = line.length > 80 ? `${line.slice(0, 80)}…` : line;
        return;
      }
      throw new InvalidInputError(`${file}:${i + 1}: not a JSON line (the session is damaged before its last line).`, { details: { source: file, line: i + 1 } });
    }
    if (doc === null || typeof doc !== "object" || Array.isArray(doc)) throw new InvalidInputError(`${file}:${i + 1}: ${describeJsonValue(doc)} is not an action (a JSON object); the session is damaged there.`, { details: { source: file, line: i + 1 } });
    if (i === 0) {
      if (doc.schema_version !== RAW_SESSION_V1) throw new SchemaVersionError(`${file}: schema_version ${describeJsonValue(doc.schema_version)} is not ${RAW_SESSION_V1}; this build reads ${RAW_SESSION_V1} sessions.`);
      const h = SessionHeaderSchema.safeParse(doc);
      if (!h.success) throw new InvalidInputError(`${file}:1: not a session header: ${issuesText(h.error)}.`, { details: { source: file, line: 1 } });
      header = h.data;
    } else if (doc.kind === "end") ended = true;
    else {
      const a = SessionActionSchema.safeParse(doc);
      if (!a.success) throw new InvalidInputError(`${file}:${i + 1}: not a recorded action: ${issuesText(a.error)}. The session is damaged there; remove or fix that line.`, { details: { source: file, line: i + 1 } });
      actions.push(a.data as SessionAction);
    }
  });
  if (!header) throw new InvalidInputError(`${file}: empty session file.`, { details: { source: file } });
  return { dir, header, actions, ended, ...(truncatedTail !== undefined ? { truncatedTail } : {}) };
}

function issuesText(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((x) => `${formatJsonPath(x.path)}: ${x.message}`)
    .join("; ");
}
