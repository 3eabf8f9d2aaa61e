import { randomUUID } from "node:crypto";
import fs from "node:fs";
import { once } from "node:events";
import path from "node:path";
import type { LigneLogVue, SessionEdaplosVue } from "~/domain/contracts/edaplos";
import { campagneLibelle } from "~/domain/partage";
import type { Scope } from "../../access/scope";
import { inChunks } from "../../db/chunks";
import { parseJson, toIso } from "../../db/dialect";
import type { Db } from "../../db/knex";
import { failingWith, ServiceError } from "../../errors";
import { definirTache, lancerTache, type ContexteTache } from "../../jobs/runner";
import { campagnesChoisies } from "../../resultats/selection";
import {
  dossierExports,
  fichierSessionExport,
  listerSessionsExport,
  sessionsInterrompues,
  STATUT_EN_COURS,
  STATUT_ERREUR,
  STATUT_TERMINE,
  supprimerSessionExport,
  type ParametresSessionExport,
} from "../../session-export/service";
import { debutMessage, FIN_MESSAGE, parcelleXml, type LigneJournal } from "./ecrivain";
import { campagneEdaplos, parcellesCampagne } from "./lecture";
import { TYPES_SORTIE } from "./codes";
import { campagnesExport } from "./repo";
import { returnedId } from "../../db/insert-id";

/**
 * eDaplos export sessions (spec 3 §2.10, §3.12, §4.6, §7 e_daplos; issue 25; decision 0096). A session is a row of
 * session_export of nature 2 (NATURE_EDAPLOS), so that the raw-data and results sessions' list, download, deletion and
 * recovery of an interrupted job (server/session-export/service.ts) serve it as they are; its file is the XML written
 * by the job TACHE_EXPORT_EDAPLOS, plot by plot to a file stream, and its log lines (session_export_log) say what could
 * not be expressed. As for the other sessions, a user lists, downloads and deletes only his own; the campaigns of a new
 * session are ones the export screen offers him (farms he reads, C-RIGHTS-22).
 */

export const NATURE_EDAPLOS = 2;
export const TACHE_EXPORT_EDAPLOS = "export-edaplos";

/**
 * Error keys of spec 3 §8 (C-ERR-18, 19): an unexpected failure (not a refusal) of listing or reading the sessions,
 * of starting an export, of downloading its message (the XML) and of reading its logs answers 500 with its key.
 */
export const EDAPLOS_LOAD_ERROR = "errors.services.Edaplos-service-error";
export const EDAPLOS_CREATE_ERROR = "errors.services.Edaplos-create-service-error";
export const EDAPLOS_MESSAGE_ERROR = "errors.services.EdaplosMessage-service-error";
export const LOGS_ERROR = "errors.services.logs-service-error";

export type { LigneLogVue, SessionEdaplosVue };

function libelleParDefaut(): string {
  const d = new Date().toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  return `edaplos-${d}.xml`;
}

/** POST e_daplos: the campaigns checked (at least one, each offered to the user), the session and its job. */
export async function creerExportEdaplos(scope: Scope, demande: { campagnes: readonly number[] }): Promise<{ id: number; idTache: number }> {
  const { db, user } = scope;
  const ids = [...new Set(demande.campagnes)];
  if (!ids.length) throw new ServiceError("warning.invalid-form", 400, { campagnes: ["warning.required"] });
  await campagnesChoisies(scope, "edaplos", ids);
  return failingWith(EDAPLOS_CREATE_ERROR, () =>
    db.transaction(async (trx) => {
      const [r] = await trx("session_export")
        .insert({ nature: NATURE_EDAPLOS, libelle: libelleParDefaut(), fichier: `${randomUUID()}.xml`, statut: STATUT_EN_COURS, idUtilisateur: user.id })
        .returning("id");
      const id = returnedId(r);
      await trx("session_export_campagne").insert(ids.map((idCampagne) => ({ idSessionExport: id, idCampagne })));
      const tache = await lancerTache<ParametresSessionExport>(trx, { type: TACHE_EXPORT_EDAPLOS, idUtilisateur: user.id, parametres: { idSession: id } });
      await trx("session_export").where({ id }).update({ idTache: tache.id });
      return { id, idTache: tache.id };
    }),
  );
}

