// Where the credential store's 256-bit data key lives: the OS keyring, or a key file.

export type SecretKeyKind = "keyring" | "key_file";

export interface SecretKeySource {
  readonly kind: SecretKeyKind;
  /** Where the key is, in words: "OS keyring (libsecret secret-tool), item service=rpav …", "key file /x/secrets.key (0600)". */
  readonly where: string;
  /** The key, or undefined when none was created yet. Throws RpaError `secret_unavailable` when it exists but cannot be read. */
  load(signal?: AbortSignal): Promise<Buffer | undefined>;
  /** Creates, keeps and returns a new random key (32 bytes). */
  create(signal?: AbortSignal): Promise<Buffer>;
}
