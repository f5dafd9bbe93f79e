// `npm run train -- icons-data`: the icon classifier's training data (training/icons/train.py trains on it).
//
// Sources, all fetched by this script at pinned versions into training/data/icons/ (never at run time):
// - twelve icon sets published on npm (SVG; monochrome, drawn in a random colour);
// - thirteen icon themes packaged in Debian (DEB_THEMES: Tango, Oxygen, MATE, Breeze, GNOME 2, Faenza, nuoveXT,
//   Yaru, Moka, Paper…; colour and symbolic, PNG and SVG; `apt-get download`, unpacked with dpkg-deb, no root),
//   and the installed Adwaita theme.
// Qt's own built-in icons (QStyle standard pixmaps: what the generated Qt screens show, and Qt is a held
// family) are NOT a source: training/icons/qt_icons.py renders them for the held-out measure only.
//
// An icon's class comes from its file name (general names: "floppy", "document-save", "trash", "gear"…):
// the name, once its style words ("fill", "outline", "circle", sizes…) are dropped, must be exactly one
// class's keyword; names that hold no class word at all are "other" (sampled), names that mix two are
// left out. Each icon is rendered at a random size on a random background, its ink box taken with a pixel
// of jitter, and turned into the classifier's input by the product's own `iconInput` (src/perception/icon-input.ts).
// Output: training/data/icons/set.bin (uint8 32×32 per sample), set.json (labels, families, classes) and
// training/data/icons/manifest.json (sources with versions and hashes, counts). Seeded; resumable: fetched
// sources are kept.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, extname, join, relative } from "node:path";
import sharp from "sharp";
import { makeFrame } from "../../src/core/frame.js";
import { ICON_INPUT_PLANES, ICON_INPUT_SIDE, ICON_INPUT_SIZE, iconInput } from "../../src/perception/icon-input.js";

const ROOT = join(import.meta.dirname, "..", "..");
const OUT = join(ROOT, "training", "data", "icons");
const PKGS = join(OUT, "pkgs");
const DEBS = join(OUT, "debs");

/** The classes, each with the names icon sets give it (tokens joined by a space). */
export const ICON_KEYWORDS: Record<string, string[]> = {
  save: ["save", "floppy", "floppy disk", "device floppy", "content save", "document save", "diskette", "disk"],
  settings: ["settings", "gear", "gears", "cog", "cogs", "gear six", "gear fine", "preferences system", "emblem system", "sliders"],
  delete: ["trash", "trash can", "trash 2", "delete", "bin", "delete bin", "edit delete", "user trash", "wastebasket", "recycle bin", "garbage"],
  edit: ["edit", "pencil", "pen", "pencil simple", "edit 2", "document edit", "pencil line", "create"],
  search: ["search", "magnifying glass", "magnify", "find", "edit find", "system search", "zoom"],
  add: ["plus", "add", "list add", "plus lg"],
  remove: ["minus", "remove", "list remove", "dash", "dash lg", "subtract"],
  close: ["x", "close", "times", "xmark", "window close", "cross", "x lg", "multiply"],
  menu: ["menu", "hamburger", "bars", "three bars", "menu hamburger", "text align justify"],
  play: ["play", "media playback start", "player play", "caret right fill"],
  refresh: ["refresh", "reload", "rotate", "arrow clockwise", "view refresh", "sync", "arrow repeat", "rotate cw", "refresh cw", "redo"],
  print: ["print", "printer", "document print", "printer line"],
  copy: ["copy", "clone", "duplicate", "edit copy", "files", "content copy"],
  star: ["star", "starred", "bookmark star"],
  home: ["home", "house", "go home", "user home", "house simple", "home 2"],
  help: ["help", "question", "question mark", "lifebuoy", "life buoy", "life ring", "help browser", "help contents", "help faq", "circle help", "help circle", "question circle", "lifesaver"],
  folder: ["folder", "folder open", "document open", "directory", "open folder", "folder simple"],
  user: ["user", "person", "account", "avatar default", "user profile", "user circle", "people", "person fill"],
  mail: ["mail", "envelope", "email", "envelope simple", "mail open", "internet mail", "mail unread"],
  calendar: ["calendar", "x office calendar", "calendar blank", "calendar today", "calendar event", "calendar3", "event"],
  bell: ["bell", "notification", "notifications", "bell simple", "alarm bell"],
  lock: ["lock", "padlock", "lock closed", "system lock screen", "changes prevent", "lock simple", "locked"],
  download: ["download", "download simple", "cloud download", "arrow down tray", "tray arrow down", "document save download"],
  upload: ["upload", "upload simple", "cloud upload", "arrow up tray", "tray arrow up"],
  arrow_right: ["arrow right", "chevron right", "go next", "caret right", "arrow forward", "forward", "arrow narrow right", "right", "next", "angle right", "arrow right short"],
  arrow_left: ["arrow left", "chevron left", "go previous", "caret left", "arrow back", "back", "arrow narrow left", "left", "previous", "angle left", "arrow left short"],
  arrow_up: ["arrow up", "chevron up", "go up", "caret up", "arrow upward", "arrow narrow up", "up", "angle up", "arrow up short"],
  arrow_down: ["arrow down", "chevron down", "go down", "caret down", "arrow downward", "arrow narrow down", "down", "angle down", "arrow down short"],
  computer: ["computer", "desktop", "monitor", "display", "desktop computer", "pc", "device desktop", "laptop"],
  file: ["file", "document", "page", "text x generic", "file text", "file earmark", "note", "file blank", "document text", "sticky note"],
  info: ["info", "information", "dialog information", "info circle", "circle info", "info square"],
  warning: ["warning", "alert", "exclamation", "dialog warning", "exclamation triangle", "triangle alert", "alert triangle", "warning circle", "error", "dialog error"],
  heart: ["heart", "favorite", "emblem favorite", "love"],
};
export const ICON_CLASSES = [...Object.keys(ICON_KEYWORDS), "other"];

