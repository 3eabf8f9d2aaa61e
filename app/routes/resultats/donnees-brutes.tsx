import { useEffect, useRef, useState } from "react";
import { useTranslation } from "~/use-translation";
import { useFetcher, useLoaderData } from "react-router";
import { useFeedback } from "~/components/feedback";
import { SelectionCampagnes, useSelectionCampagnes } from "~/components/resultats/selection-campagnes";
import { SessionsExport } from "~/components/resultats/sessions-export";
import { NATURE_DONNEES_BRUTES, VERSION_EXPORT_DEFAUT } from "~/domain/session-export";
import { ROLE_TEST } from "~/domain/access/abilities";
import { PARAM_CAMPAGNE } from "~/domain/resultats/selection";
import { queryIds, screenLoader } from "#server/http/route.server";
import { campagnesOuvertes, choixCampagnes } from "#server/resultats/selection.server";
import { listerDonneesExportables } from "#server/session-export/service.server";

/**
 * The raw-data export screen (spec 1 §2 "Raw-data export screen", §3, §4, §5, §7; A-EXPORT-01..25): (1) farms and
 * campaigns the user reads (the shared panel), (2) the data groups (donneesExportables), an optional file name and,
 * for ROLE_TEST users, the export version, (3) the user's export sessions of the selected campaigns.
 */
export const loader = screenLoader(async ({ scope, db, user, query }) => {
  const choix = await choixCampagnes(scope, "donneesBrutes");
  return {
    choix,
    // With no campaign in the address, the screen opens on the context's campaign.
    choisies: await campagnesOuvertes(scope, choix, query.has(PARAM_CAMPAGNE) ? queryIds(query, PARAM_CAMPAGNE) : null),
    groupes: await listerDonneesExportables(db),
    roleTest: user.roles.includes(ROLE_TEST),
  };
});

type Reponse =
  { ok: true; id: number; idTache: number } | { ok: false; error: string; params?: Record<string, string | number>; fieldErrors?: Record<string, string[]> };

export default function DonneesBrutes() {
  const { t, i18n } = useTranslation();
  const { choix, choisies, groupes, roleTest } = useLoaderData<typeof loader>();
  const [selection, choisir] = useSelectionCampagnes({ defaut: choisies, videExplicite: true });
  const [cochees, setCochees] = useState<number[]>([]);
  const [libelle, setLibelle] = useState("");
  const [version, setVersion] = useState(VERSION_EXPORT_DEFAUT);
  const [rafraichir, setRafraichir] = useState(0);
  const fetcher = useFetcher<Reponse>();
  const { showError, notify } = useFeedback();
  const vu = useRef<unknown>(undefined);
  const anglais = i18n.language === "en";

  useEffect(() => {
    const r = fetcher.data;
    if (fetcher.state !== "idle" || !r || r === vu.current) return;
    vu.current = r;
    if (r.ok) {
      notify("ui.export-started");
      setLibelle("");
      setRafraichir((n) => n + 1);
    } else showError(r.error, r.params);
  }, [fetcher.state, fetcher.data, notify, showError]);

  const peutExporter = cochees.length > 0 && selection.length > 0 && fetcher.state === "idle";
  const exporter = () => {
    const form = new FormData();
    form.set("libelle", libelle.trim());
    form.set("nature", String(NATURE_DONNEES_BRUTES));
    form.set("version", String(version));
    form.set("campagnes", JSON.stringify(selection));
    form.set("groupes", JSON.stringify(cochees));
    if (anglais) form.set("anglais", "true");
    void fetcher.submit(form, { method: "post", action: "/home/resultats/session_exports" });
  };

  return (
    <section data-testid="screen-donneesbrutes" className="space-y-4">
      <h1 className="text-xl font-semibold text-sillon-800">{t("screen.donneesbrutes")}</h1>
      <div className="grid gap-4 lg:grid-cols-2">
        <SelectionCampagnes choix={choix} selection={selection} onChange={choisir} titre={t("exports.brut.campagnes")} />
        <section className="card" aria-labelledby="export-groupes-titre" data-testid="export-groupes">
          <h2 id="export-groupes-titre" className="text-lg font-semibold text-sillon-800">
            {t("exports.brut.groupes")}
          </h2>
          <fieldset className="mt-2">
            <legend className="text-sm text-stone-600">{t("exports.brut.groupes-aide")}</legend>
            <ul className="mt-2 grid grid-cols-2 gap-1">
              {groupes.map((g) => (
                <li key={g.id}>
                  <label className="flex items-center gap-2 text-sm">
                    <input
                      type="checkbox"
                      checked={cochees.includes(g.id)}
                      onChange={(e) => setCochees((c) => (e.target.checked ? [...c, g.id] : c.filter((x) => x !== g.id)))}
                      data-testid={`groupe-${g.code}`}
                    />
                    {anglais ? g.libelleEn || g.libelle : g.libelle}
                  </label>
                </li>
              ))}
            </ul>
          </fieldset>
          <label className="mt-3 block">
            <span className="field-label">{t("exports.brut.libelle")}</span>
            <input className="field-input" value={libelle} maxLength={200} onChange={(e) => setLibelle(e.target.value)} data-testid="export-libelle" />
          </label>
          {roleTest && (
            <label className="mt-3 block">
              <span className="field-label">{t("exports.brut.version")}</span>
              <select className="field-input" value={version} onChange={(e) => setVersion(Number(e.target.value))} data-testid="export-version">
                <option value={1}>v1</option>
                <option value={2}>v2</option>
              </select>
            </label>
          )}
          <button type="button" className="btn-primary mt-4" disabled={!peutExporter} onClick={exporter} data-testid="export-lancer">
            {t("exports.brut.exporter")}
          </button>
        </section>
      </div>
      <SessionsExport nature={NATURE_DONNEES_BRUTES} campagnes={selection} rafraichir={rafraichir} />
    </section>
  );
}