/** GET e_daplos: the user's eDaplos sessions of these campaigns, newest first (C-EDAP-06, 14, 19). */
export function listerSessionsEdaplos(scope: Scope, campagnes: readonly number[]): Promise<SessionEdaplosVue[]> {
  return failingWith(EDAPLOS_LOAD_ERROR, () => sessionsEdaplos(scope, campagnes));
}

async function sessionsEdaplos(scope: Scope, campagnes: readonly number[]): Promise<SessionEdaplosVue[]> {
  const { db, user } = scope;
  const sessions = await listerSessionsExport(db, user, { campagnes, nature: NATURE_EDAPLOS });
  if (!sessions.length) return [];
  const ids = sessions.map((s) => s.id);
  const tailles = new Map(
    (await db("session_export").whereIn("id", ids).select("id", "taille")).map((r) => [Number(r.id), r.taille == null ? null : Number(r.taille)]),
  );
  const idsCampagnes = [...new Set(sessions.flatMap((s) => s.campagnes))];
  const infos = new Map((await campagnesExport(db, idsCampagnes)).map((c) => [c.id, c]));
  return sessions.map((s) => ({
    id: s.id,
    libelle: s.libelle,
    dtDebExport: s.dtDebSession,
    dtFinExport: s.dtFinSession,
    taille: tailles.get(s.id) ?? null,
    succes: s.statut === STATUT_TERMINE,
    statut: s.statut,
    idTache: s.idTache,
    campagnes: s.campagnes.flatMap((id) => {
      const c = infos.get(id);
      return c ? [{ id, libelle: c.libelle, prefixeCampagne: c.prefixeCampagne, exploitation: { libelle: c.exploitation } }] : [];
    }),
  }));
}

/** One of the user's eDaplos sessions, else 404 (another user's, another kind of export, or gone). */
async function sessionEdaplos(db: Db, idUtilisateur: number, id: number): Promise<void> {
  const r = await db("session_export").where({ id, idUtilisateur, nature: NATURE_EDAPLOS }).first("id");
  if (!r) throw new ServiceError("errors.not-found", 404);
}

/** GET e_daplos/{id}/download: the finished session's XML (C-EDAP-07); 409 while running, 410 file gone. */
export function fichierEdaplos(scope: Scope, id: number): Promise<{ chemin: string; nom: string }> {
  return failingWith(EDAPLOS_MESSAGE_ERROR, async () => {
    await sessionEdaplos(scope.db, scope.user.id, id);
    return fichierSessionExport(scope.db, scope.user, id);
  });
}

/** DELETE e_daplos/{id}: the session, its file and its log lines (C-EDAP-08). */
export async function supprimerSessionEdaplos(scope: Scope, id: number): Promise<void> {
  await sessionEdaplos(scope.db, scope.user.id, id);
  await supprimerSessionExport(scope.db, scope.user, id);
}

/** GET e_daplos/{id}/logs: the session's log lines in order, their links resolved to labels (C-EDAP-16, 18, 20). */
export function logsSessionEdaplos(scope: Scope, id: number): Promise<LigneLogVue[]> {
  return failingWith(LOGS_ERROR, () => logsSession(scope, id));
}

async function logsSession(scope: Scope, id: number): Promise<LigneLogVue[]> {
  const { db } = scope;
  await sessionEdaplos(db, scope.user.id, id);
  const rows = await db("session_export_log as l")
    .leftJoin("exploitation as e", "e.id", "l.idExploitation")
    .leftJoin("campagne as c", "c.id", "l.idCampagne")
    .leftJoin("mode_conduite as m", "m.id", "l.idModeConduite")
    .leftJoin("parcelle as p", "p.id", "l.idParcelle")
    .leftJoin("action as a", "a.id", "l.idAction")
    .leftJoin("operation_culturale as o", "o.id", "a.idOperationCulturale")
    .leftJoin("intrant as i", "i.id", "l.idIntrant")
    .where("l.idSessionExport", id)
    .orderBy("l.id")
    .select(
      "l.*",
      "e.libelle as libelleExploitation",
      "c.apiLibelle as apiCampagne",
      "c.prefixeCampagne as prefixeCampagne",
      "c.anneeRecolte as anneeCampagne",
      "m.libelle as libelleMode",
      "p.libelle as libelleParcelle",
      "o.libelle as libelleAction",
      "a.date as dateAction",
      "i.libelleIntrant",
    );
  const lien = (v: unknown, libelle: unknown) => (v == null ? null : { id: Number(v), libelle: libelle == null ? null : String(libelle) });
  return rows.map((r) => ({
    id: Number(r.id),
    niveau: Number(r.niveau),
    logMessage: String(r.logMessage),
    parametres: parseJson<Record<string, string | number>>(r.parametres, {}),
    exploitation: lien(r.idExploitation, r.libelleExploitation),
    campagne: lien(
      r.idCampagne,
      r.anneeCampagne == null
        ? null
        : campagneLibelle({ prefixeCampagne: String(r.prefixeCampagne ?? ""), apiLibelle: String(r.apiCampagne ?? "") }) || r.anneeCampagne,
    ),
    modeConduite: lien(r.idModeConduite, r.libelleMode),
    parcelle: lien(r.idParcelle, r.libelleParcelle),
    action:
      r.idAction == null
        ? null
        : {
            id: Number(r.idAction),
            dicIdTypeAction: r.dicIdTypeAction == null ? null : Number(r.dicIdTypeAction),
            libelle: r.libelleAction == null ? null : String(r.libelleAction),
            date: r.dateAction == null ? null : toIso(r.dateAction).slice(0, 10),
          },
    intrant: lien(r.idIntrant, r.libelleIntrant),
  }));
}

