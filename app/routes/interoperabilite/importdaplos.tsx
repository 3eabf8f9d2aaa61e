import { useEffect, useRef, useState, type ReactNode } from "react";
import { useFetcher, useLoaderData, useRevalidator, useSearchParams } from "react-router";
import { useTranslation } from "~/use-translation";
import { useFeedback } from "~/components/feedback";
import { formatDateTime } from "~/components/format";
import { BarreProgression } from "~/components/tache/barre-progression";
import { EXTENSIONS_DAPLOS, ImportDaplosSchema } from "~/domain/import-daplos";
import { queryNumber, screenLoader } from "#server/http/route.server";
import {
  destinationsImportDaplos,
  historiqueImportsDaplos,
  rapportImportDaplos,
  type LigneHistorique,
  type RapportImport,
} from "#server/interop/daplos/service.server";

/** The chosen network and the import whose report is shown (query parameters). */
const PARAM_OAD = "oad";
const PARAM_IMPORT = "import";
const UPLOAD = "/home/interoperabilite/importdaplos/fichier";

/**
 * The Daplos import screen (spec 3 §2.10 importdaplos, §3.13, §4.5; C-DAP; decision 0107): (1) the destination network,
 * folder and file; (2) the preview of what the import will do, nothing written, then Confirm or Cancel; (3) the job's
 * progress; (4) the history of the network's imports with their states, and the report of a chosen one.
 */
export const loader = screenLoader(async ({ scope, query }) => {
  const destinations = await destinationsImportDaplos(scope);
  const demande = queryNumber(query, PARAM_OAD);
  const view = await scope.view();
  const idOad = destinations.find((d) => d.id === demande)?.id ?? destinations.find((d) => d.id === view.selected.idOad)?.id ?? destinations[0]?.id ?? null;
  const historique = idOad != null ? await historiqueImportsDaplos(scope, idOad) : [];
  const choisi = queryNumber(query, PARAM_IMPORT);
  const idImport = historique.some((l) => l.id === choisi) ? choisi : null;
  return {
    destinations,
    idOad,
    idDossier: view.selected.idDossier,
    historique,
    idImport,
    detail: idImport != null ? await rapportImportDaplos(scope, idImport) : null,
  };
});

type Reponse =
  | { ok: true; rapport?: RapportImport; idImport?: number; idTache?: number; notice?: string }
  | { ok: false; error: string; params?: Record<string, string | number>; fieldErrors?: Record<string, string[]> };

