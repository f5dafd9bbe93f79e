// The one reader of `<data dir>/config.json` (composition root). Every section a command uses is
// validated here, once, with one zod schema: "vlm" (src/cli/vlm-config.ts), "retention" (rpav gc)
// and "secrets" (the key source, src/cli/secrets.ts). Sections and keys this build does not know
// are kept as they are (another tool or a newer rpav may have written them); a known section with
// a bad value, malformed JSON, a file that is not UTF-8 or is too big, and a `schema_version`
// other than config_v1 are typed errors naming the file and what to do.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { decodeUtf8Text, formatBytes, readBoundedFileSync } from "../core/bounded-read.js";
import { ConfigError, InvalidInputError, SchemaVersionError } from "../core/errors.js";
import { describeJsonValue } from "../core/json-safe.js";
import { formatJsonPath, parseJsonText } from "../core/schemas/documents.js";
import { parseDuration } from "../store/retention.js";

export const HttpUrlSchema = z.url({ protocol: /^https?$/ });
export const VlmApiSchema = z.enum(["ollama", "openai"]);
const RoleSection = z.strictObject({
  url: HttpUrlSchema.optional(),
  api: VlmApiSchema.optional(),
  model: z.string().min(1).optional(),
  /** Ollama options for this role (temperature, num_ctx, num_gpu: 0 to keep decisions on the CPU…). */
  options: z.record(z.string(), z.unknown()).optional(),
  keep_alive: z.union([z.string(), z.number()]).optional(),
  /** Grounding only: the model's coordinate convention, when its name does not tell. */
  coordinates: z.enum(["resized_pixels", "normalized_1000"]).optional(),
});
/** The "vlm" section (src/cli/vlm-config.ts resolves it with the environment); unknown keys refused. */
export const VlmFileSchema = z.strictObject({
  /** false: no model is asked unless a command says --vlm. */
  enabled: z.boolean().optional(),
  url: HttpUrlSchema.optional(),
  api: VlmApiSchema.optional(),
  timeout_ms: z.number().int().positive().optional(),
  retries: z.number().int().min(0).max(10).optional(),
  /** Answers kept on disk under <data dir>/cache/vlm (default true). */
  cache: z.boolean().optional(),
  api_key: z.string().optional(),
  /**
   * Region proposals by the grounding model when detecting (slow): off (default), new_screens (only
   * for a screen whose state embedding matches no stored state), always.
   */
  regions: z.enum(["off", "new_screens", "always"]).optional(),
  /** Cosine at or above which a stored state counts as the same screen (default 0.85). */
  new_screen_cosine: z.number().gt(0).max(1).optional(),
  roles: z.strictObject({ grounding: RoleSection.optional(), understanding: RoleSection.optional(), decision: RoleSection.optional() }).optional(),
});

export const CONFIG_FILE = "config.json";
/** The version this build reads and writes; a file without `schema_version` is read as this one. */
export const CONFIG_V1 = "config_v1";
/** A config file holds a few settings; anything bigger is not one. */
export const CONFIG_MAX_BYTES = 1024 * 1024;

const Duration = z.string().superRefine((v, ctx) => {
  try {
    parseDuration(v);
  } catch {
    ctx.addIssue({ code: "custom", message: `${JSON.stringify(v)} is not an age: write a number and a unit, e.g. 30d (days), 12h, 90m, 2w` });
  }
});

/** Element detectors: the rules, the model in models/ui-detector, or the model with the rules' elements it missed. */
export const DetectorKindSchema = z.enum(["rules", "learned", "hybrid"]);
export type DetectorKind = z.infer<typeof DetectorKindSchema>;
/** How one-shot commands use the detection daemon (src/cli/detect-daemon.ts). */
export const DaemonModeSchema = z.enum(["off", "on", "auto"]);
export type DaemonMode = z.infer<typeof DaemonModeSchema>;

export const ConfigFileSchema = z.looseObject({
  schema_version: z.literal(CONFIG_V1).optional(),
  vlm: VlmFileSchema.optional(),
  /** rpav gc's default age limit. */
  retention: z.looseObject({ older_than: Duration.optional() }).optional(),
  /** Where the credential store's key lives (RPAV_SECRET_KEY overrides it). */
  secrets: z.looseObject({ key: z.enum(["auto", "keyring", "file"]).optional() }).optional(),
  /** The element detector of every command that perceives (RPAV_DETECTOR and --detector override it). */
  perception: z.looseObject({ detector: DetectorKindSchema.optional(), daemon: DaemonModeSchema.optional() }).optional(),
});
export type ConfigFile = z.infer<typeof ConfigFileSchema>;

export interface LoadedConfig {
  /** The file read, for messages and `rpav vlm status`. */
  readonly file: string;
  readonly config: ConfigFile;
}

const fixHint = "fix it, or move it away to use the defaults";

/** Reads and validates `<dataDir>/config.json`; undefined when there is none. */
export function readConfigFile(dataDir: string): LoadedConfig | undefined {
  const file = join(dataDir, CONFIG_FILE);
  if (!existsSync(file)) return undefined;
  let doc: unknown;
  try {
    doc = parseJsonText(decodeUtf8Text(readBoundedFileSync(file, CONFIG_MAX_BYTES), file), file);
  } catch (e) {
    if (!(e instanceof InvalidInputError)) throw e;
    const max = e.details.maxBytes;
    const message = typeof max === "number" ? `${file}: bigger than the ${formatBytes(max)} limit of a config file (it holds a few settings); is it the right file? ${fixHint}.` : `${e.message} (${fixHint})`;
    throw new ConfigError(message, { cause: e, details: { ...e.details, source: file } });
  }
  if (typeof doc !== "object" || doc === null || Array.isArray(doc)) throw new ConfigError(`${file}: expected a JSON object such as {"vlm": {…}}, got ${describeJsonValue(doc)}; ${fixHint}.`, { details: { source: file } });
  const version = (doc as Record<string, unknown>).schema_version;
  if (version !== undefined && version !== CONFIG_V1) {
    const m = typeof version === "string" ? /^config_v(\d+)$/.exec(version) : null;
    const newer = m !== null && Number(m[1]) > 1;
    throw new SchemaVersionError(`${file}: schema_version ${describeJsonValue(version)} is not ${CONFIG_V1}, the one this rpav reads. ${newer ? "It was written for a newer RPA Vision: upgrade rpav, or remove the settings it added." : `Write "schema_version": "${CONFIG_V1}" or leave it out.`}`, { details: { source: file, version, known: [CONFIG_V1] } });
  }
  const r = ConfigFileSchema.safeParse(doc);
  if (!r.success) {
    const issues = r.error.issues.map((i) => ({ path: formatJsonPath(i.path), message: i.message }));
    throw new ConfigError(`${file}: ${issues.map((i) => `${i.path.replace(/^\$\.?/, "")}: ${i.message}`).join("; ")}. Fix ${issues.length === 1 ? "this value" : "these values"} (see README, Configuration).`, { details: { source: file, issues } });
  }
  return { file, config: r.data };
}
