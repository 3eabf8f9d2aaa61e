import type { ComplementsControle } from "~/domain/calc/indicateurs/controle";
import type { InstantaneCampagne, IntrantPhyto, SubstanceActive } from "~/domain/calc/indicateurs/types";
import { bool } from "../db/dialect";
import type { Db } from "../db/knex";
import { longTermRate } from "../operation-culturale/repo";
import { listParcMateriels } from "../parc-materiel/repo";
import { inChunks } from "../db/chunks";

const num = (v: unknown): number | null => (v == null || v === "" ? null : Number(v));

/**
 * What a calculation series adds to the indicator snapshot (server/calcul/instantane.ts) before the pre-check and
 * the run (decision 0054): the active substances of each referenced phyto product (E-Phy catalogue, by its AMM:
 * matiere_active_composition) and its biocontrol flag. An unreferenced product keeps none: the pre-check lists it.
 * Mutates and returns the snapshot.
 */
export async function completerInstantane(db: Db, instantane: InstantaneCampagne): Promise<InstantaneCampagne> {
  const phytos: IntrantPhyto[] = [];
  for (const i of instantane.interventions) for (const x of i.intrants) if (x.type === "phyto" && x.amm) phytos.push(x);
  const amms = [...new Set(phytos.map((x) => String(x.amm)))];
  const parAmm = new Map<string, { biocontrole: boolean; substances: SubstanceActive[] }>();
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
      // Two catalogue rows with one AMM (two sources): the first one's substances.
      if ((premier.get(amm) ?? r.id) !== r.id) continue;
      premier.set(amm, r.id);
      const e = parAmm.get(amm) ?? { biocontrole: bool(r.biocontrole), substances: [] };
      if (r.libelle != null) e.substances.push({ libelle: String(r.libelle), concentration: num(r.quantite), unite: (r.unite as string | null) ?? null });
      parAmm.set(amm, e);
    }
  }
  for (const x of phytos) {
    const e = parAmm.get(String(x.amm));
    if (!e) continue;
    if (e.substances.length) x.substances = e.substances;
    x.biocontrole = x.biocontrole || e.biocontrole;
  }
  return instantane;
}

/** The pre-check's complements (spec 3 §5): the campaign's machines and its long-term loan figures. */
export async function complementsControle(db: Db, idCampagne: number): Promise<ComplementsControle> {
  const materiels = (await listParcMateriels(db, idCampagne)).map((m) => ({
    id: m.id, libelle: m.libelle, prixAchat: num(m.prixAchat), tauxRevente: num(m.tauxRevente), ageAchat: num(m.ageAchat), obsolescence: num(m.obsolescence), usure: num(m.usure),
  }));
  const c = await db("caracteristique").where({ idCampagne }).first("longTermeDuree");
  return { materiels, longTermeTaux: await longTermRate(db, idCampagne), longTermeDuree: num(c?.longTermeDuree) };
}
