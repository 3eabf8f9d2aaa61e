/** French texts of the selection panel of farms and campaigns (resultats screens), spread into ./translation.ts. */
const texts = {
  selectionCampagnes: {
    titre: "Exploitations et campagnes",
    filtre: "Filtrer les exploitations",
    aucune: "Aucune campagne accessible avec vos droits dans ce réseau.",
    simulation: "simulation",
    compte_zero: "Aucune campagne sélectionnée",
    compte_one: "{{count}} campagne sélectionnée",
    compte_other: "{{count}} campagnes sélectionnées",
  },
};

export default texts;