/**
 * The extra figures (`--extra`): common on toolbars and in tables, named by a second model that only looks at what
 * the first calls "other" (src/perception/icon-classifier.ts composes them), so adding them leaves the first model,
 * and the classes workflows were recorded with, as they are. Its data: the same sources, every icon of these names
 * labelled so, every other icon (the first model's classes included) "other".
 */
export const EXTRA_ICON_KEYWORDS: Record<string, string[]> = {
  filter: ["filter", "funnel", "filter alt", "filter variant", "view filter", "filter simple"],
  share: ["share", "share nodes", "share network", "share variant", "share alt", "emblem shared", "share android", "share social"],
  check: ["check", "checkmark", "check2", "tick", "done", "check lg", "check bold", "dialog ok", "emblem ok", "check simple"],
  maximize: ["maximize", "maximise", "window maximize", "fullscreen", "arrows fullscreen", "arrows maximize", "expand", "arrows angle expand", "view fullscreen", "arrows out"],
  eye: ["eye", "visibility", "eye open", "eye show", "preview", "view", "eye off", "eye slash", "eye closed", "visibility off", "eye check"],
  link: ["link", "chain", "insert link", "link 45deg", "link simple", "link alt", "link chain"],
  logout: ["logout", "log out", "sign out", "exit", "door exit", "system log out", "application exit", "box arrow right", "sign out alt", "right from bracket"],
  clock: ["clock", "time", "schedule", "clock hour 3", "clock hour 4", "clock three", "timer", "clock rotate left", "history", "alarm"],
  image: ["image", "photo", "picture", "images", "photograph", "image x generic", "file image", "image square"],
  attach: ["paperclip", "attach", "attachment", "attach file", "paper clip", "mail attachment", "attach 2"],
  cart: ["cart", "shopping cart", "basket", "shopping basket", "cart shopping", "shopping bag", "bag"],
  tag: ["tag", "tags", "label", "price tag", "tag simple", "bookmark tag"],
  key: ["key", "key skeleton", "dialog password", "passkey"],
  chart: ["chart", "bar chart", "chart bar", "graph", "chart line", "chart pie", "pie chart", "analytics", "stats", "chart column", "bar chart line", "graph up", "chart area", "office chart bar"],
  phone: ["phone", "telephone", "call", "phone call", "phone simple", "call start"],
  camera: ["camera", "photo camera", "camera alt", "camera simple", "camera photo", "device camera"],
  more: ["more", "dots", "dots vertical", "ellipsis horizontal", "ellipsis vertical", "dots horizontal", "three dots", "three dots vertical", "ellipsis", "ellipsis vertical", "ellipsis h", "ellipsis v", "more vertical", "more horizontal", "more vert", "more horiz", "dots three", "dots three vertical", "kebab horizontal", "view more", "overflow menu vertical", "overflow menu horizontal"],
  chat: ["chat", "chats", "comment", "comments", "message", "messages", "comment dots", "chat dots", "chat bubble", "chatbubble", "chatbubbles", "speech bubble", "message circle", "message square", "chat left", "chat right", "chat square", "forum", "conversation", "message text", "comment text", "chat centered", "chat circle", "chat teardrop"],
  volume: ["volume", "volume up", "volume high", "volume down", "volume low", "volume medium", "volume 1", "volume 2", "speaker", "speaker high", "speaker low", "speaker wave", "audio volume high", "audio volume medium", "audio volume low", "sound", "volume full"],
  flag: ["flag", "flag 2", "flag 3", "flag banner", "flag pennant", "emblem flag", "flag triangle"],
  grid: ["grid", "apps", "grid 3x3", "grid 3x3 gap", "view grid", "layout grid", "grid four", "squares four", "view module", "th large", "view apps", "dots grid", "grid 2x2", "layout grid add"],
  microphone: ["microphone", "mic", "audio input microphone", "microphone 2", "mic simple"],
  globe: ["globe", "world", "earth", "web", "internet", "globe americas", "globe europe africa", "globe asia australia", "globe simple", "globe hemisphere west", "globe hemisphere east", "globe 2"],
  location: ["location", "map marker", "map pin", "location pin", "geo alt", "geo", "place", "location on", "map marker alt", "location dot", "map pin line", "pin map"],
  bookmark: ["bookmark", "bookmarks", "bookmark simple", "bookmark 2", "bookmark outline"],
  list: ["list", "list ul", "list ol", "view list", "format list bulleted", "list bullets", "list unordered", "list ordered", "list bulleted", "format list numbered", "list numbers", "list dashes", "list bullet"],
  sun: ["sun", "weather sunny", "light mode", "sunny", "sun high", "sun dim", "brightness high", "sun fill"],
  moon: ["moon", "dark mode", "weather night", "moon stars", "moon fill", "night", "crescent"],
  undo: ["undo", "arrow undo", "edit undo", "undo 2", "arrow uturn left", "arrow back up"],
  send: ["send", "paper plane", "paper airplane", "send 2", "paperplane", "paper plane tilt", "send horizontal"],
  thumbs_up: ["thumbs up", "thumb up", "hand thumbs up", "thumbs up simple", "like"],
  cloud: ["cloud", "cloudy", "weather cloudy", "cloud simple"],
  bulb: ["lightbulb", "bulb", "light bulb", "lightbulb simple", "idea"],
  dashboard: ["dashboard", "speedometer", "speedometer2", "gauge", "tachometer", "tachometer alt", "view dashboard", "layout dashboard", "gauge simple"],
  cut: ["cut", "scissors", "content cut", "edit cut"],
  paste: ["paste", "clipboard", "content paste", "edit paste", "clipboard simple", "clipboard blank"],
};
export const EXTRA_ICON_CLASSES = [...Object.keys(EXTRA_ICON_KEYWORDS), "other"];

