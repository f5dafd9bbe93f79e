// Dev corpus: screenshots with ground truth (interactive elements and visible words), for the
// perception and embedding benchmarks. One command, cached: `npm run corpus`.
//   GTK apps on the lab desktop (AT-SPI ground truth): gtk3-widget-factory (3 pages), mousepad
//   (editor, File › Open dialog), yad --form, zenity --forms, gnome-calculator; light/dark × scale 1/2.
//   HTML pages in headless Chromium (DOM ground truth): admin-lte 3.2.0, admin-lte 2.4.18 and
//   govuk-frontend component fixtures; light/dark where the page allows, scale 1/2.
//   Generated sites for the embed bench (sites.ts): one site of data-engine layouts per CSS kit, light/dark × scale 1/2.
// Output: bench/corpus/out/<id>.png + <id>.json, and index.json with counts per source and type (the sites: out-sites/).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { chromium, type Browser } from "playwright-core";
import { encodePng } from "../../src/capture/png.js";
import { X11ScreenSource } from "../../src/platform/x11/x11-screen-source.js";
import { X11WindowInfo } from "../../src/platform/x11/x11-window-info.js";
import { bboxCenter, bboxIntersection, type BBox } from "../../src/core/geometry.js";
import { sleep } from "../../src/core/process.js";
import { launchApp, type AppSpec } from "../../src/lab/apps.js";
import { atspiDump, groundTruthFromAtspi, type AtspiNode, type GroundTruth } from "../../src/lab/atspi.js";
import { labDown, labUp, type AppVariant, type LabSession } from "../../src/platform/x11/desktop-lab.js";
import { X11XTestInputDriver } from "../../src/platform/x11/x11-xtest-input-driver.js";

const HERE = dirname(fileURLToPath(import.meta.url));
export const CORPUS_DIR = join(HERE, "out");
const DEPS = join(HERE, ".deps");
// 3: DOM check boxes and radio buttons include their label text (the desktop convention).
// 4: each screenshot keeps its window as the app shows it (title, application, client area).
// 5: a toggle painted by its label's ::before placed in an ancestor (GOV.UK) is that box and its text; GOV.UK fixtures'
//    ids are their own (a label named another fixture's input).
const CORPUS_VERSION = 5;
/** The lab's display (:94 unless RPAV_CORPUS_DISPLAY names another number). */
const LAB_DISPLAY = Number(process.env.RPAV_CORPUS_DISPLAY ?? 94);

export interface CorpusItem extends GroundTruth {
  version: number;
  id: string;
  source: string;
  page: string;
  variant: { theme: "light" | "dark"; scale: 1 | 2 };
  /**
   * The window as the app shows it: its title (GTK: the window manager's title of the window on
   * top; web: the document's title, what the tab and an --app window show), application name
   * (WM_CLASS class; "Chromium" for web pages) and client area in image pixels (web: the viewport).
   */
  window: { title: string; app: string; bbox: BBox };
  image: string;
  width: number;
  height: number;
}

const force = process.argv.includes("--force");
const done = (id: string, dir = CORPUS_DIR) => !force && existsSync(join(dir, `${id}.png`)) && existsSync(join(dir, `${id}.json`)) && (JSON.parse(readFileSync(join(dir, `${id}.json`), "utf8")) as CorpusItem).version === CORPUS_VERSION;
let count = 0;
function save(item: Omit<CorpusItem, "version" | "image">, png: Buffer, dir = CORPUS_DIR): void {
  writeFileSync(join(dir, `${item.id}.png`), png);
  writeFileSync(join(dir, `${item.id}.json`), `${JSON.stringify({ version: CORPUS_VERSION, ...item, image: `${item.id}.png` }, null, 1)}\n`);
  count++;
  process.stdout.write(`  [${count}] ${item.id}: ${item.elements.length} elements, ${item.words.length} words\n`);
}

// ---------------------------------------------------------------------------------------------
// Third-party pages, installed once into bench/corpus/.deps (not project dependencies).

