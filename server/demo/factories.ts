import type { Db } from "../db/knex";
import { TYPE_INTRANT_FERTILISANT } from "~/domain/eges";
import { hashPassword } from "../auth/password";
import { insertId } from "../db/insert-id";

/** Row builders shared by the demo seed and the tests, so that tests run on data shaped like the demo. */

export type FolderRight = "animation" | "ecriture" | "lecture" | "synthese";
export type FarmRight = "animation" | "ecriture" | "lecture" | "synthese";

export async function createUtilisateur(
  db: Db,
  u: {
    username: string;
    nom: string;
    prenom: string;
    password?: string;
    email?: string;
    admin?: boolean;
    roles?: string[];
    acceptcgu?: boolean;
    isVisible?: boolean;
    actif?: boolean;
  },
): Promise<number> {
  return insertId(db, "utilisateur", {
    username: u.username,
    nom: u.nom,
    prenom: u.prenom,
    email: u.email ?? `${u.username}@sillon.example`,
    passwordHash: await hashPassword(u.password ?? "demo1234"),
    admin: u.admin ?? false,
    roles: JSON.stringify(u.roles ?? []),
    acceptcgu: u.acceptcgu ?? true,
    isVisible: u.isVisible ?? true,
    actif: u.actif ?? true,
  });
}

export function createOad(db: Db, o: { libelle: string; libelleLong?: string; international?: boolean; emailAcces?: string }) {
  return insertId(db, "oad", {
    libelle: o.libelle,
    libelleLong: o.libelleLong ?? o.libelle,
    international: o.international ?? false,
    emailAcces: o.emailAcces ?? null,
  });
}

export function createDossier(db: Db, d: { libelle: string; idOad: number; remarque?: string }) {
  return insertId(db, "dossier", { libelle: d.libelle, idOad: d.idOad, remarque: d.remarque ?? "" });
}

export function createExploitation(db: Db, e: { libelle: string; idTypeExploitation?: number; suffixe?: string }) {
  return insertId(db, "exploitation", { libelle: e.libelle, idTypeExploitation: e.idTypeExploitation ?? 1, suffixe: e.suffixe ?? null });
}

/** Folder rights cascade downwards: animation gives writing, reading and synthesis (spec 1 §4). */
export function folderRightFlags(right: FolderRight) {
  const rank = { synthese: 0, lecture: 1, ecriture: 2, animation: 3 }[right];
  return { udoSynthese: rank >= 0, udoLecture: rank >= 1, udoEcriture: rank >= 2, udoAnimation: rank >= 3 };
}

export function farmRightFlags(right: FarmRight) {
  const rank = { synthese: 0, lecture: 1, ecriture: 2, animation: 3 }[right];
  return { dexSynthese: rank >= 0, dexLecture: rank >= 1, dexEcriture: rank >= 2, dexAnimation: rank >= 3 };
}

export function grantFolder(db: Db, idUser: number, idDossier: number, right: FolderRight, extra: { ordre?: number; udoProprietaire?: boolean } = {}) {
  return insertId(db, "utilisateur_dossier", {
    idUser,
    idDossier,
    ...folderRightFlags(right),
    ordre: extra.ordre ?? 0,
    udoProprietaire: extra.udoProprietaire ?? false,
  });
}

export function linkFarm(db: Db, idDossier: number, idExploitation: number, right: FarmRight, nominatif = false) {
  return insertId(db, "dossier_exploitation", { idDossier, idExploitation, ...farmRightFlags(right), dexNominatif: nominatif });
}

export function createCampagne(
  db: Db,
  c: {
    idExploitation: number;
    anneeRecolte: number;
    apiLibelle?: string;
    simulation?: boolean;
    serieValide?: boolean;
    indicateurPublie?: boolean;
    idCampagneSource?: number | null;
    idCampagneHistoParcelle?: number | null;
  },
) {
  return insertId(db, "campagne", {
    idExploitation: c.idExploitation,
    anneeRecolte: c.anneeRecolte,
    prefixeCampagne: String(c.anneeRecolte),
    apiLibelle: c.apiLibelle ?? "",
    simulation: c.simulation ?? false,
    serieValide: c.serieValide ?? false,
    indicateurPublie: c.indicateurPublie ?? false,
    idCampagneSource: c.idCampagneSource ?? null,
    idCampagneHistoParcelle: c.idCampagneHistoParcelle ?? null,
  });
}

export function createPost(db: Db, p: { title: string; content: string; creationDate: Date; postCategory?: string; image?: string | null }) {
  return insertId(db, "post", {
    title: p.title,
    content: p.content,
    creationDate: p.creationDate,
    postCategory: p.postCategory ?? "actualite",
    image: p.image ?? null,
  });
}

export function addToGroup(db: Db, idGroupe: number, idUser: number) {
  return insertId(db, "utilisateur_groupe", { idGroupe, idUser });
}

export function createGroupe(db: Db, nomGroupe: string) {
  return insertId(db, "groupe_utilisateur", { nomGroupe });
}

/** A fertiliser of a folder (intrant_dossier, type 540) and, when given, its composition (spec 3 §3.5). */
export async function createFertilisantDossier(
  db: Db,
  f: { idDossier: number; libelle: string; composition?: Record<string, number>; categorieEges?: string | null; remarque?: string; idUser?: number | null },
): Promise<number> {
  const id = await insertId(db, "intrant_dossier", {
    idDossier: f.idDossier,
    dicIdTypeIntrant: TYPE_INTRANT_FERTILISANT,
    libelle: f.libelle,
    remarque: f.remarque ?? null,
    idUser: f.idUser ?? null,
    biocontrole: false,
    dicLlUnite: "kg/ha",
  });
  if (f.composition) await insertId(db, "fertilisant_compo_dossier", { idIntrantDossier: id, categorieEges: f.categorieEges ?? null, ...f.composition });
  return id;
}
