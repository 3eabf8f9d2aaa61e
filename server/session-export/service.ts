import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { ROLE_TEST } from "~/domain/access/abilities";
import { GROUPES_SERIE } from "~/domain/calc/serie";
import { campagnesChoisies } from "../resultats/selection";
import { bool, toIso } from "../db/dialect";
import type { Db } from "../db/knex";
import { env } from "../env";
import { ServiceError } from "../errors";
import { lancerTache, type ContexteTache } from "../jobs/runner";
import type { Utilisateur } from "../utilisateur/repo";
import { ouvrirClasseur, type Classeur } from "../exports/classeur";
import type { Scope } from "../access/scope";
import {
  countDonneesExportables,
  deleteSessionExport,
  endSessionsExport,
  findSessionExport,
  findSessionExportOfUser,
  insertLiensSessionExport,
  insertSessionExport,
  listCampagnesOfSessionsExport,
  listDonneesExportables,
  listLiensOfSessionExport,
  listSessionsExportOfTaches,
  listSessionsExportOfUser,
  setTacheOfSessionExport,
} from "./repo";

/**
 * Export sessions (spec 1 §3 "Export session", §4, §7 session_exports; decision 0052): a session is what the user
 * asked for (campaigns, data groups or calculation series, version, language), its file is written by a job.
 *
 * For a kind of export (raw data here, server/session-export/donnees-brutes.ts; calculation results elsewhere):
 *
 *   definirTache<ParametresSessionExport>("export-calcul", (ctx) =>
 *     ecrireSessionExport(ctx, async ({ classeur, session, progression }) => {
 *       verifierLignesExport(comptes);                 // before any row: 413 exports.trop-de-lignes
 *       const f = classeur.feuille("Résultats", colonnes);
 *       for (...) await f.ligne([...]);
 *       await progression(fait, total);
 *     }));
 *   // the route's POST:
 *   await creerSessionExport(db, user, { nature: NATURE_CALCUL, libelle, version, anglais, campagnes, groupes, series, options }, "export-calcul");
 *
 * Visibility: a user lists, downloads and deletes only his own sessions (the file holds what his rights let him
 * read when it was written; decision 0052). The campaigns of a new session are checked against his rights.
 */

export const NATURE_DONNEES_BRUTES = 0;
export const NATURE_CALCUL = 1;
export const STATUT_TERMINE = 0;
export const STATUT_EN_COURS = 1;
export const STATUT_ERREUR = 2;

export const OPTIONS_RESULTAT = [
  "prevu",
  "realise",
  "alertes",
  "rendements",
  "donneesBrutes",
  "tcd1",
  "tcd2",
  "parcelle",
  "lot",
  "modeConduite",
  "culture",
  "exploitation",
] as const;
export type OptionResultat = (typeof OPTIONS_RESULTAT)[number];

export type DemandeSessionExport = {
  nature: typeof NATURE_DONNEES_BRUTES | typeof NATURE_CALCUL;
  /** The file name asked for; empty: generated. */
  libelle?: string | null;
  /** 1 or 2; only a ROLE_TEST user may ask for 1, anyone else gets 2 (A-EXPORT-05, 06). */
  version: number;
  anglais: boolean;
  campagnes: number[];
  /** Nature 0: donnee_exportable ids; nature 1: GROUPES_SERIE ids (app/domain/calc/serie.ts). */
  groupes: number[];
  /** Nature 1: calcul_serie ids. */
  series?: number[];
  /** Nature 1: the result-export form's options (default true). */
  options?: Partial<Record<OptionResultat, boolean>>;
};

export type SessionExportVue = {
  id: number;
  libelle: string;
  nature: number;
  version: number;
  anglais: boolean;
  statut: number;
  dtDebSession: string;
  dtFinSession: string | null;
  idTache: number | null;
  campagnes: number[];
};

/** The job's parameters of every export kind. */
export type ParametresSessionExport = { idSession: number };

export function dossierExports(): string {
  return path.resolve(env().DATA_DIR, "exports");
}

function vue(r: Record<string, unknown>, campagnes: number[]): SessionExportVue {
  return {
    id: Number(r.id),
    libelle: String(r.libelle),
    nature: Number(r.nature),
    version: Number(r.version),
    anglais: bool(r.anglais),
    statut: Number(r.statut),
    dtDebSession: toIso(r.dtDebSession),
    dtFinSession: r.dtFinSession ? toIso(r.dtFinSession) : null,
    idTache: r.idTache == null ? null : Number(r.idTache),
    campagnes,
  };
}

