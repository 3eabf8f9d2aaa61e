import {
  CARACTERISTIQUE_RECOLTE,
  CATEGORIE_CULTURE_RECOLTE_DEFAUT,
  QUALIFIANT_DELETE_WARNING,
  recolteStockee,
  type QualifiantRecolteInput,
  type RecolteInput,
} from "~/domain/recolte";
import { campaignContext, writableCampaign, type CampaignContext } from "../access/description";
import { toIso } from "../db/dialect";
import type { Db } from "../db/knex";
import { updateIfUnchanged, type Token } from "../db/stale";
import { failingWith, invalidField, ServiceError } from "../errors";
import { readSerieRecolte, writeSerieRecolte } from "./serie";
import type { Scope } from "../access/scope";
import type { Utilisateur } from "../utilisateur/repo";
import {
  actionDeCampagne,
  animauxConnus,
  animauxReference,
  caracteristiquesRecolte,
  categoriesCulture,
  cultureDe,
  culturePrincipaleNom,
  culturesDesModes,
  culturesPrincipales,
  deleteQualifiant,
  deleteRecolte,
  insertQualifiant,
  insertRecolte,
  qualifiantNom,
  qualifiantNomme,
  qualifiantsOf,
  qualifiantUtilise,
  recolteDeCampagne,
  recolteDeCaracteristique,
  recoltesIdsOfQualifiant,
  replaceCaracteristiques,
  serieDeRecolte,
  setSerieRecolte,
  typeSortieDeCulture,
  typesSortieCulture,
  type CultureRecolte,
  type Qualifiant,
  type TypeSortie,
} from "./repo";

export type { CultureRecolte, Qualifiant, TypeSortie } from "./repo";

/**
 * Harvest products of the interventions and the folder's harvest qualifiers (spec 3 §2.2, §3.6, §4.1, §4.2, §7;
 * decision 0031). Every write asks the write gate of the selected campaign (its own farm's right and its lock);
 * a harvest of another campaign, or a qualifier of another folder, is never written.
 */

/** Error keys of spec 3 §8 (C-ERR-09, 10, 12, 14). */
export const QUALIFIANTS_LOAD_ERROR = "errors.services.qualifRecoltes-service-error";
export const QUALIFIANT_CREATE_ERROR = "errors.services.qualifiant_recoltes-create-service-error";
export const QUALIFIANT_DELETE_ERROR = "errors.services.qualifiant-recolte-delete-service-error";
export const RECOLTES_LOAD_ERROR = "errors.services.recoltes-service-error";
export const RECOLTES_CREATE_ERROR = "errors.services.recoltes-create-service-error";
export const RECOLTE_UPDATE_ERROR = "errors.services.recolte-update-service-error";
export const RECOLTES_DELETE_ERROR = "errors.services.recoltes-delete-service-error";
export const CARACTERISTIQUES_RECOLTE_ERROR = "errors.services.caracteristique_recoltes-service-error";

const num = (v: unknown) => (v == null ? null : Number(v));

const idDossierOf = (ctx: CampaignContext) => {
  const id = ctx.view.selected.idDossier;
  if (id == null) throw new ServiceError("errors.forbidden", 403);
  return id;
};

// ---- Qualifiers (folder)

/** The harvest qualifiers of the selected folder (C-QUAL-01), each saying whether harvests use it. */
export async function listQualifiants(scope: Scope): Promise<Qualifiant[]> {
  const { db } = scope;
  const ctx = await campaignContext(scope);
  return failingWith(QUALIFIANTS_LOAD_ERROR, () => qualifiantsOf(db, idDossierOf(ctx)));
}

/**
 * Creates a qualifier of the selected folder from the typed text (C-QUAL-02); the same name twice is the one
 * qualifier (the name is unique in the folder).
 */
export async function createQualifiant(scope: Scope, input: QualifiantRecolteInput): Promise<{ id: number; qrdNom: string }> {
  const { db } = scope;
  const ctx = await writableCampaign(scope);
  const idDossier = idDossierOf(ctx);
  return failingWith(QUALIFIANT_CREATE_ERROR, () =>
    db.transaction(async (trx) => {
      const same = await qualifiantNomme(trx, idDossier, input.qrdNom);
      return { id: same ?? (await insertQualifiant(trx, idDossier, input.qrdNom)), qrdNom: input.qrdNom };
    }),
  );
}

