import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { valeursInitialesExport } from "~/domain/export-resultats";
import { countRows, demoUser as utilisateurDemo, expectRefused, scopeOf } from "../../tests/helpers/service";
import { dialect, useTestDb } from "../../tests/helpers/test-db";
import { attendre, tacheFinie } from "../../tests/helpers/attendre";
import { creerSerie, executerSerie } from "../calcul-serie/service";
import { selectInContext } from "../contexte/service";
import { isPostgres, type Db } from "../db/knex";
import { fichierSessionExport, listerSessionsExport, NATURE_CALCUL } from "../session-export/service";
import { Executeur } from "../jobs/runner";
import { lireTache } from "../jobs/service";
import { ecranIndicateursPublies, lancerExportResultats } from "./service";

// The export files of this test file go to a folder of its own.
process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "sillon-export-resultats-"));

/**
 * The result export (issue 14; spec 3 §3.15, §5, §7, §9; spec 1 published indicators): a user exports the demo's
 * published series, the job writes the workbook, read back with exceljs; refusals (duplicates, rights, capacity)
 * happen before any session is recorded; the published screen lists published series only.
 */
const t = useTestDb();
let runner: Executeur;

beforeAll(async () => {
  runner = new Executeur(t.db(), { concurrence: 1, instance: "test-export-resultats:1", intervalleMs: 50 });
  await runner.demarrer();
});
afterAll(async () => {
  await runner.arreter();
  fs.rmSync(process.env.DATA_DIR!, { recursive: true, force: true });
});

/** A demo user whose context is on Réseau démo (the resultats screens offer the folders of the current network). */
async function demoUser(db: Db, username: string) {
  const user = await utilisateurDemo(db, username);
  await selectInContext(db, user, { intent: "oad", id: t.demo().oads.reseauDemo });
  return user;
}

const terminee = (db: Db, user: Awaited<ReturnType<typeof demoUser>>, idTache: number) =>
  attendre(() => lireTache(db, user, idTache), tacheFinie, { ms: 30_000, pasMs: 50 });

/** The demo's published series of EARL des Tilleuls 2024 (seeded by server/demo/seed-series.ts; made here the same way if absent). */
async function serieDemo(db: Db): Promise<number> {
  const idCampagne = t.demo().campagnes.tilleuls2024;
  const publiee = await db("calcul_serie").where({ idCampagne, publication: true }).first("id");
  if (publiee) return Number(publiee.id);
  const id = await nouvelleSerie(db, idCampagne);
  await db("calcul_serie_groupe").where({ idCalculSerie: id }).update({ publie: true });
  await db("calcul_serie").where({ id }).update({ publication: true });
  return id;
}

/** A finished series of a campaign, computed by the series service (unpublished). */
async function nouvelleSerie(db: Db, idCampagne: number): Promise<number> {
  const id = await creerSerie(db, idCampagne, null);
  await executerSerie(db, id);
  return id;
}

const cellules = (ws: ExcelJS.Worksheet) => {
  const rows: unknown[][] = [];
  ws.eachRow((r) => rows.push(Array.from((r.values as unknown[]).slice(1), (v) => v ?? null)));
  return rows;
};

