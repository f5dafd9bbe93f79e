// Reading a raw session written by the recorder: every complete action line is used; a tail cut
// by a crash is reported, not fatal.
import { existsSync } from "node:fs";
import { readBoundedFileSync } from "../core/bounded-read.js";
import { join } from "node:path";
import { InvalidInputError, SchemaVersionError } from "../core/errors.js";
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
      doc = JSON.parse(line) as Record<string, unknown>;
    } catch {
      if (i === lines.length - 1) {
        truncatedTail = line.length > 80 ? `${line.slice(0, 80)}…` : line;
        return;
      }
      throw new InvalidInputError(`${file}:${i + 1}: not a JSON line (the session is damaged before its last line).`, { details: { source: file, line: i + 1 } });
    }
    if (doc === null || typeof doc !== "object" || Array.isArray(doc)) throw new InvalidInputError(`${file}:${i + 1}: ${JSON.stringify(doc)} is not an action (a JSON object); the session is damaged there.`, { details: { source: file, line: i + 1 } });
    if (i === 0) {
      if (doc.schema_version !== RAW_SESSION_V1) throw new SchemaVersionError(`${file}: schema_version ${JSON.stringify(doc.schema_version)} is not ${RAW_SESSION_V1}; this build reads ${RAW_SESSION_V1} sessions.`);
      header = doc as unknown as RawSession["header"];
    } else if (doc.kind === "end") ended = true;
    else actions.push(doc as unknown as SessionAction);
  });
  if (!header) throw new InvalidInputError(`${file}: empty session file.`, { details: { source: file } });
  return { dir, header, actions, ended, ...(truncatedTail !== undefined ? { truncatedTail } : {}) };
}
