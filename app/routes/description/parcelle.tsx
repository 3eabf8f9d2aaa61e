import { parseWithZod } from "@conform-to/zod/v4";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useHref } from "react-router";
import { type DataTableColumn } from "~/components/data-table";
import { formatNumber } from "~/components/farm-form";
import { ListScreen, listScreenShouldRevalidate } from "~/components/list-screen";
import { AffectationsDialog } from "~/components/parcelle/affectations-dialog";
import { AutresMenu, type AutreAction } from "~/components/parcelle/autres-menu";
import { EgesDialog } from "~/components/parcelle/eges-dialog";
import { ImportDialog } from "~/components/parcelle/import-dialog";
import { MajDatesDialog } from "~/components/parcelle/maj-dates-dialog";
import { ParcelleForm } from "~/components/parcelle/parcelle-form";
import { MajDatesSchema, ParcelleSchema } from "~/domain/parcelle";
import type { Route } from "./+types/parcelle";

export const shouldRevalidate = listScreenShouldRevalidate;

/**
 * Plots (spec 2 §2 "Plots", §3, §4, §5, §7). The loader also answers the dialogs' requests:
 * `?departement=NN` (communes), `?arbre=ID` (history tree), `?affectations=1` (cost centres), `?eges=1`
 * (greenhouse-gas categories of the folder's fertilisers).
 */
export async function loader({ request }: Route.LoaderArgs) {
  const { requireAcceptedUser } = await import("../../../server/auth/session");
  const { getParcelles, getHistoriqueTree, getAffectations } = await import("../../../server/parcelle/service");
  const { db } = await import("../../../server/db");
  const { mapConfig } = await import("../../../server/env");
  const { getAffectationEges } = await import("../../../server/intrant-dossier/service");
  const user = await requireAcceptedUser(request);
  const params = new URL(request.url).searchParams;
  const arbre = Number(params.get("arbre")) || null;
  const data = await getParcelles(db(), user, { departement: params.get("departement") });
  return {
    ...data,
    mapConfig: mapConfig(),
    arbre: arbre ? await getHistoriqueTree(db(), user, arbre) : null,
    affectations: params.get("affectations") ? await getAffectations(db(), user) : null,
    eges: params.get("eges") ? await getAffectationEges(db(), user) : null,
  };
}

export async function action({ request }: Route.ActionArgs) {
  const { requireAcceptedUser } = await import("../../../server/auth/session");
  const { saveParcelle, removeParcelles, majDatesActions, saveAffectations } = await import("../../../server/parcelle/service");
  const { db } = await import("../../../server/db");
  const { runAction, invalid } = await import("../../../server/http");
  const { isServiceError } = await import("../../../server/errors");
  const { affecterEges } = await import("../../../server/intrant-dossier/service");
  const user = await requireAcceptedUser(request);
  const formData = await request.formData();
  const intent = formData.get("intent");
  return runAction(async () => {
    if (intent === "delete") {
      const ids = (JSON.parse(String(formData.get("ids") ?? "[]")) as unknown[]).map(Number);
      await removeParcelles(db(), user, ids);
      return { ok: true as const, notice: "ui.delete-confirmation" };
    }
    if (intent === "majDates") {
      const s = parseWithZod(formData, { schema: MajDatesSchema });
      if (s.status !== "success") return invalid(s.reply());
      const moved = await majDatesActions(db(), user, s.value);
      return { ok: true as const, moved, notice: "ui.update-confirmation", submission: s.reply({ resetForm: true }) };
    }
    if (intent === "affectationEges") {
      const resultat = await affecterEges(db(), user, Number(formData.get("idDossier")));
      return { ok: true as const, resultat, notice: "ui.update-confirmation" };
    }
    if (intent === "affectations") {
      await saveAffectations(db(), user, JSON.parse(String(formData.get("affectations") ?? "[]")));
      return { ok: true as const, notice: "ui.update-confirmation" };
    }
    const s = parseWithZod(formData, { schema: ParcelleSchema });
    if (s.status !== "success") return invalid(s.reply());
    const id = Number(formData.get("id")) || undefined;
    try {
      const saved = await saveParcelle(db(), user, s.value, id ? { id, updatedAt: String(formData.get("updatedAt") ?? "") || undefined } : undefined);
      return { ok: true as const, id: saved, notice: id ? "ui.update-confirmation" : "ui.create-confirmation" };
    } catch (e) {
      if (isServiceError(e) && e.fieldErrors) return invalid(s.reply({ fieldErrors: e.fieldErrors }));
      throw e;
    }
  });
}

