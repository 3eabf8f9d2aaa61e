import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { type DataTableColumn } from "~/components/data-table";
import { useFeedback } from "~/components/feedback";
import { ScreenTitle } from "~/components/farm-form";
import { formatDate, formatNumber } from "~/components/format";
import { InterventionForm } from "~/components/interventions/intervention-form";
import { InterventionsToolbar, intrantsText, matchesFilters, type Filters } from "~/components/interventions/toolbar";
import type { InterventionRow, InterventionsData } from "~/components/interventions/types";
import { ListScreen, listScreenShouldRevalidate } from "~/components/list-screen";
import { InterventionSchema, marqueur } from "~/domain/intervention";
import { AutreSchema, EauSchema, FertilisantSchema, PhytoSchema, SemenceSchema } from "~/domain/intrant";
import { deleteIntent, editOf, formIntent, idField, optionalIdField, queryIds, rowIntent, saveIntent, screenAction, screenLoader, stampField } from "#server/http/route.server";
import { ACTIONS_LOAD_ERROR, getInterventions, removeInterventions, saveIntervention } from "#server/intervention/service.server";
import { removeIntrant, saveIntrant, type IntrantInputOf, type IntrantKind } from "#server/intrant/service.server";
import type { Route } from "./+types/interventions";

/**
 * The interventions screen (spec 3 §2.1, issue 11): the interventions of the chosen plots, filtered, and the
 * intervention form below. `parcelleId` (repeatable) chooses the plots; the first plot otherwise (C-INT-04).
 */
export const shouldRevalidate = listScreenShouldRevalidate;

export const loader = screenLoader(({ db, user, query }) => getInterventions(db, user, { parcelleIds: queryIds(query, "parcelleId") }), { loadError: ACTIONS_LOAD_ERROR });

/** An input dialog's save (spec 3 §4.1): create without id, update with id and its updatedAt. */
function inputIntent<K extends IntrantKind>(kind: K, schema: Parameters<typeof formIntent>[0]) {
  return formIntent(
    schema,
    async ({ db, user }, value, envelope: { idAction: number; id?: number; updatedAt?: string | null }) => {
      const edit = editOf(envelope);
      const id = await saveIntrant(db, user, envelope.idAction, kind, value as IntrantInputOf[K], edit);
      return { id, notice: edit ? "ui.update-confirmation" : "ui.create-confirmation" };
    },
    { fields: { idAction: idField, id: optionalIdField, updatedAt: stampField } },
  );
}

export const action = screenAction(
  {
    save: saveIntent(InterventionSchema, ({ db, user }, value, edit) => saveIntervention(db, user, value, edit)),
    delete: deleteIntent(({ db, user }, ids) => removeInterventions(db, user, ids)),
    saveSemence: inputIntent("semence", SemenceSchema),
    savePhyto: inputIntent("phyto", PhytoSchema),
    saveFertilisant: inputIntent("fertilisant", FertilisantSchema),
    saveEau: inputIntent("eau", EauSchema),
    saveAutre: inputIntent("autre", AutreSchema),
    deleteIntrant: rowIntent(({ db, user }, id) => removeIntrant(db, user, id), "ui.delete-confirmation"),
  },
  { gate: "campaign" },
);

function LoadError({ error }: { error: string }) {
  const { showError } = useFeedback();
  useEffect(() => showError(error), [error, showError]);
  return null;
}

export default function InterventionsScreen({ loaderData: data }: Route.ComponentProps) {
  const { t } = useTranslation();
  if (!data.ok) {
    return (
      <div className="mx-auto max-w-6xl space-y-4" data-testid="interventions-load-failed">
        <ScreenTitle title={t("screen.interventions")} readOnly={false} />
        <LoadError error={data.error} />
      </div>
    );
  }
  return <Interventions data={data} />;
}

function Interventions({ data }: { data: InterventionsData }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const [params] = useSearchParams();
  const [filters, setFilters] = useState<Filters>({ sansOperation: false, recherche: "" });
  const operations = useMemo(() => new Map(data.operations.map((o) => [o.id, o.libelle])), [data.operations]);
  const cultures = useMemo(() => new Map(data.cultures.map((c) => [c.id, lang === "en" && c.libelleEn ? c.libelleEn : c.libelle])), [data.cultures, lang]);
  const parcelles = useMemo(() => new Map(data.parcelles.map((p) => [p.id, p.libelle])), [data.parcelles]);
  const rows = data.rows.filter((r) => matchesFilters(r, filters));
  const several = data.selection.length > 1;
  const readOnly = !data.canWrite;

  if (data.parcelles.length === 0) {
    return (
      <div className="mx-auto max-w-6xl space-y-4">
        <ScreenTitle title={t("screen.interventions")} readOnly={readOnly} />
        <p className="card" data-testid="interventions-no-plot">{t("interventions.aucune-parcelle")}</p>
      </div>
    );
  }

  const columns: DataTableColumn<InterventionRow>[] = [
    ...(several ? [{ id: "parcelle", header: t("interventions.colonnes.parcelle"), cell: (r: InterventionRow) => parcelles.get(r.idParcelle) ?? "", sortValue: (r: InterventionRow) => parcelles.get(r.idParcelle) ?? "" }] : []),
    { id: "date", header: t("interventions.colonnes.date"), cell: (r) => formatDate(r.date), sortValue: (r) => r.date, alwaysVisible: true },
    { id: "operation", header: t("interventions.colonnes.operation"), cell: (r) => (r.idOperationCulturale ? operations.get(r.idOperationCulturale) ?? "" : ""), sortValue: (r) => (r.idOperationCulturale ? operations.get(r.idOperationCulturale) ?? "" : "") },
    { id: "marqueur", header: t("interventions.colonnes.marqueur"), cell: (r) => marqueur(r.realisee, r.prevue), sortValue: (r) => marqueur(r.realisee, r.prevue) },
    { id: "passages", header: t("interventions.colonnes.passages"), cell: (r) => formatNumber(r.nombrePassage, lang, 3), sortValue: (r) => r.nombrePassage, align: "right" },
    { id: "culture", header: t("interventions.colonnes.culture"), cell: (r) => (r.idCultureConcernee ? cultures.get(r.idCultureConcernee) ?? "" : ""), sortValue: (r) => (r.idCultureConcernee ? cultures.get(r.idCultureConcernee) ?? "" : "") },
    { id: "intrants", header: t("interventions.colonnes.intrants"), cell: (r) => intrantsText(r.intrants, lang) },
    { id: "rdd", header: t("interventions.colonnes.rdd"), cell: (r) => (r.rdd ? t("interventions.rdd-oui") : ""), sortValue: (r) => (r.rdd ? 1 : 0) },
  ];

  return (
    <div className="mx-auto max-w-6xl space-y-4">
      <ListScreen
        header={<InterventionsToolbar data={data} filters={filters} onFilters={setFilters} readOnly={readOnly} />}
        tableId="interventions"
        title={t("screen.interventions")}
        label={t("screen.interventions")}
        rows={rows}
        columns={columns}
        getRowId={(r) => r.id}
        readOnly={readOnly}
        renderForm={(row, controls) => (
          <InterventionForm
            row={row}
            controls={controls}
            idParcelle={row?.idParcelle ?? data.selection[0]}
            operations={data.operations}
            cultures={data.cultures}
            pickedDate={params.get("date") ?? undefined}
          />
        )}
      />
    </div>
  );
}
