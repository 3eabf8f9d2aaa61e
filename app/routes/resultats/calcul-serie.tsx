import { useEffect, useState } from "react";
import { useTranslation } from "~/use-translation";
import { Link, useFetcher } from "react-router";
import { z } from "zod";
import { AppDialog } from "~/components/dialog";
import { useActionFeedback } from "~/components/feedback";
import { formatDateTime } from "~/components/format";
import { GraphiquesSerie } from "~/components/resultats/graphiques-serie";
import { publierGroupes } from "~/domain/calc/serie";
import { SerieCalculDialog, type CampagneACalculer } from "~/components/resultats/serie-calcul-dialog";
import { paramId } from "#server/http/fields";
import { idField, intent, jsonField, screenAction, screenLoader } from "#server/http/route.server";
import { lireSerie, modifierSerie } from "#server/calcul-serie/service.server";
import type { Route } from "./+types/calcul-serie";

/**
 * The detail of a calculation series (spec 3 §2.11, §4.7; C-CALC-06, 12..25): publication by indicator group with
 * the header checkbox, the remark, the animator's visa and its removal (both confirmed), all locked once validated;
 * 'restart calculations' (confirmed, then the series-calculation dialog); the charts of its figures.
 */
export const loader = screenLoader(async ({ db, user, params, view }) => ({
  ...(await lireSerie(db, user, paramId(params, "idSerie"))),
  // The explanation's missing data link to the rows that fix them when the series is of the campaign the context shows.
  idCampagneContexte: (await view()).campagne?.id ?? null,
}));

const ok = { ok: true as const, notice: "ui.update-confirmation" };
export const action = screenAction({
  publier: intent(
    { groupes: jsonField(z.array(z.object({ id: idField, publie: z.boolean() })).max(20)).optional(), tous: z.enum(["true", "false"]).optional() },
    async ({ db, user, params }, { groupes, tous }) => {
      await modifierSerie(db, user, paramId(params, "idSerie"), tous ? { tous: tous === "true" } : { groupes: groupes ?? [] });
      return ok;
    },
  ),
  remarque: intent({ remarque: z.string().max(2000, "warning.max-characters") }, async ({ db, user, params }, { remarque }) => {
    await modifierSerie(db, user, paramId(params, "idSerie"), { remarque });
    return ok;
  }),
  visa: intent({ visa: z.enum(["true", "false"]) }, async ({ db, user, params }, { visa }) => {
    await modifierSerie(db, user, paramId(params, "idSerie"), { visa: visa === "true" });
    return ok;
  }),
});

