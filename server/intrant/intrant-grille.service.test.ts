import { describe, expect, test } from "vitest";
import { EauSchema } from "~/domain/intrant";
import { parse } from "../errors";
import { dialect, useTestDb } from "../../tests/helpers/test-db";
import { expectRefused, selectTilleuls, snapshot, scopeOf } from "../../tests/helpers/service";
import { addIntrantsToActions, getIntrant, intrantsGrille, removeIntrant, removeIntrants, saveIntrant, saveIntrantsGrid } from "./service";

const t = useTestDb();

async function anAction() {
  const idCampagne = t.demo().campagnes.tilleuls2025;
  const plot = Number((await t.db()("parcelle").where({ idCampagne }).first("id")).id);
  const [r] = await t
    .db()("action")
    .insert({ idCampagne, idParcelle: plot, date: "2025-04-20", anneeRecolte: 2025, frequence: 1, tauxSurface: 1, realisee: true, prevue: false })
    .returning("id");
  return typeof r === "object" ? (r as { id: number }).id : (r as number);
}

const aPhyto = async () => {
  const p = await t.db()("intrant_phyto").orderBy("idProduit").first("idProduit", "nomProduit");
  return { key: `776:${p.idProduit}`, nom: String(p.nomProduit) };
};

describe(`[issue29-intrants] the inputs grid of an intervention (${dialect})`, () => {
  test("a new row is a phyto saved by the dialogs' path; an edit keeps the stored details; a stale row is set aside and the others written", async () => {
    const idAction = await anAction();
    const redacteur = await selectTilleuls(t, "redacteur", "tilleuls2025");
    const scope = scopeOf(t.db(), redacteur);
    const water = await saveIntrant(scope, idAction, "eau", parse(EauSchema, { idCategorie: "5421", quantite: "30", dicLlUnite: "mm" }));
    const cible = Number((await t.db()("cible").orderBy("id").first("id")).id);
    const phyto = await aPhyto();

    const first = await saveIntrantsGrid(scope, idAction, [
      { id: -1, updatedAt: null, values: { produit: phyto.key, quantite: "0,75", dicLlUnite: "l/ha", cible1: cible } },
    ]);
    expect(first.conflicts).toEqual([]);
    expect(first.saved).toMatchObject([{ index: 0, sentId: -1, inserted: true }]);
    const created = await getIntrant(scope, first.saved[0].id);
    expect(created).toMatchObject({ type: 539, libelle: phyto.nom, quantite: 0.75, unite: "l/ha", cibles: [{ id: cible }] });

    const rows = await intrantsGrille(scope, idAction);
    expect(rows.map((r) => r.id)).toEqual([first.saved[0].id, water]);
    expect(rows[0]).toMatchObject({ type: 539, produit: phyto.key, quantite: 0.75, dicLlUnite: "l/ha", cible1: cible });
    expect(rows[1]).toMatchObject({ type: 542, quantite: 30, dicLlUnite: "mm" });
    expect(rows[1].produit).toBeUndefined();

    // The water's dose edited in the grid; the phyto's token is old (someone changed it meanwhile): set aside.
    await saveIntrantsGrid(scope, idAction, [
      { id: rows[0].id, updatedAt: rows[0].updatedAt, values: { produit: phyto.key, quantite: 1, dicLlUnite: "l/ha", cible1: cible } },
    ]);
    const second = await saveIntrantsGrid(scope, idAction, [
      { id: rows[0].id, updatedAt: rows[0].updatedAt, values: { produit: phyto.key, quantite: 2, dicLlUnite: "l/ha" } },
      { id: water, updatedAt: rows[1].updatedAt, values: { quantite: 42, dicLlUnite: "mm" } },
    ]);
    expect(second.saved.map((s) => s.id)).toEqual([water]);
    expect(second.conflicts).toMatchObject([{ index: 0, id: rows[0].id, key: "errors.stale", values: { quantite: 1, produit: phyto.key } }]);
    expect(await getIntrant(scope, water)).toMatchObject({ quantite: 42, idCategorie: 5421, libelle: "Irrigation par aspersion (enrouleur, rampe, pivot)" });
    expect((await getIntrant(scope, rows[0].id)).quantite).toBe(1);
  });

  test("a row the kind's schema refuses names the grid's field and writes nothing; a reader and another campaign's intervention are refused", async () => {
    const idAction = await anAction();
    const redacteur = await selectTilleuls(t, "redacteur", "tilleuls2025");
    const scope = scopeOf(t.db(), redacteur);
    const phyto = await aPhyto();
    const before = await snapshot(t.db(), "intrant");
    // A phyto does not take mm; a new row without product names the product.
    await expectRefused(
      saveIntrantsGrid(scope, idAction, [
        { id: -1, updatedAt: null, values: { produit: phyto.key, quantite: 1, dicLlUnite: "mm" } },
        { id: -2, updatedAt: null, values: { quantite: 1, dicLlUnite: "l/ha" } },
      ]),
      "warning.invalid-form",
      400,
      { fieldErrors: { "patches.0.values.dicLlUnite": ["warning.invalid"], "patches.1.values.produit": ["warning.required"] } },
    );
    const lecteur = await selectTilleuls(t, "lecteur", "tilleuls2025");
    const row = { id: -1, updatedAt: null, values: { produit: phyto.key, quantite: 1, dicLlUnite: "l/ha" } };
    await expectRefused(saveIntrantsGrid(scopeOf(t.db(), lecteur), idAction, [row]), "errors.forbidden", 403);
    const autre = await selectTilleuls(t, "redacteur", "tilleuls2025Simulation");
    await expectRefused(saveIntrantsGrid(scopeOf(t.db(), autre), idAction, [row]), "errors.not-found", 404);
    expect(await snapshot(t.db(), "intrant")).toEqual(before);
  });

  test("[issue29-intrants-suppression] the grid's selected inputs are deleted by the dialogs' path in one transaction; an unknown id refuses all; a reader and a locked campaign are refused", async () => {
    const idAction = await anAction();
    const redacteur = await selectTilleuls(t, "redacteur", "tilleuls2025");
    const scope = scopeOf(t.db(), redacteur);
    const phyto = await aPhyto();
    const row = (id: number) => ({ id, updatedAt: null, values: { produit: phyto.key, quantite: 1, dicLlUnite: "l/ha" } });
    const { saved } = await saveIntrantsGrid(scope, idAction, [row(-1), row(-2), row(-3)]);
    const [a, b, c] = saved.map((s) => s.id);

    // A reader, and a campaign locked by its published indicators (the animator before unlocking): refused, nothing changes.
    const before = await snapshot(t.db(), "intrant");
    const lecteur = await selectTilleuls(t, "lecteur", "tilleuls2025");
    await expectRefused(removeIntrants(scopeOf(t.db(), lecteur), [a, b]), "errors.forbidden", 403);
    const animateur = await selectTilleuls(t, "animateur", "tilleuls2024");
    await expectRefused(removeIntrants(scopeOf(t.db(), animateur), [a, b]), "errors.forbidden", 403);
    // An id that is not an input of the campaign refuses the whole deletion.
    await expectRefused(removeIntrants(scope, [a, 999999]), "errors.services.intrants-delete-service-error", 404);
    expect(await snapshot(t.db(), "intrant")).toEqual(before);

    await removeIntrants(scope, [a, b]);
    expect((await intrantsGrille(scope, idAction)).map((r) => r.id)).toEqual([c]);
    // The dialogs' delete is the same path with one id.
    await removeIntrant(scope, c);
    expect(await intrantsGrille(scope, idAction)).toEqual([]);
  });

  test("[issue29-intrants-plusieurs] a block of new rows is added to each selected intervention in one save; a refused row names the grid's field and writes nothing", async () => {
    const actions = [await anAction(), await anAction(), await anAction()];
    const redacteur = await selectTilleuls(t, "redacteur", "tilleuls2025");
    const scope = scopeOf(t.db(), redacteur);
    const phyto = await aPhyto();
    const cible = Number((await t.db()("cible").orderBy("id").first("id")).id);
    const block = [
      { id: -1, updatedAt: null, values: { produit: phyto.key, quantite: "0,5", dicLlUnite: "l/ha", cible1: cible } },
      { id: -2, updatedAt: null, values: { produit: phyto.key, quantite: "1,25", dicLlUnite: "kg/ha" } },
    ];
    const before = await snapshot(t.db(), "intrant");
    // A phyto does not take mm, a row without product; an existing input cannot be pasted to several interventions.
    await expectRefused(
      addIntrantsToActions(scope, actions, [
        block[0],
        { id: -2, updatedAt: null, values: { quantite: 1, dicLlUnite: "mm" } },
        { id: 1, updatedAt: "x", values: block[0].values },
      ]),
      "warning.invalid-form",
      400,
      {
        fieldErrors: { "patches.1.values.produit": ["warning.required"], "patches.1.values.dicLlUnite": ["warning.invalid"], "patches.2": ["warning.invalid"] },
      },
    );
    // A reader, a locked campaign, and an intervention of another campaign among the selected ones.
    const lecteur = await selectTilleuls(t, "lecteur", "tilleuls2025");
    await expectRefused(addIntrantsToActions(scopeOf(t.db(), lecteur), actions, block), "errors.forbidden", 403);
    const animateur = await selectTilleuls(t, "animateur", "tilleuls2024");
    await expectRefused(addIntrantsToActions(scopeOf(t.db(), animateur), actions, block), "errors.forbidden", 403);
    const simulation = await selectTilleuls(t, "redacteur", "tilleuls2025Simulation");
    await expectRefused(addIntrantsToActions(scopeOf(t.db(), simulation), actions, block), "errors.not-found", 404);
    expect(await snapshot(t.db(), "intrant")).toEqual(before);

    const answer = await addIntrantsToActions(scope, actions, block);
    expect(answer.conflicts).toEqual([]);
    expect(answer.saved).toHaveLength(6);
    for (const idAction of actions) {
      const rows = await intrantsGrille(scope, idAction);
      expect(rows.map((r) => [r.produit, r.quantite, r.dicLlUnite, r.cible1 ?? null]).sort()).toEqual(
        [
          [phyto.key, 0.5, "l/ha", cible],
          [phyto.key, 1.25, "kg/ha", null],
        ].sort(),
      );
    }
  });
});
