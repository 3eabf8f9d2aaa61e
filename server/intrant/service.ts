import {
  ciblesOf,
  EAU,
  ELEMENTS,
  ORIGINE_INTRANT,
  TYPE_INTRANT,
  type AutreInput,
  type EauInput,
  type FertilisantInput,
  type PhytoInput,
  type SemenceInput,
} from "~/domain/intrant";
import { dialogInput, grilleField, grilleRowOf, IntrantGrilleSchema, KIND_SCHEMAS, kindOfType, type GrilleKind } from "~/domain/intrant-grille";
import { rowPatchesSchema, type RowConflict } from "~/domain/grid-patches";
import { INVALID_FORM, validate } from "~/domain/validation";
import { writableCampaign, campaignContext, type CampaignContext } from "../access/description";
import type { GridSaveResult, SavedRow } from "../db/row-patches";
import { toIso } from "../db/dialect";
import type { Db } from "../db/knex";
import { STALE, updateIfUnchanged, type Token } from "../db/stale";
import { failingWith, invalidField, isServiceError, parse, ServiceError } from "../errors";
import * as referentiel from "../referentiel-intrants/service";
import type { Scope } from "../access/scope";
import {
  actionDeCampagne,
  autreIntrantReference,
  caracteristiqueDe,
  categorieDeType,
  ciblesConnues,
  ciblesDe,
  compositionFertilisant,
  deleteIntrantDeCampagne,
  fertilisantReference,
  idsIntrantsDeAction,
  insertIntrant,
  intrantDeCampagne,
  intrantDuDossier,
  produitPhyto,
  replaceCibles,
  semenceReference,
  typeIntrantDe,
  upsertCaracteristique,
} from "./repo";

/** Error keys of the inputs (spec 3 §8: characteristics C-ERR-11; the inputs themselves ours, same family). */
export const INTRANTS_LOAD_ERROR = "errors.services.intrants-service-error";
export const INTRANTS_CREATE_ERROR = "errors.services.intrants-create-service-error";
export const INTRANTS_UPDATE_ERROR = "errors.services.intrants-update-service-error";
export const INTRANTS_DELETE_ERROR = "errors.services.intrants-delete-service-error";
export const CARACTERISTIQUE_ERROR = "errors.services.caracteristique_intrants-service-error";

/** Category of a seed-treatment input (seeds/reference/categorie-intrant.json), of a seed, and the phyto categories. */
export const CATEGORIE_TRAITEMENT_SEMENCES = 5397;
export const CATEGORIE_SEMENCE = 5381;

export type IntrantKind = "semence" | "phyto" | "fertilisant" | "eau" | "autre";
export type IntrantInputOf = { semence: SemenceInput; phyto: PhytoInput; fertilisant: FertilisantInput; eau: EauInput; autre: AutreInput };
export const KIND_TYPES: Record<IntrantKind, number> = {
  semence: TYPE_INTRANT.SEMENCE,
  phyto: TYPE_INTRANT.PHYTO,
  fertilisant: TYPE_INTRANT.FERTILISANT,
  eau: TYPE_INTRANT.EAU,
  autre: TYPE_INTRANT.AUTRE,
};

const num = (v: unknown) => (v == null ? null : Number(v));

/** The intervention an input is written to, within the writable campaign (a foreign one is a 404, never written). */
async function actionOf(db: Db, ctx: CampaignContext, idAction: number) {
  const a = await actionDeCampagne(db, ctx.idCampagne, idAction);
  if (!a) throw new ServiceError("errors.not-found", 404);
  return a;
}

async function categorieOf(db: Db, idCategorie: number, type: number, field = "idCategorie") {
  const c = await categorieDeType(db, idCategorie, type);
  if (!c) throw invalidField(field);
  return c;
}

type Produit = { libelle: string; code: string | null; idCategorie: number | null; codeGnis: string | null; idDossier: number | null };

/**
 * The catalogue row an input names (its origin says which catalogue, decisions 0028 and 0029): a reference product
 * (773, 776; for a phyto the AMM number idProduit) or an unreferenced input of the user's folder (777) of the same
 * type. Anything else is a field error.
 */