export default function CalculSerie({ loaderData: data }: Route.ComponentProps) {
  const { t } = useTranslation();
  const fetcher = useFetcher<{ ok: boolean }>();
  useActionFeedback(fetcher.data);
  const s = data.serie;
  const valide = s.visaAnimateur;
  const [remarque, setRemarque] = useState(s.remarque ?? "");
  useEffect(() => setRemarque(s.remarque ?? ""), [s.remarque]);
  const [confirmer, setConfirmer] = useState<"visa" | "retrait" | "relancer" | null>(null);
  const [aCalculer, setACalculer] = useState<CampagneACalculer[] | null>(null);
  const envoyer = (payload: Record<string, string>) => void fetcher.submit(payload, { method: "post" });
  // The ticked groups show at once (the change is sent, the stored flags come back with the reload).
  const [groupes, setGroupes] = useState(data.groupes);
  useEffect(() => setGroupes(data.groupes), [data.groupes]);
  const publier = (changement: { tous?: boolean; groupes?: { id: number; publie: boolean }[] }) => {
    const r = publierGroupes(groupes, changement);
    setGroupes(groupes.map((g) => ({ ...g, publie: r.groupes.find((x) => x.id === g.id)?.publie ?? g.publie })));
    envoyer(
      changement.tous !== undefined ? { intent: "publier", tous: String(changement.tous) } : { intent: "publier", groupes: JSON.stringify(changement.groupes) },
    );
  };
  const tous = groupes.every((g) => g.publie);
  const aucun = groupes.every((g) => !g.publie);
  const occupe = fetcher.state !== "idle";

  return (
    <div className="mx-auto max-w-6xl space-y-4" data-testid="screen-calcul-serie">
      <Link to={`/home/resultats/calcul?campagne=${s.idCampagne}`} className="text-sm text-sillon-700 underline">
        {t("calcul-serie.retour")}
      </Link>
      <h1 className="text-xl font-semibold text-sillon-800">{t("calcul-serie.detail", { exploitation: s.exploitation, campagne: s.campagne })}</h1>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm md:grid-cols-4">
        <dt className="text-stone-700">{t("calcul-serie.colonnes.creation")}</dt>
        <dd>{formatDateTime(s.createdAt)}</dd>
        <dt className="text-stone-700">{t("calcul-serie.colonnes.fin")}</dt>
        <dd>{s.dtFin ? formatDateTime(s.dtFin) : ""}</dd>
        <dt className="text-stone-700">{t("calcul-serie.colonnes.parcelles")}</dt>
        <dd>{t("calcul-serie.parcelles", { reussies: s.nbParcellesTraiteesReussies, total: s.nbParcellesATraiter })}</dd>
        <dt className="text-stone-700">{t("calcul-serie.colonnes.publication")}</dt>
        <dd data-testid="etat-serie">{t(`calcul-serie.etats.${s.etat}`)}</dd>
      </dl>
      <div className="grid gap-4 md:grid-cols-2">
        <section className="card space-y-2" aria-labelledby="groupes-titre">
          <h2 id="groupes-titre" className="text-lg font-semibold">
            {t("calcul-serie.groupes")}
          </h2>
          {valide ? (
            <p className="text-sm text-amber-900" data-testid="serie-verrouillee">
              {t("calcul-serie.verrouille")}
            </p>
          ) : null}
          <fieldset disabled={valide} data-testid="groupes">
            <legend className="sr-only">{t("calcul-serie.groupes")}</legend>
            <label className="flex items-center gap-2 border-b border-stone-200 pb-1 font-semibold">
              <input
                type="checkbox"
                checked={tous}
                ref={(el) => {
                  if (el) el.indeterminate = !tous && !aucun;
                }}
                onChange={() => publier({ tous: !tous })}
                data-testid="groupe-tous"
              />
              {t("calcul-serie.tous-groupes")}
            </label>
            {groupes.map((g) => (
              <label key={g.id} className="flex items-center gap-2 pt-1">
                <input
                  type="checkbox"
                  checked={g.publie}
                  onChange={() => publier({ groupes: [{ id: g.id, publie: !g.publie }] })}
                  data-testid={`groupe-${g.id}`}
                />
                {t(`indicateurs.groupes.${g.code}`)}
              </label>
            ))}
          </fieldset>
        </section>
        <section className="card space-y-2" aria-labelledby="remarque-titre">
          <h2 id="remarque-titre" className="text-lg font-semibold">
            {t("calcul-serie.remarque")}
          </h2>
          <textarea
            aria-labelledby="remarque-titre"
            className="input w-full"
            rows={3}
            maxLength={2000}
            value={remarque}
            disabled={valide}
            onChange={(e) => setRemarque(e.target.value)}
            data-testid="remarque"
          />
          <button
            type="button"
            className="btn-secondary"
            disabled={valide || occupe || remarque === (s.remarque ?? "")}
            onClick={() => envoyer({ intent: "remarque", remarque })}
          >
            {t("calcul-serie.enregistrer-remarque")}
          </button>
          <div className="flex flex-wrap items-center gap-2 border-t border-stone-200 pt-2">
            {valide ? (
              <button
                type="button"
                className="btn-secondary"
                disabled={!data.peutValider || occupe}
                onClick={() => setConfirmer("retrait")}
                data-testid="retirer-visa"
              >
                {t("calcul-serie.retirer-visa")}
              </button>
            ) : (
              <button
                type="button"
                className="btn-primary"
                disabled={!data.peutValider || !s.publication || occupe}
                onClick={() => setConfirmer("visa")}
                data-testid="visa"
              >
                {t("calcul-serie.visa")}
              </button>
            )}
            {!data.peutValider ? (
              <span className="text-sm text-stone-700">{t("calcul-serie.visa-aide-droit")}</span>
            ) : !s.publication ? (
              <span className="text-sm text-stone-700">{t("calcul-serie.visa-aide-publication")}</span>
            ) : null}
            <button type="button" className="btn-secondary ml-auto" onClick={() => setConfirmer("relancer")} data-testid="relancer">
              {t("calcul-serie.relancer")}
            </button>
          </div>
        </section>
      </div>
      <GraphiquesSerie
        data={{ idSerie: s.id, parcelles: data.parcelles, cultures: data.cultures, resultats: data.resultats }}
        corrigible={data.idCampagneContexte === s.idCampagne}
      />
      <p className="text-sm">
        <Link to={`/home/resultats/calcul/${s.id}/comparaison`} className="text-sillon-700 underline" data-testid="lien-comparaison">
          {t("comparaison.lien")}
        </Link>
      </p>

      <AppDialog
        open={confirmer !== null}
        width={500}
        testId="confirmation-serie"
        title={t(
          confirmer === "visa" ? "calcul-serie.visa-titre" : confirmer === "retrait" ? "calcul-serie.retrait-visa-titre" : "calcul-serie.relancer-titre",
        )}
        onEscape={() => setConfirmer(null)}
        actions={
          <>
            <button type="button" className="btn-secondary" onClick={() => setConfirmer(null)}>
              {t("ui.cancel")}
            </button>
            <button
              type="button"
              className="btn-primary"
              data-testid="confirmation-ok"
              onClick={() => {
                if (confirmer === "visa") envoyer({ intent: "visa", visa: "true" });
                if (confirmer === "retrait") envoyer({ intent: "visa", visa: "false" });
                if (confirmer === "relancer") setACalculer([{ idCampagne: s.idCampagne, exploitation: s.exploitation, campagne: s.campagne }]);
                setConfirmer(null);
              }}
            >
              {t("ui.ok")}
            </button>
          </>
        }
      >
        <p className={confirmer === "visa" ? "text-amber-900" : ""}>
          {t(confirmer === "visa" ? "calcul-serie.visa-texte" : confirmer === "retrait" ? "calcul-serie.retrait-visa-texte" : "calcul-serie.relancer-texte")}
        </p>
      </AppDialog>
      <SerieCalculDialog campagnes={aCalculer} onClose={() => setACalculer(null)} />
    </div>
  );
}
