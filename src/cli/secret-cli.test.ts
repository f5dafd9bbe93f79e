// `rpav secret set|list|rm` and secret variables in `rpav replay`, run as a user would (the built
// CLI, real processes, stdin and a pseudo-terminal through util-linux `script`).
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT } from "../../test/support/cli.js";
import type { Workflow } from "../core/schemas/workflow.js";

const SECRET = "Zq9-hunter2-Ü";
const root = mkdtempSync(join(tmpdir(), "rpav-secret-cli-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
// No keyring here unless asked: the tests that need one choose it.
const baseEnv = { ...process.env, DISPLAY: "", RPAV_SECRET_KEY: "", RPAV_LOG: "silent" };

function rpav(args: string[], opts: { home: string; input?: string; env?: NodeJS.ProcessEnv }) {
  const r = spawnSync(process.execPath, [`${ROOT}bin/rpav.js`, ...args], { cwd: ROOT, env: { ...baseEnv, RPAV_HOME: opts.home, ...opts.env }, input: opts.input ?? "", encoding: "utf8", timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function home(name: string): string {
  return join(root, name);
}

/** Every byte rpav left in a folder, for a search. */
function allBytes(dir: string): Buffer {
  return Buffer.concat(readdirSync(dir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).map((d) => readFileSync(join(d.parentPath, d.name))));
}

function workflowWithSecret(dir: string, extra: Partial<Workflow["variables"][number]> = {}): string {
  const demo = JSON.parse(readFileSync(join(ROOT, "demos/yad-patient/workflow.json"), "utf8")) as Workflow;
  const wf: Workflow = { ...demo, variables: [...demo.variables, { name: "mot_de_passe", type: "secret", example: null, secret: true, steps: [], ...extra }] };
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "workflow.json");
  writeFileSync(file, JSON.stringify(wf));
  return file;
}

describe("rpav secret", () => {
  it("set from stdin, list names only, rm; the value is on no output and in no file; doctor names the key file", () => {
    const h = home("stdin");
    const fresh = (JSON.parse(rpav(["doctor", "--json"], { home: h }).stdout) as { name: string; detail: string }[]).find((c) => c.name === "secrets");
    // No secret service answers on this machine (secret-tool missing, or no D-Bus secret service): the key file it is.
    expect(fresh?.detail).toMatch(/^0 in .*key: key file .*secrets\.key \(0600\) — no OS keyring: secret-tool (is not installed|is installed but no secret service answers)/);
    const set = rpav(["secret", "set", "mot_de_passe"], { home: h, input: `${SECRET}\n` });
    expect(set.code, set.stderr).toBe(0);
    expect(set.stderr).toMatch(/stored « mot_de_passe » in .*secrets\.json, AES-256-GCM, key: key file .*secrets\.key \(0600\)/);
    expect(rpav(["secret", "set", "token"], { home: h, input: "abc" }).code).toBe(0);
    const list = rpav(["secret", "list"], { home: h });
    expect(list.code).toBe(0);
    expect(list.stdout).toBe("mot_de_passe\ntoken\n");
    const doctor = rpav(["doctor", "--json"], { home: h });
    const line = (JSON.parse(doctor.stdout) as { name: string; status: string; detail: string }[]).find((c) => c.name === "secrets");
    expect(line?.status).toBe("ok");
    expect(line?.detail, doctor.stdout).toMatch(/^2 in .*secrets\.json \(AES-256-GCM\); key: key file .*secrets\.key \(0600\) — the store was made with a key file/);
    for (const out of [set.stdout, set.stderr, list.stdout, list.stderr, doctor.stdout]) expect(out).not.toContain(SECRET);
    expect(allBytes(h).includes(Buffer.from(SECRET))).toBe(false);
    expect(statSync(join(h, "secrets.key")).mode & 0o777).toBe(0o600);
    expect(statSync(join(h, "secrets.json")).mode & 0o777).toBe(0o600);
    expect(rpav(["secret", "rm", "token"], { home: h }).code).toBe(0);
    const again = rpav(["secret", "rm", "token"], { home: h });
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/no secret named « token »/);
    expect(rpav(["secret", "list"], { home: h }).stdout).toBe("mot_de_passe\n");
  });

  it("on a terminal: asked twice without echo; the value never appears on the terminal", async () => {
    const h = home("tty");
    // util-linux `script` gives the command a pseudo-terminal; keys are sent once the prompt shows.
    const child = spawn("script", ["-qfec", `${process.execPath} ${ROOT}bin/rpav.js secret set pw`, "/dev/null"], { cwd: ROOT, env: { ...baseEnv, RPAV_HOME: h }, stdio: ["pipe", "pipe", "pipe"] });
    let screen = "";
    const sent = new Set<string>();
    const exit = new Promise<number | null>((res) => child.once("exit", res));
    child.stdout.on("data", (d: Buffer) => {
      screen += d.toString("utf8");
      for (const prompt of ["Value for", "Again, to confirm"])
        if (screen.includes(prompt) && !sent.has(prompt)) {
          sent.add(prompt);
          child.stdin.write(`${SECRET}\r`);
        }
    });
    const code = await exit;
    expect(code, screen).toBe(0);
    expect(screen).toMatch(/Value for « pw »: .*\r?\n.*Again, to confirm: /s);
    expect(screen).toMatch(/stored « pw »/);
    expect(screen).not.toContain(SECRET);
    expect(screen).not.toContain(SECRET.slice(0, 4));
  }, 60_000);

  it("a wrong key and a keyring that does not work are typed errors naming what to do", () => {
    const h = home("wrong");
    expect(rpav(["secret", "set", "mot_de_passe"], { home: h, input: SECRET }).code).toBe(0);
    writeFileSync(join(h, "secrets.key"), `${Buffer.alloc(32, 7).toString("base64")}\n`, { mode: 0o600 });
    const wf = workflowWithSecret(h);
    const r = rpav(["replay", wf], { home: h });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/rpav: error \[secret_unavailable\]: The credential store .* was encrypted with another key .*restore the key/);
    // Chosen keyring where none answers (no secret service here): typed, and no key file is made.
    const k = home("keyring");
    const kr = rpav(["secret", "set", "pw"], { home: k, input: SECRET, env: { RPAV_SECRET_KEY: "keyring", DBUS_SESSION_BUS_ADDRESS: "unix:path=/nonexistent" } });
    expect(kr.code).toBe(1);
    expect(kr.stderr).toMatch(/rpav: error \[secret_unavailable\]: The credential store's key in the OS keyring cannot be (read|written).*unlock the keyring/);
    expect(existsSync(join(k, "secrets.key"))).toBe(false);
    const bad = rpav(["secret", "list"], { home: k, env: { RPAV_SECRET_KEY: "vault" } });
    expect(bad.stderr).toMatch(/\[invalid_config\]: RPAV_SECRET_KEY = "vault": write auto, keyring or file/);
  });
});

describe("secret variables in rpav replay", () => {
  it("--var and a CSV column for a secret are refused, naming the safe ways; nothing runs", () => {
    const h = home("argv");
    const wf = workflowWithSecret(h, { secret_env: "RPAV_TEST_PW" });
    const r = rpav(["replay", wf, "--var", `mot_de_passe=${SECRET}`, "--var", "nom=Durand"], { home: h });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/\[invalid_input\]: --var: "mot_de_passe" is a secret variable; a secret is never taken from --var .*rpav secret set mot_de_passe.*environment variable RPAV_TEST_PW.*terminal/);
    expect(r.stderr).not.toContain(SECRET);
    const csv = join(h, "rows.csv");
    writeFileSync(csv, `nom;mot_de_passe\nDurand;${SECRET}\n`);
    const c = rpav(["replay", wf, "--data", csv], { home: h });
    expect(c.stderr).toMatch(/\[invalid_input\]: the CSV file .*rows\.csv: "mot_de_passe" is a secret variable/);
    expect(existsSync(join(h, "runs"))).toBe(false);
  });

  it("a secret found nowhere is secret_unavailable; the store, the named environment variable and a 0600 --vars-file (deleted once read) each provide it", () => {
    const h = home("sources");
    const wf = workflowWithSecret(h, { secret_env: "RPAV_TEST_PW" });
    // `nom` and the others stay unbound on purpose: the binding that follows the secret names them, before any desktop is touched.
    const none = rpav(["replay", wf], { home: h });
    expect(none.stderr).toMatch(/\[secret_unavailable\]: No value for the secret variable "mot_de_passe" of « Nouveau patient »; nothing was run\. mot_de_passe: store it once with `rpav secret set mot_de_passe`, set the environment variable RPAV_TEST_PW/);
    const passed = /\[invalid_input\]: Missing variable values, nothing was run: nom /;
    const env = rpav(["replay", wf], { home: h, env: { RPAV_TEST_PW: SECRET } });
    expect(env.stderr).toMatch(passed);
    expect(env.stderr).not.toMatch(/mot_de_passe/);
    expect(rpav(["secret", "set", "mot_de_passe"], { home: h, input: SECRET }).code).toBe(0);
    expect(rpav(["replay", wf], { home: h }).stderr).toMatch(passed);
    // Another store entry named by the workflow.
    const wf2 = workflowWithSecret(join(h, "other"), { secret_name: "erp.admin" });
    expect(rpav(["replay", wf2], { home: h }).stderr).toMatch(/\[secret_unavailable\].*rpav secret set erp\.admin/);
    // The environment variable named afterwards with `rpav workflow vars` (stored as a new version too).
    const wf3 = workflowWithSecret(join(h, "named"));
    const named = rpav(["workflow", "vars", wf3, "--secret-env", "mot_de_passe=RPAV_TEST_PW2"], { home: h });
    expect(named.code, named.stderr).toBe(0);
    expect(named.stdout).toMatch(/mot_de_passe\tsecret\t\(secret, env RPAV_TEST_PW2\)/);
    expect(rpav(["workflow", "vars", wf3, "--secret-env", "nom=X"], { home: h }).stderr).toMatch(/"nom" is not a secret variable/);
    rmSync(join(h, "secrets.json"));
    expect(rpav(["replay", wf3], { home: h, env: { RPAV_TEST_PW2: SECRET } }).stderr).toMatch(passed);
    expect(readFileSync(wf3, "utf8")).not.toContain(SECRET);
    const vf = join(h, "vars.json");
    writeFileSync(vf, JSON.stringify({ mot_de_passe: SECRET }), { mode: 0o600 });
    const handed = rpav(["replay", workflowWithSecret(h), "--vars-file", vf], { home: h });
    expect(handed.stderr).toMatch(passed);
    expect(existsSync(vf)).toBe(false);
    writeFileSync(vf, JSON.stringify({ mot_de_passe: SECRET }), { mode: 0o644 });
    const open = rpav(["replay", workflowWithSecret(h), "--vars-file", vf], { home: h });
    expect(open.stderr).toMatch(/\[invalid_input\]: --vars-file .*others may read it \(mode 644\)/);
    expect(existsSync(vf)).toBe(false);
  });
});

describe("secret variables in the planner (rpav run)", () => {
  it("--var for a secret is refused; a dry run says where the secret would come from, and the plan never holds it", () => {
    const h = home("planner");
    const demo = JSON.parse(readFileSync(join(ROOT, "demos/mousepad-open-save/workflow.json"), "utf8")) as Workflow;
    const wf: Workflow = { ...demo, variables: [...demo.variables, { name: "mot_de_passe", type: "secret", example: null, secret: true, steps: [], secret_env: "RPAV_TEST_PLAN_PW" }] };
    mkdirSync(join(h, "dossiers"), { recursive: true });
    writeFileSync(join(h, "dossiers", "janvier.txt"), "x");
    const file = join(h, "wf.json");
    writeFileSync(file, JSON.stringify(wf));
    const consts = demo.variables.filter((v) => v.type !== "path" && v.type !== "file_name").flatMap((v) => ["--var", `${v.name}=ok`]);
    const refused = rpav(["run", "Traite les dossiers", "--in", join(h, "dossiers"), "--workflow", file, ...consts, "--var", `mot_de_passe=${SECRET}`, "--dry-run"], { home: h });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/\[invalid_input\]: --var: "mot_de_passe" is a secret variable.*RPAV_TEST_PLAN_PW/);
    const dry = rpav(["run", "Traite les dossiers", "--in", join(h, "dossiers"), "--workflow", file, ...consts, "--dry-run", "--json"], { home: h, env: { RPAV_TEST_PLAN_PW: SECRET } });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stderr).toContain("secret « mot_de_passe »: environment RPAV_TEST_PLAN_PW");
    const plan = (JSON.parse(dry.stdout) as { plan: { items: { bindings: Record<string, string>; sources: Record<string, string> }[] } }).plan;
    expect(plan.items.length).toBeGreaterThan(0);
    for (const it of plan.items) {
      expect(it.bindings).not.toHaveProperty("mot_de_passe");
      expect(it.sources.mot_de_passe).toMatch(/^secret: /);
    }
    expect(dry.stdout + dry.stderr).not.toContain(SECRET);
  }, 120_000);
});
