// Generated sites for the embed bench's theme and scale pairs: pages made by the HTML data engine's layouts
// (training/gen/html: side bars, top bars, dashboards, tables, settings, forms — never a ready-made template), one
// "site" per CSS kit, each page shot as the dev corpus shoots web pages: light ×1 (the recording), dark ×1 where the
// kit has a dark mode, light ×2 and dark ×2 (a 960 × 540 CSS-pixel viewport in the same 1920 × 1080 window: the page
// is laid out again, as on a HiDPI laptop or at 200 % zoom). The window title is the site's name and the page's, as a
// site shows it in its tab.
//
// Kits are split once, before anything was measured: SITES_TUNE may be looked at while designing the state embedding;
// SITES_HELD are embedded only for the figures (RPAV_BENCH_FAMILIES leaves them out while tuning).
//   npm run corpus (all of the corpus), npm run corpus -- --only=sites, or npx tsx bench/corpus/sites.ts
//   (cached; bench/corpus/out-sites/)
import { mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { chromium } from "playwright-core";
import { Pick, rngFor } from "../../training/gen/html/common.js";
import { KITS2 } from "../../training/gen/html/kits.js";
import { page2 } from "../../training/gen/html/layouts.js";
import type { Browser } from "playwright-core";
import type { CorpusItem, WebShot } from "./build.js";

/**
 * What the corpus builder lends: its web page shooter and its reader. Handed over, not imported — build.ts imports this
 * module while its own top-level await runs, and a static import back would wait on it forever (exit 13, sites unmade).
 */
export interface SiteShooter {
  shootWebPage(browser: Browser, shot: WebShot, dir?: string): Promise<void>;
  readCorpus(dir?: string): CorpusItem[];
}

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, "..", "..");
export const SITES_DIR = join(HERE, "out-sites");
export const SITES_TUNE = ["bootstrap5", "bulma", "pico", "spectre", "primer", "papercss"] as const;
export const SITES_HELD = ["fomantic", "materialize", "uikit", "patternfly"] as const;
export const PAGES_PER_SITE = 6;
const require = createRequire(import.meta.url);
const pkgFile = (spec: string) => require.resolve(spec, { paths: [ROOT] });

/** The page's visible words (tags, styles and attributes stripped): light and dark pages must show the same text. */
const textOf = (html: string) => html.replace(/<(style|script|title)[\s\S]*?<\/\1>/g, " ").replace(/<[^>]+>/g, " ").replace(/\s+/g, " ").trim();

/** Page i of a kit's site, light or dark: the same seed both times (the dark page is the light page's twin or nothing). */
function sitePage(kitName: string, i: number, dark: boolean): { html: string; dark: boolean } {
  const k = KITS2.find((x) => x.name === kitName);
  if (!k) throw new Error(`no kit "${kitName}"`);
  const seed = rngFor(`site:${kitName}:${i}`);
  const fr = seed() < 0.5;
  const site = new Pick(rngFor(`site:${kitName}`), fr).t("title");
  const made = page2(new Pick(seed, fr), k, dark, pkgFile);
  const html = made.html.replace(/<title>([^<]*)<\/title>/, (_m, t: string) => `<title>${site} | ${t}</title>`);
  return { html, dark: made.dark };
}

export async function buildSites({ shootWebPage, readCorpus }: SiteShooter): Promise<void> {
  mkdirSync(join(SITES_DIR, ".pages"), { recursive: true });
  const browser = await chromium.launch({
    executablePath: process.env.RPAV_CHROMIUM ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--allow-file-access-from-files"],
  });
  const t0 = Date.now();
  try {
    for (const kit of [...SITES_TUNE, ...SITES_HELD])
      for (let i = 0; i < PAGES_PER_SITE; i++) {
        const light = sitePage(kit, i, false);
        const dark = sitePage(kit, i, true);
        const variants: Array<{ theme: "light" | "dark"; scale: 1 | 2; html: string }> = [
          { theme: "light", scale: 1, html: light.html },
          { theme: "light", scale: 2, html: light.html },
        ];
        if (dark.dark && textOf(dark.html) === textOf(light.html))
          variants.push({ theme: "dark", scale: 1, html: dark.html }, { theme: "dark", scale: 2, html: dark.html });
        for (const v of variants) {
          const file = join(SITES_DIR, ".pages", `${kit}-p${i}-${v.theme}.html`);
          writeFileSync(file, v.html);
          const id = `site-${kit}-p${i}-${v.theme}-${v.scale}x`;
          await shootWebPage(browser, { id, source: `site-${kit}`, page: `p${i}`, url: pathToFileURL(file).href, theme: v.theme, scale: v.scale }, SITES_DIR);
        }
        process.stdout.write(`  ${kit} page ${i + 1}/${PAGES_PER_SITE} (${variants.length} shots)\n`);
      }
  } finally {
    await browser.close();
  }
  console.log(`sites: ${readCorpus(SITES_DIR).length} screenshots in ${SITES_DIR} (${Math.round((Date.now() - t0) / 1000)} s)`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await buildSites(await import("./build.js"));
