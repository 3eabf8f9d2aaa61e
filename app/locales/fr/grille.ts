/** French texts of the grid's conflicts per row and of its bound messages (issue 29, decisions 0100, 0101), spread into ./translation.ts. */
const texts = {
  conflits: {
    title: "Lignes modifiées par quelqu'un d'autre pendant votre saisie",
    intro:
      "Les autres lignes sont enregistrées. Vos valeurs de ces lignes sont gardées : pour chacune, gardez les vôtres (elles seront enregistrées à la prochaine sauvegarde) ou prenez les leurs.",
    row: "Ligne {{row}}",
    removed: "supprimée par quelqu'un d'autre",
    same: "mêmes valeurs que les vôtres",
    field: "{{column}} : la vôtre {{mine}}, la leur {{theirs}}",
    empty: "(vide)",
    keep: "Garder les miennes",
    take: "Prendre les leurs",
    "take-removed": "Abandonner mes modifications",
    "keep-all": "Garder toutes les miennes",
    "take-all": "Prendre toutes les leurs",
    cell: "{{mine}} (leur : {{theirs}})",
    "cell-removed": "{{mine}} (ligne supprimée)",
    pending_one: "{{count}} ligne modifiée par quelqu'un d'autre : choisissez ci-dessous",
    pending_other: "{{count}} lignes modifiées par quelqu'un d'autre : choisissez ci-dessous",
    kept: "Vos valeurs sont prêtes : enregistrez pour les écrire",
  },
  compositionReference: {
    "sera-enregistree": "Aucune composition saisie : celle de référence du produit sera enregistrée.",
  },
  formulairePerime: {
    title: "Modifié par quelqu'un d'autre pendant votre saisie",
    intro:
      "Rien n'a été enregistré et vos valeurs sont gardées dans le formulaire. Gardez les vôtres (elles seront enregistrées à la prochaine sauvegarde) ou prenez les leurs.",
  },
  bornes: {
    min: "Valeur trop petite (au moins {{min}})",
    max: "Valeur trop grande (au plus {{max}})",
    minmax: "Valeur hors des bornes : entre {{min}} et {{max}}",
  },
};

export default texts;
