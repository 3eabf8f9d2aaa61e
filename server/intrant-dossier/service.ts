import { canAffecterEges } from "~/domain/access/abilities";
import { classerFertilisant, type CategorieEges, type MotifClassement } from "~/domain/eges";
import { campaignContext, writableCampaign, type CampaignContext } from "../access/description";
import type { Db } from "../db/knex";
import { failingWith, ServiceError } from "../errors";
import { listCategoriesEges, listFertilisantsDossier, setCategorieEges } from "./repo";
import type { Scope } from "../access/scope";

/**
 * "Assign greenhouse-gas emissions" of the plots screen (spec 2 §2, §7: PATCH dossier/{id}/affectation_eges;
 * docs/decisions/0018-affectation-eges.md): every fertiliser of the selected folder whose composition has
 * no greenhouse-gas category gets the one its name and composition give. A category already set is kept.
 */
export const AFFECTATION_EGES_ERROR = "errors.services.affectation-eges-service-error";

export type LigneAffectationEges = {
  id: number;
  libelle: string;
  idComposition: number | null;
  composition: Record<string, number | null> | null;
  categorieEges: string | null;
  /** The category the assignment would set (null: kept, or none fits). */
  proposee: CategorieEges | null;
  motif: MotifClassement | "deja-affectee" | "sans-composition";
};

function currentFolder(ctx: CampaignContext): number {
  const id = ctx.view.selected.idDossier;
  if (id == null) throw new ServiceError("errors.forbidden", 403);
  return id;
}

async function lignes(db: Db, idDossier: number): Promise<LigneAffectationEges[]> {
  return (await listFertilisantsDossier(db, idDossier)).map((f) => {
    const base = {
      id: f.id,
      libelle: f.libelle,
      idComposition: f.idComposition,
      composition: f.idComposition == null ? null : f.composition,
      categorieEges: f.categorieEges,
    };
    if (f.idComposition == null) return { ...base, proposee: null, motif: "sans-composition" as const };
    if (f.categorieEges) return { ...base, proposee: null, motif: "deja-affectee" as const };
    const c = classerFertilisant(f.libelle, f.composition);
    return { ...base, proposee: c.categorie, motif: c.motif };
  });
}

/** What the dialog shows before the assignment: the folder's fertilisers, their category and the one proposed. */
export async function getAffectationEges(scope: Scope) {
  const { db } = scope;
  const ctx = await campaignContext(scope);
  const idDossier = currentFolder(ctx);
  return failingWith(AFFECTATION_EGES_ERROR, async () => ({
    idDossier,
    libelleDossier: ctx.view.dossiers.find((d) => d.id === idDossier)?.libelle ?? "",
    canAssign: canAffecterEges(ctx.abilities),
    categories: await listCategoriesEges(db),
    lignes: await lignes(db, idDossier),
  }));
}

/**
 * Assigns the categories (PATCH dossier/{idDossier}/affectation_eges), in one transaction. The folder id
 * must be the selected folder's. Returns how many were assigned and which fertilisers got none.
 */
export async function affecterEges(scope: Scope, idDossier: number) {
  const { db } = scope;
  const ctx = await writableCampaign(scope);
  if (!canAffecterEges(ctx.abilities) || currentFolder(ctx) !== idDossier) throw new ServiceError("errors.forbidden", 403);
  return failingWith(AFFECTATION_EGES_ERROR, () =>
    db.transaction(async (trx) => {
      const rows = await lignes(trx, idDossier);
      let affectees = 0;
      for (const r of rows) {
        if (!r.proposee || r.idComposition == null) continue;
        await setCategorieEges(trx, r.idComposition, r.proposee);
        affectees++;
      }
      return {
        affectees,
        conservees: rows.filter((r) => r.motif === "deja-affectee").length,
        nonClassees: rows.filter((r) => r.categorieEges == null && r.proposee == null).map((r) => r.libelle),
      };
    }),
  );
}
