import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useEffect, useState } from "react";
import { useTranslation } from "~/use-translation";
import { useFetcher } from "react-router";
import { AppDialog } from "~/components/dialog";
import { useActionFeedback } from "~/components/feedback";
import { Field, TextInput } from "~/components/field";
import { PlotMap } from "~/components/map/plot-map";
import { PlacetteSchema } from "~/domain/observation";
import type { MesuresData } from "./types";

type Placette = MesuresData["placettes"][number];

/**
 * The placettes of the selected plot (spec 2 §2, B-PLAC-01..05): a dialog 800 wide listing them, and the edit
 * dialog of one with its map (400 px high) where its outline is drawn.
 */
export function PlacettesDialog({ open, data, readOnly, onClose }: { open: boolean; data: MesuresData; readOnly: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<Placette | "new" | null>(null);
  const deleter = useFetcher<{ ok: boolean; notice?: string; error?: string }>();
  useActionFeedback(deleter.data);
  const plot = data.parcelles.find((p) => p.id === data.idParcelle);
  return (
    <>
      <AppDialog
        open={open && editing === null}
        title={t("observations.placettes.titre", { libelle: plot?.libelle ?? "" })}
        width={800}
        testId="placettes-dialog"
        onEscape={onClose}
        actions={
          <>
            {readOnly ? null : (
              <button type="button" className="btn-secondary" onClick={() => setEditing("new")} data-testid="placette-new">
                {t("observations.placettes.nouvelle")}
              </button>
            )}
            <button type="button" className="btn-primary" onClick={onClose}>
              {t("ui.close")}
            </button>
          </>
        }
      >
        {data.placettes.length === 0 ? (
          <p className="text-sm text-stone-600">{t("observations.placettes.aucune")}</p>
        ) : (
          <ul className="divide-y divide-stone-200">
            {data.placettes.map((p) => (
              <li key={p.id} className="flex items-center gap-2 py-2" data-testid={`placette-${p.id}`}>
                <span className="font-medium">{p.libelle}</span>
                <span className="text-sm text-stone-600">
                  ({p.geometrie ? t("observations.placettes.avec-contour") : t("observations.placettes.sans-contour")})
                </span>
                <span className="ml-auto flex gap-2">
                  <button type="button" className="btn-secondary" onClick={() => setEditing(p)}>
                    {readOnly ? t("observations.placettes.voir") : t("observations.placettes.modifier")}
                  </button>
                  {readOnly ? null : (
                    <button
                      type="button"
                      className="btn-secondary"
                      onClick={() => void deleter.submit({ intent: "deletePlacette", id: String(p.id) }, { method: "post" })}
                    >
                      {t("observations.placettes.supprimer")}
                    </button>
                  )}
                </span>
              </li>
            ))}
          </ul>
        )}
      </AppDialog>
      {open && editing !== null ? (
        <PlacetteEdit
          key={editing === "new" ? "new" : editing.id}
          data={data}
          placette={editing === "new" ? null : editing}
          readOnly={readOnly}
          onClose={() => setEditing(null)}
        />
      ) : null}
    </>
  );
}

function PlacetteEdit({ data, placette, readOnly, onClose }: { data: MesuresData; placette: Placette | null; readOnly: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const fetcher = useFetcher<{ ok: boolean; submission?: unknown; notice?: string; error?: string }>();
  useActionFeedback(fetcher.data);
  const plot = data.parcelles.find((p) => p.id === data.idParcelle);
  // The map starts on the placette's outline, else on the plot's.
  const [geometrie, setGeometrie] = useState<string | null>(placette?.geometrie ?? null);
  const [form, fields] = useForm<{ libelle?: string; geometrie?: string }>({
    id: `placette-${placette?.id ?? "new"}`,
    lastResult: fetcher.data?.submission as never,
    defaultValue: { libelle: placette?.libelle ?? "" },
    shouldValidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: PlacetteSchema }) as never,
  });
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok) onClose();
  }, [fetcher.state, fetcher.data, onClose]);
  return (
    <AppDialog
      open
      title={t("observations.placettes.edition-titre")}
      width={800}
      testId="placette-edit-dialog"
      onEscape={onClose}
      actions={
        <>
          <button type="button" className="btn-secondary" onClick={onClose}>
            {t("ui.cancel")}
          </button>
          {readOnly ? null : (
            <button type="submit" form={form.id} className="btn-primary" disabled={!form.valid || fetcher.state !== "idle"} data-testid="placette-save">
              {t("ui.save")}
            </button>
          )}
        </>
      }
    >
      <fetcher.Form method="post" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="savePlacette" />
        <input type="hidden" name="idParcelle" value={data.idParcelle ?? ""} />
        <input type="hidden" name="geometrie" value={geometrie ?? ""} />
        {placette ? (
          <>
            <input type="hidden" name="id" value={placette.id} />
            <input type="hidden" name="updatedAt" value={placette.updatedAt} />
          </>
        ) : null}
        <fieldset disabled={readOnly}>
          <Field id={fields.libelle.id} label={t("observations.placettes.libelle")} errors={fields.libelle.errors}>
            <TextInput {...getInputProps(fields.libelle, { type: "text" })} invalid={!!fields.libelle.errors} data-testid="placette-libelle" />
          </Field>
        </fieldset>
        <p className="mb-1 text-sm text-stone-600">{t("observations.placettes.carte-aide")}</p>
        {fields.geometrie.errors ? <p className="text-sm text-red-800">{t(fields.geometrie.errors[0])}</p> : null}
      </fetcher.Form>
      <PlotMap
        geometrie={geometrie ?? plot?.geometrie ?? null}
        onChange={(g) => setGeometrie(g)}
        readOnly={readOnly}
        config={data.mapConfig}
        label={t("observations.placettes.geometrie")}
      />
    </AppDialog>
  );
}
