import { describe, expect, test } from "vitest";
import { sourcePlotIn, tree } from "../../tests/helpers/copie";
import { countRows, expectRefused, selectTilleuls, snapshot, scopeOf } from "../../tests/helpers/service";
import { dialect, useTestDb } from "../../tests/helpers/test-db";
import type { Db } from "../db/knex";
import { duplicateCampaignInterventions, duplicateInterventions, exportInterventions, importInterventions } from "./service";

const t = useTestDb();

async function insertId(db: Db, table: string, row: Record<string, unknown>): Promise<number> {
  const [r] = await db(table).insert(row).returning("id");
  return typeof r === "object" ? (r as { id: number }).id : (r as number);
}
const bare = ({ id: _i, createdAt: _c, updatedAt: _u, ...rest }: Record<string, unknown>) => rest;

const sourcePlot = (n: number) => sourcePlotIn(t, n);

/** Rows of the copied tables hanging off these plots' interventions. */
async function counts(db: Db, idParcelles: number[]) {
  const actions = db("action").whereIn("idParcelle", idParcelles).select("id");
  const intrants = db("intrant").whereIn("idAction", actions).select("id");
  const recoltes = db("recolte").whereIn("idAction", actions).select("id");
  const n = async (q: Promise<{ n: number | string }[]>) => Number((await q)[0].n);
  return {
    action: await n(db("action").whereIn("idParcelle", idParcelles).count({ n: "*" })),
    intrant: await n(db("intrant").whereIn("idAction", actions).count({ n: "*" })),
    caracteristique_intrant: await n(db("caracteristique_intrant").whereIn("idIntrant", intrants).count({ n: "*" })),
    intrant_cible: await n(db("intrant_cible").whereIn("idIntrant", intrants).count({ n: "*" })),
    recolte: await n(db("recolte").whereIn("idAction", actions).count({ n: "*" })),
    caracteristique_recolte: await n(db("caracteristique_recolte").whereIn("idRecolte", recoltes).count({ n: "*" })),
  };
}

/** Makes every insert into caracteristique_recolte fail (the last table a copy writes). */
async function breakHarvestCharacteristics(db: Db, on: boolean) {
  if (dialect === "sqlite") {
    await db.raw(on ? "CREATE TRIGGER copie_boom BEFORE INSERT ON caracteristique_recolte BEGIN SELECT RAISE(ABORT, 'boom'); END" : "DROP TRIGGER copie_boom");
  } else if (on) {
    await db.raw("CREATE OR REPLACE FUNCTION copie_boom() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'boom'; END $$ LANGUAGE plpgsql");
    await db.raw("CREATE TRIGGER copie_boom BEFORE INSERT ON caracteristique_recolte FOR EACH ROW EXECUTE FUNCTION copie_boom()");
  } else await db.raw("DROP TRIGGER copie_boom ON caracteristique_recolte");
}