/**
 * The campaigns of a new session must be ones the selection panel offers the user (server/resultats/selection.ts,
 * 403 errors.forbidden otherwise): for raw data, farms he reads and, without folder and farm writing, only published
 * campaigns (A-RIGHTS-15); for calculation results, farms he reads.
 */
export async function verifierCampagnesExportables(scope: Scope, ids: readonly number[], nature: number): Promise<void> {
  if (!ids.length) throw new ServiceError("warning.invalid-form", 400, { campagnes: ["warning.required"] });
  await campagnesChoisies(scope, nature === NATURE_CALCUL ? "indicateurs" : "donneesBrutes", ids);
}

function libelleParDefaut(nature: number): string {
  const d = new Date().toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  return `${nature === NATURE_CALCUL ? "resultats" : "donnees-brutes"}-${d}`;
}

const snake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** Records the session (statut 1) and starts its job of type `typeTache` (parameters { idSession }). */
export async function creerSessionExport(scope: Scope, demande: DemandeSessionExport, typeTache: string): Promise<{ id: number; idTache: number }> {
  const { db, user } = scope;
  await verifierCampagnesExportables(scope, demande.campagnes, demande.nature);
  const groupes = [...new Set(demande.groupes)];
  if (!groupes.length) throw new ServiceError("warning.invalid-form", 400, { groupes: ["warning.required"] });
  // Nature 1: the groups a calculation series publishes (GROUPES_SERIE; migration 0020); nature 0: donnee_exportable.
  const connus =
    demande.nature === NATURE_CALCUL ? groupes.filter((g) => GROUPES_SERIE.some((x) => x.id === g)).length : await countDonneesExportables(db, groupes);
  if (connus !== groupes.length) throw new ServiceError("warning.invalid-form", 400, { groupes: ["warning.invalid"] });
  const version = user.roles.includes(ROLE_TEST) && demande.version === 1 ? 1 : 2;
  const libelle = (demande.libelle ?? "").trim().slice(0, 200) || libelleParDefaut(demande.nature);
  return db.transaction(async (trx) => {
    const options: Record<string, boolean> = {};
    for (const o of OPTIONS_RESULTAT) if (demande.options?.[o] !== undefined) options[snake(o)] = !!demande.options[o];
    const id = await insertSessionExport(trx, {
      nature: demande.nature,
      libelle,
      fichier: `${randomUUID()}.xlsx`,
      statut: STATUT_EN_COURS,
      version,
      anglais: demande.anglais,
      idUtilisateur: user.id,
      ...options,
    });
    const campagnes = [...new Set(demande.campagnes)];
    await insertLiensSessionExport(
      trx,
      id,
      demande.nature === NATURE_CALCUL
        ? { campagnes, groupesIndicateur: groupes, series: [...new Set(demande.series ?? [])] }
        : { campagnes, donneesExportables: groupes },
    );
    const tache = await lancerTache<ParametresSessionExport>(trx, { type: typeTache, idUtilisateur: user.id, parametres: { idSession: id } });
    await setTacheOfSessionExport(trx, id, tache.id);
    return { id, idTache: tache.id };
  });
}

/** The user's sessions of this nature that concern at least one of these campaigns, newest first (A-EXPORT-15). */
export async function listerSessionsExport(db: Db, user: Utilisateur, q: { campagnes: readonly number[]; nature: number }): Promise<SessionExportVue[]> {
  if (!q.campagnes.length) return [];
  const rows = await listSessionsExportOfUser(db, user.id, q);
  const liens = rows.length
    ? await listCampagnesOfSessionsExport(
        db,
        rows.map((r) => r.id),
      )
    : [];
  // A session whose job failed without writing its status (its runner was killed: taches.interrompue) is in error.
  return rows.map((r) =>
    vue(
      Number(r.statut) === STATUT_EN_COURS && r.etatTache === "echec" ? { ...r, statut: STATUT_ERREUR } : r,
      liens.filter((l) => l.idSessionExport === r.id).map((l) => l.idCampagne),
    ),
  );
}

async function sessionDe(db: Db, user: Utilisateur, id: number) {
  const r = await findSessionExportOfUser(db, user.id, id);
  if (!r) throw new ServiceError("errors.not-found", 404);
  return r;
}

