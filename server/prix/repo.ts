import { TYPE_INTRANT } from "~/domain/intrant";
import { roundPrix, uniteMajuscule } from "~/domain/prix";
import type { Libelle, PrixApproRow, PrixVenteRow } from "~/domain/contracts/prix";
import { bool, toIso } from "../db/dialect";
import type { Db } from "../db/knex";
import { inChunks } from "../db/chunks";

/**
 * The SQL of the price screens (docs/data-model.md §7). A price row is named by its key `cle` (unique per
 * campaign): the product as the campaign's inputs or harvests name it. `usedAppro` and `usedVente` read those
 * products from the campaign's interventions; the service creates the missing rows (decision 0034).
 */

const num = (v: unknown) => (v == null ? null : Number(v));

// ---------------------------------------------------------------------------------------------
// Keys

/** Label case, accents and spaces do not make another product. */
const fold = (s: string) => s.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().replace(/\s+/g, " ").trim();

export type ApproKey = {
  idOrigineIntrant: number | null;
  idTypeIntrant: number;
  idIntrant: number | null;
  idModalite: number | null;
  traitementSemence: boolean;
  libelleIntrant: string;
  unite: string | null;
};

/** A supply product: origin, type, catalogue id (its label when it has none), modality, seed treatment, unit. */
export const cleAppro = (k: ApproKey) =>
  [
    k.idOrigineIntrant ?? "",
    k.idTypeIntrant,
    k.idIntrant ?? "",
    k.idIntrant == null ? fold(k.libelleIntrant).slice(0, 255) : "",
    k.idModalite ?? "",
    k.traitementSemence ? 1 : 0,
    k.unite ?? "",
  ].join("|");

export type VenteKey = { idModeConduite: number | null; idCulture: number; idTypeSortie: number; idQualifiantRecolte: number | null };

export const cleVente = (k: VenteKey) => [k.idModeConduite ?? "", k.idCulture, k.idTypeSortie, k.idQualifiantRecolte ?? ""].join("|");

// ---------------------------------------------------------------------------------------------
// Supply prices

export type UsedAppro = ApproKey & { cle: string; libelleIntrantConcat: string };

/**
 * The products the campaign's inputs use, one per key: an input's type is its category's; water's modality is
 * its irrigation method; a seed treatment is its own product (it is priced apart from the seed).
 */
export async function usedAppro(db: Db, idCampagne: number): Promise<UsedAppro[]> {
  const rows = await db("intrant as i")
    .join("action as a", "a.id", "i.idAction")
    .join("categorie_intrant as c", "c.id", "i.idCategorie")
    .where("a.idCampagne", idCampagne)
    .orderBy("i.id")
    .select(
      "i.dicIdOrigineIntrant",
      "c.idTypeIntrant",
      "i.idIntrant",
      "i.idCategorie",
      "c.libelle as categorie",
      "i.idIntrantSemence",
      "i.libelleIntrant",
      "i.dicLlUnite",
    );
  const out = new Map<string, UsedAppro>();
  for (const r of rows) {
    const type = Number(r.idTypeIntrant);
    const traitementSemence = r.idIntrantSemence != null;
    const eau = type === TYPE_INTRANT.EAU;
    const key: ApproKey = {
      idOrigineIntrant: num(r.dicIdOrigineIntrant),
      idTypeIntrant: type,
      idIntrant: num(r.idIntrant),
      idModalite: eau ? Number(r.idCategorie) : null,
      traitementSemence,
      libelleIntrant: String(r.libelleIntrant),
      unite: uniteMajuscule(r.dicLlUnite as string | null),
    };
    const cle = cleAppro(key);
    if (out.has(cle)) continue;
    const details = [eau ? String(r.categorie) : null, traitementSemence ? "traitement de semences" : null].filter(Boolean);
    out.set(cle, { ...key, cle, libelleIntrantConcat: details.length ? `${key.libelleIntrant} (${details.join(", ")})` : key.libelleIntrant });
  }
  return [...out.values()];
}

const APPRO_COLUMNS = [
  "id",
  "updatedAt",
  "cle",
  "idOrigineIntrant",
  "idTypeIntrant",
  "idIntrant",
  "idModalite",
  "traitementSemence",
  "libelleIntrant",
  "libelleIntrantConcat",
  "prixAchat",
  "unite",
];

export type StoredAppro = Omit<PrixApproRow, "utilise" | "fioul"> & { cle: string };

const toAppro = (r: Record<string, unknown>): StoredAppro => ({
  id: Number(r.id),
  updatedAt: toIso(r.updatedAt),
  cle: String(r.cle),
  idOrigineIntrant: num(r.idOrigineIntrant),
  idTypeIntrant: num(r.idTypeIntrant),
  idIntrant: num(r.idIntrant),
  idModalite: num(r.idModalite),
  traitementSemence: bool(r.traitementSemence),
  libelleIntrant: String(r.libelleIntrant),
  libelleIntrantConcat: String(r.libelleIntrantConcat ?? r.libelleIntrant),
  prixAchat: r.prixAchat == null ? null : roundPrix(Number(r.prixAchat)),
  unite: (r.unite as string | null) ?? null,
});

