import { describe, expect, test } from "vitest";
import { AutreSchema, EauSchema, FertilisantSchema } from "~/domain/intrant";
import { matiereActiveOf, MATIERES_ERROR, phytoProducts, PHYTOS_ERROR } from "./catalogue";
import { CARACTERISTIQUE_ERROR } from "./service";
import { parse } from "../errors";
import { dialect, useTestDb } from "../../tests/helpers/test-db";
import { expectRefused, selectTilleuls, snapshot, withBrokenTable, scopeOf } from "../../tests/helpers/service";
import { getIntrant, removeIntrant, saveIntrant } from "./service";
import { listInterventions } from "../intervention/repo";

const t = useTestDb();

async function insertId(table: string, row: Record<string, unknown>): Promise<number> {
  const [r] = await t.db()(table).insert(row).returning("id");
  return typeof r === "object" ? (r as { id: number }).id : (r as number);
}

async function anAction() {
  const idCampagne = t.demo().campagnes.tilleuls2025;
  const plot = Number((await t.db()("parcelle").where({ idCampagne }).first("id")).id);
  const op = await insertId("operation_culturale", { idCampagne, idTypeAction: 1, libelle: "Irrigation" });
  return insertId("action", {
    idCampagne,
    idParcelle: plot,
    date: "2025-06-20",
    anneeRecolte: 2025,
    idOperationCulturale: op,
    frequence: 1,
    tauxSurface: 1,
    realisee: true,
    prevue: false,
  });
}

const eau = (quantite: string) => parse(EauSchema, { idCategorie: "5421", quantite, dicLlUnite: "mm" });
const autre = (libelle: string) => parse(AutreSchema, { idCategorie: "5431", libelle, quantite: "3", dicLlUnite: "autre" });

