// Composition of the credential store: which key source (the OS keyring through secret-tool when
// it works here, else a 0600 key file in the data directory), the terminal prompt without echo,
// and `--vars-file` (values handed over by another process without argv, consumed and deleted).
import { lstatSync, readFileSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { ConfigError, InvalidInputError } from "../core/errors.js";
import type { SecretKeySource } from "../core/providers/secret-key-source.js";
import type { SecretStore } from "../core/providers/secret-store.js";
import { probeKeyring, SecretToolKeyring } from "../platform/linux/secret-tool-keyring.js";
import { KeyFile } from "../store/key-file.js";
import { SecretFiles, storedKeyKind } from "../store/secret-files.js";
import { parseVarsFile, VARS_FILE_MAX_BYTES } from "../replay/variables.js";
import { readConfigFile } from "./config-file.js";

export const SECRETS_FILE = "secrets.json";
export const KEY_FILE = "secrets.key";

export type KeyChoice = "auto" | "keyring" | "file";

/** RPAV_SECRET_KEY, else config.json's "secrets": {"key": …} (validated by src/cli/config-file.ts), else auto. */
export function keyChoice(dataDir: string, env: NodeJS.ProcessEnv): KeyChoice {
  const fromEnv = env.RPAV_SECRET_KEY;
  if (fromEnv === undefined || fromEnv === "") return readConfigFile(dataDir)?.config.secrets?.key ?? "auto";
  if (fromEnv === "auto" || fromEnv === "keyring" || fromEnv === "file") return fromEnv;
  throw new ConfigError(`RPAV_SECRET_KEY = ${JSON.stringify(fromEnv)}: write auto, keyring or file.`);
}

export interface KeyDecision {
  source: SecretKeySource;
  /** Why this one, in words (for doctor). */
  why: string;
}

/**
 * The key source: the one an existing store was made with (a store never silently changes key),
 * else the choice; "auto" takes the OS keyring when secret-tool works here, else the key file.
 */
export async function decideKeySource(dataDir: string, env: NodeJS.ProcessEnv): Promise<KeyDecision> {
  const keyring = () => new SecretToolKeyring(dataDir, env);
  const file = () => new KeyFile(join(dataDir, KEY_FILE));
  const choice = keyChoice(dataDir, env);
  const existing = storedKeyKind(join(dataDir, SECRETS_FILE));
  if (choice === "keyring") return { source: keyring(), why: "chosen (RPAV_SECRET_KEY / config.json)" };
  if (choice === "file") return { source: file(), why: "chosen (RPAV_SECRET_KEY / config.json)" };
  if (existing === "keyring") return { source: keyring(), why: "the store was made with the OS keyring" };
  if (existing === "key_file") return { source: file(), why: "the store was made with a key file" };
  const probe = await probeKeyring(env);
  return probe.ok ? { source: keyring(), why: probe.why } : { source: file(), why: `no OS keyring: ${probe.why}` };
}

export async function openSecretStore(dataDir: string, env: NodeJS.ProcessEnv): Promise<SecretStore> {
  const { source } = await decideKeySource(dataDir, env);
  return new SecretFiles(join(dataDir, SECRETS_FILE), source);
}

/** The store, its key source decided on first use (a replay without secret variables never probes the keyring). */
export function lazySecretStore(dataDir: string, env: NodeJS.ProcessEnv): SecretStore {
  let opened: Promise<SecretStore> | undefined;
  const store = () => (opened ??= openSecretStore(dataDir, env));
  return {
    describe: async () => (await store()).describe(),
    set: async (n, v) => (await store()).set(n, v),
    get: async (n) => (await store()).get(n),
    list: async () => (await store()).list(),
    remove: async (n) => (await store()).remove(n),
  };
}

/**
 * One line read from the terminal without echo (raw mode): Enter ends it, Backspace erases,
 * Ctrl+C / Ctrl+D on an empty line abort. `input` must be a TTY.
 */
export function readHidden(question: string, input: NodeJS.ReadStream, output: NodeJS.WritableStream): Promise<string> {
  return new Promise((resolve, reject) => {
    // Echo off before the question shows: a key typed as soon as it appears is never echoed.
    const wasRaw = input.isRaw;
    input.setRawMode(true);
    input.resume();
    output.write(question);
    let value = "";
    const done = (fn: () => void) => {
      input.off("data", onData);
      input.setRawMode(wasRaw);
      input.pause();
      output.write("\n");
      fn();
    };
    const onData = (chunk: Buffer) => {
      for (const ch of chunk.toString("utf8")) {
        if (ch === "\r" || ch === "\n") return done(() => resolve(value));
        if (ch === "\u0003" || (ch === "\u0004" && value === "")) return done(() => reject(new InvalidInputError("Cancelled at the prompt; nothing was done.")));
        if (ch === "\u007f" || ch === "\b") value = [...value].slice(0, -1).join("");
        else if (ch >= " ") value += ch;
      }
    };
    input.on("data", onData);
  });
}

/** A prompt for secret values when stdin is a terminal; undefined otherwise (no one to ask). */
export function terminalSecretPrompt(): ((question: string) => Promise<string>) | undefined {
  if (!process.stdin.isTTY) return undefined;
  return (q) => readHidden(q, process.stdin, process.stderr);
}

/** Everything on stdin (not a terminal), at most `max` bytes, one final line break removed. */
export async function readStdinValue(max = 64 * 1024): Promise<string> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const c of process.stdin as AsyncIterable<Buffer>) {
    total += c.length;
    if (total > max) throw new InvalidInputError(`More than ${max / 1024} KiB on stdin for one secret; nothing was stored.`);
    chunks.push(c);
  }
  return Buffer.concat(chunks).toString("utf8").replace(/\r?\n$/, "");
}

