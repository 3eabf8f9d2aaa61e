import type { Db } from "../db/knex";
import type { Scope } from "../access/scope";
import { ServiceError } from "../errors";
import { listerDonneesExportables } from "../session-export/service";
import { listTypesExploitation } from "../exploitation/repo";
import { listPays } from "../exploitation-description/repo";
import { listCommunesWithCentre } from "../parcelle/repo";
import { observationReferenceLists } from "../observation/service";
import { listTable, type ListRow, type ListQuery } from "./repo";

/**
 * The reference lists of the API by name and the numbered referential lists (spec 1 §7, spec 2 §7, spec 3 §9;
 * decision 0120). Each name is one table of seeds/reference (docs/data-model.md §11 "Where each list of the spec is
 * stored"), read with its own fields; the lists the screens already load through a service come from that service.
 * Reference lists are global: any signed-in user reads them.
 */

export const REFERENCE_NOT_FOUND = "errors.not-found";
/** The entry left out of every referential list (spec 3 §9, C-CONST-13). */
export const DICO_EXCLU = 9297;

type Loader = (db: Db, options: ListOptions) => Promise<readonly Record<string, unknown>[]>;
export type ListOptions = { departement?: string };

const table =
  (name: string, q: ListQuery = {}): Loader =>
  (db) =>
    listTable(db, name, q);
const categories = (idTypeIntrant: number) => table("categorie_intrant", { where: { idTypeIntrant } });

/**
 * The numbered referential lists (referentiels/{n}/dicos): 537 is the input types and 538 to 543 the categories of
 * each type (an entry naming a list, docs/data-model.md §11); the others are Sillon's assignment of the spec's
 * numbers to its code lists (the spec does not show which list each serves; decision 0120).
 */
export const REFERENTIELS: Record<string, { libelle: string; load: Loader }> = {
  "537": { libelle: "Types d'intrant", load: table("type_intrant") },
  "538": { libelle: "Catégories de semence", load: categories(538) },
  "539": { libelle: "Catégories de produit phytosanitaire", load: categories(539) },
  "540": { libelle: "Catégories de fertilisant", load: categories(540) },
  "541": { libelle: "Catégories du type d'intrant 541 (aucun type d'intrant 541 dans Sillon)", load: categories(541) },
  "542": { libelle: "Modes d'irrigation", load: categories(542) },
  "543": { libelle: "Catégories d'autre intrant", load: categories(543) },
  "818": { libelle: "Types de sortie de récolte", load: table("type_sortie") },
  "820": { libelle: "Catégories de culture", load: table("categorie_culture") },
  "848": { libelle: "Caractéristiques de récolte", load: table("type_caracteristique_recolte") },
  "1236": { libelle: "Types de règle de décision", load: table("type_rdd") },
  "1688": { libelle: "Efficacités de désherbage", load: table("efficacite_desherbage") },
  "2243": { libelle: "Catégories Compétilis", load: table("categorie_competilis") },
  "2244": { libelle: "Chapitres de protocole", load: table("chapitre_protocole") },
  "4305": { libelle: "Catégories GES des fertilisants", load: table("categorie_eges") },
  "5878": { libelle: "Animaux de référence", load: table("reference_animal") },
  "9167": { libelle: "Types d'itinéraire", load: table("type_itineraire") },
  "9288": { libelle: "Gestions des résidus", load: table("gestion_residus") },
  "51-ABA": { libelle: "Résidus de culture intermédiaire", load: table("residus_culture_inter") },
};

async function observationLists(db: Db) {
  return observationReferenceLists(db);
}

async function dicoCultures(db: Db) {
  // One after the other: the call's transaction runs one query at a time.
  const cultures = await listTable(db, "culture");
  const qualifiants = await listTable(db, "qualifiant_culture");
  const sorties = await listTable(db, "culture_type_sortie", { orderBy: ["idCulture", "idTypeSortie"] });
  return cultures.map((c) => ({
    ...c,
    qualifiants: qualifiants.filter((q) => q.idCulture === c.id),
    typesSorties: sorties.filter((s) => s.idCulture === c.id).map((s) => Number(s.idTypeSortie)),
  }));
}

async function allDicos(db: Db) {
  const out: Record<string, unknown>[] = [];
  for (const [code, r] of Object.entries(REFERENTIELS))
    for (const row of await r.load(db, {})) if (row.id !== DICO_EXCLU) out.push({ ...row, referentiel: code });
  return out;
}

async function communes(db: Db, { departement }: ListOptions) {
  if (!departement) throw new ServiceError("warning.invalid-form", 400, { departement: ["warning.required"] });
  return listCommunesWithCentre(db, departement);
}

