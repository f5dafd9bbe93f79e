// Programs the replay starts (--before-row, the workflow's launch command, the planner's --app)
// never get a secret: not in RPAV_VAR_<NAME>, not through the environment variable that carries it.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { LOGIN_SECRET_ENV, loginWorkflow } from "../../test/support/login-workflow.js";
import { rowCommand, withoutSecretEnv } from "./commands/replay.js";

const SECRET = "pw-Ksj3-772";
const dir = mkdtempSync(join(tmpdir(), "rpav-before-row-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const wf = loginWorkflow({ secretEnv: LOGIN_SECRET_ENV });

describe("--before-row and started programs", () => {
  it("get the row's plain values, never a secret's value nor the variable that carries it", async () => {
    const out = join(dir, "env.txt");
    const run = rowCommand(`env > ${out}.tmp; printf '%s\\n' "$0" "$@" >> ${out}.tmp; mv ${out}.tmp ${out}`, { ...process.env, [LOGIN_SECRET_ENV]: SECRET }, wf, () => undefined);
    await run(0, { nom: "Martin", mot_de_passe: SECRET });
    for (let i = 0; i < 50 && !existsSync(out); i++) await new Promise((r) => setTimeout(r, 100));
    const seen = readFileSync(out, "utf8");
    expect(seen).toContain("RPAV_VAR_NOM=Martin");
    expect(seen).toContain("RPAV_ROW=1");
    expect(seen).not.toContain("RPAV_VAR_MOT_DE_PASSE");
    expect(seen).not.toContain(LOGIN_SECRET_ENV);
    expect(seen).not.toContain(SECRET);
    expect(withoutSecretEnv({ PATH: "/bin", [LOGIN_SECRET_ENV]: SECRET }, wf)).toEqual({ PATH: "/bin" });
  });
});
