// HTML screens generated at random from CSS frameworks shipped in npm (devDependencies: bootstrap 5, bootstrap 4, bulma 1,
// pico 2, foundation 6), rendered by headless Chromium (playwright-core), boxes from the DOM with lab/dom-ground-truth.js
// (a check box is its box and its label's text). Forms, tables, nav bars, tabs (role=tab), modals, cards, pagers,
// breadcrumbs; light and dark where the framework has a dark mode; device scale 1 / 1.25 / 1.5 / 2.
//   npx tsx training/gen/gen-html.ts --out training/data/html --start 0 --count 500
// Same JSON as gen_gtk.py. Seeded by index: a rerun skips what exists and remakes the same pages.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { getPriority, setPriority } from "node:os";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { chromium, type BrowserContext, type Page } from "playwright-core";

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, "..", "..");
const require = createRequire(import.meta.url);
const pkgFile = (spec: string) => require.resolve(spec, { paths: [ROOT] });
/** foundation-sites is not a devDependency (its motion-ui pulls sass-embedded, whose platform packages break `npm ci`): its kit runs where it is installed by hand. */
const kitInstalled = (k: { css: string[] }) => k.css.every((c) => { try { pkgFile(c); return true; } catch { return false; } });
const warned = new Set<string>();

/**
 * Chromium, run as root, raises its browser and GPU processes to nice -8 and starts renderers at 0,
 * whatever this process's niceness: put every thread of every descendant back at ours (the machine is
 * shared; the data engine runs at nice 19). Called after launch and every 2 s (renderers come and go).
 */
function keepChromiumNice(): void {
  const mine = getPriority(0);
  let table: string;
  try {
    table = execFileSync("ps", ["-e", "-o", "pid=,ppid="], { encoding: "utf8" });
  } catch {
    return;
  }
  const kids = new Map<number, number[]>();
  for (const line of table.trim().split("\n")) {
    const [pid, ppid] = line.trim().split(/\s+/).map(Number) as [number, number];
    kids.set(ppid, [...(kids.get(ppid) ?? []), pid]);
  }
  const todo = [...(kids.get(process.pid) ?? [])];
  while (todo.length) {
    const pid = todo.pop()!;
    todo.push(...(kids.get(pid) ?? []));
    let tids: string[] = [];
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const t of tids) {
      try {
        if (getPriority(Number(t)) < mine) setPriority(Number(t), mine);
      } catch {
        // gone meanwhile
      }
    }
  }
}

