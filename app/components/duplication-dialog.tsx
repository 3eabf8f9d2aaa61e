import { useEffect, useEffectEvent, useState } from "react";
import { useTranslation } from "~/use-translation";
import { useFetcher, useLocation } from "react-router";
import { AppDialog } from "~/components/dialog";
import { useActionFeedback } from "~/components/feedback";
import { Field } from "~/components/field";
import type { z } from "zod";
import { validate } from "~/domain/validation";

export type DuplicationOptions = {
  dossiers: { id: number; libelle: string }[];
  dossierModifiable: boolean;
  exploitations: { id: number; libelle: string }[];
  campagnes: { id: number; libelle: string; anneeRecolte: number; locked: boolean }[];
};
type Answer = {
  ok: boolean;
  notice?: string;
  error?: string;
  fieldErrors?: Record<string, string[]>;
  submission?: { error?: Record<string, string[] | null> };
};

/**
 * Copies the ticked rows of a list screen to other campaigns (machines B-MACH-29, B-MACH-30; management
 * modes B-CROP-14, B-CROP-15): a destination folder (changeable only with isDoAnimation, B-RIGHTS-10,
 * B-RIGHTS-11), a farm, at least one campaign; only folders and farms with write access are offered
 * (B-RIGHTS-12). The options come from the route's loader (?dupli&dossier=&exploitation=, answered as
 * `duplication`); the action gets intent=duplicate with ids, idDossier, idExploitation, campagnes. Locked
 * campaigns are shown but cannot be ticked. Texts are the screen's keys `<keyPrefix>.duplicate-title`,
 * `.duplicate-text`, `.duplicate`, `.dupli-dossier`, `.dupli-dossier-help`, `.dupli-exploitation`,
 * `.dupli-campagnes`, `.dupli-no-campagne`, `.dupli-locked`.
 */