/**
 * Deletes a qualifier (spec 3 §4.2): only one of the selected folder (C-QUAL-05), and never while harvests or sale
 * prices use it (C-QUAL-03): the warning interventions.qualifiant-delete-error (C-QUAL-04), nothing deleted.
 */
export async function removeQualifiant(scope: Scope, id: number): Promise<void> {
  const { db } = scope;
  const ctx = await writableCampaign(scope);
  const idDossier = idDossierOf(ctx);
  await failingWith(QUALIFIANT_DELETE_ERROR, () =>
    db.transaction(async (trx) => {
      if ((await qualifiantNom(trx, idDossier, id)) == null) throw new ServiceError(QUALIFIANT_DELETE_ERROR, 404);
      if (await qualifiantUtilise(trx, id)) throw new ServiceError(QUALIFIANT_DELETE_WARNING, 409);
      await deleteQualifiant(trx, idDossier, id);
    }),
  );
}

// ---- What the harvest dialog reads

/**
 * The lists the harvest dialog opens with (C-HARV-12): the crop categories (9017 first chosen), the crops with
 * their default category (those of the campaign's management modes marked, with their category there), the
 * folder's qualifiers and the animal types.
 */
export async function recolteDialogLists(scope: Scope, idAction: number) {
  const { db } = scope;
  const ctx = await campaignContext(scope);
  return failingWith(RECOLTES_LOAD_ERROR, async () => {
    const action = await actionDeCampagne(db, ctx.idCampagne, idAction);
    if (!action) throw new ServiceError("errors.not-found", 404);
    const [categories, enCampagne, principales, animaux] = await Promise.all([
      categoriesCulture(db),
      culturesDesModes(db, ctx.idCampagne),
      culturesPrincipales(db),
      animauxReference(db),
    ]);
    const cultures: CultureRecolte[] = principales.map((c) => ({
      ...c,
      idCatCulture: enCampagne.get(c.id) ?? c.idCatCulture,
      campagne: enCampagne.has(c.id),
    }));
    const qualifiants = await failingWith(QUALIFIANTS_LOAD_ERROR, () => qualifiantsOf(db, idDossierOf(ctx)));
    return {
      categories,
      categorieDefaut: CATEGORIE_CULTURE_RECOLTE_DEFAUT,
      cultures,
      animaux,
      qualifiants,
      idCultureIntervention: action.idCultureConcernee,
    };
  });
}

/** The output types of a crop (types_sorties, C-HARV-06). */
export async function typesSortie(scope: Scope, idCulture: number): Promise<TypeSortie[]> {
  const { db } = scope;
  await campaignContext(scope);
  return failingWith(RECOLTES_LOAD_ERROR, () => typesSortieCulture(db, idCulture));
}

/** A harvest as its dialog edits it: the row, the reference humidity, the animal rows and the series' observations. */
export async function getRecolte(scope: Scope, id: number) {
  const { db } = scope;
  const ctx = await campaignContext(scope);
  return failingWith(RECOLTES_LOAD_ERROR, async () => {
    const r = await recolteDeCampagne(db, ctx.idCampagne, id);
    if (!r) throw new ServiceError(RECOLTES_LOAD_ERROR, 404);
    const caracteristiques = await failingWith(CARACTERISTIQUES_RECOLTE_ERROR, () => caracteristiquesRecolte(db, id));
    const humidite = caracteristiques.find((c) => Number(c.dicIdCaracteristiqueRecolte) === CARACTERISTIQUE_RECOLTE.HUMIDITE_REFERENCE);
    return {
      id: Number(r.id),
      updatedAt: toIso(r.updatedAt),
      idAction: Number(r.idAction),
      idCulture: Number(r.idCulture),
      dicIdTypeSortie: Number(r.dicIdTypeSortie),
      rendement: num(r.rendement),
      dicLlUnite: String(r.dicLlUnite),
      idQualifiantRecolte: num(r.idQualifiantRecolte),
      idObservationSerie: num(r.idObservationSerie),
      humiditeReference: humidite ? num(humidite.valeurNum) : null,
      animaux: caracteristiques
        .filter((c) => Number(c.dicIdCaracteristiqueRecolte) === CARACTERISTIQUE_RECOLTE.ANIMAUX && c.dicIdModalite != null)
        .map((c) => ({ dicIdModalite: Number(c.dicIdModalite), nombre: num(c.valeurNum) })),
      serie: await readSerieRecolte(db, num(r.idObservationSerie)),
    };
  });
}