async function produitOf(
  db: Db,
  ctx: CampaignContext,
  type: number,
  origine: number,
  idIntrant: number,
  options: { idCulture?: number; idCategorie?: number } = {},
): Promise<Produit> {
  const idDossier = ctx.view.selected.idDossier;
  if (origine === ORIGINE_INTRANT.DOSSIER) {
    const d = await intrantDuDossier(db, idDossier, idIntrant, type);
    if (!d) throw invalidField("idIntrant");
    return { ...d, idCategorie: null, codeGnis: null, idDossier };
  }
  if (type === TYPE_INTRANT.PHYTO) {
    const p = await produitPhyto(db, idIntrant);
    if (!p) throw invalidField("idIntrant");
    return { libelle: p.nom, code: p.amm, idCategorie: p.idCategorie, codeGnis: null, idDossier: null };
  }
  if (type === TYPE_INTRANT.FERTILISANT) {
    const f = await fertilisantReference(db, idIntrant);
    if (!f || (options.idCategorie != null && f.idTypeFertilisant !== options.idCategorie)) throw invalidField("idIntrant");
    return { libelle: f.libelle, code: null, idCategorie: f.idTypeFertilisant, codeGnis: null, idDossier: null };
  }
  if (type === TYPE_INTRANT.SEMENCE) {
    const s = await semenceReference(db, idIntrant);
    if (!s || (options.idCulture != null && s.idCulture !== options.idCulture)) throw invalidField("idIntrant");
    return { libelle: s.libelle, code: null, idCategorie: CATEGORIE_SEMENCE, codeGnis: s.codeGnis, idDossier: null };
  }
  const o = await autreIntrantReference(db, idIntrant);
  if (!o) throw invalidField("idIntrant");
  return { libelle: o.nom, code: o.code, idCategorie: o.idCategorie, codeGnis: null, idDossier: null };
}

/** The phyto category of a product whose own type is not a phyto category (e.g. a folder input typed loosely). */
async function phytoCategorie(db: Db, idCategorie: number | null): Promise<number> {
  if (idCategorie != null && (await categorieDeType(db, idCategorie, TYPE_INTRANT.PHYTO))) return idCategorie;
  return 5399; // 'Autre produit phytosanitaire'
}

type Stored = { row: Record<string, unknown>; caracteristique?: Record<string, unknown>; cibles?: number[] };

