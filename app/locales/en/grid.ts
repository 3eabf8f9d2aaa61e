import type fr from "../fr/grid";

/** English texts of the one grid (app/components/grid/) and of its bulk save, spread into ./translation.ts. */
const texts = {
  grid: {
    loading: "Loading the table…",
    unavailable: "The table cannot be shown in this browser.",
    "read-only": "Read-only table: you can select and copy",
    save: "Save",
    cancel: "Discard changes",
    undo: "Undo",
    redo: "Redo",
    "add-row": "Add a row",
    clean: "No changes",
    dirty_one: "{{count}} row changed",
    dirty_other: "{{count}} rows changed",
    saving: "Saving…",
    saved_one: "{{count}} row saved",
    saved_other: "{{count}} rows saved",
    "invalid-count_one": "{{count}} row has errors (cells in red)",
    "invalid-count_other": "{{count}} rows have errors (cells in red)",
    "invalid-rows_one": "Nothing was saved: row {{rows}} has errors. Correct the cells in red.",
    "invalid-rows_other": "Nothing was saved: rows {{rows}} have errors. Correct the cells in red.",
    "cell-error": "Row {{row}}, {{column}}: {{message}}",
    "unknown-choice": "Value not in the list",
    "no-choice": "No choice matches",
    "stale-rows_one": "Nothing was saved: row {{rows}} was changed or deleted by someone else since it was loaded. Reload the page to see its current version.",
    "stale-rows_other":
      "Nothing was saved: rows {{rows}} were changed or deleted by someone else since they were loaded. Reload the page to see their current version.",
  },
} satisfies typeof fr;

export default texts;
