// Pages from index 2000 on: whole-screen layouts generated from a kit's components (never copied from a template): forms
// and sections as before, a side bar of navigation, a top bar with a search field and icon buttons, dashboards of tiles
// with figures, data tables whose rows end in icon buttons, tool bars of icon-only buttons, settings pages with switches.
import { pathToFileURL } from "node:url";
import { NAMES, VALUES, esc, type Kit, type Pick, type Theme } from "./common.js";
import { ICONS, icon, iconStyle, type IconStyle } from "./icons.js";

export type Resolve = (spec: string) => string;

/** What a page is made with (its JSON variant records these). */
export interface PageInfo {
  html: string;
  layout: string;
  theme: string;
  dark: boolean;
}

interface Ctx {
  p: Pick;
  k: Kit;
  st: IconStyle;
  dark: boolean;
}

/** A kit's select without its caption (the caption is elsewhere: a settings row's title, a tile's title). */
const bareSelect = (html: string) => html.replace(/<label[^>]*>(?:(?!<\/label>|<select)[\s\S])*<\/label>/, "").replace(/(<label[^>]*>)[^<]+(<select)/, "$1$2");

const iconButton = (c: Ctx, name?: string): string => {
  const { svg, label } = icon(c.p, c.st, name);
  if (c.k.iconButton) return c.k.iconButton(c.p, svg, label);
  // A kit's own button with the icon in place of its text and the name as aria-label.
  return c.k.button(c.p, "\u0001", false).replace("\u0001", svg).replace(/^<(button|a)\b/, `<$1 aria-label="${esc(label)}" title="${esc(label)}"`);
};

const search = (c: Ctx): string => {
  const ph = c.p.fr ? c.p.one(["Rechercher…", "Rechercher", "Recherche rapide"]) : c.p.one(["Search…", "Search", "Quick search", "Type to search"]);
  return c.k.search ? c.k.search(c.p, ph) : `<input type="search" placeholder="${esc(ph)}" aria-label="${esc(ph)}" style="max-width:240px">`;
};

const group = (c: Ctx): string => {
  const ph = c.p.t("field");
  const btn = c.p.chance(0.35) ? iconButton(c, c.p.one(["search", "add", "confirm", "copy", "calendar", "next"])) : c.k.button(c.p, c.p.t("action"), c.p.chance(0.5));
  return c.k.group ? c.k.group(c.p, ph, btn) : `<div style="display:flex;gap:0;margin:.5rem 0"><input type="text" placeholder="${esc(ph)}" aria-label="${esc(ph)}" style="flex:1">${btn}</div>`;
};

const toolbar = (c: Ctx): string => {
  const n = c.p.int(3, 8);
  const names = new Set<string>();
  for (let i = 0; i < 30 && names.size < n; i++) names.add(c.p.one(ICONS));
  const groups = [...names].map((nm) => iconButton(c, nm));
  const split = c.p.int(1, groups.length - 1);
  const gap = c.p.one([2, 4, 6, 8]);
  return `<div role="toolbar" style="display:flex;flex-wrap:wrap;align-items:center;gap:${gap}px;margin:.5rem 0">${groups.slice(0, split).join("")}<span style="width:${c.p.int(6, 24)}px"></span>${groups.slice(split).join("")}${c.p.chance(0.5) ? `<span style="flex:1"></span>${search(c)}` : ""}</div>`;
};

/** A data table: optional check box per row, a link in the first column, and icon action buttons in the last. */
const dataTable = (c: Ctx): string => {
  const { p, k } = c;
  const cols = p.int(2, 5);
  const checks = p.chance(0.4);
  const actions = [...new Set(Array.from({ length: p.int(1, 3) }, () => p.one(["edit", "delete", "view", "more", "copy", "download", "print"])))];
  const head = `${checks ? `<th style="width:2.5em"></th>` : ""}${Array.from({ length: cols }, () => `<th>${esc(p.t("field"))}</th>`).join("")}<th>${esc(p.fr ? "Actions" : p.one(["Actions", ""]))}</th>`;
  const rows = Array.from({ length: p.int(3, 9) }, (_, r) => {
    const cells = Array.from({ length: cols }, (_, ci) => `<td>${ci === 0 && p.chance(0.6) ? `<a href="#">${esc(p.one(NAMES))}</a>` : esc(p.one([...NAMES, ...VALUES]))}</td>`).join("");
    const box = checks ? `<td><input type="checkbox" aria-label="${esc(`${p.fr ? "Sélectionner la ligne" : "Select row"} ${r + 1}`)}"${p.chance(0.3) ? " checked" : ""}></td>` : "";
    return `<tr>${box}${cells}<td style="white-space:nowrap">${actions.map((a) => iconButton(c, a)).join(" ")}</td></tr>`;
  }).join("");
  return `<table class="${k.table}" style="width:100%"><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table>`;
};

