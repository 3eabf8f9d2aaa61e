import { calculerParcelle } from "~/domain/calc/indicateurs/moteur";
import type { IndicateursParcelle } from "~/domain/contracts/indicateurs";
import type { Indicateur } from "~/domain/calc/indicateurs/types";
import { campaignContext } from "../access/description";
import { ServiceError } from "../errors";
import { instantaneCampagne } from "./instantane";
import { optionsCampagne } from "./options";
import { simulationFlagOf } from "./repo";
import type { Scope } from "../access/scope";

/** The indicators the plot panel of the interventions screen shows (issue 14), in this order. */
export const CODES_PANNEAU = [
  "ift.cible.total",
  "ift.cible.herbicides",
  "fertilisation.n.mineral",
  "travail.temps.total",
  "travail.carburant",
  "economie.reel.margeBrute",
] as const;

/**
 * The indicators of one plot of the selected campaign (read rights of the campaign): the snapshot of that plot
 * computed by the pure engine. A plot of another campaign is refused like an unknown one.
 */
export async function getIndicateursParcelle(scope: Scope, idParcelle: number): Promise<IndicateursParcelle> {
  const { db } = scope;
  const ctx = await campaignContext(scope);
  const instantane = await instantaneCampagne(db, ctx.idCampagne, { idParcelle });
  const parcelle = instantane.parcelles[0];
  if (!parcelle) throw new ServiceError("indicateurs-parcelle.parcelle-inconnue", 404);
  // The series' options for the campaign (a simulation counts its planned interventions): the same figures.
  const campagne = await simulationFlagOf(db, ctx.idCampagne);
  const resultat = calculerParcelle(instantane, idParcelle, { ...optionsCampagne(campagne ?? { simulation: false }), parIntervention: false });
  const indicateurs = CODES_PANNEAU.map((code) => resultat.indicateurs[code])
    .filter((i): i is Indicateur => !!i)
    .map(({ code, valeur, unite, completude, manquants }) => ({ code, valeur, unite, completude, manquants }));
  return { idParcelle, libelle: parcelle.libelle, indicateurs };
}
