import { useMemo, useState } from "react";
import { useTranslation } from "~/use-translation";
import { useSearchParams } from "react-router";
import { ScreenTitle } from "~/components/farm-form";
import { InterventionForm } from "~/components/interventions/intervention-form";
import { InterventionsToolbar, matchesFilters, type Filters } from "~/components/interventions/toolbar";
import type { InterventionsData } from "~/domain/contracts/interventions";
import { decodeChoices, decodeInterventions, type EncodedChoices, type EncodedInterventions } from "~/domain/contracts/interventions-codec";
import { ListScreen, listScreenShouldRevalidate } from "~/components/list-screen";
import { InterventionGrilleSchema } from "~/domain/intervention";
import { AutreSchema, EauSchema, FertilisantSchema, PhytoSchema, SemenceSchema } from "~/domain/intrant";
import {
  deleteIntent,
  editOf,
  formIntent,
  idField,
  idsField,
  intent,
  jsonField,
  optionalIdField,
  queryIds,
  rowIntent,
  saveIntent,
  screenAction,
  screenLoader,
  stampField,
} from "#server/http/route.server";
import { ACTIONS_LOAD_ERROR, getInterventionsPacked, removeInterventions, saveIntervention, saveInterventionsGrid } from "#server/intervention/service.server";
import { rowPatchListSchema } from "~/domain/grid-patches";
import { InterventionsGrid } from "~/components/interventions/interventions-grid";
import { useGridSave } from "~/components/grid/use-grid-save";
import {
  addIntrantsToActions,
  removeIntrant,
  removeIntrants,
  saveIntrant,
  saveIntrantsGrid,
  type IntrantInputOf,
  type IntrantKind,
} from "#server/intrant/service.server";
import { IntrantGrilleSchema } from "~/domain/intrant-grille";
import { QualifiantRecolteSchema, RecolteSchema, type RecolteInput } from "~/domain/recolte";
import { createQualifiant, removeQualifiant, removeRecolte, saveRecolte } from "#server/recolte/service.server";
import { IntrantDossierSchema, type IntrantDossierInput } from "~/domain/intrant-dossier";
import { createIntrantDossier, updateIntrantDossier } from "#server/intrant-dossier/service.server";
import { DuplicationCampagneInterventionsSchema, DuplicationInterventionsSchema, ExportInterventionsSchema, ImportInterventionsSchema } from "~/domain/copie";
import { AffectationsSchema, MajDatesCampagneSchema, MajDatesSchema } from "~/domain/parcelle";
import { getAffectations, majDatesActions, majDatesCampagne, saveAffectations } from "#server/parcelle/service.server";
import { copyChoices, duplicateCampaignInterventions, duplicateInterventions, exportInterventions, importInterventions } from "#server/copie/service.server";
import { IntrantsGrille } from "~/components/interventions/intrants-grille";
import { IndicateursParcelleFetch } from "~/components/interventions/indicateurs-fetch";
import { ScreenFrame } from "~/components/screen-frame";
import type { Route } from "./+types/interventions";

/**
 * The interventions screen (spec 3 §2.1, issue 11): the interventions of the chosen plots, filtered, and the
 * intervention form below. `parcelleId` (repeatable) chooses the plots; the first plot otherwise (C-INT-04).
 */
export const shouldRevalidate = listScreenShouldRevalidate;

export const loader = screenLoader(
  async ({ scope, query }) => {
    // The first chosen plot's indicators come in the panel's own request once the grid shows (decision 0076).
    const data = await getInterventionsPacked(scope, { parcelleIds: queryIds(query, "parcelleId") });
    return { ...data, affectations: query.get("affectations") ? await getAffectations(scope) : null };
  },
  { loadError: ACTIONS_LOAD_ERROR },
);

/** An input dialog's save (spec 3 §4.1): create without id, update with id and its updatedAt. */
function inputIntent<K extends IntrantKind>(kind: K, schema: Parameters<typeof formIntent>[0]) {
  return formIntent(
    schema,
    async ({ scope }, value, envelope: { idAction: number; id?: number; updatedAt?: string | null }) => {
      const edit = editOf(envelope);
      const id = await saveIntrant(scope, envelope.idAction, kind, value as IntrantInputOf[K], edit);
      return { id, notice: edit ? "ui.update-confirmation" : "ui.create-confirmation" };
    },
    { fields: { idAction: idField, id: optionalIdField, updatedAt: stampField } },
  );
}

