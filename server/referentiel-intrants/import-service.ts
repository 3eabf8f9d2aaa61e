import type { Db } from "../db/knex";
import { bool, syncIdSequence } from "../db/dialect";
import { normaliseHeader } from "./csv";
import { categoriePhyto, ShapeError, type DoseIft, type ParsedFile, type ProduitEphy, type SubstanceEphy, type UsageEphy } from "./ephy-import";
import {
  type TableImportee,
  deleteMatieresActivesOfProduits,
  deleteUsagesOfProduits,
  insertCible,
  insertCompositions,
  insertDosesReference,
  insertMatieresActives,
  insertProduitsPhyto,
  insertSubstancesActives,
  insertUsagesPhyto,
  listCiblesIft,
  listCompositionsOfSource,
  listCulturesIft,
  listCulturesLibelles,
  listDosesReferenceOfAnnees,
  listMatieresActivesOfSource,
  listProduitAmmsOfSource,
  listProduitIdsNotOfSource,
  listProduitIdsOfSource,
  listProduitsOfSource,
  listSubstancesActives,
  listSubstancesActivesIds,
  listUsagesOfSource,
  listUsagesPhyto,
  maxIdOf,
  setCodeIftOfCible,
  setMillesimeOfProduits,
  updateDoseReference,
  updateProduitPhyto,
  updateSubstanceActive,
  withdrawProduits,
} from "./repo";

/**
 * Loads parsed official files into the catalogues (decision 0029), in one transaction: all or nothing.
 * Idempotent: products are matched by their AMM (id_produit, source E-Phy), substances by name, reference
 * doses by (AMM, crop, harvest year, target). A product absent from a new products file is marked withdrawn
 * (`retire`), never deleted: inputs refer to it.
 */

/** id_source of the products loaded from E-Phy; their id is their AMM number (id_produit), as in the seed file. */
export const SOURCE_EPHY = 1;
/**
 * Rows the importer adds to tables that also have seed files (substances, targets, reference doses) take ids from
 * here up, and the seed files keep theirs below: a later seed file never overwrites an imported row (the seeding
 * upserts by id). Active matters use the product's id, their composition lines product id × 100 + rank, as the
 * seed files do.
 */
export const IMPORT_ID_BASE = 1_000_000;

/** Explicit ids for rows the importer inserts into a seeded table (see IMPORT_ID_BASE). */
async function idAllocator(db: Db, table: TableImportee): Promise<() => number> {
  let next = Math.max(Number((await maxIdOf(db, table)) ?? 0) + 1, IMPORT_ID_BASE);
  return () => next++;
}

/** Composition line id: product id × 100 + rank (ranks above 99 are not kept). */
export const compositionId = (idProduit: number, rang: number) => idProduit * 100 + rang;
/** Product types of E-Phy kept as plant-protection inputs (fertilisers 'MFSC' and mixtures are not). */
const TYPES_RETENUS = /^(PPP|ADJUVANT)/i;

export type Compte = { ajoutes: number; modifies: number; inchanges: number };
export type ImportSummary = {
  fichiers: Array<{ nom: string; type: string; encodage: string; lignes: number; rejets: string[] }>;
  ignores: string[];
  substances: Compte;
  produits: Compte & { retires: number; autresTypes: number };
  usages: { produits: number; lignes: number; sansProduit: number };
  doses: Compte & { culturesInconnues: Record<string, number>; ciblesAjoutees: number };
};

export type ImportOptions = {
  /** Release of the files (YYYY-MM-DD), kept on each product; default today. */
  millesime?: string;
  /** Called with a short progress text now and then. */
  onProgress?: (text: string) => void;
  /** Source and confidence written on the reference doses (default: the ministry's list, high). */
  sourceDoses?: { source: string; confiance: string };
};

const num = (v: unknown) => (v == null || v === "" ? null : Number(v));
const norm = (s: string | null | undefined) => (s ? normaliseHeader(s) : "");
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

function emptySummary(files: ParsedFile[]): ImportSummary {
  return {
    fichiers: files.filter((f) => f.kind).map((f) => ({ nom: f.name, type: f.kind!, encodage: f.encoding, lignes: f.rows.length, rejets: f.rejets })),
    ignores: files.filter((f) => !f.kind).map((f) => f.name),
    substances: { ajoutes: 0, modifies: 0, inchanges: 0 },
    produits: { ajoutes: 0, modifies: 0, inchanges: 0, retires: 0, autresTypes: 0 },
    usages: { produits: 0, lignes: 0, sansProduit: 0 },
    doses: { ajoutes: 0, modifies: 0, inchanges: 0, culturesInconnues: {}, ciblesAjoutees: 0 },
  };
}

