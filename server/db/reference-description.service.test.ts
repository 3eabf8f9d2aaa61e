import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { countRows } from "../../tests/helpers/service";
import { useTestDb } from "../../tests/helpers/test-db";
import { bool } from "./dialect";
import { loadOrder, seedReference, type ReferenceFile } from "./seed-reference";

// Reference lists of the farm description (issue 4, spec 2 §3–§9), seeded from seeds/reference/.
const dir = new URL("../../seeds/reference/", import.meta.url);
const files: Array<{ name: string; file: ReferenceFile }> = fs
  .readdirSync(dir)
  .filter((n) => n.endsWith(".json"))
  .sort()
  .map((name) => ({ name, file: JSON.parse(fs.readFileSync(new URL(name, dir), "utf8")) as ReferenceFile }));

/** Tables whose rows hold figures: each row carries its source and confidence. */
const FIGURE_TABLES = ["reference_materiel", "reference_conso_carburant", "reference_valeur", "profondeur_travail", "acidite_sol", "profondeur_sol"];

const { db } = useTestDb();

describe("reference seed files", () => {
  it("each file names its table, source, licence, date and confidence, and has rows with unique integer ids", () => {
    expect(files.length).toBeGreaterThanOrEqual(20);
    for (const { name, file } of files) {
      expect(file.table, name).toMatch(/^[a-z_]+$/);
      expect(name, "one file per table, named after it").toBe(`${file.table.replace(/_/g, "-")}.json`);
      for (const key of ["source", "licence", "date"] as const) expect(file[key], `${name} ${key}`).toEqual(expect.any(String));
      expect(file.source.length, `${name} source`).toBeGreaterThan(20);
      expect(file.date, `${name} date`).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(file.confidence, `${name} confidence`).toEqual(expect.any(String));
      expect(file.rows.length, `${name} rows`).toBeGreaterThan(0);
      const ids = file.rows.map((r) => r.id);
      expect(
        ids.every((id) => Number.isInteger(id) && id > 0),
        `${name} ids`,
      ).toBe(true);
      expect(new Set(ids).size, `${name} unique ids`).toBe(ids.length);
    }
  });

  it("each row of a table holding figures says where its figures come from and how sure they are", () => {
    for (const { name, file } of files.filter((f) => FIGURE_TABLES.includes(f.file.table))) {
      for (const row of file.rows) {
        expect(row.source, `${name} #${row.id} source`).toEqual(expect.any(String));
        expect(row.confiance, `${name} #${row.id} confiance`).toEqual(expect.any(String));
      }
    }
  });

  it("each file stays under 10 MB", () => {
    for (const { name } of files) expect(fs.statSync(new URL(name, dir)).size, name).toBeLessThan(10e6);
  });

  it("loads parents before the lists that refer to them", () => {
    const order = loadOrder(files.map((f) => f.file)).map((f) => f.table);
    for (const { file } of files) {
      for (const dep of file.dependsOn ?? []) expect(order.indexOf(dep), `${dep} before ${file.table}`).toBeLessThan(order.indexOf(file.table));
    }
  });
});

