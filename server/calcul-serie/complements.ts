import type { ComplementsControle } from "~/domain/calc/indicateurs/controle";
import type { Db } from "../db/knex";
import { longTermRate } from "../operation-culturale/repo";
import { listParcMateriels } from "../parc-materiel/repo";
import { longTermeDureeStockee } from "./repo";

const num = (v: unknown): number | null => (v == null || v === "" ? null : Number(v));

/** The pre-check's complements (spec 3 §5): the campaign's machines and its long-term loan figures. */
export async function complementsControle(db: Db, idCampagne: number): Promise<ComplementsControle> {
  const materiels = (await listParcMateriels(db, idCampagne)).map((m) => ({
    id: m.id,
    libelle: m.libelle,
    prixAchat: num(m.prixAchat),
    tauxRevente: num(m.tauxRevente),
    ageAchat: num(m.ageAchat),
    obsolescence: num(m.obsolescence),
    usure: num(m.usure),
  }));
  const longTermeDuree = await longTermeDureeStockee(db, idCampagne);
  return { materiels, longTermeTaux: await longTermRate(db, idCampagne), longTermeDuree: num(longTermeDuree) };
}
