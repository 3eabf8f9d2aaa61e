import { getFormProps, getInputProps, getTextareaProps, useForm, useInputControl } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useRef, useState } from "react";
import { useTranslation } from "~/use-translation";
import { type ShouldRevalidateFunctionArgs } from "react-router";
import { AssurancePanel } from "~/components/cultures/assurance-panel";
import { CropRows } from "~/components/cultures/crop-rows";
import { type DataTableColumn } from "~/components/data-table";
import { DuplicationDialog } from "~/components/duplication-dialog";
import { formatNumber, numberText, refLabel } from "~/components/farm-form";
import { Field, TextInput } from "~/components/field";
import { ListSaveButton, ListScreen, listScreenShouldRevalidate, useListFormFetcher, useListFormSave, type ListFormControls } from "~/components/list-screen";
import { StaleFormPanel, useStaleForm } from "~/components/stale-form-panel";
import type { FormTexts } from "~/components/stale-form";
import { DuplicationModeConduiteSchema, EstimationSchema, ModeConduiteSchema, compterCultures, type ModeConduiteInput } from "~/domain/mode-conduite";
import { deleteIntent, formIntent, queryId, rowIntent, saveIntent, screenAction, screenLoader } from "#server/http/route.server";
import {
  duplicateModesConduite,
  estimateAssurance,
  getDuplicationOptions,
  getModesConduite,
  getQualifiants,
  getTypesSortie,
  removeAssurance,
  removeModesConduite,
  saveModeConduite,
} from "#server/mode-conduite/service.server";
import type { Route } from "./+types/cultures";

/**
 * Crops: crop management modes with their crop rows and crop insurance (spec 2 §2 "Crops", §3, §4, §5, §6,
 * §7 "Crop management", §8; B-CROP, B-INS, B-RIGHTS-04, B-ERR-09, B-ERR-10). The loader also answers the
 * pickers: ?qualifiants=ID (cultures/{id}/qualifiants), ?typesSorties=ID (types_sorties of a crop) and the
 * duplication dialog (?dupli&dossier=&exploitation=).
 */
export const loader = screenLoader(async ({ scope, query }) => {
  const idQualifiants = queryId(query, "qualifiants");
  const idTypes = queryId(query, "typesSorties");
  return {
    ...(await getModesConduite(scope)),
    qualifiants: idQualifiants ? await getQualifiants(scope, idQualifiants) : null,
    typesSorties: idTypes ? await getTypesSortie(scope, idTypes) : null,
    duplication: query.has("dupli")
      ? await getDuplicationOptions(scope, { idDossier: queryId(query, "dossier"), idExploitation: queryId(query, "exploitation") })
      : null,
  };
});

export const action = screenAction(
  {
    save: saveIntent(ModeConduiteSchema, ({ scope }, value, edit) => saveModeConduite(scope, value, edit)),
    delete: deleteIntent(({ scope }, ids) => removeModesConduite(scope, ids)),
    deleteAssurance: rowIntent(({ scope }, id) => removeAssurance(scope, id), "ui.delete-confirmation"),
    estimate: formIntent(EstimationSchema, async ({ scope }, value) => ({ estimation: await estimateAssurance(scope, value) })),
    duplicate: formIntent(DuplicationModeConduiteSchema, async ({ scope }, value) => ({ copies: (await duplicateModesConduite(scope, value)).copies }), {
      notice: "cultures.duplicated",
    }),
  },
  // Estimating reads; a duplication writes other campaigns, whose rights its service checks.
  { gate: "campaign", gateExcept: ["estimate", "duplicate"] },
);

/** An estimate reads only: the screen's data need not be loaded again after it. */
export function shouldRevalidate(args: ShouldRevalidateFunctionArgs) {
  if (args.formData?.get("intent") === "estimate") return false;
  return listScreenShouldRevalidate(args);
}