export const action = screenAction(
  {
    // The form's schema is the grid's row schema: the register's fields are the form's too (decision 0125).
    save: saveIntent(InterventionGrilleSchema, ({ scope }, value, edit) => saveIntervention(scope, value, edit)),
    delete: deleteIntent(({ scope }, ids) => removeInterventions(scope, ids)),
    grid: intent({ patches: jsonField(rowPatchListSchema(InterventionGrilleSchema)) }, async ({ scope }, { patches }) => ({
      ok: true as const,
      ...(await saveInterventionsGrid(scope, patches)),
    })),
    saveSemence: inputIntent("semence", SemenceSchema),
    savePhyto: inputIntent("phyto", PhytoSchema),
    saveFertilisant: inputIntent("fertilisant", FertilisantSchema),
    saveEau: inputIntent("eau", EauSchema),
    saveAutre: inputIntent("autre", AutreSchema),
    // The inputs of one intervention edited in the grid (decision 0126): the dialogs' schemas and write path.
    intrantsGrid: intent({ idAction: idField, patches: jsonField(rowPatchListSchema(IntrantGrilleSchema)) }, async ({ scope }, { idAction, patches }) => ({
      ok: true as const,
      ...(await saveIntrantsGrid(scope, idAction, patches)),
    })),
    // The inputs grid's block pasted over several selected interventions, one save (decision 0137).
    intrantsGridActions: intent(
      { idActions: idsField, patches: jsonField(rowPatchListSchema(IntrantGrilleSchema)) },
      async ({ scope }, { idActions, patches }) => ({ ok: true as const, ...(await addIntrantsToActions(scope, idActions, patches)) }),
    ),
    deleteIntrant: rowIntent(({ scope }, id) => removeIntrant(scope, id), "ui.delete-confirmation"),
    // The rows selected in the inputs grid: the dialogs' delete path, several ids (decision 0137).
    deleteIntrants: deleteIntent(({ scope }, ids) => removeIntrants(scope, ids)),
    // Harvest products and the folder's harvest qualifiers (decision 0031).
    saveRecolte: formIntent(
      RecolteSchema,
      async ({ scope }, value, envelope: { idAction: number; id?: number; updatedAt?: string | null }) => {
        const edit = editOf(envelope);
        const id = await saveRecolte(scope, envelope.idAction, value as RecolteInput, edit);
        return { id, notice: edit ? "ui.update-confirmation" : "ui.create-confirmation" };
      },
      { fields: { idAction: idField, id: optionalIdField, updatedAt: stampField } },
    ),
    deleteRecolte: rowIntent(({ scope }, id) => removeRecolte(scope, id), "ui.delete-confirmation"),
    createQualifiant: formIntent(
      QualifiantRecolteSchema,
      async ({ scope }, value) => ({ qualifiant: await createQualifiant(scope, value), notice: "ui.create-confirmation" }),
      { reset: true },
    ),
    deleteQualifiant: rowIntent(({ scope }, id) => removeQualifiant(scope, id), "ui.delete-confirmation"),
    // The folder's unreferenced inputs (decision 0032): created by a writer, edited by an animator of the folder.
    saveIntrantDossier: formIntent(
      IntrantDossierSchema,
      async ({ scope }, value, envelope: { id?: number; updatedAt?: string | null }) => {
        const edit = editOf(envelope);
        if (!edit) return { id: await createIntrantDossier(scope, value as IntrantDossierInput), notice: "ui.create-confirmation" };
        const { relabelled } = await updateIntrantDossier(scope, edit, value as IntrantDossierInput);
        return { id: edit.id, relabelled, notice: "ui.update-confirmation" };
      },
      { fields: { id: optionalIdField, updatedAt: stampField } },
    ),
    // Copy and duplication, date update (decision 0047): the dialogs' choices, then one transaction per copy.
    copieChoix: intent({}, async ({ scope }) => ({ ok: true as const, choix: await copyChoices(scope) })),
    exportInterventions: formIntent(ExportInterventionsSchema, async ({ scope }, value) => ({
      copies: await exportInterventions(scope, value),
      notice: "copie.copie-faite",
    })),
    importInterventions: formIntent(ImportInterventionsSchema, async ({ scope }, value) => ({
      copies: await importInterventions(scope, value),
      notice: "copie.copie-faite",
    })),
    duplicationInterventions: formIntent(DuplicationInterventionsSchema, async ({ scope }, value) => ({
      copies: await duplicateInterventions(scope, value),
      notice: "copie.duplication-faite",
    })),
    // Several source plots, each to its destination plots: one request, one set-based copy (issue 30, decision 0123).
    duplicationCampagneInterventions: formIntent(DuplicationCampagneInterventionsSchema, async ({ scope }, value) => ({
      copies: await duplicateCampaignInterventions(scope, value),
      notice: "copie.duplication-faite",
    })),
    // The plots screen's date update and cost-centre assignment, from the Other menu (C-DATE; spec 3 §2.1).
    majDates: formIntent(MajDatesSchema, async ({ scope }, value) => ({ moved: await majDatesActions(scope, value) }), {
      notice: "ui.update-confirmation",
      reset: true,
    }),
    majDatesCampagne: formIntent(MajDatesCampagneSchema, async ({ scope }, value) => ({ moved: await majDatesCampagne(scope, value) }), {
      notice: "ui.update-confirmation",
      reset: true,
    }),
    affectations: intent({ affectations: jsonField(AffectationsSchema) }, async ({ scope }, { affectations }) => {
      await saveAffectations(scope, affectations);
      return { ok: true as const, notice: "ui.update-confirmation" };
    }),
  },
  { gate: "campaign" },
);