function ensureDeps(): void {
  const marker = join(DEPS, "node_modules", "admin-lte", "plugins", "jquery");
  if (existsSync(marker)) return;
  mkdirSync(DEPS, { recursive: true });
  writeFileSync(join(DEPS, "package.json"), '{ "name": "rpav-corpus-deps", "private": true }\n');
  console.log("installing corpus pages (admin-lte 3.2.0 and 2.4.18, govuk-frontend 5) into bench/corpus/.deps …");
  const npm = (args: string[], cwd: string) => execFileSync("npm", ["--no-audit", "--no-fund", ...args], { cwd, stdio: "inherit" });
  npm(["install", "--ignore-scripts", "--omit=dev", "--legacy-peer-deps", "admin-lte@3.2.0", "admin-lte2@npm:admin-lte@2.4.18", "govuk-frontend@5.10.2"], DEPS);
  // admin-lte 3 builds its plugins/ folder from its own dependencies.
  const alte = join(DEPS, "node_modules", "admin-lte");
  npm(["install", "--omit=dev", "--ignore-scripts", "--legacy-peer-deps"], alte);
  execFileSync(process.execPath, ["build/npm/Publish.js"], { cwd: alte, stdio: "inherit" });
}

const ADMINLTE3_PAGES = [
  "index.html", "index2.html", "index3.html", "pages/forms/general.html", "pages/forms/advanced.html", "pages/forms/validation.html",
  "pages/UI/buttons.html", "pages/UI/general.html", "pages/examples/login.html", "pages/examples/register.html", "pages/examples/project-add.html",
  "pages/examples/contacts.html", "pages/examples/invoice.html", "pages/tables/simple.html", "pages/mailbox/compose.html", "pages/examples/profile.html",
];
const ADMINLTE2_PAGES = ["index.html", "pages/forms/general.html", "pages/UI/buttons.html", "pages/examples/login.html", "pages/examples/register.html", "pages/tables/simple.html"];
const GOVUK_COMPONENTS = ["button", "input", "checkboxes", "radios", "select", "textarea", "tabs", "date-input", "character-count", "password-input", "file-upload", "pagination", "header", "summary-list", "cookie-banner", "error-summary", "breadcrumbs", "footer"];

/** A fixture's ids made its own on a page of several (the fixtures of a component share ids: a label would name another
 * fixture's input, and a click on it toggle that one): the first fixture's kept, the others' suffixed, references too. */
function uniqueIds(html: string, fixture: number): string {
  if (fixture === 0) return html;
  const own = (ids: string) => ids.split(/\s+/).map((id) => (id ? `${id}-f${fixture}` : id)).join(" ");
  return html
    .replace(/\b(id|for|aria-describedby|aria-controls|aria-labelledby)="([^"]*)"/g, (_, a: string, v: string) => `${a}="${own(v)}"`)
    .replace(/\bhref="#([^"]+)"/g, (_, v: string) => `href="#${v}-f${fixture}"`);
}

function govukPages(): Array<{ name: string; file: string }> {
  const dist = join(DEPS, "node_modules", "govuk-frontend", "dist", "govuk");
  const outDir = join(DEPS, "govuk-pages");
  mkdirSync(outDir, { recursive: true });
  return GOVUK_COMPONENTS.map((c) => {
    const fixtures = (JSON.parse(readFileSync(join(dist, "components", c, "fixtures.json"), "utf8")) as { fixtures: Array<{ name: string; html: string; hidden?: boolean }> }).fixtures.filter((f) => !f.hidden).slice(0, 6);
    const body = fixtures.map((f, i) => `<h2 class="govuk-heading-s">${f.name}</h2>\n${uniqueIds(f.html, i)}`).join("\n<hr class=\"govuk-section-break govuk-section-break--m\">\n");
    const html = `<!DOCTYPE html><html lang="en" class="govuk-template"><head><meta charset="utf-8"><title>${c}</title>
<link rel="stylesheet" href="${pathToFileURL(join(dist, "govuk-frontend.min.css")).href}"></head>
<body class="govuk-template__body govuk-frontend-supported"><div class="govuk-width-container"><main class="govuk-main-wrapper"><h1 class="govuk-heading-l">${c}</h1>
${body}</main></div><script type="module">import { initAll } from "${pathToFileURL(join(dist, "govuk-frontend.min.js")).href}"; initAll();</script></body></html>`;
    const file = join(outDir, `${c}.html`);
    writeFileSync(file, html);
    return { name: c, file };
  });
}

