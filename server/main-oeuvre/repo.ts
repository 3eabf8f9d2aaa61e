import type { Db } from "../db/knex";
import { updateIfUnchanged, type Token } from "../db/stale";
import { toIso } from "../db/dialect";
import type { MainOeuvreInput } from "~/domain/main-oeuvre";
import { returnedId } from "../db/insert-id";

export type MainOeuvreRow = MainOeuvreInput & { id: number; idCampagne: number; updatedAt: string };

const columns = ["id", "idCampagne", "libelle", "uta", "idTypeUser", "remarque", "montant", "updatedAt"];

function fromRow(r: Record<string, unknown>): MainOeuvreRow {
  return {
    id: Number(r.id),
    idCampagne: Number(r.idCampagne),
    libelle: String(r.libelle),
    uta: Number(r.uta),
    idTypeUser: Number(r.idTypeUser),
    remarque: (r.remarque as string | null) ?? undefined,
    montant: r.montant == null ? undefined : Number(r.montant),
    updatedAt: toIso(r.updatedAt),
  };
}

/** Newest first: a created row comes at the top of the list (spec 2 §2). */
export async function listMainOeuvres(db: Db, idCampagne: number): Promise<MainOeuvreRow[]> {
  return (await db("main_oeuvre").where({ idCampagne }).select(columns).orderBy("id", "desc")).map(fromRow);
}

export async function findMainOeuvre(db: Db, id: number): Promise<MainOeuvreRow | undefined> {
  const r = await db("main_oeuvre").where({ id }).first(columns);
  return r ? fromRow(r) : undefined;
}

const values = (i: MainOeuvreInput) => ({ libelle: i.libelle, uta: i.uta, idTypeUser: i.idTypeUser, remarque: i.remarque ?? null, montant: i.montant ?? null });

export async function insertMainOeuvre(db: Db, idCampagne: number, input: MainOeuvreInput): Promise<number> {
  const [r] = await db("main_oeuvre")
    .insert({ idCampagne, ...values(input) })
    .returning("id");
  return returnedId(r);
}

/** Writes the row unless it changed since its form was loaded (server/db/stale.ts). */
export async function updateMainOeuvre(db: Db, token: Token, input: MainOeuvreInput): Promise<void> {
  await updateIfUnchanged(db, "main_oeuvre", token, values(input));
}

export async function deleteMainOeuvres(db: Db, idCampagne: number, ids: number[]): Promise<number> {
  return db("main_oeuvre").where({ idCampagne }).whereIn("id", ids).delete();
}

/** The labour reference values in their order (read by position: the norms, spec 2 §4). */
export async function listReferenceValeurs(db: Db): Promise<(number | null)[]> {
  return (await db("reference_valeur").orderBy("ordre").select("valeur")).map((r) => (r.valeur == null ? null : Number(r.valeur)));
}
