import type fr from "../fr/comparaison";

/** English texts of the campaign / simulation comparison (issue 14, decision 0069), spread into ./translation.ts. */
const texts = {
  comparaison: {
    lien: "Compare the campaign with its simulation",
    retour: "Back to the calculation",
    titre: "Campaign and simulation — {{exploitation}}",
    intro:
      "Each indicator of the campaign and of its simulation of the same harvest year, from their latest finished calculation, with the difference (simulation minus campaign) as a value and as a percentage of the campaign.",
    "choix-contrepartie": "Compare with",
    valider: "Show",
    campagne: "Campaign",
    simulation: "Simulation",
    "serie-du": "Calculation finished on {{date}}",
    "ouvrir-serie": "Open this calculation",
    "serie-absente": "{{campagne}} has no finished calculation: the comparison cannot be made.",
    calculer: "Run the calculation of {{campagne}}",
    "sans-simulation": "This campaign has no simulation of the same harvest year (a simulation is made by duplicating the campaign).",
    "sans-base": "This simulation has no real campaign of the same harvest year.",
    niveau: "Level",
    exploitation: "Farm",
    "culture-option": "Crop: {{culture}}",
    groupe: "Indicator group",
    "tous-groupes": "All groups",
    "seulement-ecarts": "Only the indicators that change",
    legende: "Comparison {{niveau}}: {{campagne}} and {{simulation}}",
    colonnes: {
      indicateur: "Indicator",
      unite: "Unit",
      campagne: "Campaign",
      simulation: "Simulation",
      completude: "Completeness",
      ecart: "Difference",
      "ecart-pct": "Difference %",
    },
    completude: "{{valeur}}%",
    manquants_one: "{{count}} missing datum",
    manquants_other: "{{count}} missing data",
    sens: { hausse: "up", baisse: "down", egal: "equal" },
    "non-calcule": "not calculated",
    "pct-impossible": "no percentage: the campaign's figure is 0",
    aucune: "No indicator to compare for this choice.",
    "nb-lignes_one": "{{count}} indicator",
    "nb-lignes_other": "{{count}} indicators",
  },
} satisfies typeof fr;

export default texts;
