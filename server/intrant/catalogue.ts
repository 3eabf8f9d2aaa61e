import { ELEMENTS, ORIGINE_INTRANT } from "~/domain/intrant";
import { campaignContext } from "../access/description";
import { bool } from "../db/dialect";
import type { Db } from "../db/knex";
import { failingWith, ServiceError } from "../errors";
import * as referentiel from "../referentiel-intrants/service";
import type { Scope } from "../access/scope";

/**
 * What the input dialogs read, for the user's selected campaign and folder: the catalogues of
 * server/referentiel-intrants (decision 0029) in the dialogs' shape, an item named by its origin and the id an
 * input stores (`intrant.id_intrant`: the AMM number idProduit for a reference phyto, the row id otherwise).
 */

/** Phyto product failures (C-ERR-15). */
export const PHYTOS_ERROR = "errors.services.intrant_phytos-service-error";
const LOAD_ERROR = "errors.services.intrants-service-error";
const num = (v: unknown) => (v == null ? null : Number(v));

export type CatalogueItem = {
  id: number;
  origine: number;
  libelle: string;
  code?: string | null;
  biocontrole?: boolean;
  idCategorie?: number | null;
  composition?: Record<string, number | null>;
};

/** The lists an input dialog opens with: categories, crops with their seed figures, targets, the operation's spray volume. */
export async function dialogLists(scope: Scope, idAction: number) {
  const { db } = scope;
  const ctx = await campaignContext(scope);
  return failingWith(LOAD_ERROR, async () => {
    const action = await db("action as a")
      .leftJoin("operation_culturale as o", "o.id", "a.idOperationCulturale")
      .where({ "a.id": idAction, "a.idCampagne": ctx.idCampagne })
      .first("o.volumeBouillie");
    if (!action) throw new ServiceError("errors.not-found", 404);
    const categories = (
      await db("categorie_intrant")
        .orderBy([{ column: "idTypeIntrant" }, { column: "ordre" }])
        .select("id", "idTypeIntrant", "libelle", "libelleEn", "uniteDefaut", "avertissement")
    ).map((c) => ({
      id: Number(c.id),
      idTypeIntrant: Number(c.idTypeIntrant),
      libelle: String(c.libelle),
      libelleEn: (c.libelleEn as string | null) ?? null,
      uniteDefaut: (c.uniteDefaut as string | null) ?? null,
      avertissement: bool(c.avertissement),
    }));
    const cultures = (
      await db("culture")
        .where("interculture", false)
        .orderBy([{ column: "ordre" }, { column: "libelle" }])
        .select("id", "libelle", "libelleEn", "culPmg", "culGrainDose")
    ).map((c) => ({
      id: Number(c.id),
      libelle: String(c.libelle),
      libelleEn: (c.libelleEn as string | null) ?? null,
      culPmg: num(c.culPmg),
      culGrainDose: num(c.culGrainDose),
    }));
    const cibles = (await referentiel.cibles(db)).map((c) => ({ id: c.id, libelle: c.libelle }));
    return { categories, cultures, cibles, volumeBouillie: num(action.volumeBouillie) };
  });
}

/** Phyto products by name, other trade name or AMM, with the folder's own (C-PHYTO-15); the chosen one kept in the list. */
export async function phytoProducts(scope: Scope, q: string, selected: { id: number; origine: number } | null = null): Promise<CatalogueItem[]> {
  const { db } = scope;
  const ctx = await campaignContext(scope);
  return failingWith(PHYTOS_ERROR, async () => {
    const toItem = (p: referentiel.PhytoRef): CatalogueItem => ({
      id: p.idProduit,
      origine: p.origine,
      libelle: p.nomProduit,
      code: p.ammProduit,
      biocontrole: p.biocontrole,
      idCategorie: p.dicIdTypeIntrant,
    });
    const items = (await referentiel.rechercherPhytos(db, { q, idDossier: ctx.view.selected.idDossier, limit: 200 })).map(toItem);
    if (selected && !items.some((i) => i.id === selected.id && i.origine === selected.origine)) {
      const row = await produitLabel(db, ctx.view.selected.idDossier, selected);
      if (row) items.unshift(row);
    }
    return items;
  });
}

