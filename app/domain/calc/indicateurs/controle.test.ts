import { describe, expect, test } from "vitest";
import { BORNES_CONTROLE, MESSAGES_CONTROLE as M, controlerCampagne } from "./controle";
import { intervention, intrant, operation, parcelle, recolte } from "./fixtures";
import type { InstantaneCampagne, IntrantPhyto } from "./types";

const base = (s: Partial<InstantaneCampagne> = {}): InstantaneCampagne => ({
  idCampagne: 1,
  anneeRecolte: 2024,
  exploitation: { id: 7 },
  parcelles: [parcelle({ id: 1, libelle: "P1" })],
  interventions: [],
  prix: { reel: { appro: {}, vente: {} } },
  ...s,
});
const phyto = (p: Partial<IntrantPhyto> = {}) =>
  intrant<IntrantPhyto>({
    type: "phyto",
    famille: "H",
    biocontrole: false,
    cibles: [],
    dosesReference: [],
    dose: 1,
    unite: "l/ha",
    amm: "2000001",
    substances: [{ libelle: "sa", concentration: 100, unite: "g/L" }],
    ...p,
  });
const codes = (s: InstantaneCampagne, c = {}) => controlerCampagne(s, c).details.map((d) => d.code);

describe("Calculation pre-check (spec 3 §5)", () => {
  test("[C-CHECK-01] [C-CHECK-22] a clean campaign answers OK with no details; an offending one Erreur with the items listed", () => {
    const ok = base({ interventions: [intervention({ idParcelle: 1, idCultureConcernee: 1, operation: operation({ debit: 2 }), intrants: [phyto()] })] });
    expect(controlerCampagne(ok)).toEqual({ codeRetour: "OK", details: [] });
    const ko = base({ parcelles: [parcelle({ id: 2, libelle: "Sans surface", surface: null })] });
    expect(controlerCampagne(ko)).toEqual({ codeRetour: "Erreur", details: [{ code: M.surface, objet: "parcelle", id: 2, libelle: "Sans surface" }] });
  });

  test("[C-CHECK-02] [C-CHECK-03] [C-CHECK-04] [C-CHECK-12] [C-CHECK-21] inputs: composition, type, active matter, approval number, seed emission coefficient", () => {
    const s = base({
      interventions: [
        intervention({
          intrants: [
            intrant({ type: "fertilisant", nature: "mineral", dose: 100, unite: "kg/ha", composition: { n: null } }),
            intrant({ type: "autre", dose: 1, unite: "autre", idCategorie: null }),
            phyto({ substances: [{ libelle: "sa", concentration: null, unite: "g/L" }] }),
            phyto({ amm: null }),
            intrant({ type: "semence", dose: 150, unite: "kg/ha" }),
          ],
        }),
      ],
    });
    expect(codes(s)).toEqual([M.composition, M.type, M.matiereActive, M.amm, M.coefficientEmission]);
  });

  test("[C-CHECK-05] [C-CHECK-06] [C-CHECK-07] [C-CHECK-08] [C-CHECK-09] [C-CHECK-10] [C-CHECK-11] plot area, irrigation rate, work rate, yield, grazing duration, crop of the plot and of the intervention", () => {
    const s = base({
      parcelles: [parcelle({ id: 3, surface: 0, idCulture: null })],
      interventions: [
        intervention({ operation: operation({ irrigation: true, debitIrrigation: null }) }),
        intervention({ operation: operation({ debit: null }), idCultureConcernee: null }),
        intervention({ recoltes: [recolte({ rendement: null }), recolte({ pature: true, rendement: null, unite: "jours" })] }),
      ],
    });
    expect(codes(s)).toEqual([M.surface, M.cultureItineraire, M.debitIrrigation, M.cultureIntervention, M.debit, M.rendement, M.dureePature]);
  });

  test("[C-CHECK-13] [C-CHECK-14] [C-CHECK-15] [C-CHECK-16] [C-CHECK-17] equipment values out of range, at and beyond the bounds", () => {
    const dans = { id: 1, libelle: "Tracteur", prixAchat: 2_000_000, tauxRevente: 100, ageAchat: 20, obsolescence: 0, usure: 500_000 };
    expect(controlerCampagne(base(), { materiels: [dans] }).codeRetour).toBe("OK");
    const hors = { id: 2, libelle: "Charrue", prixAchat: 2_000_001, tauxRevente: -1, ageAchat: 21, obsolescence: 21, usure: 500_001 };
    const r = controlerCampagne(base(), { materiels: [hors] });
    expect(r.codeRetour).toBe("Erreur");
    expect(r.details.map((d) => d.champ)).toEqual(["prixAchat", "tauxRevente", "ageAchat", "obsolescence", "usure"]);
    expect(r.details[0]).toMatchObject({ code: M.materiel, objet: "materiel", id: 2, libelle: "Charrue", valeur: 2_000_001 });
  });

  test("[C-CHECK-18] [C-CHECK-19] [C-CHECK-20] long-term loan rate and duration, replacement value", () => {
    expect(BORNES_CONTROLE.longTermeDuree).toEqual([1, 20]);
    expect(controlerCampagne(base(), { longTermeTaux: 100, longTermeDuree: 1, valeurRemplacement: 0 }).codeRetour).toBe("OK");
    const r = controlerCampagne(base(), { longTermeTaux: 101, longTermeDuree: 0, valeurRemplacement: 100.5 });
    expect(r.details.map((d) => [d.code, d.champ])).toEqual([
      [M.emprunt, "longTermeTaux"],
      [M.emprunt, "longTermeDuree"],
      [M.valeurRemplacement, "valeurRemplacement"],
    ]);
  });
});
