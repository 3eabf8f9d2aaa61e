import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { valeursInitialesExport } from "~/domain/export-resultats";
import { resources } from "~/locales";
import { apiClient, attendre, tacheFinie } from "../../tests/helpers/api-client";
import { demoUser as utilisateurDemo, scopeOf } from "../../tests/helpers/service";
import { dialect, useTestDb } from "../../tests/helpers/test-db";
import { creerSerie, executerSerie } from "../calcul-serie/service";
import { selectInContext } from "../contexte/service";
import type { Db } from "../db/knex";
import { lancerExportResultats } from "../export-resultats/service";
import { Executeur } from "../jobs/runner";
import { lireTache } from "../jobs/service";
import type { Utilisateur } from "../utilisateur/repo";
import { TACHE_EXPORT_DONNEES_BRUTES } from "./donnees-brutes";
import { creerSessionExport, fichierSessionExport, NATURE_DONNEES_BRUTES } from "./service";

process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "sillon-classeur-resultats-"));

/**
 * The result workbook of a real series read back with exceljs (issue 29; decision 0118): figures rounded as the
 * screens show them, the campaign year a number, the English workbook wholly English (units, levels, the reference
 * data's English crop names); the series' author and the campaign's writers export before publication, a reader
 * only after. The raw-data workbook's headings all come from the locales.
 */
const t = useTestDb();
let runner: Executeur;

