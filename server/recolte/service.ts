import {
  CARACTERISTIQUE_RECOLTE,
  CATEGORIE_CULTURE_RECOLTE_DEFAUT,
  QUALIFIANT_DELETE_WARNING,
  recolteStockee,
  UNITE_ANIMAUX,
  type QualifiantRecolteInput,
  type RecolteInput,
  type RecolteStockee,
} from "~/domain/recolte";
import { campaignContext, writableCampaign, type CampaignContext } from "../access/description";
import { toIso } from "../db/dialect";
import type { Db } from "../db/knex";
import { updateIfUnchanged, type Token } from "../db/stale";
import { failingWith, invalidField, ServiceError } from "../errors";
import { readSerieRecolte, writeSerieRecolte } from "./serie";
import type { Scope } from "../access/scope";
import type { Utilisateur } from "../utilisateur/repo";
import { insertId } from "../db/insert-id";

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
const text = (v: unknown) => (v == null ? null : String(v));

const idDossierOf = (ctx: CampaignContext) => {
  const id = ctx.view.selected.idDossier;
  if (id == null) throw new ServiceError("errors.forbidden", 403);
  return id;
};

// ---- Qualifiers (folder)

export type Qualifiant = { id: number; qrdNom: string; utilise: boolean };

async function qualifiantsOf(db: Db, idDossier: number): Promise<Qualifiant[]> {
  const rows = await db("qualifiant_recolte as q")
    .where("q.idDossier", idDossier)
    .select("q.id", "q.qrdNom", db.raw("exists (select 1 from recolte r where r.id_qualifiant_recolte = q.id) as utilise"))
    .orderBy("q.qrdNom");
  return rows.map((r) => ({ id: Number(r.id), qrdNom: String(r.qrdNom), utilise: r.utilise === true || Number(r.utilise) === 1 }));
}

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
      const same = await trx("qualifiant_recolte").where({ idDossier, qrdNom: input.qrdNom }).first("id");
      if (same) return { id: Number(same.id), qrdNom: input.qrdNom };
      return { id: await insertId(trx, "qualifiant_recolte", { idDossier, qrdNom: input.qrdNom }), qrdNom: input.qrdNom };
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
      const q = await trx("qualifiant_recolte").where({ id, idDossier }).first("id");
      if (!q) throw new ServiceError(QUALIFIANT_DELETE_ERROR, 404);
      // In use: by a harvest, or by a sale price (prices are kept per qualifier, decision 0034).
      const used =
        (await trx("recolte").where({ idQualifiantRecolte: id }).first("id")) ?? (await trx("prix_vente").where({ idQualifiantRecolte: id }).first("id"));
      if (used) throw new ServiceError(QUALIFIANT_DELETE_WARNING, 409);
      await trx("qualifiant_recolte").where({ id, idDossier }).delete();
    }),
  );
}

// ---- What the harvest dialog reads

export type CultureRecolte = { id: number; libelle: string; libelleEn: string | null; idCatCulture: number | null; campagne: boolean };
export type TypeSortie = { id: number; libelle: string; libelleEn: string | null; unite: string };

/**
 * The lists the harvest dialog opens with (C-HARV-12): the crop categories (9017 first chosen), the crops with
 * their default category (those of the campaign's management modes marked, with their category there), the
 * folder's qualifiers and the animal types.
 */
