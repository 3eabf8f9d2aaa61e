import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import ExcelJS from "exceljs";
import { afterAll, describe, expect, test } from "vitest";
import { valeursInitialesExport } from "~/domain/export-resultats";
import { LIGNES_MAX_EXPORT, ouvrirClasseur } from "../exports/classeur";
import {
  ecrireClasseurResultats,
  planClasseurResultats,
  uniteTraduite,
  verifierCapacite,
  type FeuillePlan,
  type LigneSerie,
  type OptionsClasseur,
  type SerieExport,
} from "./classeur-resultats";

const ligne = (
  niveau: LigneSerie["niveau"],
  id: number | string,
  code: string,
  valeur: number | null,
  unite: string,
  extra: Partial<LigneSerie> = {},
): LigneSerie => ({
  niveau,
  id,
  code,
  valeur,
  unite,
  completude: 100,
  nbManquants: 0,
  ...extra,
});

/**
 * Farm 7 "EARL Test", campaign "2025": plots P1 (10 ha) and P2 (30 ha) in plot group 1 "Lot nord", crop 11 "Blé",
 * mode 21 "Conventionnel". IFT at the target: P1 0.40, P2 1.20 → group (0.40×10 + 1.20×30)/40 = 1.00 (§7.2).
 * Gross margin P1 500 €/ha, 2 of 4 data items missing (completeness 50 %). One planned row on P1.
 */
function serie(): SerieExport {
  const lignes: LigneSerie[] = [
    ligne("intervention", 501, "ift.cible.total", 0.4, "doses/ha", { idParcelle: 1 }),
    ligne("parcelle", 1, "ift.cible.total", 0.4, "doses/ha", { idParcelle: 1 }),
    ligne("parcelle", 1, "economie.reel.margeBrute", 500, "€/ha", { idParcelle: 1, completude: 50, nbManquants: 2 }),
    ligne("parcelle", 2, "ift.cible.total", 1.2, "doses/ha", { idParcelle: 2 }),
    ligne("parcelle", 2, "economie.reel.margeBrute", 700, "€/ha", { idParcelle: 2 }),
    ligne("parcelle", 1, "ift.cible.total", 2.5, "doses/ha", { idParcelle: 1, realisation: "prevue" }),
    ligne("culture", "11", "ift.cible.total", 1, "doses/ha"),
    ligne("modeConduite", "21", "ift.cible.total", 1, "doses/ha"),
    ligne("exploitation", 7, "ift.cible.total", 1, "doses/ha"),
    ligne("exploitation", 7, "economie.reel.margeBrute", 650, "€/ha", { completude: 80, nbManquants: 2 }),
    ligne("exploitation", 7, "travail.temps.total", 3.25, "h/ha"),
  ];
  return {
    id: 3,
    exploitation: "EARL Test",
    campagne: "2025",
    parcelles: [
      { id: 1, libelle: "P1", surface: 10, idLot: 1, idCulture: 11, idModeConduite: 21 },
      { id: 2, libelle: "P2", surface: 30, idLot: 1, idCulture: 11, idModeConduite: 21 },
    ],
    lots: { "1": "Lot nord" },
    cultures: { "11": "Blé" },
    modesConduite: { "21": "Conventionnel" },
    lignes,
    rendements: [{ idParcelle: 2, culture: "Blé", typeSortie: "Grain", rendement: 8.5, unite: "t/ha", realisation: "realisee" }],
  };
}

const options = (o: Partial<OptionsClasseur> = {}): OptionsClasseur => ({ ...valeursInitialesExport([3]), ...o });
const DATE = new Date("2026-11-26T08:00:00Z");

const DOSSIER = fs.mkdtempSync(path.join(os.tmpdir(), "sillon-classeur-resultats-"));
afterAll(() => fs.rmSync(DOSSIER, { recursive: true, force: true }));
let n = 0;