/** A web page shot in headless Chromium at 1920×1080 device pixels (a 1920/scale × 1080/scale viewport), saved with its DOM ground truth and its window (the document's title, "Chromium", the viewport). */
export interface WebShot {
  id: string;
  source: string;
  page: string;
  url: string;
  theme: "light" | "dark";
  scale: 1 | 2;
  /** A script that turns the page dark where the colour scheme alone does not. */
  dark?: () => string;
}

export async function shootWebPage(browser: Browser, shot: WebShot, dir = CORPUS_DIR): Promise<void> {
  const { id, source, page, url, theme, scale, dark } = shot;
  if (done(id, dir)) return;
  const collector = readFileSync(join(HERE, "..", "..", "lab", "dom-ground-truth.js"), "utf8");
  const context = await browser.newContext({ viewport: { width: 1920 / scale, height: 1080 / scale }, deviceScaleFactor: scale, colorScheme: theme });
  await context.route("**/*", (route) => (route.request().url().startsWith("file:") || route.request().url().startsWith("data:") ? route.continue() : route.abort()));
  const p = await context.newPage();
  try {
    await p.goto(url, { waitUntil: "domcontentloaded", timeout: 20_000 });
    await p.waitForTimeout(800);
    if (dark) await p.evaluate(dark());
    await p.addStyleTag({ content: "*, *::before, *::after { transition: none !important; animation: none !important; caret-color: transparent !important; }" });
    await p.waitForTimeout(200);
    await p.addScriptTag({ content: collector });
    const gt = (await p.evaluate("window.rpavCollectGroundTruth()")) as GroundTruth;
    const png = await p.screenshot({ type: "png" });
    const window = { title: await p.title(), app: "Chromium", bbox: [0, 0, 1920, 1080] as BBox };
    save({ id, source, page, variant: { theme, scale }, width: 1920, height: 1080, window, ...gt }, png, dir);
  } finally {
    await context.close();
  }
}