async function storedOf(db: Db, ctx: CampaignContext, kind: IntrantKind, input: IntrantInputOf[IntrantKind]): Promise<Stored> {
  if (kind === "eau") {
    const v = input as EauInput;
    const c = await categorieOf(db, v.idCategorie, TYPE_INTRANT.EAU);
    return {
      row: {
        idCategorie: c.id,
        idIntrant: EAU.idIntrant,
        dicIdOrigineIntrant: EAU.origine,
        libelleIntrant: c.libelle,
        quantite: v.quantite,
        dicLlUnite: v.dicLlUnite,
      },
    };
  }
  if (kind === "autre") {
    const v = input as AutreInput;
    const c = await categorieOf(db, v.idCategorie, TYPE_INTRANT.AUTRE);
    const ref = v.idIntrant != null ? await produitOf(db, ctx, TYPE_INTRANT.AUTRE, ORIGINE_INTRANT.REFERENCE, v.idIntrant) : null;
    return {
      row: {
        idCategorie: c.id,
        idIntrant: v.idIntrant ?? null,
        dicIdOrigineIntrant: v.idIntrant != null ? ORIGINE_INTRANT.REFERENCE : null,
        libelleIntrant: v.libelle,
        codeIntrant: ref?.code ?? null,
        quantite: v.quantite,
        dicLlUnite: v.dicLlUnite,
      },
    };
  }
  if (kind === "fertilisant") {
    const v = input as FertilisantInput;
    const c = await categorieOf(db, v.idCategorie, TYPE_INTRANT.FERTILISANT);
    const p = await produitOf(db, ctx, TYPE_INTRANT.FERTILISANT, v.origine, v.idIntrant, { idCategorie: c.id });
    // No composition typed: the product's reference one is stored (issue 29), as the dialog shows it; a typed one wins.
    const typed = ELEMENTS.some((e) => v[e] != null);
    const reference = typed || v.idIntrant == null ? null : await referenceComposition(db, ctx, v.origine, v.idIntrant);
    const caracteristique = Object.fromEntries(ELEMENTS.map((e) => [e, typed ? (v[e] ?? null) : (reference?.[e] ?? null)]));
    return {
      row: {
        idCategorie: c.id,
        idIntrant: v.idIntrant,
        dicIdOrigineIntrant: v.origine,
        libelleIntrant: p.libelle,
        codeIntrant: p.code,
        idDossier: p.idDossier,
        quantite: v.quantite,
        dicLlUnite: v.dicLlUnite,
      },
      caracteristique,
    };
  }
  if (kind === "phyto") {
    const v = input as PhytoInput;
    const p = await produitOf(db, ctx, TYPE_INTRANT.PHYTO, v.origine, v.idIntrant);
    const cibles = ciblesOf(v);
    if (cibles.length) {
      const known = await ciblesConnues(db, cibles);
      cibles.forEach((c, i) => {
        if (!known.has(c)) throw invalidField(`cible${i + 1}`);
      });
    }
    return {
      row: {
        idCategorie: await phytoCategorie(db, p.idCategorie),
        idIntrant: v.idIntrant,
        dicIdOrigineIntrant: v.origine,
        libelleIntrant: p.libelle,
        codeIntrant: p.code,
        idDossier: p.idDossier,
        quantite: v.quantite,
        dicLlUnite: v.dicLlUnite,
      },
      cibles,
    };
  }
  const v = input as SemenceInput;
  const p = await produitOf(db, ctx, TYPE_INTRANT.SEMENCE, v.origine, v.idIntrant, { idCulture: v.idCulture });
  const categorie = p.idCategorie != null && (await categorieDeType(db, p.idCategorie, TYPE_INTRANT.SEMENCE)) ? p.idCategorie : CATEGORIE_SEMENCE;
  return {
    row: {
      idCategorie: categorie,
      idIntrant: v.idIntrant,
      dicIdOrigineIntrant: v.origine,
      libelleIntrant: p.libelle,
      codeGnis: p.codeGnis,
      idDossier: p.idDossier,
      idCulture: v.idCulture,
      quantite: v.quantite,
      dicLlUnite: v.dicLlUnite,
    },
    caracteristique: { semenceFerme: v.semenceFerme ?? null, semenceCertifiee: v.semenceCertifiee ?? null, semenceOgm: v.semenceOgm ?? null },
  };
}

/**
 * The reference composition of a fertiliser picked from the catalogue (percentages by element): the reference
 * list's row, or the folder's own product's composition (fertilisant_compo_dossier). Undefined when it has none.
 */
function referenceComposition(db: Db, ctx: CampaignContext, origine: number, idIntrant: number): Promise<Record<string, number | null> | undefined> {
  return compositionFertilisant(db, origine === ORIGINE_INTRANT.DOSSIER ? { dossier: ctx.view.selected.idDossier } : "reference", idIntrant);
}

async function writeCibles(db: Db, ctx: CampaignContext, idIntrant: number, cibles: number[], codeAmm: string | null, idCulture: number | null) {
  if (!cibles.length) return replaceCibles(db, idIntrant, []);
  const found =
    codeAmm && idCulture != null
      ? await referentiel.dosesReference(db, { codeAmm, idCulture, anneeRecolte: ctx.view.campagne!.anneeRecolte, idCibles: cibles })
      : null;
  await replaceCibles(
    db,
    idIntrant,
    cibles.map((idCible) => {
      const d = found?.doses.find((x) => x.idCible === idCible);
      return { idCible, doseRef: d?.doseRef ?? null, uniteRef: d?.uniteDoseRef ?? null };
    }),
  );
}

async function writeCaracteristique(db: Db, idIntrant: number, values: Record<string, unknown>) {
  await failingWith(CARACTERISTIQUE_ERROR, () => upsertCaracteristique(db, idIntrant, values));
}

/**
 * Creates (no token) or updates an input of an intervention of the selected campaign (spec 3 §4.1): the input,
 * then its characteristics (composition or seed shares), its targets for a phyto, and on a new seed with a
 * treatment product the treatment as a second input (C-SEED-08, 09). One transaction: all or nothing.
 */
