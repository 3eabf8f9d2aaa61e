import type { CoefficientsConsoCarburant, TypeAction } from "~/domain/calc/operation";
import type { Db } from "../db/knex";
import { updateIfUnchanged, type Token } from "../db/stale";
import { bool, toIso } from "../db/dialect";
import { returnedId } from "../db/insert-id";

/** A cultural operation (spec 2 §3 Cultural operation) as stored, with its towed equipment and workforce ids. */
export type OperationCulturaleRow = {
  id: number;
  idCampagne: number;
  idTypeAction: number;
  libelle: string;
  remarque: string | null;
  /** materielTractant: the tractor (parc_materiel id). */
  materielTractant: number | null;
  /** materielTractes: towed equipment (parc_materiel ids, operation_culturale_materiel). */
  materielTractes: number[];
  /** true = external workforce. */
  eta: boolean;
  /** mainOeuvre: workforce (main_oeuvre ids, operation_culturale_main_oeuvre); empty when eta. */
  mainOeuvre: number[];
  debitReel: number | null;
  debitCalcule: number | null;
  consoCarburantReelle: number | null;
  consoCarburantCalculee: number | null;
  profondeurTravail: number;
  debitIrrigation: number | null;
  volumeBouillie: number | null;
  proportionSurfaceTravaillee: number;
  surfaceTravaillee: number | null;
  nombrePassage: number | null;
  updatedAt: string;
};

/** The stored values of an operation, without its id, campaign, links and timestamps. */
export type OperationCulturaleValues = Omit<OperationCulturaleRow, "id" | "idCampagne" | "materielTractes" | "mainOeuvre" | "updatedAt">;

const num = (v: unknown): number | null => (v == null || v === "" ? null : Number(v));

const columns = [
  "id",
  "idCampagne",
  "idTypeAction",
  "libelle",
  "remarque",
  "idMaterielTractant",
  "eta",
  "debitReel",
  "debitCalcule",
  "consoCarburantReelle",
  "consoCarburantCalculee",
  "profondeurTravail",
  "debitIrrigation",
  "volumeBouillie",
  "proportionSurfaceTravaillee",
  "surfaceTravaillee",
  "nombrePassage",
  "updatedAt",
];

function fromRow(r: Record<string, unknown>, towed: number[], workforce: number[]): OperationCulturaleRow {
  return {
    id: Number(r.id),
    idCampagne: Number(r.idCampagne),
    idTypeAction: Number(r.idTypeAction),
    libelle: String(r.libelle),
    remarque: (r.remarque as string | null) ?? null,
    materielTractant: num(r.idMaterielTractant),
    materielTractes: towed,
    eta: bool(r.eta),
    mainOeuvre: workforce,
    debitReel: num(r.debitReel),
    debitCalcule: num(r.debitCalcule),
    consoCarburantReelle: num(r.consoCarburantReelle),
    consoCarburantCalculee: num(r.consoCarburantCalculee),
    profondeurTravail: num(r.profondeurTravail) ?? 0,
    debitIrrigation: num(r.debitIrrigation),
    volumeBouillie: num(r.volumeBouillie),
    proportionSurfaceTravaillee: num(r.proportionSurfaceTravaillee) ?? 1,
    surfaceTravaillee: num(r.surfaceTravaillee),
    nombrePassage: num(r.nombrePassage),
    updatedAt: toIso(r.updatedAt),
  };
}

/** Link ids per operation, in the order they were stored. */
async function links(db: Db, table: string, column: string, ids: number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>();
  if (!ids.length) return out;
  const rows = await db(table).whereIn("idOperationCulturale", ids).select("idOperationCulturale", column).orderBy("id");
  for (const r of rows) {
    const key = Number(r.idOperationCulturale);
    out.set(key, [...(out.get(key) ?? []), Number(r[column])]);
  }
  return out;
}

async function withLinks(db: Db, rows: Record<string, unknown>[]): Promise<OperationCulturaleRow[]> {
  const ids = rows.map((r) => Number(r.id));
  const towed = await links(db, "operation_culturale_materiel", "idParcMateriel", ids);
  const workforce = await links(db, "operation_culturale_main_oeuvre", "idMainOeuvre", ids);
  return rows.map((r) => fromRow(r, towed.get(Number(r.id)) ?? [], workforce.get(Number(r.id)) ?? []));
}

/** Newest first: a created operation comes at the top of the list (spec 2 §2). GET campagnes/{id}/operation_culturales. */
export async function listOperationsCulturales(db: Db, idCampagne: number): Promise<OperationCulturaleRow[]> {
  return withLinks(db, await db("operation_culturale").where({ idCampagne }).select(columns).orderBy("id", "desc"));
}

/** GET operation_culturales/{id}. */
export async function findOperationCulturale(db: Db, id: number): Promise<OperationCulturaleRow | undefined> {
  const r = await db("operation_culturale").where({ id }).first(columns);
  return r ? (await withLinks(db, [r]))[0] : undefined;
}

function stored(v: OperationCulturaleValues) {
  const { materielTractant, ...rest } = v;
  return { ...rest, idMaterielTractant: materielTractant };
}

export async function insertOperationCulturale(db: Db, idCampagne: number, values: OperationCulturaleValues): Promise<number> {
  const [r] = await db("operation_culturale")
    .insert({ idCampagne, ...stored(values) })
    .returning("id");
  return returnedId(r);
}

