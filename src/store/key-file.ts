// The credential store's data key in a file of the data directory, 0600, owned by the user: the
// fallback where no OS keyring works (servers, containers, no D-Bus secret service). A key file
// that others may read is refused rather than used.
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, lstatSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { readBoundedFileSync } from "../core/bounded-read.js";
import { RpaError, SecretUnavailableError } from "../core/errors.js";
import type { SecretKeySource } from "../core/providers/secret-key-source.js";

export class KeyFile implements SecretKeySource {
  readonly kind = "key_file" as const;
  readonly where: string;
  constructor(private readonly path: string) {
    this.where = `key file ${path} (0600)`;
  }

  async load(): Promise<Buffer | undefined> {
    if (!existsSync(this.path)) return undefined;
    const st = lstatSync(this.path);
    if (!st.isFile()) throw new SecretUnavailableError(`The credential store's key file ${this.path} is not a regular file: remove what is there and restore the key file.`, { details: { key: this.path } });
    if ((st.mode & 0o077) !== 0) throw new SecretUnavailableError(`The credential store's key file ${this.path} can be read by others (mode ${(st.mode & 0o777).toString(8)}): make it private (chmod 600 ${this.path}), then consider the secrets exposed and set them again.`, { details: { key: this.path, mode: st.mode & 0o777 } });
    if (typeof process.getuid === "function" && st.uid !== process.getuid()) throw new SecretUnavailableError(`The credential store's key file ${this.path} belongs to another user (uid ${st.uid}): run rpav as its owner.`, { details: { key: this.path } });
    try {
      const text = readBoundedFileSync(this.path, 4096).toString("utf8").trim();
      const key = Buffer.from(text, "base64");
      if (key.length !== 32 || !/^[A-Za-z0-9+/]+=*$/.test(text)) throw new SecretUnavailableError(`The credential store's key file ${this.path} is damaged (not a 256-bit key in base64): restore it from a backup.`, { details: { key: this.path } });
      return key;
    } catch (e) {
      if (e instanceof SecretUnavailableError) throw e;
      throw new SecretUnavailableError(`The credential store's key file ${this.path} cannot be read${e instanceof RpaError ? ` (${e.message})` : ""}: check its permissions.`, { cause: e, details: { key: this.path } });
    }
  }

  async create(): Promise<Buffer> {
    const key = randomBytes(32);
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    writeFileSync(this.path, `${key.toString("base64")}\n`, { mode: 0o600, flag: "wx" });
    chmodSync(this.path, 0o600);
    return key;
  }
}
