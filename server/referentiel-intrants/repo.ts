import { ELEMENTS, ORIGINE_INTRANT, TYPE_INTRANT, type Element } from "~/domain/intrant";
import type { Db } from "../db/knex";
import { bool } from "../db/dialect";
import { inChunks } from "../db/chunks";

/**
 * Reading the global input catalogues for the input dialogs (spec 3 §3.4, §7; decision 0029). The folder's
 * unreferenced inputs (intrant_dossier, origin 777) are added to the reference rows, as the spec's API does.
 */

// The codes are the domain's (app/domain/intrant.ts), named here as this module has always read them.
export const ORIGINE_REFERENCE = ORIGINE_INTRANT.REFERENCE;
export const ORIGINE_DOSSIER = ORIGINE_INTRANT.DOSSIER;
export const TYPE_SEMENCE = TYPE_INTRANT.SEMENCE;
export const TYPE_PHYTO = TYPE_INTRANT.PHYTO;
export const TYPE_FERTILISANT = TYPE_INTRANT.FERTILISANT;
export const TYPE_EAU = TYPE_INTRANT.EAU;
export const TYPE_AUTRE = TYPE_INTRANT.AUTRE;
export { ELEMENTS };
export type Composition = Record<Element, number | null>;

const num = (v: unknown) => (v == null ? null : Number(v));
const str = (v: unknown) => (v == null ? null : String(v));
const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A plant-protection product (C-PHYTO-15), reference (776) or folder input (777, idSource 777). */
export type PhytoRef = {
  idProduit: number;
  idSource: number;
  /** The spec's key `idProduit-idSource` (matiere_actives/{key}). */
  cle: string;
  nomProduit: string;
  ammProduit: string | null;
  typeProduit: string | null;
  source: string | null;
  biocontrole: boolean;
  remarque: string | null;
  idDossier: number | null;
  dicIdTypeIntrant: number | null;
  codeTypeIntrant: string | null;
  origine: number;
  retire: boolean;
};

/** The columns of a reference phyto product read for a choice or an importer, and the row they make. */
const PHYTO_REF_COLUMNS = [
  "idProduit",
  "idSource",
  "nomProduit",
  "ammProduit",
  "typeProduit",
  "source",
  "biocontrole",
  "remarque",
  "dicIdTypeIntrant",
  "codeTypeIntrant",
  "retire",
];
const phytoDeReference = (r: Record<string, unknown>): PhytoRef => ({
  idProduit: Number(r.idProduit),
  idSource: Number(r.idSource),
  cle: `${r.idProduit}-${r.idSource}`,
  nomProduit: String(r.nomProduit),
  ammProduit: str(r.ammProduit),
  typeProduit: str(r.typeProduit),
  source: str(r.source),
  biocontrole: bool(r.biocontrole),
  remarque: str(r.remarque),
  idDossier: null,
  dicIdTypeIntrant: num(r.dicIdTypeIntrant),
  codeTypeIntrant: str(r.codeTypeIntrant),
  origine: ORIGINE_REFERENCE,
  retire: bool(r.retire),
});

