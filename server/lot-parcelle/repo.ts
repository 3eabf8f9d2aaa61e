import { SOIL_FIELDS, SOIL_LISTS } from "~/domain/caracteristiques-pedologiques";
import { LOT_REPLICATED_FIELDS, type LotParcelleValues } from "~/domain/lot-parcelle";
import { bool, toIso } from "../db/dialect";
import type { Db } from "../db/knex";
import { updateIfUnchanged, type Token } from "../db/stale";
import { listReference } from "../exploitation-description/repo";
import { returnedId } from "../db/insert-id";

export type SoilColumns = {
  idTypeSolArvalis?: number;
  idAeeTypeSol?: number;
  profondeurSolCm?: number;
  reserveUtileMm?: number;
  idTypeSousSol?: number;
  idAciditeSol?: number;
  idProfondeurSol?: number;
};

export type LotParcelleRow = LotParcelleValues & { id: number; idCampagne: number; nbParcelles: number; updatedAt: string };

const num = (v: unknown): number | undefined => (v == null ? undefined : Number(v));
const text = (v: unknown): string | undefined => (v == null ? undefined : String(v));

/** The soil columns of a row (farm, plot, group or feature alike) as typed values. */
export function soilFromRow(r: Record<string, unknown>): SoilColumns {
  return Object.fromEntries(SOIL_FIELDS.map((f) => [f, num(r[f])])) as SoilColumns;
}

/** The soil values to write: an empty field is stored as null. */
export function soilToRow(v: SoilColumns): Record<string, number | null> {
  return Object.fromEntries(SOIL_FIELDS.map((f) => [f, v[f] ?? null]));
}

/** The soil reference lists of the soil panels (the same lists as the farm's soil characteristics). */
export async function soilReferenceLists(db: Db) {
  return {
    typesSolArvalis: await listReference(db, SOIL_LISTS.idTypeSolArvalis),
    typesSolAee: await listReference(db, SOIL_LISTS.idAeeTypeSol),
    typesSousSol: await listReference(db, SOIL_LISTS.idTypeSousSol),
    aciditesSol: await listReference(db, SOIL_LISTS.idAciditeSol),
    profondeursSol: await listReference(db, SOIL_LISTS.idProfondeurSol),
  };
}

const columns = ["id", "idCampagne", "libelle", "noIlotPac", "irrigable", "drainee", "remarque", ...SOIL_FIELDS, "updatedAt"];

function fromRow(r: Record<string, unknown>, nbParcelles = 0): LotParcelleRow {
  return {
    id: Number(r.id),
    idCampagne: Number(r.idCampagne),
    libelle: String(r.libelle),
    noIlotPac: text(r.noIlotPac),
    irrigable: bool(r.irrigable),
    drainee: bool(r.drainee),
    remarque: text(r.remarque),
    ...soilFromRow(r),
    nbParcelles,
    updatedAt: toIso(r.updatedAt),
  };
}

/** Newest first (a created group comes at the top of the list), with the number of plots in each group. */
export async function listLotsParcelle(db: Db, idCampagne: number): Promise<LotParcelleRow[]> {
  const rows = await db("lot_parcelle").where({ idCampagne }).select(columns).orderBy("id", "desc");
  const counts = await db("parcelle")
    .where({ idCampagne })
    .whereNotNull("idLot")
    .groupBy("idLot")
    .select("idLot")
    .count<{ idLot: number; n: number | string }[]>({ n: "*" });
  const byLot = new Map(counts.map((c) => [Number(c.idLot), Number(c.n)]));
  return rows.map((r) => fromRow(r, byLot.get(Number(r.id)) ?? 0));
}

export async function findLotParcelle(db: Db, id: number): Promise<LotParcelleRow | undefined> {
  const r = await db("lot_parcelle").where({ id }).first(columns);
  return r ? fromRow(r) : undefined;
}

const values = (i: LotParcelleValues) => ({
  libelle: i.libelle,
  noIlotPac: i.noIlotPac ?? null,
  irrigable: i.irrigable,
  drainee: i.drainee,
  remarque: i.remarque ?? null,
  ...soilToRow(i),
});

export async function insertLotParcelle(db: Db, idCampagne: number, input: LotParcelleValues): Promise<number> {
  const [r] = await db("lot_parcelle")
    .insert({ idCampagne, ...values(input) })
    .returning("id");
  return returnedId(r);
}

/** Writes the row unless it changed since its form was loaded (server/db/stale.ts). */
export async function updateLotParcelle(db: Db, token: Token, input: LotParcelleValues): Promise<void> {
  await updateIfUnchanged(db, "lot_parcelle", token, values(input));
}

/** Copies the group's PAC number, irrigable, drained and soil values onto the plots of the group; the number of plots changed. */
export async function replicateLotOnParcelles(db: Db, idCampagne: number, idLot: number, input: LotParcelleValues): Promise<number> {
  const all = values(input) as Record<string, unknown>;
  const copied = Object.fromEntries(LOT_REPLICATED_FIELDS.map((f) => [f, all[f]]));
  return db("parcelle")
    .where({ idCampagne, idLot })
    .update({ ...copied, updatedAt: new Date() });
}

/** Deletes groups of the campaign; their plots stay, without a group. Returns the number of groups deleted. */
export async function deleteLotsParcelle(db: Db, idCampagne: number, ids: number[]): Promise<number> {
  await db("parcelle").where({ idCampagne }).whereIn("idLot", ids).update({ idLot: null, updatedAt: new Date() });
  return db("lot_parcelle").where({ idCampagne }).whereIn("id", ids).delete();
}
