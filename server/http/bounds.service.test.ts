import { describe, expect, test } from "vitest";
import { MainOeuvreSchema } from "~/domain/main-oeuvre";
import { decimalMax, NUMBER_MAX } from "~/domain/validation";
import { countRows, demoUser, expectRefused, scopeOf } from "../../tests/helpers/service";
import { dialect, useTestDb } from "../../tests/helpers/test-db";
import { selectInContext } from "../contexte/service";
import { saveMainOeuvre } from "../main-oeuvre/service";
import { saveParcelle } from "../parcelle/service";

/**
 * Numbers bounded to what both databases store (issue 10, defect 7): the largest value a form accepts is stored
 * by PostgreSQL as by SQLite (no "numeric field overflow" 500), and one step past it is a 400 before any write.
 */
const t = useTestDb();

async function writer() {
  const db = t.db();
  const { oads, dossiers, exploitations, campagnes } = t.demo();
  const u = await demoUser(db, "redacteur");
  await selectInContext(db, u, { intent: "oad", id: oads.reseauDemo });
  await selectInContext(db, u, { intent: "dossier", id: dossiers.bocage });
  await selectInContext(db, u, { intent: "exploitations", ids: [exploitations.vallee] });
  await selectInContext(db, u, { intent: "campagne", id: campagnes.vallee2025 });
  return { db, u, idCampagne: campagnes.vallee2025 };
}

describe(`number bounds (${dialect})`, () => {
  test("[issue10-7] the largest labour and plot figures are stored; one step past is refused and nothing is written", async () => {
    const { db, u, idCampagne } = await writer();
    const uta = decimalMax(8, 3);
    // The labour service takes the value its route parsed with the form's schema.
    await saveMainOeuvre(scopeOf(db, u), MainOeuvreSchema.parse({ libelle: "Bornes", idTypeUser: "951", uta: String(uta), montant: String(NUMBER_MAX) }));
    const row = await db("main_oeuvre").where({ idCampagne, libelle: "Bornes" }).first("uta", "montant");
    expect([Number(row.uta), Number(row.montant)]).toEqual([uta, NUMBER_MAX]);
    const surface = decimalMax(10, 4);
    await saveParcelle(scopeOf(db, u), {
      libelle: "Parcelle bornes",
      surface: String(surface),
      objectifRendement: String(decimalMax(10, 3)),
      chargesSemences: String(NUMBER_MAX),
    });
    const plot = await db("parcelle").where({ idCampagne, libelle: "Parcelle bornes" }).first("surface", "objectifRendement", "chargesSemences");
    expect([Number(plot.surface), Number(plot.objectifRendement), Number(plot.chargesSemences)]).toEqual([surface, decimalMax(10, 3), NUMBER_MAX]);

    const labours = await countRows(db, "main_oeuvre", { idCampagne });
    const plots = await countRows(db, "parcelle", { idCampagne });
    for (const past of [{ uta: "100000" }, { montant: "100000000" }, { uta: "1e23" }, { montant: "0x1A" }, { uta: 1e23 }]) {
      expect(MainOeuvreSchema.safeParse({ libelle: "Trop", idTypeUser: "951", uta: "1", ...past }).success, JSON.stringify(past)).toBe(false);
    }
    for (const past of [{ surface: "1000000" }, { objectifRendement: "10000000" }, { chargesSemences: "100000000" }]) {
      await expectRefused(saveParcelle(scopeOf(db, u), { libelle: "Trop", surface: "1", ...past }), "warning.invalid-form", 400);
    }
    expect(await countRows(db, "main_oeuvre", { idCampagne })).toBe(labours);
    expect(await countRows(db, "parcelle", { idCampagne })).toBe(plots);
  });
});
