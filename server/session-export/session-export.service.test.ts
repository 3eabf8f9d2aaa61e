import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { countRows, demoUser as utilisateurDemo, expectRefused, scopeOf } from "../../tests/helpers/service";
import { selectInContext } from "../contexte/service";
import type { Db } from "../db/knex";
import { dialect, useTestDb } from "../../tests/helpers/test-db";
import { attendre, tacheFinie } from "../../tests/helpers/attendre";
import { Executeur } from "../jobs/runner";
import { lireTache } from "../jobs/service";
import { TACHE_EXPORT_DONNEES_BRUTES } from "./donnees-brutes";
import {
  creerSessionExport,
  dossierExports,
  fichierSessionExport,
  listerSessionsExport,
  NATURE_DONNEES_BRUTES,
  supprimerSessionExport,
  type DemandeSessionExport,
} from "./service";

// The export files of this test file go to a folder of its own.
process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "sillon-exports-"));

/**
 * Export sessions and the raw-data export job (issue 14; spec 1 "Raw-data export screen", §3, §4, §7): a session is
 * created with its job, the job writes one sheet per group with the campaigns' real rows, the session turns finished
 * and its file is downloaded; lists, rights and deletion.
 */
const t = useTestDb();

/** A demo user whose context is on Réseau démo (the resultats screens offer the folders of the current network). */
async function demoUser(db: Db, username: string) {
  const user = await utilisateurDemo(db, username);
  await selectInContext(db, user, { intent: "oad", id: t.demo().oads.reseauDemo });
  return user;
}
let runner: Executeur;

beforeAll(async () => {
  runner = new Executeur(t.db(), { concurrence: 2, instance: "test-exports:1", intervalleMs: 50 });
  await runner.demarrer();
});
afterAll(async () => {
  await runner.arreter();
  fs.rmSync(process.env.DATA_DIR!, { recursive: true, force: true });
});

const GROUPE = { parcelles: 1, interventions: 2, intrants: 3, recoltes: 4, observations: 5, materiel: 6, mainOeuvre: 7, prix: 8 };

const demande = (campagnes: number[], groupes: number[], extra: Partial<DemandeSessionExport> = {}): DemandeSessionExport => ({
  nature: NATURE_DONNEES_BRUTES,
  libelle: "",
  version: 2,
  anglais: false,
  campagnes,
  groupes,
  ...extra,
});

const terminee = (db: ReturnType<typeof t.db>, user: Awaited<ReturnType<typeof utilisateurDemo>>, idTache: number) =>
  attendre(() => lireTache(db, user, idTache), tacheFinie, { ms: 20_000, pasMs: 50 });

async function classeur(chemin: string): Promise<ExcelJS.Workbook> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(chemin);
  return wb;
}

