import { afterAll, describe, expect, test } from "vitest";
import { TYPE_INTRANT } from "~/domain/intrant";
import { countRows, scopeOf, selectTilleuls, snapshot } from "../helpers/service";
import { dialect, useTestDb } from "../helpers/test-db";
import { apiClient, expectContract } from "../helpers/api-client";
import { APPELS_INTRANTS_SUITE } from "../../server/api/appels-intrants";
import { APPELS_RECOLTES_SUITE } from "../../server/api/appels-recoltes-suite";
import { getIntrant } from "../../server/intrant/service";
import { getRecolte } from "../../server/recolte/service";
import { getIntrantDossier } from "../../server/intrant-dossier/non-reference";

const t = useTestDb();
const { api, tokenOf, answered } = apiClient(t);

type Row = { id: number; updatedAt: string } & Record<string, unknown>;
const fieldsOf = (r: { body: unknown }) => Object.keys((r.body as { fieldErrors?: object }).fieldErrors ?? {});

/** An intervention of Tilleuls 2025 (and another one), a phyto product, targets, a fertiliser and a seed variety. */
async function fixture() {
  const db = t.db();
  const idCampagne = t.demo().campagnes.tilleuls2025;
  const actions = await db("action").where({ idCampagne }).orderBy("id").limit(2).select("id", "idParcelle");
  const phyto = await db("intrant_phyto").orderBy("idProduit").first("idProduit");
  const cibles = (await db("cible").orderBy("id").limit(3).pluck("id")).map(Number);
  const fert = await db("reference_fertilisant").whereNotNull("idTypeFertilisant").orderBy("id").first("id", "idTypeFertilisant");
  const seed = await db("reference_semence").whereNotNull("idCulture").orderBy("id").first("id", "idCulture");
  expect([actions[1], phyto, fert, seed].every(Boolean)).toBe(true);
  return {
    idCampagne,
    idAction: Number(actions[0].id),
    idParcelle: Number(actions[0].idParcelle),
    otherAction: Number(actions[1].id),
    cibles,
    phyto: { type: "phyto", idIntrant: Number(phyto.idProduit), origine: 776, quantite: 1.5, dicLlUnite: "l/ha" },
    fertilisant: {
      type: "fertilisant",
      idCategorie: Number(fert.idTypeFertilisant),
      idIntrant: Number(fert.id),
      origine: 776,
      quantite: 200,
      dicLlUnite: "kg/ha",
      n: 50,
      p2o5: 50,
    },
    semence: { type: "semence", idCulture: Number(seed.idCulture), idIntrant: Number(seed.id), origine: 776, quantite: 150, dicLlUnite: "kg/ha" },
  };
}

/** The screens' view of the campaign (the dialogs' own reads), as the writer who selected Tilleuls 2025. */
const screen = async () => scopeOf(t.db(), await selectTilleuls(t, "redacteur", "tilleuls2025"));

/** Runs `fn` while the campaign is locked (published indicators), then unlocks it. */
async function whileLocked(idCampagne: number, fn: () => Promise<void>) {
  await t.db()("campagne").where({ id: idCampagne }).update({ indicateurPublie: true });
  try {
    await fn();
  } finally {
    await t.db()("campagne").where({ id: idCampagne }).update({ indicateurPublie: false });
  }
}

async function newIntrant(body: Record<string, unknown>): Promise<Row> {
  const r = await api("POST", "/api/v1/intrants", { token: await tokenOf("redacteur"), body });
  expect(r.status).toBe(201);
  return r.body as Row;
}

