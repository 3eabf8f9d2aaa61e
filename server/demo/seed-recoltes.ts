import type { Knex } from "knex";
import {
  CARACTERISTIQUE_RECOLTE,
  nomSerieRecolte,
  OBSERVATIONS_RECOLTE,
  TYPE_SERIE_RECOLTE,
  TYPE_SORTIE_PATURAGE,
  UNITE_ANIMAUX,
  UNITE_PATURAGE,
  type ChampObservation,
} from "~/domain/recolte";
import { returnedId } from "../db/insert-id";

/**
 * Demo harvests of EARL des Tilleuls 2025 (decision 0031): the Beauce folder's harvest qualifiers, the harvest of
 * each plot's main crop on its harvest intervention (yield, reference humidity, qualifier and the observation
 * series of type 1128 with the actual observations), and a winter grazing of the cover crop before the spring
 * barley by a neighbour's flock. The wheat harvest is left to enter: the insured wheat mode's 2025 estimate then
 * rests on the 2024 harvests (server/demo/seed-cultures.ts), as the crop screen's journey shows it. Yields: a good 2025 year in Eure-et-Loir (Agreste, Statistique agricole
 * annuelle 2025, provisional figures: rapeseed 3.6, spring barley 6.7, sugar beet 88);
 * quality figures are the usual trade ones (rapeseed 9 % humidity standard
 * and 42 % oil, malting barley under 11.5 % protein).
 */

const QUALIFIANTS_BEAUCE = ["Livré à la coopérative", "Stocké à la ferme", "Semences de ferme"];

type Figure = { typeSortie: string; rendement: number; humidite?: number; qualifiant?: string; obs: Partial<Record<ChampObservation, number>> };
const RECOLTES_2025: Record<string, Figure> = {
  "Colza d'hiver": {
    typeSortie: "Grain",
    rendement: 3.6,
    humidite: 9,
    qualifiant: "Livré à la coopérative",
    obs: { obsRendement: 3.7, obsHumidite: 7.8, obsHuile: 43.5 },
  },
  "Orge de printemps": {
    typeSortie: "Grain",
    rendement: 6.7,
    humidite: 14.5,
    qualifiant: "Stocké à la ferme",
    obs: { obsRendement: 6.9, obsHumidite: 13.9, obsPmg: 47, obsProteines: 10.8 },
  },
  "Betterave sucrière": { typeSortie: "Racines", rendement: 88, obs: { obsRendement: 90.5 } },
};

async function insertId(trx: Knex.Transaction, table: string, row: Record<string, unknown>): Promise<number> {
  const [r] = await trx(table).insert(row).returning("id");
  return returnedId(r);
}

