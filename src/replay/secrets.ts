// Secret variables at run time. Their values come from safe places only, in this order: values
// handed over in memory (a --vars-file consumed by the CLI, the studio), the environment variable
// the workflow names (`secret_env`), the credential store (`secret_name`, else the variable's
// name), a prompt on the terminal. Never from argv (--var) or a plain CSV column: those are
// refused with a typed error naming the safe ways. Values are never written (the trace masks them)
// and never passed to --before-row commands.
import { InvalidInputError, SecretUnavailableError } from "../core/errors.js";
import type { SecretStore } from "../core/providers/secret-store.js";
import type { Workflow, WorkflowVariable } from "../core/schemas/workflow.js";

export interface SecretSources {
  /** Values handed over in memory (never argv). */
  given?: Readonly<Record<string, string>>;
  env?: NodeJS.ProcessEnv;
  store?: SecretStore;
  /** Asks a person (a terminal, without echo); absent when there is no terminal. */
  prompt?: (question: string) => Promise<string>;
}

export interface ResolvedSecrets {
  values: Record<string, string>;
  /** Where each value came from, in words ("credential store « x »", "environment RPAV_PW", "prompt"). */
  from: Record<string, string>;
}

export function secretVariables(workflow: Workflow): WorkflowVariable[] {
  return workflow.variables.filter((v) => v.secret);
}

/** The credential store entry of a secret variable. */
export function secretStoreName(v: WorkflowVariable): string {
  return v.secret_name ?? v.name;
}

/** The safe ways to give a secret variable, in words (error messages, --help). */
export function safeWays(v: WorkflowVariable): string {
  const name = secretStoreName(v);
  return [`store it once with \`rpav secret set ${name}\``, v.secret_env ? `set the environment variable ${v.secret_env}` : `name an environment variable for it (\`rpav workflow vars <workflow.json> --secret-env ${v.name}=MY_VAR\`)`, "or run on a terminal to be asked for it"].join(", ");
}

/** Values for secret variables given where anyone may read them (argv, a plain CSV): refused before anything runs. */
export function refuseExposedSecrets(workflow: Workflow, names: Iterable<string>, where: string): void {
  const given = new Set(names);
  const bad = secretVariables(workflow).filter((v) => given.has(v.name));
  if (bad.length === 0) return;
  throw new InvalidInputError(
    `${where}: ${bad.map((v) => `"${v.name}"`).join(", ")} ${bad.length === 1 ? "is a secret variable" : "are secret variables"}; a secret is never taken from ${where} (other users see the command line in \`ps\`, the shell keeps it in its history, a CSV file is plain text). Nothing was run. Instead: ${bad.map((v) => `${v.name}: ${safeWays(v)}`).join("; ")}.`,
    { details: { secret_variables: bad.map((v) => v.name), where } },
  );
}

/**
 * Every secret variable's value, from the safe places; one SecretUnavailableError listing each
 * one found nowhere (and how to give it) before anything runs. A store that cannot be read (corrupt,
 * wrong or missing key) throws its own `secret_unavailable` error.
 */
export async function resolveSecrets(workflow: Workflow, sources: SecretSources): Promise<ResolvedSecrets> {
  const out: ResolvedSecrets = { values: {}, from: {} };
  const missing: WorkflowVariable[] = [];
  for (const v of secretVariables(workflow)) {
    const given = sources.given && Object.hasOwn(sources.given, v.name) ? sources.given[v.name] : undefined;
    const fromEnv = v.secret_env ? sources.env?.[v.secret_env] : undefined;
    let value: string | undefined;
    if (given !== undefined && given !== "") [value, out.from[v.name]] = [given, "handed over (vars file)"];
    else if (fromEnv !== undefined && fromEnv !== "") [value, out.from[v.name]] = [fromEnv, `environment ${v.secret_env}`];
    else {
      const stored = sources.store ? await sources.store.get(secretStoreName(v)) : undefined;
      if (stored !== undefined) [value, out.from[v.name]] = [stored, `credential store « ${secretStoreName(v)} »`];
      else if (sources.prompt) {
        const typed = await sources.prompt(`Secret « ${v.name} »${v.description ? ` (${v.description})` : ""}: `);
        if (typed !== "") [value, out.from[v.name]] = [typed, "prompt"];
      }
    }
    if (value === undefined) missing.push(v);
    else out.values[v.name] = value;
  }
  if (missing.length > 0)
    throw new SecretUnavailableError(`No value for the secret variable${missing.length > 1 ? "s" : ""} ${missing.map((v) => `"${v.name}"`).join(", ")} of « ${workflow.name} »; nothing was run. ${missing.map((v) => `${v.name}: ${safeWays(v)}`).join("; ")}.`, {
      details: { missing: missing.map((v) => ({ name: v.name, store: secretStoreName(v), env: v.secret_env ?? null })) },
    });
  return out;
}

/** Where each secret would come from without asking anyone (a dry run): undefined when from nowhere. */
export async function secretAvailability(workflow: Workflow, sources: Omit<SecretSources, "prompt">): Promise<Record<string, string | undefined>> {
  const out: Record<string, string | undefined> = {};
  for (const v of secretVariables(workflow)) {
    if (sources.given?.[v.name]) out[v.name] = "handed over (vars file)";
    else if (v.secret_env && sources.env?.[v.secret_env]) out[v.name] = `environment ${v.secret_env}`;
    else if (sources.store && (await sources.store.list()).includes(secretStoreName(v))) out[v.name] = `credential store « ${secretStoreName(v)} »`;
    else out[v.name] = undefined;
  }
  return out;
}
