import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, test } from "vitest";
import { demoUser, expectRefused } from "../../tests/helpers/service";
import { databaseUrl, dialect, useTestDb } from "../../tests/helpers/test-db";
import { attendre as attendreJusque, tacheFinie as finie } from "../../tests/helpers/attendre";
import { createDb, isPostgres, type Db } from "../db/knex";
import { ServiceError } from "../errors";
import { definirTache, Executeur, lancerTache, TACHE_INTERROMPUE } from "./runner";
import { lireTache, listerTachesEnCours } from "./service";

/**
 * The job runner (issue 14, decision 0051): a job runs and ends 'terminee' with its progress; a failing job ends
 * 'echec' with its error key; two runners on one database never run the same job; a job whose process was killed
 * is 'echec' (taches.interrompue) after the next start-up.
 */
const t = useTestDb();
const lances: Executeur[] = [];
const autres: Db[] = [];

afterEach(async () => {
  for (const e of lances.splice(0)) await e.arreter();
  for (const db of autres.splice(0)) await db.destroy();
});

function executeur(db: Db, instance: string, concurrence = 2): Executeur {
  const e = new Executeur(db, { concurrence, instance, intervalleMs: 50, battementMs: 100 });
  lances.push(e);
  return e;
}

/** The address of the test database, for another connection pool (another container) or process. */
function adresse(db: Db): string {
  const c = db.client.config.connection as { filename?: string; database?: string };
  return c.filename ? `file:${c.filename}` : databaseUrl(process.env.TEST_DATABASE_URL!, c.database!);
}

const attendre = <T>(lire: () => Promise<T>, fini: (v: T) => boolean) => attendreJusque(lire, fini, { ms: 20_000, pasMs: 50 });