export async function saveIntrant<K extends IntrantKind>(scope: Scope, idAction: number, kind: K, input: IntrantInputOf[K], existing?: Token): Promise<number> {
  const { db } = scope;
  const ctx = await writableCampaign(scope);
  return failingWith(existing ? INTRANTS_UPDATE_ERROR : INTRANTS_CREATE_ERROR, () =>
    db.transaction((trx) => writeIntrant(trx, ctx, idAction, kind, input, existing)),
  );
}

/**
 * The one write path of an input, inside the caller's transaction, for the campaign of `ctx` (whose rights the
 * caller asked): used by the dialog (saveIntrant) and the Daplos import (server/interop/daplos/service.ts).
 */
export async function writeIntrant<K extends IntrantKind>(
  trx: Db,
  ctx: CampaignContext,
  idAction: number,
  kind: K,
  input: IntrantInputOf[K],
  existing?: Token,
): Promise<number> {
  const action = await actionOf(trx, ctx, idAction);
  const stored = await storedOf(trx, ctx, kind, input);
  let id: number;
  if (existing) {
    if ((await typeIntrantDe(trx, existing.id, action.id)) !== KIND_TYPES[kind]) throw new ServiceError(INTRANTS_UPDATE_ERROR, 404);
    await updateIfUnchanged(trx, "intrant", existing, stored.row, { scope: { idAction: action.id } });
    id = existing.id;
  } else {
    id = await insertIntrant(trx, { idAction: action.id, ...stored.row });
  }
  if (stored.caracteristique) await writeCaracteristique(trx, id, stored.caracteristique);
  if (stored.cibles) await writeCibles(trx, ctx, id, stored.cibles, (stored.row.codeIntrant as string | null) ?? null, action.idCulture);
  const seed = input as SemenceInput;
  if (kind === "semence" && !existing && seed.idTraitement != null) {
    const p = await produitOf(trx, ctx, TYPE_INTRANT.PHYTO, seed.origineTraitement ?? ORIGINE_INTRANT.REFERENCE, seed.idTraitement);
    await insertIntrant(trx, {
      idAction: action.id,
      idCategorie: CATEGORIE_TRAITEMENT_SEMENCES,
      idIntrant: seed.idTraitement,
      dicIdOrigineIntrant: seed.origineTraitement ?? ORIGINE_INTRANT.REFERENCE,
      libelleIntrant: p.libelle,
      codeIntrant: p.code,
      idDossier: p.idDossier,
      quantite: seed.quantiteTraitement,
      dicLlUnite: seed.uniteTraitement,
      idIntrantSemence: id,
    });
  }
  return id;
}

/** Deletes one input of an intervention of the selected campaign (its treatment, targets and characteristics with it). */
export async function removeIntrant(scope: Scope, id: number): Promise<void> {
  await removeIntrants(scope, [id]);
}

/**
 * Inputs of the campaign deleted: the dialogs' delete (one id) and the inputs grid's (the selected rows, decision
 * 0137), one path: the rights and lock first, then one transaction; an id that is not an input of the campaign
 * (removed meanwhile, another campaign's) refuses the whole deletion.
 */
export async function removeIntrants(scope: Scope, ids: readonly number[]): Promise<void> {
  const { db } = scope;
  const ctx = await writableCampaign(scope);
  await failingWith(INTRANTS_DELETE_ERROR, () =>
    db.transaction(async (trx) => {
      for (const id of new Set(ids)) {
        const n = await deleteIntrantDeCampagne(trx, ctx.idCampagne, id);
        if (n !== 1) throw new ServiceError(INTRANTS_DELETE_ERROR, 404);
      }
    }),
  );
}

/** An input as its dialog edits it: the stored row, characteristics and targets (C-FORM-33). Only inputs with a category (C-FORM-38). */
export async function getIntrant(scope: Scope, id: number) {
  const { db } = scope;
  const ctx = await campaignContext(scope);
  return failingWith(INTRANTS_LOAD_ERROR, async () => {
    const r = await readIntrant(db, ctx.idCampagne, id);
    if (!r) throw new ServiceError(INTRANTS_LOAD_ERROR, 404);
    return r;
  });
}

