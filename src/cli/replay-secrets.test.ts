// Programs the replay starts (--before-row, the workflow's launch command, the planner's --app)
// never get a secret: not in RPAV_VAR_<NAME>, not through the environment variable that carries it.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Workflow } from "../core/schemas/workflow.js";
import { rowCommand, withoutSecretEnv } from "./commands/replay.js";

const SECRET = "pw-Ksj3-772";
const dir = mkdtempSync(join(tmpdir(), "rpav-before-row-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const wf = {
  schema_version: "workflow_v1",
  workflow_id: "wf_login",
  name: "Login",
  variables: [
    { name: "nom", type: "name", example: "Durand", secret: false, steps: [] },
    { name: "mot_de_passe", type: "secret", example: null, secret: true, steps: [], secret_env: "RPAV_TEST_LOGIN_PW" },
  ],
  steps: [],
} as unknown as Workflow;

describe("--before-row and started programs", () => {
  it("get the row's plain values, never a secret's value nor the variable that carries it", async () => {
    const out = join(dir, "env.txt");
    const run = rowCommand(`env > ${out}.tmp; printf '%s\\n' "$0" "$@" >> ${out}.tmp; mv ${out}.tmp ${out}`, { ...process.env, RPAV_TEST_LOGIN_PW: SECRET }, wf, () => undefined);
    await run(0, { nom: "Martin", mot_de_passe: SECRET });
    for (let i = 0; i < 50 && !existsSync(out); i++) await new Promise((r) => setTimeout(r, 100));
    const seen = readFileSync(out, "utf8");
    expect(seen).toContain("RPAV_VAR_NOM=Martin");
    expect(seen).toContain("RPAV_ROW=1");
    expect(seen).not.toContain("RPAV_VAR_MOT_DE_PASSE");
    expect(seen).not.toContain("RPAV_TEST_LOGIN_PW");
    expect(seen).not.toContain(SECRET);
    expect(withoutSecretEnv({ PATH: "/bin", RPAV_TEST_LOGIN_PW: SECRET }, wf)).toEqual({ PATH: "/bin" });
  });
});