/** Writes the plan through the exports' writer (server/exports/classeur.ts) and reads the file back with exceljs. */
async function ecrireEtRelire(series: SerieExport[], o: OptionsClasseur): Promise<ExcelJS.Workbook> {
  const plan = await planClasseurResultats(series, o, DATE);
  verifierCapacite(plan);
  const fichier = path.join(DOSSIER, `${++n}.xlsx`);
  const classeur = ouvrirClasseur(fichier);
  const progres: number[][] = [];
  await ecrireClasseurResultats(plan, classeur, async (fait, total) => void progres.push([fait, total]));
  await classeur.fermer();
  const total = plan.feuilles.reduce((a, f) => a + f.nbLignes, 0);
  expect(progres.at(-1)).toEqual([total, total]);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(fichier);
  return wb;
}

const valeurs = (ws: ExcelJS.Worksheet) => {
  const rows: unknown[][] = [];
  ws.eachRow((r) => rows.push(Array.from((r.values as unknown[]).slice(1), (v) => v ?? null)));
  return rows;
};

describe("result workbook", () => {
  test("[C-REXP-01] [C-REXP-02] [C-REXP-06] every option ticked: the export, level, alert, yield, raw-data and both pivot sheets, read back with exceljs", async () => {
    const wb = await ecrireEtRelire([serie()], options());
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
    const parcelles = valeurs(wb.getWorksheet("Parcelles")!);
    expect(parcelles[0]).toEqual([
      "Exploitation",
      "Campagne",
      "Parcelle",
      "Lot",
      "Culture",
      "Mode de conduite",
      "Surface (ha)",
      "Prévu / réalisé",
      "Groupe",
      "Indicateur",
      "Code",
      "Unité",
      "Valeur",
      "Complétude (%)",
      "Données manquantes",
    ]);
    // Rows in the order met, indicators in the catalogue's group order (IFT before economics).
    expect(parcelles).toContainEqual([
      "EARL Test",
      2025,
      "P1",
      "Lot nord",
      "Blé",
      "Conventionnel",
      10,
      "Réalisé",
      "IFT et substances actives",
      "IFT total — à la cible",
      "ift.cible.total",
      "doses/ha",
      0.4,
      100,
      0,
    ]);
    expect(parcelles).toContainEqual([
      "EARL Test",
      2025,
      "P1",
      "Lot nord",
      "Blé",
      "Conventionnel",
      10,
      "Réalisé",
      "Économie",
      expect.stringContaining("prix réels"),
      "economie.reel.margeBrute",
      "€/ha",
      500,
      50,
      2,
    ]);
    expect(parcelles).toContainEqual([
      "EARL Test",
      2025,
      "P1",
      "Lot nord",
      "Blé",
      "Conventionnel",
      10,
      "Prévu",
      "IFT et substances actives",
      "IFT total — à la cible",
      "ift.cible.total",
      "doses/ha",
      2.5,
      100,
      0,
    ]);
    expect(parcelles).toHaveLength(1 + 5);

    // The plot group: the area-weighted mean of its plots (0.4×10 + 1.2×30)/40 = 1; margin (500×10 + 700×30)/40 = 650.
    const lots = valeurs(wb.getWorksheet("Lots")!);
    expect(lots).toContainEqual([
      "EARL Test",
      2025,
      "Lot nord",
      "Réalisé",
      "IFT et substances actives",
      "IFT total — à la cible",
      "ift.cible.total",
      "doses/ha",
      1,
      100,
      0,
    ]);
    expect(lots.find((r) => r[6] === "economie.reel.margeBrute" && r[3] === "Réalisé")?.[8]).toBe(650);

    expect(valeurs(wb.getWorksheet("Cultures")!)[1]).toEqual([
      "EARL Test",
      2025,
      "Blé",
      "Réalisé",
      "IFT et substances actives",
      "IFT total — à la cible",
      "ift.cible.total",
      "doses/ha",
      1,
      100,
      0,
    ]);
    expect(valeurs(wb.getWorksheet("Modes de conduite")!)[1].slice(0, 3)).toEqual(["EARL Test", 2025, "Conventionnel"]);
    expect(valeurs(wb.getWorksheet("Exploitations")!)).toContainEqual([
      "EARL Test",
      2025,
      "Réalisé",
      "Temps de travail, passages, carburant, eau",
      expect.any(String),
      "travail.temps.total",
      "h/ha",
      3.25,
      100,
      0,
    ]);

    // Alerts: the incomplete figures only (P1's margin, the group's margin, the farm's margin).
    const alertes = valeurs(wb.getWorksheet("Alertes")!).slice(1);
    expect(alertes.map((r) => [r[0], r[3], r[9], r[10], r[11]])).toEqual([
      ["Parcelle", "P1", 500, 50, 2],
      ["Lot", "Lot nord", 650, expect.any(Number), 2],
      ["Exploitation", "EARL Test", 650, 80, 2],
    ]);

    expect(valeurs(wb.getWorksheet("Rendements")!)[1]).toEqual(["EARL Test", 2025, "P2", "Blé", "Grain", "Réalisé", 8.5, "t/ha"]);
    // Raw data: every row of the chosen groups, interventions included.
    const brutes = valeurs(wb.getWorksheet("Données brutes")!);
    expect(brutes).toHaveLength(1 + 11);
    expect(brutes[1]).toEqual(["EARL Test", 2025, "Intervention", 501, 1, "Réalisé", "ift.cible.total", 0.4, "doses/ha", 100, 0]);

    // TCD 1: indicators in columns, one row per entity; TCD 2: indicators in rows, one column per entity.
    const tcd1 = valeurs(wb.getWorksheet("TCD indicateurs en colonnes")!);
    expect(tcd1[0].slice(0, 6)).toEqual(["Niveau", "Exploitation", "Campagne", "Entité", "Prévu / réalisé", "IFT total — à la cible (doses/ha)"]);
    expect(tcd1[0][6]).toMatch(/^Temps de travail/);
    expect(tcd1).toContainEqual(["Parcelle", "EARL Test", 2025, "P2", "Réalisé", 1.2, null, 700]);
    expect(tcd1).toContainEqual(["Exploitation", "EARL Test", 2025, "EARL Test", "Réalisé", 1, 3.25, 650]);
    const tcd2 = valeurs(wb.getWorksheet("TCD indicateurs en lignes")!);
    expect(tcd2[0].slice(0, 4)).toEqual(["Groupe", "Indicateur", "Unité", "Parcelle / EARL Test / 2025 / P1 / Réalisé"]);
    expect(tcd2[1].slice(0, 5)).toEqual(["IFT et substances actives", "IFT total — à la cible", "doses/ha", 0.4, 1.2]);
    expect(tcd2.map((r) => r[1])).toEqual(["Indicateur", "IFT total — à la cible", expect.stringContaining("emps"), expect.stringContaining("Marge brute")]);

    const resume = valeurs(wb.getWorksheet("Export")!);
    expect(resume).toContainEqual(["Version", 2]);
    expect(resume).toContainEqual(["Date", "26/11/2026 09:00"]);
    expect(resume).toContainEqual(["Calculs", "EARL Test — 2025"]);
  });

  test("[C-REXP-02] tcd1 and tcd2 unticked: no pivot sheet; levels, groups and planned/done filter every sheet", async () => {
    const wb = await ecrireEtRelire(
      [serie()],
      options({
        tcd1: false,
        tcd2: false,
        alertes: false,
        rendements: false,
        donneesBrutes: false,
        lot: false,
        culture: false,
        modeConduite: false,
        prevu: false,
        groupes: ["ift"],
      }),
    );
    expect(wb.worksheets.map((w) => w.name)).toEqual(["Export", "Parcelles", "Exploitations"]);
    const parcelles = valeurs(wb.getWorksheet("Parcelles")!).slice(1);
    expect(parcelles.map((r) => [r[2], r[7], r[10], r[12]])).toEqual([
      ["P1", "Réalisé", "ift.cible.total", 0.4],
      ["P2", "Réalisé", "ift.cible.total", 1.2],
    ]);
    expect(
      valeurs(wb.getWorksheet("Exploitations")!)
        .slice(1)
        .map((r) => r[5]),
    ).toEqual(["ift.cible.total"]);
  });

  test("[C-REXP-05] version 1 writes each level with the indicators in columns", async () => {
    const wb = await ecrireEtRelire([serie()], options({ version: 1, lot: false, culture: false, modeConduite: false, exploitation: false }));
    const parcelles = valeurs(wb.getWorksheet("Parcelles")!);
    expect(parcelles[0]).toEqual([
      "Exploitation",
      "Campagne",
      "Parcelle",
      "Lot",
      "Culture",
      "Mode de conduite",
      "Surface (ha)",
      "Prévu / réalisé",
      "IFT total — à la cible (doses/ha)",
      "Marge brute — prix réels (€/ha)",
    ]);
    expect(parcelles[1]).toEqual(["EARL Test", 2025, "P1", "Lot nord", "Blé", "Conventionnel", 10, "Réalisé", 0.4, 500]);
    // An empty trailing cell is not stored: the planned row has no margin.
    expect(parcelles[3]).toEqual(["EARL Test", 2025, "P1", "Lot nord", "Blé", "Conventionnel", 10, "Prévu", 2.5]);
  });

  test("[C-REXP-01] the anglais flag writes the workbook's texts in English", async () => {
    const wb = await ecrireEtRelire([serie()], options({ anglais: true, alertes: false, rendements: false, donneesBrutes: false, tcd1: false, tcd2: false }));
    expect(wb.worksheets.map((w) => w.name)).toEqual(["Export", "Plots", "Plot groups", "Management modes", "Crops", "Farms"]);
    expect(valeurs(wb.getWorksheet("Plots")!)[1]).toEqual([
      "EARL Test",
      2025,
      "P1",
      "Lot nord",
      "Blé",
      "Conventionnel",
      10,
      "Done",
      "TFI and active substances",
      "Total TFI — at the target",
      "ift.cible.total",
      "doses/ha",
      0.4,
      100,
      0,
    ]);
  });
});

