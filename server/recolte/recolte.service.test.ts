import { describe, expect, test } from "vitest";
import { NewCampagneSchema } from "~/domain/partage";
import { QualifiantRecolteSchema, RecolteSchema, TYPE_SORTIE_PATURAGE } from "~/domain/recolte";
import { countRows, demoUser, expectRefused, selectTilleuls, snapshot, withBrokenTable, scopeOf } from "../../tests/helpers/service";
import { dialect, useTestDb } from "../../tests/helpers/test-db";
import { createCampagne } from "../campagne/service";
import { parse } from "../errors";
import { listInterventions } from "../intervention/repo";
import { removeInterventions } from "../intervention/service";
import { OBSERVATIONS_SERIE_ERROR } from "./serie";
import {
  CARACTERISTIQUES_RECOLTE_ERROR,
  createQualifiant,
  getRecolte,
  listQualifiants,
  QUALIFIANT_DELETE_ERROR,
  QUALIFIANTS_LOAD_ERROR,
  RECOLTE_UPDATE_ERROR,
  recolteDialogLists,
  RECOLTES_CREATE_ERROR,
  RECOLTES_DELETE_ERROR,
  RECOLTES_LOAD_ERROR,
  removeQualifiant,
  removeRecolte,
  saveRecolte,
  typesSortie,
} from "./service";

/** Harvest products and harvest qualifiers (spec 3 §3.6, §4.1, §4.2; decision 0031), on the demo farm EARL des Tilleuls 2025. */
const t = useTestDb();

async function insertId(table: string, row: Record<string, unknown>): Promise<number> {
  const [r] = await t.db()(table).insert(row).returning("id");
  return typeof r === "object" ? (r as { id: number }).id : (r as number);
}

const BLE = 1; // Blé tendre d'hiver (seeds/reference/culture.json)
const GRAIN = 661;
const PRAIRIE = 28;

async function anAction(idCampagne = t.demo().campagnes.tilleuls2025) {
  const plot = Number((await t.db()("parcelle").where({ idCampagne }).orderBy("id").first("id")).id);
  const op = await insertId("operation_culturale", { idCampagne, idTypeAction: 15, libelle: "Moisson d'essai" });
  const id = await insertId("action", {
    idCampagne,
    idParcelle: plot,
    date: "2025-07-21",
    anneeRecolte: 2025,
    idOperationCulturale: op,
    frequence: 1,
    tauxSurface: 1,
    realisee: true,
    prevue: false,
  });
  return { id, plot };
}

const harvest = (v: Record<string, unknown>) => parse(RecolteSchema, { idCulture: String(BLE), dicIdTypeSortie: String(GRAIN), ...v });