export async function listAppro(db: Db, idCampagne: number): Promise<StoredAppro[]> {
  const rows = await db("prix_appro")
    .where({ idCampagne })
    .orderBy([{ column: "idTypeIntrant" }, { column: "libelleIntrantConcat" }, { column: "id" }])
    .select(APPRO_COLUMNS);
  return rows.map(toAppro);
}

/** Creates the rows of products used and not stored yet, without a price; a row created meanwhile is left as it is. */
export async function insertAppro(db: Db, idCampagne: number, products: UsedAppro[]): Promise<void> {
  for (const chunk of inChunks(products)) {
    const rows = chunk.map(
      ({ cle, idOrigineIntrant, idTypeIntrant, idIntrant, idModalite, traitementSemence, libelleIntrant, libelleIntrantConcat, unite }) => ({
        idCampagne,
        cle,
        idOrigineIntrant,
        idTypeIntrant,
        idIntrant,
        idModalite,
        traitementSemence,
        libelleIntrant,
        libelleIntrantConcat,
        unite,
      }),
    );
    await db("prix_appro").insert(rows).onConflict(["idCampagne", "cle"]).ignore();
  }
}

export async function findAppro(db: Db, id: number): Promise<(StoredAppro & { idCampagne: number }) | undefined> {
  const r = await db("prix_appro")
    .where({ id })
    .first([...APPRO_COLUMNS, "idCampagne"]);
  return r ? { ...toAppro(r), idCampagne: Number(r.idCampagne) } : undefined;
}

/** Deletes the rows of a table of the campaign whose key is not in `used`; answers how many. */
export async function deleteUnused(db: Db, table: "prix_appro" | "prix_vente", idCampagne: number, used: ReadonlySet<string>): Promise<number> {
  const rows = await db(table).where({ idCampagne }).select("id", "cle");
  const ids = rows.filter((r) => !used.has(String(r.cle))).map((r) => Number(r.id));
  for (const chunk of inChunks(ids)) await db(table).where({ idCampagne }).whereIn("id", chunk).delete();
  return ids.length;
}

export async function typesIntrant(db: Db): Promise<Libelle[]> {
  const rows = await db("type_intrant")
    .orderBy([{ column: "ordre" }, { column: "id" }])
    .select("id", "libelle", "libelleEn");
  return rows.map((r) => ({ id: Number(r.id), libelle: String(r.libelle), libelleEn: (r.libelleEn as string | null) ?? null }));
}

// ---------------------------------------------------------------------------------------------
// Fuel price: the campaign's economic characteristics

export async function findFuel(db: Db, idCampagne: number): Promise<{ id: number; prixFioul: number | null; updatedAt: string } | undefined> {
  const r = await db("caracteristique").where({ idCampagne }).first("id", "prixFioul", "updatedAt");
  return r ? { id: Number(r.id), prixFioul: r.prixFioul == null ? null : roundPrix(Number(r.prixFioul)), updatedAt: toIso(r.updatedAt) } : undefined;
}

// ---------------------------------------------------------------------------------------------
// Proposed prices

/** The farms whose campaigns the user reads: folder reading (or more) and the folder's link reading (or more). */
export function readableFarms(db: Db, idUser: number) {
  return db("dossier_exploitation as de")
    .join("utilisateur_dossier as ud", "ud.idDossier", "de.idDossier")
    .where("ud.idUser", idUser)
    .where((q) => q.where("ud.udoLecture", true).orWhere("ud.udoEcriture", true).orWhere("ud.udoAnimation", true))
    .where((q) => q.where("de.dexLecture", true).orWhere("de.dexEcriture", true).orWhere("de.dexAnimation", true))
    .distinct("de.idExploitation");
}

/**
 * The purchase prices of one product (its key) in the other non-simulation campaigns of the readable farms, with
 * each campaign's harvest year (docs/indicators.md "Proposed prices").
 */
export async function pricesOfProduct(
  db: Db,
  cle: string,
  options: { idUser: number; exceptCampagne: number },
): Promise<{ prix: number; anneeRecolte: number }[]> {
  const rows = await db("prix_appro as p")
    .join("campagne as c", "c.id", "p.idCampagne")
    .where("p.cle", cle)
    .whereNotNull("p.prixAchat")
    .whereNot("p.idCampagne", options.exceptCampagne)
    .where("c.simulation", false)
    .whereIn("c.idExploitation", readableFarms(db, options.idUser))
    .select("p.prixAchat", "c.anneeRecolte");
  return rows.map((r) => ({ prix: roundPrix(Number(r.prixAchat)), anneeRecolte: Number(r.anneeRecolte) }));
}