/** Words that say how an icon is drawn, not what it shows. */
const STYLE_WORDS = new Set(
  "fill filled outline outlined line lines solid regular bold light thin duotone sharp round rounded alt o circle circled square squared sm lg md ios mini micro small large symbolic bx bxs bxl fa s r symbolic rtl ltr variant twotone two tone full fi mono".split(" "),
);

const keywordClasses = (keywords: Record<string, string[]>) => {
  const byName = new Map<string, string>();
  for (const [c, ks] of Object.entries(keywords)) for (const k of ks) byName.set(k, c);
  return { byName, tokens: new Set([...byName.keys()].flatMap((k) => k.split(" "))) };
};
const KEYWORDS = keywordClasses(ICON_KEYWORDS);
const ALL_KEYWORDS = keywordClasses({ ...ICON_KEYWORDS, ...EXTRA_ICON_KEYWORDS });

/**
 * An icon file name's class, "other", or undefined (two classes mixed: left out). `extra`: among the first model's
 * classes and the extra ones (a name of neither is "other").
 */
export function classOfName(file: string, extra = false): string | undefined {
  const { byName, tokens: classTokens } = extra ? ALL_KEYWORDS : KEYWORDS;
  const tokens = basename(file, extname(file))
    .toLowerCase()
    .split(/[-_.\s]+/u)
    .filter((t) => t && !STYLE_WORDS.has(t) && !/^\d+$/u.test(t));
  const name = tokens.join(" ");
  const c = byName.get(name);
  if (c) return c;
  return tokens.some((t) => classTokens.has(t)) ? undefined : "other";
}

