import { describe, expect, it } from "vitest";
import { MAX_INSTRUCTION_LENGTH, parseInstruction } from "./locate-parse.js";

describe("instruction parsing: what names the target and what only describes it", () => {
  it("keeps type, position and the verb's value apart from the target's words", () => {
    expect(parseInstruction("le bouton Envoyer en bas à droite")).toEqual({ verb: "click", target: "Envoyer", type: "button", position: { vertical: "bottom", horizontal: "right" } });
    expect(parseInstruction("put 12 in the box right of Quantity")).toEqual({ verb: "type", target: "", type: "text_input", value: "12", relation: { kind: "right_of", anchor: "Quantity" } });
    expect(parseInstruction("the spin box for the customer reference")).toMatchObject({ target: "customer reference", type: "text_input" });
    expect(parseInstruction("le deuxième interrupteur")).toEqual({ verb: "click", target: "", type: "checkbox", ordinal: 2, switch: true });
    expect(parseInstruction("the toggle switch Notifications")).toMatchObject({ target: "Notifications", type: "checkbox", switch: true });
    expect(parseInstruction("the second check box")).not.toHaveProperty("switch");
    // A multi-line field is a field: « multiligne » describes it (a tall one fits best), it names nothing.
    expect(parseInstruction("la zone de texte multiligne en bas")).toEqual({ verb: "click", target: "", type: "text_input", position: { vertical: "bottom" }, multiline: true });
    expect(parseInstruction("the text area")).toEqual({ verb: "click", target: "", type: "text_input", multiline: true });
    expect(parseInstruction("the multiline text box")).toMatchObject({ target: "", type: "text_input" });
    // A pager's links and a slider are named by their kind.
    expect(parseInstruction("go to page 4 in the lower pager")).toEqual({ verb: "click", target: "page 4", type: "link", position: { vertical: "bottom" }, pager: true });
    expect(parseInstruction("le curseur")).toEqual({ verb: "click", target: "", type: "generic_interactive", slider: true });
    expect(parseInstruction("the volume slider")).toMatchObject({ target: "volume", type: "generic_interactive", slider: true });
    // Password words keep naming the target and say the field shows masked text; an anchor's do not.
    expect(parseInstruction("le champ mot de passe de la Société")).toMatchObject({ type: "text_input", masked: true });
    expect(parseInstruction("the Password box")).toMatchObject({ target: "Password", type: "text_input", masked: true });
    expect(parseInstruction("le champ masqué grisé")).toEqual({ verb: "click", target: "", type: "text_input", masked: true, state: "disabled" });
    expect(parseInstruction("the button next to the password field").masked).toBeUndefined();
  });

  it("a field or a link is never ticked nor selected: a state word after its name's first word is part of what it shows", () => {
    expect(parseInstruction("la zone de texte No item selected")).toEqual({ verb: "click", target: "No item selected", type: "text_input" });
    expect(parseInstruction("the link Show all selected")).toMatchObject({ target: "Show all selected", type: "link" });
    expect(parseInstruction("the link Show all selected")).not.toHaveProperty("state");
    // Said of what has such a state, or before the name, it stays a state.
    expect(parseInstruction("l'onglet Général sélectionné")).toMatchObject({ target: "Général", type: "tab", state: "on" });
    expect(parseInstruction("the selected field Name")).toMatchObject({ target: "Name", type: "text_input", state: "on" });
  });

  it("\"next to last\" is a rank before the kind; after it, beside a capitalised name (\"next to Last updated\")", () => {
    expect(parseInstruction("the next to last link")).toMatchObject({ type: "link", ordinal: -2 });
    expect(parseInstruction("the View invoice link next to Last updated")).toMatchObject({ target: "View invoice", type: "link", relation: { kind: "near", anchor: "Last updated" } });
    expect(parseInstruction("the View invoice link next to Last updated").ordinal).toBeUndefined();
  });

  it("\"the menu button\", « le bouton menu »: a button named menu, not a menu bar's item; \"the Tools menu\" stays one", () => {
    expect(parseInstruction("le bouton menu")).toEqual({ verb: "click", target: "menu", type: "button" });
    expect(parseInstruction("the menu button")).toEqual({ verb: "click", target: "menu", type: "button" });
    expect(parseInstruction("the Tools menu")).toMatchObject({ target: "Tools", menu: true });
  });

  it("\"the list view button\": in English the kind closing the phrase is the kind, an earlier kind word part of the name", () => {
    expect(parseInstruction("the list view button")).toEqual({ verb: "click", target: "list view", type: "button" });
    // Nothing between the two kind words: one kind said twice.
    expect(parseInstruction("the dropdown list")).toEqual({ verb: "click", target: "", type: "dropdown" });
    // French says the kind first.
    expect(parseInstruction("le bouton vue liste")).toMatchObject({ type: "button" });
  });

  it("\"in the Orders box\" after a kind said is the group the target is in; \"the Name box\" stays a field", () => {
    expect(parseInstruction("the Supprimer button in the Commande fournisseur box")).toMatchObject({ target: "Supprimer", type: "button", relation: { kind: "inside", anchor: "Commande fournisseur" } });
    expect(parseInstruction("type Smith in the Name box")).toEqual({ verb: "type", target: "Name", type: "text_input", value: "Smith" });
    expect(parseInstruction("click in the Name box")).toEqual({ verb: "click", target: "Name", type: "text_input" });
  });

  it("\"in the General tab\", « dans l'onglet Général »: the page a tab shows is where the target is; a tab named stays a tab", () => {
    expect(parseInstruction("the selected option in the General tab")).toMatchObject({ type: "radio_button", state: "on", relation: { kind: "inside", anchor: "General" } });
    expect(parseInstruction("la case Newsletter dans l'onglet Général")).toMatchObject({ target: "Newsletter", type: "checkbox", relation: { kind: "inside", anchor: "Général" } });
    expect(parseInstruction("the Billing tab")).toEqual({ verb: "click", target: "Billing", type: "tab" });
    expect(parseInstruction("le premier onglet Activity")).toEqual({ verb: "click", target: "Activity", type: "tab", ordinal: 1 });
  });

  it("« grisé » with its accent is the state, « grise » the colour", () => {
    expect(parseInstruction("le bouton radio grisé")).toEqual({ verb: "click", target: "", type: "radio_button", state: "disabled" });
    expect(parseInstruction("la zone grise")).toMatchObject({ colour: "grey" });
    expect(parseInstruction("le bouton gris")).toMatchObject({ colour: "grey" });
  });

  it("a capitalised type or icon word is the name when nothing else is (« le lien Icons », \"the Link button button\"); a menu and the instruction's first word stay what they are", () => {
    expect(parseInstruction("cliquer sur le lien Icons")).toEqual({ verb: "click", target: "Icons", type: "link" });
    expect(parseInstruction("click the Icons link")).toEqual({ verb: "click", target: "Icons", type: "link" });
    expect(parseInstruction("click the Link button button")).toEqual({ verb: "click", target: "Link", type: "button" });
    expect(parseInstruction("Button")).toEqual({ verb: "click", target: "", type: "button" });
    expect(parseInstruction("Open the Menu")).toEqual({ verb: "open", target: "", menu: true });
    expect(parseInstruction("click the Save button")).toEqual({ verb: "click", target: "Save", type: "button" });
  });

  it("a place beside a thing named by its type alone (« à côté du lien »), not by a possessive nor a row", () => {
    expect(parseInstruction("le curseur à côté du lien")).toEqual({ verb: "click", target: "", type: "generic_interactive", slider: true, relation: { kind: "near", anchor: "", anchorType: "link" } });
    expect(parseInstruction("the field under the drop-down")).toMatchObject({ type: "text_input", relation: { kind: "below", anchor: "", anchorType: "dropdown" } });
    expect(parseInstruction("la case de la liste")).not.toHaveProperty("relation");
    // What size it is drawn names nothing (the wide field, « le champ long »).
    expect(parseInstruction("the arrow button next to the wide field")).toMatchObject({ icon: "arrow", relation: { kind: "near", anchor: "", anchorType: "text_input" } });
    expect(parseInstruction("le champ étroit")).toMatchObject({ target: "", type: "text_input" });
  });

  it("a table row named by what it shows is where the target stands, in both languages; a row by rank is the element's rank", () => {
    expect(parseInstruction("the print button in the Da Silva row")).toMatchObject({ target: "print", type: "button", relation: { kind: "row", anchor: "Da Silva" } });
    expect(parseInstruction("le crayon de la ligne Zoë")).toMatchObject({ target: "", icon: "edit", relation: { kind: "row", anchor: "Zoë" } });
    expect(parseInstruction("the three dots on the Smith row")).toMatchObject({ icon: "more", relation: { kind: "row", anchor: "Smith" } });
    expect(parseInstruction("the copy icon on the last row")).toMatchObject({ icon: "copy", ordinal: -1 });
    expect(parseInstruction("the copy icon on the last row").relation).toBeUndefined();
    expect(parseInstruction("the checkbox of the last row")).toMatchObject({ type: "checkbox", ordinal: -1 });
    expect(parseInstruction("la case de la deuxième ligne")).toMatchObject({ type: "checkbox", ordinal: 2 });
    expect(parseInstruction("le champ Adresse ligne 2").relation).toBeUndefined();
    // A French row named in English: its small words are the name's, not a new relation.
    expect(parseInstruction("la case de la ligne Cash on delivery")).toMatchObject({ target: "", type: "checkbox", relation: { kind: "row", anchor: "Cash on delivery" } });
    // A comma between digits is a number's, not the end of the row's name.
    expect(parseInstruction("the print button in the 1 250,00 € row")).toMatchObject({ target: "print", type: "button", relation: { kind: "row", anchor: "1 250 00 €" } });
    expect(parseInstruction("le bouton imprimer de la ligne 1 250,00 €")).toMatchObject({ target: "imprimer", relation: { kind: "row", anchor: "1 250 00 €" } });
    expect(parseInstruction("the Tableau de bord link in the breadcrumb")).toMatchObject({ target: "Tableau de bord", type: "link", breadcrumb: true });
    expect(parseInstruction("le lien Accueil dans le fil d'Ariane")).toEqual({ verb: "click", target: "Accueil", type: "link", breadcrumb: true });
    // Small words between a name's words are the name's.
    expect(parseInstruction("le lien Voir la facture")).toEqual({ verb: "click", target: "Voir la facture", type: "link" });
    // "password" in a link's name says nothing of masked text.
    expect(parseInstruction("the Forgot password? link")).not.toHaveProperty("masked");
    // A titled group, card or section is a place too.
    expect(parseInstruction("l'option Remember me dans le groupe Company")).toMatchObject({ target: "Remember me", type: "radio_button", relation: { kind: "inside", anchor: "Company" } });
    expect(parseInstruction("the drop-down in the Purchase order card")).toMatchObject({ target: "", type: "dropdown", relation: { kind: "inside", anchor: "Purchase order" } });
  });

  it("names the figures of toolbars and tables in both languages (funnel, share, check mark, window, eye, chain, clock…)", () => {
    expect(parseInstruction("the filter icon")).toMatchObject({ icon: "filter" });
    expect(parseInstruction("l'entonnoir")).toMatchObject({ target: "", icon: "filter" });
    expect(parseInstruction("the share icon")).toMatchObject({ target: "", icon: "share" });
    expect(parseInstruction("the check mark button")).toMatchObject({ target: "", icon: "check" });
    expect(parseInstruction("l'icône plein écran")).toMatchObject({ target: "", icon: "maximize" });
    expect(parseInstruction("l'œil de la ligne Smith")).toMatchObject({ icon: "eye", relation: { kind: "row", anchor: "Smith" } });
    expect(parseInstruction("the paperclip")).toMatchObject({ icon: "attach" });
    expect(parseInstruction("l'horloge en haut")).toMatchObject({ icon: "clock" });
    expect(parseInstruction("the back arrow button")).toMatchObject({ target: "", icon: "previous" });
    expect(parseInstruction("la flèche précédente de la pagination")).toMatchObject({ target: "", icon: "previous", pager: true });
    expect(parseInstruction("la flèche suivante")).toMatchObject({ target: "", icon: "next" });
    // Every class the icon classifier knows has its words: a sheet of paper, a circled i.
    expect(parseInstruction("the new document icon")).toMatchObject({ target: "", icon: "file" });
    expect(parseInstruction("l'icône info")).toMatchObject({ target: "", icon: "info" });
    expect(parseInstruction("the Documents tab")).toMatchObject({ target: "Documents", type: "tab" });
    // A label that is also a picture's name stays a label where nothing says "icon".
    expect(parseInstruction("the Tags field")).toMatchObject({ target: "Tags", type: "text_input" });
    expect(parseInstruction("the Tags field").icon).toBeUndefined();
  });

  it("« l'icône de la loupe »: the icon's own picture, not a thing beside it; « à côté de la loupe » stays beside", () => {
    expect(parseInstruction("l'icône de la loupe")).toMatchObject({ target: "", icon: "search" });
    expect(parseInstruction("l'icône de la loupe").relation).toBeUndefined();
    expect(parseInstruction("the icon of a gear")).toMatchObject({ icon: "settings" });
    expect(parseInstruction("l'icône à côté de la loupe").icon).toBeUndefined();
  });

  it("reads ranks in both languages, the last and the next-to-last", () => {
    expect(parseInstruction("the second City list, on the right")).toMatchObject({ target: "City", type: "dropdown", ordinal: 2, position: { horizontal: "right" } });
    expect(parseInstruction("la dernière case à cocher de la liste")).toMatchObject({ target: "", type: "checkbox", ordinal: -1 });
    expect(parseInstruction("l'avant-dernier onglet")).toMatchObject({ type: "tab", ordinal: -2 });
    expect(parseInstruction("le premier champ")).toMatchObject({ type: "text_input", ordinal: 1 });
  });

  it("a UI phrase that starts with a rank word names the target ('Last name', « Prénom »)", () => {
    expect(parseInstruction("the Last name field")).toEqual({ verb: "click", target: "Last name", type: "text_input" });
    expect(parseInstruction("the first name field")).toEqual({ verb: "click", target: "first name", type: "text_input" });
  });

  it("« champ de texte », 'input field' name a field's kind, not its name; what a shape looks like is said, not named", () => {
    expect(parseInstruction("le champ de texte Adresse")).toEqual({ verb: "click", target: "Adresse", type: "text_input" });
    expect(parseInstruction("le champ texte Nom")).toMatchObject({ target: "Nom", type: "text_input" });
    expect(parseInstruction("the input field next to City")).toMatchObject({ target: "", type: "text_input", relation: { kind: "near", anchor: "City" } });
    expect(parseInstruction("le bouton en forme de roue dentée")).toEqual({ verb: "click", target: "", type: "button", icon: "settings" });
    expect(parseInstruction("le bouton en forme d'engrenage")).toMatchObject({ target: "", icon: "settings" });
    expect(parseInstruction("the button shaped like a gear")).toMatchObject({ target: "", type: "button", icon: "settings" });
    expect(parseInstruction("the gear-shaped button")).toMatchObject({ target: "", icon: "settings" });
    expect(parseInstruction("the Like button")).toMatchObject({ target: "Like", type: "button" });
  });

  it("the page or the window a place is on is no anchor; a menu named Window still is its own name", () => {
    expect(parseInstruction("le bouton en haut de la page")).toEqual({ verb: "click", target: "", type: "button", position: { vertical: "top" } });
    expect(parseInstruction("the button at the top of the page")).toEqual({ verb: "click", target: "", type: "button", position: { vertical: "top" } });
    expect(parseInstruction("le bouton Fermer de la fenêtre")).toEqual({ verb: "click", target: "Fermer", type: "button" });
    expect(parseInstruction("the Close button of the window")).toEqual({ verb: "click", target: "Close", type: "button" });
    expect(parseInstruction("open the Window menu")).toMatchObject({ target: "Window", menu: true });
    expect(parseInstruction("le menu Fenêtre")).toMatchObject({ target: "Fenêtre", menu: true });
    expect(parseInstruction("the Save button of the dialog")).toMatchObject({ target: "Save", type: "button" });
    // A list named as the place of its item is not the item's type; a list named by its name is a drop-down.
    expect(parseInstruction("Dashboard in the list")).toEqual({ verb: "click", target: "Dashboard" });
    expect(parseInstruction("Commandes dans la liste")).toEqual({ verb: "click", target: "Commandes" });
    expect(parseInstruction("the Country list")).toEqual({ verb: "click", target: "Country", type: "dropdown" });
    // « plus d'actions » is a UI phrase (more actions), not a plus sign.
    expect(parseInstruction("le bouton plus d'actions")).toEqual({ verb: "click", target: "plus d actions", type: "button" });
    expect(parseInstruction("le bouton plus")).toMatchObject({ icon: "add" });
    // A box the verb ticks is a check box; "check" names a check mark where nothing bears the word.
    expect(parseInstruction("check the Remember me box")).toEqual({ verb: "check", target: "Remember me", type: "checkbox" });
    expect(parseInstruction("uncheck the Newsletter box")).toEqual({ verb: "uncheck", target: "Newsletter", type: "checkbox" });
  });

  it("describes icons by what they depict, and takes UI words for icons only when an icon is spoken of", () => {
    expect(parseInstruction("the floppy disk icon in the toolbar")).toEqual({ verb: "click", target: "", icon: "save", region: "top" });
    expect(parseInstruction("l'icône loupe dans la barre d'outils")).toMatchObject({ target: "", icon: "search", region: "top" });
    expect(parseInstruction("la flèche verte vers la droite")).toMatchObject({ target: "", icon: "arrow", colour: "green", direction: "right" });
    expect(parseInstruction("the gear icon top right")).toMatchObject({ icon: "settings", position: { vertical: "top", horizontal: "right" } });
    expect(parseInstruction("the Print button")).toEqual({ verb: "click", target: "Print", type: "button" });
    expect(parseInstruction("the print icon")).toMatchObject({ target: "", icon: "print" });
    expect(parseInstruction("le bouton moins")).toMatchObject({ target: "", type: "button", icon: "remove" });
  });

  it("colours, in French agreement too", () => {
    expect(parseInstruction("le bouton rouge Appliquer")).toEqual({ verb: "click", target: "Appliquer", type: "button", colour: "red" });
    expect(parseInstruction("the grey Télécharger button")).toMatchObject({ target: "Télécharger", colour: "grey" });
    expect(parseInstruction("la flèche verte")).toMatchObject({ colour: "green", icon: "arrow" });
  });

  it("a relation takes the words after it as its anchor, up to a comma, with the anchor's own rank and type", () => {
    expect(parseInstruction("the password field next to the second Deadline, on the right")).toEqual({
      verb: "click",
      target: "password",
      type: "text_input",
      position: { horizontal: "right" },
      relation: { kind: "near", anchor: "Deadline", anchorOrdinal: 2 },
      masked: true,
    });
    expect(parseInstruction("le bouton Exporter à droite de la date")).toMatchObject({ target: "Exporter", relation: { kind: "right_of", anchor: "date" } });
    expect(parseInstruction("the printer icon next to the privacy policy link")).toMatchObject({ icon: "print", relation: { kind: "near", anchor: "privacy policy", anchorType: "link" } });
    // A kind named in the plural is the place (« sous les onglets »), not part of the target's name.
    expect(parseInstruction("le bouton copier sous les onglets")).toEqual({ verb: "click", target: "copier", type: "button", relation: { kind: "below", anchor: "", anchorType: "tab" } });
    expect(parseInstruction("the copy button below the tabs")).toMatchObject({ target: "copy", relation: { kind: "below", anchorType: "tab" } });
    // Which of the rows so named: an ordinal before the row's name, in English and in French.
    expect(parseInstruction("the pencil in the last Nguyen row")).toEqual({ verb: "click", target: "", icon: "edit", relation: { kind: "row", anchor: "Nguyen", anchorOrdinal: -1 } });
    expect(parseInstruction("la case de la deuxième ligne Nguyen")).toEqual({ verb: "click", target: "", type: "checkbox", relation: { kind: "row", anchor: "Nguyen", anchorOrdinal: 2 } });
    // A place, not a thing: no relation.
    expect(parseInstruction("le lien Accueil dans la barre du haut")).toEqual({ verb: "click", target: "Accueil", type: "link", region: "top" });
  });

  it("an English possessive is read as 'of'; a UI phrase keeps its small words; politeness names nothing", () => {
    expect(parseInstruction("the last row's checkbox")).toEqual({ verb: "click", target: "", type: "checkbox", ordinal: -1 });
    expect(parseInstruction("the Dupont row's print icon")).toMatchObject({ icon: "print", relation: { kind: "row", anchor: "Dupont" } });
    expect(parseInstruction("l'interrupteur Intitulé du poste")).toMatchObject({ target: "Intitulé du poste", type: "checkbox" });
    expect(parseInstruction("le champ Mot de passe")).toMatchObject({ target: "Mot de passe", masked: true });
    expect(parseInstruction("cliquez sur OK s'il vous plaît")).toEqual({ verb: "click", target: "OK" });
    expect(parseInstruction("l'icône de téléchargement")).toEqual({ verb: "click", target: "", icon: "download" });
  });

  it("states and pagers are read apart from the target's words", () => {
    expect(parseInstruction("the checked checkbox")).toEqual({ verb: "click", target: "", type: "checkbox", state: "on" });
    expect(parseInstruction("la case non cochée")).toEqual({ verb: "click", target: "", type: "checkbox", state: "off" });
    // A button is not ticked: « coche » without its accent is the noun (a check mark); « coché » stays the state.
    expect(parseInstruction("le bouton coche")).toEqual({ verb: "click", target: "", type: "button", icon: "check" });
    expect(parseInstruction("le bouton coché")).toEqual({ verb: "click", target: "", type: "button", state: "on" });
    // A chevron is an arrowhead (never a download's arrow onto its tray); an arrow is any.
    expect(parseInstruction("le chevron vers le bas")).toEqual({ verb: "click", target: "", icon: "chevron", direction: "down" });
    // …its direction said by a bare word beside it.
    expect(parseInstruction("the up chevron button")).toEqual({ verb: "click", target: "", type: "button", icon: "chevron", direction: "up" });
    expect(parseInstruction("the chevron down")).toEqual({ verb: "click", target: "", icon: "chevron", direction: "down" });
    // A capitalised word in a place's name is a name, whatever else it may mean (« Dossier » is no folder icon here).
    expect(parseInstruction("the small drop-down in the Dossier patient card")).toEqual({ verb: "click", target: "", type: "dropdown", relation: { kind: "inside", anchor: "Dossier patient" } });
    // A box said ticked or not is a check box; an empty box stays a field.
    expect(parseInstruction("the unchecked Notifications box")).toEqual({ verb: "click", target: "Notifications", type: "checkbox", state: "off" });
    expect(parseInstruction("the empty box")).toMatchObject({ type: "text_input", state: "off" });
    expect(parseInstruction("l'onglet actif")).toMatchObject({ type: "tab", state: "on" });
    expect(parseInstruction("the greyed out Save button")).toMatchObject({ target: "Save", type: "button", state: "disabled" });
    expect(parseInstruction("the next page arrow in the pagination")).toMatchObject({ icon: "next", pager: true });
    expect(parseInstruction("la page 3 de la pagination")).toEqual({ verb: "click", target: "page 3", pager: true });
    // (A side bar is a region: the column of items along the window's left edge.)
    expect(parseInstruction("Customers in the sidebar")).toEqual({ verb: "click", target: "Customers", region: "side" });
  });

  it("'menu' asks for a menu entry, not a drop-down, even after 'open'", () => {
    expect(parseInstruction("open the Tools menu")).toEqual({ verb: "open", target: "Tools", menu: true });
    expect(parseInstruction("ouvrir la liste Mutuelle")).toEqual({ verb: "open", target: "Mutuelle", type: "dropdown" });
    // "switch to" is a verb here, not a toggle switch.
    expect(parseInstruction("switch to the page 2 tab")).toEqual({ verb: "click", target: "page 2", type: "tab" });
  });

  it("an icon asked by what it stands for is that icon; words saying what a described icon stands for name nothing more", () => {
    expect(parseInstruction("the search icon in the top bar")).toEqual({ verb: "click", target: "", icon: "search", region: "top" });
    expect(parseInstruction("l'icône des messages")).toEqual({ verb: "click", target: "", icon: "chat" });
    expect(parseInstruction("the notifications bell")).toEqual({ verb: "click", target: "", icon: "bell" });
    expect(parseInstruction("la loupe de recherche")).toEqual({ verb: "click", target: "", icon: "search" });
    // « la coche », the noun after an article with no kind said, is a check mark drawn; « la case cochée » a ticked box.
    expect(parseInstruction("la coche de confirmation")).toEqual({ verb: "click", target: "", icon: "check" });
    expect(parseInstruction("la case cochée")).toEqual({ verb: "click", target: "", type: "checkbox", state: "on" });
    // An arrow named by what it does is that figure; a capitalised word stays a name.
    expect(parseInstruction("the download arrow in the Dupont row")).toEqual({ verb: "click", target: "", icon: "download", relation: { kind: "row", anchor: "Dupont" } });
    expect(parseInstruction("la flèche suivante")).toEqual({ verb: "click", target: "", icon: "next" });
    expect(parseInstruction("the Export arrow")).toMatchObject({ target: "Export", icon: "arrow" });
    // Without the word "icon", or quoted, the words are a name.
    expect(parseInstruction("the search field")).toMatchObject({ target: "search", type: "text_input" });
    expect(parseInstruction('the "Search" icon')).toMatchObject({ target: "Search" });
  });

  it("a window, dialog or form named by its title is a place the target is in", () => {
    expect(parseInstruction("OK in the invoice dialog")).toEqual({ verb: "click", target: "OK", relation: { kind: "inside", anchor: "invoice" } });
    expect(parseInstruction("le bouton OK de la fenêtre Facture")).toMatchObject({ target: "OK", type: "button", relation: { kind: "inside", anchor: "Facture" } });
    expect(parseInstruction("le bouton OK dans la boîte de dialogue Facture")).toMatchObject({ target: "OK", type: "button", relation: { kind: "inside", anchor: "Facture" } });
    expect(parseInstruction("the Name field in the Billing form")).toMatchObject({ target: "Name", type: "text_input", relation: { kind: "inside", anchor: "Billing" } });
    // Closed by its verb: "close the Gestion des stocks dialog" is the close control on its title's line (small words
    // joining its name's).
    expect(parseInstruction("close the Gestion des stocks dialog")).toEqual({ verb: "click", target: "", icon: "close", relation: { kind: "row", anchor: "Gestion des stocks" } });
    expect(parseInstruction("fermer la fenêtre Facture")).toEqual({ verb: "click", target: "", icon: "close", relation: { kind: "row", anchor: "Facture" } });
    // A title bar's control: "the close button of the window", "minimize the window" are its icons, at the top; written
    // with a capital, the name a button shows.
    expect(parseInstruction("the close button of the window")).toEqual({ verb: "click", target: "", type: "button", icon: "close", region: "title" });
    expect(parseInstruction("le bouton pour réduire la fenêtre")).toEqual({ verb: "click", target: "", type: "button", icon: "remove", region: "title" });
    expect(parseInstruction("the OK button of the window")).toEqual({ verb: "click", target: "OK", type: "button" });
    expect(parseInstruction("the X button of the window")).toEqual({ verb: "click", target: "", type: "button", icon: "close", region: "title" });
    // A card's own controls, said by what they do, on its title's line; another button in it, anywhere in it.
    expect(parseInstruction("le bouton réduire de la carte Direct Chat")).toEqual({ verb: "click", target: "", type: "button", icon: "remove", relation: { kind: "row", anchor: "Direct Chat" } });
    expect(parseInstruction("the Delete button in the Shipping section")).toEqual({ verb: "click", target: "Delete", type: "button", relation: { kind: "inside", anchor: "Shipping" } });
    // A name after the place word keeps its small words; an icon drawn as such a control (a cross) is one too.
    expect(parseInstruction("la croix de la fenêtre Gestion des stocks")).toEqual({ verb: "click", target: "", icon: "close", relation: { kind: "row", anchor: "Gestion des stocks" } });
    expect(parseInstruction("le bouton OK de la fenêtre Gestion des stocks")).toEqual({ verb: "click", target: "OK", type: "button", relation: { kind: "inside", anchor: "Gestion des stocks" } });
    expect(parseInstruction("the trash icon in the Invoice card")).toMatchObject({ icon: "delete", relation: { kind: "inside", anchor: "Invoice" } });
    // Unnamed, it is no place.
    expect(parseInstruction("the OK button in the dialog")).toEqual({ verb: "click", target: "OK", type: "button" });
    // The window a title bar's button acts on is not part of its name; a menu named Window is.
    expect(parseInstruction("maximize the window")).toEqual({ verb: "click", target: "", icon: "maximize", region: "title" });
    expect(parseInstruction("open the Window menu")).toEqual({ verb: "open", target: "Window", menu: true });
  });

  it("a row said by its number may be one whose words say so, else the nth", () => {
    expect(parseInstruction("the delete button in row 3")).toMatchObject({ target: "delete", type: "button", relation: { kind: "row", anchor: "row 3", rowNumber: 3 } });
    expect(parseInstruction("la case de la ligne 2")).toMatchObject({ type: "checkbox", relation: { kind: "row", anchor: "ligne 2", rowNumber: 2 } });
    expect(parseInstruction("the pencil in the Smith row").relation).toEqual({ kind: "row", anchor: "Smith" });
    expect(parseInstruction("le champ Adresse ligne 2")).not.toHaveProperty("relation");
  });

  it("quoted targets keep their words; the rest is still read", () => {
    expect(parseInstruction("click « Valider la facture » at the bottom")).toEqual({ verb: "click", target: "Valider la facture", position: { vertical: "bottom" } });
  });

  it("bounds untrusted input: long or hostile text is cut and parsed in linear time", () => {
    const hostile = `${"de la ".repeat(20000)}${"à côté de ".repeat(20000)}« ${"a".repeat(50000)}`;
    const t0 = performance.now();
    const p = parseInstruction(hostile);
    expect(performance.now() - t0).toBeLessThan(500);
    expect(p.target.length).toBeLessThanOrEqual(MAX_INSTRUCTION_LENGTH);
    expect(parseInstruction("")).toEqual({ verb: "click", target: "" });
    expect(parseInstruction("«»\"\"“”''")).toEqual({ verb: "click", target: "" });
  });
});
