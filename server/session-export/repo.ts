import type { Knex } from "knex";
import type { Db } from "../db/knex";
import { insertId } from "../db/insert-id";

/** The stored columns of a session that its view reads. */
const COLONNES = ["id", "libelle", "nature", "version", "anglais", "statut", "dtDebSession", "dtFinSession", "idTache"] as const;

/** How many of these ids name a donnee_exportable. */
export async function countDonneesExportables(db: Db, ids: readonly number[]): Promise<number> {
  return Number(
    (
      await db("donnee_exportable")
        .whereIn("id", [...ids])
        .count<{ n: number | string }[]>({ n: "*" })
    )[0].n,
  );
}

/** The reference list donnee_exportable, in its order. */
export function listDonneesExportables(db: Db): Promise<{ id: number; code: string; libelle: string; libelleEn: string | null }[]> {
  return db("donnee_exportable")
    .orderBy([{ column: "ordre" }, { column: "id" }])
    .select("id", "code", "libelle", "libelleEn");
}

/** The code and label of these donnee_exportable ids (no order). */
export function listDonneesExportablesOfIds(db: Db, ids: readonly number[]): Promise<{ code: string; libelle: string }[]> {
  return db("donnee_exportable")
    .whereIn("id", [...ids])
    .select("code", "libelle");
}

/** The code and both labels of these donnee_exportable ids, in their order. */
export function listDonneesExportablesOfIdsByOrdre(db: Db, ids: readonly number[]): Promise<{ code: string; libelle: string; libelleEn: string | null }[]> {
  return db("donnee_exportable")
    .whereIn("id", [...ids])
    .orderBy("ordre")
    .select("code", "libelle", "libelleEn");
}

/** Inserts a session_export row and answers its id. */
export function insertSessionExport(db: Db, row: Record<string, unknown>): Promise<number> {
  return insertId(db, "session_export", row);
}

/** What a session is linked to: its campaigns, and its groups (indicator groups or exportable data) and series. */
export type LiensSessionExport = {
  campagnes: readonly number[];
  groupesIndicateur?: readonly number[];
  donneesExportables?: readonly number[];
  series?: readonly number[];
};

/** Inserts the session's link rows (an empty list inserts nothing, except the campaigns, which are never empty). */
export async function insertLiensSessionExport(db: Db, idSessionExport: number, l: LiensSessionExport): Promise<void> {
  await db("session_export_campagne").insert(l.campagnes.map((idCampagne) => ({ idSessionExport, idCampagne })));
  if (l.groupesIndicateur) await db("session_export_groupe_indicateur").insert(l.groupesIndicateur.map((g) => ({ idSessionExport, idGroupeIndicateur: g })));
  if (l.series?.length) await db("session_export_calcul_serie").insert(l.series.map((s) => ({ idSessionExport, idCalculSerie: s })));
  if (l.donneesExportables) await db("session_export_donnee_exportable").insert(l.donneesExportables.map((g) => ({ idSessionExport, idDonneeExportable: g })));
}

/** Records the session's job. */
export async function setTacheOfSessionExport(db: Db, id: number, idTache: number): Promise<void> {
  await db("session_export").where({ id }).update({ idTache });
}

/** The user's sessions of this nature linked to one of these campaigns, newest first, with their job's state (etatTache). */
export function listSessionsExportOfUser(
  db: Db,
  idUtilisateur: number,
  q: { nature: number; campagnes: readonly number[] },
): Promise<Record<string, unknown>[]> {
  return db("session_export as s")
    .where({ "s.idUtilisateur": idUtilisateur, "s.nature": q.nature })
    .whereExists(
      db("session_export_campagne as sc")
        .whereRaw("sc.id_session_export = s.id")
        .whereIn("sc.idCampagne", [...q.campagnes]),
    )
    .leftJoin("tache as t", "t.id", "s.idTache")
    .orderBy("s.id", "desc")
    .select(...COLONNES.map((c) => `s.${c}`), "t.etat as etatTache");
}

/** The campaign links of these sessions, by campaign id. */
export function listCampagnesOfSessionsExport(db: Db, ids: readonly unknown[]): Promise<{ idSessionExport: number; idCampagne: number }[]> {
  return db("session_export_campagne")
    .whereIn("idSessionExport", [...(ids as number[])])
    .orderBy("idCampagne")
    .select("idSessionExport", "idCampagne");
}

/** One session of this user with its file name (undefined for another user's or none). */
export function findSessionExportOfUser(db: Db, idUtilisateur: number, id: number): Promise<Record<string, unknown> | undefined> {
  return db("session_export")
    .where({ id, idUtilisateur })
    .first(...COLONNES, "fichier");
}

/** Deletes a session (its links go with it). */
export async function deleteSessionExport(db: Db, id: number): Promise<void> {
  await db("session_export").where({ id }).delete();
}

/** A session's whole row (undefined when gone). */
export function findSessionExport(db: Db, id: number): Promise<Record<string, unknown> | undefined> {
  return db("session_export").where({ id }).first();
}

