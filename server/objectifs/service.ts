import {
  correspondanceObjectif,
  ecartObjectif,
  verdictObjectif,
  type EcranObjectifs,
  type FigureObjectif,
  type LigneObjectif,
  type PointTrajectoire,
  type SensObjectif,
} from "~/domain/objectifs";
import { campagneLibelle } from "~/domain/partage";
import { campaignContext } from "../access/description";
import { ensure } from "../access/abilities";
import { droitsCampagne, serieVisible } from "../calcul-serie/service";
import type { Db } from "../db/knex";
import type { Scope } from "../access/scope";
import { failingWith, ServiceError } from "../errors";

export type { EcranObjectifs, FigureObjectif, LigneObjectif, PointTrajectoire };
import {
  campagneAvecExploitation,
  listCampagnesExploitation,
  listCulturesLibelles,
  listObjectifsCampagnes,
  listParcellesLibelles,
  listResultats,
  listSeriesTerminees,
} from "./repo";

/** The error key of the objectives screen (spec 3 §8 "Objective indicators"). */
export const OBJECTIFS_RESULTATS_ERROR = "errors.services.indicateur_objectifs-service-error";

/**
 * Objectives against results (issue 24; decision 0087): the objective indicators of the selected campaign (or of the
 * campaign given, which the user must reach through one of his folders) beside the figures of its latest finished
 * series the user may see (C-RIGHTS-17..19), per plot, crop and for the farm, each met or missed; and across the
 * farm's campaigns, the farm figure against that campaign's objective (the trajectory).
 */
export async function ecranObjectifs(scope: Scope, idCampagne?: number): Promise<EcranObjectifs> {
  const { db, user } = scope;
  const id = idCampagne ?? (await campaignContext(scope)).idCampagne;
  const droits = await droitsCampagne(db, user, id);
  // A campaign the user reaches through none of his folders is refused (403).
  ensure(droits.idDossier != null);
  return failingWith(OBJECTIFS_RESULTATS_ERROR, () => lire(db, id, droits));
}

async function lire(db: Db, idCampagne: number, droits: Awaited<ReturnType<typeof droitsCampagne>>): Promise<EcranObjectifs> {
  const c = await campagneAvecExploitation(db, idCampagne);
  if (!c) throw new ServiceError("errors.not-found", 404);
  const campagnes = await listCampagnesExploitation(db, Number(c.idExploitation));
  const ids = [...new Set([idCampagne, ...campagnes.map((x) => x.id)])];
  const objectifs = await listObjectifsCampagnes(db, ids);
  // The latest finished series of each campaign that the user may see.
  const derniere = new Map<number, Awaited<ReturnType<typeof listSeriesTerminees>>[number]>();
  for (const s of await listSeriesTerminees(db, ids)) if (!derniere.has(s.idCampagne) && serieVisible(droits, s)) derniere.set(s.idCampagne, s);
  const codes = [...new Set(objectifs.map((o) => correspondanceObjectif(o.indCode)?.code).filter((x): x is string => !!x))];

  const serie = derniere.get(idCampagne) ?? null;
  const ici = objectifs.filter((o) => o.idCampagne === idCampagne);
  const resultats = serie ? await listResultats(db, [serie.id], codes, ["parcelle", "culture", "exploitation"]) : [];
  const plots = new Map(
    (await listParcellesLibelles(db, [...new Set(resultats.filter((r) => r.niveau === "parcelle").map((r) => Number(r.idEntite)))])).map((p) => [
      String(p.id),
      p.libelle,
    ]),
  );
  const crops = new Map(
    (await listCulturesLibelles(db, [...new Set(resultats.filter((r) => r.niveau === "culture" && r.idEntite !== "null").map((r) => Number(r.idEntite)))])).map(
      (p) => [String(p.id), p.libelle],
    ),
  );
  const figure = (r: (typeof resultats)[number], objectif: number | null, sens: SensObjectif, libelle: string): FigureObjectif => ({
    idEntite: r.idEntite,
    libelle,
    valeur: r.valeur,
    completude: r.completude,
    verdict: verdictObjectif(objectif, r.valeur, sens),
    ecart: ecartObjectif(objectif, r.valeur, sens),
  });
  const lignes: LigneObjectif[] = ici.map((o) => {
    const corr = correspondanceObjectif(o.indCode);
    const base = {
      id: o.id,
      idIndicateur: o.idIndicateur,
      indCode: o.indCode,
      indNom: o.indNom,
      indNomEn: o.indNomEn,
      unite: o.unite,
      code: corr?.code ?? null,
      sens: corr?.sens ?? null,
      objectif: o.valeur,
    };
    if (!corr) return { ...base, exploitation: null, cultures: [], parcelles: [] };
    const du = (niveau: string) => resultats.filter((r) => r.code === corr.code && r.niveau === niveau);
    const ferme = du("exploitation")[0];
    return {
      ...base,
      exploitation: ferme ? figure(ferme, o.valeur, corr.sens, String(c.exploitation)) : null,
      cultures: du("culture")
        .map((r) => figure(r, o.valeur, corr.sens, crops.get(r.idEntite) ?? ""))
        .sort((a, b) => a.libelle.localeCompare(b.libelle)),
      parcelles: du("parcelle")
        .map((r) => figure(r, o.valeur, corr.sens, plots.get(r.idEntite) ?? `#${r.idEntite}`))
        .sort((a, b) => a.libelle.localeCompare(b.libelle)),
    };
  });

  // The trajectory: every campaign's farm figure (its latest visible series) against its own objective.
  const seriesTrajectoire = [...derniere.values()].map((s) => s.id);
  const fermes = await listResultats(db, seriesTrajectoire, codes, ["exploitation"]);
  const indicateurs = new Map<number, (typeof objectifs)[number]>();
  for (const o of objectifs) if (!indicateurs.has(o.idIndicateur) || o.idCampagne === idCampagne) indicateurs.set(o.idIndicateur, o);
  const trajectoires = [...indicateurs.values()]
    .filter((o) => ici.some((x) => x.idIndicateur === o.idIndicateur))
    .map((o) => {
      const corr = correspondanceObjectif(o.indCode);
      const points = campagnes.map((camp): PointTrajectoire => {
        const s = derniere.get(camp.id) ?? null;
        const objectif = objectifs.find((x) => x.idCampagne === camp.id && x.idIndicateur === o.idIndicateur)?.valeur ?? null;
        const valeur = s && corr ? (fermes.find((r) => r.idSerie === s.id && r.code === corr.code)?.valeur ?? null) : null;
        return {
          idCampagne: camp.id,
          campagne: campagneLibelle(camp),
          anneeRecolte: camp.anneeRecolte,
          idSerie: s?.id ?? null,
          objectif,
          valeur,
          verdict: verdictObjectif(objectif, valeur, corr?.sens ?? null),
        };
      });
      return { idIndicateur: o.idIndicateur, indNom: o.indNom, indNomEn: o.indNomEn, unite: o.unite, sens: corr?.sens ?? null, points };
    });
  return {
    idCampagne,
    campagne: campagneLibelle({ prefixeCampagne: String(c.prefixeCampagne ?? ""), apiLibelle: String(c.apiLibelle ?? "") }),
    exploitation: String(c.exploitation),
    serie: serie ? { id: serie.id, dtFin: serie.dtFin, perimee: serie.perimee, publication: serie.publication } : null,
    lignes,
    trajectoires,
    peutOuvrirSerie: droits.calculer,
  };
}
