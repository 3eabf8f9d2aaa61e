import { abilities, exportableCampaigns } from "~/domain/access/abilities";
import { ensure } from "../access/abilities";
import { findFolderRight, listCampagnesOfExploitations, listExploitationsOfDossier, type CampagneOption } from "../contexte/repo";
import type { Db } from "../db/knex";
import type { Utilisateur } from "../utilisateur/repo";

export type ExportCampagne = CampagneOption & { exploitation: { id: number; libelle: string } };

/**
 * The campaign search of the raw-export screen (spec 1 §2 "Raw-data export screen", §6): the campaigns of the
 * folder's farms that the user may export.
 * - The user needs a right on the folder (403 otherwise); farms are kept only when the user reads them (folder
 *   reading and farm reading, canExportPublishedCalculations: spec 3 §6 "the export screen filters folders and
 *   farms by read rights"), so a synthesis-only user finds nothing.
 * - Per farm, without canExportAllCalculations (folder writing and farm writing) only campaigns with
 *   indicateurPublie true are listed (A-RIGHTS-15). The rule is applied farm by farm with that farm's own link,
 *   never with the combined right of several farms, so a write right on one farm never opens another farm's
 *   unpublished campaigns.
 * - `idsExploitation` restricts the search to some farms of the folder; `q` keeps campaigns whose label or farm
 *   name contains it (case- and accent-insensitive).
 */
export async function searchExportCampagnes(
  db: Db,
  user: Utilisateur,
  params: { idDossier: number; idsExploitation?: readonly number[]; q?: string },
): Promise<ExportCampagne[]> {
  const folder = await findFolderRight(db, user.id, params.idDossier);
  ensure(abilities({ user, folder }).canReadFolder);
  const farms = (await listExploitationsOfDossier(db, params.idDossier)).filter((f) => !params.idsExploitation || params.idsExploitation.includes(f.id));
  const readable = farms.map((f) => ({ farm: f, a: abilities({ user, folder, farm: f.right }) })).filter(({ a }) => a.canExportPublishedCalculations);
  const all = await listCampagnesOfExploitations(
    db,
    readable.map(({ farm }) => farm.id),
  );
  const needle = fold(params.q ?? "");
  return readable.flatMap(({ farm, a }) =>
    exportableCampaigns(
      all.filter((c) => c.idExploitation === farm.id),
      a,
    )
      .map((c) => ({ ...c, exploitation: { id: farm.id, libelle: farm.libelle } }))
      .filter((c) => !needle || fold(c.libelle).includes(needle) || fold(farm.libelle).includes(needle)),
  );
}

const fold = (s: string) => s.normalize("NFD").replace(/\p{M}/gu, "").toLocaleLowerCase("fr").trim();
