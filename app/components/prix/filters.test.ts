import { describe, expect, test } from "vitest";
import { FILTRE_SANS_PRIX, FUEL_ROW_ID } from "~/domain/prix";
import { filterAppro } from "./prix-appro-grid";
import { filterVente } from "./prix-vente-grid";
import type { PrixApproRow, PrixVenteRow } from "~/domain/contracts/prix";

const appro = (id: number, idTypeIntrant: number | null, prixAchat: number | null, fioul = false): PrixApproRow => ({
  id,
  updatedAt: "",
  fioul,
  idOrigineIntrant: 776,
  idTypeIntrant,
  idIntrant: null,
  idModalite: null,
  traitementSemence: false,
  libelleIntrant: `p${id}`,
  libelleIntrantConcat: `p${id}`,
  prixAchat,
  unite: "KG/HA",
  utilise: true,
});
const vente = (id: number, idModeConduite: number | null, prixVente: number | null): PrixVenteRow => ({
  id,
  updatedAt: "",
  idModeConduite,
  idCulture: 1,
  idTypeSortie: 1,
  idQualifiantRecolte: null,
  prixVente,
  utilise: true,
});

describe("price filters", () => {
  test("[C-PAPPRO-04] [C-PAPPRO-07] the type filter and 'unspecified price'; the fuel row first with all types, and when unpriced", () => {
    const rows = [appro(FUEL_ROW_ID, null, 1.1, true), appro(1, 538, 2), appro(2, 539, null), appro(3, 539, 4)];
    expect(filterAppro(rows, "").map((r) => r.id)).toEqual([FUEL_ROW_ID, 1, 2, 3]);
    expect(filterAppro(rows, "539").map((r) => r.id)).toEqual([2, 3]);
    expect(filterAppro(rows, FILTRE_SANS_PRIX).map((r) => r.id)).toEqual([2]);
    expect(filterAppro([appro(FUEL_ROW_ID, null, null, true), ...rows.slice(1)], FILTRE_SANS_PRIX).map((r) => r.id)).toEqual([FUEL_ROW_ID, 2]);
  });

  test("[C-PVENTE-03] the driving-mode filter ('0': no mode) and 'unspecified price'", () => {
    const rows = [vente(1, 10, 200), vente(2, 11, null), vente(3, null, 150)];
    expect(filterVente(rows, "10").map((r) => r.id)).toEqual([1]);
    expect(filterVente(rows, "0").map((r) => r.id)).toEqual([3]);
    expect(filterVente(rows, FILTRE_SANS_PRIX).map((r) => r.id)).toEqual([2]);
    expect(filterVente(rows, "").map((r) => r.id)).toEqual([1, 2, 3]);
  });
});
