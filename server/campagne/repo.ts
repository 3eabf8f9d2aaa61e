import type { CampagneOption } from "~/domain/contracts/contexte";
import { campagneLibelle } from "~/domain/partage";
import { bool, toIso } from "../db/dialect";
import type { Db } from "../db/knex";
import { insertId } from "../db/insert-id";
import { updateIfUnchanged, type Token } from "../db/stale";

/** A campaign as the API lists it (GET campagnes, GET exploitations/{id}/campagnes): its flags and its edit token. */
export type CampagneListee = CampagneOption & { idCampagneHistoParcelle: number | null; updatedAt: string };

export type FiltresCampagnes = { serieValide?: boolean; indicateurPublie?: boolean; ids?: number[] };

/** The campaigns of a farm, newest harvest first, the base campaign before its simulations; filtered on the flags. */
export async function listCampagnesOfFarm(db: Db, idExploitation: number, f: FiltresCampagnes = {}): Promise<CampagneListee[]> {
  const q = db("campagne")
    .where({ idExploitation })
    .select(
      "id",
      "idExploitation",
      "anneeRecolte",
      "prefixeCampagne",
      "apiLibelle",
      "simulation",
      "serieValide",
      "indicateurPublie",
      "idCampagneHistoParcelle",
      "updatedAt",
    )
    .orderBy([
      { column: "anneeRecolte", order: "desc" },
      { column: "simulation", order: "asc" },
      { column: "id", order: "asc" },
    ]);
  if (f.serieValide !== undefined) q.where({ serieValide: f.serieValide });
  if (f.indicateurPublie !== undefined) q.where({ indicateurPublie: f.indicateurPublie });
  if (f.ids) q.whereIn("id", f.ids);
  const rows = await q;
  return rows.map((r) => ({
    id: Number(r.id),
    idExploitation: Number(r.idExploitation),
    anneeRecolte: Number(r.anneeRecolte),
    prefixeCampagne: r.prefixeCampagne,
    apiLibelle: r.apiLibelle ?? "",
    libelle: campagneLibelle({ prefixeCampagne: r.prefixeCampagne, apiLibelle: r.apiLibelle ?? "" }),
    simulation: bool(r.simulation),
    serieValide: bool(r.serieValide),
    indicateurPublie: bool(r.indicateurPublie),
    idCampagneHistoParcelle: r.idCampagneHistoParcelle == null ? null : Number(r.idCampagneHistoParcelle),
    updatedAt: toIso(r.updatedAt),
  }));
}

/** The farm of a campaign (null: no such campaign). */
export async function farmOfCampagne(db: Db, idCampagne: number): Promise<number | null> {
  const r = await db("campagne").where({ id: idCampagne }).first("idExploitation");
  return r ? Number(r.idExploitation) : null;
}

/** A campaign chosen as a copy target (machinery, management modes): its farm and harvest year, as stored; undefined when unknown. */
export async function findCampagneCible(db: Db, idCampagne: number): Promise<{ id: number; idExploitation: number; anneeRecolte: number } | undefined> {
  return db("campagne").where({ id: idCampagne }).first("id", "idExploitation", "anneeRecolte");
}

export async function farmExists(db: Db, idExploitation: number): Promise<boolean> {
  return !!(await db("exploitation").where({ id: idExploitation }).first("id"));
}

/** The campaign's label (apiLibelle), written only if the row still holds the token's stamp (409 otherwise). */
export async function updateCampagneLabel(db: Db, token: Token, apiLibelle: string): Promise<void> {
  await updateIfUnchanged(db, "campagne", token, { apiLibelle }, { notFound: "errors.services.campagnes-service-error" });
}

/** Inserts a campaign row and answers its id (the campaign-scoped content is copied by the caller). */
export async function insertCampagne(db: Db, row: Record<string, unknown>): Promise<number> {
  return insertId(db, "campagne", row);
}

/** Deletes the campaign row. */
export async function deleteCampagneRow(db: Db, idCampagne: number): Promise<void> {
  await db("campagne").where({ id: idCampagne }).delete();
}

/** The series and publication flags of a campaign of this farm; undefined when the campaign is not the farm's. */
export async function findCampagneFlagsOfFarm(
  db: Db,
  idExploitation: number,
  idCampagne: number,
): Promise<{ serieValide: boolean; indicateurPublie: boolean } | undefined> {
  const c = await db("campagne").where({ id: idCampagne, idExploitation }).first("serieValide", "indicateurPublie");
  return c ? { serieValide: bool(c.serieValide), indicateurPublie: bool(c.indicateurPublie) } : undefined;
}

/** Writes a campaign's simulation flag. */
export async function setCampagneSimulation(db: Db, idCampagne: number, simulation: boolean): Promise<void> {
  await db("campagne").where({ id: idCampagne }).update({ simulation, updatedAt: new Date() });
}