describe("result workbook: rounding, campaign and English units (issue 29)", () => {
  /** A series whose figures carry the engine's units: IFT in reference doses, passes, unrounded values. */
  function serieBrute(campagne: string): SerieExport {
    const s = serie();
    return {
      ...s,
      campagne,
      lignes: [
        ligne("parcelle", 1, "ift.cible.total", 3.426573, "doses de référence/ha", { idParcelle: 1, completude: 66.6667, nbManquants: 1 }),
        ligne("parcelle", 1, "travail.passages", 4.5, "passages", { idParcelle: 1 }),
        ligne("parcelle", 2, "ift.cible.total", 1.111111, "doses de référence/ha", { idParcelle: 2 }),
        ligne("exploitation", 7, "economie.reel.margeBrute", 650.456789, "€/ha"),
      ],
      rendements: [{ idParcelle: 2, culture: "Wheat", typeSortie: "Grain", rendement: 8.33333, unite: "jours", realisation: "realisee" }],
    };
  }
  const seules = { alertes: false, donneesBrutes: true, tcd1: false, tcd2: true, lot: true } as const;

  test("[issue29-exports] figures rounded as the screens show them (two decimals, completeness whole), the campaign year a number", async () => {
    const wb = await ecrireEtRelire([serieBrute("2025")], options(seules));
    const p1 = valeurs(wb.getWorksheet("Parcelles")!).find((r) => r[2] === "P1" && r[10] === "ift.cible.total")!;
    expect(p1[1]).toBe(2025);
    expect(p1[12]).toBe(3.43);
    expect(p1[13]).toBe(67);
    // The plot group is aggregated from the unrounded plot figures: (3.426573 × 10 + 1.111111 × 30) / 40 = 1.69.
    expect(valeurs(wb.getWorksheet("Lots")!).find((r) => r[6] === "ift.cible.total")![8]).toBe(1.69);
    expect(valeurs(wb.getWorksheet("Exploitations")!).find((r) => r[5] === "economie.reel.margeBrute")![7]).toBe(650.46);
    expect(valeurs(wb.getWorksheet("Rendements")!)[1][6]).toBe(8.33);
    // The raw-data sheet keeps the stored figure.
    expect(valeurs(wb.getWorksheet("Données brutes")!).find((r) => r[6] === "ift.cible.total" && r[3] === 1)![7]).toBe(3.426573);
    // A prefixed campaign label stays text.
    const prefixe = await ecrireEtRelire([serieBrute("Bio 2025")], options(seules));
    expect(valeurs(prefixe.getWorksheet("Parcelles")!)[1][1]).toBe("Bio 2025");
  });

  test("[issue29-exports] [C-REXP-01] the English workbook writes units, levels and headings in English", async () => {
    const wb = await ecrireEtRelire([serieBrute("2025")], options({ ...seules, anglais: true }));
    const plots = valeurs(wb.getWorksheet("Plots")!);
    expect(plots[0].slice(0, 3)).toEqual(["Farm", "Campaign", "Plot"]);
    const unites = new Set(plots.slice(1).map((r) => r[11]));
    expect(unites).toEqual(new Set(["reference doses/ha", "passes"]));
    const brutes = valeurs(wb.getWorksheet("Raw data")!);
    expect(new Set(brutes.slice(1).map((r) => r[2]))).toEqual(new Set(["Plot", "Farm"]));
    expect(new Set(brutes.slice(1).map((r) => r[8]))).toEqual(new Set(["reference doses/ha", "passes", "€/ha"]));
    expect(valeurs(wb.getWorksheet("Yields")!)[1].slice(3)).toEqual(["Wheat", "Grain", "Done", 8.33, "days"]);
    const tcd2 = valeurs(wb.getWorksheet("Pivot indicators in rows")!);
    expect(tcd2[0].slice(0, 3)).toEqual(["Group", "Indicator", "Unit"]);
    expect(tcd2.slice(1).map((r) => r[2])).toContain("reference doses/ha");
    // Nothing French is left in the texts the workbook writes (the user's own labels and the indicator codes apart).
    const francais = /parcelle|réalisé|prévu|doses de référence|passages|jours|campagne|exploitation/i;
    for (const ws of wb.worksheets)
      for (const r of valeurs(ws))
        for (const v of r)
          if (typeof v === "string" && !/^[\w.]+$/.test(v) && !["Lot nord", "Conventionnel", "EARL Test"].includes(v)) expect(v, ws.name).not.toMatch(francais);
  });

  test("[issue29-exports] uniteTraduite replaces whole French words only, in one pass", () => {
    expect(uniteTraduite("doses de référence/ha", true)).toBe("reference doses/ha");
    expect(uniteTraduite("L/ha par passage", true)).toBe("L/ha per pass");
    expect(uniteTraduite("kg sa/ha", true)).toBe("kg a.i./ha");
    expect(uniteTraduite("t MS/ha", true)).toBe("t DM/ha");
    expect(uniteTraduite("€/ha", true)).toBe("€/ha");
    expect(uniteTraduite("kg N/ha", true)).toBe("kg N/ha");
    expect(uniteTraduite("passages", false)).toBe("passages");
    expect(uniteTraduite("sachets", true)).toBe("sachets");
  });
});