// A small seeded generator (mulberry32 over a string hash), so page i is the same on every run.
function rngFor(seed: string): () => number {
  let h = 1779033703 ^ seed.length;
  for (let i = 0; i < seed.length; i++) {
    h = Math.imul(h ^ seed.charCodeAt(i), 3432918353);
    h = (h << 13) | (h >>> 19);
  }
  let a = h >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const T = {
  fr: {
    action: ["Valider", "Annuler", "Enregistrer", "Supprimer", "Modifier", "Ajouter", "Rechercher", "Fermer", "Suivant", "Précédent", "Télécharger", "Envoyer", "Exporter", "Créer un compte", "Se connecter", "Payer la facture", "Générer le rapport", "Actualiser", "Confirmer la commande", "Aperçu", "Réinitialiser"],
    field: ["Nom", "Prénom", "Adresse e-mail", "Téléphone", "Société", "Code postal", "Ville", "Numéro de facture", "Montant TTC", "Date d'échéance", "Référence client", "Mot de passe", "Commentaire", "Quantité", "Prix unitaire (€)", "Catégorie", "Priorité", "Fournisseur"],
    option: ["Se souvenir de moi", "Recevoir la lettre d'information", "J'accepte les conditions générales", "Activer les notifications", "Facturation annuelle", "Expédition rapide", "Paiement à la livraison", "Inclure la TVA", "Élevée", "Moyenne", "Basse", "Particulier", "Professionnel", "Virement bancaire", "Carte bancaire"],
    tab: ["Général", "Détails", "Historique", "Paramètres", "Facturation", "Contacts", "Documents", "Sécurité", "Avancé", "Résumé"],
    link: ["Mot de passe oublié ?", "En savoir plus", "Voir la facture", "Mentions légales", "Aide", "Accueil", "Tableau de bord", "Clients", "Rapports", "Commandes", "Produits", "Paramètres"],
    title: ["Nouvelle facture", "Fiche client", "Préférences", "Commande fournisseur", "Dossier patient", "Paramètres du compte", "Réservation", "Note de frais", "Gestion des stocks"],
    text: ["Veuillez vérifier les informations ci-dessous avant de valider.", "Les champs marqués d'un astérisque sont obligatoires.", "Dernière mise à jour : 12 février 2025", "Aucun élément sélectionné", "Statut : en attente de validation"],
  },
  en: {
    action: ["OK", "Cancel", "Save", "Delete", "Edit", "Add", "Search", "Close", "Next", "Back", "Download", "Send", "Export", "Create account", "Sign in", "Pay invoice", "Generate report", "Refresh", "Confirm order", "Preview", "Submit", "Save changes"],
    field: ["Name", "First name", "Email address", "Phone", "Company", "Postcode", "City", "Invoice number", "Amount", "Due date", "Customer reference", "Password", "Comment", "Quantity", "Unit price", "Category", "Priority", "Supplier", "Username"],
    option: ["Remember me", "Subscribe to newsletter", "I agree to the terms", "Enable notifications", "Annual billing", "Express shipping", "Cash on delivery", "Include VAT", "High", "Medium", "Low", "Personal", "Business", "Bank transfer", "Credit card"],
    tab: ["General", "Details", "History", "Settings", "Billing", "Contacts", "Documents", "Security", "Advanced", "Summary", "Activity"],
    link: ["Forgot password?", "Learn more", "View invoice", "Legal notice", "Help", "Home", "Dashboard", "Customers", "Reports", "Orders", "Products", "Settings", "Documentation"],
    title: ["New invoice", "Customer record", "Preferences", "Purchase order", "Patient file", "Account settings", "Booking", "Expense report", "Inventory"],
    text: ["Please check the information below before submitting.", "Fields marked with an asterisk are required.", "Last updated: 12 February 2025", "No item selected", "Status: awaiting approval"],
  },
};
const VALUES = ["Jean Dupont", "jean.dupont@exemple.fr", "06 12 34 56 78", "1 250,00 €", "FAC-2025-00123", "Paris", "75011", "john.smith@example.com", "42", "ACME SARL", "Hélène Lefèvre", "London", ""];
const NAMES = ["Dupont", "Martin", "Lefèvre", "Girard", "Müller", "Smith", "Johnson", "Nguyen", "Da Silva", "Zoë", "François"];

class Pick {
  private n = 0;
  constructor(readonly r: () => number, readonly fr: boolean) {}
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.r() * (hi - lo + 1));
  }
  one<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.r() * xs.length)]!;
  }
  chance(p: number): boolean {
    return this.r() < p;
  }
  t(kind: keyof (typeof T)["fr"]): string {
    return this.one(T[this.fr !== this.chance(0.1) ? "fr" : "en"][kind]);
  }
  distinct(kind: keyof (typeof T)["fr"], k: number): string[] {
    const out = new Set<string>();
    for (let i = 0; i < 40 && out.size < k; i++) out.add(this.t(kind));
    return [...out];
  }
  id(): string {
    return `f${++this.n}`;
  }
}

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;");

/** One framework's markup for each component. */
interface Kit {
  name: string;
  css: string[];
  dark?: { html: string };
  button(p: Pick, label: string, primary: boolean): string;
  input(p: Pick): string;
  select(p: Pick): string;
  check(p: Pick, radio: boolean, name: string, label: string, checked: boolean): string;
  switch?(p: Pick, label: string, checked: boolean): string;
  tabs(p: Pick, names: string[], active: number): string;
  nav(p: Pick, brand: string, links: string[]): string;
  card(title: string, body: string): string;
  table: string;
  pager(pages: number, active: number): string;
  breadcrumb(items: string[]): string;
  modal?(title: string, body: string, footer: string): string;
  container: string;
}

