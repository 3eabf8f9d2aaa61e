import { ELEMENTS, ORIGINE_INTRANT, TYPE_INTRANT } from "~/domain/intrant";
import { campaignContext } from "../access/description";
import { bool } from "../db/dialect";
import type { Db } from "../db/knex";
import { failingWith, ServiceError } from "../errors";
import type { Utilisateur } from "../utilisateur/repo";

/** Phyto product failures (C-ERR-15). */
export const PHYTOS_ERROR = "errors.services.intrant_phytos-service-error";
const LIMIT = 200;
const num = (v: unknown) => (v == null ? null : Number(v));
const like = (q: string) => `%${q.replace(/[%_\\]/g, (c) => `\\${c}`)}%`;

/** The lists an input dialog opens with: categories, crops with their seed figures, targets, the operation's spray volume. */
export async function dialogLists(db: Db, user: Utilisateur, idAction: number) {
  const ctx = await campaignContext(db, user);
  return failingWith("errors.services.intrants-service-error", async () => {
    const action = await db("action as a").leftJoin("operation_culturale as o", "o.id", "a.idOperationCulturale").where({ "a.id": idAction, "a.idCampagne": ctx.idCampagne }).first("o.volumeBouillie");
    if (!action) throw new ServiceError("errors.not-found", 404);
    const categories = (await db("categorie_intrant").orderBy([{ column: "idTypeIntrant" }, { column: "ordre" }]).select("id", "idTypeIntrant", "libelle", "libelleEn", "uniteDefaut", "avertissement"))
      .map((c) => ({ id: Number(c.id), idTypeIntrant: Number(c.idTypeIntrant), libelle: String(c.libelle), libelleEn: (c.libelleEn as string | null) ?? null, uniteDefaut: (c.uniteDefaut as string | null) ?? null, avertissement: bool(c.avertissement) }));
    const cultures = (await db("culture").where("interculture", false).orderBy([{ column: "ordre" }, { column: "libelle" }]).select("id", "libelle", "libelleEn", "culPmg", "culGrainDose"))
      .map((c) => ({ id: Number(c.id), libelle: String(c.libelle), libelleEn: (c.libelleEn as string | null) ?? null, culPmg: num(c.culPmg), culGrainDose: num(c.culGrainDose) }));
    const cibles = (await db("cible").orderBy("libelle").select("id", "libelle")).map((c) => ({ id: Number(c.id), libelle: String(c.libelle) }));
    return { categories, cultures, cibles, volumeBouillie: num(action.volumeBouillie) };
  });
}

/** The folder's own inputs of a type (origin 777), added to the reference rows (spec 3 §3.4). */
async function dossierItems(db: Db, idDossier: number | null, types: number[], q = "") {
  if (idDossier == null) return [];
  const query = db("intrant_dossier").where({ idDossier }).whereIn("dicIdTypeIntrant", types).orderBy("libelle").limit(LIMIT).select("id", "libelle", "code", "dicIdTypeIntrant");
  if (q) query.where("libelle", "like", like(q));
  const rows: Record<string, unknown>[] = await query;
  return rows.map((r) => ({ id: Number(r.id), origine: ORIGINE_INTRANT.DOSSIER, libelle: String(r.libelle), code: (r.code as string | null) ?? null, idCategorie: num(r.dicIdTypeIntrant) }));
}

const categoriesOf = async (db: Db, type: number) => (await db("categorie_intrant").where({ idTypeIntrant: type }).pluck("id")).map(Number);

/** Phyto products by name or AMM number, optionally of one category (seed treatments), with the folder's own (C-PHYTO-15). */
export async function phytoProducts(db: Db, user: Utilisateur, q: string, options: { categorie?: number | null; selected?: { id: number; origine: number } | null } = {}) {
  const ctx = await campaignContext(db, user);
  return failingWith(PHYTOS_ERROR, async () => {
    const query = db("intrant_phyto").orderBy("nomProduit").limit(LIMIT).select("id", "nomProduit", "ammProduit", "biocontrole", "dicIdTypeIntrant");
    if (q.trim()) query.where((b) => b.where("nomProduit", "like", like(q.trim())).orWhere("ammProduit", "like", like(q.trim())));
    if (options.categorie) query.where("dicIdTypeIntrant", options.categorie);
    const refs = (await query).map((r) => ({ id: Number(r.id), origine: ORIGINE_INTRANT.REFERENCE, libelle: String(r.nomProduit), code: (r.ammProduit as string | null) ?? null, biocontrole: bool(r.biocontrole), idCategorie: num(r.dicIdTypeIntrant) }));
    const own = await dossierItems(db, ctx.view.selected.idDossier, options.categorie ? [options.categorie] : await categoriesOf(db, TYPE_INTRANT.PHYTO), q.trim());
    const items: { id: number; origine: number; libelle: string; code: string | null; biocontrole?: boolean; idCategorie: number | null }[] = [...refs, ...own];
    // The product already chosen stays in the list whatever the search.
    const sel = options.selected;
    if (sel && !items.some((i) => i.id === sel.id && i.origine === sel.origine)) {
      if (sel.origine === ORIGINE_INTRANT.DOSSIER) items.push(...(await dossierItems(db, ctx.view.selected.idDossier, await categoriesOf(db, TYPE_INTRANT.PHYTO))).filter((i: { id: number }) => i.id === sel.id));
      else {
        const r = await db("intrant_phyto").where({ id: sel.id }).first("id", "nomProduit", "ammProduit", "biocontrole", "dicIdTypeIntrant");
        if (r) items.unshift({ id: Number(r.id), origine: sel.origine, libelle: String(r.nomProduit), code: (r.ammProduit as string | null) ?? null, biocontrole: bool(r.biocontrole), idCategorie: num(r.dicIdTypeIntrant) });
      }
    }
    return items;
  });
}