interface Source {
  readonly family: string;
  readonly dir: string;
  /** Monochrome icons, drawn in a random colour; colour icons keep theirs. */
  readonly mono: boolean;
  readonly version: string;
}

const NPM_SETS: Record<string, [version: string, dir: string]> = {
  "bootstrap-icons": ["1.13.2", "icons"],
  "@tabler/icons": ["3.52.0", "icons"],
  "lucide-static": ["1.62.0", "icons"],
  "@mdi/svg": ["7.4.47", "svg"],
  "feather-icons": ["4.29.2", "dist/icons"],
  "@fortawesome/fontawesome-free": ["7.3.1", "svgs"],
  remixicon: ["4.9.1", "icons"],
  "@primer/octicons": ["19.42.0", "build/svg"],
  ionicons: ["8.1.0", "dist/svg"],
  boxicons: ["2.1.4", "svg"],
  "@phosphor-icons/core": ["2.1.1", "assets"],
  heroicons: ["2.2.0", "24"],
};
/** Icon themes packaged in Debian (bookworm), colour and symbolic; every theme folder a package holds is read. */
const DEB_THEMES = [
  "tango-icon-theme", "oxygen-icon-theme", "mate-icon-theme", "breeze-icon-theme", "elementary-xfce-icon-theme", "gnome-icon-theme",
  "faenza-icon-theme", "lxde-icon-theme", "gnome-colors-common", "yaru-theme-icon", "moka-icon-theme", "paper-icon-theme", "suru-icon-theme",
];

function fetchSources(): Source[] {
  mkdirSync(PKGS, { recursive: true });
  const want = Object.entries(NPM_SETS).map(([p, [v]]) => `${p}@${v}`);
  if (!Object.keys(NPM_SETS).every((p) => existsSync(join(PKGS, "node_modules", p, "package.json")))) {
    writeFileSync(join(PKGS, "package.json"), '{ "private": true }\n');
    console.log(`fetching ${want.length} icon sets from npm…`);
    execFileSync("npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts", "--no-save", ...want], { cwd: PKGS, stdio: "inherit" });
  }
  mkdirSync(DEBS, { recursive: true });
  const debs = readdirSync(DEBS).filter((f) => f.endsWith(".deb"));
  const missing = DEB_THEMES.filter((p) => !debs.some((f) => f.startsWith(`${p}_`)));
  if (missing.length) {
    console.log(`fetching ${missing.join(", ")} from Debian…`);
    execFileSync("apt-get", ["download", ...missing], { cwd: DEBS, stdio: "inherit" });
  }
  const sources: Source[] = Object.entries(NPM_SETS).map(([p, [v, dir]]) => ({ family: `npm/${p}`, dir: join(PKGS, "node_modules", p, dir), mono: true, version: v }));
  for (const f of readdirSync(DEBS).filter((f) => f.endsWith(".deb")).sort()) {
    const pkg = f.split("_")[0]!;
    if (!DEB_THEMES.includes(pkg)) continue;
    const version = decodeURIComponent(f.split("_")[1]!);
    const root = join(DEBS, "root", pkg);
    if (!existsSync(join(root, ".unpacked"))) {
      mkdirSync(root, { recursive: true });
      execFileSync("dpkg-deb", ["-x", join(DEBS, f), root]);
      writeFileSync(join(root, ".unpacked"), f);
    }
    sources.push({ family: `debian/${pkg}`, dir: join(root, "usr", "share", "icons"), mono: false, version });
  }
  sources.push({ family: "debian/adwaita", dir: "/usr/share/icons/Adwaita", mono: false, version: "installed" });
  return sources;
}

