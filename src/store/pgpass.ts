// Passwords of PostgreSQL roles in the libpq password file format (hostname:port:database:
// username:password, `\` escapes `:` and `\`, `*` matches anything), kept 0600. `rpav db up`
// writes the generated passwords of its private cluster there; the connection code reads the one
// for a URL that carries none, so no password is ever printed, put on argv or in RPAV_PG_URL.
import { existsSync, lstatSync, mkdirSync } from "node:fs";
import { writeFileAtomicSync } from "../core/atomic-write.js";
import { dirname } from "node:path";
import { readBoundedFileSync } from "../core/bounded-read.js";
import { StoreError } from "../core/errors.js";

export interface PassEntry {
  host: string;
  port: string;
  database: string;
  user: string;
  password: string;
}

function split(line: string): string[] {
  const out: string[] = [];
  let cur = "";
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === "\\" && i + 1 < line.length) cur += line[++i];
    else if (c === ":" && out.length < 4) {
      out.push(cur);
      cur = "";
    } else cur += c;
  }
  out.push(cur);
  return out;
}

const esc = (s: string) => s.replace(/[\\:]/g, (c) => `\\${c}`);

export function readPassFile(path: string): PassEntry[] {
  if (!existsSync(path)) return [];
  const st = lstatSync(path);
  if (st.isFile() && (st.mode & 0o077) !== 0) throw new StoreError(`The PostgreSQL password file ${path} can be read by others (mode ${(st.mode & 0o777).toString(8)}): chmod 600 ${path}.`, { details: { source: path } });
  return readBoundedFileSync(path, 1024 * 1024)
    .toString("utf8")
    .split(/\r?\n/)
    .filter((l) => l.trim() && !l.startsWith("#"))
    .map(split)
    .filter((f) => f.length === 5)
    .map(([host, port, database, user, password]) => ({ host: host!, port: port!, database: database!, user: user!, password: password! }));
}

/** Adds or replaces the entry for (host, port, database, user); the file stays 0600. */
export function writePassEntry(path: string, entry: PassEntry): void {
  const kept = readPassFile(path).filter((e) => !(e.host === entry.host && e.port === entry.port && e.database === entry.database && e.user === entry.user));
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileAtomicSync(path, [...kept, entry].map((e) => [e.host, e.port, e.database, e.user, e.password].map(esc).join(":")).join("\n") + "\n", { mode: 0o600 });
}

/** The password for a postgres:// URL from the file (first matching line, `*` wildcards), or undefined. */
export function lookupPassword(path: string, url: string): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  const want = { host: u.hostname, port: u.port || "5432", database: decodeURIComponent(u.pathname.replace(/^\//, "")) || decodeURIComponent(u.username), user: decodeURIComponent(u.username) };
  const m = (pattern: string, value: string) => pattern === "*" || pattern === value;
  return readPassFile(path).find((e) => m(e.host, want.host) && m(e.port, want.port) && m(e.database, want.database) && m(e.user, want.user))?.password;
}

/** The URL with the password from the file when it carries none (unchanged otherwise, or when the file has no entry). */
export function withPassFilePassword(url: string, path: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return url;
  }
  if (u.password || !u.username) return url;
  const pw = lookupPassword(path, url);
  if (pw === undefined) return url;
  u.password = encodeURIComponent(pw);
  return u.toString();
}