/** The tables that link a session to its campaigns, groups and series, with the linked id's column. */
const LIENS = {
  campagnes: ["session_export_campagne", "idCampagne"],
  groupesIndicateur: ["session_export_groupe_indicateur", "idGroupeIndicateur"],
  donneesExportables: ["session_export_donnee_exportable", "idDonneeExportable"],
  series: ["session_export_calcul_serie", "idCalculSerie"],
} as const;

/** The ids a session is linked to in one of its link tables, ascending. */
export async function listLiensOfSessionExport(db: Db, idSessionExport: number, lien: keyof typeof LIENS): Promise<number[]> {
  const [table, colonne] = LIENS[lien];
  return ((await db(table).where({ idSessionExport }).orderBy(colonne).select({ v: colonne })) as { v: number }[]).map((x) => Number(x.v));
}

/** Sets the sessions' status and their end date to now; answers how many rows were updated. */
export function endSessionsExport(db: Db, ids: readonly number[], statut: number): Promise<number> {
  return db("session_export")
    .whereIn("id", [...ids])
    .update({ statut, dtFinSession: db.fn.now() });
}

/** The sessions of these jobs that are still in this status, with their file. */
export function listSessionsExportOfTaches(db: Db, idsTache: readonly number[], statut: number): Promise<{ id: number; fichier: string | null }[]> {
  return db("session_export")
    .whereIn("idTache", [...idsTache])
    .andWhere("statut", statut)
    .select("id", "fichier");
}

// --- The raw-data export's rows (server/session-export/donnees-brutes.ts: its sheets and columns) ---

/** What a raw-data group's query reads: the campaigns, the language of labels, the price types' labels. */
export type LectureDonneesBrutes = { campagnes: number[]; anglais: boolean; typesPrix: { appro: string; vente: string } };
/** One query of a group: rows of the campaigns, with `cle` the unique key of its main table (the paging key). */
type Partie = (db: Db, l: LectureDonneesBrutes) => Knex.QueryBuilder;

const lib = (db: Db, alias: string, en: boolean) => (en ? db.raw(`coalesce(??, ??)`, [`${alias}.libelle_en`, `${alias}.libelle`]) : `${alias}.libelle`);

/** The campaign and farm columns of a query whose campaign column is `colonneCampagne`. */
function avecCampagne(q: Knex.QueryBuilder, colonneCampagne: string, campagnes: number[]): Knex.QueryBuilder {
  return q
    .join("campagne as c", "c.id", colonneCampagne)
    .join("exploitation as e", "e.id", "c.idExploitation")
    .whereIn(colonneCampagne, campagnes)
    .select({ exploitation: "e.libelle", prefixeCampagne: "c.prefixeCampagne", apiLibelle: "c.apiLibelle", annee: "c.anneeRecolte" });
}

