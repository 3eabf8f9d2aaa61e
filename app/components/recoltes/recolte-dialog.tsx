import { getFormProps, getInputProps, useForm, useInputControl, type FieldMetadata } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useEffect, useEffectEvent, useRef, useState } from "react";
import { useTranslation } from "~/use-translation";
import { useFetcher } from "react-router";
import { AppDialog } from "~/components/dialog";
import { useActionFeedback } from "~/components/feedback";
import { Field, TextInput } from "~/components/field";
import { numberText } from "~/components/format";
import { useCatalogue } from "~/components/interventions/input-dialogs";
import type { InterventionRow } from "~/domain/contracts/interventions";
import {
  CATEGORIE_CULTURE_RECOLTE_DEFAUT,
  estPaturage,
  MAX_ANIMAUX,
  OBSERVATIONS_RECOLTE,
  QUALIFIANT_DELETE_WARNING,
  QualifiantRecolteSchema,
  RecolteSchema,
  UNITE_PATURAGE,
  UNITE_RECOLTE_DEFAUT,
  type RecolteDetail,
} from "~/domain/recolte";
import { validate } from "~/domain/validation";
import { useOnSaved } from "~/components/list-screen";

/**
 * The harvest-product dialog (spec 3 §2.2, §4.1, §4.2; decision 0031): crop category (main crops first) and crop,
 * the crop's output types (cleared and reloaded when the crop changes), then either the yield, reference
 * humidity, qualifier and actual observations, or for a grazing (671) its duration and animal rows. The folder's
 * qualifiers are created from typed text and deleted here (refused with a warning while harvests use them).
 */

type Ref = { id: number; libelle: string; libelleEn: string | null };
type Culture = Ref & { idCatCulture: number | null; campagne: boolean };
type TypeSortie = Ref & { unite: string };
type Qualifiant = { id: number; qrdNom: string; utilise: boolean };
type Lists = {
  categories: Ref[];
  categorieDefaut: number;
  cultures: Culture[];
  animaux: Ref[];
  qualifiants: Qualifiant[];
  idCultureIntervention: number | null;
};
type Stored = {
  id: number;
  updatedAt: string;
  idCulture: number;
  dicIdTypeSortie: number;
  rendement: number | null;
  dicLlUnite: string;
  idQualifiantRecolte: number | null;
  humiditeReference: number | null;
  animaux: { dicIdModalite: number; nombre: number | null }[];
  serie: { id: number; nom: string; observations: Record<string, number | null> } | null;
};

type FormShape = Record<string, unknown>;
type AnyField = FieldMetadata<string | undefined, FormShape, string[]>;

const DIALOG_WIDTH = 700;
const labelOf = (c: { libelle: string; libelleEn: string | null }, lang: string) => (lang === "en" && c.libelleEn ? c.libelleEn : c.libelle);

