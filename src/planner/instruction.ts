// Understanding an instruction, deterministically (the default and the fallback of a decision
// model): « Traite les dossiers de janvier », "process the invoices from last month not done yet",
// « les 3 premières factures PDF du 1er au 15 mars 2026 ». Our own small grammar takes the verb,
// the item noun, months, relative periods, counts, "not done", extensions, name patterns and a
// source path; chrono-node (its French and English parsers) takes dates and ranges of days. The
// result is an InstructionSchema value; what no filter took is kept as the words that choose the
// workflow.
import { createRequire } from "node:module";
import type * as Chrono from "chrono-node";
import { InvalidInputError } from "../core/errors.js";
import { InstructionSchema, type DateFilter, type Instruction } from "../core/schemas/plan.js";
import { foldText } from "../core/text.js";
import { addDays, dayOf, daysInMonth, isoDate, MONTH_NAMES, MONTH_WORDS, mondayOf, NUMBER_WORDS } from "./dates.js";

// chrono-node takes ~0.1–0.3 s to load: loaded by the first instruction that needs it, not by every command.
const requireLazy = createRequire(import.meta.url);
let chronoModule: typeof Chrono | undefined;
const chronoParsers = () => (chronoModule ??= requireLazy("chrono-node") as typeof Chrono);

export interface ParseOptions {
  /** "Now" for relative dates (tests pin it). */
  now?: Date;
  /** Force the language instead of guessing it. */
  language?: "fr" | "en";
}

const FR_MARKERS = new Set(["les", "des", "du", "de", "la", "le", "tous", "toutes", "traite", "traiter", "traitez", "dossiers", "fichiers", "factures", "lignes", "mois", "non", "pas", "premiers", "premieres", "derniers", "dernieres", "semaine", "cette", "ce", "dans", "au", "et", "d", "l", "annee", "aujourd", "hier", "encore"]);
const EN_MARKERS = new Set(["the", "all", "of", "from", "process", "handle", "files", "invoices", "rows", "records", "month", "last", "this", "week", "first", "not", "yet", "in", "done", "each", "every", "year", "today", "yesterday", "to", "and", "since", "before", "after", "between"]);
const STOP = new Set([...["les", "des", "du", "de", "la", "le", "un", "une", "tous", "toutes", "tout", "ce", "cette", "ces", "dans", "au", "aux", "et", "d", "l", "a", "en", "pour", "par", "sur", "moi", "stp", "svp", "merci", "mes", "mon", "ma", "nos", "vos", "qui", "que", "sont"], ...["the", "all", "of", "from", "in", "to", "and", "a", "an", "each", "every", "for", "my", "our", "please", "on", "that", "are", "with"], ...["entre", "between", "avant", "before", "depuis", "since", "apres", "after", "jusqu", "until", "dated", "date", "dates", "yet", "ne", "n"]]);

/** Item nouns, folded, singular → what they are called in both languages. Plurals are matched too. */
const ITEM_NOUNS = ["dossier", "fichier", "facture", "ligne", "patient", "document", "client", "commande", "courrier", "contrat", "devis", "releve", "bulletin", "file", "folder", "invoice", "row", "line", "record", "order", "entry", "item", "customer", "contract", "statement", "element"];
const VERBS = new Set([
  ...["traite", "traiter", "traitez", "ouvre", "ouvrir", "complete", "completer", "completez", "valide", "valider", "validez", "saisis", "saisir", "saisissez", "envoie", "envoyer", "envoyez", "imprime", "imprimer", "archive", "archiver", "renomme", "renommer", "fais", "faire", "lance", "lancer", "execute", "executer", "enregistre", "enregistrer", "remplis", "remplir", "verifie", "verifier", "annote", "annoter", "marque", "marquer", "signe", "signer"],
  ...["process", "handle", "open", "complete", "validate", "enter", "send", "print", "rename", "do", "run", "execute", "save", "fill", "check", "annotate", "mark", "sign", "update"],
]);
const EXTENSIONS = new Set(["pdf", "txt", "csv", "xlsx", "xls", "ods", "odt", "docx", "doc", "png", "jpg", "jpeg", "xml", "json", "html", "md", "rtf", "tif", "tiff"]);