/** Writes the row unless it changed since its form was loaded (server/db/stale.ts). */
export async function updateOperationCulturale(db: Db, token: Token, values: OperationCulturaleValues): Promise<void> {
  await updateIfUnchanged(db, "operation_culturale", token, stored(values));
}

/** Replaces the towed equipment and workforce rows of an operation. */
export async function replaceLinks(db: Db, idOperationCulturale: number, materielTractes: number[], mainOeuvre: number[]): Promise<void> {
  await db("operation_culturale_materiel").where({ idOperationCulturale }).delete();
  await db("operation_culturale_main_oeuvre").where({ idOperationCulturale }).delete();
  if (materielTractes.length)
    await db("operation_culturale_materiel").insert(materielTractes.map((idParcMateriel) => ({ idOperationCulturale, idParcMateriel })));
  if (mainOeuvre.length) await db("operation_culturale_main_oeuvre").insert(mainOeuvre.map((idMainOeuvre) => ({ idOperationCulturale, idMainOeuvre })));
}

export async function deleteOperationsCulturales(db: Db, idCampagne: number, ids: number[]): Promise<number> {
  return db("operation_culturale").where({ idCampagne }).whereIn("id", ids).delete();
}

// ---- Reference lists (typeOperations, profondeurTravails, fuel references, fuel price)

export type TypeActionRef = Required<Pick<TypeAction, "id" | "libelle" | "profondeurTravail" | "debitIrrigation" | "volumeBouillie">> & {
  libelleEn: string | null;
};

export async function listTypesAction(db: Db): Promise<TypeActionRef[]> {
  const rows = await db("type_action")
    .select("id", "libelle", "libelleEn", "profondeurTravail", "debitIrrigation", "volumeBouillie")
    .orderBy([{ column: "ordre" }, { column: "id" }]);
  return rows.map((r) => ({
    id: Number(r.id),
    libelle: String(r.libelle),
    libelleEn: (r.libelleEn as string | null) ?? null,
    profondeurTravail: bool(r.profondeurTravail),
    debitIrrigation: bool(r.debitIrrigation),
    volumeBouillie: bool(r.volumeBouillie),
  }));
}

export type ProfondeurTravail = { id: number; libelle: string; libelleEn: string | null; valeur: number };

export async function listProfondeursTravail(db: Db): Promise<ProfondeurTravail[]> {
  const rows = await db("profondeur_travail")
    .select("id", "libelle", "libelleEn", "valeur")
    .orderBy([{ column: "ordre" }, { column: "id" }]);
  return rows.map((r) => ({ id: Number(r.id), libelle: String(r.libelle), libelleEn: (r.libelleEn as string | null) ?? null, valeur: Number(r.valeur) }));
}

/** The fuel reference rows (reference_conso_carburant) as fuelUseReference reads them; all rows or one type's. */
export async function listCoefficientsConsoCarburant(db: Db, idTypeAction?: number): Promise<CoefficientsConsoCarburant[]> {
  const q = db("reference_conso_carburant").select("idTypeAction", "tauxCharge", "consoSpecifique", "consoReference", "profondeurReference");
  if (idTypeAction !== undefined) q.where({ idTypeAction });
  return (await q).map((r) => ({
    idTypeAction: Number(r.idTypeAction),
    tauxCharge: num(r.tauxCharge),
    consoSpecifique: num(r.consoSpecifique),
    consoHectare: num(r.consoReference),
    profondeurReference: num(r.profondeurReference),
  }));
}

/** Fuel price, €/L: the campaign's (caracteristique.prix_fioul), else the reference value prix_fioul. */
export async function fuelPrice(db: Db, idCampagne: number): Promise<number | null> {
  const c = await db("caracteristique").where({ idCampagne }).first("prixFioul");
  if (c?.prixFioul != null) return Number(c.prixFioul);
  const ref = await db("reference_valeur").where({ code: "prix_fioul" }).first("valeur");
  return num(ref?.valeur);
}

/** The campaign's long-term loan rate (for the financing rate of the machines), null when empty. */
export async function longTermRate(db: Db, idCampagne: number): Promise<number | null> {
  const c = await db("caracteristique").where({ idCampagne }).first("longTermeTaux");
  return num(c?.longTermeTaux);
}

/** The labour items of a campaign, for the workforce list. */
export async function listWorkforce(db: Db, idCampagne: number): Promise<{ id: number; libelle: string; idTypeUser: number }[]> {
  const rows = await db("main_oeuvre")
    .where({ idCampagne })
    .select("id", "libelle", "idTypeUser")
    .orderBy([{ column: "libelle" }, { column: "id" }]);
  return rows.map((r) => ({ id: Number(r.id), libelle: String(r.libelle), idTypeUser: Number(r.idTypeUser) }));
}

/**
 * Propagates a new work rate to the interventions (actions) made with this operation, when the
 * interventions table exists (it comes with the interventions screen, spec 3). Returns how many rows
 * changed; 0 while there is no such table.
 */
export async function propagateWorkRate(db: Db, idOperationCulturale: number, debit: number | null): Promise<number> {
  if (!(await db.schema.hasTable("action"))) return 0;
  if (!(await db.schema.hasColumn("action", "debit")) || !(await db.schema.hasColumn("action", "id_operation_culturale"))) return 0;
  return db("action").where({ idOperationCulturale }).update({ debit });
}