export function RecolteDialog({
  recolte,
  intervention,
  readOnly,
  onClose,
}: {
  recolte: RecolteDetail | null;
  intervention: InterventionRow;
  readOnly: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const stored = useCatalogue<{ recolte?: Stored }>(recolte ? { recolte: recolte.id } : null);
  const lists = useCatalogue<{ recolteLists?: Lists }>({ kind: "recolte", action: intervention.id });
  if ((recolte && !stored.data?.recolte) || !lists.data?.recolteLists) {
    return (
      <AppDialog
        open
        title={t("ui.loading")}
        width={DIALOG_WIDTH}
        onEscape={onClose}
        testId="recolte-dialog-loading"
        actions={
          <button type="button" className="btn-secondary" onClick={onClose}>
            {t("ui.cancel")}
          </button>
        }
      >
        <p role="status">{t("ui.loading")}</p>
      </AppDialog>
    );
  }
  return (
    <RecolteForm stored={stored.data?.recolte ?? null} lists={lists.data.recolteLists} intervention={intervention} readOnly={readOnly} onClose={onClose} />
  );
}

function RecolteForm({
  stored,
  lists,
  intervention,
  readOnly,
  onClose,
}: {
  stored: Stored | null;
  lists: Lists;
  intervention: InterventionRow;
  readOnly: boolean;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const fetcher = useFetcher<{ ok: boolean; submission?: unknown; notice?: string; error?: string }>({ key: `recolte-${stored?.id ?? "new"}` });
  useActionFeedback(fetcher.data);
  const grazing = stored ? estPaturage(stored.dicIdTypeSortie) : false;
  const obs = stored?.serie?.observations ?? {};
  const [form, fields] = useForm<FormShape>({
    id: `recolte-${stored?.id ?? "new"}`,
    lastResult: fetcher.data?.submission as never,
    defaultValue: {
      idCulture: stored
        ? String(stored.idCulture)
        : lists.idCultureIntervention && lists.cultures.some((c) => c.id === lists.idCultureIntervention)
          ? String(lists.idCultureIntervention)
          : "",
      dicIdTypeSortie: stored ? String(stored.dicIdTypeSortie) : "",
      rendement: grazing ? "" : numberText(stored?.rendement, lang),
      dureePaturage: grazing ? numberText(stored?.rendement, lang) : "",
      humiditeReference: numberText(stored?.humiditeReference, lang),
      idQualifiantRecolte: stored?.idQualifiantRecolte ? String(stored.idQualifiantRecolte) : "",
      ...Object.fromEntries(OBSERVATIONS_RECOLTE.map((o) => [o.champ, grazing ? "" : numberText(obs[o.champ] ?? null, lang)])),
      animaux: (stored?.animaux ?? []).map((a) => ({ dicIdModalite: String(a.dicIdModalite), nombre: numberText(a.nombre, lang) })),
    } as never,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: RecolteSchema }) as never,
  });
  // The dialog closes once its save is answered ok.
  useOnSaved(fetcher, () => onClose());

  const f = fields as unknown as Record<string, AnyField>;
  const culture = useInputControl(f.idCulture as never);
  const typeSortie = useInputControl(f.dicIdTypeSortie as never);
  const qualifiant = useInputControl(f.idQualifiantRecolte as never);
  const idCulture = typeof culture.value === "string" && culture.value ? Number(culture.value) : null;
  const storedCulture = lists.cultures.find((c) => c.id === (stored?.idCulture ?? idCulture));
  const [categorie, setCategorie] = useState<number>(storedCulture?.idCatCulture ?? lists.categorieDefaut ?? CATEGORIE_CULTURE_RECOLTE_DEFAUT);
  const types = useCatalogue<{ typesSortie?: TypeSortie[] }>(idCulture ? { kind: "types-sortie", culture: idCulture } : null);
  const typeList = idCulture ? (types.data?.typesSortie ?? []) : [];
  const idType = typeof typeSortie.value === "string" && typeSortie.value ? Number(typeSortie.value) : null;
  const chosenType = typeList.find((ty) => ty.id === idType) ?? null;
  const paturage = estPaturage(idType);
  const unite = paturage ? UNITE_PATURAGE : (chosenType?.unite ?? UNITE_RECOLTE_DEFAUT);
  const shown = lists.cultures.filter((c) => c.idCatCulture === categorie || c.id === idCulture);
  const animaux = (fields.animaux as unknown as FieldMetadata<{ dicIdModalite?: string; nombre?: string }[], FormShape, string[]>).getFieldList();

  return (
    <AppDialog
      open
      title={t("recoltes.titre")}
      width={DIALOG_WIDTH}
      onEscape={onClose}
      testId="dialog-recolte"
      actions={
        <>
          <button type="button" className="btn-secondary" onClick={onClose}>
            {readOnly ? t("ui.close") : t("ui.cancel")}
          </button>
          {readOnly ? null : (
            <button type="submit" form={form.id} className="btn-primary" disabled={fetcher.state !== "idle"} data-testid="recolte-save">
              {stored ? t("ui.save") : t("ui.add")}
            </button>
          )}
        </>
      }
    >
      <fetcher.Form method="post" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="saveRecolte" />
        <input type="hidden" name="idAction" value={intervention.id} />
        {stored ? (
          <>
            <input type="hidden" name="id" value={stored.id} />
            <input type="hidden" name="updatedAt" value={stored.updatedAt} />
          </>
        ) : null}
        <fieldset disabled={readOnly}>
          <div className="grid gap-x-4 sm:grid-cols-2">
            <Field id="recolte-categorie" label={t("recoltes.categorie")}>
              <select
                id="recolte-categorie"
                className="field-input"
                value={categorie}
                onChange={(e) => setCategorie(Number(e.target.value))}
                data-testid="recolte-categorie"
              >
                {lists.categories.map((c) => (
                  <option key={c.id} value={c.id}>
                    {labelOf(c, lang)}
                  </option>
                ))}
              </select>
            </Field>
            <Field id={f.idCulture.id} label={t("recoltes.culture")} errors={f.idCulture.errors}>
              <select
                id={f.idCulture.id}
                name={f.idCulture.name}
                className="field-input"
                value={culture.value ?? ""}
                aria-invalid={f.idCulture.errors ? true : undefined}
                onChange={(e) => {
                  // A new crop clears the output type; its own types are loaded (C-HARV-05, 06).
                  culture.change(e.target.value);
                  typeSortie.change("");
                }}
                data-testid="recolte-culture"
              >
                <option value="">{t("context.choose")}</option>
                <optgroup label={t("recoltes.cultures-campagne")}>
                  {shown
                    .filter((c) => c.campagne)
                    .map((c) => (
                      <option key={c.id} value={c.id}>
                        {labelOf(c, lang)}
                      </option>
                    ))}
                </optgroup>
                <optgroup label={t("recoltes.autres-cultures")}>
                  {shown
                    .filter((c) => !c.campagne)
                    .map((c) => (
                      <option key={c.id} value={c.id}>
                        {labelOf(c, lang)}
                      </option>
                    ))}
                </optgroup>
              </select>
            </Field>
            <Field
              id={f.dicIdTypeSortie.id}
              label={t("recoltes.type-sortie")}
              errors={f.dicIdTypeSortie.errors}
              help={
                idCulture && !types.loading && types.data && typeList.length === 0 ? (
                  <span role="alert" className="text-amber-900" data-testid="types-sortie-aucun">
                    {t("recoltes.type-sortie-manquant")}
                  </span>
                ) : undefined
              }
            >
              <select
                id={f.dicIdTypeSortie.id}
                name={f.dicIdTypeSortie.name}
                className="field-input"
                value={typeSortie.value ?? ""}
                aria-busy={types.loading || undefined}
                aria-invalid={f.dicIdTypeSortie.errors ? true : undefined}
                onChange={(e) => typeSortie.change(e.target.value)}
                data-testid="recolte-type-sortie"
              >
                <option value="">{types.loading ? t("ui.loading") : t("context.choose")}</option>
                {typeList.map((ty) => (
                  <option key={ty.id} value={ty.id}>
                    {labelOf(ty, lang)}
                  </option>
                ))}
              </select>
            </Field>
            {paturage ? (
              <NumberField field={f.dureePaturage} label={t("recoltes.duree")} testId="recolte-duree" />
            ) : (
              <NumberField field={f.rendement} label={t("recoltes.rendement", { unite })} testId="recolte-rendement" />
            )}
          </div>
          {paturage ? (
            <fieldset className="rounded border border-stone-200 p-2" data-testid="recolte-animaux">
              <legend className="px-1 text-sm font-semibold">{t("recoltes.animaux")}</legend>
              {animaux.length === 0 ? <p className="text-sm text-stone-600">{t("recoltes.aucun-animal")}</p> : null}
              {animaux.map((row, index) => {
                const a = row.getFieldset() as unknown as Record<string, AnyField>;
                return (
                  <div key={row.key} className="grid items-end gap-x-3 sm:grid-cols-[1fr_10rem_auto]" data-testid="animal-row">
                    <Field id={a.dicIdModalite.id} label={t("recoltes.animal-type", { n: index + 1 })} errors={a.dicIdModalite.errors}>
                      <select
                        id={a.dicIdModalite.id}
                        name={a.dicIdModalite.name}
                        defaultValue={a.dicIdModalite.initialValue as string | undefined}
                        className="field-input"
                        aria-invalid={a.dicIdModalite.errors ? true : undefined}
                        data-testid={`animal-${index}-type`}
                      >
                        <option value="">{t("context.choose")}</option>
                        {lists.animaux.map((r) => (
                          <option key={r.id} value={r.id}>
                            {labelOf(r, lang)}
                          </option>
                        ))}
                      </select>
                    </Field>
                    <NumberField field={a.nombre} label={t("recoltes.animal-nombre", { n: index + 1 })} testId={`animal-${index}-nombre`} />
                    {readOnly ? (
                      <span />
                    ) : (
                      <button
                        type="button"
                        className="btn-secondary mb-3 text-sm"
                        onClick={() => form.remove({ name: fields.animaux.name, index })}
                        aria-label={t("recoltes.retirer-animal", { n: index + 1 })}
                        data-testid={`animal-${index}-remove`}
                      >
                        {t("ui.delete")}
                      </button>
                    )}
                  </div>
                );
              })}
              {readOnly || animaux.length >= MAX_ANIMAUX ? null : (
                <button
                  type="button"
                  className="btn-secondary text-sm"
                  onClick={() => form.insert({ name: fields.animaux.name, defaultValue: {} as never })}
                  data-testid="animal-add"
                >
                  + {t("recoltes.ajouter-animal")}
                </button>
              )}
            </fieldset>
          ) : (
            <>
              <div className="grid gap-x-4 sm:grid-cols-2">
                <NumberField field={f.humiditeReference} label={t("recoltes.humidite-reference")} testId="recolte-humidite-reference" />
                <Field id={f.idQualifiantRecolte.id} label={t("recoltes.qualifiant")} errors={f.idQualifiantRecolte.errors}>
                  <QualifiantPicker
                    field={f.idQualifiantRecolte}
                    value={typeof qualifiant.value === "string" ? qualifiant.value : ""}
                    onChange={(v) => qualifiant.change(v)}
                    initial={lists.qualifiants}
                    readOnly={readOnly}
                  />
                </Field>
              </div>
              <fieldset className="rounded border border-stone-200 p-2" data-testid="recolte-observations">
                <legend className="px-1 text-sm font-semibold">{t("recoltes.observations")}</legend>
                {stored?.serie ? (
                  <p className="mb-2 text-sm text-stone-700" data-testid="recolte-serie">
                    {t("recoltes.serie", { nom: stored.serie.nom })}
                  </p>
                ) : null}
                <div className="grid gap-x-4 sm:grid-cols-3">
                  {OBSERVATIONS_RECOLTE.map((o) => (
                    <NumberField key={o.champ} field={f[o.champ]} label={t(`recoltes.obs.${o.champ}`, { unite: o.unite })} testId={`recolte-${o.champ}`} />
                  ))}
                </div>
              </fieldset>
            </>
          )}
        </fieldset>
      </fetcher.Form>
    </AppDialog>
  );
}