export async function recolteDialogLists(scope: Scope, idAction: number) {
  const { db } = scope;
  const ctx = await campaignContext(scope);
  return failingWith(RECOLTES_LOAD_ERROR, async () => {
    const action = await db("action").where({ id: idAction, idCampagne: ctx.idCampagne }).first("id", "idCultureConcernee");
    if (!action) throw new ServiceError("errors.not-found", 404);
    const categories = (await db("categorie_culture").orderBy("ordre").select("id", "libelle", "libelleEn")).map((c) => ({
      id: Number(c.id),
      libelle: String(c.libelle),
      libelleEn: text(c.libelleEn),
    }));
    const enCampagne = new Map<number, number | null>();
    for (const r of await db("mode_conduite_culture as mcc")
      .join("mode_conduite as mc", "mc.id", "mcc.idModeConduite")
      .where("mc.idCampagne", ctx.idCampagne)
      .select("mcc.idCulture", "mcc.idCatCulture")) {
      if (!enCampagne.has(Number(r.idCulture)) || r.idCatCulture != null) enCampagne.set(Number(r.idCulture), num(r.idCatCulture));
    }
    const cultures: CultureRecolte[] = (
      await db("culture")
        .where("interculture", false)
        .orderBy([{ column: "ordre" }, { column: "libelle" }])
        .select("id", "libelle", "libelleEn", "idCatCulture")
    ).map((c) => {
      const id = Number(c.id);
      return {
        id,
        libelle: String(c.libelle),
        libelleEn: text(c.libelleEn),
        idCatCulture: enCampagne.get(id) ?? num(c.idCatCulture),
        campagne: enCampagne.has(id),
      };
    });
    const animaux = (await db("reference_animal").orderBy("ordre").select("id", "libelle", "libelleEn")).map((a) => ({
      id: Number(a.id),
      libelle: String(a.libelle),
      libelleEn: text(a.libelleEn),
    }));
    const qualifiants = await failingWith(QUALIFIANTS_LOAD_ERROR, () => qualifiantsOf(db, idDossierOf(ctx)));
    return {
      categories,
      categorieDefaut: CATEGORIE_CULTURE_RECOLTE_DEFAUT,
      cultures,
      animaux,
      qualifiants,
      idCultureIntervention: num(action.idCultureConcernee),
    };
  });
}

/** The output types of a crop (types_sorties, C-HARV-06). */
export async function typesSortie(scope: Scope, idCulture: number): Promise<TypeSortie[]> {
  const { db } = scope;
  await campaignContext(scope);
  return failingWith(RECOLTES_LOAD_ERROR, async () =>
    (
      await db("culture_type_sortie as cts")
        .join("type_sortie as ts", "ts.id", "cts.idTypeSortie")
        .where("cts.idCulture", idCulture)
        .orderBy([{ column: "ts.ordre" }, { column: "ts.id" }])
        .select("ts.id", "ts.libelle", "ts.libelleEn", "ts.unite")
    ).map((t) => ({ id: Number(t.id), libelle: String(t.libelle), libelleEn: text(t.libelleEn), unite: String(t.unite) })),
  );
}