describe(`inputs of an intervention (${dialect})`, () => {
  test("[C-WATER-06] [C-FORM-31] [C-FORM-38] water is the reference input 20011 of origin 776; inputs come newest first; only inputs with a category are read", async () => {
    const idAction = await anAction();
    const redacteur = await selectTilleuls(t, "redacteur", "tilleuls2025");
    const water = await saveIntrant(scopeOf(t.db(), redacteur), idAction, "eau", eau("30"));
    const twine = await saveIntrant(scopeOf(t.db(), redacteur), idAction, "autre", autre("Ficelle sisal"));
    expect(await t.db()("intrant").where({ id: water }).first("idIntrant", "dicIdOrigineIntrant", "libelleIntrant", "dicLlUnite")).toEqual({
      idIntrant: 20011,
      dicIdOrigineIntrant: 776,
      libelleIntrant: "Irrigation par aspersion (enrouleur, rampe, pivot)",
      dicLlUnite: "mm",
    });
    const rows = await listInterventions(t.db(), t.demo().campagnes.tilleuls2025, [
      Number((await t.db()("action").where({ id: idAction }).first("idParcelle")).idParcelle),
    ]);
    const row = rows.find((r) => r.id === idAction)!;
    expect(row.intrants.map((i) => i.id)).toEqual([twine, water]);
    expect(row.intrants[0]).toEqual({ id: twine, type: 543, libelle: "Ficelle sisal", quantite: 3, unite: "autre" });
    const stored = await getIntrant(scopeOf(t.db(), redacteur), water);
    expect(stored).toMatchObject({ type: 542, idCategorie: 5421, quantite: 30, unite: "mm", caracteristique: null, cibles: [] });
  });

  test("an update needs the current token; a category of another type is a field error; nothing changes when refused", async () => {
    const idAction = await anAction();
    const redacteur = await selectTilleuls(t, "redacteur", "tilleuls2025");
    const id = await saveIntrant(scopeOf(t.db(), redacteur), idAction, "eau", eau("30"));
    const { updatedAt } = await getIntrant(scopeOf(t.db(), redacteur), id);
    await saveIntrant(scopeOf(t.db(), redacteur), idAction, "eau", eau("35,5"), { id, updatedAt });
    expect(Number((await t.db()("intrant").where({ id }).first("quantite")).quantite)).toBe(35.5);
    const before = await snapshot(t.db(), "intrant");
    await expectRefused(saveIntrant(scopeOf(t.db(), redacteur), idAction, "eau", eau("40"), { id, updatedAt }), "errors.stale", 409);
    await expectRefused(
      saveIntrant(scopeOf(t.db(), redacteur), idAction, "eau", parse(EauSchema, { idCategorie: "5431", quantite: "1", dicLlUnite: "mm" })),
      "warning.invalid-form",
      400,
      { fieldErrors: { idCategorie: ["warning.invalid"] } },
    );
    // The other kind's dialog cannot rewrite a water input.
    await expectRefused(
      saveIntrant(scopeOf(t.db(), redacteur), idAction, "autre", autre("x"), { id, updatedAt: (await getIntrant(scopeOf(t.db(), redacteur), id)).updatedAt }),
      "errors.services.intrants-update-service-error",
      404,
    );
    expect(await snapshot(t.db(), "intrant")).toEqual(before);
  });

  test("[C-RIGHTS-16] a reader, a locked campaign and an intervention of another campaign are refused every input write", async () => {
    const idAction = await anAction();
    const redacteur = await selectTilleuls(t, "redacteur", "tilleuls2025");
    const id = await saveIntrant(scopeOf(t.db(), redacteur), idAction, "eau", eau("30"));
    const before = await snapshot(t.db(), "intrant");
    const lecteur = await selectTilleuls(t, "lecteur", "tilleuls2025");
    await expectRefused(saveIntrant(scopeOf(t.db(), lecteur), idAction, "eau", eau("1")), "errors.forbidden", 403);
    await expectRefused(removeIntrant(scopeOf(t.db(), lecteur), id), "errors.forbidden", 403);
    const redacteurSimulation = await selectTilleuls(t, "redacteur", "tilleuls2025Simulation");
    await expectRefused(saveIntrant(scopeOf(t.db(), redacteurSimulation), idAction, "eau", eau("1")), "errors.not-found", 404);
    await expectRefused(removeIntrant(scopeOf(t.db(), redacteurSimulation), id), "errors.services.intrants-delete-service-error", 404);
    await t.db()("campagne").where({ id: t.demo().campagnes.tilleuls2025 }).update({ serieValide: true });
    const locked = await selectTilleuls(t, "redacteur", "tilleuls2025");
    await expectRefused(saveIntrant(scopeOf(t.db(), locked), idAction, "eau", eau("1")), "errors.forbidden", 403);
    await t.db()("campagne").where({ id: t.demo().campagnes.tilleuls2025 }).update({ serieValide: false });
    expect(await snapshot(t.db(), "intrant")).toEqual(before);
    await removeIntrant(scopeOf(t.db(), redacteur), id);
    expect(await t.db()("intrant").where({ id }).first()).toBeUndefined();
  });

  test("[C-ERR-11] [C-ERR-13] [C-ERR-15] failures of the input characteristics, active matters and phyto products use their catalogued keys", async () => {
    const idAction = await anAction();
    const redacteur = await selectTilleuls(t, "redacteur", "tilleuls2025");
    const fert = parse(FertilisantSchema, {
      idCategorie: "655",
      idIntrant: String((await t.db()("reference_fertilisant").where({ idTypeFertilisant: 655 }).first("id")).id),
      origine: "776",
      quantite: "100",
      dicLlUnite: "kg/ha",
      n: "33,5",
    });
    await withBrokenTable(t.db(), "caracteristique_intrant", (trx) =>
      expectRefused(saveIntrant(scopeOf(trx, redacteur), idAction, "fertilisant", fert), CARACTERISTIQUE_ERROR, 500),
    );
    await withBrokenTable(t.db(), "matiere_active", (trx) =>
      expectRefused(matiereActiveOf(scopeOf(trx, redacteur), { id: 9800336, origine: 776 }), MATIERES_ERROR, 500),
    );
    await withBrokenTable(t.db(), "intrant_phyto", (trx) => expectRefused(phytoProducts(scopeOf(trx, redacteur), "karate"), PHYTOS_ERROR, 500));
  });
  test("[issue29-fertilisant] a fertiliser picked from the catalogue without a typed composition is saved with its reference one; a typed one wins", async () => {
    const idAction = await anAction();
    const redacteur = await selectTilleuls(t, "redacteur", "tilleuls2025");
    const ref = await t
      .db()("reference_fertilisant")
      .whereNotNull("n")
      .where("n", ">", 0)
      .whereNotNull("idTypeFertilisant")
      .orderBy("id")
      .first("id", "idTypeFertilisant", "n", "p2o5", "k2o", "so3");
    const picked = (extra: Record<string, string> = {}) =>
      parse(FertilisantSchema, {
        idCategorie: String(ref.idTypeFertilisant),
        idIntrant: String(ref.id),
        origine: "776",
        quantite: "150",
        dicLlUnite: "kg/ha",
        ...extra,
      });
    const id = await saveIntrant(scopeOf(t.db(), redacteur), idAction, "fertilisant", picked());
    const stored = await getIntrant(scopeOf(t.db(), redacteur), id);
    expect(stored.caracteristique).toMatchObject({
      n: Number(ref.n),
      p2o5: ref.p2o5 == null ? null : Number(ref.p2o5),
      k2o: ref.k2o == null ? null : Number(ref.k2o),
    });
    // A composition the user typed is stored as typed (the other elements empty).
    const typed = await saveIntrant(scopeOf(t.db(), redacteur), idAction, "fertilisant", picked({ n: "27" }));
    expect((await getIntrant(scopeOf(t.db(), redacteur), typed)).caracteristique).toMatchObject({ n: 27, p2o5: null, k2o: null });
    // An edit that empties the composition takes the reference one again.
    const row = await getIntrant(scopeOf(t.db(), redacteur), typed);
    await saveIntrant(scopeOf(t.db(), redacteur), idAction, "fertilisant", picked(), { id: typed, updatedAt: row.updatedAt });
    expect((await getIntrant(scopeOf(t.db(), redacteur), typed)).caracteristique).toMatchObject({ n: Number(ref.n) });
  });
});