const disabled = (p: Pick) => (p.chance(0.07) ? " disabled" : "");

const bootstrap = (v: 4 | 5): Kit => ({
  name: `bootstrap${v}`,
  css: [v === 5 ? "bootstrap/dist/css/bootstrap.min.css" : "bootstrap4/dist/css/bootstrap.min.css"],
  dark: v === 5 ? { html: ' data-bs-theme="dark"' } : undefined,
  button: (p, label, primary) => `<button type="button" class="btn ${primary ? "btn-primary" : p.one(["btn-secondary", "btn-outline-primary", "btn-light", "btn-danger", "btn-success", "btn-outline-secondary", "btn-link"])}${p.chance(0.2) ? p.one([" btn-sm", " btn-lg"]) : ""}"${disabled(p)}>${esc(label)}</button>`,
  input: (p) => {
    const id = p.id();
    const f = p.t("field");
    const type = f.startsWith("Mot de passe") || f === "Password" ? "password" : "text";
    return `<div class="${v === 5 ? "mb-3" : "form-group"}"><label for="${id}"${v === 5 ? ' class="form-label"' : ""}>${esc(f)}</label><input type="${type}" class="form-control${p.chance(0.15) ? " form-control-sm" : ""}" id="${id}" ${p.chance(0.5) ? `value="${esc(p.one(VALUES))}"` : `placeholder="${esc(p.t("field"))}"`}${disabled(p)}></div>`;
  },
  select: (p) => {
    const id = p.id();
    return `<div class="${v === 5 ? "mb-3" : "form-group"}"><label for="${id}">${esc(p.t("field"))}</label><select id="${id}" class="${v === 5 ? "form-select" : "form-control custom-select"}"${disabled(p)}>${p.distinct("option", p.int(2, 5)).map((o) => `<option>${esc(o)}</option>`).join("")}</select></div>`;
  },
  check: (p, radio, name, label, checked) => {
    const id = p.id();
    return v === 5
      ? `<div class="form-check${p.chance(0.3) ? " form-check-inline" : ""}"><input class="form-check-input" type="${radio ? "radio" : "checkbox"}" name="${name}" id="${id}"${checked ? " checked" : ""}${disabled(p)}><label class="form-check-label" for="${id}">${esc(label)}</label></div>`
      : `<div class="custom-control custom-${radio ? "radio" : "checkbox"}${p.chance(0.3) ? " custom-control-inline" : ""}"><input class="custom-control-input" type="${radio ? "radio" : "checkbox"}" name="${name}" id="${id}"${checked ? " checked" : ""}${disabled(p)}><label class="custom-control-label" for="${id}">${esc(label)}</label></div>`;
  },
  switch: (p, label, checked) => {
    const id = p.id();
    return v === 5
      ? `<div class="form-check form-switch"><input class="form-check-input" type="checkbox" role="switch" id="${id}"${checked ? " checked" : ""}><label class="form-check-label" for="${id}">${esc(label)}</label></div>`
      : `<div class="custom-control custom-switch"><input type="checkbox" class="custom-control-input" id="${id}"${checked ? " checked" : ""}><label class="custom-control-label" for="${id}">${esc(label)}</label></div>`;
  },
  tabs: (p, names, active) => `<ul class="nav ${p.one(["nav-tabs", "nav-pills", "nav-tabs"])} mb-3" role="tablist">${names.map((n, i) => `<li class="nav-item" role="presentation"><a class="nav-link${i === active ? " active" : ""}" href="#" role="tab" aria-selected="${i === active}">${esc(n)}</a></li>`).join("")}</ul>`,
  nav: (p, brand, links) => `<nav class="navbar navbar-expand ${p.chance(0.5) ? "navbar-dark bg-dark" : p.chance(0.5) ? "navbar-dark bg-primary" : "navbar-light bg-light"} mb-3"><div class="container-fluid"><a class="navbar-brand" href="#">${esc(brand)}</a><ul class="navbar-nav ${v === 5 ? "me-auto" : "mr-auto"}">${links.map((l, i) => `<li class="nav-item"><a class="nav-link${i === 0 ? " active" : ""}" href="#">${esc(l)}</a></li>`).join("")}</ul>${p.chance(0.5) ? `<form class="d-flex form-inline"><input class="form-control ${v === 5 ? "me-2" : "mr-2"}" type="search" placeholder="${esc(p.t("action"))}"><button class="btn btn-outline-light" type="button">${esc(p.t("action"))}</button></form>` : ""}</div></nav>`,
  card: (title, body) => `<div class="card mb-3"><div class="card-header">${esc(title)}</div><div class="card-body">${body}</div></div>`,
  table: "table table-striped table-hover",
  pager: (n, a) => `<nav><ul class="pagination">${["«", ...Array.from({ length: n }, (_, i) => String(i + 1)), "»"].map((l, i) => `<li class="page-item${i === a ? " active" : ""}"><a class="page-link" href="#">${l}</a></li>`).join("")}</ul></nav>`,
  breadcrumb: (items) => `<nav><ol class="breadcrumb">${items.map((it, i) => (i === items.length - 1 ? `<li class="breadcrumb-item active">${esc(it)}</li>` : `<li class="breadcrumb-item"><a href="#">${esc(it)}</a></li>`)).join("")}</ol></nav>`,
  modal: (title, body, footer) => `<div class="modal ${v === 5 ? "d-block" : "d-block show"}" style="position:relative;display:block" tabindex="-1"><div class="modal-dialog"><div class="modal-content"><div class="modal-header"><h5 class="modal-title">${esc(title)}</h5><button type="button" class="${v === 5 ? "btn-close" : "close"}" aria-label="Close">${v === 5 ? "" : "<span>&times;</span>"}</button></div><div class="modal-body">${body}</div><div class="modal-footer">${footer}</div></div></div></div>`,
  container: "container-fluid py-3",
});

