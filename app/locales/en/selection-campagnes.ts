import type fr from "../fr/selection-campagnes";

/** English texts of the selection panel of farms and campaigns (resultats screens). */
const texts: typeof fr = {
  selectionCampagnes: {
    titre: "Farms and campaigns",
    filtre: "Filter farms",
    aucune: "No campaign is available with your rights in this network.",
    simulation: "simulation",
    compte_zero: "No campaign selected",
    compte_one: "{{count}} campaign selected",
    compte_other: "{{count}} campaigns selected",
  },
};

export default texts;
