import { useEffect, useRef } from "react";
import { useFetcher, useHref, useLoaderData, useRevalidator, useSearchParams } from "react-router";
import { useTranslation } from "~/use-translation";
import { useFeedback } from "~/components/feedback";
import { formatDateTime } from "~/components/format";
import { SelectionCampagnes, useSelectionCampagnes } from "~/components/resultats/selection-campagnes";
import { etatSession, type LigneLogVue, type SessionEdaplosVue } from "~/domain/contracts/edaplos";
import { PARAM_CAMPAGNE } from "~/domain/resultats/selection";
import { idsField, intent, queryIds, rowIntent, screenAction, screenLoader } from "#server/http/route.server";
import { choixCampagnes } from "#server/resultats/selection.server";
import { creerExportEdaplos, listerSessionsEdaplos, logsSessionEdaplos, supprimerSessionEdaplos } from "#server/interop/edaplos/service.server";

/** The session whose logs are shown (query parameter). */
const PARAM_SESSION = "session";

/**
 * The eDaplos export screen (spec 3 §2.10, §3.12, §4.6, §5; C-EDAP-01..20, C-RIGHTS-22): (1) the data to export, the
 * folders › farms › campaigns the user reads with several campaigns ticked and the button that launches the edition;
 * (2) the session files of the ticked campaigns, with download and delete, refreshed after a launch and when the
 * campaigns change, and while one is in progress; (3) the logs of a chosen session, level-2 lines in red.
 */
export const loader = screenLoader(async ({ scope, query }) => {
  const campagnes = queryIds(query, PARAM_CAMPAGNE);
  const sessions = await listerSessionsEdaplos(scope, campagnes);
  const choisie = Number(query.get(PARAM_SESSION));
  const idSession = sessions.some((s) => s.id === choisie) ? choisie : null;
  return {
    choix: await choixCampagnes(scope, "edaplos"),
    sessions,
    idSession,
    logs: idSession != null ? await logsSessionEdaplos(scope, idSession) : null,
  };
});

export const action = screenAction({
  lancer: intent({ campagnes: idsField }, async ({ scope }, { campagnes }) => {
    const r = await creerExportEdaplos(scope, { campagnes });
    return { ok: true as const, notice: "ui.export-started", id: r.id };
  }),
  supprimer: rowIntent(({ scope }, id) => supprimerSessionEdaplos(scope, id), "ui.delete-confirmation"),
});

type Reponse = { ok: boolean; notice?: string; error?: string; params?: Record<string, string | number> };

function taille(t: (k: string, o?: Record<string, unknown>) => string, n: number | null): string {
  if (n == null) return "";
  return n < 1024 ? t("edaplos.ecran.octets", { n }) : t("edaplos.ecran.kio", { n: Math.round(n / 102.4) / 10 });
}