type Data = Route.ComponentProps["loaderData"];
type Row = Data["rows"][number];
type Text = string | undefined;
/** The form's values as the browser holds them (text); the schema turns them into ModeConduiteInput. */
type FormValues = {
  libelle?: Text;
  aideCouplee?: Text;
  dicIdCatCompetilis?: Text;
  remarque?: Text;
  cultures?: { id?: Text; idCulture?: Text; idCatCulture?: Text; idQualifiant?: Text }[];
  assurance?: {
    idCulture?: Text;
    idTypeSortie?: Text;
    mtCotisationAssurance?: Text;
    mtIndemniteSaisie?: Text;
    rendementAssure?: Text;
    mtPrixAssure?: Text;
    txFranchise?: Text;
  };
};

function defaults(row: Row | null, lang: string): FormValues | undefined {
  if (!row) return { cultures: [{}] };
  const a = row.modeConduiteAssurance;
  const s = (n: number | null) => (n == null ? undefined : String(n));
  return {
    libelle: row.libelle,
    aideCouplee: numberText(row.aideCouplee, lang),
    dicIdCatCompetilis: s(row.dicIdCatCompetilis),
    remarque: row.remarque ?? undefined,
    cultures: row.modeConduiteCultureList.map((c) => ({
      id: String(c.id),
      idCulture: String(c.idCulture),
      idCatCulture: s(c.idCatCulture),
      idQualifiant: s(c.idQualifiant),
    })),
    assurance: a
      ? {
          idCulture: s(a.idCulture),
          idTypeSortie: s(a.idTypeSortie),
          mtCotisationAssurance: numberText(a.mtCotisationAssurance, lang),
          mtIndemniteSaisie: numberText(a.mtIndemniteSaisie, lang),
          rendementAssure: numberText(a.rendementAssure, lang),
          mtPrixAssure: numberText(a.mtPrixAssure, lang),
          txFranchise: numberText(a.txFranchise, lang),
        }
      : {},
  };
}

/**
 * The mode's form. Its body is keyed by the updatedAt of the row its values come from (`stale.shown`): after a save
 * (new rows get their ids), an insurance deletion or another user's change to an unchanged form, the form starts
 * again from the stored mode; a save refused as stale keeps the typed values and shows theirs beside them
 * (decision 0136): "keep mine" takes their updatedAt without restarting, "take theirs" restarts from their row.
 */
function ModeForm({ row, data, controls }: { row: Row | null; data: Data; controls: ListFormControls }) {
  const { i18n } = useTranslation();
  const { fetcher, dirty, markDirty, markClean } = useListFormFetcher(controls, !row);
  const stale = useStaleForm<Row>({ row, answer: fetcher.data, dirty, values: (r) => defaults(r, i18n.language) as FormTexts, markClean });
  return (
    <ModeFormBody
      key={row ? stale.shown : "new"}
      row={row}
      data={data}
      controls={controls}
      fetcher={fetcher}
      dirty={dirty}
      markDirty={markDirty}
      discard={markClean}
      stale={stale}
    />
  );
}

