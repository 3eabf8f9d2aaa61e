import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "~/use-translation";
import { useFetcher, useHref } from "react-router";
import { AppDialog } from "~/components/dialog";
import { useFeedback } from "~/components/feedback";
import { formatDateTime } from "~/components/format";
import { BarreProgression } from "~/components/tache/barre-progression";
import { etatSession } from "~/domain/session-export";

/** A session as GET /home/resultats/session_exports answers it (server/session-export/service.ts SessionExportVue). */
export type SessionExport = {
  id: number;
  libelle: string;
  nature: number;
  version: number;
  statut: number;
  dtDebSession: string;
  dtFinSession: string | null;
  idTache: number | null;
  campagnes: number[];
};

const URL_SESSIONS = "/home/resultats/session_exports";

/** The file name of a download: Content-Disposition's filename*, else its filename, else `repli`. */
function nomFichier(entete: string | null, repli: string): string {
  if (entete) {
    const etoile = /filename\*=UTF-8''([^;]+)/i.exec(entete);
    if (etoile) return decodeURIComponent(etoile[1]);
    const simple = /filename="?([^";]+)"?/i.exec(entete);
    if (simple) return simple[1];
  }
  return repli;
}

/**
 * Panel 3 of the export screens (spec 1 §2, §4 "Export sessions"; A-EXPORT-13..24): the user's export sessions of
 * the selected campaigns for one nature, loaded with GET session_exports whenever the campaigns change or
 * `rafraichir` changes (after an export is submitted); name, start, end and status (download at statut 0, the red
 * error text at 2, 'En cours' with the job's progress bar otherwise); delete one, or tick several and delete them
 * in parallel. The result export dialog's sessions use it with nature 1, and so does the calculation screen over
 * every campaign it offers (C-CALC-05: `campagnes="calcul"`, the server reads them). `titre` names the panel and its
 * table; `vide` replaces the empty list's text.
 */