export async function seedDemoRecoltes2025(trx: Knex.Transaction, o: { idCampagne: number; idDossier: number; idUser: number }): Promise<void> {
  const qualifiants = new Map<string, number>();
  for (const qrdNom of QUALIFIANTS_BEAUCE) qualifiants.set(qrdNom, await insertId(trx, "qualifiant_recolte", { idDossier: o.idDossier, qrdNom }));
  const campagne = await trx("campagne").where({ id: o.idCampagne }).first("idExploitation");
  const idExploitation = Number(campagne.idExploitation);

  const plots = await trx("parcelle as p")
    .join("mode_conduite_culture as mcc", "mcc.idModeConduite", "p.idModeConduite")
    .join("categorie_culture as cat", "cat.id", "mcc.idCatCulture")
    .join("culture as c", "c.id", "mcc.idCulture")
    .where({ "p.idCampagne": o.idCampagne, "cat.code": "principale" })
    .orderBy("p.id")
    .select("p.id as idParcelle", "c.id as idCulture", "c.libelle as culture");
  for (const p of plots) {
    const figure = RECOLTES_2025[String(p.culture)];
    if (!figure) continue;
    // The harvest intervention of the plot's season (moisson, arrachage), its first one.
    const action = await trx("action")
      .where({ idCampagne: o.idCampagne, idParcelle: p.idParcelle, idCultureConcernee: p.idCulture })
      .whereIn("dicIdTypeAction", [15, 16, 17])
      .orderBy("date")
      .first("id", "date");
    const type = await trx("type_sortie").where({ libelle: figure.typeSortie }).first("id", "libelle", "unite");
    if (!action || !type) continue;
    const date = String(action.date instanceof Date ? action.date.toISOString() : action.date).slice(0, 10);
    const idSerie = await insertId(trx, "observation_serie", {
      idCampagne: o.idCampagne,
      idExploitation,
      idParcelle: p.idParcelle,
      date,
      dicIdTypeSerie: TYPE_SERIE_RECOLTE,
      idAction: action.id,
      idUser: o.idUser,
      idCulture: p.idCulture,
      nom: nomSerieRecolte(String(p.culture), String(type.libelle), figure.qualifiant ?? null),
    });
    const observations = OBSERVATIONS_RECOLTE.filter((x) => figure.obs[x.champ] != null);
    if (observations.length) {
      await trx("observation").insert(
        observations.map((x, ordre) => ({
          idObservationSerie: idSerie,
          idParcelle: p.idParcelle,
          dicoIdEltObserve: x.element,
          obsValNum: figure.obs[x.champ],
          dicLlUnite: x.unite,
          idAction: action.id,
          idUser: o.idUser,
          date,
          ordre,
        })),
      );
    }
    const idRecolte = await insertId(trx, "recolte", {
      idAction: action.id,
      idCulture: p.idCulture,
      dicIdTypeSortie: type.id,
      rendement: figure.rendement,
      dicLlUnite: type.unite,
      idQualifiantRecolte: figure.qualifiant ? qualifiants.get(figure.qualifiant) : null,
      idObservationSerie: idSerie,
    });
    if (figure.humidite != null) {
      await trx("caracteristique_recolte").insert({
        idRecolte,
        dicIdCaracteristiqueRecolte: CARACTERISTIQUE_RECOLTE.HUMIDITE_REFERENCE,
        valeurNum: figure.humidite,
        dicLlUnite: "%",
        unite: "%",
      });
    }
  }

  // A winter grazing of the multi-species cover before the spring barley: 21 days, a neighbour's sheep and goats.
  const barley = plots.find((p) => p.culture === "Orge de printemps");
  const cover = await trx("culture").where({ libelle: "Mélange d'interculture (couvert multi-espèces)" }).first("id", "libelle");
  const interculture = await trx("culture").where({ interculture: true }).first("id");
  const grazing = await trx("type_sortie").where({ id: TYPE_SORTIE_PATURAGE }).first("libelle");
  if (!barley || !cover || !grazing) return;
  // The shepherd's service (as a contractor): fencing with his quad, about 2 ha/h and 0.5 L/ha.
  const op = await insertId(trx, "operation_culturale", {
    idCampagne: o.idCampagne,
    idTypeAction: 26,
    libelle: "Pâturage des couverts (troupeau d'un éleveur voisin)",
    eta: true,
    debitReel: 2,
    consoCarburantReelle: 0.5,
    remarque: "Clôture mobile posée par l'éleveur ; pas de matériel de l'exploitation",
  });
  const date = "2025-01-13";
  const idAction = await insertId(trx, "action", {
    idCampagne: o.idCampagne,
    idParcelle: barley.idParcelle,
    date,
    anneeRecolte: 2025,
    idOperationCulturale: op,
    dicIdTypeAction: 26,
    idCultureConcernee: interculture ? interculture.id : null,
    realisee: true,
    prevue: false,
    frequence: 1,
    tauxSurface: 1,
    nombrePassage: 1,
    complementInfoTypeTravail: "Pâturage hivernal du couvert avant l'orge de printemps",
  });
  // A grazing's series holds its observations at 0 (spec 3 §4.1).
  const idSerie = await insertId(trx, "observation_serie", {
    idCampagne: o.idCampagne,
    idExploitation,
    idParcelle: barley.idParcelle,
    date,
    dicIdTypeSerie: TYPE_SERIE_RECOLTE,
    idAction,
    idUser: o.idUser,
    idCulture: cover.id,
    nom: nomSerieRecolte(String(cover.libelle), String(grazing.libelle)),
  });
  await trx("observation").insert(
    OBSERVATIONS_RECOLTE.map((x, ordre) => ({
      idObservationSerie: idSerie,
      idParcelle: barley.idParcelle,
      dicoIdEltObserve: x.element,
      obsValNum: 0,
      dicLlUnite: x.unite,
      idAction,
      idUser: o.idUser,
      date,
      ordre,
    })),
  );
  const idRecolte = await insertId(trx, "recolte", {
    idAction,
    idCulture: cover.id,
    dicIdTypeSortie: TYPE_SORTIE_PATURAGE,
    rendement: 21,
    dicLlUnite: UNITE_PATURAGE,
    idQualifiantRecolte: null,
    idObservationSerie: idSerie,
  });
  await trx("caracteristique_recolte").insert([
    {
      idRecolte,
      dicIdCaracteristiqueRecolte: CARACTERISTIQUE_RECOLTE.ANIMAUX,
      dicIdModalite: 7,
      valeurNum: 220,
      dicLlUnite: UNITE_ANIMAUX,
      unite: UNITE_ANIMAUX,
      ordre: 1,
    },
    {
      idRecolte,
      dicIdCaracteristiqueRecolte: CARACTERISTIQUE_RECOLTE.ANIMAUX,
      dicIdModalite: 8,
      valeurNum: 15,
      dicLlUnite: UNITE_ANIMAUX,
      unite: UNITE_ANIMAUX,
      ordre: 2,
    },
  ]);
}