function ModeFormBody({
  row,
  data,
  controls,
  fetcher,
  dirty,
  markDirty,
  discard,
  stale,
}: {
  row: Row | null;
  data: Data;
  controls: ListFormControls;
  fetcher: ReturnType<typeof useListFormFetcher>["fetcher"];
  dirty: boolean;
  markDirty: () => void;
  discard: () => void;
  stale: ReturnType<typeof useStaleForm>;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const lastResult = useRef(fetcher.data?.submission);
  const [form, fields] = useForm<FormValues, ModeConduiteInput>({
    id: `mode-conduite-${row?.id ?? "new"}`,
    // A form remounted after a save must not show the previous answer's errors.
    lastResult: fetcher.data?.submission === lastResult.current ? undefined : (fetcher.data?.submission as never),
    defaultValue: defaults(row, lang),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ModeConduiteSchema }),
  });
  useListFormSave(controls, "cultures", form, dirty, discard);
  const competilis = useInputControl(fields.dicIdCatCompetilis);
  const canWrite = data.canWrite && !controls.readOnly;

  // The counts follow the rows as typed (B-CROP-05).
  // Read-only, the inputs are disabled and the form holds no value: the stored rows are counted.
  const typed = ((controls.readOnly ? defaults(row, lang)?.cultures : form.value?.cultures) ?? []) as { idCulture?: string; idCatCulture?: string }[];
  const cultureById = new Map(data.cultures.map((c) => [c.id, c]));
  const codeById = new Map(data.categories.map((c) => [c.id, c.code]));
  const counts = compterCultures(
    typed.map((c) => ({ idCulture: Number(c?.idCulture) || null, idCatCulture: Number(c?.idCatCulture) || null })),
    (id) => codeById.get(id),
    (id) => cultureById.get(id)?.idCatCulture,
  );

  return (
    <fetcher.Form method="post" {...getFormProps(form)} onInput={markDirty} className="space-y-3">
      {row ? (
        <>
          <input type="hidden" name="id" value={row.id} />
          <input type="hidden" name="updatedAt" value={stale.token} />
        </>
      ) : null}
      <fieldset disabled={controls.readOnly} className="space-y-3">
        <div className="grid gap-x-4 sm:grid-cols-2 lg:grid-cols-3">
          <Field id={fields.libelle.id} label={t("cultures.libelle")} errors={fields.libelle.errors}>
            <TextInput
              {...getInputProps(fields.libelle, { type: "text" })}
              autoFocus
              invalid={!!fields.libelle.errors}
              describedBy={`${fields.libelle.id}-error`}
            />
          </Field>
          <Field id={fields.aideCouplee.id} label={t("cultures.aideCouplee")} errors={fields.aideCouplee.errors}>
            <TextInput
              {...getInputProps(fields.aideCouplee, { type: "text" })}
              inputMode="decimal"
              invalid={!!fields.aideCouplee.errors}
              describedBy={`${fields.aideCouplee.id}-error`}
            />
          </Field>
          <Field id={fields.dicIdCatCompetilis.id} label={t("cultures.dicIdCatCompetilis")} errors={fields.dicIdCatCompetilis.errors}>
            <select
              id={fields.dicIdCatCompetilis.id}
              name={fields.dicIdCatCompetilis.name}
              className="field-input"
              value={competilis.value ?? ""}
              onChange={(e) => {
                competilis.change(e.target.value);
                markDirty();
              }}
            >
              <option value="">—</option>
              {data.competilis.map((c) => (
                <option key={c.id} value={c.id}>
                  {refLabel(c, lang)}
                </option>
              ))}
            </select>
          </Field>
        </div>
        <Field id={fields.remarque.id} label={t("cultures.remarque")} errors={fields.remarque.errors}>
          <textarea {...getTextareaProps(fields.remarque)} className="field-input" rows={2} />
        </Field>

        <fieldset className="rounded border border-stone-200 p-3">
          <legend className="px-1 text-sm font-semibold text-sillon-800">{t("cultures.cultures-title")}</legend>
          <p className="mb-2 flex flex-wrap gap-4 text-xs text-stone-600" data-testid="crop-counts">
            <span>
              {t("cultures.compte", { label: t("cultures.nbCulturesPrincipales") })}{" "}
              <strong data-testid="nb-principales">{counts.nbCulturesPrincipales}</strong>
            </span>
            <span>
              {t("cultures.compte", { label: t("cultures.nbCulturesIntermediaires") })}{" "}
              <strong data-testid="nb-intermediaires">{counts.nbCulturesIntermediaires}</strong>
            </span>
            <span>
              {t("cultures.compte", { label: t("cultures.nbCulturesDerobees") })} <strong data-testid="nb-derobees">{counts.nbCulturesDerobees}</strong>
            </span>
          </p>
          <CropRows form={form} field={fields.cultures} cultures={data.cultures} categories={data.categories} canWrite={canWrite} onChange={markDirty} />
        </fieldset>

        <AssurancePanel
          field={fields.assurance}
          idModeConduite={row?.id ?? null}
          stored={row?.modeConduiteAssurance ?? null}
          cultures={data.cultures}
          formValid={() => ModeConduiteSchema.safeParse(form.value ?? {}).success}
          readOnly={controls.readOnly}
          canDelete={!!row?.modeConduiteAssurance}
          onChange={markDirty}
        />
      </fieldset>
      <StaleFormPanel
        stale={stale}
        mine={(form.value ?? {}) as FormTexts}
        labels={[
          { name: "libelle", label: t("cultures.libelle") },
          { name: "aideCouplee", label: t("cultures.aideCouplee") },
          { name: "dicIdCatCompetilis", label: t("cultures.dicIdCatCompetilis") },
          { name: "remarque", label: t("cultures.remarque") },
        ]}
        say={(name, v) => {
          const c = name === "dicIdCatCompetilis" && v ? data.competilis.find((x) => String(x.id) === v) : undefined;
          return c ? refLabel(c, lang) : v;
        }}
      />
      <div className="flex justify-end gap-2">
        <button type="button" className="btn-secondary" onClick={controls.close}>
          {t("ui.close")}
        </button>
        <ListSaveButton isNew={!row} valid={form.valid} dirty={dirty} busy={fetcher.state !== "idle"} readOnly={controls.readOnly} />
      </div>
    </fetcher.Form>
  );
}

