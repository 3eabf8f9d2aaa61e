import { describe, expect, test } from "vitest";
import { demoUser, selectTilleuls, scopeOf } from "../../tests/helpers/service";
import { dialect, useTestDb } from "../../tests/helpers/test-db";
import { ecranIndicateursPublies } from "../export-resultats/service";
import { creerSerie, executerSerie, listerSeries } from "./service";

/** A series out of date once its campaign's data changed (decision 0072), on both databases. */
const t = useTestDb();

async function serie(idCampagne: number): Promise<number> {
  const id = await creerSerie(t.db(), idCampagne, null);
  await executerSerie(t.db(), id);
  return id;
}
async function perimee(idSerie: number, idCampagne: number): Promise<boolean> {
  const s = (await listerSeries(t.db(), await demoUser(t.db(), "redacteur"), [idCampagne])).find((x) => x.id === idSerie);
  if (!s) throw new Error(`series ${idSerie} not listed`);
  return s.perimee;
}

describe(`series out of date (${dialect})`, () => {
  test("[issue14-perimee] the demo's published series is up to date; a change of its campaign's interventions makes it out of date on both screens' lists, a new series is up to date", async () => {
    const db = t.db();
    const idCampagne = t.demo().campagnes.tilleuls2024;
    const publiee = await db("calcul_serie").where({ idCampagne, publication: true }).first("id");
    expect(await perimee(publiee.id, idCampagne)).toBe(false);
    const redacteur = await selectTilleuls(t, "redacteur", "tilleuls2024");
    const ecran = async () => (await ecranIndicateursPublies(scopeOf(db, redacteur), [idCampagne])).series.find((s) => s.id === publiee.id)!;
    expect((await ecran()).perimee).toBe(false);

    // An intervention's frequency (the campaign is locked for the services: the database's own writers count too).
    const action = await db("action").where({ idCampagne }).orderBy("id").first("id", "frequence");
    await db("action")
      .where({ id: action.id })
      .update({ frequence: Number(action.frequence ?? 1) + 1 });
    expect(await perimee(publiee.id, idCampagne)).toBe(true);
    expect((await ecran()).perimee).toBe(true);
    // Calculated again: the new series is up to date, the published one stays out of date.
    const nouvelle = await serie(idCampagne);
    expect(await perimee(nouvelle, idCampagne)).toBe(false);
    expect(await perimee(publiee.id, idCampagne)).toBe(true);
  });

  test("[issue14-perimee] a plot's area, its crop, an operation's work rate, a sale price, an input's target dose and its deletion each make the series out of date; another campaign's change does not", async () => {
    const db = t.db();
    const idCampagne = t.demo().campagnes.tilleuls2025;
    const autre = t.demo().campagnes.moulin2025;
    const plot = await db("parcelle").where({ idCampagne }).orderBy("id").first("id", "surface");
    const op = await db("operation_culturale").where({ idCampagne }).orderBy("id").first("id", "debitReel");
    // An input with a target and its reference dose (the demo's have none): made before the series below.
    const intrant = await db("intrant as i").join("action as a", "a.id", "i.idAction").where("a.idCampagne", idCampagne).orderBy("i.id").first("i.id");
    const [ic] = await db("intrant_cible").insert({ idIntrant: intrant.id, uniteRefCible1: "L/HA" }).returning("id");
    const idIntrantCible = typeof ic === "object" ? (ic as { id: number }).id : (ic as number);
    const [cc] = await db("intrant_cible_cible")
      .insert({ idIntrantCible, idCible: (await db("cible").orderBy("id").first("id")).id, rang: 1, doseRef: 2, uniteRef: "L/HA" })
      .returning("id");
    const cible = { id: typeof cc === "object" ? (cc as { id: number }).id : (cc as number), doseRef: 2 };
    const culture = await db("culture").orderBy("id").first("id");
    const changes: [string, () => Promise<unknown>][] = [
      [
        "plot area",
        () =>
          db("parcelle")
            .where({ id: plot.id })
            .update({ surface: Number(plot.surface ?? 1) + 1 }),
      ],
      [
        "plot crop",
        async () => {
          await db("affectation_culture_cible").where({ idParcelle: plot.id }).delete();
          await db("affectation_culture_cible").insert({ idParcelle: plot.id, idCulture: culture.id });
        },
      ],
      [
        "operation work rate",
        () =>
          db("operation_culturale")
            .where({ id: op.id })
            .update({ debitReel: Number(op.debitReel ?? 1) + 1 }),
      ],
      [
        "sale price",
        async () =>
          db("prix_vente").insert({
            idCampagne,
            cle: "perimee",
            idCulture: culture.id,
            idTypeSortie: (await db("type_sortie").orderBy("id").first("id")).id,
            prixVente: 100,
          }),
      ],
      [
        "target dose",
        () =>
          db("intrant_cible_cible")
            .where({ id: cible.id })
            .update({ doseRef: cible.doseRef + 1 }),
      ],
      [
        "intervention deleted",
        async () => {
          const a = await db("action").where({ idCampagne }).orderBy("id", "desc").first("id");
          await db("action").where({ id: a.id }).delete();
        },
      ],
    ];
    for (const [quoi, changer] of changes) {
      const id = await serie(idCampagne);
      expect(await perimee(id, idCampagne), `${quoi}: before`).toBe(false);
      // Another campaign of the same farm: its plots and prices are not this series' data.
      const autrePlot = await db("parcelle").where({ idCampagne: autre }).orderBy("id").first("id", "surface");
      await db("parcelle")
        .where({ id: autrePlot.id })
        .update({ surface: Number(autrePlot.surface ?? 1) + 0.5 });
      expect(await perimee(id, idCampagne), `${quoi}: another campaign`).toBe(false);
      await changer();
      expect(await perimee(id, idCampagne), quoi).toBe(true);
    }
  });

  test("[issue14-perimee] a series made before the counters (none stored) is never called out of date", async () => {
    const db = t.db();
    const idCampagne = t.demo().campagnes.vallee2025;
    const id = await serie(idCampagne);
    await db("calcul_serie").where({ id }).update({ versionInterventions: null, versionDonnees: null });
    // The campaign's data change afterwards: still not called out of date (its state is not known).
    await db("parcelle")
      .where({ idCampagne })
      .update({ surface: db.raw("surface") });
    const listee = (await listerSeries(db, await demoUser(db, "animateur"), [idCampagne])).find((x) => x.id === id);
    expect(listee?.perimee).toBe(false);
  });
});
