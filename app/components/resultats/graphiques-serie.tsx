import { decimalesIndicateur } from "~/domain/calc/indicateurs/arrondi";
import { useEffect, useEffectEvent, useState, type KeyboardEvent } from "react";
import { useTranslation } from "~/use-translation";
import { Link, useFetcher } from "react-router";
import { AppDialog } from "~/components/dialog";
import { formatDate, formatNumber } from "~/components/format";
import { decrireIndicateur } from "~/domain/calc/indicateurs/catalogue";
import type { Entree, Explication, Manquant } from "~/domain/calc/indicateurs/types";
import { CODES_GRAPHIQUES, CODES_IFT_SEGMENTS } from "~/domain/calc/serie";
import { adresseCorrection, correction } from "~/domain/manquants";

export type ValeurGraphique = { niveau: string; idEntite: string; code: string; valeur: number | null; unite: string; completude: number; nbManquants: number };
export type DonneesGraphiques = {
  idSerie: number;
  parcelles: { id: number; libelle: string; idCulture: string | null }[];
  cultures: { id: string; libelle: string }[];
  resultats: ValeurGraphique[];
};
type Entite = { id: string; libelle: string };
type Cible = { niveau: string; entite: Entite; code: string };
type ReponseExplication = ValeurGraphique & { manquants: Manquant[]; explication: Explication };

const COULEURS = ["#b45309", "#1d4ed8", "#b91c1c", "#6d28d9", "#0f766e", "#4d7c0f"];

/** An indicator's translated label (with its qualifier: at the target, real prices...). */
export function useLibelleIndicateur() {
  const { t } = useTranslation();
  return (code: string) => {
    const d = decrireIndicateur(code);
    if (!d) return code;
    return d.qualificatif ? `${t(d.libelle)} (${t(d.qualificatif.cle, { valeur: d.qualificatif.valeur })})` : t(d.libelle);
  };
}

const activer = (fn: () => void) => (e: KeyboardEvent) => {
  if (e.key === "Enter" || e.key === " ") {
    e.preventDefault();
    fn();
  }
};

/**
 * Horizontal bars of one indicator over plots, crops or campaigns (negative values to the left of zero). Each bar opens
 * its explanation when `onOuvrir` is given (else it is an image named by `nomBarre`). `repereOf` draws a reference
 * mark per bar (an objective, decision 0087), `couleurOf` colours a bar (met or missed).
 */