interface Scan {
  /** The folded text; consumed spans are blanked as filters take them. */
  s: string;
}

function take(scan: Scan, re: RegExp): RegExpExecArray | null {
  const m = re.exec(scan.s);
  if (m) scan.s = scan.s.slice(0, m.index) + " ".repeat(m[0].length) + scan.s.slice(m.index + m[0].length);
  return m;
}

function numberOf(w: string): number | undefined {
  if (/^\d+$/.test(w)) return Number(w);
  return NUMBER_WORDS.get(w);
}

function guessLanguage(words: string[], raw: string): "fr" | "en" {
  let fr = 0;
  let en = 0;
  for (const w of words) {
    if (FR_MARKERS.has(w)) fr++;
    if (EN_MARKERS.has(w)) en++;
  }
  if (fr !== en) return fr > en ? "fr" : "en";
  return /[àâçéèêëîïôûùüÿœ«»]/i.test(raw) ? "fr" : "en";
}

const MONTH_ALT = [...MONTH_WORDS.keys()].sort((a, b) => b.length - a.length).join("|");
/** Month words that are also ordinary words: taken only next to a year or after "in"/"of"/"from". */
const AMBIGUOUS_MONTHS = new Set(["may", "mar", "sept", "dec"]);

function monthFilter(month: number, year: number | undefined, now: Date, text: string): DateFilter {
  const today = dayOf(now);
  // « les dossiers de janvier » said in December means this year's January; said in January of
  // a month still to come (« de mars » in January) means last year's.
  const y = year ?? (month <= today.m ? today.y : today.y - 1);
  return { kind: "month", month, year: y, year_implied: year === undefined, text };
}

function monthRange(from: { m: number; y: number }, to: { m: number; y: number }, text: string): DateFilter {
  return { kind: "range", from: isoDate(from.y, from.m, 1), to: isoDate(to.y, to.m, daysInMonth(to.y, to.m)), text };
}