// ---- Writes

/** The intervention a harvest is written to, within the writable campaign (a foreign one is a 404). */
async function actionOf(db: Db, ctx: CampaignContext, idAction: number) {
  const a = await actionDeCampagne(db, ctx.idCampagne, idAction);
  if (!a) throw new ServiceError("errors.not-found", 404);
  return { id: a.id, idParcelle: a.idParcelle, date: a.date };
}

/** Checks the crop, its output type and the qualifier (of the selected folder); gives what the series is named from. */
async function liens(db: Db, ctx: CampaignContext, input: RecolteInput) {
  const culture = await culturePrincipaleNom(db, input.idCulture);
  if (culture == null) throw invalidField("idCulture");
  const type = await typeSortieDeCulture(db, input.idCulture, input.dicIdTypeSortie);
  if (!type) throw invalidField("dicIdTypeSortie");
  const stored = recolteStockee(input, type.unite);
  let qualifiant: string | null = null;
  if (stored.idQualifiantRecolte != null) {
    qualifiant = await qualifiantNom(db, idDossierOf(ctx), stored.idQualifiantRecolte);
    if (qualifiant == null) throw invalidField("idQualifiantRecolte");
  }
  if (stored.animaux.length) {
    const known = await animauxConnus(
      db,
      stored.animaux.map((a) => a.dicIdModalite),
    );
    stored.animaux.forEach((a, i) => {
      if (!known.has(a.dicIdModalite)) throw invalidField(`animaux[${i}].dicIdModalite`);
    });
  }
  return { stored, culture, typeSortie: type.libelle, qualifiant };
}

/**
 * Creates (no token) or updates a harvest of an intervention of the selected campaign (spec 3 §4.1): the harvest
 * with the rules of a grazing applied, its characteristics (reference humidity, animal rows) and its observation
 * series of type 1128 with the actual observations. One transaction: all or nothing.
 */
export async function saveRecolte(scope: Scope, idAction: number, input: RecolteInput, existing?: Token): Promise<number> {
  const { db, user } = scope;
  const ctx = await writableCampaign(scope);
  return failingWith(existing ? RECOLTE_UPDATE_ERROR : RECOLTES_CREATE_ERROR, () =>
    db.transaction((trx) => writeRecolte(trx, ctx, user, idAction, input, existing)),
  );
}

/**
 * The one write path of a harvest, inside the caller's transaction, for the campaign of `ctx` (whose rights the
 * caller asked): used by the dialog (saveRecolte) and the Daplos import (server/interop/daplos/service.ts).
 */
export async function writeRecolte(trx: Db, ctx: CampaignContext, user: Utilisateur, idAction: number, input: RecolteInput, existing?: Token): Promise<number> {
  const action = await actionOf(trx, ctx, idAction);
  const { stored, culture, typeSortie, qualifiant } = await liens(trx, ctx, input);
  const row = {
    idCulture: stored.idCulture,
    dicIdTypeSortie: stored.dicIdTypeSortie,
    rendement: stored.rendement,
    idQualifiantRecolte: stored.idQualifiantRecolte,
    dicLlUnite: stored.dicLlUnite,
  };
  let id: number;
  let idSerie: number | null = null;
  if (existing) {
    const current = await serieDeRecolte(trx, existing.id, action.id);
    if (!current) throw new ServiceError(RECOLTE_UPDATE_ERROR, 404);
    idSerie = current.idObservationSerie;
    await updateIfUnchanged(trx, "recolte", existing, row, { scope: { idAction: action.id }, notFound: RECOLTE_UPDATE_ERROR });
    id = existing.id;
  } else {
    id = await insertRecolte(trx, { idAction: action.id, ...row });
  }
  await failingWith(CARACTERISTIQUES_RECOLTE_ERROR, () => replaceCaracteristiques(trx, id, stored));
  const serie = await writeSerieRecolte(trx, { ctx, user, action, idSerie, nom: { culture, typeSortie, qualifiant }, stored });
  if (serie !== idSerie) await setSerieRecolte(trx, id, serie);
  return id;
}

