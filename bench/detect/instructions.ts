// Instructions for the locate bench, written from templates over the corpus ground truth: for
// each screen, up to six elements with a unique, readable label; English and French alternate.
// The templates are fixed for every screen (no per-screen tuning).
import type { GroundTruthElement } from "../../src/lab/atspi.js";
import type { CorpusItem } from "../corpus/build.js";

export interface BenchInstruction {
  readonly instruction: string;
  readonly lang: "en" | "fr";
  readonly target: GroundTruthElement;
}

const EN: Record<string, (l: string) => string> = {
  button: (l) => `click the ${l} button`,
  link: (l) => `follow the ${l} link`,
  text_input: (l) => `type hello in the ${l} field`,
  dropdown: (l) => `open the ${l} list`,
  checkbox: (l) => `tick ${l}`,
  radio_button: (l) => `choose ${l}`,
  tab: (l) => `switch to the ${l} tab`,
  generic_interactive: (l) => `click ${l}`,
};
const FR: Record<string, (l: string) => string> = {
  button: (l) => `Cliquez sur « ${l} »`,
  link: (l) => `cliquer sur le lien ${l}`,
  text_input: (l) => `saisir bonjour dans le champ ${l}`,
  dropdown: (l) => `ouvrir la liste ${l}`,
  checkbox: (l) => `Cochez ${l}`,
  radio_button: (l) => `sélectionnez ${l}`,
  tab: (l) => `aller à l'onglet ${l}`,
  generic_interactive: (l) => `cliquez sur ${l}`,
};

export function instructionsFor(it: CorpusItem): BenchInstruction[] {
  const count = new Map<string, number>();
  for (const e of it.elements) count.set(e.label.trim().toLowerCase(), (count.get(e.label.trim().toLowerCase()) ?? 0) + 1);
  // Only labels a person can read on the screen: every word of the label is a visible word in
  // or next to the element (aria-labels and screen-reader-only text are not on screen).
  // (AT-SPI names of GTK widgets are their visible labels; the DOM's may not be.)
  const visible = (e: GroundTruthElement) => {
    if (it.source === "gtk") return true;
    const [x1, y1, x2, y2] = e.bbox;
    const near = it.words.filter((w) => w.bbox[0] < x2 + 400 && w.bbox[2] > x1 - 400 && w.bbox[1] < y2 + 60 && w.bbox[3] > y1 - 60).map((w) => w.text.toLowerCase());
    return e.label.toLowerCase().split(/\s+/).every((t) => near.some((w) => w.includes(t)));
  };
  const usable = it.elements.filter((e) => {
    const l = e.label.trim();
    return l.length >= 2 && l.length <= 40 && /\p{L}{2}/u.test(l) && count.get(l.toLowerCase()) === 1 && e.bbox[2] - e.bbox[0] >= 4 && visible(e);
  });
  const step = Math.max(1, Math.floor(usable.length / 6));
  const out: BenchInstruction[] = [];
  for (let i = 0; i < usable.length && out.length < 6; i += step) {
    const e = usable[i]!;
    const lang = out.length % 2 === 0 ? "en" : "fr";
    out.push({ instruction: (lang === "en" ? EN : FR)[e.type]!(e.label.trim()), lang, target: e });
  }
  return out;
}