async function produitLabel(db: Db, idDossier: number | null, p: { id: number; origine: number }): Promise<CatalogueItem | null> {
  if (p.origine === ORIGINE_INTRANT.DOSSIER) {
    const r = idDossier == null ? undefined : await db("intrant_dossier").where({ id: p.id, idDossier }).first("libelle", "code");
    return r ? { id: p.id, origine: p.origine, libelle: String(r.libelle), code: (r.code as string | null) ?? null } : null;
  }
  const r = await db("intrant_phyto").where({ idProduit: p.id }).orderBy("idSource").first("nomProduit", "ammProduit");
  return r ? { id: p.id, origine: p.origine, libelle: String(r.nomProduit), code: (r.ammProduit as string | null) ?? null } : null;
}

/** Fertilisers of a type with their composition, and the folder's own (reference_fertilisants by idTypeFertilisant and idDossier, C-FERT-10). */
export async function fertilisants(scope: Scope, idCategorie: number): Promise<CatalogueItem[]> {
  const { db } = scope;
  const ctx = await campaignContext(scope);
  return failingWith(LOAD_ERROR, async () =>
    (await referentiel.fertilisants(db, { idTypeFertilisant: idCategorie, idDossier: ctx.view.selected.idDossier })).map((f) => ({
      id: f.id,
      origine: f.origine,
      libelle: f.libelle,
      idCategorie: f.idTypeFertilisant,
      composition: Object.fromEntries(ELEMENTS.map((e) => [e, f[e]])),
    })),
  );
}

/** Seed varieties of a species: reference (776) and the folder's own (777) (C-SEED-23). */
export async function varietes(scope: Scope, idCulture: number): Promise<CatalogueItem[]> {
  const { db } = scope;
  const ctx = await campaignContext(scope);
  return failingWith(LOAD_ERROR, async () =>
    (await referentiel.semences(db, { idCulture, idDossier: ctx.view.selected.idDossier })).map((s) => ({
      id: s.id,
      origine: s.idDossier != null ? ORIGINE_INTRANT.DOSSIER : ORIGINE_INTRANT.REFERENCE,
      libelle: s.libelle,
      code: s.codeGnis,
    })),
  );
}

/** Reference doses of a product for the intervention's crop and the campaign's year, per target (C-PHYTO-07). */
export async function dosesReference(scope: Scope, idAction: number, produit: { id: number; origine: number }, cibles: number[]) {
  const { db } = scope;
  const ctx = await campaignContext(scope);
  return failingWith(PHYTOS_ERROR, async () => {
    const action = await db("action").where({ id: idAction, idCampagne: ctx.idCampagne }).first("idCultureConcernee");
    if (!action) throw new ServiceError("errors.not-found", 404);
    const none = cibles.map((idCible) => ({ idCible, doseRef: null as number | null, uniteDoseRef: null as string | null }));
    const label = await produitLabel(db, ctx.view.selected.idDossier, produit);
    if (produit.origine === ORIGINE_INTRANT.DOSSIER || action.idCultureConcernee == null || !label?.code) return none;
    const r = await referentiel.dosesReference(db, {
      codeAmm: label.code,
      idCulture: Number(action.idCultureConcernee),
      anneeRecolte: ctx.view.campagne!.anneeRecolte,
      idCibles: cibles,
    });
    return cibles.map((idCible) => {
      const d = r.doses.find((x) => x.idCible === idCible);
      return { idCible, doseRef: d?.doseRef ?? null, uniteDoseRef: d?.uniteDoseRef ?? null };
    });
  });
}

/** Active matter failures (C-ERR-13). */
export const MATIERES_ERROR = "errors.services.matiere_actives-service-error";

/** The active matter of a phyto product, read by its key idProduit-idSource (C-PHYTO-16). */
export async function matiereActiveOf(scope: Scope, produit: { id: number; origine: number }) {
  const { db } = scope;
  const ctx = await campaignContext(scope);
  return failingWith(MATIERES_ERROR, async () => {
    let cle = `${produit.id}-${ORIGINE_INTRANT.DOSSIER}`;
    if (produit.origine !== ORIGINE_INTRANT.DOSSIER) {
      const r = await db("intrant_phyto").where({ idProduit: produit.id }).orderBy("idSource").first("idSource");
      if (!r) return null;
      cle = `${produit.id}-${r.idSource}`;
    }
    return referentiel.matiereActive(db, cle, ctx.view.selected.idDossier);
  });
}