export async function searchPhytos(db: Db, opts: { q?: string; idDossier?: number | null; limit?: number; inclureRetires?: boolean }): Promise<PhytoRef[]> {
  const limit = Math.min(Math.max(opts.limit ?? 50, 1), 500);
  const q = (opts.q ?? "").trim().toLowerCase();
  const pattern = `%${escapeLike(q)}%`;
  const dossier: PhytoRef[] = [];
  if (opts.idDossier != null) {
    const query = db("intrant_dossier").where({ idDossier: opts.idDossier, dicIdTypeIntrant: TYPE_PHYTO });
    if (q) query.where((w) => w.whereRaw("lower(libelle) like ? escape '\\'", [pattern]).orWhereRaw("code like ? escape '\\'", [`${escapeLike(q)}%`]));
    for (const r of await query.orderBy("libelle").limit(limit).select("id", "libelle", "code", "remarque", "biocontrole", "idDossier")) {
      dossier.push({
        idProduit: Number(r.id),
        idSource: ORIGINE_DOSSIER,
        cle: `${r.id}-${ORIGINE_DOSSIER}`,
        nomProduit: String(r.libelle),
        ammProduit: str(r.code),
        typeProduit: null,
        source: null,
        biocontrole: bool(r.biocontrole),
        remarque: str(r.remarque),
        idDossier: Number(r.idDossier),
        dicIdTypeIntrant: null,
        codeTypeIntrant: null,
        origine: ORIGINE_DOSSIER,
        retire: false,
      });
    }
  }
  const query = db("intrant_phyto");
  if (q)
    query.where((w) =>
      w
        .whereRaw("lower(nom_produit) like ? escape '\\'", [pattern])
        .orWhereRaw("amm_produit like ? escape '\\'", [`${escapeLike(q)}%`])
        .orWhereRaw("lower(seconds_noms) like ? escape '\\'", [pattern]),
    );
  if (!opts.inclureRetires) query.where({ retire: false });
  const rows = await query
    .orderBy([{ column: "retire" }, { column: "nomProduit" }])
    .limit(limit)
    .select(...PHYTO_REF_COLUMNS);
  const reference: PhytoRef[] = rows.map(phytoDeReference);
  return [...dossier, ...reference];
}

/** The products of these AMM numbers (withdrawn ones included), by AMM: for importers (Daplos VI lines carry the AMM) and saved inputs. */
export async function phytosParAmm(db: Db, amms: string[]): Promise<Map<string, PhytoRef>> {
  const out = new Map<string, PhytoRef>();
  const wanted = [...new Set(amms.map((a) => a.trim()).filter(Boolean))];
  for (const chunk of inChunks(wanted)) {
    const rows = await db("intrant_phyto")
      .whereIn("ammProduit", chunk)
      .orderBy([{ column: "retire" }, { column: "idSource" }])
      .select(...PHYTO_REF_COLUMNS);
    for (const r of rows) {
      if (out.has(String(r.ammProduit))) continue;
      out.set(String(r.ammProduit), phytoDeReference(r));
    }
  }
  return out;
}

/** The active matter of a product (C-PHYTO-16), read by `idProduit-idSource`. */
export type MatiereActive = {
  id: number;
  quantite: number | null;
  unite: string | null;
  composition: Array<{ libelle: string; quantite: number | null; unite: string | null; famille: string | null }>;
};

export async function getMatiereActive(db: Db, cle: string, idDossier?: number | null): Promise<MatiereActive | null> {
  const m = /^(\d+)-(\d+)$/.exec(cle.trim());
  if (!m) return null;
  const [idProduit, idSource] = [Number(m[1]), Number(m[2])];
  if (idSource === ORIGINE_DOSSIER) {
    // A folder input holds one content and its unit (matiereActive, uniteMatActive), no composition.
    const query = db("intrant_dossier").where({ id: idProduit, dicIdTypeIntrant: TYPE_PHYTO });
    if (idDossier != null) query.where({ idDossier });
    const r = await query.first("id", "libelle", "matiereActive", "uniteMatActive");
    if (!r) return null;
    return { id: Number(r.id), quantite: num(r.matiereActive), unite: str(r.uniteMatActive), composition: [] };
  }
  const row = await db("matiere_active as m")
    .join("intrant_phyto as p", "p.id", "m.id_intrant_phyto")
    .where({ "p.id_produit": idProduit, "p.id_source": idSource })
    .first("m.id", "m.quantite", "m.unite");
  if (!row) return null;
  const composition = await db("matiere_active_composition")
    .where({ idMatiereActive: row.id })
    .orderBy("rang")
    .select("libelle", "quantite", "unite", "famille");
  return {
    id: Number(row.id),
    quantite: num(row.quantite),
    unite: str(row.unite),
    composition: composition.map((c: Record<string, unknown>) => ({
      libelle: String(c.libelle),
      quantite: num(c.quantite),
      unite: str(c.unite),
      famille: str(c.famille),
    })),
  };
}

/** A reference dose per target (C-PHYTO-17). */
export type DoseReference = {
  id: number;
  codeAmm: string;
  idCulture: number | null;
  anneeRecolte: number;
  idCible: number | null;
  cible: string | null;
  biocontrole: boolean;
  doseRef: number | null;
  idUniteDoseRef: number | null;
  uniteDoseRef: string | null;
};