describe("seeded reference lists", () => {
  it("hold exactly the rows of their files", async () => {
    for (const { name, file } of files) {
      // The demo data set adds its own illustrative reference doses (decision 0085, server/demo/seed-demo.ts
      // SOURCE_DOSES_DEMO), marked by their source.
      const q = db()(file.table);
      if (file.table === "reference_dose_cible_ift") q.whereNot("source", "like", "Démonstration Sillon%");
      const [{ n }] = await q.count({ n: "*" });
      expect(Number(n), name).toBe(file.rows.length);
    }
    const sample = files.find((f) => f.file.table === "reference_materiel")!.file.rows[0];
    const row = await db()("reference_materiel").where({ id: sample.id }).first();
    expect(row).toMatchObject({ identifiant: sample.identifiant, libelle: sample.libelle, source: sample.source, confiance: sample.confiance });
    expect(Number(row.prixMoyen)).toBe(sample.prixMoyen);
  });

  it("France is country 26 (spec 2 §4, §9)", async () => {
    expect(await db()("pays").where({ id: 26 }).first()).toMatchObject({ codeIso: "FR", libelle: "France" });
    expect(await countRows(db(), "pays", { codeIso: "FR" })).toBe(1);
  });

  it("has the labour types 951 and 952 (salaried) and 953 (family)", async () => {
    const rows = await db()("type_main_oeuvre").whereIn("id", [951, 952, 953]).orderBy("id");
    expect(rows.map((r) => [r.id, bool(r.salarie)])).toEqual([
      [951, true],
      [952, true],
      [953, false],
    ]);
  });

  it("reads the family norm at index 2 and the salaried norm at index 3 of the reference values", async () => {
    const byOrdre = await db()("reference_valeur").whereIn("ordre", [2, 3]).orderBy("ordre");
    expect(byOrdre.map((r) => r.code)).toEqual(["norme_mo_familiale", "norme_mo_salariee"]);
    for (const r of byOrdre) expect(Number(r.valeur)).toBeGreaterThan(0);
    const fuel = await db()("reference_valeur").where({ code: "prix_fioul" }).first();
    expect(fuel).toMatchObject({ unite: "€/L", annee: expect.any(Number) });
  });

  it("finds a commune by INSEE code with its postal codes and department", async () => {
    const orleans = await db()("commune").where({ ci: "45234" }).first();
    expect(orleans).toMatchObject({ lbl: "Orléans", cp: "45000", numDept: "45" });
    expect(orleans.codesPostaux.split(",")).toEqual(["45000", "45100"]);
    expect(await db()("departement").where({ numDept: "45" }).first()).toMatchObject({ lbl: "Loiret" });
    expect(await db()("commune").where({ ci: "2A004" }).first()).toMatchObject({ lbl: "Ajaccio", numDept: "2A" });
    expect(await countRows(db(), "commune")).toBeGreaterThan(34000);
  });

  it("has the machine categories whose power is shown (1, 2, 8, 12, 13, 17), category 1 being traction", async () => {
    const ids = (await db()("categorie_materiel").whereIn("id", [1, 2, 8, 12, 13, 17]).select("id")).map((r) => r.id).sort((a, b) => a - b);
    expect(ids).toEqual([1, 2, 8, 12, 13, 17]);
    expect(await db()("categorie_materiel").where({ id: 1 }).first()).toMatchObject({ libelle: "Tracteurs" });
    const tractors = await db()("reference_materiel").where({ idCategorieMateriel: 1 });
    expect(tractors.length).toBeGreaterThan(0);
    for (const t of tractors) expect(Number(t.puissance), t.libelle).toBeGreaterThan(0);
    // Every category belongs to a class, every reference machine to a category (foreign keys).
    const orphans = await db()("reference_materiel as r").leftJoin("categorie_materiel as c", "c.id", "r.id_categorie_materiel").whereNull("c.id");
    expect(orphans).toEqual([]);
  });

  it("has operation types with their flags and fuel references", async () => {
    const spraying = await db()("type_action").where({ volumeBouillie: true });
    const irrigation = await db()("type_action").where({ debitIrrigation: true });
    expect(spraying.length).toBeGreaterThan(0);
    expect(irrigation.length).toBeGreaterThan(0);
    const ploughing = await db()("reference_conso_carburant as f").join("type_action as t", "t.id", "f.id_type_action").where("t.libelle", "Labour").first();
    expect(bool(ploughing.profondeurTravail)).toBe(true);
    expect(Number(ploughing.consoReference)).toBe(20);
    expect(Number(ploughing.profondeurReference)).toBe(25);
  });
});

describe("seeding again", () => {
  it("skips unchanged files and restores a table that lost rows", async () => {
    const seeded = await db()("reference_seed").select("nomTable", "hash", "nbLignes");
    expect(seeded.map((r) => r.nomTable).sort()).toEqual(files.map((f) => f.file.table).sort());
    const before = await db()("commune").where({ ci: "45234" }).first();

    await db()("otex").where({ id: 90 }).delete();
    await seedReference(db());

    expect(await countRows(db(), "otex")).toBe(files.find((f) => f.file.table === "otex")!.file.rows.length);
    const after = await db()("commune").where({ ci: "45234" }).first();
    expect(after.updatedAt).toEqual(before.updatedAt);
  });
});
