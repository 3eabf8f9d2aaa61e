import type { Db } from "../db/knex";
import { bool, toIso } from "../db/dialect";
import { updateIfUnchanged, type Token } from "../db/stale";
import type { DossierInput } from "~/domain/partage";
import { returnedId } from "../db/insert-id";

export type DossierRow = { id: number; libelle: string; suffixe: string | null; idOad: number; remarque: string; updatedAt: string };

export async function findDossier(db: Db, id: number): Promise<DossierRow | undefined> {
  const r = await db("dossier").where({ id }).first("id", "libelle", "suffixe", "idOad", "remarque", "updatedAt");
  return r ? { ...r, updatedAt: toIso(r.updatedAt) } : undefined;
}

export const DOSSIER_NOT_FOUND = "errors.services.dossier-service-error";

export async function insertDossier(db: Db, input: DossierInput): Promise<number> {
  const [row] = await db("dossier")
    .insert({ libelle: input.libelle, remarque: input.remarque ?? "", idOad: input.idOad })
    .returning("id");
  return returnedId(row);
}

/** Writes the folder's settings unless they changed since the form was loaded (server/db/stale.ts). */
export async function updateDossierRow(db: Db, token: Token, input: DossierInput): Promise<void> {
  await updateIfUnchanged(
    db,
    "dossier",
    token,
    { libelle: input.libelle, remarque: input.remarque ?? "", idOad: input.idOad },
    { notFound: DOSSIER_NOT_FOUND },
  );
}

export async function deleteDossierRow(db: Db, id: number): Promise<void> {
  await db("dossier").where({ id }).delete();
}

/** The networks with their long label (GET oads, oads/{id}). */
export async function listOadsLong(db: Db, id?: number): Promise<{ id: number; libelle: string; libelleLong: string | null }[]> {
  const q = db("oad").select("id", "libelle", "libelleLong").orderBy("libelle");
  if (id !== undefined) q.where({ id });
  return q;
}

/** The networks a folder may belong to (the settings' picker). */
export async function listOads(db: Db): Promise<{ id: number; libelle: string }[]> {
  return db("oad").select("id", "libelle").orderBy("libelle");
}

type FolderRights = { udoAnimation: boolean; udoEcriture: boolean; udoLecture: boolean; udoSynthese: boolean };

export async function insertFolderUser(
  db: Db,
  row: { idUser: number; idDossier: number; ordre: number; udoProprietaire?: boolean } & FolderRights,
): Promise<void> {
  await db("utilisateur_dossier").insert(row);
}

export async function updateFolderUser(db: Db, id: number, rights: FolderRights): Promise<void> {
  await db("utilisateur_dossier")
    .where({ id })
    .update({ ...rights, updatedAt: new Date() });
}

export async function deleteFolderUser(db: Db, id: number): Promise<void> {
  await db("utilisateur_dossier").where({ id }).delete();
}

/** An active user's visibility (a folder is shared only with visible users), or undefined. */
export async function findActiveUser(db: Db, id: number): Promise<{ isVisible: boolean } | undefined> {
  const r = await db("utilisateur").where({ id, actif: true }).first("isVisible");
  return r ? { isVisible: bool(r.isVisible) } : undefined;
}

export type FolderUserRow = {
  id: number;
  idUser: number;
  nom: string;
  prenom: string;
  username: string;
  isVisible: boolean;
  udoAnimation: boolean;
  udoEcriture: boolean;
  udoLecture: boolean;
  udoSynthese: boolean;
  udoNominatif: boolean;
  udoProprietaire: boolean;
  udoPath: string | null;
  udoAnneeRecolte: number | null;
  ordre: number;
};

export async function listFolderUsers(db: Db, idDossier: number): Promise<FolderUserRow[]> {
  const rows = await db("utilisateur_dossier as ud")
    .join("utilisateur as u", "u.id", "ud.idUser")
    .where("ud.idDossier", idDossier)
    .select(
      "ud.id",
      "ud.idUser",
      "u.nom",
      "u.prenom",
      "u.username",
      "u.isVisible",
      "ud.udoAnimation",
      "ud.udoEcriture",
      "ud.udoLecture",
      "ud.udoSynthese",
      "ud.udoNominatif",
      "ud.udoProprietaire",
      "ud.udoPath",
      "ud.udoAnneeRecolte",
      "ud.ordre",
    );
  return rows.map((r) => ({
    ...r,
    isVisible: bool(r.isVisible),
    udoAnimation: bool(r.udoAnimation),
    udoEcriture: bool(r.udoEcriture),
    udoLecture: bool(r.udoLecture),
    udoSynthese: bool(r.udoSynthese),
    udoNominatif: bool(r.udoNominatif),
    udoProprietaire: bool(r.udoProprietaire),
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
export async function foldersReadableBy(
  db: Db,
  idUser: number,
  level: "Lecture" | "Ecriture" = "Lecture",
): Promise<{ id: number; libelle: string; suffixe: string | null; idOad: number }[]> {
  const q = db("dossier as d")
    .join("utilisateur_dossier as ud", "ud.idDossier", "d.id")
    .where("ud.idUser", idUser)
    .select("d.id", "d.libelle", "d.suffixe", "d.idOad")
    .orderBy("d.libelle");
  if (level === "Ecriture") q.andWhere((w) => w.where("ud.udoEcriture", true).orWhere("ud.udoAnimation", true));
  else q.andWhere((w) => w.where("ud.udoLecture", true).orWhere("ud.udoEcriture", true).orWhere("ud.udoAnimation", true));
  return q;
}