/** Deletes a harvest of the selected campaign with its characteristics (cascade) and its observation series. */
export async function removeRecolte(scope: Scope, id: number): Promise<void> {
  const { db, user } = scope;
  const ctx = await writableCampaign(scope);
  await failingWith(RECOLTES_DELETE_ERROR, () =>
    db.transaction(async (trx) => {
      const r = await recolteDeCampagne(trx, ctx.idCampagne, id);
      if (!r) throw new ServiceError(RECOLTES_DELETE_ERROR, 404);
      await deleteRecolte(trx, id);
      await writeSerieRecolte(trx, { ctx, user, action: null, idSerie: num(r.idObservationSerie), nom: null, stored: null });
    }),
  );
}

// ---- What the JSON API reads besides the dialog (issue 27, decision 0141)

/** A characteristic row as the API shows it; its token is the harvest's (the rows are written with it). */
const caracteristiqueRow = (c: Record<string, unknown>, updatedAt: unknown) => ({
  id: Number(c.id),
  idRecolte: Number(c.idRecolte),
  dicIdCaracteristiqueRecolte: Number(c.dicIdCaracteristiqueRecolte),
  valeurNum: num(c.valeurNum),
  dicIdModalite: num(c.dicIdModalite),
  dicLlUnite: c.dicLlUnite == null ? null : String(c.dicLlUnite),
  updatedAt: toIso(updatedAt as Date | string),
});
export type CaracteristiqueRecolte = ReturnType<typeof caracteristiqueRow>;

/** The characteristic rows of a harvest of the selected campaign (reference humidity, animals), in order. */
export async function getCaracteristiquesRecolte(scope: Scope, idRecolte: number): Promise<CaracteristiqueRecolte[]> {
  const { db } = scope;
  const ctx = await campaignContext(scope);
  return failingWith(CARACTERISTIQUES_RECOLTE_ERROR, async () => {
    const r = await recolteDeCampagne(db, ctx.idCampagne, idRecolte);
    if (!r) throw new ServiceError(CARACTERISTIQUES_RECOLTE_ERROR, 404);
    return (await caracteristiquesRecolte(db, idRecolte)).map((c) => caracteristiqueRow(c, r.updatedAt));
  });
}

/** One characteristic row of a harvest of the selected campaign. */
export async function getCaracteristiqueRecolte(scope: Scope, id: number): Promise<CaracteristiqueRecolte> {
  await campaignContext(scope);
  const idRecolte = await failingWith(CARACTERISTIQUES_RECOLTE_ERROR, () => recolteDeCaracteristique(scope.db, id));
  const row = idRecolte == null ? undefined : (await getCaracteristiquesRecolte(scope, idRecolte)).find((c) => c.id === id);
  if (!row) throw new ServiceError(CARACTERISTIQUES_RECOLTE_ERROR, 404);
  return row;
}

/** The harvest of a characteristic row (null: none); the API finds the campaign from it. */
export function recolteOfCaracteristique(db: Db, id: number): Promise<number | null> {
  return recolteDeCaracteristique(db, id);
}

/** The campaign's harvests that carry a qualifier of the selected folder (qualifiant_recoltes/{id}/recoltes). */
export async function recoltesDuQualifiant(scope: Scope, idQualifiant: number) {
  const { db } = scope;
  const ctx = await campaignContext(scope);
  const ids = await failingWith(QUALIFIANTS_LOAD_ERROR, async () => {
    if ((await qualifiantNom(db, idDossierOf(ctx), idQualifiant)) == null) throw new ServiceError(QUALIFIANTS_LOAD_ERROR, 404);
    return recoltesIdsOfQualifiant(db, ctx.idCampagne, idQualifiant);
  });
  const out = [];
  for (const id of ids) out.push(await getRecolte(scope, id));
  return out;
}

/** A crop of the reference with its output types (cultures/{id}): reference data any signed-in user reads. */
export async function getCultureAvecSorties(scope: Scope, idCulture: number) {
  const { db } = scope;
  return failingWith(RECOLTES_LOAD_ERROR, async () => {
    const c = await cultureDe(db, idCulture);
    if (!c) throw new ServiceError("errors.not-found", 404);
    return { ...c, typesSorties: await typesSortieCulture(db, idCulture) };
  });
}
