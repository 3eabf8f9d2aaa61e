import { describe, expect, test } from "vitest";
import { FUEL_ROW_ID } from "~/domain/prix";
import { NewCampagneSchema } from "~/domain/partage";
import { countRows, demoUser, expectRefused, selectTilleuls, snapshot, scopeOf } from "../../tests/helpers/service";
import { dialect, useTestDb } from "../../tests/helpers/test-db";
import { createCampagne } from "../campagne/service";
import { cleAppro } from "./repo";
import { getPrixAppro, getPrixPropose, getPrixVente, removeUnusedAppro, removeUnusedVente, savePrixApproGrid, savePrixVenteGrid } from "./service";

const t = useTestDb();

async function insertId(table: string, row: Record<string, unknown>): Promise<number> {
  const [r] = await t.db()(table).insert(row).returning("id");
  return typeof r === "object" ? (r as { id: number }).id : (r as number);
}

/** A new "other" input (category 5431) on the first intervention of a campaign. */
async function addInput(idCampagne: number, libelle: string, unite = "autre") {
  const action = await t.db()("action").where({ idCampagne }).orderBy("id").first("id");
  return insertId("intrant", { idAction: action.id, idCategorie: 5431, libelleIntrant: libelle, dicIdOrigineIntrant: 776, quantite: 1, dicLlUnite: unite });
}

const edit = (r: { id: number; updatedAt: string }, prixAchat: unknown) => ({ id: r.id, updatedAt: r.updatedAt, values: { prixAchat } });

