import { useHref } from "react-router";
import { DataTable, type DataTableColumn } from "~/components/data-table";
import { ScreenTitle } from "~/components/farm-form";
import { ScreenFrame } from "~/components/screen-frame";
import type { Constat, LigneRegistre } from "~/domain/registre";
import { useTranslation } from "~/use-translation";
import { screenLoader } from "#server/http/route.server";
import { REGISTRE_ERROR, registreDeLaCampagne } from "#server/registre/service.server";
import type { Route } from "./+types/registre";

/**
 * The plant-protection register of the selected campaign (issue 28, decisions 0104, 0105): one line per treated
 * product per plot, the checks of every line with their source, and the exports. Read-only: whoever may read the farm.
 */
export const loader = screenLoader(async ({ scope }) => ({ registre: await registreDeLaCampagne(scope) }), { loadError: REGISTRE_ERROR });

const yesNo = (v: boolean | null, t: (k: string) => string) => (v == null ? "" : v ? t("registre.oui") : t("registre.non"));

export default function Registre({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const exportHref = useHref("export");
  return (
    <ScreenFrame data={loaderData} title={t("registre.titre")} name="registre" width="6xl">
      {({ registre }) => {
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
        const message = (c: Constat) => t(`registre.regles.${c.regle}`, { ...c.valeurs, ...(c.champ ? { champ: t(`registre.champs.${c.champ}`) } : {}) });
        return (
          <div className="space-y-6" data-testid="registre-page">
            <ScreenTitle title={t("registre.titre")} readOnly={false}>
              <span className="self-center text-sm text-stone-700">{t("registre.export")}</span>
              {(["csv", "xlsx", "json"] as const).map((f) => (
                <a
                  key={f}
                  className="rounded border border-sillon-700 px-3 py-1 text-sm text-sillon-800 hover:bg-sillon-50"
                  href={`${exportHref}?format=${f}`}
                  download
                  data-testid={`registre-export-${f}`}
                >
                  {t(`registre.export-${f}`)}
                </a>
              ))}
            </ScreenTitle>
            <p className="text-stone-800">{t("registre.intro")}</p>
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
                      </li>
                    );
                  })}
                </ul>
              )}
            </section>
          </div>
        );
      }}
    </ScreenFrame>
  );
}