export function DuplicationDialog({
  ids,
  idDossier: currentDossier,
  idExploitation: currentFarm,
  onClose,
  schema,
  keyPrefix,
  idPrefix,
}: {
  ids: number[] | null;
  idDossier: number | null;
  idExploitation: number;
  onClose: () => void;
  /** The screen's duplication schema (ticked ids, folder, farm, at least one campaign). */
  schema: z.ZodType;
  keyPrefix: string;
  /** Prefix of the fields' ids, unique on the page. */
  idPrefix: string;
}) {
  const { t } = useTranslation();
  const location = useLocation();
  const options = useFetcher<{ duplication: DuplicationOptions | null }>();
  const sender = useFetcher<Answer>();
  useActionFeedback(sender.data);
  const open = ids !== null;
  const [idDossier, setIdDossier] = useState("");
  const [idExploitation, setIdExploitation] = useState("");
  const [campagnes, setCampagnes] = useState<string[]>([]);
  const load = (dossier: string, exploitation: string) =>
    options.load(`${location.pathname}?dupli=1&dossier=${encodeURIComponent(dossier)}&exploitation=${encodeURIComponent(exploitation)}`);

  // Each opening starts from the current folder and farm.
  const reset = useEffectEvent(() => {
    const d = String(currentDossier ?? "");
    const e = String(currentFarm);
    setIdDossier(d);
    setIdExploitation(e);
    setCampagnes([]);
    load(d, e);
  });
  useEffect(() => {
    if (open) reset();
  }, [open]);

  const close = useEffectEvent(onClose);
  useEffect(() => {
    if (sender.state === "idle" && sender.data?.ok) close();
  }, [sender.state, sender.data]);

  const opts = options.data?.duplication ?? null;
  const loading = options.state !== "idle";
  const checked = validate(schema, { ids: ids ?? [], idDossier, idExploitation, campagnes });
  const server =
    sender.data && !sender.data.ok ? (sender.data.fieldErrors ?? (sender.data.submission?.error as Record<string, string[]> | undefined) ?? {}) : {};
  // A missing farm or campaign is said at once: the button stays disabled until both are chosen (B-CROP-15).
  const errors = (name: string): string[] | undefined => (!checked.success ? checked.fieldErrors[name] : undefined) ?? server[name] ?? undefined;

  function onDossier(value: string) {
    setIdDossier(value);
    setIdExploitation("");
    setCampagnes([]);
    load(value, "");
  }
  function onExploitation(value: string) {
    setIdExploitation(value);
    setCampagnes([]);
    load(idDossier, value);
  }
  function send() {
    if (!checked.success || !ids) return;
    const fd = new FormData();
    fd.set("intent", "duplicate");
    for (const id of ids) fd.append("ids", String(id));
    fd.set("idDossier", idDossier);
    fd.set("idExploitation", idExploitation);
    for (const c of campagnes) fd.append("campagnes", c);
    void sender.submit(fd, { method: "post" });
  }

  return (
    <AppDialog
      open={open}
      title={t(`${keyPrefix}.duplicate-title`)}
      width={500}
      testId="duplication-dialog"
      onEscape={onClose}
      actions={
        <>
          <button type="button" className="btn-secondary" onClick={onClose}>
            {t("ui.cancel")}
          </button>
          <button
            type="button"
            className="btn-primary"
            onClick={send}
            disabled={!checked.success || loading || sender.state !== "idle"}
            data-testid="duplication-submit"
          >
            {t(`${keyPrefix}.duplicate`)}
          </button>
        </>
      }
    >
      <p className="mb-3">{t(`${keyPrefix}.duplicate-text`, { count: ids?.length ?? 0 })}</p>
      <Field
        id={`${idPrefix}-dupli-dossier`}
        label={t(`${keyPrefix}.dupli-dossier`)}
        errors={errors("idDossier")}
        help={opts && !opts.dossierModifiable ? t(`${keyPrefix}.dupli-dossier-help`) : undefined}
      >
        <select
          id={`${idPrefix}-dupli-dossier`}
          className="field-input"
          value={idDossier}
          disabled={!opts?.dossierModifiable}
          onChange={(e) => onDossier(e.target.value)}
          data-testid="dupli-dossier"
        >
          <option value="">{t("context.choose")}</option>
          {(opts?.dossiers ?? []).map((d) => (
            <option key={d.id} value={d.id}>
              {d.libelle}
            </option>
          ))}
          {!opts?.dossiers.some((d) => String(d.id) === idDossier) && idDossier ? <option value={idDossier}>{t("ui.loading")}</option> : null}
        </select>
      </Field>
      <Field id={`${idPrefix}-dupli-exploitation`} label={t(`${keyPrefix}.dupli-exploitation`)} errors={errors("idExploitation")}>
        <select
          id={`${idPrefix}-dupli-exploitation`}
          className="field-input"
          value={idExploitation}
          disabled={!opts || loading}
          onChange={(e) => onExploitation(e.target.value)}
          data-testid="dupli-exploitation"
        >
          <option value="">{t("context.choose")}</option>
          {(opts?.exploitations ?? []).map((e) => (
            <option key={e.id} value={e.id}>
              {e.libelle}
            </option>
          ))}
        </select>
      </Field>
      <fieldset className="mb-1" aria-describedby={errors("campagnes") ? `${idPrefix}-dupli-campagnes-error` : undefined}>
        <legend className="field-label">{t(`${keyPrefix}.dupli-campagnes`)}</legend>
        {loading ? <p className="mt-1 text-xs text-stone-500">{t("ui.loading")}</p> : null}
        {!loading && idExploitation && opts && opts.campagnes.length === 0 ? (
          <p className="mt-1 text-xs text-stone-500">{t(`${keyPrefix}.dupli-no-campagne`)}</p>
        ) : null}
        <div className="mt-1 space-y-1" data-testid="dupli-campagnes">
          {!loading && idExploitation
            ? (opts?.campagnes ?? []).map((c) => (
                <label key={c.id} className={`flex items-center gap-2 ${c.locked ? "text-stone-400" : ""}`}>
                  <input
                    type="checkbox"
                    value={c.id}
                    disabled={c.locked}
                    checked={campagnes.includes(String(c.id))}
                    onChange={(e) => setCampagnes((cs) => (e.target.checked ? [...cs, String(c.id)] : cs.filter((x) => x !== String(c.id))))}
                  />
                  {c.libelle}
                  {c.locked ? <span className="text-xs">({t(`${keyPrefix}.dupli-locked`)})</span> : null}
                </label>
              ))
            : null}
        </div>
        {errors("campagnes") && !loading ? (
          <p id={`${idPrefix}-dupli-campagnes-error`} className="field-error" data-testid="dupli-campagnes-error">
            {t(errors("campagnes")![0])}
          </p>
        ) : null}
      </fieldset>
    </AppDialog>
  );
}
