import { describe, expect, test } from "vitest";
import { demoUser, expectRefused, scopeOf, selectTilleuls } from "../../tests/helpers/service";
import { dialect, useTestDb } from "../../tests/helpers/test-db";
import { ecranObjectifs } from "./service";

/**
 * Objectives against results (issue 24; decision 0087): the demo protocol's objectives of EARL des Tilleuls beside the
 * figures of the campaign's latest series the user may see, met or missed by the direction of each indicator, and the
 * trajectory over the farm's campaigns. Every expected figure is read from the stored series rows, the verdict worked
 * out here from the rule (a ceiling is met at or below its objective, a floor at or above).
 */
const t = useTestDb();

const figure = async (idSerie: number, niveau: string, code: string) => {
  const rows = await t.db()("calcul_resultat").where({ idCalculSerie: idSerie, niveau, code }).select("idEntite", "valeur");
  return rows.map((r) => ({ idEntite: String(r.idEntite), valeur: r.valeur == null ? null : Number(r.valeur) }));
};
const derniereSerie = async (idCampagne: number) =>
  Number(
    (
      await t
        .db()("calcul_serie")
        .where({ idCampagne, statut: "termine" })
        .orderBy([
          { column: "createdAt", order: "desc" },
          { column: "id", order: "desc" },
        ])
        .first("id")
    ).id,
  );

describe(`objectives against results (${dialect})`, () => {
  test("[issue24-objectifs] a writer sees each objective of the campaign beside the farm, crop and plot figures of its latest series, met or missed by its direction", async () => {
    const db = t.db();
    const { campagnes } = t.demo();
    const redacteur = await selectTilleuls(t, "redacteur", "tilleuls2025");
    const e = await ecranObjectifs(scopeOf(db, redacteur));
    const idSerie = await derniereSerie(campagnes.tilleuls2025);
    expect(e.serie?.id).toBe(idSerie);
    expect(e.peutOuvrirSerie).toBe(true);
    // The demo protocol's objectives (server/demo/seed-protocoles.ts): IFT total 3.2, IFT herbicides 1.2, mineral N 150, semi-net margin 650, work time without a value.
    expect(e.lignes.map((l) => [l.indCode, l.objectif, l.sens])).toEqual([
      ["IFT_TOT", 3.2, "plafond"],
      ["IFT_H", 1.2, "plafond"],
      ["N_MIN", 150, "plafond"],
      ["MSN", 650, "plancher"],
      ["TPS_TRAV", null, "plafond"],
    ]);
    const ift = e.lignes[0];
    const [ferme] = await figure(idSerie, "exploitation", "ift.cible.total");
    expect(ift.exploitation?.valeur).toBeCloseTo(ferme.valeur!, 9);
    expect(ift.exploitation?.verdict).toBe(Math.round(ferme.valeur! * 100) / 100 <= 3.2 ? "atteint" : "manque");
    expect(ift.exploitation?.ecart).toBeCloseTo(3.2 - ferme.valeur!, 9);
    // Every plot and crop of the series, each judged.
    const plots = await figure(idSerie, "parcelle", "ift.cible.total");
    expect(ift.parcelles.map((p) => p.idEntite).sort()).toEqual(plots.map((p) => p.idEntite).sort());
    for (const p of ift.parcelles) {
      const v = plots.find((x) => x.idEntite === p.idEntite)!.valeur!;
      expect(p.verdict, p.libelle).toBe(Math.round(v * 100) / 100 <= 3.2 ? "atteint" : "manque");
    }
    expect(ift.cultures.length).toBe((await figure(idSerie, "culture", "ift.cible.total")).length);
    // A floor: the semi-net margin is met at or above 650 €/ha.
    const msn = e.lignes[3];
    const [margeFerme] = await figure(idSerie, "exploitation", "economie.reel.margeSemiNette");
    expect(msn.exploitation?.verdict).toBe(Math.round(margeFerme.valeur! * 100) / 100 >= 650 ? "atteint" : "manque");
    expect(msn.exploitation?.ecart).toBeCloseTo(margeFerme.valeur! - 650, 9);
    // An objective without a value is shown, not judged.
    expect(e.lignes[4].exploitation?.verdict).toBe("sans-objectif");
    // Both demo met and missed verdicts occur, so the screen shows both.
    const verdicts = new Set(e.lignes.flatMap((l) => [l.exploitation, ...l.parcelles].map((f) => f?.verdict)));
    expect(verdicts.has("atteint") && verdicts.has("manque")).toBe(true);

    // The trajectory: 2024 and 2025 (no simulation), each campaign's farm figure from its own latest series.
    const trajectoire = e.trajectoires.find((x) => x.idIndicateur === ift.idIndicateur)!;
    expect(trajectoire.points.map((p) => p.anneeRecolte)).toEqual([2024, 2025]);
    const [ferme2024] = await figure(await derniereSerie(campagnes.tilleuls2024), "exploitation", "ift.cible.total");
    expect(trajectoire.points[0].valeur).toBeCloseTo(ferme2024.valeur!, 9);
    expect(trajectoire.points[0].objectif).toBe(3.2);
    expect(trajectoire.points[1].valeur).toBeCloseTo(ferme.valeur!, 9);
  });

  test("[issue24-objectifs] [C-RIGHTS-19] a reader sees the published series only: no figure for the unpublished 2025 series, the published 2024 one in the trajectory", async () => {
    const db = t.db();
    const lecteur = await selectTilleuls(t, "lecteur", "tilleuls2025");
    const e = await ecranObjectifs(scopeOf(db, lecteur));
    expect(e.serie).toBeNull();
    expect(e.peutOuvrirSerie).toBe(false);
    expect(e.lignes.every((l) => l.exploitation === null && l.parcelles.length === 0)).toBe(true);
    const ift = e.trajectoires.find((x) => x.points.length && e.lignes[0].idIndicateur === x.idIndicateur)!;
    expect(ift.points[0].valeur).not.toBeNull();
    expect(ift.points[1].valeur).toBeNull();
    expect(ift.points[1].verdict).toBe("sans-resultat");
    // The published 2024 campaign itself shows its figures to the reader.
    const e2024 = await ecranObjectifs(scopeOf(db, lecteur), t.demo().campagnes.tilleuls2024);
    expect(e2024.serie?.publication).toBe(true);
    expect(e2024.lignes[0].exploitation?.valeur).not.toBeNull();
  });

  test("[issue24-objectifs] a user who reaches the campaign's farm through none of his folders is refused", async () => {
    const lecteur = await demoUser(t.db(), "lecteur");
    // Ferme de la Vallée is linked to the Bocage folder only; the reader has the Beauce folder.
    await expectRefused(ecranObjectifs(scopeOf(t.db(), lecteur), t.demo().campagnes.vallee2025), "errors.forbidden", 403);
  });
});