export default function InterventionsScreen({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <ScreenFrame data={loaderData} title={t("screen.interventions")} name="interventions" width="6xl">
      {(data) => <UnpackedInterventions data={data} />}
    </ScreenFrame>
  );
}

type PackedInterventions = Omit<InterventionsData, "rows" | "parcelles" | "operations" | "cultures"> & { choix: EncodedChoices; rows: EncodedInterventions };

function UnpackedInterventions({ data }: { data: PackedInterventions }) {
  const unpacked = useMemo(() => {
    const { choix, rows, ...rest } = data;
    return { ...rest, ...decodeChoices(choix), rows: decodeInterventions(rows) };
  }, [data]);
  return <Interventions data={unpacked} />;
}

function Interventions({ data }: { data: InterventionsData }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const [filters, setFilters] = useState<Filters>({ sansOperation: false, recherche: "" });
  /** The interventions selected in the grid, for "Copier la sélection". */
  const [selectedIds, setSelectedIds] = useState<number[]>([]);
  const rows = data.rows.filter((r) => matchesFilters(r, filters));
  const readOnly = !data.canWrite;
  const onGridSave = useGridSave();

  if (data.parcelles.length === 0) {
    return (
      <div className="mx-auto max-w-6xl space-y-4">
        <ScreenTitle title={t("screen.interventions")} readOnly={readOnly} />
        <p className="card" data-testid="interventions-no-plot">
          {t("interventions.aucune-parcelle")}
        </p>
      </div>
    );
  }

  return (
    <div className="mx-auto max-w-6xl space-y-4">
      <ListScreen
        header={<InterventionsToolbar data={data} filters={filters} onFilters={setFilters} readOnly={readOnly} selectedIds={selectedIds} />}
        renderTable={({ onSelect, selectedId }) => (
          <>
            <InterventionsGrid
              data={data}
              rows={rows}
              readOnly={readOnly}
              onSave={onGridSave}
              onSelect={(id) => onSelect(id !== null && id > 0 ? id : null)}
              onRowsSelected={setSelectedIds}
            />
            <IntrantsGrille
              intervention={data.rows.find((r) => String(r.id) === selectedId) ?? null}
              selection={data.rows.filter((r) => selectedIds.includes(r.id))}
              readOnly={readOnly}
            />
          </>
        )}
        tableId="interventions"
        title={t("screen.interventions")}
        label={t("screen.interventions")}
        rows={rows}
        columns={[]}
        getRowId={(r) => r.id}
        readOnly={readOnly}
        renderForm={(row, controls) => (
          <InterventionForm
            row={row}
            controls={controls}
            idParcelle={row?.idParcelle ?? data.selection[0]}
            operations={data.operations}
            cultures={data.cultures}
            stades={data.stades}
            canEditFolderInputs={data.canEditFolderInputs ?? false}
            pickedDate={params.get("date") ?? undefined}
            anneeRecolte={data.anneeRecolte}
          />
        )}
      />
      {data.selection[0] != null && <IndicateursParcelleFetch idParcelle={data.selection[0]} />}
    </div>
  );
}
