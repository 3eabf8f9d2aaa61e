import type { RecoltePlot } from "~/domain/calc/assurance";
import type { AssuranceInput, ModeConduiteCultureInput, ModeConduiteInput } from "~/domain/mode-conduite";
import { bool, toIso } from "../db/dialect";
import type { Db } from "../db/knex";
import { updateIfUnchanged, type Token } from "../db/stale";
import { insertId } from "../db/insert-id";

const num = (v: unknown): number | null => (v == null ? null : Number(v));

// ---- Reference lists (crops, categories, qualifiers, output types, Competilis categories)

export type CultureRef = {
  id: number;
  libelle: string;
  libelleEn: string | null;
  famille: string | null;
  idCatCulture: number | null;
  interculture: boolean;
  ordre: number;
};
export type CategorieCulture = { id: number; code: string; libelle: string; libelleEn: string | null };
export type Libelle = { id: number; libelle: string; libelleEn: string | null };
export type TypeSortie = Libelle & { unite: string };

export async function listCultures(db: Db): Promise<CultureRef[]> {
  const rows = await db("culture")
    .orderBy([{ column: "ordre" }, { column: "libelle" }])
    .select("id", "libelle", "libelleEn", "famille", "idCatCulture", "interculture", "ordre");
  return rows.map((r) => ({
    id: Number(r.id),
    libelle: r.libelle,
    libelleEn: r.libelleEn ?? null,
    famille: r.famille ?? null,
    idCatCulture: num(r.idCatCulture),
    interculture: bool(r.interculture),
    ordre: Number(r.ordre),
  }));
}

export async function listCategoriesCulture(db: Db): Promise<CategorieCulture[]> {
  const rows = await db("categorie_culture").orderBy("ordre").select("id", "code", "libelle", "libelleEn");
  return rows.map((r) => ({ id: Number(r.id), code: r.code, libelle: r.libelle, libelleEn: r.libelleEn ?? null }));
}

export async function listCategoriesCompetilis(db: Db): Promise<Libelle[]> {
  const rows = await db("categorie_competilis").orderBy("ordre").select("id", "libelle", "libelleEn");
  return rows.map((r) => ({ id: Number(r.id), libelle: r.libelle, libelleEn: r.libelleEn ?? null }));
}

/** cultures/{id}/qualifiants (B-CROP-04). */
const exists = async (db: Db, table: string, id: number) => !!(await db(table).where({ id }).first("id"));
export const cultureExists = (db: Db, id: number) => exists(db, "culture", id);
export const categorieCultureExists = (db: Db, id: number) => exists(db, "categorie_culture", id);
export const categorieCompetilisExists = (db: Db, id: number) => exists(db, "categorie_competilis", id);

export async function listQualifiants(db: Db, idCulture: number): Promise<Libelle[]> {
  const rows = await db("qualifiant_culture")
    .where({ idCulture })
    .orderBy([{ column: "ordre" }, { column: "id" }])
    .select("id", "libelle", "libelleEn");
  return rows.map((r) => ({ id: Number(r.id), libelle: r.libelle, libelleEn: r.libelleEn ?? null }));
}

/** types_sorties of a crop (B-INS-03). */
export async function listTypesSortie(db: Db, idCulture: number): Promise<TypeSortie[]> {
  const rows = await db("culture_type_sortie as cts")
    .join("type_sortie as ts", "ts.id", "cts.idTypeSortie")
    .where("cts.idCulture", idCulture)
    .orderBy([{ column: "ts.ordre" }, { column: "ts.id" }])
    .select("ts.id", "ts.libelle", "ts.libelleEn", "ts.unite");
  return rows.map((r) => ({ id: Number(r.id), libelle: r.libelle, libelleEn: r.libelleEn ?? null, unite: r.unite }));
}

export async function findTypeSortie(db: Db, id: number): Promise<TypeSortie | undefined> {
  const r = await db("type_sortie").where({ id }).first("id", "libelle", "libelleEn", "unite");
  return r ? { id: Number(r.id), libelle: r.libelle, libelleEn: r.libelleEn ?? null, unite: r.unite } : undefined;
}

// ---- Modes, rows, insurance

