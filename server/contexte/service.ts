import { z } from "zod";
import { abilities } from "~/domain/access/abilities";
import { campaignLock } from "~/domain/access/lock";
import { hasFarmPermission, hasFolderPermission, highestFarmRight } from "~/domain/access/rights";
import { MAX_IDS, rowId } from "~/domain/validation";
import type { ContextView } from "~/domain/contracts/contexte";
import type { Db } from "../db/knex";
import { ServiceError } from "../errors";
import { keptPerVersion } from "../db/kept-per-version";
import { listPosts } from "../post/repo";
import type { Utilisateur } from "../utilisateur/repo";
import {
  findContexte,
  findContexteWithLatestPost,
  latestPostDate,
  listCampagnesOfExploitations,
  listDossiersOfUser,
  listExploitationsOfDossier,
  listFoldersOfFarm,
  listOads,
  saveContexte,
  type ContexteRow,
} from "./repo";

export type { ContextView };

const readable = (o: { right: Parameters<typeof hasFolderPermission>[0] }) => hasFolderPermission(o.right, "Synthese");

type ContextLists = Pick<ContextView, "oads" | "dossiers" | "exploitations" | "campagnes">;

/**
 * What a stored selection lets the user see: the networks, the folders of the chosen network he may read, the farms
 * of the chosen folder he may read and the campaigns of the chosen farms among them. Kept per user and selection under
 * `version_contexte` (decision 0084), which every write to networks, folders, folder rights, farms, farm links and
 * campaigns moves, in any process; read again when it moved (or is unknown).
 */
const keptLists = keptPerVersion<ContextLists>(500);
function contextLists(db: Db, user: Utilisateur, stored: ContexteRow, version: number | null): Promise<ContextLists> {
  const read = async (): Promise<ContextLists> => {
    const oads = await listOads(db);
    const idOad = oads.some((o) => o.id === stored.idOad) ? stored.idOad : null;
    const dossiers = idOad ? (await listDossiersOfUser(db, user.id, idOad)).filter(readable) : [];
    const dossier = dossiers.find((d) => d.id === stored.idDossier) ?? null;
    const exploitations = dossier ? (await listExploitationsOfDossier(db, dossier.id)).filter((e) => hasFarmPermission(e.right, "Synthese")) : [];
    const selectedFarms = exploitations.filter((e) => stored.exploitations.includes(e.id));
    const campagnes = await listCampagnesOfExploitations(
      db,
      selectedFarms.map((e) => e.id),
    );
    return { oads, dossiers, exploitations, campagnes };
  };
  if (version == null) return read();
  return keptLists(db, `${user.id}|${stored.idOad}|${stored.idDossier}|${stored.exploitations.join(",")}`, version, read);
}

/**
 * The user's context (network › folder › farms › campaign) with what they may see and do in it.
 * A stored selection the user may no longer see (right removed, row deleted) is dropped, level by level.
 */
export async function loadContextView(db: Db, user: Utilisateur): Promise<ContextView> {
  const { stored, latest, version } = await findContexteWithLatestPost(db, user.id);
  return viewOfSelection(db, user, stored, latest, version);
}

/**
 * The context view of a campaign named by an API call (decision 0098), as if the user had selected its network, a
 * folder linking its farm, the farm and the campaign: the folder of his stored selection when it links the farm, else
 * the first linking folder through which he may write the campaign, else the first through which he may read it.
 * Nothing is stored; null when no folder lets him read the campaign. The unlock of the stored context holds when it
 * names this campaign.
 */
export async function contextViewOfCampaign(db: Db, user: Utilisateur, idCampagne: number, idExploitation: number): Promise<ContextView | null> {
  const { stored, latest } = await findContexteWithLatestPost(db, user.id);
  const links = await listFoldersOfFarm(db, idExploitation);
  links.sort((a, b) => Number(b.idDossier === stored.idDossier) - Number(a.idDossier === stored.idDossier));
  let readable: ContextView | null = null;
  for (const link of links) {
    const selection: ContexteRow = {
      ...stored,
      idOad: link.idOad,
      idDossier: link.idDossier,
      exploitations: [idExploitation],
      idCampagne,
      idCampagneDeverrouillee: stored.idCampagneDeverrouillee === idCampagne ? idCampagne : null,
    };
    const view = await viewOfSelection(db, user, selection, latest, null);
    if (!view.campagne) continue;
    if (view.abilities.canWriteDescriptif) return view;
    readable ??= view;
  }
  return readable;
}