/**
 * `--vars-file <file>`: a JSON object of variable values written by another process (the studio)
 * so that no value is on argv. The file must be a regular file private to this user (0600); it is
 * deleted once read, whatever its content.
 */
export function consumeVarsFile(path: string): Record<string, string> {
  let st;
  try {
    st = lstatSync(path);
  } catch {
    throw new InvalidInputError(`--vars-file ${path}: no such file (it is deleted once read: give a new one for each run).`, { details: { source: path } });
  }
  if (!st.isFile()) throw new InvalidInputError(`--vars-file ${path}: not a regular file.`, { details: { source: path } });
  let text: string;
  try {
    if ((st.mode & 0o077) !== 0) throw new InvalidInputError(`--vars-file ${path}: others may read it (mode ${(st.mode & 0o777).toString(8)}); write it 0600. It was deleted; consider its values exposed.`, { details: { source: path } });
    if (typeof process.getuid === "function" && st.uid !== process.getuid()) throw new InvalidInputError(`--vars-file ${path}: belongs to another user; not read.`, { details: { source: path } });
    if (st.size > VARS_FILE_MAX_BYTES) throw new InvalidInputError(`--vars-file ${path}: over ${VARS_FILE_MAX_BYTES / 1048576} MiB.`, { details: { source: path } });
    text = readFileSync(path, "utf8");
  } finally {
    try {
      if (typeof process.getuid !== "function" || st.uid === process.getuid()) unlinkSync(path);
    } catch {
      // already gone
    }
  }
  return parseVarsFile(text, path);
}

/** `rpav doctor`'s line: where secrets are kept here and why. */
export async function secretsCheck(dataDir: string, env: NodeJS.ProcessEnv): Promise<{ name: string; status: "ok" | "warn" | "missing"; detail: string }> {
  try {
    const { source, why } = await decideKeySource(dataDir, env);
    const names = await new SecretFiles(join(dataDir, SECRETS_FILE), source).list();
    return { name: "secrets", status: "ok", detail: `${names.length} in ${join(dataDir, SECRETS_FILE)} (AES-256-GCM); key: ${source.where} — ${why}` };
  } catch (e) {
    return { name: "secrets", status: "missing", detail: e instanceof Error ? e.message : String(e) };
  }
}
