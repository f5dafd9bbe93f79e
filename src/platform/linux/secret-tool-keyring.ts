// The credential store's data key in the OS keyring, through Debian libsecret's `secret-tool`
// (package libsecret-tools). It needs a D-Bus session with a secret service (GNOME Keyring,
// KeePassXC…), which servers usually lack: `probeKeyring` says whether it works here, and the
// composition root falls back to a key file when it does not.
import { createHash, randomBytes } from "node:crypto";
import { RpaError, SecretUnavailableError } from "../../core/errors.js";
import type { SecretKeySource } from "../../core/providers/secret-key-source.js";
import { runCommand } from "../../core/process.js";

const SERVICE = "rpav-vision";
const TIMEOUT_MS = 8000;

export interface KeyringProbe {
  ok: boolean;
  /** Why not, in words (missing program, no D-Bus session, no secret service…). */
  why: string;
}

/** Whether `secret-tool` is installed and a secret service answers (a lookup that finds nothing counts as working). */
export async function probeKeyring(env: NodeJS.ProcessEnv, signal?: AbortSignal): Promise<KeyringProbe> {
  try {
    const r = await runCommand("secret-tool", ["lookup", "service", SERVICE, "probe", "1"], { env, timeoutMs: TIMEOUT_MS, check: false, ...(signal ? { signal } : {}) });
    if (r.code === 0 || (r.code === 1 && r.stderr.trim() === "")) return { ok: true, why: "secret-tool answers (a D-Bus secret service is running)" };
    return { ok: false, why: `secret-tool is installed but no secret service answers (${r.stderr.trim().split("\n")[0]?.slice(0, 160) || `exit ${r.code}`})` };
  } catch (e) {
    if (e instanceof RpaError && e.code === "provider_unavailable") return { ok: false, why: "secret-tool is not installed (Debian package libsecret-tools)" };
    return { ok: false, why: `secret-tool did not answer (${e instanceof Error ? e.message : String(e)})` };
  }
}

export class SecretToolKeyring implements SecretKeySource {
  readonly kind = "keyring" as const;
  readonly where: string;
  private readonly item: string;
  /** `scope` tells data directories apart (one key per directory): its absolute path. */
  constructor(
    scope: string,
    private readonly env: NodeJS.ProcessEnv,
  ) {
    this.item = createHash("sha256").update(scope).digest("hex").slice(0, 16);
    this.where = `OS keyring (libsecret secret-tool), item service=${SERVICE} store=${this.item}`;
  }

  private unavailable(what: string, cause?: unknown): SecretUnavailableError {
    return new SecretUnavailableError(`The credential store's key in the OS keyring ${what}: unlock the keyring (a desktop session with a secret service), or restore the key.`, { ...(cause !== undefined ? { cause } : {}), details: { key: this.where } });
  }

  async load(signal?: AbortSignal): Promise<Buffer | undefined> {
    let r;
    try {
      r = await runCommand("secret-tool", ["lookup", "service", SERVICE, "store", this.item], { env: this.env, timeoutMs: TIMEOUT_MS, check: false, ...(signal ? { signal } : {}) });
    } catch (e) {
      throw this.unavailable(`cannot be read (${e instanceof Error ? e.message : String(e)})`, e);
    }
    if (r.code === 1 && r.stderr.trim() === "" && r.stdout === "") return undefined;
    if (r.code !== 0) throw this.unavailable(`cannot be read (${r.stderr.trim().slice(0, 200) || `exit ${r.code}`})`);
    const key = Buffer.from(r.stdout.trim(), "base64");
    if (key.length !== 32) throw this.unavailable("is damaged (not a 256-bit key)");
    return key;
  }

  async create(signal?: AbortSignal): Promise<Buffer> {
    const key = randomBytes(32);
    const r = await runCommand("secret-tool", ["store", "--label=RPA Vision credential store key", "service", SERVICE, "store", this.item], { env: this.env, timeoutMs: TIMEOUT_MS, input: key.toString("base64"), check: false, ...(signal ? { signal } : {}) });
    if (r.code !== 0) throw this.unavailable(`cannot be written (${r.stderr.trim().slice(0, 200) || `exit ${r.code}`})`);
    const back = await this.load(signal);
    if (!back?.equals(key)) throw this.unavailable("was written but does not read back the same");
    return key;
  }
}
