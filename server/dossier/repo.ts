import type { Db } from "../db/knex";
import { bool, toIso } from "../db/dialect";

export type DossierRow = { id: number; libelle: string; suffixe: string | null; idOad: number; remarque: string; updatedAt: string };

export async function findDossier(db: Db, id: number): Promise<DossierRow | undefined> {
  const r = await db("dossier").where({ id }).first("id", "libelle", "suffixe", "idOad", "remarque", "updatedAt");
  return r ? { ...r, updatedAt: toIso(r.updatedAt) } : undefined;
}

export type FolderUserRow = {
  id: number; idUser: number; nom: string; prenom: string; username: string; isVisible: boolean;
  udoAnimation: boolean; udoEcriture: boolean; udoLecture: boolean; udoSynthese: boolean; udoNominatif: boolean;
  udoProprietaire: boolean; ordre: number;
};

export async function listFolderUsers(db: Db, idDossier: number): Promise<FolderUserRow[]> {
  const rows = await db("utilisateur_dossier as ud")
    .join("utilisateur as u", "u.id", "ud.idUser")
    .where("ud.idDossier", idDossier)
    .select("ud.id", "ud.idUser", "u.nom", "u.prenom", "u.username", "u.isVisible", "ud.udoAnimation", "ud.udoEcriture", "ud.udoLecture", "ud.udoSynthese", "ud.udoNominatif", "ud.udoProprietaire", "ud.ordre");
  return rows.map((r) => ({
    ...r, isVisible: bool(r.isVisible), udoAnimation: bool(r.udoAnimation), udoEcriture: bool(r.udoEcriture), udoLecture: bool(r.udoLecture),
    udoSynthese: bool(r.udoSynthese), udoNominatif: bool(r.udoNominatif), udoProprietaire: bool(r.udoProprietaire),
  }));
}

export async function listGroupes(db: Db): Promise<{ idGroupe: number; nomGroupe: string }[]> {
  const rows = await db("groupe_utilisateur").select("id", "nomGroupe").orderBy("nomGroupe");
  return rows.map((r) => ({ idGroupe: r.id, nomGroupe: r.nomGroupe }));
}

/** Users of a group who accepted to be visible (sharing needs both sides visible, spec 1 §6). */
export async function listVisibleUsersOfGroupe(db: Db, idGroupe: number): Promise<{ id: number; nom: string; prenom: string }[]> {
  return db("utilisateur as u")
    .join("utilisateur_groupe as ug", "ug.idUser", "u.id")
    .where({ "ug.idGroupe": idGroupe, "u.isVisible": true, "u.actif": true })
    .select("u.id", "u.nom", "u.prenom")
    .orderBy([{ column: "u.nom" }, { column: "u.prenom" }]);
}

/** Farms linked to the folder that have no other folder: deleting the folder would orphan them. */
export async function farmsOnlyInDossier(db: Db, idDossier: number): Promise<{ id: number; libelle: string }[]> {
  return db("exploitation as e")
    .join("dossier_exploitation as de", "de.idExploitation", "e.id")
    .where("de.idDossier", idDossier)
    .whereNotExists(db("dossier_exploitation as o").whereRaw("o.id_exploitation = e.id").andWhereNot("o.id_dossier", idDossier))
    .select("e.id", "e.libelle");
}

/** Folders (any network) on which the user holds at least the given right: reading for linking, writing for duplication. */
export async function foldersReadableBy(db: Db, idUser: number, level: "Lecture" | "Ecriture" = "Lecture"): Promise<{ id: number; libelle: string; idOad: number }[]> {
  const q = db("dossier as d").join("utilisateur_dossier as ud", "ud.idDossier", "d.id").where("ud.idUser", idUser).select("d.id", "d.libelle", "d.idOad").orderBy("d.libelle");
  if (level === "Ecriture") q.andWhere((w) => w.where("ud.udoEcriture", true).orWhere("ud.udoAnimation", true));
  else q.andWhere((w) => w.where("ud.udoLecture", true).orWhere("ud.udoEcriture", true).orWhere("ud.udoAnimation", true));
  return q;
}
