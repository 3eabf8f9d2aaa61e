import { describe, expect, test } from "vitest";
import { demoUser, expectRefused } from "../../tests/helpers/service";
import { dialect, useTestDb } from "../../tests/helpers/test-db";
import { comparerSerie } from "./comparaison";

/** Campaign against simulation (issue 14, beyond; decision 0069), on the demo's seeded 2025 series of EARL des Tilleuls. */
const t = useTestDb();

async function derniere(idCampagne: number): Promise<number> {
  const s = await t.db()("calcul_serie").where({ idCampagne, statut: "termine" }).orderBy("id", "desc").first("id");
  if (!s) throw new Error(`no finished series for campaign ${idCampagne} (server/demo/seed-series.ts)`);
  return Number(s.id);
}

async function stockee(idCalculSerie: number, niveau: string, idEntite: string, code: string) {
  const r = await t.db()("calcul_resultat").where({ idCalculSerie, niveau, idEntite, code }).first("valeur", "completude", "nbManquants");
  return { valeur: r.valeur == null ? null : Number(r.valeur), completude: Number(r.completude), nbManquants: Number(r.nbManquants) };
}

describe(`campaign against simulation (${dialect})`, () => {
  test("[issue14-comparaison] the 2025 campaign and its simulation side by side: each row holds the stored figures of both latest finished series and their differences", async () => {
    const { campagnes } = t.demo();
    const redacteur = await demoUser(t.db(), "redacteur");
    const idBase = await derniere(campagnes.tilleuls2025);
    const idSim = await derniere(campagnes.tilleuls2025Simulation);
    const c = await comparerSerie(t.db(), redacteur, idBase);
    expect(c.base).toMatchObject({ idCampagne: campagnes.tilleuls2025, simulation: false, serie: { id: idBase } });
    expect(c.simulation).toMatchObject({ idCampagne: campagnes.tilleuls2025Simulation, simulation: true, serie: { id: idSim } });
    expect(c.candidats.map((x) => x.idCampagne)).toEqual([campagnes.tilleuls2025Simulation]);
    const idFerme = String((await t.db()("campagne").where({ id: campagnes.tilleuls2025 }).first("idExploitation")).idExploitation);

    // Hand-checked on two codes: the row's sides are the stored figures, the difference is simulation − campaign
    // and the percentage that difference over |campaign|.
    for (const code of ["ift.cible.total", "economie.reel.margeBrute"]) {
      const l = c.lignes.find((x) => x.niveau === "exploitation" && x.idEntite === idFerme && x.code === code)!;
      const b = await stockee(idBase, "exploitation", idFerme, code);
      const s = await stockee(idSim, "exploitation", idFerme, code);
      expect(l.base).toMatchObject(b);
      expect(l.simulation).toMatchObject(s);
      expect(b.valeur).not.toBeNull();
      expect(s.valeur).not.toBeNull();
      expect(l.ecart).toBeCloseTo(s.valeur! - b.valeur!, 9);
      expect(l.ecartPct).toBeCloseTo(((s.valeur! - b.valeur!) / Math.abs(b.valeur!)) * 100, 9);
      expect(l.sens).toBe(s.valeur! > b.valeur! ? "hausse" : s.valeur! < b.valeur! ? "baisse" : "egal");
    }
    // The demo simulation "réduction phyto" leaves out the growth regulator and the insecticide and applies the
    // other phyto products at 70 % of their dose: fewer treatments, less active substance.
    const ferme = (code: string) => c.lignes.find((x) => x.niveau === "exploitation" && x.idEntite === idFerme && x.code === code)!;
    expect(ferme("ift.cible.total").sens).toBe("baisse");
    expect(ferme("phyto.qsa").sens).toBe("baisse");
    // Every farm-level and crop-level row of both series is there, once.
    const nb = async (id: number) =>
      Number((await t.db()("calcul_resultat").where({ idCalculSerie: id }).whereIn("niveau", ["exploitation", "culture"]).count({ n: "*" }))[0].n);
    expect(c.lignes.length).toBeGreaterThanOrEqual(Math.max(await nb(idBase), await nb(idSim)));
    expect(c.cultures.length).toBeGreaterThan(0);
    for (const cu of c.cultures) expect(c.lignes.some((l) => l.niveau === "culture" && l.idEntite === cu.id)).toBe(true);

    // Opened from the simulation's series: the same rows.
    const depuisSim = await comparerSerie(t.db(), redacteur, idSim);
    expect(depuisSim.base?.serie?.id).toBe(idBase);
    expect(depuisSim.lignes).toEqual(c.lignes);
  });

  test("[issue14-comparaison] [C-RIGHTS-14] a user without write on the farm cannot read the comparison", async () => {
    const idBase = await derniere(t.demo().campagnes.tilleuls2025);
    for (const username of ["lecteur", "synthese"])
      await expectRefused(comparerSerie(t.db(), await demoUser(t.db(), username), idBase), "errors.forbidden", 403);
  });

  test("[issue14-comparaison] a side without a finished series is named, with no rows", async () => {
    const { campagnes } = t.demo();
    const idBase = await derniere(campagnes.tilleuls2025);
    await t.db()("calcul_serie").where({ idCampagne: campagnes.tilleuls2025Simulation }).update({ statut: "erreur" });
    const c = await comparerSerie(t.db(), await demoUser(t.db(), "redacteur"), idBase);
    expect(c.simulation).toMatchObject({ idCampagne: campagnes.tilleuls2025Simulation, serie: null });
    expect(c.base?.serie?.id).toBe(idBase);
    expect(c.lignes).toEqual([]);
    await t.db()("calcul_serie").where({ idCampagne: campagnes.tilleuls2025Simulation }).update({ statut: "termine" });
  });
});
