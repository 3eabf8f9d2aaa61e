/** English texts of the plot's indicator panel of the interventions screen (issue 14), spread into ./translation.ts. */
const texts = {
  "indicateurs-parcelle": {
    titre: "Indicators of plot {{libelle}}",
    completude: "{{valeur}}% of the data",
    "non-calcule": "not computed",
    manquants_one: "{{count}} missing datum",
    manquants_other: "{{count}} missing data",
    manquant: "{{objet}} {{libelle}}: {{champ}}",
    "parcelle-inconnue": "This plot does not belong to the chosen campaign.",
    objets: {
      parcelle: "Plot",
      intervention: "Intervention",
      operation: "Operation",
      intrant: "Input",
      recolte: "Harvest",
      prix: "Price",
      facteur: "Factor",
      exploitation: "Farm",
    },
  },
};

export default texts;
