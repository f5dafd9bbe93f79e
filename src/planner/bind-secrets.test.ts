// The planner never binds a secret variable: not from --var, not from an item's field (a CSV or
// XLSX column is plain text), and its value is never in the plan (the runner takes it at run time).
import { describe, expect, it } from "vitest";
import type { PlanItem } from "../core/schemas/plan.js";
import { loginWorkflow } from "../../test/support/login-workflow.js";
import { bindItems, SECRET_SOURCE, unboundVariables } from "./bind.js";

const wf = loginWorkflow();
const item = (fields: Record<string, string>): PlanItem => ({ key: fields.nom ?? "x", label: fields.nom ?? "x", fields }) as unknown as PlanItem;

describe("planner binding of secret variables", () => {
  it("leaves secrets out of the bindings (sources say where they come from) and does not count them unbound", () => {
    const [b] = bindItems(wf, [item({ nom: "Martin" })]);
    expect(b!.bindings).toEqual({ nom: "Martin" });
    expect(b!.sources.mot_de_passe).toBe(SECRET_SOURCE);
    expect(unboundVariables(wf, [item({ nom: "Martin" })])).toEqual([]);
  });

  it("refuses a secret from --var or from an item column, naming the safe ways", () => {
    expect(() => bindItems(wf, [item({ nom: "Martin" })], { constants: { mot_de_passe: "x" } })).toThrow(/--var: "mot_de_passe" is a secret variable.*rpav secret set mot_de_passe/);
    expect(() => bindItems(wf, [item({ nom: "Martin", "Mot de passe": "x" })])).toThrow(/the items' fields .*"mot_de_passe" is a secret variable/);
  });
});
