// Icons for icon-only buttons, drawn procedurally as inline SVG (no icon font or set copied): each page varies the
// stroke width, line ends, outline or filled shapes and the size, so the model sees "an icon", not one icon set.
import type { Pick } from "./common.js";

export interface IconStyle {
  stroke: number;
  round: boolean;
  filled: boolean;
  size: number;
}

export const iconStyle = (p: Pick): IconStyle => ({ stroke: p.one([1.5, 1.75, 2, 2, 2.5]), round: p.chance(0.7), filled: p.chance(0.25), size: p.one([14, 16, 16, 18, 20, 20, 24]) });

const f = (n: number) => Number(n.toFixed(2));

/** A gear: n teeth of a given depth around a hub. */
function gear(p: Pick): string {
  const n = p.int(6, 10);
  const ro = 10;
  const ri = p.one([7.5, 8, 8.5]);
  const pts: string[] = [];
  for (let i = 0; i < n; i++) {
    const a = (i / n) * Math.PI * 2;
    const w = (Math.PI / n) * 0.55;
    for (const [r, da] of [[ri, -w * 1.4], [ro, -w * 0.7], [ro, w * 0.7], [ri, w * 1.4]] as const) pts.push(`${f(12 + r * Math.cos(a + da))},${f(12 + r * Math.sin(a + da))}`);
  }
  return `<polygon points="${pts.join(" ")}"/><circle cx="12" cy="12" r="${p.one([2.5, 3, 3.5])}"/>`;
}

/** Shapes on a 24×24 grid; `fill` marks those drawn filled when the style is filled. */
const SHAPES: Record<string, (p: Pick) => string> = {
  settings: gear,
  edit: () => `<path d="M4 20h4L19 9l-4-4L4 16z" class="fill"/><path d="M13.5 6.5l4 4"/>`,
  delete: () => `<path d="M4 7h16M9 7V4h6v3M6 7l1 13h10l1-13" class="fill"/><path d="M10 11v6M14 11v6"/>`,
  add: () => `<path d="M12 5v14M5 12h14"/>`,
  search: () => `<circle cx="10.5" cy="10.5" r="6"/><path d="M15 15l5 5"/>`,
  previous: () => `<path d="M15 5l-7 7 7 7"/>`,
  next: () => `<path d="M9 5l7 7-7 7"/>`,
  expand: () => `<path d="M5 9l7 7 7-7"/>`,
  collapse: () => `<path d="M5 15l7-7 7 7"/>`,
  notifications: () => `<path d="M6 16V11a6 6 0 0 1 12 0v5l2 2H4z" class="fill"/><path d="M10 20a2 2 0 0 0 4 0"/>`,
  account: () => `<circle cx="12" cy="8" r="4" class="fill"/><path d="M4 21c1-4.5 4-6.5 8-6.5s7 2 8 6.5" class="fill"/>`,
  home: () => `<path d="M3 11l9-8 9 8M5 9.5V21h5v-6h4v6h5V9.5" class="fill"/>`,
  close: () => `<path d="M6 6l12 12M18 6L6 18"/>`,
  confirm: () => `<path d="M4 12.5l5 5L20 6.5"/>`,
  download: () => `<path d="M12 3v12M7 10l5 5 5-5M4 20h16"/>`,
  upload: () => `<path d="M12 16V4M7 9l5-5 5 5M4 20h16"/>`,
  filter: () => `<path d="M3 4h18l-7 8v7l-4 2v-9z" class="fill"/>`,
  refresh: () => `<path d="M20 12a8 8 0 1 1-2.3-5.7M20 4v5h-5"/>`,
  more: () => `<circle cx="5" cy="12" r="1.5" class="dot"/><circle cx="12" cy="12" r="1.5" class="dot"/><circle cx="19" cy="12" r="1.5" class="dot"/>`,
  menu: () => `<path d="M4 6h16M4 12h16M4 18h16"/>`,
  favourite: () => `<path d="M12 3l2.7 5.6 6.1.9-4.4 4.3 1 6.1L12 17l-5.4 2.9 1-6.1-4.4-4.3 6.1-.9z" class="fill"/>`,
  calendar: () => `<rect x="3" y="5" width="18" height="16" rx="2" class="fill"/><path d="M3 10h18M8 3v4M16 3v4"/>`,
  mail: () => `<rect x="3" y="5" width="18" height="14" rx="2" class="fill"/><path d="M3 7l9 6 9-6"/>`,
  lock: () => `<rect x="5" y="11" width="14" height="10" rx="2" class="fill"/><path d="M8 11V7a4 4 0 0 1 8 0v4"/>`,
  view: () => `<path d="M2 12s4-7 10-7 10 7 10 7-4 7-10 7S2 12 2 12z"/><circle cx="12" cy="12" r="3" class="fill"/>`,
  copy: () => `<rect x="8" y="8" width="12" height="12" rx="2" class="fill"/><path d="M16 8V4H4v12h4"/>`,
  print: () => `<path d="M7 9V3h10v6M7 17H4v-8h16v8h-3"/><rect x="7" y="14" width="10" height="7"/>`,
  share: () => `<circle cx="6" cy="12" r="2.5" class="fill"/><circle cx="18" cy="6" r="2.5" class="fill"/><circle cx="18" cy="18" r="2.5" class="fill"/><path d="M8.2 10.8l7.6-3.6M8.2 13.2l7.6 3.6"/>`,
  list: () => `<path d="M9 6h11M9 12h11M9 18h11"/><circle cx="4.5" cy="6" r="1" class="dot"/><circle cx="4.5" cy="12" r="1" class="dot"/><circle cx="4.5" cy="18" r="1" class="dot"/>`,
  grid: () => `<rect x="4" y="4" width="6.5" height="6.5" class="fill"/><rect x="13.5" y="4" width="6.5" height="6.5" class="fill"/><rect x="4" y="13.5" width="6.5" height="6.5" class="fill"/><rect x="13.5" y="13.5" width="6.5" height="6.5" class="fill"/>`,
  help: () => `<circle cx="12" cy="12" r="9"/><path d="M9.5 9.5a2.5 2.5 0 1 1 3.5 2.3c-.7.3-1 .9-1 1.7v.5"/><circle cx="12" cy="17" r=".6" class="dot"/>`,
  attach: () => `<path d="M20 11l-8 8a5 5 0 0 1-7-7l8-8a3.5 3.5 0 0 1 5 5l-8 8a2 2 0 0 1-3-3l7-7"/>`,
};

