import type { Scope } from "../access/scope";
import { getDossier } from "../dossier/service";
import { ServiceError } from "../errors";
import * as referentiel from "./service";

/**
 * The input catalogues as the JSON API reads them (issue 27, decision 0112): the reference lists are global (any
 * signed-in user), and a folder named by `idDossier` adds its own inputs only when the user may read that folder (the
 * folder service's own check: 403 or 404 otherwise).
 */

async function readableFolder(scope: Scope, idDossier: number | undefined): Promise<number | null> {
  if (idDossier == null) return null;
  await getDossier(scope.db, scope.user, idDossier);
  return idDossier;
}

export async function phytosApi(scope: Scope, o: { q?: string; idDossier?: number; limit?: number }) {
  return referentiel.rechercherPhytos(scope.db, { q: o.q, idDossier: await readableFolder(scope, o.idDossier), limit: o.limit });
}

export async function fertilisantsApi(scope: Scope, o: { idTypeFertilisant?: number; idDossier?: number }) {
  return referentiel.fertilisants(scope.db, { idTypeFertilisant: o.idTypeFertilisant ?? null, idDossier: await readableFolder(scope, o.idDossier) });
}

export async function autresIntrantsApi(scope: Scope, o: { idDossier?: number; dicIdTypeIntrant?: number }) {
  return referentiel.autresIntrants(scope.db, { idDossier: await readableFolder(scope, o.idDossier), dicIdTypeIntrant: o.dicIdTypeIntrant ?? null });
}

export async function semencesApi(scope: Scope, idCulture: number, o: { idDossier?: number; origine?: number }) {
  return referentiel.semences(scope.db, { idCulture, idDossier: await readableFolder(scope, o.idDossier), origine: o.origine ?? null });
}

/** The folder's own seed varieties of every species, once the user may read the folder. */
export async function semencesDuDossierApi(scope: Scope, idDossier: number) {
  return referentiel.semencesDuDossier(scope.db, (await readableFolder(scope, idDossier))!);
}

export async function matiereActiveApi(scope: Scope, cle: string, o: { idDossier?: number }) {
  const found = await referentiel.matiereActive(scope.db, cle, await readableFolder(scope, o.idDossier));
  if (!found) throw new ServiceError("errors.not-found", 404);
  return found;
}

export async function dosesReferenceApi(scope: Scope, o: { codeAmm: string; anneeRecolte: number; idCulture: number; idCible?: number[] }) {
  return referentiel.dosesReference(scope.db, { codeAmm: o.codeAmm, anneeRecolte: o.anneeRecolte, idCulture: o.idCulture, idCibles: o.idCible });
}