export type ModeConduiteCultureRow = { id: number; idCulture: number; idCatCulture: number | null; idQualifiant: number | null; ordre: number };
export type AssuranceRow = {
  id: number;
  idCulture: number | null;
  idTypeSortie: number | null;
  mtCotisationAssurance: number | null;
  mtIndemniteSaisie: number | null;
  mtIndemniteCalculee: number | null;
  rendementAssure: number | null;
  mtPrixAssure: number | null;
  rendementReelMoyen: number | null;
  txFranchise: number | null;
  rendementNonIndemnisable: number | null;
};
export type ModeConduiteRow = {
  id: number;
  idCampagne: number;
  libelle: string;
  aideCouplee: number | null;
  dicIdCatCompetilis: number | null;
  remarque: string | null;
  updatedAt: string;
};

const modeColumns = ["id", "idCampagne", "libelle", "aideCouplee", "dicIdCatCompetilis", "remarque", "updatedAt"];
const fromMode = (r: Record<string, unknown>): ModeConduiteRow => ({
  id: Number(r.id),
  idCampagne: Number(r.idCampagne),
  libelle: String(r.libelle),
  aideCouplee: num(r.aideCouplee),
  dicIdCatCompetilis: num(r.dicIdCatCompetilis),
  remarque: (r.remarque as string | null) ?? null,
  updatedAt: toIso(r.updatedAt),
});

/** Newest first: a created mode comes at the top of the list (spec 2 §2). */
export async function listModes(db: Db, idCampagne: number): Promise<ModeConduiteRow[]> {
  return (await db("mode_conduite").where({ idCampagne }).orderBy("id", "desc").select(modeColumns)).map(fromMode);
}

export async function listModesByIds(db: Db, idCampagne: number, ids: number[]): Promise<ModeConduiteRow[]> {
  return (await db("mode_conduite").where({ idCampagne }).whereIn("id", ids).orderBy("id").select(modeColumns)).map(fromMode);
}

export async function findMode(db: Db, id: number): Promise<ModeConduiteRow | undefined> {
  const r = await db("mode_conduite").where({ id }).first(modeColumns);
  return r ? fromMode(r) : undefined;
}

const modeValues = (i: ModeConduiteInput) => ({
  libelle: i.libelle,
  aideCouplee: i.aideCouplee ?? null,
  dicIdCatCompetilis: i.dicIdCatCompetilis ?? null,
  remarque: i.remarque ?? null,
});

export async function insertMode(db: Db, idCampagne: number, input: ModeConduiteInput): Promise<number> {
  return insertId(db, "mode_conduite", { idCampagne, ...modeValues(input) });
}

/** Writes the row unless it changed since its form was loaded (server/db/stale.ts). */
export async function updateMode(db: Db, token: Token, input: ModeConduiteInput): Promise<void> {
  await updateIfUnchanged(db, "mode_conduite", token, modeValues(input));
}

/** Marks the mode changed (its insurance was saved or deleted), so that an older form's save is refused as stale. */
export async function touchMode(db: Db, id: number): Promise<void> {
  await db("mode_conduite").where({ id }).update({ updatedAt: new Date() });
}

export async function deleteModes(db: Db, idCampagne: number, ids: number[]): Promise<number> {
  return db("mode_conduite").where({ idCampagne }).whereIn("id", ids).delete();
}

