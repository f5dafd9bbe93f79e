// Binding each item to the workflow's variables: a value given for every item (--var), else an
// item field of the same name (« date_de_naissance » ← a column « Date de naissance »), else a
// field the variable's type asks for (a path ← the file's path, a file_name ← its name, a date ←
// the item's date, in the recorded example's format), else — when asked — the recorded example.
// Every variable that stays unbound is reported for all items at once, before anything runs.
import { InvalidInputError } from "../core/errors.js";
import type { PlanItem } from "../core/schemas/plan.js";
import type { Workflow, WorkflowVariable } from "../core/schemas/workflow.js";
import { foldText } from "../core/text.js";
import { refuseExposedSecrets } from "../replay/secrets.js";

/** The source noted for a secret variable: its value is never in the plan; the runner takes it from a safe place. */
export const SECRET_SOURCE = "secret: credential store, its environment variable or a prompt, at run time (never stored in the plan)";

export interface ItemBinding {
  bindings: Record<string, string>;
  /** Where each value came from: "--var", "field « Nom »", "type path ← path", "recorded example". */
  sources: Record<string, string>;
}

export interface BindOptions {
  constants?: Record<string, string>;
  useExamples?: boolean;
}

function key(s: string): string {
  return foldText(s).replace(/[^a-z0-9]+/g, "_").replace(/^_|_$/g, "");
}

/** The type's natural fields, in order of preference. */
const TYPE_FIELDS: Partial<Record<WorkflowVariable["type"], string[]>> = {
  path: ["path", "chemin", "fichier", "file"],
  file_name: ["file_name", "fichier", "filename", "nom_de_fichier"],
  date: ["date"],
  identifier: ["id", "ref", "reference", "numero", "identifiant"],
  email: ["email", "e_mail", "courriel", "mail"],
  amount: ["montant", "amount", "total"],
  number: ["nombre", "number", "quantite", "quantity"],
};

const GENERIC_WORDS = new Set(["date", "du", "de", "d", "la", "le", "jour", "day", "of", "the", "id", "ref", "reference", "numero", "identifiant", "email", "e", "mail", "courriel", "montant", "amount", "total", "nombre", "number", "quantite", "quantity", "path", "chemin", "fichier", "file", "nom", "name", "filename", "document", "dossier", "item", "element"]);

/** A date (YYYY-MM-DD) written like the recorded example: 15/01/2026, 15-01-2026, 15.01.2026 or ISO. */
export function formatDateLike(iso: string, example: string | null): string {
  const [y, m, d] = iso.split("-");
  const ex = example?.trim() ?? "";
  const sep = /^\d{1,2}([/.-])\d{1,2}\1\d{4}$/.exec(ex)?.[1];
  return sep ? `${d}${sep}${m}${sep}${y}` : iso;
}

function bindOne(v: WorkflowVariable, item: PlanItem, opts: BindOptions): { value: string; source: string } | undefined {
  if (v.secret) return undefined;
  const c = opts.constants?.[v.name];
  if (c !== undefined) return { value: c, source: "--var" };
  const fields = Object.entries(item.fields);
  const vk = key(v.name);
  const same = fields.find(([k]) => key(k) === vk);
  if (same) return { value: v.type === "date" && /^\d{4}-\d{2}-\d{2}$/.test(same[1]) ? formatDateLike(same[1], v.example) : same[1], source: `field « ${same[0]} »` };
  // By type only when the name says nothing more than its type (« date », « date_du_jour », "file"):
  // a « date_de_naissance » is not the item's date.
  const generic = vk.split("_").every((t) => GENERIC_WORDS.has(t));
  for (const want of generic || v.type === "path" || v.type === "file_name" ? (TYPE_FIELDS[v.type] ?? []) : []) {
    const f = fields.find(([k]) => key(k) === want);
    if (!f || f[1] === "") continue;
    if (v.type === "date") {
      if (!/^\d{4}-\d{2}-\d{2}$/.test(f[1])) continue;
      return { value: formatDateLike(f[1], v.example), source: `type date ← ${f[0]}${item.date_rule ? ` (${item.date_rule})` : ""}` };
    }
    return { value: f[1], source: `type ${v.type} ← ${f[0]}` };
  }
  if (opts.useExamples && !v.secret && v.example !== null) return { value: v.example, source: "recorded example" };
  return undefined;
}

/**
 * Bindings for every item; throws InvalidInputError listing each unbound variable and the items
 * it is missing for (all of them, before any action). Unknown --var names are refused too.
 */
export function bindItems(workflow: Workflow, items: readonly PlanItem[], opts: BindOptions = {}): ItemBinding[] {
  const declared = new Set(workflow.variables.map((v) => v.name));
  const unknown = Object.keys(opts.constants ?? {}).filter((k) => !declared.has(k));
  if (unknown.length > 0)
    throw new InvalidInputError(`--var ${unknown.map((u) => `"${u}"`).join(", ")}: not a variable of « ${workflow.name} » (it has: ${[...declared].join(", ") || "none"}).`, { details: { unknown, declared: [...declared] } });
  refuseExposedSecrets(workflow, Object.keys(opts.constants ?? {}), "--var");
  const secretFields = workflow.variables.filter((v) => v.secret && items.some((it) => Object.keys(it.fields).some((k) => key(k) === key(v.name))));
  if (secretFields.length > 0) refuseExposedSecrets(workflow, secretFields.map((v) => v.name), "the items' fields (a CSV or XLSX column is plain text)");
  const missing = new Map<string, string[]>();
  const out = items.map((item) => {
    const b: ItemBinding = { bindings: {}, sources: {} };
    for (const v of workflow.variables) {
      if (v.secret) {
        b.sources[v.name] = SECRET_SOURCE;
        continue;
      }
      const r = bindOne(v, item, opts);
      if (r) {
        b.bindings[v.name] = r.value;
        b.sources[v.name] = r.source;
      } else missing.set(v.name, [...(missing.get(v.name) ?? []), item.label]);
    }
    return b;
  });
  if (missing.size > 0) {
    const lines = [...missing].map(([name, labels]) => {
      const v = workflow.variables.find((x) => x.name === name)!;
      const which = labels.length === items.length ? `all ${items.length} items` : `${labels.length} of ${items.length} items (${labels.slice(0, 5).join(", ")}${labels.length > 5 ? ", …" : ""})`;
      return `${name} (${v.type}${v.secret ? ", secret" : ""}${v.example !== null ? `, recorded « ${v.example} »` : ""}) for ${which}`;
    });
    const fields = [...new Set(items.flatMap((i) => Object.keys(i.fields)))];
    throw new InvalidInputError(`Unbound variables, nothing was run: ${lines.join("; ")}. The items offer: ${fields.join(", ") || "no field"}. Give a value with --var name=value, a column of that name, or --use-examples.`, {
      details: { missing: Object.fromEntries(missing), fields },
    });
  }
  return out;
}

/** The variables some item leaves unbound (no throw): what choosing a workflow weighs. */
export function unboundVariables(workflow: Workflow, items: readonly PlanItem[], opts: BindOptions = {}): string[] {
  return workflow.variables.filter((v) => !v.secret && items.some((it) => !bindOne(v, it, opts))).map((v) => v.name);
}
