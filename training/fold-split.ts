// The split of training/detector/common.py `split_of`, in TypeScript, for the benches and fitting scripts that must
// pick the same screens: a held family (the model's fold) is "held"; of the others, by the id's hash, 5 % "calib"
// (calibration, the gate's fit), 5 % "trainval" (the train families' figures), the rest "train".
import { createHash } from "node:crypto";

export interface ManifestScreen {
  id: string;
  family: string;
  subfamily: string;
}

export type Split = "held" | "calib" | "trainval" | "train";

/** A screen's family as the folds name them: html/<kit> and dev/<source>, else the toolkit. */
export const familyOf = (f: Pick<ManifestScreen, "family" | "subfamily">): string => (f.family === "html" || f.family === "dev" ? `${f.family}/${f.subfamily}` : f.family);

const bucket = (id: string) => parseInt(createHash("sha256").update(id).digest("hex").slice(0, 8), 16) % 100;

/** The split function of a model whose fold holds out `held` (families or whole toolkits). */
export function splitter(held: readonly string[]): (f: ManifestScreen) => Split {
  return (f) => (held.some((h) => h === familyOf(f) || h === f.family) ? "held" : bucket(f.id) < 5 ? "calib" : bucket(f.id) < 10 ? "trainval" : "train");
}

const idHash = (id: string) => createHash("sha256").update(id).digest("hex");
const byIdHash = <F extends { id: string }>(files: readonly F[]): F[] => [...files].sort((a, b) => idHash(a.id).localeCompare(idHash(b.id)));

/**
 * The detect-families bench's screens: for each family of the held and trainval splits, its first `perFamily` screens in
 * the order of their id's SHA-256 (a sample that does not depend on which screens are on disk).
 */
export function familySample<F extends ManifestScreen>(files: readonly F[], splitOf: (f: F) => Split, perFamily: number): Array<{ split: "held" | "trainval"; family: string; files: F[] }> {
  const groups = new Map<string, F[]>();
  for (const f of files) {
    const s = splitOf(f);
    if (s !== "held" && s !== "trainval") continue;
    const k = `${s}:${familyOf(f)}`;
    groups.set(k, [...(groups.get(k) ?? []), f]);
  }
  return [...groups].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, fs]) => {
    const [split, family] = k.split(":") as ["held" | "trainval", string];
    return { split, family, files: byIdHash(fs).slice(0, perFamily) };
  });
}

/** The detect-speed bench's candidates: screens of at least 80 % of 1920×1080 pixels at scale 1, in the order of their id's SHA-256. */
export function fullHdScreens<F extends ManifestScreen & { width: number; height: number; scale?: number | null }>(files: readonly F[]): F[] {
  return byIdHash(files.filter((f) => f.width * f.height >= 0.8 * 1920 * 1080 && (f.scale ?? 1) === 1));
}

/** Screens per family the detect-families bench reads unless RPAV_BENCH_PER_FAMILY says. */
export const FAMILY_SAMPLE = 12;
/** Screens the detect-speed bench times unless RPAV_BENCH_SCREENS says (and one more to warm up on). */
export const SPEED_SCREENS = 16;

/**
 * Generated pages of large toggles (training/gen/gen-html.ts from V3_FROM: the kits of KITS3, none of them a held
 * family; check boxes and radios 1.5–2.6 times as tall as their caption's letters, which no screen of the manifest has):
 * detect-families reports these on a row of their own, out of the train and held means. The data engine's --html3
 * pages start after them (training/data.py HTML3_FROM).
 */
export const BENCH_TOGGLE_PAGES = { start: 10000, count: 40 } as const;
/** The indices of a range of pages. */
export const pageIndices = (r: { start: number; count: number }): number[] => Array.from({ length: r.count }, (_, k) => r.start + k);
