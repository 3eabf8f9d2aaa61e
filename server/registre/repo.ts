import { parseGeometrie } from "~/domain/geometrie";
import { TYPE_INTRANT } from "~/domain/intrant";
import { centroide, normaliserLibelle, type FaitsLigne, type LigneRegistre, type UsageAutorise } from "~/domain/registre";
import { bool } from "../db/dialect";
import type { Db } from "../db/knex";

/**
 * The facts of a farm's register (issue 28, decision 0105): the phyto inputs of the interventions of some of its
 * campaigns (a campaign, or the base campaigns in a date range), one line per input, and what the checks need
 * from the E-Phy catalogue and the plots' harvests. No rights here: the service asks them first.
 */

const num = (v: unknown) => (v == null || v === "" ? null : Number(v));
const text = (v: unknown) => (v == null || v === "" ? null : String(v));

/** Organic production from the plot's type of management (type_itineraire code AB; conversion counts as organic). */
const ORGANIC_CODES = new Set(["AB", "CONVAB"]);

export type Periode = { idCampagnes: number[]; du?: string; au?: string };

/** The farm's base campaigns (not simulations) whose interventions may fall in [du, au]: harvest year N holds N−2 to N+1 (decision 0091). */
export async function campagnesDePeriode(db: Db, idExploitation: number, du: string, au: string): Promise<number[]> {
  const [from, to] = [Number(du.slice(0, 4)), Number(au.slice(0, 4))];
  const rows = await db("campagne")
    .where({ idExploitation, simulation: false })
    .whereBetween("anneeRecolte", [from - 1, to + 2])
    .pluck("id");
  return rows.map(Number);
}

/** The farm's campaign of this id (its id), undefined when the campaign is another farm's or unknown. */
export function findCampagneOfExploitation(db: Db, id: number, idExploitation: number): Promise<{ id: number } | undefined> {
  return db("campagne").where({ id, idExploitation }).first("id");
}

export async function farmHeader(db: Db, idExploitation: number) {
  const r = await db("exploitation").where({ id: idExploitation }).first("id", "libelle", "siret", "idTypeAgriculture");
  return r ? { id: Number(r.id), libelle: String(r.libelle), siret: text(r.siret), idTypeAgriculture: num(r.idTypeAgriculture) } : undefined;
}