describe(`copy of interventions (${dialect})`, () => {
  test("[C-COPY-01] [C-COPY-02] [C-COPY-03] [C-COPY-08] [C-COPY-09] [C-COPY-10] a copy of 200 interventions with inputs and harvests is complete and atomic", async () => {
    const db = t.db();
    const redacteur = await selectTilleuls(t, "redacteur", "tilleuls2025");
    const { idCampagne, source, targets, ids } = await sourcePlot(200);
    const expected = await counts(db, [source]);
    expect(expected.action).toBe(200);
    expect(expected.recolte).toBe(200);
    expect(expected.intrant).toBeGreaterThanOrEqual(200);
    expect(expected.caracteristique_intrant).toBe(expected.intrant);

    // A failure in the last table leaves nothing: not one intervention on the destinations.
    const before = await counts(db, targets);
    await breakHarvestCharacteristics(db, true);
    await expect(
      exportInterventions(scopeOf(db, redacteur), {
        actionsSource: ids,
        dossierDestination: t.demo().dossiers.beauce,
        campagneDestination: idCampagne,
        parcellesDestination: targets,
        suppressionInterventionsParcellesDst: "on",
      }),
    ).rejects.toMatchObject({ key: "errors.services.actions-copy-service-error" });
    await breakHarvestCharacteristics(db, false);
    expect(await counts(db, targets)).toEqual(before);

    // The export with the deletion option: each destination holds exactly the 200 copies and what hangs off them.
    const made = await exportInterventions(scopeOf(db, redacteur), {
      actionsSource: ids,
      dossierDestination: t.demo().dossiers.beauce,
      campagneDestination: idCampagne,
      parcellesDestination: targets,
      suppressionInterventionsParcellesDst: "on",
    });
    expect(made).toBe(400);
    for (const plot of targets) expect(await counts(db, [plot])).toEqual(expected);

    // The duplication to another farm (GAEC du Moulin 2025, written through Beauce) without deletion adds to its plot.
    const moulin = t.demo().campagnes.moulin2025;
    const [dest] = (await db("parcelle").where({ idCampagne: moulin }).orderBy("id").limit(1).pluck("id")).map(Number);
    const had = (await counts(db, [dest])).action;
    await duplicateInterventions(scopeOf(db, redacteur), {
      dossierSource: t.demo().dossiers.beauce,
      campagneSource: idCampagne,
      parcelleSource: source,
      dossierDestination: t.demo().dossiers.beauce,
      campagneDestination: moulin,
      parcellesDestination: [dest],
    });
    const after = await counts(db, [dest]);
    expect(after.action).toBe(had + 200);
    const copies = await db("action")
      .where({ idParcelle: dest, idCampagne: moulin })
      .orderBy("id", "desc")
      .limit(200)
      .select("anneeRecolte", "idOperationCulturale");
    // The copies take the destination's harvest year, and an operation of the destination campaign (or none).
    const ops = new Set((await db("operation_culturale").where({ idCampagne: moulin }).pluck("id")).map(Number));
    expect(copies.every((c) => Number(c.anneeRecolte) === 2025 && (c.idOperationCulturale == null || ops.has(Number(c.idOperationCulturale))))).toBe(true);
  });

  test("[C-COPY-05] [C-COPY-06] [C-COPY-07] [C-COPY-11] [C-COPY-12] [C-COPY-13] import into the current plot; required source, destinations, and the source never a destination", async () => {
    const db = t.db();
    const redacteur = await selectTilleuls(t, "redacteur", "tilleuls2025");
    const { idCampagne, source, targets, ids } = await sourcePlot(3);
    const had = await countRows(db, "action", { idParcelle: targets[0] });
    expect(await importInterventions(scopeOf(db, redacteur), { idParcelle: targets[0], campagneSource: idCampagne, actionsSource: ids.slice(0, 2) })).toBe(2);
    expect(await countRows(db, "action", { idParcelle: targets[0] })).toBe(had + 2);
    await expectRefused(
      importInterventions(scopeOf(db, redacteur), { idParcelle: targets[0], campagneSource: idCampagne, actionsSource: [] }),
      "warning.invalid-form",
      400,
    );
    // Another farm's campaign is no source of an import.
    await expectRefused(
      importInterventions(scopeOf(db, redacteur), { idParcelle: targets[0], campagneSource: t.demo().campagnes.moulin2025, actionsSource: ids }),
      "warning.invalid-form",
      400,
    );
    const base = {
      dossierSource: t.demo().dossiers.beauce,
      campagneSource: idCampagne,
      dossierDestination: t.demo().dossiers.beauce,
      campagneDestination: idCampagne,
    };
    await expectRefused(duplicateInterventions(scopeOf(db, redacteur), { ...base, parcellesDestination: targets }), "warning.invalid-form", 400);
    await expectRefused(
      duplicateInterventions(scopeOf(db, redacteur), { ...base, parcelleSource: source, parcellesDestination: [] }),
      "warning.invalid-form",
      400,
    );
    await expectRefused(
      duplicateInterventions(scopeOf(db, redacteur), { ...base, parcelleSource: source, parcellesDestination: [source, targets[1]] }),
      "warning.invalid-form",
      400,
    );
  });

  test("[C-RIGHTS-21] a user without write on the destination cannot copy into it; nothing is written", async () => {
    const db = t.db();
    const { idCampagne, source, ids } = await sourcePlot(2);
    const moulin = t.demo().campagnes.moulin2025;
    const dest = (await db("parcelle").where({ idCampagne: moulin }).orderBy("id").limit(1).pluck("id")).map(Number);
    const before = await snapshot(db, "action", "intrant", "recolte");
    // The reader of Beauce; the writer through Bocage, whose link on GAEC du Moulin gives read only.
    const lecteur = await selectTilleuls(t, "lecteur", "tilleuls2025");
    await expectRefused(
      exportInterventions(scopeOf(db, lecteur), {
        actionsSource: ids,
        dossierDestination: t.demo().dossiers.beauce,
        campagneDestination: moulin,
        parcellesDestination: dest,
      }),
      "errors.forbidden",
      403,
    );
    const redacteur = await selectTilleuls(t, "redacteur", "tilleuls2025");
    await expectRefused(
      exportInterventions(scopeOf(db, redacteur), {
        actionsSource: ids,
        dossierDestination: t.demo().dossiers.bocage,
        campagneDestination: moulin,
        parcellesDestination: dest,
      }),
      "errors.forbidden",
      403,
    );
    await expectRefused(
      duplicateInterventions(scopeOf(db, redacteur), {
        dossierSource: t.demo().dossiers.beauce,
        campagneSource: idCampagne,
        parcelleSource: source,
        dossierDestination: t.demo().dossiers.bocage,
        campagneDestination: moulin,
        parcellesDestination: dest,
      }),
      "errors.forbidden",
      403,
    );
    expect(await snapshot(db, "action", "intrant", "recolte")).toEqual(before);
  });

  test("[C-COPY-01] [C-COPY-08] [C-UNREF-01] [C-QUAL-01] a copy into another folder maps the unreferenced inputs and harvest qualifiers to the destination folder's rows (same label), creating them there when missing", async () => {
    const db = t.db();
    const redacteur = await selectTilleuls(t, "redacteur", "tilleuls2025");
    const { beauce, bocage } = t.demo().dossiers;
    const { source, ids } = await sourcePlot(2);
    // Two unreferenced inputs of Beauce (a fertiliser with its composition, a phyto) and a Beauce qualifier on the source's interventions.
    const ferti = await insertId(db, "intrant_dossier", { idDossier: beauce, dicIdTypeIntrant: 540, libelle: "Digestat essai copie", dicLlUnite: "t/ha" });
    await insertId(db, "fertilisant_compo_dossier", { idIntrantDossier: ferti, n: 0.6, p2o5: 0.2 });
    const phyto = await insertId(db, "intrant_dossier", { idDossier: beauce, dicIdTypeIntrant: 539, libelle: "Purin d'ortie essai" });
    const qual = await insertId(db, "qualifiant_recolte", { idDossier: beauce, qrdNom: "Qualité essai copie" });
    // Bocage already has the phyto under the same label (other case): it is reused; the fertiliser and qualifier are created.
    const phytoBocage = await insertId(db, "intrant_dossier", { idDossier: bocage, dicIdTypeIntrant: 539, libelle: "PURIN D'ORTIE essai" });
    const cat = async (type: number) => Number((await db("categorie_intrant").where({ idTypeIntrant: type }).first("id")).id);
    for (const idAction of ids) {
      await insertId(db, "intrant", {
        idAction,
        idCategorie: await cat(540),
        idIntrant: ferti,
        dicIdOrigineIntrant: 777,
        idDossier: beauce,
        libelleIntrant: "Digestat essai copie",
        quantite: 20,
        dicLlUnite: "t/ha",
      });
      await insertId(db, "intrant", {
        idAction,
        idCategorie: await cat(539),
        idIntrant: phyto,
        dicIdOrigineIntrant: 777,
        idDossier: beauce,
        libelleIntrant: "Purin d'ortie essai",
        quantite: 5,
        dicLlUnite: "l/ha",
      });
      await db("recolte").where({ idAction }).update({ idQualifiantRecolte: qual });
    }
    const vallee = t.demo().campagnes.vallee2025;
    const [dest] = (await db("parcelle").where({ idCampagne: vallee }).orderBy("id").limit(1).pluck("id")).map(Number);
    const before = await countRows(db, "action", { idParcelle: dest });
    await duplicateInterventions(scopeOf(db, redacteur), {
      dossierSource: beauce,
      campagneSource: t.demo().campagnes.tilleuls2025,
      parcelleSource: source,
      dossierDestination: bocage,
      campagneDestination: vallee,
      parcellesDestination: [dest],
    });
    expect(await countRows(db, "action", { idParcelle: dest })).toBe(before + 2);
    const copied = db("action").where({ idParcelle: dest }).orderBy("id", "desc").limit(2).select("id");
    const inputs = await db("intrant")
      .whereIn("idAction", copied)
      .where({ dicIdOrigineIntrant: 777 })
      .whereIn("libelleIntrant", ["Digestat essai copie", "Purin d'ortie essai"])
      .select("idIntrant", "idDossier", "libelleIntrant");
    const fertiBocage = await db("intrant_dossier")
      .where({ idDossier: bocage, libelle: "Digestat essai copie" })
      .select("id", "dicIdTypeIntrant", "dicLlUnite");
    expect(fertiBocage).toHaveLength(1);
    expect(fertiBocage[0]).toMatchObject({ dicIdTypeIntrant: 540, dicLlUnite: "t/ha" });
    const compo = await db("fertilisant_compo_dossier").where({ idIntrantDossier: fertiBocage[0].id }).first("n", "p2o5");
    expect([Number(compo.n), Number(compo.p2o5)]).toEqual([0.6, 0.2]);
    expect(inputs.map((i) => [i.libelleIntrant, Number(i.idIntrant), Number(i.idDossier)]).sort()).toEqual([
      ["Digestat essai copie", Number(fertiBocage[0].id), bocage],
      ["Digestat essai copie", Number(fertiBocage[0].id), bocage],
      ["Purin d'ortie essai", phytoBocage, bocage],
      ["Purin d'ortie essai", phytoBocage, bocage],
    ]);
    expect(await countRows(db, "intrant_dossier", { idDossier: bocage, dicIdTypeIntrant: 539, id: phytoBocage })).toBe(1);
    const qualBocage = await db("qualifiant_recolte").where({ idDossier: bocage, qrdNom: "Qualité essai copie" }).first("id");
    expect(qualBocage).toBeDefined();
    const harvests = await db("recolte").whereIn("idAction", copied).select("idQualifiantRecolte");
    expect(harvests.map((h) => Number(h.idQualifiantRecolte))).toEqual([Number(qualBocage.id), Number(qualBocage.id)]);
    // A second copy reuses what the first created: no duplicate rows in the destination folder.
    await duplicateInterventions(scopeOf(db, redacteur), {
      dossierSource: beauce,
      campagneSource: t.demo().campagnes.tilleuls2025,
      parcelleSource: source,
      dossierDestination: bocage,
      campagneDestination: vallee,
      parcellesDestination: [dest],
    });
    expect(await countRows(db, "intrant_dossier", { idDossier: bocage, libelle: "Digestat essai copie" })).toBe(1);
    expect(await countRows(db, "qualifiant_recolte", { idDossier: bocage, qrdNom: "Qualité essai copie" })).toBe(1);
    // Within the same folder nothing is remapped: the source's rows are kept.
    const [other] = (
      await db("parcelle").where({ idCampagne: t.demo().campagnes.tilleuls2025 }).whereNot({ id: source }).orderBy("id").limit(1).pluck("id")
    ).map(Number);
    await duplicateInterventions(scopeOf(db, redacteur), {
      dossierSource: beauce,
      campagneSource: t.demo().campagnes.tilleuls2025,
      parcelleSource: source,
      dossierDestination: beauce,
      campagneDestination: t.demo().campagnes.tilleuls2025,
      parcellesDestination: [other],
    });
    const same = db("action").where({ idParcelle: other }).orderBy("id", "desc").limit(2).select("id");
    expect(
      (
        await db("intrant")
          .whereIn("idAction", same)
          .where({ dicIdOrigineIntrant: 777 })
          .whereIn("libelleIntrant", ["Digestat essai copie", "Purin d'ortie essai"])
          .select("idIntrant")
      )
        .map((i) => Number(i.idIntrant))
        .sort(),
    ).toEqual([ferti, ferti, phyto, phyto].sort());
    expect((await db("recolte").whereIn("idAction", same).select("idQualifiantRecolte")).map((h) => Number(h.idQualifiantRecolte))).toEqual([qual, qual]);
  });

  test("[C-COPY-08] [C-COPY-09] [C-COPY-10] [C-RIGHTS-21] a campaign's duplication plot by plot in one call gives each destination plot the source plot's rows, every column (references to copied rows remapped), all or nothing, only where the user may write", async () => {
    const db = t.db();
    const redacteur = await selectTilleuls(t, "redacteur", "tilleuls2025");
    const { beauce } = t.demo().dossiers;
    const tilleuls = t.demo().campagnes.tilleuls2025;
    const moulin = t.demo().campagnes.moulin2025;
    // Two source plots: the first with 3 interventions (inputs with characteristics, a seed and its treatment, a target
    // with two target rows, a harvest with characteristics and an observation series), the second with 2 without harvest.
    const { source: plotA, ids } = await sourcePlot(3);
    const [plotB] = (await db("parcelle").where({ idCampagne: tilleuls }).whereNot({ id: plotA }).orderBy("id", "desc").limit(1).pluck("id")).map(Number);
    await db("action").where({ idCampagne: tilleuls, idParcelle: plotB }).del();
    const withSerie = await db("recolte").whereNotNull("idObservationSerie").first();
    const cat = Number((await db("categorie_intrant").first("id")).id);
    const cibles = (await db("cible").orderBy("id").limit(2).pluck("id")).map(Number);
    const ops = (await db("operation_culturale").where({ idCampagne: tilleuls }).orderBy("id").pluck("id")).map(Number);
    for (const [k, idAction] of ids.entries()) {
      await db("action")
        .where({ id: idAction })
        .update({ date: `2025-0${k + 3}-1${k}`, idOperationCulturale: ops[k % ops.length] });
      const seed = await insertId(db, "intrant", { idAction, idCategorie: cat, libelleIntrant: `Semence ${k}`, quantite: 150 + k, dicLlUnite: "kg/ha" });
      const treatment = await insertId(db, "intrant", { idAction, idCategorie: cat, libelleIntrant: `Traitement ${k}`, quantite: 0.5, idIntrantSemence: seed });
      await insertId(db, "caracteristique_intrant", { idIntrant: seed, semenceFerme: 1, semenceCertifiee: 0 });
      const target = await insertId(db, "intrant_cible", { idIntrant: treatment, uniteRefCible1: "l/ha" });
      for (const [rang, idCible] of cibles.entries())
        await insertId(db, "intrant_cible_cible", { idIntrantCible: target, idCible, rang: rang + 1, doseRef: 1.5 * (rang + 1), uniteRef: "l/ha" });
    }
    await db("recolte").whereIn("idAction", ids).update({ idObservationSerie: withSerie.idObservationSerie });
    const action = await db("action").where({ id: ids[0] }).first();
    const idsB = [
      await insertId(db, "action", { ...bare(action), idParcelle: plotB, date: "2025-06-01" }),
      await insertId(db, "action", { ...bare(action), idParcelle: plotB, date: "2025-05-01" }),
    ];
    for (const idAction of idsB) await insertId(db, "intrant", { idAction, idCategorie: cat, libelleIntrant: "Engrais B", quantite: 80 });
    // Destinations: two plots of GAEC du Moulin 2025 for the first source plot, one for the second; they hold interventions.
    const dest = (await db("parcelle").where({ idCampagne: moulin }).orderBy("id").limit(3).pluck("id")).map(Number);
    expect(dest).toHaveLength(3);
    for (const p of dest) await insertId(db, "action", { ...bare(action), idCampagne: moulin, idParcelle: p, idOperationCulturale: null, date: "2025-01-01" });
    const paires = [
      { parcelleSource: plotA, parcellesDestination: [dest[0], dest[1]] },
      { parcelleSource: plotB, parcellesDestination: [dest[2]] },
    ];
    const payload = {
      dossierSource: beauce,
      campagneSource: tilleuls,
      dossierDestination: beauce,
      campagneDestination: moulin,
      paires,
      suppressionInterventionsParcellesDst: "on",
    };

    // Refused, nothing written: the reader; a locked destination campaign; a source plot as a destination; a destination twice.
    const before = await snapshot(
      db,
      "action",
      "intrant",
      "intrant_cible",
      "intrant_cible_cible",
      "caracteristique_intrant",
      "recolte",
      "caracteristique_recolte",
    );
    const lecteur = await selectTilleuls(t, "lecteur", "tilleuls2025");
    await expectRefused(duplicateCampaignInterventions(scopeOf(db, lecteur), payload), "errors.forbidden", 403);
    await db("campagne").where({ id: moulin }).update({ serieValide: true });
    await expectRefused(duplicateCampaignInterventions(scopeOf(db, redacteur), payload), "errors.forbidden", 403);
    await db("campagne").where({ id: moulin }).update({ serieValide: false });
    await expectRefused(
      duplicateCampaignInterventions(scopeOf(db, redacteur), {
        ...payload,
        campagneDestination: tilleuls,
        paires: [
          { parcelleSource: plotA, parcellesDestination: [plotB] },
          { parcelleSource: plotB, parcellesDestination: [dest[0]] },
        ],
      }),
      "warning.invalid-form",
      400,
    );
    await expectRefused(
      duplicateCampaignInterventions(scopeOf(db, redacteur), { ...payload, paires: [paires[0], { parcelleSource: plotB, parcellesDestination: [dest[1]] }] }),
      "warning.invalid-form",
      400,
    );
    // A failure in the last table written: nothing copied, nothing deleted.
    await breakHarvestCharacteristics(db, true);
    await expect(duplicateCampaignInterventions(scopeOf(db, redacteur), payload)).rejects.toMatchObject({ key: "errors.services.actions-copy-service-error" });
    await breakHarvestCharacteristics(db, false);
    expect(
      await snapshot(db, "action", "intrant", "intrant_cible", "intrant_cible_cible", "caracteristique_intrant", "recolte", "caracteristique_recolte"),
    ).toEqual(before);

    expect(await duplicateCampaignInterventions(scopeOf(db, redacteur), payload)).toBe(3 * 2 + 2);
    // Each destination plot holds exactly the copies: the source's rows with the destination's campaign, plot, harvest
    // year and operation of the same name (else none), no observation series, references to copied rows remapped.
    const year = Number((await db("campagne").where({ id: moulin }).first("anneeRecolte")).anneeRecolte);
    const opNames = new Map(
      (await db("operation_culturale").whereIn("idCampagne", [tilleuls, moulin]).select("id", "libelle", "idCampagne")).map((o) => [Number(o.id), o]),
    );
    const moulinOp = (id: unknown) => {
      if (id == null) return null;
      const o = [...opNames.values()].find((x) => Number(x.idCampagne) === moulin && x.libelle === opNames.get(Number(id))!.libelle);
      return o ? Number(o.id) : null;
    };
    const expected = async (plot: number, dst: number) =>
      (await tree(db, plot, tilleuls)).map((a) => ({
        ...a,
        idCampagne: moulin,
        idParcelle: dst,
        anneeRecolte: year,
        idOperationCulturale: moulinOp(a.idOperationCulturale),
        recoltes: (a.recoltes as Record<string, unknown>[]).map((r) => ({ ...r, idObservationSerie: null })),
      }));
    const normal = (rows: Record<string, unknown>[]) =>
      rows.map((a) => ({ ...a, idOperationCulturale: a.idOperationCulturale == null ? null : Number(a.idOperationCulturale) }));
    const fromA = await tree(db, plotA, tilleuls);
    expect(fromA).toHaveLength(3);
    expect(fromA.every((a) => (a.intrants as unknown[]).length >= 3 && (a.recoltes as unknown[]).length === 1)).toBe(true);
    expect(normal(await tree(db, dest[0], moulin))).toEqual(normal(await expected(plotA, dest[0])));
    expect(normal(await tree(db, dest[1], moulin))).toEqual(normal(await expected(plotA, dest[1])));
    expect(normal(await tree(db, dest[2], moulin))).toEqual(normal(await expected(plotB, dest[2])));
    // The sources are untouched (their series kept).
    expect(await countRows(db, "recolte", { idObservationSerie: withSerie.idObservationSerie })).toBeGreaterThanOrEqual(3);
  });
});
