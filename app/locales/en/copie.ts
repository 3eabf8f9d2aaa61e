/** English texts of the copy and duplication of interventions (decision 0047), spread into ./translation.ts. */
const texts = {
  copie: {
    duplication: "Duplicate a plot's interventions",
    chargement: "Loading the choices…",
    dossier: "Folder",
    exploitation: "Farm",
    campagne: "Campaign",
    parcelle: "Plot",
    "parcelles-destination": "Destination plots",
    "interventions-a-copier": "Interventions to copy",
    "interventions-a-importer": "Interventions to import",
    source: "Source",
    destination: "Destination",
    "dossier-source": "Source folder",
    "exploitation-source": "Source farm",
    "campagne-source": "Source campaign",
    "parcelle-source": "Source plot",
    "exploitation-destination": "Destination farm",
    "campagne-destination": "Destination campaign",
    suppression: "Delete the existing interventions of the destination plots",
    "aucune-destination": "No campaign you may write.",
    "aucune-intervention": "No intervention on this plot.",
    copier: "Copy",
    importer: "Import",
    dupliquer: "Duplicate",
    "sans-operation": "(no operation)",
    "duplication-faite": "Duplication completed",
    "copie-faite": "Copy completed",
  },
};

export default texts;
