import { CARACTERISTIQUE_RECOLTE, CaracteristiqueRecolteSchema, estPaturage, RecolteSchema, type CaracteristiqueRecolteInput } from "~/domain/recolte";
import { rowId } from "~/domain/validation";
import type { Scope } from "../access/scope";
import type { Db } from "../db/knex";
import { invalidField, isServiceError, parse, parseStrict, ServiceError } from "../errors";
import { idActionOf } from "../intrant/api";
import { getCaracteristiqueRecolte, getCaracteristiquesRecolte, getRecolte, saveRecolte, type CaracteristiqueRecolte } from "./service";
import { actionDeRecolte, campagneDeRecolte, recoltesIdsOfAction } from "./repo";

/**
 * What the JSON API adds to the harvests (issue 27, decision 0112): the campaign of a harvest, the harvests of an
 * intervention, and a harvest created or updated from the harvest dialog's fields through its service (rights, lock,
 * crop, output type and qualifier checks, characteristics and observation series in one transaction).
 */

export function recolteCampaign(db: Db, id: number): Promise<number | null> {
  return campagneDeRecolte(db, id);
}

/** The harvests of an intervention of the scope's campaign, each as its dialog reads it. */
export async function recoltesOfAction(scope: Scope, idAction: number) {
  const ids = await recoltesIdsOfAction(scope.db, idAction);
  const out = [];
  for (const id of ids) out.push(await getRecolte(scope, Number(id)));
  return out;
}

const fieldsOf = (raw: Record<string, unknown>) => parse(RecolteSchema.strict(), raw);

/** POST recoltes: a new harvest of the intervention idAction. */
export async function createRecolteApi(scope: Scope, body: Record<string, unknown>) {
  const { idAction: _a, ...raw } = body;
  void _a;
  const idAction = idActionOf(body);
  return getRecolte(scope, await saveRecolte(scope, idAction, fieldsOf(raw)));
}

/** PATCH recoltes/{id}: the harvest's fields, updatedAt as read (stale: 409). */
export async function updateRecolteApi(scope: Scope, id: number, body: Record<string, unknown>) {
  const { updatedAt, ...raw } = body;
  if (typeof updatedAt !== "string" || !updatedAt) throw invalidField("updatedAt", "warning.required");
  const idAction = await actionDeRecolte(scope.db, id);
  if (idAction == null) throw new ServiceError("errors.not-found", 404);
  await saveRecolte(scope, idAction, fieldsOf(raw), { id, updatedAt });
  return getRecolte(scope, id);
}

// ---- caracteristique_recoltes (decision 0141): a row is written through the harvest dialog's schema and save

type Recolte = Awaited<ReturnType<typeof getRecolte>>;
type Fields = Record<string, unknown> & { humiditeReference?: number; animaux: { dicIdModalite: number; nombre: number }[] };

/** The harvest dialog's fields of a stored harvest (what its dialog would send back unchanged). */
function dialogFields(r: Recolte): Fields {
  const obs = Object.entries(r.serie?.observations ?? {}).filter(([, v]) => v != null);
  const fields: Record<string, unknown> = {
    idCulture: r.idCulture,
    dicIdTypeSortie: r.dicIdTypeSortie,
    [estPaturage(r.dicIdTypeSortie) ? "dureePaturage" : "rendement"]: r.rendement ?? undefined,
    humiditeReference: r.humiditeReference ?? undefined,
    idQualifiantRecolte: r.idQualifiantRecolte ?? undefined,
    ...(estPaturage(r.dicIdTypeSortie) ? {} : Object.fromEntries(obs)),
    animaux: r.animaux.map((a) => ({ dicIdModalite: a.dicIdModalite, nombre: a.nombre ?? 0 })),
  };
  return fields as Fields;
}

/** The dialog's field errors named as the characteristic row's fields. */
function asRowErrors(e: unknown): never {
  if (isServiceError(e) && e.fieldErrors) {
    const named: Record<string, string[]> = {};
    for (const [k, v] of Object.entries(e.fieldErrors)) {
      const field = k === "humiditeReference" || /^animaux.*nombre$/.test(k) ? "valeurNum" : k.startsWith("animaux") ? "dicIdModalite" : k;
      named[field] = [...(named[field] ?? []), ...v];
    }
    throw new ServiceError(e.key, e.status, named, e.params);
  }
  throw e;
}

