import { describe, expect, it } from "vitest";
import { makeFrame, type Frame } from "../core/frame.js";
import type { BBox } from "../core/geometry.js";
import { drawnFieldAround, enclosingBox, probeFieldBesideCaption, toggleAtRowEnd, underlinedField } from "./caption-field-probe.js";
import { colourName, elementAppearance, inkContrast, switchShaped } from "./element-appearance.js";
import { iconProposals } from "./icon-proposals.js";
import { showsMaskedText } from "./masked-entry.js";
import { parseInstruction } from "./locate-parse.js";
import type { IconRecognizer } from "../core/providers/icon-recognizer.js";
import { lexiconVariants, locate, locateWithIcons, mayAskIcons, relationScore, stateAgreement, textSimilarity, textTargets, type LocatableElement } from "./locate.js";

const screen = { width: 1000, height: 800 };
const el = (element_id: string, type: LocatableElement["type"], bbox: BBox, label: string): LocatableElement => ({ element_id, type, bbox, label });
const line = (text: string, bbox: BBox) => ({ text, bbox });

/** A light grey 1000 × 800 RGB frame to draw on: boxes of a colour, fields (a white box in a grey border). */
function canvas(): Frame & { fill: (b: BBox, rgb: readonly [number, number, number]) => void; field: (b: BBox) => void; outline: (b: BBox, thick: number, rgb: readonly [number, number, number]) => void } {
  const width = 1000;
  const height = 800;
  const data = new Uint8Array(width * height * 3).fill(236);
  const frame = makeFrame({ data, width, height, channels: 3 });
  const fill = (b: BBox, rgb: readonly [number, number, number]) => {
    for (let y = b[1]; y < b[3]; y++) for (let x = b[0]; x < b[2]; x++) data.set(rgb, (y * width + x) * 3);
  };
  const field = (b: BBox) => {
    fill(b, [120, 120, 120]);
    fill([b[0] + 1, b[1] + 1, b[2] - 1, b[3] - 1], [255, 255, 255]);
  };
  /** A rectangle's four sides, `thick` pixels wide, inside `b`. */
  const outline = (b: BBox, thick: number, rgb: readonly [number, number, number]) => {
    for (const side of [[b[0], b[1], b[2], b[1] + thick], [b[0], b[3] - thick, b[2], b[3]], [b[0], b[1], b[0] + thick, b[3]], [b[2] - thick, b[1], b[2], b[3]]] as BBox[]) fill(side, rgb);
  };
  return Object.assign(frame, { fill, field, outline });
}

/** A canvas with two icon-only buttons' glyphs at x 100 and 140 (40 px each): an arrow down — a shaft, and two 3-px strokes meeting at its foot. */
function twoArrowsDown(): ReturnType<typeof canvas> {
  const f = canvas();
    for (const ox of [100, 140]) {
      f.fill([ox + 19, 108, ox + 22, 128], [40, 40, 40]);
      for (let k = 0; k < 9; k++) {
        f.fill([ox + 11 + k, 119 + k, ox + 14 + k, 122 + k], [40, 40, 40]);
        f.fill([ox + 27 - k, 119 + k, ox + 30 - k, 122 + k], [40, 40, 40]);
      }
    }
  return f;
}