export async function importReferentiel(db: Db, files: ParsedFile[], options: ImportOptions = {}): Promise<ImportSummary> {
  const known = files.filter((f) => f.kind);
  if (known.length === 0) {
    throw new ShapeError(
      `aucun fichier reconnu parmi : ${files.map((f) => f.name).join(", ") || "(aucun fichier)"} ; attendu : produits_*.csv, substance_active_*.csv, usages_des_produits_autorises_*.csv d'E-Phy, ou le fichier des doses de référence IFT`,
    );
  }
  const dup = ["produits", "usages", "substances"].find((k) => known.filter((f) => f.kind === k).length > 1);
  if (dup)
    throw new ShapeError(
      `plusieurs fichiers de type ${dup} : ${known
        .filter((f) => f.kind === dup)
        .map((f) => f.name)
        .join(", ")}`,
    );

  const summary = emptySummary(files);
  const millesime = options.millesime ?? new Date().toISOString().slice(0, 10);
  const progress = options.onProgress ?? (() => {});
  const of = <K extends NonNullable<ParsedFile["kind"]>>(kind: K) =>
    known.find((f) => f.kind === kind)?.rows as Extract<ParsedFile, { kind: K }>["rows"] | undefined;
  const substances = of("substances");
  const produits = of("produits");
  const usages = of("usages");
  const doses = known.filter((f) => f.kind === "ift").flatMap((f) => f.rows as DoseIft[]);

  await db.transaction(async (trx) => {
    if (substances) await loadSubstances(trx, substances, summary, progress);
    if (produits) await loadProduits(trx, produits, usages ?? [], millesime, summary, progress);
    if (usages) await loadUsages(trx, usages, summary, progress);
    if (doses.length > 0) await loadDoses(trx, doses, summary, progress, options.sourceDoses);
  });
  return summary;
}

async function loadSubstances(db: Db, rows: SubstanceEphy[], summary: ImportSummary, progress: (t: string) => void) {
  const existing = new Map<string, Record<string, unknown>>((await listSubstancesActives(db)).map((r) => [String(r.nom), r]));
  const inserts: Record<string, unknown>[] = [];
  const seen = new Set<string>();
  const nextId = await idAllocator(db, "substance_active");
  for (const s of rows) {
    if (seen.has(s.nom)) continue;
    seen.add(s.nom);
    const values = { numeroCas: s.numeroCas?.slice(0, 255) ?? null, etatAutorisation: s.etat?.slice(0, 40) ?? null, variantes: s.variantes };
    const old = existing.get(s.nom);
    if (!old) {
      inserts.push({ id: nextId(), nom: s.nom, ...values });
      summary.substances.ajoutes++;
    } else if (
      !same([old.numeroCas ?? null, old.etatAutorisation ?? null, old.variantes ?? null], [values.numeroCas, values.etatAutorisation, values.variantes])
    ) {
      await updateSubstanceActive(db, Number(old.id), values);
      summary.substances.modifies++;
    } else summary.substances.inchanges++;
  }
  if (inserts.length) await insertSubstancesActives(db, inserts);
  await syncIdSequence(db, "substance_active");
  progress(`substances actives : ${rows.length}`);
}

type ProduitValues = Record<string, unknown>;

function produitValues(p: ProduitEphy, usagesOf: UsageEphy[], millesime: string): ProduitValues {
  const categorie = categoriePhyto(
    p.typeProduit,
    p.fonctions,
    usagesOf.filter((u) => /autoris/i.test(u.etat ?? "")),
  );
  return {
    nomProduit: p.nom,
    ammProduit: p.amm,
    typeProduit: p.fonctions,
    source: "E-Phy (ANSES)",
    biocontrole: p.biocontrole,
    dicIdTypeIntrant: categorie.id,
    codeTypeIntrant: categorie.code,
    secondsNoms: p.secondsNoms?.slice(0, 1000) ?? null,
    titulaire: p.titulaire,
    formulation: p.formulation,
    etatAutorisation: p.etat,
    dateRetrait: p.dateRetrait,
    retire: !/^autoris/i.test(p.etat ?? ""),
    millesime,
  };
}

const pad = (n: number) => String(n).padStart(2, "0");
const localDay = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

