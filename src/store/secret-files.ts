// The credential store as one file in the data directory (secrets.json, 0600): each value
// encrypted with AES-256-GCM (node:crypto) under a 256-bit data key held by a SecretKeySource
// (the OS keyring, or a 0600 key file). The secret's name is the GCM additional data, so a value
// moved to another name does not decrypt. The file records which kind of key encrypted it and a
// fingerprint of that key: a wrong, replaced or missing key is told apart from a corrupt file.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync } from "node:fs";
import { writeFileAtomicSync } from "../core/atomic-write.js";
import { dirname } from "node:path";
import { z } from "zod";
import { readBoundedFileSync } from "../core/bounded-read.js";
import { InvalidInputError, RpaError, SecretUnavailableError } from "../core/errors.js";
import type { SecretKeySource } from "../core/providers/secret-key-source.js";
import type { SecretStore } from "../core/providers/secret-store.js";

export const SECRETS_V1 = "secrets_v1";
const MAX_FILE_BYTES = 16 * 1024 * 1024;
const MAX_VALUE_BYTES = 64 * 1024;
const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;

const EntrySchema = z.object({ iv: z.string(), tag: z.string(), data: z.string(), updated_at: z.string() });
const FileSchema = z.object({
  schema_version: z.literal(SECRETS_V1),
  key: z.object({ kind: z.enum(["keyring", "key_file"]), fingerprint: z.string() }),
  entries: z.record(z.string(), EntrySchema),
});
type SecretsFile = z.infer<typeof FileSchema>;

/** A secret's name: letters, digits, `_ . -`, at most 128 characters (a workflow variable name fits). */
export function checkSecretName(name: string): string {
  if (!NAME.test(name)) throw new InvalidInputError(`"${name.slice(0, 80)}" is not a secret name: use letters, digits, _ . - (at most 128, starting with a letter or digit), e.g. mot_de_passe.`, { details: { name: name.slice(0, 80) } });
  return name;
}

/** The first 16 hex digits of SHA-256 over a label and the key: tells keys apart, reveals nothing usable. */
export function keyFingerprint(key: Buffer): string {
  return createHash("sha256").update("rpav secrets key v1\0").update(key).digest("hex").slice(0, 16);
}

/** What kind of key encrypted an existing store file, without reading the key (undefined: no usable file). */
export function storedKeyKind(path: string): "keyring" | "key_file" | undefined {
  if (!existsSync(path)) return undefined;
  try {
    const doc = FileSchema.safeParse(JSON.parse(readBoundedFileSync(path, MAX_FILE_BYTES).toString("utf8")));
    return doc.success ? doc.data.key.kind : undefined;
  } catch {
    return undefined;
  }
}

export class SecretFiles implements SecretStore {
  constructor(
    private readonly path: string,
    private readonly keys: SecretKeySource,
  ) {}

  async describe(): Promise<string> {
    return `${this.path}, AES-256-GCM, key: ${this.keys.where}`;
  }

  private fail(what: string, todo: string, cause?: unknown): SecretUnavailableError {
    return new SecretUnavailableError(`The credential store ${this.path} ${what}: ${todo}`, { ...(cause !== undefined ? { cause } : {}), details: { store: this.path, key: this.keys.where } });
  }

  private read(): SecretsFile | undefined {
    if (!existsSync(this.path)) return undefined;
    let raw: unknown;
    try {
      raw = JSON.parse(readBoundedFileSync(this.path, MAX_FILE_BYTES).toString("utf8"));
    } catch (e) {
      if (e instanceof RpaError) throw this.fail(`cannot be read (${e.message})`, "check the file, or move it away and set the secrets again with `rpav secret set <name>`.", e);
      throw this.fail("is corrupt (not JSON)", "restore it from a backup, or move it away and set the secrets again with `rpav secret set <name>`.", e);
    }
    const doc = FileSchema.safeParse(raw);
    if (!doc.success) {
      const v = (raw as { schema_version?: unknown } | null)?.schema_version;
      if (typeof v === "string" && v !== SECRETS_V1) throw this.fail(`is in format ${v.slice(0, 40)}, which this rpav does not read`, "upgrade rpav.");
      throw this.fail("is corrupt (not a secrets_v1 file)", "restore it from a backup, or move it away and set the secrets again with `rpav secret set <name>`.");
    }
    return doc.data;
  }