/** The latest reference-source price of a phyto product (prix_phytcom), if any. */
export async function referencePrice(db: Db, idIntrantPhyto: number) {
  const r = await db("prix_phytcom")
    .where({ idIntrantPhyto })
    .whereNotNull("prixPhytcom")
    .orderBy([
      { column: "datePhytcom", order: "desc", nulls: "last" },
      { column: "id", order: "desc" },
    ])
    .first("prixPhytcom", "unite", "datePhytcom", "libelle", "source");
  if (!r) return null;
  const date = r.datePhytcom == null ? null : r.datePhytcom instanceof Date ? r.datePhytcom.toISOString().slice(0, 10) : String(r.datePhytcom).slice(0, 10);
  return {
    prixPhytcom: Number(r.prixPhytcom),
    unite: (r.unite as string | null) ?? null,
    datePhytcom: date,
    libelle: (r.libelle as string | null) ?? null,
    source: (r.source as string | null) ?? null,
  };
}

// ---------------------------------------------------------------------------------------------
// Sale prices

export type UsedVente = VenteKey & { cle: string };

/** The outputs the campaign's harvests give, per management mode of the harvested plot. */
export async function usedVente(db: Db, idCampagne: number): Promise<UsedVente[]> {
  const rows = await db("recolte as r")
    .join("action as a", "a.id", "r.idAction")
    .join("parcelle as p", "p.id", "a.idParcelle")
    .where("a.idCampagne", idCampagne)
    .orderBy("r.id")
    .select("p.idModeConduite", "r.idCulture", "r.dicIdTypeSortie", "r.idQualifiantRecolte");
  const out = new Map<string, UsedVente>();
  for (const r of rows) {
    const key: VenteKey = {
      idModeConduite: num(r.idModeConduite),
      idCulture: Number(r.idCulture),
      idTypeSortie: Number(r.dicIdTypeSortie),
      idQualifiantRecolte: num(r.idQualifiantRecolte),
    };
    const cle = cleVente(key);
    if (!out.has(cle)) out.set(cle, { ...key, cle });
  }
  return [...out.values()];
}

export type StoredVente = Omit<PrixVenteRow, "utilise"> & { cle: string };

export async function listVente(db: Db, idCampagne: number): Promise<StoredVente[]> {
  const rows = await db("prix_vente")
    .where({ idCampagne })
    .orderBy("id")
    .select("id", "updatedAt", "cle", "idModeConduite", "idCulture", "idTypeSortie", "idQualifiantRecolte", "prixVente");
  return rows.map((r) => ({
    id: Number(r.id),
    updatedAt: toIso(r.updatedAt),
    cle: String(r.cle),
    idModeConduite: num(r.idModeConduite),
    idCulture: Number(r.idCulture),
    idTypeSortie: Number(r.idTypeSortie),
    idQualifiantRecolte: num(r.idQualifiantRecolte),
    prixVente: r.prixVente == null ? null : roundPrix(Number(r.prixVente)),
  }));
}

export async function insertVente(db: Db, idCampagne: number, products: UsedVente[]): Promise<void> {
  for (const chunk of inChunks(products)) {
    await db("prix_vente")
      .insert(chunk.map((p) => ({ idCampagne, ...p })))
      .onConflict(["idCampagne", "cle"])
      .ignore();
  }
}

const libelles = (rows: Record<string, unknown>[]): Libelle[] =>
  rows.map((r) => ({ id: Number(r.id), libelle: String(r.libelle), libelleEn: (r.libelleEn as string | null) ?? null }));

/** The names the sale-price rows show: the campaign's modes, the crops and output types they name, the qualifiers. */
export async function venteLabels(
  db: Db,
  idCampagne: number,
  rows: readonly { idCulture: number; idTypeSortie: number; idQualifiantRecolte: number | null }[],
) {
  const modes = libelles(
    await db("mode_conduite")
      .where({ idCampagne })
      .orderBy([{ column: "libelle" }, { column: "id" }])
      .select("id", "libelle", db.raw("null as libelle_en")),
  );
  const cultures = libelles(
    await db("culture")
      .whereIn("id", [...new Set(rows.map((r) => r.idCulture))])
      .orderBy("libelle")
      .select("id", "libelle", "libelleEn"),
  );
  const typesSortie = libelles(
    await db("type_sortie")
      .whereIn("id", [...new Set(rows.map((r) => r.idTypeSortie))])
      .orderBy("ordre")
      .select("id", "libelle", "libelleEn"),
  );
  const ids = [...new Set(rows.map((r) => r.idQualifiantRecolte).filter((id): id is number => id != null))];
  // Harvest qualifiers are a folder's (migration 0011): shown by name.
  const qualifiants = ids.length
    ? libelles(await db("qualifiant_recolte").whereIn("id", ids).select("id", "qrdNom as libelle", db.raw("null as libelle_en")))
    : [];
  return { modes, cultures, typesSortie, qualifiants };
}

/** Creates the campaign's characteristics row with its fuel price and the price year (a campaign without that row yet). */
export async function insertFuelRow(db: Db, idCampagne: number, prixFioul: number | null, anneeprix: number | null): Promise<void> {
  await db("caracteristique").insert({ idCampagne, prixFioul, anneeprix });
}
