/** French texts of the personal access tokens of the API (profile page; issue 26, decision 0098), spread into ./translation.ts. */
const texts = {
  "jetons-api": {
    title: "Jetons d'accès à l'API",
    intro: "Un jeton permet à un logiciel ou à un script d'utiliser l'API en votre nom, avec vos droits. Révoquez-le dès qu'il ne sert plus.",
    nom: "Nom du jeton",
    acces: "Accès",
    lecture: "Lecture seule",
    ecriture: "Lecture et écriture",
    jours: "Validité (jours)",
    creer: "Créer le jeton",
    "nouveau-jeton": "Copiez ce jeton maintenant : il ne sera plus affiché.",
    aucun: "Aucun jeton.",
    expire: "Expire le",
    "derniere-utilisation": "Dernière utilisation",
    jamais: "jamais",
    revoquer: "Révoquer",
    "revoque-confirmation": "Jeton révoqué",
    "cree-confirmation": "Jeton créé",
    errors: {
      "not-found": "Ce jeton n'existe plus",
      "too-many": "Vous avez déjà {{max}} jetons : révoquez-en un d'abord",
    },
  },
};
export default texts;
