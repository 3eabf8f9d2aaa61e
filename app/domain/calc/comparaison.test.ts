import { describe, expect, test } from "vitest";
import { comparerFigures, ecartDe } from "./comparaison";

describe("campaign against simulation", () => {
  test("[issue14-comparaison] the difference is simulation − campaign, in % of the campaign's figure; none when a side is missing or the base is zero", () => {
    // 2.5 → 1.75: −0.75, −0.75 / 2.5 = −30 %.
    expect(ecartDe(2.5, 1.75)).toEqual({ ecart: -0.75, ecartPct: -30, sens: "baisse" });
    // −200 → −100 (a negative margin improving): +100, +100 / |−200| = +50 %.
    expect(ecartDe(-200, -100)).toEqual({ ecart: 100, ecartPct: 50, sens: "hausse" });
    expect(ecartDe(0, 3)).toEqual({ ecart: 3, ecartPct: null, sens: "hausse" });
    expect(ecartDe(4, 4)).toEqual({ ecart: 0, ecartPct: 0, sens: "egal" });
    expect(ecartDe(null, 4)).toEqual({ ecart: null, ecartPct: null, sens: null });
  });

  test("[issue14-comparaison] figures pair by level, entity and code; a figure of one side only shows empty on the other", () => {
    const f = (niveau: string, idEntite: string, code: string, valeur: number | null) => ({
      niveau,
      idEntite,
      code,
      valeur,
      unite: "u",
      completude: 100,
      nbManquants: 0,
    });
    const lignes = comparerFigures(
      [f("exploitation", "1", "ift.cible.total", 2), f("culture", "7", "ift.cible.total", 1)],
      [f("exploitation", "1", "ift.cible.total", 1), f("culture", "8", "ift.cible.total", 3)],
    );
    expect(lignes.map((l) => [l.niveau, l.idEntite, l.base?.valeur ?? null, l.simulation?.valeur ?? null, l.ecart])).toEqual([
      ["exploitation", "1", 2, 1, -1],
      ["culture", "7", 1, null, null],
      ["culture", "8", null, 3, null],
    ]);
    expect(lignes[0].idGroupe).toBe(1);
  });
});
