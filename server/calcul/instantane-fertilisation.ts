import type { InstantaneCampagne, IntrantFertilisant, OperationCampagne } from "~/domain/calc/indicateurs/types";
import { tauxHoraireMainOeuvre } from "~/domain/calc/main-oeuvre";
import { amendementDe, classerFertilisant, DENSITE_SOLUTION_AZOTEE, type CategorieEges, type CompositionFertilisant } from "~/domain/eges";
import { ORIGINE_INTRANT } from "~/domain/intrant";
import { estPaturage } from "~/domain/recolte";
import type { Db } from "../db/knex";

/**
 * What the snapshot loader (instantane.ts) adds for the energy, GHG, nitrogen and economic figures (issue 24;
 * decision 0086; docs/indicators.md §7.5, §7.7, §7.9, §7.10):
 * - the nitrogen form of each fertiliser, from the catalogue with its source: the reference fertiliser's category,
 *   the folder fertiliser's assigned greenhouse-gas category, else the classification of its name and composition
 *   (app/domain/eges.ts: "Solution azotée 390" is a solution by its name);
 * - the N content of each harvested product (teneur_azote_produit, by crop and output type, with its source), and
 *   whether a harvest is a grazing;
 * - the machines of each operation with their mass and wear life (their embodied energy);
 * - the liming kind of a liming product, and the density of a nitrogen solution dosed in l/ha (decision 0106);
 * - the land rent and diverse costs the campaign records on the economics screen (caracteristique), and the hourly
 *   labour rate of its labour screen's amounts (decision 0106).
 * What the database does not hold stays absent, and the engine lists it missing.
 */

const num = (v: unknown): number | null => (v == null || v === "" ? null : Number(v));

/** The nitrogen form of a greenhouse-gas category: straight N forms, and the ammonitrate convention of other mineral N (decision 0046). */
const FORME_DE_CATEGORIE: Partial<Record<CategorieEges, NonNullable<IntrantFertilisant["formeAzote"]>>> = {
  AMMONITRATE: "ammonitrate",
  UREE: "uree",
  SOLUTION_AZOTEE: "solution",
  AZOTE_AUTRE: "ammonitrate",
  ENGRAIS_COMPOSE: "ammonitrate",
};

/** The form and its source: "catalogue" (reference fertiliser), "dossier" (assigned category), "libelle" or "composition" (classified). */
export function formeAzoteDe(
  categorie: string | null,
  source: "catalogue" | "dossier",
  libelle: string,
  composition: CompositionFertilisant,
): {
  formeAzote: IntrantFertilisant["formeAzote"];
  sourceFormeAzote: string | null;
} {
  if (categorie)
    return {
      formeAzote: FORME_DE_CATEGORIE[categorie as CategorieEges] ?? null,
      sourceFormeAzote: `${source}:${categorie}`,
    };
  const c = classerFertilisant(libelle, composition);
  if (!c.categorie) return { formeAzote: null, sourceFormeAzote: null };
  return {
    formeAzote: FORME_DE_CATEGORIE[c.categorie] ?? null,
    sourceFormeAzote: `${c.motif}:${c.categorie}`,
  };
}

type Lignes = Record<string, unknown>[];

/** One read after another inside a transaction (one connection), at once otherwise (as the loader's own reads). */
async function lire<T>(db: Db, lectures: (() => Promise<T>)[]): Promise<T[]> {
  if (!db.isTransaction) return Promise.all(lectures.map((f) => f()));
  const r: T[] = [];
  for (const f of lectures) r.push(await f());
  return r;
}

/**
 * Completes a snapshot built by instantaneCampagne: its fertilisers' N form, its harvests' N content, the campaign's
 * structure costs. `sources` gives, per fertiliser input id, its catalogue origin and product id, and per harvest id,
 * its output type (the loader's rows).
 */