const bulma: Kit = {
  name: "bulma",
  css: ["bulma/css/bulma.min.css"],
  dark: { html: ' data-theme="dark"' },
  button: (p, label, primary) => `<button class="button${primary ? " is-primary" : p.one(["", " is-link", " is-info", " is-danger", " is-light", " is-success is-outlined", ""])}${p.chance(0.2) ? p.one([" is-small", " is-medium"]) : ""}"${disabled(p)}>${esc(label)}</button>`,
  input: (p) => `<div class="field"><label class="label">${esc(p.t("field"))}</label><div class="control"><input class="input${p.chance(0.15) ? " is-small" : ""}" type="text" ${p.chance(0.5) ? `value="${esc(p.one(VALUES))}"` : `placeholder="${esc(p.t("field"))}"`}${disabled(p)}></div></div>`,
  select: (p) => `<div class="field"><label class="label">${esc(p.t("field"))}</label><div class="control"><div class="select"><select${disabled(p)}>${p.distinct("option", p.int(2, 5)).map((o) => `<option>${esc(o)}</option>`).join("")}</select></div></div></div>`,
  check: (p, radio, name, label, checked) => `<div class="field"><div class="control"><label class="${radio ? "radio" : "checkbox"}"><input type="${radio ? "radio" : "checkbox"}" name="${name}"${checked ? " checked" : ""}${disabled(p)}> ${esc(label)}</label></div></div>`,
  tabs: (p, names, active) => `<div class="tabs${p.chance(0.4) ? p.one([" is-boxed", " is-toggle", " is-centered"]) : ""}"><ul role="tablist">${names.map((n, i) => `<li${i === active ? ' class="is-active"' : ""}><a role="tab" aria-selected="${i === active}">${esc(n)}</a></li>`).join("")}</ul></div>`,
  nav: (p, brand, links) => `<nav class="navbar${p.chance(0.5) ? p.one([" is-dark", " is-primary", " is-link"]) : ""}"><div class="navbar-brand"><a class="navbar-item" href="#"><strong>${esc(brand)}</strong></a></div><div class="navbar-menu is-active"><div class="navbar-start">${links.map((l) => `<a class="navbar-item" href="#">${esc(l)}</a>`).join("")}</div><div class="navbar-end"><div class="navbar-item"><div class="buttons"><button class="button is-primary">${esc(p.t("action"))}</button><button class="button is-light">${esc(p.t("action"))}</button></div></div></div></div></nav>`,
  card: (title, body) => `<div class="card mb-4"><header class="card-header"><p class="card-header-title">${esc(title)}</p></header><div class="card-content">${body}</div></div>`,
  table: "table is-striped is-hoverable is-fullwidth",
  pager: (n, a) => `<nav class="pagination"><a class="pagination-previous" href="#">&lsaquo;</a><a class="pagination-next" href="#">&rsaquo;</a><ul class="pagination-list">${Array.from({ length: n }, (_, i) => `<li><a class="pagination-link${i + 1 === a ? " is-current" : ""}" href="#">${i + 1}</a></li>`).join("")}</ul></nav>`,
  breadcrumb: (items) => `<nav class="breadcrumb"><ul>${items.map((it, i) => (i === items.length - 1 ? `<li class="is-active"><a href="#" aria-current="page">${esc(it)}</a></li>` : `<li><a href="#">${esc(it)}</a></li>`)).join("")}</ul></nav>`,
  modal: (title, body, footer) => `<div class="modal-card" style="margin:1rem 0"><header class="modal-card-head"><p class="modal-card-title">${esc(title)}</p><button class="delete" aria-label="close"></button></header><section class="modal-card-body">${body}</section><footer class="modal-card-foot"><div class="buttons">${footer}</div></footer></div>`,
  container: "container is-fluid py-4 px-4",
};

