import { useId, useMemo, useState, type KeyboardEvent } from "react";
import { useTranslation } from "~/use-translation";
import type { ProvideEditorComponent, TextCell } from "@glideapps/glide-data-grid";
import type { ChoiceColumn } from "./columns";
import { normalizeLabel } from "./paste";

/** A text cell of a choice column carries its column, so that the grid's editor can list the options. */
export type ChoiceTextCell = TextCell & { choice?: ChoiceColumn };

const MAX_SHOWN = 200;
/** The options of a cell without a choice column: one array, so that the filtered list is not recomputed at every render. */
const NO_OPTIONS: ChoiceColumn["options"] = [];

/**
 * The drop-down editor of a choice cell: a combobox whose typed text filters the options (case and accents
 * ignored); arrows move, Enter or a click chooses, Escape leaves the cell as it was. It commits the label: the grid
 * reads it back to the option's value as it reads a pasted label.
 */
export const ChoiceEditor: ProvideEditorComponent<ChoiceTextCell> = ({ value, onFinishedEditing, initialValue }) => {
  const { t } = useTranslation();
  const id = useId();
  const options = value.choice?.options ?? NO_OPTIONS;
  const [text, setText] = useState(initialValue ?? value.data);
  const [typed, setTyped] = useState(initialValue !== undefined);
  const shown = useMemo(() => {
    const wanted = typed ? normalizeLabel(text) : "";
    return (wanted ? options.filter((o) => normalizeLabel(o.label).includes(wanted)) : options).slice(0, MAX_SHOWN);
  }, [options, text, typed]);
  const [active, setActive] = useState(() =>
    Math.max(
      0,
      shown.findIndex((o) => o.label === value.data),
    ),
  );
  const choose = (label: string, movement: readonly [-1 | 0 | 1, -1 | 0 | 1] = [0, 1]) => onFinishedEditing({ ...value, data: label }, movement);

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      e.stopPropagation();
      const step = e.key === "ArrowDown" ? 1 : -1;
      setActive((a) => Math.min(Math.max(0, a + step), Math.max(0, shown.length - 1)));
    } else if (e.key === "Enter" || e.key === "Tab") {
      e.preventDefault();
      e.stopPropagation();
      const option = shown[active];
      // A text that matches no option is kept as typed: the cell then says it is not in the list.
      choose(option ? option.label : text, e.key === "Tab" ? [e.shiftKey ? -1 : 1, 0] : [0, 1]);
    } else if (e.key === "Escape") {
      e.preventDefault();
      e.stopPropagation();
      onFinishedEditing(undefined, [0, 0]);
    }
  };

  return (
    <div className="min-w-56 bg-white text-sm" data-testid="grid-choice-editor">
      <input
        autoFocus
        // Opened by Enter or a double click, the current label is selected: typing replaces it, as in a spreadsheet.
        onFocus={(e) => (initialValue === undefined ? e.currentTarget.select() : undefined)}
        role="combobox"
        aria-expanded="true"
        aria-controls={`${id}-list`}
        aria-activedescendant={shown[active] ? `${id}-${active}` : undefined}
        aria-label={value.choice?.title ?? ""}
        className="w-full border-b border-stone-300 px-2 py-1 outline-none"
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setTyped(true);
          setActive(0);
        }}
        onKeyDown={onKeyDown}
      />
      <ul id={`${id}-list`} role="listbox" aria-label={value.choice?.title ?? ""} className="max-h-60 overflow-auto py-1">
        {shown.map((o, i) => (
          <li
            key={String(o.value)}
            id={`${id}-${i}`}
            role="option"
            aria-selected={i === active}
            className={`cursor-pointer px-2 py-1 ${i === active ? "bg-sillon-100" : ""}`}
            onMouseDown={(e) => {
              e.preventDefault();
              choose(o.label);
            }}
          >
            {o.label}
          </li>
        ))}
        {shown.length === 0 ? <li className="px-2 py-1 text-stone-600">{t("grid.no-choice")}</li> : null}
      </ul>
    </div>
  );
};