function NumberField({ field, label, testId }: { field: AnyField; label: string; testId: string }) {
  return (
    <Field id={field.id} label={label} errors={field.errors}>
      <TextInput
        {...getInputProps(field as never, { type: "text" })}
        inputMode="decimal"
        invalid={!!field.errors}
        describedBy={`${field.id}-error`}
        data-testid={testId}
      />
    </Field>
  );
}

/**
 * The folder's qualifiers (C-QUAL-01): pick one, create one from typed text (C-QUAL-02), delete the chosen one;
 * a deletion refused because harvests use it shows the warning of §4.2 (C-QUAL-03, 04).
 */
function QualifiantPicker({
  field,
  value,
  onChange,
  initial,
  readOnly,
}: {
  field: AnyField;
  value: string;
  onChange: (v: string) => void;
  initial: Qualifiant[];
  readOnly: boolean;
}) {
  const { t } = useTranslation();
  const [list, setList] = useState(initial);
  const [nom, setNom] = useState("");
  const [nomError, setNomError] = useState<string | null>(null);
  const [warning, setWarning] = useState(false);
  const creator = useFetcher<{
    ok: boolean;
    qualifiant?: { id: number; qrdNom: string };
    notice?: string;
    error?: string;
    submission?: { error?: Record<string, string[] | null> };
  }>({ key: "qualifiant-create" });
  const deleter = useFetcher<{ ok: boolean; notice?: string; error?: string }>({ key: "qualifiant-delete" });
  const deleting = useRef<number | null>(null);
  useActionFeedback(creator.data);
  useActionFeedback(deleter.data?.error === QUALIFIANT_DELETE_WARNING ? undefined : deleter.data);
  const created = creator.data?.ok ? creator.data.qualifiant : undefined;
  const choose = useEffectEvent((id: number) => onChange(String(id)));
  // Once per created qualifier: it joins the list and becomes the choice.
  useEffect(() => {
    if (!created || creator.state !== "idle") return;
    setList((l) =>
      l.some((q) => q.id === created.id)
        ? l
        : [...l, { id: created.id, qrdNom: created.qrdNom, utilise: false }].sort((a, b) => a.qrdNom.localeCompare(b.qrdNom, "fr")),
    );
    choose(created.id);
    setNom("");
  }, [created, creator.state]);
  useEffect(() => {
    if (deleter.state !== "idle" || !deleter.data || deleting.current == null) return;
    const id = deleting.current;
    deleting.current = null;
    if (deleter.data.ok) {
      setList((l) => l.filter((q) => q.id !== id));
      if (value === String(id)) onChange("");
    } else if (deleter.data.error === QUALIFIANT_DELETE_WARNING) {
      setWarning(true);
    }
  }, [deleter.state, deleter.data, value, onChange]);
  const serverError = creator.data?.submission?.error?.qrdNom?.[0] ?? null;
  const create = () => {
    const r = validate(QualifiantRecolteSchema, { qrdNom: nom });
    if (!r.success) {
      setNomError(r.fieldErrors.qrdNom?.[0] ?? "warning.required");
      return;
    }
    setNomError(null);
    void creator.submit({ intent: "createQualifiant", qrdNom: nom }, { method: "post" });
  };
  const error = nomError ?? serverError;
  return (
    <>
      <select
        id={field.id}
        name={field.name}
        className="field-input"
        value={value}
        onChange={(e) => {
          setWarning(false);
          onChange(e.target.value);
        }}
        data-testid="recolte-qualifiant"
      >
        <option value="">{t("recoltes.sans-qualifiant")}</option>
        {list.map((q) => (
          <option key={q.id} value={q.id}>
            {q.qrdNom}
          </option>
        ))}
      </select>
      {readOnly ? null : (
        <div className="mt-1 space-y-1">
          <button
            type="button"
            className="text-sm text-red-800 underline hover:no-underline disabled:text-stone-400 disabled:no-underline"
            disabled={!value || deleter.state !== "idle"}
            onClick={() => {
              setWarning(false);
              deleting.current = Number(value);
              void deleter.submit({ intent: "deleteQualifiant", id: value }, { method: "post" });
            }}
            data-testid="qualifiant-supprimer"
          >
            {t("recoltes.supprimer-qualifiant")}
          </button>
          <div className="flex gap-2">
            <input
              className="field-input"
              aria-label={t("recoltes.nouveau-qualifiant")}
              placeholder={t("recoltes.nouveau-qualifiant")}
              value={nom}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? "qualifiant-nouveau-error" : undefined}
              onChange={(e) => setNom(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === "Enter") {
                  e.preventDefault();
                  create();
                }
              }}
              data-testid="qualifiant-nouveau"
            />
            <button type="button" className="btn-secondary text-sm" disabled={creator.state !== "idle"} onClick={create} data-testid="qualifiant-creer">
              {t("recoltes.creer-qualifiant")}
            </button>
          </div>
          {error ? (
            <p id="qualifiant-nouveau-error" className="field-error" data-testid="qualifiant-nouveau-error">
              {t(error)}
            </p>
          ) : null}
        </div>
      )}
      {warning ? (
        <div role="alert" className="mt-2 rounded border border-amber-300 bg-amber-50 p-2 text-sm text-amber-900" data-testid="qualifiant-warning">
          <p className="font-semibold">{t("ui.warning")}</p>
          <p>{t(QUALIFIANT_DELETE_WARNING)}</p>
        </div>
      ) : null}
    </>
  );
}