describe(`supply prices (${dialect})`, () => {
  test("[C-PAPPRO-02] [C-PAPPRO-07] [C-PAPPRO-09] [C-PAPPRO-26] the fuel row comes first; then one row per product the campaign's inputs use, a new input without a price", async () => {
    const redacteur = await selectTilleuls(t, "redacteur", "tilleuls2025");
    const idCampagne = t.demo().campagnes.tilleuls2025;
    await addInput(idCampagne, "Ficelle test", "kg/ha");
    const data = await getPrixAppro(scopeOf(t.db(), redacteur));
    expect(data.canWrite).toBe(true);
    const fioul = await t.db()("caracteristique").where({ idCampagne }).first("prixFioul");
    expect(data.rows[0]).toMatchObject({ id: FUEL_ROW_ID, fioul: true, unite: "L", prixAchat: Number(fioul.prixFioul) });
    const added = data.rows.find((r) => r.libelleIntrant === "Ficelle test")!;
    expect(added).toMatchObject({ idTypeIntrant: 543, idOrigineIntrant: 776, unite: "KG/HA", prixAchat: null, utilise: true, traitementSemence: false });
    // Every product used is there once; every row is a stored prix_appro row of the campaign.
    const used = await t
      .db()("intrant as i")
      .join("action as a", "a.id", "i.idAction")
      .where("a.idCampagne", idCampagne)
      .countDistinct({ n: "i.libelleIntrant" })
      .first();
    expect(data.rows.length - 1).toBeGreaterThanOrEqual(Number(used!.n));
    expect(await countRows(t.db(), "prix_appro", { idCampagne })).toBe(data.rows.length - 1);
    // A second load creates nothing more.
    await getPrixAppro(scopeOf(t.db(), redacteur));
    expect(await countRows(t.db(), "prix_appro", { idCampagne })).toBe(data.rows.length - 1);
  });

  test("[C-PAPPRO-08] [C-PAPPRO-16] [C-PAPPRO-17] the changed rows and the fuel price are saved in one call, prices rounded to 4 decimals", async () => {
    const redacteur = await selectTilleuls(t, "redacteur", "tilleuls2025");
    const idCampagne = t.demo().campagnes.tilleuls2025;
    const { rows } = await getPrixAppro(scopeOf(t.db(), redacteur));
    const [fuel, a, b] = rows;
    const { saved } = await savePrixApproGrid(scopeOf(t.db(), redacteur), [edit(fuel, "1,23456"), edit(a, 12.345678), edit(b, "0,5")]);
    expect(saved.map((s) => s.index)).toEqual([0, 1, 2]);
    expect(Number((await t.db()("caracteristique").where({ idCampagne }).first("prixFioul")).prixFioul)).toBe(1.2346);
    expect(Number((await t.db()("prix_appro").where({ id: a.id }).first("prixAchat")).prixAchat)).toBe(12.3457);
    expect(Number((await t.db()("prix_appro").where({ id: b.id }).first("prixAchat")).prixAchat)).toBe(0.5);
    // The fuel price is the campaign's economic characteristic: no prix_appro row holds it.
    expect(await countRows(t.db(), "prix_appro", { id: FUEL_ROW_ID })).toBe(0);
  });

  test("[C-PAPPRO-24] [issue13-atomic] an invalid price among many leaves every price unchanged", async () => {
    const redacteur = await selectTilleuls(t, "redacteur", "tilleuls2025");
    const { rows } = await getPrixAppro(scopeOf(t.db(), redacteur));
    const products = rows.slice(1);
    const before = await snapshot(t.db(), "prix_appro", "caracteristique");
    await expectRefused(savePrixApproGrid(scopeOf(t.db(), redacteur), [edit(products[0], "abc"), edit(products[1], 2)]), "warning.invalid-form", 400, {
      fieldErrors: { "patches.0.values.prixAchat": ["warning.numeric"] },
    });
    await expectRefused(
      savePrixApproGrid(scopeOf(t.db(), redacteur), [
        edit(rows[0], 4),
        edit(products[0], 2),
        { id: products[1].id, updatedAt: products[1].updatedAt, values: {} },
      ]),
      "warning.invalid-form",
      400,
      { fieldErrors: { "patches.2.values.prixAchat": ["warning.required"] } },
    );
    expect(await snapshot(t.db(), "prix_appro", "caracteristique")).toEqual(before);
  });

  test("[issue29-conflicts] one stale row and two fresh rows: the fresh ones are saved, the stale one comes back with the other user's price (and so does a stale fuel price)", async () => {
    const redacteur = await selectTilleuls(t, "redacteur", "tilleuls2025");
    const { rows } = await getPrixAppro(scopeOf(t.db(), redacteur));
    const [fuel, a, b, c] = rows;
    // Someone else saves row b after this grid loaded it.
    const other = await savePrixApproGrid(scopeOf(t.db(), redacteur), [edit(b, 7)]);
    const price = async (id: number) => Number((await t.db()("prix_appro").where({ id }).first("prixAchat")).prixAchat);
    const result = await savePrixApproGrid(scopeOf(t.db(), redacteur), [edit(a, 3), edit(b, 3), edit(c, 3)]);
    expect(result.saved.map((s) => s.index)).toEqual([0, 2]);
    expect(result.conflicts).toEqual([
      { index: 1, id: b.id, key: "errors.stale", label: expect.any(String), updatedAt: other.saved[0].updatedAt, values: { prixAchat: 7 } },
    ]);
    expect([await price(a.id), await price(b.id), await price(c.id)]).toEqual([3, 7, 3]);
    // The fuel price changed by someone else (economic characteristics): the rows are saved, the fuel price set aside.
    const fresh = (await getPrixAppro(scopeOf(t.db(), redacteur))).rows;
    await t
      .db()("caracteristique")
      .where({ idCampagne: t.demo().campagnes.tilleuls2025 })
      .update({ prixFioul: 1.5, updatedAt: new Date(Date.now() + 5000) });
    const withFuel = await savePrixApproGrid(scopeOf(t.db(), redacteur), [edit(fresh[0], 1), edit(fresh[1], 9)]);
    expect(withFuel.saved.map((s) => s.index)).toEqual([1]);
    expect(withFuel.conflicts).toEqual([{ index: 0, id: fuel.id, key: "errors.stale", updatedAt: expect.any(String), values: { prixAchat: 1.5 } }]);
    expect(await price(fresh[1].id)).toBe(9);
    expect(Number((await t.db()("caracteristique").where({ idCampagne: t.demo().campagnes.tilleuls2025 }).first("prixFioul")).prixFioul)).toBe(1.5);
    // A row of another campaign is answered as gone, and not written.
    const elsewhere = await insertId("prix_appro", { idCampagne: t.demo().campagnes.moulin2025, cle: "x|1", idTypeIntrant: 543, libelleIntrant: "Autre" });
    const o = await t.db()("prix_appro").where({ id: elsewhere }).first("id", "updatedAt");
    const gone = await savePrixApproGrid(scopeOf(t.db(), redacteur), [edit({ id: o.id, updatedAt: new Date(o.updatedAt).toISOString() }, 1)]);
    expect(gone).toEqual({ saved: [], conflicts: [{ index: 0, id: o.id, key: "errors.not-found", updatedAt: null, values: null }] });
    expect((await t.db()("prix_appro").where({ id: elsewhere }).first("prixAchat")).prixAchat).toBeNull();
  });

  test("[C-RIGHTS-05] [C-RIGHTS-06] [A-RIGHTS-07] a reader and a locked campaign: read-only screen, saves and deletions refused, nothing created or changed", async () => {
    const idCampagne = t.demo().campagnes.tilleuls2025;
    await addInput(idCampagne, "Produit vu du lecteur");
    const lecteur = await selectTilleuls(t, "lecteur", "tilleuls2025");
    const before = await snapshot(t.db(), "prix_appro", "caracteristique");
    const data = await getPrixAppro(scopeOf(t.db(), lecteur));
    expect(data.canWrite).toBe(false);
    // The product not stored yet is shown, unstored (a reader's read writes nothing).
    expect(data.rows.find((r) => r.libelleIntrant === "Produit vu du lecteur")).toMatchObject({ prixAchat: null });
    expect(data.rows.find((r) => r.libelleIntrant === "Produit vu du lecteur")!.id).toBeLessThan(0);
    const stored = data.rows.filter((r) => r.id > 0);
    await expectRefused(
      savePrixApproGrid(
        scopeOf(t.db(), lecteur),
        stored.slice(0, 2).map((r) => edit(r, 1)),
      ),
      "errors.forbidden",
      403,
    );
    await expectRefused(removeUnusedAppro(scopeOf(t.db(), lecteur)), "errors.forbidden", 403);
    expect(await snapshot(t.db(), "prix_appro", "caracteristique")).toEqual(before);
    // A locked campaign (2024: indicators published) is refused to its animator too.
    const animateur = await selectTilleuls(t, "animateur", "tilleuls2024");
    const locked = await getPrixAppro(scopeOf(t.db(), animateur));
    expect(locked.canWrite).toBe(false);
    const lockedBefore = await snapshot(t.db(), "prix_appro", "caracteristique");
    await expectRefused(
      savePrixApproGrid(
        scopeOf(t.db(), animateur),
        locked.rows
          .filter((r) => r.id > 0)
          .slice(0, 1)
          .map((r) => edit(r, 1)),
      ),
      "errors.forbidden",
      403,
    );
    await expectRefused(removeUnusedAppro(scopeOf(t.db(), animateur)), "errors.forbidden", 403);
    expect(await snapshot(t.db(), "prix_appro", "caracteristique")).toEqual(lockedBefore);
  });

  test("[C-PAPPRO-21] [C-PAPPRO-22] 'delete unused products' removes the rows no input uses any more, and only them", async () => {
    const redacteur = await selectTilleuls(t, "redacteur", "tilleuls2025");
    const idCampagne = t.demo().campagnes.tilleuls2025;
    const input = await addInput(idCampagne, "Produit abandonné");
    const withIt = await getPrixAppro(scopeOf(t.db(), redacteur));
    const row = withIt.rows.find((r) => r.libelleIntrant === "Produit abandonné")!;
    expect(row.utilise).toBe(true);
    await t.db()("intrant").where({ id: input }).delete();
    const after = await getPrixAppro(scopeOf(t.db(), redacteur));
    expect(after.rows.find((r) => r.id === row.id)?.utilise).toBe(false);
    const unused = after.rows.filter((r) => !r.utilise).length;
    expect(await removeUnusedAppro(scopeOf(t.db(), redacteur))).toBe(unused);
    const reloaded = await getPrixAppro(scopeOf(t.db(), redacteur));
    expect(reloaded.rows.some((r) => r.id === row.id)).toBe(false);
    expect(reloaded.rows.length).toBe(after.rows.length - unused);
    expect(reloaded.rows.every((r) => r.utilise)).toBe(true);
  });
});

