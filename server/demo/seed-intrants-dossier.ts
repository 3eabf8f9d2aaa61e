import type { Knex } from "knex";
import type { CategorieEges } from "~/domain/eges";
import { createFertilisantDossier } from "./factories";

/**
 * Demo fertilisers of the folders (spec 3 §3.5): common products with their usual grades, most without a
 * greenhouse-gas category so that "assign greenhouse-gas emissions" has work to do; one already assigned,
 * one whose composition fits no category and one without composition.
 */
type DemoFertilisant = { libelle: string; composition?: Record<string, number>; categorieEges?: CategorieEges; remarque?: string };

export const DEMO_FERTILISANTS_BEAUCE: DemoFertilisant[] = [
  { libelle: "Ammonitrate 33,5", composition: { n: 33.5 } },
  { libelle: "Urée 46", composition: { n: 46 } },
  { libelle: "Solution azotée 390", composition: { n: 39 } },
  { libelle: "Engrais NPK 15-15-15", composition: { n: 15, p2o5: 15, k2o: 15 } },
  { libelle: "Superphosphate 45", composition: { p2o5: 45, cao: 20 } },
  { libelle: "Chlorure de potasse 60", composition: { k2o: 60 } },
  { libelle: "Fumier de bovins", composition: { n: 0.6, p2o5: 0.3, k2o: 0.8, mgo: 0.1, cao: 0.5 } },
  { libelle: "Sulfate d'ammoniaque 21", composition: { n: 21, so3: 60 }, categorieEges: "AZOTE_AUTRE" },
  { libelle: "Bore foliaire", composition: { b: 8 } },
  { libelle: "Engrais foliaire de la coopérative", remarque: "Composition à demander au fournisseur." },
];

export const DEMO_FERTILISANTS_BOCAGE: DemoFertilisant[] = [
  { libelle: "Lisier de bovins", composition: { n: 0.3, p2o5: 0.15, k2o: 0.35 } },
  { libelle: "Chaux magnésienne", composition: { cao: 50, mgo: 30 } },
];

export async function seedDemoIntrantsDossier(trx: Knex.Transaction, idDossier: number, fertilisants: DemoFertilisant[], idUser: number): Promise<void> {
  for (const f of fertilisants) await createFertilisantDossier(trx, { idDossier, idUser, ...f });
}