function walk(dir: string, out: string[] = []): string[] {
  if (!existsSync(dir)) return out;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (e.isFile() && /\.(svg|png)$/iu.test(e.name)) out.push(p);
  }
  return out;
}

/** A small deterministic generator (mulberry32). */
function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)), pick: <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]! };
}

const nativeSize = (f: string): number => Number(/\/(\d+)(?:x\d+)?(?:@2x)?\//u.exec(f)?.[1] ?? 0);

/**
 * The files of each logical icon (a theme's icon of one name, in one context), with its key: one for a monochrome
 * set (an SVG, or a 32–64 px PNG), up to `perName` of distinct sizes for a colour theme (its 16–24 px pixmaps are
 * drawn apart, as desktop toolbars show them).
 */
function pickFiles(files: string[], perName: number): { file: string; key: string }[] {
  const byName = new Map<string, string[]>();
  for (const f of files) {
    const key = `${basename(f, extname(f))}|${relative("/", f).split("/").filter((p) => !/^\d+(x\d+)?(@2x)?$|^scalable|symbolic/u.test(p)).slice(-2, -1)[0] ?? ""}`;
    byName.set(key, [...(byName.get(key) ?? []), f]);
  }
  // 32–64 px PNGs are drawn for toolbar sizes; an SVG scales; then the small pixmaps.
  const good = (f: string) => (f.endsWith(".svg") ? 2 : nativeSize(f) >= 32 && nativeSize(f) <= 64 ? 3 : nativeSize(f) >= 16 && nativeSize(f) < 32 ? 1 : 0);
  const out: { file: string; key: string }[] = [];
  for (const [key, fs] of [...byName.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    const sizes = new Set<number>();
    for (const f of [...fs].sort((a, b) => good(b) - good(a) || (a < b ? -1 : 1))) {
      if (sizes.size >= perName || good(f) === 0) break;
      const size = f.endsWith(".svg") ? -1 : nativeSize(f);
      if (sizes.has(size)) continue;
      sizes.add(size);
      out.push({ file: f, key });
    }
  }
  return out;
}

async function render(file: string, mono: boolean, size: number, colour: [number, number, number]): Promise<{ data: Buffer; w: number; h: number } | undefined> {
  let input: Buffer = readFileSync(file);
  const svg = file.endsWith(".svg");
  if (svg && mono) input = Buffer.from(input.toString("utf8").replaceAll("currentColor", "#000"));
  try {
    const img = sharp(input, svg ? { density: Math.max(24, Math.min(1200, (72 * size) / 24)) } : {})
      .resize(size, size, { fit: "contain", background: { r: 0, g: 0, b: 0, alpha: 0 } })
      .ensureAlpha();
    const { data, info } = await img.raw().toBuffer({ resolveWithObject: true });
    if (mono)
      for (let i = 0; i < data.length; i += 4) {
        data[i] = colour[0];
        data[i + 1] = colour[1];
        data[i + 2] = colour[2];
      }
    return { data, w: info.width, h: info.height };
  } catch {
    return undefined;
  }
}

const PALETTE_LIGHT: [number, number, number][] = [[255, 255, 255], [246, 245, 244], [240, 240, 240], [233, 236, 239], [222, 226, 230], [250, 250, 250], [239, 239, 239], [13, 110, 253], [25, 135, 84], [220, 53, 69]];
const PALETTE_DARK: [number, number, number][] = [[33, 37, 41], [53, 53, 53], [36, 36, 36], [48, 48, 48], [30, 30, 30], [18, 18, 18], [45, 55, 72], [60, 63, 65]];

/** The icon drawn on a plain background and seen as the product sees it: its ink box (a pixel of jitter), then `iconInput`. */
function compose(img: { data: Buffer; w: number; h: number }, bg: readonly [number, number, number], r: ReturnType<typeof rng>): Float32Array | undefined {
  const pad = Math.ceil(Math.max(img.w, img.h) * 0.6) + 4;
  const W = img.w + 2 * pad;
  const H = img.h + 2 * pad;
  const rgb = new Uint8Array(W * H * 3);
  for (let p = 0; p < W * H; p++) rgb.set(bg, p * 3);
  let [l, t, rr, b] = [W, H, -1, -1];
  for (let y = 0; y < img.h; y++)
    for (let x = 0; x < img.w; x++) {
      const o = (y * img.w + x) * 4;
      const a = img.data[o + 3]! / 255;
      if (a <= 0) continue;
      const q = ((y + pad) * W + x + pad) * 3;
      for (let c = 0; c < 3; c++) rgb[q + c] = Math.round(img.data[o + c]! * a + rgb[q + c]! * (1 - a));
      if (a > 0.25) [l, t, rr, b] = [Math.min(l, x + pad), Math.min(t, y + pad), Math.max(rr, x + pad + 1), Math.max(b, y + pad + 1)];
    }
  if (rr < 0 || rr - l < 3 || b - t < 3) return undefined;
  const j = () => r.int(-1, 1);
  return iconInput(makeFrame({ data: rgb, width: W, height: H, channels: 3 }), [l + j(), t + j(), rr + j(), b + j()]);
}

/** `--held`: Qt's built-in icons (training/icons/qt_icons.py) on light and dark backgrounds, for the held measure only. */
async function held(): Promise<void> {
  const dir = join(OUT, "qt");
  execFileSync("/usr/bin/python3", [join(import.meta.dirname, "qt_icons.py"), dir], { stdio: "inherit" });
  const items = JSON.parse(readFileSync(join(dir, "qt-icons.json"), "utf8")) as { file: string; class: string; extra_class: string; size: number }[];
  const r = rng(7);
  const n = ICON_INPUT_SIZE;
  const rows: Float32Array[] = [];
  const labels: number[] = [];
  const extraLabels: number[] = [];
  const files: string[] = [];
  for (const it of items)
    for (const bg of [PALETTE_LIGHT[0]!, PALETTE_LIGHT[2]!, PALETTE_DARK[1]!]) {
      const { data, info } = await sharp(join(dir, it.file)).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
      const x = compose({ data, w: info.width, h: info.height }, bg, r);
      if (!x) continue;
      rows.push(x);
      labels.push(ICON_CLASSES.indexOf(it.class));
      extraLabels.push(EXTRA_ICON_CLASSES.indexOf(it.extra_class));
      files.push(it.file);
    }
  const buf = Buffer.alloc(rows.length * n);
  rows.forEach((x, k) => x.forEach((v, p) => (buf[k * n + p] = Math.round(v * 255))));
  writeFileSync(join(OUT, "held.bin"), buf);
  writeFileSync(join(OUT, "held.json"), JSON.stringify({ side: ICON_INPUT_SIDE, planes: ICON_INPUT_PLANES, classes: ICON_CLASSES, labels, extra_classes: EXTRA_ICON_CLASSES, extra_labels: extraLabels, families: files.map(() => "held/qt-builtin"), files }));
  console.log(`${rows.length} held samples (Qt built-in icons) in ${join(OUT, "held.bin")}`);
}

async function main(): Promise<void> {
  if (process.argv.includes("--held")) return held();
  const extra = process.argv.includes("--extra");
  const classes = extra ? EXTRA_ICON_CLASSES : ICON_CLASSES;
  /** The label a class of the file names has in the set being made. */
  const labelOf = (c: string) => (!extra || EXTRA_ICON_KEYWORDS[c] ? c : "other");
  const sources = fetchSources();
  const r = rng(20261204);
  const perClassFile = 4;
  const maxPerClass = 80;
  // The extra model's "other" keeps its share as its figures grew from 17 to 36 (a first retraining with the cap of 17
  // figures named twice as many "other" icons a figure: 0.052 of them against 0.027).
  const otherPerSource = extra ? 640 : 320;
  const samples: { file: string; key: string; family: string; cls: string; label: string; mono: boolean }[] = [];
  for (const s of sources) {
    const files = pickFiles(walk(s.dir), s.mono ? 1 : 3);
    const byClass = new Map<string, { file: string; key: string }[]>();
    for (const f of files) {
      const c = classOfName(f.file, extra);
      if (c) byClass.set(c, [...(byClass.get(c) ?? []), f]);
    }
    for (const [c, fs] of byClass) {
      const cap = (c === "other" ? otherPerSource : maxPerClass) * (s.mono ? 1 : 2);
      const chosen = [...fs];
      for (let i = chosen.length - 1; i > 0; i--) {
        const j = Math.floor(r.next() * (i + 1));
        [chosen[i], chosen[j]] = [chosen[j]!, chosen[i]!];
      }
      for (const f of chosen.slice(0, cap)) samples.push({ ...f, family: s.family, cls: c, label: labelOf(c), mono: s.mono });
    }
  }
  const n = ICON_INPUT_SIZE;
  const variants = samples.flatMap((s) => Array.from({ length: s.label === "other" ? 1 : perClassFile }, () => s));
  const buf = Buffer.alloc(variants.length * n);
  const labels: number[] = [];
  const families: string[] = [];
  const files: string[] = [];
  const groups: string[] = [];
  let k = 0;
  const t0 = Date.now();
  for (const [i, s] of variants.entries()) {
    if (i % 1000 === 0) process.stdout.write(`\r${i}/${variants.length} icons rendered (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
    const dark = r.next() < 0.35;
    const bg = r.pick(dark ? PALETTE_DARK : PALETTE_LIGHT);
    const lum = (c: number[]) => 0.299 * c[0]! + 0.587 * c[1]! + 0.114 * c[2]!;
    let fg: [number, number, number];
    do fg = [r.int(0, 255), r.int(0, 255), r.int(0, 255)];
    while (Math.abs(lum(fg) - lum(bg)) < 90);
    if (r.next() < 0.5) {
      const g = lum(bg) > 128 ? r.int(0, 80) : r.int(200, 255);
      fg = [g, g, g];
    }
    // A pixmap drawn for a small size is shown at about that size; an SVG or a large PNG at any.
    const native = nativeSize(s.file);
    const size = native >= 12 && native <= 32 && r.next() < 0.8 ? Math.round(native * (0.9 + 0.2 * r.next())) : r.int(12, 40);
    const img = await render(s.file, s.mono, size, fg);
    if (!img) continue;
    const x = compose(img, bg, r);
    if (!x) continue;
    for (let p = 0; p < n; p++) buf[k * n + p] = Math.round(x[p]! * 255);
    labels.push(classes.indexOf(s.label));
    families.push(s.family);
    files.push(relative(OUT, s.file));
    groups.push(`${s.family}|${s.key}`);
    k++;
  }
  process.stdout.write(`\r${variants.length}/${variants.length} icons rendered (${((Date.now() - t0) / 1000).toFixed(0)} s)\n`);
  const bin = buf.subarray(0, k * n);
  const name = extra ? "set-extra" : "set";
  writeFileSync(join(OUT, `${name}.bin`), bin);
  writeFileSync(join(OUT, `${name}.json`), JSON.stringify({ side: ICON_INPUT_SIDE, planes: ICON_INPUT_PLANES, classes, labels, families, files, groups }));
  const counts: Record<string, number> = {};
  for (const l of labels) counts[classes[l]!] = (counts[classes[l]!] ?? 0) + 1;
  const byFamily: Record<string, number> = {};
  for (const f of families) byFamily[f] = (byFamily[f] ?? 0) + 1;
  const manifest = {
    sources: sources.map((s) => ({ family: s.family, version: s.version, dir: relative(ROOT, s.dir) })),
    samples: k,
    classes: counts,
    families: byFamily,
    sha256: createHash("sha256").update(bin).update(JSON.stringify(labels)).digest("hex"),
    seed: 20261204,
  };
  writeFileSync(join(OUT, extra ? "manifest-extra.json" : "manifest.json"), JSON.stringify(manifest, null, 1));
  console.log(JSON.stringify({ samples: k, classes: counts, families: byFamily }));
}

if (process.argv[1] && import.meta.filename === process.argv[1]) await main();
