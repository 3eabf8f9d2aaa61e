import { describe, expect, test, vi } from "vitest";
import { dialect, useTestDb } from "../../tests/helpers/test-db";
import { expectRefused, selectTilleuls, snapshot, withBrokenTable, scopeOf } from "../../tests/helpers/service";
import { seedDemoAmenagements } from "../demo/seed-lots-amenagements";
import type { Db } from "../db/knex";
import { getLotsParcelle, LOT_CREATE_ERROR, LOT_DELETE_ERROR, LOT_LOAD_ERROR, LOT_UPDATE_ERROR, removeLotsParcelle, saveLotParcelle } from "./service";

const t = useTestDb();

type Campagne = "tilleuls2025" | "tilleuls2024" | "tilleuls2025Simulation";

const contextFor = (username: string, campagne: Campagne) => selectTilleuls(t, username, campagne);

async function insertParcelle(db: Db, row: Record<string, unknown>): Promise<number> {
  const [r] = await db("parcelle").insert(row).returning("id");
  return typeof r === "object" ? (r as { id: number }).id : (r as number);
}

const lot = {
  libelle: "Îlot 40 – La Mare",
  noIlotPac: "040",
  irrigable: "on",
  remarque: "Terres de plateau",
  idTypeSolArvalis: "2",
  reserveUtileMm: "150,5",
  profondeurSolCm: "90",
};

