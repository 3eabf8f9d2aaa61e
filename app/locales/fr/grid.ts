/** French texts of the one grid (app/components/grid/) and of its bulk save, spread into ./translation.ts. */
const texts = {
  grid: {
    loading: "Chargement du tableau…",
    unavailable: "Le tableau ne peut pas s'afficher dans ce navigateur.",
    "read-only": "Tableau en lecture seule : sélection et copie possibles",
    save: "Enregistrer",
    cancel: "Annuler les modifications",
    undo: "Défaire",
    redo: "Refaire",
    "add-row": "Ajouter une ligne",
    clean: "Aucune modification",
    dirty_one: "{{count}} ligne modifiée",
    dirty_other: "{{count}} lignes modifiées",
    saving: "Enregistrement…",
    saved_one: "{{count}} ligne enregistrée",
    saved_other: "{{count}} lignes enregistrées",
    "invalid-count_one": "{{count}} ligne contient des erreurs (cellules en rouge)",
    "invalid-count_other": "{{count}} lignes contiennent des erreurs (cellules en rouge)",
    "invalid-rows_one": "Rien n'a été enregistré : la ligne {{rows}} contient des erreurs. Corrigez les cellules en rouge.",
    "invalid-rows_other": "Rien n'a été enregistré : les lignes {{rows}} contiennent des erreurs. Corrigez les cellules en rouge.",
    "cell-error": "Ligne {{row}}, {{column}} : {{message}}",
    "unknown-choice": "Valeur absente de la liste",
    "no-choice": "Aucun choix ne correspond",
    "stale-rows_one":
      "Rien n'a été enregistré : la ligne {{rows}} a été modifiée ou supprimée par quelqu'un d'autre depuis son chargement. Rechargez la page pour voir sa version actuelle.",
    "stale-rows_other":
      "Rien n'a été enregistré : les lignes {{rows}} ont été modifiées ou supprimées par quelqu'un d'autre depuis leur chargement. Rechargez la page pour voir leur version actuelle.",
  },
};

export default texts;