describe(`export sessions (${dialect})`, () => {
  test("[A-EXPORT-10][A-EXPORT-11][A-EXPORT-16][A-EXPORT-17][A-EXPORT-20] a raw export of two groups writes one sheet per group with the campaign's rows, then is downloadable", async () => {
    const db = t.db();
    const redacteur = await demoUser(db, "redacteur");
    const { campagnes } = t.demo();
    const { id, idTache } = await creerSessionExport(
      scopeOf(db, redacteur),
      demande([campagnes.tilleuls2025], [GROUPE.interventions, GROUPE.parcelles]),
      TACHE_EXPORT_DONNEES_BRUTES,
    );
    const [enCours] = await listerSessionsExport(db, redacteur, { campagnes: [campagnes.tilleuls2025], nature: 0 });
    expect(enCours).toMatchObject({ id, statut: 1, dtFinSession: null, version: 2, anglais: false, campagnes: [campagnes.tilleuls2025], idTache });
    expect(enCours.libelle).toMatch(/^donnees-brutes-\d{8}-\d{6}$/);
    const job = await terminee(db, redacteur, idTache);
    expect(job).toMatchObject({ etat: "terminee", erreur: null });
    const parcelles = await countRows(db, "parcelle", { idCampagne: campagnes.tilleuls2025 });
    const interventions = await countRows(db, "action", { idCampagne: campagnes.tilleuls2025 });
    expect(parcelles).toBeGreaterThan(0);
    expect(interventions).toBeGreaterThan(0);
    expect(job.total).toBe(parcelles + interventions);
    expect(job.progression).toBe(job.total);
    const [fini] = await listerSessionsExport(db, redacteur, { campagnes: [campagnes.tilleuls2025], nature: 0 });
    expect(fini.statut).toBe(0);
    expect(fini.dtFinSession).toBeTruthy();

    const f = await fichierSessionExport(db, redacteur, id);
    expect(f.nom).toBe(`${fini.libelle}.xlsx`);
    const wb = await classeur(f.chemin);
    expect(wb.worksheets.map((w) => w.name)).toEqual(["Parcelles", "Interventions"]);
    const wp = wb.getWorksheet("Parcelles")!;
    expect(wp.getRow(1).values).toEqual([
      undefined,
      "Exploitation",
      "Campagne",
      "Année de récolte",
      "Parcelle",
      "Surface (ha)",
      "Surface réelle (ha)",
      "Mode de conduite",
      "Îlot PAC",
      "Code INSEE",
      "Irrigable",
      "Drainée",
      "Objectif de rendement",
      "Remarque",
    ]);
    expect(wp.rowCount).toBe(parcelles + 1);
    const premiere = await db("parcelle").where({ idCampagne: campagnes.tilleuls2025 }).orderBy("id").first();
    expect(wp.getCell("A2").value).toBe("EARL des Tilleuls");
    expect(wp.getCell("C2").value).toBe(2025);
    expect(wp.getCell("D2").value).toBe(premiere.libelle);
    expect(wp.getCell("E2").value).toBeCloseTo(Number(premiere.surface), 4);
    const wi = wb.getWorksheet("Interventions")!;
    expect(wi.rowCount).toBe(interventions + 1);
    const action = await db("action").where({ idCampagne: campagnes.tilleuls2025 }).orderBy("id").first();
    const [a, m, j] = String(action.date).split("-").map(Number);
    expect(wi.getCell("E2").value).toEqual(new Date(Date.UTC(a, m - 1, j)));
  });

  test("[A-EXPORT-12] with the anglais flag the sheets and headers are in English; [A-EXPORT-05][A-EXPORT-06] version 1 only for the test role", async () => {
    const db = t.db();
    const redacteur = await demoUser(db, "redacteur");
    const admin = await demoUser(db, "admin");
    const { campagnes } = t.demo();
    const s = await creerSessionExport(
      scopeOf(db, redacteur),
      demande([campagnes.tilleuls2025], [GROUPE.recoltes, GROUPE.prix], { anglais: true, version: 1, libelle: "Harvests" }),
      TACHE_EXPORT_DONNEES_BRUTES,
    );
    expect((await terminee(db, redacteur, s.idTache)).etat).toBe("terminee");
    const [v] = await listerSessionsExport(db, redacteur, { campagnes: [campagnes.tilleuls2025], nature: 0 });
    expect(v).toMatchObject({ id: s.id, libelle: "Harvests", anglais: true, version: 2 });
    const wb = await classeur((await fichierSessionExport(db, redacteur, s.id)).chemin);
    expect(wb.worksheets.map((w) => w.name)).toEqual(["Harvests", "Prices"]);
    expect(wb.worksheets[0].getRow(1).values).toEqual([undefined, "Farm", "Campaign", "Harvest year", "Plot", "Date", "Crop", "Output type", "Yield", "Unit"]);
    expect(wb.worksheets[0].rowCount).toBe(
      1 +
        (await db("recolte as r").join("action as a", "a.id", "r.idAction").where("a.idCampagne", campagnes.tilleuls2025).count<{ n: number }[]>({ n: "*" }))[0]
          .n *
          1,
    );
    const t1 = await creerSessionExport(scopeOf(db, admin), demande([campagnes.tilleuls2025], [GROUPE.parcelles], { version: 1 }), TACHE_EXPORT_DONNEES_BRUTES);
    expect((await db("session_export").where({ id: t1.id }).first()).version).toBe(1);
    expect((await terminee(db, admin, t1.idTache)).etat).toBe("terminee");
  });

  test("[A-EXPORT-15] the list holds the user's own sessions of the selected campaigns and nature, newest first; others get 404", async () => {
    const db = t.db();
    const redacteur = await demoUser(db, "redacteur");
    const animateur = await demoUser(db, "animateur");
    const { campagnes } = t.demo();
    const a = await creerSessionExport(scopeOf(db, redacteur), demande([campagnes.moulin2025], [GROUPE.materiel]), TACHE_EXPORT_DONNEES_BRUTES);
    const b = await creerSessionExport(
      scopeOf(db, redacteur),
      demande([campagnes.moulin2025, campagnes.moulin2024], [GROUPE.mainOeuvre]),
      TACHE_EXPORT_DONNEES_BRUTES,
    );
    await terminee(db, redacteur, a.idTache);
    await terminee(db, redacteur, b.idTache);
    expect((await listerSessionsExport(db, redacteur, { campagnes: [campagnes.moulin2025], nature: 0 })).map((s) => s.id)).toEqual([b.id, a.id]);
    expect((await listerSessionsExport(db, redacteur, { campagnes: [campagnes.moulin2024], nature: 0 })).map((s) => s.id)).toEqual([b.id]);
    expect(await listerSessionsExport(db, redacteur, { campagnes: [campagnes.moulin2025], nature: 1 })).toEqual([]);
    expect(await listerSessionsExport(db, animateur, { campagnes: [campagnes.moulin2025], nature: 0 })).toEqual([]);
    // A session whose job was interrupted (its runner killed) is listed in error.
    await db("session_export").where({ id: a.id }).update({ statut: 1, dtFinSession: null });
    await db("tache").where({ id: a.idTache }).update({ etat: "echec", erreur: "taches.interrompue" });
    expect((await listerSessionsExport(db, redacteur, { campagnes: [campagnes.moulin2025], nature: 0 })).find((s) => s.id === a.id)?.statut).toBe(2);
    await expectRefused(fichierSessionExport(db, animateur, a.id), "errors.not-found", 404);
    await expectRefused(supprimerSessionExport(db, animateur, a.id), "errors.not-found", 404);
  });

  test("[A-EXPORT-02][A-RIGHTS-15] only campaigns the user may export: a reader exports published campaigns only, nobody exports another folder's farm", async () => {
    const db = t.db();
    const lecteur = await demoUser(db, "lecteur");
    const synthese = await demoUser(db, "synthese");
    const { campagnes } = t.demo();
    const before = await countRows(db, "session_export");
    await expectRefused(
      creerSessionExport(scopeOf(db, lecteur), demande([campagnes.tilleuls2025], [GROUPE.parcelles]), TACHE_EXPORT_DONNEES_BRUTES),
      "errors.forbidden",
      403,
    );
    await expectRefused(
      creerSessionExport(scopeOf(db, synthese), demande([campagnes.tilleuls2024], [GROUPE.parcelles]), TACHE_EXPORT_DONNEES_BRUTES),
      "errors.forbidden",
      403,
    );
    await expectRefused(creerSessionExport(scopeOf(db, lecteur), demande([999_999], [GROUPE.parcelles]), TACHE_EXPORT_DONNEES_BRUTES), "errors.forbidden", 403);
    await expectRefused(
      creerSessionExport(scopeOf(db, lecteur), demande([campagnes.tilleuls2024], [999]), TACHE_EXPORT_DONNEES_BRUTES),
      "warning.invalid-form",
      400,
    );
    expect(await countRows(db, "session_export")).toBe(before);
    const ok = await creerSessionExport(scopeOf(db, lecteur), demande([campagnes.tilleuls2024], [GROUPE.parcelles]), TACHE_EXPORT_DONNEES_BRUTES);
    expect((await terminee(db, lecteur, ok.idTache)).etat).toBe("terminee");
  });

  test("[A-EXPORT-21][A-EXPORT-22] an unfinished session is not downloadable (409); deleting one removes its row and its file", async () => {
    const db = t.db();
    const redacteur = await demoUser(db, "redacteur");
    const { campagnes } = t.demo();
    const [r] = await db("session_export")
      .insert({ nature: 0, libelle: "pas fini", fichier: "absent.xlsx", statut: 1, idUtilisateur: redacteur.id })
      .returning("id");
    const idPasFini = typeof r === "object" ? r.id : r;
    await db("session_export_campagne").insert({ idSessionExport: idPasFini, idCampagne: campagnes.vallee2025 });
    await expectRefused(fichierSessionExport(db, redacteur, idPasFini), "exports.pas-termine", 409);
    const s = await creerSessionExport(
      scopeOf(db, redacteur),
      demande([campagnes.vallee2025], [GROUPE.observations, GROUPE.intrants]),
      TACHE_EXPORT_DONNEES_BRUTES,
    );
    expect((await terminee(db, redacteur, s.idTache)).etat).toBe("terminee");
    const { chemin } = await fichierSessionExport(db, redacteur, s.id);
    expect(path.dirname(chemin)).toBe(dossierExports());
    expect(fs.existsSync(chemin)).toBe(true);
    await supprimerSessionExport(db, redacteur, s.id);
    expect(fs.existsSync(chemin)).toBe(false);
    expect(await countRows(db, "session_export_campagne", { idSessionExport: s.id })).toBe(0);
    await expectRefused(fichierSessionExport(db, redacteur, s.id), "errors.not-found", 404);
    fs.rmSync(chemin, { force: true });
    await db("session_export").where({ id: idPasFini }).update({ statut: 0 });
    await expectRefused(fichierSessionExport(db, redacteur, idPasFini), "exports.fichier-absent", 410);
  });
});
