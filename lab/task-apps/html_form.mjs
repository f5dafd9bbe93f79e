#!/usr/bin/env node
// A generated HTML task app: the same form as gtk_form.py, tk_form.py and qt_form.py (search entry,
// captioned fields, a greyed-out button, an empty canvas, an icon-only Save button), from the same
// parameters, rendered by Debian Chromium in a real window (--app mode, its own user-data dir).
// A tiny local HTTP endpoint (node:http) serves the page and is the oracle's writer: Save posts the
// state, which goes to params.out as JSON; the window stays open. The lab's variants are read as a
// browser follows them: GTK_THEME=…:dark → Chromium's dark mode (the page's prefers-color-scheme),
// GDK_SCALE → --force-device-scale-factor, GDK_DPI_SCALE → Chromium's default font size (the page
// is sized in rem). Widget screen boxes (physical pixels) go to params.out + ".geom.json" once shown,
// for the scripted person (lab ground truth, never read by the product).
// Optional parameters, as in qt_form.py (absent: the form above, unchanged): "values" — text already
// in fields when the page opens, by key (the check box's key, any text: ticked); "check" —
// {caption, key}: a check box under the fields, its state saved under "checks"; "scroll": true —
// the fields and the check box in a scrolled area (a window made smaller hides the lower ones);
// "kit": one of KITS below (bulma, materialize, fomantic, spectre, uikit…) — the controls drawn by that CSS framework (shipped in npm, its own light and dark
// looks) instead of this page's plain style; the layout, ids and oracle stay the same.
//   node html_form.mjs params.json
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { dirname, join } from "node:path";

const p = JSON.parse(readFileSync(process.argv[2], "utf8"));
const scale = Number(process.env.GDK_SCALE ?? "1") || 1;
const textScale = Number(process.env.GDK_DPI_SCALE ?? "1") || 1;
const dark = (process.env.GTK_THEME ?? "").includes("dark");
// A CSS framework's look: its stylesheet inlined, its classes on the controls.
const KITS = {
  bulma: { css: "../../node_modules/bulma/css/bulma.min.css", input: "input", button: "button", label: "label", check: "checkbox" },
  // Materialize styles bare inputs itself (a bottom line, no box); buttons take its class.
  materialize: { css: "../../node_modules/@materializecss/materialize/dist/css/materialize.min.css", input: "", button: "btn", label: "", check: "" },
  // Fomantic UI styles the controls inside a "ui form" (the whole page here); buttons are "ui button".
  fomantic: { css: "../../node_modules/fomantic-ui-css/semantic.min.css", input: "", button: "ui button", label: "", check: "", body: "ui form" },
  spectre: { css: "../../node_modules/spectre.css/dist/spectre.min.css", input: "form-input", button: "btn", label: "form-label", check: "form-checkbox" },
  // Added after html-fomantic and html-spectre; "text": the fields say type="text" (what these kits style).
  uikit: { css: "../../node_modules/uikit/dist/css/uikit.min.css", input: "uk-input", button: "uk-button uk-button-default", label: "uk-form-label", check: "", text: true },
  pure: { css: "../../node_modules/purecss/build/pure-min.css", input: "", button: "pure-button", label: "", check: "", body: "pure-form", text: true },
  pico: { css: "../../node_modules/@picocss/pico/css/pico.min.css", input: "", button: "", label: "", check: "", text: true },
  // Primer draws with its design tokens (@primer/primitives): loaded with it, light or dark as the session is.
  primer: {
    css: [...["base/size/size", "base/typography/typography", "functional/size/size", "functional/size/border", "functional/size/radius", "functional/typography/typography", "functional/themes/light", "functional/themes/dark"].map((f) => `../../node_modules/@primer/primitives/dist/css/${f}.css`), "../../node_modules/@primer/css/dist/primer.css"],
    html: (isDark) => ` data-color-mode="${isDark ? "dark" : "light"}" data-light-theme="light" data-dark-theme="dark"`,
    bodyStyle: "background:var(--bgColor-default);color:var(--fgColor-default)",
    input: "form-control", button: "btn", label: "", check: "", text: true,
  },
  bootstrap5: { css: "../../node_modules/bootstrap/dist/css/bootstrap.min.css", input: "form-control", button: "btn btn-secondary", label: "form-label", check: "form-check", text: true },
  // Added with the last families of 2026-12-04 (after every fix of that day), run once.
  bootstrap4: { css: "../../node_modules/bootstrap4/dist/css/bootstrap.min.css", input: "form-control", button: "btn btn-secondary", label: "", check: "", text: true },
  paper: { css: "../../node_modules/papercss/dist/paper.min.css", input: "", button: "", label: "", check: "", text: true },
  sketchy: { css: "../../node_modules/bootswatch/dist/sketchy/bootstrap.min.css", input: "form-control", button: "btn btn-secondary", label: "form-label", check: "", text: true },
  darkly: { css: "../../node_modules/bootswatch/dist/darkly/bootstrap.min.css", input: "form-control", button: "btn btn-secondary", label: "form-label", check: "", text: true },
  chota: { css: "../../node_modules/chota/dist/chota.min.css", input: "", button: "button", label: "", check: "", text: true },
  milligram: { css: "../../node_modules/milligram/dist/milligram.min.css", input: "", button: "button", label: "", check: "", text: true },
};
const kit = p.kit ? KITS[p.kit] : undefined;
if (p.kit && !kit) throw new Error(`unknown kit "${p.kit}" (known: ${Object.keys(KITS).join(", ")})`);
const kitCss = kit ? [kit.css].flat().map((f) => readFileSync(new URL(f, import.meta.url), "utf8")).join("\n") : "";
const cls = (k) => (kit?.[k] ? ` class="${kit[k]}"` : "");
const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);