/** A file sink with back-pressure: `ecrire` waits when the stream's buffer is full. */
export function puits(chemin: string): { ecrire: (s: string) => Promise<void>; fermer: () => Promise<void>; abandonner: () => Promise<void> } {
  const flux = fs.createWriteStream(chemin, { encoding: "utf8" });
  let erreur: Error | undefined;
  flux.on("error", (e) => (erreur = e));
  return {
    ecrire: async (s) => {
      if (erreur) throw erreur;
      if (!flux.write(s)) await once(flux, "drain");
    },
    fermer: async () => {
      if (erreur) throw erreur;
      flux.end();
      await once(flux, "finish");
    },
    abandonner: async () => {
      flux.destroy();
      fs.rmSync(chemin, { force: true });
    },
  };
}

/** What the file holds (harvests: those written) and how many log lines were reported. */
export type ResultatEdaplos = { parcelles: number; interventions: number; intrants: number; recoltes: number; lignesLog: number };

/**
 * Writes the eDaplos of some campaigns to a sink, plot by plot (one batch of plots read at a time), reporting each
 * log line to `journal` and the plots done to `progression`. Used by the job and by `npm run interop:export`.
 */
export async function ecrireEdaplos(
  db: Db,
  idsCampagnes: readonly number[],
  sortie: { ecrire: (s: string) => Promise<void> },
  options: {
    identification: string;
    emetteur: { id: string; nom: string };
    journal: (l: LigneJournal) => void | Promise<void>;
    progression?: (fait: number, total: number) => Promise<void>;
  },
): Promise<ResultatEdaplos> {
  const campagnes = await campagnesExport(db, idsCampagnes);
  const comptes = await db("parcelle")
    .whereIn("idCampagne", [...idsCampagnes])
    .count<{ n: number | string }[]>({ n: "*" });
  const total = Number(comptes[0]?.n ?? 0);
  const resultat: ResultatEdaplos = { parcelles: 0, interventions: 0, intrants: 0, recoltes: 0, lignesLog: 0 };
  const enAttente: LigneJournal[] = [];
  const journal = (l: LigneJournal) => {
    resultat.lignesLog++;
    enAttente.push(l);
  };
  await options.progression?.(0, total);
  await sortie.ecrire(
    debutMessage({ identification: options.identification, creation: new Date(), logiciel: { nom: "Sillon", version: "1.0" }, emetteur: options.emetteur }),
  );
  for (const c of campagnes) {
    const campagne = campagneEdaplos(c);
    for await (const p of parcellesCampagne(db, c.id)) {
      await sortie.ecrire(parcelleXml(campagne, p, journal));
      resultat.parcelles++;
      resultat.interventions += p.interventions.length;
      for (const i of p.interventions) {
        resultat.intrants += i.intrants.length;
        resultat.recoltes += i.recoltes.filter((r) => TYPES_SORTIE[r.idTypeSortie] != null).length; // grazing is not written (logged)
      }
      for (const l of enAttente.splice(0)) await options.journal(l);
      if (resultat.parcelles % 50 === 0) await options.progression?.(resultat.parcelles, total);
    }
  }
  await sortie.ecrire(FIN_MESSAGE);
  await options.progression?.(resultat.parcelles, total);
  return resultat;
}