export default function ExportEdaplos() {
  const { t } = useTranslation();
  const { choix, sessions, idSession, logs } = useLoaderData<typeof loader>();
  const [selection, choisir] = useSelectionCampagnes();
  const [, setParams] = useSearchParams();
  const fetcher = useFetcher<Reponse>();
  const { showError, notify } = useFeedback();
  const revalidator = useRevalidator();
  const vu = useRef<unknown>(undefined);
  const fichiers = useHref("/home/interoperabilite/export");

  useEffect(() => {
    const r = fetcher.data;
    if (fetcher.state !== "idle" || !r || r === vu.current) return;
    vu.current = r;
    if (r.ok) notify(r.notice ?? "ui.save-confirmation");
    else showError(r.error ?? "errors.services.Edaplos-create-service-error", r.params);
  }, [fetcher.state, fetcher.data, notify, showError]);

  // A session in progress: the list is read again until it ends.
  const enCours = sessions.some((s) => etatSession(s) === "en-cours");
  useEffect(() => {
    if (!enCours) return;
    const id = setInterval(() => {
      if (revalidator.state === "idle") void revalidator.revalidate();
    }, 1500);
    return () => clearInterval(id);
  }, [enCours, revalidator]);

  const lancer = () => void fetcher.submit({ intent: "lancer", campagnes: JSON.stringify(selection) }, { method: "post" });
  const supprimer = (s: SessionEdaplosVue) => {
    if (!window.confirm(t("edaplos.ecran.confirmer-suppression", { libelle: s.libelle }))) return;
    void fetcher.submit({ intent: "supprimer", id: String(s.id) }, { method: "post" });
  };
  const choisirSession = (id: number | null) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (id == null) next.delete(PARAM_SESSION);
        else next.set(PARAM_SESSION, String(id));
        return next;
      },
      { replace: true, preventScrollReset: true },
    );

  return (
    <section data-testid="screen-export" className="space-y-4">
      <h1 className="text-xl font-semibold text-sillon-800">{t("screen.export")}</h1>
      <SelectionCampagnes choix={choix} selection={selection} onChange={choisir} titre={t("edaplos.ecran.donnees")}>
        <p className="mt-2 text-sm text-stone-600">{t("edaplos.ecran.donnees-aide")}</p>
        <button
          type="button"
          className="btn-primary mt-3"
          disabled={!selection.length || fetcher.state !== "idle"}
          onClick={lancer}
          data-testid="edaplos-lancer"
        >
          {t("edaplos.ecran.lancer")}
        </button>
      </SelectionCampagnes>

      <section className="card" aria-labelledby="edaplos-sessions-titre" data-testid="edaplos-sessions">
        <h2 id="edaplos-sessions-titre" className="text-lg font-semibold text-sillon-800">
          {t("edaplos.ecran.sessions")}
        </h2>
        {sessions.length === 0 ? (
          <p className="mt-2 text-sm text-stone-600">{t("edaplos.ecran.aucune-session")}</p>
        ) : (
          <table className="mt-2 w-full text-sm [&_td]:px-1 [&_th]:px-1" aria-labelledby="edaplos-sessions-titre">
            <thead>
              <tr className="text-left">
                <th scope="col">{t("edaplos.ecran.fichier")}</th>
                <th scope="col">{t("edaplos.ecran.campagnes")}</th>
                <th scope="col">{t("edaplos.ecran.debut")}</th>
                <th scope="col">{t("edaplos.ecran.fin")}</th>
                <th scope="col">{t("edaplos.ecran.taille")}</th>
                <th scope="col">{t("edaplos.ecran.statut")}</th>
                <th scope="col">
                  <span className="sr-only">{t("edaplos.ecran.supprimer")}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {sessions.map((s) => {
                const etat = etatSession(s);
                return (
                  <tr key={s.id} data-testid={`edaplos-session-${s.id}`} className="border-t border-stone-200">
                    <td>
                      {etat === "termine" ? (
                        <a href={`${fichiers}/${s.id}/fichier`} download={s.libelle} className="text-sillon-800 underline" data-testid="edaplos-telecharger">
                          {s.libelle}
                        </a>
                      ) : (
                        s.libelle
                      )}
                    </td>
                    <td>{s.campagnes.map((c) => `${c.exploitation.libelle} ${c.libelle}`).join(" ; ")}</td>
                    <td>{formatDateTime(s.dtDebExport)}</td>
                    <td>{s.dtFinExport ? formatDateTime(s.dtFinExport) : ""}</td>
                    <td>{taille(t, s.taille)}</td>
                    <td data-testid="edaplos-statut" className={etat === "erreur" ? "font-medium text-red-700" : undefined}>
                      {t(`edaplos.ecran.${etat}`)}
                    </td>
                    <td>
                      <button type="button" className="btn-secondary" onClick={() => supprimer(s)} data-testid="edaplos-supprimer">
                        {t("edaplos.ecran.supprimer")}
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </section>

      <section className="card" aria-labelledby="edaplos-logs-titre" data-testid="edaplos-logs">
        <h2 id="edaplos-logs-titre" className="text-lg font-semibold text-sillon-800">
          {t("edaplos.ecran.journaux")}
        </h2>
        <label className="mt-2 block max-w-md">
          <span className="field-label">{t("edaplos.ecran.choisir-session")}</span>
          <select
            className="field-input"
            value={idSession ?? ""}
            onChange={(e) => choisirSession(e.target.value ? Number(e.target.value) : null)}
            data-testid="edaplos-choisir-session"
          >
            <option value="">—</option>
            {sessions.map((s) => (
              <option key={s.id} value={s.id}>
                {s.libelle}
              </option>
            ))}
          </select>
        </label>
        {logs == null ? (
          <p className="mt-2 text-sm text-stone-600">{t("edaplos.ecran.aucune-choisie")}</p>
        ) : logs.length === 0 ? (
          <p className="mt-2 text-sm text-stone-600">{t("edaplos.ecran.vide")}</p>
        ) : (
          <TableLogs logs={logs} />
        )}
      </section>
    </section>
  );
}

function TableLogs({ logs }: { logs: LigneLogVue[] }) {
  const { t } = useTranslation();
  return (
    <table className="mt-2 w-full text-sm [&_td]:px-1 [&_th]:px-1" aria-labelledby="edaplos-logs-titre" data-testid="edaplos-logs-table">
      <thead>
        <tr className="text-left">
          <th scope="col">{t("edaplos.ecran.niveau")}</th>
          <th scope="col">{t("edaplos.ecran.exploitation")}</th>
          <th scope="col">{t("edaplos.ecran.campagne")}</th>
          <th scope="col">{t("edaplos.ecran.parcelle")}</th>
          <th scope="col">{t("edaplos.ecran.intervention")}</th>
          <th scope="col">{t("edaplos.ecran.intrant")}</th>
          <th scope="col">{t("edaplos.ecran.message")}</th>
        </tr>
      </thead>
      <tbody>
        {logs.map((l) => (
          <tr key={l.id} data-testid="edaplos-log" data-niveau={l.niveau} className={`border-t border-stone-200 ${l.niveau === 2 ? "text-red-700" : ""}`}>
            <td>{t(`edaplos.ecran.niveau-${l.niveau === 2 ? 2 : 1}`)}</td>
            <td>{l.exploitation?.libelle ?? ""}</td>
            <td>{l.campagne?.libelle ?? ""}</td>
            <td>{l.parcelle?.libelle ?? ""}</td>
            <td>{[l.action?.libelle, l.action?.date].filter(Boolean).join(" ")}</td>
            <td>{l.intrant?.libelle ?? ""}</td>
            <td>{t(`edaplos.logs.${l.logMessage}`, l.parametres)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
