import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useEffect, useEffectEvent, useState } from "react";
import { useTranslation } from "~/use-translation";
import { useFetcher } from "react-router";
import { AppDialog } from "~/components/dialog";
import { useActionFeedback } from "~/components/feedback";
import { Field, TextInput } from "~/components/field";
import { formatNumber, numberText } from "~/components/format";
import { CHAPITRE_OBJECTIFS, IndicateurObjectifSchema, ProtocoleSchema } from "~/domain/protocole";

export type Chapitre = { id: number; libelle: string; libelleEn: string | null };
export type Protocole = { id: number; dicIdChapitreProtocole: number; pexLibelle: string; pexValTexte: string | null; updatedAt: string };
export type Objectif = { id: number; indicateur: number; value: number | null; updatedAt: string };
export type Indicateur = { idIndicateur: number; indNom: string; indNomEn: string | null; dicLlUnite: string | null };
type Answer = { ok: boolean; id?: number; submission?: unknown; notice?: string; error?: string };

/** The selection of a small table: null closed, "new", or a row id. */
type Sel = null | "new" | number;

function useSavedAnswer(fetcher: { state: string; data?: Answer }, onSaved: () => void) {
  useActionFeedback(fetcher.data);
  const saved = useEffectEvent(onSaved);
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok) saved();
  }, [fetcher.state, fetcher.data]);
}

function ConfirmDelete({ open, onCancel, onConfirm, busy }: { open: boolean; onCancel: () => void; onConfirm: () => void; busy: boolean }) {
  const { t } = useTranslation();
  return (
    <AppDialog
      open={open}
      title={t("ui.delete")}
      width={500}
      onEscape={onCancel}
      testId="protocole-delete-dialog"
      actions={
        <>
          <button type="button" className="btn-secondary" onClick={onCancel}>
            {t("ui.cancel")}
          </button>
          <button type="button" className="btn-primary" disabled={busy} onClick={onConfirm} data-testid="confirm-delete">
            {t("ui.delete")}
          </button>
        </>
      }
    >
      <p>{t("protocole.confirm-delete")}</p>
    </AppDialog>
  );
}

function ProtocoleForm({ chapitre, row, readOnly, onDone }: { chapitre: number; row: Protocole | null; readOnly: boolean; onDone: () => void }) {
  const { t } = useTranslation();
  const fetcher = useFetcher<Answer>();
  const deleter = useFetcher<Answer>();
  const [confirm, setConfirm] = useState(false);
  useSavedAnswer(fetcher, onDone);
  useSavedAnswer(deleter, onDone);
  const [form, fields] = useForm({
    id: `protocole-${chapitre}-${row?.id ?? "new"}`,
    lastResult: fetcher.data?.submission as never,
    defaultValue: { dicIdChapitreProtocole: String(chapitre), pexLibelle: row?.pexLibelle ?? "", pexValTexte: row?.pexValTexte ?? "" },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ProtocoleSchema }),
  });
  return (
    <fetcher.Form method="post" {...getFormProps(form)} className="mt-3 rounded border border-stone-200 p-3" data-testid={`protocole-form-${chapitre}`}>
      <input type="hidden" name="intent" value="saveProtocole" />
      <input type="hidden" name="dicIdChapitreProtocole" value={chapitre} />
      {row ? (
        <>
          <input type="hidden" name="id" value={row.id} />
          <input type="hidden" name="updatedAt" value={row.updatedAt} />
        </>
      ) : null}
      <fieldset disabled={readOnly}>
        <Field id={fields.pexLibelle.id} label={t("protocole.libelle")} errors={fields.pexLibelle.errors}>
          <TextInput {...getInputProps(fields.pexLibelle, { type: "text" })} invalid={!!fields.pexLibelle.errors} autoFocus />
        </Field>
        <Field id={fields.pexValTexte.id} label={t("protocole.description")} errors={fields.pexValTexte.errors}>
          <textarea {...getTextareaProps(fields.pexValTexte)} className="field-input" rows={3} />
        </Field>
      </fieldset>
      <div className="flex justify-end gap-2">
        {row ? (
          <button type="button" className="btn-secondary mr-auto" disabled={readOnly} onClick={() => setConfirm(true)}>
            {t("ui.delete")}
          </button>
        ) : null}
        <button type="button" className="btn-secondary" onClick={onDone}>
          {t("ui.close")}
        </button>
        <button type="submit" className="btn-primary" disabled={readOnly || fetcher.state !== "idle"} data-testid={`protocole-save-${chapitre}`}>
          {t("ui.save")}
        </button>
      </div>
      <ConfirmDelete
        open={confirm}
        busy={deleter.state !== "idle"}
        onCancel={() => setConfirm(false)}
        onConfirm={() => row && deleter.submit({ intent: "deleteProtocole", id: String(row.id) }, { method: "post" })}
      />
    </fetcher.Form>
  );
}