export function Barres({
  titre,
  entites,
  valeurOf,
  unite,
  onOuvrir,
  testId,
  repereOf,
  couleurOf,
  nomBarre,
}: {
  titre: string;
  entites: Entite[];
  valeurOf: (e: Entite) => number | null;
  unite: string;
  onOuvrir?: (e: Entite) => void;
  testId: string;
  repereOf?: (e: Entite) => number | null;
  couleurOf?: (e: Entite) => string | null;
  nomBarre?: (e: Entite, texte: string) => string;
}) {
  const { t, i18n } = useTranslation();
  const valeurs = entites.map(valeurOf);
  const reperes = entites.map((e) => repereOf?.(e) ?? null);
  const min = Math.min(0, ...valeurs.map((v) => v ?? 0), ...reperes.map((v) => v ?? 0));
  const max = Math.max(0, ...valeurs.map((v) => v ?? 0), ...reperes.map((v) => v ?? 0));
  const L = 150,
    W = 420,
    H = 24,
    span = max - min || 1;
  const x = (v: number) => L + ((v - min) / span) * (W - L - 70);
  return (
    <figure className="rounded border border-stone-300 p-2" data-testid={testId}>
      <figcaption className="text-sm font-semibold">
        {titre}
        {unite ? ` (${unite})` : ""}
      </figcaption>
      <svg viewBox={`0 0 ${W} ${entites.length * H + 8}`} className="w-full" role="group" aria-label={titre}>
        <line x1={x(0)} x2={x(0)} y1={0} y2={entites.length * H + 4} stroke="#78716c" />
        {entites.map((e, i) => {
          const v = valeurs[i];
          const texte = v == null ? t("calcul-serie.non-calcule") : formatNumber(v, i18n.language, 2);
          const y = i * H + 4;
          return (
            <g key={e.id}>
              <text x={L - 6} y={y + 15} textAnchor="end" fontSize="11" fill="#1c1917" aria-hidden="true">
                {e.libelle.length > 24 ? `${e.libelle.slice(0, 23)}…` : e.libelle}
              </text>
              <g
                {...(onOuvrir
                  ? {
                      role: "button",
                      tabIndex: 0,
                      className: "cursor-pointer focus:outline-none [&:focus>rect]:stroke-black",
                      onClick: () => onOuvrir(e),
                      onKeyDown: activer(() => onOuvrir(e)),
                      "aria-label": t("calcul-serie.ouvrir-explication", { indicateur: titre, entite: e.libelle, valeur: texte }),
                    }
                  : { role: "img", "aria-label": nomBarre ? nomBarre(e, texte) : `${e.libelle} : ${texte}` })}
                data-testid="barre"
              >
                <rect
                  x={Math.min(x(0), x(v ?? 0))}
                  y={y + 3}
                  width={Math.max(1, Math.abs(x(v ?? 0) - x(0)))}
                  height={H - 8}
                  fill={v == null ? "#d6d3d1" : (couleurOf?.(e) ?? "#3f7d2c")}
                  strokeWidth={2}
                />
                <text x={Math.max(x(0), x(v ?? 0)) + 4} y={y + 15} fontSize="11" fill="#1c1917" aria-hidden="true">
                  {texte}
                </text>
                {reperes[i] != null ? (
                  <line
                    x1={x(reperes[i]!)}
                    x2={x(reperes[i]!)}
                    y1={y}
                    y2={y + H - 2}
                    stroke="#1c1917"
                    strokeWidth={2}
                    strokeDasharray="3 2"
                    aria-hidden="true"
                    data-testid="repere"
                  />
                ) : null}
              </g>
            </g>
          );
        })}
      </svg>
    </figure>
  );
}

/** The IFT split by segment, one stacked bar per plot or crop; each segment opens its explanation. */
function SegmentsIft({
  entites,
  valeurOf,
  onOuvrir,
  libelle,
}: {
  entites: Entite[];
  valeurOf: (e: Entite, code: string) => number | null;
  onOuvrir: (e: Entite, code: string) => void;
  libelle: (code: string) => string;
}) {
  const { t, i18n } = useTranslation();
  const totaux = entites.map((e) => CODES_IFT_SEGMENTS.reduce((s, c) => s + Math.max(0, valeurOf(e, c) ?? 0), 0));
  const max = Math.max(1e-9, ...totaux);
  const L = 150,
    W = 420,
    H = 24;
  const x = (v: number) => (v / max) * (W - L - 50);
  return (
    <figure className="rounded border border-stone-300 p-2" data-testid="graphique-ift-segments">
      <figcaption className="text-sm font-semibold">{t("calcul-serie.ift-segments")}</figcaption>
      <svg viewBox={`0 0 ${W} ${entites.length * H + 8}`} className="w-full" role="group" aria-label={t("calcul-serie.ift-segments")}>
        {entites.map((e, i) => {
          const y = i * H + 4;
          let cumul = 0;
          return (
            <g key={e.id}>
              <text x={L - 6} y={y + 15} textAnchor="end" fontSize="11" fill="#1c1917" aria-hidden="true">
                {e.libelle.length > 24 ? `${e.libelle.slice(0, 23)}…` : e.libelle}
              </text>
              {CODES_IFT_SEGMENTS.map((code, k) => {
                const v = Math.max(0, valeurOf(e, code) ?? 0);
                const debut = cumul;
                cumul += v;
                if (v <= 0) return null;
                return (
                  <rect
                    key={code}
                    role="button"
                    tabIndex={0}
                    x={L + x(debut)}
                    y={y + 3}
                    width={Math.max(1, x(v))}
                    height={H - 8}
                    fill={COULEURS[k]}
                    aria-label={t("calcul-serie.ouvrir-explication", {
                      indicateur: libelle(code),
                      entite: e.libelle,
                      valeur: formatNumber(v, i18n.language, 2),
                    })}
                    className="cursor-pointer"
                    onClick={() => onOuvrir(e, code)}
                    onKeyDown={activer(() => onOuvrir(e, code))}
                  />
                );
              })}
              <text x={L + x(totaux[i]) + 4} y={y + 15} fontSize="11" fill="#1c1917" aria-hidden="true">
                {formatNumber(totaux[i], i18n.language, 2)}
              </text>
            </g>
          );
        })}
      </svg>
      <ul className="mt-1 flex flex-wrap gap-3 text-xs" aria-label={t("calcul-serie.legende")}>
        {CODES_IFT_SEGMENTS.map((code, k) => (
          <li key={code} className="flex items-center gap-1">
            <span aria-hidden="true" className="inline-block h-3 w-3" style={{ background: COULEURS[k] }} />
            {libelle(code)}
          </li>
        ))}
      </ul>
    </figure>
  );
}