export type DosesReference = {
  /** The harvest year whose list was used: the one asked for, else the latest earlier one, else the earliest later one. */
  anneeRecolte: number | null;
  doses: DoseReference[];
  /** For each target asked for (or each target of the list), whether it has a reference dose. */
  exists: Record<number, boolean>;
  /** The dose at the crop level: the list's own crop-level row, else the smallest target dose (IFT method). */
  doseCulture: DoseReference | null;
};

export async function getDosesReference(
  db: Db,
  opts: { codeAmm: string; idCulture: number; anneeRecolte: number; idCibles?: number[] },
): Promise<DosesReference> {
  const base = () => db("reference_dose_cible_ift").where({ codeAmm: opts.codeAmm, idCulture: opts.idCulture });
  const years = (await base().distinct("anneeRecolte")).map((r: { anneeRecolte: number }) => Number(r.anneeRecolte)).sort((a, b) => a - b);
  const earlier = years.filter((y) => y <= opts.anneeRecolte);
  const annee = earlier.length ? earlier[earlier.length - 1] : (years[0] ?? null);
  const rows =
    annee == null
      ? []
      : await base()
          .where({ anneeRecolte: annee })
          .orderBy([{ column: "cible" }, { column: "id" }])
          .select("*");
  const doses: DoseReference[] = rows.map((r: Record<string, unknown>) => ({
    id: Number(r.id),
    codeAmm: String(r.codeAmm),
    idCulture: num(r.idCulture),
    anneeRecolte: Number(r.anneeRecolte),
    idCible: num(r.idCible),
    cible: str(r.cible),
    biocontrole: bool(r.biocontrole),
    doseRef: num(r.doseRef),
    idUniteDoseRef: num(r.idUniteDoseRef),
    uniteDoseRef: str(r.uniteDoseRef),
  }));
  const withTarget = doses.filter((d) => d.idCible != null);
  const ids = opts.idCibles ?? withTarget.map((d) => d.idCible!);
  const exists = Object.fromEntries(ids.map((id) => [id, withTarget.some((d) => d.idCible === id)]));
  const crop = doses.find((d) => d.idCible == null) ?? null;
  const smallest = withTarget.filter((d) => d.doseRef != null).sort((a, b) => a.doseRef! - b.doseRef!)[0] ?? null;
  return { anneeRecolte: annee, doses, exists, doseCulture: crop ?? smallest };
}

/** A reference fertiliser (C-FERT-19), or a folder fertiliser (origin 777) with its composition. */
export type FertilisantRef = Composition & {
  id: number;
  libelle: string;
  idTypeFertilisant: number | null;
  idDossier: number | null;
  codeEges: string | null;
  origine: number;
  source: string | null;
  confiance: string | null;
};

export async function listFertilisants(db: Db, opts: { idTypeFertilisant?: number | null; idDossier?: number | null }): Promise<FertilisantRef[]> {
  const query = db("reference_fertilisant");
  if (opts.idTypeFertilisant != null) query.where({ idTypeFertilisant: opts.idTypeFertilisant });
  const reference = (
    await query
      .orderBy([{ column: "ordre" }, { column: "libelle" }])
      .select("id", "libelle", "idTypeFertilisant", "codeEges", "source", "confiance", ...ELEMENTS)
  ).map((r: Record<string, unknown>) => ({
    id: Number(r.id),
    libelle: String(r.libelle),
    idTypeFertilisant: num(r.idTypeFertilisant),
    idDossier: null,
    codeEges: str(r.codeEges),
    origine: ORIGINE_REFERENCE,
    source: str(r.source),
    confiance: str(r.confiance),
    ...(Object.fromEntries(ELEMENTS.map((e) => [e, num(r[e])])) as Composition),
  }));
  if (opts.idDossier == null) return reference;
  const dossier = (
    await db("intrant_dossier as i")
      .leftJoin("fertilisant_compo_dossier as c", "c.id_intrant_dossier", "i.id")
      .where({ "i.id_dossier": opts.idDossier, "i.dic_id_type_intrant": TYPE_FERTILISANT })
      // A folder fertiliser of a given type (decision 0032) is listed under that type; one without, under every type.
      .where((w) => (opts.idTypeFertilisant != null ? w.whereNull("i.id_categorie").orWhere("i.id_categorie", opts.idTypeFertilisant) : w))
      .orderBy("i.libelle")
      .select("i.id", "i.libelle", "i.id_dossier", "i.id_categorie", "c.code_eges", "c.categorie_eges", ...ELEMENTS.map((e) => `c.${e}`))
  ).map((r: Record<string, unknown>) => ({
    id: Number(r.id),
    libelle: String(r.libelle),
    idTypeFertilisant: num(r.idCategorie),
    idDossier: Number(r.idDossier),
    codeEges: str(r.categorieEges) ?? str(r.codeEges),
    origine: ORIGINE_DOSSIER,
    source: null,
    confiance: null,
    ...(Object.fromEntries(ELEMENTS.map((e) => [e, num(r[e])])) as Composition),
  }));
  return [...dossier, ...reference];
}