/** The queries of each raw-data group (donnee_exportable.code), with the paging key of its main table. */
const GROUPES_DONNEES_BRUTES: Record<string, { cle: string; parties: Partie[] }> = {
  parcelles: {
    cle: "p.id",
    parties: [
      (db, l) =>
        avecCampagne(db("parcelle as p"), "p.idCampagne", l.campagnes).leftJoin("mode_conduite as m", "m.id", "p.idModeConduite").select({
          cle: "p.id",
          parcelle: "p.libelle",
          surface: "p.surface",
          surfaceReelle: "p.surfaceReelle",
          mode: "m.libelle",
          ilot: "p.noIlotPac",
          insee: "p.codeInsee",
          irrigable: "p.irrigable",
          drainee: "p.drainee",
          objectif: "p.objectifRendement",
          remarque: "p.remarque",
        }),
    ],
  },
  interventions: {
    cle: "a.id",
    parties: [
      (db, l) =>
        avecCampagne(db("action as a"), "a.idCampagne", l.campagnes)
          .join("parcelle as p", "p.id", "a.idParcelle")
          .leftJoin("operation_culturale as o", "o.id", "a.idOperationCulturale")
          .leftJoin("culture as cu", "cu.id", "a.idCultureConcernee")
          .select({
            cle: "a.id",
            parcelle: "p.libelle",
            date: "a.date",
            operation: "o.libelle",
            cultureConcernee: lib(db, "cu", l.anglais),
            realisee: "a.realisee",
            prevue: "a.prevue",
            frequence: "a.frequence",
            tauxSurface: "a.tauxSurface",
            passages: "a.nombrePassage",
            carburant: "a.consoCarburant",
            evenement: "a.intituleEvenement",
          }),
    ],
  },
  intrants: {
    cle: "i.id",
    parties: [
      (db, l) =>
        avecCampagne(db("intrant as i").join("action as a", "a.id", "i.idAction"), "a.idCampagne", l.campagnes)
          .join("parcelle as p", "p.id", "a.idParcelle")
          .leftJoin("operation_culturale as o", "o.id", "a.idOperationCulturale")
          .select({
            cle: "i.id",
            parcelle: "p.libelle",
            date: "a.date",
            operation: "o.libelle",
            intrant: "i.libelleIntrant",
            code: "i.codeIntrant",
            quantite: "i.quantite",
            unite: "i.dicLlUnite",
          }),
    ],
  },
  recoltes: {
    cle: "r.id",
    parties: [
      (db, l) =>
        avecCampagne(db("recolte as r").join("action as a", "a.id", "r.idAction"), "a.idCampagne", l.campagnes)
          .join("parcelle as p", "p.id", "a.idParcelle")
          .leftJoin("culture as cu", "cu.id", "r.idCulture")
          .leftJoin("type_sortie as ts", "ts.id", "r.dicIdTypeSortie")
          .select({
            cle: "r.id",
            parcelle: "p.libelle",
            date: "a.date",
            culture: lib(db, "cu", l.anglais),
            sortie: lib(db, "ts", l.anglais),
            rendement: "r.rendement",
            unite: "r.dicLlUnite",
          }),
    ],
  },
  observations: {
    cle: "ob.id",
    parties: [
      (db, l) =>
        avecCampagne(db("observation as ob").join("observation_serie as s", "s.id", "ob.idObservationSerie"), "s.idCampagne", l.campagnes)
          .join("parcelle as p", "p.id", "ob.idParcelle")
          .leftJoin("element_observe as el", "el.id", "ob.dicoIdEltObserve")
          .select({
            cle: "ob.id",
            serie: "s.nom",
            parcelle: "p.libelle",
            date: db.raw("coalesce(ob.date, s.date)"),
            element: lib(db, "el", l.anglais),
            valeur: "ob.obsValNum",
            texte: "ob.obsValTxt",
            unite: "ob.dicLlUnite",
            remarque: "ob.remarque",
          }),
    ],
  },
  materiel: {
    cle: "m.id",
    parties: [
      (db, l) =>
        avecCampagne(db("parc_materiel as m"), "m.idCampagne", l.campagnes).select({
          cle: "m.id",
          materiel: "m.libelle",
          puissance: "m.puissance",
          debit: "m.debit",
          prixAchat: "m.prixAchat",
          utilisation: "m.utilisationAnnuelle",
          amortissement: "m.dureeAmortissement",
          remarque: "m.remarque",
        }),
    ],
  },
  main_oeuvre: {
    cle: "mo.id",
    parties: [
      (db, l) =>
        avecCampagne(db("main_oeuvre as mo"), "mo.idCampagne", l.campagnes).select({
          cle: "mo.id",
          libelle: "mo.libelle",
          uta: "mo.uta",
          montant: "mo.montant",
          remarque: "mo.remarque",
        }),
    ],
  },
  prix: {
    cle: "x.id",
    parties: [
      (db, l) =>
        avecCampagne(db("prix_appro as x"), "x.idCampagne", l.campagnes).select({
          cle: "x.id",
          type: db.raw("?", [l.typesPrix.appro]),
          produit: "x.libelleIntrant",
          prix: "x.prixAchat",
          // The price is in euros per the part of the dose unit before the slash (KG/HA: €/kg).
          unitePrix: "x.unite",
        }),
      (db, l) =>
        avecCampagne(db("prix_vente as x"), "x.idCampagne", l.campagnes)
          .join("culture as cu", "cu.id", "x.idCulture")
          .join("type_sortie as ts", "ts.id", "x.idTypeSortie")
          .select({
            cle: "x.id",
            type: db.raw("?", [l.typesPrix.vente]),
            produit: db.raw(
              `${l.anglais ? "coalesce(cu.libelle_en, cu.libelle)" : "cu.libelle"} || ' - ' || ${l.anglais ? "coalesce(ts.libelle_en, ts.libelle)" : "ts.libelle"}`,
            ),
            prix: "x.prixVente",
            unite: db.raw("'€/t'"),
            unitePrix: db.raw("null"),
          }),
    ],
  },
};

/** The number of queries (parts) of a raw-data group: 0 for a code this export does not know. */
export function partiesOfGroupeDonneesBrutes(code: string): number {
  return GROUPES_DONNEES_BRUTES[code]?.parties.length ?? 0;
}

/** The rows a raw-data group would write for these campaigns (each part's count, without paging). */
export async function countLignesDonneesBrutes(db: Db, code: string, l: LectureDonneesBrutes): Promise<number> {
  const g = GROUPES_DONNEES_BRUTES[code];
  if (!g) return 0;
  let n = 0;
  for (const partie of g.parties) {
    const r = await partie(db, l).clearSelect().clearOrder().countDistinct({ n: g.cle }).first();
    n += Number((r as { n?: number | string } | undefined)?.n ?? 0);
  }
  return n;
}

/** One page of one part of a raw-data group: at most `limite` rows whose key is above `apres`, in key order. */
export async function listPageDonneesBrutes(
  db: Db,
  code: string,
  partie: number,
  l: LectureDonneesBrutes,
  page: { apres: number; limite: number },
): Promise<Record<string, unknown>[]> {
  const g = GROUPES_DONNEES_BRUTES[code];
  return (await g.parties[partie](db, l).where(g.cle, ">", page.apres).orderBy(g.cle).limit(page.limite)) as Record<string, unknown>[];
}