/** An input of the campaign as its dialog edits it, with its intervention; undefined when there is none. */
async function readIntrant(db: Db, idCampagne: number, id: number) {
  const r = await intrantDeCampagne(db, idCampagne, id);
  if (!r) return undefined;
  const [car, cibles] = await Promise.all([caracteristiqueDe(db, id), ciblesDe(db, id)]);
  return {
    id: Number(r.id),
    updatedAt: toIso(r.updatedAt),
    type: Number(r.idTypeIntrant),
    idCategorie: Number(r.idCategorie),
    idIntrant: num(r.idIntrant),
    origine: num(r.dicIdOrigineIntrant),
    libelle: String(r.libelleIntrant),
    code: (r.codeIntrant as string | null) ?? null,
    idCulture: num(r.idCulture),
    quantite: num(r.quantite),
    unite: (r.dicLlUnite as string | null) ?? null,
    caracteristique: car ? Object.fromEntries([...ELEMENTS, "semenceFerme", "semenceCertifiee", "semenceOgm"].map((k) => [k, num(car[k])])) : null,
    cibles,
    idAction: Number(r.idAction),
  };
}

/** An intervention's inputs as the interventions grid shows them (issue 29, decision 0126): token and grid values. */
export async function intrantsGrille(scope: Scope, idAction: number): Promise<({ id: number; updatedAt: string } & Record<string, unknown>)[]> {
  const { db } = scope;
  const ctx = await campaignContext(scope);
  return failingWith(INTRANTS_LOAD_ERROR, async () => {
    await actionOf(db, ctx, idAction);
    const out = [];
    for (const id of await idsIntrantsDeAction(db, idAction)) {
      const r = await readIntrant(db, ctx.idCampagne, id);
      if (r) out.push({ id: r.id, updatedAt: r.updatedAt, ...grilleRowOf(r) });
    }
    return out;
  });
}

/**
 * The save of an intervention's inputs grid (decision 0126): each row becomes the input its dialog would send
 * (`dialogInput`: the grid's product, dose, unit and main target over the stored details), parsed with that dialog's
 * schema and written by the dialogs' own path (`writeIntrant`), in one transaction. Every row is judged before any
 * write (an invalid row refuses the save, its fields named as the grid's); a row changed or removed meanwhile is
 * set aside with its current values and the others are written (decision 0100). A new row is a phyto.
 */
export async function saveIntrantsGrid(scope: Scope, idAction: number, patches: unknown): Promise<GridSaveResult> {
  const { db } = scope;
  const ctx = await writableCampaign(scope);
  const list = parse(rowPatchesSchema(IntrantGrilleSchema), { patches }).patches;
  const key = (index: number, field: string) => (field ? `patches.${index}.values.${field}` : `patches.${index}`);
  return failingWith(INTRANTS_UPDATE_ERROR, () =>
    db.transaction(async (trx) => {
      await actionOf(trx, ctx, idAction);
      const fieldErrors: Record<string, string[]> = {};
      const refuse = (index: number, errors: Record<string, string[]>) => {
        for (const [field, keys] of Object.entries(errors)) {
          const list = (fieldErrors[key(index, grilleField(field))] ??= []);
          for (const k of keys) if (!list.includes(k)) list.push(k);
        }
      };
      const conflicts: RowConflict[] = [];
      const rows: { index: number; id: number | null; token?: Token; kind: GrilleKind; input: Record<string, unknown> }[] = [];
      for (const [index, p] of list.entries()) {
        const isNew = p.id === null || p.id < 0;
        const stored = isNew ? undefined : await readIntrant(trx, ctx.idCampagne, p.id!);
        if (!isNew && (!stored || stored.idAction !== idAction)) {
          conflicts.push({ index, id: p.id!, key: "errors.not-found", updatedAt: null, values: null });
          continue;
        }
        const kind = stored ? kindOfType(stored.type) : "phyto";
        if (!kind) {
          refuse(index, { "": ["warning.invalid"] });
          continue;
        }
        const r = validate(KIND_SCHEMAS[kind], dialogInput(kind, p.values, stored));
        if (!r.success) refuse(index, r.fieldErrors);
        else rows.push({ index, id: p.id, token: stored ? { id: stored.id, updatedAt: p.updatedAt ?? "" } : undefined, kind, input: r.data });
      }
      if (Object.keys(fieldErrors).length) throw new ServiceError(INVALID_FORM, 400, fieldErrors);
      const saved: SavedRow[] = [];
      for (const row of rows) {
        try {
          const id = await writeIntrant(trx, ctx, idAction, row.kind, row.input as IntrantInputOf[IntrantKind], row.token);
          const now = await readIntrant(trx, ctx.idCampagne, id);
          saved.push({ index: row.index, sentId: row.id, id, updatedAt: now?.updatedAt ?? "", inserted: !row.token });
        } catch (e) {
          if (isServiceError(e) && e.key === STALE && row.token) {
            const now = await readIntrant(trx, ctx.idCampagne, row.token.id);
            conflicts.push({
              index: row.index,
              id: row.token.id,
              key: now ? STALE : "errors.not-found",
              updatedAt: now?.updatedAt ?? null,
              values: now ? grilleRowOf(now) : null,
            });
          } else if (isServiceError(e) && e.fieldErrors) {
            refuse(row.index, e.fieldErrors);
            throw new ServiceError(INVALID_FORM, 400, fieldErrors);
          } else throw e;
        }
      }
      return { saved, conflicts: conflicts.sort((a, b) => a.index - b.index) };
    }),
  );
}

