import { describe, expect, test, vi } from "vitest";
import { MainOeuvreSchema } from "~/domain/main-oeuvre";
import { dialect, useTestDb } from "../../tests/helpers/test-db";
import { expectRefused, selectTilleuls, snapshot, withBrokenTable, scopeOf } from "../../tests/helpers/service";
import { createCampagne } from "../campagne/service";
import type { Db } from "../db/knex";
import { getMainOeuvres, MO_CREATE_ERROR, MO_DELETE_ERROR, MO_LOAD_ERROR, MO_UPDATE_ERROR, removeMainOeuvres, saveMainOeuvre } from "./service";

const t = useTestDb();

const contextFor = (username: string, campagne: "tilleuls2025" | "tilleuls2024") => selectTilleuls(t, username, campagne);

const item = { libelle: "Chef d'exploitation", idTypeUser: 953, uta: 1.5, montant: 12000, remarque: undefined };

describe(`labour (${dialect})`, () => {
  test("[B-LIST-22] [B-LIST-09] [B-LAB-02] [B-LAB-12] a writer creates then updates a labour item of the selected campaign; the newest comes first", async () => {
    const redacteur = await contextFor("redacteur", "tilleuls2025");
    // The demo campaign has its own labour items; the new ones come before them.
    const demo = (await getMainOeuvres(scopeOf(t.db(), redacteur))).rows.map((r) => r.id);
    expect(demo.length).toBeGreaterThan(0);
    const first = await saveMainOeuvre(scopeOf(t.db(), redacteur), item);
    const second = await saveMainOeuvre(scopeOf(t.db(), redacteur), { ...item, libelle: "Salarié", idTypeUser: 951, uta: 1 });
    let { rows } = await getMainOeuvres(scopeOf(t.db(), redacteur));
    expect(rows.map((r) => r.id)).toEqual([second, first, ...demo]);
    expect(rows[1]).toMatchObject({ libelle: "Chef d'exploitation", idTypeUser: 953, uta: 1.5, montant: 12000, idCampagne: t.demo().campagnes.tilleuls2025 });
    await saveMainOeuvre(scopeOf(t.db(), redacteur), { ...item, uta: 2 }, { id: first, updatedAt: rows[1].updatedAt });
    ({ rows } = await getMainOeuvres(scopeOf(t.db(), redacteur)));
    expect(rows.slice(0, 2).map((r) => [r.id, r.uta])).toEqual([
      [second, 1],
      [first, 2],
    ]);
    expect(rows.length).toBe(demo.length + 2);
  });

  test("[B-LAB-04] [B-LAB-05] [B-LAB-06] the screen gets the reference norms read by position: salaried at index 3, family at index 2", async () => {
    const redacteur = await contextFor("redacteur", "tilleuls2025");
    const { normes } = await getMainOeuvres(scopeOf(t.db(), redacteur));
    const rows = await t.db()("reference_valeur").orderBy("ordre").select("valeur");
    expect(normes).toEqual({ salariale: Number(rows[3].valeur), familiale: Number(rows[2].valeur) });
    expect(normes.salariale).toBeGreaterThan(0);
  });

  test("a stale save (the row changed since it was loaded) is refused", async () => {
    const redacteur = await contextFor("redacteur", "tilleuls2025");
    const id = await saveMainOeuvre(scopeOf(t.db(), redacteur), item);
    await expectRefused(saveMainOeuvre(scopeOf(t.db(), redacteur), item, { id, updatedAt: "2000-01-01T00:00:00.000Z" }), "errors.stale", 409);
  });

  test("[A-RIGHTS-07] [A-RIGHTS-08] a reader and a locked campaign are refused every write, and nothing changes", async () => {
    const lecteur = await contextFor("lecteur", "tilleuls2025");
    const before = await snapshot(t.db(), "main_oeuvre");
    await expectRefused(saveMainOeuvre(scopeOf(t.db(), lecteur), item), "errors.forbidden", 403);
    const animateur = await contextFor("animateur", "tilleuls2024");
    await expectRefused(saveMainOeuvre(scopeOf(t.db(), animateur), item), "errors.forbidden", 403);
    expect(await snapshot(t.db(), "main_oeuvre")).toEqual(before);
    expect((await getMainOeuvres(scopeOf(t.db(), lecteur))).canWrite).toBe(false);
  });

  test("[B-ERR-08] deleting removes only rows of the selected campaign; an unknown id refuses the whole deletion with the response status text", async () => {
    const redacteur = await contextFor("redacteur", "tilleuls2025");
    const a = await saveMainOeuvre(scopeOf(t.db(), redacteur), item);
    const b = await saveMainOeuvre(scopeOf(t.db(), redacteur), item);
    await expectRefused(removeMainOeuvres(scopeOf(t.db(), redacteur), [a, 999999]), "404 Not Found", 404);
    expect((await getMainOeuvres(scopeOf(t.db(), redacteur))).rows.map((r) => r.id)).toEqual(expect.arrayContaining([a, b]));
    await removeMainOeuvres(scopeOf(t.db(), redacteur), [a]);
    expect((await getMainOeuvres(scopeOf(t.db(), redacteur))).rows.map((r) => r.id)).not.toContain(a);
  });

  test("[B-ERR-04] [B-ERR-05] [B-ERR-06] [B-ERR-07] a failed load, create, update or delete reports the catalogued labour error", async () => {
    const redacteur = await contextFor("redacteur", "tilleuls2025");
    const id = await saveMainOeuvre(scopeOf(t.db(), redacteur), item);
    const row = (await getMainOeuvres(scopeOf(t.db(), redacteur))).rows.find((r) => r.id === id)!;
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const broken = (fn: (trx: Db) => Promise<void>) => withBrokenTable(t.db(), "main_oeuvre", fn);
    await broken(async (trx) => expectRefused(getMainOeuvres(scopeOf(trx, redacteur)), MO_LOAD_ERROR, 500));
    await broken(async (trx) => expectRefused(saveMainOeuvre(scopeOf(trx, redacteur), item), MO_CREATE_ERROR, 500));
    await broken(async (trx) => expectRefused(saveMainOeuvre(scopeOf(trx, redacteur), item, { id, updatedAt: row.updatedAt }), MO_UPDATE_ERROR, 500));
    await broken(async (trx) => expectRefused(removeMainOeuvres(scopeOf(trx, redacteur), [id]), MO_DELETE_ERROR, 500));
    expect(warn).toHaveBeenCalledTimes(4);
    warn.mockRestore();
    expect(MO_LOAD_ERROR).toBe("errors.services.mo-service-error");
    expect([MO_CREATE_ERROR, MO_UPDATE_ERROR, MO_DELETE_ERROR]).toEqual([
      "errors.services.mo-create-service-error",
      "errors.services.mo-update-service-error",
      "errors.services.mo-delete-service-error",
    ]);
    // Nothing changed.
    expect((await getMainOeuvres(scopeOf(t.db(), redacteur))).rows.find((r) => r.id === id)).toEqual(row);
  });

  test("[B-LAB-07] [B-LAB-08] [B-LAB-09] [B-LAB-10] [B-LAB-11] [B-LAB-03] the labour form's rules", () => {
    const errors = (input: Record<string, unknown>) => {
      const r = MainOeuvreSchema.safeParse(input);
      return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [String(i.path[0]), i.message]));
    };
    expect(errors({})).toMatchObject({ libelle: "warning.required", idTypeUser: "warning.required", uta: "warning.required" });
    expect(errors({ libelle: "x", idTypeUser: "953", uta: "abc" })).toEqual({ uta: "warning.numeric" });
    expect(errors({ libelle: "x", idTypeUser: "953", uta: "0" })).toEqual({ uta: "warning.positive" });
    expect(errors({ libelle: "x", idTypeUser: "953", uta: "1,5", montant: "douze" })).toEqual({ montant: "warning.numeric" });
    expect(errors({ libelle: "x", idTypeUser: "954", uta: "1" })).toEqual({ idTypeUser: "warning.invalid" });
    for (const type of ["951", "952", "953"]) expect(errors({ libelle: "x", idTypeUser: type, uta: "0,5" })).toEqual({});
  });

  test("a new campaign from a source copies its labour, machines and operations with their links", async () => {
    const animateur = await contextFor("animateur", "tilleuls2025");
    const db = t.db();
    const { campagnes, dossiers, exploitations } = t.demo();
    const mo = await saveMainOeuvre(scopeOf(db, animateur), { ...item, libelle: "Ouvrier de la copie" });
    const insert = async (table: string, row: Record<string, unknown>) => {
      const [r] = await db(table).insert(row).returning("id");
      return typeof r === "object" ? (r as { id: number }).id : (r as number);
    };
    const tracteur = await insert("parc_materiel", {
      idCampagne: campagnes.tilleuls2025,
      libelle: "Tracteur 120 ch",
      noClasse: 1,
      noCategorie: 1,
      idCategorieMateriel: 1,
      idBasemeq: 1,
      puissance: 88,
    });
    const charrue = await insert("parc_materiel", {
      idCampagne: campagnes.tilleuls2025,
      libelle: "Charrue 5 corps",
      noClasse: 2,
      noCategorie: 1,
      idCategorieMateriel: 4,
      idBasemeq: 2,
      debit: 0.8,
    });
    const labour = await insert("operation_culturale", {
      idCampagne: campagnes.tilleuls2025,
      idTypeAction: 1,
      libelle: "Labour",
      idMaterielTractant: tracteur,
      profondeurTravail: 25,
    });
    await insert("operation_culturale_materiel", { idOperationCulturale: labour, idParcMateriel: charrue });
    await insert("operation_culturale_main_oeuvre", { idOperationCulturale: labour, idMainOeuvre: mo });

    const id = await createCampagne(
      scopeOf(db, animateur),
      { idDossier: dossiers.beauce, idExploitation: exploitations.tilleuls },
      {
        anneeRecolte: 2026,
        apiLibelle: undefined,
        campagneSource: campagnes.tilleuls2025,
        campagneHistoParcelle: undefined,
        inter: false,
        majDtInter: false,
        obs: false,
        eltObserve: false,
        valeur: false,
        prix: false,
      },
    );
    // Every machine and operation of the source is copied: the demo's and the two added here.
    const libelles = async (table: string, idCampagne: number) => (await db(table).where({ idCampagne }).orderBy(["libelle", "id"])).map((m) => m.libelle);
    expect(await libelles("parc_materiel", id)).toEqual(await libelles("parc_materiel", campagnes.tilleuls2025));
    expect(await libelles("operation_culturale", id)).toEqual(await libelles("operation_culturale", campagnes.tilleuls2025));
    const machines = await db("parc_materiel").where({ idCampagne: id }).whereIn("libelle", ["Charrue 5 corps", "Tracteur 120 ch"]).orderBy("libelle");
    expect(machines.map((m) => m.libelle)).toEqual(["Charrue 5 corps", "Tracteur 120 ch"]);
    const op = await db("operation_culturale").where({ idCampagne: id, libelle: "Labour" }).first();
    expect(op.idMaterielTractant).toBe(machines.find((m) => m.libelle.startsWith("Tracteur"))!.id);
    const towed = await db("operation_culturale_materiel").where({ idOperationCulturale: op.id });
    expect(towed.map((r) => r.idParcMateriel)).toEqual([machines.find((m) => m.libelle.startsWith("Charrue"))!.id]);
    const [copiedMo] = await db("main_oeuvre").where({ idCampagne: id, libelle: "Ouvrier de la copie" });
    const workforce = await db("operation_culturale_main_oeuvre").where({ idOperationCulturale: op.id });
    expect(workforce.map((r) => r.idMainOeuvre)).toEqual([copiedMo.id]);
    // The source keeps its own rows.
    expect((await db("operation_culturale_materiel").where({ idOperationCulturale: labour })).map((r) => r.idParcMateriel)).toEqual([charrue]);
  });
});