describe("grounding a person's instruction", () => {
  it("a name the OCR misread by a letter, or read with its spaces lost, is still the name; another word is not", () => {
    expect(textSimilarity("No item selected", "Noitemselected")).toBeGreaterThanOrEqual(0.9);
    // Small words run together with the rest, signs around them (a breadcrumb's « / »): the same name, above a translation.
    expect(textSimilarity("En savoir plus", "/Ensavoirplus/")).toBeGreaterThanOrEqual(0.95);
    // A recognizer with no « ç » reads it « g » (or « c »).
    expect(textSimilarity("François", "Frangois")).toBeGreaterThanOrEqual(0.95);
    expect(textSimilarity("François", "Francois")).toBe(1);
    expect(textSimilarity("Müller", "Miller")).toBeGreaterThanOrEqual(0.7);
    expect(textSimilarity("Export", "Import")).toBeLessThan(0.7);
    expect(textSimilarity("Nom", "Non")).toBeLessThan(0.7);
    // An icon read as a lone sign before the words (a sidebar's circle read "O") leaves the words the name; not a lone word.
    expect(textSimilarity("Validation", "O Validation")).toBeGreaterThanOrEqual(0.95);
    expect(textSimilarity("Validation", "Validation")).toBeGreaterThan(textSimilarity("Validation", "O Validation"));
    expect(textSimilarity("A", "O A")).toBeLessThan(0.95);
    // Tabs set close, read as one word with their capitals ("BillingHistoryDetails"): each name is in it.
    expect(textSimilarity("History", "BillingHistoryDetails")).toBeGreaterThanOrEqual(0.6);
    expect(textSimilarity("History", "BillingDetails")).toBeLessThan(0.5);
    // …and the click goes to that name's part of the element the detector made of them all.
    const strip = [el("t", "link", [1259, 330, 1574, 363], "AdvancedSecuritySettingsGene")];
    const adv = locate("l'onglet Advanced", strip, screen);
    expect(adv.found && adv.point[0]).toBeGreaterThan(1259);
    expect(adv.found && adv.point[0]).toBeLessThan(1363);
    // The row of « Müller », read "Miller": its eye button, not the misread name.
    const rows = [el("m", "button", [900, 100, 930, 126], ""), el("g", "button", [900, 140, 930, 166], ""), ...textTargets([line("Miller", [20, 104, 80, 122]), line("Girard", [20, 144, 80, 162])], [])];
    expect(locate("the button of the Müller row", rows, screen)).toMatchObject({ found: true, element_id: "m" });
  });

  it("« l'élément sélectionné »: of a menu's items, the one on a fill of another colour than all the others'", () => {
    const page = canvas();
    const names = ["Rapports", "Paramètres", "Mentions légales", "Aide"];
    const items = names.map((t, i) => el(`m${i}`, "link", [20, 100 + 60 * i, 300, 150 + 60 * i], t));
    for (const [i, e] of items.entries()) page.fill([e.bbox[0] + 40, e.bbox[1] + 18, e.bbox[0] + 40 + 12 * names[i]!.length, e.bbox[1] + 32], [30, 30, 30]);
    page.fill([20, 220, 300, 270], [30, 60, 210]);
    page.fill([60, 238, 252, 252], [255, 255, 255]);
    expect(locate("the selected item in the sidebar", items, page)).toMatchObject({ found: true, element_id: "m2" });
    expect(locate("l'élément de menu sélectionné", items, page)).toMatchObject({ found: true, element_id: "m2" });
  });

  it("a side bar is the column of items along the window's left edge: ranks count there, not the page's other links", () => {
    const side = ["Products", "Reports", "Settings", "Dashboard"].map((t, i) => el(`s${i}`, "link", [10 + 20 * (i % 2), 100 + 45 * i, 160, 130 + 45 * i], t));
    const page = [el("crumb", "link", [230, 90, 300, 110], "Products"), el("pager", "link", [240, 760, 260, 780], "1")];
    expect(parseInstruction("the last link in the sidebar")).toMatchObject({ type: "link", ordinal: -1, region: "side" });
    expect(locate("the last link in the sidebar", [...side, ...page], screen)).toMatchObject({ found: true, element_id: "s3" });
    expect(locate("le lien Products du menu latéral", [...side, ...page], screen)).toMatchObject({ found: true, element_id: "s0" });
    // Without the side bar said, the last link of the page is the pager's.
    expect(locate("the last link", [...side, ...page], screen)).toMatchObject({ found: true, element_id: "pager" });
  });

  it("a thing named by its type alone as the place (« à côté du lien »): the target beside one of that type", () => {
    const targets = [el("menu", "generic_interactive", [0, 0, 60, 28], "Tools"), el("l", "link", [20, 240, 150, 270], "Privacy policy"), el("s", "generic_interactive", [160, 240, 360, 270], "")];
    expect(locate("le curseur à côté du lien", targets, screen)).toMatchObject({ found: true, element_id: "s" });
  });

  it("a breadcrumb's items are targets of their own, its separators read alone or glued to a word", () => {
    const w = (text: string, x0: number, x1: number) => ({ text, bbox: [x0, 0, x1, 12] as BBox });
    const crumbs = textTargets([{ text: "Mentions légales >Bapports > Tableau de bord", bbox: [0, 0, 214, 12], words: [w("Mentions", 0, 40), w("légales", 43, 75), w(">Bapports", 78, 130), w(">", 133, 138), w("Tableau", 141, 175), w("de", 178, 188), w("bord", 191, 214)] }], []);
    expect(crumbs.map((t) => t.label)).toEqual(expect.arrayContaining(["Mentions légales", "Bapports", "Tableau de bord"]));
    const r = locate("the Rapports link in the breadcrumb", crumbs, screen);
    expect(r.found && r.point[0]).toBeGreaterThan(78);
    expect(r.found && r.point[0]).toBeLessThan(130);
    // The same name in a side menu and in the breadcrumb (its separator glued to it by OCR): the breadcrumb's.
    const both = [el("side", "link", [20, 160, 220, 200], "Forgot password?"), el("crumb", "link", [300, 90, 390, 110], "Forgotpassword?/"), el("next", "generic_interactive", [400, 90, 480, 110], "Learn more")];
    expect(locate("the Forgot password? link in the breadcrumb", both, screen)).toMatchObject({ found: true, element_id: "crumb", ambiguous: false });
    // Its items detected as links one by one, and the same name in the navigation bar: the path's line says which.
    const links = [el("nav", "link", [315, 15, 373, 44], "Home"), el("home", "link", [775, 74, 827, 97], "Home"), el("contacts", "link", [833, 72, 904, 99], "Contacts")];
    const path = { text: "Home / Contacts", bbox: [777, 76, 908, 99] as BBox, words: [{ text: "Home", bbox: [777, 78, 823, 97] as BBox }, { text: "/", bbox: [835, 78, 840, 97] as BBox }, { text: "Contacts", bbox: [850, 78, 908, 97] as BBox }] };
    expect(locate("le lien Home du fil d'Ariane", [...links, ...textTargets([path], links)], screen)).toMatchObject({ found: true, element_id: "home", ambiguous: false });
  });

  it("finds a screen's words through the UI lexicon when the instruction is in the other language", () => {
    const menu = textTargets([{ text: "File Edit Tools Help", bbox: [0, 0, 260, 20], words: [{ text: "File", bbox: [5, 0, 35, 20] }, { text: "Edit", bbox: [60, 0, 90, 20] }, { text: "Tools", bbox: [115, 0, 160, 20] }, { text: "Help", bbox: [185, 0, 220, 20] }] }], []);
    const r = locate("le menu Outils", menu, screen);
    expect(r.found && r.point).toEqual([137.5, 10]);
    const tabs = [el("h", "tab", [10, 40, 90, 70], "Historique"), el("d", "tab", [90, 40, 170, 70], "Détails")];
    expect(locate("the History tab", tabs, screen)).toMatchObject({ found: true, element_id: "h", ambiguous: false });
    expect(locate("the Details tab", tabs, screen)).toMatchObject({ found: true, element_id: "d" });
    expect(lexiconVariants("mot de passe")).toContain("password");
    expect(lexiconVariants("Customer reference")).toContain("client reference");
    expect(lexiconVariants("Quarterly")).toEqual([]);
    // A link whose first letter the OCR misread under its underline (« François » read "Erancois") beats the same name as
    // plain words of a table cell.
    const names = [el("l", "link", [400, 300, 470, 320], "Erancois"), el("text:0", "generic_interactive", [500, 400, 570, 420], "Francois")];
    expect(locate("the François link", names, screen)).toMatchObject({ found: true, element_id: "l" });
    expect(textSimilarity("François", "Erancois")).toBeGreaterThanOrEqual(0.95);
    expect(textSimilarity("Paris", "Pavis")).toBeLessThan(0.9);
    const links = [el("p", "link", [400, 70, 510, 100], "Privacy policy"), el("t", "link", [520, 70, 620, 100], "Terms of use")];
    expect(locate("le lien Conditions d'utilisation", links, screen)).toMatchObject({ found: true, element_id: "t", ambiguous: false });
  });

  it("\"the check button\": where no element bears the word, the button showing a check mark", async () => {
    const tick = canvas();
    for (let k = 0; k < 6; k++) tick.fill([806 + k, 112 + k, 809 + k, 115 + k], [40, 40, 40]);
    for (let k = 0; k < 10; k++) tick.fill([812 + k, 117 - k, 815 + k, 120 - k], [40, 40, 40]);
    tick.fill([710, 110, 726, 118], [40, 40, 40]);
    const recognizer: IconRecognizer = { classes: ["check", "other"], recognize: async (_f, boxes) => boxes.map((b) => (b[0] >= 800 ? { check: 0.97, other: 0.03 } : { check: 0.01, other: 0.99 })) };
    const els = [el("ok", "button", [796, 96, 832, 132], ""), el("x", "button", [700, 96, 736, 132], ""), el("text:0", "generic_interactive", [100, 100, 200, 120], "City")];
    expect(await locateWithIcons("the check button", els, tick, recognizer)).toMatchObject({ found: true, element_id: "ok" });
    // « le bouton Valider » where the word ends a sentence on screen (« …avant de valider. »): prose, not the button's name.
    const prose = [...els, el("text:1", "generic_interactive", [100, 300, 180, 320], "valider.")];
    expect(locate("le bouton Valider", prose, tick)).toMatchObject({ found: true, element_id: "text:1" });
    expect(await locateWithIcons("le bouton Valider", prose, tick, recognizer)).toMatchObject({ found: true, element_id: "ok" });
    // Words that are a name, not a sentence's end, stay the answer.
    const named = [...els, el("text:1", "generic_interactive", [100, 300, 180, 320], "Valider")];
    expect(await locateWithIcons("le bouton Valider", named, tick, recognizer)).toMatchObject({ found: true, element_id: "text:1" });
  });

  it("« the expand button »: the chevron down, not two letters read over an outline that looks like one", async () => {
    const f = twoArrowsDown();
    const recognizer: IconRecognizer = { classes: ["arrow_down", "other"], recognize: async (_f, boxes) => boxes.map((b) => (b[0] >= 140 ? { arrow_down: 0.95, other: 0.05 } : { arrow_down: 0.01, other: 0.99 })) };
    const els = [el("text:0", "generic_interactive", [100, 100, 140, 140], "de"), el("chev", "button", [140, 100, 180, 140], "")];
    expect(await locateWithIcons("the expand button", els, f, recognizer)).toMatchObject({ found: true, element_id: "chev", ambiguous: false });
    expect(await locateWithIcons("le bouton déplier", els, f, recognizer)).toMatchObject({ found: true, element_id: "chev" });
  });

  it("a field named by its kind (« le champ de recherche ») where no element bears the word: the one field the type and place point to", () => {
    const els = [el("top", "text_input", [1400, 10, 1700, 46], "Legal notice"), el("a", "text_input", [100, 300, 500, 336], "Amount"), el("b", "text_input", [100, 400, 500, 436], "Name"), el("text:0", "generic_interactive", [20, 10, 200, 40], "Invoices")];
    expect(locate("the search box at the top right", els, screen)).toMatchObject({ found: true, element_id: "top" });
    expect(locate("le champ de recherche en haut", els, screen)).toMatchObject({ found: true, element_id: "top" });
    // A field bearing the word is the one; two fields where the place points: none chosen.
    expect(locate("the search box", [...els, el("s", "text_input", [100, 500, 500, 536], "Search…")], screen)).toMatchObject({ found: true, element_id: "s" });
    expect(locate("the search box", els, screen)).toMatchObject({ found: false });
    // Not a name that is a field's own (« le champ Montant »).
    expect(locate("le champ Quantité en haut", els, screen)).toMatchObject({ found: false });
  });

  it("a field named by its caption is the field beside the caption, not the caption's words", () => {
    const field = el("f", "text_input", [200, 100, 500, 130], "Jean Dupont");
    const other = el("g", "text_input", [200, 140, 500, 170], "");
    const targets = [field, other, ...textTargets([line("Prénom", [100, 105, 160, 125]), line("Nom", [100, 145, 140, 165])], [field, other])];
    expect(locate("le champ Prénom", targets, screen)).toMatchObject({ found: true, element_id: "f" });
    expect(locate("the Nom box", targets, screen)).toMatchObject({ found: true, element_id: "g" });
  });

  it("« the switch »: among check boxes, those drawn as a switch (a track wider than tall) count first", () => {
    // Two check boxes with captions (a 16 px box, letters after it), two switches (a 40 × 20 track, a knob inside).
    const page = canvas();
    const box = (x: number, y: number) => page.field([x, y, x + 16, y + 16]);
    const track = (x: number, y: number, on: boolean) => {
      page.fill([x, y, x + 40, y + 20], on ? [40, 110, 220] : [150, 150, 150]);
      page.fill(on ? [x + 22, y + 2, x + 38, y + 18] : [x + 2, y + 2, x + 18, y + 18], [255, 255, 255]);
    };
    box(10, 102);
    page.fill([34, 104, 90, 116], [30, 30, 30]);
    track(10, 140, false);
    box(10, 182);
    page.fill([34, 184, 70, 196], [30, 30, 30]);
    track(10, 220, true);
    const els = [el("c1", "checkbox", [10, 100, 92, 120], "Newsletter"), el("s1", "checkbox", [10, 140, 50, 160], ""), el("c2", "checkbox", [10, 180, 72, 200], "Invoice"), el("s2", "checkbox", [10, 220, 50, 240], "")];
    expect(els.map((e) => switchShaped(page, e.bbox))).toEqual([false, true, false, true]);
    expect(locate("le deuxième interrupteur", els, page)).toMatchObject({ found: true, element_id: "s2" });
    expect(locate("the first switch", els, page)).toMatchObject({ found: true, element_id: "s1" });
    // A check box asked for: all of them count, in reading order.
    expect(locate("the second check box", els, page)).toMatchObject({ found: true, element_id: "s1" });
    // No switch drawn on the screen (or no pixels): « the switch » counts the check boxes.
    expect(locate("the second switch", els.filter((e) => e.element_id.startsWith("c")), page)).toMatchObject({ found: true, element_id: "c2" });
    expect(locate("the second switch", els, screen)).toMatchObject({ found: true, element_id: "s1" });
    // « l'interrupteur activé »: the switch drawn on (its track in the accent colour), though the detector read both on.
    const read = els.map((e) => (e.element_id.startsWith("s") ? ({ ...e, state: { checked: true } }) : e));
    expect(locate("l'interrupteur activé", read, page)).toMatchObject({ found: true, element_id: "s2" });
    expect(locate("le switch actif", [read[1]!, read[0]!, read[3]!, read[2]!], page)).toMatchObject({ found: true, element_id: "s2" });
  });

  it("ranks the elements that fit in reading order: the second one, the last one", () => {
    const boxes = [el("a", "checkbox", [10, 100, 120, 120], "Cheque"), el("b", "checkbox", [10, 130, 120, 150], "Cheque"), el("c", "checkbox", [10, 160, 120, 180], "Cash")];
    expect(locate("the second Cheque checkbox", boxes, screen)).toMatchObject({ found: true, element_id: "b", ambiguous: false });
    expect(locate("la dernière case à cocher", boxes, screen)).toMatchObject({ found: true, element_id: "c" });
    expect(locate("the first checkbox", boxes, screen)).toMatchObject({ found: true, element_id: "a" });
    // Only the type asked counts where the screen has it; a kin type where it has none.
    const toggles = [el("r1", "radio_button", [10, 100, 120, 120], "Standard"), el("r2", "radio_button", [10, 130, 120, 150], "Express"), el("k", "checkbox", [10, 200, 120, 220], "Newsletter")];
    expect(locate("the last radio button", toggles, screen)).toMatchObject({ found: true, element_id: "r2" });
    expect(locate("le premier bouton radio", toggles, screen)).toMatchObject({ found: true, element_id: "r1" });
    expect(locate("the last checkbox", toggles, screen)).toMatchObject({ found: true, element_id: "k" });
    const fields = [el("d", "dropdown", [200, 100, 400, 130], "France"), el("t", "text_input", [200, 150, 400, 180], "")];
    expect(locate("le premier champ", fields, screen)).toMatchObject({ found: true, element_id: "t" });
    expect(locate("la dernière liste déroulante", [fields[1]!, el("d2", "text_input", [200, 200, 400, 230], "")], screen)).toMatchObject({ found: true, element_id: "d2" }); // no drop-down: the kin fields count
    // Named: those that bear the name as well as the best, where there are enough of them — not a field whose
    // caption only holds the name above them.
    const dues = [el("x", "text_input", [200, 100, 400, 130], "Date d'échéance"), el("e1", "text_input", [200, 300, 400, 330], "Échéance"), el("e2", "text_input", [200, 340, 400, 370], "Échéance")];
    expect(locate("the first Échéance box", dues, screen)).toMatchObject({ found: true, element_id: "e1" });
    expect(locate("la deuxième zone Échéance", dues, screen)).toMatchObject({ found: true, element_id: "e2" });
    expect(locate("the third Échéance field", dues, screen)).toMatchObject({ found: true, element_id: "e2" }); // too few named alike: all that fit count
  });

  it("a state read on a kin element only says nothing of the type asked: « la liste déroulante désactivée » is the drop-down", () => {
    const els = [{ ...el("dd", "dropdown", [760, 558, 968, 592], "Nom"), state: { disabled: false } }, { ...el("cancel", "button", [618, 903, 720, 942], "ANNULER"), state: { disabled: true } }, el("text:0", "generic_interactive", [605, 560, 650, 580], "Nom")];
    expect(locate("la liste déroulante désactivée", els, screen)).toMatchObject({ found: true, element_id: "dd" });
    expect(locate("the disabled button", els, screen)).toMatchObject({ found: true, element_id: "cancel" });
  });

  it("a state said (checked, unchecked, active, greyed out) chooses among the elements of the type asked, where the detector read one in it", () => {
    const withState = (e: LocatableElement, state: LocatableElement["state"]): LocatableElement => ({ ...e, state });
    const boxes = [withState(el("a", "checkbox", [10, 100, 30, 120], ""), { checked: false }), withState(el("b", "checkbox", [10, 130, 30, 150], ""), { checked: true }), withState(el("c", "checkbox", [10, 160, 30, 180], ""), { checked: false })];
    expect(locate("the checked checkbox", boxes, screen)).toMatchObject({ found: true, element_id: "b", ambiguous: false });
    expect(locate("la case non cochée du bas", boxes, screen)).toMatchObject({ found: true, element_id: "c" });
    expect(locate("la deuxième case décochée", boxes, screen)).toMatchObject({ found: true, element_id: "c" });
    // A state read on another kind of element is no evidence: the unselected tab is no unchecked box.
    const tab = withState(el("t", "tab", [300, 20, 400, 50], "Résumé"), { selected: false });
    expect(locate("the unchecked checkbox", [tab, ...boxes.slice(0, 2)], screen)).toMatchObject({ found: true, element_id: "a" });
    expect(locate("l'onglet actif", [tab, withState(el("u", "tab", [410, 20, 500, 50], "Contacts"), { selected: true })], screen)).toMatchObject({ found: true, element_id: "u" });
    // None read in the state said (every field read enabled): the state tells nothing, the rest decides.
    const fields = [withState(el("f", "dropdown", [200, 100, 400, 130], "Ville"), { disabled: false }), el("g", "text_input", [200, 140, 400, 170], "Nom")];
    expect(locate("the disabled drop-down", fields, screen)).toMatchObject({ found: true, element_id: "f" });
    expect(stateAgreement("disabled", { disabled: true })).toBe(1);
    expect(stateAgreement("enabled", { disabled: true })).toBe(-1);
    expect(stateAgreement("on", {})).toBe(0);
  });

  it("the selected tab, where the detector read none selected: the one tab in an accent colour its siblings lack", () => {
    const f = canvas();
    const tabs = [el("t1", "tab", [100, 100, 180, 130], "Security"), el("t2", "tab", [190, 100, 270, 130], "Activity"), el("t3", "tab", [280, 100, 360, 130], "Notes")].map((t) => ({ ...t, state: { selected: false } }));
    f.fill([100, 126, 180, 130], [40, 110, 220]); // a blue bar under the first
    expect(locate("the selected tab", tabs, f)).toMatchObject({ found: true, element_id: "t1", ambiguous: false });
    // Without pixels, or with every tab alike, nothing tells them apart.
    expect(locate("the selected tab", tabs, screen)).toMatchObject({ ambiguous: true });
    // Buttons filled with the accent elsewhere on screen are no siblings of the tabs.
    for (const y of [300, 400]) f.fill([600, y, 680, y + 30], [40, 110, 220]);
    const buttons = [el("b1", "button", [600, 300, 680, 330], "Save"), el("b2", "button", [600, 400, 680, 430], "Send")].map((b) => ({ ...b, state: { checked: false } }));
    expect(locate("the selected tab", [...tabs, ...buttons], f)).toMatchObject({ found: true, element_id: "t1", ambiguous: false });
    // Several read selected (the detector wrong for all but one): the accent tells them apart.
    const misread = tabs.map((t) => (t.element_id === "t3" ? t : { ...t, state: { selected: true } }));
    expect(locate("the selected tab", misread, f)).toMatchObject({ found: true, element_id: "t1", ambiguous: false });
    const other = canvas();
    other.fill([190, 126, 270, 130], [40, 110, 220]);
    expect(locate("the selected tab", misread, other)).toMatchObject({ found: true, element_id: "t2", ambiguous: false });
  });

  it("greyed out, where the detector read no state: the field whose value stands out far less than its neighbours'; an empty one is no evidence", () => {
    const f = canvas();
    const values: [BBox, number][] = [[[100, 100, 400, 130], 30], [[100, 150, 400, 180], 30], [[100, 200, 400, 230], 170]];
    for (const [b, ink] of values) {
      f.field(b);
      f.fill([b[0] + 10, b[1] + 10, b[0] + 120, b[1] + 20], [ink, ink, ink]); // the value's "text"
    }
    f.field([100, 250, 400, 280]); // empty
    const fields = [...values.map(([b], k) => el(`f${k}`, "text_input", b, "")), el("empty", "text_input", [100, 250, 400, 280], "")];
    expect(inkContrast(f, [110, 105, 390, 125])).toBeGreaterThan(200);
    expect(inkContrast(f, [110, 205, 390, 225])).toBeLessThan(100);
    // A red word on a dark fill stands out as its colour does, not as its grey level (about 95 above the fill's).
    const red = canvas();
    red.fill([500, 100, 700, 130], [24, 24, 27]);
    red.fill([520, 110, 600, 120], [239, 68, 68]);
    expect(inkContrast(red, [505, 105, 695, 125])).toBeGreaterThan(200);
    expect(locate("the disabled field", fields, f)).toMatchObject({ found: true, element_id: "f2", ambiguous: false });
    expect(locate("le champ grisé", fields.slice(0, 2), f)).toMatchObject({ ambiguous: true }); // none greyed: no evidence
  });

  it("greyed out in its box only: the toggle whose box stands out from the page far less than its neighbours', its caption as dark", () => {
    const f = canvas();
    // Three check boxes (a 16-px box, then a caption): ticked blue, faded (a grey a shade off the page), empty outlined.
    const rows: [number, (b: BBox) => void][] = [
      [100, (b) => f.fill(b, [30, 100, 200])],
      [140, (b) => f.fill(b, [226, 226, 226])],
      [180, (b) => f.outline(b, 1, [120, 120, 120])],
    ];
    for (const [y, box] of rows) {
      box([100, y + 2, 116, y + 18]);
      f.fill([124, y + 5, 220, y + 15], [40, 40, 40]); // the caption's "text", as dark on every row
    }
    const toggles = rows.map(([y], k) => el(`c${k}`, "checkbox", [100, y, 230, y + 20], ["Alpha", "Beta", "Gamma"][k]!));
    expect(locate("the disabled checkbox", toggles, f)).toMatchObject({ found: true, element_id: "c1", ambiguous: false });
    expect(locate("la case activée", toggles, f)).not.toMatchObject({ element_id: "c1" });
    // None faded: no evidence.
    expect(locate("the disabled checkbox", [toggles[0]!, toggles[2]!], f)).toMatchObject({ ambiguous: true });
  });

  it("greyed out, where the words keep their contrast or placeholders are as pale: the field whose fill is faded towards the page", () => {
    for (const [page, white, faded] of [[236, 255, 246], [34, 255, 233], [255, 255, 233]] as const) {
      const f = canvas();
      f.fill([0, 0, 1000, 800], [page, page, page]);
      const rows: [BBox, number, number][] = [[[100, 100, 400, 130], white, 30], [[100, 150, 400, 180], white, 170], [[100, 200, 400, 230], faded, 170], [[100, 250, 400, 280], white, 30]];
      for (const [b, fill, ink] of rows) {
        f.fill(b, [120, 120, 120]);
        f.fill([b[0] + 1, b[1] + 1, b[2] - 1, b[3] - 1], [fill, fill, fill]);
        f.fill([b[0] + 10, b[1] + 10, b[0] + 120, b[1] + 20], [ink, ink, ink]); // a value, or a pale placeholder
      }
      const fields = rows.map(([b], k) => el(`f${k}`, "text_input", b, ""));
      expect(locate("the disabled field", fields, f)).toMatchObject({ found: true, element_id: "f2", ambiguous: false });
      expect(locate("le champ activé", fields, f)).not.toMatchObject({ element_id: "f2" });
    }
    // Among drop-downs, a greyed kin button (pale words on grey) says nothing: the drop-down filled grey is the one, its
    // words as dark as the others'.
    const g = canvas();
    g.fill([0, 0, 1000, 800], [255, 255, 255]);
    const dds: [BBox, number][] = [[[100, 100, 400, 130], 255], [[100, 150, 400, 180], 233], [[100, 200, 400, 230], 255]];
    for (const [b, fill] of dds) {
      g.fill(b, [120, 120, 120]);
      g.fill([b[0] + 1, b[1] + 1, b[2] - 1, b[3] - 1], [fill, fill, fill]);
      g.fill([b[0] + 10, b[1] + 10, b[0] + 120, b[1] + 20], [30, 30, 30]);
    }
    g.fill([100, 300, 200, 330], [108, 117, 125]);
    g.fill([110, 310, 190, 320], [200, 200, 200]);
    const els = [...dds.map(([b], k) => el(`d${k}`, "dropdown", b, "")), el("btn", "button", [100, 300, 200, 330], "Rechercher")];
    expect(locate("la liste déroulante grisée", els, g)).toMatchObject({ found: true, element_id: "d1", ambiguous: false });
  });

  it("a rank over elements bearing the name counts a kin type where the exact type has too few of them", () => {
    const els = [el("l", "link", [600, 100, 700, 130], "Reply all"), el("b", "button", [800, 300, 900, 330], "Reply all"), el("x", "button", [100, 300, 200, 330], "Send")];
    expect(locate("le premier bouton Reply all", els, screen)).toMatchObject({ found: true, element_id: "l" });
    expect(locate("the last Reply all button", els, screen)).toMatchObject({ found: true, element_id: "b" });
  });

  it("'in the pagination' picks among a pager's row: its numbers and the arrows at its ends", () => {
    const pager = ["«", "1", "2", "3", "»"].map((t, k) => el(`p${k}`, "link", [20 + 35 * k, 700, 54 + 35 * k, 730], t === "«" || t === "»" ? "" : t));
    const nextButton = el("next", "link", [600, 100, 640, 130], "");
    expect(locate("the last link in the pagination", [nextButton, ...pager], screen)).toMatchObject({ found: true, element_id: "p4" });
    expect(locate("le premier lien de la pagination", [nextButton, ...pager], screen)).toMatchObject({ found: true, element_id: "p0" });
  });

  it("a switch set right of its caption is the control the caption names, where no toggle stands before the caption", () => {
    const els = [el("cap", "generic_interactive", [100, 300, 260, 320], "Intitulé du poste:"), el("sw", "checkbox", [300, 296, 360, 324], ""), el("other", "checkbox", [100, 400, 120, 420], "Notifications")];
    expect(locate("l'interrupteur Intitulé du poste", els, screen)).toMatchObject({ found: true, element_id: "sw" });
    const boxed = [el("box", "checkbox", [70, 302, 88, 318], ""), ...els];
    expect(locate("la case Intitulé du poste", boxed, screen)).toMatchObject({ found: true, element_id: "box" });
  });

  it("a settings row: the caption at the left names the control at the row's right end when nothing stands between them", () => {
    const row = [el("cap", "generic_interactive", [40, 300, 220, 324], "Facturation annuelle"), el("sw", "checkbox", [880, 298, 940, 326], ""), el("dd", "dropdown", [700, 400, 940, 440], "Visa")];
    const card = [...row, el("cap2", "generic_interactive", [40, 408, 200, 432], "Carte bancaire")];
    expect(locate("the Facturation annuelle switch", card, screen)).toMatchObject({ found: true, element_id: "sw" });
    expect(locate("the Carte bancaire dropdown", card, screen)).toMatchObject({ found: true, element_id: "dd" });
    // Something between them on the row: the caption is not the far control's.
    const between = [...card, el("mid", "button", [500, 404, 580, 436], "Modifier")];
    expect(locate("the Carte bancaire dropdown", between, screen)).not.toMatchObject({ element_id: "dd" });
    // A smaller line of help under the caption, read in pieces past the caption's end, is not on its line.
    const help = [...card, el("help", "generic_interactive", [40, 428, 200, 440], "Please check the"), el("help2", "generic_interactive", [206, 428, 300, 440], "information below")];
    expect(locate("the Carte bancaire dropdown", help, screen)).toMatchObject({ found: true, element_id: "dd" });
  });

  it("a caption's control of the very type asked beats a kin control beside or below it, and a kin element bearing the name", () => {
    const els = [
      el("cap", "generic_interactive", [40, 300, 220, 324], "Cash on delivery"),
      el("dd", "dropdown", [700, 296, 940, 328], "Subscribe"), // its drop-down at the row's end
      el("next", "button", [60, 360, 140, 392], "Next"), // the next row's button, under the caption
      el("radio", "radio_button", [300, 500, 420, 524], "Personal"), // a radio bearing the name…
      el("cap2", "generic_interactive", [40, 600, 200, 624], "Personal"), // …and a settings row whose switch is at its end
      el("sw", "checkbox", [880, 598, 940, 626], ""),
    ];
    expect(locate("la liste déroulante Cash on delivery", els, screen)).toMatchObject({ found: true, element_id: "dd" });
    expect(locate("the Personal switch", els, screen)).toMatchObject({ found: true, element_id: "sw" });
    expect(locate("the Personal radio button", els, screen)).toMatchObject({ found: true, element_id: "radio" });
  });

  it("« the switch » named by words two captions bear: the caption whose control is drawn as a switch, not the one a box stands before", () => {
    const page = canvas();
    page.field([76, 304, 92, 320]); // a toggle's box before the first caption (a radio, a check box)
    page.fill([880, 498, 940, 526], [150, 150, 150]); // a settings row's switch at its end: a track, its knob inside
    page.fill([882, 500, 906, 524], [255, 255, 255]);
    const els = [
      el("cap", "generic_interactive", [100, 300, 300, 324], "Paiement à la livraison"),
      el("cap2", "generic_interactive", [40, 500, 240, 524], "Paiement à la livraison"),
      el("sw", "checkbox", [880, 498, 940, 526], ""),
    ];
    expect(locate("l'interrupteur Paiement à la livraison", els, page)).toMatchObject({ found: true, element_id: "sw", ambiguous: false });
  });

  it("a rank with a place counts among the elements there; a settings row's far toggle may bear its own « Enable »; a row a radio also names is the words' row", () => {
    const bar = [el("a", "button", [40, 20, 80, 50], ""), el("b", "button", [100, 20, 140, 50], ""), el("c", "button", [860, 20, 900, 50], ""), el("d", "button", [920, 20, 960, 50], ""), el("e", "button", [900, 700, 960, 730], "")];
    expect(locate("the last button top right", bar, screen)).toMatchObject({ found: true, element_id: "d" });
    expect(locate("the first button top right", bar, screen)).toMatchObject({ found: true, element_id: "c" });
    const rows = [
      el("text:1", "generic_interactive", [40, 300, 200, 324], "Express shipping"),
      el("en1", "checkbox", [880, 300, 960, 324], "Enable"),
      el("text:2", "generic_interactive", [40, 400, 140, 424], "Business"),
      el("en2", "checkbox", [880, 400, 960, 424], "Enable"),
      el("r1", "radio_button", [600, 500, 760, 524], "I agree"),
      el("r2", "radio_button", [800, 500, 900, 524], "Business"),
    ];
    expect(locate("the Express shipping checkbox", rows, screen)).toMatchObject({ found: true, element_id: "en1" });
    // A form's caption column: « First name: » names the check box further along its row, which bears its own word;
    // « High » right before another toggle of a row of them does not.
    const form = [el("text:3", "generic_interactive", [40, 600, 180, 624], "First name:"), el("cb", "checkbox", [200, 600, 320, 624], "Personal"), el("text:4", "generic_interactive", [40, 700, 90, 724], "High"), el("rm", "checkbox", [100, 700, 240, 724], "Remember me")];
    expect(locate("the First name checkbox", form, screen)).toMatchObject({ found: true, element_id: "cb" });
    expect(locate("the High checkbox", form, screen)).not.toMatchObject({ element_id: "rm" });
    expect(locate("la case à cocher de la ligne Business", rows, screen)).toMatchObject({ found: true, element_id: "en2" });
  });

  it("a rank over fields counts a field the detector missed, whose words a drawn box encloses", () => {
    const f = canvas();
    f.field([600, 100, 900, 140]);
    f.field([600, 300, 900, 340]);
    const els = [el("one", "text_input", [600, 100, 900, 140], "Search"), el("text:1", "generic_interactive", [620, 310, 700, 330], "Search")];
    const r = locate("the second search field", els, f);
    expect(r).toMatchObject({ found: true, ambiguous: false });
    expect(r.found && r.point[1]).toBeGreaterThan(299);
    expect(r.found && r.point[0]).toBeGreaterThan(599);
  });

  it("« under the title »: the tallest words on screen, where no label says title", () => {
    const els = [
      el("text:0", "generic_interactive", [100, 40, 500, 90], "Customer record"),
      el("text:1", "generic_interactive", [100, 300, 200, 330], "Name"),
      el("text:2", "generic_interactive", [300, 300, 400, 330], "City"),
      el("up", "button", [120, 120, 160, 160], ""),
      el("down", "button", [120, 500, 160, 540], ""),
    ];
    expect(locate("the button below the title", els, screen)).toMatchObject({ found: true, element_id: "up" });
    expect(locate("le bouton sous le titre", els, screen)).toMatchObject({ found: true, element_id: "up" });
  });

  it("a position word chooses among equal candidates, relative to each other, not only to the window", () => {
    // Both in the left half of the window: "on the right" is the one further right.
    const apply = [el("l", "button", [20, 300, 100, 330], "Apply"), el("r", "button", [200, 300, 280, 330], "Apply"), el("x", "button", [900, 700, 980, 730], "Close")];
    expect(locate("the Apply button on the right", apply, screen)).toMatchObject({ found: true, element_id: "r", ambiguous: false });
    expect(locate("le bouton tout en bas à droite", apply, screen)).toMatchObject({ found: true, element_id: "x" });
  });

  it("a bar named (« dans la barre du haut », the status bar) is the strip at that edge: the candidate there, not one a little further in", () => {
    const els = [el("nav", "button", [900, 10, 940, 40], "Search"), el("side", "button", [200, 145, 240, 175], "Search"), el("foot", "link", [20, 760, 90, 780], "Search")];
    expect(locate("the Search button in the top bar", els, screen)).toMatchObject({ found: true, element_id: "nav", ambiguous: false });
    expect(locate("le bouton Search dans la barre d'état", els, screen)).toMatchObject({ found: true, element_id: "foot" });
  });

  it("a window's own control is its title bar's figure, not a button below that bears the name; signs read over icons are no words", () => {
    const f = canvas();
    f.fill([0, 0, 1000, 32], [10, 36, 106]); // a title bar
    f.fill([938, 6, 962, 26], [192, 192, 192]); // its close button, a cross drawn in it
    for (let k = 0; k < 10; k++) {
      f.fill([945 + k, 11 + k, 947 + k, 13 + k], [0, 0, 0]);
      f.fill([954 - k, 11 + k, 956 - k, 13 + k], [0, 0, 0]);
    }
    f.field([600, 150, 680, 180]);
    for (let k = 0; k < 5; k++) f.fill([612 + 12 * k, 158, 620 + 12 * k, 172], [30, 30, 30]); // its word's ink
    const els = [el("x", "button", [938, 6, 962, 26], "-□×"), el("cancel", "button", [600, 150, 680, 180], "Cancel")];
    const r = locate("le bouton fermer de la fenêtre", els, f);
    expect(r).toMatchObject({ found: true, element_id: "x", ambiguous: false });
    // The title bar said as strongly as "at the top", and the name a button below bears counting less than the figure.
    const [first, second] = r.found ? r.candidates : [];
    expect(first!.score - second!.score).toBeGreaterThan(0.25);
  });

  it("a row said by its number: the row whose words say so, else the nth of the elements that fit", () => {
    const rows = [0, 1, 2].map((i) => el(`del${i}`, "button", [600, 100 + 40 * i, 680, 130 + 40 * i], "Delete"));
    expect(locate("the Delete button in row 2", rows, screen)).toMatchObject({ found: true, element_id: "del1" });
    expect(locate("le bouton Delete de la ligne 3", rows, screen)).toMatchObject({ found: true, element_id: "del2" });
    const named = [...rows, el("text:r", "generic_interactive", [20, 180, 80, 200], "Row 2")];
    expect(locate("the Delete button in Row 2", named, screen)).toMatchObject({ found: true, element_id: "del2" });
  });

  it("a name a possessive cut in two that the screen shows whole is one name; its captions rank, not a link bearing part of it", () => {
    const els = [
      el("text:c1", "generic_interactive", [178, 190, 478, 217], "Paramètres du compte"), el("d1", "dropdown", [176, 230, 490, 277], "Basse"),
      el("text:c2", "generic_interactive", [566, 190, 866, 217], "Paramètres du compte"), el("d2", "dropdown", [564, 230, 878, 277], "Haute"),
      el("p", "link", [950, 292, 1065, 323], "Paramètres"),
    ];
    expect(locate("la deuxième liste Paramètres du compte", els, { width: 1200, height: 800 })).toMatchObject({ found: true, element_id: "d2" });
    expect(locate("the first Paramètres du compte dropdown", els, { width: 1200, height: 800 })).toMatchObject({ found: true, element_id: "d1" });
  });

  it("a rank says there are several: one field bearing the name exactly, another bearing it among more words (OCR read two as one), both count", () => {
    const spins = [el("a", "text_input", [10, 100, 46, 136], "50 50"), el("b", "text_input", [50, 100, 86, 136], "50")];
    expect(locate("the first 50 spin button", spins, screen)).toMatchObject({ found: true, element_id: "a" });
  });

  it("a relation picks the element beside the named thing", () => {
    const els = [el("b1", "button", [400, 100, 480, 130], "Archiver"), el("b2", "button", [400, 500, 480, 530], "Archiver"), el("list", "dropdown", [100, 500, 380, 530], "Pays")];
    expect(locate("the Archiver button next to the Pays list", els, screen)).toMatchObject({ found: true, element_id: "b2" });
    expect(relationScore("right_of", { bbox: [100, 500, 380, 530] }, { bbox: [400, 500, 480, 530] })).toBeGreaterThan(relationScore("right_of", { bbox: [100, 500, 380, 530] }, { bbox: [400, 100, 480, 130] }));
    expect(relationScore("below", { bbox: [100, 100, 200, 120] }, { bbox: [100, 100, 200, 120] })).toBe(0);
  });

  it("a row relation picks the element on the named row, however far across, before one on the next row", () => {
    const rows = [20, 60, 100].flatMap((y, k) => [el(`name${k}`, "link", [40, y, 120, y + 20], ["Dupont", "Zoë", "Smith"][k]!), el(`edit${k}`, "button", [900, y - 4, 930, y + 24], "Modifier")]);
    expect(locate("le bouton Modifier de la ligne Zoë", rows, screen)).toMatchObject({ found: true, element_id: "edit1" });
    expect(locate("the Modifier button in the Smith row", rows, screen)).toMatchObject({ found: true, element_id: "edit2" });
    expect(relationScore("row", { bbox: [40, 60, 120, 80] }, { bbox: [900, 56, 930, 84] })).toBeGreaterThan(5 * relationScore("row", { bbox: [40, 60, 120, 80] }, { bbox: [130, 100, 160, 120] }));
  });

  it("an inside relation picks the element in the group its title heads, not the same one in the group beside it", () => {
    const groups = [el("t1", "generic_interactive", [230, 190, 300, 205], "Company"), el("r1", "radio_button", [229, 290, 360, 310], "Remember me"),
      el("t2", "generic_interactive", [865, 135, 933, 147], "Due date"), el("r2", "radio_button", [862, 166, 988, 196], "Remember me")];
    expect(locate("l'option Remember me dans le groupe Company", groups, screen)).toMatchObject({ found: true, element_id: "r1" });
    expect(locate("the Remember me radio in the Due date group", groups, screen)).toMatchObject({ found: true, element_id: "r2" });
    expect(relationScore("inside", { bbox: [230, 190, 300, 205] }, { bbox: [60, 290, 150, 310] })).toBe(0); // left of the title
  });

  it("a combo box next to its caption is the one the caption names, not one beside the combo box; next to is on its row", () => {
    // Caption column, then the fields a column away; a legend just under the first caption.
    const ville = el("v", "dropdown", [200, 100, 400, 122], "Ville");
    const dept = el("d", "dropdown", [200, 130, 400, 152], "Département");
    const targets = [ville, dept, ...textTargets([line("Ville", [40, 104, 80, 118]), line("Département", [40, 134, 130, 148]), line("Montant", [50, 124, 110, 130])], [ville, dept])];
    expect(locate("the combo box next to Département", targets, screen)).toMatchObject({ found: true, element_id: "d" });
    expect(locate("la liste déroulante à côté de Ville", targets, screen)).toMatchObject({ found: true, element_id: "v" });
    // Another kind asked for: the field is the anchor ("the button next to Ville" is beside the field).
    const ok = el("ok", "button", [410, 100, 470, 122], "OK");
    const far = el("far", "button", [40, 300, 100, 322], "OK");
    expect(locate("the OK button next to Ville", [...targets, ok, far], screen)).toMatchObject({ found: true, element_id: "ok" });
    // Beside on its row a column away is nearer than as far below.
    expect(relationScore("near", { bbox: [40, 104, 80, 118] }, { bbox: [200, 100, 400, 122] })).toBeGreaterThan(1.5 * relationScore("near", { bbox: [40, 104, 80, 118] }, { bbox: [40, 238, 80, 252] }));
  });

  it("reads colours from the pixels: the red one of two equal buttons", () => {
    const f = canvas();
    f.fill([100, 100, 200, 140], [220, 53, 69]);
    f.fill([300, 100, 400, 140], [25, 135, 84]);
    const els = [el("red", "button", [100, 100, 200, 140], "Export"), el("green", "button", [300, 100, 400, 140], "Export")];
    expect(locate("le bouton rouge Exporter", els, f)).toMatchObject({ found: true, element_id: "red" });
    expect(locate("the green Export button", els, f)).toMatchObject({ found: true, element_id: "green" });
    expect(colourName(13, 110, 253)).toBe("blue");
    expect(colourName(108, 117, 125)).toBe("grey");
    expect(colourName(250, 250, 250)).toBe("white");
  });

  it("of equal captions, a radio button's or check box's is the one with the toggle's circle or box before it", () => {
    const f = canvas();
    // "Non" three times (a list's value, a table cell, a radio's caption); a radio's outline before the third.
    for (const [x0, y0, x1, y1] of [[480, 101, 494, 103], [480, 113, 494, 115], [480, 101, 482, 115], [492, 101, 494, 115]] as const) f.fill([x0, y0, x1, y1], [40, 40, 40]);
    const texts = [el("text:1", "generic_interactive", [100, 100, 130, 116], "Non"), el("text:2", "generic_interactive", [300, 100, 330, 116], "Non"), el("text:3", "generic_interactive", [500, 100, 530, 116], "Non")];
    // (its control: the circle drawn before it, which no element stands for)
    expect(locate("the Non radio button", texts, f)).toMatchObject({ found: true, element_id: "text:3:toggle", bbox: [480, 101, 494, 115], ambiguous: false });
    expect(locate("the Non radio button", texts, screen)).toMatchObject({ ambiguous: true }); // no pixels to tell them apart
    // No box before any of them: the one naming a check box at all (a settings row's heading, its box at the row's end),
    // not the same words two drop-downs show as their values.
    const rows = [
      el("dd1", "dropdown", [600, 200, 900, 230], "Activer les notifications"), el("text:4", "generic_interactive", [610, 208, 800, 222], "Activer les notifications"),
      el("text:5", "generic_interactive", [40, 300, 230, 316], "Activer les notifications"), el("box", "checkbox", [880, 300, 940, 318], "Oui"),
      el("dd2", "dropdown", [40, 500, 900, 530], "Mot de passe"), el("text:6", "generic_interactive", [50, 508, 240, 522], "Activer les notifications"),
    ];
    expect(locate("the Activer les notifications checkbox", rows, canvas())).toMatchObject({ found: true, element_id: "box", ambiguous: false });
  });

  it("the password field is the one showing masked text, whatever its caption says", () => {
    const f = canvas();
    const boxes: BBox[] = [[200, 100, 460, 130], [200, 150, 460, 180], [200, 200, 460, 230]];
    for (const b of boxes) f.field(b);
    // Nine dots on the second field's line; words on the first (letters of other sizes and widths); three dots on the third.
    for (let k = 0; k < 9; k++) f.fill([210 + 12 * k, 161, 218 + 12 * k, 169], [30, 30, 30]);
    for (const [x, w, h] of [[210, 6, 12], [218, 14, 9], [234, 5, 12], [241, 8, 9], [251, 9, 9], [262, 3, 12], [267, 8, 9]] as const) f.fill([x, 121 - h, x + w, 121], [30, 30, 30]);
    for (let k = 0; k < 3; k++) f.fill([210 + 12 * k, 211, 218 + 12 * k, 219], [30, 30, 30]);
    expect(boxes.map((b) => showsMaskedText(f, b))).toEqual([false, true, false]);
    const els = [el("name", "text_input", [200, 100, 460, 130], "Nom"), el("pw", "text_input", [200, 150, 460, 180], "Société"), el("city", "text_input", [200, 200, 460, 230], "Ville")];
    expect(locate("le champ mot de passe", els, f)).toMatchObject({ found: true, element_id: "pw" });
    expect(locate("the password field", els, f)).toMatchObject({ found: true, element_id: "pw" });
    // Without pixels nothing tells which field is masked: no field bears the words.
    expect(locate("the password field", els, screen).found).toBe(false);
  });

  it("finds an icon by its figure among icon-only buttons, also where the detector saw nothing", () => {
    const f = canvas();
    // Three icon-only buttons: a plus, a flat bar (minus), a hollow right-pointing triangle.
    f.fill([110, 118, 130, 122], [40, 40, 40]);
    f.fill([118, 110, 122, 130], [40, 40, 40]);
    f.fill([150, 118, 170, 122], [40, 40, 40]);
    for (let i = 0; i < 20; i++) f.fill([190 + Math.floor(i / 2), 110 + i / 2, 192 + Math.floor(i / 2), 130 - i / 2].map(Math.round) as unknown as BBox, [40, 40, 40]);
    const buttons = [el("plus", "button", [100, 100, 140, 140], ""), el("minus", "button", [140, 100, 180, 140], "")];
    expect(locate("the plus icon", buttons, f)).toMatchObject({ found: true, element_id: "plus" });
    expect(locate("l'icône moins", buttons, f)).toMatchObject({ found: true, element_id: "minus" });
    // The triangle is in no element: an icon-sized blob proposed from the pixels.
    const r = locate("the play icon", buttons, f);
    expect(r.found && r.point[0]).toBeGreaterThan(185);
    expect(r.found && r.point[0]).toBeLessThan(205);
    expect(iconProposals(f, buttons.map((b) => b.bbox as BBox)).length).toBe(1);
    expect(elementAppearance(f, [100, 100, 140, 140], true).glyph?.shapes).toContain("plus");
  });

  it("an icon button boxed wider than its drawn frame: the glyph is the icon inside, not the frame (closed or cut by the margin)", () => {
    const f = canvas();
    const plus = (x: number, y: number) => {
      f.fill([x - 10, y - 2, x + 10, y + 2], [40, 40, 40]);
      f.fill([x - 2, y - 10, x + 2, y + 10], [40, 40, 40]);
    };
    const frame = (b: BBox) => {
      f.fill(b, [40, 40, 40]);
      f.fill([b[0] + 2, b[1] + 2, b[2] - 2, b[3] - 2], [236, 236, 236]);
    };
    // A frame 68 × 68 drawn inside a box 80 × 80 (the detector's box takes its shadow); a plus in the middle.
    frame([106, 106, 174, 174]);
    plus(140, 140);
    const g = elementAppearance(f, [100, 100, 180, 180], true).glyph!;
    expect(g.shapes).toContain("plus");
    expect(g.bbox[2] - g.bbox[0]).toBeLessThan(30);
    // The same with the box a little tighter: the margin cuts the frame's top and right sides, its left and bottom stay.
    frame([306, 306, 374, 374]);
    plus(340, 340);
    expect(elementAppearance(f, [300, 300, 372, 372], true).glyph?.bbox[0]).toBeGreaterThan(320);
    // A ring around a sign is the icon's own (a help or info icon): kept whole.
    for (let a = 0; a < 360; a += 2) {
      const [x, y] = [540 + 28 * Math.cos((a * Math.PI) / 180), 140 + 28 * Math.sin((a * Math.PI) / 180)].map(Math.round) as [number, number];
      f.fill([x - 1, y - 1, x + 2, y + 2], [40, 40, 40]);
    }
    plus(540, 140);
    const ring = elementAppearance(f, [510, 110, 570, 170], true).glyph!;
    expect(ring.bbox[2] - ring.bbox[0]).toBeGreaterThan(40); // not the plus alone (20)
    // A round button's outline cut by the margin into arcs at its corners: the plus inside is a glyph too.
    for (let a = 0; a < 360; a += 1) {
      const [x, y] = [740 + 25 * Math.cos((a * Math.PI) / 180), 440 + 25 * Math.sin((a * Math.PI) / 180)].map(Math.round) as [number, number];
      f.fill([x - 1, y - 1, x + 1, y + 1], [40, 40, 40]);
    }
    plus(740, 440);
    const round = elementAppearance(f, [713, 413, 767, 467], true);
    expect(round.glyph!.bbox[2] - round.glyph!.bbox[0]).toBeGreaterThan(30);
    expect(round.glyphs?.some((x) => x.shapes.includes("plus") && x.bbox[2] - x.bbox[0] <= 22)).toBe(true);
  });

  it("a check box drawn just before its caption (also a large one) is the caption's control, not a toggle further along the row or another caption's", () => {
    const f = canvas();
    const box = (b: BBox) => {
      f.fill(b, [60, 60, 60]);
      f.fill([b[0] + 2, b[1] + 2, b[2] - 2, b[3] - 2], [255, 255, 255]);
    };
    box([100, 92, 140, 132]); // a large box, twice the caption's height, before « Professionnel »
    const els = [
      el("text:1", "generic_interactive", [150, 102, 300, 122], "Professionnel"),
      el("far", "radio_button", [700, 100, 800, 124], ""), // a radio at the row's right end
      el("other", "checkbox", [100, 200, 200, 220], "Cheque"), // a detected check box with its own caption…
      el("text:2", "generic_interactive", [240, 200, 290, 220], "High"), // …then « High », whose box the detector missed
    ];
    const r = locate("the Professionnel checkbox", els, f);
    expect(r.found && r.point[0]).toBeLessThan(141);
    box([220, 203, 234, 217]);
    const high = locate("the High checkbox", els, f);
    expect(high).toMatchObject({ found: true });
    expect(high.found && high.point[0]).toBeGreaterThan(219);
  });

  it("small dots blurred into one bar at the ink threshold are dots (⋯), a bar is a bar", () => {
    const f = canvas();
    // Three dark 3 × 3 dots, the 2-pixel gaps between them grey (anti-aliasing): one piece of ink at the threshold.
    f.fill([100, 100, 113, 103], [180, 180, 180]);
    for (const x of [100, 105, 110]) f.fill([x, 100, x + 3, 103], [30, 30, 30]);
    // A bar of even ink.
    f.fill([200, 100, 213, 103], [30, 30, 30]);
    expect(elementAppearance(f, [92, 90, 121, 113], true).glyph?.shapes).toContain("dots");
    expect(elementAppearance(f, [192, 90, 221, 113], true).glyph?.shapes).toEqual(["minus"]);
  });

  it("an icon's sign inside words (« Mot de passe oublié ? ») is the words', not the icon asked for", () => {
    const f = canvas();
    // A "?"-like blob at the end of a link's words, and a help button's own "?" in a frame.
    f.fill([400, 100, 408, 116], [40, 40, 40]);
    f.fill([600, 96, 612, 116], [40, 40, 40]);
    const els = [el("link", "link", [200, 96, 412, 120], "Mot de passe oublié ?"), el("help", "button", [590, 90, 622, 122], "?")];
    expect(locate("le point d'interrogation", els, f)).toMatchObject({ found: true, element_id: "help" });
  });

  it("proposes a button cut in two blobs (its outline broken at the bottom) as one box, and an icon in a closed frame apart", () => {
    const ink = [40, 40, 40] as const;
    const f = canvas();
    // An outline open at the bottom (top bar and sides down to 124) and a glyph that reaches below it: two crossing blobs.
    for (const b of [[100, 100, 136, 102], [100, 100, 102, 124], [134, 100, 136, 124], [110, 108, 126, 134]] as BBox[]) f.fill(b, ink);
    expect(iconProposals(f, [])).toEqual([[100, 100, 138, 136]]); // edges are marked on both sides of a step, in 2-pixel cells
    // A closed frame around an icon: the icon is a blob of its own inside the frame's.
    const g = canvas();
    for (const b of [[300, 100, 340, 102], [300, 138, 340, 140], [300, 100, 302, 140], [338, 100, 340, 140], [312, 112, 328, 128]] as BBox[]) g.fill(b, ink);
    expect(iconProposals(g, []).sort((a, b) => a[0] - b[0])).toEqual([[300, 100, 342, 142], [312, 112, 330, 130]]);
  });

  it("proposes three dots in a row or a column (a « … » or kebab button), and a lone dash as the square around it", () => {
    const ink = [40, 40, 40] as const;
    const f = canvas();
    // Three 2-px dots 2 px apart (the blur between them lighter), across and down; a 12 × 3 dash beside them.
    for (let k = 0; k < 3; k++) {
      f.fill([100 + 4 * k, 100, 102 + 4 * k, 102], ink);
      f.fill([103 + 4 * k, 100, 104 + 4 * k, 102], [200, 200, 200]);
      f.fill([200, 100 + 5 * k, 203, 103 + 5 * k], ink);
    }
    f.fill([300, 100, 312, 103], ink);
    const props = iconProposals(f, []).sort((a, b) => a[0] - b[0]);
    expect(props).toHaveLength(3);
    expect(props[0]![0]).toBeLessThanOrEqual(100);
    expect(props[0]![2]).toBeGreaterThanOrEqual(110);
    expect(props[1]![0]).toBeLessThanOrEqual(200);
    expect(props[1]![3]).toBeGreaterThanOrEqual(113);
    // The dash (a minimize button's, a card's collapse): its cells' box made square, centred on it, the dash a glyph inside.
    const dash = props[2]!;
    expect(dash[0]).toBeLessThanOrEqual(300);
    expect(dash[2]).toBeGreaterThanOrEqual(312);
    expect(dash[3] - dash[1]).toBeCloseTo(dash[2] - dash[0], 5);
    expect((dash[1] + dash[3]) / 2).toBeGreaterThanOrEqual(100);
    expect((dash[1] + dash[3]) / 2).toBeLessThanOrEqual(104);
    expect(elementAppearance(f, [dash[0] - 4, dash[1] - 4, dash[2] + 4, dash[3] + 4], true, dash).glyph?.shapes).toEqual(["minus"]);
    // A dash inside an element (a value's sign, a spin box's own button) is not proposed; nor a bar longer than an icon.
    expect(iconProposals(f, [], [[290, 90, 330, 115]])).toHaveLength(2);
    const g = canvas();
    g.fill([300, 100, 340, 103], ink);
    expect(iconProposals(g, [])).toEqual([]);
  });

  it("a card's own dash and a minimize underscore no element holds are the « réduire » asked for", () => {
    const ink = [40, 40, 40] as const;
    const f = canvas();
    // A card titled « Visitors » with a 12 × 2 dash and a close cross at the right end of its title's line.
    f.fill([500, 100, 512, 102], ink);
    for (let k = 0; k < 10; k++) {
      f.fill([530 + k, 96 + k, 532 + k, 98 + k], ink);
      f.fill([539 - k, 96 + k, 541 - k, 98 + k], ink);
    }
    const els = [el("text:0", "generic_interactive", [300, 92, 380, 110], "Visitors"), el("x", "button", [526, 92, 546, 112], "×")];
    expect(locate("le bouton réduire de la carte Visitors", els, f)).toMatchObject({ found: true, bbox: [expect.closeTo(500, -1), expect.any(Number), expect.closeTo(512, -1), expect.any(Number)] });
  });

  it("a caption whose field is drawn as an underline alone leads to it; the top of a box below is no underline", () => {
    const f = canvas();
    // Caption 100–160 × 106–124 (middle 115); a 2-px line from x 200 to 600 at y 130–132.
    f.fill([200, 130, 600, 132], [120, 120, 120]);
    const u = probeFieldBesideCaption(f, [100, 106, 160, 124]);
    expect(u).toBeDefined();
    expect(u![0]).toBeGreaterThanOrEqual(199);
    expect(u![2]).toBeGreaterThanOrEqual(598);
    expect(u![1]).toBeLessThanOrEqual(102);
    expect(u![3]).toBeGreaterThanOrEqual(130);
    expect(u![3]).toBeLessThanOrEqual(134);
    // The same caption above the top of a box (the next row's field, its sides running down): nothing.
    const g = canvas();
    g.fill([200, 130, 600, 170], [120, 120, 120]);
    g.fill([201, 131, 599, 169], [255, 255, 255]);
    expect(probeFieldBesideCaption(g, [100, 106, 160, 124])).toBeUndefined();
  });

  it("a short field the detector boxed whole and typed a button is the field its placeholder names, not the button beside it", () => {
    const f = canvas();
    f.fill([0, 0, 1000, 800], [255, 255, 255]);
    f.outline([100, 100, 240, 170], 1, [200, 200, 200]);
    f.fill([112, 130, 220, 140], [190, 190, 190]); // a pale placeholder
    f.outline([254, 100, 370, 170], 1, [40, 140, 80]); // a button close beside it
    for (const y of [110, 128, 146]) f.fill([270, y, 350, y + 10], [40, 140, 80]);
    const els = [el("f", "button", [100, 100, 240, 170], "Invoice number"), el("b", "button", [254, 100, 370, 170], "Générer le rapport")];
    const r = locate("the Invoice number field", els, f);
    expect(r.found && r.point[0]).toBeLessThan(240);
  });

  it("a caption's underlined drop-down on its row beats the next row's button below it", () => {
    const f = canvas();
    f.fill([200, 130, 600, 132], [120, 120, 120]);
    const els = [...textTargets([line("Catégorie", [100, 106, 160, 124])], []), el("export", "button", [100, 140, 180, 170], "Export")];
    const r = locate("le menu déroulant Catégorie", els, f);
    expect(r.found && r.point[0]).toBeGreaterThan(200);
    expect(r.found && r.point[1]).toBeLessThan(132);
  });

  it("a caption whose field the detector missed leads to the box drawn beside it", () => {
    const f = canvas();
    // A white field with a grey border right of its caption, another under its caption.
    f.fill([200, 100, 500, 130], [150, 150, 150]);
    f.fill([201, 101, 499, 129], [255, 255, 255]);
    f.fill([100, 300, 400, 330], [150, 150, 150]);
    f.fill([101, 301, 399, 329], [255, 255, 255]);
    const right = probeFieldBesideCaption(f, [100, 106, 160, 124]);
    expect(right).toBeDefined();
    expect(right![0]).toBeGreaterThanOrEqual(199);
    expect(right![0]).toBeLessThanOrEqual(202);
    const below = probeFieldBesideCaption(f, [100, 270, 170, 290]);
    expect(below && below[1]).toBeGreaterThanOrEqual(299);
    expect(below && below[1]).toBeLessThanOrEqual(302);
    const targets = textTargets([line("City", [100, 106, 160, 124])], []);
    const r = locate("the City field", targets, f);
    expect(r.found && r.point[0]).toBeGreaterThan(200);
    expect(r.found && r.point[1]).toBeGreaterThan(100);
    expect(r.found && r.point[1]).toBeLessThan(130);
    // Without pixels there is nothing to probe: the caption's words are where the field is named.
    expect(probeFieldBesideCaption(canvas(), [100, 106, 160, 124])).toBeUndefined();
    // Rounded corners (CSS kits): the left side ends 6 px before the top and bottom, which start 6 px in.
    const roundField = () => {
      const c = canvas();
      c.fill([200, 100, 500, 160], [219, 219, 219]);
      c.fill([201, 101, 499, 159], [255, 255, 255]);
      for (const [x0, x1] of [[200, 206], [494, 500]] as const) for (const [y0, y1] of [[100, 106], [154, 160]] as const) c.fill([x0, y0, x1, y1], [240, 240, 240]);
      c.fill([200, 106, 201, 154], [219, 219, 219]);
      return c;
    };
    const rounded = probeFieldBesideCaption(roundField(), [60, 118, 190, 142]);
    expect(rounded).toBeDefined();
    expect(rounded![1]).toBeLessThanOrEqual(101);
    expect(rounded![3]).toBeGreaterThanOrEqual(159);
    expect(rounded![2]).toBeGreaterThan(480);
    // A panel's top edge just under the field runs further right: the field's own bottom side counts.
    const panelBelow = roundField();
    panelBelow.fill([50, 170, 900, 171], [120, 120, 120]);
    const above = probeFieldBesideCaption(panelBelow, [60, 110, 190, 150]);
    expect(above && above[2]).toBeLessThanOrEqual(500);
  });

  it("a field drawn as a line under its placeholder is the band above the line, not a box probed below it", () => {
    // A placeholder's words (text ink, 20 px tall) over a 2-px line from 10 px before them to 300 px past them.
    const underlined = () => {
      const c = canvas();
      c.fill([110, 104, 200, 124], [150, 150, 150]);
      c.fill([100, 132, 500, 134], [120, 120, 120]);
      return c;
    };
    const f = underlined();
    expect(underlinedField(f, [110, 104, 200, 124])).toEqual([100, 92, 500, 134]);
    // A search field's placeholder the detector took for a radio button: the field is the band above the line.
    const r = locate("the search field", [el("r", "radio_button", [110, 104, 200, 124], "Type to search")], f);
    expect(r.found && r.point[1]).toBeGreaterThan(92);
    expect(r.found && r.point[1]).toBeLessThan(134);
    expect(r.found && r.point[0]).toBeGreaterThan(250);
    // A link's own underline spans its words only.
    const link = canvas();
    link.fill([110, 104, 200, 124], [150, 150, 150]);
    link.fill([110, 126, 200, 127], [120, 120, 120]);
    expect(underlinedField(link, [110, 104, 200, 124])).toBeUndefined();
    // A caption over a box (a tall one: its bottom far below): the line is the box's top, with sides going down from its ends…
    const boxed = canvas();
    boxed.fill([110, 104, 200, 124], [150, 150, 150]);
    boxed.outline([100, 132, 500, 240], 1, [120, 120, 120]);
    expect(underlinedField(boxed, [110, 104, 200, 124])).toBeUndefined();
    // …also with rounded corners: the sides start a few pixels outside the top's ends (a tall field under its caption).
    const rounded = canvas();
    rounded.fill([110, 104, 200, 124], [150, 150, 150]);
    rounded.fill([104, 132, 496, 133], [120, 120, 120]);
    rounded.fill([100, 136, 101, 240], [120, 120, 120]);
    rounded.fill([499, 136, 500, 240], [120, 120, 120]);
    expect(underlinedField(rounded, [110, 104, 200, 124])).toBeUndefined();
    // …or, its sides too soft to see, with a bottom of its extent below.
    const soft = underlined();
    soft.fill([100, 170, 500, 171], [120, 120, 120]);
    expect(underlinedField(soft, [110, 104, 200, 124])).toBeUndefined();
    // A rule running past both ends below (a page's divider) is no box's bottom.
    const ruled = underlined();
    ruled.fill([0, 160, 1000, 161], [120, 120, 120]);
    expect(underlinedField(ruled, [110, 104, 200, 124])).toBeDefined();
  });

  it("« la case Élevée »: a settings row's check box the detector missed is the first thing drawn at its row's end; a word, a divider or a button first is not", () => {
    // A caption's ink (24 px tall) with a line of help under it, and a 14-px box far along its row.
    const row = () => {
      const c = canvas();
      c.fill([100, 100, 170, 124], [40, 40, 40]);
      c.fill([100, 130, 400, 140], [120, 120, 120]);
      c.outline([700, 106, 714, 120], 1, [150, 150, 150]);
      return c;
    };
    const caption = line("Élevée", [100, 100, 170, 124]);
    const help = line("Veuillez vérifier les informations", [100, 130, 400, 140]);
    const f = row();
    expect(toggleAtRowEnd(f, caption.bbox, [])).toEqual([700, 106, 714, 120]);
    const r = locate("la case Élevée", textTargets([caption, help], []), f);
    expect(r.found && r.bbox).toEqual([700, 106, 714, 120]);
    // The box's border read as one character (« 0 ») is no word over it; a word there is.
    const misread = [...textTargets([caption, help], []), el("b", "button", [696, 102, 718, 124], "0")];
    expect(locate("la case Élevée", misread, f)).toMatchObject({ found: true, bbox: [700, 106, 714, 120] });
    expect(toggleAtRowEnd(f, caption.bbox, [[698, 104, 716, 122]])).toBeUndefined();
    // A divider, or a button, first along the row: no check box of this caption's.
    const divided = row();
    divided.fill([400, 60, 401, 170], [120, 120, 120]);
    expect(toggleAtRowEnd(divided, caption.bbox, [])).toBeUndefined();
    const button = row();
    button.outline([400, 100, 480, 126], 1, [120, 120, 120]);
    expect(toggleAtRowEnd(button, caption.bbox, [])).toBeUndefined();
  });

  it("« le bouton Couleur »: a form's caption naming no button is the box drawn beside it (a colour chooser the detector missed); a button's own words are the button", () => {
    const f = canvas();
    f.fill([176, 80, 638, 114], [150, 150, 150]);
    f.fill([177, 81, 637, 113], [40, 90, 200]); // a colour swatch in its frame
    const caption = { text: "Couleur", bbox: [2, 88, 90, 109] as BBox };
    const r = locate("le bouton Couleur", textTargets([caption], []), f);
    expect(r.found && r.point[0]).toBeGreaterThan(176);
    // Words inside a drawn box (a button the detector missed) are that button.
    f.fill([10, 300, 120, 340], [150, 150, 150]);
    f.fill([11, 301, 119, 339], [230, 230, 230]);
    const own = locate("le bouton Valider", textTargets([{ text: "Valider", bbox: [30, 310, 100, 330] as BBox }], []), f);
    expect(own.found && own.point[0]).toBeLessThan(120);
  });

  it("replay's label lookup: a field whose caption alone was read is the box drawn beside the caption, not the caption", () => {
    // yad at text ×1.5: the detector missed the « Date de naissance » field; clicking its caption
    // focused nothing and the date was typed into the field focused before.
    const f = canvas();
    f.fill([176, 80, 638, 114], [150, 150, 150]);
    f.fill([177, 81, 637, 113], [255, 255, 255]);
    const caption = { text: "Date de naissance", bbox: [2, 88, 174, 109] as BBox, words: [{ text: "Date", bbox: [4, 90, 46, 105] as BBox }, { text: "de", bbox: [52, 90, 74, 105] as BBox }, { text: "naissance", bbox: [80, 90, 171, 105] as BBox }] };
    const r = locate({ verb: "click", target: "Date de naissance", type: "text_input" }, textTargets([caption], []), f);
    expect(r.found).toBe(true);
    if (!r.found) return;
    expect(r.bbox[0]).toBeGreaterThanOrEqual(175);
    expect(r.bbox[0]).toBeLessThanOrEqual(178);
    expect(r.point[1]).toBeGreaterThan(80);
    expect(r.point[1]).toBeLessThan(114);
    // A button named like a caption stays its words.
    const b = locate({ verb: "click", target: "Date de naissance", type: "button" }, textTargets([caption], []), f);
    expect(b.found && b.bbox[2]).toBeLessThanOrEqual(175);
  });

  it("an element of another type boxed as the field itself (a search field's placeholder taken for a link) is the field", () => {
    // A dark side bar's search field joined to its button (one drawn box), a page beside them with a card.
    const f = canvas();
    f.fill([0, 0, 250, 800], [56, 56, 56]);
    f.fill([8, 140, 243, 178], [94, 94, 94]);
    f.fill([9, 141, 196, 177], [69, 69, 69]);
    f.fill([197, 141, 242, 177], [80, 80, 80]);
    f.fill([20, 152, 70, 166], [150, 150, 150]); // the placeholder's ink
    f.fill([250, 0, 1000, 800], [244, 244, 244]);
    f.field([257, 130, 990, 228]); // a card
    const els = [el("s", "link", [8, 140, 197, 178], "Search"), el("b", "button", [196, 140, 243, 178], "")];
    const r = locate("the search field", els, f);
    expect(r).toMatchObject({ found: true, element_id: "s" });
    expect(r.found && r.point[0]).toBeLessThan(197);
  });

  it("a pill drawn around words (a search field's round ends) is the field; an element of another type read over its placeholder leads to it", () => {
    const f = canvas();
    // A pill 400 × 60 at (100, 600): straight top and bottom from x 130 to 470, half discs of radius 30 at both ends.
    const [cx0, cx1, cy, r] = [130, 470, 630, 30];
    for (let y = cy - r; y <= cy + r; y++)
      for (let x = cx0 - r; x <= cx1 + r; x++) {
        const d = x < cx0 ? Math.hypot(x - cx0, y - cy) : x > cx1 ? Math.hypot(x - cx1, y - cy) : Math.abs(y - cy);
        if (Math.abs(d - r) < 1) f.fill([x, y, x + 1, y + 1], [150, 150, 150]);
      }
    for (let x = 160; x < 260; x += 8) f.fill([x, 622, x + 4, 638], [90, 90, 90]); // the placeholder's letters
    f.field([520, 605, 570, 655]); // a help button right of the field
    const pill = enclosingBox(f, [155, 618, 265, 642]);
    for (const [i, v] of [100, 600, 500, 660].entries()) expect(Math.abs(pill![i]! - v)).toBeLessThanOrEqual(2);
    // The detector read the placeholder as a radio button's caption; a help button stands right of the field.
    const targets = [el("r", "radio_button", [150, 615, 270, 645], "Search..."), el("help", "button", [520, 605, 570, 655], "?")];
    const r0 = locate("the search field", targets, f);
    expect(r0).toMatchObject({ found: true, element_id: "r:field" });
    const [px, py] = r0.found ? r0.point : [0, 0];
    expect([px > 100 && px < 500, py > 600 && py < 660]).toEqual([true, true]);
    // A button's own border tight around its words is no field around them.
    const g = canvas();
    g.field([100, 700, 220, 740]);
    expect(locate("the search field", [el("b", "button", [100, 700, 220, 740], "Search")], g)).not.toMatchObject({ found: true, element_id: "b:field" });
  });

  it("text inside a drawn box is the field that shows it; of two equal captions, the drop-down asked for is the one with an arrow", () => {
    const f = canvas();
    const field = f.field;
    // (Frames are immutable values: everything is drawn before the first look.)
    field([100, 100, 500, 130]);
    field([100, 200, 500, 230]);
    // "Email" captions a text field and, further down, a drop-down (a small triangle at its right end).
    field([100, 300, 500, 330]);
    field([100, 400, 500, 430]);
    for (let i = 0; i < 5; i++) f.fill([480 + i, 412 + i, 490 - i, 413 + i], [30, 30, 30]);
    field([600, 500, 900, 580]); // a large-print field: five times as tall as its placeholder's small text
    const inside = enclosingBox(f, [110, 106, 200, 124]);
    for (const [i, v] of [100, 100, 499, 129].entries()) expect(Math.abs(inside![i]! - v)).toBeLessThanOrEqual(1);
    const tall = enclosingBox(f, [620, 532, 700, 548]);
    for (const [i, v] of [600, 500, 899, 579].entries()) expect(Math.abs(tall![i]! - v)).toBeLessThanOrEqual(1);
    // A caption between two fields is not inside either.
    expect(enclosingBox(f, [100, 140, 170, 160])).toBeUndefined();
    const targets = textTargets([line("Email", [100, 275, 150, 293]), line("Email", [100, 375, 150, 393])], []);
    const list = locate("la liste déroulante Email", targets, f);
    expect(list.found && list.point[1]).toBeGreaterThan(400);
    const box = locate("the Email text field", targets, f);
    expect(box.found && box.point[1]).toBeLessThan(330);
  });

  it("a field's estimated box (the coarse pass: tens of pixels off across) takes the edges drawn around its middle", () => {
    const f = canvas();
    f.field([100, 100, 700, 150]);
    f.field([100, 160, 700, 210]);
    f.fill([110, 115, 160, 135], [40, 40, 40]); // a value typed at the field's left end
    const near = (got: BBox | undefined, want: BBox) => want.forEach((v, i) => expect(Math.abs(got![i]! - v)).toBeLessThanOrEqual(1));
    near(drawnFieldAround(f, [170, 97, 640, 153]), [100, 100, 699, 149]); // started 70 px right of the field's left side
    near(drawnFieldAround(f, [60, 104, 740, 146]), [100, 100, 699, 149]); // wider than the field, a little short of its height
    // On the open page, or astride two fields, there is no field around the estimate.
    expect(drawnFieldAround(f, [100, 300, 600, 350])).toBeUndefined();
    expect(drawnFieldAround(f, [100, 130, 700, 180])).toBeUndefined();
  });

  it("an icon described is clicked on its figure, not the middle of a box that holds two icons", () => {
    const f = canvas();
    f.fill([110, 118, 130, 122], [40, 40, 40]);
    f.fill([118, 110, 122, 130], [40, 40, 40]);
    f.fill([150, 118, 170, 122], [40, 40, 40]);
    const r = locate("the plus icon", [el("both", "button", [100, 100, 180, 140], "")], f);
    expect(r.found && r.point[0]).toBeGreaterThan(105);
    expect(r.found && r.point[0]).toBeLessThan(135);
    expect(locate("page 3", [el("p2", "link", [10, 10, 30, 30], "2"), el("p3", "link", [30, 10, 50, 30], "3")], screen)).toMatchObject({ found: true, element_id: "p3" });
  });

  it("a recorded label (replay's parsed instruction) is looked up as before: no lexicon, no rank", () => {
    const tabs = [el("o", "tab", [10, 40, 90, 70], "Outils")];
    expect(locate({ verb: "click", target: "Tools", type: "tab" }, tabs, screen).found).toBe(false);
    expect(locate({ verb: "click", target: "Tools", type: "tab" }, tabs, screen, { natural: true }).found).toBe(true);
  });

  it("a chevron asked: an arrow drawn that the recognizer names a download is the download's (and the reverse)", async () => {
    // Two icon-only buttons, each with an arrow down.
    const f = twoArrowsDown();
    const buttons = [el("dl", "button", [100, 100, 140, 140], ""), el("chev", "button", [140, 100, 180, 140], "")];
    // Both drawn as arrows down.
    for (const b of buttons) expect(elementAppearance(f, b.bbox as BBox, true).glyph?.shapes).toContain("arrow_down");
    expect(locate("le chevron vers le bas", buttons, f)).toMatchObject({ found: true, ambiguous: true });
    const recognizer: IconRecognizer = {
      classes: ["download", "arrow_down", "other"],
      recognize: async (_frame, boxes) => boxes.map((b) => (b[0] < 140 ? { download: 0.8, arrow_down: 0.15, other: 0.05 } : { download: 0.1, arrow_down: 0.85, other: 0.05 })),
    };
    expect(await locateWithIcons("le chevron vers le bas", buttons, f, recognizer)).toMatchObject({ found: true, element_id: "chev", ambiguous: false });
    expect(await locateWithIcons("the download icon", buttons, f, recognizer)).toMatchObject({ found: true, element_id: "dl", ambiguous: false });
  });

  it("a download asked: a plain arrow down may be one; an outline read as an arrow the recognizer surely names otherwise is not", async () => {
    const f = twoArrowsDown();
    const buttons = [el("mail", "button", [100, 100, 140, 140], ""), el("arrow", "button", [140, 100, 180, 140], "")];
    // The first's outline reads as an arrow down (an envelope's flap), the recognizer is all but sure it is a mail icon;
    // the second is a plain arrow down, as many kits draw a download.
    const recognizer: IconRecognizer = {
      classes: ["download", "arrow_down", "mail", "other"],
      recognize: async (_frame, boxes) => boxes.map((b) => (b[0] < 140 ? { download: 0.01, arrow_down: 0.01, mail: 0.97, other: 0.01 } : { download: 0.1, arrow_down: 0.88, mail: 0.01, other: 0.01 })),
    };
    expect(await locateWithIcons("the download button", buttons, f, recognizer)).toMatchObject({ found: true, element_id: "arrow", ambiguous: false });
    // A plain arrow asked for still does not take a download drawn.
    expect(await locateWithIcons("the down arrow", buttons, f, recognizer)).toMatchObject({ found: true, element_id: "arrow" });
    // An arrow whose drawn shape is misread (cut by the screen's edge: a bar and a blob), the recognizer sure it is an
    // arrow down: « télécharger » named, it stands in for the download.
    const cut = canvas();
    cut.fill([118, 110, 122, 130], [40, 40, 40]);
    cut.fill([112, 126, 128, 132], [40, 40, 40]);
    const lone = [el("cut", "button", [100, 100, 140, 140], ""), el("other", "button", [300, 100, 340, 140], "")];
    cut.fill([310, 110, 330, 130], [40, 40, 40]);
    const sure: IconRecognizer = { classes: ["download", "arrow_down", "other"], recognize: async (_frame, boxes) => boxes.map((b) => (b[0] < 200 ? { download: 0.02, arrow_down: 0.95, other: 0.03 } : { download: 0.01, arrow_down: 0.01, other: 0.98 })) };
    expect(await locateWithIcons("le bouton télécharger", lone, cut, sure)).toMatchObject({ found: true, element_id: "cut", ambiguous: false });
  });

  it("an outline read as a ring where the recognizer all but rules the figure out is less than a ring it names so", async () => {
    const f = canvas();
    const ring = (cx: number, cy: number) => {
      for (let y = cy - 10; y <= cy + 10; y++) for (let x = cx - 10; x <= cx + 10; x++) if (Math.abs(Math.hypot(x - cx, y - cy) - 8) < 1.3) f.fill([x, y, x + 1, y + 1], [30, 30, 30]);
    };
    ring(118, 78);
    ring(118, 138);
    const els = [el("square", "button", [100, 60, 136, 96], ""), el("refresh", "button", [100, 120, 136, 156], ""), ...[300, 500, 700].map((y) => el(`b${y}`, "button", [600, y, 680, y + 30], "Paris"))];
    // The upper one is a window's maximize square for the recognizer, the lower a refresh arrow.
    const recognizer: IconRecognizer = {
      classes: ["refresh", "computer", "other"],
      recognize: async (_frame, boxes) => boxes.map((b) => (b[1] < 100 ? { refresh: 0.02, computer: 0.32, other: 0.66 } : { refresh: 0.95, computer: 0.01, other: 0.04 })),
    };
    expect(await locateWithIcons("le bouton actualiser de la barre d'outils", els, f, recognizer)).toMatchObject({ found: true, element_id: "refresh" });
  });

  it("a colour said of a worded button is its fill's, not its icon's", () => {
    const f = canvas();
    f.fill([100, 100, 220, 140], [200, 200, 200]);
    f.fill([108, 115, 124, 119], [40, 90, 220]);
    f.fill([114, 109, 118, 125], [40, 90, 220]);
    f.fill([400, 100, 480, 140], [40, 90, 220]);
    const buttons = [el("grey", "button", [100, 100, 220, 140], "+ Preview"), el("blue", "button", [400, 100, 480, 140], "+ Preview")];
    expect(locate("le bouton bleu Preview", buttons, f)).toMatchObject({ found: true, element_id: "blue", ambiguous: false });
    // The icon asked for: its own colour.
    expect(locate("the blue plus icon", [el("grey", "button", [100, 100, 220, 140], "+ Preview"), el("other", "button", [400, 100, 480, 140], "")], f)).toMatchObject({ found: true, element_id: "grey" });
  });

  it("a check box named after the words beside it: those words name its row, the box is the target", () => {
    const row = (y: number, name: string, id: string) => [el(`box-${id}`, "checkbox", [480, y, 500, y + 20], name), el(`link-${id}`, "link", [520, y + 2, 600, y + 22], name), el(`view-${id}`, "button", [900, y - 4, 950, y + 26], "")];
    const els = [...row(560, "Nguyen", "n"), ...row(630, "Martin", "m"), el("text:0", "generic_interactive", [700, 632, 850, 652], "Email address")];
    expect(locate("la case de la ligne Martin", els, screen)).toMatchObject({ found: true, element_id: "box-m", ambiguous: false });
  });

  it("a relation's anchor nothing on screen bears names the target, as an icon too (« le bouton du compte »)", async () => {
    const f = canvas();
    f.fill([900, 20, 950, 60], [40, 90, 220]);
    f.fill([918, 30, 932, 50], [255, 255, 255]);
    const els = [el("account", "button", [900, 20, 950, 60], ""), el("text:0", "generic_interactive", [500, 275, 600, 300], "Amount")];
    const recognizer: IconRecognizer = { classes: ["user", "other"], recognize: async (_f, boxes) => boxes.map(() => ({ user: 0.99, other: 0.01 })) };
    expect(await locateWithIcons("le bouton du compte en haut à droite", els, f, recognizer)).toMatchObject({ found: true, element_id: "account" });
  });

  it("an icon under a count badge is a glyph of its own, the badge's columns left out; a bevel's gear reaching near its frame is held by it", () => {
    const f = canvas();
    // A 20 × 16 grey outline (a mail or chat icon) at (106, 110), a red 12 × 11 pill with a white « 3 » over its top right.
    f.outline([106, 110, 126, 126], 2, [60, 60, 60]);
    f.fill([118, 106, 130, 117], [220, 53, 69]);
    f.fill([122, 108, 126, 115], [255, 255, 255]);
    const a = elementAppearance(f, [98, 100, 138, 134], true);
    expect(a.glyph?.colour).toBe("red");
    const beside = (a.glyphs ?? []).find((g) => g.bbox[2] <= 118);
    expect(beside?.bbox).toEqual([106, 110, 117, 126]);
    // No badge (the same outline alone): one glyph.
    const g = canvas();
    g.fill([106, 110, 126, 126], [60, 60, 60]);
    g.fill([108, 112, 124, 124], [255, 255, 255]);
    expect(elementAppearance(g, [98, 100, 138, 134], true).glyphs).toBeUndefined();
    // A bevelled button's frame (29 × 24) around a gear whose teeth come within a pixel of the frame's bottom: the gear whole.
    const h = canvas();
    h.outline([200, 100, 229, 124], 1, [40, 40, 40]);
    h.fill([206, 104, 224, 122], [40, 40, 40]);
    h.fill([211, 109, 219, 117], [255, 255, 255]);
    expect((elementAppearance(h, [197, 98, 233, 125], true).glyphs ?? []).map((x) => x.bbox)).toContainEqual([206, 104, 224, 122]);
  });

  it("a round button's disc, boxed with a margin of the page, holding a figure of another colour: that figure is a glyph too", () => {
    // A dark page, an orange disc 34 px wide at (170, 130), a dark 12 × 16 figure (a trash can) in its middle.
    const disc = (figure: boolean) => {
      const f = canvas();
      f.fill([140, 100, 260, 200], [35, 39, 43]);
      for (let y = 130; y < 164; y++) for (let x = 170; x < 204; x++) if ((x - 186.5) ** 2 + (y - 146.5) ** 2 <= 17 ** 2) f.fill([x, y, x + 1, y + 1], [250, 176, 100]);
      if (figure) f.fill([181, 139, 193, 155], [30, 30, 30]);
      return f;
    };
    const a = elementAppearance(disc(true), [163, 122, 212, 172], true);
    expect(a.glyph?.bbox).toEqual([170, 130, 204, 164]);
    expect((a.glyphs ?? []).map((g) => g.bbox)).toContainEqual([181, 139, 193, 155]);
    // A plain disc: the disc alone.
    expect(elementAppearance(disc(false), [163, 122, 212, 172], true).glyphs).toBeUndefined();
  });

  it("a button named as its icon stands for, where only a line of text bears the name, with other words, ambiguously or not wholly: the icon (« le deuxième bouton paramètres »)", async () => {
    const f = canvas();
    const gear = (x: number) => {
      f.fill([x + 4, 104, x + 20, 120], [40, 40, 40]);
      f.fill([x + 9, 109, x + 15, 115], [255, 255, 255]);
    };
    gear(100);
    gear(140);
    const els = [el("bell", "button", [60, 100, 84, 124], ""), el("g1", "button", [100, 100, 124, 124], ""), el("g2", "button", [140, 100, 164, 124], ""),
      el("text:0", "generic_interactive", [400, 300, 520, 316], "Paramètres · −9 %")];
    const recognizer: IconRecognizer = { classes: ["settings", "other"], recognize: async (_f, boxes) => boxes.map((b) => (b[0] >= 100 ? { settings: 0.98, other: 0.02 } : { settings: 0.01, other: 0.99 })) };
    expect(await locateWithIcons("le deuxième bouton paramètres", els, f, recognizer)).toMatchObject({ found: true, element_id: "g2" });
    // A line bearing the name among other words, not wholly (« Aide −33 % » for "the help button"): the icon too.
    const help = canvas();
    help.outline([704, 104, 720, 120], 2, [40, 40, 40]);
    const helpRecognizer: IconRecognizer = { classes: ["help", "other"], recognize: async (_f, boxes) => boxes.map((b) => (b[0] >= 700 ? { help: 0.97, other: 0.03 } : { help: 0.01, other: 0.99 })) };
    const aide = [el("q", "button", [700, 100, 724, 124], ""), el("text:0", "generic_interactive", [400, 300, 500, 316], "Aide −33 %")];
    expect(await locateWithIcons("the help button", aide, help, helpRecognizer)).toMatchObject({ found: true, element_id: "q" });
    // A line bearing the name alone is the name's (a button the detector boxed as words).
    const one = [...els.slice(0, 3), el("text:0", "generic_interactive", [400, 300, 490, 316], "Paramètres")];
    expect(await locateWithIcons("le bouton paramètres", one, f, recognizer)).toMatchObject({ found: true, element_id: "text:0" });
    // …but not where the instruction places the button: words low on the page for « en haut », the gear at the top.
    const single = canvas();
    single.fill([104, 104, 120, 120], [40, 40, 40]);
    single.fill([109, 109, 115, 115], [255, 255, 255]);
    const low = [els[0]!, els[1]!, el("text:0", "generic_interactive", [400, 700, 490, 716], "Paramètres")];
    expect(await locateWithIcons("le bouton paramètres en haut", low, single, recognizer)).toMatchObject({ found: true, element_id: "g1" });
    expect(await locateWithIcons("le bouton paramètres en bas", low, single, recognizer)).toMatchObject({ found: true, element_id: "text:0" });
    // …and a button of the very type bearing the name only in part (a table's « ACTIONS » header for « plus d'actions »):
    // the button showing the three dots.
    const dots = canvas();
    for (const x of [106, 111, 116]) dots.fill([x, 110, x + 3, 113], [40, 40, 40]);
    const more: IconRecognizer = { classes: ["more", "other"], recognize: async (_f, boxes) => boxes.map((b) => (b[0] < 200 ? { more: 0.97, other: 0.03 } : { more: 0.01, other: 0.99 })) };
    const header = [el("dots", "button", [100, 100, 124, 124], ""), el("head", "button", [400, 300, 520, 330], "ACTIONS")];
    expect(await locateWithIcons("le bouton plus d'actions", header, dots, more)).toMatchObject({ found: true, element_id: "dots" });
  });

  it("a name several icons stand for (« messages »): the one seen, a chat's bubbles or a mail's envelope", async () => {
    const f = canvas();
    for (const x of [100, 140]) {
      f.fill([x + 4, 104, x + 20, 120], [40, 40, 40]);
      f.fill([x + 7, 107, x + 17, 117], [255, 255, 255]);
    }
    const els = [el("a", "button", [100, 100, 124, 124], ""), el("b", "button", [140, 100, 164, 124], "")];
    const seeing = (what: string): IconRecognizer => ({ classes: ["chat", "mail", "other"], recognize: async (_f, boxes) => boxes.map((b) => (b[0] >= 140 ? { [what]: 0.97, other: 0.03 } : { other: 0.99 })) });
    expect(await locateWithIcons("le bouton messages", els, f, seeing("mail"))).toMatchObject({ found: true, element_id: "b" });
    expect(await locateWithIcons("the messages button", els, f, seeing("chat"))).toMatchObject({ found: true, element_id: "b" });
    // « mon compte », "my account": a person's silhouette.
    const user: IconRecognizer = { classes: ["user", "other"], recognize: async (_f, boxes) => boxes.map((b) => (b[0] >= 140 ? { user: 0.97, other: 0.03 } : { user: 0.01, other: 0.99 })) };
    expect(await locateWithIcons("le bouton mon compte", els, f, user)).toMatchObject({ found: true, element_id: "b" });
  });

  it("a button named by words a kin element bears is not read as an icon drawn inside an element bearing other words", async () => {
    const f = canvas();
    // A lens (ring and handle) at the start of a search pill the detector typed a button, its box cutting the lens.
    for (let y = 26; y <= 42; y++) for (let x = 664; x <= 682; x++) if (Math.abs(Math.hypot(x - 671, y - 33) - 5) < 1.2) f.fill([x, y, x + 1, y + 1], [40, 40, 40]);
    f.fill([675, 37, 680, 42], [40, 40, 40]);
    const els = [el("pill", "button", [670, 15, 850, 55], "Mot-clé, client"), el("tab", "tab", [219, 313, 342, 344], "RECHERCHER"), el("text:0", "generic_interactive", [690, 27, 820, 43], "Mot-clé, client")];
    // The recognizer sees the lens whole; the pill's own glyph, cut, is nothing.
    const recognizer: IconRecognizer = { classes: ["search", "other"], recognize: async (_f, boxes) => boxes.map((b) => (b[0] < 670 ? { search: 0.99, other: 0.01 } : { search: 0.01, other: 0.99 })) };
    expect(await locateWithIcons("le bouton loupe", els, f, recognizer)).toMatchObject({ found: true, element_id: "icon:0" });
    expect(await locateWithIcons("the RECHERCHER button", els, f, recognizer)).toMatchObject({ found: true, element_id: "tab" });
  });

  it("a rounded frame's corners left inside the margin are not part of an icon", () => {
    const f = canvas();
    // A 24 × 24 icon button at (100, 100): a 12 px icon in its middle, three dark pixels where its frame curves in.
    f.fill([106, 106, 118, 118], [40, 40, 40]);
    f.fill([103, 103, 105, 104], [90, 90, 90]);
    f.fill([103, 104, 104, 105], [90, 90, 90]);
    expect(elementAppearance(f, [100, 100, 124, 124], true).glyph?.bbox).toEqual([106, 106, 118, 118]);
  });

  it("a toggle's own disc read as a lone sign before its caption is not its name's; a list's lines are targets", () => {
    const els = [el("radio", "radio_button", [57, 585, 464, 611], "O J'accepte les conditions générales"), el("box", "checkbox", [44, 693, 448, 726], "J'accepte les conditions générales")];
    expect(locate("the J'accepte les conditions générales radio button", els, screen)).toMatchObject({ found: true, element_id: "radio", ambiguous: false });
    // A list box holding lines the detector boxed no link for: each line a target; a one-line field's words are its own.
    const list = el("list", "text_input", [40, 130, 220, 240], "Gestion des stocks");
    const field = el("field", "text_input", [300, 130, 500, 160], "Paris");
    const lines = textTargets([line("Accueil", [48, 160, 92, 176]), line("Voirla facture", [48, 190, 112, 206]), line("Paris", [306, 136, 350, 154])], [list, field]);
    expect(lines.map((t) => t.label)).toEqual(["Accueil", "Voirla facture"]);
  });

  it("a link boxed as wide as its cell is clicked on its words", () => {
    const f = canvas();
    for (let x = 112; x < 170; x += 4) f.fill([x, 108, x + 2, 122], [30, 90, 200]);
    const links = [el("n", "link", [100, 100, 400, 130], "Nguyen"), el("m", "link", [100, 140, 400, 170], "Martin")];
    const r = locate("le lien Nguyen", links, f);
    expect(r.found && r.point[0]).toBeGreaterThanOrEqual(112);
    expect(r.found && r.point[0]).toBeLessThanOrEqual(170);
    // Without pixels, its box's centre as before.
    expect(locate("le lien Nguyen", links, screen)).toMatchObject({ found: true, point: [250, 115] });
  });

  it("a run of words inside an element labelled with other words (a caption taken for its label) is a target of its own", () => {
    const field = el("f", "text_input", [134, 202, 472, 223], "Priorité:");
    const line = { text: "Recevoir la lettre d'information", bbox: [201, 205, 412, 220] as BBox };
    expect(textTargets([line], [field]).map((t) => t.label)).toEqual(["Recevoir la lettre d'information"]);
    // Its own words, or a value of one or two words, stay the element's.
    expect(textTargets([{ text: "Priorité", bbox: [140, 205, 200, 220] as BBox }, { text: "ACME SARL", bbox: [300, 205, 380, 220] as BBox }], [field])).toEqual([]);
  });

  it("words read on one line with a detected element's are a target of their own", () => {
    const w = (text: string, x0: number, x1: number) => ({ text, bbox: [x0, 10, x1, 34] as BBox });
    const rapports = el("r", "link", [1600, 10, 1686, 36], "Rapports");
    const legal = el("l", "link", [1500, 10, 1600, 36], "Legal notice");
    const targets = textTargets([{ text: "Legal notice Rapports Forgot password?", bbox: [1501, 11, 1843, 35], words: [w("Legal", 1501, 1545), w("notice", 1549, 1600), w("Rapports", 1612, 1685), w("Forgot", 1697, 1755), w("password?", 1760, 1843)] }], [rapports, legal]);
    expect(targets.map((t) => t.label)).toEqual(["Forgot password?"]);
    // A toggle's box read as a dash glued to its caption, on one line with another caption: the toggle's caption alone.
    const dashed = textTargets([{ text: "Email address * -High", bbox: [116, 254, 467, 291], words: [w("Email", 116, 190), w("address", 196, 300), w("*", 306, 316), w("-High", 324, 400)] }], []);
    expect(dashed.map((t) => t.label)).toContain("High");
    const r = locate("the Forgot password? link", [rapports, legal, ...targets], screen);
    expect(r.found && r.point[0]).toBeGreaterThan(1697);
  });

  it("asks an icon recognizer what the glyphs show when an instruction describes an icon (disquette, bouée)", async () => {
    const f = canvas();
    // Three icon-only buttons whose figures no drawn-shape rule names: a filled square, a ring of squares, an L.
    f.fill([112, 112, 128, 128], [40, 40, 40]);
    for (const [x, y] of [[152, 112], [164, 112], [152, 124], [164, 124]] as const) f.fill([x, y, x + 4, y + 4], [40, 40, 40]);
    f.fill([192, 112, 196, 128], [40, 40, 40]);
    f.fill([192, 124, 208, 128], [40, 40, 40]);
    const buttons = [el("a", "button", [100, 100, 140, 140], ""), el("b", "button", [140, 100, 180, 140], ""), el("c", "button", [180, 100, 220, 140], "")];
    const asked: BBox[][] = [];
    // A stand-in recognizer: "save" for the glyph in button b, "help" for c, something else for a.
    const recognizer: IconRecognizer = {
      classes: ["save", "help", "other"],
      recognize: async (_frame, boxes) => {
        asked.push([...boxes]);
        return boxes.map((b) => (b[0] >= 140 && b[2] <= 180 ? { save: 0.9, help: 0.02, other: 0.08 } : b[0] >= 180 ? { save: 0.05, help: 0.8, other: 0.15 } : { save: 0.02, help: 0.03, other: 0.95 }));
      },
    };
    // Without it, three look-alike icon buttons: a guess, said to be ambiguous.
    expect(locate("l'icône de disquette", buttons, f)).toMatchObject({ ambiguous: true });
    expect(await locateWithIcons("l'icône de disquette", buttons, f, recognizer)).toMatchObject({ found: true, element_id: "b", ambiguous: false });
    expect(await locateWithIcons("the lifebuoy icon", buttons, f, recognizer)).toMatchObject({ found: true, element_id: "c", ambiguous: false });
    expect(asked.at(-1)!.length).toBeGreaterThanOrEqual(3);
    // Not asked for an instruction whose target a label matches, nor without pixels.
    const labelled = [...buttons, el("t", "button", [300, 100, 380, 140], "Save")];
    const n = asked.length;
    expect(await locateWithIcons("the Save button", labelled, f, recognizer)).toMatchObject({ found: true, element_id: "t" });
    await locateWithIcons("the floppy disk icon", buttons, screen, recognizer);
    expect(asked.length).toBe(n);
    // A name no label shows, which such an icon stands for: the icon that shows it, only when one is seen.
    expect(await locateWithIcons("click Enregistrer", buttons, f, recognizer)).toMatchObject({ found: true, element_id: "b", icon_seen: true, instruction: { icon: "save" } });
    expect(await locateWithIcons("click Imprimer", buttons, f, recognizer)).toMatchObject({ found: false });
    expect(locate("click Enregistrer", buttons, f)).toMatchObject({ found: false });
    // …or the one that bears such an icon's own label: a window's close button OCR read as "X".
    const closable = [...buttons, el("x", "button", [400, 100, 440, 140], "X")];
    expect(locate("the close button", closable, f)).toMatchObject({ found: true, element_id: "x", icon_named: true, instruction: { icon: "close" } });
    // A name only an element of a kin type bears (a side menu's link « Save »): the button that shows the icon, bearing no
    // other words; not one whose words say something else.
    const kin = [...buttons, el("menu", "link", [20, 300, 200, 330], "Save")];
    expect(await locateWithIcons("the Save button", kin, f, recognizer)).toMatchObject({ found: true, element_id: "b" });
    const worded = [el("menu", "link", [20, 300, 200, 330], "Save"), el("b", "button", [140, 100, 180, 140], "Continuer")];
    expect(await locateWithIcons("the Save button", worded, f, recognizer)).toMatchObject({ found: true, element_id: "menu" });
    // Placed beside something: the icon so named standing there beats the element bearing the name far from it; the
    // thing beside may be named by the words it shows (a search field showing « Search », its caption another).
    const placed = [...buttons, el("save", "button", [700, 700, 780, 730], "Save"), { ...el("field", "text_input", [200, 100, 400, 140], "Preferences"), text: { raw: "Search" } } as LocatableElement];
    expect(await locateWithIcons("le bouton enregistrer à côté de la recherche", placed, f, recognizer)).toMatchObject({ found: true, element_id: "b" });
    // When a command needs a recognizer at all.
    expect([mayAskIcons("the floppy disk icon"), mayAskIcons("click Enregistrer"), mayAskIcons("the play button"), mayAskIcons("the Name field")]).toEqual([true, true, true, false]);
  });
});
