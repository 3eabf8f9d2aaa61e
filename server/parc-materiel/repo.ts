import type { TypePropriete } from "~/domain/calc/materiel";
import type { Db } from "../db/knex";
import { updateIfUnchanged, type Token } from "../db/stale";
import { bool, toIso } from "../db/dialect";
import { returnedId } from "../db/insert-id";

/** A machine of the fleet (spec 2 §3 Machine), as stored; empty values are null. */
export type ParcMaterielRow = {
  id: number;
  idCampagne: number;
  libelle: string;
  noClasse: number;
  noCategorie: number;
  idCategorieMateriel: number;
  idBasemeq: number;
  idenBasemeq: string | null;
  typePropriete: TypePropriete;
  copropriete: number | null;
  poids: number | null;
  puissance: number | null;
  debit: number | null;
  neufOccasion: string | null;
  ageAchat: number | null;
  typePompe: string | null;
  coutEntretienReparation: number | null;
  coutLocation: number | null;
  prixAchat: number | null;
  prixNeuf: number | null;
  utilisationAnnuelle: number | null;
  utilisationAnnuelleCalculeeP: number | null;
  utilisationAnnuelleCalculeeR: number | null;
  usure: number | null;
  obsolescence: number | null;
  dureeAmortissement: number | null;
  tauxRevente: number | null;
  remarque: string | null;
  updatedAt: string;
};

/** The stored values of a machine, without its id, campaign and timestamps. */
export type ParcMaterielValues = Omit<ParcMaterielRow, "id" | "idCampagne" | "updatedAt">;

export const VALUE_COLUMNS = [
  "libelle",
  "noClasse",
  "noCategorie",
  "idCategorieMateriel",
  "idBasemeq",
  "idenBasemeq",
  "typePropriete",
  "copropriete",
  "poids",
  "puissance",
  "debit",
  "neufOccasion",
  "ageAchat",
  "typePompe",
  "coutEntretienReparation",
  "coutLocation",
  "prixAchat",
  "prixNeuf",
  "utilisationAnnuelle",
  "utilisationAnnuelleCalculeeP",
  "utilisationAnnuelleCalculeeR",
  "usure",
  "obsolescence",
  "dureeAmortissement",
  "tauxRevente",
  "remarque",
] as const satisfies readonly (keyof ParcMaterielValues)[];

const columns = ["id", "idCampagne", ...VALUE_COLUMNS, "updatedAt"];

const num = (v: unknown): number | null => (v == null || v === "" ? null : Number(v));
const str = (v: unknown): string | null => (v == null || v === "" ? null : String(v));

function fromRow(r: Record<string, unknown>): ParcMaterielRow {
  return {
    id: Number(r.id),
    idCampagne: Number(r.idCampagne),
    libelle: String(r.libelle),
    noClasse: Number(r.noClasse),
    noCategorie: Number(r.noCategorie),
    idCategorieMateriel: Number(r.idCategorieMateriel),
    idBasemeq: Number(r.idBasemeq),
    idenBasemeq: str(r.idenBasemeq),
    typePropriete: Number(r.typePropriete) as TypePropriete,
    copropriete: num(r.copropriete),
    poids: num(r.poids),
    puissance: num(r.puissance),
    debit: num(r.debit),
    neufOccasion: str(r.neufOccasion),
    ageAchat: num(r.ageAchat),
    typePompe: str(r.typePompe),
    coutEntretienReparation: num(r.coutEntretienReparation),
    coutLocation: num(r.coutLocation),
    prixAchat: num(r.prixAchat),
    prixNeuf: num(r.prixNeuf),
    utilisationAnnuelle: num(r.utilisationAnnuelle),
    utilisationAnnuelleCalculeeP: num(r.utilisationAnnuelleCalculeeP),
    utilisationAnnuelleCalculeeR: num(r.utilisationAnnuelleCalculeeR),
    usure: num(r.usure),
    obsolescence: num(r.obsolescence),
    dureeAmortissement: num(r.dureeAmortissement),
    tauxRevente: num(r.tauxRevente),
    remarque: str(r.remarque),
    updatedAt: toIso(r.updatedAt),
  };
}

/** Newest first: a created machine comes at the top of the list (spec 2 §2). */
export async function listParcMateriels(db: Db, idCampagne: number): Promise<ParcMaterielRow[]> {
  return (await db("parc_materiel").where({ idCampagne }).select(columns).orderBy("id", "desc")).map(fromRow);
}

export async function findParcMateriel(db: Db, id: number): Promise<ParcMaterielRow | undefined> {
  const r = await db("parc_materiel").where({ id }).first(columns);
  return r ? fromRow(r) : undefined;
}

export async function listParcMaterielsByIds(db: Db, idCampagne: number, ids: number[]): Promise<ParcMaterielRow[]> {
  return (await db("parc_materiel").where({ idCampagne }).whereIn("id", ids).select(columns).orderBy("id")).map(fromRow);
}

export async function insertParcMateriel(db: Db, idCampagne: number, values: ParcMaterielValues): Promise<number> {
  const [r] = await db("parc_materiel")
    .insert({ idCampagne, ...values })
    .returning("id");
  return returnedId(r);
}