type Data = Route.ComponentProps["loaderData"];
type Row = Data["rows"][number];

export default function ParcelleScreen({ loaderData: data }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const [dialog, setDialog] = useState<{ action: AutreAction; ids: (string | number)[] } | null>(null);
  const [importing, setImporting] = useState(false);
  const exportHref = useHref("export.geojson");
  const columns: DataTableColumn<Row>[] = [
    { id: "libelle", header: t("parcelle.libelle"), cell: (r) => r.libelle, sortValue: (r) => r.libelle, alwaysVisible: true },
    { id: "mode", header: t("parcelle.idModeConduite"), cell: (r) => r.libelleModeConduite ?? "", sortValue: (r) => r.libelleModeConduite ?? "" },
    { id: "lot", header: t("parcelle.idLot"), cell: (r) => r.libelleLot ?? "", sortValue: (r) => r.libelleLot ?? "" },
    { id: "surface", header: t("parcelle.surface"), cell: (r) => formatNumber(r.surface, i18n.language), sortValue: (r) => r.surface, align: "right" },
    { id: "commune", header: t("parcelle.commune"), cell: (r) => r.libelleCommune ?? "", sortValue: (r) => r.libelleCommune ?? "", optional: true },
    { id: "codePostal", header: t("parcelle.codePostal"), cell: (r) => r.codePostal ?? "", sortValue: (r) => r.codePostal ?? "", optional: true },
    { id: "codeInsee", header: t("parcelle.codeInsee"), cell: (r) => r.codeInsee ?? "", sortValue: (r) => r.codeInsee ?? "", optional: true },
    {
      id: "interventions", header: t("parcelle.interventions"), alwaysVisible: true, align: "center",
      cell: (r) => (
        <Link
          to={`../../au_champs/interventions?parcelleId=${r.id}`}
          relative="path"
          className="text-sillon-700 underline hover:text-sillon-900"
          aria-label={t("parcelle.interventions-of", { libelle: r.libelle })}
          onClick={(e) => e.stopPropagation()}
          data-testid={`interventions-${r.id}`}
        >
          {t("parcelle.interventions")}
        </Link>
      ),
    },
  ];
  return (
    <div className="mx-auto max-w-6xl space-y-4">
      <ListScreen
        tableId="parcelle"
        title={t("screen.parcelle")}
        label={t("screen.parcelle")}
        rows={data.rows}
        columns={columns}
        getRowId={(r) => r.id}
        extraToolbar={(checked) => (
          <>
            <button type="button" className="btn-secondary" disabled={!data.canWrite} onClick={() => setImporting(true)} data-testid="parcelle-import">
              {t("parcelle.import.button")}
            </button>
            <a href={exportHref} download className="btn-secondary" title={t("parcelle.export.title")} data-testid="parcelle-export">{t("parcelle.export.button")}</a>
            <AutresMenu disabled={!data.canWrite} onChoose={(action) => setDialog({ action, ids: checked })} />
          </>
        )}
        renderForm={(row, controls) => <ParcelleForm row={row} data={data} controls={controls} />}
      />
      <ImportDialog open={importing} mapConfig={data.mapConfig} onClose={() => setImporting(false)} />
      <AffectationsDialog open={dialog?.action === "affectations"} onClose={() => setDialog(null)} />
      <EgesDialog open={dialog?.action === "eges"} onClose={() => setDialog(null)} />
      <MajDatesDialog open={dialog?.action === "majDates"} ids={dialog?.ids ?? []} anneeCampagne={data.campagne.anneeRecolte} onClose={() => setDialog(null)} />
    </div>
  );
}