export default function ImportDaplos() {
  const { t } = useTranslation();
  const { destinations, idOad, idDossier: dossierContexte, historique, idImport, detail } = useLoaderData<typeof loader>();
  const [, setParams] = useSearchParams();
  const apercu = useFetcher<Reponse>();
  const lanceur = useFetcher<Reponse>();
  const { notify } = useFeedback();
  const revalidator = useRevalidator();
  const destination = destinations.find((d) => d.id === idOad);
  const [idDossier, setIdDossier] = useState<string>(() =>
    destination?.dossiers.some((d) => d.id === dossierContexte) ? String(dossierContexte) : String(destination?.dossiers[0]?.id ?? ""),
  );
  const [fichier, setFichier] = useState<File | null>(null);
  const [rapport, setRapport] = useState<RapportImport | null>(null);
  const [tache, setTache] = useState<number | null>(null);
  // The job's bar stays once it ended (at 100 % or failed) until another file is chosen.
  const [finie, setFinie] = useState(false);
  // A failure of the preview, of the launch or of the job (C-ERR-22, C-ERR-33; decision 0121): no dialog, the loading
  // indicator stops and the failure is told next to the file field (or the bar), as the file's name plus the detail.
  const [echec, setEchec] = useState<{ fichier: string; cle: string; params?: Record<string, string | number> } | null>(null);
  const [echecTache, setEchecTache] = useState<string | null>(null);
  const importEnCours = tache != null && !finie;
  const champFichier = useRef<HTMLInputElement>(null);
  const vus = useRef<unknown[]>([]);
  const envoye = useRef("");

  const valide = ImportDaplosSchema.safeParse({ idOad: idOad ?? "", idDossier, fichier: fichier ?? undefined });
  const erreurFichier = fichier && !valide.success ? valide.error.issues.find((i) => i.path[0] === "fichier")?.message : undefined;
  const erreurChamp = erreurFichier
    ? t(erreurFichier)
    : echec
      ? t("daplos.ecran.echec-envoi", { fichier: echec.fichier, detail: t(echec.cle, { ligne: "", message: "", racine: "", max: "", ...echec.params }) })
      : undefined;

  useEffect(() => {
    for (const f of [apercu, lanceur]) {
      const r = f.data;
      if (f.state !== "idle" || !r || vus.current.includes(r)) continue;
      vus.current.push(r);
      if (!r.ok) {
        setEchec({ fichier: envoye.current, cle: r.error, params: r.params });
        continue;
      }
      if (r.rapport) setRapport(r.rapport);
      if (r.idTache) {
        setRapport(null);
        setFinie(false);
        setTache(r.idTache);
        notify(r.notice ?? "daplos.ecran.lance");
        void revalidator.revalidate();
      }
    }
  }, [apercu, lanceur, notify, revalidator]);

  const envoyer = (f: typeof apercu, intent: "apercu" | "lancer") => {
    if (!fichier || idOad == null) return;
    envoye.current = fichier.name;
    setEchec(null);
    setEchecTache(null);
    const form = new FormData();
    form.set("intent", intent);
    form.set("idOad", String(idOad));
    if (idDossier) form.set("idDossier", idDossier);
    form.set("fichier", fichier, fichier.name);
    void f.submit(form, { method: "post", action: UPLOAD, encType: "multipart/form-data" });
  };
  const annuler = () => {
    setRapport(null);
    setFichier(null);
    setEchec(null);
    if (champFichier.current) champFichier.current.value = "";
  };
  const parametre = (nom: string, valeur: number | null) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (valeur == null) next.delete(nom);
        else next.set(nom, String(valeur));
        if (nom === PARAM_OAD) next.delete(PARAM_IMPORT);
        return next;
      },
      { replace: true, preventScrollReset: true },
    );
  const choisirReseau = (id: number) => {
    const d = destinations.find((x) => x.id === id);
    setIdDossier(String(d?.dossiers[0]?.id ?? ""));
    setRapport(null);
    parametre(PARAM_OAD, id);
  };
  const fin = () => {
    setFinie(true);
    void revalidator.revalidate();
  };
  const occupe = apercu.state !== "idle" || lanceur.state !== "idle";

  // An import in progress (this one or one launched earlier): the history is read again until it ends.
  const enCours = historique.some((l) => l.etat === "en_cours");
  useEffect(() => {
    if (!enCours || importEnCours) return;
    const id = setInterval(() => {
      if (revalidator.state === "idle") void revalidator.revalidate();
    }, 1500);
    return () => clearInterval(id);
  }, [enCours, importEnCours, revalidator]);

  return (
    <section data-testid="screen-importdaplos" className="space-y-4">
      <h1 className="text-xl font-semibold text-sillon-800">{t("screen.importdaplos")}</h1>

      <section className="card" aria-labelledby="daplos-formulaire-titre" data-testid="daplos-formulaire">
        <h2 id="daplos-formulaire-titre" className="text-lg font-semibold text-sillon-800">
          {t("daplos.ecran.fichier-a-importer")}
        </h2>
        {destinations.length === 0 ? (
          <p className="mt-2 text-sm text-red-700" data-testid="daplos-aucune-destination">
            {t("daplos.ecran.aucune-destination")}
          </p>
        ) : (
          <form
            className="mt-2 grid max-w-2xl gap-3"
            onSubmit={(e) => {
              e.preventDefault();
              if (valide.success) envoyer(apercu, "apercu");
            }}
          >
            <label className="block">
              <span className="field-label">{t("daplos.ecran.reseau")} *</span>
              <select
                className="field-input"
                required
                value={idOad ?? ""}
                onChange={(e) => choisirReseau(Number(e.target.value))}
                data-testid="daplos-reseau"
                disabled={!!rapport || importEnCours}
              >
                {destinations.map((d) => (
                  <option key={d.id} value={d.id}>
                    {d.libelle}
                  </option>
                ))}
              </select>
            </label>
            <label className="block">
              <span className="field-label">{t("daplos.ecran.dossier")}</span>
              <select
                className="field-input"
                value={idDossier}
                onChange={(e) => {
                  setIdDossier(e.target.value);
                  setRapport(null);
                }}
                aria-describedby="daplos-dossier-aide"
                data-testid="daplos-dossier"
                disabled={!!rapport || importEnCours}
              >
                {destination?.dossiers.map((d) => (
                  <option key={d.id} value={d.id}>
                    {d.libelle}
                  </option>
                ))}
              </select>
            </label>
            <p id="daplos-dossier-aide" className="-mt-2 text-xs text-stone-600">
              {t("daplos.ecran.dossier-aide")}
            </p>
            <label className="block">
              <span className="field-label">{t("daplos.ecran.fichier")} *</span>
              <input
                ref={champFichier}
                type="file"
                className="field-input"
                required
                accept={EXTENSIONS_DAPLOS.join(",")}
                aria-invalid={erreurChamp ? true : undefined}
                aria-describedby={erreurChamp ? "daplos-fichier-erreur" : "daplos-fichier-aide"}
                onChange={(e) => {
                  setFichier(e.target.files?.[0] ?? null);
                  setRapport(null);
                  setEchec(null);
                  if (finie) setTache(null);
                }}
                data-testid="daplos-fichier"
                disabled={!!rapport || importEnCours}
              />
            </label>
            <div className="-mt-2">
              {erreurChamp ? (
                <span id="daplos-fichier-erreur" role="alert" className="mt-1 block text-sm text-red-700" data-testid="daplos-fichier-erreur">
                  {erreurChamp}
                </span>
              ) : (
                <span id="daplos-fichier-aide" className="mt-1 block text-xs text-stone-600">
                  {t("daplos.ecran.fichier-aide")}
                </span>
              )}
            </div>
            <div className="flex items-center gap-3">
              <button type="submit" className="btn-primary" disabled={!valide.success || occupe || !!rapport || importEnCours} data-testid="daplos-apercu">
                {t("daplos.ecran.previsualiser")}
              </button>
              {occupe && (
                <span role="status" className="text-sm text-stone-600" data-testid="daplos-chargement">
                  {t("daplos.ecran.lecture-en-cours")}
                </span>
              )}
            </div>
          </form>
        )}
      </section>

      {rapport && (
        <section className="card" aria-labelledby="daplos-apercu-titre" data-testid="daplos-apercu-rapport">
          <h2 id="daplos-apercu-titre" className="text-lg font-semibold text-sillon-800">
            {t("daplos.ecran.apercu")}
          </h2>
          <p className="mt-1 text-sm text-stone-600">{t("daplos.ecran.apercu-aide")}</p>
          <Rapport rapport={rapport} />
          <div className="mt-3 flex gap-2">
            <button type="button" className="btn-primary" disabled={occupe} onClick={() => envoyer(lanceur, "lancer")} data-testid="daplos-confirmer">
              {t("daplos.ecran.confirmer")}
            </button>
            <button type="button" className="btn-secondary" disabled={occupe} onClick={annuler} data-testid="daplos-annuler">
              {t("daplos.ecran.annuler")}
            </button>
          </div>
        </section>
      )}

      {tache && (
        <section className="card" aria-labelledby="daplos-progression-titre" data-testid="daplos-progression">
          <h2 id="daplos-progression-titre" className="text-lg font-semibold text-sillon-800">
            {t("daplos.ecran.progression")}
          </h2>
          <div className="mt-2">
            <BarreProgression
              idTache={tache}
              label={t("daplos.ecran.progression")}
              onTerminee={() => {
                notify("daplos.ecran.termine");
                annuler();
                fin();
              }}
              onEchec={(x) => {
                setEchecTache(x.erreur ?? "daplos.echec");
                fin();
              }}
            />
          </div>
          {echecTache && (
            <p role="alert" className="mt-2 text-sm text-red-700" data-testid="daplos-echec-tache">
              {t(echecTache, { ligne: "", type: "", cause: "", message: "", racine: "", max: "" })}
            </p>
          )}
        </section>
      )}

      <Historique historique={historique} idImport={idImport} choisir={(id) => parametre(PARAM_IMPORT, id)} />

      {detail && (
        <section className="card" aria-labelledby="daplos-detail-titre" data-testid="daplos-detail">
          <h2 id="daplos-detail-titre" className="text-lg font-semibold text-sillon-800">
            {t("daplos.ecran.rapport-de", { fichier: detail.ligne.nomFichier })}
          </h2>
          <p className="mt-1 text-sm">{messageImport(t, detail.ligne)}</p>
          {detail.rapport ? <Rapport rapport={detail.rapport} /> : <p className="mt-2 text-sm text-stone-600">{t("daplos.ecran.sans-rapport")}</p>}
        </section>
      )}
    </section>
  );
}