export default function CulturesScreen({ loaderData: data }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const [dupli, setDupli] = useState<number[] | null>(null);
  const cultures = new Map(data.cultures.map((c) => [c.id, c]));
  const competilis = new Map(data.competilis.map((c) => [c.id, c]));
  const cropNames = (r: Row) => r.modeConduiteCultureList.map((c) => (lang === "en" && c.libelleCultureEn ? c.libelleCultureEn : c.libelleCulture)).join(", ");
  const insured = (r: Row) => {
    const c = r.modeConduiteAssurance?.idCulture != null ? cultures.get(r.modeConduiteAssurance.idCulture) : undefined;
    return c ? refLabel(c, lang) : "";
  };

  const columns: DataTableColumn<Row>[] = [
    { id: "libelle", header: t("cultures.libelle"), cell: (r) => r.libelle, sortValue: (r) => r.libelle, alwaysVisible: true },
    { id: "cultures", header: t("cultures.col-cultures"), cell: cropNames, sortValue: cropNames },
    {
      id: "nbPrincipales",
      header: t("cultures.nbCulturesPrincipales"),
      cell: (r) => r.nbCulturesPrincipales,
      sortValue: (r) => r.nbCulturesPrincipales,
      align: "right",
    },
    {
      id: "nbIntermediaires",
      header: t("cultures.nbCulturesIntermediaires"),
      cell: (r) => r.nbCulturesIntermediaires,
      sortValue: (r) => r.nbCulturesIntermediaires,
      align: "right",
    },
    { id: "nbDerobees", header: t("cultures.nbCulturesDerobees"), cell: (r) => r.nbCulturesDerobees, sortValue: (r) => r.nbCulturesDerobees, align: "right" },
    { id: "aideCouplee", header: t("cultures.aideCouplee"), cell: (r) => formatNumber(r.aideCouplee, lang), sortValue: (r) => r.aideCouplee, align: "right" },
    { id: "assurance", header: t("cultures.col-assurance"), cell: insured, sortValue: insured },
    {
      id: "competilis",
      header: t("cultures.dicIdCatCompetilis"),
      cell: (r) => {
        const c = r.dicIdCatCompetilis != null ? competilis.get(r.dicIdCatCompetilis) : undefined;
        return c ? refLabel(c, lang) : "";
      },
      optional: true,
    },
    { id: "remarque", header: t("cultures.remarque"), cell: (r) => r.remarque ?? "", optional: true },
  ];

  return (
    <div className="mx-auto max-w-6xl space-y-4" data-testid="screen-cultures">
      <ListScreen
        tableId="mode_conduite"
        title={t("screen.cultures")}
        label={t("screen.cultures")}
        rows={data.rows}
        columns={columns}
        getRowId={(r) => r.id}
        readOnly={!data.canWrite}
        renderForm={(row, controls) => <ModeForm row={row} data={data} controls={controls} />}
        extraToolbar={(checked) => (
          <button
            type="button"
            className="btn-secondary"
            disabled={!data.canWrite || checked.length === 0}
            onClick={() => setDupli(checked.map(Number))}
            data-testid="cultures-duplicate"
          >
            {t("cultures.duplicate")}
          </button>
        )}
      />
      <DuplicationDialog
        ids={dupli}
        idDossier={data.idDossier}
        idExploitation={data.idExploitation}
        onClose={() => setDupli(null)}
        schema={DuplicationModeConduiteSchema}
        keyPrefix="cultures"
        idPrefix="mc"
      />
    </div>
  );
}
