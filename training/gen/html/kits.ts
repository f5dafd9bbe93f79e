// The kits of the HTML generator: one CSS framework's markup per component. The first five make pages 0–1999 and must
// not change (their pages are listed in the data manifest); the others, and generated styles (synth.ts), join from 2000 on.
import { disabled, esc, VALUES, type Kit, type Pick } from "./common.js";
import { synth } from "./synth.js";

export const bootstrap = (v: 4 | 5): Kit => ({
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
  // From index 2000 on:
  search: (_p, ph) => `<input class="form-control" type="search" placeholder="${esc(ph)}" aria-label="${esc(ph)}" style="max-width:260px">`,
  group: (_p, ph, btn) => `<div class="input-group mb-3"><input type="text" class="form-control" placeholder="${esc(ph)}">${v === 5 ? btn : `<div class="input-group-append">${btn}</div>`}</div>`,
  sidenav: (p, links, a) => (p.chance(0.5) ? `<ul class="nav ${p.one(["nav-pills", ""])} flex-column">${links.map((l, i) => `<li class="nav-item"><a class="nav-link${i === a ? " active" : ""}" href="#">${esc(l)}</a></li>`).join("")}</ul>` : `<div class="list-group">${links.map((l, i) => `<a href="#" class="list-group-item list-group-item-action${i === a ? " active" : ""}">${esc(l)}</a>`).join("")}</div>`),
  topbar: (p, brand, tools) => `<nav class="navbar navbar-expand ${p.one(["navbar-dark bg-dark", "navbar-dark bg-primary", "navbar-light bg-light", "navbar-light bg-body-tertiary border-bottom"])}"><div class="container-fluid"><a class="navbar-brand" href="#">${esc(brand)}</a><div class="d-flex align-items-center gap-2" style="gap:.5rem">${tools}</div></div></nav>`,
  iconButton: (p, svg, label) => `<button type="button" class="btn ${p.one(["btn-light", "btn-outline-secondary", "btn-link", "btn-secondary", "btn-outline-primary"])}${p.chance(0.5) ? " btn-sm" : ""}" aria-label="${esc(label)}" title="${esc(label)}">${svg}</button>`,
  switchBare: (p, label, checked) => (v === 5 ? `<div class="form-check form-switch"><input class="form-check-input" type="checkbox" role="switch" aria-label="${esc(label)}"${checked ? " checked" : ""}></div>` : `<div class="custom-control custom-switch">${((id) => `<input type="checkbox" class="custom-control-input" role="switch" id="${id}"${checked ? " checked" : ""}><label class="custom-control-label" for="${id}" aria-label="${esc(label)}"></label>`)(p.id())}</div>`),
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
  search: (_p, ph) => `<div class="control"><input class="input" type="search" placeholder="${esc(ph)}" aria-label="${esc(ph)}"></div>`,
  group: (_p, ph, btn) => `<div class="field has-addons"><div class="control is-expanded"><input class="input" type="text" placeholder="${esc(ph)}"></div><div class="control">${btn}</div></div>`,
  sidenav: (p, links, a) => `<aside class="menu"><p class="menu-label">${esc(p.t("title"))}</p><ul class="menu-list">${links.map((l, i) => `<li><a href="#"${i === a ? ' class="is-active"' : ""}>${esc(l)}</a></li>`).join("")}</ul></aside>`,
  topbar: (p, brand, tools) => `<nav class="navbar${p.one(["", " is-dark", " is-primary", " is-link", " is-light"])}"><div class="navbar-brand"><a class="navbar-item" href="#"><strong>${esc(brand)}</strong></a></div><div class="navbar-menu is-active"><div class="navbar-end"><div class="navbar-item"><div class="buttons" style="align-items:center;gap:.5rem">${tools}</div></div></div></div></nav>`,
  iconButton: (p, svg, label) => `<button class="button${p.one(["", " is-white", " is-light", " is-primary is-outlined", " is-ghost"])}${p.chance(0.5) ? " is-small" : ""}" aria-label="${esc(label)}" title="${esc(label)}"><span class="icon">${svg}</span></button>`,
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
  search: (_p, ph) => `<input type="search" name="search" placeholder="${esc(ph)}" aria-label="${esc(ph)}" style="margin:0;max-width:260px">`,
  group: (_p, ph, btn) => `<fieldset role="group"><input type="text" placeholder="${esc(ph)}">${btn.replace(/ style="[^"]*"/, "")}</fieldset>`,
  sidenav: (_p, links, a) => `<nav><ul style="flex-direction:column;align-items:stretch">${links.map((l, i) => `<li style="padding:.25rem 0"><a href="#"${i === a ? ' aria-current="page"' : ' class="secondary"'}>${esc(l)}</a></li>`).join("")}</ul></nav>`,
  switchBare: (_p, label, checked) => `<input type="checkbox" role="switch" aria-label="${esc(label)}"${checked ? " checked" : ""}>`,
  iconButton: (p, svg, label) => `<button type="button" class="${p.one(["secondary", "outline", "secondary outline", "contrast outline"])}" aria-label="${esc(label)}" title="${esc(label)}" style="width:auto;display:inline-block;padding:.4rem .55rem;margin:0">${svg}</button>`,
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

/** The kits of pages 0–1999 (html-<kit>-<i>, kit i % 5): kept as they are, the data manifest lists those pages. */
export const KITS: Kit[] = [bootstrap(5), bootstrap(4), bulma, pico, foundation];

// ---- Kits from index 2000 on. ----

const opts = (p: Pick) => p.distinct("option", p.int(2, 5)).map((o) => `<option>${esc(o)}</option>`).join("");
const val = (p: Pick) => (p.chance(0.5) ? `value="${esc(p.one(VALUES))}"` : `placeholder="${esc(p.t("field"))}"`);
const typeFor = (f: string) => (f.startsWith("Mot de passe") || f === "Password" ? "password" : f.includes("mail") ? "email" : "text");
const items = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
/** A stand-in card for kits without one. */
const boxCard = (style: string) => (title: string, body: string) => `<div style="${style}"><h4 style="margin-top:0">${esc(title)}</h4>${body}</div>`;

const bootstrap3: Kit = {
  name: "bootstrap3",
  css: ["bootstrap3/dist/css/bootstrap.min.css"],
  theme: (p) => ({ css: ["bootstrap3/dist/css/bootstrap.min.css", ...(p.chance(0.4) ? ["bootstrap3/dist/css/bootstrap-theme.min.css"] : [])] }),
  button: (p, label, primary) => `<button type="button" class="btn ${primary ? "btn-primary" : p.one(["btn-default", "btn-default", "btn-success", "btn-info", "btn-warning", "btn-danger", "btn-link"])}${p.chance(0.2) ? p.one([" btn-sm", " btn-lg", " btn-xs"]) : ""}"${disabled(p)}>${esc(label)}</button>`,
  input: (p) => {
    const id = p.id();
    const f = p.t("field");
    return `<div class="form-group"><label for="${id}" class="control-label">${esc(f)}</label><input type="${typeFor(f)}" class="form-control${p.chance(0.15) ? " input-sm" : ""}" id="${id}" ${val(p)}${disabled(p)}></div>`;
  },
  select: (p) => {
    const id = p.id();
    return `<div class="form-group"><label for="${id}">${esc(p.t("field"))}</label><select id="${id}" class="form-control"${disabled(p)}>${opts(p)}</select></div>`;
  },
  check: (p, radio, name, label, checked) => {
    const t = radio ? "radio" : "checkbox";
    const input = `<input type="${t}" name="${name}"${checked ? " checked" : ""}${disabled(p)}>`;
    return p.chance(0.3) ? `<label class="${t}-inline">${input} ${esc(label)}</label>` : `<div class="${t}"><label>${input} ${esc(label)}</label></div>`;
  },
  tabs: (p, names, active) => `<ul class="nav ${p.one(["nav-tabs", "nav-pills", "nav-tabs"])}" role="tablist" style="margin-bottom:15px">${names.map((n, i) => `<li role="presentation"${i === active ? ' class="active"' : ""}><a href="#" role="tab" aria-selected="${i === active}">${esc(n)}</a></li>`).join("")}</ul>`,
  nav: (p, brand, links) => `<nav class="navbar ${p.one(["navbar-default", "navbar-inverse"])}"><div class="container-fluid"><div class="navbar-header"><a class="navbar-brand" href="#">${esc(brand)}</a></div><ul class="nav navbar-nav">${links.map((l, i) => `<li${i === 0 ? ' class="active"' : ""}><a href="#">${esc(l)}</a></li>`).join("")}</ul>${p.chance(0.5) ? `<form class="navbar-form navbar-right"><div class="form-group"><input type="text" class="form-control" placeholder="${esc(p.t("action"))}"></div> <button type="button" class="btn btn-default">${esc(p.t("action"))}</button></form>` : ""}</div></nav>`,
  card: (title, body) => `<div class="panel panel-default"><div class="panel-heading"><h3 class="panel-title">${esc(title)}</h3></div><div class="panel-body">${body}</div></div>`,
  table: "table table-striped table-hover",
  pager: (n, a) => `<nav><ul class="pagination">${["«", ...items(n).map(String), "»"].map((l, i) => `<li${i === a ? ' class="active"' : ""}><a href="#">${l}</a></li>`).join("")}</ul></nav>`,
  breadcrumb: (xs) => `<ol class="breadcrumb">${xs.map((it, i) => (i === xs.length - 1 ? `<li class="active">${esc(it)}</li>` : `<li><a href="#">${esc(it)}</a></li>`)).join("")}</ol>`,
  modal: (title, body, footer) => `<div class="modal" style="position:relative;display:block;z-index:1" tabindex="-1"><div class="modal-dialog"><div class="modal-content"><div class="modal-header"><button type="button" class="close" aria-label="Close"><span>&times;</span></button><h4 class="modal-title">${esc(title)}</h4></div><div class="modal-body">${body}</div><div class="modal-footer">${footer}</div></div></div></div>`,
  container: "container-fluid",
  search: (_p, ph) => `<input type="search" class="form-control input-sm" placeholder="${esc(ph)}" aria-label="${esc(ph)}" style="width:220px">`,
  group: (_p, ph, btn) => `<div class="input-group" style="margin-bottom:15px"><input type="text" class="form-control" placeholder="${esc(ph)}"><span class="input-group-btn">${btn}</span></div>`,
  sidenav: (p, links, a) => (p.chance(0.5) ? `<ul class="nav nav-pills nav-stacked">${links.map((l, i) => `<li${i === a ? ' class="active"' : ""}><a href="#">${esc(l)}</a></li>`).join("")}</ul>` : `<div class="list-group">${links.map((l, i) => `<a href="#" class="list-group-item${i === a ? " active" : ""}">${esc(l)}</a>`).join("")}</div>`),
  topbar: (p, brand, tools) => `<nav class="navbar ${p.one(["navbar-default", "navbar-inverse"])}" style="border-radius:0"><div class="container-fluid"><div class="navbar-header"><a class="navbar-brand" href="#">${esc(brand)}</a></div><div class="navbar-form navbar-right" style="display:flex;gap:6px;align-items:center">${tools}</div></div></nav>`,
  iconButton: (p, svg, label) => `<button type="button" class="btn ${p.one(["btn-default", "btn-default", "btn-link", "btn-primary"])}${p.chance(0.5) ? " btn-sm" : ""}" aria-label="${esc(label)}" title="${esc(label)}">${svg}</button>`,
};

const BOOTSWATCH = ["brite", "cerulean", "cosmo", "cyborg", "darkly", "flatly", "journal", "litera", "lumen", "lux", "materia", "minty", "morph", "pulse", "quartz", "sandstone", "simplex", "sketchy", "slate", "solar", "spacelab", "superhero", "united", "vapor", "yeti", "zephyr"];
const BOOTSWATCH_DARK = new Set(["cyborg", "darkly", "slate", "solar", "superhero", "vapor", "quartz"]);
const bootswatch: Kit = {
  ...bootstrap(5),
  name: "bootswatch",
  css: ["bootswatch/dist/flatly/bootstrap.min.css"],
  theme: (p, dark) => {
    const t = p.one(BOOTSWATCH);
    return { name: t, css: [`bootswatch/dist/${t}/bootstrap.min.css`], html: dark || BOOTSWATCH_DARK.has(t) ? ' data-bs-theme="dark"' : "", dark: dark || BOOTSWATCH_DARK.has(t) };
  },
};

const spectre: Kit = {
  name: "spectre",
  css: ["spectre.css/dist/spectre.min.css"],
  button: (p, label, primary) => `<button class="btn${primary ? " btn-primary" : p.one(["", "", " btn-link", " btn-success", " btn-error"])}${p.chance(0.2) ? p.one([" btn-sm", " btn-lg"]) : ""}"${disabled(p)}>${esc(label)}</button>`,
  input: (p) => {
    const id = p.id();
    const f = p.t("field");
    return `<div class="form-group"><label class="form-label" for="${id}">${esc(f)}</label><input class="form-input${p.chance(0.15) ? " input-sm" : ""}" type="${typeFor(f)}" id="${id}" ${val(p)}${disabled(p)}></div>`;
  },
  select: (p) => {
    const id = p.id();
    return `<div class="form-group"><label class="form-label" for="${id}">${esc(p.t("field"))}</label><select class="form-select" id="${id}"${disabled(p)}>${opts(p)}</select></div>`;
  },
  check: (p, radio, name, label, checked) => `<div class="form-group"><label class="form-${radio ? "radio" : "checkbox"}${p.chance(0.3) ? " form-inline" : ""}"><input type="${radio ? "radio" : "checkbox"}" name="${name}"${checked ? " checked" : ""}${disabled(p)}><i class="form-icon"></i> ${esc(label)}</label></div>`,
  switch: (_p, label, checked) => `<div class="form-group"><label class="form-switch"><input type="checkbox" role="switch"${checked ? " checked" : ""}><i class="form-icon"></i> ${esc(label)}</label></div>`,
  switchBare: (_p, label, checked) => `<label class="form-switch" style="margin:0"><input type="checkbox" role="switch" aria-label="${esc(label)}"${checked ? " checked" : ""}><i class="form-icon"></i></label>`,
  tabs: (p, names, active) => `<ul class="tab${p.chance(0.3) ? " tab-block" : ""}" role="tablist">${names.map((n, i) => `<li class="tab-item${i === active ? " active" : ""}"><a href="#" role="tab" aria-selected="${i === active}">${esc(n)}</a></li>`).join("")}</ul>`,
  nav: (p, brand, links) => `<header class="navbar" style="padding:.5rem 1rem;${p.chance(0.5) ? "background:#f7f8f9" : ""}"><section class="navbar-section"><a href="#" class="navbar-brand text-bold mr-2">${esc(brand)}</a>${links.map((l) => `<a href="#" class="btn btn-link">${esc(l)}</a>`).join("")}</section><section class="navbar-section"><div class="input-group input-inline"><input class="form-input" type="text" placeholder="${esc(p.t("action"))}"><button class="btn btn-primary input-group-btn">${esc(p.t("action"))}</button></div></section></header>`,
  card: (title, body) => `<div class="card" style="margin-bottom:1rem"><div class="card-header"><div class="card-title h5">${esc(title)}</div></div><div class="card-body">${body}</div></div>`,
  table: "table table-striped table-hover",
  pager: (n, a) => `<ul class="pagination">${items(n).map((i) => `<li class="page-item${i === a ? " active" : ""}"><a href="#">${i}</a></li>`).join("")}</ul>`,
  breadcrumb: (xs) => `<ul class="breadcrumb">${xs.map((it, i) => `<li class="breadcrumb-item">${i === xs.length - 1 ? esc(it) : `<a href="#">${esc(it)}</a>`}</li>`).join("")}</ul>`,
  modal: (title, body, footer) => `<div class="modal active" style="position:relative;display:flex;padding:0;z-index:1;overflow:visible;align-items:flex-start"><div class="modal-container" style="max-height:none"><div class="modal-header"><a href="#" class="btn btn-clear float-right" aria-label="Close"></a><div class="modal-title h5">${esc(title)}</div></div><div class="modal-body" style="max-height:none">${body}</div><div class="modal-footer">${footer}</div></div></div>`,
  container: "container",
  search: (_p, ph) => `<input class="form-input" type="search" placeholder="${esc(ph)}" aria-label="${esc(ph)}" style="width:220px">`,
  group: (_p, ph, btn) => `<div class="input-group" style="margin-bottom:.8rem"><input class="form-input" type="text" placeholder="${esc(ph)}">${btn.replace('class="btn', 'class="btn input-group-btn')}</div>`,
  sidenav: (p, links, a) => (p.chance(0.5) ? `<ul class="nav">${links.map((l, i) => `<li class="nav-item${i === a ? " active" : ""}"><a href="#">${esc(l)}</a></li>`).join("")}</ul>` : `<ul class="menu">${links.map((l, i) => `<li class="menu-item"><a href="#"${i === a ? ' class="active"' : ""}>${esc(l)}</a></li>`).join("")}</ul>`),
  topbar: (p, brand, tools) => `<header class="navbar" style="padding:.6rem 1rem;border-bottom:1px solid #e7e9ed;${p.chance(0.4) ? "background:#f7f8f9" : ""}"><section class="navbar-section"><a href="#" class="navbar-brand text-bold">${esc(brand)}</a></section><section class="navbar-section" style="gap:.4rem">${tools}</section></header>`,
  iconButton: (p, svg, label) => `<button class="btn${p.one(["", " btn-link", " btn-primary", " btn-action", " btn-action s-circle"])}${p.chance(0.3) ? " btn-sm" : ""}" aria-label="${esc(label)}" title="${esc(label)}" style="display:inline-flex;align-items:center;justify-content:center">${svg}</button>`,
};

const pure: Kit = {
  name: "pure",
  css: ["purecss/build/pure-min.css"],
  button: (p, label, primary) => `<button type="button" class="pure-button${primary ? " pure-button-primary" : p.one(["", "", " pure-button-active"])}"${disabled(p)}>${esc(label)}</button>`,
  input: (p) => {
    const id = p.id();
    const f = p.t("field");
    return `<div class="pure-control-group"><label for="${id}">${esc(f)}</label><input id="${id}" type="${typeFor(f)}" ${val(p)}${disabled(p)}></div>`;
  },
  select: (p) => {
    const id = p.id();
    return `<div class="pure-control-group"><label for="${id}">${esc(p.t("field"))}</label><select id="${id}"${disabled(p)}>${opts(p)}</select></div>`;
  },
  check: (p, radio, name, label, checked) => {
    const id = p.id();
    return `<label for="${id}" class="pure-${radio ? "radio" : "checkbox"}"><input id="${id}" type="${radio ? "radio" : "checkbox"}" name="${name}"${checked ? " checked" : ""}${disabled(p)}> ${esc(label)}</label>`;
  },
  tabs: (_p, names, active) => `<div class="pure-menu pure-menu-horizontal" style="border-bottom:1px solid #ddd;margin-bottom:1em"><ul class="pure-menu-list" role="tablist">${names.map((n, i) => `<li class="pure-menu-item${i === active ? " pure-menu-selected" : ""}"><a href="#" class="pure-menu-link" role="tab" aria-selected="${i === active}"${i === active ? ' style="border-bottom:2px solid #0078e7"' : ""}>${esc(n)}</a></li>`).join("")}</ul></div>`,
  nav: (p, brand, links) => `<div class="pure-menu pure-menu-horizontal" style="background:${p.one(["#f2f2f2", "#1f8dd6", "#2d3e50"])};padding:.3em 1em"><a href="#" class="pure-menu-heading pure-menu-link">${esc(brand)}</a><ul class="pure-menu-list">${links.map((l, i) => `<li class="pure-menu-item${i === 0 ? " pure-menu-selected" : ""}"><a href="#" class="pure-menu-link">${esc(l)}</a></li>`).join("")}</ul></div>`,
  card: boxCard("border:1px solid #ddd;padding:1em;margin-bottom:1em;border-radius:2px"),
  table: "pure-table pure-table-striped",
  pager: (n, a) => `<div class="pure-button-group" role="group">${items(n).map((i) => `<button class="pure-button${i === a ? " pure-button-active" : ""}">${i}</button>`).join("")}</div>`,
  breadcrumb: (xs) => `<p>${xs.map((it, i) => (i === xs.length - 1 ? esc(it) : `<a href="#">${esc(it)}</a> / `)).join("")}</p>`,
  container: "pure-form pure-form-stacked",
  search: (_p, ph) => `<input type="search" placeholder="${esc(ph)}" aria-label="${esc(ph)}" style="display:inline-block;width:220px;margin:0">`,
  group: (_p, ph, btn) => `<div style="display:flex;gap:.3em;margin:.5em 0"><input type="text" placeholder="${esc(ph)}" style="display:inline-block;margin:0;flex:1">${btn}</div>`,
  sidenav: (p, links, a) => `<div class="pure-menu"><span class="pure-menu-heading">${esc(p.t("title"))}</span><ul class="pure-menu-list">${links.map((l, i) => `<li class="pure-menu-item${i === a ? " pure-menu-selected" : ""}"><a href="#" class="pure-menu-link">${esc(l)}</a></li>`).join("")}</ul></div>`,
  iconButton: (p, svg, label) => `<button type="button" class="pure-button${p.chance(0.2) ? " pure-button-primary" : ""}" aria-label="${esc(label)}" title="${esc(label)}" style="padding:.4em .6em">${svg}</button>`,
};

const uikit: Kit = {
  name: "uikit",
  css: ["uikit/dist/css/uikit.min.css"],
  // Dark: uk-light (light text and controls) on dark surfaces everywhere, bars and cards included.
  theme: (_p, dark) => ({ css: ["uikit/dist/css/uikit.min.css"], body: dark ? ' class="uk-light" style="background:#222"' : "", head: dark ? "<style>.uk-navbar-container,.uk-navbar-container:not(.uk-navbar-transparent){background:#111}.uk-card-default{background:#2d2d2d;color:#ccc}.uk-card-default .uk-card-title{color:#fff}</style>" : "", dark }),
  button: (p, label, primary) => `<button class="uk-button ${primary ? "uk-button-primary" : p.one(["uk-button-default", "uk-button-default", "uk-button-secondary", "uk-button-danger", "uk-button-text", "uk-button-link"])}${p.chance(0.2) ? p.one([" uk-button-small", " uk-button-large"]) : ""}"${disabled(p)}>${esc(label)}</button>`,
  input: (p) => {
    const id = p.id();
    const f = p.t("field");
    return `<div class="uk-margin"><label class="uk-form-label" for="${id}">${esc(f)}</label><div class="uk-form-controls"><input class="uk-input${p.chance(0.15) ? " uk-form-small" : ""}" id="${id}" type="${typeFor(f)}" ${val(p)}${disabled(p)}></div></div>`;
  },
  select: (p) => {
    const id = p.id();
    return `<div class="uk-margin"><label class="uk-form-label" for="${id}">${esc(p.t("field"))}</label><div class="uk-form-controls"><select class="uk-select" id="${id}"${disabled(p)}>${opts(p)}</select></div></div>`;
  },
  check: (p, radio, name, label, checked) => `<div class="uk-margin-small"><label><input class="uk-${radio ? "radio" : "checkbox"}" type="${radio ? "radio" : "checkbox"}" name="${name}"${checked ? " checked" : ""}${disabled(p)}> ${esc(label)}</label></div>`,
  tabs: (p, names, active) => `<ul class="${p.one(["uk-tab", "uk-tab", "uk-subnav uk-subnav-pill", "uk-subnav uk-subnav-divider"])}" role="tablist">${names.map((n, i) => `<li${i === active ? ' class="uk-active"' : ""}><a href="#" role="tab" aria-selected="${i === active}">${esc(n)}</a></li>`).join("")}</ul>`,
  nav: (p, brand, links) => `<nav class="uk-navbar-container uk-navbar${p.chance(0.3) ? " uk-light" : ""}" style="${p.chance(0.3) ? "background:#222" : ""}"><div class="uk-navbar-left"><a class="uk-navbar-item uk-logo" href="#">${esc(brand)}</a><ul class="uk-navbar-nav">${links.map((l, i) => `<li${i === 0 ? ' class="uk-active"' : ""}><a href="#">${esc(l)}</a></li>`).join("")}</ul></div></nav>`,
  card: (title, body) => `<div class="uk-card uk-card-default uk-card-body uk-margin"><h3 class="uk-card-title">${esc(title)}</h3>${body}</div>`,
  table: "uk-table uk-table-striped uk-table-hover uk-table-divider",
  pager: (n, a) => `<ul class="uk-pagination">${items(n).map((i) => (i === a ? `<li class="uk-active"><span>${i}</span></li>` : `<li><a href="#">${i}</a></li>`)).join("")}</ul>`,
  breadcrumb: (xs) => `<ul class="uk-breadcrumb">${xs.map((it, i) => (i === xs.length - 1 ? `<li><span>${esc(it)}</span></li>` : `<li><a href="#">${esc(it)}</a></li>`)).join("")}</ul>`,
  modal: (title, body, footer) => `<div class="uk-modal-dialog uk-margin" style="position:relative"><button class="uk-modal-close-default uk-close" type="button" aria-label="Close">×</button><div class="uk-modal-header"><h2 class="uk-modal-title">${esc(title)}</h2></div><div class="uk-modal-body">${body}</div><div class="uk-modal-footer uk-text-right">${footer}</div></div>`,
  container: "uk-container uk-container-expand uk-padding-small",
  search: (_p, ph) => `<input class="uk-input uk-form-width-medium uk-form-small" type="search" placeholder="${esc(ph)}" aria-label="${esc(ph)}">`,
  group: (_p, ph, btn) => `<div class="uk-margin" style="display:flex"><input class="uk-input" type="text" placeholder="${esc(ph)}">${btn}</div>`,
  sidenav: (p, links, a) => `<ul class="uk-nav ${p.one(["uk-nav-default", "uk-nav-primary"])}"><li class="uk-nav-header">${esc(p.t("title"))}</li>${links.map((l, i) => `<li${i === a ? ' class="uk-active"' : ""}><a href="#">${esc(l)}</a></li>`).join("")}</ul>`,
  topbar: (p, brand, tools) => `<nav class="uk-navbar-container uk-navbar" style="padding:0 1rem"><div class="uk-navbar-left"><a class="uk-navbar-item uk-logo" href="#">${esc(brand)}</a></div><div class="uk-navbar-right" style="gap:.5rem">${tools}</div></nav>`,
  iconButton: (p, svg, label) => `<button class="uk-button ${p.one(["uk-button-default", "uk-button-default", "uk-button-primary", "uk-button-text"])} uk-button-small" aria-label="${esc(label)}" title="${esc(label)}" style="padding:0 8px">${svg}</button>`,
};

const fomantic: Kit = {
  name: "fomantic",
  css: ["fomantic-ui-css/semantic.min.css"],
  // Dark: Fomantic's inverted look by hand (its inverted variants are per component): dark segments, light text and tabs.
  theme: (_p, dark) => ({
    css: ["fomantic-ui-css/semantic.min.css"],
    body: dark ? ' style="background:#1b1c1d;color:#ddd"' : "",
    head: dark ? "<style>.ui.segment{background:#2a2b2d;color:#ddd;border-color:#444}.ui.form .field>label,.ui.form legend,.ui.checkbox label,.ui.header{color:#e8e8e8!important}.ui.tabular.menu .item{color:#bbb}.ui.tabular.menu .active.item{background:#2a2b2d;color:#fff;border-color:#444}.ui.secondary.menu .item{color:#ccc}.ui.table{background:#2a2b2d;color:#ddd}</style>" : "",
    dark,
  }),
  button: (p, label, primary) => `<button class="ui ${primary ? "primary" : p.one(["", "", "basic", "secondary", "red", "positive", "basic primary"])}${p.chance(0.2) ? p.one([" mini", " small", " large"]) : ""} button"${disabled(p)}>${esc(label)}</button>`,
  input: (p) => {
    const f = p.t("field");
    const id = p.id();
    return `<div class="field${p.chance(0.07) ? " disabled" : ""}"><label for="${id}">${esc(f)}</label><input id="${id}" type="${typeFor(f)}" ${val(p)}></div>`;
  },
  select: (p) => {
    const id = p.id();
    return `<div class="field"><label for="${id}">${esc(p.t("field"))}</label><select class="ui dropdown" id="${id}"${disabled(p)}>${opts(p)}</select></div>`;
  },
  check: (p, radio, name, label, checked) => {
    const id = p.id();
    return `<div class="field"><div class="ui ${radio ? "radio " : ""}checkbox"><input type="${radio ? "radio" : "checkbox"}" id="${id}" name="${name}"${checked ? " checked" : ""}${disabled(p)}><label for="${id}">${esc(label)}</label></div></div>`;
  },
  switch: (p, label, checked) => {
    const id = p.id();
    return `<div class="field"><div class="ui ${p.one(["toggle", "slider"])} checkbox"><input type="checkbox" role="switch" id="${id}"${checked ? " checked" : ""}><label for="${id}">${esc(label)}</label></div></div>`;
  },
  switchBare: (p, label, checked) => {
    const id = p.id();
    return `<div class="ui toggle checkbox"><input type="checkbox" role="switch" id="${id}" aria-label="${esc(label)}"${checked ? " checked" : ""}><label for="${id}"></label></div>`;
  },
  tabs: (p, names, active) => `<div class="ui ${p.one(["top attached tabular", "secondary pointing", "pointing", "secondary"])} menu" role="tablist">${names.map((n, i) => `<a href="#" class="${i === active ? "active " : ""}item" role="tab" aria-selected="${i === active}">${esc(n)}</a>`).join("")}</div>`,
  nav: (p, brand, links) => `<div class="ui ${p.one(["", "inverted", "secondary pointing", "blue inverted"])} menu" style="border-radius:0;margin:0"><div class="header item">${esc(brand)}</div>${links.map((l, i) => `<a href="#" class="${i === 0 ? "active " : ""}item">${esc(l)}</a>`).join("")}</div>`,
  card: (title, body) => `<div class="ui segment"><h4 class="ui dividing header">${esc(title)}</h4>${body}</div>`,
  table: "ui celled striped table",
  pager: (n, a) => `<div class="ui pagination menu">${items(n).map((i) => `<a href="#" class="${i === a ? "active " : ""}item">${i}</a>`).join("")}</div>`,
  breadcrumb: (xs) => `<div class="ui breadcrumb">${xs.map((it, i) => (i === xs.length - 1 ? `<div class="active section">${esc(it)}</div>` : `<a href="#" class="section">${esc(it)}</a><span class="divider">/</span>`)).join("")}</div>`,
  modal: (title, body, footer) => `<div class="ui modal" style="display:block;position:relative;margin:1rem 0;left:auto;top:auto"><div class="header">${esc(title)}</div><div class="content">${body}</div><div class="actions">${footer}</div></div>`,
  container: "ui form",
  search: (p, ph) => `<div class="ui ${p.one(["", "small", "mini"])} input"><input type="search" placeholder="${esc(ph)}" aria-label="${esc(ph)}"></div>`,
  group: (_p, ph, btn) => `<div class="field"><div class="ui action input"><input type="text" placeholder="${esc(ph)}">${btn}</div></div>`,
  sidenav: (p, links, a) => `<div class="ui ${p.one(["vertical", "secondary vertical pointing", "secondary vertical", "vertical fluid"])} menu">${links.map((l, i) => `<a href="#" class="${i === a ? "active " : ""}item">${esc(l)}</a>`).join("")}</div>`,
  topbar: (p, brand, tools) => `<div class="ui ${p.one(["", "inverted", "borderless", "blue inverted"])} menu" style="border-radius:0;margin:0"><div class="header item">${esc(brand)}</div><div class="right menu"><div class="item" style="gap:.4rem">${tools}</div></div></div>`,
  iconButton: (p, svg, label) => `<button class="ui ${p.one(["", "basic", "primary", "circular", "mini basic"])} icon button" aria-label="${esc(label)}" title="${esc(label)}" style="line-height:0">${svg}</button>`,
};

const milligram: Kit = {
  name: "milligram",
  css: ["milligram/dist/milligram.min.css"],
  button: (p, label, primary) => `<button class="button${primary ? "" : p.one([" button-outline", " button-clear", ""])}"${disabled(p)} style="margin-right:.5rem">${esc(label)}</button>`,
  input: (p) => {
    const id = p.id();
    const f = p.t("field");
    return `<label for="${id}">${esc(f)}</label><input type="${typeFor(f)}" id="${id}" ${val(p)}${disabled(p)}>`;
  },
  select: (p) => {
    const id = p.id();
    return `<label for="${id}">${esc(p.t("field"))}</label><select id="${id}"${disabled(p)}>${opts(p)}</select>`;
  },
  check: (p, radio, name, label, checked) => {
    const id = p.id();
    return `<div><input type="${radio ? "radio" : "checkbox"}" id="${id}" name="${name}"${checked ? " checked" : ""}${disabled(p)}> <label class="label-inline" for="${id}">${esc(label)}</label></div>`;
  },
  tabs: (_p, names, active) => `<nav role="tablist" style="display:flex;gap:.2rem;margin-bottom:1.5rem">${names.map((n, i) => `<a href="#" role="tab" aria-selected="${i === active}" class="button${i === active ? "" : " button-clear"}" style="margin:0">${esc(n)}</a>`).join("")}</nav>`,
  nav: (p, brand, links) => `<nav style="display:flex;align-items:center;gap:2rem;padding:1rem 2rem;border-bottom:.1rem solid #eaeaea;${p.chance(0.4) ? "background:#f4f5f6" : ""}"><strong>${esc(brand)}</strong>${links.map((l) => `<a href="#">${esc(l)}</a>`).join("")}</nav>`,
  card: boxCard("border:.1rem solid #d1d1d1;border-radius:.4rem;padding:2rem;margin-bottom:2rem"),
  table: "",
  pager: (n, a) => `<div>${items(n).map((i) => `<button class="button button-small${i === a ? "" : " button-outline"}" style="margin-right:.3rem">${i}</button>`).join("")}</div>`,
  breadcrumb: (xs) => `<p>${xs.map((it, i) => (i === xs.length - 1 ? esc(it) : `<a href="#">${esc(it)}</a> › `)).join("")}</p>`,
  container: "container",
  search: (_p, ph) => `<input type="search" placeholder="${esc(ph)}" aria-label="${esc(ph)}" style="margin:0;width:240px">`,
  group: (_p, ph, btn) => `<div style="display:flex;gap:.5rem;margin-bottom:1.5rem"><input type="text" placeholder="${esc(ph)}" style="margin:0">${btn.replace("margin-right:.5rem", "margin:0")}</div>`,
  topbar: (_p, brand, tools) => `<nav style="display:flex;align-items:center;gap:1rem;padding:1rem 2rem;border-bottom:.1rem solid #eaeaea"><strong style="margin-right:auto">${esc(brand)}</strong>${tools}</nav>`,
  iconButton: (p, svg, label) => `<button class="button ${p.one(["button-outline", "button-clear", ""])}" aria-label="${esc(label)}" title="${esc(label)}" style="margin:0;padding:0 1rem;line-height:0">${svg}</button>`,
};

const chota: Kit = {
  name: "chota",
  css: ["chota/dist/chota.min.css"],
  theme: (_p, dark) => ({ css: ["chota/dist/chota.min.css"], body: dark ? ' class="dark"' : "", dark }),
  button: (p, label, primary) => `<button class="button ${primary ? "primary" : p.one(["", "outline", "secondary", "dark", "error", "clear", "outline primary"])}"${disabled(p)}>${esc(label)}</button>`,
  input: (p) => {
    const id = p.id();
    const f = p.t("field");
    return `<p><label for="${id}">${esc(f)}</label><input type="${typeFor(f)}" id="${id}" ${val(p)}${disabled(p)}></p>`;
  },
  select: (p) => {
    const id = p.id();
    return `<p><label for="${id}">${esc(p.t("field"))}</label><select id="${id}"${disabled(p)}>${opts(p)}</select></p>`;
  },
  check: (p, radio, name, label, checked) => {
    const id = p.id();
    return `<div><input type="${radio ? "radio" : "checkbox"}" id="${id}" name="${name}"${checked ? " checked" : ""}${disabled(p)}><label for="${id}">${esc(label)}</label></div>`;
  },
  tabs: (_p, names, active) => `<nav class="tabs" role="tablist">${names.map((n, i) => `<a href="#" role="tab" aria-selected="${i === active}"${i === active ? ' class="active"' : ""}>${esc(n)}</a>`).join("")}</nav>`,
  nav: (p, brand, links) => `<nav class="nav" style="${p.chance(0.4) ? "background:var(--bg-secondary-color)" : ""}"><div class="nav-left"><a class="brand" href="#">${esc(brand)}</a>${links.map((l, i) => `<a href="#"${i === 0 ? ' class="active"' : ""}>${esc(l)}</a>`).join("")}</div></nav>`,
  card: (title, body) => `<div class="card" style="margin-bottom:1.5rem"><header><h4>${esc(title)}</h4></header>${body}</div>`,
  table: "striped",
  pager: (n, a) => `<p class="grouped">${items(n).map((i) => `<button class="button${i === a ? " primary" : " outline"}">${i}</button>`).join("")}</p>`,
  breadcrumb: (xs) => `<p>${xs.map((it, i) => (i === xs.length - 1 ? esc(it) : `<a href="#">${esc(it)}</a> / `)).join("")}</p>`,
  container: "container",
  search: (_p, ph) => `<input type="search" placeholder="${esc(ph)}" aria-label="${esc(ph)}" style="width:240px">`,
  group: (_p, ph, btn) => `<p class="grouped"><input type="text" placeholder="${esc(ph)}">${btn}</p>`,
  sidenav: (_p, links, a) => `<nav class="tabs is-vertical" style="flex-direction:column;align-items:stretch">${links.map((l, i) => `<a href="#"${i === a ? ' class="active"' : ""}>${esc(l)}</a>`).join("")}</nav>`,
  topbar: (p, brand, tools) => `<nav class="nav" style="padding:0 1rem;${p.chance(0.4) ? "background:var(--bg-secondary-color)" : ""}"><div class="nav-left"><a class="brand" href="#">${esc(brand)}</a></div><div class="nav-right" style="gap:.4rem;align-items:center">${tools}</div></nav>`,
  iconButton: (p, svg, label) => `<button class="button ${p.one(["icon-only", "outline icon-only", "clear icon-only", "primary icon-only"])}" aria-label="${esc(label)}" title="${esc(label)}">${svg}</button>`,
};

const papercss: Kit = {
  name: "papercss",
  css: ["papercss/dist/paper.min.css"],
  theme: (_p, dark) => ({ css: ["papercss/dist/paper.min.css"], html: dark ? ' class="dark"' : "", dark }),
  button: (p, label, primary) => `<button class="${primary ? "btn-primary" : p.one(["", "", "btn-secondary", "btn-success", "btn-danger", "btn-warning"])}${p.chance(0.2) ? p.one([" btn-small", " btn-large"]) : ""}"${disabled(p)}>${esc(label)}</button>`,
  input: (p) => {
    const id = p.id();
    const f = p.t("field");
    return `<div class="form-group"><label for="${id}">${esc(f)}</label><input type="${typeFor(f)}" id="${id}" ${val(p)}${disabled(p)}></div>`;
  },
  select: (p) => {
    const id = p.id();
    return `<div class="form-group"><label for="${id}">${esc(p.t("field"))}</label><select id="${id}"${disabled(p)}>${opts(p)}</select></div>`;
  },
  check: (p, radio, name, label, checked) => `<div class="form-group"><label class="paper-${radio ? "radio" : "check"}"><input type="${radio ? "radio" : "checkbox"}" name="${name}"${checked ? " checked" : ""}${disabled(p)}><span>${esc(label)}</span></label></div>`,
  switchBare: (_p, label, checked) => `<label class="paper-switch" style="margin:0"><input type="checkbox" role="switch" aria-label="${esc(label)}"${checked ? " checked" : ""}><span class="paper-switch-slider round"></span></label>`,
  tabs: (p, names, active) => {
    const g = p.id();
    return `<div class="row" role="tablist" style="gap:.2rem;border-bottom:1px solid #ccc;margin-bottom:1rem">${names.map((n, i) => `<label role="tab" aria-selected="${i === active}" style="padding:.5rem 1rem;margin:0;${i === active ? "border-bottom:3px solid #41403e;font-weight:bold" : "color:#888"}" id="${g}-${i}">${esc(n)}</label>`).join("")}</div>`;
  },
  nav: (_p, brand, links) => `<nav class="border split-nav"><div class="nav-brand"><h3><a href="#">${esc(brand)}</a></h3></div><div class="collapsible-body"><ul class="inline">${links.map((l) => `<li><a href="#">${esc(l)}</a></li>`).join("")}</ul></div></nav>`,
  card: (title, body) => `<div class="card" style="margin-bottom:1.5rem"><div class="card-body"><h4 class="card-title">${esc(title)}</h4>${body}</div></div>`,
  table: "table-hover",
  pager: (n, a) => `<div class="row" style="gap:.3rem">${items(n).map((i) => `<button class="btn-small${i === a ? " btn-primary" : ""}">${i}</button>`).join("")}</div>`,
  breadcrumb: (xs) => `<p>${xs.map((it, i) => (i === xs.length - 1 ? esc(it) : `<a href="#">${esc(it)}</a> / `)).join("")}</p>`,
  container: "paper container",
  search: (_p, ph) => `<input type="search" placeholder="${esc(ph)}" aria-label="${esc(ph)}" style="display:inline-block;width:220px;margin:0">`,
  group: (_p, ph, btn) => `<div class="row" style="gap:.5rem;align-items:center;flex-wrap:nowrap"><input type="text" placeholder="${esc(ph)}" style="margin:0;flex:1">${btn}</div>`,
  topbar: (_p, brand, tools) => `<nav class="border split-nav" style="align-items:center"><div class="nav-brand"><h4 style="margin:0"><a href="#">${esc(brand)}</a></h4></div><div style="display:flex;gap:.4rem;align-items:center">${tools}</div></nav>`,
  iconButton: (p, svg, label) => `<button class="${p.one(["btn-small", "btn-small", "btn-small btn-secondary"])}" aria-label="${esc(label)}" title="${esc(label)}" style="line-height:0;padding:.4rem .6rem">${svg}</button>`,
};

const PRIMER = ["@primer/primitives/dist/css/base/size/size.css", "@primer/primitives/dist/css/base/typography/typography.css", "@primer/primitives/dist/css/functional/size/size.css", "@primer/primitives/dist/css/functional/size/border.css", "@primer/primitives/dist/css/functional/size/radius.css", "@primer/primitives/dist/css/functional/typography/typography.css"];
const primer: Kit = {
  name: "primer",
  css: ["@primer/css/dist/primer.css"],
  theme: (p, dark) => {
    const t = dark ? p.one(["dark", "dark_dimmed", "dark_high_contrast"]) : p.one(["light", "light", "light_high_contrast"]);
    const file = t.replace(/_/g, "-");
    return { name: t, css: [...PRIMER, `@primer/primitives/dist/css/functional/themes/${file}.css`, "@primer/css/dist/primer.css"], html: ` data-color-mode="${dark ? "dark" : "light"}" data-light-theme="${t}" data-dark-theme="${t}"`, body: ' style="background:var(--bgColor-default);color:var(--fgColor-default)"', dark };
  },
  button: (p, label, primary) => `<button type="button" class="btn${primary ? " btn-primary" : p.one(["", "", " btn-danger", " btn-outline", " btn-invisible"])}${p.chance(0.2) ? p.one([" btn-sm", " btn-large"]) : ""} mr-2"${disabled(p)}>${esc(label)}</button>`,
  input: (p) => {
    const id = p.id();
    const f = p.t("field");
    return `<div class="form-group"><div class="form-group-header"><label for="${id}">${esc(f)}</label></div><div class="form-group-body"><input class="form-control${p.chance(0.15) ? " input-sm" : ""}" type="${typeFor(f)}" id="${id}" ${val(p)}${disabled(p)}></div></div>`;
  },
  select: (p) => {
    const id = p.id();
    return `<div class="form-group"><div class="form-group-header"><label for="${id}">${esc(p.t("field"))}</label></div><div class="form-group-body"><select class="form-select" id="${id}"${disabled(p)}>${opts(p)}</select></div></div>`;
  },
  check: (p, radio, name, label, checked) => `<div class="form-checkbox"><label><input type="${radio ? "radio" : "checkbox"}" name="${name}"${checked ? " checked" : ""}${disabled(p)}> ${esc(label)}</label></div>`,
  tabs: (_p, names, active) => `<nav class="subnav" role="tablist" style="margin-bottom:1rem">${names.map((n, i) => `<a href="#" class="subnav-item${i === active ? " selected" : ""}" role="tab" aria-selected="${i === active}"${i === active ? ' aria-current="page"' : ""}>${esc(n)}</a>`).join("")}</nav>`,
  nav: (_p, brand, links) => `<div class="Header"><div class="Header-item"><a href="#" class="Header-link f4">${esc(brand)}</a></div>${links.map((l) => `<div class="Header-item"><a href="#" class="Header-link">${esc(l)}</a></div>`).join("")}</div>`,
  card: (title, body) => `<div class="Box mb-3"><div class="Box-header"><h3 class="Box-title">${esc(title)}</h3></div><div class="Box-body">${body}</div></div>`,
  table: "",
  pager: (n, a) => `<nav class="paginate-container"><div class="pagination">${items(n).map((i) => (i === a ? `<em class="current" aria-current="page">${i}</em>` : `<a href="#">${i}</a>`)).join("")}</div></nav>`,
  breadcrumb: (xs) => `<nav aria-label="Breadcrumb" class="mb-2">${xs.map((it, i) => (i === xs.length - 1 ? `<span class="color-fg-muted">${esc(it)}</span>` : `<a href="#">${esc(it)}</a> / `)).join("")}</nav>`,
  container: "container-lg p-3",
  search: (_p, ph) => `<input class="form-control input-sm" type="search" placeholder="${esc(ph)}" aria-label="${esc(ph)}" style="width:240px">`,
  group: (_p, ph, btn) => `<div class="input-group mb-3" style="max-width:480px"><input class="form-control" type="text" placeholder="${esc(ph)}"><span class="input-group-button">${btn.replace(" mr-2", "")}</span></div>`,
  sidenav: (_p, links, a) => `<nav class="SideNav border">${links.map((l, i) => `<a class="SideNav-item" href="#"${i === a ? ' aria-current="page"' : ""}>${esc(l)}</a>`).join("")}</nav>`,
  topbar: (_p, brand, tools) => `<div class="Header"><div class="Header-item Header-item--full"><a href="#" class="Header-link f4">${esc(brand)}</a></div><div class="Header-item" style="gap:.5rem">${tools.replace(/class="form-control/g, 'class="form-control input-dark')}</div></div>`,
  iconButton: (p, svg, label) => `<button type="button" class="btn${p.one(["", " btn-invisible", " btn-sm", " btn-octicon"])}" aria-label="${esc(label)}" title="${esc(label)}">${svg}</button>`,
};

const pf = "pf-v6-c";
const patternfly: Kit = {
  name: "patternfly",
  css: ["@patternfly/patternfly/patternfly.min.css"],
  theme: (_p, dark) => ({ css: ["@patternfly/patternfly/patternfly.min.css"], html: dark ? ' class="pf-v6-theme-dark"' : "", body: ' style="background:var(--pf-t--global--background--color--primary--default)"', dark }),
  button: (p, label, primary) => `<button class="${pf}-button pf-m-${primary ? "primary" : p.one(["secondary", "secondary", "tertiary", "danger", "link", "warning"])}${p.chance(0.2) ? p.one([" pf-m-small", " pf-m-display-lg"]) : ""}" type="button"${disabled(p)} style="margin-right:.5rem"><span class="${pf}-button__text">${esc(label)}</span></button>`,
  input: (p) => {
    const id = p.id();
    const f = p.t("field");
    const dis = disabled(p);
    return `<div class="${pf}-form__group"><div class="${pf}-form__group-label"><label class="${pf}-form__label" for="${id}"><span class="${pf}-form__label-text">${esc(f)}</span></label></div><div class="${pf}-form__group-control"><span class="${pf}-form-control${dis ? " pf-m-disabled" : ""}"><input type="${typeFor(f)}" id="${id}" ${val(p)}${dis}></span></div></div>`;
  },
  select: (p) => {
    const id = p.id();
    return `<div class="${pf}-form__group"><div class="${pf}-form__group-label"><label class="${pf}-form__label" for="${id}"><span class="${pf}-form__label-text">${esc(p.t("field"))}</span></label></div><div class="${pf}-form__group-control"><span class="${pf}-form-control"><select id="${id}"${disabled(p)}>${opts(p)}</select><span class="${pf}-form-control__utilities"><span class="${pf}-form-control__toggle-icon"><svg width="10" height="10" viewBox="0 0 10 10" aria-hidden="true"><path d="M1 3l4 4 4-4" fill="none" stroke="currentColor" stroke-width="1.5"/></svg></span></span></span></div></div>`;
  },
  check: (p, radio, name, label, checked) => {
    const id = p.id();
    const c = radio ? "radio" : "check";
    return `<div class="${pf}-${c}"><input class="${pf}-${c}__input" type="${radio ? "radio" : "checkbox"}" id="${id}" name="${name}"${checked ? " checked" : ""}${disabled(p)}><label class="${pf}-${c}__label" for="${id}">${esc(label)}</label></div>`;
  },
  switch: (p, label, checked) => {
    const id = p.id();
    return `<div style="margin:.4rem 0"><label class="${pf}-switch" for="${id}"><input class="${pf}-switch__input" type="checkbox" role="switch" id="${id}"${checked ? " checked" : ""}><span class="${pf}-switch__toggle"></span><span class="${pf}-switch__label">${esc(label)}</span></label></div>`;
  },
  switchBare: (p, label, checked) => {
    const id = p.id();
    return `<label class="${pf}-switch" for="${id}"><input class="${pf}-switch__input" type="checkbox" role="switch" id="${id}" aria-label="${esc(label)}"${checked ? " checked" : ""}><span class="${pf}-switch__toggle"></span></label>`;
  },
  tabs: (p, names, active) => `<div class="${pf}-tabs${p.chance(0.4) ? " pf-m-box" : ""}" style="margin-bottom:1rem"><ul class="${pf}-tabs__list" role="tablist">${names.map((n, i) => `<li class="${pf}-tabs__item${i === active ? " pf-m-current" : ""}" role="presentation"><button type="button" class="${pf}-tabs__link" role="tab" aria-selected="${i === active}"><span class="${pf}-tabs__item-text">${esc(n)}</span></button></li>`).join("")}</ul></div>`,
  nav: (_p, brand, links) => `<header style="display:flex;align-items:center;gap:1.5rem;padding:.5rem 1.5rem;background:var(--pf-t--global--background--color--secondary--default)"><strong>${esc(brand)}</strong><nav class="${pf}-nav pf-m-horizontal"><ul class="${pf}-nav__list">${links.map((l, i) => `<li class="${pf}-nav__item"><a href="#" class="${pf}-nav__link${i === 0 ? " pf-m-current" : ""}">${esc(l)}</a></li>`).join("")}</ul></nav></header>`,
  card: (title, body) => `<div class="${pf}-card" style="margin-bottom:1rem"><div class="${pf}-card__title"><h3 class="${pf}-card__title-text">${esc(title)}</h3></div><div class="${pf}-card__body">${body}</div></div>`,
  table: `${pf}-table`,
  pager: (n, a) => `<div style="display:flex;gap:.25rem">${items(n).map((i) => `<button class="${pf}-button pf-m-${i === a ? "primary" : "plain"}" type="button"><span class="${pf}-button__text">${i}</span></button>`).join("")}</div>`,
  breadcrumb: (xs) => `<nav class="${pf}-breadcrumb" aria-label="breadcrumb"><ol class="${pf}-breadcrumb__list">${xs.map((it, i) => `<li class="${pf}-breadcrumb__item">${i > 0 ? `<span class="${pf}-breadcrumb__item-divider">›</span>` : ""}${i === xs.length - 1 ? `<span>${esc(it)}</span>` : `<a href="#" class="${pf}-breadcrumb__link">${esc(it)}</a>`}</li>`).join("")}</ol></nav>`,
  container: `${pf}-form`,
  search: (_p, ph) => `<span class="${pf}-form-control" style="width:260px"><input type="search" placeholder="${esc(ph)}" aria-label="${esc(ph)}"></span>`,
  group: (_p, ph, btn) => `<div class="${pf}-input-group"><div class="${pf}-input-group__item pf-m-fill"><span class="${pf}-form-control"><input type="text" placeholder="${esc(ph)}" aria-label="${esc(ph)}"></span></div><div class="${pf}-input-group__item">${btn.replace(' style="margin-right:.5rem"', "")}</div></div>`,
  sidenav: (_p, links, a) => `<nav class="${pf}-nav"><ul class="${pf}-nav__list">${links.map((l, i) => `<li class="${pf}-nav__item"><a href="#" class="${pf}-nav__link${i === a ? " pf-m-current" : ""}">${esc(l)}</a></li>`).join("")}</ul></nav>`,
  topbar: (_p, brand, tools) => `<header style="display:flex;align-items:center;gap:.5rem;padding:.5rem 1.5rem;background:var(--pf-t--global--background--color--secondary--default);border-bottom:1px solid var(--pf-t--global--border--color--default)"><strong style="margin-right:auto">${esc(brand)}</strong>${tools}</header>`,
  iconButton: (p, svg, label) => `<button class="${pf}-button pf-m-${p.one(["plain", "plain", "secondary", "control"])}" type="button" aria-label="${esc(label)}" title="${esc(label)}"><span class="${pf}-button__icon">${svg}</span></button>`,
};

const materialize: Kit = {
  name: "materialize",
  css: ["@materializecss/materialize/dist/css/materialize.min.css"],
  theme: (_p, dark) => ({ css: ["@materializecss/materialize/dist/css/materialize.min.css"], html: dark ? ' theme="dark"' : "", body: ' style="background:var(--md-sys-color-background);color:var(--md-sys-color-on-background)"', dark }),
  button: (p, label, primary) => `<button class="btn ${primary ? "filled" : p.one(["tonal", "outlined", "text", "elevated", "filled"])}${p.chance(0.2) ? " btn-small" : ""}" style="margin-right:.5rem"${disabled(p)}>${esc(label)}</button>`,
  input: (p) => {
    const id = p.id();
    const f = p.t("field");
    const v = p.r();
    // Material 3 fields (filled or outlined, the label floats); materialize 2 leaves their height to the page.
    const content = v < 0.4 ? `value="${esc(p.one(VALUES))}" placeholder=" "` : v < 0.7 ? `placeholder="${esc(p.t("field"))}"` : `placeholder=" "`;
    return `<div class="input-field${p.chance(0.5) ? " outlined" : ""}" style="margin:16px 0"><input id="${id}" type="${typeFor(f)}" ${content}${disabled(p)} style="height:56px;width:100%"><label for="${id}">${esc(f)}</label></div>`;
  },
  select: (p) => {
    const id = p.id();
    return `<div style="margin:1rem 0"><label for="${id}">${esc(p.t("field"))}</label><select class="browser-default" id="${id}"${disabled(p)}>${opts(p)}</select></div>`;
  },
  check: (p, radio, name, label, checked) => `<p><label><input type="${radio ? "radio" : "checkbox"}"${radio ? (p.chance(0.5) ? ' class="with-gap"' : "") : p.chance(0.4) ? ' class="filled-in"' : ""} name="${name}"${checked ? " checked" : ""}${disabled(p)}><span>${esc(label)}</span></label></p>`,
  switch: (p, label, checked) => `<div class="switch" style="margin:.5rem 0"><label>${esc(p.fr ? "Non" : "Off")}<input type="checkbox" role="switch" aria-label="${esc(label)}"${checked ? " checked" : ""}><span class="lever"></span>${esc(p.fr ? "Oui" : "On")}</label> ${esc(label)}</div>`,
  tabs: (_p, names, active) => `<ul class="tabs" role="tablist" style="margin-bottom:1rem">${names.map((n, i) => `<li class="tab"><a href="#" role="tab" aria-selected="${i === active}"${i === active ? ' class="active" style="border-bottom:2px solid var(--md-sys-color-primary)"' : ""}>${esc(n)}</a></li>`).join("")}</ul>`,
  nav: (_p, brand, links) => `<nav style="display:flex;align-items:center;gap:1.5rem;padding:0 1.5rem;height:64px;background:var(--md-sys-color-primary);color:var(--md-sys-color-on-primary)"><span style="font-size:1.5rem;margin-right:1rem">${esc(brand)}</span>${links.map((l) => `<a href="#" style="color:inherit">${esc(l)}</a>`).join("")}</nav>`,
  card: (title, body) => `<div class="card"><div class="card-content"><span class="card-title">${esc(title)}</span>${body}</div></div>`,
  table: "striped highlight",
  pager: (n, a) => `<ul class="pagination">${items(n).map((i) => `<li class="${i === a ? "active" : "waves-effect"}"><a href="#">${i}</a></li>`).join("")}</ul>`,
  breadcrumb: (xs) => `<p>${xs.map((it, i) => (i === xs.length - 1 ? esc(it) : `<a href="#">${esc(it)}</a> › `)).join("")}</p>`,
  container: "container",
  search: (_p, ph) => `<div class="input-field" style="margin:0;width:240px"><input type="search" placeholder="${esc(ph)}" aria-label="${esc(ph)}" style="height:44px;width:100%;padding-top:0"></div>`,
  group: (_p, ph, btn) => `<div style="display:flex;gap:.5rem;align-items:center;margin:16px 0"><div class="input-field outlined" style="flex:1;min-width:0"><input type="text" placeholder="${esc(ph)}" aria-label="${esc(ph)}" style="height:56px;width:100%;padding-top:0"></div>${btn}</div>`,
  sidenav: (_p, links, a) => `<div class="collection">${links.map((l, i) => `<a href="#" class="collection-item${i === a ? " active" : ""}">${esc(l)}</a>`).join("")}</div>`,
  topbar: (p, brand, tools) => `<nav style="display:flex;align-items:center;gap:.5rem;padding:0 1rem;min-height:64px;${p.chance(0.5) ? "background:var(--md-sys-color-primary-container);color:var(--md-sys-color-on-primary-container)" : "background:var(--md-sys-color-surface-container);color:var(--md-sys-color-on-surface)"}"><span style="margin-right:auto;font-size:1.4rem">${esc(brand)}</span>${tools}</nav>`,
  iconButton: (p, svg, label) => `<button class="btn ${p.one(["text", "tonal", "outlined", "filled"])} icon-left" aria-label="${esc(label)}" title="${esc(label)}" style="padding:0 10px;line-height:0">${svg}</button>`,
};

/** Desktop-looking kits (98.css, XP.css, 7.css): native-looking widgets, the page in a window with a title bar. */
const desktop = (name: string, css: string[], bg: string[], tabAsButton: boolean): Kit => ({
  name,
  css,
  theme: (p) => ({ css, body: ` style="background:${p.one(bg)};margin:0;padding:${p.int(8, 40)}px"`, dark: false }),
  button: (p, label, primary) => `<button type="button"${primary && p.chance(0.5) ? ' class="default"' : ""}${disabled(p)} style="margin:2px 4px 2px 0">${esc(label)}</button>`,
  input: (p) => {
    const id = p.id();
    const f = p.t("field");
    return p.chance(0.5)
      ? `<div class="field-row-stacked" style="max-width:320px"><label for="${id}">${esc(f)}</label><input id="${id}" type="${typeFor(f)}" ${val(p)}${disabled(p)}></div>`
      : `<div class="field-row"><label for="${id}" style="min-width:110px">${esc(f)}</label><input id="${id}" type="${typeFor(f)}" ${val(p)}${disabled(p)}></div>`;
  },
  select: (p) => {
    const id = p.id();
    return `<div class="field-row"><label for="${id}" style="min-width:110px">${esc(p.t("field"))}</label><select id="${id}"${disabled(p)}>${opts(p)}</select></div>`;
  },
  check: (p, radio, name, label, checked) => {
    const id = p.id();
    return `<div class="field-row"><input type="${radio ? "radio" : "checkbox"}" id="${id}" name="${name}"${checked ? " checked" : ""}${disabled(p)}><label for="${id}">${esc(label)}</label></div>`;
  },
  tabs: (_p, names, active) =>
    tabAsButton
      ? `<menu role="tablist">${names.map((n, i) => `<button role="tab" aria-selected="${i === active}">${esc(n)}</button>`).join("")}</menu>`
      : `<menu role="tablist">${names.map((n, i) => `<li role="tab" aria-selected="${i === active}"><a href="#">${esc(n)}</a></li>`).join("")}</menu>`,
  nav: (p, _brand, links) => `<div style="display:flex;gap:4px;margin:4px 0 8px">${links.map((l) => `<button type="button">${esc(l)}</button>`).join("")}${p.chance(0.5) ? `<input type="search" placeholder="${esc(p.t("action"))}" style="margin-left:auto">` : ""}</div>`,
  card: (title, body) => `<fieldset style="margin-bottom:10px"><legend>${esc(title)}</legend>${body}</fieldset>`,
  table: "",
  pager: (n, a) => `<div style="display:flex;gap:2px">${items(n).map((i) => `<button type="button"${i === a ? ' class="active" aria-pressed="true"' : ""} style="min-width:28px">${i}</button>`).join("")}</div>`,
  breadcrumb: (xs) => `<p>${xs.map((it, i) => (i === xs.length - 1 ? esc(it) : `<a href="#">${esc(it)}</a> &gt; `)).join("")}</p>`,
  modal: (title, body, footer) => `<div class="window" style="max-width:520px;margin:8px 0"><div class="title-bar"><div class="title-bar-text">${esc(title)}</div><div class="title-bar-controls"><button aria-label="Close"></button></div></div><div class="window-body">${body}<div style="display:flex;justify-content:flex-end;gap:6px;margin-top:8px">${footer}</div></div></div>`,
  container: "",
  search: (_p, ph) => `<input type="search" placeholder="${esc(ph)}" aria-label="${esc(ph)}" style="width:200px">`,
  group: (_p, ph, btn) => `<div class="field-row"><input type="text" placeholder="${esc(ph)}" aria-label="${esc(ph)}" style="flex:1">${btn}</div>`,
  sidenav: (_p, links, a) => `<ul class="tree-view">${links.map((l, i) => `<li>${i === a ? `<strong><a href="#">${esc(l)}</a></strong>` : `<a href="#">${esc(l)}</a>`}</li>`).join("")}</ul>`,
  topbar: (_p, _brand, tools) => `<div style="display:flex;align-items:center;gap:4px;padding:2px 0 6px;border-bottom:1px solid #888;margin-bottom:6px">${tools}</div>`,
  // 98.css draws button text as a shadow of transparent text: the icon needs a colour of its own.
  iconButton: (_p, svg, label) => `<button type="button" aria-label="${esc(label)}" title="${esc(label)}" style="min-width:0;padding:2px 4px;line-height:0;color:#1b1b1b">${svg}</button>`,
  tile: (title, body) => `<fieldset><legend>${esc(title)}</legend>${body}</fieldset>`,
  frame: (p, title, body) => `<div class="window${name === "win7" ? " active" : ""}" style="width:${p.int(70, 100)}%;min-width:min-content;box-sizing:border-box"><div class="title-bar"><div class="title-bar-text">${esc(title)}</div><div class="title-bar-controls"><button aria-label="Minimize"></button><button aria-label="Maximize"></button><button aria-label="Close"></button></div></div><div class="window-body${name === "win7" ? " has-space" : ""}">${body}</div>${p.chance(0.4) ? `<div class="status-bar"><p class="status-bar-field">${esc(p.t("text"))}</p><p class="status-bar-field">${esc(p.t("link"))}</p></div>` : ""}</div>`,
});

const win98 = desktop("win98", ["98.css/dist/98.css"], ["#008080", "#c0c0c0", "#3a6ea5", "#808080"], false);
const winxp = desktop("winxp", ["xp.css/dist/XP.css"], ["#3a6ea5", "#5a7edc", "#ece9d8", "#004e98"], false);
const win7 = desktop("win7", ["7.css/dist/7.css"], ["linear-gradient(#1c5a8a,#6aa6d6)", "#2b5797", "#d9e4f1", "linear-gradient(135deg,#0e3c66,#3e8ed0)"], true);

/**
 * The kits of pages 2000 on (html-<kit>-<i>, kit i % KITS2.length): the v1 kits that install from npm (foundation-sites
 * does not: its pages would be holes), the kits above, and synth three times (its pages teach "any style"). Append only.
 */
export const KITS2: Kit[] = [bootstrap(5), bootstrap(4), bulma, pico, bootstrap3, bootswatch, spectre, pure, uikit, fomantic, milligram, chota, papercss, primer, patternfly, materialize, win98, winxp, win7, synth, synth, synth];

/**
 * The kits of pages 10000 on (html-<kit>-<i>, kit i % KITS3.length): those whose check box and radio are the <input>
 * itself as drawn (the accessible-size sheet of gen-html.ts resizes it; a kit that hides the input and draws a box on its
 * label would leave the ground truth on the hidden input).
 */
export const KITS3: Kit[] = [bootstrap(5), pico, bootswatch, pure, uikit, milligram, chota, primer, synth, synth];