/** Settings rows: a title and a line of help on the left, a switch, a select or a check box on the right. */
const settingsList = (c: Ctx): string => {
  const { p, k } = c;
  const rows = Array.from({ length: p.int(3, 7) }, () => {
    const title = p.t("option");
    const on = p.fr ? p.one(["Activé", "Activer", "Oui"]) : p.one(["Enabled", "On", "Enable"]);
    const r = p.r();
    const name = p.id();
    const control = r < 0.55
      ? k.switchBare ? k.switchBare(p, title, p.chance(0.5)) : k.switch ? k.switch(p, on, p.chance(0.5)) : k.check(p, false, p.id(), on, p.chance(0.5))
      : r < 0.8 ? bareSelect(k.select(p)).replace("<select", `<select aria-label="${esc(title)}"`)
      : r < 0.92 ? `<div style="display:flex;gap:1rem">${p.distinct("option", 2).map((o, i) => k.check(p, true, name, o, i === 0)).join("")}</div>`
      : k.button(p, p.t("action"), false);
    const help = p.chance(0.6) ? `<div style="opacity:.7;font-size:.85em">${esc(p.t("text"))}</div>` : "";
    return `<div style="display:flex;justify-content:space-between;align-items:center;gap:1rem;padding:.6rem 0;border-bottom:1px solid rgba(128,128,128,.25)"><div><div><strong>${esc(title)}</strong></div>${help}</div><div style="flex:none;white-space:nowrap">${control}</div></div>`;
  }).join("");
  return rows;
};

/** A small chart drawn as SVG (a figure, not a control). */
const chart = (p: Pick): string => {
  const n = p.int(5, 12);
  const vals = Array.from({ length: n }, () => p.int(10, 90));
  const col = p.one(["#3b82f6", "#10b981", "#f59e0b", "#ef4444", "#8b5cf6", "currentColor"]);
  const w = 160;
  const h = 48;
  if (p.chance(0.5)) return `<svg width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" aria-hidden="true">${vals.map((v, i) => `<rect x="${(i * w) / n + 1}" y="${h - (v * h) / 100}" width="${w / n - 3}" height="${(v * h) / 100}" fill="${col}" opacity=".8"/>`).join("")}</svg>`;
  return `<svg width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" aria-hidden="true"><polyline fill="none" stroke="${col}" stroke-width="2" points="${vals.map((v, i) => `${(i * w) / (n - 1)},${h - (v * h) / 100}`).join(" ")}"/></svg>`;
};

const figureTile = (c: Ctx): string => {
  const { p, k } = c;
  const num = p.one([`${p.int(1, 999)}`, `${p.int(1, 99)} ${p.int(100, 999)} €`, `${p.int(1, 99)},${p.int(0, 9)} %`, `$${p.int(1, 99)}.${p.int(10, 99)}k`, `${p.int(1, 9999)}`]);
  const body = `<div style="font-size:${p.int(22, 36)}px;font-weight:${p.one([500, 600, 700])};line-height:1.2">${esc(num)}</div><div style="opacity:.75;margin:.2rem 0 .4rem">${esc(p.t("link"))} · ${p.one(["+", "−"])}${p.int(1, 40)} %</div>${p.chance(0.7) ? chart(p) : ""}${p.chance(0.35) ? `<div style="margin-top:.4rem"><a href="#">${esc(p.t("link"))}</a></div>` : ""}${p.chance(0.2) ? `<div style="margin-top:.4rem">${k.button(p, p.t("action"), false)}</div>` : ""}`;
  const title = p.t("title");
  const period = p.chance(0.25) ? bareSelect(k.select(p)).replace("<select", `<select aria-label="${esc(title)}"`) : "";
  return k.tile ? k.tile(title, period + body) : k.card(title, period + body);
};

/** A group of radio buttons (or check boxes and switches) under a legend. */
const toggles = (c: Ctx, radio = c.p.chance(0.6)): string => {
  const { p, k } = c;
  const name = p.id();
  const labels = p.distinct("option", p.int(2, 5));
  const on = p.int(0, labels.length - 1);
  return `<fieldset><legend>${esc(p.t("field"))}</legend>${labels.map((l, i) => (k.switch && !radio && p.chance(0.3) ? k.switch(p, l, p.chance(0.5)) : k.check(p, radio, name, l, radio ? i === on : p.chance(0.5)))).join("\n")}</fieldset>`;
};