export function SessionsExport({
  nature,
  campagnes,
  rafraichir = 0,
  titre,
  vide,
}: {
  nature: number;
  campagnes: readonly number[] | "calcul";
  rafraichir?: number;
  titre?: string;
  vide?: string;
}) {
  const { t } = useTranslation();
  const { showError, notify } = useFeedback();
  const fetcher = useFetcher<{ sessions: SessionExport[] }>();
  const base = useHref(URL_SESSIONS);
  const [cochees, setCochees] = useState<number[]>([]);
  const [aSupprimer, setASupprimer] = useState<number[] | null>(null);
  const [occupe, setOccupe] = useState(false);
  const cle = campagnes === "calcul" ? campagnes : campagnes.join(",");
  const load = fetcher.load;

  const recharger = useCallback(() => {
    if (!cle) return;
    const q = new URLSearchParams();
    if (cle === "calcul") q.set("portee", cle);
    else for (const id of cle.split(",")) q.append("campagnes", id);
    q.set("nature", String(nature));
    void load(`${URL_SESSIONS}?${q}`);
  }, [cle, nature, load]);

  useEffect(() => {
    recharger();
  }, [recharger, rafraichir]);

  const sessions = cle && fetcher.data && "sessions" in fetcher.data ? fetcher.data.sessions : [];
  const ids = new Set(sessions.map((s) => s.id));
  const cocheesVisibles = cochees.filter((id) => ids.has(id));

  const telecharger = async (s: SessionExport) => {
    const r = await fetch(`${base}/${s.id}`, { headers: { Accept: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet, application/json" } });
    if (!r.ok) {
      const corps = (await r.json().catch(() => null)) as { error?: string; params?: Record<string, string | number> } | null;
      showError(corps?.error ?? `${r.status} ${r.statusText}`, corps?.params);
      return;
    }
    const blob = await r.blob();
    const url = URL.createObjectURL(blob);
    const a = document.createElement("a");
    a.href = url;
    a.download = nomFichier(r.headers.get("Content-Disposition"), `${s.libelle}.xlsx`);
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  };

  const supprimer = async (liste: number[]) => {
    setOccupe(true);
    try {
      // One DELETE per session, in parallel (A-EXPORT-24).
      const reponses = await Promise.all(liste.map((id) => fetch(`${base}/${id}`, { method: "DELETE", headers: { Accept: "application/json" } })));
      const echec = reponses.find((r) => !r.ok);
      if (echec) {
        const corps = (await echec.json().catch(() => null)) as { error?: string } | null;
        showError(corps?.error ?? `${echec.status} ${echec.statusText}`);
      } else notify("ui.delete-confirmation");
    } finally {
      setOccupe(false);
      setASupprimer(null);
      setCochees((c) => c.filter((id) => !liste.includes(id)));
      recharger();
    }
  };

  const toutes = sessions.length > 0 && cocheesVisibles.length === sessions.length;
  return (
    <section className="card" aria-labelledby="sessions-export-titre" data-testid="sessions-export">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="sessions-export-titre" className="text-lg font-semibold text-sillon-800">
          {titre ?? t("exports.brut.sessions")}
        </h2>
        <button
          type="button"
          className="btn-secondary"
          disabled={!cocheesVisibles.length || occupe}
          onClick={() => setASupprimer(cocheesVisibles)}
          data-testid="sessions-supprimer-selection"
        >
          {t("exports.brut.supprimer-selection")}
        </button>
      </div>
      {!cle ? (
        <p className="mt-2 text-sm text-stone-600">{t("exports.brut.choisir-campagnes")}</p>
      ) : sessions.length === 0 ? (
        <p className="mt-2 text-sm text-stone-600" data-testid="sessions-vide">
          {fetcher.state === "idle" ? (vide ?? t("exports.brut.aucune-session")) : "…"}
        </p>
      ) : (
        <table className="mt-3 w-full text-sm" aria-label={titre ?? t("exports.brut.sessions")} data-testid="sessions-table">
          <thead>
            <tr className="border-b border-stone-300 text-left">
              <th className="w-8 py-1">
                <input
                  type="checkbox"
                  aria-label={t("exports.brut.selectionner-tout")}
                  checked={toutes}
                  onChange={(e) => setCochees(e.target.checked ? sessions.map((s) => s.id) : [])}
                />
              </th>
              <th className="py-1">{t("exports.brut.nom")}</th>
              <th className="py-1">{t("exports.brut.debut")}</th>
              <th className="py-1">{t("exports.brut.fin")}</th>
              <th className="py-1">{t("exports.brut.statut")}</th>
              <th className="py-1">
                <span className="sr-only">{t("exports.brut.supprimer")}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {sessions.map((s) => {
              const etat = etatSession(s);
              return (
                <tr key={s.id} className="border-b border-stone-200" data-testid={`session-${s.id}`} data-statut={s.statut}>
                  <td className="py-1">
                    <input
                      type="checkbox"
                      aria-label={t("exports.brut.selectionner-nom", { nom: s.libelle })}
                      checked={cocheesVisibles.includes(s.id)}
                      onChange={(e) => setCochees((c) => (e.target.checked ? [...c, s.id] : c.filter((id) => id !== s.id)))}
                    />
                  </td>
                  <td className="py-1">{s.libelle}</td>
                  <td className="py-1">{formatDateTime(s.dtDebSession)}</td>
                  <td className="py-1">{s.dtFinSession ? formatDateTime(s.dtFinSession) : ""}</td>
                  <td className="py-1" data-testid="session-statut">
                    {etat === "termine" ? (
                      <button
                        type="button"
                        className="btn-primary"
                        onClick={() => void telecharger(s)}
                        aria-label={t("exports.brut.telecharger-nom", { nom: s.libelle })}
                      >
                        {t("exports.brut.telecharger")}
                      </button>
                    ) : etat === "erreur" ? (
                      <span className="font-medium text-red-700">{t("exports.brut.erreur")}</span>
                    ) : (
                      <div className="flex flex-col gap-1">
                        <span>{t("exports.brut.en-cours")}</span>
                        {s.idTache ? (
                          <BarreProgression idTache={s.idTache} label={t("exports.brut.progression")} onTerminee={recharger} onEchec={recharger} />
                        ) : null}
                      </div>
                    )}
                  </td>
                  <td className="py-1 text-right">
                    <button
                      type="button"
                      className="btn-secondary"
                      disabled={occupe}
                      onClick={() => setASupprimer([s.id])}
                      aria-label={t("exports.brut.supprimer-nom", { nom: s.libelle })}
                    >
                      {t("exports.brut.supprimer")}
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <AppDialog
        open={aSupprimer !== null}
        title={t("exports.brut.supprimer")}
        onEscape={() => setASupprimer(null)}
        testId="sessions-confirmer"
        actions={
          <>
            <button type="button" className="btn-secondary" onClick={() => setASupprimer(null)}>
              {t("ui.cancel")}
            </button>
            <button
              type="button"
              className="btn-danger"
              disabled={occupe}
              onClick={() => aSupprimer && void supprimer(aSupprimer)}
              data-testid="sessions-confirmer-oui"
            >
              {t("exports.brut.supprimer")}
            </button>
          </>
        }
      >
        <p>{t("exports.brut.confirmer-suppression", { count: aSupprimer?.length ?? 0 })}</p>
      </AppDialog>
    </section>
  );
}