describe(`the JSON API's calls left by decision 0112 (${dialect})`, () => {
  test("[C-API-14] caracteristique_intrants: read three ways, POST/PATCH the percentages and seed shares as the dialog shows them; reader 403, locked 403, stale 409, bad field 400", async () => {
    const f = await fixture();
    const token = await tokenOf("redacteur");
    const reader = await tokenOf("lecteur");
    const input = await newIntrant({ idAction: f.idAction, ...f.fertilisant });

    const read = await api("GET", `/api/v1/intrants/${input.id}/caracteristique_intrant`, { token: reader });
    expect(read.status).toBe(200);
    const car = read.body as Row & { intrant: number };
    expect(car).toMatchObject({ intrant: input.id, idAction: f.idAction, type: "fertilisant", n: 50, p2o5: 50, k2o: null });
    expect(car.id).toEqual(expect.any(Number));
    expect((await api("GET", `/api/v1/caracteristique_intrants/${car.id}`, { token: reader })).body).toEqual(car);
    expect((await api("GET", `/api/v1/actions/${f.idAction}/intrants/${input.id}/caracteristique_intrant`, { token: reader })).body).toEqual(car);
    expect((await api("GET", `/api/v1/actions/${f.otherAction}/intrants/${input.id}/caracteristique_intrant`, { token: reader })).status).toBe(404);
    expect((await api("GET", "/api/v1/caracteristique_intrants/999999", { token: reader })).status).toBe(404);

    const before = await snapshot(t.db(), "caracteristique_intrant", "intrant");
    // Refusals: a reader, a bad field (out of range, not a number, of another kind, unknown), a missing token.
    expect((await api("PATCH", `/api/v1/caracteristique_intrants/${car.id}`, { token: reader, body: { updatedAt: car.updatedAt, n: 30 } })).status).toBe(403);
    for (const [body, field] of [
      [{ n: 150 }, "n"],
      [{ n: "beaucoup" }, "n"],
      [{ semenceFerme: 100 }, "semenceFerme"],
      [{ saveur: 1 }, "saveur"],
    ] as [Record<string, unknown>, string][]) {
      const r = await api("PATCH", `/api/v1/caracteristique_intrants/${car.id}`, { token, body: { updatedAt: car.updatedAt, ...body } });
      expect([field, r.status]).toEqual([field, 400]);
      expect(fieldsOf(r)).toContain(field);
    }
    expect(fieldsOf(await api("PATCH", `/api/v1/caracteristique_intrants/${car.id}`, { token, body: { n: 30 } }))).toContain("updatedAt");
    await whileLocked(f.idCampagne, async () => {
      expect((await api("PATCH", `/api/v1/caracteristique_intrants/${car.id}`, { token, body: { updatedAt: car.updatedAt, n: 30 } })).status).toBe(403);
    });
    expect(await snapshot(t.db(), "caracteristique_intrant", "intrant")).toEqual(before);

    const patched = await api("PATCH", `/api/v1/caracteristique_intrants/${car.id}`, { token, body: { updatedAt: car.updatedAt, n: 30, p2o5: 30, k2o: 40 } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ id: car.id, n: 30, p2o5: 30, k2o: 40 });
    // The dialog reads it so, the input otherwise unchanged.
    const shown = await getIntrant(await screen(), input.id);
    expect(shown.caracteristique).toMatchObject({ n: 30, p2o5: 30, k2o: 40 });
    expect(shown).toMatchObject({ quantite: 200, unite: "kg/ha", idIntrant: f.fertilisant.idIntrant });
    const stale = await api("PATCH", `/api/v1/caracteristique_intrants/${car.id}`, { token, body: { updatedAt: car.updatedAt, n: 10 } });
    expect(stale.status).toBe(409);
    expect((await getIntrant(await screen(), input.id)).caracteristique).toMatchObject({ n: 30 });

    // A seed's shares by POST (the input named by `intrant`), total 100; a phyto has none.
    const seed = await newIntrant({ idAction: f.idAction, ...f.semence });
    const bad = await api("POST", "/api/v1/caracteristique_intrants", {
      token,
      body: { intrant: seed.id, updatedAt: seed.updatedAt, semenceFerme: 30, semenceCertifiee: 30 },
    });
    expect(bad.status).toBe(400);
    expect(fieldsOf(bad)).toContain("semenceCertifiee");
    const made = await api("POST", "/api/v1/caracteristique_intrants", {
      token,
      body: { intrant: seed.id, updatedAt: seed.updatedAt, semenceFerme: 40, semenceCertifiee: 60, semenceOgm: 0 },
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ intrant: seed.id, type: "semence", semenceFerme: 40, semenceCertifiee: 60, semenceOgm: 0 });
    expect((await getIntrant(await screen(), seed.id)).caracteristique).toMatchObject({ semenceFerme: 40, semenceCertifiee: 60 });
    const phyto = await newIntrant({ idAction: f.idAction, ...f.phyto });
    const none = await api("POST", "/api/v1/caracteristique_intrants", { token, body: { intrant: phyto.id, updatedAt: phyto.updatedAt, n: 10 } });
    expect(none.status).toBe(400);
    expect(fieldsOf(none)).toContain("intrant");
    expect((await api("GET", `/api/v1/intrants/${phyto.id}/caracteristique_intrant`, { token })).status).toBe(404);
    expect((await api("POST", "/api/v1/caracteristique_intrants", { token, body: { updatedAt: seed.updatedAt, n: 10 } })).status).toBe(400);
  });

  test("[C-API-08][C-API-09] intrant_cibles: POST (empty ids dropped), PATCH, DELETE the targets of a phyto input as the dialog shows them; reader 403, locked 403, stale 409, bad field 400", async () => {
    const f = await fixture();
    const token = await tokenOf("redacteur");
    const reader = await tokenOf("lecteur");
    const [c1, c2, c3] = f.cibles;
    const input = await newIntrant({ idAction: f.idAction, ...f.phyto });

    const before = await snapshot(t.db(), "intrant_cible", "intrant_cible_cible");
    const body = { intrant: input.id, idCibles: [c1, "", null, c2], uniteRefCible1: null, updatedAt: input.updatedAt };
    expect((await api("POST", "/api/v1/intrant_cibles", { token: reader, body })).status).toBe(403);
    for (const [changed, field] of [
      [{ idCibles: [999999] }, "idCibles[0]"],
      [{ idCibles: [c1, c1] }, "idCibles[1]"],
      [{ idCibles: [1, 2, 3, 4, 5] }, "idCibles"],
      [{ idCibles: ["x"] }, "idCibles[0]"],
      [{ couleur: "rouge" }, "couleur"],
    ] as [Record<string, unknown>, string][]) {
      const r = await api("POST", "/api/v1/intrant_cibles", { token, body: { ...body, ...changed } });
      expect([field, r.status]).toEqual([field, 400]);
      expect(fieldsOf(r)).toContain(field);
    }
    await whileLocked(f.idCampagne, async () => {
      expect((await api("POST", "/api/v1/intrant_cibles", { token, body })).status).toBe(403);
    });
    expect(await snapshot(t.db(), "intrant_cible", "intrant_cible_cible")).toEqual(before);

    const made = await api("POST", "/api/v1/intrant_cibles", { token, body });
    expect(made.status).toBe(201);
    const row = made.body as Row;
    expect(row).toMatchObject({ intrant: input.id, idCibles: [c1, c2] });
    expect(row.id).toEqual(expect.any(Number));
    expect((await getIntrant(await screen(), input.id)).cibles.map((c) => c.id)).toEqual([c1, c2]);

    const stale = await api("PATCH", `/api/v1/intrant_cibles/${row.id}`, { token, body: { idCibles: [c3], updatedAt: input.updatedAt } });
    expect(stale.status).toBe(409);
    const patched = await api("PATCH", `/api/v1/intrant_cibles/${row.id}`, { token, body: { idCibles: [c3, c1], updatedAt: row.updatedAt } });
    expect(patched.status).toBe(200);
    const now = patched.body as Row;
    expect(now).toMatchObject({ intrant: input.id, idCibles: [c3, c1] });
    expect((await getIntrant(await screen(), input.id)).cibles.map((c) => c.id)).toEqual([c3, c1]);
    // A fertiliser has no targets.
    const fert = await newIntrant({ idAction: f.idAction, ...f.fertilisant });
    expect(fieldsOf(await api("POST", "/api/v1/intrant_cibles", { token, body: { intrant: fert.id, idCibles: [c1], updatedAt: fert.updatedAt } }))).toContain(
      "intrant",
    );

    expect((await api("DELETE", `/api/v1/intrant_cibles/${now.id}`, { token: reader })).status).toBe(403);
    expect((await api("DELETE", `/api/v1/intrant_cibles/${now.id}`, { token })).status).toBe(204);
    expect((await getIntrant(await screen(), input.id)).cibles).toEqual([]);
    expect(await countRows(t.db(), "intrant", { id: input.id })).toBe(1);
    expect((await api("DELETE", `/api/v1/intrant_cibles/${now.id}`, { token })).status).toBe(404);
    expect((await api("PATCH", "/api/v1/intrant_cibles/999999", { token, body: { idCibles: [], updatedAt: row.updatedAt } })).status).toBe(404);
  });

  test("[C-API-15][C-API-16] caracteristique_recoltes: GET (four paths), POST, PATCH, DELETE as the harvest dialog shows them, PUT recoltes/{id}; reader 403, locked 403, stale 409, bad field 400", async () => {
    const f = await fixture();
    const db = t.db();
    const token = await tokenOf("redacteur");
    const reader = await tokenOf("lecteur");
    const seeded = await db("recolte as r")
      .join("action as a", "a.id", "r.idAction")
      .where("a.idCampagne", f.idCampagne)
      .orderBy("r.id")
      .first("r.idCulture", "r.dicIdTypeSortie");
    const fields = { idCulture: Number(seeded.idCulture), dicIdTypeSortie: Number(seeded.dicIdTypeSortie), rendement: 70, humiditeReference: 15 };
    const made = await api("POST", "/api/v1/recoltes", { token, body: { idAction: f.idAction, ...fields } });
    expect(made.status).toBe(201);
    const h = made.body as Row;

    const list = await api("GET", `/api/v1/caracteristique_recoltes?idRecolte=${h.id}`, { token: reader });
    expect(list.status).toBe(200);
    const rows = list.body as Row[];
    expect(rows).toMatchObject([{ idRecolte: h.id, dicIdCaracteristiqueRecolte: 1, valeurNum: 15, updatedAt: h.updatedAt }]);
    const row = rows[0];
    expect((await api("GET", `/api/v1/caracteristique_recoltes/${row.id}`, { token: reader })).body).toEqual(row);
    expect((await api("GET", `/api/v1/actions/${f.idAction}/recoltes/${h.id}/caracteristique_recoltes`, { token: reader })).body).toEqual(rows);
    expect((await api("GET", `/api/v1/actions/${f.otherAction}/recoltes/${h.id}/caracteristique_recoltes`, { token: reader })).status).toBe(404);
    const alias = `/api/v1/campagnes/${f.idCampagne}/parcelles/${f.idParcelle}/actions/${f.idAction}/recoltes`;
    const all = await api("GET", alias, { token: reader });
    expect(all.status).toBe(200);
    expect((all.body as Row[]).find((r) => r.id === h.id)).toMatchObject({ id: h.id, rendement: 70, caracteristiqueRecoltes: rows });
    expect((await api("GET", `${alias}/${h.id}/caracteristique_recoltes`, { token: reader })).body).toEqual(rows);
    expect((await api("GET", `/api/v1/campagnes/${f.idCampagne}/parcelles/999999/actions/${f.idAction}/recoltes`, { token: reader })).status).toBe(404);
    expect((await api("GET", "/api/v1/caracteristique_recoltes/999999", { token: reader })).status).toBe(404);

    const before = await snapshot(db, "recolte", "caracteristique_recolte");
    const humidity = { dicIdCaracteristiqueRecolte: 1, valeurNum: 14, updatedAt: h.updatedAt };
    expect((await api("PATCH", `/api/v1/caracteristique_recoltes/${row.id}`, { token: reader, body: humidity })).status).toBe(403);
    for (const [changed, field] of [
      [{ valeurNum: 150 }, "valeurNum"],
      [{ valeurNum: "humide" }, "valeurNum"],
      [{ dicIdCaracteristiqueRecolte: 2, dicIdModalite: 1 }, "dicIdCaracteristiqueRecolte"],
      [{ dicIdCaracteristiqueRecolte: 7 }, "dicIdCaracteristiqueRecolte"],
      [{ odeur: 1 }, "odeur"],
    ] as [Record<string, unknown>, string][]) {
      const r = await api("PATCH", `/api/v1/caracteristique_recoltes/${row.id}`, { token, body: { ...humidity, ...changed } });
      expect([field, r.status]).toEqual([field, 400]);
      expect(fieldsOf(r)).toContain(field);
    }
    await whileLocked(f.idCampagne, async () => {
      expect((await api("PATCH", `/api/v1/caracteristique_recoltes/${row.id}`, { token, body: humidity })).status).toBe(403);
      expect((await api("DELETE", `/api/v1/caracteristique_recoltes/${row.id}`, { token })).status).toBe(403);
    });
    expect(await snapshot(db, "recolte", "caracteristique_recolte")).toEqual(before);

    const patched = await api("PATCH", `/api/v1/caracteristique_recoltes/${row.id}`, { token, body: humidity });
    expect(patched.status).toBe(200);
    const now = patched.body as Row;
    expect(now).toMatchObject({ idRecolte: h.id, dicIdCaracteristiqueRecolte: 1, valeurNum: 14 });
    expect(await getRecolte(await screen(), h.id)).toMatchObject({ humiditeReference: 14, rendement: 70 });
    expect((await api("PATCH", `/api/v1/caracteristique_recoltes/${now.id}`, { token, body: { ...humidity, valeurNum: 13 } })).status).toBe(409);

    expect((await api("DELETE", `/api/v1/caracteristique_recoltes/${now.id}`, { token: reader })).status).toBe(403);
    expect((await api("DELETE", `/api/v1/caracteristique_recoltes/${now.id}`, { token })).status).toBe(204);
    expect((await getRecolte(await screen(), h.id)).humiditeReference).toBeNull();
    expect((await api("DELETE", `/api/v1/caracteristique_recoltes/${now.id}`, { token })).status).toBe(404);
    const after = (await getRecolte(await screen(), h.id)).updatedAt;
    const added = await api("POST", "/api/v1/caracteristique_recoltes", {
      token,
      body: { idRecolte: h.id, updatedAt: after, dicIdCaracteristiqueRecolte: 1, valeurNum: 16 },
    });
    expect(added.status).toBe(201);
    expect((await getRecolte(await screen(), h.id)).humiditeReference).toBe(16);
    expect(
      fieldsOf(await api("POST", "/api/v1/caracteristique_recoltes", { token, body: { updatedAt: after, dicIdCaracteristiqueRecolte: 1, valeurNum: 16 } })),
    ).toContain("idRecolte");

    // An animal row of a grazing.
    const grazing = await db("culture_type_sortie").where({ idTypeSortie: 671 }).orderBy("idCulture").first("idCulture");
    const animal = await db("reference_animal").orderBy("id").first("id");
    expect(grazing && animal).toBeTruthy();
    const g = await api("POST", "/api/v1/recoltes", {
      token,
      body: { idAction: f.idAction, idCulture: Number(grazing.idCulture), dicIdTypeSortie: 671, dureePaturage: 10 },
    });
    expect(g.status).toBe(201);
    const gr = g.body as Row;
    const cow = await api("POST", "/api/v1/caracteristique_recoltes", {
      token,
      body: { idRecolte: gr.id, updatedAt: gr.updatedAt, dicIdCaracteristiqueRecolte: 2, dicIdModalite: Number(animal.id), valeurNum: 12 },
    });
    expect(cow.status).toBe(201);
    expect(cow.body).toMatchObject({ dicIdCaracteristiqueRecolte: 2, dicIdModalite: Number(animal.id), valeurNum: 12 });
    expect(await getRecolte(await screen(), gr.id)).toMatchObject({ rendement: 10, animaux: [{ dicIdModalite: Number(animal.id), nombre: 12 }] });

    // PUT recoltes/{id}: the whole dialog's fields, as PATCH.
    const current = await getRecolte(await screen(), h.id);
    const put = await api("PUT", `/api/v1/recoltes/${h.id}`, { token, body: { ...fields, rendement: 81, updatedAt: current.updatedAt } });
    expect(put.status).toBe(200);
    expect(await getRecolte(await screen(), h.id)).toMatchObject({ rendement: 81, humiditeReference: 15 });
    expect((await api("PUT", `/api/v1/recoltes/${h.id}`, { token, body: { ...fields, updatedAt: current.updatedAt } })).status).toBe(409);
    expect((await api("PUT", `/api/v1/recoltes/${h.id}`, { token: reader, body: { ...fields, updatedAt: current.updatedAt } })).status).toBe(403);
    expect(fieldsOf(await api("PUT", `/api/v1/recoltes/${h.id}`, { token, body: { ...fields, rendement: -2, updatedAt: current.updatedAt } }))).toContain(
      "rendement",
    );
  });

  test("[C-API-17][C-API-20] qualifiant_recoltes/{id}/recoltes lists the campaign's harvests with the qualifier; cultures/{id} reads a crop with its output types", async () => {
    const f = await fixture();
    const db = t.db();
    const token = await tokenOf("redacteur");
    const reader = await tokenOf("lecteur");
    const q = (await api("POST", "/api/v1/qualifiant_recoltes", { token, body: { campagne: f.idCampagne, qrdNom: "Qualité suite 3" } })).body as { id: number };
    const seeded = await db("recolte as r")
      .join("action as a", "a.id", "r.idAction")
      .where("a.idCampagne", f.idCampagne)
      .orderBy("r.id")
      .first("r.idCulture", "r.dicIdTypeSortie");
    const body = {
      idAction: f.idAction,
      idCulture: Number(seeded.idCulture),
      dicIdTypeSortie: Number(seeded.dicIdTypeSortie),
      rendement: 60,
      idQualifiantRecolte: q.id,
    };
    const h = (await api("POST", "/api/v1/recoltes", { token, body })).body as Row;
    const list = await api("GET", `/api/v1/qualifiant_recoltes/${q.id}/recoltes?campagne=${f.idCampagne}`, { token: reader });
    expect(list.status).toBe(200);
    expect((list.body as Row[]).map((r) => r.id)).toEqual([h.id]);
    expect((await api("GET", `/api/v1/qualifiant_recoltes/999999/recoltes?campagne=${f.idCampagne}`, { token: reader })).status).toBe(404);
    expect((await api("GET", `/api/v1/qualifiant_recoltes/${q.id}/recoltes`, { token: reader })).status).toBe(400);

    const crop = await api("GET", `/api/v1/cultures/${Number(seeded.idCulture)}?locale=en`, { token: reader });
    expect(crop.status).toBe(200);
    const c = crop.body as { id: number; typesSorties: { id: number }[] };
    expect(c.id).toBe(Number(seeded.idCulture));
    expect(c.typesSorties.map((x) => x.id)).toContain(Number(seeded.dicIdTypeSortie));
    expect((await api("GET", "/api/v1/cultures/999999", { token: reader })).status).toBe(404);
    expect((await api("GET", "/api/v1/cultures/abc", { token: reader })).status).toBe(400);
  });

  test("[C-API-22] fertilisant_compo_dossiers: GET by intrantDossier, POST and PATCH the percentages by the folder's animator, as the unreferenced input's dialog shows them; 403, stale 409, bad field 400", async () => {
    const campagne = t.demo().campagnes.tilleuls2025;
    const redacteur = await tokenOf("redacteur");
    const animateur = await tokenOf("animateur");
    const made = await api("POST", "/api/v1/intrant_dossiers", {
      token: redacteur,
      body: { campagne, dicIdTypeIntrant: 540, libelle: "Engrais suite 3", idCategorie: 655, n: 40, p2o5: 30, k2o: 30 },
    });
    expect(made.status).toBe(201);
    const d = made.body as Row;
    const got = await api("GET", `/api/v1/fertilisant_compo_dossiers?intrantDossier=${d.id}&campagne=${campagne}`, { token: await tokenOf("lecteur") });
    expect(got.status).toBe(200);
    const [row] = got.body as Row[];
    expect(row).toMatchObject({ intrantDossier: d.id, n: 40, p2o5: 30, k2o: 30, updatedAt: d.updatedAt });
    expect(row.id).toEqual(expect.any(Number));

    const before = await snapshot(t.db(), "intrant_dossier", "fertilisant_compo_dossier");
    const body = { campagne, updatedAt: d.updatedAt, n: 50, p2o5: 25, k2o: 25 };
    expect((await api("PATCH", `/api/v1/fertilisant_compo_dossiers/${row.id}`, { token: redacteur, body })).status).toBe(403);
    for (const [changed, field] of [
      [{ n: 60 }, "n"],
      [{ k2o: "beaucoup" }, "k2o"],
      [{ saveur: 1 }, "saveur"],
    ] as [Record<string, unknown>, string][]) {
      const r = await api("PATCH", `/api/v1/fertilisant_compo_dossiers/${row.id}`, { token: animateur, body: { ...body, ...changed } });
      expect([field, r.status]).toEqual([field, 400]);
      expect(fieldsOf(r)).toContain(field);
    }
    expect(await snapshot(t.db(), "intrant_dossier", "fertilisant_compo_dossier")).toEqual(before);

    const patched = await api("PATCH", `/api/v1/fertilisant_compo_dossiers/${row.id}`, { token: animateur, body });
    expect(patched.status).toBe(200);
    const now = patched.body as Row;
    expect(now).toMatchObject({ id: row.id, n: 50, p2o5: 25, k2o: 25 });
    const shown = await getIntrantDossier(scopeOf(t.db(), await selectTilleuls(t, "animateur", "tilleuls2025")), d.id);
    expect(shown).toMatchObject({ libelle: "Engrais suite 3", idCategorie: 655, composition: { n: 50, p2o5: 25, k2o: 25 } });
    expect((await api("PATCH", `/api/v1/fertilisant_compo_dossiers/${row.id}`, { token: animateur, body })).status).toBe(409);

    const posted = await api("POST", "/api/v1/fertilisant_compo_dossiers", {
      token: animateur,
      body: { campagne, intrantDossier: d.id, updatedAt: now.updatedAt, n: 100, p2o5: 0, k2o: 0 },
    });
    expect(posted.status).toBe(201);
    expect(posted.body).toMatchObject({ id: row.id, n: 100, p2o5: 0 });
    expect((await api("POST", "/api/v1/fertilisant_compo_dossiers", { token: animateur, body: { campagne, updatedAt: now.updatedAt, n: 100 } })).status).toBe(
      400,
    );
    expect((await api("GET", `/api/v1/fertilisant_compo_dossiers?intrantDossier=999999&campagne=${campagne}`, { token: animateur })).status).toBe(404);
  });

  test("[C-API-11][C-SEED-23] reference_semence_sillon_dossiers/{id} reads a species' varieties of one origin (776 or 777); reference_semences_sillon_dossiers a folder's own seeds", async () => {
    const f = await fixture();
    const { dossiers } = t.demo();
    const token = await tokenOf("redacteur");
    const own = await api("POST", "/api/v1/intrant_dossiers", {
      token,
      body: { campagne: f.idCampagne, dicIdTypeIntrant: TYPE_INTRANT.SEMENCE, libelle: "Variété maison suite 3", idCulture: f.semence.idCulture },
    });
    expect(own.status).toBe(201);
    const idOwn = (own.body as Row).id;
    const path = `/api/v1/reference_semence_sillon_dossiers/${f.semence.idCulture}`;
    const folder = await api("GET", `${path}?origine=777&idDossier=${dossiers.beauce}`, { token });
    expect(folder.status).toBe(200);
    const mine = folder.body as { id: number; idOriginIntrant: number }[];
    expect(mine.map((s) => s.id)).toContain(idOwn);
    expect(mine.every((s) => s.idOriginIntrant === 777)).toBe(true);
    const reference = (await api("GET", `${path}?origine=776&idDossier=${dossiers.beauce}`, { token })).body as { id: number; idOriginIntrant: number }[];
    expect(reference.map((s) => s.id)).toContain(f.semence.idIntrant);
    expect(reference.some((s) => s.idOriginIntrant === 777)).toBe(false);
    expect((await api("GET", path, { token })).status).toBe(400);
    expect((await api("GET", `${path}?origine=775`, { token })).status).toBe(400);

    const all = await api("GET", `/api/v1/reference_semences_sillon_dossiers?idDossier=${dossiers.beauce}`, { token });
    expect(all.status).toBe(200);
    expect((all.body as { id: number }[]).map((s) => s.id)).toContain(idOwn);
    expect((await api("GET", "/api/v1/reference_semences_sillon_dossiers?idDossier=999999", { token })).status).toBe(404);
  });
});

afterAll(() => expectContract([...APPELS_INTRANTS_SUITE, ...APPELS_RECOLTES_SUITE], answered));
