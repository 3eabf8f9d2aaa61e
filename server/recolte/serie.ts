import { nomSerieRecolte, OBSERVATIONS_RECOLTE, TYPE_SERIE_RECOLTE, type RecolteStockee } from "~/domain/recolte";
import type { CampaignContext } from "../access/description";
import type { Db } from "../db/knex";
import { failingWith } from "../errors";
import type { Utilisateur } from "../utilisateur/repo";
import {
  deleteSerieRecolte,
  insertObservationsRecolte,
  insertSerieRecolte,
  observationsRecolte,
  serieRecolteDeCampagne,
  serieRecolteNom,
  updateSerieRecolte,
} from "./repo";

/**
 * The observation series of a harvest (spec 3 §3.6, §4.1; docs/data-model.md §5): a series of type 1128 on the
 * intervention's plot, dated by it, named from the crop, the output type and (the qualifier), holding one
 * observation per actual observation given (elements 1680, 1192, 1190, 1191, 1193, 1685). Written in the
 * harvest's transaction.
 */

/** Observation series failures (C-ERR-14). */
export const OBSERVATIONS_SERIE_ERROR = "errors.services.observations_series-service-error";

const num = (v: unknown) => (v == null ? null : Number(v));

type Write = {
  ctx: CampaignContext;
  user: Utilisateur;
  /** The harvest's intervention; null: the harvest is deleted, its series goes with it. */
  action: { id: number; idParcelle: number; date: unknown } | null;
  idSerie: number | null;
  nom: { culture: string; typeSortie: string; qualifiant: string | null } | null;
  stored: RecolteStockee | null;
};

/** Creates or updates the harvest's series and its observations (or deletes it with the harvest); answers its id. */
export async function writeSerieRecolte(db: Db, w: Write): Promise<number | null> {
  return failingWith(OBSERVATIONS_SERIE_ERROR, async () => {
    const own = w.idSerie == null ? null : await serieRecolteDeCampagne(db, w.ctx.idCampagne, w.idSerie);
    if (!w.action || !w.stored || !w.nom) {
      if (own) await deleteSerieRecolte(db, own.id);
      return null;
    }
    const date = String(w.action.date instanceof Date ? w.action.date.toISOString() : w.action.date).slice(0, 10);
    const serie = {
      idCampagne: w.ctx.idCampagne,
      idExploitation: w.ctx.idExploitation,
      idParcelle: w.action.idParcelle,
      date,
      nom: nomSerieRecolte(w.nom.culture, w.nom.typeSortie, w.nom.qualifiant),
      dicIdTypeSerie: TYPE_SERIE_RECOLTE,
      idAction: w.action.id,
      idCulture: w.stored.idCulture,
    };
    let id: number;
    if (own) {
      id = Number(own.id);
      await updateSerieRecolte(db, id, serie);
    } else {
      id = await insertSerieRecolte(db, { ...serie, idUser: w.user.id });
    }
    if (w.stored.observations.length) {
      await insertObservationsRecolte(
        db,
        w.stored.observations.map((o, ordre) => ({
          idObservationSerie: id,
          idParcelle: w.action!.idParcelle,
          dicoIdEltObserve: o.element,
          obsValNum: o.valeur,
          dicLlUnite: o.unite,
          idAction: w.action!.id,
          idUser: w.user.id,
          date,
          ordre,
        })),
      );
    }
    return id;
  });
}

/** The series of a harvest as its dialog shows it: its id, name and values by form field. */
export async function readSerieRecolte(db: Db, idSerie: number | null) {
  if (idSerie == null) return null;
  return failingWith(OBSERVATIONS_SERIE_ERROR, async () => {
    const s = await serieRecolteNom(db, idSerie);
    if (!s) return null;
    const values = new Map((await observationsRecolte(db, idSerie)).map((o) => [Number(o.dicoIdEltObserve), num(o.obsValNum)]));
    return {
      id: Number(s.id),
      nom: String(s.nom),
      observations: Object.fromEntries(OBSERVATIONS_RECOLTE.map((o) => [o.champ, values.get(o.element) ?? null])) as Record<
        (typeof OBSERVATIONS_RECOLTE)[number]["champ"],
        number | null
      >,
    };
  });
}
