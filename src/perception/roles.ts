// Semantic role, properties and tags of an element from its type and label (French and English
// lexicons), as the design's ElementClassifier describes. Deterministic: no model.
import type { UIElementType } from "../core/schemas/uielement.js";
import { tokenize } from "../core/text.js";

interface RoleRule {
  readonly role: string;
  /** Folded words or phrases; a phrase matches as consecutive tokens. */
  readonly words: readonly string[];
  readonly dangerous?: boolean;
}

// Order matters: the first rule whose word is in the label wins.
const ACTION_RULES: readonly RoleRule[] = [
  { role: "delete", words: ["delete", "remove", "erase", "destroy", "supprimer", "effacer", "retirer", "vider", "purger", "trash", "corbeille"], dangerous: true },
  { role: "pay", words: ["pay", "payer", "paiement", "payment", "checkout", "regler"], dangerous: true },
  { role: "send", words: ["send", "envoyer", "transmettre", "publish", "publier"], dangerous: true },
  { role: "reset", words: ["reset", "reinitialiser", "clear all"], dangerous: true },
  { role: "validate", words: ["validate", "valider", "validation", "confirm", "confirmer", "approve", "approuver", "ok", "accept", "accepter", "agree", "continue", "continuer"] },
  { role: "submit", words: ["submit", "soumettre", "apply", "appliquer", "sign up", "register", "inscrire", "inscription"] },
  { role: "save", words: ["save", "enregistrer", "sauvegarder", "sauver"] },
  { role: "cancel", words: ["cancel", "annuler", "abandonner", "discard", "dismiss", "reject", "refuser"] },
  { role: "close", words: ["close", "fermer", "quit", "quitter", "exit"] },
  { role: "login", words: ["login", "log in", "sign in", "connexion", "connecter", "identifier"] },
  { role: "logout", words: ["logout", "log out", "sign out", "deconnexion", "deconnecter"] },
  { role: "search", words: ["search", "rechercher", "recherche", "chercher", "find", "trouver", "go"] },
  { role: "create", words: ["add", "ajouter", "new", "nouveau", "nouvelle", "create", "creer", "insert", "inserer"] },
  { role: "edit", words: ["edit", "modifier", "editer", "change", "changer", "update", "mettre a jour", "rename", "renommer"] },
  { role: "open", words: ["open", "ouvrir", "browse", "parcourir", "view", "voir", "afficher", "show", "details"] },
  { role: "upload", words: ["upload", "import", "importer", "attach", "joindre", "televerser"] },
  { role: "download", words: ["download", "telecharger", "export", "exporter"] },
  { role: "print", words: ["print", "imprimer"] },
  { role: "next", words: ["next", "suivant", "suivante", "forward"] },
  { role: "previous", words: ["previous", "precedent", "precedente", "back", "retour", "prev"] },
  { role: "help", words: ["help", "aide", "support", "faq"] },
  { role: "settings", words: ["settings", "parametres", "preferences", "options", "configuration", "reglages"] },
  { role: "refresh", words: ["refresh", "reload", "actualiser", "rafraichir"] },
];

const OBJECT_WORDS: Readonly<Record<string, string>> = {
  facture: "invoice", invoice: "invoice", factures: "invoice", invoices: "invoice",
  commande: "order", order: "order", patient: "patient", client: "customer", customer: "customer",
  fichier: "file", file: "file", document: "document", dossier: "folder", folder: "folder",
  paiement: "payment", payment: "payment", message: "message", mail: "message", email: "email",
  formulaire: "form", form: "form", compte: "account", account: "account",
};

const FIELD_RULES: readonly RoleRule[] = [
  { role: "password_field", words: ["password", "mot de passe", "passe", "pin", "passphrase"] },
  { role: "email_field", words: ["email", "e mail", "mail", "courriel"] },
  { role: "search_field", words: ["search", "rechercher", "recherche", "chercher", "find", "filter", "filtrer"] },
  { role: "date_field", words: ["date", "birth", "naissance", "dd mm yyyy", "jj mm aaaa", "day", "jour", "month", "mois", "year", "annee"] },
  { role: "amount_field", words: ["amount", "montant", "price", "prix", "total", "somme"] },
  { role: "name_field", words: ["name", "nom", "prenom", "first name", "last name", "username", "utilisateur", "user"] },
  { role: "phone_field", words: ["phone", "telephone", "tel", "mobile"] },
  { role: "address_field", words: ["address", "adresse", "city", "ville", "postcode", "code postal", "zip"] },
];

const PRIMARY_WORDS = new Set(["validate", "submit", "save", "login", "pay", "send"]);

export interface RoleResult {
  role: string;
  is_clickable: boolean;
  is_focusable: boolean;
  is_dangerous: boolean;
  tags: string[];
}

function has(tokens: readonly string[], phrase: string): boolean {
  const p = phrase.split(" ");
  for (let i = 0; i + p.length <= tokens.length; i++) if (p.every((w, k) => tokens[i + k] === w)) return true;
  return false;
}

function firstRule(rules: readonly RoleRule[], tokens: readonly string[]): RoleRule | undefined {
  return rules.find((r) => r.words.some((w) => has(tokens, w)));
}

/** Role, properties and tags for an element of `type` labelled `label` (any language mix). */
export function describeRole(type: UIElementType, label: string, opts: { filled?: boolean } = {}): RoleResult {
  const tokens = tokenize(label);
  const tags: string[] = [];
  const action = firstRule(ACTION_RULES, tokens);
  const dangerous = !!action?.dangerous;
  const object = tokens.map((t) => OBJECT_WORDS[t]).find((o) => o !== undefined);
  if (object) tags.push(object);
  let role: string;
  switch (type) {
    case "text_input": {
      const f = firstRule(FIELD_RULES, tokens);
      role = f?.role ?? "text_field";
      if (f?.role === "password_field") tags.push("secret");
      break;
    }
    case "dropdown":
      role = "select_field";
      break;
    case "checkbox":
      role = "toggle_option";
      break;
    case "radio_button":
      role = "choice_option";
      break;
    case "tab":
      role = "tab_navigation";
      break;
    case "link":
      role = action ? `${action.role}_link` : "navigation_link";
      break;
    default:
      role = action ? (object ? `${action.role}_${object}` : action.role) : type === "button" ? "action_button" : "interactive";
  }
  if ((type === "button" || type === "generic_interactive") && action && (PRIMARY_WORDS.has(action.role) || opts.filled)) tags.push("primary_action");
  else if (type === "button" && opts.filled && !dangerous && action?.role !== "cancel") tags.push("primary_action");
  if (dangerous) tags.push("dangerous");
  if (action && !tags.includes(action.role)) tags.push(action.role);
  return {
    role,
    is_clickable: true,
    is_focusable: true,
    is_dangerous: dangerous,
    tags,
  };
}

/** True when the folded label contains a dangerous verb (used by replay safety checks too). */
export function isDangerousLabel(label: string): boolean {
  return !!firstRule(ACTION_RULES, tokenize(label))?.dangerous;
}