const COMPARED = [
  "nomProduit",
  "ammProduit",
  "typeProduit",
  "biocontrole",
  "dicIdTypeIntrant",
  "codeTypeIntrant",
  "secondsNoms",
  "titulaire",
  "formulation",
  "etatAutorisation",
  "dateRetrait",
  "retire",
];

function comparable(v: ProduitValues) {
  return COMPARED.map((k) => {
    const x = v[k];
    if (k === "biocontrole" || k === "retire") return bool(x);
    if (k === "dicIdTypeIntrant") return num(x);
    // PostgreSQL hands a DATE back as a Date at local midnight: its local calendar day is the stored one.
    if (k === "dateRetrait") return x == null ? null : x instanceof Date ? localDay(x) : String(x).slice(0, 10);
    return x ?? null;
  });
}

/** The total content when every substance has the same unit, else null; the unit shared, else 'autre'. */
function totalMatiere(p: ProduitEphy): { quantite: number | null; unite: string | null } {
  if (p.substances.length === 0) return { quantite: null, unite: null };
  const units = new Set(p.substances.map((s) => s.unite));
  if (units.size !== 1 || p.substances.some((s) => s.quantite == null)) return { quantite: null, unite: units.size === 1 ? [...units][0] : "autre" };
  return { quantite: Math.round(p.substances.reduce((t, s) => t + (s.quantite ?? 0), 0) * 10000) / 10000, unite: [...units][0] };
}

async function loadProduits(db: Db, rows: ProduitEphy[], usages: UsageEphy[], millesime: string, summary: ImportSummary, progress: (t: string) => void) {
  // The uses decide whether a product is a seed treatment: those of the files, else those already loaded.
  const usagesByAmm = new Map<string, UsageEphy[]>();
  const known: Array<Pick<UsageEphy, "amm" | "traitement" | "etat">> =
    usages.length > 0
      ? usages
      : (await listUsagesOfSource(db, SOURCE_EPHY)).map((r) => ({
          amm: String(r.ammProduit),
          traitement: (r.traitementUsage as string | null) ?? null,
          etat: (r.etatUsage as string | null) ?? null,
        }));
  for (const u of known) (usagesByAmm.get(u.amm) ?? usagesByAmm.set(u.amm, []).get(u.amm)!).push(u as UsageEphy);

  const existing = new Map<number, ProduitValues>((await listProduitsOfSource(db, SOURCE_EPHY, COMPARED)).map((r: ProduitValues) => [Number(r.idProduit), r]));
  const takenIds = new Set<number>((await listProduitIdsNotOfSource(db, SOURCE_EPHY)).map(Number));
  const substanceIds = new Map<string, number>((await listSubstancesActivesIds(db)).map((r) => [r.nom, Number(r.id)]));
  const compositions = new Map<number, { quantite: unknown; unite: unknown; lignes: unknown[] }>();
  for (const m of await listMatieresActivesOfSource(db, SOURCE_EPHY)) {
    compositions.set(Number(m.idProduit), { quantite: num(m.quantite), unite: m.unite ?? null, lignes: [] });
  }
  for (const c of await listCompositionsOfSource(db, SOURCE_EPHY)) {
    compositions.get(Number(c.idProduit))?.lignes.push([c.libelle, num(c.quantite), c.unite ?? null, num(c.idSubstanceActive)]);
  }

  const listed = new Set<number>();
  const unchanged: number[] = [];
  const inserts: ProduitValues[] = [];
  const compositionWrites: Array<{ idProduit: number; p: ProduitEphy }> = [];
  let done = 0;
  for (const p of rows) {
    if (++done % 2000 === 0) progress(`produits : ${done}/${rows.length}`);
    if (!TYPES_RETENUS.test(p.typeProduit)) {
      summary.produits.autresTypes++;
      continue;
    }
    if (listed.has(p.idProduit)) continue; // a product listed twice: the first row wins
    listed.add(p.idProduit);
    const values = produitValues(p, usagesByAmm.get(p.amm) ?? [], millesime);
    const old = existing.get(p.idProduit);
    if (!old) {
      inserts.push({ ...(takenIds.has(p.idProduit) ? {} : { id: p.idProduit }), idProduit: p.idProduit, idSource: SOURCE_EPHY, ...values });
      summary.produits.ajoutes++;
      if (values.retire) summary.produits.retires++;
    } else if (!same(comparable(old), comparable(values))) {
      await updateProduitPhyto(db, Number(old.id), values);
      if (values.retire && !bool(old.retire)) summary.produits.retires++;
      else summary.produits.modifies++;
    } else {
      unchanged.push(Number(old.id));
      summary.produits.inchanges++;
    }
    const total = totalMatiere(p);
    const lignes = p.substances.map((s) => [s.libelle, s.quantite, s.unite, s.substance ? (substanceIds.get(s.substance) ?? null) : null]);
    const oldCompo = compositions.get(p.idProduit);
    if (!oldCompo || !same([oldCompo.quantite, oldCompo.unite, oldCompo.lignes], [total.quantite, total.unite, lignes]))
      compositionWrites.push({ idProduit: p.idProduit, p });
  }
  if (inserts.length) await insertProduitsPhyto(db, inserts);
  await syncIdSequence(db, "intrant_phyto");
  await setMillesimeOfProduits(db, unchanged, millesime);

  // Products of E-Phy no longer listed: withdrawn, kept.
  const absent = [...existing.entries()].filter(([idProduit, r]) => !listed.has(idProduit) && !bool(r.retire)).map(([, r]) => Number(r.id));
  await withdrawProduits(db, absent);
  summary.produits.retires += absent.length;

  // Active matters (one row per product) and their composition.
  const ids = new Map<number, number>((await listProduitIdsOfSource(db, SOURCE_EPHY)).map((r) => [Number(r.idProduit), Number(r.id)]));
  // Rewritten in batches: the active matter's id is the product's id, as in the seed files (decision 0029).
  const rewrite = compositionWrites.map(({ idProduit, p }) => ({ idIntrantPhyto: ids.get(idProduit)!, p }));
  await deleteMatieresActivesOfProduits(
    db,
    rewrite.map((w) => w.idIntrantPhyto),
  );
  const matieres = rewrite.map(({ idIntrantPhyto, p }) => ({ id: idIntrantPhyto, idIntrantPhyto, ...totalMatiere(p) }));
  if (matieres.length)
    await insertMatieresActives(
      db,
      matieres.map((m) => ({ ...m, unite: m.unite?.slice(0, 20) ?? null })),
    );
  await syncIdSequence(db, "matiere_active");
  const compositionRows: Record<string, unknown>[] = [];
  for (const { idIntrantPhyto, p } of rewrite) {
    p.substances.slice(0, 99).forEach((s, i) =>
      compositionRows.push({
        id: compositionId(idIntrantPhyto, i + 1),
        idMatiereActive: idIntrantPhyto,
        idSubstanceActive: s.substance ? (substanceIds.get(s.substance) ?? null) : null,
        rang: i + 1,
        libelle: s.libelle.slice(0, 255),
        quantite: s.quantite,
        unite: s.unite?.slice(0, 20) ?? null,
      }),
    );
  }
  if (compositionRows.length) await insertCompositions(db, compositionRows);
  await syncIdSequence(db, "matiere_active_composition");
  progress(`produits : ${rows.length}/${rows.length}`);
}

