// One family of failures. Expected outcomes (no match, element not found) are values, not errors.
// Codes are stable strings: scripts, the CLI and other processes may branch on them.
// `errors.test.ts` pins the exported list; adding a code is fine, renaming one is a breaking change.

export interface RpaErrorOptions {
  cause?: unknown;
  /** Structured details for logs and JSON output (file path, byte offset, known names…). */
  details?: Record<string, unknown>;
}

export class RpaError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, options: RpaErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.details = options.details ?? {};
  }

  toJSON(): { name: string; code: ErrorCode; message: string; details: Record<string, unknown> } {
    return { name: this.name, code: this.code, message: this.message, details: this.details };
  }
}

/** Input that cannot be used as given: malformed JSON, corrupt image, file too large, bad argument. */
export class InvalidInputError extends RpaError {
  constructor(message: string, options?: RpaErrorOptions) {
    super("invalid_input", message, options);
  }
}

/** A document that parsed but does not follow its schema. `issues` lists every problem with its JSON path. */
export class SchemaValidationError extends RpaError {
  readonly issues: readonly ValidationIssue[];
  constructor(message: string, issues: readonly ValidationIssue[], options?: RpaErrorOptions) {
    super("schema_invalid", message, { ...options, details: { ...options?.details, issues } });
    this.issues = issues;
  }
}

export interface ValidationIssue {
  /** JSONPath-like location, e.g. `$.ui_elements[0].bbox[2]`. */
  path: string;
  message: string;
}

/** A `schema_version` (or database schema) this build does not read: unknown, or newer than the code. */
export class SchemaVersionError extends RpaError {
  constructor(message: string, options?: RpaErrorOptions) {
    super("schema_version", message, options);
  }
}

/** A `.npy` file that is truncated, malformed, or of a dtype/order we do not read. */
export class NpyFormatError extends RpaError {
  constructor(message: string, options?: RpaErrorOptions) {
    super("npy_format", message, options);
  }
}

/** Vectors that cannot be combined: different dimensions, different providers, NaN or Infinity. */
export class VectorError extends RpaError {
  constructor(message: string, options?: RpaErrorOptions) {
    super("vector_invalid", message, options);
  }
}

/** A provider (OCR data, model folder, VLM server, native module) is missing or unreachable. */
export class ProviderUnavailableError extends RpaError {
  constructor(message: string, options?: RpaErrorOptions) {
    super("provider_unavailable", message, options);
  }
}

/** A provider name that no registry knows. The message lists the known names. */
export class UnknownProviderError extends RpaError {
  constructor(kind: string, name: string, known: readonly string[]) {
    super("unknown_provider", `Unknown ${kind} provider "${name}". Known: ${known.join(", ") || "(none)"}.`, {
      details: { kind, name, known },
    });
  }
}

/** Configuration that does not validate (CLI options, environment variables, config files). */
export class ConfigError extends RpaError {
  constructor(message: string, options?: RpaErrorOptions) {
    super("invalid_config", message, options);
  }
}

export class TimeoutError extends RpaError {
  constructor(message: string, options?: RpaErrorOptions) {
    super("timeout", message, options);
  }
}

/** The caller's AbortSignal fired. */
export class AbortedError extends RpaError {
  constructor(message = "The operation was aborted.", options?: RpaErrorOptions) {
    super("aborted", message, options);
  }
}

/** No X display / screen to capture or drive. */
export class DisplayUnavailableError extends RpaError {
  constructor(message: string, options?: RpaErrorOptions) {
    super("display_unavailable", message, options);
  }
}

/** The window we were waiting for, or acting on, is not there (never appeared, or closed). */
export class WindowNotFoundError extends RpaError {
  constructor(message: string, options?: RpaErrorOptions) {
    super("window_not_found", message, options);
  }
}

/** Storage failures: unwritable directory, full disk, corrupt database, failed transaction. */
export class StoreError extends RpaError {
  constructor(message: string, options?: RpaErrorOptions) {
    super("store_error", message, options);
  }
}

/** A step's target was not found on the screen (also a step result's code). */
export class TargetNotFoundError extends RpaError {
  constructor(message: string, options?: RpaErrorOptions) {
    super("target_not_found", message, options);
  }
}

/** Several candidates fit a step's target equally well, and nothing tells them apart. */
export class TargetAmbiguousError extends RpaError {
  constructor(message: string, options?: RpaErrorOptions) {
    super("target_ambiguous", message, options);
  }
}

/** A step's post-conditions do not hold after it acted. */
export class PostcheckFailedError extends RpaError {
  constructor(message: string, options?: RpaErrorOptions) {
    super("postcheck_failed", message, options);
  }
}

/** Perception of a whole screen failed (a result's code: the screen state then carries the failure). */
export class DetectorFailedError extends RpaError {
  constructor(message: string, options?: RpaErrorOptions) {
    super("detector_failed", message, options);
  }
}

/** Perception of one region failed; the rest of the screen is still read (a result's code). */
export class RegionFailedError extends RpaError {
  constructor(message: string, options?: RpaErrorOptions) {
    super("region_failed", message, options);
  }
}

/** The run needs a person's answer (the design's "mode assisté") and none can be asked here. */
export class AssistNeededError extends RpaError {
  constructor(message: string, options?: RpaErrorOptions) {
    super("assist_needed", message, options);
  }
}

/** A dangerous action (delete, pay, send…) that no policy allows. */
export class DangerousActionBlockedError extends RpaError {
  constructor(message: string, options?: RpaErrorOptions) {
    super("dangerous_action_blocked", message, options);
  }
}

/** Several stored workflows fit an instruction equally well. The message names them. */
export class AmbiguousWorkflowError extends RpaError {
  constructor(message: string, options?: RpaErrorOptions) {
    super("ambiguous_workflow", message, options);
  }
}

/** A model's answer that does not validate against its schema, after the retry. Model answers are untrusted. */
export class ModelAnswerInvalidError extends RpaError {
  constructor(message: string, options?: RpaErrorOptions) {
    super("model_answer_invalid", message, options);
  }
}

/** A secret variable whose value is in none of the safe places (credential store, named environment variable, prompt). */
export class SecretUnavailableError extends RpaError {
  constructor(message: string, options?: RpaErrorOptions) {
    super("secret_unavailable", message, options);
  }
}

/** A plan another live process is running or resuming now (the message names the plan and its pid). */
export class PlanLockedError extends RpaError {
  constructor(message: string, options?: RpaErrorOptions) {
    super("plan_locked", message, options);
  }
}

/** Every code this package can throw or write in a result, for documentation and the pinning test. */
export const ERROR_CODES = [
  "aborted",
  "ambiguous_workflow",
  "assist_needed",
  "command_failed",
  "dangerous_action_blocked",
  "detector_failed",
  "display_unavailable",
  "invalid_config",
  "invalid_input",
  "model_answer_invalid",
  "npy_format",
  "plan_locked",
  "postcheck_failed",
  "provider_unavailable",
  "region_failed",
  "schema_invalid",
  "schema_version",
  "secret_unavailable",
  "store_error",
  "target_ambiguous",
  "target_not_found",
  "timeout",
  "unknown_provider",
  "vector_invalid",
  "window_not_found",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export function isRpaError(e: unknown): e is RpaError {
  return e instanceof RpaError;
}

/** Throws AbortedError when the signal has fired. Call between units of work in long operations. */
export function throwIfAborted(signal: AbortSignal | undefined, what = "operation"): void {
  if (signal?.aborted) throw new AbortedError(`The ${what} was aborted.`, { cause: signal.reason });
}
