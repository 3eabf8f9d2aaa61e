import type { DoseReference, SubstanceActive } from "~/domain/calc/indicateurs/types";
import { bool } from "../db/dialect";
import type { Db } from "../db/knex";
import { inChunks } from "../db/chunks";

/**
 * What the snapshot loader (instantane.ts) reads for the phyto products of a campaign (decision 0085): the official
 * IFT reference-dose list in force when calculating, and the product's catalogue row (E-Phy: biocontrol flag, active
 * substances). Read here once for the live plot panel and the calculation series alike.
 */

const num = (v: unknown): number | null => (v == null || v === "" ? null : Number(v));

/** A row of the list, with the crop it is for. */
export type LigneListeIft = DoseReference & { idCulture: number | null };

export type ListeIft = {
  /** Harvest year of the list read; null when no list is published at all. */
  annee: number | null;
  /** Its rows by product (AMM) and crop. */
  lignes: Map<string, LigneListeIft[]>;
};

export const cleListe = (amm: string, idCulture: number | null) => `${amm}\u0001${idCulture}`;

/**
 * The harvest year whose list applies to a campaign: its own when the list holds a row of that year; else the
 * nearest published year, the earlier one on a tie (the list in force before); null when the table is empty.
 * One round trip, two index look-ups (the latest year up to the campaign's, the first after), never a scan.
 */
export async function anneeListeIft(db: Db, anneeRecolte: number): Promise<number | null> {
  const r = await db.first({
    avant: db("reference_dose_cible_ift").where("anneeRecolte", "<=", anneeRecolte).max("anneeRecolte"),
    apres: db("reference_dose_cible_ift").where("anneeRecolte", ">", anneeRecolte).min("anneeRecolte"),
  });
  const a = num(r?.avant);
  const b = num(r?.apres);
  if (a == null) return b;
  if (b == null || a === anneeRecolte) return a;
  return anneeRecolte - a <= b - anneeRecolte ? a : b;
}

/** The list's rows for these products (every crop and target), from the list that applies to the campaign. */
export async function lireListeIft(db: Db, anneeRecolte: number, amms: string[]): Promise<ListeIft> {
  const lignes = new Map<string, LigneListeIft[]>();
  if (amms.length === 0) return { annee: null, lignes };
  const annee = await anneeListeIft(db, anneeRecolte);
  if (annee == null) return { annee, lignes };
  for (const lot of inChunks(amms)) {
    const rows = await db("reference_dose_cible_ift")
      .where({ anneeRecolte: annee })
      .whereIn("codeAmm", lot)
      .orderBy("id")
      .select("codeAmm", "idCulture", "idCible", "doseRef", "uniteDoseRef", "biocontrole", "segment");
    for (const r of rows) {
      const cle = cleListe(String(r.codeAmm), num(r.idCulture));
      const list = lignes.get(cle) ?? [];
      list.push({
        idCulture: num(r.idCulture),
        idCible: num(r.idCible),
        dose: num(r.doseRef),
        unite: (r.uniteDoseRef as string | null) ?? null,
        biocontrole: bool(r.biocontrole),
        segment: (r.segment as string | null) ?? null,
      });
      lignes.set(cle, list);
    }
  }
  return { annee, lignes };
}

/**
 * The reference doses of one treatment: the list's rows for its product and crop, in the list's order, one per
 * target (the first row of a target kept). A dose copied onto the input's target rows when it was saved is not read:
 * the list in force is (issue 24).
 */
export function dosesDuTraitement(liste: ListeIft, amm: string | null, idCulture: number | null): DoseReference[] {
  if (amm == null || idCulture == null) return [];
  const out: DoseReference[] = [];
  const vues = new Set<number | null>();
  for (const d of liste.lignes.get(cleListe(amm, idCulture)) ?? []) {
    if (vues.has(d.idCible)) continue;
    vues.add(d.idCible);
    out.push({ idCible: d.idCible, dose: d.dose, unite: d.unite, biocontrole: d.biocontrole, segment: d.segment });
  }
  return out;
}

export type ProduitCatalogue = { biocontrole: boolean; substances: SubstanceActive[] };

/**
 * The E-Phy catalogue rows of these products by AMM: biocontrol flag and active substances
 * (matiere_active_composition, in rank order). Two catalogue rows with one AMM (two sources): the first one's.
 */
export async function lireCataloguePhyto(db: Db, amms: string[]): Promise<Map<string, ProduitCatalogue>> {
  const parAmm = new Map<string, ProduitCatalogue>();
  for (const lot of inChunks(amms)) {
    const rows = await db("intrant_phyto as p")
      .leftJoin("matiere_active as m", "m.idIntrantPhyto", "p.id")
      .leftJoin("matiere_active_composition as c", "c.idMatiereActive", "m.id")
      .whereIn("p.ammProduit", lot)
      .orderBy([{ column: "p.id" }, { column: "c.rang" }])
      .select("p.id", "p.ammProduit", "p.biocontrole", "c.libelle", "c.quantite", "c.unite");
    const premier = new Map<string, number>();
    for (const r of rows) {
      const amm = String(r.ammProduit);
      if ((premier.get(amm) ?? r.id) !== r.id) continue;
      premier.set(amm, r.id);
      const e = parAmm.get(amm) ?? { biocontrole: bool(r.biocontrole), substances: [] };
      if (r.libelle != null) e.substances.push({ libelle: String(r.libelle), concentration: num(r.quantite), unite: (r.unite as string | null) ?? null });
      parAmm.set(amm, e);
    }
  }
  return parAmm;
}
