import { describe, expect, test, vi } from "vitest";
import { dialect, useTestDb } from "../../tests/helpers/test-db";
import { demoUser, expectRefused, scopeOf } from "../../tests/helpers/service";
import { selectInContext } from "../contexte/service";
import type { Db } from "../db/knex";
import { CATEGORIE_PRINCIPALE } from "./repo";
import { ASSOLEMENT_LOAD_ERROR, buildAssolement, getAssolement } from "./service";

const t = useTestDb();

async function contextFor(username: string) {
  const user = await demoUser(t.db(), username);
  const { oads, dossiers, exploitations, campagnes } = t.demo();
  await selectInContext(t.db(), user, { intent: "oad", id: oads.reseauDemo });
  await selectInContext(t.db(), user, { intent: "dossier", id: dossiers.beauce });
  await selectInContext(t.db(), user, { intent: "exploitations", ids: [exploitations.tilleuls] });
  await selectInContext(t.db(), user, { intent: "campagne", id: campagnes.tilleuls2025 });
  return user;
}

async function insert(db: Db, table: string, row: Record<string, unknown>): Promise<number> {
  const [r] = await db(table).insert(row).returning("id");
  return typeof r === "object" ? (r as { id: number }).id : (r as number);
}

/** A crop category by code: the reference one when seeded, else a new row. */
async function categorie(db: Db, code: string): Promise<number> {
  const row = await db("categorie_culture").where({ code }).first("id");
  return row ? Number(row.id) : insert(db, "categorie_culture", { code, libelle: code, ordre: 0 });
}

describe(`crop-area breakdown (${dialect})`, () => {
  test("[A-CTX-31] [A-CTX-32] plot surfaces are summed by the main crop of their mode; several main crops give the mode's label; no mode has its own item", async () => {
    const db = t.db();
    const redacteur = await contextFor("redacteur");
    const idCampagne = t.demo().campagnes.tilleuls2025;
    await db("parcelle").where({ idCampagne }).delete();
    const principale = await categorie(db, CATEGORIE_PRINCIPALE);
    const intermediaire = await categorie(db, "intermediaire");
    const ble = await insert(db, "culture", { libelle: "Blé test assolement", libelleEn: "Test wheat", idCatCulture: principale });
    const moutarde = await insert(db, "culture", { libelle: "Moutarde test", idCatCulture: intermediaire });
    const pois = await insert(db, "culture", { libelle: "Pois test", idCatCulture: principale });
    const mode = (libelle: string) => insert(db, "mode_conduite", { idCampagne, libelle });
    const bleConv = await mode("Blé conventionnel test");
    const bleBio = await mode("Blé bio test");
    const asso = await mode("Association blé-pois test");
    // The main crop of a row comes from its own category, else from the crop's default one.
    await insert(db, "mode_conduite_culture", { idModeConduite: bleConv, idCulture: moutarde, idCatCulture: intermediaire, ordre: 0 });
    await insert(db, "mode_conduite_culture", { idModeConduite: bleConv, idCulture: ble, idCatCulture: principale, ordre: 1 });
    await insert(db, "mode_conduite_culture", { idModeConduite: bleBio, idCulture: ble, ordre: 0 });
    await insert(db, "mode_conduite_culture", { idModeConduite: asso, idCulture: ble, idCatCulture: principale, ordre: 0 });
    await insert(db, "mode_conduite_culture", { idModeConduite: asso, idCulture: pois, idCatCulture: principale, ordre: 1 });
    const plot = (libelle: string, surface: number | null, idModeConduite: number | null) =>
      insert(db, "parcelle", { idCampagne, libelle, surface, idModeConduite });
    await plot("A", 10.1234, bleConv);
    await plot("B", 5.5, bleBio);
    await plot("C", 3.3333, asso);
    await plot("D", 2.25, null);
    await plot("E", null, bleConv);
    await insert(db, "parcelle", { idCampagne: t.demo().campagnes.tilleuls2024, libelle: "Autre campagne", surface: 99, idModeConduite: null });

    const { items, total, idCampagne: read } = await getAssolement(scopeOf(db, redacteur));
    expect(read).toBe(idCampagne);
    expect(items.map((i) => [i.kind, i.libelle, i.surface])).toEqual([
      ["culture", "Blé test assolement", 15.6234],
      ["mode", "Association blé-pois test", 3.3333],
      ["sansMode", "", 2.25],
    ]);
    expect(items[0].libelleEn).toBe("Test wheat");
    expect(total).toBe(21.2067);
  });

  test("pure aggregation: zero and empty surfaces add nothing; an unknown mode counts as no mode; a total without float noise", () => {
    const r = buildAssolement(
      [
        { id: 1, surface: 0.1, idModeConduite: 1 },
        { id: 2, surface: 0.2, idModeConduite: 1 },
        { id: 3, surface: 0, idModeConduite: 2 },
        { id: 4, surface: 1, idModeConduite: 42 },
      ],
      [
        { id: 1, libelle: "Sans culture principale" },
        { id: 2, libelle: "Vide" },
      ],
      [],
    );
    expect(r.items).toEqual([
      { key: "sans-mode", kind: "sansMode", libelle: "", libelleEn: null, surface: 1 },
      { key: "mode-1", kind: "mode", libelle: "Sans culture principale", libelleEn: null, surface: 0.3 },
    ]);
    expect(r.total).toBe(1.3);
    expect(buildAssolement([], [], [])).toEqual({ items: [], total: 0 });
  });

  test("a reader may see the breakdown; a failed load reports the catalogued error", async () => {
    const lecteur = await contextFor("lecteur");
    await expect(getAssolement(scopeOf(t.db(), lecteur))).resolves.toMatchObject({ idCampagne: t.demo().campagnes.tilleuls2025 });
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const ROLLBACK = "rollback-on-purpose";
    await t
      .db()
      .transaction(async (trx) => {
        await trx.schema.renameTable("parcelle", "parcelle_hors_service");
        await expectRefused(getAssolement(scopeOf(trx, lecteur)), ASSOLEMENT_LOAD_ERROR, 500);
        throw new Error(ROLLBACK);
      })
      .catch((e: Error) => {
        if (e.message !== ROLLBACK) throw e;
      });
    expect(warn).toHaveBeenCalledTimes(1);
    warn.mockRestore();
  });
});