/** Fertilisers of a type with their composition (reference_fertilisants by idTypeFertilisant and folder, C-FERT-10). */
export async function fertilisants(db: Db, user: Utilisateur, idCategorie: number) {
  const ctx = await campaignContext(db, user);
  return failingWith("errors.services.intrants-service-error", async () => {
    const refs = (await db("reference_fertilisant").where({ idTypeFertilisant: idCategorie }).orderBy("libelle").select("id", "libelle", ...ELEMENTS))
      .map((r) => ({ id: Number(r.id), origine: ORIGINE_INTRANT.REFERENCE, libelle: String(r.libelle), idCategorie, composition: Object.fromEntries(ELEMENTS.map((e) => [e, num(r[e])])) }));
    const idDossier = ctx.view.selected.idDossier;
    const own = idDossier == null ? [] : (await db("intrant_dossier as d").leftJoin("fertilisant_compo_dossier as f", "f.idIntrantDossier", "d.id").where({ "d.idDossier": idDossier, "d.dicIdTypeIntrant": idCategorie }).orderBy("d.libelle").select("d.id", "d.libelle", ...ELEMENTS.map((e) => `f.${e}`)))
      .map((r) => ({ id: Number(r.id), origine: ORIGINE_INTRANT.DOSSIER, libelle: String(r.libelle), idCategorie, composition: Object.fromEntries(ELEMENTS.map((e) => [e, num(r[e])])) }));
    return [...refs, ...own];
  });
}

/** Seed varieties of a species: reference (776) and the folder's own (777) (C-SEED-23). */
export async function varietes(db: Db, user: Utilisateur, idCulture: number) {
  const ctx = await campaignContext(db, user);
  return failingWith("errors.services.intrants-service-error", async () => {
    const refs = (await db("reference_semence").where({ idCulture }).orderBy("libelle").select("id", "libelle", "idOriginIntrant", "codeGnis"))
      .map((r) => ({ id: Number(r.id), origine: num(r.idOriginIntrant) ?? ORIGINE_INTRANT.REFERENCE, libelle: String(r.libelle), code: (r.codeGnis as string | null) ?? null }));
    const idDossier = ctx.view.selected.idDossier;
    const own = idDossier == null ? [] : (await db("intrant_dossier").where({ idDossier, dicIdTypeIntrant: idCulture }).orderBy("libelle").select("id", "libelle"))
      .map((r) => ({ id: Number(r.id), origine: ORIGINE_INTRANT.DOSSIER, libelle: String(r.libelle) }));
    return [...refs, ...own];
  });
}

/** Reference doses of a product for the intervention's crop and the campaign's year, per target (reference_dose_cible_ifts, C-PHYTO-07). */
export async function dosesReference(db: Db, user: Utilisateur, idAction: number, produit: { id: number; origine: number }, cibles: number[]) {
  const ctx = await campaignContext(db, user);
  return failingWith(PHYTOS_ERROR, async () => {
    const action = await db("action").where({ id: idAction, idCampagne: ctx.idCampagne }).first("idCultureConcernee");
    if (!action) throw new ServiceError("errors.not-found", 404);
    if (produit.origine === ORIGINE_INTRANT.DOSSIER || action.idCultureConcernee == null) return cibles.map((idCible) => ({ idCible, doseRef: null, uniteDoseRef: null }));
    const p = await db("intrant_phyto").where({ id: produit.id }).first("ammProduit");
    const annee = ctx.view.campagne!.anneeRecolte;
    return Promise.all(cibles.map(async (idCible) => {
      const r = p?.ammProduit
        ? await db("reference_dose_cible_ift").where({ codeAmm: p.ammProduit, idCulture: action.idCultureConcernee, idCible }).where("anneeRecolte", "<=", annee).orderBy("anneeRecolte", "desc").first("doseRef", "uniteDoseRef")
        : undefined;
      return { idCible, doseRef: r ? num(r.doseRef) : null, uniteDoseRef: r ? ((r.uniteDoseRef as string | null) ?? null) : null };
    }));
  });
}