const usageKey = (u: {
  identifiant?: unknown;
  libelle?: unknown;
  dose?: unknown;
  unite?: unknown;
  etat?: unknown;
  dateFinDistribution?: unknown;
  dateFinUtilisation?: unknown;
}) =>
  JSON.stringify([
    u.identifiant ?? null,
    u.libelle ?? null,
    num(u.dose),
    u.unite ?? null,
    u.etat ?? null,
    u.dateFinDistribution ?? null,
    u.dateFinUtilisation ?? null,
  ]);

async function loadUsages(db: Db, rows: UsageEphy[], summary: ImportSummary, progress: (t: string) => void) {
  const ids = new Map<string, number>((await listProduitAmmsOfSource(db, SOURCE_EPHY)).map((r) => [String(r.ammProduit), Number(r.id)]));
  const byProduct = new Map<number, UsageEphy[]>();
  for (const u of rows) {
    const id = ids.get(u.amm);
    if (id === undefined) {
      summary.usages.sansProduit++;
      continue;
    }
    (byProduct.get(id) ?? byProduct.set(id, []).get(id)!).push(u);
  }
  const existing = new Map<number, string[]>();
  for (const r of await listUsagesPhyto(db)) {
    const key = usageKey({
      identifiant: r.identifiantUsage,
      libelle: r.libelleUsage,
      dose: r.doseRetenue,
      unite: r.uniteDose,
      etat: r.etatUsage,
      dateFinDistribution: r.dateFinDistribution,
      dateFinUtilisation: r.dateFinUtilisation,
    });
    (existing.get(Number(r.idIntrantPhyto)) ?? existing.set(Number(r.idIntrantPhyto), []).get(Number(r.idIntrantPhyto))!).push(key);
  }
  const inserts: Record<string, unknown>[] = [];
  const changed: number[] = [];
  let done = 0;
  for (const [idIntrantPhyto, list] of byProduct) {
    if (++done % 2000 === 0) progress(`usages : ${done}/${byProduct.size} produits`);
    const keys = list.map(usageKey);
    if (same([...(existing.get(idIntrantPhyto) ?? [])].sort(), [...keys].sort())) continue;
    changed.push(idIntrantPhyto);
    summary.usages.produits++;
    for (const u of list) {
      inserts.push({
        idIntrantPhyto,
        identifiantUsage: u.identifiant?.slice(0, 20) ?? null,
        libelleUsage: u.libelle.slice(0, 255),
        cultureUsage: u.culture?.slice(0, 120) ?? null,
        traitementUsage: u.traitement?.slice(0, 120) ?? null,
        cibleUsage: u.cible?.slice(0, 160) ?? null,
        doseRetenue: u.dose,
        uniteDose: u.unite?.slice(0, 30) ?? null,
        etatUsage: u.etat?.slice(0, 30) ?? null,
        delaiAvantRecolte: u.delaiAvantRecolte,
        nombreMaxApplication: u.nombreMaxApplication,
        dateDecision: u.dateDecision,
        dateFinDistribution: u.dateFinDistribution,
        dateFinUtilisation: u.dateFinUtilisation,
      });
    }
  }
  await deleteUsagesOfProduits(db, changed);
  if (inserts.length) await insertUsagesPhyto(db, inserts);
  summary.usages.lignes = inserts.length;
  progress(`usages : ${rows.length} lignes lues`);
}

