// The "Login" workflow of the secret tests (src/cli/replay-secrets.test.ts,
// src/planner/bind-secrets.test.ts): a plain variable and a secret one, no steps. Only the parts
// the binder and the replay's environment filter read are filled in.
import type { Workflow } from "../../src/core/schemas/workflow.js";

/** The environment variable that carries the secret in the tests that give it one. */
export const LOGIN_SECRET_ENV = "RPAV_TEST_LOGIN_PW";

/** "nom" (plain, example "Durand") and "mot_de_passe" (secret; `secretEnv` names the variable that carries it). */
export function loginWorkflow(opts: { secretEnv?: string } = {}): Workflow {
  return {
    schema_version: "workflow_v1",
    workflow_id: "wf_login",
    name: "Login",
    variables: [
      { name: "nom", type: "name", example: "Durand", secret: false, steps: [] },
      { name: "mot_de_passe", type: "secret", example: null, secret: true, steps: [], ...(opts.secretEnv ? { secret_env: opts.secretEnv } : {}) },
    ],
    steps: [],
  } as unknown as Workflow;
}
