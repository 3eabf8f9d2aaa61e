import { useCallback, useState } from "react";
import { useTranslation } from "~/use-translation";
import { ScreenTitle } from "~/components/farm-form";
import { useGridSave } from "~/components/grid/use-grid-save";
import { DeleteUnused } from "~/components/prix/delete-unused";
import { filterAppro, labelOf, PrixApproGrid } from "~/components/prix/prix-appro-grid";
import { PrixProposePanel } from "~/components/prix/prix-propose-panel";
import type { PrixApproData } from "~/domain/contracts/prix";
import { ScreenFrame } from "~/components/screen-frame";
import { rowPatchListSchema } from "~/domain/grid-patches";
import { FILTRE_SANS_PRIX, FUEL_ROW_ID, PrixApproSchema } from "~/domain/prix";
import { intent, jsonField, screenAction, screenLoader } from "#server/http/route.server";
import { getPrixAppro, PRIX_APPRO_LOAD_ERROR, removeUnusedAppro, savePrixApproGrid } from "#server/prix/service.server";
import type { Route } from "./+types/prix-approvisionnement";

/**
 * The supply price screen (spec 3 §2.4; issue 13): the type filter (with 'unspecified price'), the grid of the
 * campaign's products with the fuel row first, 'delete unused products', and the proposed prices of the selected row.
 */
export const loader = screenLoader(({ scope }) => getPrixAppro(scope), { loadError: PRIX_APPRO_LOAD_ERROR });

export const action = screenAction(
  {
    grid: intent({ patches: jsonField(rowPatchListSchema(PrixApproSchema)) }, async ({ scope }, { patches }) => ({
      ok: true as const,
      ...(await savePrixApproGrid(scope, patches)),
    })),
    deleteUnused: intent({}, async ({ scope }) => ({ ok: true as const, notice: "ui.delete-confirmation", count: await removeUnusedAppro(scope) })),
  },
  { gate: "campaign" },
);

export default function PrixApprovisionnementScreen({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <ScreenFrame data={loaderData} title={t("screen.prix_approvisionnement")} name="prix-appro" width="6xl">
      {(data) => <PrixAppro data={data} />}
    </ScreenFrame>
  );
}

function PrixAppro({ data }: { data: PrixApproData }) {
  const { t, i18n } = useTranslation();
  const [filtre, setFiltre] = useState("");
  const [selected, setSelected] = useState<number | null>(null);
  const [deleting, setDeleting] = useState(false);
  const onSave = useGridSave();
  const readOnly = !data.canWrite;
  const rows = filterAppro(data.rows, filtre);
  const unused = data.rows.filter((r) => !r.utilise).length;
  const onSelect = useCallback((id: number | null) => setSelected(id !== null && id > 0 && id !== FUEL_ROW_ID ? id : null), []);
  return (
    <div className="mx-auto max-w-6xl space-y-4" data-testid="screen-prix_approvisionnement">
      <ScreenTitle title={t("screen.prix_approvisionnement")} readOnly={readOnly}>
        <DeleteUnused disabled={readOnly} unusedCount={unused} onDeleting={setDeleting} />
      </ScreenTitle>
      <div className="flex flex-wrap items-end gap-3">
        <label className="flex flex-col text-sm">
          <span className="font-medium">{t("prix.filtre-type")}</span>
          <select className="field-input" value={filtre} onChange={(e) => setFiltre(e.target.value)} data-testid="prix-filtre">
            <option value="">{t("prix.tous-types")}</option>
            {data.types.map((ty) => (
              <option key={ty.id} value={String(ty.id)}>
                {labelOf(ty, i18n.language)}
              </option>
            ))}
            <option value={FILTRE_SANS_PRIX}>{t("prix.sans-prix")}</option>
          </select>
        </label>
        <p className="text-sm text-stone-700" data-testid="prix-compte">
          {t("prix.lignes", { count: rows.length })}
        </p>
      </div>
      <PrixApproGrid rows={rows} types={data.types} readOnly={readOnly} deleting={deleting} onSave={onSave} onSelect={onSelect} />
      <PrixProposePanel id={selected} />
    </div>
  );
}
