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