describe(`demo prices (${dialect})`, () => {
  test("[issue13-demo] the demo campaigns have their prices: most rows priced, a few left for the 'unspecified price' filter", async () => {
    const db = t.db();
    const c = t.demo().campagnes;
    for (const idCampagne of [c.tilleuls2024, c.tilleuls2025, c.moulin2025, c.vallee2025]) {
      const rows = await db("prix_appro").where({ idCampagne }).select("prixAchat");
      expect(rows.length).toBeGreaterThan(10);
      expect(rows.filter((r) => r.prixAchat != null).length / rows.length).toBeGreaterThan(0.7);
    }
    const unpriced = await db("prix_appro").where({ idCampagne: c.tilleuls2025 }).whereNull("prixAchat").count({ n: "*" }).first();
    expect(Number(unpriced!.n)).toBeGreaterThan(0);
    const ventes = await db("prix_vente").where({ idCampagne: c.tilleuls2025 }).select("prixVente");
    expect(ventes.length).toBeGreaterThan(2);
    expect(ventes.filter((v) => v.prixVente == null)).toHaveLength(1);
    expect(await countRows(db, "prix_vente", { idCampagne: c.tilleuls2024 })).toBeGreaterThan(2);
  });
});

describe(`proposed prices (${dialect})`, () => {
  test("[C-PAPPRO-11] [C-PAPPRO-12] [C-PAPPRO-13] [C-PAPPRO-14] statistics over the other readable non-simulation campaigns and over this harvest year; the reference price to 2 decimals", async () => {
    const db = t.db();
    const c = t.demo().campagnes;
    const phyto = await db("intrant_phyto").orderBy("id").first("id");
    const key = {
      idOrigineIntrant: 773,
      idTypeIntrant: 539,
      idIntrant: Number(phyto.id),
      idModalite: null,
      traitementSemence: false,
      libelleIntrant: "Produit statistique",
      unite: "L/HA",
    };
    const cle = cleAppro(key);
    const put = (idCampagne: number, prixAchat: number | null) =>
      insertId("prix_appro", { idCampagne, cle, ...key, libelleIntrantConcat: key.libelleIntrant, prixAchat });
    const own = await put(c.tilleuls2025, 50); // the row itself: not in its own statistics
    await put(c.tilleuls2024, 10);
    await put(c.moulin2024, 12);
    await put(c.moulin2025, 14);
    await put(c.vallee2025, 20); // Bocage: the redacteur reads it, the lecteur does not
    await put(c.vallee2024, null); // no price: not counted
    await put(c.tilleuls2025Simulation, 100); // a simulation: not counted
    await insertId("prix_phytcom", {
      idIntrantPhyto: Number(phyto.id),
      libelle: "Prix public",
      prixPhytcom: 23.456,
      unite: "€/L",
      datePhytcom: "2025-03-01",
      source: "Barème d'essai, version 2025-03",
    });

    const redacteur = await selectTilleuls(t, "redacteur", "tilleuls2025");
    const p = await getPrixPropose(scopeOf(db, redacteur), own);
    // Hand-computed: 10, 12, 14, 20 → mean 14, median 13, sample sd √(56/3) = 4.3205, cv 30.86 %.
    expect(p.toutes).toEqual({ count: 4, min: 10, max: 20, mean: 14, median: 13, cv: 30.86 });
    // 2025: 14, 20 → mean 17, median 17, sd √18 = 4.2426, cv 24.96 %.
    expect(p.annee).toEqual({ count: 2, min: 14, max: 20, mean: 17, median: 17, cv: 24.96 });
    expect(p.reference).toEqual({
      prixPhytcom: 23.46,
      unite: "€/L",
      datePhytcom: "2025-03-01",
      libelle: "Prix public",
      source: "Barème d'essai, version 2025-03",
    });

    const lecteur = await selectTilleuls(t, "lecteur", "tilleuls2025");
    const l = await getPrixPropose(scopeOf(db, lecteur), own);
    // The lecteur reads Beauce only: 10, 12, 14 → mean 12, sd 2, cv 16.67 %; 2025: 14 alone, no cv.
    expect(l.toutes).toEqual({ count: 3, min: 10, max: 14, mean: 12, median: 12, cv: 16.67 });
    expect(l.annee).toEqual({ count: 1, min: 14, max: 14, mean: 14, median: 14, cv: null });

    // A row of another campaign is not this screen's.
    const foreign = await db("prix_appro").where({ idCampagne: c.moulin2025, cle }).first("id");
    await expectRefused(getPrixPropose(scopeOf(db, redacteur), Number(foreign.id)), "errors.not-found", 404);
  });
});