/** Relative periods: this/last week, month, year; today, yesterday. */
function relativePeriod(scan: Scan, now: Date): DateFilter | null {
  const t = dayOf(now);
  const today = isoDate(t.y, t.m, t.d);
  const lastMonth = t.m === 1 ? { y: t.y - 1, m: 12 } : { y: t.y, m: t.m - 1 };
  const rules: Array<[RegExp, () => DateFilter]> = [
    [/\b(?:(?:du|le|au cours du|pendant le) )?mois (?:dernier|precedent|passe)\b|\blast month\b|\bprevious month\b/, () => ({ kind: "month", month: lastMonth.m, year: lastMonth.y, year_implied: false, text: "last month" })],
    [/\b(?:(?:de |du )?ce mois(?:-ci| ci)?|du mois en cours|du mois courant)\b|\bthis month\b|\bcurrent month\b/, () => ({ kind: "month", month: t.m, year: t.y, year_implied: false, text: "this month" })],
    [/\b(?:(?:de )?la )?semaine (?:derniere|precedente|passee)\b|\blast week\b|\bprevious week\b/, () => {
      const mon = addDays(mondayOf(today), -7);
      return { kind: "range", from: mon, to: addDays(mon, 6), text: "last week" };
    }],
    [/\b(?:de )?cette semaine\b|\bde la semaine en cours\b|\bthis week\b|\bcurrent week\b/, () => ({ kind: "range", from: mondayOf(today), to: addDays(mondayOf(today), 6), text: "this week" })],
    [/\b(?:de )?l'annee (?:derniere|precedente|passee)\b|\blast year\b|\bprevious year\b/, () => ({ kind: "range", from: isoDate(t.y - 1, 1, 1), to: isoDate(t.y - 1, 12, 31), text: "last year" })],
    [/\b(?:de )?cette annee\b|\bde l'annee en cours\b|\bthis year\b/, () => ({ kind: "range", from: isoDate(t.y, 1, 1), to: isoDate(t.y, 12, 31), text: "this year" })],
    [/\b(?:d'|de )?aujourd'hui\b|\btoday\b/, () => ({ kind: "range", from: today, to: today, text: "today" })],
    [/\b(?:d'|de )?hier\b|\byesterday\b/, () => ({ kind: "range", from: addDays(today, -1), to: addDays(today, -1), text: "yesterday" })],
  ];
  for (const [re, f] of rules) if (take(scan, re)) return f();
  return null;
}

/** Months by name, alone, with a year, or as a range (« de janvier à mars 2026 »). A month after a day number is chrono's. */
function namedMonths(scan: Scan, now: Date): DateFilter | null {
  const one = `(?:${MONTH_ALT})\\.?`;
  const range = new RegExp(`(?<![\\d/.-]\\s?)\\b(?:de |d'|du mois de |from |between )?(${one})(?:\\s+(\\d{4}))?\\s+(?:a|au|jusqu'a|jusqu'en|et|to|through|until|and|-)\\s+(${one})(?:\\s+(\\d{4}))?\\b`);
  const r = take(scan, range);
  if (r) {
    const m1 = MONTH_WORDS.get(r[1]!.replace(".", ""))!;
    const m2 = MONTH_WORDS.get(r[3]!.replace(".", ""))!;
    const y2 = r[4] ? Number(r[4]) : undefined;
    const y1 = r[2] ? Number(r[2]) : y2 !== undefined ? (m1 <= m2 ? y2 : y2 - 1) : undefined;
    const a = monthFilter(m1, y1, now, r[0]);
    const b = y2 !== undefined ? { y: y2 } : { y: a.kind === "month" ? (m2 >= m1 ? a.year : a.year + 1) : 0 };
    if (a.kind === "month") return monthRange({ m: m1, y: a.year }, { m: m2, y: b.y }, r[0].trim());
  }
  const single = new RegExp(`(?<![\\d/.-]\\s?)\\b(in |of |from |for |during |de |d'|du mois de |du mois d'|en |mois de |month of )?(${one})(?:\\s+(\\d{4}))?\\b(?!\\s*\\d{1,2}\\b)`, "g");
  for (const m of scan.s.matchAll(single)) {
    const word = m[2]!.replace(".", "");
    if (AMBIGUOUS_MONTHS.has(word) && !m[1] && !m[3]) continue;
    const month = MONTH_WORDS.get(word);
    if (!month) continue;
    scan.s = scan.s.slice(0, m.index) + " ".repeat(m[0].length) + scan.s.slice(m.index + m[0].length);
    return monthFilter(month, m[3] ? Number(m[3]) : undefined, now, m[0].trim());
  }
  return null;
}

/** A year alone: « de 2025 », "in 2025". */
function yearAlone(scan: Scan): DateFilter | null {
  const m = take(scan, /\b(?:de |en |in |from |of |for |annee )(19\d\d|2\d\d\d)\b(?![-/.]\d)/);
  if (!m) return null;
  const y = Number(m[1]);
  return { kind: "range", from: isoDate(y, 1, 1), to: isoDate(y, 12, 31), text: m[0].trim() };
}

/** Days and ranges of days through chrono-node; an unsaid year is the latest that is not in the future. */
function chronoDays(scan: Scan, lang: "fr" | "en", now: Date): DateFilter | null {
  const parser = lang === "fr" ? chronoParsers().fr : chronoParsers().en;
  const results = parser.parse(scan.s, now).filter((r) => r.start.isCertain("day") && r.start.isCertain("month"));
  if (results.length === 0) return null;
  const t = dayOf(now);
  const todayIso = isoDate(t.y, t.m, t.d);
  const iso = (c: Chrono.ParsedComponents, yearFrom?: number) => {
    const d = c.date();
    let y = c.isCertain("year") ? d.getFullYear() : (yearFrom ?? d.getFullYear());
    const m = d.getMonth() + 1;
    const day = d.getDate();
    if (!c.isCertain("year") && yearFrom === undefined && isoDate(y, m, day) > todayIso) y -= 1;
    return isoDate(y, m, day);
  };
  const blank = (r: Chrono.ParsedResult) => {
    scan.s = scan.s.slice(0, r.index) + " ".repeat(r.text.length) + scan.s.slice(r.index + r.text.length);
  };
  const [a, b] = results as [Chrono.ParsedResult, Chrono.ParsedResult | undefined];
  const before = scan.s.slice(0, a.index);
  if (a.end) {
    const endYear = a.end.isCertain("year") ? a.end.date().getFullYear() : undefined;
    const to = iso(a.end);
    const from = iso(a.start, endYear ?? Number(to.slice(0, 4)));
    blank(a);
    take(scan, /\b(?:du|de|from|between|entre le|entre)\s*$/);
    return { kind: "range", from: from <= to ? from : addDays(from, -365), to, text: a.text };
  }
  if (b) {
    const between = scan.s.slice(a.index + a.text.length, b.index);
    if (/^\s*(?:et le|et|au|a|jusqu'au|and|to|until|through|-)\s*$/.test(between)) {
      const to = iso(b.start);
      const from = iso(a.start, b.start.isCertain("year") ? Number(to.slice(0, 4)) : undefined);
      blank(b);
      blank(a);
      scan.s = scan.s.replace(/\b(?:entre le|entre|du|de|from|between)\s+(?=\s*$)/, " ");
      return { kind: "range", from, to, text: `${a.text} … ${b.text}` };
    }
  }
  const day = iso(a.start);
  blank(a);
  if (/\b(?:depuis le|depuis|a partir du|apres le|since|after|from)\s*$/.test(before)) {
    take(scan, /\b(?:depuis le|depuis|a partir du|apres le|since|after|from)\s+(?=\s*\S*\s*$)/);
    const after = /\b(?:apres le|after)\s*$/.test(before);
    return { kind: "range", from: after ? addDays(day, 1) : day, to: todayIso > day ? todayIso : day, text: `${after ? "after" : "since"} ${a.text}` };
  }
  if (/\b(?:avant le|avant|jusqu'au|before|until)\s*$/.test(before)) {
    const strict = /\b(?:avant le|avant|before)\s*$/.test(before);
    return { kind: "range", from: "1900-01-01", to: strict ? addDays(day, -1) : day, text: `before ${a.text}` };
  }
  return { kind: "range", from: day, to: day, text: a.text };
}

/**
 * The instruction as data. Throws InvalidInputError for an empty instruction; anything else
 * parses (unknown words are left for choosing the workflow).
 */
export function parseInstruction(text: string, opts: ParseOptions = {}): Instruction {
  const now = opts.now ?? new Date();
  if (!text.trim()) throw new InvalidInputError("The instruction is empty: say what to do, for example « Traite les dossiers de janvier » or \"process last month's invoices\".");
  // Folded, lower case, one kind of apostrophe and quote; paths keep their case in `source`.
  const raw = text.replace(/[’‘]/g, "'").replace(/[“”]/g, '"').trim();
  const scan: Scan = { s: ` ${foldText(raw).replace(/\s+/g, " ")} ` };
  const words0 = scan.s.split(/[^a-z0-9']+/).flatMap((w) => w.split("'")).filter(Boolean);
  const language = opts.language ?? guessLanguage(words0, raw);

  // A folder or file named in the instruction (absolute, or from the home directory).
  let source: string | null = null;
  const p = /(?:^|\s)((?:~\/|\/)[^\s"«»]+)/.exec(` ${raw} `);
  if (p) {
    source = p[1]!.replace(/[.,;:!?)]+$/, "");
    const folded = foldText(source);
    const i = scan.s.indexOf(folded);
    if (i >= 0) scan.s = scan.s.slice(0, i) + " ".repeat(folded.length) + scan.s.slice(i + folded.length);
    take(scan, /\b(?:dans le dossier|dans le repertoire|du dossier|dans|depuis|in the folder|in folder|from the folder|in|from)\s+(?=\s*(?:$|[,.]))/);
  }

  // Name pattern: text in double quotes or « » (not ' ': French apostrophes), « contenant X », "named X", « commençant par X », a glob.
  let name_pattern: string | null = null;
  const quoted = /(?:(contenant|contient|containing|contains|nommes?|nommees?|named|called|commencant par|starting with|beginning with|finissant par|ending with|se terminant par)\s+)?(?:"([^"]+)"|«\s*([^»]+?)\s*»)/.exec(scan.s);
  const glob = /(?:^|\s)([^\s"«»]*(?:\*|\?(?=\w)|(?<=\w)\?(?=\w))[^\s"«»]*)(?=\s|$)/.exec(scan.s);
  const unquoted = /\b(contenant|containing|nommes?|nommees?|named|called|commencant par|starting with|beginning with|finissant par|ending with|se terminant par|dont le nom contient|whose name contains)\s+([^\s,]+)/.exec(scan.s);
  const asGlob = (how: string | undefined, v: string) => {
    if (/[*?]/.test(v)) return v;
    if (how && /commencant|starting|beginning/.test(how)) return `${v}*`;
    if (how && /finissant|ending|terminant/.test(how)) return `*${v}`;
    return `*${v}*`;
  };
  if (quoted) {
    name_pattern = asGlob(quoted[1], (quoted[2] ?? quoted[3] ?? "").trim());
    take(scan, new RegExp(quoted[0].replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
    take(scan, /\b(?:dont le nom|whose name)\s*$/);
  } else if (unquoted) {
    name_pattern = asGlob(unquoted[1], unquoted[2]!);
    take(scan, new RegExp(unquoted[0].replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
  } else if (glob && !/^\*?\.[a-z0-9]{1,5}$/.test(glob[1]!)) {
    name_pattern = glob[1]!;
    take(scan, new RegExp(`(?<=\\s)${glob[1]!.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?=\\s)`));
  }

  // Extension: ".pdf", "*.pdf", « au format PDF », « fichiers PDF », "PDF files".
  let extension: string | null = null;
  const ext = take(scan, /(?:\b(?:au format|en format|in format|format)\s+|(?<=\s)\*?\.)([a-z0-9]{1,5})\b/) ?? take(scan, new RegExp(`\\b(${[...EXTENSIONS].join("|")})\\b`));
  if (ext) extension = ext[1]!;

  // "Not done yet".
  const not_done = !!take(scan, /\b(?:qui ne sont |qui n'ont )?(?:(?:pas encore|pas|non|jamais) (?:encore )?(?:traite|fait|faite|valide|envoye|saisi|complete)e?s?|restant(?:e)?s|en attente|a traiter)\b|\b(?:not (?:yet )?(?:done|processed|handled|treated)(?: yet)?|unprocessed|remaining|pending|left to do|still to do)\b/);

  // Count: « les 3 premiers », « les trois dernières », "the first 3", "last two", "top 5".
  let count: Instruction["filters"]["count"] = null;
  const nums = `\\d+|${[...NUMBER_WORDS.keys()].join("|")}`;
  const c1 = take(scan, new RegExp(`\\b(?:les |the )?(${nums})\\s+(premier|premiere|dernier|derniere|first|last)s?\\b`));
  const c2 = c1 ? null : take(scan, new RegExp(`\\b(?:the |les )?(premier|premiere|dernier|derniere|first|last|top)s?\\s+(${nums})\\b`));
  const c3 = c1 || c2 ? null : take(scan, /\b(?:le |la |the )(premier|premiere|dernier|derniere|first|last)\b/);
  if (c1 || c2 || c3) {
    const [n, side] = c1 ? [numberOf(c1[1]!), c1[2]!] : c2 ? [numberOf(c2[2]!), c2[1]!] : [1, c3![1]!];
    if (n && n > 0) count = { n, from: /^(premier|premiere|first|top)$/.test(side) ? "first" : "last" };
  }

  // Dates: relative periods, then days and ranges (chrono), then named months, then a bare year.
  const date = relativePeriod(scan, now) ?? chronoDays(scan, language, now) ?? namedMonths(scan, now) ?? yearAlone(scan);

  // Verb and noun from what is left.
  const rest = scan.s.split(/[^a-z0-9'-]+/).flatMap((w) => w.split("'")).map((w) => w.replace(/^-+|-+$/g, "").replace(/-(moi|les|la|le|nous|tu|vous|them|it)$/, "")).filter(Boolean);
  let verb: string | null = null;
  while (rest.length > 0 && /^(please|stp|svp|merci|peux|pouvez|can|could|you|tu|vous|veuillez)$/.test(rest[0]!)) rest.shift();
  const first = rest[0]?.replace(/-(moi|les|la|le|nous|them|it)$/, "");
  if (first && (VERBS.has(first) || (!STOP.has(first) && !ITEM_NOUNS.some((n) => first.startsWith(n)) && !/^\d/.test(first) && rest.length > 1))) verb = first;
  let noun: string | null = null;
  for (const w of rest) {
    const sing = w.replace(/(es|s|x)$/, "");
    if (ITEM_NOUNS.includes(w) || ITEM_NOUNS.includes(sing) || ITEM_NOUNS.includes(w.replace(/s$/, "")) || (w === "entries")) {
      noun = w;
      break;
    }
  }
  if (!noun) {
    const det = /\b(?:les|tous les|toutes les|the|all the|all|each|every)\s+([a-z][a-z-]{2,})\b/.exec(scan.s);
    if (det && !STOP.has(det[1]!) && det[1] !== verb) noun = det[1]!;
  }
  const task_words = rest.map((w) => w.replace(/-(moi|les|la|le)$/, "")).filter((w) => w.length > 1 && !STOP.has(w) && !/^\d+$/.test(w));

  return InstructionSchema.parse({
    text,
    language,
    verb,
    noun,
    filters: { date, name_pattern: name_pattern ? name_pattern.toLowerCase() : null, extension, not_done, count },
    source,
    task_words,
  });
}

/** A date filter in words, in the instruction's language: « janvier 2026 », "2026-03-01 → 2026-03-15". */
export function describeDateFilter(f: DateFilter, lang: "fr" | "en"): string {
  if (f.kind === "month") return `${MONTH_NAMES[lang][f.month - 1]} ${f.year}${f.year_implied ? (lang === "fr" ? " (année déduite)" : " (year implied)") : ""}`;
  return f.from === f.to ? f.from : `${f.from} → ${f.to}`;
}

/** Whether an item's date passes a date filter: "2026-01-15", "2026-01" (month known, day not) or "--01" (month only). */
export function dateMatches(f: DateFilter, date: string | null): boolean {
  const m = date ? /^(?:(\d{4})|-)-(\d{2})(?:-(\d{2}))?$/.exec(date) : null;
  if (!m) return false;
  const year = m[1] ? Number(m[1]) : undefined;
  const month = Number(m[2]);
  const day = m[3] ? Number(m[3]) : undefined;
  if (f.kind === "month") return month === f.month && (year === undefined ? f.year_implied : year === f.year);
  if (year === undefined) return false;
  // A month-only date passes when its whole month lies in the range.
  if (day === undefined) return isoDate(year, month, 1) >= f.from && isoDate(year, month, daysInMonth(year, month)) <= f.to;
  const iso = isoDate(year, month, day);
  return iso >= f.from && iso <= f.to;
}