/** An other-input reference (C-OTHER-06), or a folder input of type 543 (origin 777). */
export type AutreIntrantRef = {
  idIntrantDossier: number;
  intNom: string;
  intCode: string | null;
  intMatActive: number | null;
  intBiocontrole: boolean;
  intRemarque: string | null;
  source: string | null;
  dicIdTypeIntrant: number | null;
  idDossier: number | null;
  origine: number;
};

export async function listAutresIntrants(db: Db, opts: { idDossier?: number | null; dicIdTypeIntrant?: number | null } = {}): Promise<AutreIntrantRef[]> {
  const query = db("reference_autre_intrant");
  if (opts.dicIdTypeIntrant != null) query.where({ dicIdTypeIntrant: opts.dicIdTypeIntrant });
  const reference = (await query.orderBy("intNom").select("*")).map((r: Record<string, unknown>) => ({
    idIntrantDossier: Number(r.id),
    intNom: String(r.intNom),
    intCode: str(r.intCode),
    intMatActive: num(r.intMatActive),
    intBiocontrole: bool(r.intBiocontrole),
    intRemarque: str(r.intRemarque),
    source: str(r.source),
    dicIdTypeIntrant: num(r.dicIdTypeIntrant),
    idDossier: null,
    origine: ORIGINE_REFERENCE,
  }));
  if (opts.idDossier == null) return reference;
  const dossier = (await db("intrant_dossier").where({ idDossier: opts.idDossier, dicIdTypeIntrant: TYPE_AUTRE }).orderBy("libelle").select("*")).map(
    (r: Record<string, unknown>) => ({
      idIntrantDossier: Number(r.id),
      intNom: String(r.libelle),
      intCode: str(r.code),
      intMatActive: num(r.matiereActive),
      intBiocontrole: bool(r.biocontrole),
      intRemarque: str(r.remarque),
      source: null,
      dicIdTypeIntrant: TYPE_AUTRE,
      idDossier: Number(r.idDossier),
      origine: ORIGINE_DOSSIER,
    }),
  );
  return [...dossier, ...reference];
}

/** A seed reference (C-SEED-24): a variety of the species (776) or a seed input of the folder (777). */
export type SemenceRef = {
  id: number;
  libelle: string;
  idCulture: number | null;
  idLocal: string | null;
  idDossier: number | null;
  idOriginIntrant: number;
  codeGnis: string | null;
  commentaire: string | null;
};

