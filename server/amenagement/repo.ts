import { SOIL_FIELDS } from "~/domain/caracteristiques-pedologiques";
import type { AmenagementInput } from "~/domain/amenagement";
import { bool, toIso } from "../db/dialect";
import type { Db } from "../db/knex";
import { updateIfUnchanged, type Token } from "../db/stale";
import { soilFromRow, soilToRow } from "../lot-parcelle/repo";
import { returnedId } from "../db/insert-id";

export type AmenagementRow = AmenagementInput & { id: number; idCampagne: number; updatedAt: string };
export type TypeAmenagement = { id: number; iaeNom: string; iaeNomEn: string | null; iaeNoOrdre: number; uniteSurface: string };
export type ParcelleOption = { id: number; libelle: string };

const num = (v: unknown): number | undefined => (v == null ? undefined : Number(v));
const text = (v: unknown): string | undefined => (v == null ? undefined : String(v));

const columns = [
  "id",
  "idCampagne",
  "libelle",
  "idTypeAmenagement",
  "idParcelleAdjacente",
  "surface",
  "remarque",
  "noIlotPac",
  "irrigable",
  "drainee",
  ...SOIL_FIELDS,
  "updatedAt",
];

function fromRow(r: Record<string, unknown>): AmenagementRow {
  return {
    id: Number(r.id),
    idCampagne: Number(r.idCampagne),
    libelle: String(r.libelle),
    idTypeAmenagement: Number(r.idTypeAmenagement),
    idParcelleAdjacente: num(r.idParcelleAdjacente),
    surface: num(r.surface),
    remarque: text(r.remarque),
    noIlotPac: text(r.noIlotPac),
    irrigable: bool(r.irrigable),
    drainee: bool(r.drainee),
    ...soilFromRow(r),
    updatedAt: toIso(r.updatedAt),
  };
}

/** Newest first: a created feature comes at the top of the list (spec 2 §2). */
export async function listAmenagements(db: Db, idCampagne: number): Promise<AmenagementRow[]> {
  return (await db("amenagement").where({ idCampagne }).select(columns).orderBy("id", "desc")).map(fromRow);
}

export async function findAmenagement(db: Db, id: number): Promise<AmenagementRow | undefined> {
  const r = await db("amenagement").where({ id }).first(columns);
  return r ? fromRow(r) : undefined;
}

/** The feature type reference (typeAmenagements), in its own order. */
export async function listTypesAmenagement(db: Db): Promise<TypeAmenagement[]> {
  const rows = await db("type_amenagement")
    .select("id", "iaeNom", "iaeNomEn", "iaeNoOrdre", "uniteSurface")
    .orderBy([{ column: "iaeNoOrdre" }, { column: "id" }]);
  return rows.map((r) => ({
    id: Number(r.id),
    iaeNom: String(r.iaeNom),
    iaeNomEn: r.iaeNomEn == null ? null : String(r.iaeNomEn),
    iaeNoOrdre: Number(r.iaeNoOrdre),
    uniteSurface: String(r.uniteSurface),
  }));
}

export async function typeAmenagementExists(db: Db, id: number): Promise<boolean> {
  return !!(await db("type_amenagement").where({ id }).first("id"));
}

/** The campaign's plots, the choices of the adjacent plot. */
export async function listParcellesOfCampagne(db: Db, idCampagne: number): Promise<ParcelleOption[]> {
  const rows = await db("parcelle")
    .where({ idCampagne })
    .select("id", "libelle")
    .orderBy([{ column: "libelle" }, { column: "id" }]);
  return rows.map((r) => ({ id: Number(r.id), libelle: String(r.libelle) }));
}

export async function parcelleInCampagne(db: Db, idCampagne: number, id: number): Promise<boolean> {
  return !!(await db("parcelle").where({ idCampagne, id }).first("id"));
}

const values = (i: AmenagementInput) => ({
  libelle: i.libelle,
  idTypeAmenagement: i.idTypeAmenagement,
  idParcelleAdjacente: i.idParcelleAdjacente ?? null,
  surface: i.surface ?? null,
  remarque: i.remarque ?? null,
  noIlotPac: i.noIlotPac ?? null,
  irrigable: i.irrigable,
  drainee: i.drainee,
  ...soilToRow(i),
});

export async function insertAmenagement(db: Db, idCampagne: number, input: AmenagementInput): Promise<number> {
  const [r] = await db("amenagement")
    .insert({ idCampagne, ...values(input) })
    .returning("id");
  return returnedId(r);
}

/** Writes the row unless it changed since its form was loaded (server/db/stale.ts). */
export async function updateAmenagement(db: Db, token: Token, input: AmenagementInput): Promise<void> {
  await updateIfUnchanged(db, "amenagement", token, values(input));
}

export async function deleteAmenagements(db: Db, idCampagne: number, ids: number[]): Promise<number> {
  return db("amenagement").where({ idCampagne }).whereIn("id", ids).delete();
}