const pico: Kit = {
  name: "pico",
  css: ["@picocss/pico/css/pico.min.css"],
  dark: { html: ' data-theme="dark"' },
  button: (p, label, primary) => `<button type="button"${primary ? "" : p.one([' class="secondary"', ' class="outline"', ' class="contrast"', ' class="secondary outline"', ""])}${disabled(p)} style="width:auto;display:inline-block;margin-right:.5rem">${esc(label)}</button>`,
  input: (p) => `<label>${esc(p.t("field"))}<input type="text" ${p.chance(0.5) ? `value="${esc(p.one(VALUES))}"` : `placeholder="${esc(p.t("field"))}"`}${disabled(p)}></label>`,
  select: (p) => `<label>${esc(p.t("field"))}<select${disabled(p)}>${p.distinct("option", p.int(2, 5)).map((o) => `<option>${esc(o)}</option>`).join("")}</select></label>`,
  check: (p, radio, name, label, checked) => {
    const id = p.id();
    return `<input type="${radio ? "radio" : "checkbox"}" id="${id}" name="${name}"${checked ? " checked" : ""}${disabled(p)}><label for="${id}">${esc(label)}</label><br>`;
  },
  switch: (p, label, checked) => {
    const id = p.id();
    return `<label for="${id}"><input type="checkbox" id="${id}" role="switch"${checked ? " checked" : ""}>${esc(label)}</label>`;
  },
  tabs: (p, names, active) => `<nav><ul role="tablist">${names.map((n, i) => `<li><a href="#" role="tab" aria-selected="${i === active}"${i === active ? ' aria-current="page"' : ' class="secondary"'}>${esc(n)}</a></li>`).join("")}</ul></nav>`,
  nav: (p, brand, links) => `<nav class="container-fluid"><ul><li><strong><a href="#" class="contrast">${esc(brand)}</a></strong></li></ul><ul>${links.map((l) => `<li><a href="#"${p.chance(0.3) ? ' class="secondary"' : ""}>${esc(l)}</a></li>`).join("")}<li><button type="button">${esc(p.t("action"))}</button></li></ul></nav>`,
  card: (title, body) => `<article><header>${esc(title)}</header>${body}</article>`,
  table: "striped",
  pager: (n) => `<nav><ul>${Array.from({ length: n }, (_, i) => `<li><a href="#">${i + 1}</a></li>`).join("")}</ul></nav>`,
  breadcrumb: (items) => `<nav aria-label="breadcrumb"><ul>${items.map((it, i) => (i === items.length - 1 ? `<li>${esc(it)}</li>` : `<li><a href="#">${esc(it)}</a></li>`)).join("")}</ul></nav>`,
  modal: (title, body, footer) => `<article style="max-width:600px"><header><button aria-label="Close" rel="prev" style="float:right;width:auto;padding:.2rem .6rem">×</button><p><strong>${esc(title)}</strong></p></header>${body}<footer>${footer}</footer></article>`,
  container: "container",
};