const fields = [...(p.extra_field ? [p.extra_field] : []), ...(p.fields ?? [])];
// Optional "dialog": {title, caption, key, open, ok, cancel} — a button opening a modal dialog (the page's own
// <dialog>) with one captioned field; OK keeps its text (saved under "dialog"). Its boxes go to out + ".dialog.json" while shown.
const d = p.dialog;
const rows = fields
  .map((f, i) => {
    const off = (p.insensitive ?? []).includes(f.key) ? " disabled" : "";
    const value = p.values?.[f.key] ? ` value="${esc(p.values[f.key])}"` : "";
    const dis = i === fields.length - 1 ? `<button id="dis"${cls("button")} disabled>${esc(p.disabled_label ?? "Effacer")}</button>` : "<span></span>";
    return `<label for="f-${esc(f.key)}"${cls("label")}>${esc(f.caption)}</label><input id="f-${esc(f.key)}"${kit?.text ? ' type="text"' : ""}${cls("input")} data-key="${esc(f.key)}" autocomplete="off"${value}${off}>${dis}`;
  })
  .join("\n");
const check = p.check ? `<span></span><label id="c-box" class="check${kit?.check ? ` ${kit.check}` : ""}"><input type="checkbox" id="c-${esc(p.check.key)}" data-check="${esc(p.check.key)}"${p.values?.[p.check.key] ? " checked" : ""}> ${esc(p.check.caption)}</label><span></span>` : "";
// A floppy drawn in SVG: no text in the button, its name only in its tooltip.
const floppy = `<svg viewBox="0 0 22 22" width="22" height="22" aria-hidden="true"><rect x="2" y="2" width="18" height="18" rx="2" fill="currentColor"/><rect x="6" y="3" width="10" height="6" fill="var(--field)"/><rect x="5" y="12" width="12" height="7" fill="var(--field)"/></svg>`;
const page = `<!doctype html><html lang="fr"${kit?.html ? kit.html(dark) : ""}><head><meta charset="utf-8"><title>${esc(p.title)}</title>
<meta name="color-scheme" content="light dark">
${kit ? `<style>${kitCss}</style>` : ""}
<style>
:root { --bg: #f2f2f2; --fg: #1a1a1a; --field: #ffffff; --line: #9a9a9a; --canvas: #ffffff; }
@media (prefers-color-scheme: dark) { :root { --bg: #2b2b2b; --fg: #eeeeee; --field: #3c3c3c; --line: #777777; --canvas: #1f1f1f; } }
html, body { margin: 0; height: 100%; }
${kit ? "" : `html, body { background: var(--bg); color: var(--fg); font-family: "DejaVu Sans", sans-serif; font-size: 0.85rem; }`}
body { display: flex; flex-direction: column; padding: 0.75rem; box-sizing: border-box; gap: 0.6rem; }
#bar { display: flex; justify-content: space-between; align-items: center; }
${kit ? "" : `button { font: inherit; color: var(--fg); background: var(--bg); border: 1px solid var(--line); border-radius: 3px; padding: 0.25rem 0.7rem; }
#save { padding: 0.2rem 0.3rem; line-height: 0; }
button:disabled { color: #8a8a8a; border-color: #b8b8b8; }
input { font: inherit; color: var(--fg); background: var(--field); border: 1px solid var(--line); border-radius: 2px; padding: 0.25rem 0.35rem; }
input:disabled { opacity: 0.55; }`}
#save svg { width: 1.4rem; height: 1.4rem; }
#search { width: 11rem; }
#grid { display: grid; grid-template-columns: max-content 1fr max-content; gap: 0.45rem 0.5rem; align-items: center; }
#grid label { text-align: right; }
#canvas { flex: 1; background: var(--canvas); border: 1px solid var(--line); min-height: ${p.scroll ? "10rem" : "4rem"}; }
#area { flex: 0 1 auto; min-height: 0; overflow: auto; }
label.check { display: flex; align-items: center; gap: 0.3rem; text-align: left; }
#bar > span { display: flex; gap: 0.4rem; align-items: center; }
dialog { border: 1px solid var(--line); padding: 0.9rem; }
dialog::backdrop { background: rgba(0, 0, 0, 0.25); }
.dlg-title { margin: 0 0 0.6rem 0; font-size: 1rem; }
.dlg-row { display: flex; gap: 0.5rem; align-items: center; }
.dlg-row input { width: 16rem; }
.dlg-buttons { display: flex; justify-content: flex-end; gap: 0.4rem; margin-top: 0.8rem; }
</style></head><body${cls("body")}${kit?.bodyStyle ? ` style="${kit.bodyStyle}"` : ""}>
<div id="bar">${d ? "<span>" : ""}<button id="save"${cls("button")} title="Enregistrer">${floppy}</button>${d ? ` <button id="opener"${cls("button")}>${esc(d.open)}</button></span>` : ""}<input id="search"${cls("input")} type="search" autocomplete="off"></div>
${p.scroll ? '<div id="area">' : ""}<div id="grid">
${rows}
${check}
</div>${p.scroll ? "</div>" : ""}
<div id="canvas"></div>
${d ? `<dialog id="dlg"><h3 class="dlg-title">${esc(d.title)}</h3><div class="dlg-row"><label for="dlg-field"${cls("label")}>${esc(d.caption)}</label><input id="dlg-field"${kit?.text ? ' type="text"' : ""}${cls("input")} autocomplete="off"></div><div class="dlg-buttons"><button id="dlg-cancel"${cls("button")}>${esc(d.cancel)}</button> <button id="dlg-ok"${cls("button")}>${esc(d.ok)}</button></div></dialog>` : ""}
<script>
const state = { fields: {}, search: "", mark: null, saved: false };
const canvas = document.getElementById("canvas");
canvas.addEventListener("mousedown", (ev) => {
  const r = canvas.getBoundingClientRect();
  state.mark = [Math.round(((ev.clientX - r.left) / r.width) * 1000) / 1000, Math.round(((ev.clientY - r.top) / r.height) * 1000) / 1000];
});
document.getElementById("save").addEventListener("click", () => {
  for (const e of document.querySelectorAll("#grid input[data-key]")) state.fields[e.dataset.key] = e.value;
  state.search = document.getElementById("search").value;
  const boxes = document.querySelectorAll("#grid input[data-check]");
  if (boxes.length) state.checks = Object.fromEntries([...boxes].map((b) => [b.dataset.check, b.checked]));
  state.saved = true;
  fetch("/save", { method: "POST", body: JSON.stringify(state) });
});
const dlg = document.getElementById("dlg");
if (dlg) {
  const boxOf = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  document.getElementById("opener").addEventListener("click", () => {
    dlg.showModal();
    setTimeout(() => fetch("/dialog", { method: "POST", body: JSON.stringify({ g: { field: boxOf(document.getElementById("dlg-field")), ok: boxOf(document.getElementById("dlg-ok")), cancel: boxOf(document.getElementById("dlg-cancel")) }, dpr: devicePixelRatio, inner: [innerWidth, innerHeight] }) }), 500);
  });
  const close = (keep) => { if (keep) state.dialog = document.getElementById("dlg-field").value; dlg.close(); fetch("/dialog-closed", { method: "POST" }); };
  document.getElementById("dlg-ok").addEventListener("click", () => close(true));
  document.getElementById("dlg-cancel").addEventListener("click", () => close(false));
}
function geometry() {
  const box = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const g = { save: box(document.getElementById("save")), search: box(document.getElementById("search")), canvas: box(canvas), disabled: box(document.getElementById("dis")), fields: {} };
  for (const e of document.querySelectorAll("#grid input[data-key]")) g.fields[e.dataset.key] = box(e);
  if (dlg) g.opener = box(document.getElementById("opener"));
  const c = document.querySelector("#grid input[data-check]");
  if (c) g.checks = { [c.dataset.check]: box(document.getElementById("c-box")) };
  fetch("/geom", { method: "POST", body: JSON.stringify({ g, dpr: devicePixelRatio, inner: [innerWidth, innerHeight] }) });
}
addEventListener("load", () => setTimeout(geometry, 600));
</script></body></html>`;

// Optional "lines" (an editor instead of the form, as gtk_editor.py): a bar of text buttons ("buttons", the one named
// "save" saves) over a text area holding "lines"; « * » before the page's title (the window's) once the text is
// modified; saving posts {text, saved}. Its boxes (save, text) go to out + ".geom.json".
const editorPage = p.lines
  ? `<!doctype html><html lang="fr"${kit?.html ? kit.html(dark) : ""}><head><meta charset="utf-8"><title>${esc(p.title)}</title>
<meta name="color-scheme" content="light dark">
${kit ? `<style>${kitCss}</style>` : ""}
<style>
:root { --bg: #f2f2f2; --fg: #1a1a1a; --field: #ffffff; --line: #9a9a9a; }
@media (prefers-color-scheme: dark) { :root { --bg: #2b2b2b; --fg: #eeeeee; --field: #1f1f1f; --line: #777777; } }
html, body { margin: 0; height: 100%; }
${kit ? "" : `html, body { background: var(--bg); color: var(--fg); font-family: "DejaVu Sans", sans-serif; font-size: 0.85rem; }
button { font: inherit; color: var(--fg); background: var(--bg); border: 1px solid var(--line); border-radius: 3px; padding: 0.25rem 0.7rem; }
textarea { font: inherit; color: var(--fg); background: var(--field); border: 1px solid var(--line); padding: 0.3rem 0.4rem; }`}
body { display: flex; flex-direction: column; padding: 0.5rem; box-sizing: border-box; gap: 0.4rem; }
#bar { display: flex; gap: 0.4rem; }
#text { flex: 1; resize: none; box-sizing: border-box; width: 100%; height: auto; max-width: none; }
</style></head><body${cls("body")}${kit?.bodyStyle ? ` style="${kit.bodyStyle}"` : ""}>
<div id="bar">${p.buttons.map((b) => `<button${b === p.save ? ' id="save"' : ""}${cls("button")}>${esc(b)}</button>`).join(" ")}</div>
<textarea id="text"${cls("input")} spellcheck="false">${esc(p.lines.join("\n"))}</textarea>
<script>
const text = document.getElementById("text");
const title = document.title;
text.addEventListener("input", () => { document.title = "*" + title; });
document.getElementById("save").addEventListener("click", () => {
  fetch("/save", { method: "POST", body: JSON.stringify({ text: text.value, saved: true }) });
  document.title = title;
});
const box = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
addEventListener("load", () => setTimeout(() => fetch("/geom", { method: "POST", body: JSON.stringify({ g: { save: box(document.getElementById("save")), text: box(text) }, dpr: devicePixelRatio, inner: [innerWidth, innerHeight] }) }), 600));
</script></body></html>`
  : undefined;

// Optional "items" (a list task instead of the form, as gtk_list.py): a captioned list of items (a click selects one),
// a captioned field and an action button that posts {selected, motif, saved}. Its boxes (items, field, action) go to
// out + ".geom.json".
const listPage = p.items
  ? `<!doctype html><html lang="fr"${kit?.html ? kit.html(dark) : ""}><head><meta charset="utf-8"><title>${esc(p.title)}</title>
<meta name="color-scheme" content="light dark">
${kit ? `<style>${kitCss}</style>` : ""}
<style>
:root { --bg: #f2f2f2; --fg: #1a1a1a; --field: #ffffff; --line: #9a9a9a; --sel: #3d7ad6; }
@media (prefers-color-scheme: dark) { :root { --bg: #2b2b2b; --fg: #eeeeee; --field: #3c3c3c; --line: #777777; } }
html, body { margin: 0; height: 100%; }
${kit ? "" : `html, body { background: var(--bg); color: var(--fg); font-family: "DejaVu Sans", sans-serif; font-size: 0.85rem; }
button { font: inherit; color: var(--fg); background: var(--bg); border: 1px solid var(--line); border-radius: 3px; padding: 0.25rem 0.7rem; }
input { font: inherit; color: var(--fg); background: var(--field); border: 1px solid var(--line); border-radius: 2px; padding: 0.25rem 0.35rem; }`}
body { display: flex; flex-direction: column; padding: 0.75rem; box-sizing: border-box; gap: 0.4rem; }
#list { flex: 1; overflow: auto; margin: 0; padding: 0; list-style: none; border: 1px solid var(--line); background: var(--field); }
#list li { padding: 0.3rem 0.5rem; cursor: default; user-select: none; }
#list li.sel { background: var(--sel); color: #ffffff; }
#line { display: flex; gap: 0.5rem; align-items: center; }
#line input { flex: 1; }
</style></head><body${cls("body")}${kit?.bodyStyle ? ` style="${kit.bodyStyle}"` : ""}>
<label for="list"${cls("label")}>${esc(p.list_caption)}</label>
<ul id="list" role="listbox" tabindex="0">${p.items.map((it) => `<li role="option">${esc(it)}</li>`).join("")}</ul>
<div id="line"><label for="motif"${cls("label")}>${esc(p.field_caption)}</label><input id="motif"${kit?.text ? ' type="text"' : ""}${cls("input")} autocomplete="off"><button id="action"${cls("button")}>${esc(p.action)}</button></div>
<script>
const items = [...document.querySelectorAll("#list li")];
for (const li of items) li.addEventListener("mousedown", () => { for (const o of items) o.classList.toggle("sel", o === li); });
document.getElementById("action").addEventListener("click", () => {
  const sel = items.find((li) => li.classList.contains("sel"));
  fetch("/save", { method: "POST", body: JSON.stringify({ selected: sel ? sel.textContent : null, motif: document.getElementById("motif").value, saved: true }) });
});
const box = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
addEventListener("load", () => setTimeout(() => fetch("/geom", { method: "POST", body: JSON.stringify({ g: { items: Object.fromEntries(items.map((li) => [li.textContent, box(li)])), field: box(document.getElementById("motif")), action: box(document.getElementById("action")) }, dpr: devicePixelRatio, inner: [innerWidth, innerHeight] }) }), 600));
</script></body></html>`
  : undefined;

const body = (req) => new Promise((resolve) => { let s = ""; req.setEncoding("utf8"); req.on("data", (d) => (s += d)); req.on("end", () => resolve(s)); });
const run = (cmd, args) => new Promise((resolve) => { const c = spawn(cmd, args, { stdio: ["ignore", "pipe", "ignore"] }); let s = ""; c.stdout.on("data", (d) => (s += d)); c.on("exit", () => resolve(s)); c.on("error", () => resolve("")); });

/** The page's content area on the screen: the browser window's client window (found by the
 * browser's own process ids) has the content at its bottom, centred between equal side borders. */
async function contentOrigin(inner) {
  const [w, h] = [Math.round(inner[0] * scale), Math.round(inner[1] * scale)];
  const ids = (await run("xdotool", ["search", "--onlyvisible", "--name", `^${p.title.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`])).split(/\s+/).filter(Boolean);
  for (const id of ids) {
    const info = await run("xwininfo", ["-id", id]);
    const num = (k) => Number(new RegExp(`${k}:\\s+(-?\\d+)`).exec(info)?.[1] ?? NaN);
    const [x, y, ww, wh] = [num("Absolute upper-left X"), num("Absolute upper-left Y"), num("Width"), num("Height")];
    if (ww >= w && wh >= h) return [x + Math.round((ww - w) / 2), y + (wh - h) - Math.round((ww - w) / 2)];
  }
  return undefined;
}

const server = createServer(async (req, res) => {
  if (req.method === "POST" && req.url === "/save") {
    writeFileSync(p.out, await body(req));
    res.end("ok");
  } else if (req.method === "POST" && (req.url === "/geom" || req.url === "/dialog")) {
    // Boxes in CSS pixels of the page → screen boxes (physical pixels), written beside the oracle.
    const { g, dpr, inner } = JSON.parse(await body(req));
    res.end("ok");
    const o = await contentOrigin(inner);
    if (!o) return;
    const b = (r) => [o[0] + Math.round(r[0] * dpr), o[1] + Math.round(r[1] * dpr), o[0] + Math.round(r[2] * dpr), o[1] + Math.round(r[3] * dpr)];
    const all = (m) => Object.fromEntries(Object.entries(m).map(([k, r]) => [k, b(r)]));
    if (req.url === "/dialog" || p.lines) writeFileSync(req.url === "/dialog" ? `${p.out}.dialog.json` : `${p.out}.geom.json`, JSON.stringify(all(g)));
    else if (p.items) writeFileSync(`${p.out}.geom.json`, JSON.stringify({ items: all(g.items), field: b(g.field), action: b(g.action) }));
    else writeFileSync(`${p.out}.geom.json`, JSON.stringify({ save: b(g.save), search: b(g.search), canvas: b(g.canvas), disabled: b(g.disabled), fields: all(g.fields), ...(g.checks ? { checks: all(g.checks) } : {}), ...(g.opener ? { opener: b(g.opener) } : {}) }));
  } else if (req.method === "POST" && req.url === "/dialog-closed") {
    await body(req);
    rmSync(`${p.out}.dialog.json`, { force: true });
    res.end("ok");
  } else if (req.url === "/") {
    res.setHeader("content-type", "text/html; charset=utf-8");
    res.end(editorPage ?? listPage ?? page);
  } else {
    res.statusCode = 404;
    res.end();
  }
});

server.listen(0, "127.0.0.1", () => {
  const port = server.address().port;
  const profile = join(dirname(p.out), "chromium-profile");
  mkdirSync(join(profile, "Default"), { recursive: true });
  // Larger text as a browser user sets it: the default font size (16 px) times the text scale.
  writeFileSync(join(profile, "Default", "Preferences"), JSON.stringify({ webkit: { webprefs: { default_font_size: Math.round(16 * textScale) } }, browser: { has_seen_welcome_page: true }, translate: { enabled: false } }));
  const args = [
    `--app=http://127.0.0.1:${port}/`,
    `--user-data-dir=${profile}`,
    `--class=${p.class ?? "taskform-html"}`,
    `--window-size=${p.width ?? 560},${p.height ?? 460}`,
    "--window-position=60,60",
    `--force-device-scale-factor=${scale}`,
    ...(dark ? ["--force-dark-mode"] : []),
    "--no-sandbox",
    "--test-type", // no infobar about --no-sandbox (the lab runs as root)
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-features=Translate,MediaRouter,OptimizationHints",
    "--password-store=basic",
  ];
  const browser = spawn(process.env.RPAV_CHROMIUM ?? "/usr/bin/chromium", args, { stdio: "ignore", detached: true });
  const end = () => {
    const kill = (sig) => {
      try {
        process.kill(-browser.pid, sig);
      } catch {
        // already gone
      }
    };
    kill("SIGTERM");
    setTimeout(() => {
      kill("SIGKILL");
      process.exit(0);
    }, 800);
  };
  process.on("SIGTERM", end);
  process.on("SIGINT", end);
  browser.on("exit", () => process.exit(0));
});
