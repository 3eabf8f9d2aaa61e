import { comparerFigures, type LigneComparaison } from "~/domain/calc/comparaison";
import { campagneLibelle } from "~/domain/partage";
import { bool, toIso } from "../db/dialect";
import type { Db } from "../db/knex";
import type { Utilisateur } from "../utilisateur/repo";
import { autresCampagnesDeLAnnee, campagneComparee, derniereSerieTerminee, figuresDeSerie, libellesCultures, type CampagneRow } from "./repo";
import { serieOuRefus, type SerieListee } from "./service";

/**
 * Campaign against simulation (issue 14, beyond; decision 0069). From a series' detail: the campaign of the series and
 * its counterpart of the same farm and harvest year (its simulation, or the base campaign of a simulation), each by a
 * finished series (the opened one on its side, the latest finished one on the other), compared figure by figure at farm
 * and crop level. Reading it needs what reading the series needs: the write right on the farm (C-RIGHTS-14).
 */

export type CoteComparaison = {
  idCampagne: number;
  campagne: string;
  simulation: boolean;
  /** The finished series the figures come from; null when the campaign has none (the screen links to the calculation). */
  serie: { id: number; dtFin: string | null; publication: boolean; visaAnimateur: boolean } | null;
};

export type Comparaison = {
  serie: SerieListee;
  /** The campaigns the opened one may be compared with (several simulations of one year), the chosen one first picked. */
  candidats: { idCampagne: number; campagne: string }[];
  base: CoteComparaison | null;
  simulation: CoteComparaison | null;
  cultures: { id: string; libelle: string }[];
  lignes: LigneComparaison[];
};

const libelle = (c: CampagneRow) => campagneLibelle({ prefixeCampagne: String(c.prefixeCampagne ?? ""), apiLibelle: String(c.apiLibelle ?? "") });

/** The campaigns a campaign compares with: its simulations of the same harvest year (those made from it first), or the base campaigns of a simulation (its source first). */
async function contreparties(db: Db, c: CampagneRow): Promise<CampagneRow[]> {
  const rows = await autresCampagnesDeLAnnee(db, c);
  const simulation = bool(c.simulation);
  const rang = (r: CampagneRow) => (simulation ? (Number(r.id) === Number(c.idCampagneSource) ? 0 : 1) : Number(r.idCampagneSource) === Number(c.id) ? 0 : 1);
  return rows.filter((r) => bool(r.simulation) !== simulation).sort((a, b) => rang(a) - rang(b) || Number(a.id) - Number(b.id));
}

const serieDe = (r: Record<string, unknown> | undefined) =>
  r ? { id: Number(r.id), dtFin: r.dtFin == null ? null : toIso(r.dtFin), publication: bool(r.publication), visaAnimateur: bool(r.visaAnimateur) } : null;

/** The comparison shown from series `idSerie`; `idCampagneAutre` picks among several counterparts (else the first). */
export async function comparerSerie(db: Db, user: Utilisateur, idSerie: number, idCampagneAutre: number | null = null): Promise<Comparaison> {
  const { serie } = await serieOuRefus(db, user, idSerie);
  const c = await campagneComparee(db, serie.idCampagne);
  const autres = await contreparties(db, c);
  const autre = autres.find((a) => Number(a.id) === idCampagneAutre) ?? autres[0];
  const candidats = autres.map((a) => ({ idCampagne: Number(a.id), campagne: libelle(a) }));
  const ouverte: CoteComparaison = {
    idCampagne: Number(c.id),
    campagne: libelle(c),
    simulation: bool(c.simulation),
    serie: serie.statut === "termine" ? { id: serie.id, dtFin: serie.dtFin, publication: serie.publication, visaAnimateur: serie.visaAnimateur } : null,
  };
  if (!autre) return { serie, candidats, base: ouverte.simulation ? null : ouverte, simulation: ouverte.simulation ? ouverte : null, cultures: [], lignes: [] };
  const contrepartie: CoteComparaison = {
    idCampagne: Number(autre.id),
    campagne: libelle(autre),
    simulation: bool(autre.simulation),
    serie: serieDe(await derniereSerieTerminee(db, Number(autre.id))),
  };
  const [base, simulation] = ouverte.simulation ? [contrepartie, ouverte] : [ouverte, contrepartie];
  if (!base.serie || !simulation.serie) return { serie, candidats, base, simulation, cultures: [], lignes: [] };
  const lignes = comparerFigures(await figuresDeSerie(db, base.serie.id), await figuresDeSerie(db, simulation.serie.id));
  const idsCultures = [...new Set(lignes.filter((l) => l.niveau === "culture" && l.idEntite !== "null").map((l) => Number(l.idEntite)))];
  const libelles = await libellesCultures(db, idsCultures);
  const cultures = [...new Set(lignes.filter((l) => l.niveau === "culture").map((l) => l.idEntite))]
    .map((id) => ({ id, libelle: libelles.get(id) ?? "" }))
    .sort((a, b) => a.libelle.localeCompare(b.libelle, "fr"));
  return { serie, candidats, base, simulation, cultures, lignes };
}