const foundation: Kit = {
  name: "foundation",
  css: ["foundation-sites/dist/css/foundation.min.css"],
  button: (p, label, primary) => `<button type="button" class="button${primary ? "" : p.one([" secondary", " success", " alert", " hollow", " warning", " clear"])}${p.chance(0.2) ? p.one([" small", " large", " tiny"]) : ""}"${disabled(p)}>${esc(label)}</button>`,
  input: (p) => `<label>${esc(p.t("field"))}<input type="text" ${p.chance(0.5) ? `value="${esc(p.one(VALUES))}"` : `placeholder="${esc(p.t("field"))}"`}${disabled(p)}></label>`,
  select: (p) => `<label>${esc(p.t("field"))}<select${disabled(p)}>${p.distinct("option", p.int(2, 5)).map((o) => `<option>${esc(o)}</option>`).join("")}</select></label>`,
  check: (p, radio, name, label, checked) => {
    const id = p.id();
    return `<input type="${radio ? "radio" : "checkbox"}" id="${id}" name="${name}"${checked ? " checked" : ""}${disabled(p)}><label for="${id}">${esc(label)}</label>${p.chance(0.5) ? "<br>" : ""}`;
  },
  tabs: (p, names, active) => `<ul class="tabs" role="tablist">${names.map((n, i) => `<li class="tabs-title${i === active ? " is-active" : ""}"><a href="#" role="tab" aria-selected="${i === active}">${esc(n)}</a></li>`).join("")}</ul><div class="tabs-content"><div class="tabs-panel is-active">${esc(p.t("text"))}</div></div>`,
  nav: (p, brand, links) => `<div class="top-bar"><div class="top-bar-left"><ul class="menu"><li class="menu-text">${esc(brand)}</li>${links.map((l) => `<li><a href="#">${esc(l)}</a></li>`).join("")}</ul></div><div class="top-bar-right"><ul class="menu"><li><input type="search" placeholder="${esc(p.t("action"))}"></li><li><button type="button" class="button">${esc(p.t("action"))}</button></li></ul></div></div>`,
  card: (title, body) => `<div class="card"><div class="card-divider">${esc(title)}</div><div class="card-section">${body}</div></div>`,
  table: "hover",
  pager: (n, a) => `<nav><ul class="pagination">${Array.from({ length: n }, (_, i) => (i + 1 === a ? `<li class="current">${i + 1}</li>` : `<li><a href="#">${i + 1}</a></li>`)).join("")}</ul></nav>`,
  breadcrumb: (items) => `<nav><ul class="breadcrumbs">${items.map((it, i) => (i === items.length - 1 ? `<li>${esc(it)}</li>` : `<li><a href="#">${esc(it)}</a></li>`)).join("")}</ul></nav>`,
  modal: (title, body, footer) => `<div class="callout" style="max-width:640px"><button class="close-button" aria-label="Close" type="button"><span>&times;</span></button><h5>${esc(title)}</h5>${body}<div>${footer}</div></div>`,
  container: "grid-container fluid",
};

export const KITS: Kit[] = [bootstrap(5), bootstrap(4), bulma, pico, foundation];

