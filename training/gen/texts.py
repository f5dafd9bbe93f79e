"""Labels of realistic lengths in French and English (accents included) for the generators."""
import random

FR_ACTIONS = ["Valider", "Annuler", "Enregistrer", "Supprimer", "Modifier", "Ajouter", "Rechercher", "Fermer", "Suivant",
              "Précédent", "Télécharger", "Envoyer", "Imprimer", "Exporter", "Importer", "Créer un dossier", "Réinitialiser",
              "Appliquer", "Continuer", "Se connecter", "Déconnexion", "Payer la facture", "Générer le rapport", "Actualiser",
              "Dupliquer", "Archiver", "Confirmer la commande", "Éditer", "Aperçu", "Ouvrir", "Clôturer", "Répondre à tous"]
EN_ACTIONS = ["OK", "Cancel", "Save", "Delete", "Edit", "Add", "Search", "Close", "Next", "Back", "Download", "Send",
              "Print", "Export", "Import", "New folder", "Reset", "Apply", "Continue", "Sign in", "Log out", "Pay invoice",
              "Generate report", "Refresh", "Duplicate", "Archive", "Confirm order", "Preview", "Open", "Submit", "Reply all",
              "Upload file", "Save changes", "Discard"]
FR_FIELDS = ["Nom", "Prénom", "Adresse e-mail", "Téléphone", "Société", "Code postal", "Ville", "Pays", "Numéro de facture",
             "Montant TTC", "Date d'échéance", "Référence client", "Mot de passe", "Commentaire", "Département", "Intitulé du poste",
             "N° de sécurité sociale", "Quantité", "Prix unitaire (€)", "Remise", "Catégorie", "Priorité", "Échéance", "Fournisseur"]
EN_FIELDS = ["Name", "First name", "Email address", "Phone", "Company", "Postcode", "City", "Country", "Invoice number",
             "Amount", "Due date", "Customer reference", "Password", "Comment", "Department", "Job title", "Quantity",
             "Unit price", "Discount", "Category", "Priority", "Deadline", "Supplier", "Username", "Account ID"]
FR_OPTIONS = ["Se souvenir de moi", "Recevoir la lettre d'information", "J'accepte les conditions générales", "Activer les notifications",
              "Mode hors ligne", "Facturation annuelle", "Expédition rapide", "Paiement à la livraison", "Afficher les détails",
              "Inclure la TVA", "Envoyer une copie", "Tâche récurrente", "Élevée", "Moyenne", "Basse", "Oui", "Non", "Particulier",
              "Professionnel", "Virement bancaire", "Carte bancaire", "Chèque"]
EN_OPTIONS = ["Remember me", "Subscribe to newsletter", "I agree to the terms", "Enable notifications", "Offline mode",
              "Annual billing", "Express shipping", "Cash on delivery", "Show details", "Include VAT", "Send me a copy",
              "Recurring task", "High", "Medium", "Low", "Yes", "No", "Personal", "Business", "Bank transfer", "Credit card", "Cheque"]
FR_TABS = ["Général", "Détails", "Historique", "Paramètres", "Facturation", "Contacts", "Documents", "Sécurité", "Avancé", "Résumé", "Notes"]
EN_TABS = ["General", "Details", "History", "Settings", "Billing", "Contacts", "Documents", "Security", "Advanced", "Summary", "Notes", "Activity"]
FR_LINKS = ["Mot de passe oublié ?", "En savoir plus", "Voir la facture", "Mentions légales", "Aide", "Créer un compte",
            "Politique de confidentialité", "Conditions d'utilisation", "Accueil", "Tableau de bord", "Clients", "Rapports"]
EN_LINKS = ["Forgot password?", "Learn more", "View invoice", "Legal notice", "Help", "Create an account", "Privacy policy",
            "Terms of use", "Home", "Dashboard", "Customers", "Reports", "Documentation", "Contact us"]
FR_MENUS = ["Fichier", "Édition", "Affichage", "Insertion", "Outils", "Fenêtre", "Aide", "Format"]
EN_MENUS = ["File", "Edit", "View", "Insert", "Tools", "Window", "Help", "Format", "Go", "Run"]
FR_TITLES = ["Nouvelle facture", "Fiche client", "Préférences", "Saisie des heures", "Commande fournisseur", "Dossier patient",
             "Paramètres du compte", "Réservation", "Note de frais", "Gestion des stocks"]
EN_TITLES = ["New invoice", "Customer record", "Preferences", "Timesheet", "Purchase order", "Patient file", "Account settings",
             "Booking", "Expense report", "Inventory"]
FR_TEXT = ["Veuillez vérifier les informations ci-dessous avant de valider.", "Les champs marqués d'un astérisque sont obligatoires.",
           "Dernière mise à jour : 12 février 2025", "Total à payer", "Aucun élément sélectionné", "Statut : en attente de validation"]
EN_TEXT = ["Please check the information below before submitting.", "Fields marked with an asterisk are required.",
           "Last updated: 12 February 2025", "Total due", "No item selected", "Status: awaiting approval"]
NAMES = ["Dupont", "Martin", "Lefèvre", "Girard", "Müller", "Smith", "Johnson", "Nguyen", "Da Silva", "Bérénice", "Zoë", "François"]
VALUES = ["Jean Dupont", "jean.dupont@exemple.fr", "06 12 34 56 78", "1 250,00 €", "FAC-2025-00123", "Paris", "75011",
          "john.smith@example.com", "42", "2025-03-14", "ACME SARL", "Hélène Lefèvre", "London", ""]


class Texts:
    """Picks labels in one language (per window), sometimes mixing."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.fr = rng.random() < 0.5

    def _pick(self, fr, en):
        return self.rng.choice(fr if (self.fr if self.rng.random() > 0.1 else not self.fr) else en)

    def action(self):
        return self._pick(FR_ACTIONS, EN_ACTIONS)

    def field(self):
        return self._pick(FR_FIELDS, EN_FIELDS)

    def option(self):
        return self._pick(FR_OPTIONS, EN_OPTIONS)

    def tab(self):
        return self._pick(FR_TABS, EN_TABS)

    def link(self):
        return self._pick(FR_LINKS, EN_LINKS)

    def menu(self):
        return self._pick(FR_MENUS, EN_MENUS)

    def title(self):
        return self._pick(FR_TITLES, EN_TITLES)

    def sentence(self):
        return self._pick(FR_TEXT, EN_TEXT)

    def value(self):
        return self.rng.choice(VALUES)

    def name(self):
        return self.rng.choice(NAMES)

    def distinct(self, fn, n):
        out, tries = [], 0
        while len(out) < n and tries < 50:
            t = fn()
            tries += 1
            if t not in out:
                out.append(t)
        return out
