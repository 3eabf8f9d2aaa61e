/** French texts of the plot's indicator panel of the interventions screen (issue 14), spread into ./translation.ts. */
const texts = {
  "indicateurs-parcelle": {
    titre: "Indicateurs de la parcelle {{libelle}}",
    completude: "{{valeur}} % des données",
    "non-calcule": "non calculé",
    manquants_one: "{{count}} donnée manquante",
    manquants_other: "{{count}} données manquantes",
    manquant: "{{objet}} {{libelle}} : {{champ}}",
    "parcelle-inconnue": "Cette parcelle n'appartient pas à la campagne choisie.",
    objets: {
      parcelle: "Parcelle",
      intervention: "Intervention",
      operation: "Opération",
      intrant: "Intrant",
      recolte: "Récolte",
      prix: "Prix",
      facteur: "Facteur",
      exploitation: "Exploitation",
    },
  },
};

export default texts;