function section(p: Pick, k: Kit, depth: number): string {
  const r = p.r();
  if (r < 0.3) {
    const rows: string[] = [];
    for (let i = p.int(2, 6); i > 0; i--) rows.push(p.chance(0.7) ? k.input(p) : k.select(p));
    if (p.chance(0.5)) rows.push(k.check(p, false, p.id(), p.t("option"), p.chance(0.5)));
    rows.push(`<div>${Array.from({ length: p.int(1, 3) }, (_, i) => k.button(p, p.t("action"), i === 0)).join(" ")}</div>`);
    return `<form>${rows.join("\n")}</form>`;
  }
  if (r < 0.42) {
    const name = p.id();
    const radio = p.chance(0.45);
    const labels = p.distinct("option", p.int(2, 5));
    const on = p.int(0, labels.length - 1);
    return `<fieldset><legend>${esc(p.t("field"))}</legend>${labels.map((l, i) => (k.switch && !radio && p.chance(0.25) ? k.switch(p, l, p.chance(0.5)) : k.check(p, radio, name, l, radio ? i === on : p.chance(0.5)))).join("\n")}</fieldset>`;
  }
  if (r < 0.54 && depth === 0) {
    const names = p.distinct("tab", p.int(2, 6));
    return k.tabs(p, names, p.int(0, names.length - 1)) + section(p, k, 1);
  }
  if (r < 0.66) {
    const cols = p.int(2, 5);
    const head = Array.from({ length: cols }, () => `<th>${esc(p.t("field"))}</th>`).join("");
    const rows = Array.from({ length: p.int(2, 7) }, () => `<tr>${Array.from({ length: cols }, (_, c) => `<td>${c === 0 && p.chance(0.5) ? `<a href="#">${esc(p.one(NAMES))}</a>` : c === cols - 1 && p.chance(0.3) ? k.button(p, p.t("action"), false) : esc(p.one([...NAMES, ...VALUES]))}</td>`).join("")}</tr>`).join("");
    return `<table class="${k.table}"><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table>`;
  }
  if (r < 0.76 && depth === 0) return k.card(p.t("title"), section(p, k, 1));
  if (r < 0.82 && depth === 0 && k.modal) return k.modal(p.t("title"), section(p, k, 1), Array.from({ length: p.int(1, 3) }, (_, i) => k.button(p, p.t("action"), i === 0)).join(" "));
  if (r < 0.88) return k.pager(p.int(3, 8), p.int(1, 3));
  if (r < 0.93) return k.breadcrumb(p.distinct("link", p.int(2, 4)));
  return `<p>${esc(p.t("text"))} <a href="#">${esc(p.t("link"))}</a></p><div>${Array.from({ length: p.int(1, 4) }, () => k.button(p, p.t("action"), false)).join(" ")}</div>`;
}

function page(p: Pick, k: Kit, dark: boolean): string {
  const css = k.css.map((c) => `<link rel="stylesheet" href="${pathToFileURL(pkgFile(c)).href}">`).join("");
  const cols = p.int(1, 3);
  const colHtml = Array.from({ length: cols }, () => `<div style="flex:1;min-width:0">${Array.from({ length: p.int(1, 3) }, () => section(p, k, 0)).join("\n")}</div>`).join("");
  const darkBody = dark && !k.dark ? ' style="background:#1f2125;color:#ddd"' : "";
  return `<!DOCTYPE html><html lang="${p.fr ? "fr" : "en"}"${dark && k.dark ? k.dark.html : ""}><head><meta charset="utf-8"><title>${esc(p.t("title"))}</title>${css}</head>
<body${darkBody}>${p.chance(0.6) ? k.nav(p, p.t("title"), p.distinct("link", p.int(2, 6))) : ""}<main class="${k.container}"><h${p.int(2, 4)}>${esc(p.t("title"))}</h2><div style="display:flex;gap:${p.int(12, 40)}px;align-items:flex-start">${colHtml}</div></main></body></html>`;
}

