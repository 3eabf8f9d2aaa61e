/** French texts of the copy and duplication of interventions (decision 0047), spread into ./translation.ts. */
const texts = {
  copie: {
    duplication: "Dupliquer les interventions d'une parcelle",
    chargement: "Chargement des choix…",
    dossier: "Dossier",
    exploitation: "Exploitation",
    campagne: "Campagne",
    parcelle: "Parcelle",
    "parcelles-destination": "Parcelles de destination",
    "interventions-a-copier": "Interventions à copier",
    "interventions-a-importer": "Interventions à importer",
    source: "Source",
    destination: "Destination",
    "dossier-source": "Dossier source",
    "exploitation-source": "Exploitation source",
    "campagne-source": "Campagne source",
    "parcelle-source": "Parcelle source",
    "exploitation-destination": "Exploitation de destination",
    "campagne-destination": "Campagne de destination",
    suppression: "Supprimer les interventions existantes des parcelles de destination",
    "aucune-destination": "Aucune campagne où vous pouvez écrire.",
    "aucune-intervention": "Aucune intervention sur cette parcelle.",
    copier: "Copier",
    importer: "Importer",
    dupliquer: "Dupliquer",
    "sans-operation": "(sans opération)",
    "duplication-faite": "Duplication terminée",
    "copie-faite": "Copie terminée",
  },
};

export default texts;
