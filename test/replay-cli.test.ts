// rpav replay / rpav report on bad input, without a desktop: every problem is a typed error with
// exit 1, named with its file, before any window is looked for.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT, rpav } from "./support/cli.js";

const tmp = mkdtempSync(join(tmpdir(), "rpav-replay-cli-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const demo = join(ROOT, "demos/yad-patient/workflow.json");
const noDisplay = { DISPLAY: "", RPAV_HOME: tmp };

describe("rpav replay on bad input", () => {
  it("missing variables are all listed before anything runs (no display is even needed)", () => {
    const r = rpav(["replay", demo, "--var", "nom=Durand"], noDisplay);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/rpav: error \[invalid_input\]: Missing variable values, nothing was run: prenom \(name, recorded: "Zoë"\); date_de_naissance \(date/);
  });

  it("--vars-file gives values off the command line, is deleted once read (valid or not), and a name given twice is refused", () => {
    const f = join(tmp, "vars.json");
    writeFileSync(f, JSON.stringify({ nom: "Durand", prenom: "Zoé" }), { mode: 0o600 });
    const r = rpav(["replay", demo, "--vars-file", f], noDisplay);
    expect(r.stderr).toMatch(/Missing variable values, nothing was run: date_de_naissance \(date/); // nom and prenom came from the file
    expect(existsSync(f)).toBe(false);
    writeFileSync(f, JSON.stringify({ nom: 3 }), { mode: 0o600 });
    expect(rpav(["replay", demo, "--vars-file", f], noDisplay).stderr).toMatch(/vars\.json: not a --vars-file .*\$\.nom/);
    expect(existsSync(f)).toBe(false);
    writeFileSync(f, "{ nom: ", { mode: 0o600 });
    expect(rpav(["replay", demo, "--vars-file", f, "--on-error", "never"], noDisplay).stderr).toMatch(/vars\.json: malformed JSON/);
    expect(existsSync(f)).toBe(false);
    writeFileSync(f, JSON.stringify({ nom: "Durand" }), { mode: 0o600 });
    expect(rpav(["replay", demo, "--vars-file", f, "--var", "nom=Martin"], noDisplay).stderr).toMatch(/"nom" given both by --var and --vars-file/);
    expect(existsSync(f)).toBe(false);
  });

  it("a CSV row short of a cell names its line; an unknown column is refused", () => {
    const csv = join(tmp, "rows.csv");
    writeFileSync(csv, "nom;prenom;date_de_naissance\nA;B;1\nC;D\n");
    expect(rpav(["replay", demo, "--data", csv], noDisplay).stderr).toMatch(/rows\.csv: line 3 has 2 cells, the header has 3/);
    writeFileSync(csv, "nom;prenon;date_de_naissance\nA;B;1\n");
    expect(rpav(["replay", demo, "--data", csv], noDisplay).stderr).toMatch(/"prenon" is not a variable of workflow wf_nouveau_patient/);
  });

  it("a workflow of a newer version is refused naming both versions", () => {
    const wf = JSON.parse(readFileSync(demo, "utf8"));
    wf.schema_version = "workflow_v2";
    const file = join(tmp, "newer.json");
    writeFileSync(file, JSON.stringify(wf));
    const r = rpav(["replay", file, "--use-examples"], noDisplay);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/schema_version "workflow_v2" is not one this build reads .*workflow_v1.*newer RPA Vision/);
  });

  it("with values but no display: a typed display error, and no run folder is left half-made", () => {
    const r = rpav(["replay", demo, "--use-examples", "--report", join(tmp, "run")], { ...noDisplay, HOME: tmp });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/rpav: error \[display_unavailable\]/);
    expect(existsSync(join(tmp, "run"))).toBe(false);
  });

  it("report and resume of a folder that is not a run say what to give", () => {
    expect(rpav(["report", tmp], noDisplay).stderr).toMatch(/no run trace here .*rpav replay --report/);
    expect(rpav(["replay", "--resume", tmp], noDisplay).stderr).toMatch(/no run trace here/);
    expect(rpav(["replay"], noDisplay).stderr).toMatch(/Give a workflow file, or --resume/);
  });
});