/** Form rows: fields, selects (often), fields with an attached button, now and then a radio group or a check box. */
const formRows = (c: Ctx, n: number): string[] => {
  const { p, k } = c;
  const rows: string[] = [];
  for (let i = n; i > 0; i--) rows.push(p.chance(0.12) ? group(c) : p.chance(0.12) ? toggles(c, true) : p.chance(0.62) ? k.input(p) : k.select(p));
  if (p.chance(0.5)) rows.push(k.check(p, false, p.id(), p.t("option"), p.chance(0.5)));
  return rows;
};

/** One block of a page's main area. */
function section(c: Ctx, depth: number): string {
  const { p, k } = c;
  const r = p.r();
  if (r < 0.22) {
    const rows = formRows(c, p.int(2, 6));
    rows.push(`<div>${Array.from({ length: p.int(1, 3) }, (_, i) => k.button(p, p.t("action"), i === 0)).join(" ")}</div>`);
    return `<form onsubmit="return false">${rows.join("\n")}</form>`;
  }
  if (r < 0.36) return toggles(c);
  if (r < 0.48 && depth === 0) {
    const names = p.distinct("tab", p.int(2, 6));
    return k.tabs(p, names, p.int(0, names.length - 1)) + section(c, 1);
  }
  if (r < 0.58) return dataTable(c);
  if (r < 0.65) return toolbar(c);
  if (r < 0.71) return settingsList(c);
  if (r < 0.80 && depth === 0) return k.card(p.t("title"), section(c, 1));
  if (r < 0.84 && depth === 0 && k.modal) return k.modal(p.t("title"), section(c, 1), Array.from({ length: p.int(1, 3) }, (_, i) => k.button(p, p.t("action"), i === 0)).join(" "));
  if (r < 0.88) return k.pager(p.int(3, 8), p.int(1, 3));
  if (r < 0.91) return k.breadcrumb(p.distinct("link", p.int(2, 4)));
  if (r < 0.96) return group(c);
  return `<p>${esc(p.t("text"))} <a href="#">${esc(p.t("link"))}</a></p><div>${Array.from({ length: p.int(1, 4) }, () => k.button(p, p.t("action"), false)).join(" ")}</div>`;
}

const columns = (c: Ctx, n: number, per: [number, number]): string =>
  `<div style="display:flex;gap:${c.p.int(12, 40)}px;align-items:flex-start">${Array.from({ length: n }, () => `<div style="flex:1 1 0">${Array.from({ length: c.p.int(...per) }, () => section(c, 0)).join("\n")}</div>`).join("")}</div>`;

const topbar = (c: Ctx, brand: string): string => {
  const { p, k } = c;
  const tools = [p.chance(0.75) ? search(c) : "", ...Array.from({ length: p.int(1, 4) }, () => iconButton(c, p.one(["notifications", "settings", "help", "mail", "account", "calendar", "more", "refresh"]))), p.chance(0.3) ? k.button(p, p.t("action"), true) : ""].join("");
  if (k.topbar) return k.topbar(p, brand, tools);
  return `<header style="display:flex;align-items:center;gap:.6rem;padding:.5rem 1rem;border-bottom:1px solid rgba(128,128,128,.3)"><strong style="margin-right:auto">${esc(brand)}</strong>${tools}</header>`;
};

const sidebar = (c: Ctx): string => {
  const { p, k } = c;
  const links = p.distinct("link", p.int(4, 9));
  const nav = k.sidenav ? k.sidenav(p, links, p.int(0, links.length - 1)) : `<nav style="display:flex;flex-direction:column;gap:.4rem">${links.map((l) => `<a href="#">${esc(l)}</a>`).join("")}</nav>`;
  const bg = p.chance(0.4) ? (c.dark ? "background:rgba(255,255,255,.04);" : "background:rgba(0,0,0,.04);") : "";
  return `<aside style="flex:none;width:${p.int(180, 280)}px;padding:1rem .75rem;${bg}border-right:1px solid rgba(128,128,128,.25);min-height:100vh;box-sizing:border-box">${p.chance(0.5) ? `<div style="font-weight:700;margin-bottom:1rem">${esc(p.t("title"))}</div>` : ""}${nav}</aside>`;
};