describe(`sale prices (${dialect})`, () => {
  test("[C-PVENTE-01] [C-PVENTE-05] [C-PVENTE-07] [C-PVENTE-13] [C-PVENTE-15] one row per output harvested by management mode; saved changed rows rounded, an empty price accepted", async () => {
    const redacteur = await selectTilleuls(t, "redacteur", "tilleuls2025");
    const idCampagne = t.demo().campagnes.tilleuls2025;
    const data = await getPrixVente(scopeOf(t.db(), redacteur));
    const used = await t
      .db()("recolte as r")
      .join("action as a", "a.id", "r.idAction")
      .join("parcelle as p", "p.id", "a.idParcelle")
      .where("a.idCampagne", idCampagne)
      .select("p.idModeConduite", "r.idCulture", "r.dicIdTypeSortie", "r.idQualifiantRecolte");
    const keys = new Set(used.map((u) => `${u.idModeConduite}|${u.idCulture}|${u.dicIdTypeSortie}|${u.idQualifiantRecolte}`));
    expect(data.rows.length).toBe(keys.size);
    expect(data.rows.length).toBeGreaterThan(0);
    expect(data.modes.length).toBeGreaterThan(0);
    const [a, b] = data.rows;
    await savePrixVenteGrid(scopeOf(t.db(), redacteur), [
      { id: a.id, updatedAt: a.updatedAt, values: { prixVente: "187,123456" } },
      { id: b.id, updatedAt: b.updatedAt, values: {} },
    ]);
    expect(Number((await t.db()("prix_vente").where({ id: a.id }).first("prixVente")).prixVente)).toBe(187.1235);
    expect((await t.db()("prix_vente").where({ id: b.id }).first("prixVente")).prixVente).toBeNull();
    // [issue29-conflicts] A stale row is set aside with the stored price; the fresh ones are saved.
    const fresh = (await getPrixVente(scopeOf(t.db(), redacteur))).rows.find((r) => r.id === b.id)!;
    const stale = await savePrixVenteGrid(scopeOf(t.db(), redacteur), [
      { id: a.id, updatedAt: a.updatedAt, values: { prixVente: 1 } },
      { id: b.id, updatedAt: fresh.updatedAt, values: { prixVente: 2 } },
    ]);
    expect(stale.saved.map((s) => s.id)).toEqual([b.id]);
    expect(stale.conflicts).toEqual([{ index: 0, id: a.id, key: "errors.stale", updatedAt: expect.any(String), values: { prixVente: 187.1235 } }]);
    expect(Number((await t.db()("prix_vente").where({ id: a.id }).first("prixVente")).prixVente)).toBe(187.1235);
    expect(Number((await t.db()("prix_vente").where({ id: b.id }).first("prixVente")).prixVente)).toBe(2);
    await expectRefused(savePrixVenteGrid(scopeOf(t.db(), redacteur), [{ id: -1, values: { prixVente: 1 } }]), "warning.invalid-form", 400);
  });

  test("[C-PVENTE-09] [C-PVENTE-10] [C-RIGHTS-05] [C-RIGHTS-06] unused sale prices are deleted by a writer; a reader is refused", async () => {
    const redacteur = await selectTilleuls(t, "redacteur", "tilleuls2025");
    const idCampagne = t.demo().campagnes.tilleuls2025;
    const harvest = await t.db()("recolte as r").join("action as a", "a.id", "r.idAction").where("a.idCampagne", idCampagne).first("r.idAction", "r.idCulture");
    const sortie = await t.db()("type_sortie").orderBy("id", "desc").first("id");
    const extra = await insertId("recolte", { idAction: harvest.idAction, idCulture: harvest.idCulture, dicIdTypeSortie: sortie.id, rendement: 1 });
    const withIt = await getPrixVente(scopeOf(t.db(), redacteur));
    const row = withIt.rows.find((r) => r.idTypeSortie === Number(sortie.id) && r.utilise)!;
    expect(row).toBeDefined();
    await t.db()("recolte").where({ id: extra }).delete();
    const lecteur = await selectTilleuls(t, "lecteur", "tilleuls2025");
    const before = await snapshot(t.db(), "prix_vente");
    await expectRefused(removeUnusedVente(scopeOf(t.db(), lecteur)), "errors.forbidden", 403);
    await expectRefused(
      savePrixVenteGrid(scopeOf(t.db(), lecteur), [{ id: row.id, updatedAt: row.updatedAt, values: { prixVente: 1 } }]),
      "errors.forbidden",
      403,
    );
    expect(await snapshot(t.db(), "prix_vente")).toEqual(before);
    expect(await removeUnusedVente(scopeOf(t.db(), redacteur))).toBeGreaterThanOrEqual(1);
    expect((await getPrixVente(scopeOf(t.db(), redacteur))).rows.some((r) => r.id === row.id)).toBe(false);
  });
});