beforeAll(async () => {
  runner = new Executeur(t.db(), { concurrence: 1, instance: "test-classeur-resultats:1", intervalleMs: 50 });
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

/** A finished, unpublished series of EARL des Tilleuls 2025 launched by `auteur`. */
async function serieNonPubliee(db: Db, auteur: number | null): Promise<number> {
  const id = await creerSerie(db, t.demo().campagnes.tilleuls2025, auteur);
  await executerSerie(db, id);
  return id;
}

async function classeurDe(db: Db, user: Utilisateur, session: { id: number; idTache: number }): Promise<ExcelJS.Workbook> {
  const v = await attendre(() => lireTache(db, user, session.idTache), tacheFinie, { ms: 30_000, pasMs: 50 });
  if (v.etat === "echec") throw new Error(`export failed: ${v.erreur}`);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile((await fichierSessionExport(db, user, session.id)).chemin);
  return wb;
}

const lignes = (ws: ExcelJS.Worksheet) => {
  const out: unknown[][] = [];
  ws.eachRow((r) => out.push(Array.from((r.values as unknown[]).slice(1), (v) => v ?? null)));
  return out;
};
const decimales = (n: number) => (String(n).split(".")[1] ?? "").length;

describe(`result workbook of a series (${dialect})`, () => {
  test("[issue29-exports] figures rounded to the screens' two decimals, completeness whole, the campaign year a number cell", async () => {
    const db = t.db();
    const redacteur = await demoUser(db, "redacteur");
    const idSerie = await serieNonPubliee(db, redacteur.id);
    const wb = await classeurDe(
      db,
      redacteur,
      await lancerExportResultats(scopeOf(db, redacteur), { ...valeursInitialesExport([idSerie]), libelle: "Arrondis" }),
    );
    const annee = Number((await db("campagne").where({ id: t.demo().campagnes.tilleuls2025 }).first("anneeRecolte")).anneeRecolte);
    const stockees = (await db("calcul_resultat").where({ idCalculSerie: idSerie }).select("valeur")) as { valeur: unknown }[];
    // The stored figures have more decimals than the screens show: the test would pass on nothing otherwise.
    expect(stockees.some((r) => r.valeur != null && decimales(Number(r.valeur)) > 2)).toBe(true);
    for (const nom of ["Parcelles", "Lots", "Cultures", "Exploitations"]) {
      const ws = wb.getWorksheet(nom)!;
      const entete = lignes(ws)[0];
      const [valeur, completude, campagne] = ["Valeur", "Complétude (%)", "Campagne"].map((h) => entete.indexOf(h));
      const rows = lignes(ws).slice(1);
      expect(rows.length, nom).toBeGreaterThan(0);
      for (const r of rows) {
        expect(r[campagne], nom).toBe(annee);
        if (r[valeur] != null) expect(decimales(Number(r[valeur])), `${nom} ${String(r[valeur])}`).toBeLessThanOrEqual(2);
        expect(Number.isInteger(r[completude]), nom).toBe(true);
      }
    }
    for (const r of lignes(wb.getWorksheet("TCD indicateurs en colonnes")!).slice(1)) {
      expect(r[2]).toBe(annee);
      for (const v of r.slice(5)) if (typeof v === "number") expect(decimales(v)).toBeLessThanOrEqual(2);
    }
  });

  test("[issue29-exports] [C-REXP-01] the English workbook: English headings, levels, units and the reference data's English crop names", async () => {
    const db = t.db();
    const redacteur = await demoUser(db, "redacteur");
    const idSerie = await serieNonPubliee(db, redacteur.id);
    const session = await lancerExportResultats(scopeOf(db, redacteur), { ...valeursInitialesExport([idSerie]), libelle: "English", anglais: true });
    const wb = await classeurDe(db, redacteur, session);
    expect(wb.worksheets.map((w) => w.name)).toContain("Plots");
    const plots = lignes(wb.getWorksheet("Plots")!);
    expect(plots[0].slice(0, 7)).toEqual(["Farm", "Campaign", "Plot", "Plot group", "Crop", "Management mode", "Area (ha)"]);
    // Crops: the English name wherever the reference has one.
    const cultures = (await db("culture").select("libelle", "libelleEn")) as { libelle: string; libelleEn: string | null }[];
    const anglais = new Set(cultures.filter((c) => c.libelleEn).map((c) => c.libelleEn!));
    const francais = new Set(cultures.filter((c) => c.libelleEn && c.libelleEn !== c.libelle).map((c) => c.libelle));
    const nomsCultures = [
      ...plots.slice(1).map((r) => String(r[4])),
      ...lignes(wb.getWorksheet("Crops")!)
        .slice(1)
        .map((r) => String(r[2])),
      ...lignes(wb.getWorksheet("Yields")!)
        .slice(1)
        .map((r) => String(r[3])),
    ];
    expect(nomsCultures.some((n) => anglais.has(n))).toBe(true);
    for (const n of nomsCultures) expect(francais.has(n), n).toBe(false);
    // Units and levels in English; no French word of the workbook's own texts is left.
    const unites = new Set(plots.slice(1).map((r) => String(r[11])));
    expect(unites).toContain("reference doses/ha");
    const brutes = lignes(wb.getWorksheet("Raw data")!);
    expect(new Set(brutes.slice(1).map((r) => r[2]))).toEqual(
      new Set(["Plot", "Crop", "Management mode", "Farm"].filter((n) => brutes.some((r) => r[2] === n))),
    );
    const motsFrancais = /\b(parcelle|réalisé|prévu|doses de référence|passages|campagne|exploitation|culture|sans)\b/i;
    const propres = new Set(
      ((await db("lot_parcelle").where({ idCampagne: t.demo().campagnes.tilleuls2025 }).select("libelle")) as { libelle: string }[])
        .concat(await db("mode_conduite").where({ idCampagne: t.demo().campagnes.tilleuls2025 }).select("libelle"))
        .concat(await db("parcelle").where({ idCampagne: t.demo().campagnes.tilleuls2025 }).select("libelle"))
        .map((r) => r.libelle),
    );
    for (const ws of wb.worksheets)
      for (const r of lignes(ws))
        for (const v of r)
          if (typeof v === "string" && !/^[\w.]+$/.test(v) && !propres.has(v) && !v.startsWith("EARL") && v !== "English")
            expect(v, ws.name).not.toMatch(motsFrancais);
  });
});

describe(`result export before publication (${dialect})`, () => {
  const corps = (idSerie: number) => ({ calculsSeries: [idSerie], groupes: ["ift", "economie"], realise: true, exploitation: true });

  test("[issue29-exports] [C-RIGHTS-17] [C-RIGHTS-19] the series' author, the campaign's writer and the animator export an unpublished series over HTTP; a reader is refused", async () => {
    const db = t.db();
    const { api, tokenOf, attendreTache } = apiClient(t);
    const { users } = t.demo();
    const idSerie = await serieNonPubliee(db, users.redacteur);
    expect(Boolean(Number((await db("calcul_serie").where({ id: idSerie }).first("publication")).publication))).toBe(false);
    for (const username of ["redacteur", "animateur"]) {
      const token = await tokenOf(username);
      const r = await api("POST", "/api/v1/session_exports", { token, body: corps(idSerie) });
      expect(r.status, username).toBe(202);
      expect((await attendreTache(token, (r.body as { href: string }).href, { ms: 30_000, pasMs: 50 })).etat, username).toBe("terminee");
    }
    // A reader who did not launch it: refused, as if it did not exist, and nothing recorded.
    const avant = Number((await db("session_export").count({ n: "*" }))[0].n);
    const lecteur = await tokenOf("lecteur");
    const refus = await api("POST", "/api/v1/session_exports", { token: lecteur, body: corps(idSerie) });
    expect(refus.status).toBe(404);
    expect(refus.body).toMatchObject({ key: "exportResultats.serie-inconnue" });
    expect(Number((await db("session_export").count({ n: "*" }))[0].n)).toBe(avant);
  });

  test("[issue29-exports] an author who now only reads the farm still exports his own unpublished series, every group; the reader waits for publication", async () => {
    const db = t.db();
    const lecteur = await demoUser(db, "lecteur");
    const redacteur = await demoUser(db, "redacteur");
    // Launched by the reader (he wrote the farm then): his, unpublished.
    const sienne = await serieNonPubliee(db, lecteur.id);
    const wb = await classeurDe(db, lecteur, await lancerExportResultats(scopeOf(db, lecteur), { ...valeursInitialesExport([sienne]), libelle: "Auteur" }));
    const codes = new Set(
      lignes(wb.getWorksheet("Données brutes")!)
        .slice(1)
        .map((r) => String(r[6]).split(".")[0]),
    );
    expect(codes).toContain("economie");
    expect(codes).toContain("ift");
    // Someone else's unpublished series: refused until it is published (and validated, for a reader without the
    // published-calculations right: the demo reader has it).
    const autre = await serieNonPubliee(db, redacteur.id);
    await expect(lancerExportResultats(scopeOf(db, lecteur), valeursInitialesExport([autre]))).rejects.toMatchObject({
      key: "exportResultats.serie-inconnue",
      status: 404,
    });
    await db("calcul_serie").where({ id: autre }).update({ publication: true });
    await db("calcul_serie_groupe").where({ idCalculSerie: autre }).update({ publie: true });
    try {
      const apres = await classeurDe(
        db,
        lecteur,
        await lancerExportResultats(scopeOf(db, lecteur), { ...valeursInitialesExport([autre]), libelle: "Publiée" }),
      );
      expect(lignes(apres.getWorksheet("Exploitations")!).length).toBeGreaterThan(1);
    } finally {
      await db("calcul_serie").where({ id: autre }).delete();
    }
  });
});

describe(`raw-data workbook headings (${dialect})`, () => {
  test("[issue29-exports] every heading of the raw-data workbook is the locale's, in French and in English", async () => {
    const db = t.db();
    const redacteur = await demoUser(db, "redacteur");
    const groupes = ((await db("donnee_exportable").select("id")) as { id: number }[]).map((r) => Number(r.id));
    for (const anglais of [false, true]) {
      const session = await creerSessionExport(
        scopeOf(db, redacteur),
        { nature: NATURE_DONNEES_BRUTES, libelle: "", version: 2, anglais, campagnes: [t.demo().campagnes.tilleuls2025], groupes },
        TACHE_EXPORT_DONNEES_BRUTES,
      );
      const wb = await classeurDe(db, redacteur, session);
      const colonnes = new Set(Object.values(resources[anglais ? "en" : "fr"].translation.exports.colonnes));
      expect(wb.worksheets.length).toBeGreaterThan(0);
      for (const ws of wb.worksheets) {
        const entete = lignes(ws)[0];
        expect(entete.slice(0, 3)).toEqual(anglais ? ["Farm", "Campaign", "Harvest year"] : ["Exploitation", "Campagne", "Année de récolte"]);
        for (const h of entete) expect(colonnes.has(String(h)), `${ws.name}: ${String(h)}`).toBe(true);
      }
    }
  });
});