async function loadDoses(
  db: Db,
  rows: DoseIft[],
  summary: ImportSummary,
  progress: (t: string) => void,
  origine = { source: "Ministère de l'Agriculture, doses de référence IFT", confiance: "high" },
) {
  // Crops: the correspondence table by code, then by label; then Sillon's own crop labels.
  // One label of the list may stand for several crops (Blé: the soft and durum wheats), each gets the dose.
  const byCode = new Map<string, number[]>();
  const byLabel = new Map<string, number[]>();
  const add = (m: Map<string, number[]>, k: string, id: number) => {
    const list = m.get(k) ?? m.set(k, []).get(k)!;
    if (!list.includes(id)) list.push(id);
  };
  const mapped = await listCulturesIft(db);
  for (const c of mapped) {
    if (c.codeIft) add(byCode, String(c.codeIft), Number(c.idCulture));
    add(byLabel, norm(c.libelleIft), Number(c.idCulture));
  }
  for (const c of await listCulturesLibelles(db)) if (!byLabel.has(norm(c.libelle))) add(byLabel, norm(c.libelle), Number(c.id));
  // Targets: by the list's code, then by label; a target the catalogue lacks is added.
  const ciblesByCode = new Map<string, number>();
  const ciblesByLabel = new Map<string, number>();
  for (const c of await listCiblesIft(db)) {
    if (c.codeIft) ciblesByCode.set(String(c.codeIft), Number(c.id));
    ciblesByLabel.set(norm(c.libelle), Number(c.id));
    if (c.libelleIft) ciblesByLabel.set(norm(c.libelleIft), Number(c.id));
  }
  const nextCible = await idAllocator(db, "cible");
  const nextDose = await idAllocator(db, "reference_dose_cible_ift");
  const cibleId = async (d: DoseIft): Promise<number | null> => {
    if (!d.cible && !d.codeCible) return null;
    const found = (d.codeCible && ciblesByCode.get(d.codeCible)) || ciblesByLabel.get(norm(d.cible));
    if (found) {
      if (d.codeCible && !ciblesByCode.has(d.codeCible)) {
        await setCodeIftOfCible(db, found, { codeIft: d.codeCible, libelleIft: d.cible });
        ciblesByCode.set(d.codeCible, found);
      }
      return found;
    }
    const id = nextCible();
    await insertCible(db, {
      id,
      code: `IFT-${(d.codeCible ?? norm(d.cible)).slice(0, 36)}`,
      libelle: d.cible ?? d.codeCible,
      codeIft: d.codeCible,
      libelleIft: d.cible,
    });
    if (d.codeCible) ciblesByCode.set(d.codeCible, id);
    ciblesByLabel.set(norm(d.cible), id);
    summary.doses.ciblesAjoutees++;
    return id;
  };

  const years = [...new Set(rows.map((d) => d.anneeRecolte))];
  const existing = new Map<string, Record<string, unknown>>();
  for (const r of await listDosesReferenceOfAnnees(db, years)) {
    existing.set(JSON.stringify([String(r.codeAmm), num(r.idCulture), Number(r.anneeRecolte), num(r.idCible)]), r);
  }
  const inserts: Record<string, unknown>[] = [];
  const seen = new Set<string>();
  let done = 0;
  for (const d of rows) {
    if (++done % 5000 === 0) progress(`doses de référence : ${done}/${rows.length}`);
    const cultures = (d.codeCulture && byCode.get(d.codeCulture)) || byLabel.get(norm(d.culture));
    if (!cultures?.length) {
      summary.doses.culturesInconnues[d.culture] = (summary.doses.culturesInconnues[d.culture] ?? 0) + 1;
      continue;
    }
    const idCible = await cibleId(d);
    for (const idCulture of cultures) await upsertDose(d, idCulture, idCible);
  }
  async function upsertDose(d: DoseIft, idCulture: number, idCible: number | null) {
    const key = JSON.stringify([d.amm, idCulture, d.anneeRecolte, idCible]);
    if (seen.has(key)) return;
    seen.add(key);
    const values = {
      cible: d.cible?.slice(0, 255) ?? null,
      biocontrole: d.biocontrole,
      doseRef: d.dose,
      uniteDoseRef: d.unite?.slice(0, 30) ?? null,
      segment: d.segment?.slice(0, 4) ?? null,
      source: origine.source,
      confiance: origine.confiance,
    };
    const old = existing.get(key);
    if (!old) {
      inserts.push({ id: nextDose(), codeAmm: d.amm, idCulture, anneeRecolte: d.anneeRecolte, idCible, ...values });
      summary.doses.ajoutes++;
    } else if (
      !same(
        [old.cible ?? null, bool(old.biocontrole), num(old.doseRef), old.uniteDoseRef ?? null, old.segment ?? null],
        [values.cible, values.biocontrole, values.doseRef, values.uniteDoseRef, values.segment],
      )
    ) {
      await updateDoseReference(db, Number(old.id), values);
      summary.doses.modifies++;
    } else summary.doses.inchanges++;
  }
  if (inserts.length) await insertDosesReference(db, inserts);
  await syncIdSequence(db, "reference_dose_cible_ift");
  await syncIdSequence(db, "cible");
  progress(`doses de référence : ${rows.length}/${rows.length}`);
}