/** A harvest as its dialog edits it: the row, the reference humidity, the animal rows and the series' observations. */
export async function getRecolte(scope: Scope, id: number) {
  const { db } = scope;
  const ctx = await campaignContext(scope);
  return failingWith(RECOLTES_LOAD_ERROR, async () => {
    const r = await db("recolte as r").join("action as a", "a.id", "r.idAction").where({ "r.id": id, "a.idCampagne": ctx.idCampagne }).first("r.*");
    if (!r) throw new ServiceError(RECOLTES_LOAD_ERROR, 404);
    const caracteristiques = await failingWith(CARACTERISTIQUES_RECOLTE_ERROR, () =>
      db("caracteristique_recolte")
        .where({ idRecolte: id })
        .orderBy([{ column: "ordre" }, { column: "id" }])
        .select("*"),
    );
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
  const a = await db("action").where({ id: idAction, idCampagne: ctx.idCampagne }).first("id", "idParcelle", "date");
  if (!a) throw new ServiceError("errors.not-found", 404);
  return { id: Number(a.id), idParcelle: Number(a.idParcelle), date: a.date as unknown };
}

/** Checks the crop, its output type and the qualifier (of the selected folder); gives what the series is named from. */
async function liens(db: Db, ctx: CampaignContext, input: RecolteInput) {
  const culture = await db("culture").where({ id: input.idCulture, interculture: false }).first("libelle");
  if (!culture) throw invalidField("idCulture");
  const type = await db("culture_type_sortie as cts")
    .join("type_sortie as ts", "ts.id", "cts.idTypeSortie")
    .where({ "cts.idCulture": input.idCulture, "ts.id": input.dicIdTypeSortie })
    .first("ts.libelle", "ts.unite");
  if (!type) throw invalidField("dicIdTypeSortie");
  const stored = recolteStockee(input, String(type.unite));
  let qualifiant: string | null = null;
  if (stored.idQualifiantRecolte != null) {
    const q = await db("qualifiant_recolte")
      .where({ id: stored.idQualifiantRecolte, idDossier: idDossierOf(ctx) })
      .first("qrdNom");
    if (!q) throw invalidField("idQualifiantRecolte");
    qualifiant = String(q.qrdNom);
  }
  if (stored.animaux.length) {
    const known = new Set(
      (
        await db("reference_animal")
          .whereIn(
            "id",
            stored.animaux.map((a) => a.dicIdModalite),
          )
          .pluck("id")
      ).map(Number),
    );
    stored.animaux.forEach((a, i) => {
      if (!known.has(a.dicIdModalite)) throw invalidField(`animaux[${i}].dicIdModalite`);
    });
  }
  return { stored, culture: String(culture.libelle), typeSortie: String(type.libelle), qualifiant };
}

async function writeCaracteristiques(db: Db, idRecolte: number, stored: RecolteStockee) {
  await failingWith(CARACTERISTIQUES_RECOLTE_ERROR, async () => {
    await db("caracteristique_recolte").where({ idRecolte }).delete();
    const rows: Record<string, unknown>[] = [];
    if (stored.humiditeReference != null) {
      rows.push({
        idRecolte,
        dicIdCaracteristiqueRecolte: CARACTERISTIQUE_RECOLTE.HUMIDITE_REFERENCE,
        valeurNum: stored.humiditeReference,
        dicLlUnite: "%",
        unite: "%",
        ordre: 0,
      });
    }
    stored.animaux.forEach((a, i) =>
      rows.push({
        idRecolte,
        dicIdCaracteristiqueRecolte: CARACTERISTIQUE_RECOLTE.ANIMAUX,
        dicIdModalite: a.dicIdModalite,
        valeurNum: a.nombre,
        dicLlUnite: UNITE_ANIMAUX,
        unite: UNITE_ANIMAUX,
        ordre: i + 1,
      }),
    );
    if (rows.length) await db("caracteristique_recolte").insert(rows);
  });
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
    const current = await trx("recolte").where({ id: existing.id, idAction: action.id }).first("idObservationSerie");
    if (!current) throw new ServiceError(RECOLTE_UPDATE_ERROR, 404);
    idSerie = num(current.idObservationSerie);
    await updateIfUnchanged(trx, "recolte", existing, row, { scope: { idAction: action.id }, notFound: RECOLTE_UPDATE_ERROR });
    id = existing.id;
  } else {
    id = await insertId(trx, "recolte", { idAction: action.id, ...row });
  }
  await writeCaracteristiques(trx, id, stored);
  const serie = await writeSerieRecolte(trx, { ctx, user, action, idSerie, nom: { culture, typeSortie, qualifiant }, stored });
  if (serie !== idSerie) await trx("recolte").where({ id }).update({ idObservationSerie: serie });
  return id;
}

/** Deletes a harvest of the selected campaign with its characteristics (cascade) and its observation series. */
export async function removeRecolte(scope: Scope, id: number): Promise<void> {
  const { db, user } = scope;
  const ctx = await writableCampaign(scope);
  await failingWith(RECOLTES_DELETE_ERROR, () =>
    db.transaction(async (trx) => {
      const r = await trx("recolte as r")
        .join("action as a", "a.id", "r.idAction")
        .where({ "r.id": id, "a.idCampagne": ctx.idCampagne })
        .first("r.idObservationSerie");
      if (!r) throw new ServiceError(RECOLTES_DELETE_ERROR, 404);
      await trx("recolte").where({ id }).delete();
      await writeSerieRecolte(trx, { ctx, user, action: null, idSerie: num(r.idObservationSerie), nom: null, stored: null });
    }),
  );
}