describe(`prices and campaign duplication (${dialect})`, () => {
  test("[issue13-duplication] a new campaign copies the prices with 'duplicate prices', and only then", async () => {
    const db = t.db();
    const animateur = await demoUser(db, "animateur");
    const redacteur = await selectTilleuls(t, "redacteur", "tilleuls2025");
    await getPrixAppro(scopeOf(db, redacteur));
    await getPrixVente(scopeOf(db, redacteur));
    const source = t.demo().campagnes.tilleuls2025;
    const ctx = { idDossier: t.demo().dossiers.beauce, idExploitation: t.demo().exploitations.tilleuls };
    const base = { anneeRecolte: 2026, campagneSource: source, inter: false, majDtInter: false, obs: false, eltObserve: false, valeur: false };
    const withPrices = await createCampagne(scopeOf(db, animateur), ctx, NewCampagneSchema.parse({ ...base, prix: true }));
    const without = await createCampagne(scopeOf(db, animateur), ctx, NewCampagneSchema.parse({ ...base, prix: false }));
    const prices = async (idCampagne: number) =>
      (await db("prix_appro").where({ idCampagne }).orderBy("cle").select("cle", "prixAchat")).map((r) => [
        r.cle,
        r.prixAchat == null ? null : Number(r.prixAchat),
      ]);
    expect(await prices(withPrices)).toEqual(await prices(source));
    expect(await countRows(db, "prix_vente", { idCampagne: withPrices })).toBe(await countRows(db, "prix_vente", { idCampagne: source }));
    // Each copied sale price points to the new campaign's copy of its management mode.
    const modes = await db("prix_vente as v").join("mode_conduite as m", "m.id", "v.idModeConduite").where("v.idCampagne", withPrices).distinct("m.idCampagne");
    expect(modes.map((m) => Number(m.idCampagne))).toEqual([withPrices]);
    expect(await countRows(db, "prix_appro", { idCampagne: without })).toBe(0);
  });
});