/** The summary as French lines for the command line. */
export function formatSummary(s: ImportSummary): string[] {
  const lines = s.fichiers.map(
    (f) =>
      `lu ${f.nom} (${f.type}, ${f.encodage}) : ${f.lignes} lignes${f.rejets.length ? `, ${f.rejets.length} écartées (${f.rejets.slice(0, 3).join(" ; ")}${f.rejets.length > 3 ? "…" : ""})` : ""}`,
  );
  if (s.ignores.length) lines.push(`ignorés : ${s.ignores.join(", ")}`);
  const c = (x: Compte) => `${x.ajoutes} ajoutés, ${x.modifies} modifiés, ${x.inchanges} inchangés`;
  if (s.fichiers.some((f) => f.type === "substances")) lines.push(`substances actives : ${c(s.substances)}`);
  if (s.fichiers.some((f) => f.type === "produits"))
    lines.push(
      `produits : ${c(s.produits)}, ${s.produits.retires} retirés${s.produits.autresTypes ? `, ${s.produits.autresTypes} d'autres types (fertilisants, mélanges) non chargés` : ""}`,
    );
  if (s.fichiers.some((f) => f.type === "usages"))
    lines.push(
      `usages : ${s.usages.lignes} lignes écrites pour ${s.usages.produits} produits modifiés${s.usages.sansProduit ? `, ${s.usages.sansProduit} lignes sans produit connu` : ""}`,
    );
  if (s.fichiers.some((f) => f.type === "ift")) {
    lines.push(`doses de référence : ${c(s.doses)}, ${s.doses.ciblesAjoutees} cibles ajoutées`);
    const unknown = Object.entries(s.doses.culturesInconnues);
    if (unknown.length)
      lines.push(`cultures sans correspondance (lignes ignorées ; à ajouter dans culture_ift) : ${unknown.map(([k, n]) => `${k} (${n})`).join(", ")}`);
  }
  return lines;
}
