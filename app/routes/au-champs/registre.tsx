import { Form, Link, useHref, useSearchParams } from "react-router";
import { DataTable, type DataTableColumn } from "~/components/data-table";
import { ScreenTitle } from "~/components/farm-form";
import { ScreenFrame } from "~/components/screen-frame";
import type { Constat, LigneRegistre } from "~/domain/registre";
import type { LigneDossier } from "#server/registre/service.server";
import { useTranslation } from "~/use-translation";
import { screenLoader } from "#server/http/route.server";
import { REGISTRE_ERROR, registreDeLaCampagne, statutsDuDossier } from "#server/registre/service.server";
import type { Route } from "./+types/registre";

/**
 * The plant-protection register of the selected campaign (issue 28, decisions 0104, 0105): one line per treated
 * product per plot, the checks of every line with their source, and the exports. Read-only: whoever may read the farm.
 */
export const loader = screenLoader(
  async ({ scope, query }) => {
    // `?du=&au=`: the selected farm's treatments in that range instead of the campaign's; the folder view follows it.
    const periode = { du: query.get("du"), au: query.get("au") };
    const [registre, dossier] = await Promise.all([registreDeLaCampagne(scope, periode), statutsDuDossier(scope, periode)]);
    return { registre, dossier };
  },
  { loadError: REGISTRE_ERROR },
);

const frDate = (d: string) => d.split("-").reverse().join("/");

/** The missing fields fixed on the plot (its PAC block, geometry, type of management); the others on the intervention. */
const PLOT_FIELDS = new Set(["localisation", "biologique"]);

const yesNo = (v: boolean | null, t: (k: string) => string) => (v == null ? "" : v ? t("registre.oui") : t("registre.non"));

