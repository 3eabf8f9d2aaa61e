import type { Db } from "../db/knex";
import { bool, parseJson } from "../db/dialect";
import type { FarmRight, FolderRight } from "~/domain/access/rights";
import { campagneLibelle } from "~/domain/partage";
import type { CampagneOption, DossierOption, ExploitationOption, OadOption } from "~/domain/contracts/contexte";

export type { CampagneOption, DossierOption, ExploitationOption, OadOption };

export type ContexteRow = {
  idUser: number;
  idOad: number | null;
  idDossier: number | null;
  exploitations: number[];
  idCampagne: number | null;
  idCampagneDeverrouillee: number | null;
  lastPostDate: string | null;
};

export async function findContexte(db: Db, idUser: number): Promise<ContexteRow> {
  const row = await db("utilisateur_contexte").where({ idUser }).first();
  if (!row) return { idUser, idOad: null, idDossier: null, exploitations: [], idCampagne: null, idCampagneDeverrouillee: null, lastPostDate: null };
  return contexteOfRow(row);
}

function contexteOfRow(row: Record<string, unknown>): ContexteRow {
  return {
    ...(row as unknown as ContexteRow),
    exploitations: parseJson<number[]>(row.exploitations, []),
    lastPostDate: row.lastPostDate ? new Date(row.lastPostDate as string).toISOString() : null,
  };
}

export async function saveContexte(db: Db, c: ContexteRow): Promise<void> {
  const row = {
    idUser: c.idUser,
    idOad: c.idOad,
    idDossier: c.idDossier,
    exploitations: JSON.stringify(c.exploitations),
    idCampagne: c.idCampagne,
    idCampagneDeverrouillee: c.idCampagneDeverrouillee,
    lastPostDate: c.lastPostDate ? new Date(c.lastPostDate) : null,
    updatedAt: new Date(),
  };
  await db("utilisateur_contexte").insert(row).onConflict("id_user").merge();
}

export async function listOads(db: Db): Promise<OadOption[]> {
  const rows = await db("oad").select("id", "libelle", "libelleLong", "international", "emailAcces").orderBy("libelle");
  return rows.map((r) => ({ ...r, international: bool(r.international) }));
}

const folderRightColumns = ["ud.udoAnimation", "ud.udoEcriture", "ud.udoLecture", "ud.udoSynthese"];

function toFolderRight(r: Record<string, unknown>): FolderRight {
  return { udoAnimation: bool(r.udoAnimation), udoEcriture: bool(r.udoEcriture), udoLecture: bool(r.udoLecture), udoSynthese: bool(r.udoSynthese) };
}

function toFarmRight(r: Record<string, unknown>): FarmRight {
  return {
    dexEcriture: bool(r.dexEcriture),
    dexLecture: bool(r.dexLecture),
    dexSynthese: bool(r.dexSynthese),
    dexAnimation: bool(r.dexAnimation),
    dexNominatif: bool(r.dexNominatif),
  };
}

/** Folders of a network on which the user holds any right. */
export async function listDossiersOfUser(db: Db, idUser: number, idOad: number): Promise<DossierOption[]> {
  const rows = await db("dossier as d")
    .join("utilisateur_dossier as ud", "ud.idDossier", "d.id")
    .where({ "ud.idUser": idUser, "d.idOad": idOad })
    .select("d.id", "d.libelle", "d.idOad", ...folderRightColumns)
    .orderBy("d.libelle");
  return rows.map((r) => ({ id: r.id, libelle: r.libelle, idOad: r.idOad, right: toFolderRight(r) }));
}

export async function findFolderRight(db: Db, idUser: number, idDossier: number): Promise<FolderRight | null> {
  const r = await db("utilisateur_dossier as ud")
    .where({ "ud.idUser": idUser, "ud.idDossier": idDossier })
    .first(...folderRightColumns);
  return r ? toFolderRight(r) : null;
}

