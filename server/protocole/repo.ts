import type { IndicateurObjectifInput, ProtocoleInput } from "~/domain/protocole";
import { toIso } from "../db/dialect";
import type { Db } from "../db/knex";
import { updateIfUnchanged, type Token } from "../db/stale";
import { insertId } from "../db/insert-id";

export async function listChapitres(db: Db) {
  return (
    await db("chapitre_protocole")
      .orderBy([{ column: "ordre" }, { column: "id" }])
      .select("id", "libelle", "libelleEn")
  ).map((r) => ({ id: Number(r.id), libelle: String(r.libelle), libelleEn: (r.libelleEn as string | null) ?? null }));
}

/** The indicator reference list (spec 3 §3.9): idIndicateur, indNom, dicLlUnite, pDtCrea (created_at) and the rest. */
export async function listIndicateurs(db: Db) {
  return (
    await db("indicateur")
      .orderBy([{ column: "indOrdre" }, { column: "id" }])
      .select("*")
  ).map((r) => ({
    idIndicateur: Number(r.id),
    indNom: String(r.indNom),
    indNomEn: (r.indNomEn as string | null) ?? null,
    dicLlUnite: (r.dicLlUnite as string | null) ?? null,
    pDtCrea: toIso(r.createdAt),
    idIndicateurPere: r.idIndicateurPere == null ? null : Number(r.idIndicateurPere),
    idGroupeIndicateur: r.idGroupeIndicateur == null ? null : Number(r.idGroupeIndicateur),
    indOrdre: r.indOrdre == null ? null : Number(r.indOrdre),
    indCode: (r.indCode as string | null) ?? null,
    indEchelle: (r.indEchelle as string | null) ?? null,
    idDicoPackage: r.idDicoPackage == null ? null : Number(r.idDicoPackage),
  }));
}

/** Protocols of a campaign, per chapter when given (C-PROTO-07), newest first. */
export async function listProtocoles(db: Db, idCampagne: number, dicIdChapitreProtocole?: number) {
  const q = db("protocole_exploitation")
    .where({ idCampagne })
    .orderBy("id", "desc")
    .select("id", "idCampagne", "dicIdChapitreProtocole", "pexLibelle", "pexValTexte", "updatedAt");
  if (dicIdChapitreProtocole != null) q.where({ dicIdChapitreProtocole });
  return (await q).map((r) => ({
    idProtocoleExploitation: Number(r.id),
    id: Number(r.id),
    campagne: Number(r.idCampagne),
    dicIdChapitreProtocole: Number(r.dicIdChapitreProtocole),
    pexLibelle: String(r.pexLibelle),
    pexValTexte: (r.pexValTexte as string | null) ?? null,
    updatedAt: toIso(r.updatedAt),
  }));
}

const protocoleValues = (i: ProtocoleInput) => ({
  dicIdChapitreProtocole: i.dicIdChapitreProtocole,
  pexLibelle: i.pexLibelle,
  pexValTexte: i.pexValTexte ?? null,
});
export const insertProtocole = (db: Db, idCampagne: number, i: ProtocoleInput) => insertId(db, "protocole_exploitation", { idCampagne, ...protocoleValues(i) });
export const updateProtocole = (db: Db, idCampagne: number, token: Token, i: ProtocoleInput) =>
  updateIfUnchanged(db, "protocole_exploitation", token, protocoleValues(i), { scope: { idCampagne } });
export const deleteProtocole = (db: Db, idCampagne: number, id: number) => db("protocole_exploitation").where({ idCampagne, id }).delete();

/** Objective indicators of a campaign (C-OBJ-06): id, indicateur, value, campagne. */
export async function listObjectifs(db: Db, idCampagne: number) {
  return (await db("indicateur_objectif").where({ idCampagne }).orderBy("id", "desc").select("id", "idIndicateur", "value", "idCampagne", "updatedAt")).map(
    (r) => ({
      id: Number(r.id),
      indicateur: Number(r.idIndicateur),
      value: r.value == null ? null : Number(r.value),
      campagne: Number(r.idCampagne),
      updatedAt: toIso(r.updatedAt),
    }),
  );
}

const objectifValues = (i: IndicateurObjectifInput) => ({ idIndicateur: i.idIndicateur, value: i.value ?? null });
export const insertObjectif = (db: Db, idCampagne: number, i: IndicateurObjectifInput) =>
  insertId(db, "indicateur_objectif", { idCampagne, ...objectifValues(i) });
export const updateObjectif = (db: Db, idCampagne: number, token: Token, i: IndicateurObjectifInput) =>
  updateIfUnchanged(db, "indicateur_objectif", token, objectifValues(i), { scope: { idCampagne } });
export const deleteObjectif = (db: Db, idCampagne: number, id: number) => db("indicateur_objectif").where({ idCampagne, id }).delete();

/** The campaign of a protocol or an objective row (the API names rows by id; issue 27). */
export async function campagneDeLigne(db: Db, table: "protocole_exploitation" | "indicateur_objectif", id: number): Promise<number | null> {
  const r = await db(table).where({ id }).first("idCampagne");
  return r ? Number(r.idCampagne) : null;
}

/** Whether an indicator of the reference list has this id. */
export async function indicateurExists(db: Db, id: number): Promise<boolean> {
  return !!(await db("indicateur").where({ id }).first("id"));
}
