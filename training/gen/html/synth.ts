// The synth kit: plain semantic HTML styled by CSS generated at random for each page (seeded): light and dark palettes,
// radius 0–20 px, border widths and colours, shadows, Debian fonts and sizes, paddings, check boxes / radios / switches
// drawn with appearance:none, custom select arrows, underline / pill / boxed / segmented tabs, icon-only buttons, input
// groups with an attached button, search fields in top bars. The family that teaches the detector "any style".
import { disabled, esc, VALUES, type Kit, type Pick, type Theme } from "./common.js";

const FONTS = ["DejaVu Sans", "DejaVu Serif", "Liberation Sans", "Liberation Serif", "Noto Sans", "Noto Serif", "Cantarell", "Nimbus Sans", "URW Gothic", "C059", "P052", "DejaVu Sans Mono", "Liberation Mono"];
const SANS = ["DejaVu Sans", "Liberation Sans", "Noto Sans", "Cantarell", "Nimbus Sans"];

const hsl = (h: number, s: number, l: number) => `hsl(${Math.round(h)} ${Math.round(s)}% ${Math.round(l)}%)`;
const svgUrl = (svg: string) => `url("data:image/svg+xml,${encodeURIComponent(svg)}")`;

/** The generated style sheet of one page. */
function styleSheet(p: Pick, dark: boolean): string {
  const h = p.int(0, 359);
  const s = p.int(0, 30);
  const ah = p.chance(0.6) ? p.int(0, 359) : (h + p.int(-30, 30) + 360) % 360;
  const as = p.int(45, 95);
  const bg = dark ? hsl(h, s, p.int(6, 16)) : hsl(h, s, p.int(93, 100));
  const surface = dark ? hsl(h, s, p.int(12, 22)) : p.chance(0.6) ? "#fff" : hsl(h, s, p.int(96, 100));
  const text = dark ? hsl(h, p.int(0, 20), p.int(82, 96)) : hsl(h, p.int(0, 30), p.int(8, 25));
  const muted = dark ? hsl(h, 10, p.int(55, 70)) : hsl(h, 10, p.int(38, 52));
  const border = dark ? hsl(h, s, p.int(26, 42)) : hsl(h, s, p.int(68, 88));
  const al = dark ? p.int(52, 68) : p.int(32, 52);
  const accent = hsl(ah, as, al);
  const onAccent = al > 58 ? "#111" : "#fff";
  const danger = hsl(p.int(350, 365) % 360, p.int(60, 85), dark ? 60 : 45);
  const fieldBg = dark ? hsl(h, s, p.int(8, 18)) : p.chance(0.8) ? "#fff" : hsl(h, s, p.int(94, 98));
  const r = p.one([0, 0, 2, 3, 4, 4, 6, 8, 10, 12, 16, 20]);
  const rb = p.chance(0.2) ? 999 : r;
  const bw = p.one([0, 1, 1, 1, 1, 2, 2, 3]);
  const fbw = Math.max(1, p.one([1, 1, 1, 2, bw]));
  const shadow = p.one(["none", "none", "0 1px 2px rgba(0,0,0,.15)", "0 2px 6px rgba(0,0,0,.18)", "0 4px 14px rgba(0,0,0,.2)", `0 0 0 1px ${border}`]);
  const font = p.chance(0.7) ? p.one(SANS) : p.one(FONTS);
  const fs = p.int(12, 18);
  const py = p.int(3, 12);
  const px = p.int(8, 22);
  const box = p.int(13, 22);
  const boxR = p.one([0, 2, 3, 4, 5, Math.floor(box / 2)]);
  const gap = p.int(6, 18);
  const weight = p.one([400, 500, 600, 700]);
  const upper = p.chance(0.15) ? "text-transform:uppercase;letter-spacing:.04em;" : "";
  const btnStyle = p.one(["solid", "solid", "outline", "soft", "flat"]);
  const secBg = btnStyle === "soft" ? hsl(ah, as, dark ? 25 : 92) : btnStyle === "flat" ? "transparent" : surface;
  const secText = btnStyle === "soft" ? hsl(ah, as, dark ? 80 : 30) : text;
  const fieldStyle = p.one(["box", "box", "box", "underline", "filled"]);
  const field =
    fieldStyle === "underline"
      ? `border:0;border-bottom:${fbw + 1}px solid ${border};border-radius:0;background:transparent;`
      : fieldStyle === "filled"
        ? `border:0;border-bottom:2px solid ${border};border-radius:${Math.min(r, 8)}px ${Math.min(r, 8)}px 0 0;background:${dark ? hsl(h, s, 22) : hsl(h, s, 92)};`
        : `border:${fbw}px solid ${border};border-radius:${r}px;background:${fieldBg};`;
  const labelLeft = p.chance(0.3);
  const tabStyle = p.one(["underline", "pill", "boxed", "segmented", "plain"]);
  const arrow = p.one(["chevron", "triangle", "double", "native"]);
  const arrowSvg =
    arrow === "chevron"
      ? `<svg xmlns="http://www.w3.org/2000/svg" width="12" height="12" viewBox="0 0 12 12"><path d="M2 4l4 4 4-4" fill="none" stroke="${muted}" stroke-width="1.6"/></svg>`
      : arrow === "triangle"
        ? `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" viewBox="0 0 10 10"><path d="M1 3h8L5 8z" fill="${muted}"/></svg>`
        : `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="14" viewBox="0 0 10 14"><path d="M2 5l3-3 3 3M2 9l3 3 3-3" fill="none" stroke="${muted}" stroke-width="1.4"/></svg>`;
  const tick = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><path d="M3.5 8.5l3 3 6-7" fill="none" stroke="${onAccent}" stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round"/></svg>`;
  const swW = Math.round(box * p.one([1.6, 1.8, 2])) + 4;
  const swH = box + 2;
  const swR = p.chance(0.8) ? swH : p.one([0, 3, 4]);
  const knob = p.chance(0.8) ? "circle" : "square";
  const knobImg = (on: boolean) => `${knob === "circle" ? "radial-gradient(circle" : "linear-gradient(#fff,#fff)"}${knob === "circle" ? ` at ${on ? swW - swH / 2 : swH / 2}px 50%, #fff ${swH / 2 - 3}px, transparent ${swH / 2 - 2}px)` : ""}`;
  const tab = {
    underline: `.x-tabs{border-bottom:1px solid ${border};gap:${p.int(0, 16)}px}.x-tab{background:none;border:0;border-bottom:${p.int(2, 3)}px solid transparent;border-radius:0;color:${muted}}.x-tab[aria-selected=true]{border-bottom-color:${accent};color:${text};font-weight:600}`,
    pill: `.x-tabs{gap:${p.int(2, 10)}px}.x-tab{background:none;border:0;border-radius:${rb === 999 ? 999 : Math.max(r, 4)}px;color:${muted}}.x-tab[aria-selected=true]{background:${accent};color:${onAccent}}`,
    boxed: `.x-tabs{border-bottom:1px solid ${border}}.x-tab{background:none;border:1px solid transparent;border-bottom:0;border-radius:${Math.min(r, 8)}px ${Math.min(r, 8)}px 0 0;margin-bottom:-1px;color:${muted}}.x-tab[aria-selected=true]{background:${surface};border-color:${border};color:${text}}`,
    segmented: `.x-tabs{display:inline-flex!important;border:1px solid ${border};border-radius:${r}px;padding:2px;background:${dark ? hsl(h, s, 18) : hsl(h, s, 92)}}.x-tab{background:none;border:0;border-radius:${Math.max(0, r - 2)}px;color:${muted}}.x-tab[aria-selected=true]{background:${surface};color:${text};box-shadow:0 1px 2px rgba(0,0,0,.2)}`,
    plain: `.x-tabs{gap:${p.int(8, 24)}px}.x-tab{background:none;border:0;color:${muted};padding-left:0!important;padding-right:0!important}.x-tab[aria-selected=true]{color:${accent};font-weight:700}`,
  }[tabStyle];
  const topBg = p.one([surface, surface, accent, dark ? hsl(h, s, 10) : hsl(h, p.int(10, 40), p.int(14, 24))]);
  const topText = topBg === accent ? onAccent : topBg === surface ? text : "#eee";
  const sideActive = p.one([`background:${accent};color:${onAccent};border-radius:${r}px`, `background:${hsl(ah, as, dark ? 25 : 92)};color:${hsl(ah, as, dark ? 80 : 30)};border-radius:${r}px`, `border-left:3px solid ${accent};font-weight:600`, `font-weight:700;color:${accent}`]);
  const tableStyle = p.one(["lines", "zebra", "grid", "plain"]);
  return `<style>
html,body{margin:0;background:${bg};color:${text};font:${fs}px/${p.one([1.3, 1.4, 1.5, 1.6])} "${font}",sans-serif}
.x-main{padding:${p.int(12, 32)}px}
h1,h2,h3,h4{font-weight:${p.one([500, 600, 700])};margin:.4em 0 .6em}
a{color:${p.chance(0.7) ? accent : hsl(p.int(190, 240), 70, dark ? 70 : 40)};text-decoration:${p.one(["none", "underline", "none"])}}
.x-btn{font:inherit;font-weight:${weight};${upper}padding:${py}px ${px}px;border-radius:${rb}px;border:${bw}px solid ${btnStyle === "outline" ? accent : border};background:${secBg};color:${btnStyle === "outline" ? accent : secText};cursor:pointer;box-shadow:${bw === 0 && btnStyle === "solid" ? shadow : "none"};margin:2px ${p.int(2, 6)}px 2px 0;display:inline-flex;align-items:center;gap:6px;vertical-align:middle}
.x-btn.x-primary{background:${accent};color:${onAccent};border-color:${accent}}
.x-btn.x-danger{${p.chance(0.5) ? `background:${danger};color:#fff` : `background:transparent;color:${danger}`};border-color:${danger}}
.x-btn.x-ghost{background:transparent;border-color:transparent;color:${p.chance(0.5) ? accent : text}}
.x-btn:disabled{opacity:.5}
.x-btn.x-sm{padding:${Math.max(2, py - 3)}px ${Math.max(6, px - 6)}px;font-size:.87em}
.x-icon{padding:${p.int(4, 9)}px;line-height:0;${p.chance(0.3) ? "border-radius:999px;" : ""}${p.chance(0.5) ? "background:transparent;border-color:transparent;" : ""}}
.x-field{margin:0 0 ${gap}px;${labelLeft ? `display:grid;grid-template-columns:${p.int(110, 180)}px 1fr;align-items:center;gap:10px` : ""}}
.x-field>label{display:block;margin-bottom:${p.int(2, 6)}px;font-weight:${p.one([400, 500, 600])};${p.chance(0.2) ? "font-size:.85em;" : ""}color:${p.chance(0.5) ? text : muted}}
.x-input,.x-select{font:inherit;color:${text};${field}padding:${Math.max(4, py)}px ${Math.max(6, px - 4)}px;box-sizing:border-box;width:${p.chance(0.7) ? "100%" : `${p.int(180, 320)}px`};max-width:100%;outline:none}
.x-input::placeholder{color:${muted}}
.x-input:disabled,.x-select:disabled{opacity:.55}
.x-select{${arrow === "native" ? "" : `appearance:none;-webkit-appearance:none;background-image:${svgUrl(arrowSvg)};background-repeat:no-repeat;background-position:right ${p.int(6, 12)}px center;padding-right:${p.int(26, 36)}px;`}}
.x-check{display:flex;align-items:center;gap:${p.int(5, 10)}px;margin:${p.int(3, 8)}px ${p.int(0, 16)}px ${p.int(3, 8)}px 0;cursor:pointer}
.x-check.x-inline{display:inline-flex}
.x-box{appearance:none;-webkit-appearance:none;margin:0;flex:none;width:${box}px;height:${box}px;border:${Math.max(1, fbw)}px solid ${p.chance(0.7) ? border : muted};border-radius:${boxR}px;background:${fieldBg};display:inline-block;vertical-align:middle}
.x-box:checked{background:${accent} ${svgUrl(tick)} center/85% no-repeat;border-color:${accent}}
.x-box[type=radio]{border-radius:50%}
.x-box[type=radio]:checked{background:${p.chance(0.5) ? `radial-gradient(circle, ${onAccent} 28%, ${accent} 32%)` : `radial-gradient(circle, ${accent} 40%, ${fieldBg} 45%)`};border-color:${accent}}
.x-box:disabled{opacity:.45}
.x-switch{appearance:none;-webkit-appearance:none;margin:0;flex:none;width:${swW}px;height:${swH}px;border-radius:${swR}px;border:${p.chance(0.3) ? `1px solid ${border}` : "0"};background:${knobImg(false)}${knob === "square" ? ` ${3}px 50%/${swH - 6}px ${swH - 6}px no-repeat` : ""},${dark ? hsl(h, s, 35) : hsl(h, s, 75)};display:inline-block;vertical-align:middle}
.x-switch:checked{background:${knobImg(true)}${knob === "square" ? ` ${swW - swH + 3}px 50%/${swH - 6}px ${swH - 6}px no-repeat` : ""},${accent}}
.x-tabs{display:flex;flex-wrap:wrap;margin:0 0 ${gap}px}
.x-tab{font:inherit;cursor:pointer;padding:${Math.max(4, py)}px ${px}px}
${tab}
.x-card{background:${surface};border:${p.chance(0.6) ? `1px solid ${border}` : "0"};border-radius:${Math.min(r * 1.5, 24)}px;box-shadow:${p.chance(0.6) ? shadow : "none"};padding:${p.int(12, 24)}px;margin:0 0 ${gap + 4}px}
.x-card>h3{margin-top:0;font-size:1.1em}
.x-table{border-collapse:collapse;width:100%;margin:0 0 ${gap}px}
.x-table th{text-align:left;color:${muted};font-weight:600;${p.chance(0.3) ? "font-size:.85em;text-transform:uppercase;" : ""}}
.x-table th,.x-table td{padding:${p.int(4, 12)}px ${p.int(6, 14)}px;${tableStyle === "grid" ? `border:1px solid ${border};` : tableStyle === "lines" ? `border-bottom:1px solid ${border};` : ""}}
${tableStyle === "zebra" ? `.x-table tbody tr:nth-child(odd){background:${dark ? "rgba(255,255,255,.05)" : "rgba(0,0,0,.04)"}}` : ""}
.x-pager{display:flex;gap:${p.int(0, 6)}px;margin:0 0 ${gap}px}
.x-pager .x-btn{margin:0;min-width:2.4em;justify-content:center}
.x-crumbs{display:flex;gap:.5em;color:${muted};margin:0 0 ${gap}px}
.x-group{display:flex;margin:0 0 ${gap}px;max-width:${p.int(300, 560)}px}
.x-group .x-input{width:auto;flex:1;border-top-right-radius:0;border-bottom-right-radius:0;${p.chance(0.5) ? "border-right:0;" : ""}}
.x-group .x-btn{margin:0;border-top-left-radius:0;border-bottom-left-radius:0}
.x-search{position:relative;display:inline-flex;align-items:center}
.x-search svg{position:absolute;left:10px;color:${muted};pointer-events:none}
.x-search .x-input{padding-left:34px;width:${p.int(180, 300)}px;${p.chance(0.4) ? "border-radius:999px;" : ""}}
.x-top{display:flex;align-items:center;gap:${p.int(6, 14)}px;padding:${p.int(8, 16)}px ${p.int(12, 28)}px;background:${topBg};color:${topText};border-bottom:1px solid ${border}}
.x-top .x-brand{font-weight:700;margin-right:auto;font-size:1.1em}
.x-top a{color:${topText}}
.x-top .x-icon{color:${topText}}
.x-nav{display:flex;flex-direction:column;gap:${p.int(0, 6)}px}
.x-nav a{padding:${p.int(4, 10)}px ${p.int(8, 14)}px;color:${text};text-decoration:none}
.x-nav a.x-active{${sideActive}}
.x-modal{background:${surface};border:1px solid ${border};border-radius:${Math.min(r * 1.5, 24)}px;box-shadow:0 10px 30px rgba(0,0,0,.3);max-width:${p.int(420, 640)}px;margin:0 0 ${gap}px}
.x-modal>header,.x-modal>footer{display:flex;align-items:center;justify-content:space-between;padding:${p.int(10, 18)}px;border-bottom:1px solid ${border}}
.x-modal>footer{border-bottom:0;border-top:1px solid ${border};justify-content:flex-end}
.x-modal>div{padding:${p.int(10, 18)}px}
fieldset{border:${p.chance(0.5) ? `1px solid ${border}` : "0"};border-radius:${r}px;margin:0 0 ${gap}px;padding:${p.int(4, 14)}px}
</style>`;
}

const btnClass = (p: Pick, primary: boolean) => `x-btn${primary ? " x-primary" : p.one(["", "", " x-ghost", " x-danger", ""])}${p.chance(0.15) ? " x-sm" : ""}`;
const opts = (p: Pick) => p.distinct("option", p.int(2, 5)).map((o) => `<option>${esc(o)}</option>`).join("");

export const synth: Kit = {
  name: "synth",
  css: [],
  theme: (p, dark): Theme => ({ css: [], head: styleSheet(p, dark), dark }),
  button: (p, label, primary) => `<button type="button" class="${btnClass(p, primary)}"${disabled(p)}>${esc(label)}</button>`,
  input: (p) => {
    const id = p.id();
    const f = p.t("field");
    const v = p.chance(0.5) ? `value="${esc(p.one(VALUES))}"` : `placeholder="${esc(p.t("field"))}"`;
    return `<div class="x-field"><label for="${id}">${esc(f)}</label><input class="x-input" id="${id}" type="${f.startsWith("Mot de passe") || f === "Password" ? "password" : "text"}" ${v}${disabled(p)}></div>`;
  },
  select: (p) => {
    const id = p.id();
    return `<div class="x-field"><label for="${id}">${esc(p.t("field"))}</label><select class="x-select" id="${id}"${disabled(p)}>${opts(p)}</select></div>`;
  },
  check: (p, radio, name, label, checked) => `<label class="x-check${p.chance(0.3) ? " x-inline" : ""}"><input class="x-box" type="${radio ? "radio" : "checkbox"}" name="${name}"${checked ? " checked" : ""}${disabled(p)}>${esc(label)}</label>`,
  switch: (_p, label, checked) => `<label class="x-check"><input class="x-switch" type="checkbox" role="switch"${checked ? " checked" : ""}>${esc(label)}</label>`,
  switchBare: (_p, label, checked) => `<input class="x-switch" type="checkbox" role="switch" aria-label="${esc(label)}"${checked ? " checked" : ""}>`,
  tabs: (_p, names, active) => `<div class="x-tabs" role="tablist">${names.map((n, i) => `<button type="button" class="x-tab" role="tab" aria-selected="${i === active}">${esc(n)}</button>`).join("")}</div>`,
  nav: (p, brand, links) => `<header class="x-top"><span class="x-brand">${esc(brand)}</span>${links.map((l) => `<a href="#">${esc(l)}</a>`).join("")}${p.chance(0.4) ? synth.button(p, p.t("action"), true) : ""}</header>`,
  card: (title, body) => `<section class="x-card"><h3>${esc(title)}</h3>${body}</section>`,
  table: "x-table",
  pager: (n, a) => `<nav class="x-pager">${Array.from({ length: n }, (_, i) => `<button type="button" class="x-btn x-sm${i + 1 === a ? " x-primary" : ""}">${i + 1}</button>`).join("")}</nav>`,
  breadcrumb: (items) => `<nav class="x-crumbs">${items.map((it, i) => (i === items.length - 1 ? `<span>${esc(it)}</span>` : `<a href="#">${esc(it)}</a><span>${["/", "›", "»", "·"][it.length % 4]}</span>`)).join("")}</nav>`,
  modal: (title, body, footer) => `<div class="x-modal" role="dialog"><header><strong>${esc(title)}</strong><button type="button" class="x-btn x-ghost x-icon" aria-label="Close">✕</button></header><div>${body}</div><footer>${footer}</footer></div>`,
  container: "x-main",
  search: (_p, ph) => `<span class="x-search"><svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" aria-hidden="true"><circle cx="10.5" cy="10.5" r="6"/><path d="M15 15l5 5"/></svg><input class="x-input" type="search" placeholder="${esc(ph)}" aria-label="${esc(ph)}"></span>`,
  group: (_p, ph, btn) => `<div class="x-group"><input class="x-input" type="text" placeholder="${esc(ph)}" aria-label="${esc(ph)}">${btn}</div>`,
  sidenav: (_p, links, a) => `<nav class="x-nav">${links.map((l, i) => `<a href="#"${i === a ? ' class="x-active"' : ""}>${esc(l)}</a>`).join("")}</nav>`,
  topbar: (_p, brand, tools) => `<header class="x-top"><span class="x-brand">${esc(brand)}</span>${tools}</header>`,
  iconButton: (p, svg, label) => `<button type="button" class="x-btn x-icon${p.chance(0.2) ? " x-primary" : ""}" aria-label="${esc(label)}" title="${esc(label)}">${svg}</button>`,
};