/** The lists served by name, each from its table or the service of the screen that loads it. */
export const LISTES: Record<string, Loader> = {
  // spec 1 §7 (A-API-35)
  donneesExportables: (db) => listerDonneesExportables(db),
  typeExploitations: (db) => listTypesExploitation(db),
  typeObservations: async (db) => (await observationLists(db)).types,
  // spec 2 §7 (B-API-23)
  cultures: table("culture"),
  stadesCultures: async (db) => (await observationLists(db)).stades,
  organeEtudies: async (db) => (await observationLists(db)).organes,
  communes,
  pays: (db) => listPays(db),
  otexes: table("otex"),
  typeAgricultures: table("type_agriculture"),
  typeSolAees: table("type_sol_aee"),
  typeSousSols: table("type_sous_sol"),
  aciditeSols: table("acidite_sol"),
  referenceRegions: table("reference_region", { orderBy: ["niveau", "ordre", "id"] }),
  referenceSols: table("type_sol_arvalis"),
  referenceCategorieMateriels: table("categorie_materiel", { orderBy: ["idClasseMateriel", "ordre", "id"] }),
  classeMateriels: table("classe_materiel"),
  referenceValeurs: table("reference_valeur"),
  typeMainOeuvres: table("type_main_oeuvre"),
  typeOccupationSols: table("categorie_culture"),
  typeOperations: table("type_action"),
  profondeurTravails: table("profondeur_travail"),
  referenceResidusCultureInter: table("residus_culture_inter"),
  gestionResidus: table("gestion_residus"),
  typeItineraire: table("type_itineraire"),
  tauxLegumineuse: table("taux_legumineuse"),
  specificitePrairie: table("specificite_prairie"),
  typeAmenagements: table("type_amenagement", { orderBy: ["iaeNoOrdre", "id"] }),
  // spec 3 §9 (C-CONST-11)
  typeAutreIntrant: categories(543),
  dicoCultures,
  referenceAnimals: table("reference_animal"),
  typeSorties: table("type_sortie"),
  dicos: allDicos,
  typeFertilisants: categories(540),
  typePhytos: categories(539),
  typeEau: categories(542),
  typeIntrant: table("type_intrant"),
  indicateurs: table("indicateur", { orderBy: ["indOrdre", "id"] }),
  chapitreProtocoles: table("chapitre_protocole"),
  typeRdds: table("type_rdd"),
  categorieEgesV2: table("categorie_eges"),
  efficaciteDesherbages: async (db) => (await observationLists(db)).efficacites,
  adventices: async (db) => (await observationLists(db)).adventices,
};

export const NOMS_LISTES = Object.keys(LISTES);

type Locale = "fr" | "en";

/** The English label in place of the French one where the row has it (locale=en). */
function labelled<T extends Record<string, unknown>>(rows: readonly T[], locale: Locale): T[] {
  if (locale !== "en") return [...rows];
  const swap = (r: Record<string, unknown>): Record<string, unknown> => {
    const out: Record<string, unknown> = { ...r };
    if (typeof r.libelleEn === "string" && r.libelleEn) out.libelle = r.libelleEn;
    for (const [k, v] of Object.entries(r)) if (Array.isArray(v)) out[k] = v.map((x) => (x && typeof x === "object" ? swap(x as Record<string, unknown>) : x));
    return out;
  };
  return rows.map((r) => swap(r) as T);
}

/** A reference list by its name (404 for a name not served). */
export async function getListe(scope: Scope, nom: string, options: ListOptions & { locale?: Locale } = {}): Promise<Record<string, unknown>[]> {
  const load = Object.hasOwn(LISTES, nom) ? LISTES[nom] : undefined;
  if (!load) throw new ServiceError(REFERENCE_NOT_FOUND, 404);
  return labelled(await load(scope.db, options), options.locale ?? "fr");
}

export type Dico = ListRow & { libelle: string; libelleEn: string | null };

/** The entries of the numbered referential list n (or 51-ABA), entry 9297 left out; 404 for a list not served. */
export async function getDicos(scope: Scope, n: string, locale: Locale = "fr"): Promise<Dico[]> {
  const r = Object.hasOwn(REFERENTIELS, n) ? REFERENTIELS[n] : undefined;
  if (!r) throw new ServiceError(REFERENCE_NOT_FOUND, 404);
  // Every numbered list's table has libelle and libelle_en (decision 0120).
  const rows = (await r.load(scope.db, {})) as Dico[];
  return labelled(
    rows.filter((row) => row.id !== DICO_EXCLU),
    locale,
  );
}

/** The numbered referential lists served, with their labels. */
export function listReferentiels(): { code: string; libelle: string }[] {
  return Object.entries(REFERENTIELS).map(([code, r]) => ({ code, libelle: r.libelle }));
}
