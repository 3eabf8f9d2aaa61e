import { abilities, exportableCampaigns, type Abilities } from "~/domain/access/abilities";
import type { ChoixCampagnes, PorteeSelection } from "~/domain/resultats/selection";
import { listCampagnesOfExploitations, listExploitationsOfDossier, type CampagneOption } from "../contexte/repo";
import { ServiceError } from "../errors";
import type { Scope } from "../access/scope";

/**
 * The farms and campaigns of the resultats screens' selection panel (spec 1 §2, spec 3 §6), over the folders of the
 * user's current network:
 * - `calcul` (calculation screen): farms the user writes (canCalculate), all their campaigns;
 * - `donneesBrutes` (raw-data export): farms the user reads; all campaigns with canExportAllCalculations, else only
 *   those whose indicators are published (A-RIGHTS-15);
 * - `indicateurs` (published indicators): farms the user reads, all campaigns (the series list keeps the published);
 * - `edaplos` (eDaplos export, spec 3 §6, C-RIGHTS-22): farms the user reads, all campaigns.
 * A farm reached through several folders is offered once, under the first folder that gives the right.
 */
export async function choixCampagnes(scope: Scope, portee: PorteeSelection): Promise<ChoixCampagnes> {
  const { db, user } = scope;
  const view = await scope.view();
  const vus = new Set<number>();
  const dossiers: ChoixCampagnes["dossiers"] = [];
  for (const dossier of view.dossiers) {
    const exploitations: ChoixCampagnes["dossiers"][number]["exploitations"] = [];
    const farms = (await listExploitationsOfDossier(db, dossier.id)).filter((f) => !vus.has(f.id));
    const campagnes = await listCampagnesOfExploitations(
      db,
      farms.map((f) => f.id),
    );
    for (const farm of farms) {
      const a = abilities({ user, folder: dossier.right, farm: farm.right, lock: null });
      const offertes = campagnesOffertes(
        portee,
        a,
        campagnes.filter((c) => c.idExploitation === farm.id),
      );
      if (!offertes) continue;
      vus.add(farm.id);
      exploitations.push({
        id: farm.id,
        libelle: farm.libelle,
        campagnes: offertes.map((c) => ({ id: c.id, libelle: c.libelle, anneeRecolte: c.anneeRecolte, simulation: c.simulation })),
      });
    }
    if (exploitations.length) dossiers.push({ id: dossier.id, libelle: dossier.libelle, exploitations });
  }
  return { dossiers, idDossierCourant: view.selected.idDossier };
}

function campagnesOffertes(portee: PorteeSelection, a: Abilities, campagnes: CampagneOption[]): CampagneOption[] | null {
  switch (portee) {
    case "calcul":
      return a.canCalculate ? campagnes : null;
    case "donneesBrutes":
      return a.canExportAllCalculations || a.canExportPublishedCalculations ? exportableCampaigns(campagnes, a) : null;
    case "indicateurs":
    case "edaplos":
      return a.canExportAllCalculations || a.canExportPublishedCalculations ? campagnes : null;
  }
}

export type CampagneChoisie = { idCampagne: number; idExploitation: number; idDossier: number; libelle: string; exploitation: string };

/**
 * The campaigns asked for (ids from the query or a form), each checked against the same rule as the panel: one the
 * user may not choose is refused (403 errors.forbidden) and nothing is done. Order of the ids is kept.
 */
export async function campagnesChoisies(scope: Scope, portee: PorteeSelection, ids: readonly number[]): Promise<CampagneChoisie[]> {
  if (!ids.length) return [];
  const choix = await choixCampagnes(scope, portee);
  const permises = new Map<number, CampagneChoisie>();
  for (const d of choix.dossiers)
    for (const e of d.exploitations)
      for (const c of e.campagnes) permises.set(c.id, { idCampagne: c.id, idExploitation: e.id, idDossier: d.id, libelle: c.libelle, exploitation: e.libelle });
  return [...new Set(ids)].map((id) => {
    const c = permises.get(id);
    if (!c) throw new ServiceError("errors.forbidden", 403);
    return c;
  });
}

/**
 * The campaigns a resultats screen opens on: those the address names (`demandees`, from `?campagne=`) that the user
 * may choose; when the address names none (null), the context's campaign if the panel offers it (issue 29: the
 * screens take the farm and campaign already chosen).
 */
export async function campagnesOuvertes(scope: Scope, choix: ChoixCampagnes, demandees: readonly number[] | null): Promise<number[]> {
  const offertes = new Set(choix.dossiers.flatMap((d) => d.exploitations.flatMap((e) => e.campagnes.map((c) => c.id))));
  if (demandees) return [...new Set(demandees)].filter((id) => offertes.has(id));
  const v = await scope.view();
  return v.campagne && offertes.has(v.campagne.id) ? [v.campagne.id] : [];
}