describe("spreadsheet capacity", () => {
  const feuille = (nbLignes: number, colonnes = 3): FeuillePlan => ({
    cle: "x",
    nom: "x",
    colonnes: Array.from({ length: colonnes }, () => ({ entete: "c" })),
    nbLignes,
    lignes: () => [],
  });

  test("[C-REXP-09] 1,048,575 rows under the header fit (1,048,576 lines); one more is refused before writing", () => {
    expect(LIGNES_MAX_EXPORT).toBe(1_048_575);
    expect(() => verifierCapacite({ feuilles: [feuille(1_048_575)] })).not.toThrow();
    expect(() => verifierCapacite({ feuilles: [feuille(3), feuille(1_048_576)] })).toThrow(
      expect.objectContaining({ key: "exports.trop-de-lignes", status: 413, params: { lignes: 1_048_576, max: 1_048_575 } }),
    );
  });

  test("[C-REXP-09] the row count of a plan is known before writing: one row per entity, indicator and planned/done", async () => {
    const plan = await planClasseurResultats([serie()], options(), DATE);
    const n = Object.fromEntries(plan.feuilles.map((f) => [f.cle, f.nbLignes]));
    expect(n).toMatchObject({ parcelle: 5, exploitation: 3, alertes: 3, rendements: 1, donneesBrutes: 11, tcd2: 3 });
    for (const f of plan.feuilles) expect([...f.lignes()]).toHaveLength(f.nbLignes);
  });

  test("[C-REXP-09] the pivot with indicators in rows beyond 16,384 columns is refused", () => {
    expect(() => verifierCapacite({ feuilles: [feuille(10, 16_385)] })).toThrow(expect.objectContaining({ key: "exportResultats.trop-de-colonnes" }));
  });
});
