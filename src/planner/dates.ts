// Calendar words and dates shared by the instruction parser and the item sources: month names in
// French and English (full and abbreviated, accents folded), number words, and small date helpers
// over plain YYYY-MM-DD strings (no time zone: a « dossier du 15 janvier » is a calendar day).

/** Folded month word → 1..12. "may" and "mar" are also ordinary words: callers decide by context. */
export const MONTH_WORDS: ReadonlyMap<string, number> = new Map([
  ...["janvier", "fevrier", "mars", "avril", "mai", "juin", "juillet", "aout", "septembre", "octobre", "novembre", "decembre"].map((m, i) => [m, i + 1] as const),
  ...([["janv", 1], ["fevr", 2], ["fev", 2], ["avr", 4], ["juil", 7], ["sept", 9], ["oct", 10], ["nov", 11], ["dec", 12]] as const),
  ...["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"].map((m, i) => [m, i + 1] as const),
  ...([["jan", 1], ["feb", 2], ["mar", 3], ["apr", 4], ["jun", 6], ["jul", 7], ["aug", 8], ["sep", 9]] as const),
]);

export const MONTH_NAMES = {
  fr: ["janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre", "novembre", "décembre"],
  en: ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"],
} as const;

export const NUMBER_WORDS: ReadonlyMap<string, number> = new Map([
  ...["un", "deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf", "dix", "onze", "douze"].map((w, i) => [w, i + 1] as const),
  ...["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"].map((w, i) => [w, i + 1] as const),
  ["une", 1],
]);

export function pad2(n: number): string {
  return String(n).padStart(2, "0");
}

export function isoDate(y: number, m: number, d: number): string {
  return `${y}-${pad2(m)}-${pad2(d)}`;
}

export function daysInMonth(y: number, m: number): number {
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
}

/** A real calendar day (no 31 février). */
export function validDay(y: number, m: number, d: number): boolean {
  return m >= 1 && m <= 12 && d >= 1 && d <= daysInMonth(y, m);
}

/** The local calendar day of a Date. */
export function dayOf(d: Date): { y: number; m: number; d: number } {
  return { y: d.getFullYear(), m: d.getMonth() + 1, d: d.getDate() };
}

export function addDays(iso: string, n: number): string {
  const [y, m, d] = iso.split("-").map(Number) as [number, number, number];
  const t = new Date(Date.UTC(y, m - 1, d + n));
  return isoDate(t.getUTCFullYear(), t.getUTCMonth() + 1, t.getUTCDate());
}

/** Monday of the ISO week holding `iso`. */
export function mondayOf(iso: string): string {
  const [y, m, d] = iso.split("-").map(Number) as [number, number, number];
  const dow = (new Date(Date.UTC(y, m - 1, d)).getUTCDay() + 6) % 7;
  return addDays(iso, -dow);
}