function ObjectifForm({ row, indicateurs, readOnly, onDone }: { row: Objectif | null; indicateurs: Indicateur[]; readOnly: boolean; onDone: () => void }) {
  const { t, i18n } = useTranslation();
  const fetcher = useFetcher<Answer>();
  const deleter = useFetcher<Answer>();
  const [confirm, setConfirm] = useState(false);
  useSavedAnswer(fetcher, onDone);
  useSavedAnswer(deleter, onDone);
  const [form, fields] = useForm({
    id: `objectif-${row?.id ?? "new"}`,
    lastResult: fetcher.data?.submission as never,
    defaultValue: { idIndicateur: row ? String(row.indicateur) : "", value: numberText(row?.value, i18n.language) ?? "" },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: IndicateurObjectifSchema }),
  });
  return (
    <fetcher.Form
      method="post"
      {...getFormProps(form)}
      className="mt-3 grid gap-3 rounded border border-stone-200 p-3 sm:grid-cols-2"
      data-testid="objectif-form"
    >
      <input type="hidden" name="intent" value="saveObjectif" />
      {row ? (
        <>
          <input type="hidden" name="id" value={row.id} />
          <input type="hidden" name="updatedAt" value={row.updatedAt} />
        </>
      ) : null}
      <Field id={fields.idIndicateur.id} label={t("protocole.indicateur")} errors={fields.idIndicateur.errors}>
        <select {...getSelectProps(fields.idIndicateur)} className="field-input" disabled={readOnly}>
          <option value="">{t("context.choose")}</option>
          {indicateurs.map((i) => (
            <option key={i.idIndicateur} value={i.idIndicateur}>
              {i18n.language.startsWith("en") && i.indNomEn ? i.indNomEn : i.indNom}
              {i.dicLlUnite ? ` (${i.dicLlUnite})` : ""}
            </option>
          ))}
        </select>
      </Field>
      <Field id={fields.value.id} label={t("protocole.valeur")} errors={fields.value.errors}>
        <TextInput {...getInputProps(fields.value, { type: "text" })} inputMode="decimal" invalid={!!fields.value.errors} disabled={readOnly} />
      </Field>
      <div className="flex justify-end gap-2 sm:col-span-2">
        {row ? (
          <button type="button" className="btn-secondary mr-auto" disabled={readOnly} onClick={() => setConfirm(true)}>
            {t("ui.delete")}
          </button>
        ) : null}
        <button type="button" className="btn-secondary" onClick={onDone}>
          {t("ui.close")}
        </button>
        <button type="submit" className="btn-primary" disabled={readOnly || fetcher.state !== "idle"} data-testid="objectif-save">
          {t("ui.save")}
        </button>
      </div>
      <ConfirmDelete
        open={confirm}
        busy={deleter.state !== "idle"}
        onCancel={() => setConfirm(false)}
        onConfirm={() => row && deleter.submit({ intent: "deleteObjectif", id: String(row.id) }, { method: "post" })}
      />
    </fetcher.Form>
  );
}