  private write(doc: SecretsFile): void {
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    writeFileAtomicSync(this.path, `${JSON.stringify(doc, null, 1)}\n`, { mode: 0o600 });
  }

  /** The key that encrypted `doc` (checked by fingerprint); a new one for a new store. */
  private async key(doc: SecretsFile | undefined, create: boolean): Promise<Buffer | undefined> {
    if (doc && doc.key.kind !== this.keys.kind)
      throw this.fail(`was encrypted with a key from the ${doc.key.kind === "keyring" ? "OS keyring" : "key file"}, but this rpav is set to use ${this.keys.where}`, doc.key.kind === "keyring" ? "run where the keyring is unlocked (a desktop session with a secret service), or set RPAV_SECRET_KEY=keyring." : "set RPAV_SECRET_KEY=file (or \"secrets\": {\"key\": \"file\"} in config.json).");
    const key = await this.keys.load();
    if (!key) {
      if (doc && Object.keys(doc.entries).length > 0) throw this.fail(`holds ${Object.keys(doc.entries).length} secret(s) but its key is missing (${this.keys.where})`, "restore the key (from a backup, or the keyring it was made in); without it the values cannot be read: remove the store file and set them again with `rpav secret set <name>`.");
      return create ? await this.keys.create() : undefined;
    }
    if (key.length !== 32) throw this.fail(`has a key of ${key.length} bytes instead of 32 (${this.keys.where})`, "restore the right key, or remove the store and its key and set the secrets again.");
    if (doc && Object.keys(doc.entries).length > 0 && doc.key.fingerprint !== keyFingerprint(key))
      throw this.fail(`was encrypted with another key than the one in ${this.keys.where} (wrong or replaced key)`, "restore the key it was made with; without it the values cannot be read: remove the store file and set them again with `rpav secret set <name>`.");
    return key;
  }

  async set(name: string, value: string): Promise<void> {
    checkSecretName(name);
    if (value.length === 0) throw new InvalidInputError(`The value given for secret "${name}" is empty; nothing was stored.`, { details: { name } });
    if (Buffer.byteLength(value) > MAX_VALUE_BYTES) throw new InvalidInputError(`The value given for secret "${name}" is over ${MAX_VALUE_BYTES / 1024} KiB; nothing was stored.`, { details: { name } });
    const doc = this.read();
    const key = (await this.key(doc, true))!;
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", key, iv);
    cipher.setAAD(Buffer.from(name, "utf8"));
    const data = Buffer.concat([cipher.update(value, "utf8"), cipher.final()]);
    const entries = { ...(doc?.entries ?? {}), [name]: { iv: iv.toString("base64"), tag: cipher.getAuthTag().toString("base64"), data: data.toString("base64"), updated_at: new Date().toISOString() } };
    this.write({ schema_version: SECRETS_V1, key: { kind: this.keys.kind, fingerprint: keyFingerprint(key) }, entries });
  }

  async get(name: string): Promise<string | undefined> {
    const doc = this.read();
    const entry = doc?.entries[name];
    if (!doc || !entry || !Object.hasOwn(doc.entries, name)) return undefined;
    const key = await this.key(doc, false);
    if (!key) return undefined;
    try {
      const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(entry.iv, "base64"));
      decipher.setAAD(Buffer.from(name, "utf8"));
      decipher.setAuthTag(Buffer.from(entry.tag, "base64"));
      return Buffer.concat([decipher.update(Buffer.from(entry.data, "base64")), decipher.final()]).toString("utf8");
    } catch (e) {
      throw this.fail(`holds a value for "${name}" that does not decrypt (corrupt entry, or not made with this key)`, `set it again with \`rpav secret set ${name}\`, or restore the store file from a backup.`, e);
    }
  }

  async list(): Promise<string[]> {
    return Object.keys(this.read()?.entries ?? {}).sort();
  }

  async remove(name: string): Promise<boolean> {
    const doc = this.read();
    if (!doc || !Object.hasOwn(doc.entries, name)) return false;
    const entries = { ...doc.entries };
    delete entries[name];
    this.write({ ...doc, entries });
    return true;
  }
}
