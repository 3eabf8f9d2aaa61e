import type { Db } from "../../db/knex";
import { inChunks } from "../../db/chunks";
import { listInterventions } from "../../intervention/repo";
import { listOperationsCulturales } from "../../operation-culturale/repo";
import { affectationsOf, cropsOfModes, listParcelles } from "../../parcelle/repo";
import type { CampagneEdaplos, ParcelleEdaplos } from "./ecrivain";
import { codesIntrants, detailsRecoltes, type CampagneExport } from "./repo";

/** Plots read at once: the interventions, inputs and harvests of a batch are three joins, whatever the plots' count. */
export const LOT_PARCELLES = 100;

export function campagneEdaplos(c: CampagneExport): CampagneEdaplos {
  return {
    id: c.id,
    libelle: c.libelle,
    anneeRecolte: c.anneeRecolte,
    exploitation: { id: c.idExploitation, libelle: c.exploitation, siret: c.siret, adresse: c.adresse, codePostal: c.codePostal, ville: c.ville },
  };
}

/**
 * The plots of one campaign as the writer takes them, a batch of LOT_PARCELLES at a time (decision 0096): the plot
 * rows of the plots screen, each plot's crop by the cost-centre rule (its stored crop, else its mode's main crop, as
 * the calculation reads it), the interventions of the interventions screen with their operation's kind and spray
 * volume, and the export's own columns of their inputs and harvests (./repo.ts).
 */
export async function* parcellesCampagne(db: Db, idCampagne: number, lot = LOT_PARCELLES): AsyncGenerator<ParcelleEdaplos> {
  const plots = (await listParcelles(db, idCampagne)).sort((a, b) => a.id - b.id);
  const [affectations, modes, operations] = await Promise.all([
    affectationsOf(db, idCampagne),
    cropsOfModes(db, idCampagne),
    listOperationsCulturales(db, idCampagne),
  ]);
  const ops = new Map(operations.map((o) => [o.id, o]));
  const libelles = new Map(modes.map((m) => [m.idCulture, m.libelle]));
  const manquants = [...new Set(affectations.values())].filter((id) => !libelles.has(id));
  if (manquants.length) for (const r of await db("culture").whereIn("id", manquants).select("id", "libelle")) libelles.set(Number(r.id), String(r.libelle));
  const cultureDe = (idParcelle: number, idModeConduite: number | null): number | null => {
    const options = modes.filter((m) => m.idModeConduite === idModeConduite);
    return affectations.get(idParcelle) ?? (options.find((m) => m.principale) ?? options[0])?.idCulture ?? null;
  };
  for (const batch of inChunks(plots, lot)) {
    const ids = batch.map((p) => p.id);
    const [interventions, codes, recoltes] = await Promise.all([
      listInterventions(db, idCampagne, ids),
      codesIntrants(db, idCampagne, ids),
      detailsRecoltes(db, idCampagne, ids),
    ]);
    for (const p of batch) {
      const idCulture = cultureDe(p.id, p.idModeConduite);
      yield {
        id: p.id,
        libelle: p.libelle,
        surface: p.surface,
        irrigable: p.irrigable,
        geometrie: p.geometrie,
        idModeConduite: p.idModeConduite,
        culture: idCulture != null ? { id: idCulture, libelle: libelles.get(idCulture) ?? String(idCulture) } : null,
        interventions: interventions
          .filter((i) => i.idParcelle === p.id)
          .map((i) => {
            const op = i.idOperationCulturale != null ? ops.get(i.idOperationCulturale) : undefined;
            return {
              id: i.id,
              date: i.date,
              idTypeAction: op?.idTypeAction ?? null,
              operation: op?.libelle ?? null,
              realisee: i.realisee,
              prevue: i.prevue,
              nombrePassage: i.nombrePassage,
              tauxSurface: i.tauxSurface,
              debit: i.debit,
              volumeBouillie: op?.volumeBouillie ?? null,
              intrants: [...i.intrants]
                .sort((a, b) => a.id - b.id)
                .map((x) => {
                  const c = codes.get(x.id);
                  return {
                    id: x.id,
                    idCategorie: c?.idCategorie ?? null,
                    idTypeIntrant: c?.idTypeIntrant ?? x.type,
                    libelle: x.libelle,
                    quantite: x.quantite,
                    unite: x.unite,
                    amm: c?.amm ?? null,
                    gnis: c?.gnis ?? null,
                    traitementSemence: c?.traitementSemence ?? false,
                    composition: c?.composition ?? null,
                    semence: c?.semence ?? null,
                    cibles: c?.cibles ?? 0,
                  };
                }),
              recoltes: [...i.recoltes]
                .sort((a, b) => a.id - b.id)
                .flatMap((r) => {
                  const d = recoltes.get(r.id);
                  return d ? [{ id: r.id, rendement: r.rendement, unite: r.unite, ...d }] : [];
                }),
            };
          }),
      };
    }
  }
}