describe(`harvests (${dialect})`, () => {
  test("[C-HARV-13] [C-HARV-14] [C-HARV-15] [C-HARV-16] [C-HARV-17] [C-HARV-21] [C-HARV-30] [C-HARV-31] [C-HARV-32] [C-HARV-33] a harvest is saved with its characteristics and its observation series in one go, and edited", async () => {
    const db = t.db();
    const { id: idAction, plot } = await anAction();
    const redacteur = await selectTilleuls(t, "redacteur", "tilleuls2025");
    const q = await createQualifiant(scopeOf(db, redacteur), parse(QualifiantRecolteSchema, { qrdNom: "Lot essai" }));
    const id = await saveRecolte(
      scopeOf(db, redacteur),
      idAction,
      harvest({ rendement: "8,2", humiditeReference: "15", idQualifiantRecolte: String(q.id), obsRendement: "8,4", obsProteines: "11,7" }),
    );

    const r = await db("recolte").where({ id }).first();
    expect([r.idAction, r.idCulture, r.dicIdTypeSortie, Number(r.rendement), r.idQualifiantRecolte, r.dicLlUnite]).toEqual([
      idAction,
      BLE,
      GRAIN,
      8.2,
      q.id,
      "t/ha",
    ]);
    expect(r).toHaveProperty("createdAt");
    expect(r).toHaveProperty("updatedAt");
    const car = await db("caracteristique_recolte")
      .where({ idRecolte: id })
      .select("dicIdCaracteristiqueRecolte", "dicIdModalite", "valeurNum", "valeurTxt", "dicLlUnite", "unite");
    expect(car.map((c) => [c.dicIdCaracteristiqueRecolte, c.dicIdModalite, Number(c.valeurNum), c.dicLlUnite])).toEqual([[1, null, 15, "%"]]);
    const serie = await db("observation_serie").where({ id: r.idObservationSerie }).first();
    expect([serie.dicIdTypeSerie, serie.nom, serie.idAction, serie.idParcelle, serie.idCulture, serie.idCampagne, serie.idUser]).toEqual([
      1128,
      "Blé tendre d'hiver - Grain (Lot essai)",
      idAction,
      plot,
      BLE,
      t.demo().campagnes.tilleuls2025,
      redacteur.id,
    ]);
    const obs = await db("observation")
      .where({ idObservationSerie: serie.id })
      .orderBy("ordre")
      .select("dicoIdEltObserve", "obsValNum", "dicLlUnite", "idParcelle", "idAction", "idUser");
    expect(obs.map((o) => [o.dicoIdEltObserve, Number(o.obsValNum), o.dicLlUnite, o.idParcelle, o.idAction, o.idUser])).toEqual([
      [1680, 8.4, "t/ha", plot, idAction, redacteur.id],
      [1193, 11.7, "%", plot, idAction, redacteur.id],
    ]);

    // The inputs detail of the grid shows it; its dialog reads it back.
    const [row] = (await listInterventions(db, t.demo().campagnes.tilleuls2025, [plot])).filter((a) => a.id === idAction);
    expect(row.recoltes).toEqual([{ id, libelle: "Blé tendre d'hiver - Grain (Lot essai)", rendement: 8.2, unite: "t/ha" }]);
    const stored = await getRecolte(scopeOf(db, redacteur), id);
    expect(stored).toMatchObject({
      humiditeReference: 15,
      idQualifiantRecolte: q.id,
      serie: { nom: "Blé tendre d'hiver - Grain (Lot essai)", observations: { obsRendement: 8.4, obsProteines: 11.7, obsHuile: null } },
    });

    // An edit renames the same series and rewrites its observations; a second save of the old form is stale.
    await saveRecolte(scopeOf(db, redacteur), idAction, harvest({ rendement: "8", obsHumidite: "14" }), { id, updatedAt: stored.updatedAt });
    const after = await getRecolte(scopeOf(db, redacteur), id);
    expect(after.serie).toMatchObject({ id: serie.id, nom: "Blé tendre d'hiver - Grain", observations: { obsRendement: null, obsHumidite: 14 } });
    expect(after.humiditeReference).toBeNull();
    await expectRefused(saveRecolte(scopeOf(db, redacteur), idAction, harvest({ rendement: "1" }), { id, updatedAt: stored.updatedAt }), "errors.stale", 409);

    // Deleting the harvest deletes its series.
    await removeRecolte(scopeOf(db, redacteur), id);
    expect(await db("observation_serie").where({ id: serie.id }).first()).toBeUndefined();
    expect(await countRows(db, "caracteristique_recolte", { idRecolte: id })).toBe(0);

    // Deleting the intervention deletes its harvests and their series.
    const again = await saveRecolte(scopeOf(db, redacteur), idAction, harvest({ rendement: "7", obsRendement: "7" }));
    const idSerie = (await db("recolte").where({ id: again }).first("idObservationSerie")).idObservationSerie;
    await removeInterventions(scopeOf(db, redacteur), [idAction]);
    expect(await db("recolte").where({ id: again }).first()).toBeUndefined();
    expect(await db("observation_serie").where({ id: idSerie }).first()).toBeUndefined();
  });

  test("[C-HARV-03] [C-HARV-04] [C-HARV-08] [C-HARV-09] [C-HARV-10] a grazing keeps its duration in days and its animal rows, loses its qualifier, and its observations are 0", async () => {
    const db = t.db();
    const { id: idAction } = await anAction();
    const redacteur = await selectTilleuls(t, "redacteur", "tilleuls2025");
    const q = await createQualifiant(scopeOf(db, redacteur), parse(QualifiantRecolteSchema, { qrdNom: "Pâture" }));
    const id = await saveRecolte(
      scopeOf(db, redacteur),
      idAction,
      parse(RecolteSchema, {
        idCulture: String(PRAIRIE),
        dicIdTypeSortie: String(TYPE_SORTIE_PATURAGE),
        dureePaturage: "45",
        rendement: "9",
        idQualifiantRecolte: String(q.id),
        obsRendement: "5",
        animaux: [
          { dicIdModalite: "2", nombre: "35" },
          { dicIdModalite: "5", nombre: "30" },
        ],
      }),
    );
    const r = await db("recolte").where({ id }).first();
    expect([Number(r.rendement), r.dicLlUnite, r.idQualifiantRecolte]).toEqual([45, "jours", null]);
    const stored = await getRecolte(scopeOf(db, redacteur), id);
    expect(stored.animaux).toEqual([
      { dicIdModalite: 2, nombre: 35 },
      { dicIdModalite: 5, nombre: 30 },
    ]);
    expect(Object.values(stored.serie!.observations)).toEqual([0, 0, 0, 0, 0, 0]);
    expect(stored.serie!.nom).toBe("Prairie temporaire - Pâturage");
    // An unknown animal type is a field error; nothing written.
    const before = await snapshot(db, "recolte", "caracteristique_recolte");
    await expectRefused(
      saveRecolte(
        scopeOf(db, redacteur),
        idAction,
        parse(RecolteSchema, { idCulture: String(PRAIRIE), dicIdTypeSortie: "671", animaux: [{ dicIdModalite: "999", nombre: "1" }] }),
      ),
      "warning.invalid-form",
      400,
      { fieldErrors: { "animaux[0].dicIdModalite": ["warning.invalid"] } },
    );
    expect(await snapshot(db, "recolte", "caracteristique_recolte")).toEqual(before);
  });

  test("[C-HARV-06] [C-HARV-12] [C-ERR-30] the output types are the crop's; an output type of another crop is refused", async () => {
    const db = t.db();
    const { id: idAction } = await anAction();
    const redacteur = await selectTilleuls(t, "redacteur", "tilleuls2025");
    expect((await typesSortie(scopeOf(db, redacteur), BLE)).map((x) => x.id)).toEqual([661, 662]);
    expect((await typesSortie(scopeOf(db, redacteur), PRAIRIE)).map((x) => x.id)).toContain(671);
    const lists = await recolteDialogLists(scopeOf(db, redacteur), idAction);
    expect(lists.categorieDefaut).toBe(9017);
    expect(lists.cultures.find((c) => c.id === BLE)).toMatchObject({ idCatCulture: 9017, campagne: true });
    expect(lists.animaux.length).toBeGreaterThan(5);
    await expectRefused(saveRecolte(scopeOf(db, redacteur), idAction, harvest({ dicIdTypeSortie: "671" })), "warning.invalid-form", 400, {
      fieldErrors: { dicIdTypeSortie: ["warning.invalid"] },
    });
  });

  test("[C-RIGHTS-16] a reader, a locked campaign and an intervention of another campaign are refused every harvest write; nothing changes", async () => {
    const db = t.db();
    const { id: idAction } = await anAction();
    const redacteur = await selectTilleuls(t, "redacteur", "tilleuls2025");
    const id = await saveRecolte(scopeOf(db, redacteur), idAction, harvest({ rendement: "8" }));
    const { updatedAt } = await getRecolte(scopeOf(db, redacteur), id);
    const tables = ["recolte", "caracteristique_recolte", "observation_serie", "observation", "qualifiant_recolte"];
    const before = await snapshot(db, ...tables);
    const lecteur = await selectTilleuls(t, "lecteur", "tilleuls2025");
    await expectRefused(saveRecolte(scopeOf(db, lecteur), idAction, harvest({ rendement: "1" })), "errors.forbidden", 403);
    await expectRefused(saveRecolte(scopeOf(db, lecteur), idAction, harvest({ rendement: "1" }), { id, updatedAt }), "errors.forbidden", 403);
    await expectRefused(removeRecolte(scopeOf(db, lecteur), id), "errors.forbidden", 403);
    await expectRefused(createQualifiant(scopeOf(db, lecteur), { qrdNom: "Intrus" }), "errors.forbidden", 403);
    const simulation = await selectTilleuls(t, "redacteur", "tilleuls2025Simulation");
    await expectRefused(saveRecolte(scopeOf(db, simulation), idAction, harvest({ rendement: "1" })), "errors.not-found", 404);
    await expectRefused(removeRecolte(scopeOf(db, simulation), id), RECOLTES_DELETE_ERROR, 404);
    await t.db()("campagne").where({ id: t.demo().campagnes.tilleuls2025 }).update({ serieValide: true });
    try {
      const locked = await selectTilleuls(t, "redacteur", "tilleuls2025");
      await expectRefused(saveRecolte(scopeOf(db, locked), idAction, harvest({ rendement: "1" })), "errors.forbidden", 403);
      await expectRefused(removeRecolte(scopeOf(db, locked), id), "errors.forbidden", 403);
    } finally {
      await t.db()("campagne").where({ id: t.demo().campagnes.tilleuls2025 }).update({ serieValide: false });
    }
    expect(await snapshot(db, ...tables)).toEqual(before);
  });

  test("[C-ERR-10] [C-ERR-12] [C-ERR-14] a failing characteristic or series rolls the whole harvest back, with its catalogued key", async () => {
    const db = t.db();
    const { id: idAction } = await anAction();
    const redacteur = await selectTilleuls(t, "redacteur", "tilleuls2025");
    const id = await saveRecolte(scopeOf(db, redacteur), idAction, harvest({ rendement: "8" }));
    const { updatedAt } = await getRecolte(scopeOf(db, redacteur), id);
    const before = await snapshot(db, "recolte", "caracteristique_recolte", "observation_serie", "observation");
    await withBrokenTable(db, "observation", async (trx) => {
      await expectRefused(saveRecolte(scopeOf(trx, redacteur), idAction, harvest({ rendement: "9", obsRendement: "9" })), OBSERVATIONS_SERIE_ERROR, 500);
      expect(await countRows(trx, "recolte", { idAction })).toBe(1);
    });
    await withBrokenTable(db, "caracteristique_recolte", (trx) =>
      expectRefused(
        saveRecolte(scopeOf(trx, redacteur), idAction, harvest({ rendement: "9", humiditeReference: "15" }), { id, updatedAt }),
        CARACTERISTIQUES_RECOLTE_ERROR,
        500,
      ),
    );
    await withBrokenTable(db, "type_sortie", (trx) =>
      expectRefused(saveRecolte(scopeOf(trx, redacteur), idAction, harvest({ rendement: "9" })), RECOLTES_CREATE_ERROR, 500),
    );
    await withBrokenTable(db, "culture", (trx) =>
      expectRefused(saveRecolte(scopeOf(trx, redacteur), idAction, harvest({ rendement: "9" }), { id, updatedAt }), RECOLTE_UPDATE_ERROR, 500),
    );
    await withBrokenTable(db, "recolte", (trx) => expectRefused(getRecolte(scopeOf(trx, redacteur), id), RECOLTES_LOAD_ERROR, 500));
    expect(await snapshot(db, "recolte", "caracteristique_recolte", "observation_serie", "observation")).toEqual(before);
  });

  test("[A-CAMP-12] a campaign copied with its interventions copies the harvests with their characteristics, and with the observations their series", async () => {
    const db = t.db();
    const animateur = await demoUser(db, "animateur");
    const source = t.demo().campagnes.tilleuls2025;
    const grazing = await db("recolte as r")
      .join("action as a", "a.id", "r.idAction")
      .where({ "a.idCampagne": source, "r.dicIdTypeSortie": 671 })
      .first("r.id");
    expect(grazing).toBeDefined();
    const copy = await createCampagne(
      scopeOf(db, animateur),
      { idDossier: t.demo().dossiers.beauce, idExploitation: t.demo().exploitations.tilleuls },
      NewCampagneSchema.parse({
        anneeRecolte: 2026,
        campagneSource: source,
        inter: true,
        majDtInter: true,
        obs: false,
        eltObserve: false,
        valeur: false,
        prix: false,
      }),
    );
    const copied = await db("recolte as r")
      .join("action as a", "a.id", "r.idAction")
      .where({ "a.idCampagne": copy, "r.dicIdTypeSortie": 671 })
      .first("r.id", "r.rendement", "r.dicLlUnite");
    expect([Number(copied.rendement), copied.dicLlUnite]).toEqual([21, "jours"]);
    const animals = await db("caracteristique_recolte").where({ idRecolte: copied.id }).orderBy("ordre").select("dicIdModalite", "valeurNum");
    expect(animals.map((a) => [a.dicIdModalite, Number(a.valeurNum)])).toEqual([
      [7, 220],
      [8, 15],
    ]);
    const sourceCount = await db("caracteristique_recolte as c")
      .join("recolte as r", "r.id", "c.idRecolte")
      .join("action as a", "a.id", "r.idAction")
      .where("a.idCampagne", source)
      .count<{ n: number }[]>({ n: "*" })
      .first();
    const copyCount = await db("caracteristique_recolte as c")
      .join("recolte as r", "r.id", "c.idRecolte")
      .join("action as a", "a.id", "r.idAction")
      .where("a.idCampagne", copy)
      .count<{ n: number }[]>({ n: "*" })
      .first();
    expect(Number(copyCount?.n)).toBe(Number(sourceCount?.n));
    // Without the observations option the copies have no series; with it, each points to its series' copy.
    expect(
      await db("recolte as r").join("action as a", "a.id", "r.idAction").where("a.idCampagne", copy).whereNotNull("r.idObservationSerie").first("r.id"),
    ).toBeUndefined();
    const simulation = await createCampagne(
      scopeOf(db, animateur),
      { idDossier: t.demo().dossiers.beauce, idExploitation: t.demo().exploitations.tilleuls },
      NewCampagneSchema.parse({
        anneeRecolte: 2027,
        campagneSource: source,
        inter: true,
        majDtInter: true,
        obs: true,
        eltObserve: true,
        valeur: true,
        prix: false,
      }),
    );
    const linked = await db("recolte as r")
      .join("action as a", "a.id", "r.idAction")
      .join("observation_serie as s", "s.id", "r.idObservationSerie")
      .where("a.idCampagne", simulation)
      .select("s.idCampagne", "s.idAction", "a.id as idAction2", "s.nom");
    expect(linked.length).toBeGreaterThan(0);
    for (const l of linked) expect([l.idCampagne, l.idAction]).toEqual([simulation, l.idAction2]);
    expect(linked.map((l) => l.nom)).toContain("Mélange d'interculture (couvert multi-espèces) - Pâturage");
  });
});

