// The credential store file: AES-256-GCM at rest under a 0600 key file; typed errors for a corrupt
// store and a wrong, missing or exposed key.
import { randomBytes } from "node:crypto";
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isRpaError } from "../core/errors.js";
import { KeyFile } from "./key-file.js";
import { SecretFiles } from "./secret-files.js";

const VALUE = "S3cr3t-Pässwörd!42";
let dir: string;
let storePath: string;
let keyPath: string;
const open = () => new SecretFiles(storePath, new KeyFile(keyPath));
async function code(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return "no error";
  } catch (e) {
    return isRpaError(e) ? `${e.code}: ${e.message}` : `untyped: ${String(e)}`;
  }
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "rpav-secrets-"));
  storePath = join(dir, "secrets.json");
  keyPath = join(dir, "secrets.key");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("credential store file", () => {
  it("keeps values encrypted: neither the store nor any file holds the plaintext (raw, base64 or hex); files 0600", async () => {
    const s = open();
    await s.set("mot_de_passe", VALUE);
    await s.set("token", "tok-123456");
    expect(await s.get("mot_de_passe")).toBe(VALUE);
    expect(await open().get("token")).toBe("tok-123456");
    expect(await s.get("nope")).toBeUndefined();
    expect(await s.get("constructor")).toBeUndefined();
    for (const f of readdirSync(dir)) {
      const bytes = readFileSync(join(dir, f));
      for (const form of [VALUE, Buffer.from(VALUE).toString("base64"), Buffer.from(VALUE).toString("hex"), "tok-123456"]) expect(bytes.includes(form), `${f} holds ${form}`).toBe(false);
      expect(statSync(join(dir, f)).mode & 0o777, f).toBe(0o600);
    }
    const doc = JSON.parse(readFileSync(storePath, "utf8")) as { entries: Record<string, { iv: string }> };
    expect(Object.keys(doc.entries).sort()).toEqual(["mot_de_passe", "token"]);
    // Two writes of one value give different ciphertexts (a fresh IV each time).
    const before = doc.entries.mot_de_passe!.iv;
    await s.set("mot_de_passe", VALUE);
    expect((JSON.parse(readFileSync(storePath, "utf8")) as typeof doc).entries.mot_de_passe!.iv).not.toBe(before);
  });

  it("lists names only and removes one", async () => {
    const s = open();
    await s.set("b", "2");
    await s.set("a", "1");
    expect(await s.list()).toEqual(["a", "b"]);
    expect(await s.remove("a")).toBe(true);
    expect(await s.remove("a")).toBe(false);
    expect(await s.list()).toEqual(["b"]);
    expect(await code(s.set("../x", "v"))).toMatch(/^invalid_input: .*not a secret name/);
    expect(await code(s.set("x", ""))).toMatch(/^invalid_input: .*empty/);
  });

  it("a wrong (replaced) key is secret_unavailable naming what to do, and nothing is overwritten", async () => {
    await open().set("pw", VALUE);
    const stored = readFileSync(storePath);
    writeFileSync(keyPath, `${randomBytes(32).toString("base64")}\n`, { mode: 0o600 });
    expect(await code(open().get("pw"))).toMatch(/^secret_unavailable: .*another key .*restore the key/);
    expect(await code(open().set("other", "v"))).toMatch(/^secret_unavailable: .*another key/);
    expect(readFileSync(storePath).equals(stored)).toBe(true);
  });

  it("a missing key is secret_unavailable, never a new key that would orphan the stored values", async () => {
    await open().set("pw", VALUE);
    unlinkSync(keyPath);
    expect(await code(open().get("pw"))).toMatch(/^secret_unavailable: .*key is missing/);
    expect(await code(open().set("pw2", "v"))).toMatch(/^secret_unavailable: .*key is missing/);
    expect(readdirSync(dir)).toEqual(["secrets.json"]);
  });

  it("a corrupt store, a tampered value or a value moved to another name is secret_unavailable", async () => {
    await open().set("pw", VALUE);
    await open().set("user", "jdupont");
    const good = readFileSync(storePath, "utf8");
    const doc = JSON.parse(good) as { entries: Record<string, { data: string; tag: string }> };
    const data = Buffer.from(doc.entries.pw!.data, "base64");
    data[0]! ^= 1;
    writeFileSync(storePath, JSON.stringify({ ...doc, entries: { ...doc.entries, pw: { ...doc.entries.pw!, data: data.toString("base64") } } }));
    expect(await code(open().get("pw"))).toMatch(/^secret_unavailable: .*does not decrypt.*rpav secret set pw/);
    expect(await open().get("user")).toBe("jdupont");
    writeFileSync(storePath, JSON.stringify({ ...doc, entries: { ...doc.entries, user: doc.entries.pw } }));
    expect(await code(open().get("user"))).toMatch(/^secret_unavailable: .*does not decrypt/);
    writeFileSync(storePath, good.slice(0, good.length / 2));
    expect(await code(open().get("pw"))).toMatch(/^secret_unavailable: .*corrupt \(not JSON\)/);
    expect(await code(open().list())).toMatch(/^secret_unavailable: .*corrupt/);
    writeFileSync(storePath, JSON.stringify({ schema_version: "secrets_v9", entries: {} }));
    expect(await code(open().get("pw"))).toMatch(/^secret_unavailable: .*secrets_v9.*upgrade rpav/);
  });

  it("a key file others may read, or a damaged one, is refused", async () => {
    await open().set("pw", VALUE);
    chmodSync(keyPath, 0o644);
    expect(await code(open().get("pw"))).toMatch(/^secret_unavailable: .*can be read by others.*chmod 600/);
    chmodSync(keyPath, 0o600);
    writeFileSync(keyPath, "not a key\n");
    expect(await code(open().get("pw"))).toMatch(/^secret_unavailable: .*damaged/);
  });
});