describe(`result export (${dialect})`, () => {
  test("[C-REXP-06] [C-REXP-10] [C-REXP-18] [C-REXP-19] [C-REXP-20] a reader exports the demo's published series: a nature-1 session linked to the series and its campaign, named as §9 says, whose xlsx holds the series' figures", async () => {
    const db = t.db();
    const lecteur = await demoUser(db, "lecteur");
    const idSerie = await serieDemo(db);
    const maintenant = new Date();
    const { id, idTache } = await lancerExportResultats(scopeOf(db, lecteur), { ...valeursInitialesExport([idSerie]), libelle: undefined }, maintenant);
    expect((await terminee(db, lecteur, idTache)).etat).toBe("terminee");

    const session = await db("session_export").where({ id }).first();
    expect(session).toMatchObject({ nature: NATURE_CALCUL, statut: 0, version: 2 });
    expect(session.libelle).toMatch(/^Sillon_export_des_indicateurs_\d{4}-\d{2}-\d{2}\.xlsx$/);
    expect(session.dtFinSession).toBeTruthy();
    expect((await db("session_export_calcul_serie").where({ idSessionExport: id }).select("idCalculSerie")).map((r) => Number(r.idCalculSerie))).toEqual([
      idSerie,
    ]);
    expect((await db("session_export_campagne").where({ idSessionExport: id }).select("idCampagne")).map((r) => Number(r.idCampagne))).toEqual([
      t.demo().campagnes.tilleuls2024,
    ]);
    const vues = await listerSessionsExport(db, lecteur, { campagnes: [t.demo().campagnes.tilleuls2024], nature: NATURE_CALCUL });
    expect(vues[0]).toMatchObject({ id, libelle: session.libelle, nature: 1, statut: 0, campagnes: [t.demo().campagnes.tilleuls2024] });

    const f = await fichierSessionExport(db, lecteur, id);
    expect(f.nom).toBe(session.libelle);
    // C-REXP-18 (decision 0057): an xlsx workbook (a zip), no VBA project inside.
    const octets = fs.readFileSync(f.chemin);
    expect(octets.subarray(0, 2).toString()).toBe("PK");
    expect(octets.includes(Buffer.from("vbaProject"))).toBe(false);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(f.chemin);
    expect(wb.worksheets.map((w) => w.name)).toEqual([
      "Export",
      "Parcelles",
      "Lots",
      "Modes de conduite",
      "Cultures",
      "Exploitations",
      "Alertes",
      "Rendements",
      "Données brutes",
      "TCD indicateurs en colonnes",
      "TCD indicateurs en lignes",
    ]);
    // The farm's figures are the stored ones.
    const stockee = await db("calcul_resultat")
      .where({ idCalculSerie: idSerie, niveau: "exploitation", code: "ift.cible.total" })
      .first("valeur", "completude");
    const ferme = cellules(wb.getWorksheet("Exploitations")!).find((r) => r[5] === "ift.cible.total")!;
    // The campaign named by its year is a number cell; figures rounded as the screens show them (issue 29).
    expect(ferme.slice(0, 3)).toEqual(["EARL des Tilleuls", 2024, "Réalisé"]);
    expect(ferme[7]).toBeCloseTo(Number(stockee.valeur), 2);
    expect(ferme[8]).toBe(Math.round(Number(stockee.completude)));
    // Every plot of the campaign has its rows.
    const plots = (await db("parcelle").where({ idCampagne: t.demo().campagnes.tilleuls2024 }).select("libelle")).map((r) => String(r.libelle));
    const feuille = cellules(wb.getWorksheet("Parcelles")!);
    for (const p of plots) expect(feuille.some((r) => r[2] === p)).toBe(true);
    expect(cellules(wb.getWorksheet("Données brutes")!).length - 1).toBe(await countRows(db, "calcul_resultat", { idCalculSerie: idSerie }));
  });

  test("[C-REXP-08] [A-PUB-09] two ticked series of the same farm and campaign are refused with the alert, nothing recorded", async () => {
    const db = t.db();
    const redacteur = await demoUser(db, "redacteur");
    const idSerie = await serieDemo(db);
    const autre = await nouvelleSerie(db, t.demo().campagnes.tilleuls2024);
    const avant = await countRows(db, "session_export");
    await expectRefused(lancerExportResultats(scopeOf(db, redacteur), valeursInitialesExport([idSerie, autre])), "exportResultats.doublons", 400);
    expect(await countRows(db, "session_export")).toBe(avant);
    // Two campaigns of the same farm go together.
    const s2025 = await nouvelleSerie(db, t.demo().campagnes.tilleuls2025);
    const { idTache } = await lancerExportResultats(scopeOf(db, redacteur), { ...valeursInitialesExport([idSerie, s2025]), libelle: "Deux campagnes" });
    expect((await terminee(db, redacteur, idTache)).etat).toBe("terminee");
    await db("calcul_serie").whereIn("id", [autre, s2025]).delete();
  });

  test("[C-REXP-07] [C-RIGHTS-17] [C-RIGHTS-18] [C-RIGHTS-19] at least one group; a reader may not export an unpublished series, and gets only the published groups of a published one", async () => {
    const db = t.db();
    const lecteur = await demoUser(db, "lecteur");
    const idSerie = await serieDemo(db);
    await expectRefused(lancerExportResultats(scopeOf(db, lecteur), { ...valeursInitialesExport([idSerie]), groupes: [] }), "warning.invalid-form", 400);
    const cachee = await nouvelleSerie(db, t.demo().campagnes.tilleuls2025);
    await expectRefused(lancerExportResultats(scopeOf(db, lecteur), valeursInitialesExport([cachee])), "exportResultats.serie-inconnue", 404);
    await expectRefused(
      lancerExportResultats(scopeOf(db, await demoUser(db, "synthese")), valeursInitialesExport([idSerie])),
      "exportResultats.serie-inconnue",
      404,
    );

    // Only the IFT group published: the reader's workbook has IFT figures only; the writer's has every group.
    await db("calcul_serie_groupe").where({ idCalculSerie: idSerie }).update({ publie: false });
    await db("calcul_serie_groupe").where({ idCalculSerie: idSerie, idGroupe: 1 }).update({ publie: true });
    try {
      await expectRefused(
        lancerExportResultats(scopeOf(db, lecteur), { ...valeursInitialesExport([idSerie]), groupes: ["economie"] }),
        "exportResultats.aucun-groupe-publie",
        400,
      );
      const { id, idTache } = await lancerExportResultats(scopeOf(db, lecteur), { ...valeursInitialesExport([idSerie]), libelle: "Lecteur" });
      expect((await terminee(db, lecteur, idTache)).etat).toBe("terminee");
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.readFile((await fichierSessionExport(db, lecteur, id)).chemin);
      const codes = new Set(
        cellules(wb.getWorksheet("Données brutes")!)
          .slice(1)
          .map((r) => String(r[6])),
      );
      expect([...codes].every((c) => c.startsWith("ift.") || c.startsWith("phyto."))).toBe(true);
      const redacteur = await demoUser(db, "redacteur");
      const r = await lancerExportResultats(scopeOf(db, redacteur), { ...valeursInitialesExport([idSerie]), libelle: "Rédacteur" });
      expect((await terminee(db, redacteur, r.idTache)).etat).toBe("terminee");
      const wb2 = new ExcelJS.Workbook();
      await wb2.xlsx.readFile((await fichierSessionExport(db, redacteur, r.id)).chemin);
      expect(cellules(wb2.getWorksheet("Données brutes")!).some((r) => String(r[6]).startsWith("economie."))).toBe(true);
    } finally {
      await db("calcul_serie_groupe").where({ idCalculSerie: idSerie }).update({ publie: true });
      await db("calcul_serie").where({ id: cachee }).delete();
    }
  });

  test("[C-REXP-09] an export beyond 1,048,575 rows in a sheet is refused before any session or job is recorded", async () => {
    const db = t.db();
    const redacteur = await demoUser(db, "redacteur");
    const idSerie = await serieDemo(db);
    const [sessions, taches] = [await countRows(db, "session_export"), await countRows(db, "tache")];
    // The stored rows are counted, not written: the plot level is brought to 1,048,576 rows by one INSERT … SELECT
    // over a generated series (copies of a stored row without explanation).
    const deja = await countRows(db, "calcul_resultat", { idCalculSerie: idSerie, niveau: "parcelle" });
    const modele = await db("calcul_resultat").where({ idCalculSerie: idSerie, niveau: "parcelle" }).orderBy("id").first("id");
    const colonnes = "id_calcul_serie, niveau, id_entite, id_parcelle, code, id_groupe, valeur, unite, completude, nb_manquants";
    const suite = isPostgres(db)
      ? "SELECT g AS n FROM generate_series(1, ?) AS g"
      : "WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < ?) SELECT n FROM s";
    await db.raw(`INSERT INTO calcul_resultat (${colonnes}) SELECT ${colonnes} FROM calcul_resultat, (${suite}) AS suite WHERE calcul_resultat.id = ?`, [
      1_048_576 - deja,
      modele.id,
    ]);
    try {
      expect(await countRows(db, "calcul_resultat", { idCalculSerie: idSerie, niveau: "parcelle" })).toBe(1_048_576);
      await expectRefused(lancerExportResultats(scopeOf(db, redacteur), valeursInitialesExport([idSerie])), "exports.trop-de-lignes", 413);
      expect(await countRows(db, "session_export")).toBe(sessions);
      expect(await countRows(db, "tache")).toBe(taches);
    } finally {
      await db("calcul_resultat").where({ idCalculSerie: idSerie, niveau: "parcelle" }).whereNull("explication").delete();
    }
  }, 120_000);

  test("[A-PUB-02] [A-PUB-03] [A-PUB-05] the published screen lists the published series of the chosen campaigns only, whatever the user's rights", async () => {
    const db = t.db();
    const idSerie = await serieDemo(db);
    const cachee = await nouvelleSerie(db, t.demo().campagnes.tilleuls2025);
    try {
      for (const username of ["lecteur", "redacteur", "animateur"]) {
        const user = await demoUser(db, username);
        const e = await ecranIndicateursPublies(scopeOf(db, user), [t.demo().campagnes.tilleuls2024, t.demo().campagnes.tilleuls2025]);
        expect(e.series.map((s) => s.id)).toEqual([idSerie]);
        expect(e.series[0]).toMatchObject({ exploitation: "EARL des Tilleuls", groupes: ["ift", "fertilisation", "travail", "economie", "energie", "ges"] });
        expect(e.choix.dossiers.length).toBeGreaterThan(0);
      }
      // A campaign the user may not read is dropped, not listed.
      const synthese = await demoUser(db, "synthese");
      expect((await ecranIndicateursPublies(scopeOf(db, synthese), [t.demo().campagnes.tilleuls2024])).series).toEqual([]);
    } finally {
      await db("calcul_serie").where({ id: cachee }).delete();
    }
  });
});