/** Writes the row unless it changed since its form was loaded (server/db/stale.ts). */
export async function updateParcMateriel(db: Db, token: Token, values: ParcMaterielValues): Promise<void> {
  await updateIfUnchanged(db, "parc_materiel", token, values);
}

export async function deleteParcMateriels(db: Db, idCampagne: number, ids: number[]): Promise<number> {
  return db("parc_materiel").where({ idCampagne }).whereIn("id", ids).delete();
}

// ---- Reference lists (spec 2 §3 Machine category, Machine reference; §7 machinery calls)

export type ClasseMateriel = { id: number; libelle: string; libelleEn: string | null; ordre: number };
export type CategorieMateriel = { id: number; libelle: string; libelleEn: string | null; ordre: number; idClasseMateriel: number };
export type ReferenceMateriel = {
  id: number;
  identifiant: string;
  libelle: string;
  libelleEn: string | null;
  idCategorieMateriel: number;
  archive: boolean;
  prixMoyen: number | null;
  poids: number | null;
  puissance: number | null;
  puissanceUtile: number | null;
  debit: number | null;
  uniteDebit: string;
  utilisationAnnuelle: number | null;
  uniteUtilisation: string;
  reparation: number | null;
  amortissement: number | null;
  vieUsure: number | null;
  vieObsolescence: number | null;
  tauxRevente: number | null;
  anneeprix: number | null;
};

export async function listClasses(db: Db): Promise<ClasseMateriel[]> {
  return (
    await db("classe_materiel")
      .select("id", "libelle", "libelleEn", "ordre")
      .orderBy([{ column: "ordre" }, { column: "id" }])
  ).map((r) => ({ id: Number(r.id), libelle: String(r.libelle), libelleEn: str(r.libelleEn), ordre: Number(r.ordre) }));
}

export async function listCategories(db: Db): Promise<CategorieMateriel[]> {
  return (
    await db("categorie_materiel")
      .select("id", "libelle", "libelleEn", "ordre", "idClasseMateriel")
      .orderBy([{ column: "idClasseMateriel" }, { column: "ordre" }, { column: "id" }])
  ).map((r) => ({
    id: Number(r.id),
    libelle: String(r.libelle),
    libelleEn: str(r.libelleEn),
    ordre: Number(r.ordre),
    idClasseMateriel: Number(r.idClasseMateriel),
  }));
}

export async function findCategorie(db: Db, id: number): Promise<CategorieMateriel | undefined> {
  const r = await db("categorie_materiel").where({ id }).first("id", "libelle", "libelleEn", "ordre", "idClasseMateriel");
  return r
    ? { id: Number(r.id), libelle: String(r.libelle), libelleEn: str(r.libelleEn), ordre: Number(r.ordre), idClasseMateriel: Number(r.idClasseMateriel) }
    : undefined;
}

const referenceColumns = [
  "id",
  "identifiant",
  "libelle",
  "libelleEn",
  "idCategorieMateriel",
  "archive",
  "prixMoyen",
  "poids",
  "puissance",
  "puissanceUtile",
  "debit",
  "uniteDebit",
  "utilisationAnnuelle",
  "uniteUtilisation",
  "reparation",
  "amortissement",
  "vieUsure",
  "vieObsolescence",
  "tauxRevente",
  "anneeprix",
];

function referenceFromRow(r: Record<string, unknown>): ReferenceMateriel {
  return {
    id: Number(r.id),
    identifiant: String(r.identifiant),
    libelle: String(r.libelle),
    libelleEn: str(r.libelleEn),
    idCategorieMateriel: Number(r.idCategorieMateriel),
    archive: bool(r.archive),
    prixMoyen: num(r.prixMoyen),
    poids: num(r.poids),
    puissance: num(r.puissance),
    puissanceUtile: num(r.puissanceUtile),
    debit: num(r.debit),
    uniteDebit: String(r.uniteDebit ?? "ha/h"),
    utilisationAnnuelle: num(r.utilisationAnnuelle),
    uniteUtilisation: String(r.uniteUtilisation ?? "h"),
    reparation: num(r.reparation),
    amortissement: num(r.amortissement),
    vieUsure: num(r.vieUsure),
    vieObsolescence: num(r.vieObsolescence),
    tauxRevente: num(r.tauxRevente),
    anneeprix: num(r.anneeprix),
  };
}

/** The references (characteristics) of some categories, archived ones included (a stored machine may point to one). */
export async function listReferencesOfCategories(db: Db, idCategories: number[]): Promise<ReferenceMateriel[]> {
  if (!idCategories.length) return [];
  return (
    await db("reference_materiel")
      .whereIn("idCategorieMateriel", [...new Set(idCategories)])
      .select(referenceColumns)
      .orderBy([{ column: "libelle" }, { column: "id" }])
  ).map(referenceFromRow);
}

export async function findReference(db: Db, id: number): Promise<ReferenceMateriel | undefined> {
  const r = await db("reference_materiel").where({ id }).first(referenceColumns);
  return r ? referenceFromRow(r) : undefined;
}

/** The campaign's long-term loan rate (its characteristics), null when none is written or the row is missing. */
export async function findLongTermeTaux(db: Db, idCampagne: number): Promise<number | null> {
  const c = await db("caracteristique").where({ idCampagne }).first("longTermeTaux");
  return c?.longTermeTaux == null ? null : Number(c.longTermeTaux);
}
