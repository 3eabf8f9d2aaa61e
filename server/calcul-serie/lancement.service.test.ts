import { afterEach, describe, expect, test } from "vitest";
import { countRows, demoUser, expectRefused } from "../../tests/helpers/service";
import { dialect, useTestDb } from "../../tests/helpers/test-db";
import { attendre, tacheFinie } from "../../tests/helpers/attendre";
import type { Db } from "../db/knex";
import { Executeur } from "../jobs/runner";
import { lireTache } from "../jobs/service";
import { etatLancement, lancerCalcul, TACHE_LANCEMENT, type ResultatLancement } from "./lancement";
import { controlerSansDroits, executerSerie, lancerSerie } from "./service";

/**
 * The launch of a calculation as a job (issue 30, decision 0102): the request answers with the job before any check
 * ran; the job checks, refuses with the checks (errors first, each once) or runs; its series hold the figures the
 * series run in place gives.
 */
const t = useTestDb();
const lances: Executeur[] = [];
afterEach(async () => {
  for (const e of lances.splice(0)) await e.arreter();
});

async function demarrer(db: Db): Promise<Executeur> {
  const e = new Executeur(db, { concurrence: 1, instance: `test-lancement:${process.pid}`, intervalleMs: 50, battementMs: 200 });
  lances.push(e);
  await e.demarrer();
  return e;
}

const fin = (db: Db, idTache: number) =>
  attendre(() => db("tache").where({ id: idTache }).first("etat", "resultat", "erreur", "progression", "total"), tacheFinie, { quoi: `job ${idTache}` });

/** A series' stored figures, in a stable order, without their ids. */
async function chiffres(db: Db, idSerie: number) {
  const rows = await db("calcul_resultat")
    .where({ idCalculSerie: idSerie })
    .select("niveau", "idEntite", "idParcelle", "code", "idGroupe", "valeur", "unite", "completude", "nbManquants", "explication");
  return rows
    .map((r) => ({ ...r, valeur: r.valeur == null ? null : Number(r.valeur), completude: Number(r.completude), nbManquants: Number(r.nbManquants) }))
    .sort((a, b) => `${a.niveau}|${a.idEntite}|${a.code}`.localeCompare(`${b.niveau}|${b.idEntite}|${b.code}`));
}

