import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, test } from "vitest";
import { STATUT_SESSION } from "~/domain/session-export";
import { demoUser as utilisateurDemo, scopeOf } from "../../tests/helpers/service";
import { selectInContext } from "../contexte/service";
import { databaseUrl, dialect, useTestDb } from "../../tests/helpers/test-db";
import { isPostgres, type Db } from "../db/knex";
import { Executeur, TACHE_INTERROMPUE } from "../jobs/runner";
import { lireTache } from "../jobs/service";
import { TACHE_EXPORT_DONNEES_BRUTES } from "./donnees-brutes";
import { creerSessionExport, NATURE_DONNEES_BRUTES, type DemandeSessionExport } from "./service";

// The export files of this test file go to a folder of its own (the killed process writes there too).
process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "sillon-exports-"));

/**
 * An interrupted export's session is failed with its job (issue 23, decision 0091): the runner that finds a job whose
 * process died (killed, or its container restarted) marks the job 'echec' and, in the same transaction, the export
 * session it was writing in error (statut 2) with its end date; no session stays "in progress".
 */
const t = useTestDb();
const lances: Executeur[] = [];

afterAll(async () => {
  for (const e of lances) await e.arreter();
  fs.rmSync(process.env.DATA_DIR!, { recursive: true, force: true });
});

function adresse(db: Db): string {
  const c = db.client.config.connection as { filename?: string; database?: string };
  return c.filename ? `file:${c.filename}` : databaseUrl(process.env.TEST_DATABASE_URL!, c.database!);
}

/** A demo user on Réseau démo (the results screens offer the folders of the current network). */
async function demoUser(db: Db, username: string) {
  const user = await utilisateurDemo(db, username);
  await selectInContext(db, user, { intent: "oad", id: t.demo().oads.reseauDemo });
  return user;
}

const demande = (campagnes: number[]): DemandeSessionExport => ({
  nature: NATURE_DONNEES_BRUTES,
  libelle: "",
  version: 2,
  anglais: false,
  campagnes,
  groupes: [1, 2],
});

const session = async (db: Db, id: number) => {
  const r = await db("session_export").where({ id }).first("statut", "dtFinSession");
  return { statut: Number(r.statut), fini: r.dtFinSession != null };
};

describe(`interrupted exports (${dialect})`, () => {
  test(
    "[issue23-export] an export whose process is killed mid-run shows failed after the next start-up: its job and its session",
    { timeout: 60_000 },
    async () => {
      const db = t.db();
      const redacteur = await demoUser(db, "redacteur");
      const { id, idTache } = await creerSessionExport(scopeOf(db, redacteur), demande([t.demo().campagnes.tilleuls2025]), TACHE_EXPORT_DONNEES_BRUTES);
      const root = fileURLToPath(new URL("../..", import.meta.url));
      const child = spawn(process.execPath, ["--import", "tsx", path.join(root, "server/session-export/export-interrompu.fixture.ts"), adresse(db)], {
        cwd: root,
        stdio: ["ignore", "pipe", "inherit"],
      });
      let out = "";
      child.stdout.on("data", (d) => (out += String(d)));
      const signal = await new Promise<NodeJS.Signals | null>((resolve) => child.on("exit", (_code, s) => resolve(s)));
      expect(out).toContain("writing");
      expect(signal).toBe("SIGKILL");
      // Killed while writing: the job and its session are both still "in progress".
      expect(await lireTache(db, redacteur, idTache)).toMatchObject({ etat: "en_cours", progression: 1, total: 10 });
      expect(await session(db, id)).toEqual({ statut: STATUT_SESSION.enCours, fini: false });
      // The next start of the runner on this host (same host name, the dead process's pid no longer alive).
      const instance = (await db("tache").where({ id: idTache }).first()).instance as string;
      const e = new Executeur(db, { concurrence: 1, instance: `${instance.split(":")[0]}:${process.pid}`, intervalleMs: 50 });
      lances.push(e);
      await e.demarrer();
      expect(await lireTache(db, redacteur, idTache)).toMatchObject({ etat: "echec", erreur: TACHE_INTERROMPUE });
      expect(await session(db, id)).toEqual({ statut: STATUT_SESSION.erreur, fini: true });
      expect(Number((await db("session_export").where({ statut: STATUT_SESSION.enCours }).count({ n: "*" }).first())?.n)).toBe(0);
      await e.arreter();
    },
  );

  test("[issue23-export] an export whose runner stopped beating (another container died) is failed with its job by any runner", async () => {
    const db = t.db();
    const redacteur = await demoUser(db, "redacteur");
    const { id, idTache } = await creerSessionExport(scopeOf(db, redacteur), demande([t.demo().campagnes.tilleuls2025]), TACHE_EXPORT_DONNEES_BRUTES);
    const vieux = isPostgres(db) ? db.raw("now() - interval '10 minutes'") : db.raw("datetime('now', '-10 minutes')");
    await db("tache").where({ id: idTache }).update({ etat: "en_cours", instance: "conteneur-mort:1", dtDebut: vieux, dtBattement: vieux });
    const e = new Executeur(db, { concurrence: 1, instance: "vivant:1", intervalleMs: 50, seuilMs: 60_000 });
    lances.push(e);
    expect(await e.recupererInterrompues(false)).toBe(1);
    expect(await lireTache(db, redacteur, idTache)).toMatchObject({ etat: "echec", erreur: TACHE_INTERROMPUE });
    expect(await session(db, id)).toEqual({ statut: STATUT_SESSION.erreur, fini: true });
  });
});