const LAYOUTS = ["classic", "sidebar", "dashboard", "table", "settings", "form"] as const;

/** The main area of a layout. */
function mainOf(c: Ctx, layout: (typeof LAYOUTS)[number]): string {
  const { p, k } = c;
  const lvl = p.int(2, 4);
  const heading = `${p.chance(0.3) ? k.breadcrumb(p.distinct("link", p.int(2, 3))) : ""}<h${lvl} style="margin-top:.5rem">${esc(p.t("title"))}</h${lvl}>`;
  switch (layout) {
    case "classic":
    case "sidebar":
      return heading + columns(c, p.int(1, 3), [2, 4]);
    case "dashboard": {
      const n = p.int(2, 4);
      const tiles = Array.from({ length: n * p.int(1, 2) }, () => figureTile(c)).join("");
      return `${heading}<div style="display:grid;grid-template-columns:repeat(${n},minmax(min-content,1fr));gap:${p.int(10, 24)}px;margin-bottom:1rem">${tiles}</div>${p.chance(0.7) ? k.card(p.t("title"), dataTable(c)) : columns(c, p.int(1, 2), [1, 2])}`;
    }
    case "table":
      return `${heading}${p.chance(0.35) ? k.tabs(p, p.distinct("tab", p.int(2, 5)), p.int(0, 1)) : ""}${toolbar(c)}${dataTable(c)}${p.chance(0.6) ? k.pager(p.int(3, 8), p.int(1, 3)) : ""}`;
    case "settings": {
      const tabs = p.chance(0.5) ? k.tabs(p, p.distinct("tab", p.int(2, 5)), 0) : "";
      const body = settingsList(c) + `<div style="margin-top:1rem">${k.button(p, p.t("action"), true)} ${p.chance(0.6) ? k.button(p, p.t("action"), false) : ""}</div>`;
      return `${heading}${tabs}${p.chance(0.6) ? k.card(p.t("title"), body) : body}`;
    }
    case "form":
      return heading + (p.chance(0.35) ? k.tabs(p, p.distinct("tab", p.int(2, 5)), p.int(0, 1)) : "") + `<div style="max-width:${p.int(520, 900)}px">${k.card(p.t("title"), `<form onsubmit="return false">${formRows(c, p.int(3, 7)).join("")}${section(c, 1)}<div style="margin-top:1rem">${k.button(p, p.t("action"), true)} ${k.button(p, p.t("action"), false)}</div></form>`)}</div>`;
  }
}

/** A page of a kit for index ≥ 2000. `p` is the page's generator, already past the language and dark / light draws. */
export function page2(p: Pick, k: Kit, dark: boolean, resolve: Resolve): PageInfo {
  // A kit's own dark mode where it has one (its theme says so, or the attribute of v1 kits); a kit without one stays light
  // (a dark page behind light cards and fields leaves light text on white: unreadable captions, wrong figures).
  const t: Theme = k.theme ? k.theme(p, dark) : { css: k.css };
  const theme: Theme = { ...t, html: t.html ?? (dark && k.dark ? k.dark.html : "") };
  const isDark = t.dark ?? (dark && !!k.dark);
  const c: Ctx = { p, k, st: iconStyle(p), dark: isDark };
  const layout = p.one(LAYOUTS);
  const brand = p.t("title");
  const withTop = layout === "dashboard" || layout === "table" || p.chance(0.5);
  const withSide = layout === "sidebar" || ((layout === "dashboard" || layout === "settings" || layout === "table") && p.chance(0.6));
  const top = withTop ? topbar(c, brand) : p.chance(0.4) ? k.nav(p, brand, p.distinct("link", p.int(2, 6))) : "";
  const main = `<main class="${k.container}" style="flex:1 1 0;align-content:start;padding:${p.int(10, 28)}px">${mainOf(c, layout)}</main>`;
  let body = withSide ? `${top}<div style="display:flex;align-items:stretch">${sidebar(c)}${main}</div>` : `${top}${main}`;
  if (k.frame) body = k.frame(p, brand, body);
  const css = theme.css.map((s) => `<link rel="stylesheet" href="${pathToFileURL(resolve(s)).href}">`).join("");
  const html = `<!DOCTYPE html><html lang="${p.fr ? "fr" : "en"}"${theme.html ?? ""}><head><meta charset="utf-8"><title>${esc(brand)}</title>${css}${theme.head ?? ""}</head>\n<body${theme.body ?? ""}>${body}</body></html>`;
  return { html, layout, theme: theme.name ?? k.name, dark: isDark };
}