describe(`plot groups (${dialect})`, () => {
  test("[B-LOT-01] [B-LOT-02] [B-LOT-03] a writer creates then updates a group of the selected campaign; the newest comes first", async () => {
    const redacteur = await contextFor("redacteur", "tilleuls2025");
    const { id: first } = await saveLotParcelle(scopeOf(t.db(), redacteur), lot);
    const { id: second } = await saveLotParcelle(scopeOf(t.db(), redacteur), { libelle: "Îlot 41" });
    let { rows, canWrite, lists } = await getLotsParcelle(scopeOf(t.db(), redacteur));
    expect(canWrite).toBe(true);
    expect(lists.typesSolArvalis.length).toBeGreaterThan(0);
    expect(rows.slice(0, 2).map((r) => r.id)).toEqual([second, first]);
    expect(rows[1]).toMatchObject({
      libelle: "Îlot 40 – La Mare",
      noIlotPac: "040",
      irrigable: true,
      drainee: false,
      remarque: "Terres de plateau",
      idTypeSolArvalis: 2,
      reserveUtileMm: 150.5,
      profondeurSolCm: 90,
      idCampagne: t.demo().campagnes.tilleuls2025,
      nbParcelles: 0,
    });
    await saveLotParcelle(scopeOf(t.db(), redacteur), { ...lot, drainee: "on", irrigable: undefined }, { id: first, updatedAt: rows[1].updatedAt });
    ({ rows } = await getLotsParcelle(scopeOf(t.db(), redacteur)));
    expect(rows.find((r) => r.id === first)).toMatchObject({ drainee: true, irrigable: false });
  });

  test("[B-LOT-05] a group without a name is refused beside the field, and nothing is written", async () => {
    const redacteur = await contextFor("redacteur", "tilleuls2025");
    const before = await snapshot(t.db(), "lot_parcelle");
    await expectRefused(saveLotParcelle(scopeOf(t.db(), redacteur), { libelle: " " }), "warning.invalid-form", 400, {
      fieldErrors: { libelle: ["warning.required"] },
    });
    await expectRefused(saveLotParcelle(scopeOf(t.db(), redacteur), { libelle: "x", idAciditeSol: "999" }), "warning.invalid-form", 400, {
      fieldErrors: { idAciditeSol: ["warning.invalid"] },
    });
    expect(await snapshot(t.db(), "lot_parcelle")).toEqual(before);
  });

  test("[B-LOT-06] [B-LOT-07] replicate copies the group's PAC number, flags and soil values onto its plots only; without it the plots keep theirs", async () => {
    const redacteur = await contextFor("redacteur", "tilleuls2025");
    const db = t.db();
    const idCampagne = t.demo().campagnes.tilleuls2025;
    const { id } = await saveLotParcelle(scopeOf(db, redacteur), lot);
    const { id: other } = await saveLotParcelle(scopeOf(db, redacteur), { libelle: "Autre lot" });
    const inLot = await insertParcelle(db, { idCampagne, libelle: "P1", idLot: id, noIlotPac: "999", surface: 4, reserveUtileMm: 80 });
    const inLot2 = await insertParcelle(db, { idCampagne, libelle: "P2", idLot: id, drainee: true });
    const outside = await insertParcelle(db, { idCampagne, libelle: "P3", idLot: other, noIlotPac: "777" });
    const loaded = async () => (await getLotsParcelle(scopeOf(db, redacteur))).rows.find((r) => r.id === id)!;
    expect((await loaded()).nbParcelles).toBe(2);

    // No: the group changes, its plots do not.
    let r = await saveLotParcelle(scopeOf(db, redacteur), { ...lot, noIlotPac: "041", replicate: "false" }, { id, updatedAt: (await loaded()).updatedAt });
    expect(r.replicated).toBe(0);
    expect(await db("parcelle").where({ id: inLot }).first()).toMatchObject({ noIlotPac: "999", libelle: "P1" });

    // Yes: every plot of the group takes the group's values; name, surface and other groups' plots stay.
    r = await saveLotParcelle(scopeOf(db, redacteur), { ...lot, noIlotPac: "042", replicate: "true" }, { id, updatedAt: (await loaded()).updatedAt });
    expect(r.replicated).toBe(2);
    const plots = await db("parcelle").whereIn("id", [inLot, inLot2, outside]).orderBy("id");
    expect(
      plots.map((p) => [
        p.libelle,
        p.noIlotPac,
        Boolean(p.irrigable),
        Boolean(p.drainee),
        p.idTypeSolArvalis,
        p.reserveUtileMm == null ? null : Number(p.reserveUtileMm),
        p.profondeurSolCm,
      ]),
    ).toEqual([
      ["P1", "042", true, false, 2, 150.5, 90],
      ["P2", "042", true, false, 2, 150.5, 90],
      ["P3", "777", false, false, null, null, null],
    ]);
    expect(Number(plots[0].surface)).toBe(4);
  });

  test("a stale save (the group changed since it was loaded) is refused and replicates nothing", async () => {
    const redacteur = await contextFor("redacteur", "tilleuls2025");
    const { id } = await saveLotParcelle(scopeOf(t.db(), redacteur), lot);
    const p = await insertParcelle(t.db(), { idCampagne: t.demo().campagnes.tilleuls2025, libelle: "P stale", idLot: id });
    await expectRefused(
      saveLotParcelle(scopeOf(t.db(), redacteur), { ...lot, replicate: "true" }, { id, updatedAt: "2000-01-01T00:00:00.000Z" }),
      "errors.stale",
      409,
    );
    expect((await t.db()("parcelle").where({ id: p }).first()).noIlotPac).toBeNull();
  });

  test("[A-RIGHTS-07] [A-RIGHTS-08] a reader and a locked campaign are refused every write, and nothing changes", async () => {
    const redacteur = await contextFor("redacteur", "tilleuls2025");
    const { id } = await saveLotParcelle(scopeOf(t.db(), redacteur), lot);
    const lecteur = await contextFor("lecteur", "tilleuls2025");
    const before = await snapshot(t.db(), "lot_parcelle", "parcelle");
    await expectRefused(saveLotParcelle(scopeOf(t.db(), lecteur), lot), "errors.forbidden", 403);
    await expectRefused(removeLotsParcelle(scopeOf(t.db(), lecteur), [id]), "errors.forbidden", 403);
    const animateur = await contextFor("animateur", "tilleuls2024");
    await expectRefused(saveLotParcelle(scopeOf(t.db(), animateur), lot), "errors.forbidden", 403);
    expect(await snapshot(t.db(), "lot_parcelle", "parcelle")).toEqual(before);
    expect((await getLotsParcelle(scopeOf(t.db(), lecteur))).canWrite).toBe(false);
  });

  test("[B-LOT-04] deleting a group keeps its plots, without a group; an unknown or foreign id refuses the whole deletion", async () => {
    const redacteur = await contextFor("redacteur", "tilleuls2025");
    const db = t.db();
    const { id: a } = await saveLotParcelle(scopeOf(db, redacteur), { libelle: "A" });
    const { id: b } = await saveLotParcelle(scopeOf(db, redacteur), { libelle: "B" });
    const p = await insertParcelle(db, { idCampagne: t.demo().campagnes.tilleuls2025, libelle: "Reste", idLot: a });
    await expectRefused(removeLotsParcelle(scopeOf(db, redacteur), [a, 999999]), LOT_DELETE_ERROR, 404);
    expect((await db("parcelle").where({ id: p }).first()).idLot).toBe(a);
    await removeLotsParcelle(scopeOf(db, redacteur), [a]);
    const ids = (await getLotsParcelle(scopeOf(db, redacteur))).rows.map((r) => r.id);
    expect(ids).toContain(b);
    expect(ids).not.toContain(a);
    expect(await db("parcelle").where({ id: p }).first()).toMatchObject({ libelle: "Reste", idLot: null });
  });

  test("[B-ERR-15] [B-ERR-16] a failed load, create, update or delete reports the catalogued error", async () => {
    const redacteur = await contextFor("redacteur", "tilleuls2025");
    const { id } = await saveLotParcelle(scopeOf(t.db(), redacteur), { libelle: "Pour les pannes" });
    const row = (await getLotsParcelle(scopeOf(t.db(), redacteur))).rows.find((r) => r.id === id)!;
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    await withBrokenTable(t.db(), "lot_parcelle", async (trx) => {
      await expectRefused(getLotsParcelle(scopeOf(trx, redacteur)), LOT_LOAD_ERROR, 500);
    });
    await withBrokenTable(t.db(), "lot_parcelle", async (trx) => {
      await expectRefused(saveLotParcelle(scopeOf(trx, redacteur), { libelle: "x" }), LOT_CREATE_ERROR, 500);
    });
    await withBrokenTable(t.db(), "parcelle", async (trx) => {
      await expectRefused(
        saveLotParcelle(scopeOf(trx, redacteur), { libelle: "y", replicate: "true" }, { id, updatedAt: row.updatedAt }),
        LOT_UPDATE_ERROR,
        500,
      );
    });
    await withBrokenTable(t.db(), "parcelle", async (trx) => {
      await expectRefused(removeLotsParcelle(scopeOf(trx, redacteur), [id]), LOT_DELETE_ERROR, 500);
    });
    expect(warn).toHaveBeenCalledTimes(4);
    warn.mockRestore();
    expect((await t.db()("lot_parcelle").where({ id }).first()).libelle).toBe("Pour les pannes");
  });

  test("the demo data: groups with PAC numbers and soil values on every demo campaign; features beside the campaign's plots", async () => {
    const db = t.db();
    const { campagnes } = t.demo();
    for (const name of ["tilleuls2024", "tilleuls2025", "tilleuls2025Simulation"]) {
      const lots = await db("lot_parcelle").where({ idCampagne: campagnes[name] }).orderBy("id");
      expect(lots.map((l) => l.libelle).slice(0, 3)).toEqual(["Îlot 12 – Les Grands Champs", "Îlot 7 – La Vallée Sèche", "Îlot 3 – Le Bas des Prés"]);
      expect(lots[0]).toMatchObject({ noIlotPac: "12", profondeurSolCm: 120 });
      expect(lots[0].idTypeSolArvalis).not.toBeNull();
      expect((await db("amenagement").where({ idCampagne: campagnes[name] })).length).toBeGreaterThanOrEqual(3);
    }
    for (const name of ["moulin2024", "moulin2025"]) {
      expect((await db("lot_parcelle").where({ idCampagne: campagnes[name] })).map((l) => l.noIlotPac)).toEqual(expect.arrayContaining(["5", "9"]));
    }
    for (const name of ["vallee2024", "vallee2025"]) {
      expect((await db("lot_parcelle").where({ idCampagne: campagnes[name] }).orderBy("id")).map((l) => l.noIlotPac)).toEqual(["1", "2"]);
    }
    const valleeFeatures = async () => (await db("amenagement").where({ idCampagne: campagnes.vallee2025 }).orderBy("id")).map((f) => f.libelle);
    expect(await valleeFeatures()).toEqual(["Haie bocagère du Pré", "Mare de la Vallée"]);
    // Features take the campaign's plots, in order, as adjacent plots (on a campaign emptied first, rolled back).
    await db
      .transaction(async (trx) => {
        const idCampagne = campagnes.vallee2025;
        await trx("amenagement").where({ idCampagne }).delete();
        await trx("parcelle").where({ idCampagne }).delete();
        const plots = [await insertParcelle(trx, { idCampagne, libelle: "Un" }), await insertParcelle(trx, { idCampagne, libelle: "Deux" })];
        await seedDemoAmenagements(trx, { tilleuls2025: idCampagne });
        const features = await trx("amenagement").where({ idCampagne }).orderBy("id");
        expect(features.map((f) => [f.libelle, f.idParcelleAdjacente])).toEqual([
          ["Haie du chemin de Beaugency", plots[0]],
          ["Mare de la Cour", plots[1]],
          ["Bande enherbée du ru", plots[0]],
        ]);
        throw new Error("rollback-on-purpose");
      })
      .catch((e: Error) => {
        if (e.message !== "rollback-on-purpose") throw e;
      });
    expect(await valleeFeatures()).toEqual(["Haie bocagère du Pré", "Mare de la Vallée"]);
  });
});