const LABELS: Record<string, [string, string]> = {
  settings: ["Settings", "Paramètres"], edit: ["Edit", "Modifier"], delete: ["Delete", "Supprimer"], add: ["Add", "Ajouter"], search: ["Search", "Rechercher"],
  previous: ["Previous", "Précédent"], next: ["Next", "Suivant"], expand: ["Expand", "Développer"], collapse: ["Collapse", "Réduire"], notifications: ["Notifications", "Notifications"],
  account: ["Account", "Mon compte"], home: ["Home", "Accueil"], close: ["Close", "Fermer"], confirm: ["Confirm", "Valider"], download: ["Download", "Télécharger"],
  upload: ["Upload", "Importer"], filter: ["Filter", "Filtrer"], refresh: ["Refresh", "Actualiser"], more: ["More actions", "Plus d'actions"], menu: ["Menu", "Menu"],
  favourite: ["Add to favourites", "Ajouter aux favoris"], calendar: ["Calendar", "Calendrier"], mail: ["Messages", "Messages"], lock: ["Lock", "Verrouiller"], view: ["View", "Afficher"],
  copy: ["Copy", "Copier"], print: ["Print", "Imprimer"], share: ["Share", "Partager"], list: ["List view", "Vue en liste"], grid: ["Grid view", "Vue en grille"],
  help: ["Help", "Aide"], attach: ["Attach a file", "Joindre un fichier"],
};

export const ICONS = Object.keys(SHAPES);

/** An icon as inline SVG (in the current text colour) and its accessible name in the page's language. */
export function icon(p: Pick, st: IconStyle, name = p.one(ICONS)): { svg: string; label: string } {
  const body = SHAPES[name]!(p)
    .replace(/ class="fill"/g, st.filled ? ' fill="currentColor" fill-opacity="0.9"' : "")
    .replace(/ class="dot"/g, ' fill="currentColor"');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${st.size}" height="${st.size}" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="${st.stroke}" stroke-linecap="${st.round ? "round" : "butt"}" stroke-linejoin="${st.round ? "round" : "miter"}" aria-hidden="true" style="vertical-align:middle;display:inline-block">${body}</svg>`;
  const [en, fr] = LABELS[name]!;
  return { svg, label: p.fr ? fr : en };
}