async function htmlPages(browser: Browser): Promise<void> {
  const shoot = (id: string, source: string, page: string, url: string, theme: "light" | "dark", scale: 1 | 2, dark?: () => string) => shootWebPage(browser, { id, source, page, url, theme, scale, ...(dark ? { dark } : {}) });
  const alte3 = join(DEPS, "node_modules", "admin-lte");
  for (const [i, page] of ADMINLTE3_PAGES.entries()) {
    const url = pathToFileURL(join(alte3, page)).href;
    const slug = page.replace(/\.html$/, "").replace(/\//g, "-");
    await shoot(`adminlte3-${slug}-light-1x`, "adminlte3", page, url, "light", 1);
    await shoot(`adminlte3-${slug}-dark-1x`, "adminlte3", page, url, "dark", 1, () => "document.body.classList.add('dark-mode')");
    if (i % 3 === 0) await shoot(`adminlte3-${slug}-light-2x`, "adminlte3", page, url, "light", 2);
  }
  const alte2 = join(DEPS, "node_modules", "admin-lte2");
  for (const page of ADMINLTE2_PAGES) {
    const slug = page.replace(/\.html$/, "").replace(/\//g, "-");
    await shoot(`adminlte2-${slug}-light-1x`, "adminlte2", page, pathToFileURL(join(alte2, page)).href, "light", 1);
  }
  for (const [i, { name, file }] of govukPages().entries()) {
    await shoot(`govuk-${name}-light-1x`, "govuk", name, pathToFileURL(file).href, "light", 1);
    if (i % 3 === 0) await shoot(`govuk-${name}-light-2x`, "govuk", name, pathToFileURL(file).href, "light", 2);
  }
}

// ---------------------------------------------------------------------------------------------
// GTK apps on the lab desktop.

interface GtkScene {
  name: string;
  app: AppSpec;
  /** Brings the app to the screen to capture (click a tab, open a dialog…). */
  prepare?: (ctx: { input: X11XTestInputDriver; nodes: () => Promise<AtspiNode[]>; scale: number }) => Promise<void>;
}

async function clickNode(ctx: { input: X11XTestInputDriver; nodes: () => Promise<AtspiNode[]> }, role: string, name: string): Promise<void> {
  const n = (await ctx.nodes()).find((x) => x.role === role && x.name === name && x.states.includes("showing"));
  if (!n) throw new Error(`no ${role} "${name}" on screen`);
  await ctx.input.click(bboxCenter(n.bbox));
  await sleep(600);
}

/** Mousepad with its settings in memory: it opens at its own default size, not at the size a session on this machine
 * last left it (saved in the user's dconf: a window left 435 × 105 px by another run shrank the corpus's screens). */
const MOUSEPAD_ENV = { GSETTINGS_BACKEND: "memory" };

function gtkScenes(tmp: string): GtkScene[] {
  const note = join(tmp, "facture-janvier.txt");
  writeFileSync(note, "Facture n° 2025-00123 — DUPONT Jean\nMontant : 1 250,00 €\nStatut : À valider\n");
  const wf = (page: number): GtkScene => ({
    name: `widget-factory-page${page}`,
    app: { command: "gtk3-widget-factory", window: { app: "gtk3-widget-factory" } },
    prepare: page === 1 ? undefined : (ctx) => clickNode(ctx, "radio button", `Page ${page}`), // the stack switcher
  });
  return [
    wf(1),
    wf(2),
    wf(3),
    { name: "mousepad-editor", app: { command: "mousepad", args: [note], window: { app: "mousepad" }, env: MOUSEPAD_ENV } },
    {
      name: "mousepad-open-dialog",
      app: { command: "mousepad", args: [note], window: { app: "mousepad" }, env: MOUSEPAD_ENV },
      prepare: async (ctx) => {
        await ctx.input.key("ctrl+o");
        await sleep(1500);
      },
    },
    {
      name: "yad-form",
      app: {
        command: "yad",
        args: ["--form", "--title=Nouveau patient", "--width=700", "--field=Nom", "--field=Prénom", "--field=Mot de passe:H", "--field=Âge:NUM", "--field=Date de naissance:DT", "--field=Mutuelle:CB", "--field=Tiers payant:CHK", "--field=Dossier:DIR", "--field=Couleur:CLR", "--field=Notes:TXT", "Dupont", "Jean", "", "42", "", "MGEN!Harmonie!Aucune", "TRUE", "/tmp", "#3366cc", "Patient régulier"],
      },
    },
    {
      name: "zenity-forms",
      app: { command: "zenity", args: ["--forms", "--title=Invoice", "--text=New invoice", "--add-entry=Customer", "--add-password=Password", "--add-entry=Amount", "--add-calendar=Due date", "--add-combo=Currency", "--combo-values=EUR|USD|GBP"] },
    },
  ];
}

async function gtkApps(session: LabSession, tmp: string): Promise<void> {
  const env = { ...process.env, ...session.env };
  const windows = new X11WindowInfo({ env });
  const screen = new X11ScreenSource({ env, windows });
  const input = new X11XTestInputDriver({ env, speed: 3 });
  const variants: Array<{ theme: "light" | "dark"; scale: 1 | 2 }> = [
    { theme: "light", scale: 1 },
    { theme: "dark", scale: 1 },
    { theme: "light", scale: 2 },
    { theme: "dark", scale: 2 },
  ];
  try {
    for (const scene of gtkScenes(tmp)) {
      for (const v of variants) {
        const id = `gtk-${scene.name}-${v.theme}-${v.scale}x`;
        if (done(id)) continue;
        const variant: AppVariant = { theme: v.theme, scale: v.scale };
        const app = await launchApp(session, windows, { ...scene.app, variant });
        try {
          await windows.activate(app.window.id);
          await sleep(700);
          const nodes = async () => (await atspiDump(env, { pid: app.pid, scale: v.scale })).nodes;
          await scene.prepare?.({ input, nodes, scale: v.scale });
          await input.move([session.width - 5, session.height - 5], { durationMs: 0 }); // no hover highlight
          await sleep(300);
          const active = await windows.active();
          const frame = await screen.capture({ kind: "screen" });
          const all = await nodes();
          // Keep the window on top: its own nodes (the dialog when one is open), clipped to its area.
          const top = active?.title ? all.filter((n) => n.toplevel?.name === active.title) : [];
          const screenBox: BBox = [0, 0, session.width, session.height];
          const within: BBox = (active && bboxIntersection(active.bbox, screenBox)) || screenBox;
          const gt = groundTruthFromAtspi(top.length > 0 ? top : all, within);
          if (!active) throw new Error(`${id}: no active window to capture`);
          const window = { title: active.title, app: active.appName, bbox: bboxIntersection(active.bbox, screenBox) ?? screenBox };
          save({ id, source: "gtk", page: scene.name, variant: v, width: frame.width, height: frame.height, window, ...gt }, await encodePng(frame));
        } finally {
          await app.stop();
          await sleep(200);
        }
      }
    }
  } finally {
    await screen.close();
    await input.close();
  }
}

// ---------------------------------------------------------------------------------------------

export function readCorpus(dir = CORPUS_DIR): CorpusItem[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json") && f !== "index.json")
    .map((f) => JSON.parse(readFileSync(join(dir, f), "utf8")) as CorpusItem)
    .sort((a, b) => a.id.localeCompare(b.id));
}

async function main(): Promise<void> {
  mkdirSync(CORPUS_DIR, { recursive: true });
  const only = process.argv.find((a) => a.startsWith("--only="))?.slice(7);
  const t0 = Date.now();
  if (!only || only === "gtk") {
    console.log("GTK apps on the lab desktop:");
    const session = await labUp({ display: LAB_DISPLAY });
    const tmp = join(DEPS, "tmp");
    mkdirSync(tmp, { recursive: true });
    try {
      await gtkApps(session, tmp);
    } finally {
      await labDown({ display: LAB_DISPLAY });
    }
  }
  if (!only || only === "html") {
    ensureDeps();
    console.log("HTML pages in headless Chromium:");
    const browser = await chromium.launch({
      executablePath: process.env.RPAV_CHROMIUM ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--allow-file-access-from-files"],
    });
    try {
      await htmlPages(browser);
    } finally {
      await browser.close();
    }
  }
  if (!only || only === "sites") {
    console.log("Generated sites (the embed bench's theme and scale pairs) in headless Chromium:");
    await (await import("./sites.js")).buildSites({ shootWebPage, readCorpus });
  }
  const items = readCorpus();
  const perSource: Record<string, number> = {};
  const perType: Record<string, number> = {};
  let words = 0;
  for (const it of items) {
    perSource[it.source] = (perSource[it.source] ?? 0) + 1;
    for (const e of it.elements) perType[e.type] = (perType[e.type] ?? 0) + 1;
    words += it.words.length;
  }
  const index = { version: CORPUS_VERSION, screenshots: items.length, per_source: perSource, elements_per_type: perType, words, ids: items.map((i) => i.id) };
  writeFileSync(join(CORPUS_DIR, "index.json"), `${JSON.stringify(index, null, 2)}\n`);
  console.log(`\ncorpus: ${items.length} screenshots (${count} new, ${Math.round((Date.now() - t0) / 1000)} s) in ${CORPUS_DIR}`);
  console.log(`per source: ${JSON.stringify(perSource)}`);
  console.log(`elements per type: ${JSON.stringify(perType)}; words: ${words}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await main();