/**
 * Inputs pasted over several interventions (decision 0137): the block of new rows of the inputs grid, when several
 * interventions are selected, added to each of them, in one transaction. Each row is judged once as a new row of the
 * grid (a phyto, `dialogInput` and the dialog's schema, its errors keyed as the grid's `patches.<i>.values.<field>`)
 * before any write, then written for each intervention by the dialogs' `writeIntrant`. Only new rows: an existing
 * input belongs to one intervention (its own grid edits it).
 */
export async function addIntrantsToActions(scope: Scope, idActions: readonly number[], patches: unknown): Promise<GridSaveResult> {
  const { db } = scope;
  const ctx = await writableCampaign(scope);
  const list = parse(rowPatchesSchema(IntrantGrilleSchema), { patches }).patches;
  const key = (index: number, field: string) => (field ? `patches.${index}.values.${field}` : `patches.${index}`);
  const fieldErrors: Record<string, string[]> = {};
  const refuse = (index: number, errors: Record<string, string[]>) => {
    for (const [field, keys] of Object.entries(errors)) {
      const list = (fieldErrors[key(index, grilleField(field))] ??= []);
      for (const k of keys) if (!list.includes(k)) list.push(k);
    }
  };
  const rows: { index: number; sentId: number | null; input: PhytoInput }[] = [];
  for (const [index, p] of list.entries()) {
    if (p.id !== null && p.id > 0) {
      refuse(index, { "": ["warning.invalid"] });
      continue;
    }
    const r = validate(KIND_SCHEMAS.phyto, dialogInput("phyto", p.values, undefined));
    if (!r.success) refuse(index, r.fieldErrors);
    else rows.push({ index, sentId: p.id, input: r.data as PhytoInput });
  }
  if (Object.keys(fieldErrors).length) throw new ServiceError(INVALID_FORM, 400, fieldErrors);
  return failingWith(INTRANTS_UPDATE_ERROR, () =>
    db.transaction(async (trx) => {
      const saved: SavedRow[] = [];
      for (const idAction of new Set(idActions)) {
        await actionOf(trx, ctx, idAction);
        for (const row of rows) {
          try {
            const id = await writeIntrant(trx, ctx, idAction, "phyto", row.input);
            const now = await readIntrant(trx, ctx.idCampagne, id);
            saved.push({ index: row.index, sentId: row.sentId, id, updatedAt: now?.updatedAt ?? "", inserted: true });
          } catch (e) {
            if (!isServiceError(e) || !e.fieldErrors) throw e;
            refuse(row.index, e.fieldErrors);
            throw new ServiceError(INVALID_FORM, 400, fieldErrors);
          }
        }
      }
      return { saved, conflicts: [] };
    }),
  );
}
