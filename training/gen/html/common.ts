// Shared by the HTML generators: seeded randomness, the words and values pages are made of, and a kit's interface.
// A small seeded generator (mulberry32 over a string hash), so page i is the same on every run.
export function rngFor(seed: string): () => number {
  let h = 1779033703 ^ seed.length;
  for (let i = 0; i < seed.length; i++) {
    h = Math.imul(h ^ seed.charCodeAt(i), 3432918353);
    h = (h << 13) | (h >>> 19);
  }
  let a = h >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const T = {
  fr: {
    action: ["Valider", "Annuler", "Enregistrer", "Supprimer", "Modifier", "Ajouter", "Rechercher", "Fermer", "Suivant", "Précédent", "Télécharger", "Envoyer", "Exporter", "Créer un compte", "Se connecter", "Payer la facture", "Générer le rapport", "Actualiser", "Confirmer la commande", "Aperçu", "Réinitialiser"],
    field: ["Nom", "Prénom", "Adresse e-mail", "Téléphone", "Société", "Code postal", "Ville", "Numéro de facture", "Montant TTC", "Date d'échéance", "Référence client", "Mot de passe", "Commentaire", "Quantité", "Prix unitaire (€)", "Catégorie", "Priorité", "Fournisseur"],
    option: ["Se souvenir de moi", "Recevoir la lettre d'information", "J'accepte les conditions générales", "Activer les notifications", "Facturation annuelle", "Expédition rapide", "Paiement à la livraison", "Inclure la TVA", "Élevée", "Moyenne", "Basse", "Particulier", "Professionnel", "Virement bancaire", "Carte bancaire"],
    tab: ["Général", "Détails", "Historique", "Paramètres", "Facturation", "Contacts", "Documents", "Sécurité", "Avancé", "Résumé"],
    link: ["Mot de passe oublié ?", "En savoir plus", "Voir la facture", "Mentions légales", "Aide", "Accueil", "Tableau de bord", "Clients", "Rapports", "Commandes", "Produits", "Paramètres"],
    title: ["Nouvelle facture", "Fiche client", "Préférences", "Commande fournisseur", "Dossier patient", "Paramètres du compte", "Réservation", "Note de frais", "Gestion des stocks"],
    text: ["Veuillez vérifier les informations ci-dessous avant de valider.", "Les champs marqués d'un astérisque sont obligatoires.", "Dernière mise à jour : 12 février 2025", "Aucun élément sélectionné", "Statut : en attente de validation"],
  },
  en: {
    action: ["OK", "Cancel", "Save", "Delete", "Edit", "Add", "Search", "Close", "Next", "Back", "Download", "Send", "Export", "Create account", "Sign in", "Pay invoice", "Generate report", "Refresh", "Confirm order", "Preview", "Submit", "Save changes"],
    field: ["Name", "First name", "Email address", "Phone", "Company", "Postcode", "City", "Invoice number", "Amount", "Due date", "Customer reference", "Password", "Comment", "Quantity", "Unit price", "Category", "Priority", "Supplier", "Username"],
    option: ["Remember me", "Subscribe to newsletter", "I agree to the terms", "Enable notifications", "Annual billing", "Express shipping", "Cash on delivery", "Include VAT", "High", "Medium", "Low", "Personal", "Business", "Bank transfer", "Credit card"],
    tab: ["General", "Details", "History", "Settings", "Billing", "Contacts", "Documents", "Security", "Advanced", "Summary", "Activity"],
    link: ["Forgot password?", "Learn more", "View invoice", "Legal notice", "Help", "Home", "Dashboard", "Customers", "Reports", "Orders", "Products", "Settings", "Documentation"],
    title: ["New invoice", "Customer record", "Preferences", "Purchase order", "Patient file", "Account settings", "Booking", "Expense report", "Inventory"],
    text: ["Please check the information below before submitting.", "Fields marked with an asterisk are required.", "Last updated: 12 February 2025", "No item selected", "Status: awaiting approval"],
  },
};
export const VALUES = ["Jean Dupont", "jean.dupont@exemple.fr", "06 12 34 56 78", "1 250,00 €", "FAC-2025-00123", "Paris", "75011", "john.smith@example.com", "42", "ACME SARL", "Hélène Lefèvre", "London", ""];
export const NAMES = ["Dupont", "Martin", "Lefèvre", "Girard", "Müller", "Smith", "Johnson", "Nguyen", "Da Silva", "Zoë", "François"];

export class Pick {
  private n = 0;
  constructor(readonly r: () => number, readonly fr: boolean) {}
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.r() * (hi - lo + 1));
  }
  one<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.r() * xs.length)]!;
  }
  chance(p: number): boolean {
    return this.r() < p;
  }
  t(kind: keyof (typeof T)["fr"]): string {
    return this.one(T[this.fr !== this.chance(0.1) ? "fr" : "en"][kind]);
  }
  distinct(kind: keyof (typeof T)["fr"], k: number): string[] {
    const out = new Set<string>();
    for (let i = 0; i < 40 && out.size < k; i++) out.add(this.t(kind));
    return [...out];
  }
  id(): string {
    return `f${++this.n}`;
  }
}

export const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;");

/** One framework's markup for each component. */
export interface Kit {
  name: string;
  css: string[];
  dark?: { html: string };
  button(p: Pick, label: string, primary: boolean): string;
  input(p: Pick): string;
  select(p: Pick): string;
  check(p: Pick, radio: boolean, name: string, label: string, checked: boolean): string;
  switch?(p: Pick, label: string, checked: boolean): string;
  tabs(p: Pick, names: string[], active: number): string;
  nav(p: Pick, brand: string, links: string[]): string;
  card(title: string, body: string): string;
  table: string;
  pager(pages: number, active: number): string;
  breadcrumb(items: string[]): string;
  modal?(title: string, body: string, footer: string): string;
  container: string;
  // For pages from index 2000 on (training/gen/html/layouts.ts); a kit without one gets a generic stand-in.
  /** Style sheets and extra markup chosen per page (a theme among several, generated CSS) instead of css. */
  theme?(p: Pick, dark: boolean): Theme;
  /** A bare search field (top bars, toolbars). */
  search?(p: Pick, placeholder: string): string;
  /** A field with a button attached to its side. */
  group?(p: Pick, placeholder: string, button: string): string;
  /** Vertical navigation (links or pills) for a side bar. */
  sidenav?(p: Pick, links: string[], active: number): string;
  /** A top bar: brand, then tools (search, icon buttons) on the right. */
  topbar?(p: Pick, brand: string, tools: string): string;
  /** A button that shows only an icon (svg); label is its accessible name. */
  iconButton?(p: Pick, svg: string, label: string): string;
  /** A switch with no caption of its own (aria-label), for settings rows. */
  switchBare?(p: Pick, label: string, checked: boolean): string;
  /** Desktop-looking kits put the page in a window with a title bar. */
  frame?(p: Pick, title: string, body: string): string;
  /** Class of a small bordered box (dashboard tiles) when not a card. */
  tile?(title: string, body: string): string;
}

/** Per page style: style sheets (package paths), extra <head> markup, attributes of <html> and <body>. */
export interface Theme {
  css: string[];
  head?: string;
  html?: string;
  body?: string;
  /** The page is dark (a dark theme, whatever was asked). */
  dark?: boolean;
  name?: string;
}

export const disabled = (p: Pick) => (p.chance(0.07) ? " disabled" : "");