function Table<T extends { id: number }>({
  rows,
  head,
  cells,
  selected,
  onSelect,
  testId,
  caption,
}: {
  rows: T[];
  head: string[];
  cells: (r: T) => React.ReactNode[];
  selected: Sel;
  onSelect: (id: number) => void;
  testId: string;
  caption: string;
}) {
  const { t } = useTranslation();
  return (
    <table className="w-full text-sm" data-testid={testId}>
      <caption className="sr-only">{caption}</caption>
      <thead>
        <tr className="text-left text-stone-600">
          {head.map((h) => (
            <th key={h} className="py-1 pr-2 font-medium">
              {h}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.length === 0 ? (
          <tr>
            <td colSpan={head.length} className="py-2 text-center text-stone-500">
              {t("protocole.vide")}
            </td>
          </tr>
        ) : (
          rows.map((r) => (
            <tr
              key={r.id}
              tabIndex={0}
              aria-selected={selected === r.id}
              className={`cursor-pointer border-t border-stone-200 ${selected === r.id ? "bg-sillon-100" : "hover:bg-stone-50"}`}
              onClick={() => onSelect(r.id)}
              onKeyDown={(e) => {
                if (e.key === "Enter" || e.key === " ") {
                  e.preventDefault();
                  onSelect(r.id);
                }
              }}
              data-testid={`${testId}-row`}
            >
              {cells(r).map((c, i) => (
                <td key={i} className="py-1 pr-2 align-top">
                  {c}
                </td>
              ))}
            </tr>
          ))
        )}
      </tbody>
    </table>
  );
}

/** One chapter of the system description (spec 3 §2.6): its protocols' table and form; chapter 2246 adds the objective indicators. */
export function ChapterPanel({
  chapitre,
  protocoles,
  objectifs,
  indicateurs,
  canWrite,
  defaultOpen,
}: {
  chapitre: Chapitre;
  protocoles: Protocole[];
  objectifs: Objectif[];
  indicateurs: Indicateur[];
  canWrite: boolean;
  defaultOpen: boolean;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const [sel, setSel] = useState<Sel>(null);
  const [objSel, setObjSel] = useState<Sel>(null);
  const rows = protocoles.filter((p) => p.dicIdChapitreProtocole === chapitre.id);
  const row = typeof sel === "number" ? (rows.find((r) => r.id === sel) ?? null) : null;
  const obj = typeof objSel === "number" ? (objectifs.find((r) => r.id === objSel) ?? null) : null;
  const label = lang.startsWith("en") && chapitre.libelleEn ? chapitre.libelleEn : chapitre.libelle;
  const ind = (id: number) => indicateurs.find((i) => i.idIndicateur === id);
  return (
    <details className="card" open={defaultOpen} data-testid={`chapitre-${chapitre.id}`}>
      <summary className="cursor-pointer font-semibold text-sillon-800">
        {label} <span className="font-normal text-stone-500">({rows.length})</span>
      </summary>
      <div className="mt-3 space-y-2">
        <div className="flex justify-end">
          <button type="button" className="btn-secondary" disabled={!canWrite} onClick={() => setSel("new")} data-testid={`protocole-new-${chapitre.id}`}>
            {t("ui.new")}
          </button>
        </div>
        <Table
          rows={rows}
          head={[t("protocole.libelle"), t("protocole.description")]}
          cells={(r) => [
            r.pexLibelle,
            <span key="d" className="whitespace-pre-line">
              {r.pexValTexte}
            </span>,
          ]}
          selected={sel}
          onSelect={setSel}
          testId={`protocoles-${chapitre.id}`}
          caption={label}
        />
        {sel !== null && (sel === "new" || row) ? (
          <ProtocoleForm key={`${sel}`} chapitre={chapitre.id} row={row} readOnly={!canWrite} onDone={() => setSel(null)} />
        ) : null}
      </div>
      {chapitre.id === CHAPITRE_OBJECTIFS ? (
        <section className="mt-4 border-t border-stone-200 pt-3" aria-labelledby="objectifs-title" data-testid="objectifs">
          <div className="flex items-center justify-between">
            <h3 id="objectifs-title" className="font-semibold">
              {t("protocole.objectifs")}
            </h3>
            <button type="button" className="btn-secondary" disabled={!canWrite} onClick={() => setObjSel("new")} data-testid="objectif-new">
              {t("ui.new")}
            </button>
          </div>
          <Table
            rows={objectifs}
            head={[t("protocole.indicateur"), t("protocole.valeur"), t("protocole.unite")]}
            selected={objSel}
            onSelect={setObjSel}
            testId="objectifs-table"
            caption={t("protocole.objectifs")}
            cells={(r) => {
              const i = ind(r.indicateur);
              return [
                i ? (lang.startsWith("en") && i.indNomEn ? i.indNomEn : i.indNom) : "",
                r.value == null ? "" : formatNumber(r.value, lang, 4),
                i?.dicLlUnite ?? "",
              ];
            }}
          />
          {objSel !== null && (objSel === "new" || obj) ? (
            <ObjectifForm key={`${objSel}`} row={obj} indicateurs={indicateurs} readOnly={!canWrite} onDone={() => setObjSel(null)} />
          ) : null}
        </section>
      ) : null}
    </details>
  );
}
