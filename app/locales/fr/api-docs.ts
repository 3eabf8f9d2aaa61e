/** French texts of the API documentation page (/api/docs; issue 26, decision 0124), spread into ./translation.ts. */
const texts = {
  "api-docs": {
    "lien-pied": "Documentation de l'API",
    title: "Documentation de l'API",
    intro:
      "L'API JSON de Sillon permet à un logiciel, un entrepôt de données ou un script de lire et d'écrire les dossiers, exploitations, parcelles et interventions sans navigateur. Chaque appel porte l'en-tête Authorization: Bearer suivi d'un jeton.",
    "jeton-titre": "Obtenir un jeton",
    "jeton-connexion":
      "par l'appel de connexion POST /api/v1/login_check, avec votre nom d'utilisateur et votre mot de passe (le jeton expire au bout de 12 heures et est révoqué à la déconnexion) ;",
    "jeton-personnel": "ou par un jeton d'accès personnel, en lecture seule ou en lecture et écriture, créé sur votre page de profil :",
    "page-profil": "Mon profil",
    document: "Le document OpenAPI 3.1 décrit ci-dessous est aussi disponible tel quel :",
    "langue-bibliotheque": "La description des appels ci-dessous est affichée par Swagger UI, en anglais.",
    chargement: "Chargement de la description des appels…",
    echec: "La description des appels n'a pas pu être affichée. Le document OpenAPI reste disponible à l'adresse ci-dessus.",
    retour: "Retour à l'application",
  },
};
export default texts;
