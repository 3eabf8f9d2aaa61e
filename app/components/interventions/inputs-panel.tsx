import { useState } from "react";
import { useTranslation } from "~/use-translation";
import { useFetcher } from "react-router";
import { AppDialog } from "~/components/dialog";
import { useActionFeedback } from "~/components/feedback";
import { formatNumber } from "~/components/format";
import { QUANTITE_DECIMALES, TYPES_INTRANT, type IntrantDetail, type TypeIntrant } from "~/domain/intrant";
import { NonReferenceDialog, NonReferenceWarning } from "~/components/intrants-dossier/non-reference-dialog";
import { RecolteDialog } from "~/components/recoltes/recolte-dialog";
import type { RecolteDetail } from "~/domain/recolte";
import { InputDialog, type OpenDialog } from "./input-dialogs";
import type { InterventionRow } from "~/domain/contracts/interventions";

/**
 * The inputs-and-products table of the intervention form (spec 3 §2.1): add by kind (seed, phyto, fertiliser,
 * water, other), edit, delete after confirmation; newest first (C-FORM-31). Inputs belong to a saved intervention.
 */
export function InputsPanel({
  intervention,
  readOnly,
  canEditFolderInputs = false,
}: {
  intervention: InterventionRow | null;
  readOnly: boolean;
  canEditFolderInputs?: boolean;
}) {
  const { t, i18n } = useTranslation();
  const [dialog, setDialog] = useState<OpenDialog | null>(null);
  const [deleting, setDeleting] = useState<IntrantDetail | null>(null);
  // The harvest dialog (decision 0031): a new harvest (null) or one of the intervention's.
  const [recolte, setRecolte] = useState<{ recolte: RecolteDetail | null } | null>(null);
  const [deletingRecolte, setDeletingRecolte] = useState<RecolteDetail | null>(null);
  // The unreferenced-input dialog (decision 0032): the warning first (asked), then the dialog (open).
  const [nonReference, setNonReference] = useState<{ id: number | null; open: boolean; type?: TypeIntrant } | null>(null);
  const [choosing, setChoosing] = useState(false);
  const [chosenType, setChosenType] = useState<TypeIntrant>(TYPES_INTRANT[0]);
  const deleter = useFetcher<{ ok: boolean; notice?: string; error?: string }>();
  useActionFeedback(deleter.data);
  const intrants = intervention?.intrants ?? [];
  const recoltes = intervention?.recoltes ?? [];

  return (
    <section aria-labelledby="intrants-title" data-testid="intrants-panel">
      <h3 id="intrants-title" className="mb-2 text-sm font-semibold">
        {t("interventions.form.intrants")}
      </h3>
      {intervention ? (
        <div className="mb-2 flex flex-wrap gap-2" role="group" aria-label={t("interventions.form.intrants")}>
          {TYPES_INTRANT.map((type) => (
            <button
              key={type}
              type="button"
              className="btn-secondary text-sm"
              disabled={readOnly}
              onClick={() => setDialog({ type, intrant: null })}
              data-testid={`add-intrant-${type}`}
            >
              + {t(`interventions.ajouter.${type}`)}
            </button>
          ))}
          <button type="button" className="btn-secondary text-sm" disabled={readOnly} onClick={() => setChoosing(true)} data-testid="add-intrant-produit">
            + {t("interventions.ajouter.produit")}
          </button>
          <button
            type="button"
            className="btn-secondary text-sm"
            disabled={readOnly}
            onClick={() => setNonReference({ id: null, open: false })}
            data-testid="add-non-reference"
          >
            + {t("intrants-dossier.ajouter")}
          </button>
          <button type="button" className="btn-secondary text-sm" disabled={readOnly} onClick={() => setRecolte({ recolte: null })} data-testid="add-recolte">
            + {t("recoltes.ajouter")}
          </button>
        </div>
      ) : (
        <p className="mb-2 text-sm text-stone-600" data-testid="intrants-after-save">
          {t("interventions.form.intrants-apres-enregistrement")}
        </p>
      )}
      {intervention && intrants.length === 0 && recoltes.length === 0 ? (
        <p className="text-sm text-stone-600">{t("interventions.form.aucun-intrant")}</p>
      ) : null}
      {intrants.length || recoltes.length ? (
        <table className="w-full text-left text-sm" data-testid="intrants-table">
          <thead>
            <tr className="text-stone-600">
              <th scope="col" className="py-1">
                {t("interventions.intrant.type")}
              </th>
              <th scope="col">{t("interventions.intrant.libelle")}</th>
              <th scope="col" className="pr-2 text-right">
                {t("interventions.intrant.quantite")}
              </th>
              <th scope="col">{t("interventions.intrant.unite")}</th>
              <th scope="col">
                <span className="sr-only">{t("interventions.intrant.actions")}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {intrants.map((i) => (
              <tr key={i.id} className="border-t border-stone-100" data-testid="intrant-row">
                <td className="py-1 pr-2">{t(`interventions.types.${i.type}`)}</td>
                <td className="pr-2">{i.libelle}</td>
                <td className="pr-2 text-right">{formatNumber(i.quantite, i18n.language, QUANTITE_DECIMALES)}</td>
                <td className="pr-2">{i.unite ?? ""}</td>
                <td className="whitespace-nowrap text-right">
                  <button
                    type="button"
                    className="text-sm text-sillon-800 underline hover:no-underline"
                    onClick={() => setDialog({ type: i.type as TypeIntrant, intrant: i })}
                    aria-label={t(readOnly ? "interventions.intrant.voir-libelle" : "interventions.intrant.modifier", { libelle: i.libelle })}
                    data-testid="intrant-edit"
                  >
                    {readOnly ? t("interventions.intrant.voir") : t("ui.edit")}
                  </button>
                  {i.idIntrantDossier != null && canEditFolderInputs ? (
                    <button
                      type="button"
                      className="ml-3 text-sm text-sillon-800 underline hover:no-underline"
                      onClick={() => setNonReference({ id: i.idIntrantDossier!, open: false })}
                      aria-label={t("intrants-dossier.modifier", { libelle: i.libelle })}
                      data-testid="intrant-edit-non-reference"
                    >
                      {t("intrants-dossier.modifier-court")}
                    </button>
                  ) : null}
                  {readOnly ? null : (
                    <button
                      type="button"
                      className="ml-3 text-sm text-red-800 underline hover:no-underline"
                      onClick={() => setDeleting(i)}
                      aria-label={t("interventions.intrant.supprimer", { libelle: i.libelle })}
                      data-testid="intrant-delete"
                    >
                      {t("ui.delete")}
                    </button>
                  )}
                </td>
              </tr>
            ))}
            {recoltes.map((r) => (
              <tr key={`recolte-${r.id}`} className="border-t border-stone-100" data-testid="recolte-row">
                <td className="py-1 pr-2">{t("recoltes.type")}</td>
                <td className="pr-2">{r.libelle}</td>
                <td className="pr-2 text-right">{formatNumber(r.rendement, i18n.language, QUANTITE_DECIMALES)}</td>
                <td className="pr-2">{r.unite}</td>
                <td className="whitespace-nowrap text-right">
                  <button
                    type="button"
                    className="text-sm text-sillon-800 underline hover:no-underline"
                    onClick={() => setRecolte({ recolte: r })}
                    aria-label={t(readOnly ? "recoltes.voir" : "recoltes.modifier", { libelle: r.libelle })}
                    data-testid="recolte-edit"
                  >
                    {readOnly ? t("interventions.intrant.voir") : t("ui.edit")}
                  </button>
                  {readOnly ? null : (
                    <button
                      type="button"
                      className="ml-3 text-sm text-red-800 underline hover:no-underline"
                      onClick={() => setDeletingRecolte(r)}
                      aria-label={t("recoltes.supprimer", { libelle: r.libelle })}
                      data-testid="recolte-delete"
                    >
                      {t("ui.delete")}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <NonReferenceWarning
        open={nonReference !== null && !nonReference.open}
        onCancel={() => setNonReference(null)}
        onConfirm={() => setNonReference((n) => (n ? { ...n, open: true } : n))}
      />
      {nonReference?.open && intervention ? (
        <NonReferenceDialog
          id={nonReference.id}
          idAction={intervention.id}
          canCreate={!readOnly}
          initialType={nonReference.type}
          onClose={() => setNonReference(null)}
        />
      ) : null}
      {recolte && intervention ? (
        <RecolteDialog recolte={recolte.recolte} intervention={intervention} readOnly={readOnly} onClose={() => setRecolte(null)} />
      ) : null}
      <AppDialog
        open={deletingRecolte !== null}
        title={t("ui.delete")}
        width={500}
        testId="recolte-delete-dialog"
        onEscape={() => setDeletingRecolte(null)}
        actions={
          <>
            <button type="button" className="btn-secondary" onClick={() => setDeletingRecolte(null)}>
              {t("ui.cancel")}
            </button>
            <button
              type="button"
              className="btn-danger"
              onClick={() => {
                const d = deletingRecolte!;
                setDeletingRecolte(null);
                void deleter.submit({ intent: "deleteRecolte", id: String(d.id) }, { method: "post" });
              }}
            >
              {t("ui.delete")}
            </button>
          </>
        }
      >
        <p>{t("recoltes.confirm-suppression", { libelle: deletingRecolte?.libelle ?? "" })}</p>
      </AppDialog>
      {dialog && intervention ? (
        <InputDialog
          open={dialog}
          intervention={intervention}
          readOnly={readOnly}
          onClose={() => setDialog(null)}
          onNonReference={() => {
            setDialog(null);
            setNonReference({ id: null, open: false, type: dialog.type });
          }}
        />
      ) : null}
      {/* The generic product form (C-FORM-23): the kind first, then that kind's dialog. */}
      <AppDialog
        open={choosing}
        title={t("interventions.ajouter.produit")}
        width={500}
        testId="intrant-kind-dialog"
        onEscape={() => setChoosing(false)}
        actions={
          <>
            <button type="button" className="btn-secondary" onClick={() => setChoosing(false)}>
              {t("ui.cancel")}
            </button>
            <button
              type="button"
              className="btn-primary"
              onClick={() => {
                setChoosing(false);
                setDialog({ type: chosenType, intrant: null });
              }}
              data-testid="intrant-kind-continue"
            >
              {t("interventions.ajouter.continuer")}
            </button>
          </>
        }
      >
        <label htmlFor="intrant-kind" className="field-label">
          {t("interventions.intrant.type")}
        </label>
        <select
          id="intrant-kind"
          className="field-input"
          value={chosenType}
          onChange={(e) => setChosenType(Number(e.target.value) as TypeIntrant)}
          data-testid="intrant-kind"
        >
          {TYPES_INTRANT.map((type) => (
            <option key={type} value={type}>
              {t(`interventions.types.${type}`)}
            </option>
          ))}
        </select>
      </AppDialog>
      <AppDialog
        open={deleting !== null}
        title={t("ui.delete")}
        width={500}
        testId="intrant-delete-dialog"
        onEscape={() => setDeleting(null)}
        actions={
          <>
            <button type="button" className="btn-secondary" onClick={() => setDeleting(null)}>
              {t("ui.cancel")}
            </button>
            <button
              type="button"
              className="btn-danger"
              onClick={() => {
                const d = deleting!;
                setDeleting(null);
                void deleter.submit({ intent: "deleteIntrant", id: String(d.id) }, { method: "post" });
              }}
            >
              {t("ui.delete")}
            </button>
          </>
        }
      >
        <p>{t("interventions.intrant.confirm-suppression", { libelle: deleting?.libelle ?? "" })}</p>
      </AppDialog>
    </section>
  );
}
