import { describe, expect, test } from "vitest";
import { NewCampagneSchema } from "~/domain/partage";
import { demoUser, scopeOf } from "../../tests/helpers/service";
import { dialect, useTestDb } from "../../tests/helpers/test-db";
import { createCampagne } from "../campagne/service";

const t = useTestDb();

/** The inputs of a campaign's interventions with their characteristics and targets, by intervention date. */
async function inputsOf(idCampagne: number) {
  const db = t.db();
  const rows = await db("intrant as i")
    .join("action as a", "a.id", "i.idAction")
    .leftJoin("caracteristique_intrant as c", "c.idIntrant", "i.id")
    .where("a.idCampagne", idCampagne)
    .orderBy([{ column: "a.idParcelle" }, { column: "a.date" }, { column: "i.id" }])
    .select("i.id", "i.idAction", "i.libelleIntrant", "i.quantite", "i.idIntrantSemence", "c.n", "c.semenceFerme");
  return rows;
}

describe(`campaign duplication copies the inputs of the interventions (${dialect})`, () => {
  test("[A-CAMP-12] [C-SEED-09] a campaign copied with its interventions keeps their inputs, characteristics and seed treatments, pointing to the copies", async () => {
    const db = t.db();
    const { dossiers, exploitations, campagnes } = t.demo();
    const source = campagnes.tilleuls2025;
    // A seed treatment of a demo seed, to follow its link.
    const seed = await db("intrant as i")
      .join("action as a", "a.id", "i.idAction")
      .where({ "a.idCampagne": source, "i.idCategorie": 5381 })
      .first("i.id", "i.idAction");
    await db("intrant").insert({
      idAction: seed.idAction,
      idCategorie: 5397,
      libelleIntrant: "VIBRANCE TRIO",
      idIntrant: 2170753,
      dicIdOrigineIntrant: 776,
      quantite: 0.2,
      dicLlUnite: "l/ha",
      idIntrantSemence: seed.id,
    });
    const before = await inputsOf(source);
    expect(before.length).toBeGreaterThan(10);

    const animateur = await demoUser(db, "animateur");
    const id = await createCampagne(
      scopeOf(db, animateur),
      { idDossier: dossiers.beauce, idExploitation: exploitations.tilleuls },
      NewCampagneSchema.parse({ anneeRecolte: 2026, apiLibelle: "Copie", campagneSource: String(source), inter: "on", majDtInter: "on" }),
    );
    const after = await inputsOf(id);
    const strip = (r: Record<string, unknown>) => ({
      libelle: r.libelleIntrant,
      quantite: Number(r.quantite),
      n: r.n == null ? null : Number(r.n),
      ferme: r.semenceFerme == null ? null : Number(r.semenceFerme),
      treatment: r.idIntrantSemence != null,
    });
    expect(after.map(strip)).toEqual(before.map(strip));
    const copiedIds = new Set(after.map((r) => Number(r.id)));
    const copiedActions = new Set((await db("action").where({ idCampagne: id }).pluck("id")).map(Number));
    for (const r of after) {
      expect(copiedActions.has(Number(r.idAction))).toBe(true);
      if (r.idIntrantSemence != null) expect(copiedIds.has(Number(r.idIntrantSemence))).toBe(true);
    }
  });
});
