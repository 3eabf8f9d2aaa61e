import { describe, expect, test } from "vitest";
import { InterventionGrilleSchema } from "~/domain/intervention";
import { validate } from "~/domain/validation";
import { decodeChoices } from "~/domain/contracts/interventions-codec";
import { dialect, useTestDb } from "../../tests/helpers/test-db";
import { expectRefused, scopeOf, selectTilleuls, snapshot } from "../../tests/helpers/service";
import { registreDeLaCampagne } from "../registre/service";
import { findIntervention } from "./repo";
import { getInterventionsPacked, saveIntervention } from "./service";

const t = useTestDb();

/** What the intervention form posts (texts, as its inputs hold them), parsed as the route's save intent parses it. */
function posted(values: Record<string, string | undefined>) {
  const r = validate(InterventionGrilleSchema, values);
  if (!r.success) return { errors: r.fieldErrors };
  return { value: r.data };
}

describe(`the register's fields in the intervention form (${dialect})`, () => {
  test("[issue28-champs] a writer fills the stage, times and contractor in the form; the register shows them; bad input writes nothing", async () => {
    const db = t.db();
    const writer = await selectTilleuls(t, "redacteur", "tilleuls2025");
    const { campagnes } = t.demo();
    const { stades = [] } = decodeChoices((await getInterventionsPacked(scopeOf(db, writer))).choix);
    const stage = stades.find((s) => s.code === "32")!;
    expect(stage).toBeDefined();
    // A done treatment of the campaign (a register line).
    const treated = await db("intrant as i")
      .join("categorie_intrant as c", "c.id", "i.idCategorie")
      .join("action as a", "a.id", "i.idAction")
      .where({ "a.idCampagne": campagnes.tilleuls2025, "c.idTypeIntrant": 539, "a.realisee": true })
      .orderBy("i.id")
      .first("a.id");
    const row = (await findIntervention(db, Number(treated!.id)))!;
    const form = {
      idParcelle: String(row.idParcelle),
      date: `${row.date.slice(8, 10)}/${row.date.slice(5, 7)}/${row.date.slice(0, 4)}`,
      idOperationCulturale: String(row.idOperationCulturale),
      idCultureConcernee: row.idCultureConcernee == null ? "" : String(row.idCultureConcernee),
      frequence: String(row.frequence).replace(".", ","),
      tauxSurface: String(row.tauxSurface).replace(".", ","),
      realisee: row.realisee ? "on" : undefined,
      prevue: row.prevue ? "on" : undefined,
    };

    // Bad input: the schema names the field, and nothing is saved.
    expect(posted({ ...form, siretPrestataire: "1234567890123" }).errors).toHaveProperty("siretPrestataire");
    expect(posted({ ...form, heureDebut: "25:00" }).errors).toHaveProperty("heureDebut");
    expect(posted({ ...form, heureDebut: "10:00", heureFin: "09:30" }).errors).toHaveProperty("heureFin");
    const before = await snapshot(db, "action");
    const unknownStage = posted({ ...form, idStadeCulture: "999999" }).value!;
    await expectRefused(saveIntervention(scopeOf(db, writer), unknownStage, { id: row.id, updatedAt: row.updatedAt }), "warning.invalid-form", 400, {
      fieldErrors: { idStadeCulture: ["warning.invalid"] },
    });
    expect(await snapshot(db, "action")).toEqual(before);

    const { value } = posted({
      ...form,
      idStadeCulture: String(stage.id),
      precisionStade: "2 nœuds, début montaison",
      heureDebut: "7h05",
      heureFin: "09:40",
      siretPrestataire: "732 829 320 00074",
      lotSemences: "",
    });
    await saveIntervention(scopeOf(db, writer), value!, { id: row.id, updatedAt: row.updatedAt });
    expect(await findIntervention(db, row.id)).toMatchObject({
      idStadeCulture: stage.id,
      precisionStade: "2 nœuds, début montaison",
      heureDebut: "07:05",
      heureFin: "09:40",
      siretPrestataire: "73282932000074",
    });

    const registre = await registreDeLaCampagne(scopeOf(db, writer));
    const lines = registre.lignes.filter((l) => l.idIntervention === row.id);
    expect(lines.length).toBeGreaterThan(0);
    for (const l of lines)
      expect(l).toMatchObject({
        stadeBbch: "32",
        stade: expect.stringContaining("2 nœuds, début montaison"),
        heureDebut: "07:05",
        heureFin: "09:40",
        siretPrestataire: "73282932000074",
      });

    // The form sends every field: emptied fields are stored empty.
    const saved = (await findIntervention(db, row.id))!;
    await saveIntervention(scopeOf(db, writer), posted({ ...form, idStadeCulture: String(stage.id) }).value!, { id: row.id, updatedAt: saved.updatedAt });
    const cleared = (await findIntervention(db, row.id))!;
    expect(cleared.idStadeCulture).toBe(stage.id);
    expect(cleared.siretPrestataire).toBeUndefined();
    expect(cleared.heureDebut).toBeUndefined();
  });

  test("[issue28-champs] a reader cannot write the register's fields through the form's save", async () => {
    const db = t.db();
    const reader = await selectTilleuls(t, "lecteur", "tilleuls2025");
    const row = (await db("action").where({ idCampagne: t.demo().campagnes.tilleuls2025 }).orderBy("id").first("id", "updatedAt"))!;
    const current = (await findIntervention(db, Number(row.id)))!;
    const before = await snapshot(db, "action");
    const value = InterventionGrilleSchema.parse({ ...current, siretPrestataire: "73282932000074" });
    await expectRefused(saveIntervention(scopeOf(db, reader), value, { id: current.id, updatedAt: current.updatedAt }), "errors.forbidden", 403);
    expect(await snapshot(db, "action")).toEqual(before);
  });
});