type T = (k: string, o?: Record<string, unknown>) => string;

/** The history row's message: the failure's key translated (messageEchec writes "echec: <key>[ cause][ (ligne N)]"). */
function messageImport(t: T, l: LigneHistorique): string {
  if (!l.message) return "";
  const m = /^echec: ([\w.-]+)(?: (.*?))?(?: \(ligne (\d+)\))?$/.exec(l.message);
  if (!m) return l.message;
  const texte = t(m[1], { ligne: m[3] ?? "", cause: m[2] ?? "", type: "", version: "", max: "" });
  return m[3] && !texte.includes(m[3]) ? `${texte} (${t("daplos.ecran.ligne")} ${m[3]})` : texte;
}

function Historique({ historique, idImport, choisir }: { historique: LigneHistorique[]; idImport: number | null; choisir: (id: number | null) => void }) {
  const { t } = useTranslation();
  return (
    <section className="card" aria-labelledby="daplos-historique-titre" data-testid="daplos-historique">
      <h2 id="daplos-historique-titre" className="text-lg font-semibold text-sillon-800">
        {t("daplos.ecran.historique")}
      </h2>
      {historique.length === 0 ? (
        <p className="mt-2 text-sm text-stone-600">{t("daplos.ecran.aucun-import")}</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="mt-2 w-full text-sm [&_td]:px-1 [&_th]:px-1" aria-labelledby="daplos-historique-titre">
            <thead>
              <tr className="text-left">
                <th scope="col">{t("daplos.ecran.fichier")}</th>
                <th scope="col">{t("daplos.ecran.debut")}</th>
                <th scope="col">{t("daplos.ecran.fin")}</th>
                <th scope="col">{t("daplos.ecran.statut")}</th>
                <th scope="col">{t("daplos.ecran.parcelles-creees")}</th>
                <th scope="col">{t("daplos.ecran.interventions-importees")}</th>
                <th scope="col">{t("daplos.ecran.message")}</th>
                <th scope="col">
                  <span className="sr-only">{t("daplos.ecran.voir-rapport")}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {historique.map((l) => (
                <tr key={l.id} data-testid={`daplos-import-${l.id}`} data-etat={l.etat} className="border-t border-stone-200">
                  <td>{l.nomFichier}</td>
                  <td>{formatDateTime(l.dtDebImport)}</td>
                  <td>{l.dtFinImport ? formatDateTime(l.dtFinImport) : ""}</td>
                  <td data-testid="daplos-etat" className={l.etat === "echec" ? "font-medium text-red-700" : undefined}>
                    {t(`daplos.etat.${l.etat}`)}
                  </td>
                  <td>{l.nbparcellescrees}</td>
                  <td>{l.nbinterventionsimportees}</td>
                  <td>{messageImport(t, l)}</td>
                  <td>
                    <button
                      type="button"
                      className="btn-secondary"
                      aria-pressed={idImport === l.id}
                      onClick={() => choisir(idImport === l.id ? null : l.id)}
                      data-testid="daplos-voir-rapport"
                    >
                      {t("daplos.ecran.voir-rapport")}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** What an import creates, updates and does not take (the preview, or the report of a finished import). */
function Rapport({ rapport: r }: { rapport: RapportImport }) {
  const { t } = useTranslation();
  const action = (a: "creer" | "mettre-a-jour") => t(`daplos.ecran.action.${a}`);
  return (
    <div className="mt-2 space-y-3 text-sm" data-testid="daplos-rapport">
      <dl className="grid grid-cols-[max-content_1fr] gap-x-3 gap-y-1">
        <dt className="font-medium">{t("daplos.ecran.fichier")}</dt>
        <dd>{t("daplos.ecran.fichier-detail", { nom: r.fichier.nom, version: r.fichier.version, encodage: r.fichier.encodage })}</dd>
        <dt className="font-medium">{t("daplos.ecran.exploitation")}</dt>
        <dd data-testid="daplos-rapport-exploitation">
          {r.exploitation.libelle}
          {r.exploitation.siret ? ` (SIRET ${r.exploitation.siret})` : ""} — {action(r.exploitation.action)}
          {r.exploitation.existante ? ` (${t(`daplos.ecran.existante.${r.exploitation.existante.par}`, { libelle: r.exploitation.existante.libelle })})` : ""}
        </dd>
        <dt className="font-medium">{t("daplos.ecran.campagnes")}</dt>
        <dd data-testid="daplos-rapport-campagnes">{r.campagnes.map((c) => `${c.anneeRecolte} — ${action(c.action)}`).join(" ; ")}</dd>
        <dt className="font-medium">{t("daplos.ecran.interventions")}</dt>
        <dd data-testid="daplos-rapport-interventions">
          {t("daplos.ecran.interventions-detail", {
            creees: r.interventions.creees,
            misesAJour: r.interventions.misesAJour,
            supprimees: r.interventions.supprimees,
          })}
        </dd>
        <dt className="font-medium">{t("daplos.ecran.intrants")}</dt>
        <dd>{t("daplos.ecran.intrants-detail", { crees: r.intrants.crees, nonReferences: r.intrants.nonReferences.length })}</dd>
        <dt className="font-medium">{t("daplos.ecran.recoltes")}</dt>
        <dd>{r.recoltes.creees}</dd>
      </dl>

      <Tableau titre={t("daplos.ecran.parcelles")} testid="daplos-rapport-parcelles" vide={r.parcelles.length === 0}>
        <thead>
          <tr className="text-left">
            <th scope="col">{t("daplos.ecran.ligne")}</th>
            <th scope="col">{t("daplos.ecran.parcelle")}</th>
            <th scope="col">{t("daplos.ecran.action-colonne")}</th>
          </tr>
        </thead>
        <tbody>
          {r.parcelles.map((p) => (
            <tr key={p.cle} className="border-t border-stone-200" data-testid="daplos-rapport-parcelle">
              <td>{p.ligne}</td>
              <td>{p.libelle}</td>
              <td>{action(p.action)}</td>
            </tr>
          ))}
        </tbody>
      </Tableau>

      <Tableau titre={t("daplos.ecran.non-pris")} testid="daplos-rapport-non-pris" vide={r.nonPris.length === 0}>
        <thead>
          <tr className="text-left">
            <th scope="col">{t("daplos.ecran.ligne")}</th>
            <th scope="col">{t("daplos.ecran.type")}</th>
            <th scope="col">{t("daplos.ecran.raison")}</th>
          </tr>
        </thead>
        <tbody>
          {r.nonPris.map((n, i) => (
            <tr key={`${n.ligne}-${i}`} className="border-t border-stone-200" data-testid="daplos-non-pris">
              <td>{n.ligne}</td>
              <td>{n.type}</td>
              <td>
                {t(`daplos.raison.${n.raison}`)}
                {n.detail ? ` (${n.detail})` : ""}
              </td>
            </tr>
          ))}
        </tbody>
      </Tableau>

      <Tableau titre={t("daplos.ecran.avertissements")} testid="daplos-rapport-avertissements" vide={r.avertissements.length === 0}>
        <thead>
          <tr className="text-left">
            <th scope="col">{t("daplos.ecran.ligne")}</th>
            <th scope="col">{t("daplos.ecran.type")}</th>
            <th scope="col">{t("daplos.ecran.message")}</th>
          </tr>
        </thead>
        <tbody>
          {r.avertissements.map((a, i) => (
            <tr key={`${a.ligne}-${i}`} className="border-t border-stone-200" data-testid="daplos-avertissement">
              <td>{a.ligne}</td>
              <td>{a.type}</td>
              <td>{t(a.cle, a.params)}</td>
            </tr>
          ))}
        </tbody>
      </Tableau>

      {r.intrants.nonReferences.length > 0 && (
        <Tableau titre={t("daplos.ecran.non-references")} testid="daplos-rapport-non-references" vide={false}>
          <thead>
            <tr className="text-left">
              <th scope="col">{t("daplos.ecran.ligne")}</th>
              <th scope="col">{t("daplos.ecran.intrant")}</th>
              <th scope="col">{t("daplos.ecran.genre")}</th>
            </tr>
          </thead>
          <tbody>
            {r.intrants.nonReferences.map((n, i) => (
              <tr key={`${n.ligne}-${i}`} className="border-t border-stone-200">
                <td>{n.ligne}</td>
                <td>{n.libelle}</td>
                <td>{n.genre}</td>
              </tr>
            ))}
          </tbody>
        </Tableau>
      )}

      <Tableau titre={t("daplos.ecran.comptes")} testid="daplos-rapport-comptes" vide={Object.keys(r.comptes).length === 0}>
        <thead>
          <tr className="text-left">
            <th scope="col">{t("daplos.ecran.type")}</th>
            <th scope="col">{t("daplos.ecran.lus")}</th>
            <th scope="col">{t("daplos.ecran.crees")}</th>
            <th scope="col">{t("daplos.ecran.mis-a-jour")}</th>
            <th scope="col">{t("daplos.ecran.non-pris-nombre")}</th>
          </tr>
        </thead>
        <tbody>
          {Object.entries(r.comptes).map(([type, c]) => (
            <tr key={type} className="border-t border-stone-200">
              <td>{type}</td>
              <td>{c.lus}</td>
              <td>{c.crees}</td>
              <td>{c.misAJour}</td>
              <td>{c.nonPris}</td>
            </tr>
          ))}
        </tbody>
      </Tableau>
    </div>
  );
}

function Tableau({ titre, testid, vide, children }: { titre: string; testid: string; vide: boolean; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div data-testid={testid}>
      <h3 className="font-semibold text-sillon-800">{titre}</h3>
      {vide ? (
        <p className="text-stone-600">{t("daplos.ecran.aucun")}</p>
      ) : (
        <div className="max-h-72 overflow-auto" tabIndex={0} role="region" aria-label={titre}>
          <table className="w-full [&_td]:px-1 [&_th]:px-1">{children}</table>
        </div>
      )}
    </div>
  );
}
