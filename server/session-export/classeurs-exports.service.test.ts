import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { campagneLibelle } from "~/domain/partage";
import { demoUser as utilisateurDemo, scopeOf } from "../../tests/helpers/service";
import { selectInContext } from "../contexte/service";
import type { Db } from "../db/knex";
import { dialect, useTestDb } from "../../tests/helpers/test-db";
import { attendre, tacheFinie } from "../../tests/helpers/attendre";
import { Executeur } from "../jobs/runner";
import { lireTache } from "../jobs/service";
import { TACHE_EXPORT_DONNEES_BRUTES, uniteDePrix } from "./donnees-brutes";
import { creerSessionExport, fichierSessionExport, NATURE_DONNEES_BRUTES, type DemandeSessionExport } from "./service";

process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "sillon-classeurs-"));

/**
 * The raw-data workbook read back with exceljs (issues 29 and 30): the campaign on every row, price units in euros
 * per the data's unit, an autofilter and a frozen header on every sheet, English labels, and the export of several
 * campaigns equal to the concatenation of the single ones (paged per campaign).
 */
const t = useTestDb();
let runner: Executeur;

beforeAll(async () => {
  runner = new Executeur(t.db(), { concurrence: 2, instance: "test-classeurs:1", intervalleMs: 50 });
  await runner.demarrer();
});
afterAll(async () => {
  await runner.arreter();
  fs.rmSync(process.env.DATA_DIR!, { recursive: true, force: true });
});

const GROUPE = { parcelles: 1, interventions: 2, intrants: 3, recoltes: 4, observations: 5, materiel: 6, mainOeuvre: 7, prix: 8 };
const TOUS = Object.values(GROUPE);

async function redacteur(db: Db) {
  const user = await utilisateurDemo(db, "redacteur");
  await selectInContext(db, user, { intent: "oad", id: t.demo().oads.reseauDemo });
  return user;
}

async function exporter(db: Db, campagnes: number[], groupes: number[], extra: Partial<DemandeSessionExport> = {}): Promise<ExcelJS.Workbook> {
  const user = await redacteur(db);
  const demande: DemandeSessionExport = { nature: NATURE_DONNEES_BRUTES, libelle: "", version: 2, anglais: false, campagnes, groupes, ...extra };
  const { id, idTache } = await creerSessionExport(scopeOf(db, user), demande, TACHE_EXPORT_DONNEES_BRUTES);
  const v = await attendre(() => lireTache(db, user, idTache), tacheFinie, { ms: 20_000, pasMs: 50 });
  if (v.etat === "echec") throw new Error(`export failed: ${v.erreur}`);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile((await fichierSessionExport(db, user, id)).chemin);
  return wb;
}

const lignes = (ws: ExcelJS.Worksheet) => {
  const out: unknown[][] = [];
  ws.eachRow((r, n) => {
    if (n > 1) out.push((r.values as unknown[]).slice(1));
  });
  return out;
};

describe(`raw-data workbook (${dialect})`, () => {
  test("[issue29-exports] the campaign on every row of every sheet, price units in €/unit, autofilter and frozen header everywhere", async () => {
    const db = t.db();
    const { campagnes } = t.demo();
    const c = await db("campagne").where({ id: campagnes.tilleuls2025 }).first("prefixeCampagne", "apiLibelle", "anneeRecolte");
    const libelle = campagneLibelle({ prefixeCampagne: String(c.prefixeCampagne ?? ""), apiLibelle: String(c.apiLibelle ?? "") });
    expect(libelle).not.toBe("");
    const wb = await exporter(db, [campagnes.tilleuls2025], TOUS);
    for (const ws of wb.worksheets) {
      expect(ws.getCell("B1").value).toBe("Campagne");
      expect(ws.autoFilter, ws.name).toBeTruthy();
      expect(ws.views[0], ws.name).toMatchObject({ state: "frozen", ySplit: 1 });
      for (const l of lignes(ws)) {
        expect(l[1], ws.name).toBe(/^\d+$/.test(libelle) ? Number(libelle) : libelle);
        expect(l[2], ws.name).toBe(Number(c.anneeRecolte));
      }
    }
    const prix = wb.getWorksheet("Prix")!;
    const unites = new Set(lignes(prix).map((l) => l[6]));
    expect(unites.size).toBeGreaterThan(0);
    for (const u of unites) expect(String(u)).toMatch(/^€/);
    expect([...unites].some((u) => /\/HA/i.test(String(u)))).toBe(false);
  });

  test("[issue29-exports] an English workbook has English headers and the reference data's English crop names", async () => {
    const db = t.db();
    const { campagnes } = t.demo();
    const wb = await exporter(db, [campagnes.tilleuls2025], [GROUPE.recoltes, GROUPE.prix], { anglais: true });
    const recoltes = wb.worksheets[0];
    expect(recoltes.getRow(1).values).toContain("Campaign");
    expect(recoltes.getRow(1).values).toContain("Plot");
    const anglais = (await db("culture").whereNotNull("libelleEn").select("libelle", "libelleEn")) as { libelle: string; libelleEn: string }[];
    const cultures = new Set(lignes(recoltes).map((l) => String(l[5])));
    for (const cu of anglais) if (cu.libelle !== cu.libelleEn) expect(cultures.has(cu.libelle)).toBe(false);
  });

  test("[issue30-exports] the export of several campaigns equals the concatenation of the single ones", async () => {
    const db = t.db();
    const { campagnes } = t.demo();
    // The session keeps its campaigns in ascending order, as the sheets write them.
    const ids = [campagnes.tilleuls2025, campagnes.tilleuls2024].sort((a, b) => a - b);
    const ensemble = await exporter(db, ids, [GROUPE.parcelles, GROUPE.interventions, GROUPE.prix]);
    const seules = [];
    for (const id of ids) seules.push(await exporter(db, [id], [GROUPE.parcelles, GROUPE.interventions, GROUPE.prix]));
    for (const ws of ensemble.worksheets) {
      const attendu = seules.flatMap((wb) => lignes(wb.getWorksheet(ws.name)!));
      expect(attendu.length, ws.name).toBeGreaterThan(0);
      expect(lignes(ws), ws.name).toEqual(attendu);
    }
  });
});

describe("uniteDePrix", () => {
  test("[issue29-exports] euros per the dose unit's first part", () => {
    expect(uniteDePrix("KG/HA")).toBe("€/kg");
    expect(uniteDePrix("L")).toBe("€/l");
    expect(uniteDePrix("")).toBe("€");
  });
});