export async function listSemences(db: Db, opts: { idCulture: number; idDossier?: number | null; origine?: number | null }): Promise<SemenceRef[]> {
  const out: SemenceRef[] = [];
  if (opts.origine == null || opts.origine === ORIGINE_DOSSIER) {
    if (opts.idDossier != null) {
      // A folder seed of a species (decision 0032) is offered for that species; one without, for every species.
      const seeds = db("intrant_dossier")
        .where({ idDossier: opts.idDossier, dicIdTypeIntrant: TYPE_SEMENCE })
        .where((w) => w.whereNull("idCulture").orWhere("idCulture", opts.idCulture));
      for (const r of await seeds.orderBy("libelle").select("id", "libelle", "code", "remarque", "idDossier", "idCulture")) {
        out.push({
          id: Number(r.id),
          libelle: String(r.libelle),
          idCulture: num(r.idCulture),
          idLocal: null,
          idDossier: Number(r.idDossier),
          idOriginIntrant: ORIGINE_DOSSIER,
          codeGnis: str(r.code),
          commentaire: str(r.remarque),
        });
      }
    }
  }
  if (opts.origine == null || opts.origine === ORIGINE_REFERENCE) {
    for (const r of await db("reference_semence").where({ idCulture: opts.idCulture }).orderBy("libelle").select("*")) {
      out.push({
        id: Number(r.id),
        libelle: String(r.libelle),
        idCulture: Number(r.idCulture),
        idLocal: str(r.idLocal),
        idDossier: null,
        idOriginIntrant: Number(r.idOriginIntrant),
        codeGnis: str(r.codeGnis),
        commentaire: str(r.commentaire),
      });
    }
  }
  return out;
}

/** A folder's own seed varieties (origin 777) of every species, by name (reference_semences_{product}_dossiers). */
export async function listSemencesDuDossier(db: Db, idDossier: number): Promise<SemenceRef[]> {
  return (
    await db("intrant_dossier")
      .where({ idDossier, dicIdTypeIntrant: TYPE_SEMENCE })
      .orderBy([{ column: "libelle" }, { column: "id" }])
      .select("id", "libelle", "code", "remarque", "idDossier", "idCulture")
  ).map((r) => ({
    id: Number(r.id),
    libelle: String(r.libelle),
    idCulture: num(r.idCulture),
    idLocal: null,
    idDossier: Number(r.idDossier),
    idOriginIntrant: ORIGINE_DOSSIER,
    codeGnis: str(r.code),
    commentaire: str(r.remarque),
  }));
}

export type SemenceCulture = { id: number; libelle: string; culPmg: number | null; culGrainDose: number | null };

/** The species' thousand-grain weight and seeds per dose, used by the seed conversion (C-SEED-25). */
export async function getCultureSemence(db: Db, idCulture: number): Promise<SemenceCulture | null> {
  const r = await db("culture").where({ id: idCulture }).first("id", "libelle", "culPmg", "culGrainDose");
  return r ? { id: Number(r.id), libelle: String(r.libelle), culPmg: num(r.culPmg), culGrainDose: num(r.culGrainDose) } : null;
}

export type CategorieRef = {
  id: number;
  idTypeIntrant: number;
  code: string;
  libelle: string;
  libelleEn: string | null;
  familleIft: string | null;
  uniteDefaut: string | null;
  avertissement: boolean;
};

export async function listCategories(db: Db, idTypeIntrant: number): Promise<CategorieRef[]> {
  return (
    await db("categorie_intrant")
      .where({ idTypeIntrant })
      .orderBy("ordre")
      .select("id", "idTypeIntrant", "code", "libelle", "libelleEn", "familleIft", "uniteDefaut", "avertissement")
  ).map((r: Record<string, unknown>) => ({
    id: Number(r.id),
    idTypeIntrant: Number(r.idTypeIntrant),
    code: String(r.code),
    libelle: String(r.libelle),
    libelleEn: str(r.libelleEn),
    familleIft: str(r.familleIft),
    uniteDefaut: str(r.uniteDefaut),
    avertissement: bool(r.avertissement),
  }));
}

export type CibleRef = { id: number; code: string | null; libelle: string; libelleEn: string | null; nature: string | null };

export async function listCibles(db: Db, opts: { nature?: string | null; q?: string } = {}): Promise<CibleRef[]> {
  const query = db("cible");
  if (opts.nature) query.where({ nature: opts.nature });
  if (opts.q?.trim()) query.whereRaw("lower(libelle) like ? escape '\\'", [`%${escapeLike(opts.q.trim().toLowerCase())}%`]);
  return (await query.orderBy("libelle").select("id", "code", "libelle", "libelleEn", "nature")).map((r: Record<string, unknown>) => ({
    id: Number(r.id),
    code: str(r.code),
    libelle: String(r.libelle),
    libelleEn: str(r.libelleEn),
    nature: str(r.nature),
  }));
}

// --- Loading the official files (server/referentiel-intrants/import-service.ts, decision 0029) ---

