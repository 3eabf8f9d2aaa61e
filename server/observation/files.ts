import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { bytesMatchExtension, extensionAcceptee, extensionOf, MIME_PAR_EXTENSION, nomAffiche, type ExtensionFichier } from "~/domain/observation";
import { campaignContext, writableCampaign } from "../access/description";
import { hasControlCharacter } from "~/domain/validation";
import type { Db } from "../db/knex";
import { env } from "../env";
import { failingWith, ServiceError } from "../errors";
import {
  allFichierPaths,
  campaignOfFichier,
  deleteFichier,
  fichierATelecharger,
  fichierEtAuteur,
  insertFichier,
  listFichiers,
  serieIdOfCampagne,
} from "./repo";
import type { Scope } from "../access/scope";

/**
 * Files attached to an observation series (spec 2 §2, §5, §6, §7; B-FILE-01..07; decision 0038). The bytes live
 * under DATA_DIR/fichiers/series/, named by the server (a random name and the checked extension): no name a user
 * gives reaches the file system. The name shown and used for the download is kept in the row.
 */

export const FICHIER_ERROR = "errors.services.fichier-attache-service-error";
export const FICHIER_TYPE = "observations.fichiers.type-refuse";
export const FICHIER_NOM = "observations.fichiers.nom-refuse";
export const FICHIER_TROP_GROS = "observations.fichiers.trop-gros";
export const FICHIER_SANS_SERIE = "observations.fichiers.sans-serie";

const STORE = "fichiers/series";

export const maxBytes = () => Math.round(env().ATTACHMENT_MAX_MB * 1024 * 1024);

function storeDir(): string {
  return path.resolve(env().DATA_DIR, STORE);
}

/** The absolute path of a stored file; a stored path that would leave the store is refused. */
function absolute(chemin: string): string {
  const dir = storeDir();
  const full = path.resolve(dir, chemin);
  if (path.dirname(full) !== dir) throw new ServiceError(FICHIER_ERROR, 500);
  return full;
}

/** The series of the selected campaign (404 otherwise): files of other folders are never reached. */
async function serieOfCampaign(db: Db, idCampagne: number, idSerie: number | null | undefined) {
  // B-ERR-17: asking for files without a series id is an error.
  if (!idSerie) throw new ServiceError(FICHIER_SANS_SERIE, 400);
  const id = await serieIdOfCampagne(db, idCampagne, idSerie);
  if (id == null) throw new ServiceError(FICHIER_ERROR, 404);
  return id;
}

export async function getFichiers(scope: Scope, idSerie: number | null | undefined) {
  const { db } = scope;
  const ctx = await campaignContext(scope);
  const id = await serieOfCampaign(db, ctx.idCampagne, idSerie);
  return listFichiers(db, id);
}

/**
 * Attaches a file to a saved series (B-FILE-01, 03, 04): the write gate, the name (no folder part), the extension in
 * the accepted list, the bytes of that type (B-FILE-04: a .pdf must start as a PDF), the size within
 * ATTACHMENT_MAX_MB. The bytes are written first under a fresh name, then the row; a failed insert removes them.
 */
export async function uploadFichier(scope: Scope, idSerie: number | null | undefined, file: { name: string; bytes: Uint8Array }): Promise<number> {
  const { db, user } = scope;
  const ctx = await writableCampaign(scope);
  const id = await serieOfCampaign(db, ctx.idCampagne, idSerie);
  if (/[\\/]/.test(file.name) || file.name.includes("..") || !file.name.trim() || hasControlCharacter(file.name))
    throw new ServiceError(FICHIER_NOM, 400, { fichier: [FICHIER_NOM] });
  if (!extensionAcceptee(file.name)) throw new ServiceError(FICHIER_TYPE, 400, { fichier: [FICHIER_TYPE] });
  const ext = extensionOf(file.name) as ExtensionFichier;
  if (file.bytes.byteLength > maxBytes()) throw new ServiceError(FICHIER_TROP_GROS, 413, { fichier: [FICHIER_TROP_GROS] }, { max: env().ATTACHMENT_MAX_MB });
  if (!bytesMatchExtension(ext, file.bytes)) throw new ServiceError(FICHIER_TYPE, 400, { fichier: [FICHIER_TYPE] });
  const chemin = `${randomUUID()}.${ext}`;
  const full = absolute(chemin);
  await fs.mkdir(storeDir(), { recursive: true });
  await fs.writeFile(full, file.bytes, { flag: "wx" });
  try {
    return await failingWith(FICHIER_ERROR, () =>
      insertFichier(db, {
        idObservationSerie: id,
        nom: nomAffiche(file.name),
        date: new Date(),
        creePar: user.id,
        chemin,
        typeMime: MIME_PAR_EXTENSION[ext],
        taille: file.bytes.byteLength,
      }),
    );
  } catch (e) {
    await fs.rm(full, { force: true });
    throw e;
  }
}

/** A file of a series of the selected campaign, for its download (B-FILE-06): its name, type and bytes. */
export async function fichierPourTelechargement(scope: Scope, id: number) {
  const { db } = scope;
  const ctx = await campaignContext(scope);
  const row = await fichierATelecharger(db, ctx.idCampagne, id);
  if (!row) throw new ServiceError(FICHIER_ERROR, 404);
  const bytes = await fs.readFile(absolute(String(row.chemin))).catch(() => {
    throw new ServiceError(FICHIER_ERROR, 404);
  });
  return { nom: String(row.nom), typeMime: String(row.typeMime ?? "application/octet-stream"), bytes };
}

/** Deletes a file (B-FILE-07): the write gate, and only its author (B-RIGHTS-13). */
export async function removeFichier(scope: Scope, id: number): Promise<void> {
  const { db, user } = scope;
  const ctx = await writableCampaign(scope);
  const row = await fichierEtAuteur(db, ctx.idCampagne, id);
  if (!row) throw new ServiceError(FICHIER_ERROR, 404);
  if (Number(row.creePar) !== user.id) throw new ServiceError("errors.forbidden", 403);
  await deleteFichier(db, id);
  await removeStoredFiles([String(row.chemin)]);
}

/** The campaign of an attached file, null when there is none (the API names the file, not the campaign). */
export function fichierCampaign(db: Db, id: number): Promise<number | null> {
  return campaignOfFichier(db, id);
}

/** Removes stored files (after their rows are gone); a file already missing is not an error. */
export async function removeStoredFiles(chemins: string[]): Promise<void> {
  for (const c of chemins) {
    try {
      await fs.rm(absolute(c), { force: true });
    } catch (e) {
      console.warn("[fichier-attache] not removed", c, e);
    }
  }
}

/**
 * Removes stored files whose row is gone: a plot, a campaign or a farm deleted takes its series' rows with it (database
 * cascade) but cannot reach the file store. Run at start-up; a file younger than `minAgeMs` is kept (an upload writes
 * its bytes just before its row).
 */
export async function purgeOrphanFiles(db: Db, minAgeMs = 3600_000): Promise<number> {
  const dir = storeDir();
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  if (!names.length) return 0;
  const known = new Set(await allFichierPaths(db));
  let removed = 0;
  for (const name of names) {
    if (known.has(name)) continue;
    const stat = await fs.stat(path.join(dir, name)).catch(() => null);
    if (!stat?.isFile() || Date.now() - stat.mtimeMs < minAgeMs) continue;
    await fs.rm(path.join(dir, name), { force: true });
    removed++;
  }
  return removed;
}
