import { canEditFolderInput } from "~/domain/access/abilities";
import { ELEMENTS, ORIGINE_INTRANT, TYPE_INTRANT } from "~/domain/intrant";
import type { IntrantDossierInput } from "~/domain/intrant-dossier";
import { campaignContext, ensureWrite, writableCampaign, type CampaignContext } from "../access/description";
import { toIso } from "../db/dialect";
import type { Db } from "../db/knex";
import { updateIfUnchanged, type Token } from "../db/stale";
import { failingWith, invalidField, ServiceError } from "../errors";
import type { Scope } from "../access/scope";
import {
  findCategorieOfType,
  findCompositionDossier,
  findCultureNonInterculture,
  findIntrantDossierOfDossier,
  findIntrantDossierType,
  insertCompositionDossier,
  insertIntrantDossier,
  listIntrantsOfIntrantDossier,
  relabelIntrants,
  setCompositionOfIntrants,
  updateCompositionDossier,
} from "./repo";

/**
 * Unreferenced inputs of the selected folder (spec 3 §2.2, §3.5, §4.2, §5, §7; decision 0032): created from an
 * intervention by a writer of the selected campaign; edited only by an animator of the folder, an edit relabelling
 * every input made from it and, for a fertiliser, their composition, in one transaction.
 */

export const INTRANT_DOSSIER_LOAD_ERROR = "errors.services.intrant_dossiers-service-error";
export const INTRANT_DOSSIER_CREATE_ERROR = "errors.services.intrant_dossiers-create-service-error";
export const INTRANT_DOSSIER_UPDATE_ERROR = "errors.services.intrant_dossiers-update-service-error";

const num = (v: unknown) => (v == null ? null : Number(v));
const text = (v: unknown) => (v == null ? null : String(v));

function folderOf(ctx: CampaignContext): number {
  const id = ctx.view.selected.idDossier;
  if (id == null) throw new ServiceError("errors.forbidden", 403);
  return id;
}

/** Checks the species or category the kind needs (a category of the input's own type); gives the row's columns. */
async function columnsOf(db: Db, v: IntrantDossierInput) {
  const type = v.dicIdTypeIntrant;
  if (type === TYPE_INTRANT.SEMENCE && !(await findCultureNonInterculture(db, v.idCulture!))) throw invalidField("idCulture");
  if ((type === TYPE_INTRANT.PHYTO || type === TYPE_INTRANT.FERTILISANT) && !(await findCategorieOfType(db, v.idCategorie!, type))) {
    throw invalidField("idCategorie");
  }
  const phyto = type === TYPE_INTRANT.PHYTO;
  return {
    dicIdTypeIntrant: type,
    libelle: v.libelle,
    code: v.code ?? null,
    remarque: v.remarque ?? null,
    biocontrole: phyto ? v.biocontrole : false,
    idCulture: type === TYPE_INTRANT.SEMENCE ? v.idCulture : null,
    idCategorie: phyto || type === TYPE_INTRANT.FERTILISANT ? v.idCategorie : null,
    matiereActive: phyto ? (v.matiereActive ?? null) : null,
    uniteMatActive: phyto ? (v.uniteMatActive ?? null) : null,
  };
}

const compositionOf = (v: IntrantDossierInput) => Object.fromEntries(ELEMENTS.map((e) => [e, v[e] ?? null]));

/** Creates an unreferenced input of the selected folder (origin 777), from an intervention of the writable campaign. */
export async function createIntrantDossier(scope: Scope, input: IntrantDossierInput): Promise<number> {
  const { db, user } = scope;
  const ctx = await writableCampaign(scope);
  const idDossier = folderOf(ctx);
  return failingWith(INTRANT_DOSSIER_CREATE_ERROR, () =>
    db.transaction(async (trx) => {
      const id = await insertIntrantDossier(trx, { idDossier, idUser: user.id, ...(await columnsOf(trx, input)) });
      if (input.dicIdTypeIntrant === TYPE_INTRANT.FERTILISANT) await insertCompositionDossier(trx, id, compositionOf(input));
      return id;
    }),
  );
}

