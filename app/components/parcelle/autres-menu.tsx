import { Menu, MenuButton, MenuItem, MenuItems } from "@headlessui/react";
import { useTranslation } from "~/use-translation";
import { ChevronDownIcon } from "~/components/icons";

export type AutreAction = "affectations" | "eges" | "majDates";

/**
 * The Other menu of the plots table (spec 2 §2): assign cost centres, assign greenhouse-gas emissions,
 * update intervention dates. Disabled without canWriteDescriptif (B-RIGHTS-06).
 */
export function AutresMenu({ disabled, onChoose }: { disabled: boolean; onChoose: (action: AutreAction) => void }) {
  const { t } = useTranslation();
  const items: { action: AutreAction; label: string }[] = [
    { action: "affectations", label: t("parcelle.autres.affectations") },
    { action: "eges", label: t("parcelle.autres.eges") },
    { action: "majDates", label: t("parcelle.autres.maj-dates") },
  ];
  return (
    <Menu as="div" className="relative">
      <MenuButton className="btn-secondary" disabled={disabled} data-testid="parcelle-autres">
        {t("parcelle.autres.button")} <ChevronDownIcon width={16} height={16} />
      </MenuButton>
      <MenuItems
        anchor="bottom start"
        className="z-50 mt-1 min-w-64 rounded border border-stone-200 bg-white py-1 text-sm text-stone-900 shadow-lg focus:outline-none"
      >
        {items.map((i) => (
          <MenuItem key={i.action}>
            <button
              type="button"
              className="block w-full px-3 py-1.5 text-left data-[focus]:bg-sillon-50"
              onClick={() => onChoose(i.action)}
              data-testid={`parcelle-autres-${i.action}`}
            >
              {i.label}
            </button>
          </MenuItem>
        ))}
      </MenuItems>
    </Menu>
  );
}
