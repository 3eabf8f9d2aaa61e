import { describe, expect, test } from "vitest";
import { demoUser, scopeOf } from "../../tests/helpers/service";
import { dialect, useTestDb } from "../../tests/helpers/test-db";
import { creerSerie, executerSerie } from "../calcul-serie/service";
import { selectInContext } from "../contexte/service";
import { CODES_PANNEAU, getIndicateursParcelle } from "./service";

/*
 * One loader for the live plot panel and the calculation series (decision 0085, issue 24): for every plot of every
 * demo campaign, each figure the panel shows (CODES_PANNEAU) equals the series' figure for the plot, value and
 * completeness. The series is calculated by its own service; the panel is read as the interventions screen reads it.
 */
const t = useTestDb();

describe(`live plot panel against the series (${dialect})`, () => {
  test("[issue24-ift] every plot of every demo campaign: the panel's figures equal the series', figure by figure", async () => {
    const db = t.db();
    const { oads, dossiers, exploitations, campagnes } = t.demo();
    const user = await demoUser(db, "animateur");
    let compares = 0;
    for (const [nom, idCampagne] of Object.entries(campagnes)) {
      const ferme = (["tilleuls", "moulin", "vallee"] as const).find((f) => nom.startsWith(f))!;
      await selectInContext(db, user, { intent: "oad", id: oads.reseauDemo });
      await selectInContext(db, user, { intent: "dossier", id: ferme === "vallee" ? dossiers.bocage : dossiers.beauce });
      await selectInContext(db, user, { intent: "exploitations", ids: [exploitations[ferme]] });
      await selectInContext(db, user, { intent: "campagne", id: idCampagne });
      const idSerie = await creerSerie(db, idCampagne, null);
      await executerSerie(db, idSerie);
      const lignes = await db("calcul_resultat")
        .where({ idCalculSerie: idSerie, niveau: "parcelle" })
        .whereIn("code", [...CODES_PANNEAU])
        .select("idEntite", "code", "valeur", "completude");
      const serie = new Map(lignes.map((r) => [`${r.idEntite}|${r.code}`, r]));
      const parcelles = await db("parcelle").where({ idCampagne }).orderBy("id").pluck("id");
      expect(parcelles.length, nom).toBeGreaterThan(0);
      for (const idParcelle of parcelles) {
        const panneau = await getIndicateursParcelle(scopeOf(db, user), Number(idParcelle));
        expect(
          panneau.indicateurs.map((i) => i.code),
          `${nom} plot ${idParcelle}`,
        ).toEqual([...CODES_PANNEAU]);
        for (const i of panneau.indicateurs) {
          const s = serie.get(`${idParcelle}|${i.code}`);
          expect(s, `${nom} plot ${idParcelle} ${i.code} in the series`).toBeDefined();
          const quoi = `${nom} plot ${idParcelle} ${i.code}`;
          if (i.valeur == null) expect(s!.valeur, quoi).toBeNull();
          else expect(Number(s!.valeur), quoi).toBeCloseTo(i.valeur, 9);
          expect(Number(s!.completude), `${quoi} completeness`).toBeCloseTo(i.completude, 9);
          compares++;
        }
      }
    }
    // 7 campaigns, their plots, 6 figures each.
    expect(compares).toBeGreaterThan(6 * 7);
  });

  test("[issue24-ift] the demo's seeded series: every plot with a treatment has an IFT of 80 % completeness or more, from the nearest list (2026) for its 2024 and 2025 campaigns", async () => {
    const db = t.db();
    const series = await db("calcul_serie").where({ statut: "termine" }).select("id", "idCampagne");
    expect(series.length).toBeGreaterThanOrEqual(3);
    for (const s of series) {
      const lignes = await db("calcul_resultat")
        .where({ idCalculSerie: s.id, niveau: "parcelle", code: "ift.cible.total" })
        .select("idEntite", "valeur", "completude");
      const traitees = lignes.filter((r) => Number(r.valeur) > 0);
      expect(traitees.length, `series ${s.id}`).toBeGreaterThan(0);
      for (const r of traitees) expect(Number(r.completude), `series ${s.id} plot ${r.idEntite}`).toBeGreaterThanOrEqual(80);
    }
  });
});