export async function completerInstantane(
  db: Db,
  instantane: InstantaneCampagne,
  sources: {
    intrants: Map<number, { origine: number | null; idIntrant: number | null }>;
    typesSortie: Map<number, number>;
  },
): Promise<void> {
  const fertilisants = instantane.interventions.flatMap((i) => i.intrants).filter((x): x is IntrantFertilisant => x.type === "fertilisant");
  const recoltes = instantane.interventions.flatMap((i) => i.recoltes);
  const references = new Set<number>();
  const dossier = new Set<number>();
  for (const f of fertilisants) {
    const s = sources.intrants.get(f.id);
    if (s?.idIntrant == null) continue;
    (s.origine === ORIGINE_INTRANT.DOSSIER ? dossier : references).add(s.idIntrant);
  }
  const cultures = [...new Set(recoltes.map((r) => r.idCulture).filter((c): c is number => c != null))];
  const [refRows, dossierRows, teneurRows, caracRows, mainOeuvreRows] = await lire<Lignes>(db, [
    () =>
      references.size
        ? db("reference_fertilisant")
            .whereIn("id", [...references])
            .select("id", "codeEges")
        : Promise.resolve([]),
    () =>
      dossier.size
        ? db("fertilisant_compo_dossier")
            .whereIn("idIntrantDossier", [...dossier])
            .select("idIntrantDossier", "categorieEges")
        : Promise.resolve([]),
    () =>
      cultures.length
        ? db("teneur_azote_produit").whereIn("idCulture", cultures).select("idCulture", "idTypeSortie", "teneurAzote", "unite", "source")
        : Promise.resolve([]),
    () => db("caracteristique").where({ idCampagne: instantane.idCampagne }).select("fermageMoyen", "chargesDiverses"),
    () => db("main_oeuvre").where({ idCampagne: instantane.idCampagne }).select("uta", "montant"),
  ]);
  const categorieReference = new Map(refRows.map((r) => [Number(r.id), (r.codeEges as string | null) ?? null]));
  const categorieDossier = new Map(dossierRows.map((r) => [Number(r.idIntrantDossier), (r.categorieEges as string | null) ?? null]));
  for (const f of fertilisants) {
    const s = sources.intrants.get(f.id);
    const duDossier = s?.origine === ORIGINE_INTRANT.DOSSIER;
    const categorie = s?.idIntrant == null ? null : ((duDossier ? categorieDossier : categorieReference).get(s.idIntrant) ?? null);
    const composition = (f.composition ?? {}) as CompositionFertilisant;
    Object.assign(f, formeAzoteDe(categorie, duDossier ? "dossier" : "catalogue", f.libelle, composition));
    f.amendement = amendementDe((categorie as CategorieEges | null) ?? null, f.libelle, composition);
    if (f.formeAzote === "solution" && f.densite == null) f.densite = DENSITE_SOLUTION_AZOTEE;
  }

  const teneurs = new Map(teneurRows.map((r) => [`${Number(r.idCulture)}\u0001${Number(r.idTypeSortie)}`, r]));
  for (const r of recoltes) {
    const type = sources.typesSortie.get(r.id) ?? null;
    if (estPaturage(type)) {
      r.pature = true;
      continue;
    }
    const t = r.idCulture != null && type != null ? teneurs.get(`${r.idCulture}\u0001${type}`) : undefined;
    if (!t) continue;
    r.teneurAzote = num(t.teneurAzote);
    r.sourceTeneurAzote = `${String(t.unite)} : ${String(t.source)}`;
  }

  // The economics screen: land rent €/ha; diverse costs € for the farm (they replace 4,600 € + 45 €/ha, spec 2 §9).
  const carac = caracRows[0];
  const fermage = num(carac?.fermageMoyen);
  const diverses = num(carac?.chargesDiverses);
  instantane.exploitation.fermageHa = fermage;
  instantane.exploitation.chargesDiversesExploitation = diverses;
  instantane.exploitation.chargesDiversesHa = diverses == null ? null : 0;
  instantane.tauxHoraireMainOeuvre = tauxHoraireMainOeuvre(mainOeuvreRows.map((r) => ({ uta: num(r.uta), montant: num(r.montant) })));
}

/** The machines of an operation (tractor and towed equipment) with their mass and wear life, for their embodied energy. */
export function materielsOperation(
  ids: (number | null)[],
  machines: Map<
    number,
    {
      id: number;
      libelle: string;
      forCalc: { poids?: number | null; usure?: number | null };
    }
  >,
): NonNullable<OperationCampagne["materiels"]> {
  return ids
    .filter((id): id is number => id != null)
    .map((id) => machines.get(id))
    .filter((m) => !!m)
    .map((m) => ({
      id: m.id,
      libelle: m.libelle,
      poids: num(m.forCalc.poids),
      usure: num(m.forCalc.usure),
    }));
}