/** mode_conduites/{id}/mode_conduite_cultures (B-CROP-10), for several modes at once, in row order. */
export async function listCulturesOfModes(db: Db, ids: number[]): Promise<Map<number, ModeConduiteCultureRow[]>> {
  const out = new Map<number, ModeConduiteCultureRow[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return out;
  const rows = await db("mode_conduite_culture")
    .whereIn("idModeConduite", ids)
    .orderBy([{ column: "ordre" }, { column: "id" }])
    .select("id", "idModeConduite", "idCulture", "idCatCulture", "idQualifiant", "ordre");
  for (const r of rows) {
    out.get(Number(r.idModeConduite))?.push({
      id: Number(r.id),
      idCulture: Number(r.idCulture),
      idCatCulture: num(r.idCatCulture),
      idQualifiant: num(r.idQualifiant),
      ordre: Number(r.ordre),
    });
  }
  return out;
}

const cultureValues = (row: ModeConduiteCultureInput, ordre: number) => ({
  idCulture: row.idCulture,
  idCatCulture: row.idCatCulture ?? null,
  idQualifiant: row.idQualifiant ?? null,
  ordre,
});

export async function insertModeCulture(db: Db, idModeConduite: number, row: ModeConduiteCultureInput, ordre: number): Promise<number> {
  return insertId(db, "mode_conduite_culture", { idModeConduite, ...cultureValues(row, ordre) });
}

/** Updates a row of this mode; 0 when the row is not one of the mode's. */
export async function updateModeCulture(db: Db, idModeConduite: number, row: ModeConduiteCultureInput & { id: number }, ordre: number): Promise<number> {
  return db("mode_conduite_culture")
    .where({ id: row.id, idModeConduite })
    .update({ ...cultureValues(row, ordre), updatedAt: new Date() });
}

export async function deleteModeCultures(db: Db, idModeConduite: number, ids: number[]): Promise<number> {
  if (ids.length === 0) return 0;
  return db("mode_conduite_culture").where({ idModeConduite }).whereIn("id", ids).delete();
}

/** One crop row with its mode's campaign and its updatedAt (the API's mode_conduite_cultures/{id}); undefined when there is none. */
export async function findModeCulture(
  db: Db,
  id: number,
): Promise<(ModeConduiteCultureRow & { idModeConduite: number; idCampagne: number; updatedAt: string }) | undefined> {
  const r = await db("mode_conduite_culture as r")
    .join("mode_conduite as m", "m.id", "r.idModeConduite")
    .where("r.id", id)
    .first("r.id", "r.idModeConduite", "r.idCulture", "r.idCatCulture", "r.idQualifiant", "r.ordre", "r.updatedAt", "m.idCampagne");
  if (!r) return undefined;
  return {
    id: Number(r.id),
    idModeConduite: Number(r.idModeConduite),
    idCampagne: Number(r.idCampagne),
    idCulture: Number(r.idCulture),
    idCatCulture: num(r.idCatCulture),
    idQualifiant: num(r.idQualifiant),
    ordre: Number(r.ordre),
    updatedAt: toIso(r.updatedAt),
  };
}

/** The updatedAt of a mode's crop rows, by row id (the API sends it back on an update). */
export async function modeCultureStamps(db: Db, idModeConduite: number): Promise<Map<number, string>> {
  const rows = await db("mode_conduite_culture").where({ idModeConduite }).select("id", "updatedAt");
  return new Map(rows.map((r) => [Number(r.id), toIso(r.updatedAt)]));
}

/** The highest `ordre` of a mode's crop rows, -1 when it has none (a row added by the API goes last). */
export async function maxModeCultureOrdre(db: Db, idModeConduite: number): Promise<number> {
  const r = await db("mode_conduite_culture").where({ idModeConduite }).max({ m: "ordre" }).first();
  return r?.m == null ? -1 : Number(r.m);
}

/** Writes a crop row unless it changed since it was read (server/db/stale.ts); the row must be of the mode. */
export async function updateModeCultureIfUnchanged(db: Db, idModeConduite: number, token: Token, row: ModeConduiteCultureInput, ordre: number): Promise<void> {
  await updateIfUnchanged(db, "mode_conduite_culture", token, cultureValues(row, ordre), { scope: { idModeConduite } });
}

const assuranceColumns = [
  "id",
  "idModeConduite",
  "idCulture",
  "idTypeSortie",
  "mtCotisationAssurance",
  "mtIndemniteSaisie",
  "mtIndemniteCalculee",
  "rendementAssure",
  "mtPrixAssure",
  "rendementReelMoyen",
  "txFranchise",
  "rendementNonIndemnisable",
];

export async function listAssurancesOfModes(db: Db, ids: number[]): Promise<Map<number, AssuranceRow>> {
  const out = new Map<number, AssuranceRow>();
  if (ids.length === 0) return out;
  for (const r of await db("mode_conduite_assurance").whereIn("idModeConduite", ids).select(assuranceColumns)) {
    out.set(Number(r.idModeConduite), {
      id: Number(r.id),
      idCulture: num(r.idCulture),
      idTypeSortie: num(r.idTypeSortie),
      mtCotisationAssurance: num(r.mtCotisationAssurance),
      mtIndemniteSaisie: num(r.mtIndemniteSaisie),
      mtIndemniteCalculee: num(r.mtIndemniteCalculee),
      rendementAssure: num(r.rendementAssure),
      mtPrixAssure: num(r.mtPrixAssure),
      rendementReelMoyen: num(r.rendementReelMoyen),
      txFranchise: num(r.txFranchise),
      rendementNonIndemnisable: num(r.rendementNonIndemnisable),
    });
  }
  return out;
}

export type AssuranceValues = AssuranceInput & {
  rendementReelMoyen: number | null;
  rendementNonIndemnisable: number | null;
  mtIndemniteCalculee: number | null;
};

const assuranceValues = (a: AssuranceValues) => ({
  idCulture: a.idCulture ?? null,
  idTypeSortie: a.idTypeSortie ?? null,
  mtCotisationAssurance: a.mtCotisationAssurance ?? null,
  mtIndemniteSaisie: a.mtIndemniteSaisie ?? null,
  rendementAssure: a.rendementAssure ?? null,
  mtPrixAssure: a.mtPrixAssure ?? null,
  txFranchise: a.txFranchise ?? null,
  rendementReelMoyen: a.rendementReelMoyen,
  rendementNonIndemnisable: a.rendementNonIndemnisable,
  mtIndemniteCalculee: a.mtIndemniteCalculee,
});

/** Creates or replaces the mode's insurance (one per mode). */
export async function upsertAssurance(db: Db, idModeConduite: number, a: AssuranceValues): Promise<void> {
  const values = assuranceValues(a);
  const n = await db("mode_conduite_assurance")
    .where({ idModeConduite })
    .update({ ...values, updatedAt: new Date() });
  if (n === 0) await db("mode_conduite_assurance").insert({ idModeConduite, ...values });
}

export async function deleteAssurance(db: Db, idModeConduite: number): Promise<number> {
  return db("mode_conduite_assurance").where({ idModeConduite }).delete();
}

/** One insurance with its mode, the mode's campaign and its updatedAt (the API's mode_conduite_assurances/{id}). */
export async function findAssurance(
  db: Db,
  id: number,
): Promise<(AssuranceRow & { idModeConduite: number; idCampagne: number; updatedAt: string }) | undefined> {
  const r = await db("mode_conduite_assurance as a")
    .join("mode_conduite as m", "m.id", "a.idModeConduite")
    .where("a.id", id)
    .first("a.updatedAt", "m.idCampagne", "a.idModeConduite");
  if (!r) return undefined;
  const row = (await listAssurancesOfModes(db, [Number(r.idModeConduite)])).get(Number(r.idModeConduite))!;
  return { ...row, idModeConduite: Number(r.idModeConduite), idCampagne: Number(r.idCampagne), updatedAt: toIso(r.updatedAt) };
}

/** Writes an insurance unless it changed since it was read. */
export async function updateAssuranceIfUnchanged(db: Db, token: Token, a: AssuranceValues): Promise<void> {
  await updateIfUnchanged(db, "mode_conduite_assurance", token, assuranceValues(a));
}

// ---- Harvests read by the insurance estimate

/**
 * The done harvests of a crop and output type on the farm's campaigns, by campaign harvest year: earlier
 * non-simulation campaigns (year below `anneeRecolte`) and the given current campaign.
 */
export async function listRecoltes(
  db: Db,
  q: { idExploitation: number; idCampagne: number; anneeRecolte: number; idCulture: number; idTypeSortie: number },
): Promise<{ anterieures: Map<number, RecoltePlot[]>; courante: RecoltePlot[] }> {
  const rows = await db("recolte as r")
    .join("action as a", "a.id", "r.idAction")
    .join("parcelle as p", "p.id", "a.idParcelle")
    .join("campagne as c", "c.id", "a.idCampagne")
    .where({ "c.idExploitation": q.idExploitation, "r.idCulture": q.idCulture, "r.dicIdTypeSortie": q.idTypeSortie, "a.realisee": true })
    .whereNotNull("r.rendement")
    .andWhere((w) => w.where("c.id", q.idCampagne).orWhere((o) => o.where("c.simulation", false).andWhere("c.anneeRecolte", "<", q.anneeRecolte)))
    .select("c.id as idCampagne", "c.anneeRecolte", "a.idParcelle", "p.surface", "r.rendement");
  const anterieures = new Map<number, RecoltePlot[]>();
  const courante: RecoltePlot[] = [];
  for (const r of rows) {
    const plot: RecoltePlot = { idParcelle: Number(r.idParcelle), rendement: Number(r.rendement), surface: num(r.surface) };
    if (Number(r.idCampagne) === q.idCampagne) courante.push(plot);
    else {
      const annee = Number(r.anneeRecolte);
      anterieures.set(annee, [...(anterieures.get(annee) ?? []), plot]);
    }
  }
  return { anterieures, courante };
}