export default function Registre({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const exportHref = useHref("export");
  const archiveHref = useHref("dossier");
  const [params] = useSearchParams();
  const range = params.get("du") && params.get("au") ? `&du=${params.get("du")}&au=${params.get("au")}` : "";
  return (
    <ScreenFrame data={loaderData} title={t("registre.titre")} name="registre" width="6xl">
      {({ registre, dossier }) => {
        const byInput = new Map(registre.lignes.map((l) => [l.idIntrant, l]));
        const columns: DataTableColumn<LigneRegistre>[] = [
          {
            id: "date",
            header: t("registre.colonnes.date"),
            cell: (l) => l.date.split("-").reverse().join("/"),
            sortValue: (l) => l.date,
            alwaysVisible: true,
          },
          { id: "parcelle", header: t("registre.colonnes.parcelle"), cell: (l) => l.parcelle, sortValue: (l) => l.parcelle },
          { id: "produit", header: t("registre.colonnes.produit"), cell: (l) => l.produit, sortValue: (l) => l.produit, alwaysVisible: true },
          { id: "amm", header: t("registre.colonnes.amm"), cell: (l) => l.amm ?? "" },
          { id: "dose", header: t("registre.colonnes.dose"), cell: (l) => (l.dose == null ? "" : `${l.dose} ${l.unite ?? ""}`), align: "right" },
          { id: "surface", header: t("registre.colonnes.surface"), cell: (l) => l.surfaceTraitee ?? "", align: "right" },
          { id: "culture", header: t("registre.colonnes.culture"), cell: (l) => l.culture ?? "" },
          { id: "eppo", header: t("registre.colonnes.eppo"), cell: (l) => l.codeEppo ?? "" },
          { id: "stade", header: t("registre.colonnes.stade"), cell: (l) => [l.stadeBbch ? `BBCH ${l.stadeBbch}` : null, l.stade].filter(Boolean).join(" · ") },
          {
            id: "localisation",
            header: t("registre.colonnes.localisation"),
            cell: (l) => l.ilotPac ?? (l.latitude != null ? `${l.latitude}, ${l.longitude}` : ""),
          },
          { id: "biologique", header: t("registre.colonnes.biologique"), cell: (l) => yesNo(l.biologique, t) },
          { id: "horaire", header: t("registre.colonnes.horaire"), cell: (l) => [l.heureDebut, l.heureFin].filter(Boolean).join("–"), optional: true },
          { id: "prestataire", header: t("registre.colonnes.prestataire"), cell: (l) => l.siretPrestataire ?? "", optional: true },
        ];
        const dossierColumns: DataTableColumn<LigneDossier>[] = [
          { id: "exploitation", header: t("registre.dossier-colonnes.exploitation"), cell: (e) => e.libelle, sortValue: (e) => e.libelle, alwaysVisible: true },
          { id: "statut", header: t("registre.dossier-colonnes.statut"), cell: (e) => t(`registre.statut.${e.statut}`), sortValue: (e) => e.statut },
          { id: "lignes", header: t("registre.dossier-colonnes.lignes"), cell: (e) => e.lignes, align: "right" },
          { id: "manquants", header: t("registre.dossier-colonnes.manquants"), cell: (e) => e.champsManquants, align: "right" },
          { id: "constats", header: t("registre.dossier-colonnes.constats"), cell: (e) => e.constats, align: "right" },
          {
            id: "echeance",
            header: t("registre.dossier-colonnes.echeance"),
            cell: (e) => (e.echeance ? frDate(e.echeance) : t("registre.sans-echeance")),
            sortValue: (e) => e.echeance ?? "",
          },
        ];
        // A finding's `motif` picks the text's variant (i18next context: produit-retire_fin-utilisation); none, the rule's own.
        const message = (c: Constat) =>
          t(`registre.regles.${c.regle}`, {
            ...c.valeurs,
            ...(c.champ ? { champ: t(`registre.champs.${c.champ}`) } : {}),
            ...(typeof c.valeurs.motif === "string" && c.valeurs.motif !== "retrait" ? { context: c.valeurs.motif } : {}),
          });
        return (
          <div className="space-y-6" data-testid="registre-page">
            <ScreenTitle title={t("registre.titre")} readOnly={false}>
              <span className="self-center text-sm text-stone-700">{t("registre.export")}</span>
              {(["csv", "xlsx", "json"] as const).map((f) => (
                <a
                  key={f}
                  className="rounded border border-sillon-700 px-3 py-1 text-sm text-sillon-800 hover:bg-sillon-50"
                  href={`${exportHref}?format=${f}${range}`}
                  download
                  data-testid={`registre-export-${f}`}
                >
                  {t(`registre.export-${f}`)}
                </a>
              ))}
            </ScreenTitle>
            <p className="text-stone-800">
              {registre.periode.du
                ? t("registre.intro-periode", { du: frDate(registre.periode.du), au: frDate(registre.periode.au ?? "") })
                : t("registre.intro")}
            </p>
            <Form method="get" className="flex flex-wrap items-end gap-3" data-testid="registre-periode">
              <label className="flex flex-col text-sm">
                {t("registre.du")}
                <input type="date" name="du" required defaultValue={registre.periode.du ?? dossier.du} className="rounded border border-stone-400 px-2 py-1" />
              </label>
              <label className="flex flex-col text-sm">
                {t("registre.au")}
                <input type="date" name="au" required defaultValue={registre.periode.au ?? dossier.au} className="rounded border border-stone-400 px-2 py-1" />
              </label>
              <button type="submit" className="rounded border border-sillon-700 px-3 py-1 text-sm text-sillon-800 hover:bg-sillon-50">
                {t("registre.voir-periode")}
              </button>
            </Form>
            <p className="text-sm text-stone-700" data-testid="registre-referentiel">
              {t("registre.referentiel", { texte: registre.referentiel })}
            </p>
            {registre.echeance ? (
              <p className="text-sm text-stone-800">{t("registre.echeance", { date: registre.echeance.split("-").reverse().join("/") })}</p>
            ) : null}
            <section aria-labelledby="registre-lignes">
              <h2 id="registre-lignes" className="mb-2 text-lg font-semibold">
                {t("registre.lignes")} ({registre.lignes.length})
              </h2>
              <DataTable
                tableId="registre"
                label={t("registre.lignes")}
                columns={columns}
                rows={registre.lignes}
                getRowId={(l) => l.idIntrant}
                readOnly
                emptyText={t("registre.vide")}
              />
            </section>
            <section aria-labelledby="registre-constats" data-testid="registre-constats">
              <h2 id="registre-constats" className="mb-2 text-lg font-semibold">
                {t("registre.constats")} — {t(`registre.statut.${registre.statut}`)}
              </h2>
              {registre.constats.length === 0 ? (
                <p className="text-stone-800">{t("registre.sans-constat")}</p>
              ) : (
                <ul className="space-y-2">
                  {registre.constats.map((c, i) => {
                    const l = byInput.get(c.idIntrant);
                    return (
                      <li key={i} className="rounded border border-amber-300 bg-amber-50 p-2 text-sm" data-testid={`registre-constat-${c.regle}`}>
                        <span className="font-medium">{l ? `${l.date.split("-").reverse().join("/")} · ${l.parcelle} · ${l.produit}` : ""}</span>
                        <br />
                        {message(c)}
                        <br />
                        <span className="text-stone-700">{t("registre.source", { source: c.source })}</span>
                        {l ? (
                          <>
                            <br />
                            <Link
                              className="text-sillon-800 underline"
                              relative="path"
                              to={PLOT_FIELDS.has(c.champ ?? "") ? "../../exploitation/parcelle" : `../interventions?parcelleId=${l.idParcelle}`}
                              data-testid="registre-constat-lien"
                            >
                              {PLOT_FIELDS.has(c.champ ?? "")
                                ? t("registre.corriger-parcelle", { parcelle: l.parcelle })
                                : t("registre.corriger-intervention", { parcelle: l.parcelle })}
                            </Link>
                          </>
                        ) : null}
                      </li>
                    );
                  })}
                </ul>
              )}
            </section>
            <section aria-labelledby="registre-dossier" data-testid="registre-dossier">
              <h2 id="registre-dossier" className="mb-2 text-lg font-semibold">
                {t("registre.dossier", { du: frDate(dossier.du), au: frDate(dossier.au) })}
              </h2>
              <p className="mb-2 text-sm">
                <a
                  className="rounded border border-sillon-700 px-3 py-1 text-sillon-800 hover:bg-sillon-50"
                  href={`${archiveHref}?du=${dossier.du}&au=${dossier.au}`}
                  download
                  data-testid="registre-archive-dossier"
                >
                  {t("registre.archive-dossier")}
                </a>
              </p>
              <DataTable
                tableId="registre-dossier"
                label={t("registre.dossier-table")}
                columns={dossierColumns}
                rows={dossier.exploitations}
                getRowId={(e) => e.idExploitation}
                readOnly
                emptyText={t("registre.dossier-vide")}
              />
            </section>
          </div>
        );
      }}
    </ScreenFrame>
  );
}