/** The name the file is downloaded under: the session's libelle, as a file name, with its extension (.xlsx, .xml). */
export function nomTelechargement(libelle: string, extension = ".xlsx"): string {
  // eslint-disable-next-line no-control-regex -- control characters are what it takes out of a file name
  const base = libelle.replace(/[\\/:*?"<>|\x00-\x1f]/g, "_").trim() || "export";
  return base.toLowerCase().endsWith(extension.toLowerCase()) ? base : `${base}${extension}`;
}

/**
 * The finished session's file (A-EXPORT-20): its path and download name. Refusals carry the detail the screen
 * shows (A-EXPORT-21): not his or gone (404), not finished (409 exports.pas-termine), file missing (410).
 */
export async function fichierSessionExport(db: Db, user: Utilisateur, id: number): Promise<{ chemin: string; nom: string }> {
  const s = await sessionDe(db, user, id);
  if (Number(s.statut) !== STATUT_TERMINE) throw new ServiceError("exports.pas-termine", 409);
  const chemin = path.join(dossierExports(), path.basename(String(s.fichier)));
  if (!s.fichier || !fs.existsSync(chemin)) throw new ServiceError("exports.fichier-absent", 410);
  return { chemin, nom: nomTelechargement(String(s.libelle), path.extname(String(s.fichier)) || ".xlsx") };
}

/** Deletes one of the user's sessions and its file (A-EXPORT-22); a running job finds it gone and drops its file. */
export async function supprimerSessionExport(db: Db, user: Utilisateur, id: number): Promise<void> {
  const s = await sessionDe(db, user, id);
  await deleteSessionExport(db, Number(s.id));
  if (s.fichier) fs.rmSync(path.join(dossierExports(), path.basename(String(s.fichier))), { force: true });
}

export type SessionAEcrire = SessionExportVue & { fichier: string; groupes: number[]; series: number[]; options: Record<OptionResultat, boolean> };

/**
 * The body of an export job: opens the session's workbook, lets `ecrire` fill it, then marks the session finished
 * (statut 0, end date). On a failure the partial file is removed, the session is marked in error (statut 2) and the
 * error goes on to the job (etat 'echec', its key).
 */
export async function ecrireSessionExport(
  ctx: ContexteTache<ParametresSessionExport>,
  ecrire: (a: { classeur: Classeur; session: SessionAEcrire; progression: (fait: number, total: number) => Promise<void>; db: Db }) => Promise<void>,
): Promise<{ idSession: number; lignes?: number }> {
  const { db } = ctx;
  const idSession = ctx.tache.parametres.idSession;
  const r = await findSessionExport(db, idSession);
  if (!r) throw new ServiceError("errors.not-found", 404);
  const campagnes = await listLiensOfSessionExport(db, idSession, "campagnes");
  const groupes = await listLiensOfSessionExport(db, idSession, Number(r.nature) === NATURE_CALCUL ? "groupesIndicateur" : "donneesExportables");
  const series = await listLiensOfSessionExport(db, idSession, "series");
  const options = Object.fromEntries(OPTIONS_RESULTAT.map((o) => [o, bool(r[o])])) as Record<OptionResultat, boolean>;
  const session: SessionAEcrire = { ...vue(r, campagnes), fichier: String(r.fichier), groupes, series, options };
  const chemin = path.join(dossierExports(), path.basename(session.fichier));
  const classeur = ouvrirClasseur(chemin);
  try {
    await ecrire({ classeur, session, progression: ctx.progression, db });
    await classeur.fermer();
  } catch (e) {
    await classeur.abandonner();
    await endSessionsExport(db, [idSession], STATUT_ERREUR);
    throw e;
  }
  const n = await endSessionsExport(db, [idSession], STATUT_TERMINE);
  if (!n) fs.rmSync(chemin, { force: true }); // deleted while it was written
  return { idSession };
}

/**
 * An export whose job was interrupted (its runner killed or restarted mid-run, server/jobs/runner.ts) is failed with
 * it: statut 2 and its end date, its partial file removed (decision 0091). Run by the runner's recovery.
 */
export async function sessionsInterrompues(db: Db, idsTache: number[]): Promise<void> {
  const sessions = await listSessionsExportOfTaches(db, idsTache, STATUT_EN_COURS);
  if (!sessions.length) return;
  await endSessionsExport(
    db,
    sessions.map((s) => Number(s.id)),
    STATUT_ERREUR,
  );
  for (const s of sessions) if (s.fichier) fs.rmSync(path.join(dossierExports(), path.basename(String(s.fichier))), { force: true });
}

export type DonneeExportable = { id: number; code: string; libelle: string; libelleEn: string | null };

/** The reference list donneesExportables (spec 1 §3, §7): the data groups of the raw-data export. */
export async function listerDonneesExportables(db: Db): Promise<DonneeExportable[]> {
  return listDonneesExportables(db);
}