/** The seeded tables the importer inserts rows into with ids of its own. */
export type TableImportee = "substance_active" | "cible" | "reference_dose_cible_ift";
/** Rows are inserted by batches of this size (knex's batchInsert). */
const LOT = 200;

/** The table's greatest id (null when empty). */
export async function maxIdOf(db: Db, table: TableImportee): Promise<number | string | null> {
  const row = (await db(table).max({ m: "id" }).first()) as { m: number | string | null } | undefined;
  return row?.m ?? null;
}

/** Every active substance with what the import compares. */
export function listSubstancesActives(db: Db): Promise<Record<string, unknown>[]> {
  return db("substance_active").select("id", "nom", "numeroCas", "etatAutorisation", "variantes");
}

/** Every active substance, id and name. */
export function listSubstancesActivesIds(db: Db): Promise<{ id: number; nom: string }[]> {
  return db("substance_active").select("id", "nom");
}

export async function updateSubstanceActive(db: Db, id: number, values: Record<string, unknown>): Promise<void> {
  await db("substance_active")
    .where({ id })
    .update({ ...values, updatedAt: db.fn.now() });
}

export async function insertSubstancesActives(db: Db, rows: Record<string, unknown>[]): Promise<void> {
  await db.batchInsert("substance_active", rows, LOT);
}

/** The uses of the products of this source: the product's AMM, the use's treatment and state. */
export function listUsagesOfSource(db: Db, idSource: number): Promise<Record<string, unknown>[]> {
  return db("usage_phyto as u")
    .join("intrant_phyto as p", "p.id", "u.id_intrant_phyto")
    .where("p.id_source", idSource)
    .select("p.amm_produit", "u.traitement_usage", "u.etat_usage");
}

/** The products of this source: id, idProduit and these columns. */
export function listProduitsOfSource(db: Db, idSource: number, colonnes: readonly string[]): Promise<Record<string, unknown>[]> {
  return db("intrant_phyto")
    .where({ idSource })
    .select("id", "idProduit", ...colonnes);
}

/** The ids of the products of any other source. */
export function listProduitIdsNotOfSource(db: Db, idSource: number): Promise<number[]> {
  return db("intrant_phyto")
    .whereNot({ idSource })
    .select("id")
    .then((rows: { id: number }[]) => rows.map((r) => r.id));
}

/** The active matters (one per product) of the products of this source, with the product's idProduit. */
export function listMatieresActivesOfSource(db: Db, idSource: number): Promise<Record<string, unknown>[]> {
  return db("matiere_active as m")
    .join("intrant_phyto as p", "p.id", "m.id_intrant_phyto")
    .where("p.id_source", idSource)
    .select("p.id_produit", "m.id", "m.quantite", "m.unite");
}

/** The composition lines of the products of this source, by product then rank. */
export function listCompositionsOfSource(db: Db, idSource: number): Promise<Record<string, unknown>[]> {
  return db("matiere_active_composition as c")
    .join("matiere_active as m", "m.id", "c.id_matiere_active")
    .join("intrant_phyto as p", "p.id", "m.id_intrant_phyto")
    .where("p.id_source", idSource)
    .orderBy(["p.id_produit", "c.rang"])
    .select("p.id_produit", "c.libelle", "c.quantite", "c.unite", "c.id_substance_active");
}

export async function updateProduitPhyto(db: Db, id: number, values: Record<string, unknown>): Promise<void> {
  await db("intrant_phyto")
    .where({ id })
    .update({ ...values, updatedAt: db.fn.now() });
}

export async function insertProduitsPhyto(db: Db, rows: Record<string, unknown>[]): Promise<void> {
  await db.batchInsert("intrant_phyto", rows, LOT);
}

/** The release of these products set, without touching their updatedAt (they are unchanged). */
export async function setMillesimeOfProduits(db: Db, ids: readonly number[], millesime: string): Promise<void> {
  for (const chunk of inChunks(ids)) await db("intrant_phyto").whereIn("id", chunk).update({ millesime });
}

