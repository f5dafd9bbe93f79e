// The credential store: named secrets (passwords, tokens) kept encrypted at rest, read by replay
// and the planner for the workflow variables marked secret. Values never travel through argv.

export interface SecretStore {
  /** Where the values and their key live, in words (for `rpav doctor` and `rpav secret list`). */
  describe(): Promise<string>;
  /** Stores (or replaces) a value. */
  set(name: string, value: string): Promise<void>;
  /** The value, or undefined when no secret has that name. Throws RpaError `secret_unavailable` when the store cannot be read (corrupt, wrong or missing key). */
  get(name: string): Promise<string | undefined>;
  /** Names only, sorted. */
  list(): Promise<string[]>;
  /** True when a secret of that name was there. */
  remove(name: string): Promise<boolean>;
}
