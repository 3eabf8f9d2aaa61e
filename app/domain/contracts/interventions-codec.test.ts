import { describe, expect, it } from "vitest";
import { decodeChoices, decodeInterventions, encodeChoices, encodeInterventions, type InterventionChoices } from "./interventions-codec";
import type { InterventionRow } from "./interventions";

const row = (over: Partial<InterventionRow>): InterventionRow => ({
  id: 1,
  updatedAt: "2025-03-01T08:00:00.123Z",
  idParcelle: 10,
  date: "2025-03-01",
  idOperationCulturale: 5,
  idCultureConcernee: null,
  debit: null,
  frequence: 1,
  tauxSurface: 1,
  nombrePassage: 1,
  realisee: false,
  prevue: false,
  intrants: [],
  recoltes: [],
  rdd: false,
  ...over,
});

describe("the interventions rows as the loader sends them (decision 0076)", () => {
  it("[issue11-perf] gives back the rows as they were: stamps to the millisecond, nulls, flags, inputs (folder input or not) and harvests", () => {
    const rows = [
      row({
        id: 7,
        updatedAt: "2026-11-26T10:38:16.000Z",
        realisee: true,
        rdd: true,
        debit: 2.84,
        frequence: 1.5,
        tauxSurface: 0.3333,
        nombrePassage: 0.5,
        idCultureConcernee: 14,
        intrants: [
          { id: 277, type: 538, libelle: "Phacélie", quantite: 10, unite: "kg/ha" },
          { id: 278, type: 543, libelle: 'Produit "maison" ; 1/2', quantite: null, unite: null, idIntrantDossier: 31 },
        ],
      }),
      row({ id: 3, updatedAt: "2024-01-01T00:00:00.001Z", prevue: true, idOperationCulturale: null, nombrePassage: null }),
      row({
        id: 9,
        date: "2024-07-25",
        recoltes: [
          { id: 4, libelle: "Blé tendre - Grain (Qualité A)", rendement: 72.5, unite: "q/ha" },
          { id: 5, libelle: "Paille", rendement: null, unite: "t/ha" },
        ],
        intrants: [{ id: 279, type: 538, libelle: "Phacélie", quantite: 12, unite: "kg/ha" }],
      }),
    ];
    const encoded = encodeInterventions(rows);
    expect(typeof encoded).toBe("string");
    const back = decodeInterventions(encoded);
    expect(back).toEqual(rows);
    expect("idIntrantDossier" in back[0].intrants[0]).toBe(false);
    expect(back[0].intrants[1].idIntrantDossier).toBe(31);
    // Each text once.
    expect(encoded.split("Phacélie").length).toBe(2);
  });

  it("[issue11-perf] runs of equal values and ids out of order come back in their places", () => {
    const rows = Array.from({ length: 60 }, (_, k) =>
      row({
        id: 1000 - 7 * k + (k % 3) * 50,
        idParcelle: 10 + Math.floor(k / 20),
        frequence: k === 30 ? 2 : 1,
        realisee: k % 10 === 0,
        debit: k < 40 ? null : 1.25,
        date: k < 30 ? "2025-03-01" : "2025-04-02",
      }),
    );
    const encoded = encodeInterventions(rows);
    expect(decodeInterventions(encoded)).toEqual(rows);
    expect(JSON.parse(encoded).f).toEqual({ r: [1, 30, 2, 1, 1, 29] });
    expect(Array.isArray(JSON.parse(encoded).b)).toBe(false);
  });

  it("[issue11-perf] inputs in any order of ids, folder inputs among them, and stamps that repeat come back as they were", () => {
    const stamp = "2025-02-01T10:00:00.000Z";
    const rows = Array.from({ length: 30 }, (_, k) =>
      row({
        id: 100 + k,
        updatedAt: k < 20 ? stamp : `2025-02-0${1 + (k % 5)}T10:00:00.${String(k).padStart(3, "0")}Z`,
        intrants:
          k % 4 === 3
            ? []
            : [
                { id: 5000 - 13 * k, type: 539, libelle: k % 2 ? "Fongicide A" : "Herbicide B", quantite: k % 3 ? 1.25 : null, unite: k % 3 ? "l/ha" : null },
                ...(k % 5 === 0 ? [{ id: 9000 + k, type: 543, libelle: "Produit du dossier", quantite: 2, unite: "u/ha", idIntrantDossier: 40 + k }] : []),
              ],
      }),
    );
    const encoded = encodeInterventions(rows);
    expect(decodeInterventions(encoded)).toEqual(rows);
    expect(Array.isArray(JSON.parse(encoded).t)).toBe(false); // the twenty equal stamps as one run
  });

  it("[issue28-saisie] the register's fields come back on the rows that have them, absent on the others", () => {
    const rows = [
      row({ id: 1 }),
      row({ id: 2, heureDebut: "06:30", heureFin: "08:00", idStadeCulture: 41, precisionStade: "dernière feuille", siretPrestataire: "73282932000074" }),
      row({ id: 3, rentreeAnticipee: false, lotSemences: "LOT-2026-17" }),
      row({ id: 4, rentreeAnticipee: true }),
    ];
    expect(decodeInterventions(encodeInterventions(rows))).toEqual(rows);
  });

  it("no rows", () => {
    expect(decodeInterventions(encodeInterventions([]))).toEqual([]);
  });
});

describe("the interventions screen's choices as the loader sends them (decision 0083)", () => {
  it("[issue11-perf] plots, operations and crops come back as they were", () => {
    const choices: InterventionChoices = {
      parcelles: [
        { id: 39, libelle: "La Butte 1", irrigable: false, surface: 7.5, idModeConduite: 29 },
        { id: 12, libelle: 'Le "Grand" champ', irrigable: true, surface: null, idModeConduite: null },
        { id: 40, libelle: "La Butte 2", irrigable: false, surface: 3, idModeConduite: 29 },
      ],
      operations: [
        {
          id: 3,
          libelle: "Semis",
          idTypeAction: 1,
          debitReel: 2,
          debitCalcule: null,
          volumeBouillie: null,
          materiels: [{ id: 1, libelle: "Semoir" }],
          mainOeuvres: [],
        },
      ],
      cultures: [{ id: 1, libelle: "Blé tendre", libelleEn: "Soft wheat", interculture: false }],
    };
    expect(decodeChoices(encodeChoices(choices))).toEqual(choices);
    expect(decodeChoices(encodeChoices({ parcelles: [], operations: [], cultures: [] }))).toEqual({ parcelles: [], operations: [], cultures: [] });
  });
});