/**
 * Edits an unreferenced input (spec 3 §4.2, §5): only one of origin 777 of the selected folder, only by an animator
 * of that folder (C-UNREF-12, 13). In one transaction: the input, its composition, the label and code of every
 * intervention input made from it (C-UNREF-08) and, for a fertiliser, their composition (C-UNREF-09). A failure of
 * that characteristic update is ignored: the edit completes (C-UNREF-10). Answers how many inputs were relabelled.
 */
export async function updateIntrantDossier(scope: Scope, token: Token, input: IntrantDossierInput): Promise<{ relabelled: number }> {
  const { db } = scope;
  const ctx = await campaignContext(scope);
  const idDossier = folderOf(ctx);
  const abilities = await ensureWrite(scope, { dossier: idDossier, animation: true });
  return failingWith(INTRANT_DOSSIER_UPDATE_ERROR, () =>
    db.transaction(async (trx) => {
      const current = await findIntrantDossierType(trx, token.id);
      if (!current) throw new ServiceError(INTRANT_DOSSIER_UPDATE_ERROR, 404);
      if (!canEditFolderInput(abilities, { dicIdOrigineIntrant: ORIGINE_INTRANT.DOSSIER, idDossier: Number(current.idDossier) }, idDossier))
        throw new ServiceError("errors.forbidden", 403);
      // The kind of an input made into interventions does not change.
      if (Number(current.dicIdTypeIntrant) !== input.dicIdTypeIntrant) throw invalidField("dicIdTypeIntrant");
      const columns = await columnsOf(trx, input);
      await updateIfUnchanged(trx, "intrant_dossier", token, columns, { scope: { idDossier }, notFound: INTRANT_DOSSIER_UPDATE_ERROR });
      const ids = await listIntrantsOfIntrantDossier(trx, token.id, input.dicIdTypeIntrant);
      await relabelIntrants(trx, ids, { libelleIntrant: columns.libelle, codeIntrant: columns.code });
      if (input.dicIdTypeIntrant === TYPE_INTRANT.FERTILISANT) {
        const composition = compositionOf(input);
        const updated = await updateCompositionDossier(trx, token.id, composition);
        if (!updated) await insertCompositionDossier(trx, token.id, composition);
        // The linked inputs' composition: a failure here is ignored, the edit completes (spec 3 §4.2).
        await trx
          .transaction((sp) => setCompositionOfIntrants(sp, ids, composition))
          .catch((e: unknown) => console.warn("[errors.services.caracteristique_intrants-service-error] ignored while editing an unreferenced input", e));
      }
      return { relabelled: ids.length };
    }),
  );
}

/** An unreferenced input of the selected folder as its dialog edits it, and whether the user may edit it. */
export async function getIntrantDossier(scope: Scope, id: number) {
  const { db } = scope;
  const ctx = await campaignContext(scope);
  const idDossier = folderOf(ctx);
  return failingWith(INTRANT_DOSSIER_LOAD_ERROR, async () => {
    const r = await findIntrantDossierOfDossier(db, id, idDossier);
    if (!r) throw new ServiceError(INTRANT_DOSSIER_LOAD_ERROR, 404);
    const c = await findCompositionDossier(db, id);
    return {
      id: Number(r.id),
      updatedAt: toIso(r.updatedAt),
      dicIdTypeIntrant: Number(r.dicIdTypeIntrant),
      libelle: String(r.libelle),
      code: text(r.code),
      idCulture: num(r.idCulture),
      idCategorie: num(r.idCategorie),
      matiereActive: num(r.matiereActive),
      uniteMatActive: text(r.uniteMatActive),
      biocontrole: r.biocontrole === true || Number(r.biocontrole) === 1,
      remarque: text(r.remarque),
      composition: c ? Object.fromEntries(ELEMENTS.map((e) => [e, num(c[e])])) : null,
      modifiable: canEditFolderInput(ctx.abilities, { dicIdOrigineIntrant: ORIGINE_INTRANT.DOSSIER, idDossier: Number(r.idDossier) }, idDossier),
    };
  });
}