describe(`calculation launch job (${dialect})`, () => {
  test("[C-CALC-09] [C-CALC-10] [issue30-lancement] the launch request answers with its job before the check ran; the job checks, stops on unconfirmed warnings, runs once confirmed, with the figures of the run in place", async () => {
    const db = t.db();
    const idCampagne = t.demo().campagnes.moulin2025;
    const redacteur = await demoUser(db, "redacteur");
    const seriesAvant = await countRows(db, "calcul_serie", { idCampagne });

    // No runner yet: the request has returned, the check has not started (the job waits, nothing counted, no series).
    const { idTache } = await lancerCalcul(db, redacteur, [idCampagne]);
    const attente = await db("tache").where({ id: idTache }).first("type", "etat", "progression", "total");
    expect(attente).toMatchObject({ type: TACHE_LANCEMENT, etat: "en_attente", progression: 0, total: 0 });
    expect(await countRows(db, "calcul_serie", { idCampagne })).toBe(seriesAvant);
    const attendu = await controlerSansDroits(db, idCampagne);
    expect(attendu.codeRetour).toBe("Avertissement");

    await demarrer(db);
    const refus = await fin(db, idTache);
    expect(refus.etat).toBe("terminee");
    const r1 = (await lireTache(db, redacteur, idTache)).resultat as ResultatLancement;
    expect(r1).toEqual({ controles: [{ idCampagne, controle: attendu }], lance: false, series: [], versions: expect.any(Object) });
    expect(Number(refus.progression)).toBe(Number(refus.total));
    expect(await countRows(db, "calcul_serie", { idCampagne })).toBe(seriesAvant);

    // Confirmed without naming the check: the job checks again and runs; the series names it.
    const { idTache: idSansControle } = await lancerCalcul(db, redacteur, [idCampagne], { confirme: true });
    expect((await fin(db, idSansControle)).etat).toBe("terminee");
    expect((await lireTache(db, redacteur, idSansControle)).resultat).toMatchObject({ lance: true, controleRepris: false });

    // Confirmed naming the check's job, nothing changed since: its checks are taken, not made again.
    const { idTache: idConfirme } = await lancerCalcul(db, redacteur, [idCampagne], { confirme: true, controle: idTache });
    const ok = await fin(db, idConfirme);
    expect(ok.etat).toBe("terminee");
    const r2 = JSON.parse(String(ok.resultat)) as ResultatLancement;
    expect(r2.lance).toBe(true);
    expect(r2.controleRepris).toBe(true);
    expect(r2.controles).toEqual([{ idCampagne, controle: { codeRetour: "Avertissement", details: [] } }]);
    expect(r2.series).toHaveLength(1);
    const etat = await etatLancement(db, redacteur, idConfirme);
    expect(etat.series).toEqual(r2.series);
    const serie = await db("calcul_serie").where({ id: r2.series[0].id }).first();
    expect(serie).toMatchObject({ idCampagne, statut: "termine", idTache: idConfirme, idUtilisateur: redacteur.id });

    // Today's outcome: the series run in place (the path before the job) stores the same figures.
    const figures = await chiffres(db, r2.series[0].id);
    const { id: enPlace, execution } = await lancerSerie(db, redacteur, idCampagne, { executer: (id) => executerSerie(db, id) });
    await execution;
    expect(figures.length).toBeGreaterThan(0);
    expect(await chiffres(db, enPlace)).toEqual(figures);
    const parcelles = await countRows(db, "parcelle", { idCampagne });
    expect(await db("calcul_serie").where({ id: enPlace }).first("nbParcellesTraiteesReussies")).toEqual({ nbParcellesTraiteesReussies: parcelles });
    expect(serie.nbParcellesTraiteesReussies).toBe(parcelles);

    // A change of the data after the check (a plot's area): the confirmed job checks again, and refuses.
    const plot = await db("parcelle").where({ idCampagne }).orderBy("id").first("id", "surface");
    await db("parcelle").where({ id: plot.id }).update({ surface: null });
    try {
      const { idTache: idChange } = await lancerCalcul(db, redacteur, [idCampagne], { confirme: true, controle: idTache });
      expect((await fin(db, idChange)).etat).toBe("terminee");
      const r3 = (await lireTache(db, redacteur, idChange)).resultat as ResultatLancement;
      expect(r3).toMatchObject({ lance: false, series: [] });
      expect(r3.controles[0].controle.codeRetour).toBe("Erreur");
    } finally {
      await db("parcelle").where({ id: plot.id }).update({ surface: plot.surface });
    }
  });

  test("[C-CHECK-23] [C-CHECK-24] [issue30-lancement] an error refuses the run even confirmed: the job ends with the check, errors first and each once, and creates no series", async () => {
    const db = t.db();
    const idCampagne = t.demo().campagnes.tilleuls2025;
    const redacteur = await demoUser(db, "redacteur");
    const plot = await db("parcelle").where({ idCampagne }).orderBy("id").first("id", "surface");
    await db("parcelle").where({ id: plot.id }).update({ surface: null });
    try {
      const avant = await countRows(db, "calcul_serie", { idCampagne });
      await demarrer(db);
      const { idTache } = await lancerCalcul(db, redacteur, [idCampagne, idCampagne], { confirme: true });
      const r = await fin(db, idTache);
      expect(r.etat).toBe("terminee");
      const res = JSON.parse(String(r.resultat)) as ResultatLancement;
      expect(res.lance).toBe(false);
      expect(res.controles).toHaveLength(1);
      const details = res.controles[0].controle.details;
      expect(res.controles[0].controle.codeRetour).toBe("Erreur");
      expect(details).toContainEqual(expect.objectContaining({ code: "indicateurs.controle.surface", objet: "parcelle", id: plot.id, severite: "Erreur" }));
      const premierAvertissement = details.findIndex((d) => d.severite === "Avertissement");
      if (premierAvertissement >= 0) expect(details.slice(premierAvertissement).every((d) => d.severite === "Avertissement")).toBe(true);
      const cles = details.map((d) => JSON.stringify([d.code, d.objet, d.id, d.champ ?? null, d.valeur ?? null]));
      expect(new Set(cles).size).toBe(cles.length);
      expect(await countRows(db, "calcul_serie", { idCampagne })).toBe(avant);
    } finally {
      await db("parcelle").where({ id: plot.id }).update({ surface: plot.surface });
    }
  });

  test("[C-RIGHTS-13] [issue30-lancement] a user without write on the farm is refused by the request: no job; another user's job is not his to read", async () => {
    const db = t.db();
    const idCampagne = t.demo().campagnes.tilleuls2025;
    const avant = await countRows(db, "tache");
    for (const username of ["lecteur", "synthese"]) await expectRefused(lancerCalcul(db, await demoUser(db, username), [idCampagne]), "errors.forbidden", 403);
    expect(await countRows(db, "tache")).toBe(avant);
    const { idTache } = await lancerCalcul(db, await demoUser(db, "redacteur"), [idCampagne]);
    await expectRefused(etatLancement(db, await demoUser(db, "lecteur"), idTache), "errors.not-found", 404);
    await db("tache").where({ id: idTache }).delete();
  });
});
