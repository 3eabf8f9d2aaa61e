/** English texts of the API documentation page (/api/docs; issue 26, decision 0124), spread into ./translation.ts. */
const texts = {
  "api-docs": {
    "lien-pied": "API documentation",
    title: "API documentation",
    intro:
      "Sillon's JSON API lets farm software, data warehouses and scripts read and write folders, farms, plots and interventions without a browser. Every call carries the header Authorization: Bearer followed by a token.",
    "jeton-titre": "Getting a token",
    "jeton-connexion":
      "from the sign-in call POST /api/v1/login_check, with your user name and password (the token expires after 12 hours and is revoked at sign-out);",
    "jeton-personnel": "or from a personal access token, read-only or read-write, made on your profile page:",
    "page-profil": "My profile",
    document: "The OpenAPI 3.1 document shown below is also available as is:",
    "langue-bibliotheque": "The calls below are shown by Swagger UI, in English.",
    chargement: "Loading the description of the calls…",
    echec: "The description of the calls could not be shown. The OpenAPI document is still available at the address above.",
    retour: "Back to the application",
  },
};
export default texts;