/** One line per phyto input (seed treatments included) of the campaigns' interventions, by date, plot and input. */
export async function lignesRegistre(db: Db, idExploitation: number, periode: Periode): Promise<{ lignes: LigneRegistre[]; faits: Map<number, FaitsLigne> }> {
  if (periode.idCampagnes.length === 0) return { lignes: [], faits: new Map() };
  const farm = await farmHeader(db, idExploitation);
  let q = db("intrant as i")
    .join("categorie_intrant as cat", "cat.id", "i.idCategorie")
    .join("action as a", "a.id", "i.idAction")
    .join("campagne as cp", "cp.id", "a.idCampagne")
    .join("parcelle as p", "p.id", "a.idParcelle")
    .leftJoin("stade_culture as sc", "sc.id", "a.idStadeCulture")
    .leftJoin("intrant_phyto as ip", function () {
      // A reference phyto input names the product by its AMM number (idProduit); E-Phy is source 1; 777 is a folder's own input.
      this.on("ip.idProduit", "=", "i.idIntrant").andOnVal("ip.idSource", "=", 1).andOnVal("i.dicIdOrigineIntrant", "<>", 777);
    })
    .where("cp.idExploitation", idExploitation)
    .whereIn("a.idCampagne", periode.idCampagnes)
    .where("cat.idTypeIntrant", TYPE_INTRANT.PHYTO)
    .where("a.realisee", true);
  if (periode.du) q = q.where("a.date", ">=", periode.du);
  if (periode.au) q = q.where("a.date", "<=", periode.au);
  const rows = await q
    .orderBy([{ column: "a.date" }, { column: "p.libelle" }, { column: "i.id" }])
    .select(
      "i.id as idIntrant",
      "i.libelleIntrant",
      "i.codeIntrant",
      "i.quantite",
      "i.dicLlUnite",
      "i.idIntrantSemence",
      "a.id as idIntervention",
      "a.idCampagne",
      "a.date",
      "a.tauxSurface",
      "a.idCultureConcernee",
      "a.heureDebut",
      "a.heureFin",
      "a.precisionStade",
      "a.siretPrestataire",
      "a.rentreeAnticipee",
      "a.lotSemences",
      "sc.code as stadeCode",
      "sc.libelle as stadeLibelle",
      "a.idParcelle",
      "ip.id as idPhyto",
      "ip.ammProduit",
      "ip.dateRetrait",
    );

  // The plots of the lines, read once each (a plot has several lines): name, area, location, management.
  const plots = [...new Set(rows.map((r) => Number(r.idParcelle)))];
  const plotOf = new Map<number, Record<string, unknown>>();
  if (plots.length) {
    const ps = await db("parcelle as p")
      .leftJoin("type_itineraire as ti", "ti.id", "p.idTypeModeConduite")
      .whereIn("p.id", plots)
      .select(
        "p.id",
        "p.libelle",
        "p.surface",
        "p.noIlotPac",
        "p.codeInsee",
        "p.geometrie",
        "p.idModeConduite",
        "ti.code as typeItineraire",
        "p.idTypeModeConduite",
      );
    for (const p of ps) {
      // The location is needed only without a PAC block: the centroid of the plot's geometry, computed once per plot.
      const location = text(p.noIlotPac) ? null : centroide(parseGeometrie(text(p.geometrie)));
      plotOf.set(Number(p.id), { ...p, location });
    }
  }
  for (const r of rows) Object.assign(r, plotOf.get(Number(r.idParcelle)));

  // The crop of a line: the intervention's own, else the first crop of the plot's management mode.
  const modes = [...new Set(rows.map((r) => num(r.idModeConduite)).filter((v): v is number => v != null))];
  const modeCrop = new Map<number, number>();
  if (modes.length) {
    const mc = await db("mode_conduite_culture")
      .whereIn("idModeConduite", modes)
      .orderBy([{ column: "ordre" }, { column: "id" }])
      .select("idModeConduite", "idCulture");
    for (const r of mc) if (!modeCrop.has(Number(r.idModeConduite))) modeCrop.set(Number(r.idModeConduite), Number(r.idCulture));
  }
  const cropOf = (r: Record<string, unknown>) =>
    num(r.idCultureConcernee) ?? (num(r.idModeConduite) != null ? (modeCrop.get(Number(r.idModeConduite)) ?? null) : null);
  const cropIds = [...new Set(rows.map(cropOf).filter((v): v is number => v != null))];
  const crops = new Map<number, { libelle: string; eppo: string | null; interculture: boolean }>();
  if (cropIds.length) {
    const cr = await db("culture as c")
      .leftJoin("culture_code_eppo as ce", "ce.idCulture", "c.id")
      .leftJoin("code_eppo as e", "e.id", "ce.idCodeEppo")
      .whereIn("c.id", cropIds)
      .select("c.id", "c.libelle", "c.interculture", "e.code");
    for (const r of cr) crops.set(Number(r.id), { libelle: String(r.libelle), eppo: text(r.code), interculture: bool(r.interculture) });
  }

  // Targets of each input (up to four, the main one first): those of the inputs of the period's interventions, found
  // by a join (a farm's register has thousands of inputs: a list of their ids costs PostgreSQL more than the join).
  const ids = new Set(rows.map((r) => Number(r.idIntrant)));
  const cibles = new Map<number, string[]>();
  if (ids.size) {
    let ct = db("intrant_cible as ic")
      .join("intrant_cible_cible as icc", "icc.idIntrantCible", "ic.id")
      .join("cible as c", "c.id", "icc.idCible")
      .join("intrant as i", "i.id", "ic.idIntrant")
      .join("action as a", "a.id", "i.idAction")
      .whereIn("a.idCampagne", periode.idCampagnes)
      .where("a.realisee", true);
    if (periode.du) ct = ct.where("a.date", ">=", periode.du);
    if (periode.au) ct = ct.where("a.date", "<=", periode.au);
    for (const r of await ct.orderBy([{ column: "ic.idIntrant" }, { column: "icc.rang" }]).select("ic.idIntrant", "c.libelle")) {
      const id = Number(r.idIntrant);
      if (ids.has(id)) cibles.set(id, [...(cibles.get(id) ?? []), String(r.libelle)]);
    }
  }

  // E-Phy uses of the products, matched to Sillon's crops through culture_ift (the IFT list's and E-Phy's crop labels).
  const phytoIds = [...new Set(rows.map((r) => num(r.idPhyto)).filter((v): v is number => v != null))];
  const usages = new Map<number, Array<UsageAutorise & { culture: string | null; cultureNormalisee: string | null }>>();
  if (phytoIds.length) {
    const us = await db("usage_phyto")
      .whereIn("idIntrantPhyto", phytoIds)
      .select(
        "idIntrantPhyto",
        "libelleUsage",
        "cultureUsage",
        "doseRetenue",
        "uniteDose",
        "nombreMaxApplication",
        "delaiAvantRecolte",
        "dateFinDistribution",
        "dateFinUtilisation",
      );
    for (const u of us) {
      const list = usages.get(Number(u.idIntrantPhyto)) ?? [];
      list.push({
        libelle: String(u.libelleUsage),
        culture: text(u.cultureUsage),
        cultureNormalisee: u.cultureUsage == null || u.cultureUsage === "" ? null : normaliserLibelle(String(u.cultureUsage)),
        dose: num(u.doseRetenue),
        unite: text(u.uniteDose),
        nombreMaxApplication: num(u.nombreMaxApplication),
        delaiAvantRecolte: num(u.delaiAvantRecolte),
        // The grace period of a withdrawn product, use by use (E-Phy uses file; decision 0117).
        dateFinDistribution: text(u.dateFinDistribution)?.slice(0, 10) ?? null,
        dateFinUtilisation: text(u.dateFinUtilisation)?.slice(0, 10) ?? null,
      });
      usages.set(Number(u.idIntrantPhyto), list);
    }
  }
  const cropLabels = new Map<number, Set<string>>();
  if (cropIds.length) {
    for (const r of await db("culture_ift").whereIn("idCulture", cropIds).select("idCulture", "libelleIft")) {
      const set = cropLabels.get(Number(r.idCulture)) ?? new Set<string>();
      set.add(normaliserLibelle(String(r.libelleIft)));
      cropLabels.set(Number(r.idCulture), set);
    }
  }

  // Harvest dates per plot (an intervention holding a harvest).
  const harvests = new Map<number, string[]>();
  if (plots.length) {
    const hv = await db("recolte as r").join("action as a", "a.id", "r.idAction").whereIn("a.idParcelle", plots).distinct("a.idParcelle", "a.date");
    for (const r of hv) harvests.set(Number(r.idParcelle), [...(harvests.get(Number(r.idParcelle)) ?? []), String(r.date).slice(0, 10)]);
  }

  const organicFarm = farm?.idTypeAgriculture === 2;
  const lignes: LigneRegistre[] = [];
  const faits = new Map<number, FaitsLigne>();
  const usesOnCrop = new Map<string, FaitsLigne["usages"]>();
  for (const r of rows) {
    const idCulture = cropOf(r);
    const crop = idCulture != null ? crops.get(idCulture) : undefined;
    const surface = num(r.surface);
    const location = r.location as ReturnType<typeof centroide>;
    const stade = [text(r.stadeLibelle), text(r.precisionStade)].filter(Boolean).join(" — ");
    const ligne: LigneRegistre = {
      idIntervention: Number(r.idIntervention),
      idIntrant: Number(r.idIntrant),
      idParcelle: Number(r.idParcelle),
      parcelle: String(r.libelle),
      siret: farm?.siret ?? null,
      produit: String(r.libelleIntrant),
      amm: text(r.ammProduit) ?? text(r.codeIntrant),
      date: String(r.date).slice(0, 10),
      heureDebut: text(r.heureDebut),
      heureFin: text(r.heureFin),
      dose: num(r.quantite),
      unite: text(r.dicLlUnite),
      surfaceTraitee: surface == null ? null : Number((surface * Number(r.tauxSurface ?? 1)).toFixed(4)),
      culture: crop?.libelle ?? null,
      codeEppo: crop?.eppo ?? null,
      stadeBbch: text(r.stadeCode),
      stade: stade || null,
      ilotPac: text(r.noIlotPac),
      latitude: location ? Number(location.latitude.toFixed(6)) : null,
      longitude: location ? Number(location.longitude.toFixed(6)) : null,
      codeInsee: text(r.codeInsee),
      biologique: r.idTypeModeConduite != null ? ORGANIC_CODES.has(String(r.typeItineraire)) : organicFarm ? true : null,
      siretPrestataire: text(r.siretPrestataire),
      rentreeAnticipee: r.rentreeAnticipee == null ? null : bool(r.rentreeAnticipee),
      lotSemences: text(r.lotSemences),
      cibles: (cibles.get(Number(r.idIntrant)) ?? []).join(" | ") || null,
    };
    lignes.push(ligne);
    const idPhyto = num(r.idPhyto);
    if (idPhyto != null) {
      const all = usages.get(idPhyto) ?? [];
      const labels = idCulture != null ? cropLabels.get(idCulture) : undefined;
      // The product's uses on the line's crop, filtered once per product and crop (a farm repeats them on many lines).
      const key = `${idPhyto}:${idCulture}`;
      let onCrop = usesOnCrop.get(key);
      if (!onCrop) {
        onCrop = all.filter((u) => u.cultureNormalisee != null && labels?.has(u.cultureNormalisee)).map(({ cultureNormalisee: _n, ...u }) => u);
        usesOnCrop.set(key, onCrop);
      }
      faits.set(ligne.idIntrant, {
        dateRetrait: text(r.dateRetrait) ? String(r.dateRetrait).slice(0, 10) : null,
        // Without a crop correspondence the use checks cannot judge the crop: they stay silent.
        usagesConnus: all.length > 0 && labels != null,
        usages: onCrop,
        recoltes: harvests.get(ligne.idParcelle) ?? [],
      });
    }
  }
  return { lignes, faits };
}