/**
 * The charts of a series' detail (issue 14): per plot or per crop, bars of the main indicators (IFT, N, gross margin,
 * work time) and the IFT split by segment, then the same figures as a table. Every figure opens its explanation:
 * formula, the data used with their contribution, remarks and missing data.
 */
/** `corrigible`: the series is of the context's campaign, so a missing datum links to the screen and row that fix it. */
export function GraphiquesSerie({ data, corrigible = false }: { data: DonneesGraphiques; corrigible?: boolean }) {
  const { t, i18n } = useTranslation();
  const libelle = useLibelleIndicateur();
  const [niveau, setNiveau] = useState<"parcelle" | "culture">("parcelle");
  const [cible, setCible] = useState<Cible | null>(null);
  const entites: Entite[] =
    niveau === "parcelle"
      ? data.parcelles.map((p) => ({ id: String(p.id), libelle: p.libelle }))
      : data.cultures.map((c) => ({ id: c.id, libelle: c.id === "null" ? t("calcul-serie.sans-culture") : c.libelle }));
  const index = new Map(data.resultats.map((r) => [`${r.niveau}|${r.idEntite}|${r.code}`, r]));
  const ligne = (e: Entite, code: string) => index.get(`${niveau}|${e.id}|${code}`);
  const valeurOf = (e: Entite, code: string) => ligne(e, code)?.valeur ?? null;
  const unite = (code: string) => (code.startsWith("ift.") ? "" : (data.resultats.find((r) => r.code === code)?.unite ?? ""));
  const ouvrir = (e: Entite, code: string) => setCible({ niveau, entite: e, code });
  const codesTableau = [...CODES_GRAPHIQUES, ...CODES_IFT_SEGMENTS];
  return (
    <section className="space-y-3" aria-labelledby="graphiques-titre" data-testid="graphiques-serie">
      <div className="flex flex-wrap items-center gap-3">
        <h2 id="graphiques-titre" className="text-lg font-semibold">
          {t("calcul-serie.graphiques")}
        </h2>
        <div role="radiogroup" aria-label={t("calcul-serie.graphiques")} className="flex gap-2">
          {(["parcelle", "culture"] as const).map((n) => (
            <label key={n} className="flex items-center gap-1 text-sm">
              <input type="radio" name="niveau-graphique" checked={niveau === n} onChange={() => setNiveau(n)} />
              {t(n === "parcelle" ? "calcul-serie.par-parcelle" : "calcul-serie.par-culture")}
            </label>
          ))}
        </div>
      </div>
      <div className="grid gap-3 lg:grid-cols-2">
        {CODES_GRAPHIQUES.map((code) => (
          <Barres
            key={code}
            testId={`graphique-${code}`}
            titre={libelle(code)}
            unite={unite(code)}
            entites={entites}
            valeurOf={(e) => valeurOf(e, code)}
            onOuvrir={(e) => ouvrir(e, code)}
          />
        ))}
        <SegmentsIft entites={entites} valeurOf={valeurOf} onOuvrir={ouvrir} libelle={libelle} />
      </div>
      <details className="card" open>
        <summary className="cursor-pointer font-semibold">{t("calcul-serie.tableau-titre")}</summary>
        <div className="overflow-x-auto">
          <table className="mt-2 text-sm" data-testid="tableau-graphiques">
            <caption className="sr-only">{t("calcul-serie.tableau-titre")}</caption>
            <thead>
              <tr>
                <th scope="col" className="px-2 text-left">
                  {t(niveau === "parcelle" ? "calcul-serie.par-parcelle" : "calcul-serie.par-culture")}
                </th>
                {codesTableau.map((code) => (
                  <th key={code} scope="col" className="px-2 text-right">
                    {libelle(code)}
                    {unite(code) ? ` (${unite(code)})` : ""}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {entites.map((e) => (
                <tr key={e.id} className="border-t border-stone-200">
                  <th scope="row" className="px-2 text-left font-normal">
                    {e.libelle}
                  </th>
                  {codesTableau.map((code) => {
                    const l = ligne(e, code);
                    const texte = l?.valeur == null ? t("calcul-serie.non-calcule") : formatNumber(l.valeur, i18n.language, decimalesIndicateur(l.unite));
                    return (
                      <td key={code} className="px-2 text-right">
                        {l ? (
                          <button
                            type="button"
                            className="underline decoration-dotted"
                            onClick={() => ouvrir(e, code)}
                            aria-label={t("calcul-serie.ouvrir-explication", { indicateur: libelle(code), entite: e.libelle, valeur: texte })}
                          >
                            {texte}
                          </button>
                        ) : (
                          "—"
                        )}
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
      <ExplicationDialog idSerie={data.idSerie} cible={cible} corrigible={corrigible} onClose={() => setCible(null)} />
    </section>
  );
}

/** The explanation of one figure, read when opened. */
function ExplicationDialog({ idSerie, cible, corrigible, onClose }: { idSerie: number; cible: Cible | null; corrigible: boolean; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const libelle = useLibelleIndicateur();
  const fetcher = useFetcher<ReponseExplication>();
  const charger = useEffectEvent((c: Cible) =>
    fetcher.load(`/home/resultats/calcul/${idSerie}/explication?${new URLSearchParams({ niveau: c.niveau, id: c.entite.id, code: c.code })}`),
  );
  // Loads when the figure changes.
  useEffect(() => {
    if (cible) void charger(cible);
  }, [cible, idSerie]);
  const e = fetcher.data && cible && fetcher.data.code === cible.code && fetcher.data.idEntite === cible.entite.id ? fetcher.data : null;
  const objet = (x: Entree) => (x.objet === "indicateur" ? libelle(String(x.id)) : t(`indicateurs-parcelle.objets.${x.objet}`));
  const manquant = (m: Manquant) =>
    t("indicateurs-parcelle.manquant", {
      objet: t(`indicateurs-parcelle.objets.${m.objet}`),
      libelle: m.libelle ?? String(m.id),
      champ: t(`indicateurs.champs.${m.champ}`, { defaultValue: m.champ }),
    });
  const nombre = (v: number | undefined | null) => (v == null ? "" : formatNumber(v, i18n.language, 4));
  // How a treatment's reference dose was found, in words: the row of its target or crop, with the list's year.
  const doseReference = (d: NonNullable<Entree["doseReference"]>) =>
    t(`calcul-serie.dose-reference.${d.methode}`, {
      dose: d.dose == null ? "" : formatNumber(d.dose, i18n.language, 4),
      unite: d.unite ?? "",
      liste: d.annee == null ? t("calcul-serie.dose-reference.liste-campagne") : t("calcul-serie.dose-reference.liste-annee", { annee: d.annee }),
    });
  // A remark may carry one value after a colon ("liste-ift-voisine:2026": the year of the reference list read).
  const texteRemarque = (r: string) => {
    const [code, valeur] = r.split(":");
    return t(`calcul-serie.remarques-textes.${code}`, { defaultValue: r, valeur });
  };
  return (
    <AppDialog
      open={!!cible}
      title={cible ? t("calcul-serie.explication", { indicateur: libelle(cible.code), entite: cible.entite.libelle }) : ""}
      width={800}
      testId="explication-dialog"
      onEscape={onClose}
      actions={
        <button type="button" className="btn-primary" onClick={onClose}>
          {t("calcul-serie.fermer")}
        </button>
      }
    >
      {!e ? (
        <p role="status">…</p>
      ) : (
        <div className="space-y-3">
          <p className="text-lg font-semibold" data-testid="explication-valeur">
            {e.valeur == null
              ? t("calcul-serie.non-calcule")
              : `${formatNumber(e.valeur, i18n.language, decimalesIndicateur(e.unite))} ${e.code.startsWith("ift.") ? "" : e.unite}`}
          </p>
          <p className="text-sm">
            {t("calcul-serie.completude", { valeur: formatNumber(e.completude, i18n.language, 0) })} ·{" "}
            {t("calcul-serie.formule", { formule: t(`calcul-serie.formules.${e.explication.formule.replace(".", "_")}`, { defaultValue: "" }) })}
          </p>
          <h3 className="font-semibold">{t("calcul-serie.entrees")}</h3>
          {e.explication.entrees.length === 0 ? (
            <p>{t("calcul-serie.aucune-entree")}</p>
          ) : (
            <table className="text-sm" data-testid="explication-entrees">
              <thead>
                <tr>
                  {(["objet", "libelle", "valeur", "contribution"] as const).map((c) => (
                    <th key={c} scope="col" className="px-2 text-left">
                      {t(`calcul-serie.entrees-colonnes.${c}`)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {e.explication.entrees.map((x, i) => (
                  <tr key={`${x.objet}-${x.id}-${i}`} className="border-t border-stone-200">
                    <td className="px-2">{objet(x)}</td>
                    <td className="px-2">
                      {x.libelle ?? (x.objet === "indicateur" ? "" : String(x.id))}
                      {x.date ? ` (${formatDate(x.date)})` : ""}
                      {x.doseReference ? ` — ${doseReference(x.doseReference)}` : ""}
                      {x.source ? ` — ${x.source}` : ""}
                    </td>
                    <td className="px-2 text-right">
                      {nombre(x.valeur)} {x.unite ?? ""}
                    </td>
                    <td className="px-2 text-right">{nombre(x.contribution)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {e.explication.remarques?.length ? (
            <>
              <h3 className="font-semibold">{t("calcul-serie.remarques")}</h3>
              <ul className="list-disc pl-5 text-sm">
                {e.explication.remarques.map((r) => (
                  <li key={r}>{texteRemarque(r)}</li>
                ))}
              </ul>
            </>
          ) : null}
          {e.manquants.length ? (
            <>
              <h3 className="font-semibold">{t("indicateurs-parcelle.manquants", { count: e.nbManquants })}</h3>
              <ul className="list-disc pl-5 text-sm" data-testid="explication-manquants">
                {e.manquants.map((m, i) => {
                  // The worklist's rule: the screen and row that fix it; a plot's figure names its plot.
                  const c = corrigible ? correction(m, cible?.niveau === "parcelle" ? { idParcelle: Number(cible.entite.id) } : {}) : null;
                  return (
                    <li key={`${m.objet}-${m.id}-${m.champ}-${i}`}>
                      {c ? (
                        <Link className="text-sillon-700 underline" to={adresseCorrection(c)} data-testid="manquant-correction">
                          {manquant(m)}
                        </Link>
                      ) : (
                        manquant(m)
                      )}
                    </li>
                  );
                })}
              </ul>
              {!corrigible ? <p className="text-sm text-stone-600">{t("calcul-serie.manquants-autre-campagne")}</p> : null}
            </>
          ) : null}
        </div>
      )}
    </AppDialog>
  );
}
