import { describe, expect, test } from "vitest";
import { adresseCorrection, correction, lignesManquants } from "./manquants";

describe("missing-data worklist lines (decision 0087)", () => {
  test("[issue24-manquants] one line per missing datum, its gain worked out by hand, the largest first", () => {
    const prix = { objet: "prix" as const, id: "appro-1", champ: "prixAchat", libelle: "Ammonitrate" };
    const rendement = { objet: "recolte" as const, id: 7, champ: "rendement" };
    const lignes = lignesManquants([
      // Plot 1, gross margin: 4 expected, the price and the yield missing → 50 % complete, 25 points each.
      { idParcelle: 1, code: "economie.reel.margeBrute", attendus: 4, manquants: [prix, rendement] },
      // Plot 2, operating costs: 2 expected, the price missing → 50 % complete, 50 points.
      { idParcelle: 2, code: "economie.reel.chargesOperationnelles", attendus: 2, manquants: [prix] },
      // Plot 2, IFT: 1 expected, nothing missing; a figure that expected nothing does not count.
      { idParcelle: 2, code: "ift.cible.total", attendus: 1, manquants: [] },
      { idParcelle: 2, code: "travail.temps.total", attendus: 0, manquants: [] },
    ]);
    // 3 figures count. Price: (25 + 50) / 3 = 25 points; yield: 25 / 3 = 8.33 points.
    expect(lignes.map((l) => [l.cle, l.figures, l.parcelles, Math.round(l.gain * 100) / 100])).toEqual([
      ["prix|appro-1|prixAchat", 2, [1, 2], 25],
      ["recolte|7|rendement", 1, [1], 8.33],
    ]);
    expect(lignes[0].libelle).toBe("Ammonitrate");
    // The mean completeness is (50 + 50 + 100) / 3 = 66.67: the gains add up to the 33.33 missing points.
    expect(lignes.reduce((s, l) => s + l.gain, 0)).toBeCloseTo(100 / 3, 9);
  });

  test("[issue24-manquants] a figure listing more missing data than it expected shares its missing points out", () => {
    const m = (id: number) => ({ objet: "intrant" as const, id, champ: "dose" });
    // 1 expected, 2 missing: 0 % complete, 100 missing points, 50 each.
    const l = lignesManquants([{ idParcelle: 1, code: "x", attendus: 1, manquants: [m(1), m(2)] }]);
    expect(l.map((x) => x.gain)).toEqual([50, 50]);
  });

  test("[issue24-manquants] each missing datum links to the screen and row that fixes it", () => {
    const at = (o: Parameters<typeof correction>[0], w = {}) => {
      const c = correction(o, w);
      return c ? adresseCorrection(c) : null;
    };
    expect(at({ objet: "parcelle", id: 4, champ: "surface" })).toBe("/home/description/exploitation/parcelle?id=4");
    expect(at({ objet: "intrant", id: 9, champ: "doseReference" }, { idParcelle: 4, idIntervention: 12 })).toBe(
      "/home/description/au_champs/interventions?parcelleId=4&id=12",
    );
    expect(at({ objet: "recolte", id: 3, champ: "rendement" }, { idParcelle: 4, idIntervention: 13 })).toBe(
      "/home/description/au_champs/interventions?parcelleId=4&id=13",
    );
    expect(at({ objet: "intervention", id: 13, champ: "operation" }, { idParcelle: 4 })).toBe("/home/description/au_champs/interventions?parcelleId=4&id=13");
    expect(at({ objet: "operation", id: 5, champ: "debit" })).toBe("/home/description/exploitation/operations_culturales?id=5");
    expect(at({ objet: "operation", id: 6, champ: "usure" })).toBe("/home/description/exploitation/parc_materiel?id=6");
    expect(at({ objet: "prix", id: "k", champ: "prixAchat" })).toBe("/home/description/prix/prix_approvisionnement");
    expect(at({ objet: "prix", id: "k", champ: "prixVente" })).toBe("/home/description/prix/prix_vente");
    expect(at({ objet: "exploitation", id: 1, champ: "tauxHoraireMainOeuvre" })).toBe("/home/description/exploitation/main_oeuvre");
    expect(at({ objet: "facteur", id: "energie.gazole", champ: "valeur" })).toBeNull();
  });
});