/** Farms linked to a folder, each with the link's rights. */
export async function listExploitationsOfDossier(db: Db, idDossier: number): Promise<ExploitationOption[]> {
  const rows = await db("exploitation as e")
    .join("dossier_exploitation as de", "de.idExploitation", "e.id")
    .where("de.idDossier", idDossier)
    .select("e.id", "e.libelle", "e.suffixe", "de.dexEcriture", "de.dexLecture", "de.dexSynthese", "de.dexAnimation", "de.dexNominatif")
    .orderBy("e.libelle");
  return rows.map((r) => ({ id: r.id, libelle: r.libelle, suffixe: r.suffixe, right: toFarmRight(r) }));
}

export async function listCampagnesOfExploitations(db: Db, ids: number[]): Promise<CampagneOption[]> {
  if (!ids.length) return [];
  const rows = await db("campagne")
    .whereIn("idExploitation", ids)
    .select("id", "idExploitation", "anneeRecolte", "prefixeCampagne", "apiLibelle", "simulation", "serieValide", "indicateurPublie")
    .orderBy([
      { column: "anneeRecolte", order: "desc" },
      { column: "simulation", order: "asc" },
      { column: "id", order: "asc" },
    ]);
  return rows.map((r) => ({
    ...r,
    libelle: campagneLibelle(r),
    simulation: bool(r.simulation),
    serieValide: bool(r.serieValide),
    indicateurPublie: bool(r.indicateurPublie),
  }));
}

/**
 * The user's stored context, the newest post's date and the context lists' version (`version_contexte`, decision
 * 0084; null when the row is missing: nothing is kept then), in one query when the user has a context row (the frame
 * of every signed-in page, decision 0082); in three otherwise.
 */
export async function findContexteWithLatestPost(db: Db, idUser: number): Promise<{ stored: ContexteRow; latest: string | null; version: number | null }> {
  const version = () => db("version_contexte").where({ id: 1 }).select("version");
  const row = await db("utilisateur_contexte")
    .where({ idUser })
    .first("*", db("post").max("creation_date").as("latestPostOfAll"), version().as("versionContexte"));
  if (!row) {
    const v = await version().first();
    return { stored: await findContexte(db, idUser), latest: await latestPostDate(db), version: v ? Number(v.version) : null };
  }
  const { latestPostOfAll, versionContexte, ...stored } = row as Record<string, unknown>;
  return {
    stored: contexteOfRow(stored),
    latest: latestPostOfAll ? new Date(latestPostOfAll as string).toISOString() : null,
    version: versionContexte == null ? null : Number(versionContexte),
  };
}

export async function latestPostDate(db: Db): Promise<string | null> {
  const row = await db("post").max({ d: "creation_date" }).first();
  return row?.d ? new Date(row.d).toISOString() : null;
}

/** The folders linking a farm, with their network, in folder order (the API's campaign view, decision 0098). */
export async function listFoldersOfFarm(db: Db, idExploitation: number): Promise<{ idDossier: number; idOad: number }[]> {
  const rows = await db("dossier_exploitation as de")
    .join("dossier as d", "d.id", "de.idDossier")
    .where("de.idExploitation", idExploitation)
    .orderBy("d.id")
    .select("d.id as idDossier", "d.idOad as idOad");
  return rows.map((r: { idDossier: number; idOad: number }) => ({ idDossier: Number(r.idDossier), idOad: Number(r.idOad) }));
}

/** The dates of a campaign the API answers beside its option (GET campagnes/{id}, B-API-06). */
export async function findCampagneDates(db: Db, id: number): Promise<{ anneeDerniereAction: number | null; idCampagneHistoParcelle: number | null }> {
  const r = await db("campagne").where({ id }).first("anneeDerniereAction", "idCampagneHistoParcelle");
  const num = (v: unknown) => (v == null ? null : Number(v));
  return { anneeDerniereAction: num(r?.anneeDerniereAction), idCampagneHistoParcelle: num(r?.idCampagneHistoParcelle) };
}