async function viewOfSelection(db: Db, user: Utilisateur, stored: ContexteRow, latest: string | null, version: number | null): Promise<ContextView> {
  const { oads, dossiers, exploitations, campagnes } = await contextLists(db, user, stored, version);
  const idOad = oads.some((o) => o.id === stored.idOad) ? stored.idOad : null;
  const dossier = dossiers.find((d) => d.id === stored.idDossier) ?? null;
  const selectedFarms = exploitations.filter((e) => stored.exploitations.includes(e.id));
  const campagne = campagnes.find((c) => c.id === stored.idCampagne) ?? null;
  const lock = campagne ? campaignLock(campagne, stored.idCampagneDeverrouillee === campagne.id) : null;
  return {
    oads,
    dossiers,
    exploitations,
    campagnes,
    selected: { idOad, idDossier: dossier?.id ?? null, exploitations: selectedFarms.map((e) => e.id), idCampagne: campagne?.id ?? null },
    campagne,
    lock,
    abilities: abilities({
      user,
      folder: dossier?.right ?? null,
      farm: selectedFarms.length ? highestFarmRight(selectedFarms.map((e) => e.right)) : null,
      lock,
    }),
    hasNewPost: !!latest && (!stored.lastPostDate || latest > stored.lastPostDate),
  };
}

export const ContextSelectionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("oad"), id: rowId().nullable() }),
  z.object({ intent: z.literal("dossier"), id: rowId().nullable() }),
  z.object({ intent: z.literal("exploitations"), ids: z.array(rowId()).max(MAX_IDS, "warning.too-many") }),
  z.object({ intent: z.literal("campagne"), id: rowId().nullable() }),
]);
export type ContextSelection = z.infer<typeof ContextSelectionSchema>;

/**
 * Applies one choice of the cascade (spec 1 §4): a network clears the folder, a folder clears the farms,
 * farms clear the campaign; choosing a campaign locks it again. Returns whether a campaign was chosen
 * where none was before (the app then opens the description route).
 */
export async function selectInContext(db: Db, user: Utilisateur, choice: ContextSelection): Promise<{ firstCampaign: boolean }> {
  const view = await loadContextView(db, user);
  const next: ContexteRow = { ...(await findContexte(db, user.id)), ...view.selected };
  const refuse = () => {
    throw new ServiceError("errors.forbidden", 403);
  };
  switch (choice.intent) {
    case "oad":
      if (choice.id !== null && !view.oads.some((o) => o.id === choice.id)) refuse();
      Object.assign(next, { idOad: choice.id, idDossier: null, exploitations: [], idCampagne: null, idCampagneDeverrouillee: null });
      break;
    case "dossier":
      if (choice.id !== null && !view.dossiers.some((d) => d.id === choice.id)) refuse();
      Object.assign(next, { idDossier: choice.id, exploitations: [], idCampagne: null, idCampagneDeverrouillee: null });
      break;
    case "exploitations":
      if (choice.ids.some((id) => !view.exploitations.some((e) => e.id === id))) refuse();
      Object.assign(next, { exploitations: [...new Set(choice.ids)], idCampagne: null, idCampagneDeverrouillee: null });
      break;
    case "campagne":
      if (choice.id !== null && !view.campagnes.some((c) => c.id === choice.id)) refuse();
      Object.assign(next, { idCampagne: choice.id, idCampagneDeverrouillee: null });
      break;
  }
  await saveContexte(db, next);
  return { firstCampaign: choice.intent === "campagne" && choice.id !== null && view.selected.idCampagne === null };
}

/** The news of the description home page; they are then seen (markPostsSeen). */
export async function readNews(db: Db, user: Utilisateur) {
  const posts = await listPosts(db);
  await markPostsSeen(db, user);
  return posts;
}

/** A farm the user deleted leaves his context (and the campaign selected with it). */
export async function forgetExploitation(db: Db, user: Utilisateur, idExploitation: number): Promise<void> {
  const c = await findContexte(db, user.id);
  await saveContexte(db, { ...c, exploitations: c.exploitations.filter((id) => id !== idExploitation), idCampagne: null, idCampagneDeverrouillee: null });
}

/** The home page was seen: the new-post dot goes until a newer post arrives. */
export async function markPostsSeen(db: Db, user: Utilisateur): Promise<void> {
  const latest = await latestPostDate(db);
  const stored = await findContexte(db, user.id);
  if (latest && (!stored.lastPostDate || latest > stored.lastPostDate)) await saveContexte(db, { ...stored, lastPostDate: latest });
}