/** These products marked withdrawn (never deleted: inputs refer to them). */
export async function withdrawProduits(db: Db, ids: readonly number[]): Promise<void> {
  for (const chunk of inChunks(ids)) {
    await db("intrant_phyto").whereIn("id", chunk).update({ retire: true, updatedAt: db.fn.now() });
  }
}

/** The products of this source, id and idProduit. */
export function listProduitIdsOfSource(db: Db, idSource: number): Promise<{ id: number; idProduit: number }[]> {
  return db("intrant_phyto").where({ idSource }).select("id", "idProduit");
}

/** The active matters of these products deleted (their composition lines go with them). */
export async function deleteMatieresActivesOfProduits(db: Db, idsIntrantPhyto: readonly number[]): Promise<void> {
  for (const chunk of inChunks(idsIntrantPhyto)) await db("matiere_active").whereIn("idIntrantPhyto", chunk).delete();
}

export async function insertMatieresActives(db: Db, rows: Record<string, unknown>[]): Promise<void> {
  await db.batchInsert("matiere_active", rows, LOT);
}

export async function insertCompositions(db: Db, rows: Record<string, unknown>[]): Promise<void> {
  await db.batchInsert("matiere_active_composition", rows, LOT);
}

/** The products of this source, id and AMM. */
export function listProduitAmmsOfSource(db: Db, idSource: number): Promise<{ id: number; ammProduit: string }[]> {
  return db("intrant_phyto").where({ idSource }).select("id", "ammProduit");
}

/** Every use with what the import compares, in id order. */
export function listUsagesPhyto(db: Db): Promise<Record<string, unknown>[]> {
  return db("usage_phyto")
    .select("idIntrantPhyto", "identifiantUsage", "libelleUsage", "doseRetenue", "uniteDose", "etatUsage", "dateFinDistribution", "dateFinUtilisation")
    .orderBy("id");
}

export async function deleteUsagesOfProduits(db: Db, idsIntrantPhyto: readonly number[]): Promise<void> {
  for (const chunk of inChunks(idsIntrantPhyto)) await db("usage_phyto").whereIn("idIntrantPhyto", chunk).delete();
}

export async function insertUsagesPhyto(db: Db, rows: Record<string, unknown>[]): Promise<void> {
  await db.batchInsert("usage_phyto", rows, LOT);
}

/** The correspondence table of crops and the reference list's crops. */
export function listCulturesIft(db: Db): Promise<{ idCulture: number; codeIft: string | null; libelleIft: string | null }[]> {
  return db("culture_ift").select("idCulture", "codeIft", "libelleIft");
}

/** Every crop, id and label. */
export function listCulturesLibelles(db: Db): Promise<{ id: number; libelle: string }[]> {
  return db("culture").select("id", "libelle");
}

/** Every target with its codes and labels (own and the reference list's). */
export function listCiblesIft(db: Db): Promise<{ id: number; code: string | null; codeIft: string | null; libelle: string; libelleIft: string | null }[]> {
  return db("cible").select("id", "code", "codeIft", "libelle", "libelleIft");
}

/** The reference list's code and label on a target that has none yet. */
export async function setCodeIftOfCible(db: Db, id: number, v: { codeIft: string | null; libelleIft: string | null }): Promise<void> {
  await db("cible").where({ id }).whereNull("codeIft").update(v);
}

export async function insertCible(db: Db, row: Record<string, unknown>): Promise<void> {
  await db("cible").insert(row);
}

/** The reference doses of these harvest years with what the import compares. */
export function listDosesReferenceOfAnnees(db: Db, annees: readonly number[]): Promise<Record<string, unknown>[]> {
  return db("reference_dose_cible_ift")
    .whereIn("anneeRecolte", [...annees])
    .select("id", "codeAmm", "idCulture", "anneeRecolte", "idCible", "cible", "biocontrole", "doseRef", "uniteDoseRef", "segment");
}

export async function updateDoseReference(db: Db, id: number, values: Record<string, unknown>): Promise<void> {
  await db("reference_dose_cible_ift")
    .where({ id })
    .update({ ...values, updatedAt: db.fn.now() });
}

export async function insertDosesReference(db: Db, rows: Record<string, unknown>[]): Promise<void> {
  await db.batchInsert("reference_dose_cible_ift", rows, LOT);
}
