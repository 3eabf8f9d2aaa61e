import { useState } from "react";
import { useTranslation } from "~/use-translation";
import { ScreenTitle } from "~/components/farm-form";
import { useGridSave } from "~/components/grid/use-grid-save";
import { DeleteUnused } from "~/components/prix/delete-unused";
import { labelOf } from "~/components/prix/prix-appro-grid";
import { filterVente, PrixVenteGrid } from "~/components/prix/prix-vente-grid";
import type { PrixVenteData } from "~/domain/contracts/prix";
import { ScreenFrame } from "~/components/screen-frame";
import { rowPatchListSchema } from "~/domain/grid-patches";
import { FILTRE_SANS_PRIX, PrixVenteSchema } from "~/domain/prix";
import { intent, jsonField, screenAction, screenLoader } from "#server/http/route.server";
import { getPrixVente, PRIX_VENTE_LOAD_ERROR, removeUnusedVente, savePrixVenteGrid } from "#server/prix/service.server";
import type { Route } from "./+types/prix-vente";

/** The sale price screen (spec 3 §2.5; issue 13): the driving-mode filter (with 'unspecified price'), the grid, 'delete unused products'. */
export const loader = screenLoader(({ scope }) => getPrixVente(scope), { loadError: PRIX_VENTE_LOAD_ERROR });

export const action = screenAction(
  {
    grid: intent({ patches: jsonField(rowPatchListSchema(PrixVenteSchema)) }, async ({ scope }, { patches }) => ({
      ok: true as const,
      ...(await savePrixVenteGrid(scope, patches)),
    })),
    deleteUnused: intent({}, async ({ scope }) => ({ ok: true as const, notice: "ui.delete-confirmation", count: await removeUnusedVente(scope) })),
  },
  { gate: "campaign" },
);

export default function PrixVenteScreen({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <ScreenFrame data={loaderData} title={t("screen.prix_vente")} name="prix-vente" width="6xl">
      {(data) => <PrixVente data={data} />}
    </ScreenFrame>
  );
}

function PrixVente({ data }: { data: PrixVenteData }) {
  const { t, i18n } = useTranslation();
  const [filtre, setFiltre] = useState("");
  const [deleting, setDeleting] = useState(false);
  const onSave = useGridSave();
  const readOnly = !data.canWrite;
  const rows = filterVente(data.rows, filtre);
  const unused = data.rows.filter((r) => !r.utilise).length;
  const sansMode = data.rows.some((r) => r.idModeConduite == null);
  return (
    <div className="mx-auto max-w-6xl space-y-4" data-testid="screen-prix_vente">
      <ScreenTitle title={t("screen.prix_vente")} readOnly={readOnly}>
        <DeleteUnused disabled={readOnly} unusedCount={unused} onDeleting={setDeleting} />
      </ScreenTitle>
      <div className="flex flex-wrap items-end gap-3">
        <label className="flex flex-col text-sm">
          <span className="font-medium">{t("prix.filtre-mode")}</span>
          <select className="field-input" value={filtre} onChange={(e) => setFiltre(e.target.value)} data-testid="prix-filtre">
            <option value="">{t("prix.tous-modes")}</option>
            {data.modes.map((m) => (
              <option key={m.id} value={String(m.id)}>
                {labelOf(m, i18n.language)}
              </option>
            ))}
            {sansMode ? <option value="0">{t("prix.sans-mode")}</option> : null}
            <option value={FILTRE_SANS_PRIX}>{t("prix.sans-prix")}</option>
          </select>
        </label>
        <p className="text-sm text-stone-700" data-testid="prix-compte">
          {t("prix.lignes", { count: rows.length })}
        </p>
      </div>
      {data.rows.length === 0 ? (
        <p className="card text-sm" data-testid="prix-vente-vide">
          {t("prix.vente.vide")}
        </p>
      ) : null}
      <PrixVenteGrid data={data} rows={rows} readOnly={readOnly} deleting={deleting} onSave={onSave} />
    </div>
  );
}
