import { describe, expect, test, vi } from "vitest";
import { dialect, useTestDb } from "../../tests/helpers/test-db";
import { expectRefused, selectTilleuls, snapshot, withBrokenTable, scopeOf } from "../../tests/helpers/service";
import type { Db } from "../db/knex";
import {
  AMENAGEMENT_CREATE_ERROR,
  AMENAGEMENT_DELETE_ERROR,
  AMENAGEMENT_LOAD_ERROR,
  AMENAGEMENT_UPDATE_ERROR,
  getAmenagements,
  removeAmenagements,
  saveAmenagement,
} from "./service";

const t = useTestDb();

const contextFor = (username: string, campagne: "tilleuls2025" | "tilleuls2024") => selectTilleuls(t, username, campagne);

async function insertParcelle(db: Db, row: Record<string, unknown>): Promise<number> {
  const [r] = await db("parcelle").insert(row).returning("id");
  return typeof r === "object" ? (r as { id: number }).id : (r as number);
}

const haie = { libelle: "Haie du chemin", idTypeAmenagement: "1", surface: "320,5", remarque: "Charmille", drainee: "on", idAciditeSol: "3" };

describe(`landscape features (${dialect})`, () => {
  test("[B-AMEN-01] [B-AMEN-02] [B-AMEN-03] a writer creates then updates a feature; the screen gets the types (with their unit) and the campaign's plots", async () => {
    const redacteur = await contextFor("redacteur", "tilleuls2025");
    const db = t.db();
    const idCampagne = t.demo().campagnes.tilleuls2025;
    const parcelle = await insertParcelle(db, { idCampagne, libelle: "Les Longues Raies" });
    const elsewhere = await insertParcelle(db, { idCampagne: t.demo().campagnes.tilleuls2024, libelle: "Ailleurs" });
    const id = await saveAmenagement(scopeOf(db, redacteur), { ...haie, idParcelleAdjacente: String(parcelle) });
    let data = await getAmenagements(scopeOf(db, redacteur));
    expect(data.canWrite).toBe(true);
    expect(data.rows[0]).toMatchObject({
      id,
      libelle: "Haie du chemin",
      idTypeAmenagement: 1,
      idParcelleAdjacente: parcelle,
      surface: 320.5,
      drainee: true,
      irrigable: false,
      idAciditeSol: 3,
      idCampagne,
    });
    expect(data.types[0]).toEqual({ id: 1, iaeNom: "Haie", iaeNomEn: "Hedge", iaeNoOrdre: 1, uniteSurface: "ml" });
    expect(data.types.map((ty) => ty.iaeNoOrdre)).toEqual([...data.types.map((ty) => ty.iaeNoOrdre)].sort((a, b) => a - b));
    expect(data.parcelles.map((p) => p.id)).toContain(parcelle);
    expect(data.parcelles.map((p) => p.id)).not.toContain(elsewhere);
    await saveAmenagement(
      scopeOf(db, redacteur),
      { ...haie, idTypeAmenagement: "5", surface: "", idParcelleAdjacente: "" },
      { id, updatedAt: data.rows[0].updatedAt },
    );
    data = await getAmenagements(scopeOf(db, redacteur));
    expect(data.rows[0]).toMatchObject({ id, idTypeAmenagement: 5, surface: undefined, idParcelleAdjacente: undefined });
  });

  test("[B-AMEN-04] [B-AMEN-05] name and type required, surface numeric, known type, adjacent plot of the campaign: refused beside the field, nothing written", async () => {
    const redacteur = await contextFor("redacteur", "tilleuls2025");
    const elsewhere = await insertParcelle(t.db(), { idCampagne: t.demo().campagnes.tilleuls2024, libelle: "Ailleurs" });
    const before = await snapshot(t.db(), "amenagement");
    await expectRefused(saveAmenagement(scopeOf(t.db(), redacteur), {}), "warning.invalid-form", 400, {
      fieldErrors: { libelle: ["warning.required"], idTypeAmenagement: ["warning.required"] },
    });
    await expectRefused(saveAmenagement(scopeOf(t.db(), redacteur), { ...haie, surface: "beaucoup" }), "warning.invalid-form", 400, {
      fieldErrors: { surface: ["warning.numeric"] },
    });
    await expectRefused(saveAmenagement(scopeOf(t.db(), redacteur), { ...haie, idTypeAmenagement: "999" }), "warning.invalid-form", 400, {
      fieldErrors: { idTypeAmenagement: ["warning.invalid"] },
    });
    await expectRefused(saveAmenagement(scopeOf(t.db(), redacteur), { ...haie, idParcelleAdjacente: String(elsewhere) }), "warning.invalid-form", 400, {
      fieldErrors: { idParcelleAdjacente: ["warning.invalid"] },
    });
    expect(await snapshot(t.db(), "amenagement")).toEqual(before);
  });

  test("a stale save is refused", async () => {
    const redacteur = await contextFor("redacteur", "tilleuls2025");
    const id = await saveAmenagement(scopeOf(t.db(), redacteur), haie);
    await expectRefused(saveAmenagement(scopeOf(t.db(), redacteur), haie, { id, updatedAt: "2000-01-01T00:00:00.000Z" }), "errors.stale", 409);
  });

  test("[A-RIGHTS-07] [A-RIGHTS-08] a reader and a locked campaign are refused every write, and nothing changes", async () => {
    const redacteur = await contextFor("redacteur", "tilleuls2025");
    const id = await saveAmenagement(scopeOf(t.db(), redacteur), haie);
    const lecteur = await contextFor("lecteur", "tilleuls2025");
    const before = await snapshot(t.db(), "amenagement");
    await expectRefused(saveAmenagement(scopeOf(t.db(), lecteur), haie), "errors.forbidden", 403);
    await expectRefused(removeAmenagements(scopeOf(t.db(), lecteur), [id]), "errors.forbidden", 403);
    const animateur = await contextFor("animateur", "tilleuls2024");
    await expectRefused(saveAmenagement(scopeOf(t.db(), animateur), haie), "errors.forbidden", 403);
    expect(await snapshot(t.db(), "amenagement")).toEqual(before);
    expect((await getAmenagements(scopeOf(t.db(), lecteur))).canWrite).toBe(false);
  });

  test("deleting removes only features of the selected campaign; an unknown id refuses the whole deletion", async () => {
    const redacteur = await contextFor("redacteur", "tilleuls2025");
    const a = await saveAmenagement(scopeOf(t.db(), redacteur), haie);
    const b = await saveAmenagement(scopeOf(t.db(), redacteur), haie);
    await expectRefused(removeAmenagements(scopeOf(t.db(), redacteur), [a, 999999]), AMENAGEMENT_DELETE_ERROR, 404);
    await removeAmenagements(scopeOf(t.db(), redacteur), [a]);
    const ids = (await getAmenagements(scopeOf(t.db(), redacteur))).rows.map((r) => r.id);
    expect(ids).toContain(b);
    expect(ids).not.toContain(a);
  });

  test("[B-ERR-11] [B-ERR-12] [B-ERR-13] [B-ERR-14] a failed load, create, update or delete reports the catalogued error", async () => {
    const redacteur = await contextFor("redacteur", "tilleuls2025");
    const id = await saveAmenagement(scopeOf(t.db(), redacteur), haie);
    const row = (await getAmenagements(scopeOf(t.db(), redacteur))).rows.find((r) => r.id === id)!;
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const broken = (fn: (trx: Db) => Promise<void>) => withBrokenTable(t.db(), "amenagement", fn);
    await broken(async (trx) => expectRefused(getAmenagements(scopeOf(trx, redacteur)), AMENAGEMENT_LOAD_ERROR, 500));
    await broken(async (trx) => expectRefused(saveAmenagement(scopeOf(trx, redacteur), haie), AMENAGEMENT_CREATE_ERROR, 500));
    await broken(async (trx) => expectRefused(saveAmenagement(scopeOf(trx, redacteur), haie, { id, updatedAt: row.updatedAt }), AMENAGEMENT_UPDATE_ERROR, 500));
    await broken(async (trx) => expectRefused(removeAmenagements(scopeOf(trx, redacteur), [id]), AMENAGEMENT_DELETE_ERROR, 500));
    expect(warn).toHaveBeenCalledTimes(4);
    warn.mockRestore();
  });
});
