// The studio's access token: 32 random bytes made at first start, kept in <data dir>/studio-token
// (mode 0600, so only this user reads it) and printed with the URL. Every request must carry it.
import { randomBytes, timingSafeEqual } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { StoreError } from "../core/errors.js";

export const TOKEN_FILE = "studio-token";

export interface StudioToken {
  token: string;
  path: string;
  /** Made by this call (first start). */
  created: boolean;
}

/** Reads the token of `dataDir`, or creates it (0600); a token file others could read is made private again. */
export function loadOrCreateToken(dataDir: string): StudioToken {
  const path = join(dataDir, TOKEN_FILE);
  try {
    const existing = readFileSync(path, "utf8").trim();
    if (/^[A-Za-z0-9_-]{32,}$/.test(existing)) {
      if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
      return { token: existing, path, created: false };
    }
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw new StoreError(`Cannot read the studio token ${path}: ${(e as Error).message}. Delete it to make a new one.`, { cause: e });
  }
  const token = randomBytes(32).toString("base64url");
  try {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    writeFileSync(path, `${token}\n`, { mode: 0o600 });
    chmodSync(path, 0o600);
  } catch (e) {
    throw new StoreError(`Cannot write the studio token ${path}: ${(e as Error).message}. Check that the data directory is writable.`, { cause: e });
  }
  return { token, path, created: true };
}

/** Constant-time comparison of a presented token with the real one. */
export function tokenMatches(presented: string | undefined, token: string): boolean {
  if (!presented) return false;
  const a = Buffer.from(presented);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}