describe(`harvest qualifiers (${dialect})`, () => {
  test("[C-QUAL-01] [C-QUAL-02] [C-QUAL-06] a folder's qualifiers: created from typed text, listed for the selected folder only", async () => {
    const db = t.db();
    const redacteur = await selectTilleuls(t, "redacteur", "tilleuls2025");
    const created = await createQualifiant(scopeOf(db, redacteur), parse(QualifiantRecolteSchema, { qrdNom: " Lot bio " }));
    expect(created.qrdNom).toBe("Lot bio");
    expect((await createQualifiant(scopeOf(db, redacteur), { qrdNom: "Lot bio" })).id).toBe(created.id);
    const row = await db("qualifiant_recolte").where({ id: created.id }).first();
    expect(Object.keys(row).sort()).toEqual(["createdAt", "id", "idDossier", "qrdNom", "qrdRemarque", "updatedAt"]);
    expect(row.idDossier).toBe(t.demo().dossiers.beauce);
    await insertId("qualifiant_recolte", { idDossier: t.demo().dossiers.bocage, qrdNom: "Qualifiant du Bocage" });
    const names = (await listQualifiants(scopeOf(db, redacteur))).map((q) => q.qrdNom);
    expect(names).toContain("Lot bio");
    expect(names).toContain("Livré à la coopérative");
    expect(names).not.toContain("Qualifiant du Bocage");
    expect(() => parse(QualifiantRecolteSchema, { qrdNom: "  " })).toThrow();
  });

  test("[C-QUAL-03] [C-QUAL-04] [C-QUAL-05] a qualifier in use cannot be deleted (the warning of §4.2), nor one of another folder; an unused one can", async () => {
    const db = t.db();
    const { id: idAction } = await anAction();
    const redacteur = await selectTilleuls(t, "redacteur", "tilleuls2025");
    const used = await createQualifiant(scopeOf(db, redacteur), { qrdNom: "Utilisé" });
    await saveRecolte(scopeOf(db, redacteur), idAction, harvest({ idQualifiantRecolte: String(used.id) }));
    await expectRefused(removeQualifiant(scopeOf(db, redacteur), used.id), "interventions.qualifiant-delete-error", 409);
    expect(await db("qualifiant_recolte").where({ id: used.id }).first()).toBeDefined();
    const foreign = await insertId("qualifiant_recolte", { idDossier: t.demo().dossiers.bocage, qrdNom: "Autre dossier" });
    await expectRefused(removeQualifiant(scopeOf(db, redacteur), foreign), QUALIFIANT_DELETE_ERROR, 404);
    expect(await db("qualifiant_recolte").where({ id: foreign }).first()).toBeDefined();
    // A harvest cannot use another folder's qualifier either.
    await expectRefused(saveRecolte(scopeOf(db, redacteur), idAction, harvest({ idQualifiantRecolte: String(foreign) })), "warning.invalid-form", 400, {
      fieldErrors: { idQualifiantRecolte: ["warning.invalid"] },
    });
    // Used by a sale price only: kept too.
    const priced = await createQualifiant(scopeOf(db, redacteur), { qrdNom: "Prix seulement" });
    const anyPrice = await db("prix_vente").where({ idCampagne: t.demo().campagnes.tilleuls2025 }).first("idModeConduite", "idCulture", "idTypeSortie");
    expect(anyPrice).toBeDefined();
    await db("prix_vente").insert({
      ...anyPrice,
      idCampagne: t.demo().campagnes.tilleuls2025,
      idQualifiantRecolte: priced.id,
      cle: `test-qualifiant-${priced.id}`,
    });
    await expectRefused(removeQualifiant(scopeOf(db, redacteur), priced.id), "interventions.qualifiant-delete-error", 409);
    const unused = await createQualifiant(scopeOf(db, redacteur), { qrdNom: "Inutile" });
    await removeQualifiant(scopeOf(db, redacteur), unused.id);
    expect(await db("qualifiant_recolte").where({ id: unused.id }).first()).toBeUndefined();
    // A folder deleted with its qualifiers (its farms staying in other folders) leaves the harvests without qualifier.
    await db("qualifiant_recolte").where({ id: used.id }).delete();
    expect(await db("recolte").where({ idAction }).first("idQualifiantRecolte")).toEqual({ idQualifiantRecolte: null });
  });

  test("[C-ERR-09] qualifier failures use their catalogued keys", async () => {
    const db = t.db();
    const redacteur = await selectTilleuls(t, "redacteur", "tilleuls2025");
    const q = await createQualifiant(scopeOf(db, redacteur), { qrdNom: "Pour la panne" });
    // One broken transaction per call: PostgreSQL refuses any statement after a failed one.
    await withBrokenTable(db, "qualifiant_recolte", (trx) => expectRefused(listQualifiants(scopeOf(trx, redacteur)), QUALIFIANTS_LOAD_ERROR, 500));
    await withBrokenTable(db, "qualifiant_recolte", (trx) =>
      expectRefused(createQualifiant(scopeOf(trx, redacteur), { qrdNom: "x" }), "errors.services.qualifiant_recoltes-create-service-error", 500),
    );
    await withBrokenTable(db, "qualifiant_recolte", (trx) => expectRefused(removeQualifiant(scopeOf(trx, redacteur), q.id), QUALIFIANT_DELETE_ERROR, 500));
  });
});