describe(`job runner (${dialect})`, () => {
  test("[issue14][A-EXPORT-19] a job runs and ends 'terminee' with its progress and result; its owner reads it, nobody else", async () => {
    const db = t.db();
    const redacteur = await demoUser(db, "redacteur");
    const lecteur = await demoUser(db, "lecteur");
    const vus: unknown[] = [];
    definirTache<{ n: number }>("test-ok", async ({ tache, progression, db: d }) => {
      vus.push(tache.parametres);
      expect(tache.idUtilisateur).toBe(redacteur.id);
      await progression(1, tache.parametres.n);
      const enCours = await d("tache").where({ id: tache.id }).first();
      expect(enCours).toMatchObject({ etat: "en_cours", progression: 1, total: 4, instance: "ok:1" });
      await progression(tache.parametres.n, tache.parametres.n);
      return { lignes: tache.parametres.n };
    });
    const { id } = await lancerTache(db, { type: "test-ok", idUtilisateur: redacteur.id, parametres: { n: 4 } });
    expect(await lireTache(db, redacteur, id)).toMatchObject({ etat: "en_attente", progression: 0 });
    expect((await listerTachesEnCours(db, redacteur, ["test-ok"])).map((x) => x.id)).toEqual([id]);
    await executeur(db, "ok:1").demarrer();
    const fin = await attendre(() => lireTache(db, redacteur, id), finie);
    expect(fin).toMatchObject({ id, type: "test-ok", etat: "terminee", progression: 4, total: 4, erreur: null, resultat: { lignes: 4 } });
    expect(vus).toEqual([{ n: 4 }]);
    expect(await listerTachesEnCours(db, redacteur, ["test-ok"])).toEqual([]);
    const row = await db("tache").where({ id }).first();
    expect(row.dtDebut).toBeTruthy();
    expect(row.dtFin).toBeTruthy();
    await expectRefused(lireTache(db, lecteur, id), "errors.not-found", 404);
    await expectRefused(lireTache(db, redacteur, id + 1000), "errors.not-found", 404);
  });

  test("[issue14][A-EXPORT-18] a throwing job ends 'echec': its ServiceError key, or errors.unexpected", async () => {
    const db = t.db();
    const redacteur = await demoUser(db, "redacteur");
    definirTache("test-refus", async () => {
      throw new ServiceError("exports.trop-de-lignes", 413);
    });
    definirTache("test-bug", async () => {
      throw new Error("a bug");
    });
    const a = await lancerTache(db, { type: "test-refus", idUtilisateur: redacteur.id, parametres: {} });
    const b = await lancerTache(db, { type: "test-bug", idUtilisateur: redacteur.id, parametres: {} });
    await executeur(db, "refus:1").demarrer();
    expect(await attendre(() => lireTache(db, redacteur, a.id), finie)).toMatchObject({ etat: "echec", erreur: "exports.trop-de-lignes" });
    expect(await attendre(() => lireTache(db, redacteur, b.id), finie)).toMatchObject({ etat: "echec", erreur: "errors.unexpected" });
  });

  test("[issue14] two runners (two containers) on one database never run the same job twice, and run them all", async () => {
    const db = t.db();
    const redacteur = await demoUser(db, "redacteur");
    const runs: { id: number; par: string }[] = [];
    let enCours = 0;
    let auPlus = 0;
    definirTache<{ par?: string }>("test-partage", async ({ tache }) => {
      enCours++;
      auPlus = Math.max(auPlus, enCours);
      await new Promise((r) => setTimeout(r, 5 + (tache.id % 3) * 5));
      enCours--;
      runs.push({ id: tache.id, par: "?" });
      return null;
    });
    const ids: number[] = [];
    for (let i = 0; i < 24; i++) ids.push((await lancerTache(db, { type: "test-partage", idUtilisateur: redacteur.id, parametres: {} })).id);
    const second = createDb(adresse(db));
    autres.push(second);
    // Two pools and two runners claiming at the same moment, as two containers.
    await Promise.all([executeur(db, "conteneur-a:1", 3).demarrer(), executeur(second, "conteneur-b:1", 3).demarrer()]);
    await attendre(
      () => db("tache").whereIn("id", ids).whereIn("etat", ["terminee", "echec"]).count<{ n: number | string }[]>({ n: "*" }),
      (r) => Number(r[0].n) === ids.length,
    );
    const rows = await db("tache").whereIn("id", ids).select("id", "etat", "instance");
    expect(rows.every((r) => r.etat === "terminee")).toBe(true);
    expect(runs.map((r) => r.id).sort((x, y) => x - y)).toEqual(ids);
    expect(auPlus).toBeLessThanOrEqual(6);
    if (isPostgres(db)) expect(new Set(rows.map((r) => r.instance)).size).toBe(2);
  });

  test("[issue14] a job whose process is killed mid-run is 'echec' (taches.interrompue) after the next start-up", { timeout: 60_000 }, async () => {
    const db = t.db();
    const redacteur = await demoUser(db, "redacteur");
    const { id } = await lancerTache(db, { type: "test-interrompue", idUtilisateur: redacteur.id, parametres: {} });
    const root = fileURLToPath(new URL("../..", import.meta.url));
    const child = spawn(process.execPath, ["--import", "tsx", path.join(root, "server/jobs/enfant-interrompu.fixture.ts"), adresse(db)], {
      cwd: root,
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (d) => (out += String(d)));
    const signal = await new Promise<NodeJS.Signals | null>((resolve) => child.on("exit", (_code, s) => resolve(s)));
    expect(out).toContain("claimed");
    expect(signal).toBe("SIGKILL");
    expect(await lireTache(db, redacteur, id)).toMatchObject({ etat: "en_cours", progression: 3, total: 10 });
    // The next start on this host: the claiming process is dead, its heartbeat not yet old.
    await executeur(db, "autre-hote:1").demarrer();
    expect(await lireTache(db, redacteur, id)).toMatchObject({ etat: "en_cours" });
    await executeur(db, `${(await db("tache").where({ id }).first()).instance.split(":")[0]}:${process.pid}`).demarrer();
    expect(await lireTache(db, redacteur, id)).toMatchObject({ etat: "echec", erreur: TACHE_INTERROMPUE });
  });

  test("[issue14] a running job whose heartbeat is older than the threshold (another container died) is marked 'echec' by any runner", async () => {
    const db = t.db();
    const redacteur = await demoUser(db, "redacteur");
    const { id } = await lancerTache(db, { type: "test-perdue", idUtilisateur: redacteur.id, parametres: {} });
    const vieux = isPostgres(db) ? db.raw("now() - interval '10 minutes'") : db.raw("datetime('now', '-10 minutes')");
    await db("tache").where({ id }).update({ etat: "en_cours", instance: "conteneur-mort:1", dtDebut: vieux, dtBattement: vieux });
    const e = new Executeur(db, { concurrence: 1, instance: "vivant:1", intervalleMs: 50, seuilMs: 60_000 });
    lances.push(e);
    expect(await e.recupererInterrompues(false)).toBe(1);
    expect(await lireTache(db, redacteur, id)).toMatchObject({ etat: "echec", erreur: TACHE_INTERROMPUE });
  });
});