/** Rewrites a harvest with its characteristics changed by `edit`, through its dialog's schema and save (stale: 409). */
async function rewrite(scope: Scope, r: Recolte, updatedAt: string, edit: (f: Fields) => void): Promise<void> {
  const fields = dialogFields(r);
  edit(fields);
  try {
    await saveRecolte(scope, r.idAction, fieldsOf(fields), { id: r.id, updatedAt });
  } catch (e) {
    asRowErrors(e);
  }
}

/** Applies one characteristic row to the dialog's fields: the humidity of a harvest, an animal row of a grazing. */
function apply(r: Recolte, f: Fields, v: CaracteristiqueRecolteInput, replacing?: CaracteristiqueRecolte) {
  const animal = v.dicIdCaracteristiqueRecolte === CARACTERISTIQUE_RECOLTE.ANIMAUX;
  if (animal !== estPaturage(r.dicIdTypeSortie)) throw invalidField("dicIdCaracteristiqueRecolte");
  if (replacing && replacing.dicIdCaracteristiqueRecolte !== v.dicIdCaracteristiqueRecolte) throw invalidField("dicIdCaracteristiqueRecolte");
  if (!animal) {
    f.humiditeReference = v.valeurNum;
    return;
  }
  const row = { dicIdModalite: v.dicIdModalite!, nombre: v.valeurNum };
  const at = replacing ? f.animaux.findIndex((a) => a.dicIdModalite === replacing.dicIdModalite) : -1;
  if (at >= 0) f.animaux[at] = row;
  else f.animaux.push(row);
}

/** The row as stored after the save (the rows are rewritten with the harvest: a row's id may change). */
async function rowAfter(scope: Scope, idRecolte: number, v: CaracteristiqueRecolteInput): Promise<CaracteristiqueRecolte> {
  const rows = await getCaracteristiquesRecolte(scope, idRecolte);
  const found = rows.find(
    (c) =>
      c.dicIdCaracteristiqueRecolte === v.dicIdCaracteristiqueRecolte &&
      (v.dicIdCaracteristiqueRecolte !== CARACTERISTIQUE_RECOLTE.ANIMAUX || c.dicIdModalite === v.dicIdModalite),
  );
  if (!found) throw new ServiceError("errors.not-found", 404);
  return found;
}

const tokenOf = (updatedAt: unknown): string => {
  if (typeof updatedAt !== "string" || !updatedAt) throw invalidField("updatedAt", "warning.required");
  return updatedAt;
};

/** The harvest a body names (`idRecolte`), checked before anything else. */
export function idRecolteOf(body: Record<string, unknown>): number {
  const r = rowId().safeParse(body.idRecolte);
  if (!r.success) throw invalidField("idRecolte", body.idRecolte == null ? "warning.required" : "warning.invalid");
  return r.data;
}

/** POST caracteristique_recoltes: a characteristic row of the harvest idRecolte (its updatedAt as read). */
export async function createCaracteristiqueRecolteApi(scope: Scope, body: Record<string, unknown>) {
  const { idRecolte: _r, updatedAt, ...raw } = body;
  void _r;
  const idRecolte = idRecolteOf(body);
  const v = parseStrict(CaracteristiqueRecolteSchema.strict(), raw);
  const token = tokenOf(updatedAt);
  const r = await getRecolte(scope, idRecolte);
  await rewrite(scope, r, token, (f) => apply(r, f, v));
  return rowAfter(scope, idRecolte, v);
}

/** PATCH caracteristique_recoltes/{id}: the row's fields (its kind unchanged), the harvest's updatedAt as read. */
export async function updateCaracteristiqueRecolteApi(scope: Scope, id: number, body: Record<string, unknown>) {
  const { updatedAt, ...raw } = body;
  const v = parseStrict(CaracteristiqueRecolteSchema.strict(), raw);
  const token = tokenOf(updatedAt);
  const current = await getCaracteristiqueRecolte(scope, id);
  const r = await getRecolte(scope, current.idRecolte);
  await rewrite(scope, r, token, (f) => apply(r, f, v, current));
  return rowAfter(scope, current.idRecolte, v);
}

/** DELETE caracteristique_recoltes/{id}: the harvest without that row. */
export async function removeCaracteristiqueRecolteApi(scope: Scope, id: number): Promise<void> {
  const current = await getCaracteristiqueRecolte(scope, id);
  const r = await getRecolte(scope, current.idRecolte);
  await rewrite(scope, r, r.updatedAt, (f) => {
    if (current.dicIdCaracteristiqueRecolte === CARACTERISTIQUE_RECOLTE.ANIMAUX) f.animaux = f.animaux.filter((a) => a.dicIdModalite !== current.dicIdModalite);
    else delete f.humiditeReference;
  });
}