const ligneLog = (idSessionExport: number, l: LigneJournal) => ({
  idSessionExport,
  niveau: l.niveau,
  logMessage: l.message,
  parametres: l.parametres ? JSON.stringify(l.parametres) : null,
  idExploitation: l.idExploitation ?? null,
  idCampagne: l.idCampagne ?? null,
  idModeConduite: l.idModeConduite ?? null,
  idParcelle: l.idParcelle ?? null,
  idAction: l.idAction ?? null,
  dicIdTypeAction: l.dicIdTypeAction ?? null,
  idIntrant: l.idIntrant ?? null,
});

async function executerExportEdaplos(ctx: ContexteTache<ParametresSessionExport>): Promise<{ idSession: number } & ResultatEdaplos> {
  const { db } = ctx;
  const idSession = ctx.tache.parametres.idSession;
  const s = await db("session_export").where({ id: idSession, nature: NATURE_EDAPLOS }).first("id", "fichier", "idUtilisateur");
  if (!s) throw new ServiceError("errors.not-found", 404);
  const campagnes = (
    (await db("session_export_campagne").where({ idSessionExport: idSession }).orderBy("idCampagne").select("idCampagne")) as { idCampagne: number }[]
  ).map((r) => Number(r.idCampagne));
  const u = await db("utilisateur").where({ id: s.idUtilisateur }).first("username", "nom", "prenom");
  fs.mkdirSync(dossierExports(), { recursive: true });
  const chemin = path.join(dossierExports(), path.basename(String(s.fichier)));
  const sortie = puits(chemin);
  let lignes: ReturnType<typeof ligneLog>[] = [];
  const vider = async () => {
    for (const lot of inChunks(lignes.splice(0))) await db("session_export_log").insert(lot);
  };
  let resultat: ResultatEdaplos;
  try {
    resultat = await ecrireEdaplos(db, campagnes, sortie, {
      identification: String(idSession).padStart(6, "0"),
      emetteur: { id: String(u?.username ?? s.idUtilisateur), nom: [u?.prenom, u?.nom].filter(Boolean).join(" ") || "Sillon" },
      journal: async (l) => {
        lignes.push(ligneLog(idSession, l));
        if (lignes.length >= 500) await vider();
      },
      progression: ctx.progression,
    });
    await vider();
    await sortie.fermer();
  } catch (e) {
    await sortie.abandonner();
    lignes = [];
    await db("session_export").where({ id: idSession }).update({ statut: STATUT_ERREUR, dtFinSession: db.fn.now() });
    throw e;
  }
  const taille = fs.statSync(chemin).size;
  const n = await db("session_export").where({ id: idSession }).update({ statut: STATUT_TERMINE, dtFinSession: db.fn.now(), taille });
  if (!n) fs.rmSync(chemin, { force: true }); // deleted while it was written
  return { idSession, ...resultat };
}

definirTache<ParametresSessionExport>(TACHE_EXPORT_EDAPLOS, executerExportEdaplos, { siInterrompue: sessionsInterrompues });

/** GET e_daplos/{id}: one of the user's eDaplos sessions, as the list shows it (C-API-39). */
export function lireSessionEdaplos(scope: Scope, id: number): Promise<SessionEdaplosVue> {
  return failingWith(EDAPLOS_LOAD_ERROR, async () => {
    const { db } = scope;
    await sessionEdaplos(db, scope.user.id, id);
    const campagnes = (await db("session_export_campagne").where({ idSessionExport: id }).select("idCampagne")).map((r) => Number(r.idCampagne));
    const session = (await sessionsEdaplos(scope, campagnes)).find((s) => s.id === id);
    if (!session) throw new ServiceError("errors.not-found", 404);
    return session;
  });
}

/** GET e_daplos_logs/{id}: one log line of one of the user's eDaplos sessions, its links resolved (C-API-42). */
export function lireLogEdaplos(scope: Scope, idLog: number): Promise<LigneLogVue> {
  return failingWith(LOGS_ERROR, async () => {
    const row = await scope.db("session_export_log").where({ id: idLog }).first("idSessionExport");
    if (!row) throw new ServiceError("errors.not-found", 404);
    const ligne = (await logsSession(scope, Number(row.idSessionExport))).find((l) => l.id === idLog);
    if (!ligne) throw new ServiceError("errors.not-found", 404);
    return ligne;
  });
}
