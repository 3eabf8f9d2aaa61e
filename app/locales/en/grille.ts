import type fr from "../fr/grille";

/** English texts of the grid's conflicts per row and of its bound messages (issue 29, decisions 0100, 0101), spread into ./translation.ts. */
const texts = {
  conflits: {
    title: "Rows changed by someone else while you were editing",
    intro: "The other rows are saved. Your values of these rows are kept: for each one, keep yours (they will be written at the next save) or take theirs.",
    row: "Row {{row}}",
    removed: "deleted by someone else",
    same: "same values as yours",
    field: "{{column}}: yours {{mine}}, theirs {{theirs}}",
    empty: "(empty)",
    keep: "Keep mine",
    take: "Take theirs",
    "take-removed": "Drop my changes",
    "keep-all": "Keep all mine",
    "take-all": "Take all theirs",
    cell: "{{mine}} (theirs: {{theirs}})",
    "cell-removed": "{{mine}} (row deleted)",
    pending_one: "{{count}} row changed by someone else: choose below",
    pending_other: "{{count}} rows changed by someone else: choose below",
    kept: "Your values are ready: save to write them",
  },
  compositionReference: {
    "sera-enregistree": "No composition entered: the product's reference composition will be saved.",
  },
  formulairePerime: {
    title: "Changed by someone else while you were typing",
    intro: "Nothing was saved and your values are kept in the form. Keep yours (they will be written at the next save) or take theirs.",
  },
  bornes: {
    min: "Value too small (at least {{min}})",
    max: "Value too large (at most {{max}})",
    minmax: "Value out of bounds: between {{min}} and {{max}}",
  },
} satisfies typeof fr;

export default texts;