async function main(): Promise<void> {
  const arg = (name: string, dflt: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? (process.argv.includes(`--${name}`) ? process.argv[process.argv.indexOf(`--${name}`) + 1]! : dflt);
  const out = arg("out", join(ROOT, "training", "data", "html"));
  const start = Number(arg("start", "0"));
  const count = Number(arg("count", "10"));
  const only = arg("kits", "").split(",").filter(Boolean);
  mkdirSync(out, { recursive: true });
  const collector = readFileSync(join(ROOT, "lab", "dom-ground-truth.js"), "utf8");
  const browser = await chromium.launch({
    executablePath: process.env.RPAV_CHROMIUM ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--allow-file-access-from-files"],
  });
  keepChromiumNice();
  const renice = setInterval(keepChromiumNice, 2000);
  renice.unref();
  const tmp = join(out, ".pages");
  mkdirSync(tmp, { recursive: true });
  let made = 0;
  const contexts = new Map<number, { context: BrowserContext; page: Page }>();
  try {
    for (let i = start; i < start + count; i++) {
      const p0 = new Pick(rngFor(`html:${i}`), false);
      const k = only.length ? KITS.filter((x) => only.includes(x.name))[i % only.length]! : KITS[i % KITS.length]!;
      const id = `html-${k.name}-${String(i).padStart(5, "0")}`;
      if (existsSync(join(out, `${id}.json`))) continue;
      if (!kitInstalled(k)) {
        if (!warned.has(k.name)) process.stderr.write(`gen-html: ${k.name} is not installed (npm install --no-save ${k.css[0]!.split("/dist")[0]}): its pages are skipped\n`);
        warned.add(k.name);
        continue;
      }
      const p = new Pick(p0.r, p0.chance(0.5));
      const dark = p.chance(0.4);
      const scale = p.one([1, 1, 1.25, 1.5, 2]);
      const W = p.int(1024, 1920);
      const H = p.int(640, 1080);
      const file = join(tmp, `${id}.html`);
      writeFileSync(file, page(p, k, dark));
      // One context per device scale (a new context per page costs seconds); the viewport and colour scheme change per page.
      let ctx = contexts.get(scale);
      if (!ctx) {
        const context = await browser.newContext({ deviceScaleFactor: scale });
        await context.route("**/*", (route) => (route.request().url().startsWith("file:") || route.request().url().startsWith("data:") ? route.continue() : route.abort()));
        ctx = { context, page: await context.newPage() };
        contexts.set(scale, ctx);
      }
      const pg = ctx.page;
      await pg.setViewportSize({ width: Math.round(W / scale), height: Math.round(H / scale) });
      await pg.emulateMedia({ colorScheme: dark ? "dark" : "light" });
      try {
        await pg.goto(pathToFileURL(file).href, { waitUntil: "load", timeout: 20_000 });
        await pg.addStyleTag({ content: "*, *::before, *::after { transition: none !important; animation: none !important; caret-color: transparent !important; }" });
        await pg.waitForTimeout(100);
        await pg.addScriptTag({ content: collector });
        const gt = (await pg.evaluate("window.rpavCollectGroundTruth()")) as { elements: Array<{ type: string; label: string; bbox: number[]; source_role: string; states?: string[] }> };
        const png = await pg.screenshot({ type: "png" });
        const elements = gt.elements.map((e) => {
          const state: Record<string, boolean> = {};
          for (const s of e.states ?? []) state[s] = true;
          return { type: e.type, bbox: e.bbox, label: e.label, state, source: e.source_role };
        });
        if (elements.length === 0) continue;
        writeFileSync(join(out, `${id}.png`), png);
        const meta = { id, family: "html", subfamily: k.name, variant: { theme: k.name, dark, scale, lang: p.fr ? "fr" : "en" }, width: png.readUInt32BE(16), height: png.readUInt32BE(20), image: `${id}.png`, elements };
        writeFileSync(join(out, `${id}.json`), JSON.stringify(meta));
        made++;
        process.stdout.write(`${id} ${elements.length} elements ${W}x${H} x${scale}${dark ? " dark" : ""}\n`);
      } catch (e) {
        process.stdout.write(`${id} failed: ${String(e)}\n`);
      }
    }
  } finally {
    clearInterval(renice);
    await browser.close();
  }
  process.stdout.write(`done: ${made} new\n`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await main();
