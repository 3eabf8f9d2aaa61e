import { chapitresAffiches, type IndicateurObjectifInput, type ProtocoleInput } from "~/domain/protocole";
import { campaignContext, writableCampaign } from "../access/description";
import type { Token } from "../db/stale";
import { failingWith, invalidField, ServiceError } from "../errors";
import {
  campagneDeLigne,
  deleteObjectif,
  deleteProtocole,
  insertObjectif,
  indicateurExists,
  insertProtocole,
  listChapitres,
  listIndicateurs,
  listObjectifs,
  listProtocoles,
  updateObjectif,
  updateProtocole,
} from "./repo";
import type { Scope } from "../access/scope";

/** The protocol and objective error keys of spec 3 §8. */
export const PROTOCOLE_LOAD_ERROR = "errors.services.protocoles_exploitations-service-error";
export const PROTOCOLE_CREATE_ERROR = "errors.services.protocoles_exploitations-create-service-error";
export const PROTOCOLE_UPDATE_ERROR = "errors.services.protocoles_exploitations-update-service-error";
export const PROTOCOLE_DELETE_ERROR = "errors.services.protocoles_exploitations-delete-service-error";
export const OBJECTIFS_ERROR = "errors.services.indicateur_objectifs-service-error";

/** The system description screen (spec 3 §2.6): the chapters shown, their protocols, the objective indicators and their reference list. */
export async function getDescriptionSysteme(scope: Scope) {
  const { db } = scope;
  const ctx = await campaignContext(scope);
  const { chapitres, protocoles } = await failingWith(PROTOCOLE_LOAD_ERROR, async () => ({
    chapitres: chapitresAffiches(await listChapitres(db)),
    protocoles: await listProtocoles(db, ctx.idCampagne),
  }));
  const { objectifs, indicateurs } = await failingWith(OBJECTIFS_ERROR, async () => ({
    objectifs: await listObjectifs(db, ctx.idCampagne),
    indicateurs: await listIndicateurs(db),
  }));
  return { chapitres, protocoles, objectifs, indicateurs, canWrite: ctx.abilities.canWriteDescriptif };
}

export async function saveProtocole(scope: Scope, input: ProtocoleInput, existing?: Token): Promise<number> {
  const { db } = scope;
  const ctx = await writableCampaign(scope);
  if (!chapitresAffiches(await listChapitres(db)).some((c) => c.id === input.dicIdChapitreProtocole)) throw invalidField("dicIdChapitreProtocole");
  return failingWith(existing ? PROTOCOLE_UPDATE_ERROR : PROTOCOLE_CREATE_ERROR, async () => {
    if (!existing) return insertProtocole(db, ctx.idCampagne, input);
    await updateProtocole(db, ctx.idCampagne, existing, input);
    return existing.id;
  });
}

export async function removeProtocole(scope: Scope, id: number): Promise<void> {
  const { db } = scope;
  const ctx = await writableCampaign(scope);
  const n = await failingWith(PROTOCOLE_DELETE_ERROR, () => deleteProtocole(db, ctx.idCampagne, id));
  if (n === 0) throw new ServiceError("errors.not-found", 404);
}

export async function saveObjectif(scope: Scope, input: IndicateurObjectifInput, existing?: Token): Promise<number> {
  const { db } = scope;
  const ctx = await writableCampaign(scope);
  if (!(await indicateurExists(db, input.idIndicateur))) throw invalidField("idIndicateur");
  return failingWith(OBJECTIFS_ERROR, async () => {
    if (!existing) return insertObjectif(db, ctx.idCampagne, input);
    await updateObjectif(db, ctx.idCampagne, existing, input);
    return existing.id;
  });
}

export async function removeObjectif(scope: Scope, id: number): Promise<void> {
  const { db } = scope;
  const ctx = await writableCampaign(scope);
  const n = await failingWith(OBJECTIFS_ERROR, () => deleteObjectif(db, ctx.idCampagne, id));
  if (n === 0) throw new ServiceError("errors.not-found", 404);
}

/** The campaign of a protocol (the API's `campaign` of protocoles_exploitations/{id}; issue 27). */
export const protocoleCampaign = (db: Scope["db"], id: number) => campagneDeLigne(db, "protocole_exploitation", id);
/** The campaign of an objective indicator (indicateur_objectifs/{id}). */
export const objectifCampaign = (db: Scope["db"], id: number) => campagneDeLigne(db, "indicateur_objectif", id);

/** The protocols of the scope's campaign, per chapter when given (GET campagnes/{id}/protocoles_exploitations). */
export async function getProtocoles(scope: Scope, dicIdChapitreProtocole?: number) {
  const ctx = await campaignContext(scope);
  return failingWith(PROTOCOLE_LOAD_ERROR, () => listProtocoles(scope.db, ctx.idCampagne, dicIdChapitreProtocole));
}

/** One protocol of the scope's campaign (404 when it is not one of it). */
export async function getProtocole(scope: Scope, id: number) {
  const found = (await getProtocoles(scope)).find((p) => p.id === id);
  if (!found) throw new ServiceError("errors.not-found", 404);
  return found;
}

/** The objective indicators of the scope's campaign (GET campagnes/{id}/indicateur_objectifs). */
export async function getObjectifs(scope: Scope) {
  const ctx = await campaignContext(scope);
  return failingWith(OBJECTIFS_ERROR, () => listObjectifs(scope.db, ctx.idCampagne));
}

/** One objective indicator of the scope's campaign. */
export async function getObjectif(scope: Scope, id: number) {
  const found = (await getObjectifs(scope)).find((o) => o.id === id);
  if (!found) throw new ServiceError("errors.not-found", 404);
  return found;
}
