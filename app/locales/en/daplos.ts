import type fr from "../fr/daplos";

/** English texts of the Daplos import (server/interop/daplos, decision 0094), spread into ./translation.ts. */
const texts: typeof fr = {
  daplos: {
    vide: "The file is empty.",
    "format-edifact": "This file is an EDIFACT message, not a flat Daplos file: it is not supported.",
    "format-edaplos": "This file is an eDaplos (XML) file, not a flat Daplos file.",
    "format-inconnu": "This is not a Daplos file: it must start with an EI record.",
    extension: "Only .dap and .edi files are accepted.",
    version: "Line {{ligne}}: header version {{version}} is not supported (0.93, 0.94 or 0.95).",
    tronque: "The file is truncated (line {{ligne}}): {{lues}} plot sheets read of {{annoncees}} announced.",
    "trop-gros": "The file is over the size limit ({{max}} bytes).",
    "type-inconnu": "Line {{ligne}}: unknown record type “{{type}}”.",
    "nombre-invalide": "Line {{ligne}} ({{type}}): “{{valeur}}” is not a number ({{champ}}).",
    "date-invalide": "Line {{ligne}} ({{type}}): “{{valeur}}” is not a date ({{champ}}).",
    "ligne-refusee": "Line {{ligne}} ({{type}}): record refused ({{cause}}). Nothing was imported.",
    echec: "The import failed. Nothing was imported.",
    avertissement: {
      "espece-inconnue": "Species {{espece}} has no counterpart: the plot is created without a crop, the code is kept in its remark.",
      "quantite-absente": "Input “{{libelle}}” has no usable quantity.",
      "contour-incomplet": "The boundary has only {{points}} points: it is not imported.",
      "commune-inconnue": "Commune {{codeInsee}} is unknown: the plot is created without a commune.",
    },
    raison: {
      "parent-absent": "Record without its parent (another plot key or event GUID)",
      "sans-equivalent": "No counterpart in Sillon",
      "espece-inconnue": "Species without counterpart",
      "date-absente": "No date",
      "date-hors-campagne": "Date outside the campaign",
      "coordonnees-inconnues": "Unknown coordinate system",
      "contour-incomplet": "Incomplete boundary",
      "quantite-absente": "No quantity",
      doublon: "Duplicate",
      "suppression-sans-objet": "Deletion of an event never imported",
    },
    etat: { en_cours: "In progress", termine: "Finished", echec: "Failed" },
  },
};
export default texts;
